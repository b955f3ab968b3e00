/* Reading a whole stream into memory. */
#include "util/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>


int cr_read_all(char **out, size_t *out_len, FILE *f, const char *name, cr_error *err)
{
    size_t len = 0, cap = 0;
    char *buf = NULL;
    while (cr_grow((void **)&buf, &cap, len + 2, 1, 4096) == 0) {
        len += fread(buf + len, 1, cap - len - 1, f);
        if (ferror(f)) {
            free(buf);
            return cr_errorf(err, CR_EIO, "cannot read %s: %s", name, strerror(errno));
        }
        if (feof(f)) {
            buf[len] = '\0';
            *out = buf;
            *out_len = len;
            return 0;
        }
    }
    free(buf);
    return cr_errorf(err, CR_ENOMEM, "no memory to read %s", name);
}

int cr_read_path(char **out, size_t *out_len, const char *path, cr_error *err)
{
    if (!path)
        return cr_read_all(out, out_len, stdin, "standard input", err);
    FILE *f = fopen(path, "rb");
    if (!f)
        return cr_errorf(err, CR_EIO, "cannot open %s: %s", path, strerror(errno));
    int rc = cr_read_all(out, out_len, f, path, err);
    fclose(f);
    return rc;
}

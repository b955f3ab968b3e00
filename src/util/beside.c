/* A file written whole or not at all: into a new file beside it, renamed
 * over it once complete; and whether two paths are one file, which a
 * command must not both read and write. */
#include "util/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

FILE *cr_file_beside(char **out_tmp, const char *path, cr_error *err)
{
    const char *slash = strrchr(path, '/');
    int folder_len = slash ? (int)(slash - path) + 1 : 0; /* with its '/' */
    size_t len = strlen(path) + sizeof "..coinrow-XXXXXX";
    char *tmp = *out_tmp = malloc(len);
    if (!tmp) {
        cr_errorf(err, CR_ENOMEM, "no memory for the path of %s", path);
        return NULL;
    }
    snprintf(tmp, len, "%.*s.%s.coinrow-XXXXXX", folder_len, path, path + folder_len);
    mode_t mask = umask(0);
    umask(mask);
    int fd = mkstemp(tmp);
    FILE *f = fd >= 0 && fchmod(fd, 0666 & ~mask) == 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        int e = errno;
        if (fd >= 0) {
            close(fd);
            remove(tmp);
        }
        tmp[0] = '\0'; /* nothing to remove */
        cr_errorf(err, CR_EIO, "cannot create a file beside %s: %s", path, strerror(e));
    }
    return f;
}

int cr_file_same(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

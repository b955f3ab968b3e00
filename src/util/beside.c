/* A file written whole or not at all: into a new file beside it, renamed
 * over it once complete; and whether two paths are one file, which a
 * command must not both read and write. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "util/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *cr_file_kind(mode_t mode)
{
    return S_ISDIR(mode)    ? "a folder"
           : S_ISFIFO(mode) ? "a FIFO"
           : S_ISSOCK(mode) ? "a socket"
           : S_ISCHR(mode)  ? "a character device"
           : S_ISBLK(mode)  ? "a block device"
           : S_ISLNK(mode)  ? "a symbolic link"
           : S_ISREG(mode)  ? "a regular file"
                            : "not a file";
}

/* The file a rename puts the new one in place of, into *out: path when
 * nothing or a regular file is there, the regular file a symbolic link
 * names (the link is kept); a refusal for anything else, which the rename
 * would replace (as root, a device: --out /dev/full). */
static int target_of(char **out, const char *path, cr_error *err)
{
    struct stat st, to;
    *out = NULL;
    int missing = lstat(path, &st) != 0;
    if (missing && errno != ENOENT)
        return cr_errorf(err, CR_EIO, "cannot write %s: %s", path, strerror(errno));
    if (missing || S_ISREG(st.st_mode))
        *out = strdup(path);
    else if (!S_ISLNK(st.st_mode))
        return cr_errorf(err, CR_EINVAL, "cannot write %s: it is %s, not a file", path, cr_file_kind(st.st_mode));
    else if (stat(path, &to) != 0)
        return cr_errorf(err, CR_EIO, "cannot write %s: it is a link to a missing file", path);
    else if (!S_ISREG(to.st_mode))
        return cr_errorf(err, CR_EINVAL, "cannot write %s: it is a link to %s, not a file", path,
                         cr_file_kind(to.st_mode));
    else
        *out = realpath(path, NULL);
    return *out ? 0 : cr_errorf(err, CR_ENOMEM, "no memory for the path of %s", path);
}

FILE *cr_file_beside(char **out_tmp, char **out_target, const char *path, cr_error *err)
{
    *out_tmp = NULL;
    if (target_of(out_target, path, err) != 0)
        return NULL;
    path = *out_target;
    const char *slash = strrchr(path, '/');
    int folder_len = slash ? (int)(slash - path) + 1 : 0; /* with its '/' */
    size_t len = strlen(path) + sizeof "..coinrow-XXXXXX";
    char *tmp = *out_tmp = malloc(len);
    if (!tmp) {
        cr_errorf(err, CR_ENOMEM, "no memory for the path of %s", path);
        return NULL;
    }
    snprintf(tmp, len, "%.*s.%s.coinrow-XXXXXX", folder_len, path, path + folder_len);
    /* a file replaced keeps its permissions (a report kept private stays
     * private), its group and, where allowed, its owner; one the user may
     * not write is refused, as writing into it would be */
    struct stat was;
    int replaced = stat(path, &was) == 0;
    if (replaced && access(path, W_OK) != 0) {
        cr_errorf(err, CR_EIO, "cannot write %s: %s", path, strerror(errno));
        tmp[0] = '\0';
        return NULL;
    }
    mode_t mask = umask(0);
    umask(mask);
    int fd = mkstemp(tmp);
    if (fd >= 0 && replaced && fchown(fd, was.st_uid, was.st_gid) != 0 && fchown(fd, (uid_t)-1, was.st_gid) != 0) {
        /* neither: the new file is the user's own */
    }
    FILE *f = fd >= 0 && fchmod(fd, replaced ? was.st_mode & 07777 : 0666 & ~mask) == 0 ? fdopen(fd, "w") : NULL;
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

/* Writing a report (report.h): where the page may go is checked first, its
 * figures gathered, then the page written into a temporary file beside the
 * destination and renamed over it once whole. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/model.h"
#include "util/util.h"

/* The folder of path ("." for a bare name) into out (cap bytes). */
static void parent_of(char *out, size_t cap, const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(out, cap, ".");
    else if (slash == path)
        snprintf(out, cap, "/");
    else
        snprintf(out, cap, "%.*s", (int)(slash - path), path);
}

/* Refuses a destination that is a folder, that is the database itself, or
 * whose folder does not exist. */
static int check_destination(cr_store *store, const char *path, const char *parent, cr_error *err)
{
    struct stat to, dir;
    if (stat(parent, &dir) != 0 || !S_ISDIR(dir.st_mode))
        return cr_errorf(err, CR_EINVAL, "cannot write the report to %s: the folder %s does not exist", path, parent);
    if (stat(path, &to) != 0)
        return 0;
    if (S_ISDIR(to.st_mode))
        return cr_errorf(err, CR_EINVAL, "cannot write the report to %s: it is a folder", path);
    if (cr_file_same(cr_store_path(store), path))
        return cr_errorf(err, CR_EINVAL, "cannot write the report to %s: it is the database", path);
    return 0;
}

/* Writes the page into a new temporary file beside the file path names
 * (the names in *out_tmp and *out_target, for the caller to rename or
 * remove, and free). */
static int write_page(char **out_tmp, char **out_target, uint64_t *out_bytes, const cr_report_model *m,
                      const char *path, cr_error *err)
{
    FILE *f = cr_file_beside(out_tmp, out_target, path, err);
    if (!f)
        return err->code;
    cr_report__page(f, m);
    long bytes = ftell(f);
    int failed = ferror(f), e = errno;
    if (fclose(f) != 0 && !failed)
        failed = 1, e = errno;
    if (failed)
        return cr_errorf(err, CR_EIO, "cannot write the report to %s: %s", path, strerror(e));
    *out_bytes = bytes > 0 ? (uint64_t)bytes : 0;
    return 0;
}

int cr_report_write(cr_report_stats *out, cr_store *store, const char *path, const cr_report_opts *opts, cr_error *err)
{
    char parent[4096];
    char *tmp = NULL, *target = NULL;
    memset(out, 0, sizeof *out);
    parent_of(parent, sizeof parent, path);
    int rc = check_destination(store, path, parent, err);
    cr_report_model *m = rc ? NULL : calloc(1, sizeof *m);
    if (rc)
        return rc;
    if (!m)
        return cr_errorf(err, CR_ENOMEM, "no memory for the report");
    m->opts = opts;
    rc = cr_report__gather(m, store, err);
    if (rc == 0)
        rc = write_page(&tmp, &target, &out->bytes, m, path, err);
    if (rc == 0 && opts->stop && atomic_load(opts->stop))
        rc = cr_errorf(err, CR_EINTERRUPTED, "interrupted: no report written");
    if (rc == 0 && rename(tmp, target) != 0)
        rc = cr_errorf(err, CR_EIO, "cannot write the report to %s: %s", path, strerror(errno));
    if (rc && tmp && tmp[0])
        remove(tmp);
    if (rc == 0) {
        out->run_id = m->has_run ? m->run.run.id : 0;
        out->against_id = m->has_against ? m->against.run.id : 0;
        out->instances = m->set.instances;
        out->invocations = m->column_count;
    }
    free(tmp);
    free(target);
    cr_report__model_clear(m);
    free(m);
    return rc;
}

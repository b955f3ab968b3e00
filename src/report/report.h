/* The report (docs/report.md): one self-contained HTML page that shows a
 * set, a run of it, a comparison of two runs and the set's invocations,
 * with charts coinrow draws as SVG from aggregates SQLite computes
 * (store.h, "what coinrow report shows").  The page loads nothing: its CSS
 * and SVG are inline, it has no script, and its Content-Security-Policy
 * forbids anything else, so that it opens from file:// with no network.
 * Every text from the database is escaped.  Whatever the set's size, the
 * page holds a bounded number of elements: many tests fold into a capped
 * matrix. */
#ifndef CR_REPORT_H
#define CR_REPORT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "coinrow/error.h"
#include "store/store.h"

typedef struct cr_report_opts {
    int64_t set_id;
    int64_t run_id;         /* 0: the set's latest done run */
    int64_t against_id;     /* 0: the latest done run of the set before the run, if any */
    const char *version;    /* the coinrow that writes the page */
    const char *db_shown;   /* the database as the page names it */
    int jobs;               /* connections reading at once, at least 1 */
    const atomic_int *stop; /* may be NULL; once set, nothing more is read and nothing written */
} cr_report_opts;

/* What a report shows, for the command's summary. */
typedef struct cr_report_stats {
    int64_t run_id, against_id; /* 0: none shown */
    uint64_t instances;
    size_t invocations; /* columns of the matrix */
    uint64_t bytes;     /* of the page */
} cr_report_stats;

/* Writes the report of set opts->set_id of store to the file at path: into
 * a temporary file beside it, renamed over it once whole, so that no
 * half-written page is ever left (nor a page replaced by one).  Extra
 * connections (opts->jobs - 1) are opened on the store's path to read in
 * parallel.  CR_EINVAL naming the run when opts->run_id or
 * opts->against_id is not a run of the set (or the two are one), or when
 * path is the database itself or a folder; CR_EIO when the file cannot be
 * written; CR_EINTERRUPTED after a stop, writing nothing. */
int cr_report_write(cr_report_stats *out, cr_store *store, const char *path, const cr_report_opts *opts, cr_error *err);

#endif

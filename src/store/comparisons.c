/* Comparisons of two runs or two invocations (compare --record), kept in
 * the database of run a (schema/003_runs.sql, 005_invoke.sql). */
#include "store/sql.h"

/* one column per category, same to changed, bound in that order */
_Static_assert(CR_CATEGORY_COUNT == 5, "the comparison table has a column per category");

int cr_store_comparison_add(cr_store *store, const cr_store_comparison *c, cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = cr_store__prepare(&st, store,
                               "INSERT INTO comparison (run_a, db_b, run_b, strict_moves, same, equivalent, regression, "
                               "missing, changed, passed, kind, improved) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                               "recording the comparison", err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, c->run_a);
    sqlite3_bind_text(st, 2, c->db_b, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, c->run_b);
    sqlite3_bind_int(st, 4, c->strict_moves);
    for (int k = 0; k < CR_CATEGORY_COUNT; k++)
        sqlite3_bind_int64(st, 5 + k, (int64_t)c->counts[k]);
    sqlite3_bind_int(st, 10, c->passed);
    sqlite3_bind_text(st, 11, c->invocations ? "invocations" : "runs", -1, SQLITE_STATIC);
    if (c->invocations)
        sqlite3_bind_int64(st, 12, (int64_t)c->improved);
    else
        sqlite3_bind_null(st, 12);
    rc = cr_store__step_done(store, st, "recording the comparison", err);
    sqlite3_finalize(st);
    return rc;
}

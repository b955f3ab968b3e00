/* Checking a database: SQLite's own checks of the file's structure, and
 * coinrow's invariants about runs and their results, one named query each. */
#include "io/store_sql.h"

#include <stdio.h>
#include <string.h>

#include "util/errorf.h"

/* Findings of SQLite's checks passed on, one each, before "and more". */
#define SHOWN 10

/* coinrow's invariants.  Each query returns how many rows break it and a
 * description of the first; add one by adding a line. */
static const struct invariant {
    const char *name; /* what it checks, as check-db shows it */
    const char *says; /* what the rows that break it are */
    const char *sql;
} invariants[] = {
    {"results-have-their-instance", "results whose run or instance is missing, or whose instance is not of "
                                    "the run's set",
     "SELECT count(*), min(printf('run %d, instance %d', r.run_id, r.instance_id)) FROM result AS r "
     "LEFT JOIN run AS u ON u.id = r.run_id "
     "LEFT JOIN instance AS i ON i.id = r.instance_id AND i.set_id = u.set_id WHERE i.id IS NULL"},
    {"solved-instances-have-every-variant", "instances solved in a run without exactly the run's variants",
     "SELECT count(*), min(printf('run %d, instance %d: %d of %d', run_id, instance_id, known, wanted)) FROM "
     "(SELECT r.run_id, r.instance_id, count(*) AS have, "
     "sum(instr(',' || u.variants || ',', ',' || r.variant || ',') > 0) AS known, "
     "length(u.variants) - length(replace(u.variants, ',', '')) + 1 AS wanted "
     "FROM result AS r JOIN run AS u ON u.id = r.run_id GROUP BY r.run_id, r.instance_id) "
     "WHERE have <> wanted OR known <> wanted"},
    /* a done run covers its set as it was: instances ingested later have
     * higher ids than every one it solved */
    {"done-runs-have-every-instance", "done runs that lack an instance of their set older than the last they solved",
     "SELECT count(*), min(printf('run %d: %d of %d', id, solved, total)) FROM "
     "(SELECT u.id, (SELECT count(DISTINCT r.instance_id) FROM result AS r WHERE r.run_id = u.id) AS solved, "
     "(SELECT count(*) FROM instance AS i WHERE i.set_id = u.set_id AND i.id <= "
     "(SELECT max(r.instance_id) FROM result AS r WHERE r.run_id = u.id)) AS total "
     "FROM run AS u WHERE u.status = 'done') WHERE solved <> total"},
    {"names-are-not-empty", "sets or instances whose name is empty or holds a NUL byte",
     "SELECT count(*), min(what) FROM "
     "(SELECT printf('set %d', id) AS what FROM instance_set WHERE name = '' OR instr(name, char(0)) > 0 "
     "UNION ALL SELECT printf('instance %d', id) FROM instance WHERE ext_id = '' OR instr(ext_id, char(0)) > 0)"},
};

/* Passes one finding of SQLite's to fn, up to SHOWN of them. */
static void sqlite_finding(int *count, const char *name, const char *text, size_t len, cr_store_check_fn fn,
                           void *ctx)
{
    static const char header[] = "*** in database "; /* names the schema, here always main */
    if (len == 0 || (len >= sizeof header - 1 && memcmp(text, header, sizeof header - 1) == 0))
        return;
    if ((*count)++ < SHOWN) {
        char line[CR_ERROR_MSG_MAX];
        snprintf(line, sizeof line, "%.*s", (int)len, text);
        fn(ctx, name, line);
    }
}

/* Runs PRAGMA quick_check or integrity_check, passing each finding to fn
 * (up to SHOWN, then how many more); *out_ok when it found nothing. */
static int sqlite_check(int *out_ok, cr_store *s, const char *pragma, const char *name, cr_store_check_fn fn,
                        void *ctx, cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = cr_store__prepare(&st, s, pragma, "checking it", err), step = SQLITE_DONE, count = 0;
    *out_ok = 1;
    while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
        const char *text = (const char *)sqlite3_column_text(st, 0);
        if (!text || strcmp(text, "ok") == 0)
            continue;
        *out_ok = 0;
        /* a row may hold several findings, a line each */
        for (const char *end; (end = strchr(text, '\n')) != NULL; text = end + 1)
            sqlite_finding(&count, name, text, (size_t)(end - text), fn, ctx);
        sqlite_finding(&count, name, text, strlen(text), fn, ctx);
    }
    if (rc == 0 && step != SQLITE_DONE) {
        /* damage that stops the check is a finding too */
        *out_ok = 0;
        const char *why = sqlite3_errmsg(s->db);
        sqlite_finding(&count, name, why, strlen(why), fn, ctx);
    }
    if (count > SHOWN) {
        char more[64];
        snprintf(more, sizeof more, "... and %d more", count - SHOWN);
        fn(ctx, name, more);
    }
    sqlite3_finalize(st);
    return rc;
}

static void first_finding(void *ctx, const char *check, const char *finding)
{
    char *first = ctx;
    (void)check;
    if (!first[0])
        snprintf(first, CR_ERROR_MSG_MAX / 2, "%s", finding);
}

int cr_store_quick_check(cr_store *store, cr_error *err)
{
    char first[CR_ERROR_MSG_MAX / 2] = "";
    int ok, rc = sqlite_check(&ok, store, "PRAGMA quick_check", "quick_check", first_finding, first, err);
    if (rc == 0 && !ok)
        rc = cr_errorf(err, CR_EDB, "%s: the database is damaged (%s); 'coinrow check-db --db %s' tells more",
                       store->path, first, store->path);
    return rc;
}

int cr_store_check(unsigned *out_failed, cr_store *store, cr_store_check_fn fn, void *ctx, cr_error *err)
{
    int ok, rc = sqlite_check(&ok, store, "PRAGMA integrity_check", "integrity", fn, ctx, err);
    *out_failed = !ok;
    if (rc == 0 && ok)
        fn(ctx, "integrity", NULL);
    for (size_t k = 0; rc == 0 && k < sizeof invariants / sizeof invariants[0]; k++) {
        const struct invariant *v = &invariants[k];
        sqlite3_stmt *st = NULL;
        if (!ok) {
            /* the queries would read damaged pages */
            fn(ctx, v->name, "not checked: the file is damaged");
            continue;
        }
        if ((rc = cr_store__prepare(&st, store, v->sql, "checking it", err)) != 0)
            break;
        if (sqlite3_step(st) != SQLITE_ROW) {
            rc = cr_store__fail(store, "checking it", err);
        } else if (sqlite3_column_int64(st, 0) == 0) {
            fn(ctx, v->name, NULL);
        } else {
            char finding[CR_ERROR_MSG_MAX];
            snprintf(finding, sizeof finding, "%lld %s (the first: %s)", (long long)sqlite3_column_int64(st, 0),
                     v->says, (const char *)sqlite3_column_text(st, 1));
            fn(ctx, v->name, finding);
            ++*out_failed;
        }
        sqlite3_finalize(st);
    }
    return rc;
}

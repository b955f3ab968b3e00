/* The shard row of a shard database (schema/003_runs.sql, 009_shard_ranges.sql): which
 * shard of which job it holds, its range of ids, and the fingerprint of the
 * whole set it came from. */
#include "store/sql.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* A copy of column col's text, or NULL for NULL: 0, or CR_ENOMEM. */
static int column_copy(char **out, sqlite3_stmt *st, int col, cr_error *err)
{
    const char *text = (const char *)sqlite3_column_text(st, col);
    *out = text ? strdup(text) : NULL;
    return text && !*out ? cr_errorf(err, CR_ENOMEM, "no memory to read the shard") : 0;
}

int cr_store_shard_read(cr_store_shard *out, cr_store *store, cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = cr_store__prepare(&st, store,
                               "SELECT s.run_id, s.k, s.n, s.set_size, s.set_digest, s.input, i.name, "
                               "(SELECT count(*) FROM instance WHERE set_id = i.id), "
                               "i.digest, s.split = 'range', s.lo, s.hi FROM shard AS s "
                               "JOIN run AS r ON r.id = s.run_id JOIN instance_set AS i ON i.id = r.set_id",
                               "reading the shard", err);
    if (rc)
        return rc;
    out->lo = out->hi = NULL;
    int step = sqlite3_step(st);
    if (step == SQLITE_ROW) {
        out->run_id = sqlite3_column_int64(st, 0);
        out->k = (uint32_t)sqlite3_column_int64(st, 1);
        out->n = (uint32_t)sqlite3_column_int64(st, 2);
        out->set_size = (uint64_t)sqlite3_column_int64(st, 3);
        out->set_digest = strtoull((const char *)sqlite3_column_text(st, 4), NULL, 16);
        snprintf(out->input, sizeof out->input, "%s", (const char *)sqlite3_column_text(st, 5));
        snprintf(out->set_name, sizeof out->set_name, "%s", (const char *)sqlite3_column_text(st, 6));
        out->instances = (uint64_t)sqlite3_column_int64(st, 7);
        out->digest = strtoull((const char *)sqlite3_column_text(st, 8), NULL, 16);
        out->ranged = sqlite3_column_int(st, 9);
        rc = column_copy(&out->lo, st, 10, err);
        if (rc == 0)
            rc = column_copy(&out->hi, st, 11, err);
    } else if (step != SQLITE_DONE) {
        rc = cr_store__fail(store, "reading the shard", err);
    }
    sqlite3_finalize(st);
    if (rc)
        cr_store_shard_clear(out);
    return rc ? rc : step == SQLITE_ROW;
}

void cr_store_shard_clear(cr_store_shard *shard)
{
    free(shard->lo);
    free(shard->hi);
    shard->lo = shard->hi = NULL;
}

int cr_store_shard_add(cr_store *store, const cr_store_shard *shard, cr_error *err)
{
    char digest[17];
    snprintf(digest, sizeof digest, "%016" PRIx64, shard->set_digest);
    sqlite3_stmt *st = NULL;
    int rc = cr_store__prepare(&st, store,
                               "INSERT INTO shard (run_id, k, n, set_size, set_digest, input, split, lo, hi) "
                               "VALUES (?, ?, ?, ?, ?, ?, 'range', ?, ?)",
                               "recording the shard", err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, shard->run_id);
    sqlite3_bind_int64(st, 2, shard->k);
    sqlite3_bind_int64(st, 3, shard->n);
    sqlite3_bind_int64(st, 4, (int64_t)shard->set_size);
    sqlite3_bind_text(st, 5, digest, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 6, shard->input, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 7, shard->lo, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 8, shard->hi, -1, SQLITE_STATIC);
    rc = cr_store__step_done(store, st, "recording the shard", err);
    sqlite3_finalize(st);
    return rc;
}

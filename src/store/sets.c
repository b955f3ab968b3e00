/* Instance sets and their instances: finding and naming sets, adding
 * instances and rejected rows, reading a set back in pages. */
#include "store/sql.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* "a, b, c" (the first few set names) for messages. */
static void set_names(char *out, size_t cap, cr_store *s)
{
    sqlite3_stmt *st = NULL;
    out[0] = '\0';
    if (sqlite3_prepare_v2(s->db,
                           "SELECT group_concat(name, ', ') FROM (SELECT name FROM instance_set ORDER BY id LIMIT 8)",
                           -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
        snprintf(out, cap, "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
}

int cr_store_set_find(int64_t *out_id, cr_store *store, const char *name, int create, const char *source,
                      cr_error *err)
{
    char names[256];
    if (!name) {
        int64_t count = 0;
        int rc = cr_store__query_int(&count, store, "SELECT count(*) FROM instance_set", 0, 0, "reading the sets", err);
        if (rc)
            return rc;
        if (count != 1) {
            set_names(names, sizeof names, store);
            return count == 0 ? cr_errorf(err, CR_EINVAL, "%s has no instance set yet; ingest one first", store->path)
                              : cr_errorf(err, CR_EINVAL, "%s has %lld instance sets (%s%s): name one",
                                             store->path, (long long)count, names, count > 8 ? ", ..." : "");
        }
        return cr_store__query_int(out_id, store, "SELECT id FROM instance_set", 0, 0, "reading the sets", err);
    }
    sqlite3_stmt *st = NULL;
    int rc = cr_store__prepare(&st, store, "SELECT id FROM instance_set WHERE name = ?", "reading the sets", err);
    if (rc)
        return rc;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    int step = sqlite3_step(st);
    if (step == SQLITE_ROW)
        *out_id = sqlite3_column_int64(st, 0);
    else if (step != SQLITE_DONE)
        rc = cr_store__fail(store, "reading the sets", err);
    sqlite3_finalize(st);
    if (rc || step == SQLITE_ROW)
        return rc;
    if (!create) {
        set_names(names, sizeof names, store);
        return cr_errorf(err, CR_EINVAL, "%s has no instance set '%s' (sets: %s)", store->path, name,
                            names[0] ? names : "none");
    }
    if (!*name)
        return cr_errorf(err, CR_EINVAL, "%s: a set needs a name, and this one is empty (give --set NAME)",
                         store->path);
    rc = cr_store__prepare(&st, store, "INSERT INTO instance_set (name, source) VALUES (?, ?)", "creating a set", err);
    if (rc)
        return rc;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, source, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_DONE)
        *out_id = sqlite3_last_insert_rowid(store->db);
    else
        rc = cr_store__fail(store, "creating a set", err);
    sqlite3_finalize(st);
    return rc;
}

int cr_store_set_name(char *out, size_t cap, cr_store *store, int64_t set_id, cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = cr_store__prepare(&st, store, "SELECT name FROM instance_set WHERE id = ?", "reading the sets", err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, set_id);
    if (sqlite3_step(st) == SQLITE_ROW)
        snprintf(out, cap, "%s", (const char *)sqlite3_column_text(st, 0));
    else
        rc = cr_errorf(err, CR_EINVAL, "%s has no instance set %lld", store->path, (long long)set_id);
    sqlite3_finalize(st);
    return rc;
}

int cr_store_set_size(uint64_t *out, cr_store *store, int64_t set_id, cr_error *err)
{
    int64_t v = 0;
    int rc = cr_store__query_int(&v, store, "SELECT count(*) FROM instance WHERE set_id = ?", set_id, 0,
                                 "counting instances", err);
    *out = (uint64_t)v;
    return rc;
}

/* ---- writing ---- */

/* Settles rows whose insert did nothing: an ext_id the set already had. */
static int settle_instances(cr_store *s, int64_t set_id, cr_store_instance *rows, size_t count, cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = cr_store__kept(&st, s, CR_STORE__FIND_INSTANCE,
                            "SELECT id, coins FROM instance WHERE set_id = ? AND ext_id = ?", err);
    for (size_t i = 0; rc == 0 && i < count; i++) {
        cr_store_instance *r = &rows[i];
        sqlite3_bind_int64(st, 1, set_id);
        int step = sqlite3_bind_text64(st, 2, r->ext_id, (sqlite3_uint64)r->ext_id_len, SQLITE_STATIC, SQLITE_UTF8);
        if (step == SQLITE_OK)
            step = sqlite3_step(st);
        if (step == SQLITE_DONE) {
            /* the insert ignored the row for another reason than its id */
            rc = cr_errorf(err, CR_EDB, "%s: instance '%.*s' was not stored, and the set has no row of that id",
                           s->path, (int)cr_utf8_cut(r->ext_id, r->ext_id_len > 60 ? 60 : r->ext_id_len), r->ext_id);
        } else if (step != SQLITE_ROW) {
            rc = cr_store__fail(s, "looking up an instance", err);
        } else if (sqlite3_column_int64(st, 0) != r->id) {
            const char *coins = (const char *)sqlite3_column_text(st, 1);
            size_t len = (size_t)sqlite3_column_bytes(st, 1);
            r->state = len == r->coins_json_len && memcmp(coins, r->coins_json, len) == 0 ? CR_STORE_SAME
                                                                                           : CR_STORE_CLASH;
            r->id = sqlite3_column_int64(st, 0);
        }
        sqlite3_reset(st);
    }
    return rc;
}

uint64_t cr_store_length_max(cr_store *store) { return (uint64_t)sqlite3_limit(store->db, SQLITE_LIMIT_LENGTH, -1); }

/* What a row of instance takes beyond its ext_id and coins, at most: the
 * record's header and its integers. */
#define INSTANCE_ROW_OVERHEAD 64

/* Whether r fits in a row (SQLITE_LIMIT_LENGTH): SQLite refuses a longer
 * one, and an unchecked bind would store a NULL in its place. */
static int instance_fits(const cr_store_instance *r, uint64_t max)
{
    return max > INSTANCE_ROW_OVERHEAD && r->coins_json_len <= max - INSTANCE_ROW_OVERHEAD &&
           r->ext_id_len <= max - INSTANCE_ROW_OVERHEAD - r->coins_json_len;
}

int cr_store_add_instances(cr_store *store, int64_t set_id, cr_store_instance *rows, size_t count, cr_error *err)
{
    int rc = 0;
    uint64_t max = cr_store_length_max(store);
    for (size_t done = 0; rc == 0 && done < count;) {
        if (!instance_fits(&rows[done], max)) {
            rows[done].id = 0;
            rows[done++].state = CR_STORE_TOO_LONG;
            continue;
        }
        size_t fit = 1;
        while (fit < CR_STORE__CHUNK && done + fit < count && instance_fits(&rows[done + fit], max))
            fit++;
        size_t k = fit == CR_STORE__CHUNK ? CR_STORE__CHUNK : 1;
        sqlite3_stmt *st = NULL;
        rc = cr_store__kept_insert(&st, store, CR_STORE__INSTANCES_CHUNK,
                                   "instance (id, set_id, ext_id, n, coins, total)", "(?,?,?,?,?,?)", k, "", err);
        if (rc)
            break;
        cr_store_instance *chunk = rows + done;
        for (size_t i = 0; rc == 0 && i < k; i++) {
            cr_store_instance *r = &chunk[i];
            int p = (int)(6 * i);
            r->id = store->next_instance_id++;
            r->state = CR_STORE_ADDED;
            sqlite3_bind_int64(st, p + 1, r->id);
            sqlite3_bind_int64(st, p + 2, set_id);
            sqlite3_bind_int64(st, p + 4, (sqlite3_int64)r->n);
            if (r->total_fits)
                sqlite3_bind_int64(st, p + 6, r->total);
            else
                sqlite3_bind_null(st, p + 6);
            if (sqlite3_bind_text64(st, p + 3, r->ext_id, (sqlite3_uint64)r->ext_id_len, SQLITE_STATIC,
                                    SQLITE_UTF8) != SQLITE_OK ||
                sqlite3_bind_text64(st, p + 5, r->coins_json, (sqlite3_uint64)r->coins_json_len, SQLITE_STATIC,
                                    SQLITE_UTF8) != SQLITE_OK) {
                rc = cr_store__fail(store, "writing instances", err);
                sqlite3_clear_bindings(st);
            }
        }
        if (rc == 0)
            rc = cr_store__step_done(store, st, "writing instances", err);
        if (rc == 0 && (size_t)sqlite3_changes(store->db) < k)
            rc = settle_instances(store, set_id, chunk, k, err);
        done += k;
    }
    return rc;
}

int cr_store_add_ingest_error(cr_store *store, int64_t set_id, const char *source, uint64_t line,
                              const char *ext_id, size_t ext_id_len, const char *reason, const char *raw,
                              size_t raw_len, cr_error *err)
{
    while (raw_len > 0 && (raw[raw_len - 1] == '\n' || raw[raw_len - 1] == '\r'))
        raw_len--;
    if (raw_len > CR_RAW_MAX)
        raw_len = cr_utf8_cut(raw, CR_RAW_MAX);
    sqlite3_stmt *st = NULL;
    int rc = cr_store__kept(&st, store, CR_STORE__INGEST_ERROR,
                            "INSERT INTO ingest_error (set_id, source, line, ext_id, reason, raw) "
                            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                            err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, set_id);
    sqlite3_bind_text(st, 2, source, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, (sqlite3_int64)line);
    /* an id too long to store with the rest is left out: the line says
     * where the row is */
    if (ext_id && ext_id_len <= cr_store_length_max(store) / 2)
        sqlite3_bind_text64(st, 4, ext_id, (sqlite3_uint64)ext_id_len, SQLITE_STATIC, SQLITE_UTF8);
    else
        sqlite3_bind_null(st, 4);
    sqlite3_bind_text(st, 5, reason, -1, SQLITE_STATIC);
    sqlite3_bind_text64(st, 6, raw ? raw : "", (sqlite3_uint64)raw_len, SQLITE_STATIC, SQLITE_UTF8);
    return cr_store__step_done(store, st, "recording a rejected row", err);
}

/* ---- ingests under way ----
 * A row of ingest_error that no input row can be (CR_STORE__UNFINISHED):
 * its source is the ingest's, raw the command that finishes the job.  The
 * schema has no column for it; a row there needs no schema version. */

int cr_store_ingest_begin(cr_store *store, int64_t set_id, const char *source, const char *finish, cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = cr_store__prepare(&st, store,
                               "INSERT INTO ingest_error (set_id, source, line, reason, raw) "
                               "VALUES (?, ?, 0, 'ingest unfinished', ?) ON CONFLICT DO NOTHING",
                               "recording the ingest", err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, set_id);
    sqlite3_bind_text(st, 2, source, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, finish, -1, SQLITE_STATIC);
    rc = cr_store__step_done(store, st, "recording the ingest", err);
    sqlite3_finalize(st);
    return rc;
}

int cr_store_ingest_end(cr_store *store, int64_t set_id, const char *source, cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = cr_store__prepare(&st, store,
                               "DELETE FROM ingest_error WHERE set_id = ?1 AND (?2 IS NULL OR source = ?2) AND "
                               CR_STORE__UNFINISHED,
                               "recording the end of the ingest", err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, set_id);
    sqlite3_bind_text(st, 2, source, -1, SQLITE_STATIC);
    rc = cr_store__step_done(store, st, "recording the end of the ingest", err);
    sqlite3_finalize(st);
    return rc;
}

int cr_store_ingest_unfinished(cr_unfinished_ingest *out, int *out_found, cr_store *store, int64_t set_id,
                               cr_error *err)
{
    sqlite3_stmt *st = NULL;
    *out_found = 0;
    int rc = cr_store__prepare(&st, store,
                               "SELECT source, raw FROM ingest_error WHERE set_id = ? AND " CR_STORE__UNFINISHED
                               " ORDER BY id DESC LIMIT 1",
                               "reading the set's ingests", err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, set_id);
    int step = sqlite3_step(st);
    if (step == SQLITE_ROW) {
        *out_found = 1;
        cr_store__column_text(out->source, sizeof out->source, st, 0);
        cr_store__column_text(out->finish, sizeof out->finish, st, 1);
    } else if (step != SQLITE_DONE) {
        rc = cr_store__fail(store, "reading the set's ingests", err);
    }
    sqlite3_finalize(st);
    return rc;
}

/* ---- reading ---- */

struct cr_store_instances {
    cr_store__pager pager;
    int64_t set_id, key, last_id; /* key: the run (or invocation) whose instances are left out */
    cr_instance row;
    cr_coins coins;
    char *ext_id;
    size_t ext_id_cap;
};

static void bind_instances(void *ctx, sqlite3_stmt *st)
{
    cr_store_instances *it = ctx;
    sqlite3_bind_int64(st, 1, it->set_id);
    sqlite3_bind_int64(st, 2, it->last_id);
    sqlite3_bind_int64(st, 3, it->key);
    sqlite3_bind_int(st, 4, CR_STORE__PAGE);
}

/* An iterator over the instances of set_id that `sql` selects, with ?3
 * bound to `key`. */
static int instances_open(cr_store_instances **out, cr_store *store, int64_t set_id, int64_t key, const char *sql,
                          cr_error *err)
{
    *out = NULL;
    cr_store_instances *it = calloc(1, sizeof *it);
    if (!it)
        return cr_errorf(err, CR_ENOMEM, "no memory to read instances");
    it->set_id = set_id;
    it->key = key;
    int rc = cr_store__pager_open(&it->pager, store, sql, "reading instances", err);
    if (rc) {
        cr_store_instances_free(it);
        return rc;
    }
    *out = it;
    return 0;
}

/* +set_id: walk the rowids from the last one (the set's index cannot give
 * id order, and sorting the rest of the set for every page would make the
 * whole walk quadratic) */
#define INSTANCES_SQL(left) \
    "SELECT i.id, i.ext_id, i.coins FROM instance AS i WHERE +i.set_id = ?1 AND i.id > ?2 AND " left \
    " ORDER BY i.id LIMIT ?4"

int cr_store_instances_new(cr_store_instances **out, cr_store *store, int64_t set_id, int64_t run_id,
                           cr_error *err)
{
    return instances_open(out, store, set_id, run_id,
                          INSTANCES_SQL("(?3 = 0 OR NOT EXISTS "
                                        "(SELECT 1 FROM solution AS s WHERE s.run_id = ?3 AND s.instance_id = i.id))"),
                          err);
}

int cr_store_instances_unjudged_new(cr_store_instances **out, cr_store *store, int64_t set_id, int64_t invocation_id,
                                    cr_error *err)
{
    return instances_open(out, store, set_id, invocation_id,
                          INSTANCES_SQL("NOT EXISTS (SELECT 1 FROM verdict AS v WHERE v.invocation_id = ?3 "
                                        "AND v.instance_id = i.id)"),
                          err);
}

int cr_store_instances_next(const cr_instance **out, cr_store_instances *it, cr_error *err)
{
    int rc = cr_store__pager_step(&it->pager, bind_instances, it, err);
    if (rc <= 0)
        return rc;
    sqlite3_stmt *st = it->pager.st;
    it->last_id = sqlite3_column_int64(st, 0);
    if ((rc = cr_store__keep_text(&it->ext_id, &it->ext_id_cap, st, 1, err)) != 0)
        return rc;
    cr_error bad = {0};
    const char *coins = (const char *)sqlite3_column_text(st, 2);
    if ((rc = cr_coins_parse(&it->coins, coins ? coins : "", (size_t)sqlite3_column_bytes(st, 2), &bad)) != 0)
        return cr_errorf(err, rc, "%s: instance %lld ('%s'): coins: %s", cr_store_path(it->pager.store),
                            (long long)it->last_id, it->ext_id, bad.msg);
    it->row = (cr_instance){it->last_id, it->ext_id, it->coins.v, it->coins.n, it->coins.json, it->coins.json_len};
    *out = &it->row;
    return 1;
}

void cr_store_instances_free(cr_store_instances *it)
{
    if (!it)
        return;
    sqlite3_finalize(it->pager.st);
    cr_coins_free(&it->coins);
    free(it->ext_id);
    free(it);
}

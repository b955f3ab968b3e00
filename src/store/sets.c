/* Instance sets and their instances: finding and naming sets, adding
 * instances and rejected rows, reading a set back in pages. */
#include "store/sql.h"

#include <inttypes.h>
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

int cr_store_refuse_sets(cr_store *store, const char *doing, cr_error *err)
{
    int64_t count = 0;
    int rc = cr_store__query_int(&count, store, "SELECT count(*) FROM instance_set", 0, 0, "reading the sets", err);
    if (rc || count == 0)
        return rc;
    char names[256];
    set_names(names, sizeof names, store);
    return cr_errorf(err, CR_EINVAL, "%s holds %lld instance set%s (%s%s), and %s", store->path, (long long)count,
                     count == 1 ? "" : "s", names, count > 8 ? ", ..." : "", doing);
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

/* r as the set holds it, in the row st is on: its id (column 0), and SAME
 * or CLASH by its coins' text (column coins). */
static void take_found(cr_store_instance *r, sqlite3_stmt *st, int coins)
{
    const char *text = (const char *)sqlite3_column_text(st, coins);
    size_t len = (size_t)sqlite3_column_bytes(st, coins);
    r->state = len == r->coins_json_len && memcmp(text, r->coins_json, len) == 0 ? CR_STORE_SAME : CR_STORE_CLASH;
    r->id = sqlite3_column_int64(st, 0);
}

/* Looks rows[0..count) up in set_id by ext_id: each found row's id, and its
 * state SAME or CLASH by its coins, unless the id found is its own (a row
 * just added keeps ADDED); a row not found is MISSING. */
static int find_instances(cr_store *s, int64_t set_id, cr_store_instance *rows, size_t count, cr_error *err)
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
            r->id = 0;
            r->state = CR_STORE_MISSING;
        } else if (step != SQLITE_ROW) {
            rc = cr_store__fail(s, "looking up an instance", err);
        } else if (sqlite3_column_int64(st, 0) != r->id) {
            take_found(r, st, 1);
        }
        sqlite3_reset(st);
    }
    return rc;
}

/* a < b in SQLite's BINARY order: memcmp, then the shorter first. */
static int id_before(const char *a, size_t a_len, const char *b, size_t b_len)
{
    int c = memcmp(a, b, a_len < b_len ? a_len : b_len);
    return c < 0 || (c == 0 && a_len < b_len);
}

int cr_store_find_instances(cr_store *store, int64_t set_id, cr_store_instance *rows, size_t count, cr_error *err)
{
    /* rows come in ext_id order (a merge's do): one scan of the set's
     * index from the first, stepping to each row in turn, instead of a
     * descent of the index for each; a row before the last starts the
     * scan again */
    sqlite3_stmt *st = NULL;
    int rc = cr_store__kept(&st, store, CR_STORE__SCAN_INSTANCES,
                            "SELECT id, ext_id, coins FROM instance WHERE set_id = ? AND ext_id >= ? ORDER BY ext_id",
                            err);
    int step = SQLITE_DONE;
    const char *at = NULL; /* the scan's ext_id */
    size_t at_len = 0;
    for (size_t i = 0; rc == 0 && i < count; i++) {
        cr_store_instance *r = &rows[i];
        if (i == 0 || !id_before(rows[i - 1].ext_id, rows[i - 1].ext_id_len, r->ext_id, r->ext_id_len)) {
            sqlite3_reset(st);
            sqlite3_bind_int64(st, 1, set_id);
            step = sqlite3_bind_text64(st, 2, r->ext_id, (sqlite3_uint64)r->ext_id_len, SQLITE_TRANSIENT,
                                       SQLITE_UTF8);
            at = NULL;
        }
        while (step == SQLITE_OK || (step == SQLITE_ROW && id_before(at, at_len, r->ext_id, r->ext_id_len))) {
            step = sqlite3_step(st);
            if (step == SQLITE_ROW) {
                at = (const char *)sqlite3_column_text(st, 1);
                at_len = (size_t)sqlite3_column_bytes(st, 1);
            }
        }
        if (step != SQLITE_ROW && step != SQLITE_DONE) {
            rc = cr_store__fail(store, "looking up an instance", err);
        } else if (step == SQLITE_DONE || id_before(r->ext_id, r->ext_id_len, at, at_len)) {
            r->id = 0;
            r->state = CR_STORE_MISSING;
        } else {
            take_found(r, st, 2);
        }
    }
    if (st)
        sqlite3_reset(st);
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
        if (rc == 0 && (size_t)sqlite3_changes(store->db) < k) {
            rc = find_instances(store, set_id, chunk, k, err);
            for (size_t i = 0; rc == 0 && i < k; i++) {
                const cr_store_instance *r = &chunk[i];
                char shown[64];
                if (r->state == CR_STORE_MISSING) /* the insert ignored it for another reason than its id */
                    rc = cr_errorf(err, CR_EDB, "%s: instance '%s' was not stored, and the set has no row of that id",
                                   store->path, cr_text_shown_len(shown, sizeof shown, r->ext_id, r->ext_id_len));
            }
        }
        if (rc == 0 && store->added_set != set_id)
            rc = cr_store__sets_settle(store, err);
        for (size_t i = 0; rc == 0 && i < k; i++)
            if (chunk[i].state == CR_STORE_ADDED) {
                store->added_set = set_id;
                store->added_size++;
                store->added_digest += chunk[i].digest;
            }
        done += k;
    }
    return rc;
}

/* The digest as the schema keeps it: 16 hex digits. */
static void digest_text(char out[17], uint64_t digest) { snprintf(out, 17, "%016" PRIx64, digest); }

static uint64_t digest_parse(const unsigned char *text) { return text ? strtoull((const char *)text, NULL, 16) : 0; }

int cr_store__sets_settle(cr_store *s, cr_error *err)
{
    if (!s->added_set)
        return 0;
    sqlite3_stmt *st = NULL;
    int rc = cr_store__prepare(&st, s, "SELECT size, digest FROM instance_set WHERE id = ?", "counting a set", err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, s->added_set);
    uint64_t size = 0, digest = 0;
    if (sqlite3_step(st) == SQLITE_ROW) {
        size = (uint64_t)sqlite3_column_int64(st, 0);
        digest = digest_parse(sqlite3_column_text(st, 1));
    } else {
        rc = cr_store__fail(s, "counting a set", err);
    }
    sqlite3_finalize(st);
    if (rc)
        return rc;
    char text[17];
    digest_text(text, digest + s->added_digest);
    rc = cr_store__prepare(&st, s, "UPDATE instance_set SET size = ?, digest = ? WHERE id = ?", "counting a set", err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, (int64_t)(size + s->added_size));
    sqlite3_bind_text(st, 2, text, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, s->added_set);
    rc = cr_store__step_done(s, st, "counting a set", err);
    sqlite3_finalize(st);
    if (rc == 0) {
        s->added_set = 0;
        s->added_size = s->added_digest = 0;
    }
    return rc;
}

int cr_store_set_fingerprint(uint64_t *out_size, uint64_t *out_digest, cr_store *store, int64_t set_id,
                             cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = cr_store__prepare(&st, store, "SELECT size, digest FROM instance_set WHERE id = ?", "reading a set", err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, set_id);
    if (sqlite3_step(st) == SQLITE_ROW) {
        int pending = store->added_set == set_id;
        *out_size = (uint64_t)sqlite3_column_int64(st, 0) + (pending ? store->added_size : 0);
        *out_digest = digest_parse(sqlite3_column_text(st, 1)) + (pending ? store->added_digest : 0);
    } else {
        rc = cr_errorf(err, CR_EINVAL, "%s has no instance set %lld", store->path, (long long)set_id);
    }
    sqlite3_finalize(st);
    return rc;
}

/* ---- marks: every MARK_STRIDE-th ext_id of a set (schema/009_shard_ranges.sql) ---- */

#define MARK_STRIDE 1024

/* Whether set_id's marks were taken at its present digest. */
static int marks_fresh(int *out, cr_store *s, int64_t set_id, cr_error *err)
{
    int64_t fresh = 0;
    int rc = cr_store__query_int(&fresh, s, "SELECT coalesce(marked = digest, 0) FROM instance_set WHERE id = ?",
                                 set_id, 0, "reading a set's marks", err);
    *out = fresh != 0;
    return rc;
}

/* Runs sql, which returns no row, with ? bound to set_id. */
static int exec_on_set(cr_store *s, const char *sql, int64_t set_id, cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = cr_store__prepare(&st, s, sql, "marking a set", err);
    if (rc == 0) {
        sqlite3_bind_int64(st, 1, set_id);
        rc = cr_store__step_done(s, st, "marking a set", err);
    }
    sqlite3_finalize(st);
    return rc;
}

int cr_store_set_mark(cr_store *store, int64_t set_id, cr_error *err)
{
    int fresh, rc = cr_store__sets_settle(store, err); /* its digest as it is now */
    if (rc == 0)
        rc = marks_fresh(&fresh, store, set_id, err);
    if (rc || fresh)
        return rc;
    /* one pass over the set's index in id order, a row every MARK_STRIDE
     * (a window function over it sorts the whole set first) */
    sqlite3_stmt *ids = NULL, *mark = NULL;
    if (rc == 0)
        rc = exec_on_set(store, "DELETE FROM set_mark WHERE set_id = ?", set_id, err);
    if (rc == 0)
        rc = cr_store__prepare(&ids, store, "SELECT ext_id FROM instance WHERE set_id = ? ORDER BY ext_id",
                               "marking a set", err);
    if (rc == 0)
        rc = cr_store__prepare(&mark, store, "INSERT INTO set_mark (set_id, position, ext_id) VALUES (?, ?, ?)",
                               "marking a set", err);
    if (rc == 0)
        sqlite3_bind_int64(ids, 1, set_id);
    int step = SQLITE_DONE;
    for (int64_t position = 0; rc == 0 && (step = sqlite3_step(ids)) == SQLITE_ROW; position++) {
        if (position % MARK_STRIDE)
            continue;
        sqlite3_bind_int64(mark, 1, set_id);
        sqlite3_bind_int64(mark, 2, position);
        sqlite3_bind_value(mark, 3, sqlite3_column_value(ids, 0));
        rc = cr_store__step_done(store, mark, "marking a set", err);
    }
    if (rc == 0 && step != SQLITE_DONE)
        rc = cr_store__fail(store, "marking a set", err);
    sqlite3_finalize(ids);
    sqlite3_finalize(mark);
    if (rc == 0)
        rc = exec_on_set(store, "UPDATE instance_set SET marked = digest WHERE id = ?", set_id, err);
    return rc;
}

int cr_store_set_id_at(char **out, cr_store *store, int64_t set_id, uint64_t position, cr_error *err)
{
    *out = NULL;
    int fresh, rc = marks_fresh(&fresh, store, set_id, err);
    if (rc)
        return rc;
    /* from the mark before it, or else from the set's first id */
    sqlite3_stmt *st = NULL;
    rc = cr_store__prepare(&st, store,
                           fresh ? "SELECT ext_id FROM instance WHERE set_id = ?1 AND ext_id >= "
                                   "(SELECT ext_id FROM set_mark WHERE set_id = ?1 AND position = ?2) "
                                   "ORDER BY ext_id LIMIT 1 OFFSET ?3"
                                 : "SELECT ext_id FROM instance WHERE set_id = ?1 ORDER BY ext_id LIMIT 1 OFFSET ?3",
                           "finding a shard's bounds", err);
    if (rc)
        return rc;
    uint64_t from = fresh ? position / MARK_STRIDE * MARK_STRIDE : 0;
    sqlite3_bind_int64(st, 1, set_id);
    sqlite3_bind_int64(st, 2, (int64_t)from);
    sqlite3_bind_int64(st, 3, (int64_t)(position - from));
    int step = sqlite3_step(st);
    if (step == SQLITE_ROW) {
        *out = strdup((const char *)sqlite3_column_text(st, 0));
        if (!*out)
            rc = cr_errorf(err, CR_ENOMEM, "no memory for an id");
    } else if (step == SQLITE_DONE) {
        rc = cr_errorf(err, CR_EINVAL, "%s: set %lld has no instance at position %llu", store->path,
                       (long long)set_id, (unsigned long long)position);
    } else {
        rc = cr_store__fail(store, "finding a shard's bounds", err);
    }
    sqlite3_finalize(st);
    return rc;
}

/* ---- the upgrade's functions ---- */

static void set_digest_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    uint64_t *sum = sqlite3_aggregate_context(ctx, sizeof *sum);
    const char *ext_id = (const char *)sqlite3_value_text(argv[0]);
    size_t ext_id_len = (size_t)sqlite3_value_bytes(argv[0]);
    const char *coins = (const char *)sqlite3_value_text(argv[1]);
    if (!sum)
        sqlite3_result_error_nomem(ctx);
    else if (ext_id && coins)
        *sum += cr_instance_digest(ext_id, ext_id_len, coins, (size_t)sqlite3_value_bytes(argv[1]));
}

static void set_digest_final(sqlite3_context *ctx)
{
    uint64_t *sum = sqlite3_aggregate_context(ctx, 0);
    char text[17];
    digest_text(text, sum ? *sum : 0);
    sqlite3_result_text(ctx, text, -1, SQLITE_TRANSIENT);
}

void cr_store_finish_put(FILE *f, const char *finish, const char *db)
{
    if (!cr_text_command_literal(finish)) {
        fputs("(not shown: the database keeps a command there that coinrow does not write, changed outside "
              "coinrow)",
              f);
        return;
    }
    for (const char *word = finish, *end;; word = end + 1) {
        end = cr_text_command_word_end(word);
        if (end - word == 4 && memcmp(word, "--db", 4) == 0 && *end) { /* an older coinrow's, with its value */
            end = cr_text_command_word_end(end + 1);
        } else {
            if (word != finish)
                fputc(' ', f);
            cr_text_put_len(f, word, (size_t)(end - word)); /* quotes may hold what a terminal must not get */
        }
        if (!*end)
            break;
    }
    fputs(" --db ", f);
    cr_text_put_word(f, db);
}

/* coinrow_command_shown(raw, db): what cr_store_finish_put writes. */
static void command_shown_sql(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    cr_store_finish_put(f, (const char *)sqlite3_value_text(argv[0]), (const char *)sqlite3_value_text(argv[1]));
    if (fclose(f) != 0)
        sqlite3_result_error_nomem(ctx);
    else
        sqlite3_result_text(ctx, text, (int)len, free);
}

int cr_store__sets_register(cr_store *s, cr_error *err)
{
    /* direct only: coinrow's own statements call them, never the schema */
    int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY;
    if (sqlite3_create_function(s->db, "coinrow_set_digest", 2, flags, NULL, NULL, set_digest_step,
                                set_digest_final) != SQLITE_OK ||
        sqlite3_create_function(s->db, "coinrow_command_shown", 2, flags, NULL, command_shown_sql, NULL, NULL) !=
            SQLITE_OK)
        return cr_store__fail(s, "setting it up", err);
    return 0;
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

/* Binds an ingest's source and files to ?2 and ?3 (NULL: no ingest). */
static void bind_ingest_of(sqlite3_stmt *st, const cr_store_ingest_of *of)
{
    sqlite3_bind_text(st, 2, of ? of->source : NULL, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, of ? of->files : NULL, -1, SQLITE_STATIC);
}

/* The marks (rows of ingest_error) of an ingest of ?2 (source) or ?3
 * (files, kept in the mark's ext_id; an older coinrow's mark has none). */
#define INGEST_OF "(source = ?2 OR ext_id = ?3)"

int cr_store_ingest_begin(cr_store *store, int64_t set_id, const cr_store_ingest_of *of, const char *finish,
                          cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = cr_store__prepare(&st, store,
                               "INSERT INTO ingest_error (set_id, source, ext_id, line, reason, raw) "
                               "VALUES (?1, ?2, ?3, 0, 'ingest unfinished', ?4) ON CONFLICT DO NOTHING",
                               "recording the ingest", err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, set_id);
    bind_ingest_of(st, of);
    sqlite3_bind_text(st, 4, finish, -1, SQLITE_STATIC);
    rc = cr_store__step_done(store, st, "recording the ingest", err);
    sqlite3_finalize(st);
    return rc;
}

int cr_store_ingest_end(cr_store *store, int64_t set_id, const cr_store_ingest_of *of, cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = cr_store__prepare(&st, store,
                               "DELETE FROM ingest_error WHERE set_id = ?1 AND (?2 IS NULL OR " INGEST_OF ") AND "
                               CR_STORE__UNFINISHED,
                               "recording the end of the ingest", err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, set_id);
    bind_ingest_of(st, of);
    rc = cr_store__step_done(store, st, "recording the end of the ingest", err);
    sqlite3_finalize(st);
    return rc;
}

int cr_store_ingest_unfinished(cr_unfinished_ingest *out, int *out_found, cr_store *store, int64_t set_id,
                               const cr_store_ingest_of *except, cr_error *err)
{
    sqlite3_stmt *st = NULL;
    *out_found = 0;
    int rc = cr_store__prepare(&st, store,
                               "SELECT source, raw FROM ingest_error WHERE set_id = ?1 AND (?2 IS NULL OR NOT "
                               "coalesce(" INGEST_OF ", 0)) AND " CR_STORE__UNFINISHED " ORDER BY id DESC LIMIT 1",
                               "reading the set's ingests", err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, set_id);
    bind_ingest_of(st, except);
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
    int ranged, started;          /* a range of ext_ids, from lo (or the first) to hi (or the end) */
    int keep_damaged;
    char *lo, *hi;
    cr_error damage; /* why the last row cannot be read */
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
    if (it->ranged) { /* from the last page's last id, past it */
        const char *from = it->started ? it->ext_id : it->lo ? it->lo : "";
        /* copies: the last id's buffer may move while the page is read */
        sqlite3_bind_text(st, 5, from, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 6, it->hi, -1, SQLITE_STATIC);
        if (it->started)
            sqlite3_bind_text(st, 7, it->ext_id, -1, SQLITE_TRANSIENT);
    }
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
    "SELECT i.id, i.ext_id, i.coins, i.n FROM instance AS i WHERE +i.set_id = ?1 AND i.id > ?2 AND " left \
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

int cr_store_instances_range_new(cr_store_instances **out, cr_store *store, int64_t set_id, const char *lo,
                                 const char *hi, cr_error *err)
{
    /* ext_id is unique in a set: a page goes on from the last one's last */
    int rc = instances_open(out, store, set_id, 0,
                            hi ? "SELECT i.id, i.ext_id, i.coins, i.n FROM instance AS i WHERE i.set_id = ?1 "
                                 "AND i.ext_id >= ?5 AND i.ext_id IS NOT ?7 AND i.ext_id < ?6 ORDER BY i.ext_id LIMIT ?4"
                               : "SELECT i.id, i.ext_id, i.coins, i.n FROM instance AS i WHERE i.set_id = ?1 "
                                 "AND i.ext_id >= ?5 AND i.ext_id IS NOT ?7 ORDER BY i.ext_id LIMIT ?4",
                            err);
    if (rc)
        return rc;
    cr_store_instances *it = *out;
    it->ranged = 1;
    it->lo = lo ? strdup(lo) : NULL;
    it->hi = hi ? strdup(hi) : NULL;
    if ((lo && !it->lo) || (hi && !it->hi)) {
        cr_store_instances_free(it);
        *out = NULL;
        return cr_errorf(err, CR_ENOMEM, "no memory to read instances");
    }
    return 0;
}

int cr_store_instances_next(const cr_instance **out, cr_store_instances *it, cr_error *err)
{
    int rc = cr_store__pager_step(&it->pager, bind_instances, it, err);
    if (rc <= 0)
        return rc;
    sqlite3_stmt *st = it->pager.st;
    it->last_id = sqlite3_column_int64(st, 0);
    if ((rc = cr_store__keep_ext_id(&it->ext_id, &it->ext_id_cap, it->pager.store, st, 1, it->last_id, err)) != 0)
        return rc;
    it->started = 1;
    cr_error bad = {0};
    const char *field = "coins: "; /* what bad says is wrong */
    const char *coins = (const char *)sqlite3_column_text(st, 2);
    rc = cr_coins_parse(&it->coins, coins ? coins : "", (size_t)sqlite3_column_bytes(st, 2), &bad);
    if (rc == CR_ENOMEM)
        return cr_errorf(err, rc, "%s: instance %lld ('%s'): %s", it->pager.store->path, (long long)it->last_id,
                         it->ext_id, bad.msg);
    /* solutions copy n from the row, and lines have one turn per coin */
    if (rc == 0 && sqlite3_column_int64(st, 3) != (int64_t)it->coins.n) {
        field = "";
        rc = cr_errorf(&bad, CR_EINVAL, "n is %lld but it has %zu coins", (long long)sqlite3_column_int64(st, 3),
                       it->coins.n);
    }
    if (rc && !it->keep_damaged)
        return cr_errorf(err, rc, "%s: instance %lld ('%s'): %s%s: the file was changed outside coinrow (coinrow "
                                  "check-db --db %s)",
                         it->pager.store->path, (long long)it->last_id, it->ext_id, field, bad.msg,
                         it->pager.store->path);
    if (rc) {
        cr_errorf(&it->damage, rc, "the instance was changed outside coinrow, so it cannot be read: %s%s (coinrow "
                                   "check-db)",
                  field, bad.msg);
        it->row = (cr_instance){it->last_id, it->ext_id, NULL, 0, NULL, 0, it->damage.msg};
    } else
        it->row = (cr_instance){it->last_id, it->ext_id, it->coins.v, it->coins.n, it->coins.json, it->coins.json_len,
                                NULL};
    *out = &it->row;
    return 1;
}

void cr_store_instances_keep_damaged(cr_store_instances *it) { it->keep_damaged = 1; }

void cr_store_instances_free(cr_store_instances *it)
{
    if (!it)
        return;
    sqlite3_finalize(it->pager.st);
    cr_coins_free(&it->coins);
    free(it->ext_id);
    free(it->lo);
    free(it->hi);
    free(it);
}

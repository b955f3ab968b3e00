/* The SQLite store: schema migrations, sets, runs, batched writes, paged reads. */
#include "io/store.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/coins_text.h"
#include "io/schema.h"

/* Rows per multi-row INSERT: one statement step per chunk instead of per row
 * roughly halves the writer's time on small instances. */
#define CHUNK 64
/* Rows read per read transaction by the iterators. */
#define PAGE 512
/* How long a writer waits for another one before "locked". */
#define BUSY_MS 3000

enum {
    ST_MAX_ID,
    ST_INSTANCES_CHUNK,
    ST_INSTANCES_ONE,
    ST_FIND_INSTANCE,
    ST_RESULTS_CHUNK,
    ST_RESULTS_ONE,
    ST_INGEST_ERROR,
    ST_COUNT
};

struct cr_store {
    sqlite3 *db;
    sqlite3_stmt *st[ST_COUNT]; /* prepared on first use */
    int64_t next_instance_id;   /* inside a write transaction */
    char path[];
};

static const char *const run_status_names[CR_RUN_STATUS_COUNT] = {"running", "done", "interrupted", "failed"};

const char *cr_run_status_name(cr_run_status status)
{
    return (unsigned)status < CR_RUN_STATUS_COUNT ? run_status_names[status] : "unknown";
}

const char *cr_store_path(const cr_store *store) { return store->path; }

sqlite3 *cr_store_db(cr_store *store) { return store->db; }

int cr_store_fail(cr_store *store, const char *doing, cr_error *err)
{
    int code = CR_EDB;
    const char *what;
    switch (sqlite3_extended_errcode(store->db) & 0xff) {
    case SQLITE_FULL:
        what = "the disk is full", code = CR_EIO;
        break;
    case SQLITE_READONLY:
        what = "the database is read-only", code = CR_EIO;
        break;
    case SQLITE_PERM:
    case SQLITE_AUTH:
        what = "permission denied", code = CR_EIO;
        break;
    case SQLITE_CANTOPEN:
        what = "the file cannot be opened (missing, or no permission for it or its folder)", code = CR_EIO;
        break;
    case SQLITE_IOERR:
        what = "an I/O error", code = CR_EIO;
        break;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        what = "the database is locked by another writer (another coinrow on it?)";
        break;
    case SQLITE_NOTADB:
        what = "the file is not a SQLite database";
        break;
    case SQLITE_CORRUPT:
        what = "the database is damaged";
        break;
    case SQLITE_NOMEM:
        what = "out of memory", code = CR_ENOMEM;
        break;
    default:
        what = sqlite3_errmsg(store->db);
        break;
    }
    return cr_error_set(err, code, "%s: %s while %s", store->path, what, doing);
}

/* Runs SQL without results (several statements allowed). */
static int exec(cr_store *s, const char *sql, const char *doing, cr_error *err)
{
    return sqlite3_exec(s->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : cr_store_fail(s, doing, err);
}

/* The statement `which`, prepared on first use, reset and unbound. */
static int stmt(sqlite3_stmt **out, cr_store *s, int which, const char *sql, cr_error *err)
{
    if (!s->st[which] && sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s->st[which], NULL))
        return cr_store_fail(s, "preparing a statement", err);
    *out = s->st[which];
    return 0;
}

/* Steps a statement that returns no row, then resets it. */
static int step_done(cr_store *s, sqlite3_stmt *st, const char *doing, cr_error *err)
{
    int rc = sqlite3_step(st);
    int failed = rc != SQLITE_DONE && rc != SQLITE_ROW ? cr_store_fail(s, doing, err) : 0;
    sqlite3_reset(st);
    return failed;
}

/* Prepares one-off SQL. */
static int prepare(sqlite3_stmt **out, cr_store *s, const char *sql, const char *doing, cr_error *err)
{
    return sqlite3_prepare_v2(s->db, sql, -1, out, NULL) == SQLITE_OK ? 0 : cr_store_fail(s, doing, err);
}

/* One integer from a one-row query (bound with up to two int64s). */
static int query_int(int64_t *out, cr_store *s, const char *sql, int64_t a, int64_t b, const char *doing,
                     cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = prepare(&st, s, sql, doing, err);
    if (rc)
        return rc;
    if (sqlite3_bind_parameter_count(st) >= 1)
        sqlite3_bind_int64(st, 1, a);
    if (sqlite3_bind_parameter_count(st) >= 2)
        sqlite3_bind_int64(st, 2, b);
    if (sqlite3_step(st) == SQLITE_ROW)
        *out = sqlite3_column_int64(st, 0);
    else
        rc = cr_store_fail(s, doing, err);
    sqlite3_finalize(st);
    return rc;
}

static int schema_version(int *out, cr_store *s, cr_error *err)
{
    int64_t v = 0;
    int rc = query_int(&v, s, "PRAGMA user_version", 0, 0, "reading the schema version", err);
    *out = (int)v;
    return rc;
}

/* Applies the migrations the database lacks, each in one transaction.  The
 * version is read again under the write lock, so two processes opening a
 * new database at once apply each script once. */
static int migrate(cr_store *s, cr_error *err)
{
    int version, rc = schema_version(&version, s, err);
    while (rc == 0 && version < cr_schema_count) {
        if ((rc = exec(s, "BEGIN IMMEDIATE", "upgrading the schema", err)) != 0)
            break;
        rc = schema_version(&version, s, err);
        if (rc == 0 && version < cr_schema_count) {
            char bump[64];
            snprintf(bump, sizeof bump, "PRAGMA user_version = %d", version + 1);
            if (sqlite3_exec(s->db, cr_schema_scripts[version], NULL, NULL, NULL) != SQLITE_OK ||
                sqlite3_exec(s->db, bump, NULL, NULL, NULL) != SQLITE_OK) {
                char doing[64];
                snprintf(doing, sizeof doing, "applying schema script %d", version + 1);
                rc = cr_store_fail(s, doing, err);
            }
        }
        if (rc == 0)
            rc = exec(s, "COMMIT", "upgrading the schema", err);
        if (rc)
            sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
        else
            version++;
    }
    if (rc == 0 && version > cr_schema_count)
        rc = cr_error_set(err, CR_EDB, "%s: schema version %d is newer than this coinrow's (%d); use a newer coinrow",
                          s->path, version, cr_schema_count);
    return rc;
}

static int check_version(cr_store *s, cr_error *err)
{
    int version, rc = schema_version(&version, s, err);
    if (rc == 0 && version == 0)
        return cr_error_set(err, CR_EDB, "%s: not a coinrow database (no coinrow tables)", s->path);
    if (rc == 0 && version != cr_schema_count)
        return cr_error_set(err, CR_EDB, "%s: schema version %d, this coinrow reads version %d%s", s->path, version,
                            cr_schema_count,
                            version < cr_schema_count ? "; a writing command (ingest, solve) upgrades it" : "");
    return rc;
}

/* SQLite keeps memory statistics behind a global mutex unless told not to
 * before its first use; the writer mallocs for every row. */
static void configure_sqlite(void) { sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }

int cr_store_new(cr_store **out, const char *path, cr_store_mode mode, cr_error *err)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, configure_sqlite);
    *out = NULL;
    size_t len = strlen(path);
    cr_store *s = calloc(1, sizeof *s + len + 1);
    if (!s)
        return cr_error_set(err, CR_ENOMEM, "no memory to open %s", path);
    memcpy(s->path, path, len + 1);
    int flags = SQLITE_OPEN_NOMUTEX |
                (mode == CR_STORE_WRITE ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY);
    int rc = 0;
    sqlite3_stmt *st = NULL;
    if (sqlite3_open_v2(path, &s->db, flags, NULL) != SQLITE_OK) {
        rc = s->db ? cr_store_fail(s, "opening it", err)
                   : cr_error_set(err, CR_ENOMEM, "no memory to open %s", path);
        goto done;
    }
    sqlite3_extended_result_codes(s->db, 1);
    sqlite3_busy_timeout(s->db, BUSY_MS);
    if (mode == CR_STORE_READ) {
        rc = check_version(s, err);
        goto done;
    }
    if (sqlite3_db_readonly(s->db, "main") == 1) {
        rc = cr_error_set(err, CR_EIO, "%s: the file is read-only; coinrow needs to write to it", path);
        goto done;
    }
    /* page_size only takes on a new database; larger pages make the
     * writer's appends cheaper.  WAL lets readers in while a run goes on;
     * with it, synchronous=NORMAL keeps the database consistent through a
     * crash or power loss and loses at most the last commits. */
    if ((rc = exec(s, "PRAGMA page_size = 16384", "setting it up", err)) != 0)
        goto done;
    if ((rc = prepare(&st, s, "PRAGMA journal_mode = WAL", "switching it to WAL mode", err)) != 0)
        goto done;
    int wal = sqlite3_step(st) == SQLITE_ROW && strcmp((const char *)sqlite3_column_text(st, 0), "wal") == 0;
    if (!wal)
        rc = cr_store_fail(s, "switching it to WAL mode", err);
    sqlite3_finalize(st);
    if (rc == 0)
        rc = exec(s, "PRAGMA synchronous = NORMAL; PRAGMA cache_size = -65536; PRAGMA temp_store = MEMORY", "setting it up", err);
    if (rc == 0)
        rc = migrate(s, err);
done:
    if (rc) {
        cr_store_free(s);
        return rc;
    }
    *out = s;
    return 0;
}

void cr_store_free(cr_store *store)
{
    if (!store)
        return;
    for (int i = 0; i < ST_COUNT; i++)
        sqlite3_finalize(store->st[i]);
    sqlite3_close(store->db);
    free(store);
}

/* ---- sets ---- */

/* "a, b, c" (the first few set names) for messages. */
static void set_names(char *out, size_t cap, cr_store *s)
{
    sqlite3_stmt *st = NULL;
    out[0] = '\0';
    if (sqlite3_prepare_v2(s->db, "SELECT group_concat(name, ', ') FROM (SELECT name FROM instance_set ORDER BY id LIMIT 8)",
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
        int rc = query_int(&count, store, "SELECT count(*) FROM instance_set", 0, 0, "reading the sets", err);
        if (rc)
            return rc;
        if (count != 1) {
            set_names(names, sizeof names, store);
            return count == 0 ? cr_error_set(err, CR_EINVAL, "%s has no instance set yet; ingest one first", store->path)
                              : cr_error_set(err, CR_EINVAL, "%s has %lld instance sets (%s%s): name one",
                                             store->path, (long long)count, names, count > 8 ? ", ..." : "");
        }
        return query_int(out_id, store, "SELECT id FROM instance_set", 0, 0, "reading the sets", err);
    }
    sqlite3_stmt *st = NULL;
    int rc = prepare(&st, store, "SELECT id FROM instance_set WHERE name = ?", "reading the sets", err);
    if (rc)
        return rc;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    int step = sqlite3_step(st);
    if (step == SQLITE_ROW)
        *out_id = sqlite3_column_int64(st, 0);
    else if (step != SQLITE_DONE)
        rc = cr_store_fail(store, "reading the sets", err);
    sqlite3_finalize(st);
    if (rc || step == SQLITE_ROW)
        return rc;
    if (!create) {
        set_names(names, sizeof names, store);
        return cr_error_set(err, CR_EINVAL, "%s has no instance set '%s' (sets: %s)", store->path, name,
                            names[0] ? names : "none");
    }
    if ((rc = prepare(&st, store, "INSERT INTO instance_set (name, source) VALUES (?, ?)", "creating a set", err)) != 0)
        return rc;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, source, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_DONE)
        *out_id = sqlite3_last_insert_rowid(store->db);
    else
        rc = cr_store_fail(store, "creating a set", err);
    sqlite3_finalize(st);
    return rc;
}

int cr_store_set_name(char *out, size_t cap, cr_store *store, int64_t set_id, cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = prepare(&st, store, "SELECT name FROM instance_set WHERE id = ?", "reading the sets", err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, set_id);
    if (sqlite3_step(st) == SQLITE_ROW)
        snprintf(out, cap, "%s", (const char *)sqlite3_column_text(st, 0));
    else
        rc = cr_error_set(err, CR_EINVAL, "%s has no instance set %lld", store->path, (long long)set_id);
    sqlite3_finalize(st);
    return rc;
}

int cr_store_set_size(uint64_t *out, cr_store *store, int64_t set_id, cr_error *err)
{
    int64_t v = 0;
    int rc = query_int(&v, store, "SELECT count(*) FROM instance WHERE set_id = ?", set_id, 0, "counting instances",
                       err);
    *out = (uint64_t)v;
    return rc;
}

/* ---- runs ---- */

int cr_store_run_new(int64_t *out_id, cr_store *store, int64_t set_id, const cr_solve_opts *opts,
                     const char *solver_version, const char *label, cr_error *err)
{
    char variants[CR_VARIANTS_TEXT_MAX];
    cr_variants_format(variants, opts->variants);
    sqlite3_stmt *st = NULL;
    int rc = prepare(&st, store,
                     "INSERT INTO run (set_id, variants, algo, moves_policy, solver_version, label, status) "
                     "VALUES (?, ?, ?, ?, ?, ?, 'running')",
                     "starting a run", err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, set_id);
    sqlite3_bind_text(st, 2, variants, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, cr_algo_name(opts->algo), -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, cr_moves_name(opts->moves), -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 5, solver_version, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 6, label, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_DONE)
        *out_id = sqlite3_last_insert_rowid(store->db);
    else
        rc = cr_store_fail(store, "starting a run", err);
    sqlite3_finalize(st);
    return rc;
}

static const char *const pick_where[] = {
    [CR_PICK_ANY] = "1",
    [CR_PICK_DONE] = "status = 'done'",
    [CR_PICK_UNFINISHED] = "status <> 'done'",
};
static const char *const pick_words[] = {
    [CR_PICK_ANY] = "",
    [CR_PICK_DONE] = " finished",
    [CR_PICK_UNFINISHED] = " unfinished",
};

int cr_store_run_find(cr_run *out, cr_store *store, int64_t id, cr_run_pick pick, cr_error *err)
{
    /* the last column says whether the run matches pick */
    char sql[256];
    snprintf(sql, sizeof sql,
             "SELECT id, set_id, variants, algo, moves_policy, status, solver_version, %s, coalesce(tag, ''), "
             "coalesce(seconds, 0) FROM run "
             "WHERE %s ORDER BY id DESC LIMIT 1",
             pick_where[pick], id ? "id = ?" : pick_where[pick]);
    sqlite3_stmt *st = NULL;
    int rc = prepare(&st, store, sql, "reading the runs", err);
    if (rc)
        return rc;
    if (id)
        sqlite3_bind_int64(st, 1, id);
    int step = sqlite3_step(st);
    if (step == SQLITE_ROW && sqlite3_column_int(st, 7)) {
        cr_error bad = {0};
        out->id = sqlite3_column_int64(st, 0);
        out->set_id = sqlite3_column_int64(st, 1);
        const char *status = (const char *)sqlite3_column_text(st, 5);
        out->status = CR_RUN_FAILED;
        for (int k = 0; k < CR_RUN_STATUS_COUNT; k++)
            if (strcmp(status, run_status_names[k]) == 0)
                out->status = (cr_run_status)k;
        snprintf(out->solver_version, sizeof out->solver_version, "%s", (const char *)sqlite3_column_text(st, 6));
        snprintf(out->tag, sizeof out->tag, "%s", (const char *)sqlite3_column_text(st, 8));
        out->seconds = sqlite3_column_double(st, 9);
        if (cr_variants_parse(&out->opts.variants, (const char *)sqlite3_column_text(st, 2), &bad) ||
            cr_algo_parse(&out->opts.algo, (const char *)sqlite3_column_text(st, 3), &bad) ||
            cr_moves_parse(&out->opts.moves, (const char *)sqlite3_column_text(st, 4), &bad))
            rc = cr_error_set(err, CR_EDB, "%s: run %lld: %s", store->path, (long long)out->id, bad.msg);
    } else if (step == SQLITE_ROW) {
        rc = cr_error_set(err, CR_EINVAL, "%s: run %lld is %s, not%s", store->path, (long long)id,
                          (const char *)sqlite3_column_text(st, 5), pick_words[pick]);
    } else if (step == SQLITE_DONE) {
        rc = id ? cr_error_set(err, CR_EINVAL, "%s has no run %lld", store->path, (long long)id)
                : cr_error_set(err, CR_EINVAL, "%s has no%s run", store->path, pick_words[pick]);
    } else {
        rc = cr_store_fail(store, "reading the runs", err);
    }
    sqlite3_finalize(st);
    return rc;
}

int cr_store_run_set_status(cr_store *store, int64_t run_id, cr_run_status status, const char *message,
                            cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = prepare(&st, store,
                     "UPDATE run SET status = ?2, message = ?3, finished_at = CASE WHEN ?2 = 'running' THEN NULL "
                     "ELSE strftime('%Y-%m-%dT%H:%M:%SZ', 'now') END WHERE id = ?1",
                     "updating the run", err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, run_id);
    sqlite3_bind_text(st, 2, cr_run_status_name(status), -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, message, -1, SQLITE_STATIC);
    rc = step_done(store, st, "updating the run", err);
    sqlite3_finalize(st);
    return rc;
}

int cr_store_run_add_seconds(cr_store *store, int64_t run_id, double seconds, cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = prepare(&st, store, "UPDATE run SET seconds = coalesce(seconds, 0) + ?2 WHERE id = ?1",
                     "updating the run", err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, run_id);
    sqlite3_bind_double(st, 2, seconds);
    rc = step_done(store, st, "updating the run", err);
    sqlite3_finalize(st);
    return rc;
}

int cr_store_run_set_tag(cr_store *store, int64_t run_id, const char *tag, cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = prepare(&st, store, "UPDATE run SET tag = ?2 WHERE id = ?1", "updating the run", err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, run_id);
    sqlite3_bind_text(st, 2, tag, -1, SQLITE_STATIC);
    rc = step_done(store, st, "updating the run", err);
    sqlite3_finalize(st);
    return rc;
}

int cr_store_run_solved(uint64_t *out, cr_store *store, int64_t run_id, cr_error *err)
{
    int64_t v = 0;
    int rc = query_int(&v, store, "SELECT count(DISTINCT instance_id) FROM result WHERE run_id = ?", run_id, 0,
                       "counting results", err);
    *out = (uint64_t)v;
    return rc;
}

/* ---- writing ---- */

int cr_store_begin(cr_store *store, cr_error *err)
{
    int rc = exec(store, "BEGIN IMMEDIATE", "starting a write", err);
    int64_t max_id = 0;
    /* the write lock is ours until commit: ids from here on are free */
    if (rc == 0 && (rc = query_int(&max_id, store, "SELECT coalesce(max(id), 0) FROM instance", 0, 0,
                                   "starting a write", err)) != 0)
        cr_store_rollback(store);
    store->next_instance_id = max_id + 1;
    return rc;
}

int cr_store_commit(cr_store *store, cr_error *err)
{
    int rc = exec(store, "COMMIT", "committing", err);
    if (rc)
        cr_store_rollback(store);
    return rc;
}

void cr_store_rollback(cr_store *store)
{
    if (!sqlite3_get_autocommit(store->db))
        sqlite3_exec(store->db, "ROLLBACK", NULL, NULL, NULL);
}

/* "INSERT OR IGNORE INTO table (cols) VALUES (row),(row),..." with `rows`
 * copies of row; NULL when out of memory.  Free with sqlite3_free.
 *
 * OR IGNORE rather than ON CONFLICT DO NOTHING: a statement that cannot
 * abort half-way (its NOT NULL checks ignore too) needs no statement
 * journal, and copying the pages each chunk touches into one cost the
 * writer over a tenth of its time.  The rows bound are never NULL where
 * the schema says NOT NULL, so only the unique keys ever ignore a row. */
static char *multi_insert(const char *head, const char *row, int rows)
{
    sqlite3_str *sql = sqlite3_str_new(NULL);
    sqlite3_str_appendf(sql, "INSERT OR IGNORE INTO %s", head);
    for (int i = 0; i < rows; i++)
        sqlite3_str_appendf(sql, "%s%s", i ? "," : " VALUES ", row);
    return sqlite3_str_finish(sql);
}

/* The statement for `rows` rows: the chunk one or the single-row one. */
static int insert_stmt(sqlite3_stmt **out, cr_store *s, int chunk_which, const char *head, const char *row,
                       size_t rows, cr_error *err)
{
    int which = rows == CHUNK ? chunk_which : chunk_which + 1;
    if (s->st[which])
        return stmt(out, s, which, NULL, err);
    char *sql = multi_insert(head, row, (int)rows);
    if (!sql)
        return cr_error_set(err, CR_ENOMEM, "no memory for a statement");
    int rc = stmt(out, s, which, sql, err);
    sqlite3_free(sql);
    return rc;
}

/* Settles rows whose insert did nothing: an ext_id the set already had. */
static int settle_instances(cr_store *s, int64_t set_id, cr_store_instance *rows, size_t count, cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = stmt(&st, s, ST_FIND_INSTANCE, "SELECT id, coins FROM instance WHERE set_id = ? AND ext_id = ?", err);
    for (size_t i = 0; rc == 0 && i < count; i++) {
        cr_store_instance *r = &rows[i];
        sqlite3_bind_int64(st, 1, set_id);
        sqlite3_bind_text(st, 2, r->ext_id, (int)r->ext_id_len, SQLITE_STATIC);
        if (sqlite3_step(st) != SQLITE_ROW) {
            rc = cr_store_fail(s, "looking up an instance", err);
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

int cr_store_add_instances(cr_store *store, int64_t set_id, cr_store_instance *rows, size_t count, cr_error *err)
{
    int rc = 0;
    for (size_t done = 0; rc == 0 && done < count;) {
        size_t k = count - done >= CHUNK ? CHUNK : 1;
        sqlite3_stmt *st = NULL;
        rc = insert_stmt(&st, store, ST_INSTANCES_CHUNK, "instance (id, set_id, ext_id, n, coins, total)",
                         "(?,?,?,?,?,?)", k, err);
        if (rc)
            break;
        cr_store_instance *chunk = rows + done;
        for (size_t i = 0; i < k; i++) {
            cr_store_instance *r = &chunk[i];
            int p = (int)(6 * i);
            r->id = store->next_instance_id++;
            r->state = CR_STORE_ADDED;
            sqlite3_bind_int64(st, p + 1, r->id);
            sqlite3_bind_int64(st, p + 2, set_id);
            sqlite3_bind_text(st, p + 3, r->ext_id, (int)r->ext_id_len, SQLITE_STATIC);
            sqlite3_bind_int64(st, p + 4, (sqlite3_int64)r->n);
            sqlite3_bind_text(st, p + 5, r->coins_json, (int)r->coins_json_len, SQLITE_STATIC);
            if (r->total_fits)
                sqlite3_bind_int64(st, p + 6, r->total);
            else
                sqlite3_bind_null(st, p + 6);
        }
        if ((rc = step_done(store, st, "writing instances", err)) == 0 && (size_t)sqlite3_changes(store->db) < k)
            rc = settle_instances(store, set_id, chunk, k, err);
        done += k;
    }
    return rc;
}

int cr_store_add_results(size_t *out_added, cr_store *store, int64_t run_id, const cr_store_result *rows,
                         size_t count, cr_error *err)
{
    int rc = 0;
    size_t added = 0;
    for (size_t done = 0; rc == 0 && done < count;) {
        size_t k = count - done >= CHUNK ? CHUNK : 1;
        sqlite3_stmt *st = NULL;
        rc = insert_stmt(&st, store, ST_RESULTS_CHUNK,
                         "result (run_id, instance_id, variant, value, first_score, second_score, winner, moves, "
                         "error)",
                         "(?,?,?,?,?,?,?,?,?)", k, err);
        if (rc)
            break;
        for (size_t i = 0; i < k; i++) {
            const cr_store_result *r = &rows[done + i];
            int p = (int)(9 * i);
            sqlite3_bind_int64(st, p + 1, run_id);
            sqlite3_bind_int64(st, p + 2, r->instance_id);
            sqlite3_bind_text(st, p + 3, cr_variant_name(r->variant), -1, SQLITE_STATIC);
            const int64_t figures[3] = {r->value, r->first_score, r->second_score};
            for (int f = 0; f < 3; f++) {
                if (r->missing & 1u << f)
                    sqlite3_bind_null(st, p + 4 + f);
                else
                    sqlite3_bind_int64(st, p + 4 + f, figures[f]);
            }
            if (r->missing & CR_FIGURE_WINNER)
                sqlite3_bind_null(st, p + 7);
            else
                sqlite3_bind_text(st, p + 7, cr_winner_name(r->winner), -1, SQLITE_STATIC);
            if (r->error)
                sqlite3_bind_text(st, p + 9, r->error, -1, SQLITE_STATIC);
            else
                sqlite3_bind_null(st, p + 9);
            if (r->moves)
                sqlite3_bind_text(st, p + 8, r->moves, (int)r->moves_len, SQLITE_STATIC);
            else
                sqlite3_bind_null(st, p + 8);
        }
        if ((rc = step_done(store, st, "writing results", err)) == 0)
            added += (size_t)sqlite3_changes(store->db);
        done += k;
    }
    if (out_added)
        *out_added = added;
    return rc;
}

int cr_store_add_ingest_error(cr_store *store, int64_t set_id, const char *source, uint64_t line,
                              const char *ext_id, size_t ext_id_len, const char *reason, const char *raw,
                              size_t raw_len, cr_error *err)
{
    while (raw_len > 0 && (raw[raw_len - 1] == '\n' || raw[raw_len - 1] == '\r'))
        raw_len--;
    if (raw_len > CR_RAW_MAX) {
        raw_len = CR_RAW_MAX;
        while (raw_len > 0 && ((unsigned char)raw[raw_len] & 0xC0) == 0x80)
            raw_len--; /* do not split a UTF-8 character */
    }
    sqlite3_stmt *st = NULL;
    int rc = stmt(&st, store, ST_INGEST_ERROR,
                  "INSERT INTO ingest_error (set_id, source, line, ext_id, reason, raw) VALUES (?, ?, ?, ?, ?, ?) "
                  "ON CONFLICT DO NOTHING",
                  err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, set_id);
    sqlite3_bind_text(st, 2, source, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, (sqlite3_int64)line);
    if (ext_id)
        sqlite3_bind_text(st, 4, ext_id, (int)ext_id_len, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, 4);
    sqlite3_bind_text(st, 5, reason, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 6, raw ? raw : "", (int)raw_len, SQLITE_STATIC);
    return step_done(store, st, "recording a rejected row", err);
}

/* ---- checkpoints ---- */

void cr_store_wal_limit(cr_store *store, int pages) { sqlite3_wal_autocheckpoint(store->db, pages ? pages : 1000); }

int cr_store_checkpoint(cr_store *store, cr_error *err)
{
    int rc = sqlite3_wal_checkpoint_v2(store->db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
    return rc == SQLITE_OK || rc == SQLITE_BUSY ? 0 : cr_store_fail(store, "copying the WAL into the database", err);
}

/* ---- paged reading ---- */

/* A statement read a page at a time: after PAGE rows (or fewer, at the end)
 * it is reset, which ends its read transaction, and bound again to go on
 * after the last key, until a page comes empty. */
typedef struct pager {
    cr_store *store;
    sqlite3_stmt *st;
    int rows;  /* rows stepped in this page */
    int ended; /* the last page came short */
} pager;

/* Steps to the next row: 1, 0 at the end, or an error.  bind() binds the
 * statement's key parameters from the last row before each new page. */
static int pager_step(pager *p, void (*bind)(void *ctx, sqlite3_stmt *st), void *ctx, cr_error *err)
{
    for (;;) {
        if (p->ended)
            return 0;
        if (p->rows == PAGE || p->rows == -1) {
            sqlite3_reset(p->st);
            bind(ctx, p->st);
            p->rows = 0;
        }
        int rc = sqlite3_step(p->st);
        if (rc == SQLITE_ROW) {
            p->rows++;
            return 1;
        }
        if (rc != SQLITE_DONE)
            return cr_store_fail(p->store, "reading", err);
        sqlite3_reset(p->st);
        /* the end is a page with no rows: rows committed meanwhile are seen */
        if (p->rows == 0)
            p->ended = 1;
        else
            p->rows = -1;
    }
}

/* Copies the text of column col of the current row into *buf (grown as
 * needed to *cap bytes): the iterators keep a row's key past the next step. */
static int keep_text(char **buf, size_t *cap, sqlite3_stmt *st, int col, cr_error *err)
{
    const char *text = (const char *)sqlite3_column_text(st, col);
    size_t len = (size_t)sqlite3_column_bytes(st, col);
    if (len + 1 > *cap) {
        char *bigger = realloc(*buf, len + 1);
        if (!bigger)
            return cr_error_set(err, CR_ENOMEM, "no memory to read a row of %zu bytes", len);
        *buf = bigger;
        *cap = len + 1;
    }
    memcpy(*buf, text ? text : "", len + 1);
    return 0;
}

static int pager_open(pager *p, cr_store *store, const char *sql, const char *doing, cr_error *err)
{
    *p = (pager){store, NULL, -1, 0};
    return prepare(&p->st, store, sql, doing, err);
}

struct cr_store_instances {
    pager pager;
    int64_t set_id, run_id, last_id;
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
    sqlite3_bind_int64(st, 3, it->run_id);
    sqlite3_bind_int(st, 4, PAGE);
}

int cr_store_instances_new(cr_store_instances **out, cr_store *store, int64_t set_id, int64_t run_id,
                           cr_error *err)
{
    *out = NULL;
    cr_store_instances *it = calloc(1, sizeof *it);
    if (!it)
        return cr_error_set(err, CR_ENOMEM, "no memory to read instances");
    it->set_id = set_id;
    it->run_id = run_id;
    /* +set_id: walk the rowids from the last one (the set's index cannot
     * give id order, and sorting the rest of the set for every page would
     * make the whole walk quadratic) */
    int rc = pager_open(&it->pager, store,
                        "SELECT i.id, i.ext_id, i.coins FROM instance AS i "
                        "WHERE +i.set_id = ?1 AND i.id > ?2 AND (?3 = 0 OR NOT EXISTS "
                        "(SELECT 1 FROM result AS r WHERE r.run_id = ?3 AND r.instance_id = i.id)) "
                        "ORDER BY i.id LIMIT ?4",
                        "reading instances", err);
    if (rc) {
        cr_store_instances_free(it);
        return rc;
    }
    *out = it;
    return 0;
}

int cr_store_instances_next(const cr_instance **out, cr_store_instances *it, cr_error *err)
{
    int rc = pager_step(&it->pager, bind_instances, it, err);
    if (rc <= 0)
        return rc;
    sqlite3_stmt *st = it->pager.st;
    it->last_id = sqlite3_column_int64(st, 0);
    if ((rc = keep_text(&it->ext_id, &it->ext_id_cap, st, 1, err)) != 0)
        return rc;
    cr_error bad = {0};
    const char *coins = (const char *)sqlite3_column_text(st, 2);
    if ((rc = cr_coins_parse(&it->coins, coins ? coins : "", (size_t)sqlite3_column_bytes(st, 2), &bad)) != 0)
        return cr_error_set(err, rc, "%s: instance %lld ('%s'): coins: %s", cr_store_path(it->pager.store),
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

struct cr_store_results {
    pager pager;
    int64_t run_id, set_id;
    int64_t last_id;   /* the key of the last row read: instance id or ext_id, */
    char *last_ext_id; /* then variant */
    size_t last_cap;
    cr_variant last_variant;
    cr_stored_result row;
};

static void bind_results(void *ctx, sqlite3_stmt *st)
{
    cr_store_results *it = ctx;
    int started = it->last_ext_id != NULL;
    sqlite3_bind_int64(st, 1, it->run_id);
    sqlite3_bind_int64(st, 2, it->last_id);
    sqlite3_bind_text(st, 3, started ? cr_variant_name(it->last_variant) : "", -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 4, PAGE);
    sqlite3_bind_int64(st, 5, it->set_id);
    /* a copy: last_ext_id changes with every row of the page */
    sqlite3_bind_text(st, 6, started ? it->last_ext_id : "", -1, SQLITE_TRANSIENT);
}

#define RESULT_COLUMNS                                                                                                 \
    "SELECT r.instance_id, i.ext_id, i.n, r.variant, r.value, r.first_score, r.second_score, r.winner, r.moves, "      \
    "r.error, i.coins "

static const char *const results_sql[] = {
    [CR_BY_INSTANCE] = RESULT_COLUMNS "FROM result AS r JOIN instance AS i ON i.id = r.instance_id "
                                      "WHERE r.run_id = ?1 AND (r.instance_id, r.variant) > (?2, ?3) "
                                      "ORDER BY r.instance_id, r.variant LIMIT ?4",
    /* the set's (set_id, ext_id) index gives the order; each instance's
     * results follow the result table's key */
    [CR_BY_EXT_ID] = RESULT_COLUMNS "FROM instance AS i JOIN result AS r ON r.run_id = ?1 AND r.instance_id = i.id "
                                    "WHERE i.set_id = ?5 AND i.ext_id >= ?6 AND (i.ext_id > ?6 OR r.variant > ?3) "
                                    "ORDER BY i.ext_id, r.variant LIMIT ?4",
};

int cr_store_results_new(cr_store_results **out, cr_store *store, int64_t run_id, cr_results_order order,
                         cr_error *err)
{
    *out = NULL;
    cr_store_results *it = calloc(1, sizeof *it);
    if (!it)
        return cr_error_set(err, CR_ENOMEM, "no memory to read results");
    it->run_id = run_id;
    int rc = query_int(&it->set_id, store, "SELECT set_id FROM run WHERE id = ?", run_id, 0, "reading the run", err);
    if (rc == 0)
        rc = pager_open(&it->pager, store, results_sql[order], "reading results", err);
    if (rc) {
        cr_store_results_free(it);
        return rc;
    }
    *out = it;
    return 0;
}

int cr_store_results_next(const cr_stored_result **out, cr_store_results *it, cr_error *err)
{
    int rc = pager_step(&it->pager, bind_results, it, err);
    if (rc <= 0)
        return rc;
    sqlite3_stmt *st = it->pager.st;
    cr_stored_result *r = &it->row;
    cr_error ignored;
    memset(r, 0, sizeof *r);
    r->instance_id = it->last_id = sqlite3_column_int64(st, 0);
    r->ext_id = (const char *)sqlite3_column_text(st, 1);
    if ((rc = keep_text(&it->last_ext_id, &it->last_cap, st, 1, err)) != 0)
        return rc;
    r->coins = (const char *)sqlite3_column_text(st, 10);
    r->n = (size_t)sqlite3_column_int64(st, 2);
    cr_variant_parse(&r->variant, (const char *)sqlite3_column_text(st, 3), &ignored);
    it->last_variant = r->variant;
    r->error = (const char *)sqlite3_column_text(st, 9);
    int64_t *figures[3] = {&r->value, &r->first_score, &r->second_score};
    for (int f = 0; f < 3; f++) {
        if (sqlite3_column_type(st, 4 + f) == SQLITE_NULL)
            r->missing |= 1u << f;
        else
            *figures[f] = sqlite3_column_int64(st, 4 + f);
    }
    const char *winner = (const char *)sqlite3_column_text(st, 7);
    if (!winner)
        r->missing |= CR_FIGURE_WINNER;
    else
        r->winner = strcmp(winner, "first") == 0 ? 1 : strcmp(winner, "second") == 0 ? -1 : 0;
    r->moves = (const char *)sqlite3_column_text(st, 8);
    *out = r;
    return 1;
}

void cr_store_results_free(cr_store_results *it)
{
    if (!it)
        return;
    sqlite3_finalize(it->pager.st);
    free(it->last_ext_id);
    free(it);
}

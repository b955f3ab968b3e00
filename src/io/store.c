/* The store's connection: opening and migrating the database, errors,
 * transactions, checkpoints, and the statement helpers of the other store
 * files (store_sql.h).  The tables' own SQL lives by concern in
 * store_sets.c, store_runs.c, store_generated.c, store_shards.c and
 * store_comparisons.c; how a line of play is packed, in store_lines.c. */
#include "io/store_sql.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/schema.h"
#include "util/errorf.h"

/* How long a writer waits for another one before "locked". */
#define BUSY_MS 3000
/* How long a checkpoint that starts the WAL again waits for readers to
 * leave it: time for a short query to end, a cost paid now and then. */
#define RESTART_WAIT_MS 100

const char *cr_store_path(const cr_store *store) { return store->path; }

int cr_store_opened_version(const cr_store *store) { return store->opened_version; }

int cr_store__fail(cr_store *store, const char *doing, cr_error *err)
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
    return cr_errorf(err, code, "%s: %s while %s", store->path, what, doing);
}

int cr_store__exec(cr_store *s, const char *sql, const char *doing, cr_error *err)
{
    return sqlite3_exec(s->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : cr_store__fail(s, doing, err);
}

int cr_store__kept(sqlite3_stmt **out, cr_store *s, int which, const char *sql, cr_error *err)
{
    if (!s->kept[which] && sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s->kept[which], NULL))
        return cr_store__fail(s, "preparing a statement", err);
    *out = s->kept[which];
    return 0;
}

int cr_store__step_done(cr_store *s, sqlite3_stmt *st, const char *doing, cr_error *err)
{
    int rc = sqlite3_step(st);
    int failed = rc != SQLITE_DONE && rc != SQLITE_ROW ? cr_store__fail(s, doing, err) : 0;
    sqlite3_reset(st);
    return failed;
}

int cr_store__prepare(sqlite3_stmt **out, cr_store *s, const char *sql, const char *doing, cr_error *err)
{
    return sqlite3_prepare_v2(s->db, sql, -1, out, NULL) == SQLITE_OK ? 0 : cr_store__fail(s, doing, err);
}

int cr_store__query_int(int64_t *out, cr_store *s, const char *sql, int64_t a, int64_t b, const char *doing,
                        cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = cr_store__prepare(&st, s, sql, doing, err);
    if (rc)
        return rc;
    if (sqlite3_bind_parameter_count(st) >= 1)
        sqlite3_bind_int64(st, 1, a);
    if (sqlite3_bind_parameter_count(st) >= 2)
        sqlite3_bind_int64(st, 2, b);
    if (sqlite3_step(st) == SQLITE_ROW)
        *out = sqlite3_column_int64(st, 0);
    else
        rc = cr_store__fail(s, doing, err);
    sqlite3_finalize(st);
    return rc;
}

static int schema_version(int *out, cr_store *s, cr_error *err)
{
    int64_t v = 0;
    int rc = cr_store__query_int(&v, s, "PRAGMA user_version", 0, 0, "reading its schema version", err);
    *out = (int)v;
    return rc;
}

/* What an existing file holds, found by reading alone: its schema version
 * in *out (0 for a new or empty database), or a refusal.  Every version has
 * the four tables below and `result` (a table up to version 3, a view from
 * version 4).  Nothing is written to a file before it passes, so a refused
 * one is left as it was. */
static int inspect(int *out, cr_store *s, cr_error *err)
{
    int version, rc = schema_version(&version, s, err);
    sqlite3_stmt *st = NULL;
    if (rc == 0)
        rc = cr_store__prepare(&st, s,
                               "SELECT count(*), count(*) FILTER (WHERE type = 'table' AND name IN "
                               "('instance_set', 'instance', 'run', 'ingest_error') OR name = 'result'), "
                               "group_concat(name, ', ') FROM (SELECT type, name FROM sqlite_master "
                               "WHERE name NOT LIKE 'sqlite!_%' ESCAPE '!' ORDER BY name)",
                               "reading its schema", err);
    if (rc == 0 && sqlite3_step(st) != SQLITE_ROW)
        rc = cr_store__fail(s, "reading its schema", err);
    if (rc) {
        sqlite3_finalize(st);
        return rc;
    }
    *out = version;
    int64_t objects = sqlite3_column_int64(st, 0), ours = sqlite3_column_int64(st, 1);
    const char *names = (const char *)sqlite3_column_text(st, 2);
    if (version < 0)
        rc = cr_errorf(err, CR_EDB, "%s: schema version %d is not one coinrow writes: not a coinrow database",
                       s->path, version);
    else if (version > cr_schema_count)
        rc = cr_errorf(err, CR_EDB, "%s: schema version %d is newer than this coinrow's (%d); use a newer coinrow",
                       s->path, version, cr_schema_count);
    else if (version == 0 && objects > 0)
        rc = cr_errorf(err, CR_EDB, "%s: not a coinrow database: it has tables of its own (%.*s%s) and no coinrow "
                                    "schema (user_version 0); coinrow leaves it alone",
                       s->path, (int)cr_utf8_cut(names, strlen(names) > 80 ? 80 : strlen(names)), names,
                       strlen(names) > 80 ? "..." : "");
    else if (version > 0 && ours != 5)
        rc = cr_errorf(err, CR_EDB, "%s: not a coinrow database: schema version %d but not coinrow's tables",
                       s->path, version);
    sqlite3_finalize(st);
    return rc;
}

/* The one place the schema changes: brings it from its version up to
 * cr_schema_count, each script of schema/ in one transaction with its
 * version bump, so that a script that fails leaves the database as it was
 * before it.  The version is read again under the write lock: two coinrows
 * initialising a new database at once apply each script once. */
static int upgrade(cr_store *s, cr_error *err)
{
    for (;;) {
        int version, rc = cr_store__exec(s, "BEGIN IMMEDIATE", "upgrading the schema", err);
        if (rc == 0)
            rc = schema_version(&version, s, err);
        if (rc == 0 && (version < 0 || version > cr_schema_count))
            rc = cr_errorf(err, CR_EDB, "%s: schema version %d changed under coinrow while upgrading it", s->path,
                           version);
        if (rc || version == cr_schema_count) {
            sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
            return rc;
        }
        char bump[64];
        snprintf(bump, sizeof bump, "PRAGMA user_version = %d", version + 1);
        if (sqlite3_exec(s->db, cr_schema_scripts[version], NULL, NULL, NULL) != SQLITE_OK ||
            sqlite3_exec(s->db, bump, NULL, NULL, NULL) != SQLITE_OK) {
            char doing[64];
            snprintf(doing, sizeof doing, "applying schema script %d", version + 1);
            rc = cr_store__fail(s, doing, err);
        }
        if (rc == 0)
            rc = cr_store__exec(s, "COMMIT", "upgrading the schema", err);
        if (rc) {
            sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
            return rc;
        }
    }
}

/* Makes a database that passed inspect() ready for writing: page size (a
 * new one's), the schema brought up to date, then WAL mode unless once
 * (CR_STORE_WRITE_ONCE: switching to WAL and back rewrites the header, and
 * a WAL's transaction rolled back would still leave that).  The upgrade
 * runs in the journal mode the file has at rest, so that one that fails
 * rolls back to the file as it was, byte for byte (through the rollback
 * journal; in WAL mode, nothing reaches the file before a checkpoint).  Only
 * a store that got this far is `writing`, and puts the file back in
 * rollback mode when freed. */
static int prepare_writing(cr_store *s, int version, int once, cr_error *err)
{
    /* page_size only takes on a new database; larger pages make the
     * writer's appends cheaper.  The cache and temporary tables in memory
     * serve the upgrade too. */
    int rc = version == 0 ? cr_store__exec(s, "PRAGMA page_size = 16384", "setting it up", err) : 0;
    if (rc == 0)
        rc = cr_store__exec(s, "PRAGMA cache_size = -65536; PRAGMA temp_store = MEMORY", "setting it up", err);
    if (rc == 0 && version < cr_schema_count)
        rc = upgrade(s, err);
    if (rc || once)
        return rc;
    /* WAL lets readers in while a run goes on; with it, synchronous=NORMAL
     * keeps the database consistent through a crash or power loss and
     * loses at most the last commits. */
    sqlite3_stmt *st = NULL;
    rc = cr_store__prepare(&st, s, "PRAGMA journal_mode = WAL", "switching it to WAL mode", err);
    if (rc == 0) {
        int wal = sqlite3_step(st) == SQLITE_ROW && strcmp((const char *)sqlite3_column_text(st, 0), "wal") == 0;
        if (!wal)
            rc = cr_store__fail(s, "switching it to WAL mode", err);
    }
    sqlite3_finalize(st);
    if (rc == 0)
        s->writing = 1;
    return rc == 0 ? cr_store__exec(s, "PRAGMA synchronous = NORMAL", "setting it up", err) : rc;
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
        return cr_errorf(err, CR_ENOMEM, "no memory to open %s", path);
    memcpy(s->path, path, len + 1);
    int creates = mode == CR_STORE_WRITE || mode == CR_STORE_WRITE_ONCE;
    int flags = SQLITE_OPEN_NOMUTEX | (creates                    ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
                                       : mode == CR_STORE_UPGRADE ? SQLITE_OPEN_READWRITE
                                                                  : SQLITE_OPEN_READONLY);
    int rc = 0, version = 0;
    if (sqlite3_open_v2(path, &s->db, flags, NULL) != SQLITE_OK) {
        rc = s->db ? cr_store__fail(s, "opening it", err) : cr_errorf(err, CR_ENOMEM, "no memory to open %s", path);
        goto done;
    }
    sqlite3_extended_result_codes(s->db, 1);
    sqlite3_busy_timeout(s->db, BUSY_MS);
    if (mode != CR_STORE_READ && sqlite3_db_readonly(s->db, "main") == 1) {
        rc = cr_errorf(err, CR_EIO, "%s: the file is read-only; coinrow needs to write to it", path);
        goto done;
    }
    /* check first, then write */
    if ((rc = inspect(&version, s, err)) != 0 || (rc = cr_store__lines_register(s, err)) != 0)
        goto done;
    s->opened_version = version;
    if (version == 0 && !creates)
        rc = cr_errorf(err, CR_EDB, "%s: not a coinrow database (it has no tables)", path);
    else if (mode != CR_STORE_READ)
        rc = prepare_writing(s, version, mode == CR_STORE_WRITE_ONCE, err);
    else if (version != cr_schema_count)
        rc = cr_errorf(err, CR_EDB, "%s: schema version %d, this coinrow reads version %d: 'coinrow upgrade --db %s' "
                                    "upgrades it in place (as any command that writes to it does)",
                       path, version, cr_schema_count, path);
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
    for (int i = 0; i < CR_STORE__KEPT_COUNT; i++)
        sqlite3_finalize(store->kept[i]);
    /* At rest the database is in rollback mode, so that a reader needs no
     * -wal and -shm files beside it (and a read-only command leaves none
     * behind); WAL mode is for while coinrow writes.  The switch needs the
     * database to itself: with another connection open it fails at once,
     * and the last writer to close makes it. */
    if (store->writing) {
        sqlite3_busy_timeout(store->db, 0);
        sqlite3_exec(store->db, "PRAGMA journal_mode = DELETE", NULL, NULL, NULL);
    }
    sqlite3_close(store->db);
    free(store->lines);
    free(store);
}

/* ---- writing ---- */

int cr_store_begin(cr_store *store, cr_error *err)
{
    int rc = cr_store__exec(store, "BEGIN IMMEDIATE", "starting a write", err);
    int64_t max_id = 0;
    /* the write lock is ours until commit: ids from here on are free */
    if (rc == 0 && (rc = cr_store__query_int(&max_id, store, "SELECT coalesce(max(id), 0) FROM instance", 0, 0,
                                             "starting a write", err)) != 0)
        cr_store_rollback(store);
    store->next_instance_id = max_id + 1;
    return rc;
}

int cr_store_commit(cr_store *store, cr_error *err)
{
    int rc = cr_store__exec(store, "COMMIT", "committing", err);
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

int cr_store__kept_insert(sqlite3_stmt **out, cr_store *s, int which, const char *head, const char *row,
                          size_t rows, cr_error *err)
{
    if (rows != CR_STORE__CHUNK)
        which++;
    if (s->kept[which])
        return cr_store__kept(out, s, which, NULL, err);
    char *sql = multi_insert(head, row, (int)rows);
    if (!sql)
        return cr_errorf(err, CR_ENOMEM, "no memory for a statement");
    int rc = cr_store__kept(out, s, which, sql, err);
    sqlite3_free(sql);
    return rc;
}

/* ---- checkpoints ---- */

/* A checkpoint in `mode` that waits at most wait_ms for readers; SQLite's
 * code, and the frames the WAL holds in *frames (-1 when another
 * checkpoint was under way and this one did not run). */
static int checkpoint(cr_store *s, int mode, int wait_ms, int *frames)
{
    sqlite3_busy_timeout(s->db, wait_ms);
    int rc = sqlite3_wal_checkpoint_v2(s->db, NULL, mode, frames, NULL);
    sqlite3_busy_timeout(s->db, BUSY_MS);
    return rc;
}

/* The writer's WAL hook, after each commit: from wal_limit frames on, a
 * checkpoint that copies the whole WAL and waits for readers to leave it,
 * so that the next commit writes the WAL from its beginning.  Readers that
 * keep their snapshots longer than the wait make it try again, without
 * waiting (they are long ones): a commit later, then two, four ... up to
 * 64, so that a stream of short queries costs a few tries and one long
 * reader little.  Once the WAL is twice the limit for want of a restart,
 * cr_store_wal_held says so; once it starts again, all is as at first. */
static int bound_wal(void *ctx, sqlite3 *db, const char *schema, int frames)
{
    cr_store *s = ctx;
    (void)db, (void)schema;
    if (frames < s->wal_limit) {
        s->wal_skip = s->wal_failures = s->wal_held = 0;
        return SQLITE_OK;
    }
    if (s->wal_skip-- > 0)
        return SQLITE_OK;
    int in_wal = -1, rc = checkpoint(s, SQLITE_CHECKPOINT_RESTART, s->wal_failures ? 0 : RESTART_WAIT_MS, &in_wal);
    s->wal_skip = 0;
    if (rc == SQLITE_OK) {
        s->wal_failures = 0;
        s->wal_held = 0;
    } else if (rc == SQLITE_BUSY && in_wal >= 0) { /* else another checkpoint was under way */
        s->wal_failures += s->wal_failures < 6;
        s->wal_skip = (1 << s->wal_failures) - 1;
        if (frames >= 2 * s->wal_limit)
            s->wal_held = frames;
    }
    return SQLITE_OK; /* a checkpoint that did not happen loses nothing */
}

void cr_store_wal_limit(cr_store *store, int pages)
{
    int64_t page_size = 0;
    cr_error ignored;
    cr_store__query_int(&page_size, store, "PRAGMA page_size", 0, 0, "reading its page size", &ignored);
    store->wal_frame_bytes = page_size + 24; /* a frame: the page and its header */
    store->wal_limit = pages;
    store->wal_skip = store->wal_failures = store->wal_held = 0;
    if (pages)
        sqlite3_wal_hook(store->db, bound_wal, store);
    else
        sqlite3_wal_autocheckpoint(store->db, 1000);
    /* beyond the limit, the WAL file is cut back to it when it starts again */
    char sql[64];
    snprintf(sql, sizeof sql, "PRAGMA journal_size_limit = %lld",
             pages ? (long long)pages * (long long)store->wal_frame_bytes : -1LL);
    sqlite3_exec(store->db, sql, NULL, NULL, NULL);
}

uint64_t cr_store_wal_held(const cr_store *store)
{
    return (uint64_t)store->wal_held * (uint64_t)store->wal_frame_bytes;
}

void cr_store_cache_limit(cr_store *store, int kib)
{
    char sql[64];
    snprintf(sql, sizeof sql, "PRAGMA cache_size = -%d", kib);
    sqlite3_exec(store->db, sql, NULL, NULL, NULL);
    sqlite3_db_release_memory(store->db);
}

int cr_store_checkpoint(cr_store *store, cr_error *err)
{
    int rc = sqlite3_wal_checkpoint_v2(store->db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
    return rc == SQLITE_OK || rc == SQLITE_BUSY ? 0 : cr_store__fail(store, "copying the WAL into the database", err);
}

int cr_store_wal_truncate(cr_store *store, cr_error *err)
{
    int in_wal = -1, rc = checkpoint(store, SQLITE_CHECKPOINT_TRUNCATE, RESTART_WAIT_MS, &in_wal);
    if (rc == SQLITE_BUSY && in_wal >= 0) {
        store->wal_held = in_wal;
        return 0;
    }
    return rc == SQLITE_OK || rc == SQLITE_BUSY ? 0 : cr_store__fail(store, "truncating the WAL", err);
}

/* ---- paged reading ---- */

int cr_store__pager_open(cr_store__pager *p, cr_store *store, const char *sql, const char *doing, cr_error *err)
{
    *p = (cr_store__pager){store, NULL, -1, 0};
    return cr_store__prepare(&p->st, store, sql, doing, err);
}

int cr_store__pager_step(cr_store__pager *p, void (*bind)(void *ctx, sqlite3_stmt *st), void *ctx, cr_error *err)
{
    for (;;) {
        if (p->ended)
            return 0;
        if (p->rows == CR_STORE__PAGE || p->rows == -1) {
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
            return cr_store__fail(p->store, "reading", err);
        sqlite3_reset(p->st);
        /* the end is a page with no rows: rows committed meanwhile are seen */
        if (p->rows == 0)
            p->ended = 1;
        else
            p->rows = -1;
    }
}

int cr_store__keep_text(char **buf, size_t *cap, sqlite3_stmt *st, int col, cr_error *err)
{
    const char *text = (const char *)sqlite3_column_text(st, col);
    size_t len = (size_t)sqlite3_column_bytes(st, col);
    if (len + 1 > *cap) {
        char *bigger = realloc(*buf, len + 1);
        if (!bigger)
            return cr_errorf(err, CR_ENOMEM, "no memory to read a row of %zu bytes", len);
        *buf = bigger;
        *cap = len + 1;
    }
    memcpy(*buf, text ? text : "", len + 1);
    return 0;
}

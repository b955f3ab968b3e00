/* The store's connection: opening and migrating the database,
 * transactions and checkpoints.  The statement helpers every store file
 * uses are in sql.c; the tables' own SQL lives by concern in sets.c,
 * runs.c, generated.c, shards.c, comparisons.c and invocations.c; how
 * schema versions 4 to 6 packed a line of play, for the upgrades, in
 * lines.c; the checks of check-db, in check.c. */
#include "store/sql.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/schema.h"
#include "util/util.h"

/* How long a writer waits for another one before "locked". */
#define BUSY_MS 3000
/* How long a checkpoint that starts the WAL again waits for readers to
 * leave it: time for a short query to end, a cost paid now and then. */
#define RESTART_WAIT_MS 100
/* The files a writer holds open at once: the database, its WAL and shared
 * memory. */
#define STORE_FILES 3
/* A new database's page size: larger pages make the writer's appends
 * cheaper. */
#define PAGE_SIZE 16384

const char *cr_store_path(const cr_store *store) { return store->path; }

int cr_store_opened_version(const cr_store *store) { return store->opened_version; }

int cr_store_schema_version(void) { return cr_schema_count; }

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
    char shown[84]; /* 80 bytes of names and "...", at most */
    if (version < 0)
        rc = cr_errorf(err, CR_EDB, "%s: schema version %d is not one coinrow writes: not a coinrow database",
                       s->path, version);
    else if (version > cr_schema_count)
        rc = cr_errorf(err, CR_EDB, "%s: schema version %d is newer than this coinrow's (%d); use a newer coinrow",
                       s->path, version, cr_schema_count);
    else if (version == 0 && objects > 0)
        rc = cr_errorf(err, CR_EDB, "%s: not a coinrow database: it has tables of its own (%s) and no coinrow "
                                    "schema (user_version 0); coinrow leaves it alone",
                       s->path, cr_text_shown(shown, sizeof shown, names));
    else if (version > 0 && ours != 5)
        rc = cr_errorf(err, CR_EDB, "%s: not a coinrow database: schema version %d but not coinrow's tables",
                       s->path, version);
    sqlite3_finalize(st);
    return rc;
}

/* Runs script, then records version as the schema's.  A script that
 * finds what it adds there already meets a file whose recorded version was
 * changed outside coinrow: upgrading it cannot work. */
static int apply(cr_store *s, const char *script, int version, const char *doing, cr_error *err)
{
    char bump[64];
    snprintf(bump, sizeof bump, "PRAGMA user_version = %d", version);
    if (sqlite3_exec(s->db, script, NULL, NULL, NULL) == SQLITE_OK &&
        sqlite3_exec(s->db, bump, NULL, NULL, NULL) == SQLITE_OK)
        return 0;
    const char *why = sqlite3_errmsg(s->db);
    if (version > 1 && (strstr(why, "already exists") || strstr(why, "duplicate column name")))
        return cr_errorf(err, CR_EDB, "%s: its schema version says %d, but it already holds what version %d adds "
                                      "(%s): the version was changed outside coinrow, and no upgrade fits the "
                                      "file (set it back with PRAGMA user_version, or take the file again)",
                         s->path, version - 1, version, why);
    return cr_store__fail(s, doing, err);
}

/* The one place the schema changes: brings it from its version up to
 * cr_schema_count, every script of schema/ from there and its version bump
 * in one transaction, so that an upgrade that fails at any step leaves the
 * database as it was before the first.  A new database takes the current
 * schema in one script, flattened from the chain at build time.  The
 * version is read under the write lock: two coinrows initialising a new
 * database at once apply each script once. */
static int upgrade(cr_store *s, cr_error *err)
{
    const char *doing = s->opened_version == 0 ? "making its schema" : "upgrading the schema";
    int version, rc = cr_store__exec(s, "BEGIN IMMEDIATE", doing, err);
    if (rc == 0)
        rc = schema_version(&version, s, err);
    if (rc == 0 && (version < 0 || version > cr_schema_count))
        rc = cr_errorf(err, CR_EDB, "%s: schema version %d changed under coinrow while upgrading it", s->path,
                       version);
    if (rc == 0 && version == 0) {
        rc = apply(s, cr_schema_current, cr_schema_count, "making its schema", err);
        version = cr_schema_count;
    }
    for (; rc == 0 && version < cr_schema_count; version++) {
        char step[64];
        snprintf(step, sizeof step, "applying schema script %d", version + 1);
        rc = apply(s, cr_schema_scripts[version], version + 1, step, err);
    }
    /* an older file's upgrade stays open until the command first writes: a
     * command that refuses (no such set, nothing to resume) or only reads
     * leaves the file as it was */
    if (rc == 0 && s->opened_version > 0)
        s->upgrade_open = 1;
    else if (rc == 0)
        rc = cr_store__exec(s, "COMMIT", doing, err);
    if (rc)
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

/* Whether the database is in WAL mode (asking writes nothing). */
static int in_wal(cr_store *s)
{
    sqlite3_stmt *st = NULL;
    int wal = sqlite3_prepare_v2(s->db, "PRAGMA journal_mode", -1, &st, NULL) == SQLITE_OK &&
              sqlite3_step(st) == SQLITE_ROW && strcmp((const char *)sqlite3_column_text(st, 0), "wal") == 0;
    sqlite3_finalize(st);
    return wal;
}

/* After the first commit of a store opened to write (before anything, on a
 * new database): WAL mode, which lets readers in while a run goes on; with
 * it, synchronous=NORMAL keeps the database consistent through a crash or
 * power loss and loses at most the last commits.  An existing file's first
 * transaction ran in rollback mode, so that one rolled back left the file
 * as it was.  Should the switch fail (another connection holds the file),
 * the store goes on in rollback mode: readers wait for each commit, nothing
 * is lost. */
static void start_wal(cr_store *s)
{
    if (!s->wal_pending)
        return;
    s->wal_pending = 0;
    s->writing = sqlite3_exec(s->db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL) == SQLITE_OK && in_wal(s);
    if (s->writing)
        sqlite3_exec(s->db, "PRAGMA synchronous = NORMAL", NULL, NULL, NULL);
}

/* Makes a database that passed inspect() ready for writing: page size (a
 * new one's), the schema brought up to date, and WAL mode asked for from
 * the first commit on unless rollback (CR_STORE_WRITE_ROLLBACK: switching
 * to WAL and back rewrites the header, and a WAL's transaction rolled back
 * would still leave that).  The upgrade of an existing file runs in the
 * journal mode the file has at rest, so that one that fails rolls back to
 * the file as it was, byte for byte (through the rollback journal; in WAL
 * mode, nothing reaches the file before a checkpoint).  A new one has
 * nothing to keep: it is in WAL mode before its schema is made, so that
 * neither that nor its first commit waits for a journal's four syncs.  A
 * current file is not written at all here: a command that opens it to
 * write and then refuses (no such set, nothing to resume) leaves it byte
 * for byte, its header and its time too. */
static int prepare_writing(cr_store *s, int version, int rollback, cr_error *err)
{
    /* page_size only takes on a new database.  The cache and temporary
     * tables in memory serve the upgrade too. */
    char page_size[40];
    snprintf(page_size, sizeof page_size, "PRAGMA page_size = %d", PAGE_SIZE);
    int rc = version == 0 ? cr_store__exec(s, page_size, "setting it up", err) : 0;
    if (rc == 0)
        rc = cr_store__exec(s, "PRAGMA cache_size = -65536; PRAGMA temp_store = MEMORY", "setting it up", err);
    s->wal_pending = !rollback;
    if (rc == 0 && version == 0)
        start_wal(s);
    if (rc == 0 && version < cr_schema_count)
        rc = upgrade(s, err);
    s->wal_pending = s->wal_pending && rc == 0;
    s->opened_wal = s->wal_pending && in_wal(s);
    return rc;
}

/* SQLite keeps memory statistics behind a global mutex unless told not to
 * before its first use; the writer mallocs for every row. */
static void configure_sqlite(void) { sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }

/* Whether mode makes a database where there is none (or an empty one). */
static int creates(cr_store_mode mode) { return mode == CR_STORE_WRITE || mode == CR_STORE_WRITE_ROLLBACK; }

/* Whether mode only reads. */
static int reads(cr_store_mode mode)
{
    return mode == CR_STORE_READ || mode == CR_STORE_READ_SHARED || mode == CR_STORE_READ_ANY;
}

/* The URI that opens path immutable, into a new string (NULL: no memory):
 * '%', '?' and '#' are escaped, and an absolute path gets an empty
 * authority, so that no path reads as something else. */
static char *immutable_uri(const char *path)
{
    size_t len = strlen(path), escaped = 0;
    for (size_t i = 0; i < len; i++)
        escaped += path[i] == '%' || path[i] == '?' || path[i] == '#';
    static const char head[] = "file://", tail[] = "?immutable=1";
    char *uri = malloc(sizeof head + len + 2 * escaped + sizeof tail);
    if (!uri)
        return NULL;
    size_t at = path[0] == '/' ? sizeof head - 1 : sizeof "file:" - 1;
    memcpy(uri, head, at);
    for (size_t i = 0; i < len; i++) {
        const char *hex = path[i] == '%' ? "25" : path[i] == '?' ? "3F" : path[i] == '#' ? "23" : NULL;
        if (hex) {
            uri[at++] = '%';
            uri[at++] = hex[0];
            uri[at++] = hex[1];
        } else {
            uri[at++] = path[i];
        }
    }
    memcpy(uri + at, tail, sizeof tail);
    return uri;
}

/* The name of the file SQLite keeps beside path (suffix "-wal", "-shm",
 * "-journal") into out: 0, or -1 when it does not fit. */
static int name_beside(char out[PATH_MAX], const char *path, const char *suffix)
{
    int n = snprintf(out, PATH_MAX, "%s%s", path, suffix);
    return n > 0 && n < PATH_MAX ? 0 : -1;
}

/* Whether path has no file named path + suffix beside it. */
static int nothing_beside(const char *path, const char *suffix)
{
    char beside[PATH_MAX];
    return name_beside(beside, path, suffix) == 0 && access(beside, F_OK) != 0;
}

/* Removes the database at path and the files SQLite keeps beside it. */
static void remove_with_beside(const char *path)
{
    static const char *const suffixes[] = {"-wal", "-shm", "-journal"};
    char beside[PATH_MAX];
    for (size_t k = 0; k < sizeof suffixes / sizeof *suffixes; k++)
        if (name_beside(beside, path, suffixes[k]) == 0)
            unlink(beside);
    unlink(path);
}

/* Whether path, read as CR_STORE_READ_SHARED, may be opened immutable:
 * no -wal file beside it (a writer at work, or one that crashed, whose
 * commits an immutable reader would not see), nor a -journal (a writer in
 * rollback mode at work, or one that crashed midway, whose uncommitted
 * pages an immutable reader would read as committed: SQLite's own reader
 * then waits for the one, and refuses the file until a writer rolls the
 * other back). */
static int immutable_safe(const char *path)
{
    return nothing_beside(path, "-wal") && nothing_beside(path, "-journal");
}

/* Opens path for mode into *out and checks what it holds, by reading
 * alone (inspect); its version is then the store's opened_version. */
static int store_open(cr_store **out, const char *path, cr_store_mode mode, cr_error *err)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, configure_sqlite);
    *out = NULL;
    size_t len = strlen(path);
    cr_store *s = calloc(1, sizeof *s + len + 1);
    if (!s)
        return cr_errorf(err, CR_ENOMEM, "no memory to open %s", path);
    memcpy(s->path, path, len + 1);
    /* a writer holds the database, its WAL and shared memory (or journal)
     * open at once: a limit too low for them refuses it before the file is
     * made, rather than leave a new empty one */
    if (!reads(mode) && !cr_files_spare(STORE_FILES)) {
        free(s);
        return cr_errorf(err, CR_EIO, "%s: too many open files: writing to it needs %d more at once (raise the "
                                      "limit, ulimit -n)", path, STORE_FILES);
    }
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) { /* SQLite says only "an I/O error" */
        free(s);
        return cr_errorf(err, CR_EINVAL, "%s is a folder, not a database", path);
    }
    if (!creates(mode) && access(path, F_OK) != 0 && errno == ENOENT) {
        free(s);
        return cr_errorf(err, CR_EIO, "%s: no such file (this command needs a coinrow database there, and creates none)",
                         path);
    }
    int flags = SQLITE_OPEN_NOMUTEX | (creates(mode)              ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
                                       : mode == CR_STORE_WRITE_EXISTING ? SQLITE_OPEN_READWRITE
                                                                  : SQLITE_OPEN_READONLY);
    int rc = 0;
    char *uri = mode == CR_STORE_READ_SHARED && immutable_safe(path) ? immutable_uri(path) : NULL;
    if (uri)
        flags |= SQLITE_OPEN_URI;
    int opened = cr_db_open(&s->db, uri ? uri : path, flags);
    free(uri);
    if (opened != SQLITE_OK)
        rc = s->db ? cr_store__fail(s, "opening it", err) : cr_errorf(err, CR_ENOMEM, "no memory to open %s", path);
    else {
        sqlite3_busy_timeout(s->db, BUSY_MS);
        if (!reads(mode) && sqlite3_db_readonly(s->db, "main") == 1)
            rc = cr_errorf(err, CR_EIO, "%s: the file is read-only; coinrow needs to write to it", path);
        if (rc == 0)
            rc = inspect(&s->opened_version, s, err);
    }
    if (rc) {
        cr_store_free(s);
        return rc;
    }
    *out = s;
    return 0;
}

/* Makes the store s, opened for mode, ready for it: refused when it has
 * nothing to read or is of an older version to read, else written to. */
static int ready(cr_store *s, cr_store_mode mode, cr_error *err)
{
    int version = s->opened_version;
    if (version == 0 && !creates(mode))
        return cr_errorf(err, CR_EDB, "%s: not a coinrow database (it has no tables)", s->path);
    if (!reads(mode))
        return prepare_writing(s, version, mode == CR_STORE_WRITE_ROLLBACK, err);
    if (version != cr_schema_count && mode != CR_STORE_READ_ANY)
        return cr_errorf(err, CR_EDB, "%s: schema version %d, this coinrow reads version %d: 'coinrow upgrade --db %s' "
                                      "upgrades it in place (as any command that writes to it does)",
                         s->path, version, cr_schema_count, s->path);
    return 0;
}

/* A database this process began to make at path and could not finish (a
 * full disk, say) is removed, with what SQLite made beside it, rather than
 * left as an empty file that the next command takes for its own.  Unless
 * another process made it meanwhile: found by sizes, since a full disk
 * can keep SQLite from reading it.  A schema committed takes a second page
 * in the file, or frames in its WAL. */
static void remove_unmade(const char *path)
{
    struct stat sb;
    char wal[PATH_MAX];
    if (name_beside(wal, path, "-wal") != 0 || (stat(wal, &sb) == 0 && sb.st_size > 0) ||
        (stat(path, &sb) == 0 && sb.st_size > PAGE_SIZE))
        return;
    remove_with_beside(path);
}

int cr_store_new(cr_store **out, const char *path, cr_store_mode mode, cr_error *err)
{
    cr_store *s = NULL;
    int made = creates(mode) && access(path, F_OK) != 0;
    int rc = store_open(&s, path, mode, err);
    if (rc == 0)
        rc = cr_store__lines_register(s, err);
    if (rc == 0)
        rc = cr_store__sets_register(s, err);
    if (rc == 0)
        rc = ready(s, mode, err);
    if (rc) {
        cr_store_free(s);
        if (made)
            remove_unmade(path);
        return rc;
    }
    *out = s;
    return 0;
}

int cr_store_blank(int *out, const char *path, cr_error *err)
{
    *out = access(path, F_OK) != 0;
    if (*out)
        return 0;
    cr_store *s = NULL;
    int rc = store_open(&s, path, CR_STORE_READ, err);
    *out = rc == 0 && s->opened_version == 0;
    cr_store_free(s);
    return rc;
}

int cr_store_roll_back_journal(const char *path, cr_error *err)
{
    char journal[PATH_MAX];
    if (name_beside(journal, path, "-journal") != 0 || access(journal, F_OK) != 0)
        return 0;
    sqlite3 *db = NULL;
    int rc = 0;
    if (cr_db_open(&db, path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX) != SQLITE_OK)
        rc = db ? CR_EIO : CR_ENOMEM;
    int step = SQLITE_OK;
    if (rc == 0) {
        sqlite3_busy_timeout(db, BUSY_MS);
        step = sqlite3_exec(db, "PRAGMA schema_version", NULL, NULL, NULL);
        rc = step == SQLITE_OK ? 0 : CR_EIO;
    }
    if (step == SQLITE_BUSY || step == SQLITE_LOCKED) /* the journal is a live writer's */
        cr_errorf(err, rc, "%s: the database is locked by another connection, which is writing to it (its journal "
                           "is %s): try again once it is done",
                  path, journal);
    else if (rc)
        cr_errorf(err, rc, "%s: cannot roll back what a stopped writer left in %s: %s", path, journal,
                  db ? sqlite3_errmsg(db) : "no memory");
    sqlite3_close(db);
    return rc;
}

void cr_store_discard_new(const char *path)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    int unused = cr_db_open(&db, path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX) == SQLITE_OK &&
                 sqlite3_exec(db, "BEGIN EXCLUSIVE", NULL, NULL, NULL) == SQLITE_OK; /* no busy timeout */
    unused = unused && sqlite3_prepare_v2(db, "SELECT count(*) FROM instance_set", -1, &st, NULL) == SQLITE_OK &&
             sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int64(st, 0) == 0;
    sqlite3_finalize(st);
    if (unused)
        remove_with_beside(path);
    sqlite3_close(db); /* its transaction, and its lock, with it */
}

void cr_store_wal_now(cr_store *store)
{
    cr_error ignored; /* should the upgrade fail to commit, the first write says so */
    if (cr_store_keep_upgrade(store, &ignored) == 0)
        start_wal(store);
}

int cr_store_close(cr_store *store, cr_error *err)
{
    if (!store)
        return 0;
    for (int i = 0; i < CR_STORE__KEPT_COUNT; i++)
        sqlite3_finalize(store->kept[i]);
    /* At rest the database is in rollback mode, so that a reader needs no
     * -wal and -shm files beside it (and a read-only command leaves none
     * behind); WAL mode is for while coinrow writes (a store that wrote
     * nothing never switched: it leaves the file as it found it, unless
     * another writer of this process switched it and closed first).  The switch needs the
     * database to itself: with another connection open it fails at once,
     * and the last writer to close makes it. */
    if (store->upgrade_open)
        sqlite3_exec(store->db, "ROLLBACK", NULL, NULL, NULL);
    int rc = 0;
    if (store->writing || ((store->wrote || (store->wal_pending && !store->opened_wal)) && in_wal(store))) {
        sqlite3_busy_timeout(store->db, 0);
        int switched = sqlite3_exec(store->db, "PRAGMA journal_mode = DELETE", NULL, NULL, NULL);
        char why[128];
        snprintf(why, sizeof why, "%s", sqlite3_errmsg(store->db));
        /* another connection keeps it in WAL mode (busy, locked): no failure */
        if (switched != SQLITE_OK && switched != SQLITE_BUSY && switched != SQLITE_LOCKED && in_wal(store))
            rc = cr_errorf(err, CR_EIO, "%s: its last changes are kept in %s-wal beside it, which could not be "
                                        "copied into it (%s): keep the two files together, and the next command "
                                        "that writes to it copies them",
                           store->path, store->path, why);
    }
    sqlite3_close(store->db);
    free(store);
    return rc;
}

void cr_store_free(cr_store *store)
{
    cr_error ignored;
    cr_store_close(store, &ignored);
}

int cr_store_read_begin(cr_store *store, cr_error *err)
{
    return cr_store__exec(store, "BEGIN", "starting to read", err);
}

void cr_store_read_end(cr_store *store)
{
    if (!sqlite3_get_autocommit(store->db))
        sqlite3_exec(store->db, "COMMIT", NULL, NULL, NULL);
}

/* ---- writing ---- */

int cr_store_begin(cr_store *store, cr_error *err)
{
    /* inside an upgrade left open (which holds the write lock), a savepoint:
     * its commit keeps the upgrade, its rollback leaves it open */
    int in_upgrade = store->upgrade_open;
    store->upgrade_open = 0;
    int rc = cr_store__exec(store, in_upgrade ? "SAVEPOINT cr_write" : "BEGIN IMMEDIATE", "starting a write", err);
    store->upgrade_open = in_upgrade && rc;
    store->write_in_upgrade = in_upgrade && !rc;
    store->changes_at_begin = sqlite3_total_changes64(store->db);
    int64_t max_id = 0;
    /* the write lock is ours until commit: ids from here on are free */
    if (rc == 0 && (rc = cr_store__query_int(&max_id, store, "SELECT coalesce(max(id), 0) FROM instance", 0, 0,
                                             "starting a write", err)) != 0)
        cr_store_rollback(store);
    store->next_instance_id = max_id + 1;
    store->added_set = 0;
    store->added_size = store->added_digest = 0;
    return rc;
}

int cr_store_commit(cr_store *store, cr_error *err)
{
    int rc = cr_store__sets_settle(store, err);
    int changed = store->write_in_upgrade || sqlite3_total_changes64(store->db) != store->changes_at_begin;
    if (rc == 0)
        rc = cr_store__exec(store, store->write_in_upgrade ? "RELEASE cr_write; COMMIT" : "COMMIT", "committing",
                            err);
    if (rc) {
        cr_store_rollback(store);
    } else if (changed) { /* a transaction that changed nothing wrote nothing: the file stays as it was */
        store->write_in_upgrade = 0;
        store->wrote = 1;
        start_wal(store);
    }
    return rc;
}

/* The pages the file holds, or `otherwise` when SQLite cannot tell. */
static int64_t page_count(cr_store *store, int64_t otherwise)
{
    int64_t pages = 0;
    cr_error ignored;
    return cr_store__query_int(&pages, store, "PRAGMA page_count", 0, 0, "counting its pages", &ignored) == 0
               ? pages
               : otherwise;
}

void cr_store_pages_written(cr_store *store, int64_t *out_written, int64_t *out_added)
{
    int written = 0, highest = 0;
    sqlite3_db_status(store->db, SQLITE_DBSTATUS_CACHE_WRITE, &written, &highest, 1);
    int64_t pages = page_count(store, store->pages_counted);
    *out_written = written;
    *out_added = pages - store->pages_counted;
    store->pages_counted = pages;
}

void cr_store_pages_read(cr_store *store, int64_t *out_read, int64_t *out_total)
{
    int read = 0, highest = 0;
    sqlite3_db_status(store->db, SQLITE_DBSTATUS_CACHE_MISS, &read, &highest, 0);
    *out_read = read;
    *out_total = page_count(store, 0);
}

void cr_store_rollback(cr_store *store)
{
    store->added_set = 0;
    store->added_size = store->added_digest = 0;
    if (store->write_in_upgrade) { /* the upgrade stays, open */
        if (sqlite3_exec(store->db, "ROLLBACK TO cr_write; RELEASE cr_write", NULL, NULL, NULL) == SQLITE_OK)
            store->upgrade_open = 1;
        else
            sqlite3_exec(store->db, "ROLLBACK", NULL, NULL, NULL); /* the store reads the file as it was */
        store->write_in_upgrade = 0;
    } else if (!store->upgrade_open && !sqlite3_get_autocommit(store->db)) {
        sqlite3_exec(store->db, "ROLLBACK", NULL, NULL, NULL);
    }
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
    s->wal_frames = frames;
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

int cr_store_wal_frames(const cr_store *store) { return store->wal_frames; }

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

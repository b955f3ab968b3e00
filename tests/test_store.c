/* The SQLite store: schema, sets, runs, writes, paged reads, failures. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cmocka.h>

#include "store/schema.h"
#include "store/store.h"
#include "util/util.h"
#include "store/sql.h" /* white box: the connection, to fill the disk */
#include "support/core_check.h"
#include "support/files.h"
#include "support/oracle.h"

typedef store_fixture fixture_state;

/* Adds instances "e1".."e<count>" with coins [i, i+1]. */
static void add_instances(cr_store *store, int64_t set_id, int first, int count)
{
    cr_store_instance *rows = calloc((size_t)count, sizeof *rows);
    char (*ids)[16] = calloc((size_t)count, 16), (*json)[64] = calloc((size_t)count, 64);
    cr_error err = {0};
    for (int i = 0; i < count; i++) {
        int k = first + i;
        rows[i].ext_id = ids[i];
        rows[i].ext_id_len = (size_t)snprintf(ids[i], 16, "e%d", k);
        rows[i].coins_json = json[i];
        rows[i].coins_json_len = (size_t)snprintf(json[i], 64, "[%d,%d]", k, k + 1);
        rows[i].n = 2;
        rows[i].total = 2 * k + 1;
        rows[i].total_fits = 1;
    }
    assert_int_equal(cr_store_begin(store, &err), 0);
    assert_int_equal(cr_store_add_instances(store, set_id, rows, (size_t)count, &err), 0);
    assert_int_equal(cr_store_commit(store, &err), 0);
    free(rows);
    free(ids);
    free(json);
}

/* The fixture's store made the schema and committed a set: WAL mode from
 * that commit on, until the last writer closes. */
static void test_store__creates_the_schema_once_in_wal_mode(void **state)
{
    fixture_state *f = *state;
    assert_int_equal(db_int(f->path, "PRAGMA user_version"), cr_schema_count);
    assert_int_equal(db_int(f->path, "SELECT count(*) FROM sqlite_master WHERE name IN ('instance_set', 'instance', "
                                     "'run', 'result', 'ingest_error', 'result_view')"),
                     6);
    cr_store *again = NULL;
    cr_error err = {0};
    assert_int_equal(cr_store_new(&again, f->path, CR_STORE_WRITE, &err), 0);
    cr_store_free(again);
    assert_int_equal(cr_store_new(&again, f->path, CR_STORE_READ, &err), 0);
    cr_store_free(again);
    char *mode = db_text(f->path, "PRAGMA journal_mode");
    assert_string_equal(mode, "wal");
    free(mode);
}

/* Files coinrow must refuse, each with what the refusal says. */
static const struct {
    const char *name, *sql, *says;
} refused[] = {
    {"newer.db", "CREATE TABLE instance_set (x); PRAGMA user_version = 99",
     "schema version 99 is newer than this coinrow's"},
    {"negative.db", "CREATE TABLE t (x); PRAGMA user_version = -5", "schema version -5 is not one coinrow writes"},
    {"negative-empty.db", "PRAGMA user_version = -5", "schema version -5 is not one coinrow writes"},
    {"foreign.db", "CREATE TABLE mine (a); INSERT INTO mine VALUES (1)",
     "not a coinrow database: it has tables of its own (mine)"},
    {"instance.db", "CREATE TABLE instance (id, name); INSERT INTO instance VALUES (1, 'x')",
     "not a coinrow database: it has tables of its own (instance)"},
    {"versioned.db", "CREATE TABLE mine (a); PRAGMA user_version = 2",
     "schema version 2 but not coinrow's tables"},
    {"text.db", NULL, "the file is not a SQLite database"},
};

static void test_store__refused_files_are_left_byte_for_byte(void **state)
{
    fixture_state *f = *state;
    char *dir = tmp_dir_new();
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        const char *path = tmp_path(dir, refused[i].name);
        if (refused[i].sql)
            assert_int_equal(db_exec(path, refused[i].sql), 0);
        else
            assert_int_equal(write_file(path, "id,values\n"), 0);
        char *before = dir_snapshot(dir);
        for (int mode = CR_STORE_READ; mode <= CR_STORE_WRITE; mode++) {
            cr_store *other = NULL;
            cr_error err = {0};
            assert_int_equal(cr_store_new(&other, path, (cr_store_mode)mode, &err), CR_EDB);
            assert_null(other);
            if (!strstr(err.msg, refused[i].says))
                fail_msg("%s: '%s' does not say '%s'", refused[i].name, err.msg, refused[i].says);
            char *after = dir_snapshot(dir);
            assert_string_equal(after, before); /* the same bytes, no -wal or -shm beside */
            free(after);
        }
        free(before);
    }
    /* the very next version is newer too */
    char sql[96], says[64];
    snprintf(sql, sizeof sql, "CREATE TABLE instance_set (x); PRAGMA user_version = %d", cr_schema_count + 1);
    snprintf(says, sizeof says, "schema version %d is newer than this coinrow's", cr_schema_count + 1);
    const char *next = tmp_path(dir, "next.db");
    assert_int_equal(db_exec(next, sql), 0);
    cr_store *other = NULL;
    cr_error err = {0};
    assert_int_equal(cr_store_new(&other, next, CR_STORE_WRITE, &err), CR_EDB);
    assert_non_null(strstr(err.msg, says));
    tmp_dir_free(dir);
    (void)f;
}

/* ---- another coinrow upgrading the file at the same moment ---- */

static const char *newer_path; /* the file another coinrow upgrades, once */

/* Before the upgrade's BEGIN IMMEDIATE takes the write lock, a newer
 * coinrow (another connection) brings the file to a later version. */
static int upgrade_first(unsigned type, void *ctx, void *stmt, void *sql)
{
    (void)type, (void)ctx, (void)sql;
    if (!newer_path || strcmp(sqlite3_sql(stmt), "BEGIN IMMEDIATE") != 0)
        return 0;
    const char *path = newer_path;
    newer_path = NULL;
    char bump[64];
    snprintf(bump, sizeof bump, "PRAGMA user_version = %d", cr_schema_count + 1);
    assert_int_equal(db_exec(path, bump), 0);
    return 0;
}

static int trace_connection(sqlite3 *db, const char **errmsg, const struct sqlite3_api_routines *api)
{
    (void)errmsg, (void)api;
    sqlite3_trace_v2(db, SQLITE_TRACE_STMT, upgrade_first, NULL);
    return SQLITE_OK;
}

/* The version is read again under the write lock: a newer one written
 * between coinrow's first look and its upgrade is refused, not upgraded
 * over, and the file keeps what the other wrote. */
static void test_store__a_newer_schema_written_while_waiting_to_upgrade_is_refused(void **state)
{
    fixture_state *f = *state;
    const char *path = tmp_path(f->dir, "raced.db");
    assert_int_equal(db_exec(path, "PRAGMA user_version = 0"), 0);
    newer_path = path;
    assert_int_equal(sqlite3_auto_extension((void (*)(void))trace_connection), SQLITE_OK);
    cr_store *s = NULL;
    cr_error err = {0};
    int rc = cr_store_new(&s, path, CR_STORE_WRITE, &err);
    sqlite3_cancel_auto_extension((void (*)(void))trace_connection);
    assert_null(newer_path); /* the race happened */
    assert_int_equal(rc, CR_EDB);
    assert_null(s);
    char expect[4300];
    snprintf(expect, sizeof expect, "%s: schema version %d changed under coinrow while upgrading it", path,
             cr_schema_count + 1);
    assert_string_equal(err.msg, expect);
    assert_int_equal(db_int(path, "PRAGMA user_version"), cr_schema_count + 1);
    assert_int_equal(db_int(path, "SELECT count(*) FROM sqlite_master"), 0);
}

/* Opens path to write, which makes or upgrades it, and closes it: at the
 * current schema version. */
/* Opens path to write and closes it: its schema is current, and the file
 * is at rest in rollback mode, alone (a new one is made in WAL mode). */
static void bring_up_to_date(const char *path)
{
    cr_store *s = NULL;
    cr_error err = {0};
    assert_int_equal(cr_store_new(&s, path, CR_STORE_WRITE, &err), 0);
    assert_int_equal(cr_store_keep_upgrade(s, &err), 0); /* kept: commands keep it at their first write */
    cr_store_free(s);
    assert_int_equal(db_int(path, "PRAGMA user_version"), cr_schema_count);
    char *mode = db_text(path, "PRAGMA journal_mode"), beside[4096];
    assert_string_equal(mode, "delete");
    free(mode);
    snprintf(beside, sizeof beside, "%s-wal", path);
    assert_int_not_equal(access(beside, F_OK), 0);
    snprintf(beside, sizeof beside, "%s-shm", path);
    assert_int_not_equal(access(beside, F_OK), 0);
}

static void test_store__a_new_or_empty_file_is_initialised(void **state)
{
    fixture_state *f = *state;
    const char *empty = tmp_path(f->dir, "empty.db"), *blank = tmp_path(f->dir, "blank.db");
    assert_int_equal(write_file(empty, ""), 0);
    assert_int_equal(db_exec(blank, "PRAGMA user_version = 0"), 0);
    const char *paths[] = {empty, blank, tmp_path(f->dir, "new.db")};
    for (int i = 0; i < 3; i++)
        bring_up_to_date(paths[i]);
    cr_store *reader = NULL;
    cr_error err = {0};
    const char *plain = tmp_path(f->dir, "plain.db");
    assert_int_equal(db_exec(plain, "PRAGMA user_version = 0"), 0);
    assert_int_equal(cr_store_new(&reader, plain, CR_STORE_READ, &err), CR_EDB);
    assert_non_null(strstr(err.msg, "not a coinrow database"));
    assert_int_equal(cr_store_new(&reader, tmp_path(f->dir, "missing.db"), CR_STORE_READ, &err), CR_EIO);
    assert_null(reader);
}

static int by_text(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

typedef struct lines {
    char **v;
    size_t count, cap, len;
} lines;

/* Adds a line: head, then each column of st's row as its type and text. */
static void add_line(lines *out, const char *head, sqlite3_stmt *st)
{
    char *line = sqlite3_mprintf("%s", head);
    for (int c = 0; c < sqlite3_column_count(st); c++) {
        char *more = sqlite3_mprintf("%s %d:%s", line, sqlite3_column_type(st, c),
                                     (const char *)sqlite3_column_text(st, c));
        sqlite3_free(line);
        line = more;
    }
    assert_int_equal(cr_grow((void **)&out->v, &out->cap, out->count + 1, sizeof *out->v, 16), 0);
    out->v[out->count++] = line;
    out->len += strlen(line) + 1;
}

/* What a database holds, schema and rows, as one text: a line per object of
 * sqlite_master and per row of each of its tables (SQLite's own included),
 * sorted, so that two databases made alike compare equal. */
static char *contents(const char *path)
{
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    sqlite3_stmt *objects = NULL, *rows = NULL;
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT type, name, tbl_name, sql FROM sqlite_master", -1, &objects, NULL),
                     SQLITE_OK);
    lines all = {0};
    while (sqlite3_step(objects) == SQLITE_ROW) {
        add_line(&all, "object", objects);
        if (strcmp((const char *)sqlite3_column_text(objects, 0), "table") != 0)
            continue;
        const char *name = (const char *)sqlite3_column_text(objects, 1);
        char *sql = sqlite3_mprintf("SELECT * FROM \"%w\"", name), *head = sqlite3_mprintf("row %s:", name);
        assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &rows, NULL), SQLITE_OK);
        while (sqlite3_step(rows) == SQLITE_ROW)
            add_line(&all, head, rows);
        sqlite3_finalize(rows);
        sqlite3_free(sql);
        sqlite3_free(head);
    }
    sqlite3_finalize(objects);
    sqlite3_close(db);
    qsort(all.v, all.count, sizeof *all.v, by_text);
    char *text = calloc(all.len + 1, 1), *at = text;
    for (size_t i = 0; i < all.count; i++) {
        at += sprintf(at, "%s\n", all.v[i]);
        sqlite3_free(all.v[i]);
    }
    free(all.v);
    return text;
}

/* A new database takes the current schema in one script, flattened from
 * the chain at build time: it holds what the chain makes (here from version
 * 1, through coinrow's upgrade with its own functions), object for object
 * and row for row, SQLite's statistics included. */
static void test_store__a_new_database_holds_what_the_chain_makes(void **state)
{
    fixture_state *f = *state;
    const char *chain = tmp_path(f->dir, "chain.db"), *fresh = tmp_path(f->dir, "fresh.db");
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(chain, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, cr_schema_scripts[0], NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "PRAGMA user_version = 1", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    bring_up_to_date(chain);
    bring_up_to_date(fresh);
    char *want = contents(chain), *got = contents(fresh);
    assert_non_null(strstr(want, "object 3:view 3:result_view"));
    assert_non_null(strstr(want, "row sqlite_stat1:"));
    assert_non_null(strstr(want, "row variant:"));
    assert_string_equal(got, want);
    free(want);
    free(got);
}

/* At rest (no writer left) the database is in rollback mode, so that a
 * reader needs no -wal and -shm beside it: reading leaves the folder as it
 * was, even when the file is read-only. */
static void test_store__reading_a_database_at_rest_changes_nothing(void **state)
{
    fixture_state *f = *state;
    cr_store_free(f->store);
    f->store = NULL;
    char *mode = db_text(f->path, "PRAGMA journal_mode");
    assert_string_equal(mode, "delete");
    free(mode);
    char *before = dir_snapshot(f->dir);
    for (int read_only = 0; read_only < 2; read_only++) {
        if (read_only && make_read_only(f->path) != 0)
            break;
        cr_store *reader = NULL;
        cr_error err = {0};
        int64_t id = 0;
        assert_int_equal(cr_store_new(&reader, f->path, CR_STORE_READ, &err), 0);
        assert_int_equal(cr_store_set_find(&id, reader, "s", 0, NULL, &err), 0);
        cr_store_free(reader);
        char *after = dir_snapshot(f->dir);
        assert_string_equal(after, before);
        free(after);
    }
    make_writable(f->path);
    free(before);
}

static void test_store__read_only_file_is_a_clear_error(void **state)
{
    fixture_state *f = *state;
    cr_store_free(f->store);
    f->store = NULL;
    cr_store *ro = NULL;
    cr_error err = {0};
    if (make_read_only(f->path) != 0)
        skip();
    int rc = cr_store_new(&ro, f->path, CR_STORE_WRITE, &err);
    make_writable(f->path);
    assert_int_equal(rc, CR_EIO);
    assert_non_null(strstr(err.msg, "store.db: the file is read-only; coinrow needs to write to it"));
}

static void test_store__sets_are_found_created_and_listed(void **state)
{
    fixture_state *f = *state;
    int64_t id = 0, other = 0;
    cr_error err = {0};
    assert_int_equal(cr_store_set_find(&id, f->store, "s", 0, NULL, &err), 0);
    assert_int_equal(id, f->set_id);
    assert_int_equal(cr_store_set_find(&id, f->store, NULL, 0, NULL, &err), 0);
    assert_int_equal(id, f->set_id);
    assert_int_equal(cr_store_set_find(&other, f->store, "t", 1, NULL, &err), 0);
    assert_int_not_equal(other, f->set_id);
    assert_int_equal(cr_store_set_find(&id, f->store, NULL, 0, NULL, &err), CR_EINVAL);
    assert_non_null(strstr(err.msg, "has 2 instance sets (s, t): name one"));
    assert_int_equal(cr_store_set_find(&id, f->store, "u", 0, NULL, &err), CR_EINVAL);
    assert_non_null(strstr(err.msg, "has no instance set 'u' (sets: s, t)"));
    assert_int_equal(cr_store_set_find(&id, f->store, "", 1, NULL, &err), CR_EINVAL);
    assert_non_null(strstr(err.msg, "a set needs a name, and this one is empty"));
    char name[16];
    assert_int_equal(cr_store_set_name(name, sizeof name, f->store, other, &err), 0);
    assert_string_equal(name, "t");
}

static void test_store__runs_are_found_by_id_and_status(void **state)
{
    fixture_state *f = *state;
    cr_solve_opts opts = {CR_VARIANT_BIT(CR_DIFF) | CR_VARIANT_BIT(CR_WINNER), CR_ALGO_DP, CR_MOVES_CANONICAL};
    int64_t first, second;
    cr_run run;
    cr_error err = {0};
    assert_int_equal(cr_store_run_find(&run, f->store, 0, CR_PICK_UNFINISHED, &err), CR_EINVAL);
    assert_non_null(strstr(err.msg, "has no unfinished run"));
    assert_int_equal(cr_store_run_new(&first, f->store, f->set_id, &opts, "v1", "a label", &err), 0);
    assert_int_equal(cr_store_run_new(&second, f->store, f->set_id, &opts, "v1", NULL, &err), 0);
    assert_int_equal(cr_store_run_set_status(f->store, second, CR_RUN_DONE, NULL, &err), 0);
    assert_int_equal(cr_store_run_find(&run, f->store, 0, CR_PICK_UNFINISHED, &err), 0);
    assert_int_equal(run.id, first);
    assert_int_equal(run.opts.variants, opts.variants);
    assert_int_equal(run.opts.algo, CR_ALGO_DP);
    assert_int_equal(run.opts.moves, CR_MOVES_CANONICAL);
    assert_int_equal(run.status, CR_RUN_RUNNING);
    assert_string_equal(run.solver_version, "v1");
    assert_int_equal(cr_store_run_find(&run, f->store, 0, CR_PICK_DONE, &err), 0);
    assert_int_equal(run.id, second);
    assert_int_equal(cr_store_run_find(&run, f->store, second, CR_PICK_UNFINISHED, &err), CR_EINVAL);
    assert_non_null(strstr(err.msg, "is done, not unfinished"));
    assert_int_equal(cr_store_run_find(&run, f->store, 77, CR_PICK_ANY, &err), CR_EINVAL);
    assert_non_null(strstr(err.msg, "has no run 77"));
    assert_int_equal(cr_store_run_set_status(f->store, first, CR_RUN_FAILED, "disk full", &err), 0);
    assert_int_equal(db_int(f->path, "SELECT finished_at IS NOT NULL AND message = 'disk full' FROM run WHERE id = 1"), 1);
    assert_int_equal(cr_store_run_set_status(f->store, first, CR_RUN_RUNNING, NULL, &err), 0);
    assert_int_equal(db_int(f->path, "SELECT finished_at IS NULL AND status = 'running' FROM run WHERE id = 1"), 1);
}

static void test_store__instances_added_in_order_same_and_clashing(void **state)
{
    fixture_state *f = *state;
    add_instances(f->store, f->set_id, 1, 150); /* more than one chunk */
    cr_store_instance rows[3] = {
        {"e7", 2, "[7,8]", 5, 2, 15, 1, 0, 0, 0},  /* the same again */
        {"e8", 2, "[1,1]", 5, 2, 2, 1, 0, 0, 0},   /* other coins */
        {"new", 3, "[5]", 3, 1, 5, 0, 0, 0, 0},    /* new; total left NULL */
    };
    cr_error err = {0};
    assert_int_equal(cr_store_begin(f->store, &err), 0);
    assert_int_equal(cr_store_add_instances(f->store, f->set_id, rows, 3, &err), 0);
    assert_int_equal(cr_store_commit(f->store, &err), 0);
    assert_int_equal(rows[0].state, CR_STORE_SAME);
    assert_int_equal(rows[0].id, 7);
    assert_int_equal(rows[1].state, CR_STORE_CLASH);
    assert_int_equal(rows[1].id, 8);
    assert_int_equal(rows[2].state, CR_STORE_ADDED);
    assert_int_equal(rows[2].id, 153); /* ids are never reused: 151 and 152 went to the others */
    assert_int_equal(db_int(f->path, "SELECT count(*) FROM instance"), 151);
    assert_int_equal(db_int(f->path, "SELECT max(id) FROM instance WHERE ext_id = 'e150'"), 150);
    assert_int_equal(db_int(f->path, "SELECT total IS NULL FROM instance WHERE ext_id = 'new'"), 1);
    assert_int_equal(db_int(f->path, "SELECT sum(value) FROM instance, json_each(coins) WHERE ext_id = 'e3'"), 7);
    uint64_t size;
    assert_int_equal(cr_store_set_size(&size, f->store, f->set_id, &err), 0);
    assert_int_equal(size, 151);
}

static int by_ext_id(const void *a, const void *b)
{
    const cr_store_instance *x = a, *y = b;
    return strcmp(x->ext_id, y->ext_id);
}

/* Looking rows up finds each by a scan of the set's index when they come
 * in its order, and starts the scan again when one does not: checked
 * against what the set holds ("e1".."e150" with ids 1..150 and coins [k,
 * k+1]) for random rows, sorted or not, of ids it holds, ids next to them
 * in its order that it lacks, ids only another set holds, and other coins. */
static void test_store__instances_are_found_in_any_order(void **state)
{
    fixture_state *f = *state;
    add_instances(f->store, f->set_id, 1, 150);
    int64_t other;
    cr_error err = {0};
    assert_int_equal(cr_store_set_find(&other, f->store, "other", 1, "test", &err), 0);
    add_instances(f->store, other, 151, 20); /* "e151".."e170": ids of another set */
    static const char *const strangers[] = {"", "d", "e", "e0", "e1x", "e10 ", "e150x", "e171", "f", "zzz"};
    uint64_t rng = 34;
    enum { MOST = 40 };
    cr_store_instance rows[MOST];
    char ids[MOST][16], json[MOST][32];
    for (int trial = 0; trial < 300; trial++) {
        size_t count = (size_t)test_rand_range(&rng, 1, MOST);
        int expect_id[MOST] = {0};
        for (size_t i = 0; i < count; i++) {
            int k = (int)test_rand_range(&rng, 1, 170), stranger = test_rand_range(&rng, 0, 4) == 0;
            if (stranger)
                snprintf(ids[i], sizeof ids[i], "%s", strangers[test_rand_range(&rng, 0, 9)]);
            else
                snprintf(ids[i], sizeof ids[i], "e%d", k);
            int clash = test_rand_range(&rng, 0, 5) == 0;
            rows[i] = (cr_store_instance){.ext_id = ids[i], .ext_id_len = strlen(ids[i]), .coins_json = json[i]};
            rows[i].coins_json_len = (size_t)snprintf(json[i], sizeof json[i], "[%d,%d]", k, k + 1 + clash);
            rows[i].id = 99; /* what the lookup must overwrite */
        }
        if (trial % 2)
            qsort(rows, count, sizeof rows[0], by_ext_id);
        for (size_t i = 0; i < count; i++) {
            int k = 0;
            if (sscanf(rows[i].ext_id, "e%d", &k) == 1 && k >= 1 && k <= 150) {
                char exact[16];
                snprintf(exact, sizeof exact, "e%d", k);
                expect_id[i] = strcmp(exact, rows[i].ext_id) == 0 ? k : 0;
            }
        }
        assert_int_equal(cr_store_find_instances(f->store, f->set_id, rows, count, &err), 0);
        for (size_t i = 0; i < count; i++) {
            int k = 0;
            sscanf(rows[i].coins_json, "[%d", &k);
            char same[32];
            snprintf(same, sizeof same, "[%d,%d]", k, k + 1);
            int want = !expect_id[i]                             ? CR_STORE_MISSING
                       : strcmp(rows[i].coins_json, same) == 0 && k == expect_id[i] ? CR_STORE_SAME
                                                                                    : CR_STORE_CLASH;
            assert_int_equal(rows[i].state, want);
            assert_int_equal(rows[i].id, expect_id[i]);
        }
    }
}

static void test_store__results_are_added_once(void **state)
{
    fixture_state *f = *state;
    add_instances(f->store, f->set_id, 1, 2);
    cr_solve_opts opts = {CR_VARIANT_BIT(CR_TOTAL) | CR_VARIANT_BIT(CR_DIFF), CR_ALGO_AUTO, CR_MOVES_FAST};
    int64_t run;
    cr_error err = {0};
    assert_int_equal(cr_store_run_new(&run, f->store, f->set_id, &opts, "v", NULL, &err), 0);
    cr_store_result rows[4] = {
        {1, CR_TOTAL, NULL, 0, 2, 2, 1, 1, "RL", 2},
        {1, CR_DIFF, NULL, 0, 1, 2, 1, 1, "RL", 2},
        {2, CR_TOTAL, "the total value does not fit in int64", CR_FIGURES_ALL, 0, 0, 0, 0, NULL, 0},
        /* a figure that does not fit is NULL on its own */
        {2, CR_DIFF, "the diff first_score (...) does not fit in int64", CR_FIGURE_FIRST_SCORE, 5, 0, 7, 1, "LR", 2},
    };
    size_t added = 0;
    assert_int_equal(cr_store_begin(f->store, &err), 0);
    assert_int_equal(cr_store_add_results(&added, f->store, run, rows, 4, &err), 0);
    assert_int_equal(added, 2); /* instances */
    assert_int_equal(cr_store_add_results(&added, f->store, run, rows, 1, &err), 0);
    assert_int_equal(added, 0);
    assert_int_equal(cr_store_commit(f->store, &err), 0);
    assert_int_equal(db_int(f->path, "SELECT count(*) FROM result_view WHERE set_name = 's' AND winner = 'first' "
                                     "AND moves = 'RL' AND solver_version = 'v'"),
                     2);
    assert_int_equal(db_int(f->path, "SELECT value IS NULL AND winner IS NULL AND moves IS NULL FROM result "
                                     "WHERE instance_id = 2 AND variant = 'total'"),
                     1);
    assert_int_equal(db_int(f->path, "SELECT value = 5 AND first_score IS NULL AND second_score = 7 AND winner = "
                                     "'first' AND error IS NOT NULL FROM result WHERE instance_id = 2 AND "
                                     "variant = 'diff'"),
                     1);
    uint64_t solved;
    assert_int_equal(cr_store_run_solved(&solved, f->store, run, &err), 0);
    assert_int_equal(solved, 2);

    /* read back in instance order, then by variant name */
    cr_store_results *it = NULL;
    const cr_stored_result *r;
    assert_int_equal(cr_store_results_new(&it, f->store, run, CR_BY_INSTANCE, &err), 0);
    assert_int_equal(cr_store_results_next(&r, it, &err), 1);
    assert_int_equal(r->variant, CR_DIFF);
    assert_string_equal(r->ext_id, "e1");
    assert_int_equal(cr_store_results_next(&r, it, &err), 1);
    assert_int_equal(r->variant, CR_TOTAL);
    assert_int_equal(r->value, 2);
    assert_int_equal(r->winner, 1);
    assert_string_equal(r->moves, "RL");
    assert_int_equal(cr_store_results_next(&r, it, &err), 1);
    assert_int_equal(r->missing, CR_FIGURE_FIRST_SCORE);
    assert_true(r->value == 5 && r->second_score == 7 && r->winner == 1);
    assert_int_equal(cr_store_results_next(&r, it, &err), 1);
    assert_string_equal(r->error, "the total value does not fit in int64");
    assert_int_equal(r->missing, CR_FIGURES_ALL);
    assert_null(r->moves);
    assert_int_equal(cr_store_results_next(&r, it, &err), 0);
    cr_store_results_free(it);
}

static void test_store__ingest_errors_are_recorded_once_and_cut(void **state)
{
    fixture_state *f = *state;
    char raw[400];
    memset(raw, 'a', sizeof raw);
    memcpy(raw + CR_RAW_MAX - 1, "\xc3\xa9", 2); /* an 'é' across the cut */
    cr_error err = {0};
    assert_int_equal(cr_store_begin(f->store, &err), 0);
    for (int i = 0; i < 2; i++)
        assert_int_equal(cr_store_add_ingest_error(f->store, f->set_id, "a.csv", 3, "x", 1, "why", raw, sizeof raw,
                                                   &err),
                         0);
    assert_int_equal(cr_store_add_ingest_error(f->store, f->set_id, "a.csv", 4, NULL, 0, "why", "1,2\r\n", 5, &err),
                     0);
    assert_int_equal(cr_store_commit(f->store, &err), 0);
    assert_int_equal(db_int(f->path, "SELECT count(*) FROM ingest_error"), 2);
    assert_int_equal(db_int(f->path, "SELECT length(CAST(raw AS BLOB)) FROM ingest_error WHERE line = 3"),
                     CR_RAW_MAX - 1);
    assert_int_equal(db_int(f->path, "SELECT raw = '1,2' AND ext_id IS NULL FROM ingest_error WHERE line = 4"), 1);
}

static void test_store__instances_are_read_in_pages_and_by_run(void **state)
{
    fixture_state *f = *state;
    add_instances(f->store, f->set_id, 1, 1300); /* over two pages */
    cr_solve_opts opts = {CR_VARIANT_BIT(CR_TOTAL), CR_ALGO_AUTO, CR_MOVES_NONE};
    int64_t run;
    cr_error err = {0};
    assert_int_equal(cr_store_run_new(&run, f->store, f->set_id, &opts, "v", NULL, &err), 0);
    assert_int_equal(cr_store_begin(f->store, &err), 0);
    for (int64_t id = 1; id <= 1300; id += 2) { /* solve the odd ones */
        cr_store_result r = {id, CR_TOTAL, NULL, 0, 0, 0, 0, 0, NULL, 0};
        assert_int_equal(cr_store_add_results(NULL, f->store, run, &r, 1, &err), 0);
    }
    assert_int_equal(cr_store_commit(f->store, &err), 0);

    cr_store *reader = NULL;
    cr_store_instances *it = NULL;
    const cr_instance *in;
    assert_int_equal(cr_store_new(&reader, f->path, CR_STORE_READ, &err), 0);
    assert_int_equal(cr_store_instances_new(&it, reader, f->set_id, 0, &err), 0);
    int64_t expect = 1;
    while (cr_store_instances_next(&in, it, &err) == 1) {
        assert_int_equal(in->id, expect);
        assert_int_equal(in->n, 2);
        assert_int_equal(in->coins[1], expect + 1);
        expect++;
    }
    assert_int_equal(expect, 1301);
    cr_store_instances_free(it);

    assert_int_equal(cr_store_instances_new(&it, reader, f->set_id, run, &err), 0);
    int count = 0;
    while (cr_store_instances_next(&in, it, &err) == 1) {
        assert_true(in->id % 2 == 0 || strcmp(in->ext_id, "e5000") == 0);
        count++;
        if (count == 600) /* added while reading, behind the position: seen */
            add_instances(f->store, f->set_id, 5000, 1);
    }
    assert_int_equal(count, 651);
    cr_store_instances_free(it);
    cr_store_free(reader);
}

static void test_store__disk_full_keeps_what_was_committed(void **state)
{
    fixture_state *f = *state;
    add_instances(f->store, f->set_id, 1, 10);
    cr_error err = {0};
    int64_t pages = db_int(f->path, "PRAGMA page_count");
    char sql[64];
    snprintf(sql, sizeof sql, "PRAGMA max_page_count = %lld", (long long)pages + 2);
    assert_int_equal(sqlite3_exec(f->store->db, sql, NULL, NULL, NULL), SQLITE_OK);
    enum { MANY = 4000 };
    cr_store_instance *rows = calloc(MANY, sizeof *rows);
    char (*ids)[16] = calloc(MANY, 16);
    for (int i = 0; i < MANY; i++)
        rows[i] = (cr_store_instance){ids[i], (size_t)snprintf(ids[i], 16, "big%d", i), "[1,2,3,4,5,6,7,8,9]", 19, 9,
                                      45, 1, 0, 0, 0};
    assert_int_equal(cr_store_begin(f->store, &err), 0);
    assert_int_equal(cr_store_add_instances(f->store, f->set_id, rows, MANY, &err), CR_EIO);
    assert_non_null(strstr(err.msg, "store.db: the disk is full while writing instances"));
    cr_store_rollback(f->store);
    free(rows);
    free(ids);
    assert_int_equal(db_int(f->path, "SELECT count(*) FROM instance"), 10);
    assert_int_equal(db_exec(f->path, "PRAGMA integrity_check"), 0);
}

/* Adds `count` instances of 200 coins each and commits them. */
static void add_wide_instances(cr_store *store, int64_t set_id, int first, int count)
{
    static char json[1200];
    size_t len = 0;
    for (int i = 0; i < 200; i++)
        len += (size_t)snprintf(json + len, sizeof json - len, "%s%d", i ? "," : "[", 1000 + i);
    len += (size_t)snprintf(json + len, sizeof json - len, "]");
    cr_store_instance *rows = calloc((size_t)count, sizeof *rows);
    char (*ids)[16] = calloc((size_t)count, 16);
    cr_error err = {0};
    for (int i = 0; i < count; i++)
        rows[i] = (cr_store_instance){ids[i], (size_t)snprintf(ids[i], 16, "w%d", first + i), json, len, 200,
                                      0, 0, 0, 0, 0};
    assert_int_equal(cr_store_begin(store, &err), 0);
    assert_int_equal(cr_store_add_instances(store, set_id, rows, (size_t)count, &err), 0);
    assert_int_equal(cr_store_commit(store, &err), 0);
    free(rows);
    free(ids);
}

static int64_t wal_bytes(const char *db)
{
    char wal[4200];
    snprintf(wal, sizeof wal, "%s-wal", db);
    size_t len = 0;
    char *bytes = read_bytes(wal, &len);
    free(bytes);
    return bytes ? (int64_t)len : 0;
}

/* A reader's snapshot keeps the WAL growing (and the store says so); once
 * the reader is done, the WAL starts again from its beginning and its file
 * is cut back to the limit; at the end it is truncated to nothing. */
static void test_store__the_wal_starts_again_once_a_long_reader_is_done(void **state)
{
    fixture_state *f = *state;
    enum { LIMIT = 64 }; /* pages of 16 KiB: 1 MiB */
    const int64_t limit_bytes = LIMIT * (16384 + 24);
    cr_store_wal_limit(f->store, LIMIT);
    sqlite3 *reader = NULL;
    assert_int_equal(sqlite3_open_v2(f->path, &reader, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_exec(reader, "BEGIN; SELECT count(*) FROM instance", NULL, NULL, NULL), SQLITE_OK);
    int next = 0;
    for (int i = 0; i < 12; i++, next += 400)
        add_wide_instances(f->store, f->set_id, next, 400);
    assert_true(wal_bytes(f->path) > 3 * limit_bytes);
    assert_true(cr_store_wal_held(f->store) > 0);
    sqlite3_exec(reader, "COMMIT", NULL, NULL, NULL);
    sqlite3_close(reader);
    for (int i = 0; i < 20 && cr_store_wal_held(f->store) > 0; i++, next += 400)
        add_wide_instances(f->store, f->set_id, next, 400);
    assert_int_equal(cr_store_wal_held(f->store), 0);
    add_wide_instances(f->store, f->set_id, next, 400); /* written from the beginning, the file cut back */
    assert_true(wal_bytes(f->path) <= 2 * limit_bytes);
    cr_error err = {0};
    assert_int_equal(cr_store_wal_truncate(f->store, &err), 0);
    assert_int_equal(wal_bytes(f->path), 0);
    assert_int_equal(db_exec(f->path, "PRAGMA integrity_check"), 0);
    cr_store_wal_limit(f->store, 0);
}

static void test_store__a_second_writer_is_told_the_database_is_locked(void **state)
{
    fixture_state *f = *state;
    sqlite3 *other = NULL;
    cr_error err = {0};
    assert_int_equal(sqlite3_open(f->path, &other), SQLITE_OK);
    assert_int_equal(sqlite3_exec(other, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(cr_store_begin(f->store, &err), CR_EDB);
    assert_non_null(strstr(err.msg, "locked by another connection"));
    sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close(other);
    assert_int_equal(cr_store_begin(f->store, &err), 0);
    cr_store_rollback(f->store);
}

/* With no file descriptor left, the open names the cause (EMFILE), not a
 * missing file or a permission. */
static void test_store__too_many_open_files_is_named(void **state)
{
    fixture_state *f = *state;
    struct rlimit saved, low;
    assert_int_equal(getrlimit(RLIMIT_NOFILE, &saved), 0);
    low = saved;
    low.rlim_cur = 64;
    assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
    int held[64], count = 0;
    while (count < 64 && (held[count] = open("/dev/null", O_RDONLY | O_CLOEXEC)) >= 0)
        count++;
    cr_store *reader = NULL;
    cr_error err = {0};
    int rc = cr_store_new(&reader, f->path, CR_STORE_READ, &err);
    while (count > 0)
        close(held[--count]);
    assert_int_equal(setrlimit(RLIMIT_NOFILE, &saved), 0);
    assert_int_equal(rc, CR_EIO);
    if (!strstr(err.msg, "store.db: too many open files (the limit, ulimit -n, is reached) while opening it"))
        fail_msg("said: %s", err.msg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_store__creates_the_schema_once_in_wal_mode, store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store__refused_files_are_left_byte_for_byte, store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store__a_new_or_empty_file_is_initialised, store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store__a_new_database_holds_what_the_chain_makes, store_fixture_setup,
                                        store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store__a_newer_schema_written_while_waiting_to_upgrade_is_refused,
                                        store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store__reading_a_database_at_rest_changes_nothing, store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store__read_only_file_is_a_clear_error, store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store__sets_are_found_created_and_listed, store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store__runs_are_found_by_id_and_status, store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store__instances_added_in_order_same_and_clashing, store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store__instances_are_found_in_any_order, store_fixture_setup,
                                        store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store__results_are_added_once, store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store__ingest_errors_are_recorded_once_and_cut, store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store__instances_are_read_in_pages_and_by_run, store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store__disk_full_keeps_what_was_committed, store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store__the_wal_starts_again_once_a_long_reader_is_done,
                                        store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store__too_many_open_files_is_named, store_fixture_setup,
                                        store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store__a_second_writer_is_told_the_database_is_locked, store_fixture_setup,
                                        store_fixture_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

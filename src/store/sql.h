/* Inside the store: the connection and the helpers every statement of the
 * files of src/store goes through.  Only those files include this header (and
 * with it sqlite3.h): coinrow's SQL has no other home. */
#ifndef CR_STORE_SQL_H
#define CR_STORE_SQL_H

#include <sqlite3.h>
#include <stdint.h>

#include "store/store.h"

/* Rows per multi-row INSERT: one statement step per chunk instead of per row
 * roughly halves the writer's time on small instances. */
#define CR_STORE__CHUNK 64
/* Rows read per read transaction by the iterators. */
#define CR_STORE__PAGE 512

/* The statements a connection keeps prepared, the writer's. */
enum {
    CR_STORE__INSTANCES_CHUNK, /* the CHUNK-row insert, then its one-row twin */
    CR_STORE__INSTANCES_ONE,
    CR_STORE__FIND_INSTANCE,
    CR_STORE__SCAN_INSTANCES,
    CR_STORE__SOLUTIONS_CHUNK,
    CR_STORE__SOLUTIONS_ONE,
    CR_STORE__RESULT_EXTRA,
    CR_STORE__INGEST_ERROR,
    CR_STORE__KEPT_COUNT
};

struct cr_store {
    sqlite3 *db;
    sqlite3_stmt *kept[CR_STORE__KEPT_COUNT]; /* prepared on first use */
    int64_t next_instance_id;                 /* inside a write transaction */
    int64_t changes_at_begin;                 /* rows changed before it (sqlite3_total_changes64) */
    /* instances added to set added_set in this transaction, not yet in its
     * size and digest (cr_store__sets_settle writes them) */
    int64_t added_set;
    uint64_t added_size, added_digest;
    int wal_pending;                          /* opened for writing: WAL mode from its first commit on */
    int writing;                              /* written to: in WAL mode until freed */
    int opened_wal;                           /* opened to write a file in WAL mode */
    int opened_version;                       /* the schema version the file had */
    int upgrade_open;                         /* an older file's upgrade, not committed yet */
    int write_in_upgrade;                     /* cr_store_begin's write, a savepoint inside it */
    int wrote;                                /* something was committed */
    /* bounding the WAL (cr_store_wal_limit), in frames */
    int wal_limit, wal_skip, wal_failures, wal_held;
    int wal_frames; /* after the last commit */
    int64_t wal_frame_bytes;
    int64_t pages_counted; /* the page count at the last cr_store_pages_written */
    char path[];
};

/* Fills err from the connection's last SQLite error: the file, what went
 * wrong in words (disk full, read-only, locked by another connection, ...) and
 * `doing` ("writing results"); returns the code (CR_EDB, or CR_EIO for disk
 * and permission trouble). */
int cr_store__fail(cr_store *s, const char *doing, cr_error *err);

/* Runs SQL without results (several statements allowed); a transaction's
 * start, a write.  The upgrade left open is committed first
 * (cr_store_keep_upgrade, which the helpers below call before a statement
 * that writes: a command's first write keeps the upgrade, and one that
 * writes nothing leaves the file as it was). */
int cr_store__exec(cr_store *s, const char *sql, const char *doing, cr_error *err);

/* Prepares one-off SQL; the caller finalizes it. */
int cr_store__prepare(sqlite3_stmt **out, cr_store *s, const char *sql, const char *doing, cr_error *err);

/* The kept statement `which`, prepared from sql on first use. */
int cr_store__kept(sqlite3_stmt **out, cr_store *s, int which, const char *sql, cr_error *err);

/* The kept statement "INSERT OR IGNORE INTO head VALUES row,row,... tail"
 * for `rows` rows: the CHUNK-row one (which) or, for a single row, which + 1.
 * tail ("" for none) lets head select from the rows: "t (a, b) SELECT ...
 * FROM (" and ") AS v JOIN ...". */
int cr_store__kept_insert(sqlite3_stmt **out, cr_store *s, int which, const char *head, const char *row,
                          size_t rows, const char *tail, cr_error *err);

/* Steps a statement that returns no row, then resets it. */
int cr_store__step_done(cr_store *s, sqlite3_stmt *st, const char *doing, cr_error *err);

/* One integer from a one-row query (bound with up to two int64s). */
int cr_store__query_int(int64_t *out, cr_store *s, const char *sql, int64_t a, int64_t b, const char *doing,
                        cr_error *err);

/* The text of the first column of a query's first row (?1 bound to a) into
 * out (cap bytes), "" when it has no row. */
int cr_store__query_text(char *out, size_t cap, cr_store *s, const char *sql, int64_t a, const char *doing,
                         cr_error *err);

/* A statement read a page at a time: after PAGE rows (or fewer, at the end)
 * it is reset, which ends its read transaction, and bound again to go on
 * after the last key, until a page comes empty. */
typedef struct cr_store__pager {
    cr_store *store;
    sqlite3_stmt *st;
    int rows;  /* rows stepped in this page */
    int ended; /* the last page came short */
} cr_store__pager;

int cr_store__pager_open(cr_store__pager *p, cr_store *store, const char *sql, const char *doing, cr_error *err);

/* Steps to the next row: 1, 0 at the end, or an error.  bind() binds the
 * statement's key parameters from the last row before each new page. */
int cr_store__pager_step(cr_store__pager *p, void (*bind)(void *ctx, sqlite3_stmt *st), void *ctx, cr_error *err);

/* A generator's arguments as instance_set.generator and
 * test_group_generator.generator hold them, into out (cap bytes): JSON with
 * its keys in a fixed order, so that the same arguments always give the
 * same text. */
void cr_store__generator_json(char *out, size_t cap, const cr_gen_spec *spec);

/* A row of test_group (as g) that breaks what its table promises: a file
 * changed with its checks off (PRAGMA ignore_check_constraints), which
 * SQLite's integrity check does not see on a read-only connection.  Its
 * name goes into judges' files and programs, its points into sums. */
#define CR_STORE__GROUP_BROKEN                                                                                     \
    "NOT (typeof(g.name) = 'text' AND g.name <> '' AND g.name NOT GLOB '*[^A-Za-z0-9_]*' AND "                    \
    "length(CAST(g.name AS BLOB)) <= 64 AND typeof(g.points) = 'integer' AND g.points BETWEEN 0 AND 1000000000 "    \
    "AND typeof(g.n_min) = 'integer' AND typeof(g.n_max) = 'integer' AND typeof(g.value_min) = 'integer' AND "     \
    "typeof(g.value_max) = 'integer' AND 1 <= g.n_min AND g.n_min <= g.n_max AND g.value_min <= g.value_max AND " \
    "g.all_equal IN (0, 1) AND g.even_n IN (0, 1) AND g.odd_sum IN (0, 1))"

/* Row t (a verdict, or an invocation's sums) holds times that are no
 * number of seconds from 0 to 1e9: coinrow writes none such. */
#define CR_STORE__TIMES_BROKEN(t)                                                                               \
    "NOT (typeof(" t ".cpu_seconds) IN ('integer', 'real') AND " t ".cpu_seconds BETWEEN 0 AND 1e9 AND "          \
    "typeof(" t ".wall_seconds) IN ('integer', 'real') AND " t ".wall_seconds BETWEEN 0 AND 1e9)"

/* The dependencies d of a group a on a group b that is missing or of
 * another set (a FROM clause and its WHERE, which more terms may follow). */
#define CR_STORE__DEPENDENCY_ASTRAY                                                                             \
    "test_group_dependency AS d LEFT JOIN test_group AS a ON a.id = d.group_id LEFT JOIN test_group AS b ON b.id = " \
    "d.depends_on WHERE (a.set_id IS NULL OR a.set_id IS NOT b.set_id)"

/* reach (start, g): the groups g that group start depends on, directly or
 * through others; a group in a cycle reaches itself (start = g). */
#define CR_STORE__DEPENDENCY_REACH                                                                            \
    "WITH RECURSIVE reach (start, g) AS (SELECT group_id, depends_on FROM test_group_dependency UNION "         \
    "SELECT r.start, d.depends_on FROM reach AS r JOIN test_group_dependency AS d ON d.group_id = r.g) "

/* The rows of ingest_error that are not rejected rows but ingests under way
 * (cr_store_ingest_begin): no input row has line 0. */
#define CR_STORE__UNFINISHED "(line = 0 AND reason = 'ingest unfinished')"

/* ---- lines of play packed one bit per turn, as schema versions 4 to 6
 * kept them (store/lines.c) ---- */

/* The bytes a line of n turns takes packed. */
size_t cr_store__line_bytes(size_t n);

/* Packs line[0..n) into out (cr_store__line_bytes(n) bytes); -1 when a
 * letter is neither L nor R. */
int cr_store__line_pack(unsigned char *out, const char *line, size_t n);

/* The turns a packed line of `bytes` bytes holds, into *out; -1 when it is
 * not a packed line. */
int cr_store__line_length(size_t *out, const unsigned char *bits, size_t bytes);

/* The n turns of a packed line as 'L'/'R' text, NUL-terminated, into out
 * (n + 1 bytes). */
void cr_store__line_unpack(char *out, const unsigned char *bits, size_t n);

/* Registers the SQL functions of the upgrades on the connection:
 * coinrow_pack_line(text), the packed line (NULL when a letter is neither L
 * nor R), for the upgrade to schema version 4; coinrow_line_text(blob), a
 * packed line as text, for the upgrade to version 7. */
int cr_store__lines_register(cr_store *s, cr_error *err);

/* ---- sets (store/sets.c) ---- */

/* Registers coinrow_shard_key(ext_id) and the aggregate
 * coinrow_set_digest(ext_id, coins) (16 hex digits) on the connection, for
 * the upgrade to schema version 9. */
int cr_store__sets_register(cr_store *s, cr_error *err);

/* Adds the instances added in this transaction to their set's size and
 * digest; before a commit. */
int cr_store__sets_settle(cr_store *s, cr_error *err);

/* Copies the ext_id in column col of the current row, instance `id`'s,
 * into *buf (grown as needed to *cap bytes): the iterators keep a row's key
 * past the next step, and go on after it.  CR_EDB for an ext_id that is not
 * text (a file changed outside coinrow): after a BLOB, which sorts after
 * every text, a page would start on the same row again. */
int cr_store__keep_ext_id(char **buf, size_t *cap, cr_store *s, sqlite3_stmt *st, int col, int64_t id,
                          cr_error *err);

/* Copies column col of the current row as text into out (cap bytes, cut to
 * fit; "" for NULL). */
void cr_store__column_text(char *out, size_t cap, sqlite3_stmt *st, int col);

/* ---- what runs and invocations share (store/runs.c) ----
 * `table` is "run" or "invocation": a word of this code, never input. */

/* The status a stored name says into *out; CR_EINVAL naming an unknown
 * one (a row edited past its CHECK), which read as failed and was
 * resumed to done. */
int cr_store__status_parse(cr_run_status *out, const char *name, cr_error *err);

/* The verdict a stored name in column col says into *out (RE for NULL, a
 * verdict a LEFT JOIN did not find); CR_EDB naming it when it is not one
 * that coinrow writes (a row edited by hand), rather than count it as
 * another. */
int cr_store__column_verdict(cr_invoke_verdict *out, cr_store *s, sqlite3_stmt *st, int col, cr_error *err);

/* Prepares "SELECT columns, <whether the row matches pick> FROM table" for
 * row id (0: the latest that matches pick) and steps it: 0 with the
 * statement on the row in *out (the caller finalizes it), or CR_EINVAL
 * naming the row ("run 3 is done, not unfinished", "has no invocation 9")
 * when there is none or it does not match; status_col is the index of
 * `status` among the columns. */
int cr_store__find_latest(sqlite3_stmt **out, cr_store *s, const char *table, const char *columns, int status_col,
                          int64_t id, cr_run_pick pick, cr_error *err);

/* Sets a row's status and message; finished_at is set for done, interrupted
 * and failed, cleared for running.  seconds, unless negative, are added to
 * its time spent in the same statement: a run's or an invocation's end is
 * one write (a journal's four syncs each, where there is no WAL). */
int cr_store__set_status(cr_store *s, const char *table, int64_t id, cr_run_status status, const char *message,
                         double seconds, cr_error *err);

#endif

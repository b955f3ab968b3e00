/* The store: coinrow's SQLite database of instance sets, instances, runs,
 * results, ingest errors, shards and comparisons (the SQL files in schema/).
 * All of coinrow's SQL is in the store's files (src/store, by concern); the
 * rest of coinrow asks the store in C.
 *
 * A cr_store is one connection.  It serves one thread at a time (it is
 * opened without SQLite's own mutexes); open a second store on the same path
 * to read from another thread.  While a store writes, the database is in WAL
 * mode, so readers (the sqlite3 shell, another store) see every committed
 * batch while the writer goes on; at rest it is in rollback mode, so that a
 * reader needs no -wal and -shm files.  Every call that can fail returns 0
 * or a negative CR_E* code with the detail, naming the database file, in
 * err. */
#ifndef CR_STORE_H
#define CR_STORE_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "coinrow/compare.h"
#include "coinrow/contest.h"
#include "coinrow/error.h"
#include "coinrow/gen.h"
#include "coinrow/solve.h"
#include "coinrow/strategy.h"
#include "judge/judge.h"

typedef struct cr_store cr_store;

typedef enum cr_store_mode {
    CR_STORE_READ,   /* an existing database of this schema version, never changed */
    CR_STORE_WRITE,  /* created when missing or empty; an older schema brought up to date */
    CR_STORE_WRITE_EXISTING, /* as CR_STORE_WRITE, for an existing coinrow database alone (upgrade, and
                                the commands that need a set or a run in it): never created */
    CR_STORE_WRITE_ROLLBACK, /* as CR_STORE_WRITE, without WAL: the file keeps its journal mode
                                (rollback mode, at rest), and a reader waits while a commit is written.
                                For one transaction that may be refused midway (merge): a rollback leaves
                                the file byte for byte as it was, its header too.  For a database no one
                                reads until it is done (a shard's): WAL would write each page twice, into
                                the WAL and then into the file, and journal the switch back at close */
    CR_STORE_READ_SHARED, /* as CR_STORE_READ, for a file that nothing writes while it is read (a job's
                             input, which its shards read at once on shared storage; a shard done, which
                             merge reads): opened immutable (SQLite's immutable=1: no lock, no -shm, no
                             journal looked for), which is safe only while nothing writes to it;
                             when a -wal or -journal file beside it says a writer may be at work (or
                             stopped midway), as CR_STORE_READ */
    CR_STORE_READ_ANY /* as CR_STORE_READ, of any version of coinrow's schema up to this one
                         (cr_store_opened_version says which): for a caller that refuses an older file
                         in its own words (merge, an older coinrow's shard) */
} cr_store_mode;

/* Opens the database at path into *out; free it with cr_store_free.  The
 * file is checked first, by reading alone, and written only once it
 * passes: a refused file is left byte for byte as it was.  With
 * CR_STORE_WRITE a new or empty database is initialised and an older one
 * upgraded, every schema script it lacks in one transaction, which stays
 * open (the store reads the file as upgraded) until the first write, or
 * cr_store_keep_upgrade, commits it; a current one is not written until
 * the first commit, after which it is in WAL mode
 * (CR_STORE_WRITE_ROLLBACK likewise, without WAL), so that a command that
 * refuses before it writes, or writes nothing, leaves the file byte for
 * byte.
 * CR_STORE_WRITE_EXISTING refuses a missing or empty file instead.  Errors: CR_EIO when
 * the file cannot be opened or written (read-only file or folder), CR_EDB
 * when it is not a coinrow database (tables of its own and user_version 0,
 * a user_version coinrow never writes, coinrow's tables missing), was
 * written by a newer coinrow, is older and mode is CR_STORE_READ, or is
 * locked by another connection. */
int cr_store_new(cr_store **out, const char *path, cr_store_mode mode, cr_error *err);

/* Commits the upgrade of an older file that cr_store_new left open: for
 * `coinrow upgrade`, and before another connection of this process opens
 * the file (which would find it older, and wait for this one's lock).  0
 * when there was none. */
int cr_store_keep_upgrade(cr_store *store, cr_error *err);

/* Puts a store opened to write in WAL mode now, rather than after its
 * first commit: for a writer that commits while a reader of the same
 * process holds a snapshot (invoke's, the pipeline's), which rollback mode
 * would make it wait for.  Called once a command is past its refusals (it
 * rewrites the file's header).  Should the switch fail, the store goes on
 * in rollback mode. */
void cr_store_wal_now(cr_store *store);

/* Closes the connection (the last writer to close puts the database back
 * in rollback mode); accepts NULL. */
void cr_store_free(cr_store *store);

/* The same, saying why a writer could not put the database back in
 * rollback mode (a full disk: its last changes stay in the -wal file
 * beside it, which a copy of the file alone lacks). */
int cr_store_close(cr_store *store, cr_error *err);

/* The path the store was opened with. */
const char *cr_store_path(const cr_store *store);

/* The schema version the file had when it was opened (0: new or empty). */
int cr_store_opened_version(const cr_store *store);

/* *out = 1 when path names no file or a database CR_STORE_WRITE would
 * initialise (no tables, user_version 0), found by reading alone; else 0,
 * or the refusal of a file that is not a coinrow database. */
int cr_store_blank(int *out, const char *path, cr_error *err);

/* Rolls back the transaction a writer killed in the middle left in the
 * database at path (its -journal), as SQLite does when a connection that
 * may write reads it first, and nothing else: no upgrade, no other write.
 * 0 when there was none, or it is rolled back. */
int cr_store_roll_back_journal(const char *path, cr_error *err);

/* Removes the database at path, with the files SQLite keeps beside it,
 * that this process made and then gave up on (a refused merge): unless
 * another connection is in a transaction on it or it holds a set, as when
 * another process made the same new file at the same time and is writing
 * to it.  Found under an exclusive lock, taken without waiting, and held
 * while the files go. */
void cr_store_discard_new(const char *path);

/* The schema version this coinrow writes (the number of files in schema/). */
int cr_store_schema_version(void);

/* ---- instance sets ---- */

/* Refuses (CR_EINVAL, naming them) a database that holds sets, as what
 * `doing` (a phrase: "--out takes a new database") needs an empty one. */
int cr_store_refuse_sets(cr_store *store, const char *doing, cr_error *err);

/* The id of the set called name.  With create set, a missing set is created,
 * recording source (may be NULL) as where it came from; without it a missing
 * set is CR_EINVAL naming the sets there are.  name NULL picks the only set
 * of the database (CR_EINVAL when there is none or more than one). */
int cr_store_set_find(int64_t *out_id, cr_store *store, const char *name, int create, const char *source,
                      cr_error *err);

/* The name of set set_id into out (cap bytes, cut to fit). */
int cr_store_set_name(char *out, size_t cap, cr_store *store, int64_t set_id, cr_error *err);

/* How many instances set set_id holds. */
int cr_store_set_size(uint64_t *out, cr_store *store, int64_t set_id, cr_error *err);

/* The ext_id at 0-based `position` of set set_id in ext_id order, into
 * *out (the caller frees it): a look at the set's marks and a step of at
 * most 1023 ids when they are fresh, else a count from the set's first id.
 * CR_EINVAL when the set is not that large. */
int cr_store_set_id_at(char **out, cr_store *store, int64_t set_id, uint64_t position, cr_error *err);

/* Takes set set_id's marks (schema/009_shard_ranges.sql) again, unless they are of its
 * present content: one pass over its ids.  In a write transaction; whatever
 * adds instances calls it before it ends, so that shards of the set find
 * their bounds at once. */
int cr_store_set_mark(cr_store *store, int64_t set_id, cr_error *err);

/* Set set_id's size and fingerprint as stored (instance_set.size and
 * .digest, kept by whatever adds its instances; see cr_instance_digest),
 * with what this store's open transaction added: read without reading its
 * instances. */
int cr_store_set_fingerprint(uint64_t *out_size, uint64_t *out_digest, cr_store *store, int64_t set_id,
                             cr_error *err);

/* ---- runs ---- */

typedef enum cr_run_status {
    CR_RUN_RUNNING,
    CR_RUN_DONE,
    CR_RUN_INTERRUPTED,
    CR_RUN_FAILED,
    CR_RUN_STATUS_COUNT
} cr_run_status;

/* "running", "done", "interrupted", "failed". */
const char *cr_store_run_status_name(cr_run_status status);

typedef struct cr_run {
    int64_t id, set_id;
    cr_solve_opts opts; /* variants, algo and moves policy of the run */
    cr_run_status status;
    char solver_version[64];
    char tag[128];      /* the sharded job it belongs to; "" for none */
    double seconds;     /* time spent solving; 0 when unknown */
} cr_run;

/* Starts a run of set_id (status running) with opts, recording the
 * program's version and an optional label; its id in *out_id. */
int cr_store_run_new(int64_t *out_id, cr_store *store, int64_t set_id, const cr_solve_opts *opts,
                     const char *solver_version, const char *label, cr_error *err);

typedef enum cr_run_pick {
    CR_PICK_ANY,       /* any status */
    CR_PICK_DONE,      /* status done */
    CR_PICK_UNFINISHED /* running, interrupted or failed: what --resume takes */
} cr_run_pick;

/* Reads run id (0: the latest run) into *out.  CR_EINVAL naming the run when
 * there is none or its status does not match pick. */
int cr_store_run_find(cr_run *out, cr_store *store, int64_t id, cr_run_pick pick, cr_error *err);

/* The id of the latest run of set set_id that is not done into *out; 0
 * when there is none. */
int cr_store_run_latest_unfinished(int64_t *out, cr_store *store, int64_t set_id, cr_error *err);

/* Sets a run's status; finished_at is set for done, interrupted and failed,
 * and cleared for running.  message (may be NULL) says why it failed. */
int cr_store_run_set_status(cr_store *store, int64_t run_id, cr_run_status status, const char *message,
                            cr_error *err);

/* Sets a run's status as it ends (as cr_store_run_set_status does) and adds
 * seconds to the time it spent solving, in one write. */
int cr_store_run_finish(cr_store *store, int64_t run_id, cr_run_status status, const char *message, double seconds,
                        cr_error *err);

/* Records the sharded job run run_id belongs to. */
int cr_store_run_set_tag(cr_store *store, int64_t run_id, const char *tag, cr_error *err);

/* How many instances run run_id has solved (with or without an error). */
int cr_store_run_solved(uint64_t *out, cr_store *store, int64_t run_id, cr_error *err);

/* The latest done run of set set_id whose variants include variant (with
 * canonical, whose moves policy is canonical) and that solved every
 * instance of the set, into *out with *out_found = 1; *out_found = 0 when
 * there is none. */
int cr_store_run_with_answers(cr_run *out, int *out_found, cr_store *store, int64_t set_id, cr_variant variant,
                              int canonical, cr_error *err);

/* CR_EINVAL when results of run run_id for the variant are errors (a value
 * beyond int64), saying how many, naming the first instances and one of the
 * errors, and that they cannot be `what` ("exported", "judged"). */
int cr_store_run_refuse_unanswered(cr_store *store, int64_t run_id, cr_variant variant, const char *set_name,
                                   const char *what, cr_error *err);

/* The done run that holds sharded job `tag` (a merge of its shards) into
 * *out, or 0 when there is none. */
int cr_store_run_of_job(int64_t *out, cr_store *store, const char *tag, cr_error *err);

/* ---- writing, inside cr_store_begin .. cr_store_commit ---- */

/* Starts a write transaction (taking the write lock at once, waiting a few
 * seconds for another writer before CR_EDB "locked"). */
int cr_store_begin(cr_store *store, cr_error *err);

/* Commits it; on failure (disk full, ...) the transaction is rolled back and
 * the database keeps what earlier commits wrote. */
int cr_store_commit(cr_store *store, cr_error *err);

/* Since the last call: the pages the connection wrote, to the WAL at its
 * commits or when its cache spilled (*out_written), and the pages the
 * database grew by (*out_added).  Rows appended in key order write about a
 * page for each page added; rows scattered over a large index rewrite many
 * of its pages for each page they add. */
void cr_store_pages_written(cr_store *store, int64_t *out_written, int64_t *out_added);

/* The pages the connection has read from the file since it opened, each
 * time its cache lacked one (*out_read), and the pages the file holds
 * (*out_total; 0 when it cannot tell). */
void cr_store_pages_read(cr_store *store, int64_t *out_read, int64_t *out_total);

/* Rolls back the open transaction, if any. */
void cr_store_rollback(cr_store *store);

/* One instance to add to a set. */
typedef struct cr_store_instance {
    const char *ext_id;
    size_t ext_id_len;
    const char *coins_json; /* cr_coins_json's text */
    size_t coins_json_len;
    size_t n;
    int64_t total;          /* the sum of the coins, */
    int total_fits;         /* when it fits in int64 (else total is stored NULL) */
    uint64_t digest;        /* cr_instance_digest(ext_id, coins_json), for the set's fingerprint: the
                               caller's to hash, so that it need not be on the writer's thread */
    int64_t id;             /* out: the instance's id (the stored one unless CR_STORE_CLASH) */
    int state;              /* out: one of the CR_STORE_ADDED... below */
} cr_store_instance;

enum {
    CR_STORE_ADDED = 1, /* new to the set */
    CR_STORE_SAME,      /* the set has this ext_id with the same coins: nothing stored */
    CR_STORE_CLASH,     /* the set has this ext_id with other coins: nothing stored */
    CR_STORE_TOO_LONG,  /* its ext_id and coins are longer than SQLite stores in a row
                           (cr_store_length_max): nothing stored, id 0 */
    CR_STORE_MISSING    /* cr_store_find_instances: the set has no such ext_id, id 0 */
};

/* The longest string or row SQLite stores on this connection, in bytes
 * (SQLITE_MAX_LENGTH, 10^9 on Debian, unless lowered with sqlite3_limit). */
uint64_t cr_store_length_max(cr_store *store);

/* Adds rows[0..count) to set set_id in order, filling each row's id and
 * state.  A later row with the ext_id of an earlier one is SAME or CLASH; a
 * row too long to store is TOO_LONG, and the others are stored. */
int cr_store_add_instances(cr_store *store, int64_t set_id, cr_store_instance *rows, size_t count,
                           cr_error *err);

/* Finds rows[0..count) in set set_id by ext_id, storing nothing: each row's
 * id and state, SAME or CLASH by its coins, or MISSING.  For a set known to
 * hold them, it costs a lookup where cr_store_add_instances first tries an
 * insert, and less for rows in ext_id order (SQLite's BINARY one): they are
 * found by one scan of the set's index. */
int cr_store_find_instances(cr_store *store, int64_t set_id, cr_store_instance *rows, size_t count,
                            cr_error *err);

/* One result row: an instance's figures for one variant; those that are
 * missing (cr_result's CR_FIGURE_* bits) are stored as NULL and the error
 * says why. */
typedef struct cr_store_result {
    int64_t instance_id;
    cr_variant variant;
    const char *error; /* NULL when every figure is given; else why some are not */
    unsigned missing;  /* CR_FIGURE_* bits of the figures stored as NULL */
    int64_t value, first_score, second_score;
    int winner;        /* 1, -1 or 0 */
    const char *moves; /* NULL for none */
    size_t moves_len;
} cr_store_result;

/* Adds rows[0..count) to run run_id.  An instance's rows come one after the
 * other, all of them in one call: they are stored together (one solution row
 * and, for the rows it does not give, result_extra's).  Instances the run
 * already has are left as they are; how many instances were added goes to
 * *out_added (may be NULL). */
int cr_store_add_results(size_t *out_added, cr_store *store, int64_t run_id, const cr_store_result *rows,
                         size_t count, cr_error *err);

/* Records a rejected input row of set set_id (ext_id may be NULL; raw is cut
 * to CR_RAW_MAX bytes, without splitting a UTF-8 character, and loses its line
 * end).  The same row again (source, line, reason and raw text) records
 * nothing. */
int cr_store_add_ingest_error(cr_store *store, int64_t set_id, const char *source, uint64_t line,
                              const char *ext_id, size_t ext_id_len, const char *reason, const char *raw,
                              size_t raw_len, cr_error *err);

/* ---- ingests that did not finish ----
 * A write that fails (a full disk, a lock held by another process, no
 * memory) or a stop in the middle of the input leaves a set with the rows
 * stored so far: coinrow records each ingest as under way before its first
 * row, in the transaction that makes its set (and run), and as ended once
 * every row is committed, so that such a set says so. */

/* An ingest's inputs: `source` as the set's source names them (as typed),
 * and `files`, the same resolved (absolute, without links), which names
 * them however they are spelled or wherever coinrow runs (NULL: inputs
 * that are no files, as generated rows). */
typedef struct cr_store_ingest_of {
    const char *source, *files;
} cr_store_ingest_of;

/* Records an ingest of `of` into set set_id as under way; `finish` is the
 * command that finishes the job, as people type it (shown, never run). */
int cr_store_ingest_begin(cr_store *store, int64_t set_id, const cr_store_ingest_of *of, const char *finish,
                          cr_error *err);

/* Records every ingest of `of` (its source, or its files) into set set_id
 * as ended (of NULL: every ingest into the set). */
int cr_store_ingest_end(cr_store *store, int64_t set_id, const cr_store_ingest_of *of, cr_error *err);

/* An ingest under way, or that did not finish. */
typedef struct cr_unfinished_ingest {
    char source[1024];
    char finish[4096]; /* the command that finishes the job, as the database keeps it */
} cr_unfinished_ingest;

/* Writes the command that finishes a job, as the database keeps it (a
 * command that names no database), then " --db " and db as a shell word:
 * the database as this command names it, so that one moved or renamed
 * since is the one the command goes on with (an older coinrow's command
 * names its database: that --db is left out).  A command that coinrow does
 * not write (cr_text_command_literal: a database from elsewhere can hold
 * "coinrow run x; curl ... | sh") is not shown, and a note says so.
 * check-db's SQL shows the same through coinrow_command_shown(raw, db). */
void cr_store_finish_put(FILE *f, const char *finish, const char *db);

/* The latest ingest into set set_id that did not finish into *out, with
 * *out_found = 1; 0 when every ingest of the set ended.  An ingest of
 * `except` (its source, or its files) does not count (NULL: every one
 * does). */
int cr_store_ingest_unfinished(cr_unfinished_ingest *out, int *out_found, cr_store *store, int64_t set_id,
                               const cr_store_ingest_of *except, cr_error *err);

/* ---- checkpoints ---- */

/* Keeps the WAL of a writing store bounded: after a commit that leaves
 * `pages` pages or more in it, a checkpoint copies the whole WAL into the
 * database file and waits briefly for readers to leave it, so that the
 * next commit writes the WAL from its beginning (and cuts the file back to
 * `pages` pages).  When readers keep their snapshots longer, it tries again
 * a commit later, then less and less often; once the WAL has grown to
 * twice the limit, cr_store_wal_held says so.  0 restores SQLite's default
 * checkpoints. */
void cr_store_wal_limit(cr_store *store, int pages);

/* The WAL's size in bytes when readers' snapshots last kept it from
 * starting again, past twice the limit (or at cr_store_wal_truncate); 0
 * when none did since it last started again. */
uint64_t cr_store_wal_held(const cr_store *store);

/* The pages the WAL held after the last commit, with cr_store_wal_limit
 * set (0 before the first). */
int cr_store_wal_frames(const cr_store *store);

/* Caps the connection's page cache at kib KiB (it is 64 MiB for a writer):
 * for a store kept small while coinrow starts other programs, whose peak
 * memory counts coinrow's own (invoke/invoke.h), and for one that reads or
 * writes its pages in order, once each (a shard's), where a page cached is
 * memory touched for nothing. */
void cr_store_cache_limit(cr_store *store, int kib);

/* Copies into the database file what the WAL holds, as far as readers
 * allow and without waiting for anyone (a passive checkpoint): for a second
 * store beside a writer, so that the writer need not wait for the disk.
 * Returns 0, or the error (another checkpoint under way is not one). */
int cr_store_checkpoint(cr_store *store, cr_error *err);

/* At the end of a writing session: copies the whole WAL into the database
 * file and truncates it to nothing, waiting briefly for readers; when a
 * reader's snapshot keeps it, cr_store_wal_held says so.  Returns 0, or the
 * error (a reader in the way is not one). */
int cr_store_wal_truncate(cr_store *store, cr_error *err);

/* ---- checking the database (store/check.c) ---- */

/* SQLite's quick check of the file's structure (PRAGMA quick_check), for
 * commands to run before they trust a database: 0, or CR_EDB saying it is
 * damaged, with the first finding. */
int cr_store_quick_check(cr_store *store, cr_error *err);

/* Called once per finding of a check, and once with finding NULL for a
 * check that passed. */
typedef void (*cr_store_check_fn)(void *ctx, const char *check, const char *finding);

/* The check of the user's own objects, whose findings are notes. */
#define CR_STORE_CHECK_OWN "objects-of-your-own"

/* Checks the database in full: PRAGMA integrity_check ("integrity"); the
 * schema against the one this coinrow makes in a fresh database
 * ("schema-is-coinrows": each object of coinrow's missing or defined
 * otherwise, each trigger on one of them that coinrow does not define),
 * and the objects coinrow does not define, which are notes
 * (CR_STORE_CHECK_OWN); then coinrow's invariants, each a named query:
 * every result has its run and an instance of the run's set; every
 * instance a run solved has exactly the run's variants; a done run has
 * every instance of its set up to the last it solved; every ingest finished
 * (cr_store_ingest_begin); every test of a group is of the group's set
 * and meets its constraints, and the dependencies between groups stay in
 * a set and make no cycle; a set's size and digest are its instances';
 * no set or instance name is empty or holds a NUL; every run, invocation,
 * verdict and instance reads back as the commands read it (not checked,
 * and said so, when the file is damaged or coinrow's tables are not as it
 * defines them).  *out_failed counts the checks that found something,
 * notes aside.  Returns 0, or the error that stopped the checking. */
int cr_store_check(unsigned *out_failed, cr_store *store, cr_store_check_fn fn, void *ctx, cr_error *err);

/* Only the schema's part of cr_store_check ("schema-is-coinrows" and its
 * notes, CR_STORE_CHECK_OWN): *out_failed is 1 when an object of
 * coinrow's is missing or defined otherwise. */
int cr_store_check_schema(int *out_failed, cr_store *store, cr_store_check_fn fn, void *ctx, cr_error *err);

/* Starts a read transaction: whatever the store reads until
 * cr_store_read_end is of one moment of the file (in WAL mode, writers go
 * on meanwhile).  For a page made of many reads while a run writes (the
 * report).  0, or the error. */
int cr_store_read_begin(cr_store *store, cr_error *err);

/* Ends the read transaction cr_store_read_begin started. */
void cr_store_read_end(cr_store *store);

/* ---- reading, in pages: flat memory, no long read transaction ---- */

typedef struct cr_instance {
    int64_t id;
    const char *ext_id;
    const int64_t *coins;
    size_t n;
    const char *coins_json; /* the coins as the store keeps them: [4,6,2,3] */
    size_t coins_json_len;
    const char *damage; /* NULL, or why the row cannot be read (its coins are then empty) */
} cr_instance;

typedef struct cr_store_instances cr_store_instances;

/* Iterates over the instances of set set_id in id order (the order they were
 * ingested) or, when run_id is not 0, over those that run run_id has not
 * solved yet.  Instances committed before it reaches the end are seen, even
 * when added after it started.  Free with cr_store_instances_free. */
int cr_store_instances_new(cr_store_instances **out, cr_store *store, int64_t set_id, int64_t run_id,
                           cr_error *err);

/* The same over the instances of set set_id that invocation invocation_id
 * has not judged yet. */
int cr_store_instances_unjudged_new(cr_store_instances **out, cr_store *store, int64_t set_id, int64_t invocation_id,
                                    cr_error *err);

/* The same over the instances of set set_id whose ext_id is at least lo
 * (NULL: from the first) and below hi (NULL: to the last), in ext_id order
 * (SQLite's BINARY, memcmp's): one range of the set's index, whatever the
 * set's size. */
int cr_store_instances_range_new(cr_store_instances **out, cr_store *store, int64_t set_id, const char *lo,
                                 const char *hi, cr_error *err);

/* The next instance in *out (valid until the next call): returns 1, or 0 at
 * the end, or a negative code, also for a row changed outside coinrow so
 * that it cannot be read (coins that are not a JSON array of integers, an n
 * that is not their count), naming the instance. */
int cr_store_instances_next(const cr_instance **out, cr_store_instances *it, cr_error *err);

/* From now on, gives such a row (returns 1) with its damage said in `damage`,
 * for a reader that makes it that instance's failure. */
void cr_store_instances_keep_damaged(cr_store_instances *it);

void cr_store_instances_free(cr_store_instances *it);

typedef struct cr_stored_result {
    int64_t instance_id;
    const char *ext_id;
    const char *coins; /* the instance's coins as stored: a JSON array */
    size_t n;
    cr_variant variant;
    const char *error; /* NULL when every figure is given; else why some are not */
    unsigned missing;  /* CR_FIGURE_* bits of the figures that are NULL (read as 0) */
    int64_t value, first_score, second_score;
    int winner;
    const char *moves; /* NULL when the run has none */
} cr_stored_result;

typedef struct cr_store_results cr_store_results;

typedef enum cr_results_order {
    CR_BY_INSTANCE, /* instance id (the order the set was stored in), then variant name */
    CR_BY_EXT_ID    /* external id, then variant name, both in SQLite's BINARY order (strcmp's):
                       two runs of a set, even in two databases, merge in this order */
} cr_results_order;

/* Iterates over the results of run run_id in the given order.  Free with
 * cr_store_results_free. */
int cr_store_results_new(cr_store_results **out, cr_store *store, int64_t run_id, cr_results_order order,
                         cr_error *err);

/* The next result in *out (valid until the next call): 1, 0 at the end, or a
 * negative code. */
int cr_store_results_next(const cr_stored_result **out, cr_store_results *it, cr_error *err);

void cr_store_results_free(cr_store_results *it);

/* Moves a CR_BY_INSTANCE iterator on to the result of instance instance_id
 * for the variant (instances asked for in id order): 1 with it in *out, 0
 * when the run has none, or a negative code. */
int cr_store_results_seek(const cr_stored_result **out, cr_store_results *it, int64_t instance_id,
                          cr_variant variant, cr_error *err);

/* ---- generated sets (store/generated.c) ---- */

/* Finds set `name` made by spec, or creates it, in one transaction; its id
 * in *out_id.  A new set keeps spec as its generator (JSON) and, as its
 * source, the command line that makes it again.  CR_EINVAL naming the set
 * when it exists but was generated with other arguments (quoting them) or
 * was not generated at all. */
int cr_store_set_generated(int64_t *out_id, cr_store *store, const char *name, const cr_gen_spec *spec,
                           cr_error *err);

/* What the generator of set set_id kept: its arguments into *out (count,
 * seed, profile, and the constraints: n and value ranges, even n, odd
 * sum), *out_found = 1; *out_found = 0 when the set was not generated.
 * CR_EDB when the stored arguments are unreadable. */
int cr_store_set_generator(cr_gen_spec *out, int *out_found, cr_store *store, int64_t set_id, cr_error *err);

/* The command line that makes a generated set again, for people to copy
 * and run, written to f: the set's name quoted and escaped for the shell
 * (cr_text_put_word), the rest numbers and names coinrow wrote itself.
 * (The set's source column keeps it too, as text; what is printed is made
 * from the arguments, never from that text.) */
void cr_store_generator_command(FILE *f, const char *name, const cr_gen_spec *spec);

/* ---- groups of tests, the subtasks of a set (store/groups.c,
 * schema/010_groups.sql) ---- */

/* The longest group name, in bytes, and the most points of a group (a
 * set's total then stays far from overflow, on every judge). */
#define CR_STORE_GROUP_NAME_MAX 64
#define CR_STORE_GROUP_POINTS_MAX 1000000000

/* A group of a set: its name (letters, digits and '_'), points,
 * constraints, and the groups it depends on. */
typedef struct cr_store_group {
    const char *name;
    int64_t points;        /* 0 to CR_STORE_GROUP_POINTS_MAX */
    cr_constraints limits; /* every test's n and values, even n, odd sum */
    int all_equal;         /* every test's coins are all equal */
    const char *depends;   /* the groups it depends on, a comma list of names ("" for none); NULL in a
                              call into a group that exists: as they are */
    int64_t position;      /* read: its place in the set, 1, 2, ... */
    int64_t tests;         /* read: how many tests it has */
} cr_store_group;

/* Whether name can name a group: 1 to CR_STORE_GROUP_NAME_MAX letters,
 * digits and '_' (so that it is a folder name and a regex of itself on
 * every judge, and "NAME-" starts only its own tests' ids). */
int cr_store_group_name_ok(const char *name);

/* Readies a `generate --group` call, in one transaction: finds set `set`
 * or creates it (a set of groups, its source `command`), finds its group
 * group->name or creates it with group's points, constraints and
 * dependencies (the last in the set's order), and records spec as one of
 * the group's calls.  Its id in *out_group, the set's in *out_set and the
 * call's number (1, 2, ... in the order made; the same spec again has the
 * same one) in *out_call.  CR_EINVAL naming the set, the group and what
 * is wrong, with nothing written: a set that was not made of groups; a
 * group that exists with other points or dependencies, or whose
 * constraints spec does not stay within; a dependency on a group the set
 * does not have, or on itself. */
int cr_store_group_generated(int64_t *out_set, int64_t *out_group, int64_t *out_call, cr_store *store,
                             const char *set, const cr_store_group *group, const cr_gen_spec *spec,
                             const char *command, cr_error *err);

/* Finds group `group` of set `set` for rows that join it (ingest --group):
 * the set's id in *out_set, the group's in *out_group, its constraints and
 * properties in *out (out->name and out->depends are left).  CR_EINVAL
 * naming the set and the group when either is missing. */
int cr_store_group_find(int64_t *out_set, int64_t *out_group, cr_store_group *out, cr_store *store, const char *set,
                        const char *group, cr_error *err);

/* Puts the instances rows[0..count) that are in the set (added or there
 * already with the same coins) in group group_id, inside the caller's
 * transaction; those in a group already stay where they are. */
int cr_store_group_add(cr_store *store, int64_t group_id, const cr_store_instance *rows, size_t count,
                       cr_error *err);

/* Called once per group of a set, in its order.  The strings are valid
 * during the call only. */
typedef int (*cr_store_group_fn)(void *ctx, const cr_store_group *group);

/* CR_EINVAL naming the first group of set set_id that breaks what
 * test_group's checks promise (a file written with them off): every
 * reader of a set's groups refuses the set before it reads one. */
int cr_store_groups_refuse_broken(cr_store *store, int64_t set_id, cr_error *err);

/* CR_EINVAL naming two groups of set set_id (named `set` in the message)
 * whose names differ only in letter case: a package's folders of them
 * would be one where case does not count (a zip unpacked on Windows or
 * macOS).  generate refuses to make the second; export, a file that has
 * them. */
int cr_store_groups_refuse_case_twins(cr_store *store, int64_t set_id, const char *set, cr_error *err);

/* Calls fn for each group of set set_id in order; stops at fn's first
 * non-zero return and returns it.  *out_count: the groups seen. */
int cr_store_groups_each(size_t *out_count, cr_store *store, int64_t set_id, cr_store_group_fn fn, void *ctx,
                         cr_error *err);

/* Called once per test of a group: the instance's id and its group's rank
 * in the set's order (1 for the first, as cr_store_groups_each gives them). */
typedef int (*cr_store_group_test_fn)(void *ctx, int64_t instance_id, int64_t rank);

/* Calls fn for each test in a group of set set_id, in instance id order
 * (as cr_store_instances_next gives them); stops at fn's first non-zero
 * return and returns it. */
int cr_store_group_tests_each(cr_store *store, int64_t set_id, cr_store_group_test_fn fn, void *ctx, cr_error *err);

/* ---- shards and comparisons (store/shards.c, store/comparisons.c) ---- */

/* A shard database's record of what it holds. */
typedef struct cr_store_shard {
    int64_t run_id;      /* the shard's run */
    uint32_t k, n;       /* shard k of n */
    uint64_t set_size;   /* the whole set when it was split: its size ... */
    uint64_t set_digest; /* ... and the digest of its (ext_id, coins) */
    char input[PATH_MAX]; /* the input database, as given */
    int ranged;          /* 1: split by ranges of ids (schema 9 on); 0: by the modulus of versions 3 to 8 */
    char *lo, *hi;       /* its ids: from lo (NULL: the set's first) up to, not including, hi (NULL: the end);
                          * cr_store_shard_read allocates them, cr_store_shard_clear frees them */
    char set_name[256];  /* read only: the shard's set ... */
    uint64_t instances;  /* ... how many instances it holds ... */
    uint64_t digest;     /* ... and their digest, as recorded */
} cr_store_shard;

/* Reads the shard row of a shard database: 1 with *out filled, 0 when the
 * database holds no shard, or a negative code. */
int cr_store_shard_read(cr_store_shard *out, cr_store *store, cr_error *err);

/* Frees what cr_store_shard_read allocated in shard (not shard). */
void cr_store_shard_clear(cr_store_shard *shard);

/* Records that the database holds shard->run_id as shard k of n. */
int cr_store_shard_add(cr_store *store, const cr_store_shard *shard, cr_error *err);

/* One comparison of two runs, or of two invocations (compare --record). */
typedef struct cr_store_comparison {
    int64_t run_a, run_b;
    const char *db_b; /* the database of run b; NULL when it is the store's own */
    int strict_moves;
    uint64_t counts[CR_CATEGORY_COUNT]; /* (instance, variant) pairs per category; for invocations,
                                           instances: same verdict, AC turned into another
                                           (regression), a failing verdict into another (changed),
                                           judged on one side only (missing) */
    int passed;                         /* no regression, nothing missing or changed */
    int invocations;                    /* run_a and run_b are invocations, and: */
    uint64_t improved;                  /* instances whose failing verdict turned into AC */
} cr_store_comparison;

int cr_store_comparison_add(cr_store *store, const cr_store_comparison *c, cr_error *err);

/* ---- invocations: programs judged against a set (store/invocations.c) ---- */

/* What a judged program may use. */
typedef struct cr_limits {
    /* CPU seconds (> 0): the program is killed once its CPU time, looked at
     * every CR_CHILD_CHECK_MS, passes this, with RLIMIT_CPU (rounded up to whole
     * seconds) behind; and at twice this on the wall clock, for a program
     * that waits.  The verdict compares the CPU time used with the limit. */
    double cpu_seconds;
    uint64_t memory_bytes; /* RLIMIT_AS; 0: no limit */
    uint64_t output_bytes; /* standard output is read up to this; one byte more kills the program */
} cr_limits;

/* The first bytes of a program's standard error kept with its verdict; the
 * rest is read and dropped. */
#define CR_STDERR_KEEP 512

typedef enum cr_invoke_verdict {
    CR_INVOKE_AC,  /* accepted */
    CR_INVOKE_WA,  /* wrong answer */
    CR_INVOKE_PE,  /* malformed output */
    CR_INVOKE_TLE, /* over the time limit: CPU time, or killed at the wall clock */
    CR_INVOKE_MLE, /* failed near the memory limit (see cr_verdict_decide) */
    CR_INVOKE_RE,  /* a non-zero exit or a signal */
    CR_INVOKE_OLE, /* over the output limit */
    CR_INVOKE_VERDICT_COUNT
} cr_invoke_verdict;

/* "AC", "WA", "PE", "TLE", "MLE", "RE", "OLE"; NULL when out of range. */
const char *cr_invoke_verdict_name(cr_invoke_verdict v);

/* Parses a verdict's name (upper case, as written above); CR_EINVAL naming
 * the text otherwise. */
int cr_invoke_verdict_parse(cr_invoke_verdict *out, const char *name, cr_error *err);

/* The message: the checker's (safe text), after what ended the program. */
#define CR_VERDICT_MESSAGE_MAX (CR_JUDGE_MESSAGE_MAX + 192)
/* The stderr excerpt as safe text (cr_contest_escape): every kept byte
 * shown as at most 4, with room for its NUL and the escape's margin. */
#define CR_VERDICT_STDERR_MAX (4 * CR_STDERR_KEEP + 8)

/* One instance judged. */
typedef struct cr_verdict_row {
    int64_t instance_id;
    cr_invoke_verdict verdict;
    double cpu_seconds, wall_seconds;
    int64_t peak_rss_kib; /* < 0: not measured (a built-in runs in coinrow) */
    int64_t floor_kib;    /* what of it may be coinrow's own (cr_child_report, invoke.h); < 0: none */
    int exit_code;        /* < 0: none (a signal, a kill, a built-in) */
    char signal[16];      /* the signal that ended the program, "SIGSEGV"; "" for none */
    char message[CR_VERDICT_MESSAGE_MAX];
    char stderr_text[CR_VERDICT_STDERR_MAX]; /* the first bytes of standard error, as safe text */
} cr_verdict_row;

/* What invoke's options allow an invocation: a stored one beyond them is
 * refused as damaged. */
#define CR_INVOCATION_JOBS_MAX 256
#define CR_INVOCATION_SECONDS_MAX 86400
#define CR_INVOCATION_MEMORY_MIB_MAX (1 << 20)
#define CR_INVOCATION_OUTPUT_MIB_MAX 4096

typedef struct cr_invocation {
    int64_t id, set_id;
    cr_variant variant;       /* what the answers hold */
    cr_check_moves moves;     /* whether an answer carries the line (required when interactive) */
    int interactive;          /* the program plays the game against coinrow's jury (invoke --interactive);
                                 stored as the moves_policy 'interactive', so that no schema change and no
                                 coinrow before it takes the invocation for a batch one */
    char **argv;              /* the program and its arguments as given, NULL-terminated; NULL for a
                                 built-in (cr_invocation_clear frees it) */
    cr_strategy strategy;     /* the built-in, when argv is NULL */
    char directory[4096];     /* where the program runs */
    char label[256];
    cr_limits limits;       /* unused for a built-in */
    int sandbox;              /* the program runs inside the sandbox (invoke --sandbox) */
    int jobs;
    int64_t answers_run;      /* the run whose answers the checker takes */
    cr_run_status status;
    char coinrow_version[64];
    int64_t started;          /* when it started (started_at), in seconds since the epoch; 0 when unknown */
} cr_invocation;

/* One instance whose verdict differs between two invocations of a set. */
typedef struct cr_verdict_change {
    const char *ext_id;
    size_t n;
    int judged_a, judged_b;          /* whether each side has a verdict */
    cr_invoke_verdict a, b;
    const char *message_a, *message_b;
} cr_verdict_change;

/* Calls fn, in instance order, for every instance of set set_id whose
 * verdicts in invocations a and b differ (or that only one has judged); the
 * change is valid during the call.  The number of instances with the same
 * verdict goes to *out_same. */
int cr_store_verdict_changes(uint64_t *out_same, cr_store *store, int64_t set_id, int64_t a, int64_t b,
                             void (*fn)(void *ctx, const cr_verdict_change *c), void *ctx, cr_error *err);

/* One instance's CPU times in two invocations. */
typedef struct cr_time_change {
    char ext_id[128];
    size_t n;
    double cpu_a, cpu_b;
    double ratio; /* cpu_b / cpu_a, each at least the floor */
} cr_time_change;

/* A time ratio this far from 1 (either way) is a change; nearer, noise. */
#define CR_TIME_CHANGE 1.1

/* The CPU times of the instances both invocations a and b judged: their
 * count and sums into *out_common, *out_a and *out_b, and into out[0..cap)
 * (their number in *out_count) the changes, largest ratio first: the
 * instances whose ratio b / a, each time taken as at least `floor`
 * seconds, is at least CR_TIME_CHANGE or at most its inverse. */
int cr_store_time_changes(cr_time_change *out, size_t cap, size_t *out_count, uint64_t *out_common, double *out_a,
                          double *out_b, cr_store *store, int64_t a, int64_t b, double floor, cr_error *err);

/* The ids of the done invocations of set set_id for the variant that are
 * labelled with one of labels[0..count) (export's submission folders), in
 * id order, into *out (count in *out_count; the caller frees it). */
int cr_store_labelled_invocations(int64_t **out, size_t *out_count, cr_store *store, int64_t set_id,
                                  cr_variant variant, const char *const *labels, size_t count, cr_error *err);

/* Frees what a found invocation holds (its argv); accepts a zeroed one. */
void cr_invocation_clear(cr_invocation *inv);

/* Starts the invocation *inv describes (status running, its id ignored),
 * recording the program's version; its id goes to inv->id. */
int cr_store_invocation_new(cr_invocation *inv, cr_store *store, const char *coinrow_version, cr_error *err);

/* Reads invocation id (0: the latest one that matches pick) into *out (free
 * with cr_invocation_clear).  CR_EINVAL naming it when there is none or its
 * status does not match pick; CR_EDB when the row cannot be what invoke
 * stored (a command that is not a list of strings, limits or jobs beyond
 * invoke's). */
int cr_store_invocation_find(cr_invocation *out, cr_store *store, int64_t id, cr_run_pick pick, cr_error *err);

/* Sets its status, as cr_store_run_set_status does for runs. */
int cr_store_invocation_set_status(cr_store *store, int64_t id, cr_run_status status, const char *message,
                                   cr_error *err);

/* Marks it as running its program in the sandbox from now on (invoke
 * --resume --sandbox). */
int cr_store_invocation_sandbox_on(cr_store *store, int64_t id, cr_error *err);

/* Sets its status as it ends and adds seconds to the time it spent
 * judging, as cr_store_run_finish does for runs. */
int cr_store_invocation_finish(cr_store *store, int64_t id, cr_run_status status, const char *message, double seconds,
                               cr_error *err);

/* Adds rows[0..count) to its verdicts, and their times and memory to its
 * totals, inside cr_store_begin .. cr_store_commit. */
int cr_store_add_verdicts(cr_store *store, int64_t id, const cr_verdict_row *rows, size_t count, cr_error *err);

/* What an invocation's verdicts add up to. */
#define CR_SUMMARY_SLOWEST 5
typedef struct cr_invocation_summary {
    uint64_t judged, counts[CR_INVOKE_VERDICT_COUNT];
    double cpu_seconds, wall_seconds, seconds; /* summed over the verdicts; judging time */
    struct {
        char ext_id[128];
        cr_invoke_verdict verdict;
        double cpu_seconds, wall_seconds;
    } slowest[CR_SUMMARY_SLOWEST]; /* by CPU time */
    int slowest_count;
    int64_t peak_rss_kib;          /* -1 when none was measured */
    char peak_ext_id[128];
    int64_t rss_floor_kib;         /* how much of a peak may be coinrow's own (cr_child_report); -1: none */
    int has_failure;               /* a test whose verdict is not the one expected: the first */
    char failure_ext_id[128];
    cr_invoke_verdict failure_verdict;
    char failure_message[CR_VERDICT_MESSAGE_MAX];
    char failure_stderr[CR_VERDICT_STDERR_MAX];
} cr_invocation_summary;

/* Sums up invocation id's verdicts; the first failure is the first
 * instance (in id order) whose verdict is not `expect`. */
int cr_store_invocation_summary(cr_invocation_summary *out, cr_store *store, int64_t id, cr_invoke_verdict expect,
                                cr_error *err);

/* An invocation's points on one group of its set, as the view
 * invocation_group_points gives them (schema/010_groups.sql). */
typedef struct cr_group_points {
    const char *name;        /* the group's; valid during the call */
    int64_t points, scored;  /* the group's points; those scored: all or 0 */
    uint64_t tests, judged, accepted; /* its tests; those judged; those AC */
    int passed;              /* every test AC, and every group it depends on passed */
} cr_group_points;

/* Called once per group, in the set's order. */
typedef int (*cr_group_points_fn)(void *ctx, const cr_group_points *g);

/* Calls fn for each group of invocation id's set in order, with its points;
 * stops at fn's first non-zero return and returns it.  *out_count: the
 * groups seen (0 for a set without groups). */
int cr_store_invocation_points_each(size_t *out_count, cr_store *store, int64_t id, cr_group_points_fn fn, void *ctx,
                                    cr_error *err);

/* An invocation's verdict and points as a judge gives them that scores
 * each group alone (no dependencies), its set's first `samples` instances
 * (in id order) set apart as samples, worth nothing and judged first, and
 * the groups in name order (Kattis: docs/judges.md). */
typedef struct cr_alone_points {
    int64_t points, scored;  /* the groups' points; those of the groups whose every test but the samples is AC */
    uint64_t passed;         /* those groups */
    int sample_failed;       /* a sample is not AC: the first one is failure_* */
    int group_failed;        /* else a group is not passed: the first test not AC of the first such group */
    char failure_ext_id[128];
    cr_invoke_verdict failure_verdict;
} cr_alone_points;

/* Reads invocation id's cr_alone_points; a test it has no verdict for is
 * one not AC (CR_INVOKE_RE in failure_verdict). */
int cr_store_invocation_points_alone(cr_alone_points *out, cr_store *store, int64_t id, uint64_t samples,
                                     cr_error *err);

/* How many instances of its set it has judged, and how many are left. */
int cr_store_invocation_progress(uint64_t *out_judged, uint64_t *out_left, cr_store *store, const cr_invocation *inv,
                                 cr_error *err);

/* ---- what coinrow report shows (store/report.c) ----
 * Aggregates computed by SQLite over the views result, result_view and
 * verdict_view and the tables of sets, runs and invocations: never a row
 * per instance back to the caller.  Each call is a statement or two, so that
 * a report can spread them over connections (one store per thread). */

/* The most bins a histogram has. */
#define CR_HISTOGRAM_BINS 40

/* Counts of integers in equal bins, each starting at a multiple of its
 * width: bin k holds the values v with floor(v / width) = start + k, from
 * from[k] to to[k] (both included, and within min..max). */
typedef struct cr_histogram {
    uint64_t count;       /* values counted; 0: none, and no bins */
    int64_t min, max;     /* the smallest and the largest */
    int bins;             /* 1 .. CR_HISTOGRAM_BINS when count > 0 */
    int64_t width;        /* 1, 2 or 5 times a power of ten */
    int64_t start;
    int64_t from[CR_HISTOGRAM_BINS], to[CR_HISTOGRAM_BINS];
    uint64_t counts[CR_HISTOGRAM_BINS];
} cr_histogram;

/* Chooses the bins of count values from min to max, its counts zeroed: the
 * narrowest width at which they take at most CR_HISTOGRAM_BINS bins. */
void cr_store_histogram_init(cr_histogram *out, uint64_t count, int64_t min, int64_t max);

/* A set at a glance. */
typedef struct cr_set_outline {
    uint64_t instances;
    int64_t n_min, n_max;   /* 0 for an empty set */
    int64_t id_min, id_max; /* the instances' ids: the order they were stored in */
    char source[1024];      /* the inputs of the ingest that made it, or the generate command; "" */
    char created_at[32];
    uint64_t rejected;      /* rows rejected at ingest (ingest_error, unfinished ingests aside) */
} cr_set_outline;

int cr_store_set_outline(cr_set_outline *out, cr_store *store, int64_t set_id, cr_error *err);

/* The instances' n, in the bins cr_store_histogram_init chooses for the
 * outline's n_min..n_max. */
int cr_store_set_n_histogram(cr_histogram *out, cr_store *store, int64_t set_id, cr_error *err);

/* The smallest and the largest coin of the set (*out_found = 0 when it is
 * empty). */
int cr_store_set_coin_range(int64_t *out_min, int64_t *out_max, int *out_found, cr_store *store, int64_t set_id,
                            cr_error *err);

/* A row rejected at ingest, cut to fit. */
typedef struct cr_rejected_row {
    char source[256];
    uint64_t line;
    char ext_id[128]; /* "" when it could not be read */
    char reason[256];
    char raw[256];    /* as read: the store keeps 200 bytes of it */
} cr_rejected_row;

/* The first rows rejected at ingest into set set_id, in the order they were
 * recorded, into out[0..cap) (their number in *out_count). */
int cr_store_rejected_rows(cr_rejected_row *out, size_t cap, size_t *out_count, cr_store *store, int64_t set_id,
                           cr_error *err);

/* The ids of the runs (runs 1) or of the invocations (runs 0) of set
 * set_id, newest first, into out[0..cap) (their number in *out_count); all
 * of them are counted in *out_total. */
int cr_store_set_jobs(int64_t *out, size_t cap, size_t *out_count, uint64_t *out_total, cr_store *store,
                      int64_t set_id, int runs, cr_error *err);

/* The id of the latest done run of set set_id below run `below` (0: any)
 * into *out_id; 0 when there is none. */
int cr_store_set_latest_done(int64_t *out_id, cr_store *store, int64_t set_id, int64_t below, cr_error *err);

/* What cr_run leaves out. */
typedef struct cr_run_notes {
    char label[256], started_at[32], finished_at[32], message[512];
    uint64_t solved; /* instances it solved */
} cr_run_notes;

int cr_store_run_notes(cr_run_notes *out, cr_store *store, int64_t run_id, cr_error *err);

/* One variant of a run. */
typedef struct cr_variant_stats {
    uint64_t results;    /* rows of the variant: instances solved */
    uint64_t errors;     /* of them, with an error */
    uint64_t winners[3]; /* won by the first player, by the second, drawn */
    cr_histogram values; /* the values given */
} cr_variant_stats;

int cr_store_run_variant_stats(cr_variant_stats *out, cr_store *store, int64_t run_id, cr_variant variant,
                               cr_error *err);

/* A result with an error. */
typedef struct cr_result_error {
    char ext_id[128];
    size_t n;
    char error[256];
} cr_result_error;

/* The first results of the variant in run run_id with an error, in instance
 * order, into out[0..cap) (their number in *out_count). */
int cr_store_run_errors(cr_result_error *out, size_t cap, size_t *out_count, cr_store *store, int64_t run_id,
                        cr_variant variant, cr_error *err);

/* Two runs of one set compared by their answers.  A variant's answer is
 * its value, its winner and its error: lines of play are not compared
 * (coinrow compare checks that lines that differ are both optimal). */
typedef struct cr_answers_comparison {
    unsigned variants;                    /* compared: the variants both runs have */
    uint64_t solved_a, solved_b;          /* instances each run solved */
    uint64_t common;                      /* solved by both */
    uint64_t differing;                   /* of these, with another answer in some variant */
    uint64_t differing_by[CR_VARIANT_COUNT];
} cr_answers_comparison;

int cr_store_answers_compare(cr_answers_comparison *out, cr_store *store, const cr_run *a, const cr_run *b,
                             cr_error *err);

/* One side's answer. */
typedef struct cr_answer {
    int given;             /* the run has the result */
    int has_value;
    int64_t value;
    char winner[8];        /* "" when NULL */
    char error[160];       /* "" when none */
} cr_answer;

/* An instance that differs between two runs: in a variant's answer, or
 * solved by one run only (variant then CR_VARIANT_COUNT). */
typedef struct cr_answer_difference {
    char ext_id[128];
    size_t n;
    cr_variant variant;
    cr_answer a, b;
} cr_answer_difference;

/* The first differences between runs a and b of set set_id, in instance
 * order, into out[0..cap) (their number in *out_count): with missing 0 the
 * answers that differ, with missing 1 the instances one run solved and the
 * other did not. */
int cr_store_answer_differences(cr_answer_difference *out, size_t cap, size_t *out_count, cr_store *store,
                                const cr_run *a, const cr_run *b, int missing, cr_error *err);

/* The tests of a set folded into groups of consecutive ids: group g holds
 * the instances whose id - id_min is in [g * width, (g + 1) * width). */
typedef struct cr_test_fold {
    uint64_t tests;        /* 0: none (the ids belong to other sets) */
    char first[128], last[128]; /* the ext_ids of its first and last test */
    int64_t n_min, n_max;
} cr_test_fold;

/* Fills out[0..groups) for set set_id. */
int cr_store_set_folds(cr_test_fold *out, size_t groups, cr_store *store, int64_t set_id, int64_t id_min,
                       int64_t width, cr_error *err);

/* An invocation's verdicts on one group of tests. */
typedef struct cr_verdict_cell {
    uint64_t counts[CR_INVOKE_VERDICT_COUNT];
    double cpu_max; /* the slowest CPU time among them */
} cr_verdict_cell;

/* An invocation's CPU times by n, in the bins of a histogram of n. */
typedef struct cr_times_by_n {
    uint64_t count[CR_HISTOGRAM_BINS];
    double cpu_sum[CR_HISTOGRAM_BINS], cpu_max[CR_HISTOGRAM_BINS];
} cr_times_by_n;

/* In one pass over the verdicts of invocation invocation_id: their cells,
 * the tests folded as cr_store_set_folds folds them, into out[0..groups),
 * and their CPU times by n in the bins of the histogram n into *times. */
int cr_store_verdict_cells(cr_verdict_cell *out, size_t groups, cr_times_by_n *times, cr_store *store,
                           int64_t invocation_id, int64_t id_min, int64_t width, const cr_histogram *n, cr_error *err);

/* How many tests every invocation of ids[0..count) (count >= 1) judged AC. */
int cr_store_accepted_by_all(uint64_t *out, cr_store *store, const int64_t *ids, size_t count, cr_error *err);

#endif

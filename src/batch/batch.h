/* The batch: solving whole sets (coinrow run, solve, merge, compare).  The
 * pipeline streams instances through the solver into the store (pipeline.c),
 * shards split a set over machines and merge back into one run (shards.c),
 * and two runs are compared by streaming their results (run_compare.c). */
#ifndef CR_BATCH_H
#define CR_BATCH_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "coinrow/compare.h"
#include "coinrow/solve.h"
#include "source/source.h"
#include "store/store.h"

/* ---- the pipeline (pipeline.c) ----
 *
 * Rows or stored instances in, instances and results out to the store, with
 * the parsing, the solving and the writing overlapping on separate threads.
 *
 *   caller's thread (reads input, fills batches)
 *     -> `jobs` solver threads (cr_solve)
 *     -> one writer thread (the store's only user while the pipeline runs)
 *   and a checkpointer thread, with its own connection, that copies each
 *   commit from the WAL into the database file while the writer goes on.
 *
 * Batches are written in the order they were filled, so instance ids follow
 * the input.  At most a fixed number of batches are in flight, each of at
 * most a fixed number of rows and coins (or one larger row), so memory stays
 * flat however long the input.  The writer commits every 10,000 instances
 * or every second, whichever comes first: a crash loses at most that, and
 * every commit leaves instances with all their results or none.  The WAL
 * starts again from its beginning every 64 MiB when readers allow, and is
 * truncated at the end. */

typedef struct cr_pipeline cr_pipeline;

/* The file descriptors a pipeline's job holds open at once: its store's
 * (the database, its WAL and shared memory, a journal while it switches
 * mode), the checkpointer's connection and a reader's (the database and
 * the WAL each).  A job asks for them (cr_files_spare) before it writes. */
#define CR_PIPELINE_FILES 7

/* Counts of what has been committed so far. */
typedef struct cr_pipeline_stats {
    uint64_t ingested; /* input rows stored as new instances */
    uint64_t skipped;  /* input rows the set had already, with the same coins */
    uint64_t rejected; /* input rows rejected, each recorded in ingest_error */
    uint64_t solved;   /* instances written with their results */
    uint64_t failed;   /* of the solved, those with no value in some variant */
    uint64_t pending;  /* stored instances known to be left to solve (0: unknown or none) */
    uint64_t bytes;    /* input read up to the last row committed */
} cr_pipeline_stats;

typedef struct cr_pipeline_opts {
    int64_t set_id;     /* where rows go */
    int64_t run_id;     /* the run results go to; 0 to ingest without solving */
    cr_solve_opts solve;
    int jobs;           /* solver threads, at least 1 */
    const atomic_int *stop; /* may be NULL; once non-zero, batches not yet being solved
                               are written without results and no more input is taken */
    /* Called on the writer thread after each commit (may be NULL). */
    void (*progress)(void *ctx, const cr_pipeline_stats *stats);
    /* Called on the writer thread for each rejected row once it is recorded,
     * including ids the set has with other coins (may be NULL). */
    void (*rejected)(void *ctx, const cr_row *row);
    /* Called once, on the writer thread or in cr_pipeline_finish, when
     * readers first keep the WAL from starting again from its beginning
     * until it is twice its limit, or keep it from being truncated at the
     * end (cr_store_wal_held): the database, the WAL's size in bytes, and
     * whether the run has ended (may be NULL). */
    void (*wal_held)(void *ctx, const char *db, uint64_t wal_bytes, int ended);
    void *ctx;
    int64_t group_id; /* the group of the set new rows join (cr_store_group_add); 0 for none */
    uint64_t commit_rows; /* rows a transaction takes at first (more for ids in no order); 0: 10,000 */
    uint64_t rows;        /* the rows the caller will queue, when it knows (a shard's range; 0: not known):
                             a small job is cut into smaller batches, which fill less memory */
    int checkpoint_from;  /* the pages a commit leaves in the WAL from which a second connection copies
                             commits into the database beside the writer; 0: 1,024 (a small job's WAL is
                             copied at its end) */
    int unmarked;         /* leave a set that rows were added to without its marks (cr_store_set_mark), which
                             only finding shards' bounds reads: a shard's database, which no job shards (one
                             that does walks the set's index from its start instead), saves a pass over the
                             set and a commit */
} cr_pipeline_opts;

/* Starts the threads; the pipeline uses store (and nothing else may, on any
 * thread) until cr_pipeline_finish. */
int cr_pipeline_new(cr_pipeline **out, cr_store *store, const cr_pipeline_opts *opts, cr_error *err);

/* A cr_row_fn (ctx is the pipeline): queues an input row for the set, to be
 * stored, solved when there is a run, or recorded as rejected.  Returns 0,
 * CR_EINTERRUPTED once *stop is set, or the writer's error code once it
 * failed (cr_pipeline_finish tells what). */
int cr_pipeline_row(void *pipeline, const cr_row *row);

/* Hands the rows queued so far on to the solvers, rather than wait for a
 * batch's worth: the writer then commits them within a second.  For a
 * caller whose input has stopped coming for a while. */
void cr_pipeline_hand_on(cr_pipeline *p);

/* Queues every instance of the set that the run has not solved and that is
 * not already queued: the whole set for a new run, what is left for a
 * resumed one, what the input did not cover after rows.  Waits for the rows
 * queued so far to be committed first.  Returns as cr_pipeline_row does,
 * or a read error. */
int cr_pipeline_queue_unsolved(cr_pipeline *p, cr_error *err);

/* Writes everything queued, commits, stops the threads and fills *out with
 * the final counts.  Returns 0 or the writer's first error (the database
 * keeps every commit before it).  The store is the caller's again. */
int cr_pipeline_finish(cr_pipeline *p, cr_pipeline_stats *out, cr_error *err);

/* Finishes the pipeline if need be and frees it; accepts NULL. */
void cr_pipeline_free(cr_pipeline *p);

/* ---- shards (shards.c) ----
 *
 * One part of a set solved in a database of its own, and the merge of a
 * job's shards back into one run.
 *
 * Shard K of N holds the instances at positions floor(K * size / N) up to
 * floor((K + 1) * size / N) - 1 of the set in ext_id order (SQLite's BINARY
 * order): a range of ids, one range scan of the set's index, the same
 * whatever machine computes it and whatever order the set was ingested in. */

/* The first position of shard k of n (0 <= k <= n; n: the set's end) in a
 * set of `size` instances: floor(k * size / n). */
uint64_t cr_shard_first(uint64_t size, uint32_t k, uint32_t n);

/* Shard k of n of set set_id of the input store: fills out's k, n, the
 * set's size and digest, and the shard's range of ids (lo and hi, which
 * cr_store_shard_clear frees). */
int cr_shard_bounds(cr_store_shard *out, cr_store *input, int64_t set_id, uint32_t k, uint32_t n, cr_error *err);

/* Whether the shard holds the instance of id ext_id: its range does. */
int cr_shard_holds(const cr_store_shard *shard, const char *ext_id);

/* What a shard task is asked to do. */
typedef struct cr_shard_spec {
    const char *input;          /* the input database, opened read-only */
    const char *set;            /* its set (NULL: the only one) */
    uint32_t k, n;              /* shard k of n */
    const char *tag;            /* the job's tag, shared by its shards */
    cr_solve_opts opts;
    const char *solver_version;
    const char *label;
} cr_shard_spec;

/* What a shard task reads its instances from: the input database, opened
 * read-only and, unless a writer may be at work, immutable (a thousand
 * tasks reading it at once take no lock and write nothing), and the
 * shard's range of ids in it. */
typedef struct cr_shard_input cr_shard_input;

/* Makes `shard` (an open, writable store: CR_STORE_WRITE_ROLLBACK, since
 * no one reads it until it is done) hold shard spec->k of spec->n, and
 * sizes its page cache for appending: the first time, it records the
 * shard (its range of ids, the whole set's size and fingerprint), its set
 * and its run (running), in one transaction; when the shard database holds
 * a shard already (a task started again), it checks that it is this shard
 * of this job, and marks its run running again unless it is done.  The run
 * to solve (or resume) goes to *out_run, its set to *out_set; *out_done says
 * whether the run is done already, and when it is not, *out_input is the
 * input to feed it from (cr_shard_feed; free it with
 * cr_shard_input_free).  CR_EINVAL naming the difference when the shard
 * database holds another shard, job or set. */
int cr_shard_prepare(int64_t *out_set, int64_t *out_run, int *out_done, cr_shard_input **out_input, cr_store *shard,
                     const cr_shard_spec *spec, cr_error *err);

/* Reads the shard's instances from its input, in ext_id order, and passes
 * each to fn as a row: a pipeline's cr_pipeline_row copies each into the
 * shard database and solves it in one pass, instances and results in the
 * same commits.  A task started again reads its range again: what the
 * shard holds already is kept, and only what it lacks is solved and
 * written. */
int cr_shard_feed(cr_shard_input *in, cr_row_fn fn, void *ctx, cr_error *err);

/* How many instances the input's range holds, from the set's size when it
 * was split. */
uint64_t cr_shard_input_size(const cr_shard_input *in);

/* Whether reading the shard's instances took far more of its input than
 * its share: more than four times its share of the file's pages, and 64
 * pages more.  Then the set's ids came in no order (its rows lie in the
 * order they were ingested, its shards are ranges of ids), and every shard
 * reads most of the file (docs/scaling.md).  *out_read and *out_total are
 * the pages read and the file's (cr_store_pages_read). */
int cr_shard_input_scattered(const cr_shard_input *in, int64_t *out_read, int64_t *out_total);

/* Closes the input; accepts NULL. */
void cr_shard_input_free(cr_shard_input *in);

typedef struct cr_merge_report {
    int64_t run;        /* the merged run in the target database */
    int already;        /* the job was merged before, as run `run`: nothing written */
    char tag[128];
    uint32_t shards;
    uint64_t instances, results;
} cr_merge_report;

/* Merges the shard databases paths[0..count) of one job into one done run in
 * the database at into_path (created when missing), in one transaction.  It
 * first checks the shards alone: they share the job's tag, set and options,
 * every shard 0..N-1 is there once and done, and together they cover the set
 * exactly once; then, when the target holds the set already, that it is the
 * data the shards were made from.  A missing shard, a duplicate or a
 * stranger is CR_EINVAL naming it, a damaged shard (SQLite's quick check
 * of every shard) CR_EDB, and the target is not touched; so with what shows
 * while it writes (an instance outside its shard's range, other coins than
 * the target's, a sum that is not the set's).  A job merged before is not
 * merged again (out->already).  Once *stop is set (stop may be NULL) it
 * stops with CR_EINTERRUPTED, rolled back: the target as it was, a new one
 * removed. */
int cr_shard_merge(cr_merge_report *out, const char *into_path, const char *const *paths, size_t count,
                   const atomic_int *stop, cr_error *err);

/* ---- comparing two runs (run_compare.c) ----
 *
 * Two runs of one instance set, in one database or two, compared by
 * streaming both sides' results in external-id order (flat memory). */

/* One compared (instance, variant) pair that is not the same or equivalent:
 * a regression, or a pair missing or changed on one side. */
typedef struct cr_run_finding {
    const char *ext_id;
    size_t n;
    cr_variant variant;
    const cr_stored_result *a, *b; /* NULL on the side that has no result */
    cr_difference diff;            /* category, and for regressions the detail */
} cr_run_finding;

/* Called for every finding, in external-id order; the finding is valid only
 * during the call. */
typedef void (*cr_run_finding_fn)(void *ctx, const cr_run_finding *f);

typedef struct cr_run_comparison {
    uint64_t counts[CR_VARIANT_COUNT][CR_CATEGORY_COUNT];
    unsigned variants; /* the variants both runs have: the ones compared */
} cr_run_comparison;

/* Compares run a (in store_a) with run b (in store_b, which may be store_a)
 * for the variants both runs have.  Instances are matched by external id
 * within the runs' sets, which must have the same name; an instance whose
 * coins differ is CR_CHANGED, not compared.  With strict_moves, lines that
 * differ are regressions even when both are optimal.  Returns 0 with the
 * counts in *out, or a code (CR_EINVAL for runs of differently named sets). */
int cr_run_compare(cr_run_comparison *out, cr_store *store_a, const cr_run *a, cr_store *store_b, const cr_run *b,
                   int strict_moves, cr_run_finding_fn on_finding, void *ctx, cr_error *err);

#endif

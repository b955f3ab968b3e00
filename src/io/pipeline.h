/* The batch pipeline: rows or stored instances in, instances and results
 * out to the store, with the parsing, the solving and the writing
 * overlapping on separate threads.
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
#ifndef CR_IO_PIPELINE_H
#define CR_IO_PIPELINE_H

#include <stdatomic.h>
#include <stdint.h>

#include "coinrow/solve.h"
#include "io/source.h"
#include "io/store.h"

typedef struct cr_pipeline cr_pipeline;

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
} cr_pipeline_opts;

/* Starts the threads; the pipeline uses store (and nothing else may, on any
 * thread) until cr_pipeline_finish. */
int cr_pipeline_new(cr_pipeline **out, cr_store *store, const cr_pipeline_opts *opts, cr_error *err);

/* A cr_row_fn (ctx is the pipeline): queues an input row for the set, to be
 * stored, solved when there is a run, or recorded as rejected.  Returns 0,
 * CR_EINTERRUPTED once *stop is set, or the writer's error code once it
 * failed (cr_pipeline_finish tells what). */
int cr_pipeline_row(void *pipeline, const cr_row *row);

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

#endif

/* Shards: one part of a set solved in a database of its own, and the merge
 * of a job's shards back into one run.
 *
 * The partition is stable: instance (set name S, external id E) belongs to
 * shard FNV-1a-64(S, a zero byte, E) mod N, whatever machine computes it and
 * whatever order the set was ingested in. */
#ifndef CR_IO_SHARD_H
#define CR_IO_SHARD_H

#include <stddef.h>
#include <stdint.h>

#include "coinrow/solve.h"
#include "io/store.h"

/* The shard, 0 <= k < n, that an instance belongs to. */
uint32_t cr_shard_of(const char *set_name, const char *ext_id, size_t ext_id_len, uint32_t n);

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

/* Makes `shard` (an open, writable store) hold shard spec->k of
 * spec->n: the first time, it copies the set's instances of that shard from
 * the input database and starts the shard's run, all in one transaction;
 * when the shard database already holds them (a task started again), it
 * checks that they are this shard of this job.  The run to solve (or
 * resume) goes to *out_run, its set to *out_set; *out_done says whether the
 * run is done already.  CR_EINVAL naming the difference when the shard
 * database holds another shard, job or set. */
int cr_shard_prepare(int64_t *out_set, int64_t *out_run, int *out_done, cr_store *shard, const cr_shard_spec *spec,
                     cr_error *err);

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
 * stranger is CR_EINVAL naming it, a damaged database (SQLite's quick
 * check of every shard and of the target) CR_EDB, and the target is not
 * touched.  A job
 * merged before is not merged again (out->already). */
int cr_shard_merge(cr_merge_report *out, const char *into_path, const char *const *paths, size_t count,
                   cr_error *err);

#endif

#!/bin/sh
# Queues a coinrow run on Slurm: an array of N shard tasks, then a merge job
# that starts only when every task has succeeded (--dependency=afterok), and
# prints both job ids:
#
#   COINROW_DB=/shared/sets.db COINROW_SET=night COINROW_SHARD_DIR=/shared/shards \
#   COINROW_SHARDS=16 contrib/slurm/submit.sh [SBATCH_OPTION...]
#
# prints
#   COINROW_ARRAY_JOB=1234
#   COINROW_MERGE_JOB=1235
#
# The SBATCH_OPTIONs (--partition, --account, --time, --mem...) go to both jobs.
#
#   contrib/slurm/submit.sh --merge-only ARRAY_JOB_ID [SBATCH_OPTION...]
# queues a merge job alone for an array submitted before, after all its tasks
# have ended (afterany): Slurm never releases afterok on an array one of whose
# tasks failed, even once that task has been requeued and has succeeded.
# coinrow merge refuses an incomplete set of shards by itself.
#
# Settings (environment):
#   COINROW            the coinrow binary, at the same path on every node
#                      (default: coinrow on PATH)
#   COINROW_DB         the input database on shared storage; the tasks only read it (required)
#   COINROW_SET        the instance set to solve (required)
#   COINROW_SHARD_DIR  a directory on shared storage for the shard databases,
#                      one file per task, and the jobs' logs (required)
#   COINROW_SHARDS     N, the number of shards and array tasks (default 4)
#   COINROW_MERGE_DB   the database to merge into (default: COINROW_DB)
#   COINROW_SOLVE_OPTS more solve options for every task, split on white
#                      space, e.g. "--variant all --moves canonical"
#   COINROW_REQUEUE_MAX self-requeues of a task whose coinrow was SIGKILLed (default 3)
# Relative paths are made absolute here, so that the jobs find them from any node.
set -eu

here=$(cd "$(dirname "$0")" && pwd)

merge_only=""
if [ "${1:-}" = --merge-only ]; then
    [ $# -ge 2 ] || { echo "usage: $0 --merge-only ARRAY_JOB_ID [SBATCH_OPTION...]" >&2; exit 2; }
    merge_only=$2
    shift 2
fi

recipe=submit
. "$here/../shard-env.sh"    # also creates COINROW_SHARD_DIR: Slurm does not create --output's directory
export COINROW COINROW_DB COINROW_SET COINROW_SHARD_DIR COINROW_SHARDS COINROW_MERGE_DB

if [ -n "$merge_only" ]; then
    array=$merge_only
    dependency=afterany:$array
else
    array=$(sbatch --parsable --export=ALL --array="0-$((COINROW_SHARDS - 1))" \
        --output="$COINROW_SHARD_DIR/slurm-%A_%a.out" "$@" "$here/coinrow-shard.sbatch")
    array=${array%%;*}    # --parsable prints "id" or "id;cluster"
    echo "COINROW_ARRAY_JOB=$array"
    dependency=afterok:$array
fi
COINROW_RUN_TAG=$array
export COINROW_RUN_TAG
merge=$(sbatch --parsable --export=ALL --dependency="$dependency" \
    --output="$COINROW_SHARD_DIR/slurm-%j-merge.out" "$@" "$here/coinrow-merge.sbatch")
merge=${merge%%;*}

echo "COINROW_MERGE_JOB=$merge"
echo "submit: shards in $COINROW_SHARD_DIR/$array/, merge into $COINROW_MERGE_DB after $dependency" >&2

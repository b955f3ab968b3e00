#!/bin/sh
# Runs a coinrow set as N shards with GNU parallel, on this machine or over
# SSH on several, then merges the shards into one run:
#
#   parallel --jobs J --retries R [--sshlogin HOSTS] --quote \
#       coinrow solve --shard {}/N --out SHARD_DIR/TAG/shard-{}-of-N.db \
#           --db INPUT.db --set SET ... --run-tag TAG ::: 0 1 ... N-1
#   coinrow merge --db MERGE_DB --shards SHARD_DIR/TAG/shards-of-N.txt   (the N paths)
#
#   COINROW_DB=/shared/sets.db COINROW_SET=night COINROW_SHARD_DIR=/shared/shards \
#   COINROW_SHARDS=16 COINROW_SSHLOGIN=8/node1,8/node2 contrib/parallel/run-shards.sh
#
# Settings (environment):
#   COINROW            the coinrow binary, at the same path on every host
#                      (default: coinrow on PATH)
#   COINROW_DB         the input database; the shards only read it (required)
#   COINROW_SET        the instance set to solve (required)
#   COINROW_SHARD_DIR  where the shard databases go, one file per shard (required)
#   COINROW_SHARDS     N, the number of shards (default 4)
#   COINROW_MERGE_DB   the database to merge into, written by this script alone
#                      after every shard is done (default: COINROW_DB)
#   COINROW_SOLVE_OPTS more solve options for every shard, split on white
#                      space, e.g. "--variant all --moves canonical"
#   COINROW_JOBS       shards at once on each host, parallel's --jobs (default
#                      100%: one per CPU core)
#   COINROW_SSHLOGIN   hosts, parallel's --sshlogin syntax: "8/node1,8/node2,:"
#                      (":" is this machine); empty: this machine only
#   COINROW_RETRIES    parallel's --retries (default 3): a shard that fails,
#                      killed or its host lost, runs again and resumes
#   COINROW_RUN_TAG    the tag shared by the shards of this job (default: the
#                      one saved in COINROW_SHARD_DIR/run-tag, else a new one)
#
# With several hosts, the binary, the input database and COINROW_SHARD_DIR
# must be at the same paths on all of them (shared storage); each shard
# database has one writer, and the merge runs here, after all of them.
# Running the script again with the same COINROW_SHARD_DIR resumes the same
# job: finished shards are not solved again, a killed one resumes.
set -eu

recipe=run-shards
. "$(dirname "$0")/../shard-env.sh"
: "${COINROW_JOBS:=100%}"
: "${COINROW_SSHLOGIN:=}"
: "${COINROW_RETRIES:=3}"

# The tag is saved so that running the script again resumes the same job.
if [ -z "${COINROW_RUN_TAG:-}" ]; then
    if [ -s "$COINROW_SHARD_DIR/run-tag" ]; then
        COINROW_RUN_TAG=$(cat "$COINROW_SHARD_DIR/run-tag")
    else
        COINROW_RUN_TAG=parallel-$(date -u +%Y%m%dT%H%M%SZ)-$$
    fi
fi
printf '%s\n' "$COINROW_RUN_TAG" > "$COINROW_SHARD_DIR/run-tag"
n=$COINROW_SHARDS
dir=$COINROW_SHARD_DIR/$COINROW_RUN_TAG
mkdir -p "$dir"

set --
[ -z "$COINROW_SSHLOGIN" ] || set -- --sshlogin "$COINROW_SSHLOGIN"
echo "run-shards: $n shards of set $COINROW_SET, job $COINROW_RUN_TAG, into $dir" >&2
set -f    # the options are split on white space, never globbed
status=0
# shellcheck disable=SC2086
parallel --jobs "$COINROW_JOBS" --retries "$COINROW_RETRIES" --joblog "$dir/parallel.log" \
    "$@" --quote \
    "$COINROW" solve --shard "{}/$n" --out "$dir/shard-{}-of-$n.db" \
        --db "$COINROW_DB" --set "$COINROW_SET" $COINROW_SOLVE_OPTS \
        --run-tag "$COINROW_RUN_TAG" --quiet \
    ::: $(seq 0 $((n - 1))) || status=$?
set +f
if [ "$status" != 0 ]; then
    echo "run-shards: $status shard(s) failed (see $dir/parallel.log); run this again to resume them" >&2
    exit 1
fi

# The shards' paths in a list, not on merge's command line: a job of
# thousands of shards would not fit in one.
list=$dir/shards-of-$n.txt
k=0
: > "$list"
while [ "$k" -lt "$n" ]; do
    printf '%s\n' "$dir/shard-$k-of-$n.db" >> "$list"
    k=$((k + 1))
done
"$COINROW" merge --db "$COINROW_MERGE_DB" --shards "$list"
echo "run-shards: merged $n shards of job $COINROW_RUN_TAG into $COINROW_MERGE_DB" >&2

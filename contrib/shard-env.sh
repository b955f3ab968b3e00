# Sourced by contrib/slurm/submit.sh and contrib/parallel/run-shards.sh: the
# settings both recipes share, checked, with every path made absolute so that
# jobs on other nodes (which start in another directory) find them.
# $recipe names the sourcing script in messages.

: "${COINROW:=coinrow}"
: "${COINROW_DB:?set COINROW_DB to the input database}"
: "${COINROW_SET:?set COINROW_SET to the set to solve}"
: "${COINROW_SHARD_DIR:?set COINROW_SHARD_DIR to a directory on shared storage for the shards}"
: "${COINROW_SHARDS:=4}"
: "${COINROW_MERGE_DB:=$COINROW_DB}"
: "${COINROW_SOLVE_OPTS:=}"
case $COINROW_SHARDS in
    ''|*[!0-9]*|0) echo "$recipe: COINROW_SHARDS must be a positive number, not '$COINROW_SHARDS'" >&2; exit 2 ;;
esac

absolute() {
    case $1 in
        /*) printf '%s\n' "$1" ;;
        *) printf '%s/%s\n' "$(pwd)" "$1" ;;
    esac
}
case $COINROW in */*) COINROW=$(absolute "$COINROW") ;; esac
COINROW_DB=$(absolute "$COINROW_DB")
COINROW_MERGE_DB=$(absolute "$COINROW_MERGE_DB")
COINROW_SHARD_DIR=$(absolute "$COINROW_SHARD_DIR")
[ -r "$COINROW_DB" ] || { echo "$recipe: cannot read $COINROW_DB" >&2; exit 1; }
mkdir -p "$COINROW_SHARD_DIR"

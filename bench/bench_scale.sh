#!/bin/bash
# Scale-out's benchmark (make bench-scale): the figures of docs/scaling.md,
# "What a job costs", against the targets of issue 35.
#
#   bash bench/bench_scale.sh COINROW [--instances N] [--reps R] [--shards "10 100 1000"]
#
# In a fresh folder under $TMPDIR (or /tmp), removed at the end: a set of N
# instances (default 10^6) of n = 32 with values 1..1000 (coinrow generate),
# then, R times (default 3) each, side by side: the single run (`solve
# --variant all` of the whole set, one process); for each shard count S,
# the S shards one after another, their merge into an empty database and
# into a copy of the input (which holds the set).  It prints the medians:
# wall and CPU time (user + system, GNU time's), peak memory, and sizes;
# then how many pages of its input one shard of 100 reads, with the set's
# ids in the order they were ingested and with the same set's ids in none.
# The machine should be quiet: figures taken while others run are noisy.
set -eu
coinrow=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
instances=1000000 reps=3 counts="10 100 1000"
while [ $# -gt 1 ]; do
    case $1 in
    --instances) instances=$2 ;;
    --reps) reps=$2 ;;
    --shards) counts=$2 ;;
    *) echo "usage: bench_scale.sh COINROW [--instances N] [--reps R] [--shards \"10 100 1000\"]" >&2 && exit 2 ;;
    esac
    shift 2
done
timer=$(command -v time || true)
[ -x /usr/bin/time ] && timer=/usr/bin/time
if ! "$timer" -f %e true 2>/dev/null; then
    echo "bench_scale.sh needs GNU time (/usr/bin/time, Debian's package time)" >&2
    exit 2
fi
folder=$(mktemp -d "${TMPDIR:-/tmp}/bench_scale-XXXXXX")
trap 'rm -rf "$folder"' EXIT
cd "$folder"

# measure NAME COMMAND...: appends "wall cpu peak_kib" to NAME.times.  It
# syncs first, so that one step's writeback (the shards' hundreds of MiB
# just written, say) does not land in the next one's time.
measure() {
    local name=$1
    shift
    sync
    "$timer" -f '%e %U %S %M' -o t.out "$@" >/dev/null
    awk '{ printf "%.3f %.3f %d\n", $1, $2 + $3, $4 }' t.out >>"$name.times"
}
# median NAME COLUMN: the median of column COLUMN (1 wall, 2 cpu, 3 peak)
median() { sort -n -k"$2" "$1.times" | awk -v c="$2" '{ v[NR] = $c } END { print v[int((NR + 1) / 2)] }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f%%", (b > 0 ? 100 * a / b : 0) }'; }
mib() { awk -v k="$1" 'BEGIN { printf "%.0f MiB", k / 1024 }'; }
verdict() { awk -v v="$1" -v max="$2" 'BEGIN { print (v <= max ? "met" : "NOT met") }'; }

echo "making the set: $instances instances of n = 32 ..."
"$coinrow" generate --db input.db --set bench --count "$instances" --n 32 --values 1..1000 --seed 1 --quiet
# The same instances ingested with ids in no order (a bijective hash of the
# row number, as UUIDs or a table's unordered export come): a shard is a
# range of ids, and its instances lie where their rows were ingested.
echo "making the same set with its ids out of order ..."
{
    echo "id,values"
    sqlite3 -csv input.db "SELECT printf('%08x', id * 2654435761 % 4294967296),
                                  replace(replace(replace(coins, '[', ''), ']', ''), ',', ' ')
                           FROM instance ORDER BY id"
} >scattered.csv
"$coinrow" ingest scattered.csv --db scattered.db --set bench --quiet

for ((r = 0; r < reps; r++)); do
    echo "repetition $((r + 1)) of $reps ..."
    rm -f single.db && cp input.db single.db
    measure single "$coinrow" solve --db single.db --variant all --quiet
    for s in $counts; do
        rm -rf "shards-$s" && mkdir "shards-$s"
        # the S shards timed as one job: GNU time cuts its CPU figures to
        # 10 ms, which, summed over shards of a few ms each, hid up to half
        # of their time; its peak is the largest shard's.  Each shard's wall
        # time is bash's clock's, in microseconds.
        : >"walls-$s"
        measure "all-$s" bash -c 'for ((k = 0; k < $1; k++)); do
                start=$EPOCHREALTIME
                "$2" solve --db input.db --shard "$k/$1" --out "shards-$1/$k.db" --run-tag "bench-$1" \
                    --variant all --quiet || exit 1
                echo "$start $EPOCHREALTIME" >>"walls-$1"
            done' shards "$s" "$coinrow"
        awk '{ print $2 - $1 }' "walls-$s" | sort -n |
            awk '{ v[NR] = $1 } END { printf "%.4f 0 0\n", v[int((NR + 1) / 2)] }' >>"shard-$s.times"
        rm -f "empty-$s.db"
        measure "empty-$s" "$coinrow" merge --db "empty-$s.db" --shards "shards-$s" --quiet
        rm -f "into-$s.db" && cp input.db "into-$s.db"
        measure "into-$s" "$coinrow" merge --db "into-$s.db" --shards "shards-$s" --quiet
        "$coinrow" compare --db single.db --against "empty-$s.db" >/dev/null
    done
done

# What one shard of 100 reads of its input, by SQLite's count of the pages
# it fetched (the same count on a warm or cold cache): the shard's range
# query, run by sqlite3 on the bounds the shard recorded.
pages_read() { # pages_read INPUT.db: "P of Q pages" for shard 50/100 of its set
    rm -f pages.db
    "$coinrow" solve --db "$1" --shard 50/100 --out pages.db --run-tag pages --variant total --moves none --quiet
    local lo hi
    lo=$(sqlite3 pages.db "SELECT lo FROM shard") hi=$(sqlite3 pages.db "SELECT hi FROM shard")
    echo "$(sqlite3 "$1" ".stats on" "SELECT count(coins) FROM instance WHERE set_id = 1 AND ext_id >= '$lo' \
        AND ext_id < '$hi'" | awk '/Page cache misses/ { print $NF }') of $(sqlite3 "$1" "PRAGMA page_count") pages"
}
ordered_pages=$(pages_read input.db) scattered_pages=$(pages_read scattered.db)

single_wall=$(median single 1) single_cpu=$(median single 2)
single_size=$(wc -c <single.db) input_size=$(wc -c <input.db)
echo
echo "The single run: solve --variant all of $instances instances, one process: $single_wall s wall," \
    "$single_cpu s CPU, $(mib "$(median single 3)") peak; its database $(mib $((single_size / 1024)))" \
    "(the input alone: $(mib $((input_size / 1024))))."
echo
printf '| %s (median of %d) |' "figure" "$reps"
for s in $counts; do printf ' %s shards |' "$s"; done
printf ' target |\n|---|'
for s in $counts; do printf -- '---|'; done
printf -- '---|\n'
row() { # row LABEL TARGET FUNCTION: FUNCTION s prints the cell for s shards
    printf '| %s |' "$1"
    for s in $counts; do printf ' %s |' "$($3 "$s")"; done
    printf ' %s |\n' "$2"
}
cell_sum() { echo "$(median "all-$1" 2) s = $(ratio "$(median "all-$1" 2)" "$single_cpu")×"; }
cell_wall() { echo "$(median "all-$1" 1) s"; }
cell_one() { echo "$(median "shard-$1" 1) s = $(pct "$(median "shard-$1" 1)" "$single_wall")"; }
cell_empty() { echo "$(median "empty-$1" 1) s = $(ratio "$(median "empty-$1" 1)" "$single_wall")×"; }
cell_into() { echo "$(median "into-$1" 1) s = $(ratio "$(median "into-$1" 1)" "$single_wall")×"; }
cell_peak() { echo "$(mib "$(median "empty-$1" 3)") / $(mib "$(median "into-$1" 3)")"; }
cell_shard_peak() { mib "$(median "all-$1" 3)"; }
cell_size() {
    local b
    b=$(wc -c <"empty-$1.db")
    echo "$(mib $((b / 1024))) = $(ratio "$b" "$single_size")×"
}
cell_shards_size() { echo "$(mib $(($(cat "shards-$1"/*.db | wc -c) / 1024)))"; }
row "all shards one after another: CPU (vs the single run's)" "1.5× at 100" cell_sum
row "all shards one after another: wall" "" cell_wall
row "one shard: wall (median shard, vs the single run's)" "5% at 100" cell_one
row "one shard: peak memory (the largest)" "" cell_shard_peak
row "merge into an empty database: wall" "1.0× at 10" cell_empty
row "merge into the input (holds the set): wall" "1.2× at 10" cell_into
row "merge: peak memory (empty / into the input)" "256 MiB" cell_peak
row "the merged database (vs the single run's)" "" cell_size
row "the shard databases together" "" cell_shards_size
echo
echo "What shard 50/100 reads of its input: $ordered_pages with the set's ids in the order they were" \
    "ingested, $scattered_pages with the same instances' ids in no order."

# the targets, at the shard counts they name (when measured)
has() { case " $counts " in *" $1 "*) return 0 ;; esac; return 1; }
echo
echo "| target | figure | |"
echo "|---|---|---|"
if has 100; then
    v=$(ratio "$(median all-100 2)" "$single_cpu")
    echo "| the 100 shards' summed CPU at most 1.5× the single run's | ${v}× | $(verdict "$v" 1.5) |"
    v=$(ratio "$(median shard-100 1)" "$single_wall")
    echo "| one shard of 100 at most 5% of the single run's wall | $(pct "$(median shard-100 1)" "$single_wall") |" \
        "$(verdict "$v" 0.05) |"
fi
if has 10; then
    v=$(ratio "$(median empty-10 1)" "$single_wall")
    echo "| merge of 10 shards into an empty database at most 1.0× | ${v}× | $(verdict "$v" 1.0) |"
    v=$(ratio "$(median into-10 1)" "$single_wall")
    echo "| merge of 10 shards into the set's database at most 1.2× | ${v}× | $(verdict "$v" 1.2) |"
fi
for s in 10 1000; do
    if has $s; then
        v=$(median "empty-$s" 3) w=$(median "into-$s" 3)
        [ "$w" -gt "$v" ] && v=$w
        echo "| merge of $s shards: peak memory at most 256 MiB | $(mib "$v") | $(verdict "$v" 262144) |"
    fi
done

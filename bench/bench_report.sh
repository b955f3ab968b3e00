#!/bin/bash
# coinrow report's benchmark (make bench-report): the figures of
# docs/performance.md, "The report".
#
#   bash bench/bench_report.sh COINROW [--instances N] [--reps R]
#
# In a fresh folder under $TMPDIR (or /tmp), removed at the end: a set of N
# instances (default 10^6) of n = 8..32 with values 1..10^9 (coinrow
# generate), two runs of every variant (fast lines, then canonical ones)
# and the greedy built-in judged on the diff variant, then `coinrow report`
# of it R times (default 5): the median wall time, the CPU time (user +
# system, bash's times) of that repetition, and the page's size, against
# the targets of issue 24 (at most 10 s and 5 MB at 10^6 instances).
set -eu
coinrow=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
instances=1000000 reps=5
while [ $# -gt 1 ]; do
    case $1 in
    --instances) instances=$2 ;;
    --reps) reps=$2 ;;
    *) echo "usage: bench_report.sh COINROW [--instances N] [--reps R]" >&2 && exit 2 ;;
    esac
    shift 2
done
folder=$(mktemp -d "${TMPDIR:-/tmp}/bench_report-XXXXXX")
trap 'rm -rf "$folder"' EXIT
cd "$folder"

echo "making the database: $instances instances, two runs, greedy judged ..."
"$coinrow" generate --db bench.db --set bench --count "$instances" --n 8..32 --values 1..1000000000 --seed 1 --quiet
"$coinrow" solve --db bench.db --quiet
"$coinrow" solve --db bench.db --moves canonical --quiet
"$coinrow" invoke --db bench.db --set bench --variant diff --builtin greedy --jobs 2 --quiet 2>/dev/null || [ $? = 1 ]

walls=() cpus=()
TIMEFORMAT='%R %U %S'
for ((k = 0; k < reps; k++)); do
    sync
    t=$({ time "$coinrow" report --db bench.db --set bench --out report.html >/dev/null; } 2>&1)
    read -r wall user system <<<"$t"
    walls+=("$wall") cpus+=("$(awk -v u="$user" -v s="$system" 'BEGIN { printf "%.2f", u + s }')")
done
bytes=$(wc -c <report.html)
# the median repetition by wall time, with its CPU time
median=$(for ((k = 0; k < reps; k++)); do echo "${walls[k]} ${cpus[k]}"; done | sort -n | sed -n "$(((reps + 1) / 2))p")
read -r wall cpu <<<"$median"
verdict() { awk -v v="$1" -v max="$2" 'BEGIN { print (v <= max ? "met" : "NOT met") }'; }
echo
echo "| coinrow report, $instances instances, 2 runs, 1 invocation (median of $reps) | figure | target | |"
echo "|---|---|---|---|"
echo "| written in (wall) | $wall s | 10 s | $(verdict "$wall" 10) |"
echo "| CPU time (user + system) | $cpu s | | |"
echo "| the page | $(awk -v b="$bytes" 'BEGIN { printf "%.1f KiB", b / 1024 }') | 5 MB | $(verdict "$bytes" 5000000) |"
echo "(every repetition's wall time: ${walls[*]} s)"

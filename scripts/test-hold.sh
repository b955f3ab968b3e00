#!/bin/sh
# make test-hold (docs/testing.md, "Does the suite hold?"): whether the
# suite passes whatever the machine's pace.  make test five times, each
# quiet, its output in BUILD/test-hold/RUN.log: three times as it comes,
# once pinned to one CPU (taskset -c 0), once beside a busy loop on every
# core (stopped at the end, whatever happens); then how long each took and
# every test that failed in any of them, as make test names it
# ("FAILED tests/test_x.c: test_name", BUILD/tests/failed.txt).  Exit 1 when
# one failed.  Slow (five suites), so not in .ci/run.
#   MAKE=make sh scripts/test-hold.sh BUILD
set -u
build=$1
make=${MAKE:-make}
out=$build/test-hold
rm -rf "$out"
mkdir -p "$out"

hogs=""
stop_hogs() {
    # shellcheck disable=SC2086 # one pid a word
    [ -z "$hogs" ] || kill $hogs 2>/dev/null
    hogs=""
}
trap stop_hogs EXIT
trap 'exit 130' INT TERM HUP

# run NAME HOW COMMAND...: one make test; its line of the table, and its
# failures (RUN: FAILED ...) in $out/failed.txt
run() {
    name=$1 how=$2
    shift 2
    start=$(date +%s)
    "$@" "$make" --no-print-directory test >"$out/$name.log" 2>&1
    status=$?
    seconds=$(($(date +%s) - start))
    if [ "$status" = 0 ]; then
        result=passed
    else
        result="FAILED (exit $status)"
        if [ -s "$build/tests/failed.txt" ]; then
            sed "s/^/$name: /" "$build/tests/failed.txt" >>"$out/failed.txt"
        else
            echo "$name: FAILED make test, exit $status, naming no test (see $out/$name.log)" >>"$out/failed.txt"
        fi
    fi
    printf '%-8s %-34s %5d s  %s\n' "$name" "$how" "$seconds" "$result" | tee -a "$out/table.txt"
}

: >"$out/failed.txt"
cpus=$(nproc)
echo "test-hold: make test five times on $cpus CPUs; logs in $out/"
run quiet-1 "as it comes"
run quiet-2 "as it comes"
run quiet-3 "as it comes"
if command -v taskset >/dev/null 2>&1; then
    run pinned "pinned to one CPU (taskset -c 0)" taskset -c 0
else
    echo "pinned   not run: taskset is missing (util-linux)" | tee -a "$out/table.txt"
    echo "pinned: not run (no taskset)" >>"$out/failed.txt"
fi
for _ in $(seq "$cpus"); do
    sh -c 'while :; do :; done' &
    hogs="$hogs $!"
done
run loaded "beside $cpus busy loops, one a core"
stop_hogs

if [ -s "$out/failed.txt" ]; then
    echo "test-hold: what failed, run by run:"
    cat "$out/failed.txt"
    echo "test-hold: tests that failed in any run:"
    sed 's/^[^:]*: //' "$out/failed.txt" | sort | uniq -c | sed 's/^ *\([0-9]*\) \(.*\)/  \2 (\1 of 5 runs)/'
    exit 1
fi
echo "test-hold: no test failed in any of the five runs"

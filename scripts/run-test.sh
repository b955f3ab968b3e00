#!/bin/sh
# One test program of `make test`, its output passed through and kept in
# PROGRAM.log; when it fails, one line per failing test goes to LIST, so
# that the end of `make test` can name each test and its file:
#   FAILED tests/test_x.c: test_x__what_it_pins
# A program killed by a signal names the signal and the test it was running
# (cmocka flushes "[ RUN      ] name" before each test); one that fails
# without naming a test names the program and its exit status.
#   sh scripts/run-test.sh LIST PROGRAM
set -u
list=$1 program=$2
log=$program.log
source=tests/$(basename "$program").c
[ -f "$source" ] || source=$program
# the program's status, through the pipe that tee reads
( "$program" 2>&1; echo $? > "$log.status" ) | tee "$log"
status=$(cat "$log.status")
rm -f "$log.status"
[ "$status" = 0 ] && exit 0
# cmocka names a failed test twice, at its end and in the summary
names=$(sed -n 's/^\[  FAILED  \] \([^ ]*\)$/\1/p' "$log" | awk '!seen[$0]++')
# a test begun and never ended is the one the program died in
running=$(awk '/^\[ RUN      \] / { name = $4 } /^\[       OK \] |^\[  FAILED  \] |^\[  SKIPPED \] / { name = "" }
    END { print name }' "$log")
{
    for name in $names; do echo "FAILED $source: $name"; done
    if [ "$status" -gt 128 ]; then
        echo "FAILED $source: killed by SIG$(kill -l "$status" 2>/dev/null || echo "$status")${running:+ in $running}"
    elif [ -n "$running" ]; then
        echo "FAILED $source: exit status $status in $running"
    elif [ -z "$names" ]; then
        echo "FAILED $source: exit status $status"
    fi
} >> "$list"
exit 1

#!/bin/sh
# The sample database of docs/report.md and the README's screenshot, made in
# the current folder from sample-data/: two runs (auto with fast lines, dp
# with canonical lines), then three invocations of the diff variant: the
# reference solution a Kattis export holds (AC), the greedy built-in (WA on
# some tests) and a program that spins until its time limit (TLE); then the
# report.  Names are relative, so that the page names no folder of this
# machine.
#   COINROW=build/coinrow sh tests/report/sample.sh DB OUT.html
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
coinrow=${COINROW:-$root/build/coinrow}
db=$1 out=$2
rm -rf "$db" sample-data pkg
cp -R "$root/sample-data" sample-data
"$coinrow" run sample-data/ --db "$db" --quiet
"$coinrow" solve --db "$db" --algo dp --moves canonical --label canonical --quiet
"$coinrow" export --db "$db" --set sample-data --variant diff --moves canonical --format kattis --out pkg 2>/dev/null
"$coinrow" invoke --db "$db" --set sample-data --variant diff --label accepted --quiet \
    -- pkg/submissions/accepted/reference.c
# greedy loses some tests and the spinner all: exit 1, as invoke says so
status=0
"$coinrow" invoke --db "$db" --set sample-data --variant diff --builtin greedy --label greedy --quiet || status=$?
[ $status = 1 ]
status=0
"$coinrow" invoke --db "$db" --set sample-data --variant diff --time-limit 0.1 --label time_limit_exceeded --quiet \
    -- sh -c 'while :; do :; done' || status=$?
[ $status = 1 ]
"$coinrow" report --db "$db" --set sample-data --out "$out"

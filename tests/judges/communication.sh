#!/bin/bash
# A stand-in for CMS's Communication task type with one process and
# user_io std_io (cms/grading/tasktypes/Communication.py), without its
# sandboxes: two FIFOs in a fresh folder, the manager run as
#   MANAGER FROM_USER TO_USER < INPUT
# and the contestant's program with TO_USER as its standard input and
# FROM_USER as its standard output, opened in that order (CMS's sandbox
# redirects standard input first), killed after SECONDS of wall clock as
# CMS's would be.  It prints what CMS would score: the outcome, then the
# text on a second line; as CMS, the manager's word when the program ended
# well, 0.0 and why when it did not (its output then ignored).  Exit status
# 0, or 1 when the manager failed (CMS fails the evaluation then).
#   communication.sh MANAGER INPUT SECONDS PROGRAM [ARGS...]
set -u
manager=$1 input=$2 seconds=$3
shift 3
dir=$(mktemp -d "${TMPDIR:-/tmp}/communication-XXXXXX")
trap 'rm -rf "$dir"' EXIT
mkfifo "$dir/u0_to_m" "$dir/m_to_u0"
"$manager" "$dir/u0_to_m" "$dir/m_to_u0" <"$input" >"$dir/outcome" 2>"$dir/text" &
pid=$!
timeout -s KILL "$seconds" "$@" <"$dir/m_to_u0" >"$dir/u0_to_m"
program=$?
wait $pid
status=$?
if [ $status != 0 ]; then
    printf 'evaluation failed: the manager exited %s: %s\n' $status "$(head -n 1 "$dir/text")"
    exit 1
fi
case $program in
0) head -n 1 "$dir/outcome" && head -n 1 "$dir/text" ;;
137) printf '0.0\nExecution timed out (wall clock limit exceeded)\n' ;;
*) printf '0.0\nExecution failed because the return code was nonzero (%s)\n' $program ;;
esac

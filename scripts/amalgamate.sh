#!/bin/sh
# Writes the given source files as one, with each local #include "..."
# replaced by the file itself, the way SQLite ships its amalgamation: a piece
# of a self-contained judge program.  coinrow embeds the pieces (the pure core,
# the utilities, the judge runner, each program's main) and writes a
# program as its settings followed by its pieces (src/export/program.c).  A
# header with an include guard is inlined once, and not at all when one of
# the pieces that come before it in every program (--after) has it; a
# template without one (the core's *_impl.h) every time it is included.
# #include "testlib.h" stays as it is: the testlib programs are built with
# testlib.h beside them.
#   sh scripts/amalgamate.sh src/core/*.c > core.c
#   sh scripts/amalgamate.sh --after src/core/*.c -- src/judge/main/check.cpp > check.cpp
set -eu
cd "$(dirname "$0")/.."
emitted=" "
after=
if [ "${1:-}" = --after ]; then
    shift
    while [ "$1" != -- ]; do
        after="$after $1"
        shift
    done
    shift
fi

# The path of the file that `#include "$1"` in file $2 names.
resolve() {
    case $1 in
    coinrow/*) echo "include/$1" ;;
    core/* | util/* | judge/*) echo "src/$1" ;;
    *) echo "$(dirname "$2")/$1" ;;
    esac
}

# Writes file $1 with its local includes inlined.
inline() {
    case $emitted in *" $1 "*) return ;; esac
    if grep -q '^#ifndef CR_[A-Z_]*_H$' "$1"; then
        emitted="$emitted$1 "
    fi
    echo "/* ---- $1 ---- */"
    while IFS= read -r line || [ -n "$line" ]; do
        case $line in
        '#include "testlib.h"'*) printf '%s\n' "$line" ;;
        '#include "'*'"'*)
            name=${line#*\"}
            inline "$(resolve "${name%%\"*}" "$1")"
            ;;
        *) printf '%s\n' "$line" ;;
        esac
    done <"$1"
}

for f in $after; do
    inline "$f" >/dev/null
done
echo "/* ---- generated from coinrow's $* by scripts/amalgamate.sh; do not edit ---- */"
for f in "$@"; do
    inline "$f"
done

#!/bin/sh
# Writes one self-contained C file for a judge program: coinrow's pure core
# (every src/core/*.c), what the judge programs add to it (src/util/*.c,
# src/judge/judge.c) and the given main, with each local #include "..."
# replaced by the file itself, the way SQLite ships its amalgamation.  A header
# with an include guard is inlined once; a template without one (the core's
# *_impl.h) every time it is included.  Builds with `cc -O2 -o prog prog.c`
# (gcc or clang, 64-bit: the core uses __int128 and __builtin_*_overflow).
#   sh scripts/amalgamate.sh src/judge/main/checker.c > checker.c
set -eu
cd "$(dirname "$0")/.."
emitted=" "

# The path of the file that `#include "$1"` in file $2 names.
resolve() {
    case $1 in
    coinrow/*) echo "include/$1" ;;
    util/* | judge/*) echo "src/$1" ;;
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
        '#include "'*'"'*)
            name=${line#*\"}
            inline "$(resolve "${name%%\"*}" "$1")"
            ;;
        *) printf '%s\n' "$line" ;;
        esac
    done <"$1"
}

echo "/* coinrow judge program: a generated amalgamation of coinrow's core and"
echo " * $1.  Every line below comes from the coinrow sources"
echo " * named in the markers; do not edit. */"
# Judges build with warnings on (DOMjudge: gcc -Wall) and without -fopenmp,
# which would flag every '#pragma omp simd' hint of the core.
echo '#pragma GCC diagnostic ignored "-Wunknown-pragmas"'
for f in src/core/*.c src/util/*.c src/judge/judge.c "$1"; do
    inline "$f"
done

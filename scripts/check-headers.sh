#!/bin/sh
# Fails when the public headers are not what an embedder can rely on: the
# umbrella include/coinrow.h includes every include/coinrow/*.h, and each
# header compiles alone as strict C11.
#   CC=cc sh scripts/check-headers.sh
set -eu
cd "$(dirname "$0")/.."
bad=0
for h in include/coinrow/*.h; do
    name=${h#include/}
    if ! grep -q "^#include \"$name\"" include/coinrow.h; then
        echo "headers: include/coinrow.h does not include \"$name\"" >&2
        bad=1
    fi
done
for h in include/coinrow.h include/coinrow/*.h; do
    if ! echo "#include \"${h#include/}\"" |
        ${CC:-cc} -std=c11 -pedantic -Wall -Wextra -Werror -Iinclude -fsyntax-only -x c - 2>/dev/null; then
        echo "headers: $h does not compile alone as C11" >&2
        bad=1
    fi
done
[ $bad = 0 ] && echo "headers: ok"
exit $bad

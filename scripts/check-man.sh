#!/bin/sh
# Fails when a man page draws any remark from mandoc -T lint (Debian's
# mandoc, style messages included) or from groff -ww, whichever are here;
# one of them must be.
#   sh scripts/check-man.sh build/doc/coinrow.1
set -eu
page=$1
linted=0 bad=0
if command -v mandoc >/dev/null 2>&1; then
    out=$(mandoc -T lint -W style "$page" 2>&1) || true
    [ -z "$out" ] || { echo "man: mandoc -T lint:" >&2; echo "$out" >&2; bad=1; }
    linted=1
fi
if command -v groff >/dev/null 2>&1; then
    out=$(groff -ww -man -z "$page" 2>&1) || true
    [ -z "$out" ] || { echo "man: groff -ww:" >&2; echo "$out" >&2; bad=1; }
    linted=1
fi
if [ $linted = 0 ]; then
    echo "man: neither mandoc nor groff to read $page: sudo apt-get install -y mandoc (or, as root: make deps)" >&2
    exit 1
fi
[ $bad = 0 ] && echo "man: ok"
exit $bad

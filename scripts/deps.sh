#!/bin/sh
# The Debian packages missing from this machine, each given as PACKAGE:PROBE
# (a probe ending in .h is a header the compiler must find, any other a
# program on PATH).  `check` names the missing ones and fails; `install`
# installs them when run as root, else names them the same way.
#   CC=cc sh scripts/deps.sh check|install PACKAGE:PROBE...
set -eu
mode=$1
shift
missing=""
for arg; do
    package=${arg%%:*} probe=${arg#*:}
    case $probe in
    *.h) echo "#include <$probe>" | ${CC:-cc} -E -x c - >/dev/null 2>&1 ;;
    *) command -v "$probe" >/dev/null 2>&1 ;;
    esac || missing="$missing $package"
done
[ -z "$missing" ] && exit 0
if [ "$mode" = install ] && [ "$(id -u)" = 0 ]; then
    echo "installing:$missing"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
else
    echo "missing Debian packages:$missing" >&2
    echo "  run: sudo apt-get update && sudo apt-get install -y$missing   (or, as root: make deps)" >&2
    exit 1
fi

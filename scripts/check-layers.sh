#!/bin/sh
# Fails (listing every offence) when the source tree breaks its layering
# (docs/design.md, "Layers"):
#   - an #include points up or sideways:  core <- util <- judge <- io <- cli
#     and io <- ext (the SQLite extension, beside the CLI); include/ is the
#     core's public face, and nothing includes cli/ or ext/ but themselves;
#   - the core includes stdio.h or SQLite;
#   - a file talks to SQLite other than the store (through io/store_sql.h)
#     and the --from-db reader (io/source_table.c), the extension aside;
#   - a layer above the core formats an error with the core's cr_error_set
#     (its formatter does without stdio; they use cr_errorf), or the core
#     writes a floating-point conversion, the one kind its formatter lacks.
#   sh scripts/check-layers.sh
set -eu
cd "$(dirname "$0")/.."

# The layers a file of layer $1 may include.
allowed() {
    case $1 in
    core) echo "core" ;;
    util) echo "core util" ;;
    judge) echo "core util judge" ;;
    io) echo "core util judge io" ;;
    cli) echo "core util judge io cli" ;;
    ext) echo "core util judge io ext" ;;
    esac
}

layer_of_path() {
    case $1 in
    include/* | src/core/*) echo core ;;
    src/util/*) echo util ;;
    src/judge/*) echo judge ;;
    src/io/*) echo io ;;
    src/cli/*) echo cli ;;
    src/ext/*) echo ext ;;
    *) echo unknown ;;
    esac
}

bad=0
offence() {
    echo "layers: $*" >&2
    bad=1
}

files=$(find include src -name '*.[ch]' | sort)
for f in $files; do
    layer=$(layer_of_path "$f")
    ok=" $(allowed "$layer") "
    # local includes: "dir/name.h" names a layer, a bare "name.h" its own folder
    for name in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
        case $name in
        coinrow.h | coinrow/*) to=core ;;
        util/* | judge/* | io/* | cli/* | ext/*) to=${name%%/*} ;;
        */*) to=unknown ;;
        *) to=$layer ;;
        esac
        case $ok in
        *" $to "*) ;;
        *) offence "$f ($layer) includes \"$name\" ($to)" ;;
        esac
    done
    system=$(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*<\([^>]*\)>.*/\1/p' "$f")
    for name in $system; do
        case $layer:$name in
        core:stdio.h | core:sqlite3.h | core:sqlite3ext.h) offence "$f: the core includes <$name>" ;;
        *:sqlite3.h | *:sqlite3ext.h)
            case $f in
            src/io/store_sql.h | src/io/source_table.c | src/ext/*) ;;
            *) offence "$f includes <$name>: SQL goes in the store (src/io/store*.c)" ;;
            esac
            ;;
        esac
    done
    if grep -q '"io/store_sql.h"' "$f"; then
        case $f in
        src/io/store*.c) ;;
        *) offence "$f includes \"io/store_sql.h\", the store's inside" ;;
        esac
    fi
    if [ "$layer" != core ] && grep -q '\bcr_error_set(' "$f"; then
        offence "$f calls cr_error_set, the core's formatter: above the core, use cr_errorf"
    fi
    if [ "$layer" = core ] &&
        grep -qE '"[^"]*%[-+ #0]*([0-9]+|\*)?(\.([0-9]+|\*))?(hh|h|ll|l|j|z|t|L)?[aAeEfFgGn]' "$f"; then
        offence "$f: a floating-point (or %n) conversion, which the core's formatter does not do"
    fi
done

if [ $bad = 0 ]; then
    echo "layers: ok"
fi
exit $bad

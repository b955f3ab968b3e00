#!/bin/sh
# Fails (listing every offence) when the source tree breaks its layering
# (docs/design.md, "Layers"):
#   - an #include points up or sideways: a file of src/NAME/ (or of a folder
#     inside it) includes only its own folder and the layers below it in
#     scripts/layers.txt; include/ is the core's public face;
#   - a folder's private header is included from outside it: of src/NAME/
#     only NAME.h is public (the core's public headers are include/'s);
#   - the core includes stdio.h or SQLite;
#   - a file talks to SQLite other than the store (through store/sql.h),
#     the --from-db reader (source/table.c), the one way to open a
#     database (util/db.c) and the extension;
#   - a layer above the core formats an error with the core's cr_error_set
#     (its formatter does without stdio; they use cr_errorf), or the core
#     writes a floating-point conversion, the one kind its formatter lacks.
# Calls are checked at link level by scripts/check-calls.sh.
#   sh scripts/check-layers.sh [ROOT]
set -eu
cd "${1:-$(dirname "$0")/..}"

# shellcheck disable=SC2046 # the file names are words
find include src -name '*.[ch]' -o -name '*.cpp' | sort | xargs awk -v layers="$(grep -v '^#' scripts/layers.txt |
    awk '{ for (i = 1; i <= NF; i++) printf "%s=%d ", $i, NR - 1 }')" '
BEGIN {
    n = split(layers, kv, " ")
    for (i = 1; i <= n; i++) { split(kv[i], p, "="); rank[p[1]] = p[2] }
    float = "\"[^\"]*%[-+ #0]*([0-9]+|\\*)?(\\.([0-9]+|\\*))?(hh|h|ll|l|j|z|t|L)?[aAeEfFgGn]"
}
function offence(msg) { print "layers: " msg > "/dev/stderr"; bad = 1 }
FNR == 1 {
    f = FILENAME
    if (f ~ /^include\//) layer = "core"
    else { layer = f; sub(/^src\//, "", layer); sub(/\/.*/, "", layer) }
    if (!(layer in rank)) offence(f " is in no layer of scripts/layers.txt")
}
/^[ \t]*#[ \t]*include[ \t]*"/ {
    name = $0; sub(/^[^"]*"/, "", name); sub(/".*/, "", name)
    public = 0
    if (name == "coinrow.h" || name ~ /^coinrow\//) { to = "core"; public = 1 }
    else if (name == "testlib.h") next  # beside the exported testlib programs
    else if (name ~ /\//) { to = name; sub(/\/.*/, "", to) }
    else to = layer
    if (name == to "/" to ".h") public = 1
    if (to == layer) next
    if (!(to in rank) || rank[to] >= rank[layer])
        offence(f " (" layer ") includes \"" name "\" (" to "): " (rank[to] == rank[layer] ? "sideways, between siblings" : "up"))
    else if (!public)
        offence(f " includes \"" name "\", private to src/" to "/ (its public header is " to "/" to ".h)")
    next
}
/^[ \t]*#[ \t]*include[ \t]*</ {
    name = $0; sub(/^[^<]*</, "", name); sub(/>.*/, "", name)
    if (layer == "core" && (name == "stdio.h" || name ~ /^sqlite3(ext)?\.h$/))
        offence(f ": the core includes <" name ">")
    else if (name ~ /^sqlite3(ext)?\.h$/ && f != "src/store/sql.h" && f != "src/source/table.c" && f != "src/util/db.c" && f !~ /^src\/ext\//)
        offence(f " includes <" name ">: SQL goes in the store (src/store/)")
    next
}
layer != "core" && /(^|[^A-Za-z0-9_])cr_error_set\(/ && !seen_set[f]++ {
    offence(f " calls cr_error_set, the core'"'"'s formatter: above the core, use cr_errorf")
}
layer == "core" && $0 ~ float && !seen_float[f]++ {
    offence(f ": a floating-point (or %n) conversion, which the core'"'"'s formatter does not do")
}
END {
    if (!bad) print "layers: ok"
    exit bad
}'

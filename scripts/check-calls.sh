#!/bin/sh
# Fails (listing every offence) when the objects of src/ call each other in
# a way the layering forbids (docs/design.md, "Layers"), read at link level
# from each object's defined and undefined symbols (nm):
#   - a call that points up or sideways: an object of src/NAME/ uses only
#     symbols of its own folder and of the layers below it in
#     scripts/layers.txt;
#   - a circle: two files that call each other, or any longer loop of files
#     (tsort finds them), inside a folder as much as across folders.
# The build's generated objects count as their layer's: gen/schema.o and
# gen/schema_current.o are the store's, gen/judge_sources.o export's.
#   sh scripts/check-calls.sh BUILD OBJECT...
set -eu
build=$1
shift
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ranks=$(grep -v '^#' "$root/scripts/layers.txt" | awk '{ for (i = 1; i <= NF; i++) printf "%s=%d ", $i, NR - 1 }')

# "D|U source symbol" for what each object defines and needs, the object
# named by its source (src/store/runs.c); one nm for them all, it is slow to start
name_of='{ o = $1; sub(/:.*$/, "", o); sub("^" build "/", "", o); sub(/^pic\//, "", o)
           if (o == "gen/schema.o" || o == "gen/schema_current.o") o = "src/store/schema.c"
           else if (o == "gen/judge_sources.o") o = "src/export/judge_sources.c"
           else sub(/\.o$/, ".c", o) }'
nm -A --defined-only -g "$@" | awk -v build="$build" "$name_of"' NF == 3 { print "D", o, $3 }' >"$tmp/symbols"
nm -A -u "$@" | awk -v build="$build" "$name_of"' NF == 3 { print "U", o, $3 }' >>"$tmp/symbols"

# every edge "caller callee symbol" between two different files
awk '$1 == "D" { by[$3] = $2 } $1 == "U" { need[++n] = $2 " " $3 }
     END { for (i = 1; i <= n; i++) { split(need[i], p, " "); if ((p[2] in by) && by[p[2]] != p[1]) print p[1], by[p[2]], p[2] } }' \
    "$tmp/symbols" | sort -u >"$tmp/edges"

bad=0
# the layer rule
awk -v ranks="$ranks" '
BEGIN { n = split(ranks, r, " "); for (i = 1; i <= n; i++) { split(r[i], kv, "="); rank[kv[1]] = kv[2] } }
function layer(f) { split(f, p, "/"); return p[2] }
{
    a = layer($1); b = layer($2)
    if (a == b) next
    if (!(a in rank) || !(b in rank)) { printf "calls: %s or %s is in no layer of scripts/layers.txt\n", $1, $2; bad = 1; next }
    if (rank[b] >= rank[a]) {
        printf "calls: %s (%s) calls %s of %s (%s): %s\n", $1, a, $3, $2, b, rank[b] == rank[a] ? "sideways, between siblings" : "up"
        bad = 1
    }
}
END { exit bad }' "$tmp/edges" >&2 || bad=1

# circles: first the pairs, by name, then any longer loop
awk '{ e[$1 " " $2] = $3 } END { for (k in e) { split(k, p, " "); r = p[2] " " p[1]; if ((r in e) && p[1] < p[2])
     printf "calls: %s and %s call each other (%s, %s)\n", p[1], p[2], e[k], e[r] } }' "$tmp/edges" | sort >"$tmp/pairs"
if [ -s "$tmp/pairs" ]; then
    cat "$tmp/pairs" >&2
    bad=1
elif ! awk '{ print $1, $2 }' "$tmp/edges" | tsort >/dev/null 2>"$tmp/loop"; then
    echo "calls: a circle of files calling each other:" >&2
    grep -v 'input contains a loop' "$tmp/loop" | sed 's/^tsort: /  /' >&2
    bad=1
fi

if [ $bad = 0 ]; then
    echo "calls: ok ($(wc -l <"$tmp/edges") calls between files, none up, sideways or in a circle)"
fi
exit $bad

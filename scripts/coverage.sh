#!/bin/sh
# Line and branch coverage of the counters the tests left in BUILD (a build
# made with COVERAGE=1), per layer of src/ (docs/design.md, "Layers"; the
# public headers count as the core), against the targets of docs/testing.md;
# fails when a layer is below its target.  Writes BUILD/coverage/index.html
# (every file, line by line) and BUILD/coverage/files.csv.
#   sh scripts/coverage.sh build/cov
set -eu
build=$1
out=$build/coverage
rm -rf "$out"
mkdir -p "$out"
# Branches the compiler adds on lines without code of their own are left out.
gcovr --root . --filter 'src/' --filter 'include/' --exclude-unreachable-branches \
    --html-details "$out/index.html" --csv "$out/files.csv" "$build"

# the targets: layer, least % of lines, least % of branches (0: none)
awk -F, -v report="$out/index.html" -v layers="$(grep -v '^#' scripts/layers.txt | tr '\n' ' ')" '
BEGIN {
    split(layers, order, " ")
    line_target["core"] = 98; branch_target["core"] = 95
    line_target["judge"] = 90
    split("source store batch invoke export", files_layers, " ")
    for (i = 1; i in files_layers; i++)
        line_target[files_layers[i]] = 90
}
# The init of the sandbox runs only as pid 1 inside bwrap, where the folder
# of the build is not and gcov cannot write its counters: left out, named.
NR > 1 && $1 == "src/invoke/init.c" {
    uncounted = uncounted sprintf("  %s: not counted (it runs only inside the sandbox, where gcov cannot write; " \
                                  "the test_sandbox__* tests of test_cli_invoke run it)\n", $1)
    next
}
NR > 1 {
    layer = $1 ~ /^include\// ? "core" : $1
    sub(/^src\//, "", layer)
    sub(/\/.*/, "", layer)
    lines[layer] += $2; lines_hit[layer] += $3
    branches[layer] += $5; branches_hit[layer] += $6
}
function pct(hit, total) { return total ? 100 * hit / total : 100 }
END {
    printf "coverage by layer (make coverage; every file line by line in %s)\n", report
    printf "  %-6s %-18s %-18s %s\n", "layer", "lines", "branches", "target"
    below = 0
    for (i = 1; i in order; i++) {
        l = order[i]
        if (!(l in lines))
            continue
        target = ""
        if (l in line_target) {
            ok = pct(lines_hit[l], lines[l]) >= line_target[l]
            target = sprintf("lines >= %d%%", line_target[l])
            if (l in branch_target) {
                ok = ok && pct(branches_hit[l], branches[l]) >= branch_target[l]
                target = target sprintf(", branches >= %d%%", branch_target[l])
            }
            target = target (ok ? ": met" : ": NOT MET")
            below += !ok
        }
        printf "  %-6s %5d/%-5d %5.1f%% %5d/%-5d %5.1f%%  %s\n", l, lines_hit[l], lines[l], pct(lines_hit[l], lines[l]),
               branches_hit[l], branches[l], pct(branches_hit[l], branches[l]), target
    }
    printf "%s", uncounted
    exit below != 0
}' "$out/files.csv"

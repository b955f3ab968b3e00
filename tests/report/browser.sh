#!/bin/sh
# The report in a real browser (docs/report.md, "Checked in a browser"):
# the page of the sample data (tests/report/sample.sh: two runs, an AC
# program, the greedy built-in, one that times out) rendered by Debian's
# headless Chromium, which must
#   - show the charts, the matrix and the numbers (--dump-dom),
#   - write nothing to its console (CSP violations included), and
#   - take a screenshot that is not one colour;
# and a page whose set, run and invocation are named with HTML and script
# must show those names as text, running nothing.  Each check is first
# shown to catch what it looks for (a page that logs, a blank page).
# Without chromium (or python3, which reads the screenshot) it skips,
# saying so; `make deps` installs both as root.
#   COINROW=build/coinrow sh tests/report/browser.sh [--screenshot PNG]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
coinrow=$(cd "$(dirname "${COINROW:-build/coinrow}")" && pwd)/$(basename "${COINROW:-build/coinrow}")
keep=""
[ "${1:-}" = --screenshot ] && keep=$2

chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ] || ! command -v python3 >/dev/null 2>&1; then
    echo "report in a browser: SKIPPED (needs chromium and python3; as root: make deps)"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
    echo "report in a browser: FAILED: $*" >&2
    exit 1
}

# Chromium as the machine allows it: no sandbox (root), no GPU, no network
# of its own, a fresh profile each time; its log (console messages
# included) on stderr.
browse() {
    profile=$(mktemp -d "$tmp/profile.XXXXXX")
    "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
        --disable-component-update --disable-sync --user-data-dir="$profile" --enable-logging=stderr --v=0 \
        --hide-scrollbars "$@"
}
console_of() { grep 'CONSOLE' "$1" || true; }

# the checks first catch what they look for
printf '<!DOCTYPE html><p>x</p><script>console.log("a console message")</script>\n' >"$tmp/logs.html"
browse --dump-dom "file://$tmp/logs.html" >/dev/null 2>"$tmp/logs.err"
[ -n "$(console_of "$tmp/logs.err")" ] || fail "a page that logs shows nothing in the console log: the check is blind"
printf '<!DOCTYPE html><body style="background:#fff"></body>\n' >"$tmp/blank.html"
browse --window-size=320,200 --screenshot="$tmp/blank.png" "file://$tmp/blank.html" >/dev/null 2>&1
[ "$(python3 "$root/tests/report/png_colours.py" "$tmp/blank.png")" = 1 ] || fail "a blank page does not read as one colour"

# the sample's page
(cd "$tmp" && COINROW="$coinrow" sh "$root/tests/report/sample.sh" sample.db report.html) >"$tmp/sample.log" 2>&1 ||
    { cat "$tmp/sample.log" >&2; fail "the sample's report could not be made"; }
browse --dump-dom "file://$tmp/report.html" >"$tmp/dom.html" 2>"$tmp/dom.err"
if [ -n "$(console_of "$tmp/dom.err")" ]; then
    console_of "$tmp/dom.err" >&2
    fail "the page wrote to the browser's console"
fi
# what the rendered page must hold: label, then a fixed string
while IFS='|' read -r what text; do
    grep -qF -- "$text" "$tmp/dom.html" || fail "the rendered page lacks $what ($text)"
done <<'EOF'
the histogram of n|<figure id="n-histogram">
a bar of a chart|<rect class="bar"
the matrix|<table class="matrix" id="matrix">
an AC cell|<td class="cell v-AC"><b>AC</b>
a WA cell|<td class="cell v-WA"><b>WA</b>
a TLE cell|<td class="cell v-TLE"><b>TLE</b>
the instances|<dt>instances</dt><dd>14</dd>
the comparison's counts|<td class="same">the same answers</td><td class="num">14</td>
the winner split|first player wins: 13 (92.9 %)
greedy's strength|3 of 14 (21.4 %)
the summary row's verdicts|AC&nbsp;11</span> <span class="v-WA">WA&nbsp;3</span>
the time-by-n chart|<figure id="times-by-n">
EOF
[ "$(grep -o '<td class="cell ' "$tmp/dom.html" | wc -l)" -eq 42 ] || fail "the matrix does not have 14 tests by 3 invocations"

browse --window-size=1100,4500 --screenshot="$tmp/report.png" "file://$tmp/report.html" >/dev/null 2>"$tmp/shot.err"
colours=$(python3 "$root/tests/report/png_colours.py" "$tmp/report.png")
[ "$colours" -gt 8 ] || fail "the screenshot is blank ($colours colours)"
[ -z "$keep" ] || cp "$tmp/report.png" "$keep"

# a set without groups has no table of points; a set with groups has one,
# each invocation's points group by group and in all
! grep -qF 'id="points"' "$tmp/dom.html" || fail "the sample's page, a set without groups, has a table of points"
for call in "small --points 40 --n 1..10 --seed 1" "large --points 60 --depends small --n 30..40 --seed 2"; do
    # shellcheck disable=SC2086 # the call's words
    "$coinrow" generate --db "$tmp/groups.db" --set sub --group $call --count 3 --values 1..99 --quiet >/dev/null 2>&1 ||
        fail "the groups could not be made"
done
for builtin in greedy parity; do
    "$coinrow" invoke --db "$tmp/groups.db" --set sub --variant diff --builtin "$builtin" --quiet >/dev/null 2>&1 ||
        [ $? -eq 1 ] || fail "invoke --builtin $builtin failed"
done
"$coinrow" report --db "$tmp/groups.db" --set sub --out "$tmp/groups.html" >/dev/null
browse --dump-dom "file://$tmp/groups.html" >"$tmp/groups.dom" 2>"$tmp/groups.err"
[ -z "$(console_of "$tmp/groups.err")" ] || fail "the page of a set with groups wrote to the console"
grep -qF '<table class="matrix" id="points">' "$tmp/groups.dom" || fail "the page of a set with groups lacks its points"
grep -qF '<td>large <small>(3 tests; needs small)</small></td><td class="num">60</td>' "$tmp/groups.dom" ||
    fail "the table of points lacks the group large"
[ "$(grep -o '<td colspan="2">points in all</td>' "$tmp/groups.dom" | wc -l)" -eq 1 ] ||
    fail "the table of points lacks its total"

# names that are HTML and script show as text, and run nothing
evil='<script>console.log("ran")</script><img src=x onerror=alert(1)>'
sqlite3 "$tmp/sample.db" "UPDATE instance_set SET name = '$evil'; UPDATE run SET label = '$evil';
    UPDATE invocation SET label = '$evil' WHERE builtin = 'greedy'"
"$coinrow" report --db "$tmp/sample.db" --set "$evil" --out "$tmp/evil.html" >/dev/null
browse --dump-dom "file://$tmp/evil.html" >"$tmp/evil.dom" 2>"$tmp/evil.err"
[ -z "$(console_of "$tmp/evil.err")" ] || fail "a page of names with script wrote to the console"
! grep -q '<script\|<img' "$tmp/evil.dom" || fail "a name became an element"
grep -qF '&lt;script&gt;console.log("ran")&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;' "$tmp/evil.dom" ||
    fail "a name with HTML does not show as its text"

# a long label and a long program path wrap in the matrix's heads and the
# legend: a page 2,228 px wide in a window of 1,200 made its reader scroll
# sideways.  The page is measured in a frame of a page that runs a script
# (the report's own runs none), printed into the DOM.
long=$(printf 'label%.0s' $(seq 1 20))
sqlite3 "$tmp/sample.db" "UPDATE invocation SET label = '$long' WHERE builtin = 'greedy'"
"$coinrow" report --db "$tmp/sample.db" --set "$evil" --out "$tmp/long.html" >/dev/null
width_of() { # the width the page takes in a frame 1,200 px wide
    python3 - "$1" "$2" <<'PYEOF2'
import html, sys
page = open(sys.argv[1], encoding="utf-8").read()
with open(sys.argv[2], "w", encoding="utf-8") as out:
    out.write('<!DOCTYPE html><body style="margin:0"><iframe id="f" style="width:1200px;height:800px;border:0" '
              'srcdoc="' + html.escape(page, quote=True) + '"></iframe><pre id="width">none</pre><script>'
              'document.getElementById("f").onload = function () { document.getElementById("width").textContent = '
              'this.contentDocument.documentElement.scrollWidth; };</script>')
PYEOF2
    browse --virtual-time-budget=5000 --dump-dom "file://$2" 2>/dev/null | sed -n 's/.*<pre id="width">\([^<]*\)<.*/\1/p'
}
printf '<!DOCTYPE html><table><tr><td>%s</td></tr></table>\n' "$long$long$long" >"$tmp/wide.html"
[ "$(width_of "$tmp/wide.html" "$tmp/wide-frame.html")" -gt 1200 ] 2>/dev/null ||
    fail "a page wider than its frame does not measure so: the check is blind"
width=$(width_of "$tmp/long.html" "$tmp/long-frame.html")
[ "$width" -le 1200 ] 2>/dev/null || fail "a page with a long label is $width px wide in a frame of 1200"

echo "report in a browser: ok (the sample's page: charts, matrix and numbers rendered, console empty, screenshot of $colours+ colours; a set with groups: its points; names with script shown as text; a long label wraps: $width px in 1200)"

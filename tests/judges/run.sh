#!/bin/bash
# make test-judges: coinrow's exports judged by the judges' own tools, the
# copies in ../shared/judge-tools (or JUDGE_TOOLS=DIR); when they are absent
# (a user's plain clone) it says so and skips.
#   - Kattis: verifyproblem on a fresh export of every variant, with and
#     without lines, and of a winner set at the full int64 range: no error and
#     no warning, and each submission gets its folder's verdict, judged with
#     the package's own time limit (.timelimit); then programs judged by
#     coinrow invoke (C and Python, accepted, wrong, crashing, too slow) and
#     exported with --submissions beside coinrow's own: each gets the verdict
#     of the folder its label names; and an export under every licence, the
#     config and the statement checked; the interactive game exported under
#     every variant (--interactive), judged by its interactor against the
#     players export writes;
#   - Polygon: files/check.cpp and files/val.cpp built with testlib.h and run
#     on every test, on the greedy answers, on hostile bytes, with the result
#     file and -appes; then the package converted as Polygon2DOMjudge does
#     (p2d.py) and judged by verifyproblem with the checker: no judge error,
#     the solutions' verdicts as tagged; then with the invoked programs
#     (--submissions), each keeping its verdict through the conversion, the
#     run-time error (tagged rejected) under submissions/mixed/; and the
#     interactive game: files/interactor.cpp run against each player, its
#     tout through check.cpp, and converted as Polygon2DOMjudge does (its
#     interactor as Kattis' custom interactive validator), verifyproblem
#     giving each player its verdict;
#   - CMS: check/checker built (statically) by export and run as CMS runs it;
#     the interactive game, a Communication task (CMS's loader), its
#     check/manager run against the players as CMS runs it
#     (tests/judges/communication.sh); and under remaining and winner,
#     Polygon's interactor and CMS's manager accepting the reference on
#     every test;
#   - groups: a set of three groups exported to Kattis (verifyproblem: no
#     error, no warning, each submission's points), to Polygon (val.cpp run
#     with each test's --group; the Polygon2DOMjudge conversion judged) and
#     to CMS (loaded by CMS's own loader when ../shared/judge-tools has it).
# As root it installs PyPy3, which problemtools runs Python 3 with (the
# verifyproblem wrapper installs the TeX packages it renders statements with).
#   COINROW=build/coinrow   the binary under test;  JUDGES_KEEP=1 keeps the folder;
#   JUDGES_JOBS=N           verifyproblem runs at once (default: the cores)
set -eu

cd "$(dirname "$0")/../.."
ROOT=$(pwd)
COINROW=$ROOT/${COINROW:-build/coinrow}
TOOLS=${JUDGE_TOOLS:-../shared/judge-tools}
if [ ! -x "$TOOLS/verifyproblem" ] || [ ! -f "$TOOLS/testlib/testlib.h" ]; then
    echo "judges: skipped: no judge tools in $TOOLS (JUDGE_TOOLS=DIR names the folder with verifyproblem and testlib/)"
    exit 0
fi
TOOLS=$(cd "$TOOLS" && pwd)
JOBS=${JUDGES_JOBS:-$(nproc 2>/dev/null || echo 1)}
case $JOBS in
'' | *[!0-9]* | 0*) echo "judges: JUDGES_JOBS must be a whole number from 1, not '$JOBS'" >&2 && exit 2 ;;
esac

passed=0
failed=0
say() { printf 'judges: %s\n' "$*"; }
pass() { passed=$((passed + 1)); say "ok   $*"; }
fail() { failed=$((failed + 1)); say "FAIL $*"; }

if ! command -v pypy3 >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then
        say "installing pypy3"
        apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
            pypy3 >/dev/null
    else
        echo "judges: problemtools needs: sudo apt-get install -y --no-install-recommends pypy3" >&2
        exit 1
    fi
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/coinrow-judges-XXXXXX")
cleanup() { if [ "${JUDGES_KEEP:-0}" = 1 ]; then say "kept $WORK"; else rm -rf "$WORK"; fi; }
trap cleanup EXIT
cd "$WORK"
DB=$WORK/sets.db
start=$(date +%s)

# A set that catches both wrong submissions: antigreedy rows, where taking the
# larger end loses, and rows long enough (n >= 40) for 2^n to time out.
"$COINROW" generate --db "$DB" --set strong --count 12 --n 4..48 --even-n --values 1..1000 --seed 3 \
    --profile antigreedy --quiet
# Every coin MIN or MAX: only winner answers them all (a sign fits whatever the totals).
"$COINROW" generate --db "$DB" --set extreme --count 8 --n 1..8 \
    --values -9223372036854775808..9223372036854775807 --seed 5 --profile extreme --quiet

# The errors and the warnings in a verifyproblem log, in $errors and $warnings.
count() {
    errors=$(grep -c '^ERROR' "$1" || true)
    warnings=$(grep -c '^WARNING ' "$1" || true) # verifyproblem's own (plasTeX's say "WARNING:")
}

# verifyproblem on PKG into $WORK/PKG.log, in the background, with as many
# at once as there are cores (JUDGES_JOBS=N): each package's run is
# independent, and they are most of this script's time.  PKG.secs gets its
# time.  verifyproblem's options may follow PKG (-p PARTS).
verify_start() {
    local pkg=$1
    shift
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || true; done
    (
        t0=$(date +%s)
        "$TOOLS/verifyproblem" "$pkg" --fixed_timelim "$(cat "$pkg/.timelimit")" "$@" >"$WORK/$pkg.log" 2>&1 || true
        echo $(($(date +%s) - t0)) >"$WORK/$pkg.secs"
    ) &
}

# verifyproblem's report of PKG, once verify_start's run is done: errors,
# warnings and the submissions' verdicts; it passes with no error and no
# warning, the statement's HTML and PDF renderings included.
verify_report() {
    local pkg=$1 what=$2 log=$WORK/$1.log
    local verdicts
    count "$log"
    verdicts=$(sed -n 's/^ *\([A-Z]*\) submission \([a-z0-9_-]*\)\.[a-z]* (.*) OK[a-z ]*: \([A-Z]*\).*/\2 \1->\3/p' "$log" |
        tr '\n' ' ')
    if [ "$errors" = 0 ] && [ "$warnings" = 0 ] && grep -q "reference AC->AC" <<<"$verdicts"; then
        pass "kattis $what: verifyproblem: no error, no warning; $verdicts($(cat "$WORK/$pkg.secs") s)"
    else
        fail "kattis $what: verifyproblem: $errors errors, $warnings warnings; $verdicts (see $log)"
        grep -E '^(ERROR|WARNING) ' "$log" | head -5 | sed 's/^/judges:      /'
    fi
}

export_kattis() { # SET VARIANT MOVES PKG
    "$COINROW" export --db "$DB" --set "$1" --variant "$2" --moves "$3" --format kattis --out "$4" \
        --title "Coins in a row ($2)" --license "cc by-sa" --rights-owner "coinrow test" >/dev/null 2>"$4.err" ||
        { fail "export $4: $(cat "$4.err")"; return 1; }
}

# Every variant with and without lines, and the int64 range: exported, then
# judged side by side, then reported in this order.  The first runs alone:
# on a fresh machine the verifyproblem wrapper installs packages and builds
# its cache then.
verified=()
for variant in total diff remaining winner; do
    for moves in none canonical; do
        pkg=k${variant}$([ $moves = canonical ] && echo lines || echo value)
        export_kattis strong $variant $moves "$pkg" && verify_start "$pkg" && verified+=("$pkg:$variant, moves $moves")
        [ ${#verified[@]} = 1 ] && wait
    done
done
export_kattis extreme winner canonical kextreme && verify_start kextreme &&
    verified+=("kextreme:winner at the full int64 range, moves canonical")
wait
for job in "${verified[@]}"; do
    verify_report "${job%%:*}" "${job#*:}"
done
# ---- Kattis: the interactive game (export --interactive) ----
# A small set of antigreedy rows exported interactive: verifyproblem runs
# the interactor against each player (its own runner, support/interactive):
# no error, no warning, and the reference accepted, the never-flushing
# player out of time, the crashing one a run-time error, and each wrong
# player that export kept (a test's jury catches it) wrong.  The whole
# package under diff; the submissions alone under remaining and winner,
# whose optimal moves differ (total's are diff's), to keep within the
# time budget: each package compiles five submissions of coinrow's core.
"$COINROW" generate --db "$DB" --set play --count 6 --n 4..12 --even-n --values 1..100 --seed 3 \
    --profile antigreedy --quiet
interactive=()
for variant in diff remaining winner; do
    pkg=kplay$variant
    parts=()
    [ $variant = diff ] || parts=(-p submissions)
    "$COINROW" export --db "$DB" --set play --variant $variant --format kattis --out $pkg --interactive \
        --title "Coins in a row, played ($variant)" --license "cc by-sa" --rights-owner "coinrow test" \
        >/dev/null 2>"$pkg.err" && verify_start $pkg "${parts[@]}" && interactive+=("$pkg:$variant") ||
        fail "export --interactive $variant: $(cat "$pkg.err")"
done
wait
for job in "${interactive[@]}"; do
    pkg=${job%%:*}
    verify_report "$pkg" "interactive ${job#*:}"
    for sub in reference:AC unflushed:TLE crash:RTE $(cd $pkg/submissions/wrong_answer && ls | sed 's/\.c$/:WA/'); do
        grep -q "^ *[A-Z]* submission ${sub%%:*}\.c (C) OK: ${sub#*:}" "$WORK/$pkg.log" ||
            fail "kattis interactive ${job#*:}: ${sub%%:*}.c does not get ${sub#*:} (see $WORK/$pkg.log)"
    done
done
[ -f kplaydiff/submissions/wrong_answer/greedy.c ] && [ -f kplaydiff/submissions/wrong_answer/precomputed.c ] &&
    pass "kattis interactive diff: a test catches the greedy player and one the precomputed line" ||
    fail "kattis interactive diff: no test catches the greedy player or the precomputed line"

# Every licence, with what problemtools asks of it: a rights owner for each
# but the public domain, which may have none; export refuses the other way
# round (exit 2), writing nothing.  A title beyond ASCII, with LaTeX's
# special characters (but \ and $, which problemtools warns look like LaTeX
# whatever is done), goes through both renderings of the statement.
for license in "public domain" cc0 "cc by" "cc by-sa" educational permission; do
    owner=(--rights-owner "Jury & co")
    refused=()
    [ "$license" = "public domain" ] && refused=("${owner[@]}") && owner=()
    pkg=klicense$(tr -dc a-z0-9 <<<"$license")
    status=0
    "$COINROW" export --db "$DB" --set strong --variant diff --format kattis --out "$pkg" --license "$license" \
        "${refused[@]}" >/dev/null 2>&1 || status=$?
    [ $status = 2 ] && [ ! -e "$pkg" ] || fail "export --license '$license' ${refused[*]}: exit $status, not a refusal"
    if [ $status = 2 ] && "$COINROW" export --db "$DB" --set strong --variant diff --format kattis --out "$pkg" --license "$license" \
        "${owner[@]}" --title $'Pi\xc3\xa8ces & 100 % {~#_^}' >/dev/null 2>"$pkg.err"; then
        "$TOOLS/verifyproblem" "$pkg" -p config statement >"$pkg.log" 2>&1 || true
        count "$pkg.log"
        [ "$errors" = 0 ] && [ "$warnings" = 0 ] &&
            pass "kattis license '$license'${owner[*]:+ ${owner[*]}}: no error, no warning (${refused[*]:-no rights owner}: refused)" ||
            fail "kattis license '$license': $errors errors, $warnings warnings (see $WORK/$pkg.log)"
    elif [ $status = 2 ]; then
        fail "export --license '$license' ${owner[*]}: $(cat "$pkg.err")"
    fi
done
# without --license: unknown, which problemtools only warns about
"$COINROW" export --db "$DB" --set strong --variant diff --format kattis --out klicenseunknown >/dev/null 2>&1 &&
    "$TOOLS/verifyproblem" klicenseunknown -p config statement >klicenseunknown.log 2>&1 || true
count klicenseunknown.log
[ "$errors" = 0 ] && [ "$warnings" = 1 ] && grep -q "^WARNING License is 'unknown'" klicenseunknown.log &&
    pass "kattis without --license: no error, the one warning of license unknown" ||
    fail "kattis without --license: $errors errors, $warnings warnings (see $WORK/klicenseunknown.log)"

for pkg in kdiffvalue kwinnerlines; do
    [ -f "$pkg/submissions/wrong_answer/greedy.c" ] && [ -f "$pkg/submissions/time_limit_exceeded/brute_force.c" ] &&
        pass "kattis $pkg holds the wrong and the slow submission" || fail "kattis $pkg lacks a submission"
done

# ---- Kattis: programs judged by coinrow invoke, exported with --submissions ----
cat >lead.c <<'EOF'
#include <stdio.h>
/* the first player's lead: d[i][j] = max(a[i] - d[i+1][j], a[j] - d[i][j-1]) */
int main(void)
{
    static long long a[64], d[64][64];
    int n;
    if (scanf("%d", &n) != 1 || n < 1 || n > 64)
        return 1;
    for (int i = 0; i < n; i++)
        if (scanf("%lld", &a[i]) != 1)
            return 1;
    for (int len = 1; len <= n; len++)
        for (int i = 0, j = len - 1; j < n; i++, j++) {
            long long l = a[i] - (len > 1 ? d[i + 1][j] : 0), r = a[j] - (len > 1 ? d[i][j - 1] : 0);
            d[i][j] = l > r ? l : r;
        }
    printf("%lld\n", d[0][n - 1] + OFF);
    return 0;
}
EOF
sed 's/ + OFF//' lead.c >lead_ok.c
sed 's/ + OFF/ + 1/' lead.c >off_by_one.c
cat >lead.py <<'EOF'
n = int(input())
a = list(map(int, input().split()))
d = [[0] * n for _ in range(n)]
for length in range(1, n + 1):
    for i in range(n - length + 1):
        j = i + length - 1
        d[i][j] = a[i] if length == 1 else max(a[i] - d[i + 1][j], a[j] - d[i][j - 1])
print(d[0][n - 1])
EOF
printf '#include <stdlib.h>\nint main(void) { abort(); }\n' >crash.c
printf 'int main(void) { for (volatile int i = 0;; i++) ; }\n' >spin.c
invoked=0
# LABEL:VERDICT:SOURCE:TIME-LIMIT (the spinner's kept short: it spends all of it on every test)
for job in accepted:AC:lead_ok.c:1 accepted:AC:lead.py:1 wrong_answer:WA:off_by_one.c:1 \
    run_time_error:RE:crash.c:1 time_limit_exceeded:TLE:spin.c:0.1; do
    IFS=: read -r label verdict source limit <<<"$job"
    if "$COINROW" invoke --db "$DB" --set strong --variant diff --moves ignored --time-limit "$limit" --quiet \
        --label "$label" --expect "$verdict" -- "$source" >invoke.log 2>&1; then
        invoked=$((invoked + 1))
    else
        fail "invoke $source: not $verdict on every test: $(tail -3 invoke.log)"
    fi
done
[ $invoked = 5 ] && pass "invoke: each of the 5 programs gets its verdict on every test"
if "$COINROW" export --db "$DB" --set strong --variant diff --format kattis --out kinvoked --submissions \
    --title "Coins in a row" --license "cc by-sa" --rights-owner "coinrow test" >kinvoked.out 2>kinvoked.err &&
    grep -q "and 5 submissions to" kinvoked.out; then
    verify_start kinvoked
    wait
    verify_report kinvoked "diff with the 5 invoked programs"
    judged=$(grep -c '^ *[A-Z]* submission inv[0-9]*-[a-z_]*\.[a-z]* (.*) OK' "$WORK/kinvoked.log" || true)
    [ "$judged" = 5 ] && pass "kattis: the 5 invoked programs each get their folder's verdict" ||
        fail "kattis: $judged of the 5 invoked programs get their folder's verdict (see $WORK/kinvoked.log)"
else
    fail "export --submissions: $(cat kinvoked.out kinvoked.err)"
fi

# ---- Kattis: a problem scored by groups ----
# Three groups as olympiads set them: 20 points where brute force passes
# (n <= 20), 30 where the O(n^2) DP does, 50 for large n, each after the
# ones before.  coinrow's brute force is partially accepted with exactly
# the small group's 20 points, its greedy wrong in every group, and an
# invoked DP whose table holds 64 coins (labelled partially_accepted)
# passes small alone: 20 points.  A DP wrong on small's tests of 13 to 20
# coins (not the sample, of 12) scores nothing by invoke's points, which
# follow the dependencies, and AC (80) on Kattis, which scores each group
# alone: invoked twice, its partially_accepted copy goes in and its
# wrong_answer one is left out (it went in, and verifyproblem failed the
# package).  GDB is the database of the groups.
GDB=$WORK/groups.db
ggen() { "$COINROW" generate --db "$GDB" --set sub --profile antigreedy --quiet "$@"; }
ggen --group small --points 20 --count 4 --n 1..20 --values 1..1000 --seed 1 &&
    ggen --group mid --points 30 --depends small --count 3 --n 40..300 --values 1..1000 --seed 2 &&
    ggen --group big --points 50 --depends small,mid --count 2 --n 3000..5000 --values 1..1000000000 --seed 3 ||
    fail "generate --group"
cp lead_ok.c lead64.c # its table holds 64 coins: a run-time error beyond
"$COINROW" invoke --db "$GDB" --set sub --variant diff --moves ignored --time-limit 1 --quiet \
    --label partially_accepted -- lead64.c >invoke.log 2>&1 || true
cat >wrong_small.c <<'EOF'
#include <stdio.h>
#include <stdlib.h>
/* the lead, one row of the DP at a time; one more for 13 to 20 coins */
int main(void)
{
    int n;
    if (scanf("%d", &n) != 1 || n < 1)
        return 1;
    long long *a = malloc(n * sizeof *a), *d = malloc(n * sizeof *d);
    for (int i = 0; i < n; i++)
        if (scanf("%lld", &a[i]) != 1)
            return 1;
    for (int i = n - 1; i >= 0; i--) {
        d[i] = a[i];
        for (int j = i + 1; j < n; j++) {
            long long l = a[i] - d[j], r = a[j] - d[j - 1];
            d[j] = l > r ? l : r;
        }
    }
    printf("%lld\n", d[n - 1] + (n >= 13 && n <= 20));
    return 0;
}
EOF
for label in wrong_answer partially_accepted; do
    "$COINROW" invoke --db "$GDB" --set sub --variant diff --moves ignored --time-limit 1 --quiet \
        --label $label -- wrong_small.c >invoke.log 2>&1 || true
done
if "$COINROW" export --db "$GDB" --set sub --variant diff --format kattis --out kgroups --samples 1 --submissions \
    --title "Coins in groups" --license "cc by-sa" --rights-owner "coinrow test" >kgroups.out 2>&1; then
    verify_start kgroups
    wait
    log=$WORK/kgroups.log
    count "$log"
    table=$(sed -n '/^Submission results:/,/tested:/p' "$log")
    pts() { awk -v s="$1" '$1 ~ "^"s {print $(NF-1)}' <<<"$table"; }
    if [ "$errors" = 0 ] && [ "$warnings" = 0 ] && [ "$(pts reference)" = 100 ] && [ "$(pts brute_force)" = 20 ] &&
        [ "$(pts greedy)" = 0 ] && [ "$(pts 'inv[0-9]*-lead64')" = 20 ] &&
        grep -q '^ *PAC submission inv[0-9]*-lead64.c (C) OK: AC (20)' "$log" &&
        [ "$(pts 'inv[0-9]*-wrong_small')" = 80 ] &&
        grep -q '^ *PAC submission inv[0-9]*-wrong_small.c (C) OK: AC (80)' "$log" &&
        ! ls kgroups/submissions/wrong_answer/inv* >/dev/null 2>&1 &&
        grep -q "(label wrong_answer): a judge that scores each group alone gives it AC with 80 of 100 points" \
            kgroups.out; then
        pass "kattis scored by groups: verifyproblem: no error, no warning; points: reference 100, brute_force 20," \
            "greedy 0, the invoked 64-coin DP 20 and the DP wrong on small 80 (partially_accepted; its" \
            "wrong_answer twin left out)"
    else
        fail "kattis scored by groups: $errors errors, $warnings warnings (see $log)"
        grep -E '^(ERROR|WARNING) ' "$log" | head -5 | sed 's/^/judges:      /'
    fi
    sed 's/^/judges:      /' <<<"$table"
else
    fail "export kattis of groups: $(cat kgroups.out)"
fi

# ---- Polygon: the testlib programs, then the Polygon2DOMjudge conversion ----
"$COINROW" export --db "$DB" --set strong --variant diff --moves canonical --format polygon --out poly \
    --title "Coins in a row" >/dev/null 2>&1 || fail "export polygon"
mkdir -p build
cp poly/files/check.cpp poly/files/val.cpp build/
cp "$TOOLS/testlib/testlib.h" build/ # the tool's own copy, not the one shipped
if g++ -O2 -o build/check build/check.cpp 2>build/cc.err && g++ -O2 -o build/val build/val.cpp 2>>build/cc.err; then
    pass "files/check.cpp and files/val.cpp build with testlib.h"
else
    fail "testlib programs do not build: $(head -3 build/cc.err)"
fi
cc -O2 -o build/greedy poly/solutions/greedy.c
bad=0
caught=0
for t in poly/tests/[0-9][0-9]; do
    build/val <"$t" 2>/dev/null || bad=1
    build/check "$t" "$t.a" "$t.a" 2>/dev/null || bad=1
    build/greedy <"$t" >greedy.out
    build/check "$t" greedy.out "$t.a" 2>/dev/null || caught=$((caught + 1))
done
[ $bad = 0 ] && pass "val.cpp accepts every test, check.cpp every jury answer" || fail "a test or its answer is refused"
[ $caught -gt 0 ] && pass "check.cpp rejects the greedy answer on $caught tests" || fail "check.cpp accepts every greedy answer"
t=poly/tests/01
expect() { # STATUS WHAT OUTPUT-BYTES
    printf "$3" >hostile.out
    local got=0 mine=0
    build/check "$t" hostile.out "$t.a" 2>check.err || got=$?
    "$COINROW" check --variant diff "$t" hostile.out "$t.a" 2>coinrow.err || mine=$?
    if [ "$got" = "$1" ] && [ "$mine" = "$1" ] && LC_ALL=C grep -q '^[[:print:]]*$' check.err; then
        pass "check.cpp and coinrow check: $2 (exit $got; $(head -c 90 check.err))"
    else
        fail "$2: check.cpp exit $got, coinrow check $mine: $(cat check.err)"
    fi
}
expect 2 "a '+' sign is a presentation error" '+7\nLR\n'
expect 2 "a value beyond int64 is a presentation error" '99999999999999999999\n'
expect 2 "hostile bytes, shown escaped" '\xc2\xa0\x1b[2J\xff\n'
expect 1 "a move that is not L or R, shown escaped" "$(head -1 "$t.a")\\n\\xc3\\xa9\\n"
# testlib skips a BOM of the output, and coinrow's core one: two were none
expect 0 "one BOM before the answer is skipped" "\\xef\\xbb\\xbf$(head -1 "$t.a")\\n$(sed -n 2p "$t.a")\\n"
expect 2 "a second BOM is a presentation error" "\\xef\\xbb\\xbf\\xef\\xbb\\xbf$(head -1 "$t.a")\\n$(sed -n 2p "$t.a")\\n"
build/check "$t" "$t.a" "$t.a" result.txt -appes 2>/dev/null && grep -q '<result outcome = "accepted">' result.txt &&
    pass "check.cpp writes the result file, as XML with -appes" || fail "check.cpp ignores the result file or -appes"
printf '1\n\xff\n' | build/val 2>/dev/null && fail "val.cpp accepts a 0xFF byte" || pass "val.cpp refuses a 0xFF byte"

python3 "$ROOT/tests/judges/p2d.py" poly "$TOOLS/testlib/testlib.h" pconv
"$TOOLS/verifyproblem" pconv --fixed_timelim "$(awk '{print $3}' pconv/domjudge-problem.ini)" -p submissions \
    >pconv.log 2>&1 || true
verdicts=$(sed -n 's/^ *\([A-Z]*\) submission \([a-z_]*\)\.c (C) OK[a-z ]*: \([A-Z]*\).*/\2 \1->\3/p' pconv.log | tr '\n' ' ')
if grep -q 'tested: 0 errors' pconv.log && ! grep -q 'exited with status' pconv.log &&
    grep -q 'reference AC->AC' <<<"$verdicts"; then
    pass "Polygon2DOMjudge's conversion judges with check.cpp, no judge error: $verdicts"
else
    fail "the converted package: $(grep -E '^(ERROR|WARNING) ' pconv.log | head -3)"
fi

# The invoked programs through the conversion.  Polygon has no tag for a run
# error: the crashing one goes in tagged rejected (any verdict but
# accepted), which Polygon2DOMjudge files under submissions/mixed/ with the
# verdicts DOMjudge is to expect named in the source; it must be among them
# when judged as DOMjudge judges, the first failing test deciding.  The
# others have a tag of one verdict each, which verifyproblem checks.
if "$COINROW" export --db "$DB" --set strong --variant diff --format polygon --out psub --submissions \
    --title "Coins in a row" >psub.out 2>&1 && grep -q "and 5 submissions to" psub.out; then
    python3 "$ROOT/tests/judges/p2d.py" psub "$TOOLS/testlib/testlib.h" psubconv
    "$TOOLS/verifyproblem" psubconv --fixed_timelim "$(awk '{print $3}' psubconv/domjudge-problem.ini)" \
        -p submissions >psubconv.log 2>&1 || true
    count psubconv.log
    judged=$(grep -c '^ *[A-Z]* submission inv[0-9]*-[a-z_]*\.[a-z]* (.*) OK' psubconv.log || true)
    [ "$errors" = 0 ] && [ "$warnings" = 0 ] && [ "$judged" = 4 ] &&
        pass "Polygon2DOMjudge's conversion: the 4 invoked programs tagged with one verdict each get it" ||
        fail "the converted package with submissions: $errors errors, $warnings warnings, $judged of 4 verdicts" \
            "(see $WORK/psubconv.log)"
    crash=$(ls psubconv/submissions/mixed/inv*-crash.c 2>/dev/null || true)
    expected=$(sed -n 's|^// @EXPECTED_RESULTS@: ||p' "${crash:-/dev/null}")
    got=CORRECT
    if [ -n "$crash" ] && gcc -O2 -o build/crash "$crash"; then
        for t in psubconv/data/sample/*.in psubconv/data/secret/*.in; do
            { build/crash <"$t" >/dev/null 2>&1; } 2>/dev/null || { got=RUN-ERROR; break; } # (bash's "Aborted" too)
        done
    fi
    grep -q 'tag="rejected"' psub/problem.xml && [[ ", $expected, " == *", $got, "* ]] &&
        pass "the run-time error, tagged rejected, converted: DOMjudge expects $expected, gets $got" ||
        fail "the run-time error through the conversion: expected '$expected', got $got (${crash:-not in mixed/})"
else
    fail "export polygon --submissions: $(cat psub.out)"
fi

# ---- Polygon: the problem scored by groups ----
# problem.xml gives each test its group; val.cpp takes Polygon's --group and
# checks that group's constraints; Polygon2DOMjudge's conversion is
# pass-fail (DOMjudge drops the groups and their points): it still judges.
if "$COINROW" export --db "$GDB" --set sub --variant diff --format polygon --out pgroups --samples 1 --submissions \
    --title "Coins in groups" >pgroups.out 2>&1; then
    cp pgroups/files/val.cpp build/val_groups.cpp
    if g++ -O2 -o build/val_groups build/val_groups.cpp 2>build/cc.err; then
        bad=0
        k=0
        for group in $(sed -n 's/.*<test [^>]*group="\([A-Za-z0-9_]*\)".*/\1/p' pgroups/problem.xml); do
            k=$((k + 1))
            t=$(printf 'pgroups/tests/%02d' $k)
            build/val_groups --group "$group" <"$t" 2>/dev/null || bad=1
        done
        refused=0
        build/val_groups --group small <"$t" 2>/dev/null || refused=1
        [ $bad = 0 ] && [ $refused = 1 ] && [ $k = 9 ] &&
            pass "polygon groups: val.cpp takes each of the 9 tests with its --group, and refuses a big one as small" ||
            fail "polygon groups: val.cpp refuses a test of its group, or takes a big one as small ($k tests)"
    else
        fail "val.cpp of groups does not build: $(head -3 build/cc.err)"
    fi
    python3 "$ROOT/tests/judges/p2d.py" pgroups "$TOOLS/testlib/testlib.h" pgconv
    "$TOOLS/verifyproblem" pgconv --fixed_timelim "$(awk '{print $3}' pgconv/domjudge-problem.ini)" -p submissions \
        >pgconv.log 2>&1 || true
    count pgconv.log
    verdicts=$(sed -n 's/^ *\([A-Z]*\) submission \([a-z_]*\)\.c (C) OK[a-z ]*: \([A-Z]*\).*/\2 \1->\3/p' pgconv.log | tr '\n' ' ')
    [ "$errors" = 0 ] && [ "$warnings" = 0 ] && grep -q 'reference AC->AC' <<<"$verdicts" &&
        pass "Polygon2DOMjudge's conversion of the groups (pass-fail): no error, no warning: $verdicts" ||
        fail "the converted package of groups: $errors errors, $warnings warnings (see $WORK/pgconv.log)"
else
    fail "export polygon of groups: $(cat pgroups.out)"
fi

# ---- Polygon: the interactive game (export --interactive) ----
# The play set exported for Polygon: files/interactor.cpp, files/check.cpp
# (the checker of its tout) and files/val.cpp built with testlib.h; val.cpp
# takes every test (the seed's line too); the interactor plays each player
# as Polygon runs it (interactor INPUT TOUT ANSWER, joined to the player by
# two FIFOs), each getting testlib's verdict: the reference _ok (0) on every
# test, the greedy player and the precomputed line _wa (1) on the tests that
# catch them, the crashing player _wa (1), its output ended; check.cpp
# reports each tout with the interactor's exit status.  The player that
# never flushes waits for the judge's clock: verifyproblem's, below.  Then
# the package converted as Polygon2DOMjudge does (the interactor as Kattis'
# custom interactive validator) and judged by verifyproblem.
if "$COINROW" export --db "$DB" --set play --variant diff --format polygon --out pplay --interactive \
    --title "Coins in a row, played" >/dev/null 2>pplay.err; then
    mkdir -p build/play
    cp pplay/files/interactor.cpp pplay/files/check.cpp pplay/files/val.cpp build/play/
    cp "$TOOLS/testlib/testlib.h" build/play/
    built=1
    for program in interactor check val; do
        g++ -O2 -o build/play/$program build/play/$program.cpp 2>build/play/cc.err || built=0
    done
    for player in reference greedy precomputed crash; do
        cc -O2 -o build/play/$player pplay/solutions/$player.c 2>>build/play/cc.err || built=0
    done
    if [ $built = 1 ]; then
        pass "polygon interactive: interactor.cpp, check.cpp and val.cpp build with testlib.h, the players with cc"
        mkfifo build/play/to_player build/play/to_jury
        # the interactor's exit status on test $1 against player $2, check.cpp's on its tout after it
        game() {
            build/play/$2 <build/play/to_player >build/play/to_jury &
            local player=$! jury=0
            build/play/interactor "$1" build/play/tout "$1.a" >build/play/to_player <build/play/to_jury \
                2>build/play/jury.err || jury=$?
            wait $player 2>/dev/null || true
            local checked=0
            build/play/check "$1" build/play/tout "$1.a" 2>/dev/null || checked=$?
            echo "$jury $checked"
        }
        refused=0
        declare -A statuses=()
        for t in pplay/tests/[0-9][0-9]; do
            build/play/val <"$t" 2>/dev/null || refused=$((refused + 1))
            for player in reference greedy precomputed crash; do
                read -r jury checked < <(game "$t" $player)
                [ "$jury" = "$checked" ] || fail "polygon interactive: check.cpp exits $checked on $player's tout" \
                    "of $t, the interactor $jury ($(cat build/play/tout))"
                statuses[$player]="${statuses[$player]:-}$jury"
            done
        done
        [ $refused = 0 ] && pass "polygon interactive: val.cpp takes every test, the seed's line too" ||
            fail "polygon interactive: val.cpp refuses $refused tests"
        say "     the interactor's exit status on each test: reference ${statuses[reference]}, greedy" \
            "${statuses[greedy]}, precomputed ${statuses[precomputed]}, crash ${statuses[crash]}"
        [[ ${statuses[reference]} =~ ^0+$ ]] && [[ ${statuses[greedy]} =~ 1 ]] && [[ ! ${statuses[greedy]} =~ [^01] ]] &&
            [[ ${statuses[precomputed]} =~ 1 ]] && [[ ! ${statuses[precomputed]} =~ [^01] ]] &&
            [[ ${statuses[crash]} =~ ^1+$ ]] &&
            pass "polygon interactive: the reference _ok on every test; greedy, precomputed and crash _wa where" \
                "caught; check.cpp the same on each tout" ||
            fail "polygon interactive: the players' verdicts are not the expected ones"
    else
        fail "polygon interactive: the programs do not build: $(head -3 build/play/cc.err)"
    fi
    python3 "$ROOT/tests/judges/p2d.py" pplay "$TOOLS/testlib/testlib.h" pplayconv
    "$TOOLS/verifyproblem" pplayconv --fixed_timelim "$(awk '{print $3}' pplayconv/domjudge-problem.ini)" \
        -p submissions >pplayconv.log 2>&1 || true
    count pplayconv.log
    verdicts=$(sed -n 's/^ *\([A-Z]*\) submission \([a-z_]*\)\.c (C) OK[a-z ]*: \([A-Z]*\).*/\2 \1->\3/p' pplayconv.log |
        tr '\n' ' ')
    [ "$errors" = 0 ] && [ "$warnings" = 0 ] && grep -q 'reference AC->AC' <<<"$verdicts" &&
        grep -q 'greedy WA->WA' <<<"$verdicts" && grep -q 'precomputed WA->WA' <<<"$verdicts" &&
        grep -q 'unflushed TLE->TLE' <<<"$verdicts" && grep -q 'validation: custom interactive' pplayconv/problem.yaml &&
        pass "Polygon2DOMjudge's conversion of the interactive package (its interactor as Kattis'): no error," \
            "no warning: $verdicts" ||
        fail "the converted interactive package: $errors errors, $warnings warnings; $verdicts (see $WORK/pplayconv.log)"
else
    fail "export polygon --interactive: $(cat pplay.err)"
fi

# ---- CMS: the built checker, as CMS runs it ----
"$COINROW" export --db "$DB" --set strong --variant winner --format cms --out cmspkg >/dev/null 2>&1 || fail "export cms"
if [ -x cmspkg/check/checker ] && ! ldd cmspkg/check/checker >/dev/null 2>&1; then
    pass "cms check/checker is built and statically linked"
else
    fail "cms check/checker is missing or dynamically linked"
fi
out=$(cmspkg/check/checker cmspkg/input/input1.txt cmspkg/output/output1.txt cmspkg/output/output1.txt 2>cms.err)
[ "$out" = 1.0 ] && [ "$(cat cms.err)" = translate:success ] && pass "cms checker: 1.0 and translate:success" ||
    fail "cms checker said '$out' / '$(cat cms.err)'"
printf '7\xc2\n' >cms.out
out=$(cmspkg/check/checker cmspkg/input/input1.txt cmspkg/output/output1.txt cms.out 2>cms.err)
[ "$out" = 0.0 ] && [ "$(wc -l <cms.err)" = 1 ] && LC_ALL=C grep -q '^[[:print:]]*$' cms.err &&
    pass "cms checker: 0.0 and one line of ASCII ($(cat cms.err))" || fail "cms checker said '$out' / '$(cat cms.err)'"

# ---- CMS: the problem scored by groups, through CMS's own loader ----
# task.yaml's GroupMin: each group's points and a regex of its tests'
# codenames; the loader (italy_yaml) must take it, and each codename must
# fall in exactly one group.
if [ -f "$TOOLS/cms-loader/run_loader.py" ]; then
    if "$COINROW" export --db "$GDB" --set sub --variant diff --format cms --out cmsgroups --samples 1 \
        >cmsgroups.out 2>&1 && python3 "$TOOLS/cms-loader/run_loader.py" cmsgroups nostatement >cmsloader.log 2>&1; then
        sed -n "s/^dataset: .*\('score_type': .*\]\]\).*/judges:      \1/p; s/^testcases: /judges:      testcases: /p" cmsloader.log
        python3 - cmsloader.log <<'PY' && pass "cms GroupMin: CMS's loader takes the groups, each test in one of them" ||
import ast, re, sys
log = open(sys.argv[1]).read()
found = re.search(r"^dataset: .*'score_type': 'GroupMin', 'score_type_parameters': (\[\[.*?\]\])", log, re.M)
count = int(re.search(r"^testcases: (\d+)", log, re.M).group(1))
groups = ast.literal_eval(found.group(1))
assert [p for p, _ in groups] == [20, 30, 50], groups
for k in range(count):
    assert sum(bool(re.fullmatch(r, "%03d" % k)) for _, r in groups) == 1, k
PY
            fail "cms GroupMin: the loader's groups are not the set's (see $WORK/cmsloader.log)"
    else
        fail "cms groups: $(cat cmsgroups.out cmsloader.log 2>/dev/null | grep -v '^INFO' | head -3)"
    fi
else
    say "skipped: CMS's loader (no $TOOLS/cms-loader/run_loader.py)"
fi

# ---- CMS: the interactive game, a Communication task ----
# The antigreedy set exported --interactive to CMS: its own loader takes a
# Communication task (one process, no stub, standard input and output)
# with check/manager, and the manager, run against each player of sol/ as
# CMS runs them (tests/judges/communication.sh: the FIFOs, the opening
# order, the wall clock), scores the reference 1.0 on every test and
# every other player 0.0 on some test: greedy and precomputed by the
# jury's word, crash by its exit, unflushed by the wall clock (on one test).
if "$COINROW" export --db "$DB" --set play --variant diff --format cms --out cmsplay --interactive \
    >cmsplay.out 2>&1; then
    if [ -f "$TOOLS/cms-loader/run_loader.py" ]; then
        python3 "$TOOLS/cms-loader/run_loader.py" cmsplay nostatement >cmsplayloader.log 2>&1
        sed -n "s/^dataset: .*\('managers': {'manager'.*\)/judges:      \1/p" cmsplayloader.log
        grep -q "'managers': {'manager': Manager.*'task_type': 'Communication', 'task_type_parameters': \[1, 'alone', 'std_io'\]" \
            cmsplayloader.log && ! grep -q checker cmsplayloader.log &&
            pass "cms interactive: CMS's loader takes a Communication task with check/manager, [1, 'alone', 'std_io']" ||
            fail "cms interactive: the loader's task is not a Communication task (see $WORK/cmsplayloader.log)"
    else
        say "skipped: CMS's loader (no $TOOLS/cms-loader/run_loader.py)"
    fi
    [ -x cmsplay/check/manager ] && ! ldd cmsplay/check/manager >/dev/null 2>&1 &&
        pass "cms interactive: check/manager is built and statically linked" ||
        fail "cms interactive: check/manager is missing or dynamically linked"
    mkdir -p build
    for player in $(cd cmsplay/sol && ls | sed 's/\.c$//'); do
        cc -O2 -o build/$player cmsplay/sol/$player.c 2>build/cc.err || fail "sol/$player.c does not build: $(head -3 build/cc.err)"
    done
    for player in $(cd cmsplay/sol && ls | sed 's/\.c$//'); do
        scores= why=
        for input in cmsplay/input/input*.txt; do
            [ $player = unflushed ] && [ $input != cmsplay/input/input0.txt ] && continue
            score=$(bash "$ROOT/tests/judges/communication.sh" cmsplay/check/manager $input 2 build/$player 2>/dev/null) ||
                fail "cms interactive: $player on $input: $score"
            scores="$scores $(head -n 1 <<<"$score")"
            [ "$(head -n 1 <<<"$score")" = 1.0 ] || why=$(tail -n 1 <<<"$score")
        done
        if [ $player = reference ]; then
            [ -z "$why" ] && pass "cms interactive: reference.c scores$scores" ||
                fail "cms interactive: reference.c scores$scores ($why)"
        else
            [[ "$scores " == *" 0.0 "* ]] && pass "cms interactive: $player.c scores$scores ($why)" ||
                fail "cms interactive: $player.c scores$scores"
        fi
    done
else
    fail "export cms --interactive: $(cat cmsplay.out)"
fi

# ---- Polygon and CMS: the reference passes every variant ----
# diff's packages are judged above, and total's optimal moves are diff's.
# Under remaining and winner, whose optimal moves differ, each format's jury
# (Polygon's interactor, built with testlib.h; CMS's manager, built by
# export) plays the reference on every test: _ok, and 1.0, on each.
for variant in remaining winner; do
    dir=build/v$variant statuses= scores=
    mkdir -p $dir
    if "$COINROW" export --db "$DB" --set play --variant $variant --format polygon --out pplay$variant --interactive \
        >/dev/null 2>$dir.err &&
        "$COINROW" export --db "$DB" --set play --variant $variant --format cms --out cmsplay$variant --interactive \
            >/dev/null 2>>$dir.err &&
        cp pplay$variant/files/interactor.cpp "$TOOLS/testlib/testlib.h" $dir/ &&
        g++ -O2 -o $dir/interactor $dir/interactor.cpp 2>>$dir.err &&
        cc -O2 -o $dir/reference pplay$variant/solutions/reference.c 2>>$dir.err &&
        mkfifo $dir/to_player $dir/to_jury; then
        for t in pplay$variant/tests/[0-9][0-9]; do
            $dir/reference <$dir/to_player >$dir/to_jury &
            status=0
            $dir/interactor "$t" $dir/tout "$t.a" >$dir/to_player <$dir/to_jury 2>/dev/null || status=$?
            wait $! 2>/dev/null || true
            statuses="$statuses$status"
        done
        for input in cmsplay$variant/input/input*.txt; do
            score=$(bash "$ROOT/tests/judges/communication.sh" cmsplay$variant/check/manager $input 2 $dir/reference \
                2>/dev/null) || true
            scores="$scores $(head -n 1 <<<"$score")"
        done
        [[ $statuses =~ ^0+$ ]] && [[ ! "$scores " =~ \ [^1] ]] &&
            pass "polygon and cms interactive $variant: the reference _ok on every test ($statuses), and$scores" ||
            fail "polygon and cms interactive $variant: the reference's statuses $statuses, scores$scores"
    else
        fail "polygon and cms interactive $variant: $(head -3 $dir.err)"
    fi
done

say "$passed passed, $failed failed, $(($(date +%s) - start)) s"
[ $failed = 0 ]

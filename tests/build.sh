#!/bin/sh
# The build's promises, from outside, as a user meets them:
#   - a user's CFLAGS (and LDLIBS) add to the flags the code needs, never
#     replace them;
#   - `make` and `make all` install no package;
#   - `make` fails on a planted include that points up the layers, on a
#     planted include of another folder's private header and on two planted
#     files that call each other, each named in its message;
#   - `make install` into a temporary DESTDIR gives a core that a small C
#     program builds against with `pkg-config --cflags --libs coinrow` alone,
#     the man page and a bash completion that completes, and `make
#     uninstall` takes it all back;
#   - on a machine without libcsv-dev, plain `make` names the command and
#     installs nothing, `make demo` as a user prints the command, and as root
#     installs the package, builds and runs the demo;
#   - a failing test names itself: scripts/run-test.sh, which `make test`
#     runs each test program with, lists a planted program's failing test,
#     with its file, and the test it was running when a signal killed it.
# Run by `make test` from the repository (MAKE, CC and SANITIZE from it).
set -eu
cd "$(dirname "$0")/.."
make=${MAKE:-make}
failed=0
fail() {
    echo "build: $*" >&2
    failed=1
}

# What make would run, without running it.
dry() { $make -s --no-print-directory -n -B SANITIZE= "$@" 2>/dev/null; }

compile=$(dry CFLAGS=-O0 build/src/core/rng.o | grep -e 'src/core/rng\.c' || true)
for flag in -O0 -std=c11 -Wall -Wformat=2 -pthread -MMD; do
    case " $compile " in
    *" $flag "*) ;;
    *) fail "make CFLAGS=-O0 compiles without $flag: $compile" ;;
    esac
done
link=$(dry LDLIBS=-lm build/coinrow | grep -e '-o build/coinrow' || true)
for flag in -lm -lsqlite3 -lcsv; do
    case " $link " in
    *" $flag "*) ;;
    *) fail "make LDLIBS=-lm links without $flag: $link" ;;
    esac
done
if dry all | grep -q -e 'apt-get' -e 'deps.sh install'; then
    fail "make all would install packages"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A planted test program, in a tree of its own: one test passes, one fails,
# and one kills the program when PLANT_KILL is set.
mkdir -p "$tmp/plant/tests" "$tmp/plant/build"
cp scripts/run-test.sh "$tmp/plant/"
cat >"$tmp/plant/tests/test_plant.c" <<'EOF'
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
static void test_plant__passes(void **state) { (void)state; }
static void test_plant__fails(void **state) { (void)state; assert_int_equal(1, 2); }
static void test_plant__is_killed(void **state) { (void)state; if (getenv("PLANT_KILL")) raise(SIGKILL); }
int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_plant__passes), cmocka_unit_test(test_plant__fails),
                                       cmocka_unit_test(test_plant__is_killed)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
EOF
if ${CC:-cc} "$tmp/plant/tests/test_plant.c" -lcmocka -o "$tmp/plant/build/test_plant" 2>"$tmp/cc.log"; then
    (
        cd "$tmp/plant"
        sh run-test.sh list build/test_plant >/dev/null || PLANT_KILL=1 sh run-test.sh list build/test_plant >/dev/null
    ) && fail "scripts/run-test.sh passes a failing test program"
    expected='FAILED tests/test_plant.c: test_plant__fails
FAILED tests/test_plant.c: test_plant__fails
FAILED tests/test_plant.c: killed by SIGKILL in test_plant__is_killed'
    [ "$(cat "$tmp/plant/list")" = "$expected" ] ||
        fail "scripts/run-test.sh listed '$(cat "$tmp/plant/list")', not '$expected'"
else
    cat "$tmp/cc.log" >&2
    fail "the planted test program does not build"
fi

if [ -n "${SANITIZE:-}" ]; then
    echo "build: install and make demo skipped under SANITIZE=$SANITIZE (the plain build runs them)"
    exit $failed
fi

# The tree's rules, on a copy of the tree and of its build (so that only
# what is planted is compiled): each plant alone makes `make check` fail,
# saying what it found, and the copy passes once it is taken out.
# copy_sources DEST: the tree of the current folder into DEST: git's files
# where there is a .git; in a tree without one (a release tarball, a `git
# archive`, a forge's zip) every file but the build.
copy_sources() {
    mkdir -p "$1"
    if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        git ls-files -z --cached --others --exclude-standard | xargs -0 -r cp -a --parents -t "$1"
    else
        tar -c --exclude=./build . | tar -x -C "$1"
    fi
}
tree=$tmp/tree
copy_sources "$tree"
# a tree without .git (the copy has none) copies as well: the suite runs
# from a release tarball
if ! (cd "$tree" && GIT_CEILING_DIRECTORIES=$tmp copy_sources "$tmp/untracked") 2>"$tmp/untracked.log" ||
    [ ! -f "$tmp/untracked/Makefile" ] || [ ! -f "$tmp/untracked/src/core/game.c" ] || [ -e "$tmp/untracked/.git" ]; then
    cat "$tmp/untracked.log" >&2
    fail "a tree without .git is not copied whole for the planted-rule checks"
fi
rm -rf "$tmp/untracked"
cp -a build "$tree/"
rm -rf "$tree/build/san" "$tree/build/tsan" "$tree/build/cov" "$tree/build/fuzz"
check_tree() { $make -s --no-print-directory -C "$tree" check >"$tmp/check.log" 2>&1; }
planted() { # WHAT EXPECTED: make check fails, with EXPECTED in its output
    if check_tree; then
        fail "make passes with $1 planted"
    elif ! grep -q -e "$2" "$tmp/check.log"; then
        cat "$tmp/check.log" >&2
        fail "make fails with $1 planted, but does not say '$2'"
    fi
}
check_tree || { cat "$tmp/check.log" >&2; fail "make check fails on the copy of the tree"; }
cp "$tree/src/store/check.c" "$tmp/saved.c"
printf '#include "export/export.h"\n' >>"$tree/src/store/check.c"
planted "an upward include" 'src/store/check.c (store) includes "export/export.h" (export): up'
cp "$tmp/saved.c" "$tree/src/store/check.c"
cp "$tree/src/batch/shards.c" "$tmp/saved.c"
printf '#include "store/sql.h"\n' >>"$tree/src/batch/shards.c"
planted "a private header's include" 'src/batch/shards.c includes "store/sql.h", private to src/store/'
cp "$tmp/saved.c" "$tree/src/batch/shards.c"
printf 'int cr_util__planted_a(int n);\nint cr_util__planted_b(int n);\nint cr_util__planted_a(int n) { return n ? cr_util__planted_b(n - 1) : 0; }\n' \
    >"$tree/src/util/planted_a.c"
printf 'int cr_util__planted_a(int n);\nint cr_util__planted_b(int n);\nint cr_util__planted_b(int n) { return n ? cr_util__planted_a(n - 1) : 1; }\n' \
    >"$tree/src/util/planted_b.c"
planted "two files that call each other" 'src/util/planted_a.c and src/util/planted_b.c call each other'
rm "$tree/src/util/planted_a.c" "$tree/src/util/planted_b.c"
check_tree || { cat "$tmp/check.log" >&2; fail "make check fails on the copy once the plants are out"; }
rm -rf "$tree"

# A machine without libcsv-dev, for real but for this test alone: in a
# private mount namespace an overlay whiteout hides csv.h from deps.sh's
# probe and from the compiler alike, and a fake apt-get first on PATH
# records its calls; installing libcsv-dev lifts the overlay, as the real
# package would put the header there.  Each make starts as a user's shell
# does (no MAKEFLAGS) and builds into a fresh folder, so that nothing built
# before hides a build that runs ahead of the install.
fresh=$tmp/fresh
mkdir -p "$fresh/bin" "$fresh/mask"
cat >"$fresh/bin/apt-get" <<'EOF'
#!/bin/sh
echo "apt-get $*" >>"$FRESH/apt-get.log"
case " $* " in *" install "*" libcsv-dev "*) umount /usr/include ;; esac
EOF
cat >"$fresh/run.sh" <<'EOF'
mount -t tmpfs tmpfs "$FRESH/mask" && mknod "$FRESH/mask/csv.h" c 0 0 &&
    mount -t overlay overlay -o "lowerdir=$FRESH/mask:/usr/include" /usr/include 2>/dev/null || exit 77
unset MAKEFLAGS MFLAGS MAKELEVEL
PATH=$FRESH/bin:$PATH
$MAKE_ -s BUILD="$FRESH/plain" >"$FRESH/plain.log" 2>&1
echo $? >"$FRESH/plain.rc"
if setpriv --reuid=65534 --regid=65534 --clear-groups test -r Makefile 2>/dev/null; then
    setpriv --reuid=65534 --regid=65534 --clear-groups $MAKE_ -s demo BUILD="$FRESH/user" >"$FRESH/user.log" 2>&1
    echo $? >"$FRESH/user.rc"
fi
[ -e "$FRESH/apt-get.log" ] && mv "$FRESH/apt-get.log" "$FRESH/apt-get.before"
$MAKE_ -j2 demo BUILD="$FRESH/build" >"$FRESH/demo.log" 2>&1
echo $? >"$FRESH/demo.rc"
EOF
chmod +x "$fresh/bin/apt-get"
command_line='  run: sudo apt-get update && sudo apt-get install -y libcsv-dev'
if [ "$(id -u)" != 0 ]; then
    echo "build: make demo on a machine without libcsv-dev: skipped (a private mount namespace needs root)"
elif ! FRESH=$fresh MAKE_=$make unshare -m --propagation private sh "$fresh/run.sh"; then
    echo "build: make demo on a machine without libcsv-dev: skipped (no mount namespace or overlay here)"
else
    [ "$(cat "$fresh/plain.rc")" != 0 ] && grep -qxF -e "$command_line   (or, as root: make deps)" "$fresh/plain.log" ||
        fail "plain make without libcsv-dev did not fail naming the command: $(cat "$fresh/plain.log")"
    if [ -e "$fresh/user.rc" ]; then
        [ "$(cat "$fresh/user.rc")" != 0 ] && grep -qF -e "$command_line" "$fresh/user.log" ||
            fail "make demo as a user without libcsv-dev did not print the command: $(cat "$fresh/user.log")"
    else
        echo "build: make demo as a user: skipped (the user nobody cannot read the repository)"
    fi
    [ -e "$fresh/apt-get.before" ] && fail "plain make or a user's make demo ran: $(cat "$fresh/apt-get.before")"
    apt=$(cat "$fresh/apt-get.log" 2>/dev/null || true)
    [ "$(cat "$fresh/demo.rc")" = 0 ] && [ "$apt" = "apt-get update -qq
apt-get install -y -qq libcsv-dev" ] && grep -qx 'installing: libcsv-dev' "$fresh/demo.log" &&
        grep -q '^ingested 14, skipped 0, rejected 0, solved 14, failed 0, ' "$fresh/demo.log" &&
        grep -q '^deque-1 ' "$fresh/demo.log" ||
        fail "make demo as root without libcsv-dev (apt-get calls: '$apt'): $(tail -5 "$fresh/demo.log")"
fi
root=$tmp/root prefix=/usr/local
$make -s --no-print-directory install DESTDIR="$root" PREFIX=$prefix >"$tmp/install.log" 2>&1 ||
    { cat "$tmp/install.log" >&2; fail "make install failed"; exit 1; }
for f in bin/coinrow lib/libcoinrow.a lib/coinrow.so include/coinrow.h include/coinrow/solve.h lib/pkgconfig/coinrow.pc \
    share/man/man1/coinrow.1 share/bash-completion/completions/coinrow; do
    [ -f "$root$prefix/$f" ] || fail "make install did not install $prefix/$f"
done
"$root$prefix/bin/coinrow" --version >/dev/null || fail "the installed coinrow does not run"
completed=$(bash -c '. "$1"; COMP_WORDS=(coinrow export --f); COMP_CWORD=2; _coinrow; echo "${COMPREPLY[*]}"' \
    sh "$root$prefix/share/bash-completion/completions/coinrow")
[ "$completed" = "--format --force" ] || fail "the bash completion of 'coinrow export --f' is '$completed'"
completed=$(bash -c '. "$1"; COMP_WORDS=(coinrow export --format p); COMP_CWORD=3; _coinrow; echo "${COMPREPLY[*]}"' \
    sh "$root$prefix/share/bash-completion/completions/coinrow")
[ "$completed" = "polygon plain" ] || fail "the bash completion of 'coinrow export --format p' is '$completed'"

cat >"$tmp/best.c" <<'EOF'
/* The best line of play for the first player, as an embedder writes it. */
#include <coinrow.h>
#include <stdio.h>

int main(void)
{
    const int64_t coins[] = {4, 6, 2, 3};
    cr_solver *solver = NULL;
    cr_result results[CR_VARIANT_COUNT];
    cr_solve_opts opts = {CR_VARIANT_BIT(CR_TOTAL), CR_ALGO_AUTO, CR_MOVES_CANONICAL};
    cr_error err;
    if (cr_solver_new(&solver, &err) || cr_solve(results, solver, coins, 4, &opts, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    printf("%lld %s\n", (long long)results[CR_TOTAL].value, results[CR_TOTAL].moves);
    cr_solver_free(solver);
    return 0;
}
EOF
# pkg-config finds only what DESTDIR holds
flags=$(PKG_CONFIG_PATH= PKG_CONFIG_LIBDIR="$root$prefix/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$root" \
    pkg-config --cflags --libs coinrow) || fail "pkg-config does not know coinrow"
# shellcheck disable=SC2086 # the flags are words
if ${CC:-cc} -std=c11 -pedantic -Wall -Wextra -Werror "$tmp/best.c" $flags -o "$tmp/best" 2>"$tmp/cc.log"; then
    out=$("$tmp/best")
    [ "$out" = "9 RLLL" ] || fail "the program built against the installed core printed '$out', not '9 RLLL'"
else
    cat "$tmp/cc.log" >&2
    fail "a program does not build against the installed core with: $flags"
fi

$make -s --no-print-directory uninstall DESTDIR="$root" PREFIX=$prefix >/dev/null 2>&1 || fail "make uninstall failed"
left=$(find "$root" -type f)
[ -z "$left" ] || fail "make uninstall left: $left"

[ $failed = 0 ] && echo "build: flags, no installs, a failing test named, the tree's rules, a tree without .git, make demo on a fresh machine, make install with pkg-config, make uninstall: ok"
exit $failed

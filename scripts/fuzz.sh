#!/bin/sh
# The fuzz targets (docs/testing.md, "Fuzzing").
#   sh scripts/fuzz.sh build                    build/fuzz/fuzz_NAME, every target
#   sh scripts/fuzz.sh smoke SECONDS NAME...    build, then run each for SECONDS on
#                                               its corpus, one summary line each
# Needs clang with libFuzzer: installed here when run as root; otherwise
# both skip with a notice (exit 0), so that CI without clang goes on.
set -eu
cd "$(dirname "$0")/.."

have_libfuzzer() {
    command -v clang >/dev/null 2>&1 || return 1
    probe=$(mktemp -d)
    printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { return (int)(d && n) * 0; }\n' \
        >"$probe/probe.c"
    ok=0
    clang -fsanitize=fuzzer "$probe/probe.c" -o "$probe/probe" >/dev/null 2>&1 || ok=1
    rm -rf "$probe"
    return $ok
}

if ! have_libfuzzer; then
    if [ "$(id -u)" = 0 ]; then
        echo "installing: clang libclang-rt-dev (libFuzzer)"
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang libclang-rt-dev >/dev/null
    else
        echo "fuzz: skipped: clang with libFuzzer is missing; run: sudo apt-get install -y clang libclang-rt-dev" >&2
        exit 0
    fi
fi

${MAKE:-make} --no-print-directory FUZZ=1 fuzz-targets >/dev/null
[ "$1" = build ] && { echo "fuzz: targets in build/fuzz/"; exit 0; }

seconds=$2
shift 2
failed=0
for name in "$@"; do
    work=build/fuzz/corpus/$name
    mkdir -p "$work"
    log=build/fuzz/$name.log
    # new inputs go to the working corpus; the seeds in the tree stay as they are
    if build/fuzz/fuzz_"$name" "$work" "tests/fuzz/corpus/$name" -max_total_time="$seconds" -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="build/fuzz/$name-" >"$log" 2>&1; then
        status=ok
    else
        status="FAILED (build/fuzz/$name.log; the input is build/fuzz/$name-*)"
        failed=1
        # what broke, in CI's own log: a clean checkout's build/ is gone after it
        echo "fuzz-smoke: $name: the end of its log:"
        grep -v -E '^#[0-9]+[[:space:]]+(NEW|REDUCE|pulse)' "$log" | tail -n 40 | sed 's/^/  /'
        for input in build/fuzz/"$name"-*; do
            [ -f "$input" ] && echo "fuzz-smoke: $name: $input, as bytes:" && od -A d -c "$input" | head -n 40 | sed 's/^/  /'
        done
    fi
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -n 1)
    echo "fuzz-smoke: $name: ${runs:-?} runs in ${seconds} s, $cov, $(ls "$work" | wc -l) inputs: $status"
done
exit $failed

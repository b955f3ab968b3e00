#!/bin/sh
# Fails when the core library links against anything but memory and string
# functions (and the compiler's own runtime): the core does no I/O, keeps no
# global state and never exits, so that it embeds anywhere.
#   sh scripts/check-core-symbols.sh build/libcoinrow.a
set -eu
lib=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the C library functions the core may call
cat >"$tmp/allowed" <<'EOF'
bcmp
calloc
free
malloc
memchr
memcmp
memcpy
memmove
memset
qsort
realloc
strchr
strcmp
strlen
strncmp
strrchr
EOF

nm --defined-only "$lib" | awk 'NF == 3 { print $3 }' | sort -u >"$tmp/defined"
nm -u "$lib" | awk 'NF == 2 { print $2 }' | sort -u >"$tmp/undefined"
# What the archive defines itself is no dependency; nor are the compiler's
# runtime (128-bit division, CPU feature tests, the stack protector, the
# fortified memory functions), the sanitizers' and gcov's hooks and the linker's GOT.
runtime='^(__(u?(div|mod)ti3|muloti4|cpu_indicator_init|cpu_features2|cpu_model|stack_chk_fail)'
runtime="$runtime|__(memcpy|memmove|memset)_chk|__(asan|ubsan|tsan|sanitizer|gcov)_.*|_GLOBAL_OFFSET_TABLE_)$"
comm -23 "$tmp/undefined" "$tmp/defined" | comm -23 - "$tmp/allowed" | grep -v -E "$runtime" >"$tmp/extra" || true
if [ -s "$tmp/extra" ]; then
    echo "core symbols: $lib needs more than memory and string functions:" >&2
    sed 's/^/  /' "$tmp/extra" >&2
    exit 1
fi
echo "core symbols: ok"

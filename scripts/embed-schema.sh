#!/bin/sh
# Turns the schema files given in order into a C array of SQL scripts:
#   const char *const cr_schema_scripts[] = { "...", ... }; and its count.
# Migration k (1-based) is the k-th file; PRAGMA user_version records how many ran.
set -eu
echo '/* generated from the files in schema/ by scripts/embed-schema.sh; do not edit */'
echo '#include "store/schema.h"'
echo 'const char *const cr_schema_scripts[] = {'
for f in "$@"; do
    printf '    /* %s */\n' "$(basename "$f")"
    sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/    "/' -e 's/$/\\n"/' "$f"
    echo '    ,'
done
echo '};'
echo "const int cr_schema_count = $#;"

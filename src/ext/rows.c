/* What the scalar functions (ext.c) and coinrow_solve (solve_vtab.c) share:
 * reading a row of coins from an argument, and solving it within SQLite's
 * heap limit; and the extension's one pointer to SQLite's routines, which
 * the entry point sets. */
#include "ext/ext.h"

#include <string.h>

#include "util/util.h"

SQLITE_EXTENSION_INIT1

int cr_ext__coins(cr_coins *out, sqlite3_value *arg, cr_error *err)
{
    const char *text = (const char *)sqlite3_value_text(arg);
    if (!text)
        return cr_errorf(err, CR_ENOMEM, "no memory for the coins' text");
    return cr_coins_parse(out, text, (size_t)sqlite3_value_bytes(arg), err);
}

int cr_ext__name(const char **out, sqlite3_value *arg, const char *what, cr_error *err)
{
    *out = (const char *)sqlite3_value_text(arg);
    if (!*out)
        return cr_errorf(err, CR_ENOMEM, "no memory for %s's text", what);
    if (strlen(*out) != (size_t)sqlite3_value_bytes(arg))
        return cr_errorf(err, CR_EINVAL, "%s has a NUL byte", what);
    return 0;
}

int cr_ext__solve(cr_result out[CR_VARIANT_COUNT], cr_solver *solver, const cr_coins *coins, unsigned variants,
                  cr_moves policy, cr_error *err)
{
    if (policy == CR_MOVES_CANONICAL) {
        sqlite3_int64 limit = sqlite3_hard_heap_limit64(-1);
        size_t need = cr_moves_canonical_bytes(coins->n), mib = 1u << 20;
        if (limit > 0 && need > (sqlite3_uint64)limit)
            return cr_errorf(err, CR_ENOMEM,
                             "canonical line of %zu coins needs %zu MiB, more than PRAGMA hard_heap_limit = %lld "
                             "allows",
                             coins->n, need / mib + (need % mib != 0), (long long)limit);
    }
    cr_solve_opts opts = {variants, CR_ALGO_AUTO, policy};
    return cr_solve(out, solver, coins->v, coins->n, &opts, err);
}

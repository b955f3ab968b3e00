/* coinrow_solve(coins [, variants [, policy]]): a table-valued function (an
 * eponymous virtual table, like json_each) with one row per variant asked
 * for.  A figure outside int64 is NULL and named in that row's `error` (the
 * others, and the value whenever it fits, are given), so that one row does
 * not stop a query; bad input is an SQL error. */
#include <string.h>

#include "ext/ext.h"

enum column {
    COL_VARIANT, COL_VALUE, COL_FIRST_SCORE, COL_SECOND_SCORE, COL_WINNER, COL_MOVES, COL_ERROR,
    COL_COINS, /* the arguments, hidden columns in argument order */
    COL_VARIANTS,
    COL_POLICY
};
enum { ARGS = 3, REQUIRED_ARGS = 1 };

/* Each cursor has its own solver: a query may hold several cursors at once
 * (a self-join), and scalar calls run between their rows, so neither may
 * lend the other its lines. */
typedef struct cursor {
    sqlite3_vtab_cursor base;
    cr_solver *solver;
    cr_coins coins;
    cr_result results[CR_VARIANT_COUNT];
    unsigned variants; /* the rows */
    int variant;       /* the current row's; CR_VARIANT_COUNT past the last */
} cursor;

static int solve_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out,
                         char **out_error)
{
    (void)aux, (void)argc, (void)argv, (void)out_error;
    int rc = sqlite3_declare_vtab(db, "CREATE TABLE x(variant TEXT, value INTEGER, first_score INTEGER, "
                                      "second_score INTEGER, winner TEXT, moves TEXT, error TEXT, "
                                      "coins HIDDEN, variants HIDDEN, policy HIDDEN)");
    if (rc != SQLITE_OK)
        return rc;
    sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS); /* pure: usable wherever functions are */
    *out = sqlite3_malloc(sizeof **out);
    if (!*out)
        return SQLITE_NOMEM;
    memset(*out, 0, sizeof **out);
    return SQLITE_OK;
}

static int solve_disconnect(sqlite3_vtab *vtab)
{
    sqlite3_free(vtab);
    return SQLITE_OK;
}

/* The plan passes the arguments given, in order, to solve_filter, with a bit
 * per argument in idxNum.  A plan in which an argument is not yet known
 * (an unusable constraint: its value comes from a table joined later) is
 * refused, so that SQLite picks the order that knows it. */
static int solve_best_index(sqlite3_vtab *vtab, sqlite3_index_info *info)
{
    int given[ARGS] = {-1, -1, -1}, unusable = 0;
    for (int i = 0; i < info->nConstraint; i++) {
        const struct sqlite3_index_constraint *c = &info->aConstraint[i];
        int arg = c->iColumn - COL_COINS;
        if (arg < 0 || c->op != SQLITE_INDEX_CONSTRAINT_EQ)
            continue;
        if (c->usable)
            given[arg] = i;
        else
            unusable |= 1 << arg;
    }
    for (int arg = 0; arg < ARGS; arg++)
        if (given[arg] < 0 && (unusable & (1 << arg)))
            return SQLITE_CONSTRAINT;
    if (given[0] < 0) {
        sqlite3_free(vtab->zErrMsg);
        vtab->zErrMsg = sqlite3_mprintf("coinrow_solve needs the coins: coinrow_solve(coins [, variants [, policy]])");
        return SQLITE_ERROR;
    }
    info->idxNum = 0;
    for (int arg = 0, next = 1; arg < ARGS; arg++) {
        if (given[arg] < 0)
            continue;
        info->aConstraintUsage[given[arg]].argvIndex = next++;
        info->aConstraintUsage[given[arg]].omit = 1;
        info->idxNum |= 1 << arg;
    }
    info->estimatedCost = 1;
    info->estimatedRows = CR_VARIANT_COUNT;
    return SQLITE_OK;
}

static int solve_open(sqlite3_vtab *vtab, sqlite3_vtab_cursor **out)
{
    (void)vtab;
    cursor *c = sqlite3_malloc(sizeof *c);
    if (!c)
        return SQLITE_NOMEM;
    memset(c, 0, sizeof *c);
    c->variant = CR_VARIANT_COUNT;
    if (cr_solver_new(&c->solver, NULL)) {
        sqlite3_free(c);
        return SQLITE_NOMEM;
    }
    *out = &c->base;
    return SQLITE_OK;
}

static int solve_close(sqlite3_vtab_cursor *base)
{
    cursor *c = (cursor *)base;
    cr_solver_free(c->solver);
    cr_coins_free(&c->coins);
    sqlite3_free(c);
    return SQLITE_OK;
}

/* The first variant of the rows after `variant`, or CR_VARIANT_COUNT. */
static int next_variant(unsigned variants, int variant)
{
    do
        variant++;
    while (variant < CR_VARIANT_COUNT && !(variants & CR_VARIANT_BIT(variant)));
    return variant;
}

static int solve_filter(sqlite3_vtab_cursor *base, int idx_num, const char *idx_str, int argc, sqlite3_value **argv)
{
    (void)idx_str, (void)argc;
    cursor *c = (cursor *)base;
    sqlite3_value *arg[ARGS] = {NULL, NULL, NULL};
    for (int a = 0, k = 0; a < ARGS; a++)
        if (idx_num & (1 << a))
            arg[a] = argv[k++];
    c->variant = CR_VARIANT_COUNT;
    for (int a = 0; a < ARGS; a++)
        if (arg[a] && sqlite3_value_type(arg[a]) == SQLITE_NULL)
            return SQLITE_OK; /* NULL in, no rows out */

    unsigned variants = CR_VARIANTS_ALL;
    cr_moves policy = CR_MOVES_FAST;
    cr_error err;
    const char *name;
    int rc = cr_ext__coins(&c->coins, arg[0], &err);
    if (rc == 0 && arg[1] && (rc = cr_ext__name(&name, arg[1], "the variant list", &err)) == 0)
        rc = cr_variants_parse(&variants, name, &err);
    if (rc == 0 && arg[2] && (rc = cr_ext__name(&name, arg[2], "the moves policy", &err)) == 0)
        rc = cr_moves_parse(&policy, name, &err);
    if (rc == 0)
        rc = cr_ext__solve(c->results, c->solver, &c->coins, variants, policy, &err);
    if (rc != 0 && rc != CR_EOVERFLOW) { /* an overflow is its rows' error */
        sqlite3_free(base->pVtab->zErrMsg);
        base->pVtab->zErrMsg = sqlite3_mprintf("coinrow_solve: %s", err.msg);
        return base->pVtab->zErrMsg ? SQLITE_ERROR : SQLITE_NOMEM;
    }
    c->variants = variants;
    c->variant = next_variant(variants, -1);
    return SQLITE_OK;
}

static int solve_next(sqlite3_vtab_cursor *base)
{
    cursor *c = (cursor *)base;
    c->variant = next_variant(c->variants, c->variant);
    return SQLITE_OK;
}

static int solve_eof(sqlite3_vtab_cursor *base) { return ((cursor *)base)->variant >= CR_VARIANT_COUNT; }

static int solve_column(sqlite3_vtab_cursor *base, sqlite3_context *ctx, int column)
{
    const cursor *c = (const cursor *)base;
    const cr_result *r = &c->results[c->variant];
    if (column == COL_VARIANT)
        sqlite3_result_text(ctx, cr_variant_name(r->variant), -1, SQLITE_STATIC);
    else if (column == COL_ERROR && r->error.code)
        sqlite3_result_text(ctx, r->error.msg, -1, SQLITE_TRANSIENT);
    else if (column == COL_VALUE && !(r->missing & CR_FIGURE_VALUE))
        sqlite3_result_int64(ctx, r->value);
    else if (column == COL_FIRST_SCORE && !(r->missing & CR_FIGURE_FIRST_SCORE))
        sqlite3_result_int64(ctx, r->first_score);
    else if (column == COL_SECOND_SCORE && !(r->missing & CR_FIGURE_SECOND_SCORE))
        sqlite3_result_int64(ctx, r->second_score);
    else if (column == COL_WINNER && !(r->missing & CR_FIGURE_WINNER))
        sqlite3_result_text(ctx, cr_winner_name(r->winner), -1, SQLITE_STATIC);
    else if (column == COL_MOVES && r->moves)
        sqlite3_result_text64(ctx, r->moves, (sqlite3_uint64)c->coins.n, SQLITE_TRANSIENT, SQLITE_UTF8);
    return SQLITE_OK; /* the error of a solved row, the hidden arguments: NULL */
}

static int solve_rowid(sqlite3_vtab_cursor *base, sqlite_int64 *out)
{
    *out = ((const cursor *)base)->variant;
    return SQLITE_OK;
}

static const sqlite3_module solve_module = {
    .iVersion = 0,
    .xCreate = NULL, /* eponymous only: no CREATE VIRTUAL TABLE */
    .xConnect = solve_connect,
    .xBestIndex = solve_best_index,
    .xDisconnect = solve_disconnect,
    .xOpen = solve_open,
    .xClose = solve_close,
    .xFilter = solve_filter,
    .xNext = solve_next,
    .xEof = solve_eof,
    .xColumn = solve_column,
    .xRowid = solve_rowid,
};

int cr_ext__solve_register(sqlite3 *db) { return sqlite3_create_module(db, "coinrow_solve", &solve_module, NULL); }

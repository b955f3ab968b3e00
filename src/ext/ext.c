/* coinrow as a SQLite loadable extension: the entry point and the scalar
 * functions (docs/sql.md).  Every function takes the coins as the ingest
 * parser reads them and reports its errors as the CLI words them, after the
 * function's name. */
#include "ext/ext.h"

#include <stdio.h>
#include <string.h>

#include "util/util.h"
#include "version.h"

typedef struct workspace workspace;

/* What one registered function knows: its connection's workspace and its
 * name, for its error messages. */
typedef struct binding {
    workspace *ws;
    const char *name;
} binding;

typedef void scalar_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv);
static scalar_fn fn_value, fn_moves, fn_winner, fn_scores, fn_check, fn_check_message, fn_version;

static const struct {
    const char *name;
    int args;
    scalar_fn *fn;
} functions[] = {
    {"coinrow_value", 2, fn_value},
    {"coinrow_moves", 2, fn_moves},
    {"coinrow_moves", 3, fn_moves},
    {"coinrow_winner", 2, fn_winner},
    {"coinrow_scores", 2, fn_scores},
    {"coinrow_check", 3, fn_check},
    {"coinrow_check_message", 3, fn_check_message},
    {"coinrow_version", 0, fn_version},
};
enum { FUNCTIONS = sizeof functions / sizeof functions[0] };

/* A connection's workspace: the row being read and the solver, reused from
 * call to call so that a call allocates nothing once they have grown.  Each
 * registered function holds a reference; SQLite drops it when it deletes the
 * function (when the function is replaced, or when the connection closes),
 * and the last one frees the workspace.  A connection runs one function
 * call at a time, so nothing here is shared between threads. */
struct workspace {
    cr_solver *solver;
    cr_coins coins;
    cr_result results[CR_VARIANT_COUNT];
    binding bindings[FUNCTIONS];
    int refs;
};

static void workspace_drop(workspace *ws)
{
    if (--ws->refs > 0)
        return;
    cr_solver_free(ws->solver);
    cr_coins_free(&ws->coins);
    sqlite3_free(ws);
}

static void binding_release(void *binding_ptr) { workspace_drop(((binding *)binding_ptr)->ws); }

static void fail(sqlite3_context *ctx, const cr_error *err)
{
    const binding *b = sqlite3_user_data(ctx);
    char *msg = sqlite3_mprintf("%s: %s", b->name, err->msg);
    if (!msg) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    sqlite3_result_error(ctx, msg, -1);
    sqlite3_free(msg);
}

/* Reads a call's coins (argv[0]) and variant (argv[1]) into the workspace
 * and *out_variant.  Returns the workspace, or NULL when the result is set
 * already: NULL for a NULL argument, or the error. */
static workspace *arguments(cr_variant *out_variant, sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    for (int i = 0; i < argc; i++)
        if (sqlite3_value_type(argv[i]) == SQLITE_NULL)
            return NULL; /* NULL in, NULL out */
    const binding *b = sqlite3_user_data(ctx);
    cr_error err;
    const char *name;
    if (cr_ext__coins(&b->ws->coins, argv[0], &err) || cr_ext__name(&name, argv[1], "the variant", &err) ||
        cr_variant_parse(out_variant, name, &err)) {
        fail(ctx, &err);
        return NULL;
    }
    return b->ws;
}

/* The row in the workspace solved for `variant` with `policy`; NULL when it
 * cannot be (the error is the call's result: a canonical line without the
 * memory it needs, or a figure of `needs` (CR_FIGURE_*) outside int64).
 * The winner and the line are there whatever the figures, and a figure
 * that fits is given when another does not (docs/sql.md). */
static const cr_result *solve(sqlite3_context *ctx, workspace *ws, cr_variant variant, cr_moves policy,
                              unsigned needs)
{
    cr_error err;
    int rc = cr_ext__solve(ws->results, ws->solver, &ws->coins, CR_VARIANT_BIT(variant), policy, &err);
    if (rc && (rc != CR_EOVERFLOW || (ws->results[variant].missing & needs))) {
        fail(ctx, &err);
        return NULL;
    }
    return &ws->results[variant];
}

/* A call's row, read from its arguments and solved; NULL when the result is
 * set already (NULL, or the error). */
static const cr_result *solved(sqlite3_context *ctx, int argc, sqlite3_value **argv, cr_moves policy, unsigned needs)
{
    cr_variant variant;
    workspace *ws = arguments(&variant, ctx, argc, argv);
    return ws ? solve(ctx, ws, variant, policy, needs) : NULL;
}

/* --- the functions ------------------------------------------------------------ */

static void fn_value(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    const cr_result *r = solved(ctx, argc, argv, CR_MOVES_NONE, CR_FIGURE_VALUE);
    if (r)
        sqlite3_result_int64(ctx, r->value);
}

static void fn_winner(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    const cr_result *r = solved(ctx, argc, argv, CR_MOVES_NONE, CR_FIGURE_WINNER);
    if (r)
        sqlite3_result_text(ctx, cr_winner_name(r->winner), -1, SQLITE_STATIC);
}

static void fn_moves(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    cr_variant variant;
    cr_moves policy = CR_MOVES_FAST;
    cr_error err;
    workspace *ws = arguments(&variant, ctx, argc, argv);
    if (!ws)
        return;
    if (argc == 3) {
        const char *name;
        int rc = cr_ext__name(&name, argv[2], "the moves policy", &err);
        if (rc == 0)
            rc = cr_moves_parse(&policy, name, &err);
        if (rc == 0 && policy == CR_MOVES_NONE)
            rc = cr_errorf(&err, CR_EINVAL, "moves policy 'none' gives no line (expected fast or canonical)");
        if (rc) {
            fail(ctx, &err);
            return;
        }
    }
    const cr_result *r = solve(ctx, ws, variant, policy, 0);
    if (r)
        sqlite3_result_text64(ctx, r->moves, (sqlite3_uint64)ws->coins.n, SQLITE_TRANSIENT, SQLITE_UTF8);
}

static void fn_scores(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    const cr_result *r = solved(ctx, argc, argv, CR_MOVES_FAST, 0);
    if (!r)
        return;
    /* a score that does not fit in int64 is null (cr_result) */
    char first[24] = "null", second[24] = "null";
    if (!(r->missing & CR_FIGURE_FIRST_SCORE))
        snprintf(first, sizeof first, "%lld", (long long)r->first_score);
    if (!(r->missing & CR_FIGURE_SECOND_SCORE))
        snprintf(second, sizeof second, "%lld", (long long)r->second_score);
    char *json = sqlite3_mprintf("{\"first_score\":%s,\"second_score\":%s,\"moves\":\"%s\"}", first, second,
                                 r->moves);
    if (json)
        sqlite3_result_text(ctx, json, -1, sqlite3_free);
    else
        sqlite3_result_error_nomem(ctx);
}

/* The verdict on the line argv[2] for the call's row and variant; 0, or -1
 * when the result is set already (NULL, or the error).  A line that does
 * not replay (a letter other than L or R, too short, too long) is bad input
 * wherever its first suboptimal move is; replaying takes O(n), verifying
 * O(n log n). */
static int judged(cr_verdict *out, sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    cr_variant variant;
    workspace *ws = arguments(&variant, ctx, argc, argv);
    if (!ws)
        return -1;
    const char *line = (const char *)sqlite3_value_text(argv[2]);
    size_t len = (size_t)sqlite3_value_bytes(argv[2]);
    cr_error err;
    cr_scores scores;
    int rc = line ? cr_moves_replay(&scores, ws->coins.v, ws->coins.n, variant, line, len, &err)
                  : cr_errorf(&err, CR_ENOMEM, "no memory for the line's text");
    if (rc == 0 || rc == CR_EOVERFLOW) /* legal, whatever its scores */
        rc = cr_moves_verify(out, ws->coins.v, ws->coins.n, variant, line, len, &err);
    if (rc)
        fail(ctx, &err);
    return rc ? -1 : 0;
}

static void fn_check(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    cr_verdict verdict;
    if (judged(&verdict, ctx, argc, argv) == 0)
        sqlite3_result_int(ctx, verdict.fault == CR_LINE_OK);
}

static void fn_check_message(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    cr_verdict verdict;
    if (judged(&verdict, ctx, argc, argv) == 0 && verdict.fault != CR_LINE_OK)
        sqlite3_result_text(ctx, verdict.why, -1, SQLITE_TRANSIENT);
}

static void fn_version(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc, (void)argv;
    sqlite3_result_text(ctx, CR_VERSION, -1, SQLITE_STATIC);
}

/* --- the entry point -------------------------------------------------------- */

/* SQLite finds it by the file's name (coinrow.so: sqlite3_coinrow_init); it
 * is the one symbol the library exports (exports.map). */
__attribute__((visibility("default"))) int sqlite3_coinrow_init(sqlite3 *db, char **out_error,
                                                               const sqlite3_api_routines *api);

int sqlite3_coinrow_init(sqlite3 *db, char **out_error, const sqlite3_api_routines *api)
{
    SQLITE_EXTENSION_INIT2(api);
    if (sqlite3_libversion_number() < 3031000) { /* SQLITE_INNOCUOUS, hard heap limits */
        if (out_error)
            *out_error = sqlite3_mprintf("coinrow: needs SQLite 3.31 or later, not %s", sqlite3_libversion());
        return SQLITE_ERROR;
    }
    workspace *ws = sqlite3_malloc(sizeof *ws);
    if (!ws)
        return SQLITE_NOMEM;
    memset(ws, 0, sizeof *ws);
    ws->refs = 1; /* ours, while the functions are registered */
    int rc = cr_solver_new(&ws->solver, NULL) ? SQLITE_NOMEM : SQLITE_OK;
    for (int i = 0; i < FUNCTIONS && rc == SQLITE_OK; i++) {
        ws->bindings[i] = (binding){ws, functions[i].name};
        ws->refs++; /* SQLite drops it even when registering fails */
        rc = sqlite3_create_function_v2(db, functions[i].name, functions[i].args,
                                        SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, &ws->bindings[i],
                                        functions[i].fn, NULL, NULL, binding_release);
    }
    workspace_drop(ws);
    if (rc == SQLITE_OK)
        rc = cr_ext__solve_register(db);
    if (rc != SQLITE_OK && out_error)
        *out_error = sqlite3_mprintf("coinrow: cannot register the functions: %s", sqlite3_errstr(rc));
    return rc;
}

/* Solving an instance: the two games behind the four variants. */
#include "coinrow/solve.h"

#include <stdlib.h>

#include "coinrow/moves.h"
#include "internal.h"

/* The standard game serves total, diff and winner; the remaining-sum game is
 * the standard game on negated coins (see docs/design.md, "The solver core"). */
enum { STANDARD, REMAINING, GAMES };

struct cr_solver {
    size_t capacity;   /* coins the buffers below can hold */
    size_t line_limit; /* bytes a canonical line may take; 0: no cap */
    cr_i128 *vals;     /* the linear method's stack */
    uint32_t *counts;
    char *line[GAMES]; /* capacity + 1 bytes each */
};

int cr_solver_new(cr_solver **out, cr_error *err)
{
    *out = (cr_solver *)calloc(1, sizeof **out);
    return *out ? 0 : cr_error_set(err, CR_ENOMEM, "no memory for a solver");
}

void cr_solver_free(cr_solver *solver)
{
    if (!solver)
        return;
    free(solver->vals);
    free(solver->counts);
    for (int g = 0; g < GAMES; g++)
        free(solver->line[g]);
    free(solver);
}

void cr_solver_limit(cr_solver *solver, size_t bytes) { solver->line_limit = bytes; }

static int reserve(cr_solver *s, size_t n, cr_error *err)
{
    if (n <= s->capacity)
        return 0;
    size_t want = n > 2 * s->capacity ? n : 2 * s->capacity;
    if (want > CR_N_MAX)
        want = CR_N_MAX;
    cr_i128 *vals = (cr_i128 *)realloc(s->vals, want * sizeof *vals);
    if (vals)
        s->vals = vals;
    uint32_t *counts = (uint32_t *)realloc(s->counts, want * sizeof *counts);
    if (counts)
        s->counts = counts;
    int ok = vals && counts;
    for (int g = 0; g < GAMES && ok; g++) {
        char *line = (char *)realloc(s->line[g], want + 1);
        if (line)
            s->line[g] = line;
        ok = line != NULL;
    }
    if (!ok)
        return cr_error_set(err, CR_ENOMEM, "no memory to solve %zu coins", n);
    s->capacity = want;
    return 0;
}

/* One game solved: its lead, the coins' sum and the line it reports. */
typedef struct game {
    cr_i128 lead, sum;
    cr_algo algo;
    char *line; /* the line to score and report; NULL when none was asked for */
    cr_error error;
} game;

/* The algorithm that runs for opts->algo. */
static cr_algo algo_run(const cr_solve_opts *opts) { return opts->algo == CR_ALGO_AUTO ? CR_ALGO_LINEAR : opts->algo; }

static int solve_game(game *out, cr_solver *s, const int64_t *coins, size_t n, int g, const cr_solve_opts *opts)
{
    int negate = g == REMAINING;
    /* The remaining game's scores depend on the line, so it always has one. */
    int want_line = opts->moves != CR_MOVES_NONE || g == REMAINING;
    char *fast_line = want_line && opts->moves != CR_MOVES_CANONICAL ? s->line[g] : NULL;
    cr_i128 ignored;
    cr_error_clear(&out->error);
    out->algo = algo_run(opts);
    out->line = want_line ? s->line[g] : NULL;

    switch (out->algo) {
    case CR_ALGO_DP:
        if (fast_line)
            cr_linear__lead(&ignored, &out->sum, coins, n, negate, s->vals, s->counts, fast_line);
        else
            cr_figures__sums(&out->sum, &ignored, coins, n);
        if (cr_sweep__lead(&out->lead, coins, n, negate, &out->error))
            return out->error.code;
        break;
    case CR_ALGO_NAIVE:
        if (n > CR_NAIVE_MAX_N)
            return cr_error_set(&out->error, CR_ETOOBIG, "naive minimax takes at most %d coins, this row has %zu",
                                CR_NAIVE_MAX_N, n);
        if (fast_line)
            cr_linear__lead(&ignored, &out->sum, coins, n, negate, s->vals, s->counts, fast_line);
        else
            cr_figures__sums(&out->sum, &ignored, coins, n);
        out->lead = cr_naive__lead(coins, n, negate);
        break;
    default:
        cr_linear__lead(&out->lead, &out->sum, coins, n, negate, s->vals, s->counts, fast_line);
        break;
    }
    if (want_line && opts->moves == CR_MOVES_CANONICAL) {
        if (s->line_limit && cr_moves_canonical_bytes(n) > s->line_limit)
            return cr_moves__no_memory(&out->error, n);
        return cr_moves_canonical(out->line, coins, n, negate ? CR_REMAINING : CR_DIFF, &out->error);
    }
    if (out->line)
        out->line[n] = '\0';
    return 0;
}

static int sign_of(cr_i128 v) { return (v > 0) - (v < 0); }

static int fits(cr_i128 v) { return v >= INT64_MIN && v <= INT64_MAX; }

/* Names the figures of r->missing with their values in r->error (formatted
 * only then: naming every figure up front took a seventh of a batch
 * solver's time). */
static void name_missing(cr_result *r, const cr_i128 figures[3])
{
    static const char *const names[3] = {"value", "first_score", "second_score"};
    char list[CR_ERROR_MSG_MAX] = "", number[48];
    size_t len = 0;
    int count = 0, total = (r->missing & 1) + (r->missing >> 1 & 1) + (r->missing >> 2 & 1);
    for (int f = 0; f < 3; f++) {
        if (!(r->missing & 1u << f))
            continue;
        count++;
        cr_figures__format(number, sizeof number, figures[f]);
        cr_error__format(list + len, sizeof list - len, "%s%s (%s)",
                         count == 1 ? "" : count == total ? " and " : ", ", names[f], number);
        while (list[len])
            len++;
    }
    cr_error_set(&r->error, CR_EOVERFLOW, "the %s %s %s not fit in int64", cr_variant_name(r->variant), list,
                 total == 1 ? "does" : "do");
}

/* Fills one variant's figures from its game, each that fits in int64; the
 * others are missing and named in r->error. */
static void fill_result(cr_result *r, const game *gm, const int64_t *coins, size_t n, cr_variant v)
{
    cr_i128 first = (gm->sum + gm->lead) / 2, second = (gm->sum - gm->lead) / 2, value = gm->lead;
    if (v == CR_REMAINING) {
        cr_i128 scores[2];
        (void)cr_moves__scores(scores, coins, n, v, gm->line, n, NULL); /* the game's own line: legal and full */
        first = scores[0];
        second = scores[1];
        value = (gm->sum + gm->lead) / 2; /* first minus second on every optimal line */
    } else if (v == CR_TOTAL) {
        value = first;
    } else if (v == CR_WINNER) {
        value = sign_of(gm->lead);
    }
    r->winner = sign_of(v == CR_REMAINING ? value : gm->lead);
    const cr_i128 figures[3] = {value, first, second};
    int64_t *fields[3] = {&r->value, &r->first_score, &r->second_score};
    for (int f = 0; f < 3; f++) {
        int fit = fits(figures[f]);
        *fields[f] = fit ? (int64_t)figures[f] : 0;
        r->missing |= fit ? 0 : 1u << f;
    }
    if (r->missing)
        name_missing(r, figures);
}

int cr_solve(cr_result out[CR_VARIANT_COUNT], cr_solver *solver, const int64_t *coins, size_t n,
             const cr_solve_opts *opts, cr_error *err)
{
    if (!out || !solver || !coins || !opts || n == 0)
        return cr_error_set(err, CR_EINVAL, "solve: no coins");
    if (!(opts->variants & CR_VARIANTS_ALL) || (opts->variants & ~CR_VARIANTS_ALL) ||
        (unsigned)opts->algo >= CR_ALGO_COUNT || (unsigned)opts->moves >= CR_MOVES_COUNT)
        return cr_error_set(err, CR_EINVAL, "solve: bad options (variants 0x%x, algo %d, moves %d)",
                            opts->variants, (int)opts->algo, (int)opts->moves);
    /* a row the solver cannot take fails in every variant: it is the row's
     * answer, not the caller's mistake */
    cr_error row_error;
    int rc = n > CR_N_MAX ? cr_error_set(&row_error, CR_ETOOBIG, "a row of %zu coins is more than the %zu the "
                                                                 "solver takes", n, CR_N_MAX)
                          : reserve(solver, n, &row_error);
    if (rc) {
        for (int v = 0; v < CR_VARIANT_COUNT; v++) {
            if (!(opts->variants & CR_VARIANT_BIT(v)))
                continue;
            cr_result *r = &out[v];
            r->variant = (cr_variant)v;
            r->algo = algo_run(opts);
            r->value = r->first_score = r->second_score = 0;
            r->winner = 0;
            r->moves = NULL;
            r->missing = CR_FIGURES_ALL;
            r->error = row_error;
        }
        if (err)
            *err = row_error;
        return rc;
    }

    int first_failure = 0;
    for (int g = 0; g < GAMES; g++) {
        unsigned served = g == REMAINING ? CR_VARIANT_BIT(CR_REMAINING)
                                         : CR_VARIANT_BIT(CR_TOTAL) | CR_VARIANT_BIT(CR_DIFF) |
                                               CR_VARIANT_BIT(CR_WINNER);
        if (!(opts->variants & served))
            continue;
        game gm;
        int game_rc = solve_game(&gm, solver, coins, n, g, opts);
        for (int v = 0; v < CR_VARIANT_COUNT; v++) {
            if (!(opts->variants & served & CR_VARIANT_BIT(v)))
                continue;
            /* field by field: a result is mostly its error's message, which
             * is copied only on failure (this runs once per instance) */
            cr_result *r = &out[v];
            r->variant = (cr_variant)v;
            r->algo = gm.algo;
            r->moves = NULL;
            r->missing = 0;
            cr_error_clear(&r->error);
            if (game_rc == 0) {
                fill_result(r, &gm, coins, n, (cr_variant)v);
                r->moves = opts->moves == CR_MOVES_NONE ? NULL : gm.line;
            } else {
                r->error = gm.error;
                r->value = r->first_score = r->second_score = 0;
                r->winner = 0;
                r->missing = CR_FIGURES_ALL;
            }
            if ((r->missing & CR_FIGURE_VALUE) && !first_failure) {
                first_failure = r->error.code;
                if (err)
                    *err = r->error;
            }
        }
    }
    return first_failure;
}

/* Cross-checking solvers and shrinking the rows they disagree on. */
#include "coinrow/stress.h"

#include <stdlib.h>
#include <string.h>

#include "coinrow/moves.h"
#include "internal.h"

int cr_stress_builtin(cr_result out[CR_VARIANT_COUNT], void *ctx, const int64_t *coins, size_t n,
                      const cr_solve_opts *opts, cr_error *err)
{
    return cr_solve(out, ctx, coins, n, opts, err);
}

static void disagree(cr_disagreement *out, cr_variant v, size_t first, size_t second)
{
    out->found = 1;
    out->variant = v;
    out->first = first;
    out->second = second;
}

/* Checks one contender's line for one variant: verifier, then replay. */
static int check_line(cr_disagreement *out, const cr_contender *c, size_t k, const cr_result *r,
                      const int64_t *coins, size_t n, cr_error *err)
{
    cr_verdict verdict;
    int rc = cr_moves_verify(&verdict, coins, n, r->variant, r->moves, strlen(r->moves), err);
    if (rc)
        return rc;
    if (verdict.fault != CR_LINE_OK) {
        disagree(out, r->variant, k, k);
        cr_format__(out->what, sizeof out->what, "%s, %s: %s", cr_variant_name(r->variant), c->name,
                    verdict.why);
        return 0;
    }
    cr_scores scores;
    if (cr_moves_replay(&scores, coins, n, r->variant, r->moves, n, NULL) != 0 || scores.first != r->first_score ||
        scores.second != r->second_score) {
        disagree(out, r->variant, k, k);
        cr_format__(out->what, sizeof out->what, "%s, %s: its line does not replay to its scores %lld and %lld",
                    cr_variant_name(r->variant), c->name, (long long)r->first_score, (long long)r->second_score);
    }
    return 0;
}

/* Compares contender k's result with contender 0's. */
static void compare(cr_disagreement *out, const cr_contender *cs, size_t k, const cr_result *a, const cr_result *b)
{
    if (a->error.code != b->error.code) {
        disagree(out, a->variant, 0, k);
        cr_format__(out->what, sizeof out->what, "%s: %s %s, %s %s", cr_variant_name(a->variant), cs[0].name,
                    a->error.code ? a->error.msg : "solves it", cs[k].name, b->error.code ? b->error.msg : "solves it");
        return;
    }
    if (a->error.code)
        return;
    /* the remaining game's scores depend on the line; the others' do not */
    const struct {
        const char *name;
        int64_t x, y;
    } figures[] = {{"value", a->value, b->value},
                   {"winner", a->winner, b->winner},
                   {"first_score", a->first_score, b->first_score},
                   {"second_score", a->second_score, b->second_score}};
    size_t compared = a->variant == CR_REMAINING ? 2 : 4;
    for (size_t f = 0; f < compared; f++) {
        if (figures[f].x == figures[f].y)
            continue;
        disagree(out, a->variant, 0, k);
        cr_format__(out->what, sizeof out->what, "%s %s: %s says %lld, %s says %lld", cr_variant_name(a->variant),
                    figures[f].name, cs[0].name, (long long)figures[f].x, cs[k].name, (long long)figures[f].y);
        return;
    }
}

int cr_stress_check(cr_disagreement *out, const cr_contender *contenders, size_t count, const int64_t *coins,
                    size_t n, unsigned variants, cr_moves moves, cr_error *err)
{
    memset(out, 0, sizeof *out);
    cr_result first[CR_VARIANT_COUNT], mine[CR_VARIANT_COUNT];
    for (size_t k = 0; k < count && !out->found; k++) {
        const cr_contender *c = &contenders[k];
        cr_solve_opts opts = {variants, c->algo, moves};
        cr_result *r = k == 0 ? first : mine;
        int rc = c->solve(r, c->ctx, coins, n, &opts, NULL);
        if (rc == CR_ENOMEM || rc == CR_EINVAL)
            return cr_error_set(err, rc, "stress: %s could not run", c->name);
        for (int v = 0; v < CR_VARIANT_COUNT && !out->found; v++) {
            if (!(variants & CR_VARIANT_BIT(v)))
                continue;
            if (k > 0)
                compare(out, contenders, k, &first[v], &r[v]);
            if (!out->found && r[v].moves && (rc = check_line(out, c, k, &r[v], coins, n, err)) != 0)
                return rc;
        }
    }
    return 0;
}

int cr_stress_shrink(cr_disagreement *out, int64_t *coins, size_t *n, const cr_contender *contenders,
                     size_t count, unsigned variants, cr_moves moves, cr_error *err)
{
    int64_t *trial = malloc(*n * sizeof *trial);
    if (!trial)
        return cr_error_set(err, CR_ENOMEM, "stress: no memory to shrink %zu coins", *n);
    int rc = cr_stress_check(out, contenders, count, coins, *n, variants, moves, err);
    for (int progress = out->found && rc == 0; progress && rc == 0;) {
        progress = 0;
        cr_disagreement d;
        /* drop one coin */
        for (size_t i = 0; *n > 1 && i < *n && !progress; i++) {
            memcpy(trial, coins, i * sizeof *coins);
            memcpy(trial + i, coins + i + 1, (*n - i - 1) * sizeof *coins);
            if ((rc = cr_stress_check(&d, contenders, count, trial, *n - 1, variants, moves, err)) != 0)
                break;
            if (d.found) {
                memcpy(coins, trial, (*n - 1) * sizeof *coins);
                *n -= 1;
                *out = d;
                progress = 1;
            }
        }
        /* move one value towards zero: to 0, to half, one step */
        for (size_t i = 0; i < *n && !progress && rc == 0; i++) {
            int64_t v = coins[i];
            int64_t tries[3] = {0, v / 2, v - (v > 0) + (v < 0)};
            for (int t = 0; t < 3 && !progress && v != 0; t++) {
                if (tries[t] == v)
                    continue;
                coins[i] = tries[t];
                if ((rc = cr_stress_check(&d, contenders, count, coins, *n, variants, moves, err)) != 0)
                    break;
                if (d.found) {
                    *out = d;
                    progress = 1;
                } else {
                    coins[i] = v;
                }
            }
        }
    }
    free(trial);
    return rc;
}

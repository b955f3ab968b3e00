/* Cross-checking solvers and shrinking the rows they disagree on. */
#include "coinrow/stress.h"

#include <stdlib.h>
#include <string.h>

#include "coinrow/moves.h"
#include "internal.h"

int cr_stress_builtin(cr_result out[CR_VARIANT_COUNT], void *ctx, const int64_t *coins, size_t n,
                      const cr_solve_opts *opts, cr_error *err)
{
    return cr_solve(out, (cr_solver *)ctx, coins, n, opts, err);
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
        cr_error__format(out->what, sizeof out->what, "%s, %s: %s", cr_variant_name(r->variant), c->name,
                         verdict.why);
        return 0;
    }
    cr_i128 scores[2];
    (void)cr_moves__scores(scores, coins, n, r->variant, r->moves, n, NULL); /* verified: legal and full */
    if ((!(r->missing & CR_FIGURE_FIRST_SCORE) && scores[0] != r->first_score) ||
        (!(r->missing & CR_FIGURE_SECOND_SCORE) && scores[1] != r->second_score)) {
        disagree(out, r->variant, k, k);
        cr_error__format(out->what, sizeof out->what, "%s, %s: its line does not replay to its scores %lld and %lld",
                         cr_variant_name(r->variant), c->name, (long long)r->first_score, (long long)r->second_score);
    }
    return 0;
}

/* Compares contender k's result with contender 0's. */
static void compare(cr_disagreement *out, const cr_contender *cs, size_t k, const cr_result *a, const cr_result *b)
{
    if (a->missing != b->missing || a->error.code != b->error.code) {
        disagree(out, a->variant, 0, k);
        cr_error__format(out->what, sizeof out->what, "%s: %s %s, %s %s", cr_variant_name(a->variant), cs[0].name,
                         a->error.code ? a->error.msg : "solves it", cs[k].name,
                         b->error.code ? b->error.msg : "solves it");
        return;
    }
    /* the remaining game's scores depend on the line; the others' do not */
    const struct {
        const char *name;
        unsigned bit;
        int64_t x, y;
    } figures[] = {{"value", CR_FIGURE_VALUE, a->value, b->value},
                   {"winner", CR_FIGURE_WINNER, a->winner, b->winner},
                   {"first_score", CR_FIGURE_FIRST_SCORE, a->first_score, b->first_score},
                   {"second_score", CR_FIGURE_SECOND_SCORE, a->second_score, b->second_score}};
    size_t compared = a->variant == CR_REMAINING ? 2 : 4;
    for (size_t f = 0; f < compared; f++) {
        if ((a->missing & figures[f].bit) || figures[f].x == figures[f].y)
            continue;
        disagree(out, a->variant, 0, k);
        cr_error__format(out->what, sizeof out->what, "%s %s: %s says %lld, %s says %lld", cr_variant_name(a->variant),
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

/* Writes the k-th one-step shrink of coins[0..n) into trial (size *m):
 * first each coin dropped, then every value halved at once (which keeps the
 * coins' order, often what the failure hangs on), then each value moved to
 * 0, to half, or one step towards zero.  Returns 1 with a candidate, 0 when
 * the k-th step changes nothing, -1 past the last one. */
static int shrink_step(int64_t *trial, size_t *m, const int64_t *coins, size_t n, size_t k)
{
    memcpy(trial, coins, n * sizeof *coins);
    *m = n;
    if (k < n) {
        if (n == 1)
            return 0;
        memmove(trial + k, trial + k + 1, (n - k - 1) * sizeof *trial);
        *m = n - 1;
        return 1;
    }
    int changed = 0;
    if (k == n) {
        for (size_t i = 0; i < n; i++) {
            trial[i] = coins[i] / 2;
            changed |= trial[i] != coins[i];
        }
        return changed;
    }
    size_t i = (k - n - 1) / 3, how = (k - n - 1) % 3;
    if (i >= n)
        return -1;
    int64_t v = coins[i];
    trial[i] = how == 0 ? 0 : how == 1 ? v / 2 : v - (v > 0) + (v < 0);
    return trial[i] != v;
}

int cr_stress_shrink(cr_disagreement *out, int64_t *coins, size_t *n, const cr_contender *contenders,
                     size_t count, unsigned variants, cr_moves moves, cr_error *err)
{
    int64_t *trial = (int64_t *)malloc(*n * sizeof *trial);
    if (!trial)
        return cr_error_set(err, CR_ENOMEM, "stress: no memory to shrink %zu coins", *n);
    /* every accepted step lowers n or the sum of |coin|, so this ends */
    int rc = cr_stress_check(out, contenders, count, coins, *n, variants, moves, err);
    for (int progress = out->found; progress && rc == 0;) {
        progress = 0;
        size_t m;
        for (size_t k = 0; !progress; k++) {
            int step = shrink_step(trial, &m, coins, *n, k);
            if (step < 0)
                break;
            if (step == 0)
                continue;
            cr_disagreement d;
            if ((rc = cr_stress_check(&d, contenders, count, trial, m, variants, moves, err)) != 0)
                break;
            if (d.found) {
                memcpy(coins, trial, m * sizeof *coins);
                *n = m;
                *out = d;
                progress = 1;
            }
        }
    }
    free(trial);
    return rc;
}

int cr_stress_run(cr_stress_report *out, const cr_contender *contenders, size_t count, const cr_gen_spec *spec,
                  unsigned variants, cr_moves moves, cr_error *err)
{
    memset(out, 0, sizeof *out);
    int rc = cr_gen_check(spec, err);
    if (rc)
        return rc;
    out->coins = (int64_t *)malloc(spec->limits.n_max * sizeof *out->coins);
    if (!out->coins)
        return cr_error_set(err, CR_ENOMEM, "stress: no memory for %zu coins", spec->limits.n_max);
    for (uint64_t k = 0; k < spec->count; k++) {
        if ((rc = cr_gen_instance(out->coins, &out->n, spec, k, err)) != 0 ||
            (rc = cr_stress_check(&out->found, contenders, count, out->coins, out->n, variants, moves, err)) != 0)
            return rc;
        if (out->found.found) {
            out->index = k;
            out->original_n = out->n;
            return cr_stress_shrink(&out->found, out->coins, &out->n, contenders, count, variants, moves, err);
        }
        out->agreed++;
    }
    return 0;
}

void cr_stress_report_free(cr_stress_report *report)
{
    if (report) {
        free(report->coins);
        report->coins = NULL;
    }
}

/* Two runs' results merged in (external id, variant) order. */
#include "batch/batch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* strcmp order of (ext_id, variant name): SQLite's BINARY order, the order
 * both iterators deliver. */
static int key_order(const cr_stored_result *a, const cr_stored_result *b)
{
    int c = strcmp(a->ext_id, b->ext_id);
    return c ? c : strcmp(cr_variant_name(a->variant), cr_variant_name(b->variant));
}

static cr_side side_of(const cr_stored_result *r)
{
    return (cr_side){r->error, r->missing, r->value, r->first_score, r->second_score, r->winner, r->moves};
}

typedef struct merge {
    cr_run_comparison *out;
    const char *path; /* the database the coins are read from (a's) */
    int strict_moves;
    cr_run_finding_fn on_finding;
    void *ctx;
    cr_coins coins; /* of the instance last parsed ... */
    char *coins_of; /* ... whose ext_id is this */
    size_t coins_of_cap;
} merge;

static void count(merge *m, const cr_run_finding *f)
{
    m->out->counts[f->variant][f->diff.category]++;
    if (f->diff.category != CR_SAME && f->diff.category != CR_EQUIVALENT && m->on_finding)
        m->on_finding(m->ctx, f);
}

/* The coins of a pair's instance, parsed once for all its variants. */
static int coins_of(merge *m, const cr_stored_result *r, cr_error *err)
{
    if (m->coins_of && strcmp(m->coins_of, r->ext_id) == 0)
        return 0;
    size_t len = strlen(r->ext_id);
    if (len + 1 > m->coins_of_cap) {
        char *bigger = realloc(m->coins_of, len + 1);
        if (!bigger)
            return cr_errorf(err, CR_ENOMEM, "no memory to compare");
        m->coins_of = bigger;
        m->coins_of_cap = len + 1;
    }
    m->coins_of[0] = '\0'; /* not parsed until it is */
    cr_error bad;
    if (cr_coins_parse(&m->coins, r->coins, strlen(r->coins), &bad))
        return cr_errorf(err, CR_EDB, "%s: instance '%s': coins: %s", m->path, r->ext_id, bad.msg);
    memcpy(m->coins_of, r->ext_id, len + 1);
    return 0;
}

static int compare_pair(merge *m, const cr_stored_result *a, const cr_stored_result *b, cr_error *err)
{
    cr_run_finding f = {a->ext_id, a->n, a->variant, a, b, {0}};
    if (strcmp(a->coins, b->coins) != 0) {
        f.diff.category = CR_CHANGED;
        snprintf(f.diff.why, sizeof f.diff.why, "the instance's coins differ: not compared");
        count(m, &f);
        return 0;
    }
    int rc = coins_of(m, a, err);
    if (rc == 0) {
        cr_side sa = side_of(a), sb = side_of(b);
        rc = cr_compare_sides(&f.diff, m->coins.v, m->coins.n, a->variant, &sa, &sb, m->strict_moves, err);
    }
    if (rc == 0)
        count(m, &f);
    return rc;
}

static void missing(merge *m, const cr_stored_result *a, const cr_stored_result *b)
{
    const cr_stored_result *there = a ? a : b;
    cr_run_finding f = {there->ext_id, there->n, there->variant, a, b, {0}};
    f.diff.category = CR_MISSING;
    snprintf(f.diff.why, sizeof f.diff.why, "%s has no result", a ? "b" : "a");
    count(m, &f);
}

/* The next row of `it` among the compared variants: 1, 0 at the end, or a code. */
static int next_compared(const cr_stored_result **out, cr_store_results *it, unsigned variants, cr_error *err)
{
    int rc;
    while ((rc = cr_store_results_next(out, it, err)) == 1 && !(variants & CR_VARIANT_BIT((*out)->variant)))
        ;
    return rc;
}

int cr_run_compare(cr_run_comparison *out, cr_store *store_a, const cr_run *a, cr_store *store_b, const cr_run *b,
                   int strict_moves, cr_run_finding_fn on_finding, void *ctx, cr_error *err)
{
    memset(out, 0, sizeof *out);
    out->variants = a->opts.variants & b->opts.variants;
    char set_a[256], set_b[256];
    int rc = cr_store_set_name(set_a, sizeof set_a, store_a, a->set_id, err);
    if (rc == 0)
        rc = cr_store_set_name(set_b, sizeof set_b, store_b, b->set_id, err);
    if (rc)
        return rc;
    if (strcmp(set_a, set_b) != 0)
        return cr_errorf(err, CR_EINVAL, "run %lld is of set '%s' and run %lld of set '%s': nothing to compare",
                         (long long)a->id, set_a, (long long)b->id, set_b);
    if (!out->variants)
        return cr_errorf(err, CR_EINVAL, "runs %lld and %lld have no variant in common", (long long)a->id,
                         (long long)b->id);

    merge m = {out, cr_store_path(store_a), strict_moves, on_finding, ctx, {0}, NULL, 0};
    cr_store_results *it_a = NULL, *it_b = NULL;
    const cr_stored_result *ra = NULL, *rb = NULL;
    rc = cr_store_results_new(&it_a, store_a, a->id, CR_BY_EXT_ID, err);
    if (rc == 0)
        rc = cr_store_results_new(&it_b, store_b, b->id, CR_BY_EXT_ID, err);
    int has_a = rc == 0 ? next_compared(&ra, it_a, out->variants, err) : rc;
    int has_b = has_a >= 0 ? next_compared(&rb, it_b, out->variants, err) : has_a;
    while (has_a >= 0 && has_b >= 0 && (has_a || has_b)) {
        int order = !has_a ? 1 : !has_b ? -1 : key_order(ra, rb);
        if (order == 0 && (rc = compare_pair(&m, ra, rb, err)) != 0)
            break;
        if (order != 0)
            missing(&m, order < 0 ? ra : NULL, order > 0 ? rb : NULL);
        if (order <= 0)
            has_a = next_compared(&ra, it_a, out->variants, err);
        if (order >= 0 && has_a >= 0)
            has_b = next_compared(&rb, it_b, out->variants, err);
    }
    if (rc == 0 && (has_a < 0 || has_b < 0))
        rc = has_a < 0 ? has_a : has_b;
    cr_store_results_free(it_a);
    cr_store_results_free(it_b);
    cr_coins_free(&m.coins);
    free(m.coins_of);
    return rc;
}

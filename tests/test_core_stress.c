/* Cross-checking solvers: agreement on the real algorithms, and a planted
 * bug (a greedy solver that exists only in this test) found and shrunk. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "coinrow.h"
#include "coinrow/stress.h"
#include "support/oracle.h"

/* Always takes the larger end: wrong on [8, 15, 3, 7].  Its diff value is
 * the lead of that play; everything else comes from the real solver. */
static int greedy(cr_result out[CR_VARIANT_COUNT], void *ctx, const int64_t *coins, size_t n,
                  const cr_solve_opts *opts, cr_error *err)
{
    int rc = cr_solve(out, ctx, coins, n, opts, err);
    int64_t lead = 0;
    for (size_t i = 0, j = n - 1, turn = 0; turn < n; turn++) {
        int64_t taken = coins[i] >= coins[j] ? coins[i++] : coins[j--];
        lead += turn % 2 ? -taken : taken;
    }
    if (opts->variants & CR_VARIANT_BIT(CR_DIFF))
        out[CR_DIFF].value = lead;
    return rc;
}

typedef struct fixture {
    cr_solver *solvers[4];
    cr_contender contenders[4];
} fixture;

static int setup(void **state)
{
    static fixture f;
    static const cr_algo algos[] = {CR_ALGO_LINEAR, CR_ALGO_DP, CR_ALGO_NAIVE, CR_ALGO_LINEAR};
    static const char *const names[] = {"linear", "dp", "naive", "greedy"};
    for (int k = 0; k < 4; k++) {
        if (cr_solver_new(&f.solvers[k], NULL))
            return -1;
        f.contenders[k] = (cr_contender){names[k], k == 3 ? greedy : cr_stress_builtin, f.solvers[k], algos[k]};
    }
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    for (int k = 0; k < 4; k++)
        cr_solver_free(f->solvers[k]);
    return 0;
}

/* A random row of n_min..n_max coins in -v..v; its n. */
static size_t random_row(int64_t *coins, uint64_t *rng, int64_t n_min, int64_t n_max, int64_t v)
{
    size_t n = (size_t)test_rand_range(rng, n_min, n_max);
    for (size_t i = 0; i < n; i++)
        coins[i] = test_rand_range(rng, -v, v);
    return n;
}

static void test_stress__real_algorithms_agree(void **state)
{
    fixture *f = *state;
    uint64_t rng = 5;
    for (int t = 0; t < 2000; t++) {
        int64_t coins[12];
        size_t n = random_row(coins, &rng, 1, 12, 9);
        cr_disagreement d;
        assert_int_equal(cr_stress_check(&d, f->contenders, 3, coins, n, CR_VARIANTS_ALL,
                                         t % 2 ? CR_MOVES_FAST : CR_MOVES_CANONICAL, NULL),
                         0);
        assert_int_equal(d.found, 0);
    }
}

/* What `coinrow stress --algos linear,dp,greedy` would do, had it greedy. */
static void test_stress__planted_greedy_is_found_and_shrunk(void **state)
{
    fixture *f = *state;
    cr_contender three[3] = {f->contenders[0], f->contenders[1], f->contenders[3]};
    cr_gen_spec spec = {{1, 20, -1000, 1000, 0, 0}, 500, 42, CR_PROFILE_RANDOM};
    cr_stress_report report;
    assert_int_equal(cr_stress_run(&report, three, 3, &spec, CR_VARIANTS_ALL, CR_MOVES_FAST, NULL), 0);
    assert_int_equal(report.found.found, 1);
    assert_int_equal(report.found.variant, CR_DIFF);
    assert_int_equal(report.found.second, 2);
    assert_non_null(strstr(report.found.what, "diff value: linear says"));
    assert_true(report.original_n > report.n);
    assert_true(report.n <= 4);
    for (size_t i = 0; i < report.n; i++)
        assert_true(report.coins[i] >= -3 && report.coins[i] <= 3);

    /* the shrunk row still fails; none of its one-step shrinks does */
    cr_disagreement d;
    assert_int_equal(cr_stress_check(&d, three, 3, report.coins, report.n, CR_VARIANTS_ALL, CR_MOVES_FAST, NULL), 0);
    assert_int_equal(d.found, 1);
    for (size_t drop = 0; report.n > 1 && drop < report.n; drop++) {
        int64_t fewer[4];
        size_t m = 0;
        for (size_t i = 0; i < report.n; i++)
            if (i != drop)
                fewer[m++] = report.coins[i];
        assert_int_equal(cr_stress_check(&d, three, 3, fewer, m, CR_VARIANTS_ALL, CR_MOVES_FAST, NULL), 0);
        assert_int_equal(d.found, 0);
    }
    cr_stress_report_free(&report);
}

static void test_stress__agreement_counts_every_row(void **state)
{
    fixture *f = *state;
    cr_gen_spec spec = {{1, 10, -5, 5, 0, 0}, 300, 9, CR_PROFILE_RANDOM};
    cr_stress_report report;
    assert_int_equal(cr_stress_run(&report, f->contenders, 3, &spec, CR_VARIANTS_ALL, CR_MOVES_CANONICAL, NULL), 0);
    assert_int_equal(report.found.found, 0);
    assert_int_equal(report.agreed, 300);
    cr_stress_report_free(&report);
}

/* A line that is legal and ends on the right score can still be wrong. */
static int spoiled_line(cr_result out[CR_VARIANT_COUNT], void *ctx, const int64_t *coins, size_t n,
                        const cr_solve_opts *opts, cr_error *err)
{
    int rc = cr_solve(out, ctx, coins, n, opts, err);
    static char line[64];
    if (n >= 2 && n < sizeof line && out[CR_TOTAL].moves) {
        memcpy(line, out[CR_TOTAL].moves, n + 1);
        line[0] = line[0] == 'L' ? 'R' : 'L';
        out[CR_TOTAL].moves = line;
    }
    return rc;
}

static void test_stress__bad_lines_are_caught_by_the_verifier(void **state)
{
    fixture *f = *state;
    cr_contender pair[2] = {f->contenders[0], {"spoiled", spoiled_line, f->solvers[3], CR_ALGO_LINEAR}};
    const int64_t coins[] = {8, 15, 3, 7};
    cr_disagreement d;
    assert_int_equal(cr_stress_check(&d, pair, 2, coins, 4, CR_VARIANT_BIT(CR_TOTAL), CR_MOVES_FAST, NULL), 0);
    assert_int_equal(d.found, 1);
    assert_int_equal(d.first, 1);
    assert_string_equal(d.what, "total, spoiled: turn 1 (first player): L is not optimal, R is");
}

/* The core's own solver, reporting canonical lines whatever it is asked. */
static int canonical_always(cr_result out[CR_VARIANT_COUNT], void *ctx, const int64_t *coins, size_t n,
                            const cr_solve_opts *opts, cr_error *err)
{
    cr_solve_opts canonical = *opts;
    canonical.moves = CR_MOVES_CANONICAL;
    return cr_solve(out, ctx, coins, n, &canonical, err);
}

/* Two optimal lines of the remaining game may score differently (only their
 * difference is the value): contenders with other lines agree all the same. */
static void test_stress__other_optimal_lines_with_other_remaining_scores_agree(void **state)
{
    fixture *f = *state;
    cr_contender pair[2] = {f->contenders[0], {"canonical", canonical_always, f->solvers[3], CR_ALGO_DP}};
    uint64_t rng = 77;
    int other_scores = 0;
    for (int t = 0; t < 500; t++) {
        int64_t coins[10];
        size_t n = random_row(coins, &rng, 2, 10, 5);
        cr_disagreement d;
        assert_int_equal(cr_stress_check(&d, pair, 2, coins, n, CR_VARIANT_BIT(CR_REMAINING), CR_MOVES_FAST, NULL),
                         0);
        if (d.found)
            fail_msg("row %d: %s", t, d.what);
        cr_result a[CR_VARIANT_COUNT], b[CR_VARIANT_COUNT];
        cr_solve_opts opts = {CR_VARIANT_BIT(CR_REMAINING), CR_ALGO_LINEAR, CR_MOVES_FAST};
        assert_int_equal(cr_solve(a, f->solvers[0], coins, n, &opts, NULL), 0);
        assert_int_equal(canonical_always(b, f->solvers[3], coins, n, &opts, NULL), 0);
        other_scores += a[CR_REMAINING].first_score != b[CR_REMAINING].first_score;
    }
    assert_true(other_scores > 0); /* such rows were met */
}

/* Right value and line, but a first score one too high. */
static int scores_off_by_one(cr_result out[CR_VARIANT_COUNT], void *ctx, const int64_t *coins, size_t n,
                             const cr_solve_opts *opts, cr_error *err)
{
    int rc = cr_solve(out, ctx, coins, n, opts, err);
    out[CR_TOTAL].first_score++;
    return rc;
}

/* Fails the diff variant, as an algorithm that refuses the row would. */
static int refuses_diff(cr_result out[CR_VARIANT_COUNT], void *ctx, const int64_t *coins, size_t n,
                        const cr_solve_opts *opts, cr_error *err)
{
    int rc = cr_solve(out, ctx, coins, n, opts, err);
    out[CR_DIFF].missing = CR_FIGURES_ALL;
    out[CR_DIFF].moves = NULL;
    cr_error_set(&out[CR_DIFF].error, CR_ETOOBIG, "too long for me");
    return rc;
}

static int cannot_run(cr_result out[CR_VARIANT_COUNT], void *ctx, const int64_t *coins, size_t n,
                      const cr_solve_opts *opts, cr_error *err)
{
    (void)out, (void)ctx, (void)coins, (void)n, (void)opts;
    return cr_error_set(err, CR_EINVAL, "bad options");
}

static void test_stress__scores_failures_and_contenders_that_cannot_run(void **state)
{
    fixture *f = *state;
    const int64_t coins[] = {8, 15, 3, 7};
    cr_disagreement d;
    cr_contender liar[2] = {f->contenders[0], {"liar", scores_off_by_one, f->solvers[3], CR_ALGO_LINEAR}};
    /* its scores differ from linear's, and its line does not replay to them */
    assert_int_equal(cr_stress_check(&d, liar, 2, coins, 4, CR_VARIANT_BIT(CR_TOTAL), CR_MOVES_FAST, NULL), 0);
    assert_string_equal(d.what, "total first_score: linear says 22, liar says 23");
    assert_int_equal(cr_stress_check(&d, liar + 1, 1, coins, 4, CR_VARIANT_BIT(CR_TOTAL), CR_MOVES_FAST, NULL), 0);
    assert_int_equal(d.found, 1);
    assert_string_equal(d.what, "total, liar: its line does not replay to its scores 23 and 11");

    cr_contender refusing[2] = {f->contenders[0], {"refuser", refuses_diff, f->solvers[3], CR_ALGO_DP}};
    assert_int_equal(cr_stress_check(&d, refusing, 2, coins, 4, CR_VARIANTS_ALL, CR_MOVES_NONE, NULL), 0);
    assert_string_equal(d.what, "diff: linear solves it, refuser too long for me");
    cr_contender swapped[2] = {refusing[1], refusing[0]};
    assert_int_equal(cr_stress_check(&d, swapped, 2, coins, 4, CR_VARIANTS_ALL, CR_MOVES_NONE, NULL), 0);
    assert_string_equal(d.what, "diff: refuser too long for me, linear solves it");
    /* both fail alike: they agree */
    cr_contender both[2] = {refusing[1], refusing[1]};
    assert_int_equal(cr_stress_check(&d, both, 2, coins, 4, CR_VARIANT_BIT(CR_DIFF), CR_MOVES_NONE, NULL), 0);
    assert_int_equal(d.found, 0);

    cr_contender broken[2] = {f->contenders[0], {"broken", cannot_run, NULL, CR_ALGO_LINEAR}};
    cr_error err;
    assert_int_equal(cr_stress_check(&d, broken, 2, coins, 4, CR_VARIANTS_ALL, CR_MOVES_FAST, &err), CR_EINVAL);
    assert_string_equal(err.msg, "stress: broken could not run");
}

/* Disagreeing on one coin: no coin can be dropped, the value shrinks to 0. */
static void test_stress__a_one_coin_row_shrinks_its_value(void **state)
{
    fixture *f = *state;
    cr_contender pair[2] = {f->contenders[0], {"liar", scores_off_by_one, f->solvers[3], CR_ALGO_LINEAR}};
    int64_t coins[] = {-37};
    size_t n = 1;
    cr_disagreement d;
    assert_int_equal(cr_stress_shrink(&d, coins, &n, pair, 2, CR_VARIANT_BIT(CR_TOTAL), CR_MOVES_FAST, NULL), 0);
    assert_int_equal(d.found, 1);
    assert_int_equal(n, 1);
    assert_int_equal(coins[0], 0);
}

static void test_stress__an_impossible_spec_is_refused(void **state)
{
    fixture *f = *state;
    cr_gen_spec spec = {{4, 2, 0, 9, 0, 0}, 10, 1, CR_PROFILE_RANDOM};
    cr_stress_report report;
    cr_error err;
    assert_int_equal(cr_stress_run(&report, f->contenders, 2, &spec, CR_VARIANTS_ALL, CR_MOVES_FAST, &err),
                     CR_EINVAL);
    assert_null(report.coins);
    cr_stress_report_free(&report);
    cr_stress_report_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stress__real_algorithms_agree),
        cmocka_unit_test(test_stress__planted_greedy_is_found_and_shrunk),
        cmocka_unit_test(test_stress__agreement_counts_every_row),
        cmocka_unit_test(test_stress__bad_lines_are_caught_by_the_verifier),
        cmocka_unit_test(test_stress__other_optimal_lines_with_other_remaining_scores_agree),
        cmocka_unit_test(test_stress__scores_failures_and_contenders_that_cannot_run),
        cmocka_unit_test(test_stress__a_one_coin_row_shrinks_its_value),
        cmocka_unit_test(test_stress__an_impossible_spec_is_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

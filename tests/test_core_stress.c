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

static void test_stress__real_algorithms_agree(void **state)
{
    fixture *f = *state;
    uint64_t rng = 5;
    for (int t = 0; t < 2000; t++) {
        int64_t coins[12];
        size_t n = (size_t)test_rand_range(&rng, 1, 12);
        for (size_t i = 0; i < n; i++)
            coins[i] = test_rand_range(&rng, -9, 9);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stress__real_algorithms_agree),
        cmocka_unit_test(test_stress__planted_greedy_is_found_and_shrunk),
        cmocka_unit_test(test_stress__agreement_counts_every_row),
        cmocka_unit_test(test_stress__bad_lines_are_caught_by_the_verifier),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

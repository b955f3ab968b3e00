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

static void test_stress__planted_greedy_is_found_and_shrunk(void **state)
{
    fixture *f = *state;
    cr_contender pair[2] = {f->contenders[0], f->contenders[3]};
    int64_t coins[14] = {80, 150, 30, 70, 12, -4, 19, 19, 3, 41, 7, 0, 66, 5};
    size_t n = 14;
    cr_disagreement d;
    assert_int_equal(cr_stress_check(&d, pair, 2, coins, n, CR_VARIANTS_ALL, CR_MOVES_FAST, NULL), 0);
    assert_int_equal(d.found, 1);
    assert_int_equal(cr_stress_shrink(&d, coins, &n, pair, 2, CR_VARIANTS_ALL, CR_MOVES_FAST, NULL), 0);
    assert_int_equal(d.found, 1);
    assert_int_equal(d.variant, CR_DIFF);
    assert_true(n <= 4);
    for (size_t i = 0; i < n; i++)
        assert_true(coins[i] >= -2 && coins[i] <= 2);
    assert_non_null(strstr(d.what, "diff value: linear says"));
    /* minimal: dropping any coin or nudging any value makes it agree */
    cr_disagreement again;
    assert_int_equal(cr_stress_check(&again, pair, 2, coins, n, CR_VARIANTS_ALL, CR_MOVES_FAST, NULL), 0);
    assert_int_equal(again.found, 1);
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
    assert_string_equal(d.what, "total, spoiled: turn 0 (first player): L is not optimal, R is");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stress__real_algorithms_agree),
        cmocka_unit_test(test_stress__planted_greedy_is_found_and_shrunk),
        cmocka_unit_test(test_stress__bad_lines_are_caught_by_the_verifier),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

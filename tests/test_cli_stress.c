/* `coinrow stress` end to end (its engine and the planted bug are in
 * test_core_stress.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "support/run.h"

static void test_stress_cli__agreement_exits_0_with_counts(void **state)
{
    (void)state;
    run_result r;
    assert_int_equal(run_coinrow(&r, NULL, "stress", "--count", "500", "--n", "1..14", "--values", "-20..20",
                                 "--seed", "3", "--moves", "canonical", (char *)NULL),
                     0);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "stress: 500 rows (n 1..14, values -20..20, seed 3): linear, dp and naive agree on "
                               "every value, and every canonical line passed the verifier\n");
    run_result_free(&r);
    assert_int_equal(run_coinrow(&r, NULL, "stress", "--algos", "dp,linear", "--variant", "remaining", "--count",
                                 "50", "--n", "100..200", "--values", "-1000000000..1000000000", "--seed", "4",
                                 (char *)NULL),
                     0);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "50 rows"));
    run_result_free(&r);
}

static void test_stress_cli__usage_errors(void **state)
{
    (void)state;
    run_result r;
    assert_int_equal(run_coinrow(&r, NULL, "stress", "--count", "5", "--n", "1..30", "--values", "0..9", "--seed",
                                 "1", (char *)NULL),
                     0);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "naive takes at most 25 coins"));
    run_result_free(&r);
    assert_int_equal(run_coinrow(&r, NULL, "stress", "--algos", "linear,quick", "--count", "5", "--n", "1..3",
                                 "--values", "0..9", "--seed", "1", (char *)NULL),
                     0);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "unknown algorithm 'quick'"));
    run_result_free(&r);
    assert_int_equal(run_coinrow(&r, NULL, "stress", "--count", "5", (char *)NULL), 0);
    assert_int_equal(r.status, 2);
    run_result_free(&r);
}

/* As diff(1): 1 is a disagreement only; trouble is 2. */
static void test_stress_cli__help_gives_the_exit_statuses_of_diff(void **state)
{
    (void)state;
    run_result r;
    assert_int_equal(run_coinrow(&r, NULL, "stress", "--help", (char *)NULL), 0);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "Exit status, as diff(1): 0 all agree, 1 a disagreement, 2 trouble"));
    run_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stress_cli__agreement_exits_0_with_counts),
        cmocka_unit_test(test_stress_cli__usage_errors),
        cmocka_unit_test(test_stress_cli__help_gives_the_exit_statuses_of_diff),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

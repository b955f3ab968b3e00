/* Verdicts (invoke/invoke.h) on runs described by hand: the ends a real
 * program gives rarely or not at will (a signal without a name, SIGXCPU
 * from RLIMIT_CPU under the limit's fraction), and a built-in strategy
 * whose figure leaves int64; the built-ins' strength stopped at will. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "coinrow.h"
#include "util/util.h"
#include "invoke/invoke.h"
#include "batch/batch.h"
#include "store/store.h"
#include "support/core_check.h"

static const char input[] = "3\n1 2 3\n";
static const char jury[] = "4\n";

/* The verdict on run, under a limit of 1 s of CPU, against the jury's 4. */
static void judge(cr_verdict_row *out, const cr_child_report *run)
{
    cr_limits limits = {.cpu_seconds = 1};
    cr_error err = {0};
    assert_int_equal(cr_verdict_program(out, run, &limits, input, strlen(input), jury, strlen(jury), CR_TOTAL,
                                        CR_CHECK_MOVES_IGNORED, &err),
                     0);
}

static void test_verdict__a_signal_without_a_name_is_given_by_number(void **state)
{
    (void)state;
    char name[16];
    cr_verdict_signal_name(name, SIGSEGV);
    assert_string_equal(name, "SIGSEGV");
    cr_verdict_signal_name(name, SIGRTMIN + 1);
    char want[32];
    snprintf(want, sizeof want, "signal %d", SIGRTMIN + 1);
    assert_string_equal(name, want);

    cr_verdict_row row;
    judge(&row, &(cr_child_report){.end = CR_CHILD_SIGNALED, .signal = SIGRTMIN + 1, .cpu_seconds = 0.01});
    assert_int_equal(row.verdict, CR_INVOKE_RE);
    assert_string_equal(row.signal, want);
    assert_non_null(strstr(row.message, "ended by signal "));
}

/* RLIMIT_CPU counts whole seconds, by the kernel's count, so SIGXCPU may
 * come with a CPU time from wait4 at or under the limit: still TLE, saying
 * who stopped it and what wait4 counted (it said "CPU time 0.980 s over
 * the limit of 1 s"). */
static void test_verdict__sigxcpu_is_a_time_limit_stopped_by_rlimit_cpu(void **state)
{
    (void)state;
    static const double counted[] = {1.0, 0.98, 1.2};
    for (size_t k = 0; k < sizeof counted / sizeof *counted; k++) {
        cr_verdict_row row;
        judge(&row, &(cr_child_report){.end = CR_CHILD_SIGNALED, .signal = SIGXCPU, .cpu_seconds = counted[k]});
        assert_int_equal(row.verdict, CR_INVOKE_TLE);
        assert_string_equal(row.signal, "SIGXCPU");
        char want[128];
        snprintf(want, sizeof want, "stopped by RLIMIT_CPU at the limit of 1 s in whole seconds (wait4 counted %.3f s "
                                    "of CPU)", counted[k]);
        assert_memory_equal(row.message, want, strlen(want)); /* then what its output was */
        assert_null(strstr(row.message, "over"));
    }
}

/* left on [0, -1, MAX] leads by 0 + 1 + MAX, which no int64 program can
 * print (the best play leads by MAX - 1): RE, naming the strategy. */
static void test_verdict__a_builtin_whose_lead_leaves_int64_is_a_runtime_error(void **state)
{
    (void)state;
    const int64_t coins[] = {0, -1, INT64_MAX};
    const char in[] = "3\n0 -1 9223372036854775807\n", answer[] = "9223372036854775806\n";
    cr_verdict_row row;
    cr_error err = {0};
    int rc = cr_verdict_builtin(&row, CR_STRATEGY_LEFT, coins, 3, in, strlen(in), answer, strlen(answer), CR_DIFF,
                                CR_CHECK_MOVES_IGNORED, &err);
    if (rc)
        fail_msg("%d %s", rc, err.msg);
    assert_int_equal(row.verdict, CR_INVOKE_RE);
    assert_non_null(strstr(row.message, "left: "));
}

/* ---- strength ---- */

/* Stores `rows` instances [k, 1, k + 2] in the fixture's set, solved for
 * diff by a new run: its id. */
static int64_t solved_set(store_fixture *f, int rows)
{
    cr_solve_opts opts = {CR_VARIANT_BIT(CR_DIFF), CR_ALGO_AUTO, CR_MOVES_CANONICAL};
    int64_t run;
    cr_error err = {0};
    assert_int_equal(cr_store_run_new(&run, f->store, f->set_id, &opts, "test", NULL, &err), 0);
    cr_pipeline_opts po = {.set_id = f->set_id, .run_id = run, .solve = opts, .jobs = 1};
    cr_pipeline *p = NULL;
    cr_pipeline_stats stats;
    assert_int_equal(cr_pipeline_new(&p, f->store, &po, &err), 0);
    cr_coins coins = {0};
    for (int k = 0; k < rows; k++) {
        coins.n = 0;
        const int64_t values[] = {k, 1, k + 2};
        for (int i = 0; i < 3; i++)
            assert_int_equal(cr_coins_push(&coins, values[i], NULL), 0);
        char id[16];
        cr_row row = {.source = "test", .line = (uint64_t)k + 1, .coins = coins.v, .n = coins.n,
                      .coins_json = coins.json, .coins_json_len = coins.json_len, .ext_id = id};
        row.ext_id_len = (size_t)snprintf(id, sizeof id, "t%d", k);
        assert_int_equal(cr_pipeline_row(p, &row), 0);
    }
    cr_coins_free(&coins);
    assert_int_equal(cr_pipeline_finish(p, &stats, &err), 0);
    cr_pipeline_free(p);
    assert_int_equal(stats.solved, (uint64_t)rows);
    return run;
}

/* A stop ends strength after the test at hand, with CR_EINTERRUPTED and
 * the tests judged so far counted; without it every test is judged. */
static void test_strength__a_stop_ends_it_after_the_test_at_hand(void **state)
{
    store_fixture *f = *state;
    int64_t run = solved_set(f, 5);
    cr_strength s;
    cr_error err = {0};
    assert_int_equal(cr_strength_run(&s, f->store, f->set_id, run, CR_DIFF, CR_CHECK_MOVES_IGNORED, NULL, NULL, NULL,
                                     &err),
                     0);
    assert_int_equal(s.tests, 5);
    atomic_int stop = 1;
    assert_int_equal(cr_strength_run(&s, f->store, f->set_id, run, CR_DIFF, CR_CHECK_MOVES_IGNORED, &stop, NULL, NULL,
                                     &err),
                     CR_EINTERRUPTED);
    assert_string_equal(err.msg, "interrupted");
    assert_int_equal(s.tests, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_verdict__a_signal_without_a_name_is_given_by_number),
        cmocka_unit_test(test_verdict__sigxcpu_is_a_time_limit_stopped_by_rlimit_cpu),
        cmocka_unit_test(test_verdict__a_builtin_whose_lead_leaves_int64_is_a_runtime_error),
        cmocka_unit_test_setup_teardown(test_strength__a_stop_ends_it_after_the_test_at_hand, store_fixture_setup,
                                        store_fixture_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Golden tests of `coinrow eval`: output, exit status and messages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "support/run.h"

#define EVAL(input, ...)                                                                                     \
    run_result r;                                                                                            \
    assert_int_equal(run_coinrow(&r, input, "eval", __VA_ARGS__, (char *)NULL), 0)

static void test_eval__json_prints_one_object_per_variant(void **state)
{
    (void)state;
    EVAL(NULL, "--json", "4", "6", "2", "3");
    assert_int_equal(r.status, 0);
    assert_string_equal(
        r.out,
        "{\"variant\":\"total\",\"n\":4,\"value\":9,\"first_score\":9,\"second_score\":6,\"winner\":\"first\","
        "\"moves\":\"RLLL\",\"algo\":\"linear\",\"error\":null}\n"
        "{\"variant\":\"diff\",\"n\":4,\"value\":3,\"first_score\":9,\"second_score\":6,\"winner\":\"first\","
        "\"moves\":\"RLLL\",\"algo\":\"linear\",\"error\":null}\n"
        "{\"variant\":\"remaining\",\"n\":4,\"value\":9,\"first_score\":14,\"second_score\":5,\"winner\":\"first\","
        "\"moves\":\"LLLL\",\"algo\":\"linear\",\"error\":null}\n"
        "{\"variant\":\"winner\",\"n\":4,\"value\":1,\"first_score\":9,\"second_score\":6,\"winner\":\"first\","
        "\"moves\":\"RLLL\",\"algo\":\"linear\",\"error\":null}\n");
    assert_string_equal(r.err, "");
    run_result_free(&r);
}

static void test_eval__negative_values_follow_double_dash(void **state)
{
    (void)state;
    EVAL(NULL, "--json", "--variant", "diff", "--", "-3", "5", "-1");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "{\"variant\":\"diff\",\"n\":3,\"value\":-9,\"first_score\":-4,\"second_score\":5,"
                               "\"winner\":\"second\",\"moves\":\"LLL\",\"algo\":\"linear\",\"error\":null}\n");
    run_result_free(&r);
}

static void test_eval__reads_standard_input_with_commas(void **state)
{
    (void)state;
    EVAL("6,4,2,5,3\n", "--json", "--variant", "remaining", "--moves", "canonical", "--algo", "dp");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "{\"variant\":\"remaining\",\"n\":5,\"value\":8,\"first_score\":24,"
                               "\"second_score\":16,\"winner\":\"first\",\"moves\":\"RLLLL\",\"algo\":\"dp\",\"error\":null}\n");
    run_result_free(&r);
}

/* A file saved with a UTF-8 byte order mark, piped in, reads as ingest
 * reads it: the mark used to make the first value "not an integer". */
static void test_eval__standard_input_may_start_with_a_byte_order_mark(void **state)
{
    (void)state;
    EVAL("\xEF\xBB\xBF" "4 6 2 3\n", "--json", "--variant", "total");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\"variant\":\"total\",\"n\":4,\"value\":9,"));
    run_result_free(&r);
}

static void test_eval__moves_none_prints_null(void **state)
{
    (void)state;
    EVAL(NULL, "--json", "--variant", "winner", "--moves", "none", "--algo", "naive", "5", "5");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "{\"variant\":\"winner\",\"n\":2,\"value\":0,\"first_score\":5,\"second_score\":5,"
                               "\"winner\":\"draw\",\"moves\":null,\"algo\":\"naive\",\"error\":null}\n");
    run_result_free(&r);
}

static void test_eval__human_output_is_a_table(void **state)
{
    (void)state;
    EVAL(NULL, "--variant", "total", "8", "15", "3", "7");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "variant                   value          first_score         second_score  winner  moves\n"
                               "total                        22                   22                   11  first   RLLL\n"
                               "n = 4, algorithm linear\n");
    run_result_free(&r);
}

static void test_eval__bad_token_names_it_and_its_position(void **state)
{
    (void)state;
    EVAL(NULL, "4", "6", "x2", "3");
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    assert_string_equal(r.err, "coinrow: value 3 ('x2') is not an integer\n");
    run_result_free(&r);
}

static void test_eval__out_of_range_token_is_rejected(void **state)
{
    (void)state;
    EVAL(NULL, "1", "9223372036854775808");
    assert_int_equal(r.status, 1);
    assert_string_equal(r.err, "coinrow: value 2 ('9223372036854775808') is out of the int64 range\n");
    run_result_free(&r);
}

static void test_eval__no_values_is_an_error(void **state)
{
    (void)state;
    EVAL(" \n", "--json");
    assert_int_equal(r.status, 1);
    assert_string_equal(r.err, "coinrow: no values\n");
    run_result_free(&r);
}

/* A value outside int64 exits 1, naming it; --json still gives the
 * variant, its value null and the error (it left the variant out, so a
 * program reading the JSON lost it and its error). */
static void test_eval__overflow_exits_1_naming_the_figure(void **state)
{
    (void)state;
    EVAL(NULL, "--json", "--variant", "total", "9223372036854775807", "9223372036854775807", "9223372036854775807");
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "{\"variant\":\"total\",\"n\":3,\"value\":null,\"first_score\":null,"
                               "\"second_score\":9223372036854775807,\"winner\":\"first\",\"moves\":\"LLL\","
                               "\"algo\":\"linear\",\"error\":\"the total value (18446744073709551614) and "
                               "first_score (18446744073709551614) do not fit in int64\"}\n");
    assert_string_equal(r.err, "coinrow: the total value (18446744073709551614) and first_score "
                               "(18446744073709551614) do not fit in int64\n");
    run_result_free(&r);
}

/* The row: diff is MAX and the first player wins, though a total
 * leaves int64; the figures that do not fit are null and named. */
static void test_eval__a_value_that_fits_is_given_with_null_for_what_does_not(void **state)
{
    (void)state;
    EVAL(NULL, "--json", "--variant", "diff,winner", "--moves", "canonical", "9223372036854775807",
         "9223372036854775807", "9223372036854775807");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out,
                        "{\"variant\":\"diff\",\"n\":3,\"value\":9223372036854775807,\"first_score\":null,"
                        "\"second_score\":9223372036854775807,\"winner\":\"first\",\"moves\":\"LLL\",\"algo\":\"linear\","
                        "\"error\":\"the diff first_score (18446744073709551614) does not fit in int64\"}\n"
                        "{\"variant\":\"winner\",\"n\":3,\"value\":1,\"first_score\":null,"
                        "\"second_score\":9223372036854775807,\"winner\":\"first\",\"moves\":\"LLL\",\"algo\":\"linear\","
                        "\"error\":\"the winner first_score (18446744073709551614) does not fit in int64\"}\n");
    assert_string_equal(r.err, "coinrow: the diff first_score (18446744073709551614) does not fit in int64\n"
                               "coinrow: the winner first_score (18446744073709551614) does not fit in int64\n");
    run_result_free(&r);
}

/* The fast line takes the left end on a tie (docs/design.md): [5, 1, 5]
 * opens with L, though R is as good. */
static void test_eval__the_fast_line_takes_the_left_end_on_a_tie(void **state)
{
    (void)state;
    EVAL(NULL, "--variant", "diff,remaining", "--moves", "fast", "5", "1", "5");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "variant                   value          first_score         second_score  winner  moves\n"
                               "diff                          1                    6                    5  first   LRL\n"
                               "remaining                     1                    6                    5  first   LLL\n"
                               "n = 3, algorithm linear\n");
    run_result_free(&r);
}

/* Merging the first three coins leaves int64 (x - y is -1.8e19): the linear
 * method goes on in 128 bits and agrees with the DP to the last digit. */
static void test_eval__a_row_past_64_bit_intermediates_is_exact(void **state)
{
    (void)state;
    static const char *const algos[] = {"linear", "dp"};
    for (size_t i = 0; i < 2; i++) {
        EVAL(NULL, "--json", "--variant", "diff", "--algo", algos[i], "--", "-9000000000000000000",
             "9000000000000000000", "9000000000000000000");
        assert_int_equal(r.status, 0);
        char want[256];
        snprintf(want, sizeof want,
                 "{\"variant\":\"diff\",\"n\":3,\"value\":-9000000000000000000,\"first_score\":0,"
                 "\"second_score\":9000000000000000000,\"winner\":\"second\",\"moves\":\"LLL\",\"algo\":\"%s\","
                 "\"error\":null}\n",
                 algos[i]);
        assert_string_equal(r.out, want);
        run_result_free(&r);
    }
}

static void test_eval__usage_errors_exit_2_with_a_hint(void **state)
{
    (void)state;
    {
        EVAL(NULL, "--variant", "best", "1");
        assert_int_equal(r.status, 2);
        assert_non_null(strstr(r.err, "unknown variant 'best'"));
        assert_non_null(strstr(r.err, "Try 'coinrow eval --help'"));
        run_result_free(&r);
    }
    {
        EVAL(NULL, "-3", "5");
        assert_int_equal(r.status, 2);
        assert_non_null(strstr(r.err, "unknown option '-3'"));
        run_result_free(&r);
    }
    {
        EVAL(NULL, "--moves");
        assert_int_equal(r.status, 2);
        assert_non_null(strstr(r.err, "option '--moves' needs a value"));
        run_result_free(&r);
    }
}

static void test_eval__help_and_version(void **state)
{
    (void)state;
    run_result r;
    assert_int_equal(run_coinrow(&r, NULL, "help", "eval", (char *)NULL), 0);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "usage: coinrow eval"));
    assert_non_null(strstr(r.out, "--json"));
    run_result_free(&r);
    assert_int_equal(run_coinrow(&r, NULL, "eval", "--help", (char *)NULL), 0);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "usage: coinrow eval"));
    run_result_free(&r);
    assert_int_equal(run_coinrow(&r, NULL, "--help", (char *)NULL), 0);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "eval"));
    run_result_free(&r);
    assert_int_equal(run_coinrow(&r, NULL, "--version", (char *)NULL), 0);
    assert_int_equal(r.status, 0);
    assert_memory_equal(r.out, "coinrow ", 8);
    run_result_free(&r);
    assert_int_equal(run_coinrow(&r, NULL, "frobnicate", (char *)NULL), 0);
    assert_int_equal(r.status, 2);
    run_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eval__json_prints_one_object_per_variant),
        cmocka_unit_test(test_eval__negative_values_follow_double_dash),
        cmocka_unit_test(test_eval__reads_standard_input_with_commas),
        cmocka_unit_test(test_eval__standard_input_may_start_with_a_byte_order_mark),
        cmocka_unit_test(test_eval__moves_none_prints_null),
        cmocka_unit_test(test_eval__human_output_is_a_table),
        cmocka_unit_test(test_eval__bad_token_names_it_and_its_position),
        cmocka_unit_test(test_eval__out_of_range_token_is_rejected),
        cmocka_unit_test(test_eval__no_values_is_an_error),
        cmocka_unit_test(test_eval__overflow_exits_1_naming_the_figure),
        cmocka_unit_test(test_eval__a_value_that_fits_is_given_with_null_for_what_does_not),
        cmocka_unit_test(test_eval__the_fast_line_takes_the_left_end_on_a_tie),
        cmocka_unit_test(test_eval__a_row_past_64_bit_intermediates_is_exact),
        cmocka_unit_test(test_eval__usage_errors_exit_2_with_a_hint),
        cmocka_unit_test(test_eval__help_and_version),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

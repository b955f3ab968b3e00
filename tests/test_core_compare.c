/* Comparing two stored solutions: same, equivalent, regression. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "coinrow.h"
#include "coinrow/compare.h"

static const int64_t row[] = {8, 15, 3, 7};

static cr_side solved(int64_t value, int64_t first, int64_t second, const char *moves)
{
    return (cr_side){NULL, 0, value, first, second, 1, moves};
}

static cr_difference compare(const int64_t *coins, size_t n, cr_variant v, cr_side a, cr_side b, int strict)
{
    cr_difference d;
    assert_int_equal(cr_compare_sides(&d, coins, n, v, &a, &b, strict, NULL), 0);
    return d;
}

static void test_compare__identical_results_are_same(void **state)
{
    (void)state;
    cr_difference d = compare(row, 4, CR_TOTAL, solved(22, 22, 11, "RLLL"), solved(22, 22, 11, "RLLL"), 0);
    assert_int_equal(d.category, CR_SAME);
    assert_int_equal(d.parted_at, 4);
    d = compare(row, 4, CR_TOTAL, solved(22, 22, 11, NULL), solved(22, 22, 11, NULL), 1);
    assert_int_equal(d.category, CR_SAME);
}

static void test_compare__other_optimal_lines_are_equivalent(void **state)
{
    (void)state;
    static const int64_t equal[] = {3, 3, 3, 3};
    cr_side a = {NULL, 0, 0, 6, 6, 0, "LLLL"}, b = {NULL, 0, 0, 6, 6, 0, "RLRL"};
    cr_difference d = compare(equal, 4, CR_DIFF, a, b, 0);
    assert_int_equal(d.category, CR_EQUIVALENT);
    assert_int_equal(d.parted_at, 0);
    assert_int_equal(d.wrong, 0);
    assert_string_equal(d.why, "lines part at turn 1; both are optimal");
    assert_int_equal(compare(equal, 4, CR_DIFF, a, b, 1).category, CR_REGRESSION);
    /* one run kept no line (--moves none) */
    b.moves = NULL;
    assert_int_equal(compare(equal, 4, CR_DIFF, a, b, 0).category, CR_EQUIVALENT);
}

static void test_compare__a_different_value_is_a_regression(void **state)
{
    (void)state;
    cr_difference d = compare(row, 4, CR_TOTAL, solved(22, 22, 11, "RLLL"), solved(15, 15, 18, "LLLL"), 0);
    assert_int_equal(d.category, CR_REGRESSION);
    assert_string_equal(d.why, "value 22 against 15");
}

/* Finds a suboptimal line of coins[0..n) that still ends on the optimal scores. */
static int cancelling_line(char *out, const int64_t *coins, size_t n, cr_scores best)
{
    for (unsigned mask = 0; mask < 1u << n; mask++) {
        for (size_t k = 0; k < n; k++)
            out[k] = mask >> k & 1 ? 'R' : 'L';
        out[n] = '\0';
        cr_scores s;
        cr_verdict v;
        if (cr_moves_replay(&s, coins, n, CR_TOTAL, out, n, NULL) == 0 && s.first == best.first &&
            cr_moves_verify(&v, coins, n, CR_TOTAL, out, n, NULL) == 0 && v.fault == CR_LINE_SUBOPTIMAL)
            return 1;
    }
    return 0;
}

static void test_compare__a_suboptimal_line_with_the_right_score_is_a_regression(void **state)
{
    (void)state;
    static const int64_t coins[] = {3, 5, 4, 0, 4, 0}; /* e.g. LRRLLL: two mistakes that cancel */
    cr_solver *solver;
    assert_int_equal(cr_solver_new(&solver, NULL), 0);
    cr_result r[CR_VARIANT_COUNT];
    cr_solve_opts opts = {CR_VARIANT_BIT(CR_TOTAL), CR_ALGO_AUTO, CR_MOVES_CANONICAL};
    assert_int_equal(cr_solve(r, solver, coins, 6, &opts, NULL), 0);
    char line[8];
    assert_true(cancelling_line(line, coins, 6, (cr_scores){r[CR_TOTAL].first_score, r[CR_TOTAL].second_score}));
    cr_side good = solved(r[CR_TOTAL].value, r[CR_TOTAL].first_score, r[CR_TOTAL].second_score, r[CR_TOTAL].moves);
    cr_side bad = good;
    bad.moves = line;
    cr_difference d = compare(coins, 6, CR_TOTAL, good, bad, 0);
    assert_int_equal(d.category, CR_REGRESSION);
    assert_int_equal(d.wrong, 2);
    assert_non_null(strstr(d.why, "b's line: turn "));
    assert_true(d.parted_at <= d.wrong_turn);
    cr_solver_free(solver);
}

static void test_compare__failures(void **state)
{
    (void)state;
    cr_side failed = {"the total value does not fit in int64", CR_FIGURES_ALL, 0, 0, 0, 0, NULL};
    cr_difference d = compare(row, 4, CR_TOTAL, solved(22, 22, 11, NULL), failed, 0);
    assert_int_equal(d.category, CR_REGRESSION);
    assert_string_equal(d.why, "b fails: the total value does not fit in int64");
    assert_int_equal(compare(row, 4, CR_TOTAL, failed, failed, 0).category, CR_SAME);
    cr_side other = failed;
    other.error = "too large";
    assert_int_equal(compare(row, 4, CR_TOTAL, failed, other, 0).category, CR_EQUIVALENT);
    assert_string_equal(cr_category_name(CR_MISSING), "missing");
}

/* A row edited by hand (UPDATE result): the winner is named when it is
 * what differs (it said "value 10 against 10"), a missing one too, and a
 * value gone without an error says so (it printed "(null)"). */
static void test_compare__an_edited_winner_or_a_value_without_an_error_is_named(void **state)
{
    (void)state;
    cr_side draw = solved(22, 22, 11, NULL), none = draw;
    draw.winner = 0;
    none.missing = CR_FIGURE_WINNER;
    assert_string_equal(compare(row, 4, CR_TOTAL, draw, solved(22, 22, 11, NULL), 0).why, "winner draw against first");
    assert_string_equal(compare(row, 4, CR_TOTAL, solved(22, 22, 11, NULL), none, 0).why, "winner first against none");
    assert_int_equal(compare(row, 4, CR_TOTAL, none, none, 0).category, CR_SAME);
    cr_side gone = {NULL, CR_FIGURE_VALUE, 0, 22, 11, 1, NULL};
    cr_difference d = compare(row, 4, CR_TOTAL, gone, solved(22, 22, 11, NULL), 0);
    assert_int_equal(d.category, CR_REGRESSION);
    assert_string_equal(d.why, "a fails: no value and no error");
    assert_int_equal(compare(row, 4, CR_TOTAL, gone, gone, 0).category, CR_SAME); /* it crashed on NULL */
}

/* A score that does not fit is missing on its own; the value is still compared. */
static void test_compare__a_missing_score_is_compared_as_missing(void **state)
{
    (void)state;
    cr_side partial = {"the total first_score (...) does not fit in int64", CR_FIGURE_FIRST_SCORE, 22, 0, 11, 1, NULL};
    assert_int_equal(compare(row, 4, CR_TOTAL, partial, partial, 0).category, CR_SAME);
    cr_difference d = compare(row, 4, CR_TOTAL, solved(22, 22, 11, NULL), partial, 0);
    assert_int_equal(d.category, CR_REGRESSION);
    assert_string_equal(d.why, "scores 22:11 against null:11");
    cr_side other_value = partial;
    other_value.value = 21;
    assert_string_equal(compare(row, 4, CR_TOTAL, partial, other_value, 0).why, "value 22 against 21");
}

/* remaining's scores follow the line, so other scores are no regression by
 * themselves; but the same line can only score one way. */
static void test_compare__the_same_line_with_other_scores_is_a_regression(void **state)
{
    (void)state;
    cr_side a = solved(22, 32, 10, "LLLL"), b = solved(22, 33, 11, "LLLL");
    cr_difference d = compare(row, 4, CR_REMAINING, a, b, 0);
    assert_int_equal(d.category, CR_REGRESSION);
    assert_string_equal(d.why, "the same line scored differently");
    /* without lines there is nothing to hold the scores to */
    a.moves = b.moves = NULL;
    assert_int_equal(compare(row, 4, CR_REMAINING, a, b, 0).category, CR_REGRESSION);
    /* and other scores along another optimal line are fine */
    static const int64_t equal[] = {3, 3, 3, 3};
    cr_side left = solved(6, 12, 6, "LLLL"), other = solved(6, 12, 6, "RLRL");
    assert_int_equal(compare(equal, 4, CR_REMAINING, left, other, 0).category, CR_EQUIVALENT);
}

/* Each side in turn: the one that failed, the one that kept a line, the
 * one whose line is wrong. */
static void test_compare__either_side_may_be_the_odd_one(void **state)
{
    (void)state;
    cr_side failed = {"too large", CR_FIGURES_ALL, 0, 0, 0, 0, NULL}, good = solved(22, 22, 11, "RLLL");
    cr_difference d = compare(row, 4, CR_TOTAL, failed, good, 0);
    assert_int_equal(d.category, CR_REGRESSION);
    assert_string_equal(d.why, "a fails: too large");

    cr_side no_line = solved(22, 22, 11, NULL);
    d = compare(row, 4, CR_TOTAL, good, no_line, 0);
    assert_int_equal(d.category, CR_EQUIVALENT);
    assert_string_equal(d.why, "only a kept a line; it is optimal");
    d = compare(row, 4, CR_TOTAL, no_line, good, 1);
    assert_int_equal(d.category, CR_REGRESSION);
    assert_string_equal(d.why, "only b kept a line; it is optimal");

    /* both lines wrong: a's is named, both are flagged */
    cr_side wrong_a = solved(22, 22, 11, "LLLL"), wrong_b = solved(22, 22, 11, "LRLL");
    d = compare(row, 4, CR_TOTAL, wrong_a, wrong_b, 0);
    assert_int_equal(d.category, CR_REGRESSION);
    assert_int_equal(d.wrong, 3);
    assert_int_equal(d.parted_at, 1);
    assert_string_equal(d.why, "a's line: turn 1 (first player): L is not optimal, R is");
    d = compare(row, 4, CR_TOTAL, wrong_a, good, 0);
    assert_int_equal(d.wrong, 1);
    assert_int_equal(d.wrong_turn, 0);

    /* the same value with another winner, and a second score missing on one side */
    cr_side other_winner = good;
    other_winner.winner = -1;
    assert_int_equal(compare(row, 4, CR_TOTAL, good, other_winner, 0).category, CR_REGRESSION);
    cr_side partial = good;
    partial.missing = CR_FIGURE_SECOND_SCORE;
    assert_string_equal(compare(row, 4, CR_TOTAL, good, partial, 0).why, "scores 22:11 against 22:null");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compare__identical_results_are_same),
        cmocka_unit_test(test_compare__other_optimal_lines_are_equivalent),
        cmocka_unit_test(test_compare__a_different_value_is_a_regression),
        cmocka_unit_test(test_compare__a_suboptimal_line_with_the_right_score_is_a_regression),
        cmocka_unit_test(test_compare__failures),
        cmocka_unit_test(test_compare__an_edited_winner_or_a_value_without_an_error_is_named),
        cmocka_unit_test(test_compare__a_missing_score_is_compared_as_missing),
        cmocka_unit_test(test_compare__the_same_line_with_other_scores_is_a_regression),
        cmocka_unit_test(test_compare__either_side_may_be_the_odd_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The seed articles' worked examples and the edge cases (one coin, two
 * coins, ties, the int64 limits, overflow): every row solved here is checked
 * against the brute-force oracle (check_by_brute_force) before the
 * article's figures are compared. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "coinrow.h"
#include "support/oracle.h"

#define ROW(...) ((const int64_t[]){__VA_ARGS__}), (sizeof((const int64_t[]){__VA_ARGS__}) / sizeof(int64_t))

static cr_solver *solver;

static int setup(void **state)
{
    (void)state;
    return cr_solver_new(&solver, NULL);
}

static int teardown(void **state)
{
    (void)state;
    cr_solver_free(solver);
    return 0;
}

static int fits_int64(i128 v) { return v >= INT64_MIN && v <= INT64_MAX; }

/* The brute force's verdict on a row, before any example is believed: the
 * core's value must be the oracle's, its line optimal at every turn and its
 * scores those of the line replayed by the oracle; an overflow must be a
 * figure beyond int64.  Rows longer than the oracle takes are not checked. */
static void check_by_brute_force(const cr_result *r, const int64_t *coins, size_t n, cr_variant v)
{
    static oracle o; /* too large for the stack */
    if (n > ORACLE_MAX_N)
        return;
    oracle_build(&o, coins, n);
    char line[ORACLE_MAX_N + 1];
    const char *played = r->moves;
    if (!played) {
        oracle_smallest_line(&o, v, line);
        played = line;
    }
    i128 scores[2];
    oracle_replay(&o, v, played, scores);
    if (r->error.code == CR_EOVERFLOW) {
        assert_false(fits_int64(oracle_value(&o, v)) && fits_int64(scores[0]) && fits_int64(scores[1]));
        return;
    }
    assert_int_equal(r->error.code, 0);
    assert_true(r->value == oracle_value(&o, v));
    if (r->moves) { /* optimal lines of the remaining game may score differently: only the core's own */
        assert_true(r->first_score == scores[0] && r->second_score == scores[1]);
        assert_int_equal(oracle_first_bad_turn(&o, v, r->moves), -1);
    }
}

/* Solves one variant with the given algorithm and line policy, checked by
 * brute force. */
static cr_result solve_with(const int64_t *coins, size_t n, cr_variant v, cr_algo algo, cr_moves moves)
{
    cr_result r[CR_VARIANT_COUNT];
    cr_solve_opts opts = {CR_VARIANT_BIT(v), algo, moves};
    (void)cr_solve(r, solver, coins, n, &opts, NULL);
    if (r[v].error.code != CR_ETOOBIG)
        check_by_brute_force(&r[v], coins, n, v);
    return r[v];
}

static cr_result solve(const int64_t *coins, size_t n, cr_variant v)
{
    return solve_with(coins, n, v, CR_ALGO_AUTO, CR_MOVES_FAST);
}

/* Pots of gold (seed 000): [4, 6, 2, 3] -> 9 coins against 6, and the
 * article's line of play (3, 4, 6, 2) is the fast line. */
static void test_examples__pots_of_gold(void **state)
{
    (void)state;
    cr_result r = solve(ROW(4, 6, 2, 3), CR_TOTAL);
    assert_int_equal(r.value, 9);
    assert_int_equal(r.second_score, 6);
    assert_string_equal(r.moves, "RLLL");
    r = solve(ROW(6, 1, 4, 9, 8, 5), CR_TOTAL);
    assert_int_equal(r.value, 18);
    assert_int_equal(r.second_score, 15);
}

/* Optimal strategy, set 2 (seed 001): 15 and 22; greedy would take 8 first
 * in [8, 15, 3, 7] and end with 15, but the optimum starts with 7. */
static void test_examples__optimal_strategy_beats_greedy(void **state)
{
    (void)state;
    assert_int_equal(solve(ROW(5, 3, 7, 10), CR_TOTAL).value, 15);
    cr_result r = solve_with(ROW(8, 15, 3, 7), CR_TOTAL, CR_ALGO_AUTO, CR_MOVES_CANONICAL);
    assert_int_equal(r.value, 22);
    assert_int_equal(r.moves[0], 'R'); /* taking 8 is not optimal */
    cr_verdict verdict;
    assert_int_equal(cr_moves_verify(&verdict, ROW(8, 15, 3, 7), CR_TOTAL, "LLLL", 4, NULL), 0);
    assert_int_equal(verdict.fault, CR_LINE_SUBOPTIMAL);
    assert_int_equal(verdict.turn, 0);
}

/* The lead version of seed 002 and its "never lose with even n" remark. */
static void test_examples__lead_and_total_agree(void **state)
{
    (void)state;
    cr_result diff = solve(ROW(8, 15, 3, 7), CR_DIFF);
    assert_int_equal(diff.value, 22 - 11);
    assert_int_equal(diff.first_score, 22);
    assert_int_equal(solve(ROW(8, 15, 3, 7), CR_WINNER).value, 1);
}

/* Stone game (seed 003): Alice wins [5, 3, 4, 5] 9 to 8 (the article's walk
 * through), and [6, 2, 4, 6] 10 to 8. */
static void test_examples__stone_game_first_player_wins(void **state)
{
    (void)state;
    cr_result r = solve(ROW(5, 3, 4, 5), CR_WINNER);
    assert_int_equal(r.value, 1);
    assert_int_equal(r.first_score, 9);
    assert_int_equal(r.second_score, 8);
    r = solve(ROW(6, 2, 4, 6), CR_WINNER);
    assert_int_equal(r.value, 1);
    assert_int_equal(r.first_score, 10);
}

/* Stone game VII (seed 004): [6, 4, 2, 5, 3] -> 8 along the article's line
 * (24 against 16), and [1, 2, 3] -> 2.  The article prints 1 for
 * [5, 3, 1, 4, 6]; brute force (and the article's own code) gives 7. */
static void test_examples__remaining_sum_game(void **state)
{
    (void)state;
    cr_result r = solve(ROW(6, 4, 2, 5, 3), CR_REMAINING);
    assert_int_equal(r.value, 8);
    assert_int_equal(r.first_score, 24);
    assert_int_equal(r.second_score, 16);
    assert_string_equal(r.moves, "RLLLL");
    assert_int_equal(solve(ROW(1, 2, 3), CR_REMAINING).value, 2);
    assert_int_equal(solve(ROW(5, 3, 1, 4, 6), CR_REMAINING).value, 7);
}

static void test_examples__one_coin_goes_to_the_first_player(void **state)
{
    (void)state;
    cr_result r = solve(ROW(-7), CR_TOTAL);
    assert_int_equal(r.value, -7);
    assert_int_equal(r.second_score, 0);
    assert_string_equal(r.moves, "L");
    assert_int_equal(solve(ROW(-7), CR_WINNER).value, -1);
    r = solve(ROW(-7), CR_REMAINING);
    assert_int_equal(r.value, 0);
    assert_int_equal(r.winner, 0);
}

static void test_examples__two_coins_take_the_larger(void **state)
{
    (void)state;
    cr_result r = solve_with(ROW(1, 5), CR_DIFF, CR_ALGO_DP, CR_MOVES_CANONICAL);
    assert_int_equal(r.value, 4);
    assert_string_equal(r.moves, "RL");
    /* remaining: taking the smaller coin scores the larger */
    r = solve(ROW(1, 5), CR_REMAINING);
    assert_int_equal(r.value, 5);
    assert_string_equal(r.moves, "LL");
}

static void test_examples__equal_coins_draw_and_canonical_prefers_left(void **state)
{
    (void)state;
    for (int algo = CR_ALGO_LINEAR; algo <= CR_ALGO_NAIVE; algo++) {
        cr_result r = solve_with(ROW(3, 3, 3, 3, 3, 3), CR_WINNER, (cr_algo)algo, CR_MOVES_CANONICAL);
        assert_int_equal(r.value, 0);
        assert_int_equal(r.winner, 0);
        assert_string_equal(r.moves, "LLLLLL");
    }
    assert_int_equal(solve(ROW(3, 3, 3), CR_WINNER).value, 1);
}

static void test_examples__int64_limits_are_exact(void **state)
{
    (void)state;
    cr_result r = solve(ROW(INT64_MAX, INT64_MIN), CR_DIFF);
    assert_int_equal(r.missing, CR_FIGURE_VALUE); /* the lead is 2^64 - 1 */
    assert_true(r.first_score == INT64_MAX && r.second_score == INT64_MIN);
    assert_int_equal(r.winner, 1);
    r = solve(ROW(INT64_MAX, INT64_MIN), CR_TOTAL);
    assert_int_equal(r.error.code, 0);
    assert_true(r.value == INT64_MAX);
    assert_true(r.second_score == INT64_MIN);
    assert_int_equal(r.winner, 1);
    /* the lead, -(2^64 - 1), leaves int64 but the winner and the scores do not */
    r = solve_with(ROW(0, INT64_MAX, INT64_MIN), CR_WINNER, CR_ALGO_DP, CR_MOVES_CANONICAL);
    assert_int_equal(r.error.code, 0);
    assert_int_equal(r.value, -1);
    assert_true(r.first_score == INT64_MIN);
    assert_true(r.second_score == INT64_MAX);
    assert_string_equal(r.moves, "LLL");
    /* the first player's total is -2^64: the winner is still known */
    r = solve(ROW(INT64_MIN, INT64_MAX, INT64_MIN), CR_WINNER);
    assert_int_equal(r.value, -1);
    assert_int_equal(r.missing, CR_FIGURE_FIRST_SCORE);
    assert_true(r.second_score == INT64_MAX);
    assert_string_equal(r.error.msg, "the winner first_score (-18446744073709551616) does not fit in int64");
}

/* [MAX, MAX, MAX]: the first player takes two coins, so totals leave
 * int64, but diff is MAX and the winner is the first player. */
static void test_examples__a_value_that_fits_is_given_beside_figures_that_do_not(void **state)
{
    (void)state;
    cr_result r[CR_VARIANT_COUNT];
    cr_error err = {0};
    cr_solve_opts opts = {CR_VARIANTS_ALL, CR_ALGO_AUTO, CR_MOVES_FAST};
    int rc = cr_solve(r, solver, ROW(INT64_MAX, INT64_MAX, INT64_MAX), &opts, &err);
    assert_int_equal(rc, CR_EOVERFLOW); /* total's value is missing */
    assert_string_equal(err.msg, "the total value (18446744073709551614) and first_score (18446744073709551614) do "
                                 "not fit in int64");
    assert_int_equal(r[CR_TOTAL].missing, CR_FIGURE_VALUE | CR_FIGURE_FIRST_SCORE);
    assert_true(r[CR_TOTAL].second_score == INT64_MAX);
    assert_int_equal(r[CR_DIFF].missing, CR_FIGURE_FIRST_SCORE);
    assert_true(r[CR_DIFF].value == INT64_MAX && r[CR_DIFF].second_score == INT64_MAX);
    assert_string_equal(r[CR_DIFF].error.msg, "the diff first_score (18446744073709551614) does not fit in int64");
    assert_int_equal(r[CR_WINNER].missing, CR_FIGURE_FIRST_SCORE);
    assert_int_equal(r[CR_WINNER].value, 1);
    assert_int_equal(r[CR_REMAINING].missing, CR_FIGURE_FIRST_SCORE);
    assert_true(r[CR_REMAINING].value == INT64_MAX && r[CR_REMAINING].second_score == INT64_MAX);
    for (int v = 0; v < CR_VARIANT_COUNT; v++)
        assert_non_null(r[v].moves);
    /* every asked value given: 0, though some scores are not */
    opts.variants = CR_VARIANT_BIT(CR_DIFF) | CR_VARIANT_BIT(CR_WINNER);
    assert_int_equal(cr_solve(r, solver, ROW(INT64_MAX, INT64_MAX, INT64_MAX), &opts, &err), 0);
    /* a variant whose figures fit is still solved beside one that overflows */
    opts.variants = CR_VARIANT_BIT(CR_TOTAL) | CR_VARIANT_BIT(CR_DIFF);
    rc = cr_solve(r, solver, ROW(INT64_MAX, INT64_MAX, INT64_MIN, INT64_MIN), &opts, &err);
    assert_int_equal(rc, 0);
    assert_true(r[CR_DIFF].value == 0);
}

static void test_examples__naive_refuses_large_rows(void **state)
{
    (void)state;
    int64_t coins[26] = {0};
    cr_result r = solve_with(coins, 26, CR_TOTAL, CR_ALGO_NAIVE, CR_MOVES_NONE);
    assert_int_equal(r.error.code, CR_ETOOBIG);
    assert_string_equal(r.error.msg, "naive minimax takes at most 25 coins, this row has 26");
    assert_int_equal(solve_with(coins, 25, CR_TOTAL, CR_ALGO_NAIVE, CR_MOVES_NONE).error.code, 0);
}

/* The results are the caller's, reused row after row: a row that fails has
 * no line, whatever the row before it had. */
static void test_examples__a_failed_row_keeps_no_line_of_the_row_before(void **state)
{
    (void)state;
    int64_t coins[26] = {0};
    cr_result r[CR_VARIANT_COUNT];
    cr_solve_opts opts = {CR_VARIANT_BIT(CR_DIFF), CR_ALGO_NAIVE, CR_MOVES_FAST};
    assert_int_equal(cr_solve(r, solver, coins, 4, &opts, NULL), 0);
    assert_string_equal(r[CR_DIFF].moves, "LLLL");
    assert_int_equal(cr_solve(r, solver, coins, 26, &opts, NULL), CR_ETOOBIG);
    assert_null(r[CR_DIFF].moves);
    assert_int_equal(r[CR_DIFF].missing, CR_FIGURES_ALL);
}

static void test_examples__bad_arguments_are_refused(void **state)
{
    (void)state;
    cr_result r[CR_VARIANT_COUNT];
    cr_error err;
    cr_solve_opts opts = {CR_VARIANTS_ALL, CR_ALGO_AUTO, CR_MOVES_FAST};
    int64_t one = 1;
    assert_int_equal(cr_solve(r, solver, &one, 0, &opts, &err), CR_EINVAL);
    assert_int_equal(cr_solve(NULL, solver, &one, 1, &opts, &err), CR_EINVAL);
    assert_int_equal(cr_solve(r, NULL, &one, 1, &opts, &err), CR_EINVAL);
    assert_int_equal(cr_solve(r, solver, NULL, 1, &opts, &err), CR_EINVAL);
    assert_int_equal(cr_solve(r, solver, &one, 1, NULL, &err), CR_EINVAL);
    /* refused before a coin is read or a byte allocated */
    assert_int_equal(cr_solve(r, solver, &one, CR_N_MAX + 1, &opts, &err), CR_ETOOBIG);
    assert_string_equal(err.msg, "a row of 4294967296 coins is more than the 4294967295 the solver takes");
    static const cr_solve_opts bad[] = {{0, CR_ALGO_AUTO, CR_MOVES_FAST},
                                        {CR_VARIANTS_ALL | 16, CR_ALGO_AUTO, CR_MOVES_FAST},
                                        {CR_VARIANTS_ALL, CR_ALGO_COUNT, CR_MOVES_FAST},
                                        {CR_VARIANTS_ALL, CR_ALGO_AUTO, CR_MOVES_COUNT}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(cr_solve(r, solver, &one, 1, &bad[i], &err), CR_EINVAL);
    assert_string_equal(err.msg, "solve: bad options (variants 0xf, algo 0, moves 3)");

    char line[8];
    cr_verdict v;
    cr_scores s;
    assert_int_equal(cr_moves_canonical(NULL, &one, 1, CR_DIFF, &err), CR_EINVAL);
    assert_int_equal(cr_moves_canonical(line, NULL, 1, CR_DIFF, &err), CR_EINVAL);
    assert_int_equal(cr_moves_canonical(line, &one, 0, CR_DIFF, &err), CR_EINVAL);
    assert_int_equal(cr_moves_canonical(line, &one, CR_N_MAX + 1, CR_DIFF, &err), CR_ENOMEM);
    assert_int_equal(cr_moves_canonical_bytes(CR_N_MAX + 1), SIZE_MAX);
    assert_int_equal(cr_moves_verify(NULL, &one, 1, CR_DIFF, "L", 1, &err), CR_EINVAL);
    assert_int_equal(cr_moves_verify(&v, NULL, 1, CR_DIFF, "L", 1, &err), CR_EINVAL);
    assert_int_equal(cr_moves_verify(&v, &one, 0, CR_DIFF, "L", 1, &err), CR_EINVAL);
    assert_int_equal(cr_moves_verify(&v, &one, 1, CR_DIFF, NULL, 1, &err), CR_EINVAL);
    assert_int_equal(cr_moves_verify(&v, &one, 1, CR_DIFF, NULL, 0, &err), 0); /* no line: too short */
    assert_int_equal(v.fault, CR_LINE_SHORT);
    assert_int_equal(cr_moves_replay(NULL, &one, 1, CR_DIFF, "L", 1, &err), CR_EINVAL);
    assert_int_equal(cr_moves_replay(&s, NULL, 1, CR_DIFF, "L", 1, &err), CR_EINVAL);
    assert_int_equal(cr_moves_replay(&s, &one, 0, CR_DIFF, "L", 1, &err), CR_EINVAL);
    assert_int_equal(cr_moves_replay(&s, &one, 1, CR_DIFF, NULL, 1, &err), CR_EINVAL);
    assert_string_equal(err.msg, "replay: no coins or no line");
}

static void test_examples__verifier_reports_short_long_and_bad_lines(void **state)
{
    (void)state;
    cr_verdict v;
    assert_int_equal(cr_moves_verify(&v, ROW(4, 6, 2, 3), CR_TOTAL, "RL", 2, NULL), 0);
    assert_int_equal(v.fault, CR_LINE_SHORT);
    assert_int_equal(v.turn, 2);
    assert_string_equal(v.why, "the line stops after 2 moves with 2 coins left");
    assert_int_equal(cr_moves_verify(&v, ROW(4, 6, 2, 3), CR_TOTAL, "RLLLL", 5, NULL), 0);
    assert_int_equal(v.fault, CR_LINE_LONG);
    assert_int_equal(v.turn, 4);
    assert_int_equal(cr_moves_verify(&v, ROW(4, 6, 2, 3), CR_TOTAL, "RLxL", 4, NULL), 0);
    assert_int_equal(v.fault, CR_LINE_BAD_MOVE);
    assert_int_equal(v.turn, 2);
    /* turn 2: 4 and 2 are equally good for the second player; turn 3: 4 is worse than 6 */
    assert_int_equal(cr_moves_verify(&v, ROW(4, 6, 2, 3), CR_TOTAL, "RRLL", 4, NULL), 0);
    assert_int_equal(v.fault, CR_LINE_SUBOPTIMAL);
    assert_int_equal(v.turn, 2);
    assert_string_equal(v.why, "turn 3 (first player): L is not optimal, R is");
    /* on the last coin L and R are the same move */
    assert_int_equal(cr_moves_verify(&v, ROW(4, 6, 2, 3), CR_TOTAL, "RLLR", 4, NULL), 0);
    assert_int_equal(v.fault, CR_LINE_OK);
}

static void test_examples__replay_scores_any_line(void **state)
{
    (void)state;
    cr_scores s;
    cr_error err;
    assert_int_equal(cr_moves_replay(&s, ROW(4, 6, 2, 3), CR_TOTAL, "LLLL", 4, &err), 0);
    assert_int_equal(s.first, 6);
    assert_int_equal(s.second, 9);
    assert_int_equal(cr_moves_replay(&s, ROW(6, 4, 2, 5, 3), CR_REMAINING, "RLLLL", 5, &err), 0);
    assert_int_equal(s.first, 24);
    assert_int_equal(s.second, 16);
    assert_int_equal(cr_moves_replay(&s, ROW(4, 6, 2, 3), CR_TOTAL, "LLL", 3, &err), CR_EINVAL);
    assert_int_equal(cr_moves_replay(&s, ROW(4, 6, 2, 3), CR_TOTAL, "LLQL", 4, &err), CR_EINVAL);
    assert_string_equal(err.msg, "turn 3 (first player): 'Q' is not a move (L or R)");
}

/* Rows long enough to cross from 64-bit to 128-bit arithmetic half way. */
static void test_examples__large_values_switch_to_128_bits(void **state)
{
    (void)state;
    int64_t coins[40];
    for (int i = 0; i < 40; i++)
        coins[i] = (i % 3 == 0 ? 1 : -1) * (INT64_MAX / 8 - i);
    cr_result lin = solve_with(coins, 40, CR_DIFF, CR_ALGO_LINEAR, CR_MOVES_FAST);
    cr_result dp = solve_with(coins, 40, CR_DIFF, CR_ALGO_DP, CR_MOVES_NONE);
    assert_int_equal(lin.error.code, dp.error.code);
    assert_true(lin.value == dp.value);
    cr_verdict v;
    cr_result can = solve_with(coins, 40, CR_REMAINING, CR_ALGO_DP, CR_MOVES_CANONICAL);
    if (can.error.code == 0) {
        assert_int_equal(cr_moves_verify(&v, coins, 40, CR_REMAINING, can.moves, 40, NULL), 0);
        assert_int_equal(v.fault, CR_LINE_OK);
    }
}

/* The canonical line's memory, said before allocating, grows linearly
 * (test_core_nomem checks it is what the line takes): about 66 bytes a
 * coin, 64 of them two rows of 16-byte values; under a GiB at n = 10^6. */
static void test_examples__canonical_bytes_grow_linearly(void **state)
{
    (void)state;
    assert_int_equal(cr_moves_canonical_bytes(0), 0);
    for (size_t n = 1; n <= 5000; n++) {
        assert_true(cr_moves_canonical_bytes(n) >= cr_moves_canonical_bytes(n - 1));
        assert_true(cr_moves_canonical_bytes(n) <= 160 * n + 512);
    }
    assert_true(cr_moves_canonical_bytes(1000000) < (size_t)1 << 30);
    assert_true(cr_moves_canonical_bytes(CR_N_MAX) / CR_N_MAX >= 64);
    assert_true(cr_moves_canonical_bytes(CR_N_MAX) / CR_N_MAX <= 200);
    assert_true(cr_moves_canonical_bytes((size_t)CR_N_MAX + 1) == SIZE_MAX);
}

/* A solver with a memory cap refuses a canonical line beyond it by
 * arithmetic, with the message a failed allocation gives, and every
 * variant says so; other rows and policies are solved as ever. */
static void test_examples__a_capped_solver_refuses_a_canonical_line_by_arithmetic(void **state)
{
    (void)state;
    cr_error err = {0};
    enum { N = 3000 };
    static int64_t coins[N];
    for (size_t i = 0; i < N; i++)
        coins[i] = (int64_t)(i * 7919 % 1000);
    size_t need = cr_moves_canonical_bytes(N);
    cr_solver_limit(solver, need - 1);
    cr_solve_opts opts = {CR_VARIANTS_ALL, CR_ALGO_AUTO, CR_MOVES_CANONICAL};
    cr_result results[CR_VARIANT_COUNT];
    char says[128];
    snprintf(says, sizeof says, "canonical line of %d coins needs %zu MiB", N, (need + (1u << 20) - 1) >> 20);
    assert_int_equal(cr_solve(results, solver, coins, N, &opts, &err), CR_ENOMEM);
    assert_string_equal(err.msg, says);
    for (int v = 0; v < CR_VARIANT_COUNT; v++) {
        assert_int_equal(results[v].error.code, CR_ENOMEM);
        assert_string_equal(results[v].error.msg, says);
    }
    opts.moves = CR_MOVES_FAST;
    assert_int_equal(cr_solve(results, solver, coins, N, &opts, &err), 0);
    opts.moves = CR_MOVES_CANONICAL;
    cr_solver_limit(solver, need);
    assert_int_equal(cr_solve(results, solver, coins, N, &opts, &err), 0);
    cr_solver_limit(solver, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_examples__pots_of_gold),
        cmocka_unit_test(test_examples__optimal_strategy_beats_greedy),
        cmocka_unit_test(test_examples__lead_and_total_agree),
        cmocka_unit_test(test_examples__stone_game_first_player_wins),
        cmocka_unit_test(test_examples__remaining_sum_game),
        cmocka_unit_test(test_examples__one_coin_goes_to_the_first_player),
        cmocka_unit_test(test_examples__two_coins_take_the_larger),
        cmocka_unit_test(test_examples__equal_coins_draw_and_canonical_prefers_left),
        cmocka_unit_test(test_examples__int64_limits_are_exact),
        cmocka_unit_test(test_examples__a_value_that_fits_is_given_beside_figures_that_do_not),
        cmocka_unit_test(test_examples__naive_refuses_large_rows),
        cmocka_unit_test(test_examples__a_failed_row_keeps_no_line_of_the_row_before),
        cmocka_unit_test(test_examples__bad_arguments_are_refused),
        cmocka_unit_test(test_examples__verifier_reports_short_long_and_bad_lines),
        cmocka_unit_test(test_examples__replay_scores_any_line),
        cmocka_unit_test(test_examples__large_values_switch_to_128_bits),
        cmocka_unit_test(test_examples__canonical_bytes_grow_linearly),
        cmocka_unit_test(test_examples__a_capped_solver_refuses_a_canonical_line_by_arithmetic),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

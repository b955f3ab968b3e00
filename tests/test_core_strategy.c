/* The built-in strategies against each rule written out plainly here, on
 * many random rows: legal lines, every move the rule's, values equal to a
 * replay by the oracle; and what the rules are for (parity's guarantee,
 * greedy's trap). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "coinrow.h"
#include "support/oracle.h"

#define ROWS 20000
#define MAX_N 14

static i128 seen(const int64_t *a, cr_variant v, size_t k) { return v == CR_REMAINING ? -(i128)a[k] : a[k]; }

/* The rule's move on a[i..j], recomputed from scratch. */
static char rule(cr_strategy s, const int64_t *a, cr_variant v, size_t i, size_t j)
{
    i128 left = seen(a, v, i), right = seen(a, v, j);
    switch (s) {
    case CR_STRATEGY_LEFT:
        return 'L';
    case CR_STRATEGY_PARITY:
        if ((j - i + 1) % 2 == 0) {
            i128 from_left = 0, from_right = 0;
            for (size_t k = i; k <= j; k++)
                *((k - i) % 2 == 0 ? &from_left : &from_right) += seen(a, v, k);
            return from_left >= from_right ? 'L' : 'R';
        }
        return left >= right ? 'L' : 'R';
    case CR_STRATEGY_LOOKAHEAD2: {
        if (i == j)
            return 'L';
        i128 gain[2];
        for (int m = 0; m < 2; m++) {
            size_t ri = m == 0 ? i + 1 : i, rj = m == 0 ? j : j - 1;
            i128 a_ri = seen(a, v, ri), a_rj = seen(a, v, rj);
            gain[m] = (m == 0 ? left : right) - (a_ri > a_rj ? a_ri : a_rj);
        }
        return gain[0] >= gain[1] ? 'L' : 'R';
    }
    default:
        return left >= right ? 'L' : 'R';
    }
}

static void random_row(int64_t *a, size_t *n, uint64_t *rng)
{
    static const int64_t ranges[][2] = {{0, 1}, {-2, 2}, {0, 9}, {-100, 100}, {1, 1000000000}, {INT64_MIN, INT64_MAX}};
    *n = (size_t)test_rand_range(rng, 1, MAX_N);
    uint64_t kind = test_rand(rng) % 6;
    for (size_t i = 0; i < *n; i++)
        a[i] = test_rand_range(rng, ranges[kind][0], ranges[kind][1]);
}

static void test_core_strategy__every_move_is_the_rules_and_the_value_is_the_lines(void **state)
{
    (void)state;
    uint64_t rng = 15;
    int64_t a[MAX_N];
    char line[MAX_N + 1];
    size_t n, overflows = 0;
    oracle o;
    for (int r = 0; r < ROWS; r++) {
        random_row(a, &n, &rng);
        oracle_build(&o, a, n);
        for (int s = 0; s < CR_STRATEGY_COUNT; s++)
            for (int v = 0; v < CR_VARIANT_COUNT; v++) {
                int64_t value = 0;
                cr_error err = {0};
                int rc = cr_strategy_play(&value, line, a, n, (cr_variant)v, (cr_strategy)s, &err);
                assert_int_equal(strlen(line), n);
                for (size_t k = 0, i = 0, j = n - 1; k < n; k++) {
                    assert_int_equal(line[k], rule((cr_strategy)s, a, (cr_variant)v, i, j));
                    if (line[k] == 'L')
                        i++;
                    else
                        j--;
                }
                i128 score[2];
                oracle_replay(&o, (cr_variant)v, line, score);
                i128 lead = score[0] - score[1];
                i128 want = v == CR_TOTAL ? score[0] : v == CR_WINNER ? (lead > 0) - (lead < 0) : lead;
                if (want < INT64_MIN || want > INT64_MAX) {
                    assert_int_equal(rc, CR_EOVERFLOW);
                    assert_non_null(strstr(err.msg, "does not fit in int64"));
                    overflows++;
                } else {
                    assert_int_equal(rc, 0);
                    assert_true(value == want);
                }
            }
    }
    assert_true(overflows > 0); /* the extreme rows reach it */
}

/* A player moved through any line, each move taken at random: its move is
 * the rule's in every position it faces; and a move on an empty row, or
 * one that is not L or R, is refused. */
static void test_core_strategy__a_player_moves_by_the_rule_in_any_position(void **state)
{
    (void)state;
    uint64_t rng = 16;
    int64_t a[MAX_N];
    size_t n;
    for (int r = 0; r < ROWS; r++) {
        random_row(a, &n, &rng);
        for (int s = 0; s < CR_STRATEGY_COUNT; s++)
            for (int v = 0; v < CR_VARIANT_COUNT; v++) {
                cr_strategy_player *p = NULL;
                assert_int_equal(cr_strategy_player_new(&p, a, n, (cr_variant)v, (cr_strategy)s, NULL), 0);
                for (size_t i = 0, j = n - 1, k = 0; k < n; k++) {
                    assert_int_equal(cr_strategy_player_move(p), rule((cr_strategy)s, a, (cr_variant)v, i, j));
                    char move = test_rand(&rng) % 2 ? 'L' : 'R';
                    assert_int_equal(cr_strategy_player_take(p, move, NULL), 0);
                    if (move == 'L')
                        i++;
                    else
                        j--;
                }
                cr_error err = {0};
                assert_int_equal(cr_strategy_player_take(p, 'L', &err), CR_EINVAL);
                cr_strategy_player_free(p);
            }
    }
    cr_strategy_player *p = NULL;
    assert_int_equal(cr_strategy_player_new(&p, a, n, CR_DIFF, CR_STRATEGY_GREEDY, NULL), 0);
    assert_int_equal(cr_strategy_player_take(p, 'x', NULL), CR_EINVAL);
    cr_strategy_player_free(p);
    assert_int_equal(cr_strategy_player_new(&p, a, 0, CR_DIFF, CR_STRATEGY_GREEDY, NULL), CR_EINVAL);
    assert_null(p);
    cr_strategy_player_free(NULL);
}

/* With an even number of coins the first player who keeps to the richer
 * class never ends behind, whatever the other does. */
static void test_core_strategy__parity_never_loses_an_even_row(void **state)
{
    (void)state;
    uint64_t rng = 2;
    int64_t a[MAX_N];
    char line[MAX_N + 1];
    for (int r = 0; r < ROWS; r++) {
        size_t n = 2 * (size_t)test_rand_range(&rng, 1, MAX_N / 2);
        for (size_t i = 0; i < n; i++)
            a[i] = test_rand_range(&rng, -50, 50);
        int64_t lead;
        assert_int_equal(cr_strategy_play(&lead, line, a, n, CR_DIFF, CR_STRATEGY_PARITY, NULL), 0);
        assert_true(lead >= 0);
    }
}

static void test_core_strategy__greedy_falls_into_the_antigreedy_trap(void **state)
{
    (void)state;
    /* taking the larger end (3) hands 100 to the opponent */
    const int64_t a[] = {3, 100, 1, 2};
    char line[5];
    int64_t greedy, lookahead, optimal;
    oracle o;
    oracle_build(&o, a, 4);
    optimal = (int64_t)oracle_value(&o, CR_DIFF);
    assert_int_equal(cr_strategy_play(&greedy, line, a, 4, CR_DIFF, CR_STRATEGY_GREEDY, NULL), 0);
    assert_string_equal(line, "LLRL");
    assert_true(greedy < 0 && optimal > 0);
    assert_int_equal(cr_strategy_play(&lookahead, line, a, 4, CR_DIFF, CR_STRATEGY_LOOKAHEAD2, NULL), 0);
    assert_int_equal(line[0], 'R');
    assert_int_equal(lookahead, optimal);
}

static void test_core_strategy__equal_coins_give_every_strategy_the_optimal_value(void **state)
{
    (void)state;
    const int64_t a[] = {7, 7, 7, 7, 7};
    char line[6];
    oracle o;
    oracle_build(&o, a, 5);
    for (int s = 0; s < CR_STRATEGY_COUNT; s++)
        for (int v = 0; v < CR_VARIANT_COUNT; v++) {
            int64_t value;
            assert_int_equal(cr_strategy_play(&value, line, a, 5, (cr_variant)v, (cr_strategy)s, NULL), 0);
            assert_true(value == oracle_value(&o, (cr_variant)v));
        }
}

static void test_core_strategy__names_parse_back_and_strangers_are_refused(void **state)
{
    (void)state;
    for (int s = 0; s < CR_STRATEGY_COUNT; s++) {
        cr_strategy back;
        assert_int_equal(cr_strategy_parse(&back, cr_strategy_name((cr_strategy)s), NULL), 0);
        assert_int_equal(back, s);
    }
    cr_strategy s;
    cr_error err = {0};
    assert_int_equal(cr_strategy_parse(&s, "random", &err), CR_EINVAL);
    assert_string_equal(err.msg, "unknown strategy 'random' (expected greedy, left, parity or lookahead2)");
    assert_null(cr_strategy_name(CR_STRATEGY_COUNT));
    int64_t v;
    char line[2];
    assert_int_equal(cr_strategy_play(&v, line, (const int64_t[]){1}, 0, CR_TOTAL, CR_STRATEGY_LEFT, NULL), CR_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_core_strategy__every_move_is_the_rules_and_the_value_is_the_lines),
        cmocka_unit_test(test_core_strategy__a_player_moves_by_the_rule_in_any_position),
        cmocka_unit_test(test_core_strategy__parity_never_loses_an_even_row),
        cmocka_unit_test(test_core_strategy__greedy_falls_into_the_antigreedy_trap),
        cmocka_unit_test(test_core_strategy__equal_coins_give_every_strategy_the_optimal_value),
        cmocka_unit_test(test_core_strategy__names_parse_back_and_strangers_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

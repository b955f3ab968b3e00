/* The online jury held to the O(n^2) interval DP on random rows and random
 * contestants (every jury move, every verdict), to the brute force where
 * rows are small, and to the O(n^2) canonical line when it meets itself. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "coinrow.h"
#include "support/oracle.h"
#include "support/quadratic.h"

enum { MAX_N = 300 };

static const cr_variant variants[] = {CR_TOTAL, CR_DIFF, CR_REMAINING, CR_WINNER};

/* lead[i][j]: the mover's best lead on coins [i, j] of the variant's game
 * (the standard one, or on negated coins for remaining); lead of an empty
 * row is 0. */
typedef struct table {
    size_t n;
    int64_t coins[MAX_N];
    i128 lead[MAX_N + 1][MAX_N + 1];
} table;

static i128 value(const table *t, size_t i, cr_variant v) { return v == CR_REMAINING ? -(i128)t->coins[i] : t->coins[i]; }

static i128 lead_of(const table *t, size_t i, size_t j) { return i > j || j >= t->n ? 0 : t->lead[i][j]; }

static void table_build(table *t, const int64_t *coins, size_t n, cr_variant v)
{
    t->n = n;
    memcpy(t->coins, coins, n * sizeof *coins);
    for (size_t len = 1; len <= n; len++)
        for (size_t i = 0; i + len <= n; i++) {
            size_t j = i + len - 1;
            i128 left = value(t, i, v) - (len > 1 ? t->lead[i + 1][j] : 0);
            i128 right = value(t, j, v) - (len > 1 ? t->lead[i][j - 1] : 0);
            t->lead[i][j] = left > right ? left : right;
        }
}

/* What the mover gets at [i, j] by taking end `left`. */
static i128 got(const table *t, cr_variant v, size_t i, size_t j, int left)
{
    return left ? value(t, i, v) - (i < j ? lead_of(t, i + 1, j) : 0)
                : value(t, j, v) - (i < j ? lead_of(t, i, j - 1) : 0);
}

static int sign(i128 x) { return (x > 0) - (x < 0); }

/* Whether taking end `left` at [i, j] is optimal: the best lead, or under
 * winner the best outcome. */
static int optimal(const table *t, cr_variant v, size_t i, size_t j, int left)
{
    i128 best = t->lead[i][j], g = got(t, v, i, j, left);
    return v == CR_WINNER ? sign(g) == sign(best) : g == best;
}

static void random_row(int64_t *coins, size_t *n, uint64_t *rng)
{
    oracle_random_row(coins, n, MAX_N, rng);
    /* the int64 limits' rows are the verifier's business; the jury is
     * checked on figures that fit its table */
    for (size_t k = 0; k < *n; k++)
        coins[k] %= (int64_t)1 << 40;
}

static table t_; /* too large for the stack */

/* Plays one game: the contestant moves by `contestant` (0: optimal as the
 * table says, L first; 1: random; 2: optimal with a random slip now and
 * then), the jury by `seed`, moving first when jury_first; checks every
 * jury move against the table and returns how many of them deviated. */
static size_t play(cr_jury *jury, const table *t, cr_variant v, uint64_t seed, int jury_first, int contestant,
                   uint64_t *rng)
{
    size_t i = 0, j = t->n - 1, deviations = 0;
    cr_error err;
    for (size_t k = 0; k < t->n; k++) {
        int left;
        if ((k + (size_t)jury_first) % 2 == 0) {
            int best_left = optimal(t, v, i, j, 1);
            left = contestant == 1 || (contestant == 2 && test_rand(rng) % 8 == 0) ? (int)(test_rand(rng) & 1)
                                                                                   : best_left;
            assert_int_equal(cr_jury_play(jury, left ? 'L' : 'R', &err), 0);
        } else {
            char move;
            assert_int_equal(cr_jury_move(&move, jury, &err), 0);
            left = move == 'L';
            /* by lead: L when L is optimal, R otherwise; deviating, the worse
             * end, or R on a tie */
            i128 l = got(t, v, i, j, 1), r = got(t, v, i, j, 0);
            int best = l >= r, deviated = l == r ? 0 : l < r;
            if (left != best) {
                if (seed == 0 || left != deviated)
                    fail_msg("n = %zu, %s, seed %llu: turn %zu at [%zu, %zu] took %c", t->n, cr_variant_name(v),
                             (unsigned long long)seed, k + 1, i, j, move);
                deviations++;
            }
        }
        if (left)
            i++;
        else
            j--;
    }
    assert_int_equal(cr_jury_turn(jury), t->n);
    assert_int_equal(strlen(cr_jury_line(jury)), t->n);
    return deviations;
}

/* The first of the contestant's turns of line (the odd ones when
 * jury_first) whose move is not optimal, as the table says, or SIZE_MAX. */
static size_t first_bad(const table *t, cr_variant v, int jury_first, const char *line, i128 *lost)
{
    for (size_t k = 0, i = 0, j = t->n - 1; k < t->n; k++) {
        int left = line[k] == 'L';
        if ((k + (size_t)jury_first) % 2 == 0 && !optimal(t, v, i, j, left)) {
            *lost = t->lead[i][j] - got(t, v, i, j, left);
            return k;
        }
        if (left)
            i++;
        else
            j--;
    }
    return SIZE_MAX;
}

static void check_verdict(cr_jury *jury, const table *t, cr_variant v, int jury_first)
{
    cr_verdict verdict;
    cr_error err;
    assert_int_equal(cr_jury_judge(&verdict, jury, &err), 0);
    i128 lost = 0;
    size_t bad = first_bad(t, v, jury_first, cr_jury_line(jury), &lost);
    if (bad == SIZE_MAX) {
        assert_int_equal(verdict.fault, CR_LINE_OK);
        assert_int_equal(verdict.turn, t->n);
        assert_string_equal(verdict.why, "");
        return;
    }
    if (verdict.fault != CR_LINE_SUBOPTIMAL || verdict.turn != bad)
        fail_msg("n = %zu, %s: verdict %d at turn %zu, the table says turn %zu (%s)", t->n, cr_variant_name(v),
                 verdict.fault, verdict.turn, bad, verdict.why);
    char want[64];
    if (v != CR_WINNER) {
        long long shown = (long long)(v == CR_DIFF ? lost : lost / 2);
        snprintf(want, sizeof want, "gives up %lld of the %s", shown, v == CR_TOTAL ? "total" : "lead");
        if (!strstr(verdict.why, want))
            fail_msg("'%s' does not say '%s'", verdict.why, want);
    }
    char turn[32];
    snprintf(turn, sizeof turn, "turn %zu: ", bad + 1);
    assert_memory_equal(verdict.why, turn, strlen(turn));
}

static void test_jury__its_moves_are_the_tables_against_every_contestant_and_its_verdicts_too(void **state)
{
    (void)state;
    uint64_t rng = 37;
    int64_t coins[MAX_N];
    size_t games = 0, deviations = 0, bad_verdicts = 0;
    for (int round = 0; round < 1500; round++) {
        size_t n;
        random_row(coins, &n, &rng);
        if (round % 3 == 0)
            n = 1 + test_rand(&rng) % 40; /* many short games: n = 1 and 2 among them */
        cr_variant v = variants[round % 4];
        table_build(&t_, coins, n, v);
        for (int contestant = 0; contestant < 3; contestant++) {
            uint64_t seed = round % 2 ? 0 : test_rand(&rng) | 1;
            int jury_first = round / 4 % 2; /* every variant meets both orders, with and without a seed */
            cr_jury *jury;
            cr_error err;
            assert_int_equal(cr_jury_new(&jury, coins, n, v, (cr_jury_policy){seed, jury_first}, &err), 0);
            deviations += play(jury, &t_, v, seed, jury_first, contestant, &rng);
            check_verdict(jury, &t_, v, jury_first);
            cr_verdict verdict;
            assert_int_equal(cr_jury_judge(&verdict, jury, &err), 0);
            bad_verdicts += verdict.fault != CR_LINE_OK;
            cr_jury_free(jury);
            games++;
        }
    }
    /* the seeds did deviate, and the contestants did err */
    assert_true(deviations > games);
    assert_true(bad_verdicts > games / 4);
}

/* Small rows: the brute force (from each variant's own definition) decides
 * which moves are optimal, so the table above is not the only judge. */
static void test_jury__an_optimal_jury_takes_the_brute_forces_moves_on_small_rows(void **state)
{
    (void)state;
    uint64_t rng = 3701;
    oracle o;
    int64_t coins[ORACLE_MAX_N];
    for (int round = 0; round < 4000; round++) {
        size_t n;
        oracle_random_row(coins, &n, ORACLE_MAX_N, &rng);
        oracle_build(&o, coins, n);
        cr_variant v = variants[round % 4];
        cr_jury *jury;
        cr_error err;
        assert_int_equal(cr_jury_new(&jury, coins, n, v, (cr_jury_policy){0}, &err), 0);
        for (size_t k = 0, i = 0, j = n - 1; k < n; k++) {
            char move;
            if (k % 2 == 0) {
                move = test_rand(&rng) & 1 ? 'L' : 'R';
                assert_int_equal(cr_jury_play(jury, move, &err), 0);
            } else {
                assert_int_equal(cr_jury_move(&move, jury, &err), 0);
                unsigned moves = oracle_optimal(&o, v, i, j);
                /* winner's moves are the lead's (the oracle's opt_lead) */
                assert_int_equal(move, moves & 1u ? 'L' : 'R');
            }
            if (move == 'L')
                i++;
            else
                j--;
        }
        cr_jury_free(jury);
    }
}

static void test_jury__meeting_the_canonical_line_it_plays_the_canonical_line(void **state)
{
    (void)state;
    uint64_t rng = 3702;
    static int64_t coins[2000];
    static char line[2001];
    for (int round = 0; round < 60; round++) {
        size_t n = 1 + test_rand(&rng) % 2000;
        for (size_t k = 0; k < n; k++)
            coins[k] = test_rand_range(&rng, round % 2 ? -3 : -1000000, round % 2 ? 3 : 1000000);
        cr_variant v = variants[round % 4];
        quadratic_canonical(line, coins, n, v);
        cr_jury *jury;
        cr_error err;
        assert_int_equal(cr_jury_new(&jury, coins, n, v, (cr_jury_policy){0}, &err), 0);
        for (size_t k = 0; k < n; k++) {
            char move = line[k];
            if (k % 2 == 0)
                assert_int_equal(cr_jury_play(jury, move, &err), 0);
            else
                assert_int_equal(cr_jury_move(&move, jury, &err), 0);
        }
        assert_string_equal(cr_jury_line(jury), line);
        cr_verdict verdict;
        assert_int_equal(cr_jury_judge(&verdict, jury, &err), 0);
        assert_int_equal(verdict.fault, CR_LINE_OK);
        cr_jury_free(jury);
    }
}

/* Long rows, many boxes and many blocks: the contestant plays the canonical
 * line but for one slip at a random turn of its own, and from there the
 * canonical line of the position the slip left.  An optimal jury must play
 * that position's canonical line too, and the verdict must name the slip
 * exactly when the quadratic verifier calls it bad. */
static void test_jury__on_long_rows_it_answers_a_slip_as_the_quadratic_canonical_line(void **state)
{
    (void)state;
    enum { N = 5000 };
    static int64_t coins[N];
    static char line[N + 1], rest[N + 1];
    uint64_t rng = 3705;
    for (int round = 0; round < 12; round++) {
        size_t n = N - (size_t)test_rand_range(&rng, 0, 1500);
        for (size_t i = 0; i < n; i++)
            coins[i] = round % 3 == 0   ? test_rand_range(&rng, 1, 1000000000)
                       : round % 3 == 1 ? test_rand_range(&rng, -3, 3)
                                        : (int64_t)(i < n / 2 ? n / 2 - i : i - n / 2) + test_rand_range(&rng, 0, 1);
        cr_variant v = variants[round % 4];
        quadratic_canonical(line, coins, n, v);
        size_t slip = 2 * (size_t)test_rand_range(&rng, 0, (int64_t)(n - 1) / 2);
        cr_jury *jury;
        cr_error err;
        assert_int_equal(cr_jury_new(&jury, coins, n, v, (cr_jury_policy){0}, &err), 0);
        size_t i = 0, j = n - 1, from = 0; /* rest[k - from] is turn k's move after the slip */
        for (size_t k = 0; k < n; k++) {
            char move, want = k < slip ? line[k] : k == slip ? (line[k] == 'L' ? 'R' : 'L') : rest[k - from];
            if (k % 2 == 0) {
                move = want;
                assert_int_equal(cr_jury_play(jury, move, &err), 0);
            } else {
                assert_int_equal(cr_jury_move(&move, jury, &err), 0);
                if (move != want)
                    fail_msg("n = %zu, %s, slip at turn %zu: the jury took %c at turn %zu, the canonical line %c", n,
                             cr_variant_name(v), slip + 1, move, k + 1, want);
            }
            if (move == 'L')
                i++;
            else
                j--;
            if (k == slip && i <= j) {
                quadratic_canonical(rest, coins + i, j - i + 1, v);
                from = k + 1;
            }
        }
        size_t bad = quadratic_first_bad(coins, n, v, cr_jury_line(jury), n);
        cr_verdict verdict;
        assert_int_equal(cr_jury_judge(&verdict, jury, &err), 0);
        if (v != CR_WINNER) {
            assert_int_equal(verdict.fault, bad == SIZE_MAX ? CR_LINE_OK : CR_LINE_SUBOPTIMAL);
            assert_int_equal(verdict.turn, bad == SIZE_MAX ? n : slip);
        } else if (bad == SIZE_MAX) {
            assert_int_equal(verdict.fault, CR_LINE_OK); /* keeping the lead keeps the outcome */
        }
        cr_jury_free(jury);
    }
}

/* Where every move ties (equal coins), a deviating jury breaks the ties the
 * other way now and then: R on some of its turns, L on others. */
static void test_jury__a_deviating_jury_breaks_ties_both_ways(void **state)
{
    (void)state;
    enum { N = 400 };
    static int64_t coins[N];
    for (size_t k = 0; k < N; k++)
        coins[k] = 7;
    cr_jury *jury;
    cr_error err;
    size_t rights = 0;
    assert_int_equal(cr_jury_new(&jury, coins, N, CR_DIFF, (cr_jury_policy){.seed = 37}, &err), 0);
    for (size_t k = 0; k < N; k += 2) {
        char move;
        assert_int_equal(cr_jury_play(jury, 'L', &err), 0);
        assert_int_equal(cr_jury_move(&move, jury, &err), 0);
        rights += move == 'R';
    }
    cr_jury_free(jury);
    assert_true(rights > N / 8 && rights < N / 2 - N / 8);
}

static void test_jury__the_same_seed_and_moves_give_the_same_game(void **state)
{
    (void)state;
    int64_t coins[64];
    uint64_t rng = 3703;
    for (size_t k = 0; k < 64; k++)
        coins[k] = test_rand_range(&rng, -9, 9);
    char lines[2][65];
    for (int game = 0; game < 2; game++) {
        cr_jury *jury;
        cr_error err;
        assert_int_equal(cr_jury_new(&jury, coins, 64, CR_DIFF, (cr_jury_policy){.seed = 12345}, &err), 0);
        for (size_t k = 0; k < 64; k += 2) {
            char move;
            assert_int_equal(cr_jury_play(jury, k % 6 ? 'L' : 'R', &err), 0);
            assert_int_equal(cr_jury_move(&move, jury, &err), 0);
        }
        memcpy(lines[game], cr_jury_line(jury), 65);
        cr_jury_free(jury);
    }
    assert_string_equal(lines[0], lines[1]);
}

static void test_jury__moves_out_of_turn_or_past_the_end_are_refused_and_change_nothing(void **state)
{
    (void)state;
    /* 9 1 3: L gets 9 + 1, R gets 3 + 1 (the jury takes the 9) */
    const int64_t coins[] = {9, 1, 3};
    cr_jury *jury;
    cr_error err;
    char move;
    assert_int_equal(cr_jury_new(&jury, coins, 3, CR_TOTAL, (cr_jury_policy){0}, &err), 0);
    assert_int_equal(cr_jury_move(&move, jury, &err), CR_EINVAL);
    assert_string_equal(err.msg, "turn 1 is the contestant's, not the jury's");
    assert_int_equal(cr_jury_play(jury, 'x', &err), CR_EINVAL);
    assert_string_equal(err.msg, "turn 1: 'x' is not a move (L or R)");
    assert_int_equal(cr_jury_play(jury, '\n', &err), CR_EINVAL);
    assert_string_equal(err.msg, "turn 1: '\\x0a' is not a move (L or R)");
    cr_verdict verdict;
    assert_int_equal(cr_jury_judge(&verdict, jury, &err), CR_EINVAL);
    assert_string_equal(err.msg, "the game is not over: 0 of 3 coins are taken");
    assert_int_equal(cr_jury_turn(jury), 0);

    assert_int_equal(cr_jury_play(jury, 'R', &err), 0);
    assert_int_equal(cr_jury_play(jury, 'L', &err), CR_EINVAL);
    assert_string_equal(err.msg, "turn 2 is the jury's, not the contestant's");
    assert_int_equal(cr_jury_move(&move, jury, &err), 0);
    assert_int_equal(move, 'L'); /* the 9 */
    assert_int_equal(cr_jury_play(jury, 'L', &err), 0);
    assert_int_equal(cr_jury_play(jury, 'L', &err), CR_EINVAL);
    assert_string_equal(err.msg, "the game is over: all 3 coins are taken");
    assert_int_equal(cr_jury_move(&move, jury, &err), CR_EINVAL);
    assert_string_equal(cr_jury_line(jury), "RLL");

    assert_int_equal(cr_jury_judge(&verdict, jury, &err), 0);
    assert_int_equal(verdict.fault, CR_LINE_SUBOPTIMAL);
    assert_int_equal(verdict.turn, 0);
    assert_string_equal(verdict.why, "turn 1: R is not optimal: it gives up 6 of the total (L keeps it)");
    cr_jury_free(jury);

    /* a jury that moves first: the contestant moves second, and its turns are the ones judged */
    assert_int_equal(cr_jury_new(&jury, coins, 3, CR_TOTAL, (cr_jury_policy){.jury_first = 1}, &err), 0);
    assert_int_equal(cr_jury_play(jury, 'L', &err), CR_EINVAL);
    assert_string_equal(err.msg, "turn 1 is the jury's, not the contestant's");
    assert_int_equal(cr_jury_move(&move, jury, &err), 0);
    assert_int_equal(move, 'L'); /* the 9 */
    assert_int_equal(cr_jury_move(&move, jury, &err), CR_EINVAL);
    assert_string_equal(err.msg, "turn 2 is the contestant's, not the jury's");
    assert_int_equal(cr_jury_play(jury, 'L', &err), 0); /* the 1: the 3 was worth 2 more */
    assert_int_equal(cr_jury_move(&move, jury, &err), 0);
    assert_int_equal(cr_jury_judge(&verdict, jury, &err), 0);
    assert_int_equal(verdict.turn, 1);
    assert_string_equal(verdict.why, "turn 2: L is not optimal: it gives up 2 of the total (R keeps it)");
    cr_jury_free(jury);
}

static void test_jury__winner_judges_by_outcome_and_says_what_was_lost(void **state)
{
    (void)state;
    /* 5 1 1: L wins 6 to 1; R takes a 1 and the jury the 5, a loss */
    const int64_t coins[] = {5, 1, 1};
    cr_jury *jury;
    cr_error err;
    char move;
    cr_verdict verdict;
    assert_int_equal(cr_jury_new(&jury, coins, 3, CR_WINNER, (cr_jury_policy){0}, &err), 0);
    assert_int_equal(cr_jury_play(jury, 'R', &err), 0);
    assert_int_equal(cr_jury_move(&move, jury, &err), 0);
    assert_int_equal(move, 'L');
    assert_int_equal(cr_jury_play(jury, 'L', &err), 0);
    assert_int_equal(cr_jury_judge(&verdict, jury, &err), 0);
    assert_int_equal(verdict.fault, CR_LINE_SUBOPTIMAL);
    assert_string_equal(verdict.why, "turn 1: R is not optimal: it turns a win into a loss (L keeps it)");
    cr_jury_free(jury);

    const int64_t row[] = {7, 1, 1, 1, 5};
    /* L: 7 - lead(1 1 1 5) = 7 - 4 = 3; R: 5 - lead(7 1 1 1) = 5 - 6 = -1 */
    assert_int_equal(cr_jury_new(&jury, row, 5, CR_DIFF, (cr_jury_policy){0}, &err), 0);
    assert_int_equal(cr_jury_play(jury, 'R', &err), 0);
    while (cr_jury_turn(jury) < 5) {
        assert_int_equal(cr_jury_move(&move, jury, &err), 0);
        assert_int_equal(cr_jury_play(jury, 'L', &err), 0);
    }
    assert_int_equal(cr_jury_judge(&verdict, jury, &err), 0);
    assert_string_equal(verdict.why, "turn 1: R is not optimal: it gives up 4 of the lead (L keeps it)");
    cr_jury_free(jury);

    const int64_t draw[] = {9, 1, 1, 1, 8};
    /* L: 9 - lead(1 1 1 8) = 9 - 7 = 2; R: 8 - lead(9 1 1 1) = 8 - 8 = 0: a draw */
    assert_int_equal(cr_jury_new(&jury, draw, 5, CR_WINNER, (cr_jury_policy){0}, &err), 0);
    assert_int_equal(cr_jury_play(jury, 'R', &err), 0);
    while (cr_jury_turn(jury) < 5) {
        assert_int_equal(cr_jury_move(&move, jury, &err), 0);
        assert_int_equal(cr_jury_play(jury, 'L', &err), 0);
    }
    assert_int_equal(cr_jury_judge(&verdict, jury, &err), 0);
    assert_string_equal(verdict.why, "turn 1: R is not optimal: it turns a win into a draw (L keeps it)");
    cr_jury_free(jury);
}

static void test_jury__bad_arguments_are_refused(void **state)
{
    (void)state;
    const int64_t coins[] = {1};
    cr_jury *jury = (cr_jury *)coins;
    cr_error err;
    assert_int_equal(cr_jury_new(&jury, coins, 0, CR_TOTAL, (cr_jury_policy){0}, &err), CR_EINVAL);
    assert_int_equal(cr_jury_new(&jury, NULL, 1, CR_TOTAL, (cr_jury_policy){0}, &err), CR_EINVAL);
    assert_int_equal(cr_jury_new(&jury, coins, 1, CR_VARIANT_COUNT, (cr_jury_policy){0}, &err), CR_EINVAL);
    assert_true(cr_jury_bytes(1000000) > cr_moves_canonical_bytes(1000000));
    assert_int_equal(cr_jury_bytes(CR_N_MAX + (size_t)1), SIZE_MAX);
    cr_jury_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jury__its_moves_are_the_tables_against_every_contestant_and_its_verdicts_too),
        cmocka_unit_test(test_jury__an_optimal_jury_takes_the_brute_forces_moves_on_small_rows),
        cmocka_unit_test(test_jury__meeting_the_canonical_line_it_plays_the_canonical_line),
        cmocka_unit_test(test_jury__on_long_rows_it_answers_a_slip_as_the_quadratic_canonical_line),
        cmocka_unit_test(test_jury__a_deviating_jury_breaks_ties_both_ways),
        cmocka_unit_test(test_jury__the_same_seed_and_moves_give_the_same_game),
        cmocka_unit_test(test_jury__moves_out_of_turn_or_past_the_end_are_refused_and_change_nothing),
        cmocka_unit_test(test_jury__winner_judges_by_outcome_and_says_what_was_lost),
        cmocka_unit_test(test_jury__bad_arguments_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

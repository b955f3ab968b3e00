/* Property tests of the solver core against the brute-force oracle, over
 * many random rows: every algorithm, every variant, every line policy. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "coinrow.h"
#include "support/oracle.h"

#define INSTANCES 100000
#define MAX_N 16

static int fits(i128 v) { return v >= INT64_MIN && v <= INT64_MAX; }

typedef struct run {
    cr_algo algo;
    cr_moves moves;
} run;

static const run runs[] = {
    {CR_ALGO_LINEAR, CR_MOVES_FAST}, {CR_ALGO_LINEAR, CR_MOVES_CANONICAL}, {CR_ALGO_DP, CR_MOVES_FAST},
    {CR_ALGO_DP, CR_MOVES_NONE},     {CR_ALGO_NAIVE, CR_MOVES_NONE},       {CR_ALGO_AUTO, CR_MOVES_CANONICAL},
};
enum { RUNS = sizeof runs / sizeof runs[0] };

static void check_line_against_oracle(const oracle *o, cr_variant v, const char *line)
{
    size_t n = o->n;
    assert_non_null(line);
    assert_int_equal(strlen(line), n);
    assert_int_equal(oracle_first_bad_turn(o, v, line), -1);

    cr_verdict verdict;
    cr_error err;
    assert_int_equal(cr_moves_verify(&verdict, o->a, n, v, line, n, &err), 0);
    assert_int_equal(verdict.fault, CR_LINE_OK);

    i128 want[2];
    oracle_replay(o, v, line, want);
    cr_scores got;
    int rc = cr_moves_replay(&got, o->a, n, v, line, n, &err);
    if (fits(want[0]) && fits(want[1])) {
        assert_int_equal(rc, 0);
        assert_true(got.first == want[0] && got.second == want[1]);
    } else {
        assert_int_equal(rc, CR_EOVERFLOW);
    }
}

/* Checks one solved variant against the oracle: value, scores, winner, line. */
static void check_result(const oracle *o, const cr_result *r, cr_variant v, run how, const cr_result *fast)
{
    i128 value = oracle_value(o, v), first, second;
    if (v == CR_REMAINING) {
        i128 scores[2];
        /* scores follow the reported line; with none, the fast line */
        const char *line = how.moves == CR_MOVES_NONE ? fast->moves : r->moves;
        assert_non_null(line);
        oracle_replay(o, v, line, scores);
        first = scores[0];
        second = scores[1];
        assert_true(first - second == value);
    } else {
        first = o->total[0][o->n - 1];
        second = o->sum - first;
    }
    /* each figure is given exactly when it fits; the winner always is */
    unsigned missing = (fits(value) ? 0 : CR_FIGURE_VALUE) | (fits(first) ? 0 : CR_FIGURE_FIRST_SCORE) |
                       (fits(second) ? 0 : CR_FIGURE_SECOND_SCORE);
    assert_int_equal(r->missing, missing);
    assert_int_equal(r->error.code, missing ? CR_EOVERFLOW : 0);
    assert_true(fits(value) ? r->value == value : r->value == 0);
    assert_true(fits(first) ? r->first_score == first : r->first_score == 0);
    assert_true(fits(second) ? r->second_score == second : r->second_score == 0);
    i128 lead = v == CR_REMAINING ? value : o->lead[0][o->n - 1];
    assert_int_equal(r->winner, (lead > 0) - (lead < 0));
    assert_int_equal(r->algo, how.algo == CR_ALGO_AUTO ? CR_ALGO_LINEAR : how.algo);
    if (how.moves == CR_MOVES_NONE) {
        assert_null(r->moves);
        return;
    }
    check_line_against_oracle(o, v, r->moves);
    if (how.moves == CR_MOVES_CANONICAL) {
        char smallest[MAX_N + 1];
        oracle_smallest_line(o, v, smallest);
        assert_string_equal(r->moves, smallest);
    }
}

/* Spoils an optimal line at a turn where only one move is optimal: the
 * verifier must name that turn.  Then a random line, against the oracle. */
static void check_verifier_catches(const oracle *o, cr_variant v, const char *optimal, uint64_t *rng)
{
    size_t n = o->n;
    char line[MAX_N + 2];
    cr_verdict verdict;
    memcpy(line, optimal, n + 1);
    size_t start = (size_t)(test_rand(rng) % n);
    for (size_t k = start, i = 0, j = n - 1, turn = 0; turn < n; turn++) {
        unsigned opt = oracle_optimal(o, v, i, j);
        if (turn >= k && opt != 3) {
            line[turn] = line[turn] == 'L' ? 'R' : 'L';
            assert_int_equal(cr_moves_verify(&verdict, o->a, n, v, line, n, NULL), 0);
            assert_int_equal(verdict.fault, CR_LINE_SUBOPTIMAL);
            assert_int_equal(verdict.turn, turn);
            break;
        }
        if (line[turn] == 'L')
            i++;
        else
            j--;
    }

    for (size_t k = 0; k < n; k++)
        line[k] = test_rand(rng) & 1 ? 'L' : 'R';
    line[n] = '\0';
    long bad = oracle_first_bad_turn(o, v, line);
    assert_int_equal(cr_moves_verify(&verdict, o->a, n, v, line, n, NULL), 0);
    assert_int_equal(verdict.fault, bad < 0 ? CR_LINE_OK : CR_LINE_SUBOPTIMAL);
    assert_int_equal(verdict.turn, bad < 0 ? n : (size_t)bad);

    /* a stray character is reported unless an earlier move is already bad */
    size_t stray = (size_t)(test_rand(rng) % n);
    line[stray] = 'x';
    assert_int_equal(cr_moves_verify(&verdict, o->a, n, v, line, n, NULL), 0);
    if (bad >= 0 && (size_t)bad < stray) {
        assert_int_equal(verdict.fault, CR_LINE_SUBOPTIMAL);
        assert_int_equal(verdict.turn, (size_t)bad);
    } else {
        assert_int_equal(verdict.fault, CR_LINE_BAD_MOVE);
        assert_int_equal(verdict.turn, stray);
    }
}

static void test_properties__all_algorithms_agree_with_the_oracle(void **state)
{
    (void)state;
    uint64_t rng = 20261129;
    cr_solver *solver;
    assert_int_equal(cr_solver_new(&solver, NULL), 0);
    cr_result results[RUNS][CR_VARIANT_COUNT];
    static oracle o;
    for (int t = 0; t < INSTANCES; t++) {
        int64_t a[MAX_N];
        size_t n;
        oracle_random_row(a, &n, MAX_N, &rng);
        oracle_build(&o, a, n);
        for (size_t i = 0; i < n; i++)
            for (size_t j = i; j < n; j++)
                assert_int_equal(o.opt_total[i][j], o.opt_lead[i][j]); /* "total" and "diff" agree on play */

        for (int k = 0; k < RUNS; k++) {
            cr_solve_opts opts = {CR_VARIANTS_ALL, runs[k].algo, runs[k].moves};
            (void)cr_solve(results[k], solver, a, n, &opts, NULL);
            /* lines point into the solver: keep this run's before the next */
            static char kept[RUNS][CR_VARIANT_COUNT][MAX_N + 1];
            for (int v = 0; v < CR_VARIANT_COUNT; v++)
                if (results[k][v].moves) {
                    memcpy(kept[k][v], results[k][v].moves, n + 1);
                    results[k][v].moves = kept[k][v];
                }
        }
        for (int k = 0; k < RUNS; k++)
            for (int v = 0; v < CR_VARIANT_COUNT; v++)
                check_result(&o, &results[k][v], (cr_variant)v, runs[k], &results[0][v]);

        cr_variant v = (cr_variant)(t % CR_VARIANT_COUNT);
        check_verifier_catches(&o, v, results[1][v].moves, &rng);
    }
    cr_solver_free(solver);
}

/* The theorem behind the seeds' "first player never loses with an even
 * number of coins" (it is no way to compute the winner, but it must hold),
 * and LeetCode 877: even n and an odd sum, so the first player wins. */
static void test_properties__first_player_never_loses_with_even_n(void **state)
{
    (void)state;
    uint64_t rng = 877;
    cr_solver *solver;
    assert_int_equal(cr_solver_new(&solver, NULL), 0);
    for (int t = 0; t < 20000; t++) {
        int64_t a[64];
        size_t n = 2 * (size_t)test_rand_range(&rng, 1, 32);
        int64_t sum = 0;
        for (size_t i = 0; i < n; i++)
            sum += a[i] = test_rand_range(&rng, -3, 3);
        cr_result r[CR_VARIANT_COUNT];
        cr_solve_opts opts = {CR_VARIANT_BIT(CR_WINNER), CR_ALGO_LINEAR, CR_MOVES_NONE};
        assert_int_equal(cr_solve(r, solver, a, n, &opts, NULL), 0);
        assert_true(r[CR_WINNER].value >= 0);
        if (sum % 2 != 0)
            assert_int_equal(r[CR_WINNER].value, 1);
    }
    cr_solver_free(solver);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_properties__all_algorithms_agree_with_the_oracle),
        cmocka_unit_test(test_properties__first_player_never_loses_with_even_n),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

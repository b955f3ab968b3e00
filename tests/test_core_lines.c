/* Lines of play at scale: the core's O(n log n) verifier and O(n sqrt n)
 * canonical line held to the O(n^2) ones they replaced (support/quadratic.c)
 * on many random rows, and to the brute force where rows are small. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "coinrow.h"
#include "support/oracle.h"
#include "support/quadratic.h"

enum { MAX_N = 400 };

static const cr_variant variants[] = {CR_TOTAL, CR_DIFF, CR_REMAINING, CR_WINNER};

/* The verdict the quadratic verifier's precedence gives line[0..len): the
 * first suboptimal turn among the legal moves, else the first stray
 * character, else a short or long line. */
static void expected_verdict(cr_fault *fault, size_t *turn, const int64_t *coins, size_t n, cr_variant v,
                             const char *line, size_t len)
{
    size_t legal = 0, limit = len < n ? len : n;
    while (legal < limit && (line[legal] == 'L' || line[legal] == 'R'))
        legal++;
    size_t bad = quadratic_first_bad(coins, n, v, line, legal);
    if (bad != SIZE_MAX)
        *fault = CR_LINE_SUBOPTIMAL, *turn = bad;
    else if (legal < limit)
        *fault = CR_LINE_BAD_MOVE, *turn = legal;
    else if (len < n)
        *fault = CR_LINE_SHORT, *turn = len;
    else if (len > n)
        *fault = CR_LINE_LONG, *turn = n;
    else
        *fault = CR_LINE_OK, *turn = n;
}

static void check_against_quadratic(const int64_t *coins, size_t n, cr_variant v, const char *line, size_t len)
{
    cr_fault fault;
    size_t turn;
    expected_verdict(&fault, &turn, coins, n, v, line, len);
    cr_verdict got;
    cr_error err;
    assert_int_equal(cr_moves_verify(&got, coins, n, v, line, len, &err), 0);
    if (got.fault != fault || got.turn != turn)
        fail_msg("n = %zu, variant %s: verdict %d at turn %zu, the quadratic verifier says %d at %zu", n,
                 cr_variant_name(v), got.fault, got.turn, fault, turn);
}

/* An optimal line of the row: the fast line, or the canonical one. */
static void optimal_line(char *out, cr_solver *solver, const int64_t *coins, size_t n, cr_variant v, int canonical)
{
    cr_result r[CR_VARIANT_COUNT];
    cr_solve_opts opts = {CR_VARIANT_BIT(v), CR_ALGO_LINEAR, canonical ? CR_MOVES_CANONICAL : CR_MOVES_FAST};
    (void)cr_solve(r, solver, coins, n, &opts, NULL); /* figures may overflow int64; the line is there */
    assert_non_null(r[v].moves);
    memcpy(out, r[v].moves, n + 1);
}

/* Random rows of every kind of values (ties, zeros, negatives, the int64
 * limits that take the 128-bit figures); for each, optimal lines with one
 * to three moves flipped, random lines, and lines cut short, made long or
 * spoiled by a stray character.  Verdict and turn must be the quadratic
 * verifier's. */
static void test_lines__the_verifier_agrees_with_the_quadratic_one(void **state)
{
    (void)state;
    uint64_t rng = 23;
    cr_solver *solver;
    assert_int_equal(cr_solver_new(&solver, NULL), 0);
    static int64_t coins[MAX_N];
    static char line[MAX_N + 8];
    for (int t = 0; t < 6000; t++) {
        size_t n;
        oracle_random_row(coins, &n, t % 4 ? 24 : MAX_N, &rng);
        cr_variant v = variants[t % 4];
        for (int canonical = 0; canonical < 2; canonical++) {
            optimal_line(line, solver, coins, n, v, canonical);
            check_against_quadratic(coins, n, v, line, n);
            for (int flips = 1; flips <= 3; flips++) {
                optimal_line(line, solver, coins, n, v, canonical);
                for (int f = 0; f < flips; f++) {
                    size_t k = (size_t)test_rand_range(&rng, 0, (int64_t)n - 1);
                    line[k] = line[k] == 'L' ? 'R' : 'L';
                }
                check_against_quadratic(coins, n, v, line, n);
            }
        }
        for (size_t k = 0; k < n; k++)
            line[k] = test_rand(&rng) & 1 ? 'L' : 'R';
        check_against_quadratic(coins, n, v, line, n);
        size_t cut = (size_t)test_rand_range(&rng, 0, (int64_t)n);
        check_against_quadratic(coins, n, v, line, cut);
        line[n] = 'L';
        check_against_quadratic(coins, n, v, line, n + 1);
        line[test_rand_range(&rng, 0, (int64_t)n - 1)] = 'x';
        check_against_quadratic(coins, n, v, line, n);
    }
    cr_solver_free(solver);
}

/* Every line of play, on rows small enough to list them all, against the
 * brute force written from the game's definition (support/oracle.c). */
static void test_lines__the_verifier_names_the_brute_forces_first_bad_turn_on_every_line(void **state)
{
    (void)state;
    uint64_t rng = 2323;
    static oracle o;
    char line[16];
    for (int t = 0; t < 1500; t++) {
        int64_t coins[10];
        size_t n;
        oracle_random_row(coins, &n, 10, &rng);
        oracle_build(&o, coins, n);
        cr_variant v = variants[t % 4];
        for (unsigned bits = 0; bits < 1u << n; bits++) {
            for (size_t k = 0; k < n; k++)
                line[k] = bits >> k & 1 ? 'R' : 'L';
            line[n] = '\0';
            long bad = oracle_first_bad_turn(&o, v, line);
            cr_verdict got;
            assert_int_equal(cr_moves_verify(&got, coins, n, v, line, n, NULL), 0);
            assert_int_equal(got.fault, bad < 0 ? CR_LINE_OK : CR_LINE_SUBOPTIMAL);
            assert_int_equal(got.turn, bad < 0 ? n : (size_t)bad);
        }
    }
}

/* Every row of up to six coins from -2..2 (ties everywhere), every line:
 * the merges at either end of the reduced row, on all the small shapes
 * there are. */
static void test_lines__the_verifier_is_right_on_every_small_row_of_small_values(void **state)
{
    (void)state;
    static oracle o;
    char line[8];
    for (size_t n = 1; n <= 6; n++) {
        size_t rows = 1;
        for (size_t k = 0; k < n; k++)
            rows *= 5;
        for (size_t r = 0; r < rows; r++) {
            int64_t coins[6];
            for (size_t k = 0, rest = r; k < n; k++, rest /= 5)
                coins[k] = (int64_t)(rest % 5) - 2;
            oracle_build(&o, coins, n);
            for (unsigned bits = 0; bits < 1u << n; bits++) {
                for (size_t k = 0; k < n; k++)
                    line[k] = bits >> k & 1 ? 'R' : 'L';
                line[n] = '\0';
                cr_variant v = bits % 2 ? CR_REMAINING : CR_DIFF;
                long bad = oracle_first_bad_turn(&o, v, line);
                cr_verdict got;
                assert_int_equal(cr_moves_verify(&got, coins, n, v, line, n, NULL), 0);
                assert_int_equal(got.turn, bad < 0 ? n : (size_t)bad);
            }
        }
    }
}

static void check_canonical(const int64_t *coins, size_t n, cr_variant v)
{
    char *got = malloc(n + 1), *want = malloc(n + 1);
    cr_error err;
    assert_true(got && want);
    assert_int_equal(cr_moves_canonical(got, coins, n, v, &err), 0);
    quadratic_canonical(want, coins, n, v);
    if (strcmp(got, want) != 0) {
        size_t k = 0;
        while (got[k] == want[k])
            k++;
        fail_msg("n = %zu, variant %s: the canonical line differs at turn %zu", n, cr_variant_name(v), k + 1);
    }
    free(got);
    free(want);
}

/* The canonical line by phases is the one the bits of every interval gave,
 * on random rows of every kind of values and of lengths across several
 * phase sizes. */
static void test_lines__the_canonical_line_is_the_quadratic_ones(void **state)
{
    (void)state;
    uint64_t rng = 2300;
    static int64_t coins[MAX_N];
    for (int t = 0; t < 4000; t++) {
        size_t n;
        oracle_random_row(coins, &n, t % 2 ? 40 : MAX_N, &rng);
        check_canonical(coins, n, variants[t % 4]);
    }
}

/* The row that makes trial un-merges quadratic (0, 1, 0, 3, 0, 5,
 * ..., then large and falling), and long rows of ties: several thousand
 * coins, many phases. */
static void test_lines__the_canonical_line_is_the_quadratic_ones_on_long_adversarial_rows(void **state)
{
    (void)state;
    enum { N = 3001 };
    static int64_t coins[N];
    for (size_t i = 0; i < N; i++)
        coins[i] = i < N / 2 ? (i % 2 ? (int64_t)i : 0) : (int64_t)(10 * N - i);
    check_canonical(coins, N, CR_DIFF);
    check_canonical(coins, N, CR_REMAINING);
    uint64_t rng = 77;
    for (size_t i = 0; i < N; i++)
        coins[i] = test_rand_range(&rng, 0, 2);
    check_canonical(coins, N, CR_DIFF);
    check_canonical(coins, N - 1, CR_TOTAL);
}

/* Rows of many blocks (the phases' middles reuse each block's reduced row:
 * reduced.c), of every kind of values: random ones, wide and negative ones,
 * ties, a valley where nothing merges, figures that need 128 bits; across
 * block boundaries (lengths just off multiples of 1024). */
static void test_lines__the_canonical_line_is_the_quadratic_ones_on_rows_of_many_blocks(void **state)
{
    (void)state;
    static const size_t sizes[] = {1023, 1025, 2049, 4097, 7000};
    enum { KINDS = 6 };
    static int64_t coins[7000];
    uint64_t rng = 2301;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int kind = 0; kind < KINDS; kind++) {
            size_t n = sizes[s];
            for (size_t i = 0; i < n; i++)
                coins[i] = kind == 0   ? test_rand_range(&rng, 1, 1000000000)
                           : kind == 1 ? test_rand_range(&rng, -1000000000, 1000000000)
                           : kind == 2 ? test_rand_range(&rng, -2, 2)
                           : kind == 3 ? (int64_t)(i < n / 2 ? n / 2 - i : i - n / 2)
                           : kind == 4 ? INT64_MAX - test_rand_range(&rng, 0, 1000)
                                       : (i < n / 2 ? (i % 2 ? (int64_t)i : 0) : (int64_t)(10 * n - i));
            check_canonical(coins, n, variants[(s + (size_t)kind) % 4]);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lines__the_verifier_agrees_with_the_quadratic_one),
        cmocka_unit_test(test_lines__the_verifier_names_the_brute_forces_first_bad_turn_on_every_line),
        cmocka_unit_test(test_lines__the_verifier_is_right_on_every_small_row_of_small_values),
        cmocka_unit_test(test_lines__the_canonical_line_is_the_quadratic_ones),
        cmocka_unit_test(test_lines__the_canonical_line_is_the_quadratic_ones_on_long_adversarial_rows),
        cmocka_unit_test(test_lines__the_canonical_line_is_the_quadratic_ones_on_rows_of_many_blocks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

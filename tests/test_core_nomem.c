/* Every allocation of the core fails in turn: each call that allocates
 * returns CR_ENOMEM with a message and leaks nothing (the sanitizer build
 * checks), or succeeds once no allocation is left to fail.
 *
 * This program is linked with -Wl,--wrap for malloc, calloc and realloc
 * (the Makefile), so the core's calls come here; the C library's own do not. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "coinrow.h"
#include "coinrow/stress.h"

void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *p, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *p, size_t size);

static long allocations; /* since the countdown was armed */
static long fail_at = -1; /* the allocation that fails; -1: none */
static size_t asked;      /* bytes asked for, every allocation counted */

static int failing(size_t size)
{
    asked += size;
    return allocations++ == fail_at;
}
void *__wrap_malloc(size_t size) { return failing(size) ? NULL : __real_malloc(size); }
void *__wrap_calloc(size_t count, size_t size) { return failing(count * size) ? NULL : __real_calloc(count, size); }
void *__wrap_realloc(void *p, size_t size) { return failing(size) ? NULL : __real_realloc(p, size); }

/* Runs call with allocation 0, 1, 2, ... failing until it no longer
 * allocates that many: each failure must be CR_ENOMEM with a message (or, for
 * calls that answer a failure in their result, what `failed` says), and the
 * last run must succeed.  Returns how many allocations it makes. */
static long fail_each_allocation(int (*call)(void *ctx, cr_error *err), void *ctx)
{
    for (long k = 0;; k++) {
        cr_error err = {0};
        allocations = 0;
        fail_at = k;
        int rc = call(ctx, &err);
        fail_at = -1;
        if (allocations <= k) {
            if (rc != 0)
                fail_msg("with every allocation made: %d (%s)", rc, err.msg);
            return k;
        }
        if (rc != CR_ENOMEM || !err.msg[0])
            fail_msg("allocation %ld failed: %d (%s), expected CR_ENOMEM with a message", k, rc, err.msg);
    }
}

static const int64_t coins[] = {3, 9, -2, 7, 7, 1, 0, -5, 12, 4};
#define N (sizeof coins / sizeof coins[0])

static int solve_every_way(void *ctx, cr_error *err)
{
    (void)ctx;
    cr_solver *solver = NULL;
    int rc = cr_solver_new(&solver, err);
    static const cr_algo algos[] = {CR_ALGO_LINEAR, CR_ALGO_DP};
    static const cr_moves policies[] = {CR_MOVES_NONE, CR_MOVES_FAST, CR_MOVES_CANONICAL};
    for (size_t a = 0; rc == 0 && a < 2; a++)
        for (size_t m = 0; rc == 0 && m < 3; m++) {
            cr_result r[CR_VARIANT_COUNT];
            cr_solve_opts opts = {CR_VARIANTS_ALL, algos[a], policies[m]};
            rc = cr_solve(r, solver, coins, N, &opts, err);
        }
    /* a longer row grows the solver's buffers */
    int64_t longer[3 * N];
    for (size_t i = 0; i < 3 * N; i++)
        longer[i] = coins[i % N];
    cr_result r[CR_VARIANT_COUNT];
    cr_solve_opts opts = {CR_VARIANTS_ALL, CR_ALGO_AUTO, CR_MOVES_FAST};
    if (rc == 0)
        rc = cr_solve(r, solver, longer, 3 * N, &opts, err);
    cr_solver_free(solver);
    return rc;
}

static void test_nomem__solving_fails_cleanly_at_every_allocation(void **state)
{
    (void)state;
    assert_true(fail_each_allocation(solve_every_way, NULL) >= 10);
}

static int lines(void *ctx, cr_error *err)
{
    (void)ctx;
    char line[N + 1];
    cr_verdict v;
    int rc = cr_moves_canonical(line, coins, N, CR_REMAINING, err);
    if (rc == 0)
        rc = cr_moves_verify(&v, coins, N, CR_DIFF, "LRLRLRLRLR", N, err);
    /* two lines that differ are verified too */
    cr_side a = {NULL, 0, 0, 0, 0, 0, "LRLRLRLRLR"}, b = {NULL, 0, 0, 0, 0, 0, "RLRLRLRLRL"};
    cr_difference d;
    if (rc == 0)
        rc = cr_compare_sides(&d, coins, N, CR_DIFF, &a, &b, 0, err);
    /* a game against the jury, judged */
    cr_jury *jury = NULL;
    if (rc == 0)
        rc = cr_jury_new(&jury, coins, N, CR_DIFF, (cr_jury_policy){.seed = 7}, err);
    for (size_t k = 0; rc == 0 && k < N; k += 2) {
        char move;
        rc = cr_jury_play(jury, 'L', err);
        if (rc == 0)
            rc = cr_jury_move(&move, jury, err);
    }
    if (rc == 0)
        rc = cr_jury_judge(&v, jury, err);
    cr_jury_free(jury);
    return rc;
}

static void test_nomem__lines_fail_cleanly_at_every_allocation(void **state)
{
    (void)state;
    assert_true(fail_each_allocation(lines, NULL) >= 5);
}

/* What cr_moves_canonical_bytes (cr_jury_bytes) says, by arithmetic, is
 * the most the line (the jury) asks for: all of it for coins whose figures need 128 bits, about half
 * where 64 bits hold them.  So the memory guards (cr_solver_limit, the
 * extension's heap limit) never let through a line that would not fit. */
static void test_nomem__a_canonical_line_asks_for_at_most_the_bytes_it_says(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 2, 3, 10, 99, 1000, 12345};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t n = sizes[k];
        int64_t *row = malloc(n * sizeof *row);
        char *line = malloc(n + 1);
        assert_true(row && line);
        for (int wide = 0; wide < 2; wide++) {
            for (size_t i = 0; i < n; i++)
                row[i] = wide ? INT64_MAX - (int64_t)(i * 7919 % 1000) : (int64_t)(i * 7919 % 1000);
            cr_error err;
            asked = 0;
            assert_int_equal(cr_moves_canonical(line, row, n, CR_DIFF, &err), 0);
            if (wide)
                assert_int_equal(asked, cr_moves_canonical_bytes(n));
            else
                assert_true(asked > cr_moves_canonical_bytes(n) / 3 && asked < cr_moves_canonical_bytes(n) * 2 / 3);
            /* and the jury as much, with its second plane and its line */
            cr_jury *jury;
            asked = 0;
            assert_int_equal(cr_jury_new(&jury, row, n, CR_DIFF, (cr_jury_policy){0}, &err), 0);
            cr_jury_free(jury);
            if (wide)
                assert_int_equal(asked, cr_jury_bytes(n));
            else
                assert_true(asked < cr_jury_bytes(n));
        }
        free(row);
        free(line);
    }
}

static int contest(void *ctx, cr_error *err)
{
    (void)ctx;
    const char *text = "4\n8 15 3 7\n";
    cr_contest_input in = {0};
    cr_judgement verdict;
    int rc = cr_contest_input_parse(&in, text, strlen(text), NULL, err);
    if (rc == 0)
        rc = cr_contest_answerable(&in, CR_VARIANTS_ALL, err);
    if (rc == 0)
        rc = cr_contest_check(&verdict, &in, CR_DIFF, CR_CHECK_MOVES_REQUIRED, "11\nRLLL\n", 8, "11\nLLLL\n", 8, err);
    cr_contest_input_free(&in);
    return rc;
}

static void test_nomem__contest_files_fail_cleanly_at_every_allocation(void **state)
{
    (void)state;
    assert_true(fail_each_allocation(contest, NULL) >= 4);
}

static int zigzag(void *ctx, cr_error *err)
{
    (void)ctx;
    cr_gen_spec spec = {{4, 9, -5, 20, 0, 0}, 3, 11, CR_PROFILE_ZIGZAG};
    int64_t out[9];
    size_t n;
    return cr_gen_instance(out, &n, &spec, 2, err);
}

static void test_nomem__generating_fails_cleanly_at_every_allocation(void **state)
{
    (void)state;
    assert_int_equal(fail_each_allocation(zigzag, NULL), 1);
}

/* A contender that is wrong whenever the row holds a 7: the stress finds it
 * and shrinks the row, allocating on the way. */
static int wrong_on_sevens(cr_result out[CR_VARIANT_COUNT], void *ctx, const int64_t *row, size_t n,
                           const cr_solve_opts *opts, cr_error *err)
{
    int rc = cr_solve(out, ctx, row, n, opts, err);
    for (size_t i = 0; rc == 0 && i < n; i++)
        if (row[i] == 7)
            out[CR_DIFF].value++;
    return rc;
}

static int stress(void *ctx, cr_error *err)
{
    (void)ctx;
    cr_solver *solver = NULL;
    int rc = cr_solver_new(&solver, err);
    if (rc)
        return rc;
    cr_contender contenders[] = {{"linear", cr_stress_builtin, solver, CR_ALGO_LINEAR},
                                 {"sevens", wrong_on_sevens, solver, CR_ALGO_DP}};
    cr_gen_spec spec = {{3, 8, 0, 9, 0, 0}, 40, 5, CR_PROFILE_ZIGZAG};
    cr_stress_report report;
    rc = cr_stress_run(&report, contenders, 2, &spec, CR_VARIANT_BIT(CR_DIFF), CR_MOVES_FAST, err);
    if (rc == 0 && !report.found.found)
        fail_msg("no row with a 7 among the generated ones");
    cr_stress_report_free(&report);
    cr_solver_free(solver);
    return rc;
}

static void test_nomem__stress_fails_cleanly_at_every_allocation(void **state)
{
    (void)state;
    assert_true(fail_each_allocation(stress, NULL) >= 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nomem__solving_fails_cleanly_at_every_allocation),
        cmocka_unit_test(test_nomem__lines_fail_cleanly_at_every_allocation),
        cmocka_unit_test(test_nomem__a_canonical_line_asks_for_at_most_the_bytes_it_says),
        cmocka_unit_test(test_nomem__contest_files_fail_cleanly_at_every_allocation),
        cmocka_unit_test(test_nomem__generating_fails_cleanly_at_every_allocation),
        cmocka_unit_test(test_nomem__stress_fails_cleanly_at_every_allocation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

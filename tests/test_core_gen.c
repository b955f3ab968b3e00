/* The generator: the PRNG against an independent reference, determinism,
 * every profile's promise, and the refusal of constraints no instance meets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "coinrow.h"

static void test_rng__matches_the_published_algorithms(void **state)
{
    (void)state;
    /* computed by a separate implementation of splitmix64 and xoshiro256** */
    cr_rng rng;
    cr_rng_seed(&rng, 0, 0);
    assert_true(cr_rng_next(&rng) == 0x99ec5f36cb75f2b4u);
    assert_true(cr_rng_next(&rng) == 0xbf6e1f784956452au);
    assert_true(cr_rng_next(&rng) == 0x1a5f849d4933e6e0u);
    cr_rng_seed(&rng, 42, 7);
    assert_true(cr_rng_next(&rng) == 0x11a904479c05b3dau);
    assert_true(cr_rng_next(&rng) == 0xcffd69429302c462u);
    assert_true(cr_rng_next(&rng) == 0x79e6a4245def3af9u);
}

static void test_rng__bounded_draws_stay_in_range_and_reach_both_ends(void **state)
{
    (void)state;
    cr_rng rng;
    cr_rng_seed(&rng, 9, 0);
    int seen_lo = 0, seen_hi = 0;
    for (int i = 0; i < 2000; i++) {
        int64_t v = cr_rng_between(&rng, -3, 3);
        assert_true(v >= -3 && v <= 3);
        seen_lo |= v == -3;
        seen_hi |= v == 3;
        assert_true(cr_rng_below(&rng, 7) < 7);
    }
    assert_true(seen_lo && seen_hi);
    assert_true(cr_rng_between(&rng, INT64_MIN, INT64_MIN) == INT64_MIN);
    assert_true(cr_rng_between(&rng, INT64_MAX, INT64_MAX) == INT64_MAX);
    int negative = 0, positive = 0;
    for (int i = 0; i < 64; i++) {
        int64_t v = cr_rng_between(&rng, INT64_MIN, INT64_MAX);
        negative |= v < 0;
        positive |= v > 0;
        assert_true(cr_rng_between(&rng, INT64_MAX - 1, INT64_MAX) >= INT64_MAX - 1);
    }
    assert_true(negative && positive);
}

/* --- helpers ----------------------------------------------------------------- */

static cr_gen_spec spec_of(cr_profile profile, uint64_t count, size_t n_min, size_t n_max, int64_t lo, int64_t hi,
                           uint64_t seed)
{
    cr_gen_spec spec = {{n_min, n_max, lo, hi, 0, 0}, count, seed, profile};
    return spec;
}

/* Instance k of spec, in a buffer the caller frees. */
static int64_t *instance(const cr_gen_spec *spec, uint64_t k, size_t *n)
{
    int64_t *coins = malloc(spec->limits.n_max * sizeof *coins);
    cr_error err = {0};
    assert_non_null(coins);
    if (cr_gen_instance(coins, n, spec, k, &err) != 0)
        fail_msg("instance %llu: %s", (unsigned long long)k, err.msg);
    return coins;
}

/* An oracle of our own, in 128 bits (antigreedy's figures can pass int64):
 * best[i][j] is the mover's best lead on coins i..j, by interval DP. */
__extension__ typedef __int128 i128;
enum { ORACLE_MAX = 64 };
typedef struct oracle {
    i128 best[ORACLE_MAX][ORACLE_MAX];
} oracle;

static void oracle_fill(oracle *o, const int64_t *c, size_t n)
{
    assert_true(n <= ORACLE_MAX);
    for (size_t len = 1; len <= n; len++)
        for (size_t i = 0; i + len <= n; i++) {
            size_t j = i + len - 1;
            i128 left = c[i] - (len > 1 ? o->best[i + 1][j] : 0), right = c[j] - (len > 1 ? o->best[i][j - 1] : 0);
            o->best[i][j] = left >= right ? left : right;
        }
}

/* First player's lead when the first always takes the larger end (left on a
 * tie) and the second plays optimally, or greedily too when `greedy_second`. */
static i128 greedy_lead(const oracle *o, const int64_t *c, size_t n, int greedy_second)
{
    i128 lead = 0;
    for (size_t i = 0, j = n - 1, turn = 0; turn < n; turn++) {
        int left;
        if (turn % 2 == 0 || greedy_second || i == j)
            left = c[i] >= c[j];
        else
            left = c[i] - o->best[i + 1][j] >= c[j] - o->best[i][j - 1];
        i128 taken = left ? c[i++] : c[j--];
        lead += turn % 2 == 0 ? taken : -taken;
    }
    return lead;
}

static int is_local_max(const int64_t *c, size_t i) { return c[i - 1] <= c[i] && c[i] >= c[i + 1]; }

/* Checks instance `coins` of spec against the constraints and its profile. */
static void check_instance(const cr_gen_spec *spec, uint64_t k, const int64_t *c, size_t n)
{
    const cr_constraints *l = &spec->limits;
    assert_true(n >= l->n_min && n <= l->n_max);
    if (l->even_n)
        assert_int_equal(n % 2, 0);
    uint64_t sum = 0;
    size_t off_limits = 0; /* coins at neither limit, */
    int one_step_in = 1;   /* each one step inside a limit */
    for (size_t i = 0; i < n; i++) {
        assert_true(c[i] >= l->value_min && c[i] <= l->value_max);
        sum += (uint64_t)c[i];
        if (c[i] != l->value_min && c[i] != l->value_max) {
            off_limits++;
            one_step_in &= c[i] == l->value_min + 1 || c[i] == l->value_max - 1;
        }
    }
    if (l->odd_sum)
        assert_int_equal(sum % 2, 1);
    switch (spec->profile) {
    case CR_PROFILE_SORTED:
        for (size_t i = 1; i < n; i++)
            assert_true(c[i - 1] <= c[i]);
        break;
    case CR_PROFILE_REVERSED:
        for (size_t i = 1; i < n; i++)
            assert_true(c[i - 1] >= c[i]);
        break;
    case CR_PROFILE_EQUAL:
        for (size_t i = 1; i < n; i++)
            assert_true(c[i] == c[0]);
        break;
    case CR_PROFILE_ZIGZAG:
        for (size_t i = 1; i < n; i++)
            assert_true(i % 2 ? c[i - 1] >= c[i] : c[i - 1] <= c[i]);
        break;
    case CR_PROFILE_PEAKS: {
        size_t summits = 0;
        for (size_t i = 1; i + 1 < n; i++)
            summits += (size_t)is_local_max(c, i);
        assert_true(summits >= n / 7);
        break;
    }
    case CR_PROFILE_EXTREME: /* at the limits; one coin moved by one when the sum had to turn odd */
        assert_true(off_limits <= (size_t)l->odd_sum && one_step_in);
        break;
    case CR_PROFILE_SMALL: {
        size_t step = l->even_n ? 2 : 1, first = l->even_n && l->n_min % 2 ? l->n_min + 1 : l->n_min;
        size_t sizes = (l->n_max - first) / step + 1;
        assert_int_equal(n, first + step * (k % sizes));
        break;
    }
    case CR_PROFILE_ANTIGREEDY: {
        static oracle o; /* 64 KiB: not on the stack */
        assert_true(n >= 4 && n % 2 == 0);
        oracle_fill(&o, c, n);
        assert_true(o.best[0][n - 1] > 0);
        assert_true(greedy_lead(&o, c, n, 0) < 0);
        assert_true(greedy_lead(&o, c, n, 1) < 0);
        break;
    }
    default: break;
    }
}

/* --- tests ------------------------------------------------------------------- */

static void test_gen__same_spec_gives_the_same_instances_and_another_seed_others(void **state)
{
    (void)state;
    cr_gen_spec a = spec_of(CR_PROFILE_RANDOM, 20, 1, 30, -1000, 1000, 5), b = a;
    b.seed = 6;
    int differs = 0;
    for (uint64_t k = 0; k < a.count; k++) {
        size_t n1, n2, n3;
        int64_t *x = instance(&a, k, &n1), *y = instance(&a, k, &n2), *z = instance(&b, k, &n3);
        assert_int_equal(n1, n2);
        assert_memory_equal(x, y, n1 * sizeof *x);
        differs |= n1 != n3 || memcmp(x, z, n1 * sizeof *x) != 0;
        free(x), free(y), free(z);
    }
    assert_true(differs);
}

static void test_gen__instances_are_pinned_byte_for_byte(void **state)
{
    (void)state;
    /* A change here changes every set generated so far: only on purpose. */
    cr_gen_spec spec = spec_of(CR_PROFILE_RANDOM, 5, 4, 8, 1, 20, 42);
    size_t n;
    int64_t *c = instance(&spec, 0, &n);
    const int64_t want[] = {3, 10, 14, 17, 5, 15};
    assert_int_equal(n, 6);
    assert_memory_equal(c, want, sizeof want);
    free(c);
    spec = spec_of(CR_PROFILE_ANTIGREEDY, 5, 4, 9, -5, 20, 7);
    c = instance(&spec, 0, &n);
    const int64_t trap[] = {2, 1, 17, 3};
    assert_int_equal(n, 4);
    assert_memory_equal(c, trap, sizeof trap);
    free(c);
}

/* "The same arguments give the same bytes on every machine": instance 1 of
 * every profile, n 5..8 and values -9..20, on three seeds, with and without
 * --odd-sum (whose fix is drawn after the coins).  A change here changes
 * sets users have generated: only on purpose, and said in the release notes. */
static void test_gen__every_profile_is_pinned_byte_for_byte_on_several_seeds(void **state)
{
    (void)state;
    static const struct {
        cr_profile profile;
        int odd_sum;
        uint64_t seed;
        size_t n;
        int64_t coins[8];
    } pins[] = {
        {CR_PROFILE_RANDOM, 0, 7, 5, {-9, -4, -3, 18, -5}},
        {CR_PROFILE_RANDOM, 0, 42, 6, {16, 7, 3, 16, -6, 7}},
        {CR_PROFILE_RANDOM, 0, 2024, 7, {-6, 1, -8, 7, -1, 14, 5}},
        {CR_PROFILE_RANDOM, 1, 7, 5, {-9, -4, -3, 18, -5}},
        {CR_PROFILE_RANDOM, 1, 42, 6, {16, 7, 3, 16, -6, 7}},
        {CR_PROFILE_RANDOM, 1, 2024, 7, {-6, 2, -8, 7, -1, 14, 5}},
        {CR_PROFILE_SORTED, 0, 7, 5, {-9, -5, -4, -3, 18}},
        {CR_PROFILE_SORTED, 0, 42, 6, {-6, 3, 7, 7, 16, 16}},
        {CR_PROFILE_SORTED, 0, 2024, 7, {-8, -6, -1, 1, 5, 7, 14}},
        {CR_PROFILE_SORTED, 1, 7, 5, {-9, -5, -4, -3, 18}},
        {CR_PROFILE_SORTED, 1, 42, 6, {-6, 3, 7, 7, 16, 16}},
        {CR_PROFILE_SORTED, 1, 2024, 7, {-8, -6, -1, 2, 5, 7, 14}},
        {CR_PROFILE_REVERSED, 0, 7, 5, {18, -3, -4, -5, -9}},
        {CR_PROFILE_REVERSED, 0, 42, 6, {16, 16, 7, 7, 3, -6}},
        {CR_PROFILE_REVERSED, 0, 2024, 7, {14, 7, 5, 1, -1, -6, -8}},
        {CR_PROFILE_REVERSED, 1, 7, 5, {18, -3, -4, -5, -9}},
        {CR_PROFILE_REVERSED, 1, 42, 6, {16, 16, 7, 7, 3, -6}},
        {CR_PROFILE_REVERSED, 1, 2024, 7, {14, 7, 5, 2, -1, -6, -8}},
        {CR_PROFILE_EQUAL, 0, 7, 5, {-9, -9, -9, -9, -9}},
        {CR_PROFILE_EQUAL, 0, 42, 6, {16, 16, 16, 16, 16, 16}},
        {CR_PROFILE_EQUAL, 0, 2024, 7, {-6, -6, -6, -6, -6, -6, -6}},
        {CR_PROFILE_EQUAL, 1, 7, 5, {-9, -9, -9, -9, -9}},
        {CR_PROFILE_EQUAL, 1, 42, 7, {17, 17, 17, 17, 17, 17, 17}},
        {CR_PROFILE_EQUAL, 1, 2024, 5, {-5, -5, -5, -5, -5}},
        {CR_PROFILE_ZIGZAG, 0, 7, 5, {-4, -9, 18, -5, -3}},
        {CR_PROFILE_ZIGZAG, 0, 42, 6, {16, 7, 16, -6, 7, 3}},
        {CR_PROFILE_ZIGZAG, 0, 2024, 7, {14, -8, 7, -6, 5, -1, 1}},
        {CR_PROFILE_ZIGZAG, 1, 7, 5, {-4, -9, 18, -5, -3}},
        {CR_PROFILE_ZIGZAG, 1, 42, 6, {16, 7, 16, -6, 7, 3}},
        {CR_PROFILE_ZIGZAG, 1, 2024, 7, {14, -1, 7, -8, 5, -6, 2}},
        {CR_PROFILE_ANTIGREEDY, 0, 7, 6, {2, 0, -1, -2, 16, 3}},
        {CR_PROFILE_ANTIGREEDY, 0, 42, 8, {1, 13, 0, -1, 0, -1, 0, 0}},
        {CR_PROFILE_ANTIGREEDY, 0, 2024, 6, {4, 20, 2, -2, 1, -2}},
        {CR_PROFILE_ANTIGREEDY, 1, 7, 6, {2, 0, -1, -2, 17, 3}},
        {CR_PROFILE_ANTIGREEDY, 1, 42, 8, {1, 14, 0, -1, 0, -1, 0, 0}},
        {CR_PROFILE_ANTIGREEDY, 1, 2024, 6, {4, 20, 2, -2, 1, -2}},
        {CR_PROFILE_PEAKS, 0, 7, 5, {-9, -4, 18, -3, -5}},
        {CR_PROFILE_PEAKS, 0, 42, 6, {3, 16, 7, -6, 16, 7}},
        {CR_PROFILE_PEAKS, 0, 2024, 7, {-8, 1, -6, -1, 7, 14, 5}},
        {CR_PROFILE_PEAKS, 1, 7, 5, {-9, -4, 18, -3, -5}},
        {CR_PROFILE_PEAKS, 1, 42, 6, {3, 16, 7, -6, 16, 7}},
        {CR_PROFILE_PEAKS, 1, 2024, 7, {-8, -1, 7, 2, -6, 5, 14}},
        {CR_PROFILE_EXTREME, 0, 7, 5, {20, 20, -9, 20, -9}},
        {CR_PROFILE_EXTREME, 0, 42, 6, {-9, 20, -9, -9, -9, -9}},
        {CR_PROFILE_EXTREME, 0, 2024, 7, {20, 20, 20, -9, -9, -9, -9}},
        {CR_PROFILE_EXTREME, 1, 7, 5, {20, 20, -8, 20, -9}},
        {CR_PROFILE_EXTREME, 1, 42, 6, {-9, 20, -9, -9, -9, -9}},
        {CR_PROFILE_EXTREME, 1, 2024, 7, {20, 19, 20, -9, -9, -9, -9}},
        {CR_PROFILE_SMALL, 0, 7, 6, {19, -9, -4, -3, 18, -5}},
        {CR_PROFILE_SMALL, 0, 42, 6, {10, 16, 7, 3, 16, -6}},
        {CR_PROFILE_SMALL, 0, 2024, 6, {-7, -6, 1, -8, 7, -1}},
        {CR_PROFILE_SMALL, 1, 7, 6, {19, -9, -4, -2, 18, -5}},
        {CR_PROFILE_SMALL, 1, 42, 6, {10, 16, 7, 3, 17, -6}},
        {CR_PROFILE_SMALL, 1, 2024, 6, {-7, -6, 1, -8, 7, 0}},
    };
    int profiles = 0;
    for (size_t i = 0; i < sizeof pins / sizeof pins[0]; i++) {
        cr_gen_spec spec = spec_of(pins[i].profile, 4, 5, 8, -9, 20, pins[i].seed);
        spec.limits.odd_sum = pins[i].odd_sum;
        size_t n;
        int64_t *c = instance(&spec, 1, &n);
        if (n != pins[i].n || memcmp(c, pins[i].coins, n * sizeof *c) != 0)
            fail_msg("%s, seed %llu%s: instance 1 changed", cr_profile_name(pins[i].profile),
                     (unsigned long long)pins[i].seed, pins[i].odd_sum ? ", odd sum" : "");
        free(c);
        profiles |= 1 << pins[i].profile;
    }
    assert_int_equal(profiles, (1 << CR_PROFILE_COUNT) - 1);
}

static void test_gen__an_instance_does_not_depend_on_the_count(void **state)
{
    (void)state;
    cr_gen_spec small = spec_of(CR_PROFILE_PEAKS, 3, 1, 40, 0, 99, 11), large = small;
    large.count = 300;
    for (uint64_t k = 0; k < small.count; k++) {
        size_t n1, n2;
        int64_t *x = instance(&small, k, &n1), *y = instance(&large, k, &n2);
        assert_int_equal(n1, n2);
        assert_memory_equal(x, y, n1 * sizeof *x);
        free(x), free(y);
    }
}

static void test_gen__every_profile_meets_its_promise_and_the_constraints(void **state)
{
    (void)state;
    static const int64_t ranges[][2] = {{1, 1000000000}, {-50, 50}, {0, 3}, {INT64_MIN, INT64_MAX}, {7, 9}};
    for (int p = 0; p < CR_PROFILE_COUNT; p++)
        for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++)
            for (int flags = 0; flags < 4; flags++) {
                cr_gen_spec spec = spec_of((cr_profile)p, 40, 1, 30, ranges[r][0], ranges[r][1], 1000 + r);
                spec.limits.even_n = flags & 1;
                spec.limits.odd_sum = (flags >> 1) & 1;
                if (cr_gen_check(&spec, NULL) != 0) {
                    /* only the combinations known to be impossible may be refused */
                    int antigreedy_range = ranges[r][1] < 3 || ranges[r][0] >= 7;
                    assert_true((p == CR_PROFILE_ANTIGREEDY && antigreedy_range) ||
                                (p == CR_PROFILE_EQUAL && flags == 3));
                    continue;
                }
                for (uint64_t k = 0; k < spec.count; k++) {
                    size_t n;
                    int64_t *c = instance(&spec, k, &n);
                    check_instance(&spec, k, c, n);
                    free(c);
                }
            }
}

static void test_gen__antigreedy_traps_greedy_at_every_size_and_scale(void **state)
{
    (void)state;
    cr_gen_spec spec = spec_of(CR_PROFILE_ANTIGREEDY, 200, 4, 24, 1, 1000, 77);
    spec.limits.odd_sum = 1;
    for (uint64_t k = 0; k < spec.count; k++) {
        size_t n;
        int64_t *c = instance(&spec, k, &n);
        check_instance(&spec, k, c, n);
        free(c);
    }
}

static void test_gen__impossible_constraints_are_refused_with_the_reason(void **state)
{
    (void)state;
    struct {
        cr_gen_spec spec;
        int even_n, odd_sum;
        const char *why;
    } cases[] = {
        {spec_of(CR_PROFILE_EQUAL, 5, 1, 10, 1, 9, 1), 1, 1, "never add up to an odd number when n is even"},
        {spec_of(CR_PROFILE_RANDOM, 5, 1, 10, 4, 4, 1), 0, 1, "every coin is 4, so no sum is odd"},
        {spec_of(CR_PROFILE_RANDOM, 5, 3, 3, 1, 9, 1), 1, 0, "no even n in 3..3"},
        {spec_of(CR_PROFILE_ANTIGREEDY, 5, 4, 10, 0, 2, 1), 0, 0, "values up to at least 3"},
        {spec_of(CR_PROFILE_ANTIGREEDY, 5, 30, 40, 5, 100, 1), 0, 0, "outweigh all the others"},
        {spec_of(CR_PROFILE_ANTIGREEDY, 5, 1, 3, 0, 100, 1), 0, 0, "no even n of at least 4"},
        {spec_of(CR_PROFILE_SMALL, 5, 1, 10, 0, 9, 1), 0, 0, "count must be at least 10"},
        {spec_of(CR_PROFILE_RANDOM, 0, 1, 10, 0, 9, 1), 0, 0, "count must be at least 1"},
        {spec_of(CR_PROFILE_RANDOM, 5, 1, 10, 9, 0, 1), 0, 0, "empty range"},
        {spec_of(CR_PROFILE_RANDOM, 5, 0, 10, 0, 9, 1), 0, 0, "not a range"},
        {spec_of(CR_PROFILE_RANDOM, 5, 6, 5, 0, 9, 1), 0, 0, "not a range"},
        {spec_of(CR_PROFILE_RANDOM, 5, 1, CR_N_MAX + 1, 0, 9, 1), 0, 0, "not a range"},
        {spec_of(CR_PROFILE_COUNT, 5, 1, 10, 0, 9, 1), 0, 0, "unknown profile 9"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cr_error err = {0};
        cases[i].spec.limits.even_n = cases[i].even_n;
        cases[i].spec.limits.odd_sum = cases[i].odd_sum;
        assert_int_equal(cr_gen_check(&cases[i].spec, &err), CR_EINVAL);
        if (!strstr(err.msg, cases[i].why))
            fail_msg("case %zu: '%s' does not say '%s'", i, err.msg, cases[i].why);
        int64_t coins[64];
        size_t n;
        assert_int_equal(cr_gen_instance(coins, &n, &cases[i].spec, 0, NULL), CR_EINVAL);
    }
    /* a possible spec, asked for what it does not have */
    cr_gen_spec spec = spec_of(CR_PROFILE_RANDOM, 5, 1, 10, 0, 9, 1);
    int64_t coins[10];
    size_t n;
    cr_error err = {0};
    assert_int_equal(cr_gen_instance(coins, &n, &spec, 5, &err), CR_EINVAL);
    assert_string_equal(err.msg, "instance 5 of a set of 5");
    assert_int_equal(cr_gen_instance(NULL, &n, &spec, 0, NULL), CR_EINVAL);
    assert_int_equal(cr_gen_instance(coins, NULL, &spec, 0, NULL), CR_EINVAL);
}

static void test_gen__ids_are_one_based_and_zero_padded_to_the_count(void **state)
{
    (void)state;
    char id[CR_GEN_ID_MAX];
    cr_gen_id(id, 9, 0);
    assert_string_equal(id, "01");
    cr_gen_id(id, 12, 11);
    assert_string_equal(id, "12");
    cr_gen_id(id, 100, 6);
    assert_string_equal(id, "007");
    cr_gen_id(id, UINT64_MAX, UINT64_MAX - 1);
    assert_string_equal(id, "18446744073709551615");
}

static void test_gen__profile_names_round_trip(void **state)
{
    (void)state;
    for (int p = 0; p < CR_PROFILE_COUNT; p++) {
        cr_profile back;
        assert_int_equal(cr_profile_parse(&back, cr_profile_name((cr_profile)p), NULL), 0);
        assert_int_equal(back, p);
    }
    cr_error err = {0};
    cr_profile ignored;
    assert_int_equal(cr_profile_parse(&ignored, "greedy", &err), CR_EINVAL);
    assert_non_null(strstr(err.msg, "unknown profile 'greedy'"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rng__matches_the_published_algorithms),
        cmocka_unit_test(test_rng__bounded_draws_stay_in_range_and_reach_both_ends),
        cmocka_unit_test(test_gen__same_spec_gives_the_same_instances_and_another_seed_others),
        cmocka_unit_test(test_gen__instances_are_pinned_byte_for_byte),
        cmocka_unit_test(test_gen__every_profile_is_pinned_byte_for_byte_on_several_seeds),
        cmocka_unit_test(test_gen__an_instance_does_not_depend_on_the_count),
        cmocka_unit_test(test_gen__every_profile_meets_its_promise_and_the_constraints),
        cmocka_unit_test(test_gen__antigreedy_traps_greedy_at_every_size_and_scale),
        cmocka_unit_test(test_gen__impossible_constraints_are_refused_with_the_reason),
        cmocka_unit_test(test_gen__ids_are_one_based_and_zero_padded_to_the_count),
        cmocka_unit_test(test_gen__profile_names_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Generated instances: sizes, profiles and the constraints they keep.
 *
 * Instance k draws from stream k of the seed, in this order: its size (but
 * for the small profile), then its coins as its profile says, then, when the
 * sum must be odd and is not, the coin to change by one, then the random
 * choices of its arrangement.  Changing this order changes every generated
 * set: the tests pin a few instances byte for byte. */
#include "coinrow/gen.h"

#include <stdlib.h>
#include <string.h>

#include "coinrow/rng.h"
#include "internal.h"

static const char *const profile_names[CR_PROFILE_COUNT] = {
    "random", "sorted", "reversed", "equal", "zigzag", "antigreedy", "peaks", "extreme", "small"};

const char *cr_profile_name(cr_profile p) { return (unsigned)p < CR_PROFILE_COUNT ? profile_names[p] : NULL; }

int cr_profile_parse(cr_profile *out, const char *name, cr_error *err)
{
    int i, rc = cr_game__parse_name(&i, profile_names, CR_PROFILE_COUNT, "profile",
                                    "random, sorted, reversed, equal, zigzag, antigreedy, peaks, extreme or small",
                                    name, err);
    if (rc == 0)
        *out = (cr_profile)i;
    return rc;
}

/* The sizes an instance may have: first, first + step, ..., count of them. */
typedef struct sizes {
    size_t first, step, count;
} sizes;

/* Every coin is the same value: the sum is n times it. */
static int coins_all_equal(const cr_gen_spec *spec)
{
    return spec->profile == CR_PROFILE_EQUAL || spec->limits.value_min == spec->limits.value_max;
}

/* The antigreedy trap's big coin must outweigh all the others: with the others
 * at most a in absolute value, (n - 1) * a + 3 <= value_max, and a cannot be
 * below the smallest non-negative value allowed.  The largest such n, or
 * CR_N_MAX when every n works. */
static size_t antigreedy_n_max(const cr_constraints *l)
{
    uint64_t least = l->value_min > 0 ? (uint64_t)l->value_min : 0;
    if (least == 0)
        return CR_N_MAX;
    uint64_t n = ((uint64_t)l->value_max - 3) / least + 1;
    return n < CR_N_MAX ? (size_t)n : CR_N_MAX;
}

static int find_sizes(sizes *out, const cr_gen_spec *spec, cr_error *err)
{
    const cr_constraints *l = &spec->limits;
    size_t lo = l->n_min, hi = l->n_max;
    int parity = l->even_n ? 0 : -1; /* -1: any n; 0: even; 1: odd */
    const char *why = l->even_n ? "even n" : "n";
    if (l->odd_sum && coins_all_equal(spec)) {
        if (parity == 0)
            return cr_error_set(err, CR_EINVAL, "equal coins never add up to an odd number when n is even");
        parity = 1;
        why = "odd n (equal coins add up to an odd number only when n is odd)";
    }
    if (spec->profile == CR_PROFILE_ANTIGREEDY) {
        if (l->value_max < 3)
            return cr_error_set(err, CR_EINVAL,
                                "the antigreedy profile needs values up to at least 3 (its big coin must outweigh "
                                "all the others)");
        parity = 0;
        lo = lo > 4 ? lo : 4;
        size_t cap = antigreedy_n_max(l);
        hi = hi < cap ? hi : cap;
        why = cap < CR_N_MAX ? "even n from 4 up to the largest whose big coin can outweigh all the others"
                             : "even n of at least 4 (the antigreedy profile)";
    }
    size_t step = parity < 0 ? 1 : 2;
    size_t first = parity >= 0 && lo % 2 != (size_t)parity ? lo + 1 : lo;
    size_t last = parity >= 0 && hi % 2 != (size_t)parity ? hi - 1 : hi;
    if (lo > hi || first > last)
        return cr_error_set(err, CR_EINVAL, "no %s in %zu..%zu with values %lld..%lld", why, l->n_min, l->n_max,
                            (long long)l->value_min, (long long)l->value_max);
    out->first = first;
    out->step = step;
    out->count = (last - first) / step + 1;
    return 0;
}

static int check_spec(sizes *out, const cr_gen_spec *spec, cr_error *err)
{
    const cr_constraints *l = &spec->limits;
    if ((unsigned)spec->profile >= CR_PROFILE_COUNT)
        return cr_error_set(err, CR_EINVAL, "unknown profile %d", (int)spec->profile);
    if (spec->count == 0)
        return cr_error_set(err, CR_EINVAL, "the count must be at least 1");
    if (l->n_min == 0 || l->n_min > l->n_max || l->n_max > CR_N_MAX)
        return cr_error_set(err, CR_EINVAL, "the sizes %zu..%zu are not a range within 1..%zu", l->n_min, l->n_max,
                            CR_N_MAX);
    if (l->value_min > l->value_max)
        return cr_error_set(err, CR_EINVAL, "the values %lld..%lld are an empty range", (long long)l->value_min,
                            (long long)l->value_max);
    if (l->odd_sum && l->value_min == l->value_max && l->value_min % 2 == 0)
        return cr_error_set(err, CR_EINVAL, "every coin is %lld, so no sum is odd", (long long)l->value_min);
    int rc = find_sizes(out, spec, err);
    if (rc == 0 && spec->profile == CR_PROFILE_SMALL && spec->count < out->count)
        rc = cr_error_set(err, CR_EINVAL, "the small profile makes one instance of each of its %zu sizes: the count "
                                          "must be at least %zu",
                          out->count, out->count);
    return rc;
}

int cr_gen_check(const cr_gen_spec *spec, cr_error *err)
{
    sizes s;
    return check_spec(&s, spec, err);
}

/* --- shaping the coins --------------------------------------------------- */

/* v changed by one inside [lo, hi], lo < hi: its parity flips. */
static int64_t flip_parity(int64_t v, const cr_constraints *l) { return v < l->value_max ? v + 1 : v - 1; }

static int sum_is_even(const int64_t *coins, size_t n)
{
    uint64_t sum = 0; /* modulo 2^64: enough for its parity */
    for (size_t i = 0; i < n; i++)
        sum += (uint64_t)coins[i];
    return sum % 2 == 0;
}

static int ascending(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int descending(const void *a, const void *b) { return ascending(b, a); }

static void shuffle(int64_t *v, size_t n, cr_rng *rng)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)cr_rng_below(rng, i);
        int64_t swap = v[i - 1];
        v[i - 1] = v[j];
        v[j] = swap;
    }
}

static void reverse(int64_t *v, size_t n)
{
    for (size_t i = 0, j = n; i + 1 < j; i++, j--) {
        int64_t swap = v[i];
        v[i] = v[j - 1];
        v[j - 1] = swap;
    }
}

/* The smaller half of the coins at odd positions, the larger half at even
 * ones, each half in random order: every even-position coin is at least as
 * large as its neighbours. */
static int zigzag(int64_t *coins, size_t n, cr_rng *rng, cr_error *err)
{
    int64_t *sorted = (int64_t *)malloc(n * sizeof *sorted);
    if (!sorted)
        return cr_error_set(err, CR_ENOMEM, "no memory to arrange %zu coins", n);
    memcpy(sorted, coins, n * sizeof *coins);
    qsort(sorted, n, sizeof *sorted, ascending);
    size_t low = n / 2;
    shuffle(sorted, low, rng);
    shuffle(sorted + low, n - low, rng);
    for (size_t i = 0; i < n; i++)
        coins[i] = i % 2 ? sorted[i / 2] : sorted[low + i / 2];
    free(sorted);
    return 0;
}

/* Runs of 3 to 7 coins (the last run takes what is left), each arranged as a
 * mountain: smallest at its edges, largest in its middle.  Every run of 3 or
 * more has an inner summit at least as large as its neighbours, and the
 * slopes make the linear method merge peaks in cascades. */
static void peaks(int64_t *coins, size_t n, cr_rng *rng)
{
    for (size_t start = 0; start < n;) {
        size_t width = 3 + (size_t)cr_rng_below(rng, 5);
        if (width > n - start)
            width = n - start;
        int64_t run[7];
        memcpy(run, coins + start, width * sizeof *run);
        qsort(run, width, sizeof *run, ascending);
        for (size_t j = 0, left = start, right = start + width; j < width; j++)
            coins[j % 2 == 0 ? left++ : --right] = run[j];
        start += width;
    }
}

/* [x, B, c2, ..., c(n-1)] (or its mirror) for even n >= 4, with x > c(n-1)
 * and B > |x| + |c2| + ... + |c(n-1)|.  Taking the larger end takes x and
 * hands B to the opponent: the first player then trails by at least
 * B - |x| - sum |ci| > 0 however both go on.  Optimal play takes every coin
 * at B's parity (possible with even n) and wins by at least as much. */
static void antigreedy(int64_t *coins, size_t n, cr_rng *rng, const cr_constraints *l)
{
    int64_t least = l->value_min > 0 ? l->value_min : 0;
    int64_t scale_max = (l->value_max - 3) / (int64_t)(n - 1); /* >= least, see find_sizes */
    int64_t scale = cr_rng_between(rng, least, scale_max);     /* |ci| <= scale, |x| <= scale + 1 */
    int64_t small_min = l->value_min > -scale ? l->value_min : -scale;
    for (size_t i = 2; i < n; i++)
        coins[i] = cr_rng_between(rng, small_min, scale);
    coins[0] = cr_rng_between(rng, coins[n - 1] + 1, scale + 1);
    /* B >= (n - 1) * scale + 3 > |x| + sum |ci| + 1, so B may still move down by one */
    coins[1] = cr_rng_between(rng, (int64_t)(n - 1) * scale + 3, l->value_max);
    if (l->odd_sum && sum_is_even(coins, n))
        coins[1] = flip_parity(coins[1], l);
    if (cr_rng_next(rng) >> 63)
        reverse(coins, n);
}

int cr_gen_instance(int64_t *out, size_t *out_n, const cr_gen_spec *spec, uint64_t index, cr_error *err)
{
    sizes s;
    int rc = check_spec(&s, spec, err);
    if (rc)
        return rc;
    if (!out || !out_n || index >= spec->count)
        return cr_error_set(err, CR_EINVAL, "instance %llu of a set of %llu", (unsigned long long)index,
                            (unsigned long long)spec->count);
    const cr_constraints *l = &spec->limits;
    cr_rng rng;
    cr_rng_seed(&rng, spec->seed, index);
    uint64_t pick = spec->profile == CR_PROFILE_SMALL ? index % s.count : cr_rng_below(&rng, s.count);
    size_t n = s.first + s.step * (size_t)pick;

    if (spec->profile == CR_PROFILE_ANTIGREEDY) {
        antigreedy(out, n, &rng, l);
    } else if (spec->profile == CR_PROFILE_EQUAL) {
        int64_t v = cr_rng_between(&rng, l->value_min, l->value_max);
        if (l->odd_sum && v % 2 == 0)
            v = flip_parity(v, l); /* n is odd here (find_sizes) */
        for (size_t i = 0; i < n; i++)
            out[i] = v;
    } else {
        for (size_t i = 0; i < n; i++)
            out[i] = spec->profile != CR_PROFILE_EXTREME ? cr_rng_between(&rng, l->value_min, l->value_max)
                     : cr_rng_next(&rng) >> 63              ? l->value_max
                                                            : l->value_min;
        /* With a single value the sum is already odd (check_spec, find_sizes). */
        if (l->odd_sum && sum_is_even(out, n)) {
            size_t k = (size_t)cr_rng_below(&rng, n);
            out[k] = flip_parity(out[k], l);
        }
    }

    switch (spec->profile) {
    case CR_PROFILE_SORTED: qsort(out, n, sizeof *out, ascending); break;
    case CR_PROFILE_REVERSED: qsort(out, n, sizeof *out, descending); break;
    case CR_PROFILE_ZIGZAG: rc = zigzag(out, n, &rng, err); break;
    case CR_PROFILE_PEAKS: peaks(out, n, &rng); break;
    default: break;
    }
    *out_n = n;
    return rc;
}

void cr_gen_id(char out[CR_GEN_ID_MAX], uint64_t count, uint64_t index)
{
    int width = 0;
    for (uint64_t c = count; c; c /= 10)
        width++;
    if (width < 2)
        width = 2;
    out[width] = '\0';
    for (uint64_t v = index + 1; width > 0; v /= 10)
        out[--width] = (char)('0' + v % 10);
}

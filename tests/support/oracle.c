#include "support/oracle.h"

static i128 max2(i128 x, i128 y) { return x > y ? x : y; }
static i128 min2(i128 x, i128 y) { return x < y ? x : y; }

static unsigned which(i128 take_left, i128 take_right)
{
    return (take_left >= take_right ? 1u : 0u) | (take_right >= take_left ? 2u : 0u);
}

/* total of the row [i, j], 0 when it is empty */
static i128 total_of(const oracle *o, long i, long j) { return i <= j ? o->total[i][j] : 0; }

void oracle_build(oracle *o, const int64_t *a, size_t n)
{
    o->n = n;
    o->sum = 0;
    for (size_t i = 0; i < n; i++) {
        o->a[i] = a[i];
        o->sum += a[i];
    }
    for (size_t len = 1; len <= n; len++) {
        for (size_t i = 0; i + len <= n; i++) {
            size_t j = i + len - 1;
            i128 in_row = 0;
            for (size_t k = i; k <= j; k++)
                in_row += a[k];
            if (len == 1) {
                o->total[i][j] = o->lead[i][j] = a[i];
                o->remaining[i][j] = 0;
                o->opt_total[i][j] = o->opt_lead[i][j] = o->opt_remaining[i][j] = 3;
                continue;
            }
            /* "pots of gold": take an end, then the other player leaves you the worse of two rows */
            long li = (long)i, lj = (long)j;
            i128 total_left = a[i] + min2(total_of(o, li + 2, lj), total_of(o, li + 1, lj - 1));
            i128 total_right = a[j] + min2(total_of(o, li + 1, lj - 1), total_of(o, li, lj - 2));
            o->total[i][j] = max2(total_left, total_right);
            o->opt_total[i][j] = (unsigned char)which(total_left, total_right);

            i128 lead_left = a[i] - o->lead[i + 1][j], lead_right = a[j] - o->lead[i][j - 1];
            o->lead[i][j] = max2(lead_left, lead_right);
            o->opt_lead[i][j] = (unsigned char)which(lead_left, lead_right);

            i128 rem_left = (in_row - a[i]) - o->remaining[i + 1][j];
            i128 rem_right = (in_row - a[j]) - o->remaining[i][j - 1];
            o->remaining[i][j] = max2(rem_left, rem_right);
            o->opt_remaining[i][j] = (unsigned char)which(rem_left, rem_right);
        }
    }
}

i128 oracle_value(const oracle *o, cr_variant v)
{
    size_t j = o->n - 1;
    switch (v) {
    case CR_TOTAL: return o->total[0][j];
    case CR_DIFF: return o->lead[0][j];
    case CR_REMAINING: return o->remaining[0][j];
    default: return (o->lead[0][j] > 0) - (o->lead[0][j] < 0);
    }
}

unsigned oracle_optimal(const oracle *o, cr_variant v, size_t i, size_t j)
{
    switch (v) {
    case CR_TOTAL: return o->opt_total[i][j];
    case CR_REMAINING: return o->opt_remaining[i][j];
    default: return o->opt_lead[i][j];
    }
}

long oracle_first_bad_turn(const oracle *o, cr_variant v, const char *line)
{
    for (size_t k = 0, i = 0, j = o->n - 1; k < o->n; k++) {
        unsigned wanted = line[k] == 'L' ? 1u : 2u;
        if (!(oracle_optimal(o, v, i, j) & wanted))
            return (long)k;
        if (line[k] == 'L')
            i++;
        else
            j--;
    }
    return -1;
}

void oracle_smallest_line(const oracle *o, cr_variant v, char *out)
{
    for (size_t k = 0, i = 0, j = o->n - 1; k < o->n; k++) {
        int left = oracle_optimal(o, v, i, j) & 1u;
        out[k] = left ? 'L' : 'R';
        if (left)
            i++;
        else
            j--;
    }
    out[o->n] = '\0';
}

void oracle_replay(const oracle *o, cr_variant v, const char *line, i128 out[2])
{
    out[0] = out[1] = 0;
    i128 in_row = o->sum;
    for (size_t k = 0, i = 0, j = o->n - 1; k < o->n; k++) {
        int64_t taken = line[k] == 'L' ? o->a[i++] : o->a[j--];
        in_row -= taken;
        out[k % 2] += v == CR_REMAINING ? in_row : taken;
    }
}

uint64_t test_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

int64_t test_rand_range(uint64_t *state, int64_t lo, int64_t hi)
{
    uint64_t span = (uint64_t)hi - (uint64_t)lo + 1; /* 0 means the whole range */
    uint64_t r = test_rand(state);
    return (int64_t)((uint64_t)lo + (span ? r % span : r));
}

void oracle_random_row(int64_t *a, size_t *n, size_t max_n, uint64_t *rng)
{
    static const struct {
        int64_t lo, hi;
    } ranges[] = {
        {0, 1}, {-1, 1}, {-2, 2}, {0, 3}, {-5, 5}, {-100, 100}, {1, 1000000000}, {-1000000000, 1000000000},
        {INT64_MIN / 4, INT64_MAX / 4}, {INT64_MIN, INT64_MAX},
    };
    static const int64_t limits[] = {INT64_MIN, INT64_MIN + 1, -1, 0, 1, INT64_MAX - 1, INT64_MAX};
    *n = (size_t)test_rand_range(rng, 1, (int64_t)max_n);
    uint64_t kind = test_rand(rng) % 12;
    for (size_t i = 0; i < *n; i++) {
        if (kind < 10)
            a[i] = test_rand_range(rng, ranges[kind].lo, ranges[kind].hi);
        else if (kind == 10)
            a[i] = limits[test_rand(rng) % 7];
        else
            a[i] = i == 0 ? test_rand_range(rng, -3, 3) : a[0]; /* all equal */
    }
}

/* The reduced row and the verifier's walk, written once for the value type
 * T (reduced.c says how each works and why).  reduced.c includes this file
 * once per type, with T, U (the unsigned type of T's width) and RED(name)
 * (the instance's name of `name`) defined.  The caller picks T so that four
 * times the sum of |coin| fits. */

typedef struct RED(row) {
    T *v;     /* v[lo..hi): the values, left to right */
    U *sum;   /* sum[k + 1] - sum[k] is v[k] for even k, -v[k] for odd k; wrapping, since only
                 differences over [lo, hi] are read, and those are exact */
    size_t lo, hi;
    T lead;   /* the row's lead, kept while `keep` is set */
    int keep; /* 0: values only, for a pass whose leads are not read (RED(settle) starts keeping) */
} RED(row);

/* Coin i as a value of the game played: negated for the remaining-sum game. */
static inline T RED(value)(const int64_t *coins, size_t i, int negate)
{
    return negate ? -(T)coins[i] : (T)coins[i];
}

/* The value t places in from end `end`. */
static inline T RED(at)(const RED(row) *r, int end, size_t t)
{
    return end == CR_END_RIGHT ? r->v[r->hi - 1 - t] : r->v[r->lo + t];
}

/* The alternating sum of the j values nearest end `end`, that end's counted +. */
static T RED(alternating)(const RED(row) *r, int end, size_t j)
{
    size_t first = end == CR_END_RIGHT ? r->hi - 1 : r->lo;
    T run = (T)(end == CR_END_RIGHT ? r->sum[r->hi] - r->sum[r->hi - j] : r->sum[r->lo + j] - r->sum[r->lo]);
    return first % 2 ? -run : run;
}

/* How many values at end `end` are greater than c: a run from that end, as
 * the row with c at its other end has no inner peak; found in O(log j). */
static size_t RED(above)(const RED(row) *r, int end, T c)
{
    size_t size = r->hi - r->lo, good = 1, bad = size; /* above: every t < good; not: bad, or bad == size */
    if (size == 0 || RED(at)(r, end, 0) <= c)
        return 0;
    for (size_t probe = 1; probe < size; probe = 2 * probe + 1) {
        if (RED(at)(r, end, probe) <= c) {
            bad = probe;
            break;
        }
        good = probe + 1;
    }
    while (good < bad) {
        size_t mid = good + (bad - good) / 2;
        if (RED(at)(r, end, mid) > c)
            good = mid + 1;
        else
            bad = mid;
    }
    return good;
}

/* c joins end `end` of the row, or has just left it: the lead changes by
 * the same formula either way. */
static void RED(toggle)(RED(row) *r, int end, T c)
{
    int other = !end;
    size_t j = RED(above)(r, other, c);
    T top = RED(alternating)(r, other, j);
    r->lead = top - r->lead + top + (j % 2 ? -c : c);
}

static inline void RED(add)(RED(row) *r, int end, T c)
{
    if (r->keep)
        RED(toggle)(r, end, c);
    size_t k = end == CR_END_RIGHT ? r->hi++ : --r->lo;
    r->v[k] = c;
    if (!r->keep)
        return;
    U signed_c = k % 2 ? -(U)c : (U)c;
    if (end == CR_END_RIGHT)
        r->sum[k + 1] = r->sum[k] + signed_c;
    else
        r->sum[k] = r->sum[k + 1] - signed_c;
}

static inline T RED(take)(RED(row) *r, int end)
{
    T c = end == CR_END_RIGHT ? r->v[--r->hi] : r->v[r->lo++];
    if (r->keep)
        RED(toggle)(r, end, c);
    return c;
}

/* Adds the coin c at end `end` and merges the peaks it makes there (only
 * there: the rest has none). */
static inline void RED(push)(RED(row) *r, int end, T c)
{
    while (r->hi - r->lo >= 2 && c <= RED(at)(r, end, 0) && RED(at)(r, end, 0) >= RED(at)(r, end, 1)) {
        T y = RED(take)(r, end);
        c = c - y + RED(take)(r, end);
    }
    RED(add)(r, end, c);
}

/* Starts keeping the prefix sums and the lead of a row built without them:
 * the lead by playing it out, each player taking the larger end. */
static void RED(settle)(RED(row) *r)
{
    T lead = 0;
    int first = 1;
    r->sum[r->lo] = 0;
    for (size_t k = r->lo; k < r->hi; k++)
        r->sum[k + 1] = r->sum[k] + (k % 2 ? -(U)r->v[k] : (U)r->v[k]);
    for (size_t a = r->lo, b = r->hi; a < b; first = !first) {
        T taken = r->v[a] >= r->v[b - 1] ? r->v[a++] : r->v[--b];
        lead = first ? lead + taken : lead - taken;
    }
    r->lead = lead;
    r->keep = 1;
}

/* --- the verifier's walk ---------------------------------------------------- */

/* The first suboptimal turn of line[0..legal) (legal moves, legal <= n) on
 * coins[0..n), negated when `negate`, or SIZE_MAX when there is none.  v
 * holds n values, sum n + 1. */
static size_t RED(first_bad)(const int64_t *coins, size_t n, int negate, const char *line, size_t legal, T *v,
                             U *sum)
{
    size_t lefts = 0;
    for (size_t k = 0; k < legal; k++)
        lefts += line[k] == 'L';
    /* P_legal is [l, r); the row starts at slot `lefts`, so that the pushes at
     * either end stay in [0, n) */
    size_t l = lefts, r = n - (legal - lefts), bad = SIZE_MAX;
    RED(row) row = {v, sum, lefts, lefts, 0, 0};
    for (size_t i = l; i < r; i++)
        RED(push)(&row, CR_END_RIGHT, RED(value)(coins, i, negate));
    RED(settle)(&row);
    for (size_t k = legal; k-- > 0;) {
        T after = row.lead;
        int end = line[k] == 'L' ? CR_END_LEFT : CR_END_RIGHT;
        T taken = RED(value)(coins, end == CR_END_LEFT ? --l : r++, negate);
        RED(push)(&row, end, taken);
        if (taken - after != row.lead)
            bad = k;
    }
    return bad;
}

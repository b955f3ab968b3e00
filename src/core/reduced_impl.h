/* The reduced row, the verifier's walk and the canonical line's phases,
 * written once for the value type T (reduced.c says how each works and why).
 * reduced.c includes this file once per type, with T, U (the unsigned type
 * of T's width), RED(name) (the instance's name of `name`) and
 * DIAGONAL_TARGETS (function attributes for the box's inner loop) defined.
 * The caller picks T so that four times the sum of |coin| fits. */

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

/* Whether a move that gives the mover `got` where `best` was to be had is
 * bad: any loss of lead, or with `by_outcome` only a change of its sign. */
static inline int RED(loses)(T best, T got, int by_outcome)
{
    return by_outcome ? (best > 0) - (best < 0) != (got > 0) - (got < 0) : got != best;
}

/* The first bad turn of line[0..legal) (legal moves, legal <= n) on
 * coins[0..n), negated when `negate`, among the turns of the players in
 * `players` (CR_REDUCED_FIRST, CR_REDUCED_SECOND) into *out, with the leads
 * at that turn; out->turn is SIZE_MAX when there is none.  v holds n
 * values, sum n + 1. */
static void RED(first_bad)(cr_reduced__bad *out, const int64_t *coins, size_t n, int negate, const char *line,
                           size_t legal, unsigned players, int by_outcome, T *v, U *sum)
{
    size_t lefts = 0;
    for (size_t k = 0; k < legal; k++)
        lefts += line[k] == 'L';
    /* P_legal is [l, r); the row starts at slot `lefts`, so that the pushes at
     * either end stay in [0, n) */
    size_t l = lefts, r = n - (legal - lefts);
    RED(row) row = {v, sum, lefts, lefts, 0, 0};
    for (size_t i = l; i < r; i++)
        RED(push)(&row, CR_END_RIGHT, RED(value)(coins, i, negate));
    RED(settle)(&row);
    out->turn = SIZE_MAX;
    for (size_t k = legal; k-- > 0;) {
        T after = row.lead;
        int end = line[k] == 'L' ? CR_END_LEFT : CR_END_RIGHT;
        T taken = RED(value)(coins, end == CR_END_LEFT ? --l : r++, negate);
        RED(push)(&row, end, taken);
        if (players >> (k % 2) & 1 && RED(loses)(row.lead, taken - after, by_outcome)) {
            out->turn = k;
            out->best = row.lead;
            out->got = taken - after;
        }
    }
}

/* --- the canonical line by phases ------------------------------------------- */

/* The reduced rows of the row's whole blocks of CR_REDUCED_BLOCK coins, one
 * after another: block k's values are v[start[k]..start[k + 1]), or its
 * coins when that range is empty (a block that keeps more than
 * CR_REDUCED_KEPT of them, which the middles push coin by coin). */
typedef struct RED(blocks) {
    T *v;          /* n / CR_REDUCED_BLOCK * CR_REDUCED_KEPT values */
    size_t *start; /* count + 1 offsets */
    size_t count;
} RED(blocks);

/* Fills b for the coins[0..n) (negated when `negate`), reducing each block
 * in scratch (a row of n values); returns what a middle of the whole row
 * would push: the values kept, and the coins of the blocks kept whole. */
static size_t RED(reduce_blocks)(RED(blocks) *b, const int64_t *coins, size_t n, int negate, RED(row) *scratch)
{
    size_t at = 0, pushes = n % CR_REDUCED_BLOCK;
    b->count = n / CR_REDUCED_BLOCK;
    for (size_t k = 0; k < b->count; k++) {
        scratch->lo = scratch->hi = 0;
        scratch->keep = 0;
        for (size_t c = k * CR_REDUCED_BLOCK; c < (k + 1) * CR_REDUCED_BLOCK; c++)
            RED(push)(scratch, CR_END_RIGHT, RED(value)(coins, c, negate));
        size_t kept = scratch->hi - scratch->lo;
        b->start[k] = at;
        if (kept > CR_REDUCED_KEPT) {
            pushes += CR_REDUCED_BLOCK;
            continue;
        }
        memcpy(b->v + at, scratch->v + scratch->lo, kept * sizeof(T));
        at += kept;
        pushes += kept;
    }
    b->start[b->count] = at;
    return pushes;
}

/* Pushes the `count` coins from `first` on at the row's right end (its
 * values only): the coins of a whole block as its reduced row where it has
 * one, the merges already made, which keeps the lead (the reduced row's
 * lemma holds for any values).  A random block of 1024 coins reduces to
 * about ten values, so a middle costs a fraction of its length; where
 * nothing merges it costs what it did coin by coin. */
static void RED(middle)(RED(row) *r, const int64_t *coins, size_t first, size_t count, int negate,
                        const RED(blocks) *b)
{
    size_t end = first + count, k = first;
    while (k < end) {
        size_t block = k / CR_REDUCED_BLOCK, next = (block + 1) * CR_REDUCED_BLOCK;
        if (k % CR_REDUCED_BLOCK == 0 && next <= end && b->start[block] < b->start[block + 1]) {
            for (size_t t = b->start[block]; t < b->start[block + 1]; t++)
                RED(push)(r, CR_END_RIGHT, b->v[t]);
            k = next;
            continue;
        }
        for (size_t stop = next < end ? next : end; k < stop; k++)
            RED(push)(r, CR_END_RIGHT, RED(value)(coins, k, negate));
    }
}

/* Diagonal d's cells p in [from, to) from diagonal d + 1's, in place (the
 * interval recursion): lead[p] becomes lead([i + p, j - (d - p)]), and in
 * left[p] bit 0 is set when L is optimal there and bit 1 when both ends are;
 * coins_i = coins + i and coins_jd = coins + j - d. */
DIAGONAL_TARGETS
static void RED(diagonal)(T *CR_RESTRICT lead, uint8_t *CR_RESTRICT left, const int64_t *CR_RESTRICT coins_i,
                          const int64_t *CR_RESTRICT coins_jd, size_t from, size_t to, int negate)
{
    CR_OMP_SIMD
    for (size_t p = from; p < to; p++) {
        T take_left = RED(value)(coins_i, p, negate) - lead[p + 1];
        T take_right = RED(value)(coins_jd, p, negate) - lead[p];
        lead[p] = take_left >= take_right ? take_left : take_right;
        left[p] = (uint8_t)((take_left >= take_right) | (take_left == take_right) << 1);
    }
}

/* One phase at the row [i, j] (i < j) of coins (negated when `negate`): the
 * optimal moves of every interval [i + p, j - q], p, q < b, into the box's
 * bit planes (box_left: L is optimal, box_tie: both ends are; tie may be
 * NULL), with b = min(phase, (j - i + 1) / 2), which it returns.  Any b
 * turns from [i, j] stay in the box.  blocks are the row's (RED(reduce_blocks)).  rows[0] and rows[1] have n values and
 * n + 1 sums each; work holds 3 (phase + 1) + 1 values, choice
 * choice_bytes(phase) bytes, each plane (2 phase + 1) *
 * choice_row_bytes(phase + 1).  The canonical line and the jury walk it
 * (reduced.c). */
static size_t RED(box)(const int64_t *coins, size_t i, size_t j, int negate, const RED(blocks) *blocks,
                       size_t phase, RED(row) rows[2], T *work, uint8_t *choice, uint8_t *left, uint8_t *tie)
{
    size_t len = j - i + 1, b = phase < len / 2 ? phase : len / 2, w = b + 1;
    /* rightward keeps the left end i + b, leftward the right end j - b:
     * p_edge[q] = lead([i + b, j - q]), q_edge[p] = lead([i + p, j - b]) */
    RED(row) *rightward = &rows[0], *leftward = &rows[1];
    T *p_edge = work, *q_edge = work + w, *lead = work + 2 * w;
    /* the middle at slot b: b pushes fit on either side */
    rightward->lo = rightward->hi = b;
    rightward->keep = 0;
    RED(middle)(rightward, coins, i + b, len - 2 * b, negate, blocks);
    RED(settle)(rightward);
    leftward->lo = rightward->lo;
    leftward->hi = rightward->hi;
    leftward->lead = rightward->lead;
    leftward->keep = 1;
    memcpy(leftward->v + rightward->lo, rightward->v + rightward->lo, (rightward->hi - rightward->lo) * sizeof(T));
    memcpy(leftward->sum + rightward->lo, rightward->sum + rightward->lo,
           (rightward->hi - rightward->lo + 1) * sizeof(U));
    p_edge[b] = q_edge[b] = rightward->lead;
    for (size_t q = b; q-- > 0;) {
        RED(push)(rightward, CR_END_RIGHT, RED(value)(coins, j - q, negate));
        p_edge[q] = rightward->lead;
    }
    for (size_t p = b; p-- > 0;) {
        RED(push)(leftward, CR_END_LEFT, RED(value)(coins, i + p, negate));
        q_edge[p] = leftward->lead;
    }

    /* lead[p] holds diagonal d's cell (p, d - p); from d >= b on, its ends
     * are the edges' cells (d - b, b) and (b, d - b) */
    lead[b] = p_edge[b];
    for (size_t d = 2 * b; d-- > 0;) {
        size_t from = d > b ? d - b : 0, to = d < b ? d + 1 : b + 1;
        if (d >= b) {
            from++;
            to--;
        }
        RED(diagonal)(lead, choice, coins + i, coins + j - d, from, to, negate);
        pack_choices(left + d * choice_row_bytes(w), choice, from, to, 0);
        if (tie)
            pack_choices(tie + d * choice_row_bytes(w), choice, from, to, 1);
        if (d >= b) {
            lead[d - b] = q_edge[d - b];
            lead[b] = p_edge[d - b];
        }
    }
    return b;
}

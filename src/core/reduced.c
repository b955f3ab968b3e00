/* The reduced row and what it gives: every lead along a line of play in
 * O(n log n), and the canonical line in O(n sqrt n) time, O(n) memory.
 * docs/design.md ("Lines of play at contest scale") has the proofs.
 *
 * The reduced row (reduced_impl.h) is an interval with the linear method's
 * peaks merged (x <= y >= z at an end becomes x - y + z, which keeps the
 * lead).  It falls, then rises, so its lead is the alternating sum of its
 * values in decreasing order; a value c joining an end comes after the j
 * values above it, a run at the other end, and the lead becomes
 * 2 * (their alternating sum) + (-1)^j * c minus the lead before (the same
 * formula takes c away): prefix sums and a gallop, O(log n) a change.
 *
 * The verifier walks the line backwards: turn k is optimal exactly when
 * lead(P_k) = taken_k - lead(P_{k+1}), and each P_k is P_{k+1} with a coin
 * back at an end.  The last bad turn met is the first of the line.
 *
 * The canonical line goes by phases: a box of intervals [i + p, j - q],
 * p, q <= b, whose far edges (a fixed left or right end) the reduced row of
 * the middle gives as it grows to either side; the rest of the box by the
 * interval recursion, one anti-diagonal at a time (a vectorized loop, its
 * choices kept as bits); then the walk, b to 2b - 1 turns.
 *
 * Figures stay within four times the sum of |coin| (a merged value is at
 * most the sum of its coins' magnitudes): 64 bits when that fits, else 128. */
#include <stdlib.h>
#include <string.h>

#include "coinrow/contest.h"
#include "coinrow/jury.h"
#include "coinrow/moves.h"
#include "coinrow/rng.h"
#include "internal.h"

__extension__ typedef unsigned __int128 cr_u128;

/* The coins of a block whose reduced row a phase's middle reuses
 * (reduced_impl.h's middle), and the most values such a row may keep (a
 * random block keeps about ten; a falling one all its coins). */
#define CR_REDUCED_BLOCK 1024u
#define CR_REDUCED_KEPT 128u

/* A diagonal's choices, a byte each, rounded up to whole 8-byte groups for
 * pack_choices. */
static size_t choice_bytes(size_t phase) { return (phase + 8) / 8 * 8; }

/* The bytes of a row of w choice bits in a phase's box. */
static size_t choice_row_bytes(size_t w) { return (w + 7) / 8; }

/* Packs bit `bit` of the choices choice[from..to) into the bits of row
 * bits: bit p of the row is that bit of choice[p]; other bits of the bytes
 * touched are whatever choice held there. */
static void pack_choices(uint8_t *bits, const uint8_t *choice, size_t from, size_t to, int bit)
{
    for (size_t k = from / 8; k * 8 < to; k++) {
        uint64_t eight;
        memcpy(&eight, choice + 8 * k, 8);
        /* gathers bit 0 of byte m into bit m of the top byte (little endian) */
        bits[k] = (uint8_t)(((eight >> bit) & 0x0101010101010101u) * 0x0102040810204080u >> 56);
    }
}

/* Bit (p, q) of a box plane of side b + 1: the cell [i + p, j - q]. */
static int box_bit(const uint8_t *plane, size_t b, size_t p, size_t q)
{
    return plane[(p + q) * choice_row_bytes(b + 1) + p / 8] >> (p % 8) & 1;
}

#define T int64_t
#define U uint64_t
#define RED(name) name##_i64
#define DIAGONAL_TARGETS CR_WIDE_TARGETS
#include "reduced_impl.h"
#undef T
#undef U
#undef RED
#undef DIAGONAL_TARGETS

#define T cr_i128
#define U cr_u128
#define RED(name) name##_i128
#define DIAGONAL_TARGETS
#include "reduced_impl.h"
#undef T
#undef U
#undef RED
#undef DIAGONAL_TARGETS

/* 64-bit figures serve when four times the sum of |coin| fits (above). */
static int narrow(const int64_t *coins, size_t n)
{
    cr_i128 sum, abs_sum;
    cr_figures__sums(&sum, &abs_sum, coins, n);
    return abs_sum <= INT64_MAX / 4;
}

/* The verifier's walk (reduced_impl.h's first_bad) in the figures that fit:
 * v holds n of them, sum n + 1. */
static void walk(cr_reduced__bad *out, int wide, void *v, void *sum, const int64_t *coins, size_t n, int negate,
                 const char *line, size_t legal, unsigned players, int by_outcome)
{
    if (wide)
        first_bad_i128(out, coins, n, negate, line, legal, players, by_outcome, (cr_i128 *)v, (cr_u128 *)sum);
    else
        first_bad_i64(out, coins, n, negate, line, legal, players, by_outcome, (int64_t *)v, (uint64_t *)sum);
}

int cr_reduced__first_bad(cr_reduced__bad *out, const int64_t *coins, size_t n, int negate, const char *line,
                          size_t legal, unsigned players, int by_outcome, cr_error *err)
{
    int wide = !narrow(coins, n);
    size_t width = wide ? sizeof(cr_i128) : sizeof(int64_t);
    void *v = malloc(n * width), *sum = malloc((n + 1) * width);
    int rc = 0;
    if (!v || !sum)
        rc = cr_error_set(err, CR_ENOMEM, "verify: no memory for the leads of %zu coins", n);
    else
        walk(out, wide, v, sum, coins, n, negate, line, legal, players, by_outcome);
    free(v);
    free(sum);
    return rc;
}

/* --- phases: what the canonical line and the jury compute their boxes in -- */

/* floor(sqrt(x)), x < 2^32. */
static size_t root_of(size_t x)
{
    size_t root = 0;
    for (size_t bit = (size_t)1 << 15; bit; bit >>= 1)
        if ((root + bit) * (root + bit) <= x)
            root += bit;
    return root;
}

/* A phase's box side, less one: 2 sqrt(m) balances the phase's middle, at
 * most m pushes, against its box (O(phase^2)); the best of 1 to 6 sqrt(m)
 * at n = 10^6 on random rows, a valley and the un-merge killer
 * (docs/performance.md).  The middle reuses the blocks' reduced rows, so m
 * is what they keep plus two blocks for its ends: n where nothing merges,
 * the most the phases allocate for. */
static size_t phase_of(size_t m) { return 2 * root_of(m); }

/* The rows, a box's lines, a diagonal's choices and `planes` bit planes of a
 * box (1: the L choices; 2: and the ties) for the coins of a row, in the
 * figures that fit (narrow), and the reduced rows of its blocks. */
typedef struct phases {
    const int64_t *coins;
    int negate, wide;
    size_t phase;
    void *v[2], *sum[2], *work, *block_v;
    size_t *block_start, block_count;
    uint8_t *choice, *plane[2];
} phases;

/* What phases_new allocates for n coins, in `width`-byte figures. */
static size_t phases_bytes(size_t n, size_t width, int planes)
{
    size_t phase = phase_of(n);
    return (4 * n + 3 + n / CR_REDUCED_BLOCK * CR_REDUCED_KEPT + 3 * (phase + 1) + 1) * width +
           (n / CR_REDUCED_BLOCK + 1) * sizeof(size_t) +
           choice_bytes(phase) + (size_t)planes * (2 * phase + 1) * choice_row_bytes(phase + 1);
}

static void phases_free(phases *ph)
{
    free(ph->work);
    free(ph->choice);
    free(ph->block_v);
    free(ph->block_start);
    for (int k = 0; k < 2; k++) {
        free(ph->v[k]);
        free(ph->sum[k]);
        free(ph->plane[k]);
    }
}

/* The blocks' reduced rows, and the phase the middles they make give. */
static void phases_reduce(phases *ph, size_t n)
{
    size_t pushes;
    if (ph->wide) {
        row_i128 scratch = {(cr_i128 *)ph->v[0], (cr_u128 *)ph->sum[0], 0, 0, 0, 0};
        blocks_i128 b = {(cr_i128 *)ph->block_v, ph->block_start, 0};
        pushes = reduce_blocks_i128(&b, ph->coins, n, ph->negate, &scratch);
    } else {
        row_i64 scratch = {(int64_t *)ph->v[0], (uint64_t *)ph->sum[0], 0, 0, 0, 0};
        blocks_i64 b = {(int64_t *)ph->block_v, ph->block_start, 0};
        pushes = reduce_blocks_i64(&b, ph->coins, n, ph->negate, &scratch);
    }
    ph->block_count = n / CR_REDUCED_BLOCK;
    ph->phase = phase_of(pushes);
}

/* 0, or -1 when the memory cannot be had (nothing is kept then). */
static int phases_new(phases *out, const int64_t *coins, size_t n, int negate, int planes)
{
    size_t phase = phase_of(n), plane_bytes = (2 * phase + 1) * choice_row_bytes(phase + 1);
    int wide = !narrow(coins, n);
    size_t width = wide ? sizeof(cr_i128) : sizeof(int64_t);
    memset(out, 0, sizeof *out);
    out->coins = coins;
    out->negate = negate;
    out->wide = wide;
    out->work = malloc((3 * (phase + 1) + 1) * width);
    out->choice = (uint8_t *)calloc(choice_bytes(phase), 1);
    out->block_v = malloc((n / CR_REDUCED_BLOCK * CR_REDUCED_KEPT + 1) * width);
    out->block_start = (size_t *)malloc((n / CR_REDUCED_BLOCK + 1) * sizeof(size_t));
    int ok = out->work && out->choice && out->block_v && out->block_start;
    for (int k = 0; k < 2; k++) {
        out->v[k] = malloc(n * width);
        out->sum[k] = malloc((n + 1) * width);
        out->plane[k] = k < planes ? (uint8_t *)malloc(plane_bytes) : NULL;
        ok = ok && out->v[k] && out->sum[k] && (k >= planes || out->plane[k]);
    }
    if (!ok) {
        phases_free(out);
        return -1;
    }
    phases_reduce(out, n);
    return 0;
}

/* The box of the phase at the row [i, j], i < j (reduced_impl.h's box);
 * returns its b. */
static size_t phases_box(phases *ph, size_t i, size_t j)
{
    if (ph->wide) {
        row_i128 rows[2] = {{(cr_i128 *)ph->v[0], (cr_u128 *)ph->sum[0], 0, 0, 0, 0},
                            {(cr_i128 *)ph->v[1], (cr_u128 *)ph->sum[1], 0, 0, 0, 0}};
        blocks_i128 b = {(cr_i128 *)ph->block_v, ph->block_start, ph->block_count};
        return box_i128(ph->coins, i, j, ph->negate, &b, ph->phase, rows, (cr_i128 *)ph->work, ph->choice,
                        ph->plane[0], ph->plane[1]);
    }
    row_i64 rows[2] = {{(int64_t *)ph->v[0], (uint64_t *)ph->sum[0], 0, 0, 0, 0},
                       {(int64_t *)ph->v[1], (uint64_t *)ph->sum[1], 0, 0, 0, 0}};
    blocks_i64 b = {(int64_t *)ph->block_v, ph->block_start, ph->block_count};
    return box_i64(ph->coins, i, j, ph->negate, &b, ph->phase, rows, (int64_t *)ph->work, ph->choice, ph->plane[0],
                   ph->plane[1]);
}

/* CR_ENOMEM in err: `what` of n coins needs `need` bytes, in MiB. */
static int no_memory(cr_error *err, const char *what, size_t n, size_t need)
{
    return cr_error_set(err, CR_ENOMEM, "%s of %zu coins needs %zu MiB", what, n,
                        need / (1u << 20) + (need % (1u << 20) != 0));
}

/* --- the canonical line ---------------------------------------------------- */

size_t cr_moves_canonical_bytes(size_t n)
{
    if (n == 0)
        return 0;
    if (n > CR_N_MAX)
        return SIZE_MAX;
    /* 128-bit figures: the most it takes (half as much where 64 bits hold them) */
    return phases_bytes(n, sizeof(cr_i128), 1);
}

int cr_moves__no_memory(cr_error *err, size_t n)
{
    return no_memory(err, "canonical line", n, cr_moves_canonical_bytes(n));
}

int cr_moves_canonical(char *out, const int64_t *coins, size_t n, cr_variant variant, cr_error *err)
{
    if (!out || !coins || n == 0)
        return cr_error_set(err, CR_EINVAL, "canonical line: no coins");
    phases ph;
    if (n > CR_N_MAX || phases_new(&ph, coins, n, variant == CR_REMAINING, 1))
        return cr_moves__no_memory(err, n);
    size_t i = 0, j = n - 1, turn = 0; /* the row is [i, j] */
    while (i < j) {
        size_t b = phases_box(&ph, i, j), p = 0, q = 0;
        while (p < b && q < b) {
            int take_left = box_bit(ph.plane[0], b, p, q);
            out[turn++] = take_left ? 'L' : 'R';
            p += (size_t)take_left;
            q += (size_t)!take_left;
        }
        i += p;
        j -= q;
    }
    out[turn] = 'L'; /* the last coin: L and R are the same */
    out[n] = '\0';
    phases_free(&ph);
    return 0;
}

/* --- the online jury --------------------------------------------------------- */

struct cr_jury {
    phases ph;              /* the box of the phase the game is in */
    size_t n, turn, i, j;   /* the row left is [i, j] while turn < n */
    size_t b, p, q;         /* the box's b (0: none yet), and the moves at either end since it began */
    cr_variant variant;
    size_t first;           /* 1 when the jury is the first player: the contestant's turns are the odd ones */
    int deviating;
    cr_rng rng;
    char *line;             /* the n moves and a NUL */
};

size_t cr_jury_bytes(size_t n)
{
    if (n > CR_N_MAX)
        return SIZE_MAX;
    return sizeof(cr_jury) + phases_bytes(n, sizeof(cr_i128), 2) + n + 1;
}

int cr_jury_new(cr_jury **out, const int64_t *coins, size_t n, cr_variant variant, cr_jury_policy policy,
                cr_error *err)
{
    if (!out || !coins || n == 0 || (unsigned)variant >= CR_VARIANT_COUNT)
        return cr_error_set(err, CR_EINVAL, "jury: no coins or no variant");
    *out = NULL;
    cr_jury *jury = n > CR_N_MAX ? NULL : (cr_jury *)calloc(1, sizeof *jury);
    char *line = jury ? (char *)calloc(n + 1, 1) : NULL;
    if (!line || phases_new(&jury->ph, coins, n, variant == CR_REMAINING, 2)) {
        free(line);
        free(jury);
        return no_memory(err, "the jury", n, cr_jury_bytes(n));
    }
    jury->n = n;
    jury->j = n - 1;
    jury->variant = variant;
    jury->first = policy.jury_first != 0;
    jury->deviating = policy.seed != 0;
    cr_rng_seed(&jury->rng, policy.seed, 0);
    jury->line = line;
    *out = jury;
    return 0;
}

size_t cr_jury_turn(const cr_jury *jury) { return jury->turn; }

const char *cr_jury_line(const cr_jury *jury) { return jury->line; }

/* Plays `move` (L or R) at the turn to come. */
static void advance(cr_jury *jury, char move)
{
    jury->line[jury->turn++] = move;
    if (jury->turn == jury->n)
        return;
    if (move == 'L') {
        jury->i++;
        jury->p++;
    } else {
        jury->j--;
        jury->q++;
    }
}

/* CR_EINVAL unless the row holds a coin and the turn to come is `player`'s
 * (0 the contestant's, 1 the jury's). */
static int check_turn(const cr_jury *jury, size_t player, cr_error *err)
{
    if (jury->turn == jury->n)
        return cr_error_set(err, CR_EINVAL, "the game is over: all %zu coins are taken", jury->n);
    if ((jury->turn + jury->first) % 2 != player)
        return cr_error_set(err, CR_EINVAL, "turn %zu is the %s's, not the %s's", jury->turn + 1,
                            player ? "contestant" : "jury", player ? "jury" : "contestant");
    return 0;
}

int cr_jury_play(cr_jury *jury, char move, cr_error *err)
{
    int rc = check_turn(jury, 0, err);
    if (rc)
        return rc;
    if (move != 'L' && move != 'R') {
        char shown[8];
        cr_contest_escape(shown, sizeof shown, &move, 1, 1);
        return cr_error_set(err, CR_EINVAL, "turn %zu: '%s' is not a move (L or R)", jury->turn + 1, shown);
    }
    advance(jury, move);
    return 0;
}

int cr_jury_move(char *out, cr_jury *jury, cr_error *err)
{
    int rc = check_turn(jury, 1, err);
    if (rc)
        return rc;
    int left = 1, tie = 1; /* the last coin: L and R are the same */
    if (jury->i < jury->j) {
        if (jury->p >= jury->b || jury->q >= jury->b) { /* out of the box, or none yet (b = 0) */
            jury->b = phases_box(&jury->ph, jury->i, jury->j);
            jury->p = jury->q = 0;
        }
        left = box_bit(jury->ph.plane[0], jury->b, jury->p, jury->q);
        tie = box_bit(jury->ph.plane[1], jury->b, jury->p, jury->q);
    }
    if (jury->deviating && cr_rng_next(&jury->rng) >> 63)
        left = tie ? 0 : !left; /* the worse end, or the tie broken the other way */
    *out = left ? 'L' : 'R';
    advance(jury, *out);
    return 0;
}

/* "a win", "a draw" or "a loss" for the mover's lead. */
static const char *outcome(cr_i128 lead) { return lead > 0 ? "a win" : lead < 0 ? "a loss" : "a draw"; }

int cr_jury_judge(cr_verdict *out, cr_jury *jury, cr_error *err)
{
    if (jury->turn != jury->n)
        return cr_error_set(err, CR_EINVAL, "the game is not over: %zu of %zu coins are taken", jury->turn, jury->n);
    cr_reduced__bad bad;
    walk(&bad, jury->ph.wide, jury->ph.v[0], jury->ph.sum[0], jury->ph.coins, jury->n, jury->ph.negate, jury->line,
         jury->n, jury->first ? CR_REDUCED_SECOND : CR_REDUCED_FIRST, jury->variant == CR_WINNER);
    out->why[0] = '\0';
    out->turn = bad.turn == SIZE_MAX ? jury->n : bad.turn;
    out->fault = bad.turn == SIZE_MAX ? CR_LINE_OK : CR_LINE_SUBOPTIMAL;
    if (bad.turn == SIZE_MAX)
        return 0;
    char played = jury->line[bad.turn], other = played == 'L' ? 'R' : 'L';
    if (jury->variant == CR_WINNER) {
        cr_error__format(out->why, sizeof out->why, "turn %zu: %c is not optimal: it turns %s into %s (%c keeps it)",
                         bad.turn + 1, played, outcome(bad.best), outcome(bad.got), other);
        return 0;
    }
    /* the total and the remaining-sum difference are (sum + lead) / 2 (docs/design.md) */
    char lost[48];
    cr_figures__format(lost, sizeof lost, jury->variant == CR_DIFF ? bad.best - bad.got : (bad.best - bad.got) / 2);
    cr_error__format(out->why, sizeof out->why, "turn %zu: %c is not optimal: it gives up %s of the %s (%c keeps it)",
                     bad.turn + 1, played, lost, jury->variant == CR_TOTAL ? "total" : "lead", other);
    return 0;
}

void cr_jury_free(cr_jury *jury)
{
    if (!jury)
        return;
    phases_free(&jury->ph);
    free(jury->line);
    free(jury);
}

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

#include "coinrow/moves.h"
#include "internal.h"

__extension__ typedef unsigned __int128 cr_u128;

/* A diagonal's choices, a byte each, rounded up to whole 8-byte groups for
 * pack_choices. */
static size_t choice_bytes(size_t phase) { return (phase + 8) / 8 * 8; }

/* The bytes of a row of w choice bits in a phase's box. */
static size_t choice_row_bytes(size_t w) { return (w + 7) / 8; }

/* Packs the choices choice[from..to) (bytes 0 or 1) into the bits of row
 * bits: bit p of the row is choice[p]; other bits of the bytes touched are
 * whatever choice held there. */
static void pack_choices(uint8_t *bits, const uint8_t *choice, size_t from, size_t to)
{
    for (size_t k = from / 8; k * 8 < to; k++) {
        uint64_t eight;
        memcpy(&eight, choice + 8 * k, 8);
        /* gathers bit 0 of byte m into bit m of the top byte (little endian) */
        bits[k] = (uint8_t)((eight * 0x0102040810204080u) >> 56);
    }
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

int cr_reduced__first_bad(size_t *out, const int64_t *coins, size_t n, int negate, const char *line, size_t legal,
                          cr_error *err)
{
    int wide = !narrow(coins, n);
    size_t width = wide ? sizeof(cr_i128) : sizeof(int64_t);
    void *v = malloc(n * width), *sum = malloc((n + 1) * width);
    int rc = 0;
    if (!v || !sum)
        rc = cr_error_set(err, CR_ENOMEM, "verify: no memory for the leads of %zu coins", n);
    else if (wide)
        *out = first_bad_i128(coins, n, negate, line, legal, (cr_i128 *)v, (cr_u128 *)sum);
    else
        *out = first_bad_i64(coins, n, negate, line, legal, (int64_t *)v, (uint64_t *)sum);
    free(v);
    free(sum);
    return rc;
}

/* --- the canonical line ---------------------------------------------------- */

/* A phase's box side, less one: about 3 sqrt(n), which balances its passes
 * over the row (O(n)) against its box (O(phase^2)); measured, the best of
 * 1 to 8 sqrt(n) at n = 10^5 to 10^6 (docs/performance.md). */
static size_t phase_of(size_t n)
{
    size_t root = 0; /* floor(sqrt(n)), n < 2^32 */
    for (size_t bit = (size_t)1 << 15; bit; bit >>= 1)
        if ((root + bit) * (root + bit) <= n)
            root += bit;
    return 3 * root;
}

/* What cr_moves_canonical allocates, in `width`-byte figures: two rows of
 * n values and n + 1 sums, three lines of a box, a diagonal's choices and
 * the box's choice bits. */
static size_t canonical_bytes(size_t n, size_t phase, size_t width)
{
    return (2 * (2 * n + 1) + 3 * (phase + 1) + 1) * width + choice_bytes(phase) +
           (2 * phase + 1) * choice_row_bytes(phase + 1);
}

size_t cr_moves_canonical_bytes(size_t n)
{
    if (n == 0)
        return 0;
    if (n > CR_N_MAX)
        return SIZE_MAX;
    /* 128-bit figures: the most it takes (half as much where 64 bits hold them) */
    return canonical_bytes(n, phase_of(n), sizeof(cr_i128));
}

int cr_moves__no_memory(cr_error *err, size_t n)
{
    size_t need = cr_moves_canonical_bytes(n);
    return cr_error_set(err, CR_ENOMEM, "canonical line of %zu coins needs %zu MiB", n,
                        need / (1u << 20) + (need % (1u << 20) != 0));
}

int cr_moves_canonical(char *out, const int64_t *coins, size_t n, cr_variant variant, cr_error *err)
{
    if (!out || !coins || n == 0)
        return cr_error_set(err, CR_EINVAL, "canonical line: no coins");
    if (n > CR_N_MAX)
        return cr_moves__no_memory(err, n);
    int wide = !narrow(coins, n), negate = variant == CR_REMAINING, rc = 0;
    size_t phase = phase_of(n), width = wide ? sizeof(cr_i128) : sizeof(int64_t);
    void *v[2], *sum[2], *work = malloc((3 * (phase + 1) + 1) * width);
    uint8_t *choice = (uint8_t *)calloc(choice_bytes(phase), 1);
    uint8_t *bits = (uint8_t *)malloc((2 * phase + 1) * choice_row_bytes(phase + 1));
    for (int k = 0; k < 2; k++) {
        v[k] = malloc(n * width);
        sum[k] = malloc((n + 1) * width);
    }
    if (!work || !choice || !bits || !v[0] || !sum[0] || !v[1] || !sum[1]) {
        rc = cr_moves__no_memory(err, n);
    } else if (wide) {
        row_i128 rows[2] = {{(cr_i128 *)v[0], (cr_u128 *)sum[0], 0, 0, 0, 0},
                            {(cr_i128 *)v[1], (cr_u128 *)sum[1], 0, 0, 0, 0}};
        canonical_i128(out, coins, n, negate, phase, rows, (cr_i128 *)work, choice, bits);
    } else {
        row_i64 rows[2] = {{(int64_t *)v[0], (uint64_t *)sum[0], 0, 0, 0, 0},
                           {(int64_t *)v[1], (uint64_t *)sum[1], 0, 0, 0, 0}};
        canonical_i64(out, coins, n, negate, phase, rows, (int64_t *)work, choice, bits);
    }
    if (rc == 0)
        out[n] = '\0';
    free(work);
    free(choice);
    free(bits);
    for (int k = 0; k < 2; k++) {
        free(v[k]);
        free(sum[k]);
    }
    return rc;
}

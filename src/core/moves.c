/* Lines of play: the canonical line, the verifier's verdict and the replay
 * (the leads along a line are reduced.c's). */
#include "coinrow/moves.h"

#include <stdlib.h>
#include <string.h>

#include "coinrow/contest.h"
#include "internal.h"

static int is_remaining(cr_variant variant) { return variant == CR_REMAINING; }

/* --- canonical line: one bit per interval, "L is optimal here" ----------- */

typedef struct left_bits {
    uint8_t *bytes;
    size_t *row; /* row[m]: byte offset of the intervals of length m */
} left_bits;

static void record_left_bits(void *ctx, size_t m, const uint8_t *opt, size_t count)
{
    const left_bits *bits = (const left_bits *)ctx;
    uint8_t *out = bits->bytes + bits->row[m];
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        uint64_t eight;
        memcpy(&eight, opt + i, 8);
        eight &= 0x0101010101010101u * CR_OPT_L;
        /* gathers bit 0 of byte k into bit k of the top byte (little endian) */
        *out++ = (uint8_t)((eight * 0x0102040810204080u) >> 56);
    }
    if (i < count) {
        uint8_t last = 0;
        for (size_t k = 0; i + k < count; k++)
            last |= (uint8_t)((opt[i + k] & CR_OPT_L) << k);
        *out = last;
    }
}

/* The bytes of the bits: the intervals of length m = 2..n take
 * ceil((n - m + 1) / 8) bytes each, that is ceil(k / 8) summed over
 * k = 1..n-1, which is (q + 1)(4q + r) for n - 1 = 8q + r. */
static size_t bits_bytes(size_t n)
{
    size_t q = (n - 1) / 8, r = (n - 1) % 8;
    return (q + 1) * (4 * q + r);
}

size_t cr_moves_canonical_bytes(size_t n)
{
    if (n == 0)
        return 0;
    if (n > CR_N_MAX)
        return SIZE_MAX;
    return bits_bytes(n) + (n + 1) * sizeof(size_t);
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
    /* the need is known by arithmetic, so the message says it whichever
     * allocation fails */
    size_t bytes = n <= CR_N_MAX ? bits_bytes(n) : SIZE_MAX;
    left_bits bits = {NULL, NULL};
    if (bytes != SIZE_MAX) {
        bits.bytes = (uint8_t *)malloc(bytes ? bytes : 1);
        bits.row = (size_t *)malloc((n + 1) * sizeof(size_t));
    }
    int rc = 0;
    cr_i128 lead;
    size_t i = 0;
    if (!bits.row || !bits.bytes) {
        rc = cr_moves__no_memory(err, n);
        goto done;
    }
    for (size_t m = 2, total = 0; m <= n; m++) {
        bits.row[m] = total;
        total += (n - m + 1 + 7) / 8;
    }
    rc = cr_sweep__lead(&lead, coins, n, is_remaining(variant), n > 1 ? record_left_bits : NULL, &bits, err);
    if (rc)
        goto done;
    for (size_t m = n; m >= 2; m--) {
        int left = (bits.bytes[bits.row[m] + i / 8] >> (i % 8)) & 1;
        out[n - m] = left ? 'L' : 'R';
        i += (size_t)left;
    }
    out[n - 1] = 'L';
    out[n] = '\0';
done:
    free(bits.bytes);
    free(bits.row);
    return rc;
}

/* --- greedy ------------------------------------------------------------------ */

void cr_moves_greedy(char *out, const int64_t *coins, size_t n, cr_variant variant)
{
    for (size_t k = 0, i = 0, j = n - 1; k < n; k++) {
        int left = is_remaining(variant) ? coins[i] <= coins[j] : coins[i] >= coins[j];
        out[k] = left ? 'L' : 'R';
        if (left)
            i++;
        else
            j--;
    }
    out[n] = '\0';
}

/* --- verifier: every lead along the line, walked backwards (reduced.c) ---- */

static const char *player(size_t turn) { return turn % 2 == 0 ? "first" : "second"; }

int cr_moves_verify(cr_verdict *out, const int64_t *coins, size_t n, cr_variant variant, const char *line,
                    size_t len, cr_error *err)
{
    if (!out || !coins || n == 0 || (!line && len))
        return cr_error_set(err, CR_EINVAL, "verify: no coins or no line");
    size_t legal = 0, limit = len < n ? len : n;
    while (legal < limit && (line[legal] == 'L' || line[legal] == 'R'))
        legal++;

    size_t bad = SIZE_MAX;
    int rc = legal > 0 ? cr_reduced__first_bad(&bad, coins, n, is_remaining(variant), line, legal, err) : 0;
    if (rc)
        return rc;

    out->why[0] = '\0';
    if (bad != SIZE_MAX) {
        out->fault = CR_LINE_SUBOPTIMAL;
        out->turn = bad;
        cr_error__format(out->why, sizeof out->why, "turn %zu (%s player): %c is not optimal, %c is", bad + 1,
                    player(bad), line[bad], line[bad] == 'L' ? 'R' : 'L');
    } else if (legal < limit) {
        out->fault = CR_LINE_BAD_MOVE;
        out->turn = legal;
        char shown[8];
        cr_contest_escape(shown, sizeof shown, line + legal, 1, 1);
        cr_error__format(out->why, sizeof out->why, "turn %zu (%s player): '%s' is not a move (L or R)", legal + 1,
                    player(legal), shown);
    } else if (len < n) {
        out->fault = CR_LINE_SHORT;
        out->turn = len;
        cr_error__format(out->why, sizeof out->why, "the line stops after %zu moves with %zu coins left", len,
                         n - len);
    } else if (len > n) {
        out->fault = CR_LINE_LONG;
        out->turn = n;
        cr_error__format(out->why, sizeof out->why, "the line has %zu moves for %zu coins", len, n);
    } else {
        out->fault = CR_LINE_OK;
        out->turn = n;
    }
    return 0;
}

/* --- replay ---------------------------------------------------------------- */

int cr_moves__scores(cr_i128 out[2], const int64_t *coins, size_t n, cr_variant variant, const char *line,
                     size_t len, cr_error *err)
{
    if (len != n)
        return cr_error_set(err, CR_EINVAL, "the line has %zu moves for %zu coins", len, n);
    cr_i128 left_in_row, ignored;
    cr_figures__sums(&left_in_row, &ignored, coins, n);
    out[0] = out[1] = 0;
    for (size_t k = 0, i = 0, j = n - 1; k < n; k++) {
        int64_t taken;
        if (line[k] == 'L')
            taken = coins[i++];
        else if (line[k] == 'R')
            taken = coins[j--];
        else
        {
            char shown[8];
            cr_contest_escape(shown, sizeof shown, line + k, 1, 1);
            return cr_error_set(err, CR_EINVAL, "turn %zu (%s player): '%s' is not a move (L or R)", k + 1,
                                player(k), shown);
        }
        left_in_row -= taken;
        out[k % 2] += is_remaining(variant) ? left_in_row : taken;
    }
    return 0;
}

cr_i128 cr_moves__value(const cr_i128 scores[2], cr_variant variant)
{
    cr_i128 lead = scores[0] - scores[1];
    return variant == CR_TOTAL ? scores[0] : variant == CR_WINNER ? (lead > 0) - (lead < 0) : lead;
}

int cr_moves_replay(cr_scores *out, const int64_t *coins, size_t n, cr_variant variant, const char *line,
                    size_t len, cr_error *err)
{
    if (!out || !coins || n == 0 || (!line && len))
        return cr_error_set(err, CR_EINVAL, "replay: no coins or no line");
    cr_i128 score[2];
    int rc = cr_moves__scores(score, coins, n, variant, line, len, err);
    if (rc == 0)
        rc = cr_figures__fit_i64(&out->first, score[0], "the first player's score", err);
    return rc ? rc : cr_figures__fit_i64(&out->second, score[1], "the second player's score", err);
}

#include "support/quadratic.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

__extension__ typedef __int128 wide;

enum { OPT_L = 1, OPT_R = 2 };

/* Called once per interval length m = 2..n with opt[i] for the intervals
 * [i, i + m - 1], i < count: OPT_L and/or OPT_R, the optimal moves. */
typedef void (*visit_fn)(void *ctx, size_t m, const uint8_t *opt, size_t count);

/* The interval DP by diagonals, in place: lead[i] holds lead(i, i + m - 1). */
static void sweep(const int64_t *coins, size_t n, cr_variant variant, visit_fn visit, void *ctx)
{
    wide *v = malloc(n * sizeof *v), *lead = malloc(n * sizeof *lead);
    uint8_t *opt = malloc(n);
    assert_true(v && lead && opt);
    for (size_t i = 0; i < n; i++)
        lead[i] = v[i] = variant == CR_REMAINING ? -(wide)coins[i] : coins[i];
    for (size_t m = 2; m <= n; m++) {
        size_t count = n - m + 1;
        for (size_t i = 0; i < count; i++) {
            wide take_left = v[i] - lead[i + 1], take_right = v[i + m - 1] - lead[i];
            lead[i] = take_left >= take_right ? take_left : take_right;
            opt[i] = (uint8_t)((take_left >= take_right) * OPT_L + (take_right >= take_left) * OPT_R);
        }
        visit(ctx, m, opt, count);
    }
    free(v);
    free(lead);
    free(opt);
}

typedef struct line_check {
    const char *line;
    size_t n, legal;
    size_t *left; /* left[k]: the left end at turn k */
    size_t bad;
} line_check;

static void check_turn(void *ctx, size_t m, const uint8_t *opt, size_t count)
{
    line_check *check = ctx;
    size_t turn = check->n - m;
    (void)count;
    if (turn >= check->legal)
        return;
    uint8_t wanted = check->line[turn] == 'L' ? OPT_L : OPT_R;
    if (!(opt[check->left[turn]] & wanted))
        check->bad = turn; /* m grows, so the last one found is the first turn */
}

size_t quadratic_first_bad(const int64_t *coins, size_t n, cr_variant variant, const char *line, size_t legal)
{
    line_check check = {line, n, legal, malloc((legal + 1) * sizeof(size_t)), SIZE_MAX};
    assert_non_null(check.left);
    for (size_t k = 0, left = 0; k < legal; k++) {
        check.left[k] = left;
        left += line[k] == 'L';
    }
    if (n > 1)
        sweep(coins, n, variant, check_turn, &check);
    free(check.left);
    return check.bad;
}

typedef struct left_bits {
    uint8_t *bits;
    size_t *row; /* row[m]: the bit of interval [0, m - 1] */
} left_bits;

static void record_left_bits(void *ctx, size_t m, const uint8_t *opt, size_t count)
{
    left_bits *b = ctx;
    for (size_t i = 0; i < count; i++)
        if (opt[i] & OPT_L)
            b->bits[(b->row[m] + i) / 8] |= (uint8_t)(1u << ((b->row[m] + i) % 8));
}

void quadratic_canonical(char *out, const int64_t *coins, size_t n, cr_variant variant)
{
    left_bits b = {calloc(n * (n + 1) / 16 + 1, 1), malloc((n + 1) * sizeof(size_t))};
    assert_true(b.bits && b.row);
    for (size_t m = 2, total = 0; m <= n; m++) {
        b.row[m] = total;
        total += n - m + 1;
    }
    if (n > 1)
        sweep(coins, n, variant, record_left_bits, &b);
    for (size_t m = n, i = 0; m >= 2; m--) {
        int left = (b.bits[(b.row[m] + i) / 8] >> ((b.row[m] + i) % 8)) & 1;
        out[n - m] = left ? 'L' : 'R';
        i += (size_t)left;
    }
    out[n - 1] = 'L';
    out[n] = '\0';
    free(b.bits);
    free(b.row);
}

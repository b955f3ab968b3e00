/* The reduced row and what it gives: every lead along a line of play in
 * O(n log n) (docs/design.md, "Lines of play at contest scale", has the
 * proofs).
 *
 * The reduced row (reduced_impl.h) holds an interval's coins with the linear
 * method's peaks merged: while the three values at an end, x (the end), y
 * and z, satisfy x <= y >= z, they become the one value x - y + z, which
 * keeps the lead.  What remains has no inner peak: it falls, then rises.  So
 * both players take the larger end, and its lead is the alternating sum of
 * its values in decreasing order.  A value c that joins the row at one end
 * comes, in that order, right after the values greater than it, and those
 * are the last j values at the other end; so the lead becomes
 * 2 * (their alternating sum) + (-1)^j * c minus the lead before, and the
 * same formula takes c away again.  Alternating sums of a run are
 * differences of prefix sums, and j is found by a gallop from that end:
 * O(log n) a change, and the merges are O(n) in all.
 *
 * The verifier walks the line backwards.  P_0 is the row and P_{k+1} is P_k
 * without the coin taken at turn k, so lead(P_k) >= taken_k - lead(P_{k+1}),
 * with equality exactly when turn k is optimal.  Read backwards, each P_k is
 * P_{k+1} with one coin back at the end it was taken from: the reduced row
 * follows the path and gives every lead on it.  The last bad turn met is
 * the first of the line.
 *
 * Figures: a value's magnitude is at most the sum of its coins' magnitudes,
 * so the lead, a difference of prefix sums and each step of the formula
 * stay within four times the sum of |coin|; 64 bits serve when that fits,
 * 128 bits otherwise. */
#include <stdlib.h>

#include "internal.h"

__extension__ typedef unsigned __int128 cr_u128;

#define T int64_t
#define U uint64_t
#define RED(name) name##_i64
#include "reduced_impl.h"
#undef T
#undef U
#undef RED

#define T cr_i128
#define U cr_u128
#define RED(name) name##_i128
#include "reduced_impl.h"
#undef T
#undef U
#undef RED

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

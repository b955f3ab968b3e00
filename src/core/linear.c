/* The O(n) method: 64-bit arithmetic while it fits, 128-bit otherwise. */
#include <string.h>

#include "internal.h"

#define T int64_t
#define LINEAR_NAME linear_i64
#include "linear_impl.h"
#undef T
#undef LINEAR_NAME

#define T cr_i128
#define LINEAR_NAME linear_i128
#include "linear_impl.h"
#undef T
#undef LINEAR_NAME

void cr_linear__lead(cr_i128 *out_lead, cr_i128 *out_sum, const int64_t *coins, size_t n, int negate,
                     void *vals, uint32_t *counts, char *line)
{
    /* Overflow is impossible in 128 bits: every stack value is bounded by the
     * sum of |coin| over the coins it covers. */
    if (linear_i64(out_lead, out_sum, coins, n, negate, (int64_t *)vals, counts, line) != 0)
        (void)linear_i128(out_lead, out_sum, coins, n, negate, (cr_i128 *)vals, counts, line);
}

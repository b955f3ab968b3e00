/* The interval DP over every interval, O(n^2) time and O(n) memory, in 64-bit
 * lanes when the coins allow it and 128-bit scalars otherwise. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define T int64_t
#define STEP_NAME step_i64
#define RUN_NAME run_i64
#define STEP_TARGETS CR_WIDE_TARGETS
#include "sweep_impl.h"
#undef T
#undef STEP_NAME
#undef RUN_NAME
#undef STEP_TARGETS

#define T cr_i128
#define STEP_NAME step_i128
#define RUN_NAME run_i128
#define STEP_TARGETS
#include "sweep_impl.h"
#undef T
#undef STEP_NAME
#undef RUN_NAME
#undef STEP_TARGETS

int cr_sweep__lead(cr_i128 *out_lead, const int64_t *coins, size_t n, int negate, cr_error *err)
{
    cr_i128 sum, abs_sum;
    cr_figures__sums(&sum, &abs_sum, coins, n);
    /* Every lead and every v[i] - lead is bounded by the sum of |coin|. */
    int wide = abs_sum <= INT64_MAX;
    size_t width = wide ? sizeof(int64_t) : sizeof(cr_i128);
    void *v = malloc(n * width), *lead = malloc(n * width);
    int rc = 0;
    if (!v || !lead) {
        rc = cr_error_set(err, CR_ENOMEM, "no memory for the interval DP of %zu coins", n);
        goto done;
    }
    if (wide) {
        int64_t *v64 = (int64_t *)v;
        for (size_t i = 0; i < n; i++)
            v64[i] = negate ? -coins[i] : coins[i];
        *out_lead = run_i64(v64, (int64_t *)lead, n);
    } else {
        cr_i128 *v128 = (cr_i128 *)v;
        for (size_t i = 0; i < n; i++)
            v128[i] = negate ? -(cr_i128)coins[i] : coins[i];
        *out_lead = run_i128(v128, (cr_i128 *)lead, n);
    }
done:
    free(v);
    free(lead);
    return rc;
}

/* Small arithmetic shared by the core: sums in 128 bits, checked narrowing. */
#include "internal.h"

void cr_figures__sums(cr_i128 *out_sum, cr_i128 *out_abs_sum, const int64_t *coins, size_t n)
{
    cr_i128 sum = 0, abs_sum = 0;
    for (size_t i = 0; i < n; i++) {
        sum += coins[i];
        abs_sum += coins[i] < 0 ? -(cr_i128)coins[i] : coins[i];
    }
    *out_sum = sum;
    *out_abs_sum = abs_sum;
}

int cr_figures__fit_i64(int64_t *out, cr_i128 v, const char *what, cr_error *err)
{
    if (v < INT64_MIN || v > INT64_MAX)
        return cr_error_set(err, CR_EOVERFLOW, "%s does not fit in int64 (it is %s%s)", what,
                            v < 0 ? "below " : "above ", v < 0 ? "-9223372036854775808" : "9223372036854775807");
    *out = (int64_t)v;
    return 0;
}

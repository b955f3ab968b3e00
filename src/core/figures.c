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

void cr_figures__format(char *out, size_t cap, cr_i128 v)
{
    char digits[48];
    size_t k = 0;
    /* negative digits, so that the most negative value needs no negation */
    cr_i128 rest = v < 0 ? v : -v;
    do {
        digits[k++] = (char)('0' - (int)(rest % 10));
        rest /= 10;
    } while (rest);
    size_t at = 0;
    if (v < 0 && at + 1 < cap)
        out[at++] = '-';
    while (k && at + 1 < cap)
        out[at++] = digits[--k];
    out[at] = '\0';
}

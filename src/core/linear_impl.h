/* The peak-merging method, written once for the value type T.
 * linear.c includes this file once per type, with T and LINEAR_NAME defined.
 *
 * Scan left to right keeping a stack of (value, coins covered); while the top
 * three x, y, z satisfy x <= y >= z, replace them by x - y + z: whoever takes x
 * lets the other take y and then takes z, so the three act as one coin worth
 * x - y + z covering an odd number of coins.  What remains has no inner peak
 * (it falls, then rises), so both players take the larger end and the lead is
 * the alternating sum in that order.  Each element is expanded into as many
 * moves from the end it was taken from as the coins it covers.
 *
 * Returns 0, or CR_EOVERFLOW when T cannot hold a figure (only for int64_t;
 * the caller then runs the 128-bit instance). */
static int LINEAR_NAME(cr_i128 *out_lead, cr_i128 *out_sum, const int64_t *coins, size_t n, int negate,
                       T *vals, uint32_t *counts, char *line)
{
    cr_i128 sum = 0;
    size_t top = 0;
    for (size_t k = 0; k < n; k++) {
        T z = (T)coins[k];
        uint32_t covered = 1;
        sum += coins[k];
        if (negate && __builtin_sub_overflow((T)0, z, &z))
            return CR_EOVERFLOW;
        while (top >= 2 && vals[top - 1] >= z && vals[top - 2] <= vals[top - 1]) {
            T x_minus_y;
            if (__builtin_sub_overflow(vals[top - 2], vals[top - 1], &x_minus_y) ||
                __builtin_add_overflow(x_minus_y, z, &z))
                return CR_EOVERFLOW;
            covered += counts[top - 2] + counts[top - 1];
            top -= 2;
        }
        vals[top] = z;
        counts[top] = covered;
        top++;
    }

    T lead = 0;
    int mover_is_first = 1;
    for (size_t lo = 0, hi = top; lo < hi; mover_is_first = !mover_is_first) {
        int left = vals[lo] >= vals[hi - 1]; /* ties go left */
        size_t taken = left ? lo : hi - 1;
        int overflow = mover_is_first ? __builtin_add_overflow(lead, vals[taken], &lead)
                                      : __builtin_sub_overflow(lead, vals[taken], &lead);
        if (overflow)
            return CR_EOVERFLOW;
        if (line) {
            memset(line, left ? 'L' : 'R', counts[taken]);
            line += counts[taken];
        }
        lo += (size_t)left;
        hi -= (size_t)!left;
    }
    *out_lead = lead;
    *out_sum = sum;
    return 0;
}

/* The interval DP by diagonals, written once for the value type T.
 * sweep.c includes this file once per type, with T, STEP_NAME, RUN_NAME and
 * STEP_TARGETS (function attributes for the inner loop) defined.
 *
 * Diagonal m holds lead(i, i+m-1) for every i.  It depends only on diagonal
 * m - 1, so each diagonal is one loop without a carried dependency, which the
 * compiler vectorizes:
 *   lead(i, j) = max(v[i] - lead(i+1, j), v[j] - lead(i, j-1)). */

STEP_TARGETS
static void STEP_NAME(T *lead, const T *CR_RESTRICT v, size_t m, size_t count, uint8_t *CR_RESTRICT opt)
{
    /* In place: lead[i] and lead[i + 1] hold diagonal m - 1 when lead[i]
     * becomes diagonal m, so one array serves (a forward dependence, which
     * vectorizes), and with v it stays in the core's own cache longer. */
    const T *CR_RESTRICT right = v + m - 1;
    if (opt) {
        CR_OMP_SIMD
        for (size_t i = 0; i < count; i++) {
            T take_left = v[i] - lead[i + 1], take_right = right[i] - lead[i];
            lead[i] = take_left >= take_right ? take_left : take_right;
            opt[i] = (uint8_t)((take_left >= take_right) * CR_OPT_L + (take_right >= take_left) * CR_OPT_R);
        }
    } else {
        CR_OMP_SIMD
        for (size_t i = 0; i < count; i++) {
            T take_left = v[i] - lead[i + 1], take_right = right[i] - lead[i];
            lead[i] = take_left >= take_right ? take_left : take_right;
        }
    }
}

/* v holds the n (possibly negated) coins, lead n values, opt n bytes when
 * visit is not NULL.  Returns the lead of the whole row. */
static T RUN_NAME(const T *v, T *lead, uint8_t *opt, size_t n, cr_sweep_visit visit, void *ctx)
{
    memcpy(lead, v, n * sizeof *v); /* diagonal 1: one coin, the mover takes it */
    for (size_t m = 2; m <= n; m++) {
        size_t count = n - m + 1;
        STEP_NAME(lead, v, m, count, visit ? opt : NULL);
        if (visit)
            visit(ctx, m, opt, count);
    }
    return lead[0];
}

/* The interval DP by diagonals, written once for the value type T.
 * sweep.c includes this file once per type, with T, STEP_NAME, RUN_NAME and
 * STEP_TARGETS (function attributes for the inner loop) defined.
 *
 * Diagonal m holds lead(i, i+m-1) for every i.  It depends only on diagonal
 * m - 1, so each diagonal is one loop without a carried dependency, which the
 * compiler vectorizes:
 *   lead(i, j) = max(v[i] - lead(i+1, j), v[j] - lead(i, j-1)). */

STEP_TARGETS
static void STEP_NAME(T *lead, const T *CR_RESTRICT v, size_t m, size_t count)
{
    /* In place: lead[i] and lead[i + 1] hold diagonal m - 1 when lead[i]
     * becomes diagonal m, so one array serves (a forward dependence, which
     * vectorizes), and with v it stays in the core's own cache longer. */
    const T *CR_RESTRICT right = v + m - 1;
    CR_OMP_SIMD
    for (size_t i = 0; i < count; i++) {
        T take_left = v[i] - lead[i + 1], take_right = right[i] - lead[i];
        lead[i] = take_left >= take_right ? take_left : take_right;
    }
}

/* v holds the n (possibly negated) coins, lead n values.  Returns the lead
 * of the whole row. */
static T RUN_NAME(const T *v, T *lead, size_t n)
{
    memcpy(lead, v, n * sizeof *v); /* diagonal 1: one coin, the mover takes it */
    for (size_t m = 2; m <= n; m++)
        STEP_NAME(lead, v, m, n - m + 1);
    return lead[0];
}

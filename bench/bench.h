/* What the benchmark programs share: a clock and the median. */
#ifndef CR_BENCH_H
#define CR_BENCH_H

#include <stdlib.h>
#include <time.h>

/* Seconds on the monotonic clock. */
static inline double bench_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static inline int bench_by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of v[0..count) (sorts v). */
static inline double bench_median(double *v, int count)
{
    qsort(v, (size_t)count, sizeof *v, bench_by_value);
    return count % 2 ? v[count / 2] : (v[count / 2 - 1] + v[count / 2]) / 2;
}

#endif

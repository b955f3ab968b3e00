/* Times (util.h): as people read them, for invoke's summary and the
 * report; on the monotonic clock, for durations and timed waits. */
#include <stdio.h>

#include "util/util.h"

const char *cr_seconds_text(char out[32], double t)
{
    if (t >= 1)
        snprintf(out, 32, "%.2f s", t);
    else if (t >= 0.001)
        snprintf(out, 32, "%.1f ms", t * 1e3);
    else
        snprintf(out, 32, "%.0f us", t * 1e6);
    return out;
}

double cr_seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int cr_cond_init_monotonic(pthread_cond_t *cond)
{
    pthread_condattr_t attr;
    int rc = pthread_condattr_init(&attr);
    if (rc == 0)
        rc = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    if (rc == 0)
        rc = pthread_cond_init(cond, &attr);
    pthread_condattr_destroy(&attr);
    return rc;
}

void cr_deadline_in(struct timespec *out, long long ns)
{
    clock_gettime(CLOCK_MONOTONIC, out);
    long long at = (long long)out->tv_nsec + ns;
    out->tv_sec += (time_t)(at / 1000000000LL);
    out->tv_nsec = (long)(at % 1000000000LL);
}

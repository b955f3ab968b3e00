/* What util asks of the machine (util/memory.c, util/seconds.c): arrays
 * that grow by doubling, checked for overflow; the file descriptors a
 * command may still open; the monotonic clock that durations and timed
 * waits count on. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "util/util.h"

/* From `first`, doubled until the need fits, the contents kept; no change
 * when it fits already. */
static void test_machine__grow_doubles_from_first_and_keeps_the_contents(void **state)
{
    (void)state;
    int64_t *v = NULL;
    size_t cap = 0;
    assert_int_equal(cr_grow((void **)&v, &cap, 1, sizeof *v, 4), 0);
    assert_int_equal(cap, 4);
    for (int i = 0; i < 4; i++)
        v[i] = i;
    assert_int_equal(cr_grow((void **)&v, &cap, 4, sizeof *v, 4), 0);
    assert_int_equal(cap, 4);
    assert_int_equal(cr_grow((void **)&v, &cap, 9, sizeof *v, 4), 0);
    assert_int_equal(cap, 16);
    for (int i = 0; i < 4; i++)
        assert_int_equal(v[i], i);
    free(v);
    char *bytes = NULL;
    size_t bytes_cap = 0;
    assert_int_equal(cr_grow((void **)&bytes, &bytes_cap, 5, 1, 0), 0); /* no first: from 1 */
    assert_int_equal(bytes_cap, 8);
    free(bytes);
}

/* A size in bytes that would wrap around size_t is refused as no memory,
 * the array left as it was: unchecked, cap * size wrapped to a small
 * allocation that the caller then wrote past. */
static void test_machine__grow_refuses_a_size_that_would_overflow(void **state)
{
    (void)state;
    int64_t *v = NULL;
    size_t cap = 0;
    assert_int_equal(cr_grow((void **)&v, &cap, 8, sizeof *v, 8), 0);
    int64_t *was = v;
    assert_int_equal(cr_grow((void **)&v, &cap, SIZE_MAX / sizeof *v + 1, sizeof *v, 8), CR_ENOMEM);
    assert_int_equal(cr_grow((void **)&v, &cap, SIZE_MAX, sizeof *v, 8), CR_ENOMEM);
    assert_ptr_equal(v, was);
    assert_int_equal(cap, 8);
    free(v);
}

/* As many descriptors as are free under the limit, and not one more; none
 * is left open. */
static void test_machine__files_spare_counts_what_may_still_be_opened(void **state)
{
    (void)state;
    struct rlimit saved, low;
    assert_int_equal(getrlimit(RLIMIT_NOFILE, &saved), 0);
    low = saved;
    low.rlim_cur = 32;
    assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
    int free_now = 0;
    for (int fd = 0; fd < 32; fd++)
        free_now += fcntl(fd, F_GETFD) == -1;
    int spare[] = {cr_files_spare(free_now - 1), cr_files_spare(free_now), cr_files_spare(free_now + 1),
                   cr_files_spare(1)};
    int left = 0;
    for (int fd = 0; fd < 32; fd++)
        left += fcntl(fd, F_GETFD) == -1;
    assert_int_equal(setrlimit(RLIMIT_NOFILE, &saved), 0);
    assert_true(free_now > 3);
    assert_true(spare[0]);
    assert_true(spare[1]);
    assert_false(spare[2]);
    assert_true(spare[3]);
    assert_int_equal(left, free_now);
}

/* A condition variable of cr_cond_init_monotonic waits on the monotonic
 * clock: a deadline of cr_deadline_in ends its wait when that clock says,
 * whatever the wall clock does meanwhile. */
static void test_machine__timed_waits_count_on_the_monotonic_clock(void **state)
{
    (void)state;
    pthread_cond_t cond;
    pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
    assert_int_equal(cr_cond_init_monotonic(&cond), 0);
    struct timespec until, now;
    double start = cr_seconds_now();
    cr_deadline_in(&until, 20 * 1000 * 1000LL); /* 20 ms */
    assert_true(until.tv_nsec >= 0 && until.tv_nsec < 1000000000L);
    pthread_mutex_lock(&mu);
    int rc;
    while ((rc = pthread_cond_timedwait(&cond, &mu, &until)) == 0)
        ; /* a spurious wake-up waits again */
    pthread_mutex_unlock(&mu);
    assert_int_equal(rc, ETIMEDOUT);
    clock_gettime(CLOCK_MONOTONIC, &now);
    /* it returned at the deadline on the monotonic clock, not before */
    assert_true(now.tv_sec > until.tv_sec || (now.tv_sec == until.tv_sec && now.tv_nsec >= until.tv_nsec));
    assert_true(cr_seconds_now() - start >= 0.02);
    pthread_cond_destroy(&cond);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_machine__grow_doubles_from_first_and_keeps_the_contents),
        cmocka_unit_test(test_machine__grow_refuses_a_size_that_would_overflow),
        cmocka_unit_test(test_machine__files_spare_counts_what_may_still_be_opened),
        cmocka_unit_test(test_machine__timed_waits_count_on_the_monotonic_clock),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

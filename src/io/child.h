/* Running a program once, the way a judge runs a contestant's program: an
 * input on its standard input, its standard output read back, under
 * limits, in its own process group that is killed whole at the end.
 *
 * This is not a sandbox: the program runs as the user who runs coinrow,
 * with the same files and network (docs/invoke.md says what to use for
 * untrusted code).  Linux only (the child's exit is watched through a
 * pidfd, Linux 5.3 or later). */
#ifndef CR_IO_CHILD_H
#define CR_IO_CHILD_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "coinrow/error.h"

/* The first bytes of standard error kept; the rest is read and dropped. */
#define CR_CHILD_STDERR_KEEP 512

/* How often, at most, the CPU time and the stop flag are looked at. */
#define CR_CHILD_CHECK_MS 20

typedef struct cr_child_limits {
    /* CPU seconds (> 0): the program is killed once its CPU time, looked at
     * every CR_CHILD_CHECK_MS, passes this, with RLIMIT_CPU (rounded up to whole
     * seconds) behind; and at twice this on the wall clock, for a program
     * that waits.  The verdict compares the CPU time used with the limit. */
    double cpu_seconds;
    uint64_t memory_bytes; /* RLIMIT_AS; 0: no limit */
    uint64_t output_bytes; /* standard output is read up to this; one byte more kills the program */
} cr_child_limits;

/* How the program ended. */
typedef enum cr_child_end {
    CR_CHILD_EXITED,        /* by itself: exit_code */
    CR_CHILD_SIGNALED,      /* by a signal (RLIMIT_CPU's SIGXCPU, SIGSEGV, ...): signal */
    CR_CHILD_CPU_KILLED,    /* killed when its CPU time passed the limit */
    CR_CHILD_WALL_KILLED,   /* killed at the wall clock limit */
    CR_CHILD_OUTPUT_KILLED  /* killed for writing more than the output limit */
} cr_child_end;

typedef struct cr_child_report {
    cr_child_end end;
    int exit_code;          /* CR_CHILD_EXITED */
    int signal;             /* CR_CHILD_SIGNALED, and the SIGKILL of the kills */
    double cpu_seconds;     /* user + system time, from wait4's rusage */
    double wall_seconds;    /* from the start to the end of the program */
    /* The largest resident set, from wait4's rusage.  Linux counts in it
     * the process as it was before exec: coinrow itself, whose high-water
     * mark is reset to its current size before each start (so the figure
     * is at least floor_kib, and a program smaller than that reads as it). */
    int64_t peak_rss_kib;
    int64_t floor_kib;      /* coinrow's resident size when it started the program */
    const char *out;        /* standard output (out_len bytes, then a NUL), valid until the next run */
    size_t out_len;
    char err[CR_CHILD_STDERR_KEEP + 1]; /* the first bytes of standard error, then a NUL */
    size_t err_len;
    int stdin_closed;       /* the program closed its standard input before reading it all (not an error) */
} cr_child_report;

/* What runs keep between them: the output buffer.  One per thread. */
typedef struct cr_child cr_child;

int cr_child_new(cr_child **out, cr_error *err);

/* Accepts NULL. */
void cr_child_free(cr_child *child);

/* Finds the program `name` as a shell would, for running in folder dir: a
 * name with a slash is taken as it is (relative to dir), any other is
 * looked up in PATH.  The path goes to *out (the caller frees it).
 * CR_EINVAL naming the program when there is none that can be run. */
int cr_child_resolve(char **out, const char *name, const char *dir, cr_error *err);

/* Runs the program at path (cr_child_resolve's) with arguments argv
 * (argv[0] first, NULL-terminated) in folder dir, input[0..input_len) on
 * its standard input, under the limits; SIGPIPE must be ignored by the
 * caller's process (a program that closes its standard input early is
 * not an error).  It runs in a new process group, which is killed when
 * the program ends, so that nothing it started is left.  Returns 0 with
 * the report in *out; CR_EINTERRUPTED, the program killed, once *stop
 * (may be NULL) is set; CR_EIO when it cannot be started, saying why. */
int cr_child_run(cr_child_report *out, cr_child *child, const char *path, char *const argv[], const char *dir,
                 const char *input, size_t input_len, const cr_child_limits *limits, const atomic_int *stop,
                 cr_error *err);

#endif

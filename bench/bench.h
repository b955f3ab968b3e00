/* What the benchmark programs share: a clock, the median, and a scratch
 * folder with the paths of its files. */
#ifndef CR_BENCH_H
#define CR_BENCH_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Seconds on the monotonic clock. */
static inline double bench_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* splitmix64's output for state x (the state after adding its step). */
static inline uint64_t bench_mix(uint64_t x)
{
    uint64_t z = x + 0x9e3779b97f4a7c15u;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* A random coin in 1..10^9: splitmix64 of *state, which it advances. */
static inline int64_t bench_random_coin(uint64_t *state)
{
    uint64_t z = bench_mix(*state);
    *state += 0x9e3779b97f4a7c15u;
    return (int64_t)(z % 1000000000u) + 1;
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

/* The benchmark's scratch folder, once bench_folder_make has made it. */
static inline char *bench_folder(void)
{
    static char folder[4096];
    return folder;
}

/* Makes a fresh folder NAME-XXXXXX under $TMPDIR (or /tmp); exits with a
 * message when it cannot. */
static inline void bench_folder_make(const char *name)
{
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp)
        tmp = "/tmp";
    snprintf(bench_folder(), 4096, "%s/%s-XXXXXX", tmp, name);
    if (!mkdtemp(bench_folder())) {
        fprintf(stderr, "%s: cannot make a folder in %s: %s\n", name, tmp, strerror(errno));
        exit(1);
    }
}

typedef struct bench_path {
    char text[4200];
} bench_path;

/* The path of `name` in the scratch folder. */
static inline bench_path bench_in_folder(const char *name)
{
    bench_path p;
    snprintf(p.text, sizeof p.text, "%s/%s", bench_folder(), name);
    return p;
}

/* Removes a database and whatever SQLite keeps beside it. */
static inline void bench_remove_db(const char *db)
{
    static const char *const suffixes[] = {"", "-wal", "-shm", "-journal"};
    for (int i = 0; i < 4; i++) {
        char path[4300];
        snprintf(path, sizeof path, "%s%s", db, suffixes[i]);
        remove(path);
    }
}

/* The CPU seconds (user + system) of a getrusage figure. */
static inline double bench_cpu_of(const struct rusage *ru)
{
    return (double)ru->ru_utime.tv_sec + (double)ru->ru_utime.tv_usec / 1e6 + (double)ru->ru_stime.tv_sec +
           (double)ru->ru_stime.tv_usec / 1e6;
}

/* Runs argv in the benchmark's folder, its output discarded: its wall
 * seconds, or a negative number (said on standard error) when it did not
 * exit with one of the statuses in ok (a mask of exit statuses 0..7).  Its
 * CPU seconds go to *cpu when cpu is not NULL. */
static inline double bench_timed(char *const argv[], unsigned ok, double *cpu)
{
    struct rusage before, after;
    getrusage(RUSAGE_CHILDREN, &before);
    fflush(NULL); /* or the child writes what is buffered here */
    double t0 = bench_now();
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr) || chdir(bench_folder()) != 0)
            _exit(127);
        execvp(argv[0], argv);
        _exit(127);
    }
    int status;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) > 7 ||
        !(ok >> WEXITSTATUS(status) & 1)) {
        fprintf(stderr, "bench: %s %s failed\n", argv[0], argv[1] ? argv[1] : "");
        return -1;
    }
    double wall = bench_now() - t0;
    getrusage(RUSAGE_CHILDREN, &after);
    if (cpu)
        *cpu = bench_cpu_of(&after) - bench_cpu_of(&before);
    return wall;
}

#endif

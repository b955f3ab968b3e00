/* The batch pipeline's benchmark (make bench-pipeline): the figures of docs/performance.md.
 *
 *   bench_pipeline COINROW [--rows N] [--big-rows N] [--reps R] [--against OLD]
 *
 * In a fresh folder under $TMPDIR (or /tmp), removed at the end:
 *  1. a CSV of N instances of n = 32 (values 1..10^9, ids i0000001, ... in
 *     file order) is loaded by `coinrow run FILE --variant total --moves fast`
 *     and by `sqlite3 NEW.db ".import --csv FILE t"`, alternately, R times;
 *     the same with ids out of order (i1, i2, ... i10 sorts before i2);
 *     with --against, another coinrow (an older build, say) is timed in
 *     the same alternation, so that the two are compared side by side;
 *  2. peak memory of coinrow run for N and for --big-rows instances;
 *  3. --jobs 2 against --jobs 1 on large n: 2000 instances of n = 2000 with
 *     --algo dp.
 * Medians of the repetitions are printed as a Markdown table. */
#define _DEFAULT_SOURCE /* sync, wait4 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

typedef struct measure {
    double seconds, cpu_seconds; /* wall; user + system */
    long max_rss_kb;
    int status;
} measure;

static char folder[4096];

typedef struct folder_path {
    char text[4200];
} folder_path;

/* name in the benchmark's folder. */
static folder_path in_folder(const char *name)
{
    folder_path p;
    snprintf(p.text, sizeof p.text, "%s/%s", folder, name);
    return p;
}

static void remove_db(const char *db)
{
    const char *suffixes[] = {"", "-wal", "-shm", "-journal"};
    for (int i = 0; i < 4; i++) {
        char path[4300];
        snprintf(path, sizeof path, "%s%s", db, suffixes[i]);
        remove(path);
    }
}

/* Runs argv (output discarded) after a sync, so that one run's writeback
 * does not land in the next one's time. */
static measure timed(char *const argv[])
{
    measure m = {0, 0, 0, -1};
    sync();
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    if (pid == 0) {
        freopen("/dev/null", "w", stdout);
        freopen("/dev/null", "w", stderr);
        execvp(argv[0], argv);
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (pid > 0 && wait4(pid, &status, 0, &ru) == pid) {
        clock_gettime(CLOCK_MONOTONIC, &t1);
        m.seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
        m.max_rss_kb = ru.ru_maxrss;
        m.cpu_seconds = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                        (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
        m.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    if (m.status != 0) {
        fprintf(stderr, "bench_pipeline: '%s %s' failed (status %d)\n", argv[0], argv[1], m.status);
        exit(1);
    }
    return m;
}

static uint64_t rng = 88172645463325252u;
static uint64_t next_random(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}

/* rows instances of n coins in 1..max; ids zero-padded (sorted) or not. */
static void generate(const char *path, long rows, int n, uint64_t max, int sorted_ids)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "bench_pipeline: cannot write %s: %s\n", path, strerror(errno));
        exit(1);
    }
    static char buf[1 << 20];
    setvbuf(f, buf, _IOFBF, sizeof buf);
    rng = 88172645463325252u;
    fputs("id,values\n", f);
    for (long i = 1; i <= rows; i++) {
        fprintf(f, sorted_ids ? "i%07ld," : "i%ld,", i);
        for (int k = 0; k < n; k++)
            fprintf(f, k ? " %llu" : "%llu", (unsigned long long)(1 + next_random() % max));
        fputc('\n', f);
    }
    if (fclose(f) != 0) {
        fprintf(stderr, "bench_pipeline: cannot write %s: %s\n", path, strerror(errno));
        exit(1);
    }
}

/* Medians of wall and CPU time. */
typedef struct timing {
    double seconds, cpu_seconds;
} timing;

typedef struct pair {
    timing coinrow, import, against;
} pair;

/* coinrow run FILE into a fresh database: its wall and CPU time. */
static measure run_once(const char *coinrow, const char *csv)
{
    folder_path db = in_folder("run.db");
    remove_db(db.text);
    char *argv[] = {(char *)coinrow, "run", (char *)csv, "--db", db.text, "--variant", "total", "--moves", "fast",
                    "--quiet", NULL};
    measure m = timed(argv);
    remove_db(db.text);
    return m;
}

/* coinrow run and sqlite3 .import on the same file, alternately (and the
 * other coinrow, when there is one). */
static pair compare(const char *coinrow, const char *against, const char *csv, int reps)
{
    double c[16], s[16], c_cpu[16], s_cpu[16], a[16] = {0}, a_cpu[16] = {0};
    folder_path import_db = in_folder("import.db");
    for (int r = 0; r < reps; r++) {
        remove_db(import_db.text);
        char *import_argv[] = {"sqlite3", import_db.text, NULL, NULL};
        char command[4300];
        snprintf(command, sizeof command, ".import --csv %s t", csv);
        import_argv[2] = command;
        measure im = timed(import_argv);
        s[r] = im.seconds;
        s_cpu[r] = im.cpu_seconds;
        remove_db(import_db.text);

        measure m = run_once(coinrow, csv);
        c[r] = m.seconds;
        c_cpu[r] = m.cpu_seconds;
        fprintf(stderr, "  %s: coinrow %.2f s (CPU %.2f s), .import %.2f s (CPU %.2f s)", csv, c[r], c_cpu[r], s[r],
                s_cpu[r]);
        if (against) {
            m = run_once(against, csv);
            a[r] = m.seconds;
            a_cpu[r] = m.cpu_seconds;
            fprintf(stderr, ", against %.2f s (CPU %.2f s)", a[r], a_cpu[r]);
        }
        fputc('\n', stderr);
    }
    return (pair){{bench_median(c, reps), bench_median(c_cpu, reps)},
                  {bench_median(s, reps), bench_median(s_cpu, reps)},
                  {bench_median(a, reps), bench_median(a_cpu, reps)}};
}

/* A row of a table: coinrow's timing against another's, and their ratio. */
static void print_row(long rows, const char *ids, timing t, timing other)
{
    printf("| %ld x n=32, ids %s | %.2f s (CPU %.2f s) | %.2f s (CPU %.2f s) | %.2f |\n", rows, ids, t.seconds,
           t.cpu_seconds, other.seconds, other.cpu_seconds, t.seconds / other.seconds);
}

static long peak_memory(const char *coinrow, const char *csv)
{
    measure m = run_once(coinrow, csv);
    fprintf(stderr, "  %s: %.2f s, %ld MiB\n", csv, m.seconds, m.max_rss_kb / 1024);
    return m.max_rss_kb;
}

static double jobs_time(const char *coinrow, const char *csv, const char *jobs, int reps)
{
    double t[16];
    folder_path db = in_folder("jobs.db");
    for (int r = 0; r < reps; r++) {
        remove_db(db.text);
        char *argv[] = {(char *)coinrow, "run",    (char *)csv, "--db",   db.text,    "--variant", "diff", "--algo",
                        "dp",            "--moves", "none",     "--jobs", (char *)jobs, "--quiet",   NULL};
        t[r] = timed(argv).seconds;
        fprintf(stderr, "  --jobs %s: %.2f s\n", jobs, t[r]);
    }
    remove_db(db.text);
    return bench_median(t, reps);
}

int main(int argc, char **argv)
{
    long rows = 1000000, big_rows = 5000000;
    int reps = 3;
    if (argc < 2) {
        fprintf(stderr, "usage: bench_pipeline COINROW [--rows N] [--big-rows N] [--reps R] [--against OLD]\n");
        return 2;
    }
    const char *coinrow = argv[1], *against = NULL;
    int bad = (argc - 2) % 2;
    for (int i = 2; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--against") == 0) {
            against = argv[i + 1];
            continue;
        }
        char *end;
        errno = 0;
        long v = strtol(argv[i + 1], &end, 10);
        bad |= errno || *end || end == argv[i + 1];
        if (strcmp(argv[i], "--rows") == 0)
            rows = v;
        else if (strcmp(argv[i], "--big-rows") == 0)
            big_rows = v;
        else if (strcmp(argv[i], "--reps") == 0)
            reps = (int)v;
        else
            bad = 1;
    }
    if (bad || rows < 1 || big_rows < 1 || reps < 1 || reps > 16) {
        fprintf(stderr, "bench_pipeline: --rows and --big-rows take N >= 1, --reps 1 to 16, --against a program\n");
        return 2;
    }
    const char *base = getenv("TMPDIR");
    snprintf(folder, sizeof folder, "%s/coinrow-bench-XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(folder)) {
        fprintf(stderr, "bench_pipeline: cannot make a folder in %s: %s\n", base ? base : "/tmp", strerror(errno));
        return 1;
    }
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);

    fprintf(stderr, "generating %ld instances of n = 32 ...\n", rows);
    folder_path sorted_path = in_folder("sorted.csv"), unsorted_path = in_folder("unsorted.csv");
    const char *sorted = sorted_path.text, *unsorted = unsorted_path.text;
    generate(sorted, rows, 32, 1000000000u, 1);
    generate(unsorted, rows, 32, 1000000000u, 0);
    fprintf(stderr, "coinrow run against sqlite3 .import ...\n");
    pair in_order = compare(coinrow, against, sorted, reps), out_of_order = compare(coinrow, against, unsorted, reps);
    remove(unsorted);

    fprintf(stderr, "peak memory ...\n");
    long rss_small = peak_memory(coinrow, sorted);
    remove(sorted);
    folder_path big_path = in_folder("big.csv");
    const char *big = big_path.text;
    generate(big, big_rows, 32, 1000000000u, 1);
    long rss_big = peak_memory(coinrow, big);
    remove(big);

    fprintf(stderr, "--jobs 1 against --jobs 2 ...\n");
    folder_path wide_path = in_folder("n2000.csv");
    const char *wide = wide_path.text;
    generate(wide, 2000, 2000, 1000000000u, 1);
    double one = jobs_time(coinrow, wide, "1", reps), two = jobs_time(coinrow, wide, "2", reps);
    remove(wide);
    rmdir(folder);

    printf("| measure (%ld CPUs, median of %d) | coinrow | sqlite3 .import | ratio |\n", cpus, reps);
    printf("|---|---|---|---|\n");
    print_row(rows, "in file order", in_order.coinrow, in_order.import);
    print_row(rows, "out of order", out_of_order.coinrow, out_of_order.import);
    printf("| peak memory, %ld instances | %ld MiB | | |\n", rows, rss_small / 1024);
    printf("| peak memory, %ld instances | %ld MiB | | |\n", big_rows, rss_big / 1024);
    printf("| 2000 x n=2000, --algo dp: --jobs 1 / --jobs 2 | %.2f s / %.2f s | | speedup %.2f |\n", one, two,
           one / two);
    if (against) {
        printf("\n| measure (median of %d, same runs) | coinrow | %s | ratio |\n", reps, against);
        printf("|---|---|---|---|\n");
        print_row(rows, "in file order", in_order.coinrow, in_order.against);
        print_row(rows, "out of order", out_of_order.coinrow, out_of_order.against);
    }
    return 0;
}

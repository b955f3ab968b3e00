/* The batch pipeline's benchmark (make bench-pipeline): the figures of
 * docs/performance.md.
 *
 *   bench_pipeline COINROW [--rows N] [--big-rows N] [--reps R] [--against OLD] [--read-back]
 *
 * In a fresh folder under $TMPDIR (or /tmp), removed at the end:
 *  1. a CSV of N instances of n = 32 (values 1..10^9, ids i0000001, ... in
 *     file order) is loaded, in turn, R times, by `sqlite3 NEW.db ".import
 *     --csv FILE t"`, by `coinrow run FILE --variant all --moves fast` and by
 *     the same with `--variant total`; the same with ids out of order (i1,
 *     i2, ... i10 sorts before i2), and with ids at random (16 hex digits,
 *     as hashed ids are); with --against, another coinrow (an
 *     older build, say) is timed in the same alternation, so that the two
 *     are compared side by side;
 *  2. the databases of the first turn: their bytes, with the WAL copied
 *     in, whole and per instance by table (dbstat);
 *  3. peak memory of coinrow run for N and for --big-rows instances;
 *  4. --jobs 2 against --jobs 1 on large n: 2000 instances of n = 2000 with
 *     --algo dp;
 *  5. reading back the database of the first turn with every variant, with
 *     a second run of its set: queries through the views against the same
 *     rows in plain tables, alternately, R times (read_back.h).
 * --read-back does 1, 2 (coinrow with every variant against .import) and
 * 5, what issue 34 measures.  Medians of the repetitions are printed as
 * Markdown tables. */
#define _DEFAULT_SOURCE /* sync, wait4 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "bench.h"
#include "read_back.h"

typedef struct measure {
    double seconds, cpu_seconds; /* wall; user + system */
    long max_rss_kb;
    int status;
} measure;

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

/* The ids of a generated file: i0000001 ... (sorted), i1 ... (i10 sorts
 * before i2), or 16 hex digits at random. */
enum { IDS_SORTED, IDS_UNSORTED, IDS_RANDOM, ID_ORDERS };
static const char *const id_orders[ID_ORDERS] = {"ids in file order", "ids out of order", "ids at random"};

/* rows instances of n coins in 1..max, the same coins whatever the ids. */
static void generate(const char *path, long rows, int n, uint64_t max, int ids)
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
        if (ids == IDS_RANDOM) /* a splitmix64 step of i: distinct, in no order */
            fprintf(f, "%016llx,", (unsigned long long)bench_mix((uint64_t)i));
        else
            fprintf(f, ids == IDS_SORTED ? "i%07ld," : "i%ld,", i);
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

/* What is timed in turn on a file: .import, coinrow with every variant and
 * with one, and the other coinrow likewise when there is one. */
enum { IMPORT, ALL, ONE, AGAINST_ALL, AGAINST_ONE, CONTENDERS };
static const char *const contender_names[CONTENDERS] = {".import", "coinrow, --variant all", "coinrow, --variant total",
                                                        "other, --variant all", "other, --variant total"};

/* A database's bytes, whole and by table or index (dbstat). */
#define MAX_TABLES 32
typedef struct db_size {
    long long file;
    int count;
    struct {
        char name[64];
        long long bytes;
    } tables[MAX_TABLES];
} db_size;

/* Loads csv into the database db with contender c: `sqlite3 DB ".import
 * --csv FILE t"` or `COINROW run FILE --db DB --variant V --moves fast`. */
static measure load(int c, const char *coinrow, const char *against, const char *csv, const char *db)
{
    bench_remove_db(db);
    if (c == IMPORT) {
        char command[4300];
        snprintf(command, sizeof command, ".import --csv %s t", csv);
        char *argv[] = {"sqlite3", (char *)db, command, NULL};
        return timed(argv);
    }
    const char *program = c == ALL || c == ONE ? coinrow : against;
    const char *variant = c == ALL || c == AGAINST_ALL ? "all" : "total";
    char *argv[] = {(char *)program, "run",  (char *)csv, "--db",    (char *)db, "--variant", (char *)variant,
                    "--moves",       "fast", "--quiet",   NULL};
    return timed(argv);
}

/* The size of the database at path once its WAL is copied in. */
static db_size size_of(const char *path)
{
    db_size out = {0};
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    if (sqlite3_open(path, &db) != SQLITE_OK ||
        sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC", -1, &st,
                           NULL) != SQLITE_OK) {
        fprintf(stderr, "bench_pipeline: %s: %s\n", path, sqlite3_errmsg(db));
        exit(1);
    }
    while (sqlite3_step(st) == SQLITE_ROW && out.count < MAX_TABLES) {
        snprintf(out.tables[out.count].name, sizeof out.tables[0].name, "%s", (const char *)sqlite3_column_text(st, 0));
        out.tables[out.count++].bytes = sqlite3_column_int64(st, 1);
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    struct stat file;
    out.file = stat(path, &file) == 0 ? (long long)file.st_size : 0;
    return out;
}

/* The contenders on the same file, alternately, reps times: their median
 * timings into t, and, when sizes is not NULL, the databases' sizes, and
 * coinrow's with every variant kept as `kept`. */
static void compare(timing t[CONTENDERS], db_size *sizes, const char *kept, const char *coinrow, const char *against,
                    const char *csv, int reps)
{
    double wall[CONTENDERS][16], cpu[CONTENDERS][16];
    bench_path db = bench_in_folder("bench.db");
    int last = against ? CONTENDERS : AGAINST_ALL;
    for (int r = 0; r < reps; r++) {
        fprintf(stderr, "  %s:", csv);
        for (int c = 0; c < last; c++) {
            measure m = load(c, coinrow, against, csv, db.text);
            wall[c][r] = m.seconds;
            cpu[c][r] = m.cpu_seconds;
            fprintf(stderr, "%s %s %.2f s (CPU %.2f s)", c ? "," : "", contender_names[c], m.seconds, m.cpu_seconds);
            if (sizes && r == 0) {
                sizes[c] = size_of(db.text);
                if (c == ALL && rename(db.text, kept) != 0) {
                    fprintf(stderr, "bench_pipeline: cannot keep %s: %s\n", db.text, strerror(errno));
                    exit(1);
                }
            }
            bench_remove_db(db.text);
        }
        fputc('\n', stderr);
    }
    for (int c = 0; c < last; c++)
        t[c] = (timing){bench_median(wall[c], reps), bench_median(cpu[c], reps)};
}

/* A row of a table: a timing against another's, and their ratio. */
static void print_row(const char *what, timing t, timing other)
{
    printf("| %s | %.2f s (CPU %.2f s) | %.2f s (CPU %.2f s) | %.2f |\n", what, t.seconds, t.cpu_seconds,
           other.seconds, other.cpu_seconds, t.seconds / other.seconds);
}

static long long table_bytes(const db_size *size, const char *name)
{
    for (int i = 0; i < size->count; i++)
        if (strcmp(size->tables[i].name, name) == 0)
            return size->tables[i].bytes;
    return 0;
}

/* Bytes per instance by table in the databases of contenders cols[0..count):
 * every table or index that takes a tenth of a byte per instance or more in
 * one of them, then the rest together. */
static void print_sizes(const db_size sizes[CONTENDERS], const int *cols, int count, long rows)
{
    printf("\n| bytes per instance (dbstat, WAL checkpointed) |");
    for (int e = 0; e < count; e++)
        printf(" %s |", contender_names[cols[e]]);
    printf("\n|---|");
    for (int e = 0; e < count; e++)
        printf("---|");
    printf("\n");
    long long rest[CONTENDERS] = {0};
    int small = 0;
    for (int d = 0; d < count; d++) {
        for (int i = 0; i < sizes[cols[d]].count; i++) {
            const char *name = sizes[cols[d]].tables[i].name;
            int seen = 0, big = 0;
            for (int e = 0; e < d; e++)
                seen |= table_bytes(&sizes[cols[e]], name) != 0;
            for (int e = 0; e < count; e++)
                big |= table_bytes(&sizes[cols[e]], name) >= rows / 10;
            if (seen)
                continue;
            if (!big) {
                small++;
                for (int e = 0; e < count; e++)
                    rest[e] += table_bytes(&sizes[cols[e]], name);
                continue;
            }
            printf("| %s |", name);
            for (int e = 0; e < count; e++) {
                long long bytes = table_bytes(&sizes[cols[e]], name);
                printf(bytes ? " %.1f |" : " |", (double)bytes / (double)rows);
            }
            printf("\n");
        }
    }
    printf("| the other %d tables and indexes |", small);
    for (int e = 0; e < count; e++)
        printf(" %.1f |", (double)rest[e] / (double)rows);
    printf("\n| the database file |");
    for (int e = 0; e < count; e++)
        printf(" %.1f |", (double)sizes[cols[e]].file / (double)rows);
    printf("\n");
}

/* Peak memory of a run with every variant, the default. */
static long peak_memory(const char *coinrow, const char *csv)
{
    bench_path db = bench_in_folder("bench.db");
    measure m = load(ALL, coinrow, NULL, csv, db.text);
    bench_remove_db(db.text);
    fprintf(stderr, "  %s: %.2f s, %ld MiB\n", csv, m.seconds, m.max_rss_kb / 1024);
    return m.max_rss_kb;
}

static double jobs_time(const char *coinrow, const char *csv, const char *jobs, int reps)
{
    double t[16];
    bench_path db = bench_in_folder("jobs.db");
    for (int r = 0; r < reps; r++) {
        bench_remove_db(db.text);
        char *argv[] = {(char *)coinrow, "run",    (char *)csv, "--db",   db.text,    "--variant", "diff", "--algo",
                        "dp",            "--moves", "none",     "--jobs", (char *)jobs, "--quiet",   NULL};
        t[r] = timed(argv).seconds;
        fprintf(stderr, "  --jobs %s: %.2f s\n", jobs, t[r]);
    }
    bench_remove_db(db.text);
    return bench_median(t, reps);
}

/* Reads back the database `kept` of one run with every variant, once a
 * second run of its set (`solve`, the same options) is in it, so that two
 * runs can be set side by side; then removes it. */
static void read_back(const char *kept, const char *coinrow, long rows, int reps)
{
    fprintf(stderr, "a second run of the set ...\n");
    char *argv[] = {(char *)coinrow, "solve",  "--db",    (char *)kept, "--set",   "sorted", "--variant",
                    "all",           "--moves", "fast", "--quiet",      NULL};
    timed(argv);
    bench_read_back(kept, rows, reps);
    bench_remove_db(kept);
}

int main(int argc, char **argv)
{
    long rows = 1000000, big_rows = 5000000;
    int reps = 3, read_back_only = 0;
    if (argc < 2) {
        fprintf(stderr, "usage: bench_pipeline COINROW [--rows N] [--big-rows N] [--reps R] [--against OLD] "
                        "[--read-back]\n");
        return 2;
    }
    const char *coinrow = argv[1], *against = NULL;
    int bad = 0;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--read-back") == 0) {
            read_back_only = 1;
            continue;
        }
        if (i + 1 == argc) {
            bad = 1;
            break;
        }
        const char *option = argv[i], *value = argv[++i];
        if (strcmp(option, "--against") == 0) {
            against = value;
            continue;
        }
        char *end;
        errno = 0;
        long v = strtol(value, &end, 10);
        bad |= errno || *end || end == value;
        if (strcmp(option, "--rows") == 0)
            rows = v;
        else if (strcmp(option, "--big-rows") == 0)
            big_rows = v;
        else if (strcmp(option, "--reps") == 0)
            reps = (int)v;
        else
            bad = 1;
    }
    if (bad || rows < 1 || big_rows < 1 || reps < 1 || reps > 16) {
        fprintf(stderr, "bench_pipeline: --rows and --big-rows take N >= 1, --reps 1 to 16, --against a program\n");
        return 2;
    }
    bench_folder_make("coinrow-bench");
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);

    fprintf(stderr, "generating %ld instances of n = 32 ...\n", rows);
    static const char *const csv_names[ID_ORDERS] = {"sorted.csv", "unsorted.csv", "random.csv"};
    bench_path csv[ID_ORDERS], kept_path = bench_in_folder("read-back.db");
    for (int o = 0; o < ID_ORDERS; o++) {
        csv[o] = bench_in_folder(csv_names[o]);
        generate(csv[o].text, rows, 32, 1000000000u, o);
    }
    const char *kept = kept_path.text, *sorted = csv[IDS_SORTED].text;
    fprintf(stderr, "coinrow run against sqlite3 .import ...\n");
    timing by_order[ID_ORDERS][CONTENDERS];
    db_size sizes[CONTENDERS];
    for (int o = 0; o < ID_ORDERS; o++) {
        compare(by_order[o], o == IDS_SORTED ? sizes : NULL, o == IDS_SORTED ? kept : NULL, coinrow, against,
                csv[o].text, reps);
        if (o != IDS_SORTED)
            remove(csv[o].text);
    }
    char what[128];
    if (read_back_only) {
        remove(sorted);
        printf("| writing and size (%ld CPUs, median of %d) | coinrow | sqlite3 .import | ratio |\n", cpus, reps);
        printf("|---|---|---|---|\n");
        for (int o = 0; o < ID_ORDERS; o++) {
            snprintf(what, sizeof what, "%ld x n=32, --variant all, %s", rows, id_orders[o]);
            print_row(what, by_order[o][ALL], by_order[o][IMPORT]);
        }
        printf("| database, --variant all (WAL checkpointed) | %.1f MB | %.1f MB | %.2f |\n",
               (double)sizes[ALL].file / 1e6, (double)sizes[IMPORT].file / 1e6,
               (double)sizes[ALL].file / (double)sizes[IMPORT].file);
        print_sizes(sizes, (const int[]){ALL, IMPORT}, 2, rows);
        fflush(stdout);
        read_back(kept, coinrow, rows, reps);
        rmdir(bench_folder());
        return 0;
    }

    fprintf(stderr, "peak memory ...\n");
    long rss_small = peak_memory(coinrow, sorted);
    remove(sorted);
    bench_path big_path = bench_in_folder("big.csv");
    const char *big = big_path.text;
    generate(big, big_rows, 32, 1000000000u, IDS_SORTED);
    long rss_big = peak_memory(coinrow, big);
    remove(big);

    fprintf(stderr, "--jobs 1 against --jobs 2 ...\n");
    bench_path wide_path = bench_in_folder("n2000.csv");
    const char *wide = wide_path.text;
    generate(wide, 2000, 2000, 1000000000u, IDS_SORTED);
    double one = jobs_time(coinrow, wide, "1", reps), two = jobs_time(coinrow, wide, "2", reps);
    remove(wide);

    printf("| measure (%ld CPUs, median of %d) | coinrow | sqlite3 .import | ratio |\n", cpus, reps);
    printf("|---|---|---|---|\n");
    const struct {
        int contender;
        const char *what;
    } rows_of[] = {{ALL, "--variant all"}, {ONE, "--variant total"}};
    for (int k = 0; k < 2; k++)
        for (int o = 0; o < ID_ORDERS; o++) {
            snprintf(what, sizeof what, "%ld x n=32, %s, %s", rows, rows_of[k].what, id_orders[o]);
            print_row(what, by_order[o][rows_of[k].contender], by_order[o][IMPORT]);
        }
    for (int k = 0; k < 2; k++)
        printf("| database, %s (WAL checkpointed) | %.1f MB | %.1f MB | %.2f |\n", rows_of[k].what,
               (double)sizes[rows_of[k].contender].file / 1e6, (double)sizes[IMPORT].file / 1e6,
               (double)sizes[rows_of[k].contender].file / (double)sizes[IMPORT].file);
    printf("| peak memory, %ld instances, --variant all | %ld MiB | | |\n", rows, rss_small / 1024);
    printf("| peak memory, %ld instances, --variant all | %ld MiB | | |\n", big_rows, rss_big / 1024);
    printf("| 2000 x n=2000, --algo dp: --jobs 1 / --jobs 2 | %.2f s / %.2f s | | speedup %.2f |\n", one, two,
           one / two);
    const int measured[] = {ALL, ONE, AGAINST_ALL, AGAINST_ONE, IMPORT}, no_against[] = {ALL, ONE, IMPORT};
    if (against)
        print_sizes(sizes, measured, 5, rows);
    else
        print_sizes(sizes, no_against, 3, rows);
    if (against) {
        printf("\n| measure (median of %d, same runs) | coinrow | %s | ratio |\n", reps, against);
        printf("|---|---|---|---|\n");
        for (int k = 0; k < 2; k++)
            for (int o = 0; o < ID_ORDERS; o++) {
                int c = rows_of[k].contender, other = c == ALL ? AGAINST_ALL : AGAINST_ONE;
                snprintf(what, sizeof what, "%ld x n=32, %s, %s", rows, rows_of[k].what, id_orders[o]);
                print_row(what, by_order[o][c], by_order[o][other]);
            }
    }
    fflush(stdout);
    read_back(kept, coinrow, rows, reps);
    rmdir(bench_folder());
    return 0;
}

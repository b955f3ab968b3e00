/* What readers cost a run's WAL (make bench-wal): the figures of
 * docs/batch.md, "What a long reader costs".
 *
 *   bench_wal COINROW [--rows N] [--reps R] [--against OLD]
 *
 * In a fresh folder under $TMPDIR (or /tmp), removed at the end, a CSV of N
 * instances (coinrow generate: n = 32, values up to 10^9) is run by
 * `coinrow run FILE --db NEW.db --variant total --quiet` beside each of:
 *   none      no reader;
 *   instances the sqlite3 shell querying "SELECT count(*) FROM instance"
 *             again and again, one process after another, for the whole
 *             run: short queries;
 *   results   the same with "SELECT count(*) FROM result", every result
 *             row through the view: queries that grow with the run;
 *   held      one read transaction, begun once the first commit is in and
 *             held until the run ends.
 * The WAL's file is sampled every 10 ms for its peak size.  With --against,
 * another coinrow (an older build, say) runs in the same alternation.
 * Medians of the repetitions are printed as a Markdown table, with whether
 * coinrow said (in any repetition) that readers kept the WAL from starting
 * again. */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <errno.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

enum { NONE, INSTANCES, RESULTS, HELD, READERS };
static const char *const reader_names[READERS] = {"none", "instances", "results", "held"};
/* what the query loops ask */
static const char *const loop_sql[READERS] = {[INSTANCES] = "SELECT count(*) FROM instance",
                                              [RESULTS] = "SELECT count(*) FROM result"};

typedef struct outcome {
    double peak_mib, seconds, queries;
    int said; /* coinrow's note that a reader keeps the WAL */
} outcome;

static void die(const char *what)
{
    fprintf(stderr, "bench_wal: %s: %s\n", what, strerror(errno));
    exit(1);
}

/* Starts argv with its standard error to `log` (NULL: /dev/null). */
static pid_t start(char *const argv[], const char *log)
{
    pid_t pid = fork();
    if (pid == 0) {
        freopen("/dev/null", "w", stdout);
        freopen(log ? log : "/dev/null", "w", stderr);
        execvp(argv[0], argv);
        _exit(127);
    }
    if (pid < 0)
        die("fork");
    return pid;
}

static int finish(pid_t pid)
{
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            die("waitpid");
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* A query loop: a child that runs the sqlite3 shell on sql again and again
 * until killed, writing a byte to `done` after each query. */
static pid_t query_loop(const char *db, const char *sql, int done)
{
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    char *argv[] = {"sqlite3", (char *)db, (char *)sql, NULL};
    for (;;) {
        if (finish(start(argv, NULL)) == 0 && write(done, "q", 1) != 1)
            _exit(1);
    }
}

static int64_t file_size(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? (int64_t)sb.st_size : 0;
}

/* One run of coinrow beside `reader`. */
static outcome measure(const char *coinrow, const char *csv, int reader)
{
    char wal[4300];
    bench_path db_path = bench_in_folder("run.db"), log_path = bench_in_folder("stderr.txt");
    const char *db = db_path.text, *log = log_path.text;
    bench_remove_db(db);
    snprintf(wal, sizeof wal, "%s-wal", db);
    char *argv[] = {(char *)coinrow, "run", (char *)csv, "--db", (char *)db, "--variant", "total", "--quiet", NULL};
    int pipefd[2];
    if (pipe(pipefd) != 0)
        die("pipe");
    outcome o = {0, 0, 0, 0};
    double t0 = bench_now();
    pid_t run = start(argv, log), loop = loop_sql[reader] ? query_loop(db, loop_sql[reader], pipefd[1]) : 0;
    sqlite3 *held = NULL;
    int64_t peak = 0;
    for (;;) {
        int64_t size = file_size(wal);
        peak = size > peak ? size : peak;
        if (reader == HELD && !held && size > 0) {
            /* the snapshot of the first commit, kept to the end */
            if (sqlite3_open_v2(db, &held, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
                sqlite3_exec(held, "BEGIN; SELECT count(*) FROM instance", NULL, NULL, NULL) != SQLITE_OK) {
                sqlite3_close(held);
                held = NULL;
            }
        }
        if (waitpid(run, NULL, WNOHANG) == run)
            break;
        nanosleep(&(struct timespec){0, 10000000}, NULL);
    }
    o.seconds = bench_now() - t0;
    if (loop) {
        kill(loop, SIGKILL);
        finish(loop);
    }
    close(pipefd[1]);
    char buf[4096];
    for (ssize_t got; (got = read(pipefd[0], buf, sizeof buf)) > 0;)
        o.queries += (double)got;
    close(pipefd[0]);
    if (held) {
        sqlite3_exec(held, "COMMIT", NULL, NULL, NULL);
        sqlite3_close(held);
    }
    o.peak_mib = (double)peak / (1 << 20);
    FILE *f = fopen(log, "r");
    char line[1024];
    while (f && fgets(line, sizeof line, f))
        o.said |= strstr(line, "keep its WAL from starting again") != NULL;
    if (f)
        fclose(f);
    return o;
}

static void usage(void)
{
    fprintf(stderr, "usage: bench_wal COINROW [--rows N] [--reps R] [--against OLD]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        usage();
    const char *coinrows[2] = {argv[1], NULL};
    long rows = 1000000, reps = 1;
    for (int i = 2; i < argc; i++) {
        if (i + 1 >= argc)
            usage();
        if (strcmp(argv[i], "--rows") == 0)
            rows = strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--reps") == 0)
            reps = strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--against") == 0)
            coinrows[1] = argv[++i];
        else
            usage();
    }
    if (rows < 1 || reps < 1 || reps > 99)
        usage();
    bench_folder_make("coinrow-bench-wal");
    signal(SIGPIPE, SIG_IGN);

    char count[32];
    snprintf(count, sizeof count, "%ld", rows);
    char csv[4200];
    snprintf(csv, sizeof csv, "%s", bench_in_folder("rows.csv").text);
    char *gen[] = {(char *)coinrows[0], "generate", "--set", "rows", "--count", count, "--n", "32", "--values",
                   "1..1000000000", "--seed", "1", "--out", csv, NULL};
    if (finish(start(gen, NULL)) != 0) {
        fprintf(stderr, "bench_wal: coinrow generate failed\n");
        return 1;
    }

    int builds = coinrows[1] ? 2 : 1;
    outcome *seen = calloc((size_t)(builds * READERS * reps), sizeof *seen);
    for (long r = 0; r < reps; r++)
        for (int reader = 0; reader < READERS; reader++)
            for (int b = 0; b < builds; b++)
                seen[(b * READERS + reader) * reps + r] = measure(coinrows[b], csv, reader);

    printf("%ld instances of n = 32, `coinrow run --variant total`, median of %ld:\n\n", rows, reps);
    printf("| coinrow | reader | peak WAL (MiB) | seconds | queries | said so |\n|---|---|---:|---:|---:|---|\n");
    for (int b = 0; b < builds; b++)
        for (int reader = 0; reader < READERS; reader++) {
            double peak[99], secs[99], queries[99];
            int said = 0;
            for (long r = 0; r < reps; r++) {
                outcome *o = &seen[(b * READERS + reader) * reps + r];
                peak[r] = o->peak_mib, secs[r] = o->seconds, queries[r] = o->queries;
                said += o->said;
            }
            printf("| %s | %s | %.0f | %.2f | %.0f | %s |\n", b ? "against" : "this", reader_names[reader],
                   bench_median(peak, (int)reps), bench_median(secs, (int)reps), bench_median(queries, (int)reps),
                   said ? "yes" : "no");
        }
    free(seen);
    remove(csv);
    bench_remove_db(bench_in_folder("run.db").text);
    remove(bench_in_folder("stderr.txt").text);
    rmdir(bench_folder());
    return 0;
}

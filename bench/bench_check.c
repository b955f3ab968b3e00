/* Checking lines of play at contest scale (make bench-check): the figures
 * of docs/performance.md, "Checking a line".
 *
 *   bench_check COINROW TESTLIB_DIR [--n N] [--rows R]
 *
 * In a fresh folder under $TMPDIR (or /tmp), removed at the end: R distinct
 * random rows of N coins (default 5 rows of 10^6, values 1..10^9), each as
 * a contest input, a jury answer (the diff value and the canonical line)
 * and a contestant's output (the value and the fast line, another optimal
 * line, so that both lines are verified).  Each is checked, in turn, by
 * `coinrow check --variant diff --moves required`, and by the checkers of a
 * fresh export of a small set (the checker does not depend on the tests):
 * Kattis's output validator (checker.c, built with cc -O2) and Polygon's
 * check.cpp (built with g++ -O2 and TESTLIB_DIR/testlib.h).  Every answer
 * must be accepted.  Medians of wall time, CPU time (user + system: less
 * moved by other work on the machine) and peak memory (wait4), end to end:
 * reading the files is included. */
#define _DEFAULT_SOURCE /* wait4, mkdtemp */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "coinrow.h"

enum { MAX_ROWS = 15 };

typedef struct measure {
    double seconds, cpu_seconds; /* wall; user + system */
    long max_rss_kb;
    int status; /* exit status, 128 + signal, or -1 when it could not start */
} measure;

/* Runs argv with standard input from `input` (NULL: none) and its output
 * discarded. */
static measure run(char *const argv[], const char *input)
{
    measure m = {0, 0, 0, -1};
    fflush(stdout); /* the child's freopen would write what is buffered a second time */
    double t0 = bench_now();
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen(input ? input : "/dev/null", "r", stdin) || !freopen("/dev/null", "w", stdout) ||
            !freopen("/dev/null", "w", stderr))
            _exit(127);
        execvp(argv[0], argv);
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (pid > 0 && wait4(pid, &status, 0, &ru) == pid) {
        m.seconds = bench_now() - t0;
        m.max_rss_kb = ru.ru_maxrss;
        m.cpu_seconds = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                        (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
        m.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    return m;
}

/* run(), which must end with status `want`. */
static measure run_expecting(int want, char *const argv[], const char *input)
{
    measure m = run(argv, input);
    if (m.status != want) {
        fprintf(stderr, "bench_check: '%s %s' ended with status %d, not %d\n", argv[0], argv[1], m.status, want);
        exit(1);
    }
    return m;
}

static uint64_t rng = 0x23c0ffee;

static FILE *open_or_die(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "bench_check: cannot write %s\n", path);
        exit(1);
    }
    return f;
}

/* Row r's input, jury answer and contestant output: in/out/ans r. */
static void write_row(int r, size_t n, cr_solver *solver)
{
    int64_t *coins = malloc(n * sizeof *coins);
    char *canonical = malloc(n + 1);
    cr_error err;
    if (!coins || !canonical) {
        fprintf(stderr, "bench_check: no memory for %zu coins\n", n);
        exit(1);
    }
    for (size_t i = 0; i < n; i++)
        coins[i] = bench_random_coin(&rng);
    cr_result res[CR_VARIANT_COUNT];
    cr_solve_opts opts = {CR_VARIANT_BIT(CR_DIFF), CR_ALGO_LINEAR, CR_MOVES_FAST};
    if (cr_solve(res, solver, coins, n, &opts, &err) || cr_moves_canonical(canonical, coins, n, CR_DIFF, &err)) {
        fprintf(stderr, "bench_check: %s\n", err.msg);
        exit(1);
    }
    char name[16];
    snprintf(name, sizeof name, "in%d", r);
    FILE *f = open_or_die(bench_in_folder(name).text);
    fprintf(f, "%zu\n", n);
    for (size_t i = 0; i < n; i++)
        fprintf(f, i ? " %lld" : "%lld", (long long)coins[i]);
    fputc('\n', f);
    fclose(f);
    snprintf(name, sizeof name, "ans%d", r);
    f = open_or_die(bench_in_folder(name).text);
    fprintf(f, "%lld\n%s\n", (long long)res[CR_DIFF].value, canonical);
    fclose(f);
    snprintf(name, sizeof name, "out%d", r);
    f = open_or_die(bench_in_folder(name).text);
    fprintf(f, "%lld\n%s\n", (long long)res[CR_DIFF].value, res[CR_DIFF].moves);
    fclose(f);
    free(coins);
    free(canonical);
}

/* A fresh export's checkers, built as a judge builds them. */
static void build_checkers(const char *coinrow, const char *testlib)
{
    bench_path db = bench_in_folder("sets.db"), kattis = bench_in_folder("kattis"), polygon = bench_in_folder("polygon");
    char *generate[] = {(char *)coinrow, "generate", "--db", db.text, "--set", "small", "--count", "3", "--n",
                        "4..8", "--values", "1..100", "--seed", "1", "--quiet", NULL};
    run_expecting(0, generate, NULL);
    char *export_kattis[] = {(char *)coinrow, "export", "--db", db.text, "--set", "small", "--variant", "diff",
                             "--format", "kattis", "--moves", "canonical", "--out", kattis.text, NULL};
    run_expecting(0, export_kattis, NULL);
    char *export_polygon[] = {(char *)coinrow, "export", "--db", db.text, "--set", "small", "--variant", "diff",
                              "--format", "polygon", "--moves", "canonical", "--out", polygon.text, NULL};
    run_expecting(0, export_polygon, NULL);
    bench_path source = bench_in_folder("kattis/output_validators/checker/checker.c");
    bench_path binary = bench_in_folder("kattis_checker");
    char *cc[] = {"cc", "-O2", "-o", binary.text, source.text, NULL};
    run_expecting(0, cc, NULL);
    char include[4200];
    snprintf(include, sizeof include, "-I%s", testlib);
    source = bench_in_folder("polygon/files/check.cpp");
    binary = bench_in_folder("testlib_checker");
    char *cxx[] = {"g++", "-O2", include, "-o", binary.text, source.text, NULL};
    run_expecting(0, cxx, NULL);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_check COINROW TESTLIB_DIR [--n N] [--rows R]\n");
        return 2;
    }
    const char *coinrow = argv[1], *testlib = argv[2];
    size_t n = 1000000;
    int rows = 5;
    for (int i = 3; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--n") == 0)
            n = strtoul(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--rows") == 0)
            rows = (int)strtol(argv[i + 1], NULL, 10);
    }
    if (n < 1 || rows < 1 || rows > MAX_ROWS) {
        fprintf(stderr, "bench_check: --n from 1, --rows from 1 to %d\n", MAX_ROWS);
        return 2;
    }
    char testlib_h[4200];
    snprintf(testlib_h, sizeof testlib_h, "%s/testlib.h", testlib);
    if (access(testlib_h, R_OK) != 0) {
        fprintf(stderr, "bench_check: no %s\n", testlib_h);
        return 2;
    }
    bench_folder_make("coinrow-bench-check");
    build_checkers(coinrow, testlib);
    cr_solver *solver;
    if (cr_solver_new(&solver, NULL))
        return 1;
    for (int r = 0; r < rows; r++)
        write_row(r, n, solver);
    cr_solver_free(solver);
    mkdir(bench_in_folder("feedback").text, 0755);

    static const char *const names[] = {"coinrow check (testlib convention)", "Kattis checker.c (cc -O2)",
                                        "Polygon check.cpp (g++ -O2, testlib)"};
    double seconds[3][MAX_ROWS], cpu[3][MAX_ROWS], mib[3][MAX_ROWS];
    for (int r = 0; r < rows; r++) {
        char in[16], out[16], ans[16];
        snprintf(in, sizeof in, "in%d", r);
        snprintf(out, sizeof out, "out%d", r);
        snprintf(ans, sizeof ans, "ans%d", r);
        bench_path input = bench_in_folder(in), output = bench_in_folder(out), answer = bench_in_folder(ans);
        bench_path kattis = bench_in_folder("kattis_checker"), testlib_checker = bench_in_folder("testlib_checker");
        bench_path feedback = bench_in_folder("feedback");
        char *check[] = {(char *)coinrow, "check", "--variant", "diff", "--moves", "required", input.text,
                         output.text, answer.text, NULL};
        char *kattis_check[] = {kattis.text, input.text, answer.text, feedback.text, NULL};
        char *testlib_check[] = {testlib_checker.text, input.text, output.text, answer.text, NULL};
        measure m[3] = {run_expecting(0, check, NULL), run_expecting(42, kattis_check, output.text),
                        run_expecting(0, testlib_check, NULL)};
        for (int k = 0; k < 3; k++) {
            seconds[k][r] = m[k].seconds;
            cpu[k][r] = m[k].cpu_seconds;
            mib[k][r] = (double)m[k].max_rss_kb / 1024;
        }
    }
    printf("| checker, jury's canonical line and contestant's fast line (median of %d rows) | n | wall time | "
           "CPU time | peak memory |\n|---|---|---|---|---|\n",
           rows);
    for (int k = 0; k < 3; k++)
        printf("| %s | %zu | %.3f s | %.3f s | %.0f MiB |\n", names[k], n, bench_median(seconds[k], rows),
               bench_median(cpu[k], rows), bench_median(mib[k], rows));
    char *clean[] = {"rm", "-rf", bench_folder(), NULL};
    run_expecting(0, clean, NULL);
    return 0;
}

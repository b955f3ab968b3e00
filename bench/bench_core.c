/* Benchmark of the solver core on one thread (make bench).  Every timing
 * solves a distinct random row, so that no branch pattern is memorised;
 * figures are medians over the rows.  Peak memory is that of a fresh
 * process (this program again, `bench_core --peak WHAT KIND N`) that makes
 * one row (and for a check its fast line), then computes its canonical line
 * or checks the line: its high water mark from just before that call, the
 * row and the line included; what was freed before cannot hide in it.
 *
 *   bench_core [--peak canonical|verify random|killer|valley N] */
#define _DEFAULT_SOURCE /* popen */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "coinrow.h"

enum { ROWS = 5 };

static uint64_t rng = 0x5eed;

static int64_t *new_row(size_t n)
{
    int64_t *row = malloc(n * sizeof *row);
    if (!row) {
        fprintf(stderr, "bench: no memory for %zu coins\n", n);
        exit(1);
    }
    return row;
}

static int64_t *random_row(size_t n)
{
    int64_t *row = new_row(n);
    for (size_t i = 0; i < n; i++)
        row[i] = bench_random_coin(&rng);
    return row;
}

static cr_solver *solver;

/* Median seconds of cr_solve over `rows` distinct rows of n coins. */
static double time_solve(size_t n, cr_algo algo, cr_moves moves, int rows)
{
    double seconds[ROWS];
    for (int r = 0; r < rows; r++) {
        int64_t *row = random_row(n);
        cr_result results[CR_VARIANT_COUNT];
        cr_solve_opts opts = {CR_VARIANT_BIT(CR_DIFF), algo, moves};
        cr_error err;
        double t0 = bench_now();
        if (cr_solve(results, solver, row, n, &opts, &err)) {
            fprintf(stderr, "bench: %s\n", err.msg);
            exit(1);
        }
        seconds[r] = bench_now() - t0;
        free(row);
    }
    return bench_median(seconds, rows);
}

/* The rows the lines are timed on: random ones; issue 23's un-merge
 * killer (0, 1, 0, 3, 0, 5, ... for the first half, then large and
 * falling); a valley (falling, then rising: nothing merges, so the reduced
 * rows are as long as their intervals, the most memory the line takes). */
enum { RANDOM, KILLER, VALLEY };
static const char *const kind_names[] = {"random", "killer", "valley"};

static int64_t *row_of(int kind, size_t n)
{
    if (kind == RANDOM)
        return random_row(n);
    int64_t *row = new_row(n);
    for (size_t i = 0; i < n; i++)
        row[i] = kind == KILLER ? (i < n / 2 ? (i % 2 ? (int64_t)i : 0) : (int64_t)(4 * n - i))
                                : (int64_t)(i < n / 2 ? n / 2 - i : i - n / 2);
    return row;
}

/* The fast line of a row into line (n + 1 bytes). */
static void fast_line(char *line, const int64_t *row, size_t n)
{
    cr_result results[CR_VARIANT_COUNT];
    cr_solve_opts opts = {CR_VARIANT_BIT(CR_DIFF), CR_ALGO_LINEAR, CR_MOVES_FAST};
    cr_error err;
    if (cr_solve(results, solver, row, n, &opts, &err)) {
        fprintf(stderr, "bench: %s\n", err.msg);
        exit(1);
    }
    memcpy(line, results[CR_DIFF].moves, n + 1);
}

/* The canonical line of a row, or the check of its fast line (in line):
 * the call the figures time. */
static void canonical_or_verify(int verify, char *line, const int64_t *row, size_t n)
{
    cr_verdict verdict;
    cr_error err;
    int rc = verify ? cr_moves_verify(&verdict, row, n, CR_DIFF, line, n, &err)
                    : cr_moves_canonical(line, row, n, CR_DIFF, &err);
    if (rc || (verify && verdict.fault != CR_LINE_OK)) {
        fprintf(stderr, "bench: %s of %zu coins: %s\n", verify ? "the check of a fast line" : "a canonical line", n,
                rc ? err.msg : "refused");
        exit(1);
    }
}

/* Median seconds of the canonical line (verify 0) or of the check of the
 * fast line (1) over `rows` rows of n coins of the kind. */
static double time_line(int verify, size_t n, int rows, int kind)
{
    double seconds[ROWS];
    char *line = malloc(n + 1);
    for (int r = 0; r < rows; r++) {
        int64_t *row = row_of(kind, n);
        if (verify)
            fast_line(line, row, n);
        double t0 = bench_now();
        canonical_or_verify(verify, line, row, n);
        seconds[r] = bench_now() - t0;
        free(row);
    }
    free(line);
    return bench_median(seconds, rows);
}

static const char *self; /* this program, for --peak */

/* The peak memory in MiB of `bench_core --peak canonical|verify KIND N`,
 * which prints its own high water mark (VmHWM): wait4's figure would count
 * the memory of this process, from which it is forked. */
static double peak_mib(const char *what, int kind, size_t n)
{
    char command[4400];
    long kib = -1;
    snprintf(command, sizeof command, "'%s' --peak %s %s %zu", self, what, kind_names[kind], n);
    fflush(stdout);
    FILE *child = popen(command, "r");
    if (!child || fscanf(child, "%ld", &kib) != 1 || pclose(child) != 0 || kib < 0) {
        fprintf(stderr, "bench: %s failed\n", command);
        exit(1);
    }
    return (double)kib / 1024;
}

/* Starts the high water mark afresh (Linux's /proc/self/clear_refs): from
 * here on VmHWM is the peak since. */
static void reset_peak(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (f) {
        fputs("5", f);
        fclose(f);
    }
}

/* This process's peak resident memory in KiB (VmHWM), or -1. */
static long peak_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "VmHWM:", 6) == 0)
            kib = strtol(line + 6, NULL, 10);
    if (f)
        fclose(f);
    return kib;
}

/* --peak: one row of n coins of the kind, its line or its check, and
 * nothing else. */
static int peak_run(const char *what, const char *kind_name, size_t n)
{
    int verify = strcmp(what, "verify") == 0, kind = RANDOM;
    while (kind < VALLEY && strcmp(kind_names[kind], kind_name) != 0)
        kind++;
    int64_t *row = row_of(kind, n);
    char *line = malloc(n + 1);
    if (!line)
        return 1;
    if (verify)
        fast_line(line, row, n);
    cr_solver_free(solver); /* the fast line's buffers are not the check's */
    reset_peak();
    canonical_or_verify(verify, line, row, n);
    free(line);
    free(row);
    printf("%ld\n", peak_kib());
    return 0;
}

/* The seeds' bottom-up table: best[i][j] for every interval, filled by gap. */
static int64_t seed_table(const int64_t *coin, size_t n, int64_t *best)
{
#define AT(i, j) best[(size_t)(i) * n + (size_t)(j)]
#define CELL(i, j) ((i) <= (j) ? AT(i, j) : 0)
    for (size_t gap = 0; gap < n; gap++)
        for (size_t i = 0, j = gap; j < n; i++, j++) {
            int64_t a = i + 2 <= j ? AT(i + 2, j) : 0;
            int64_t b = i + 1 <= j - 1 && j > 0 ? AT(i + 1, j - 1) : 0;
            int64_t c = j >= 2 && i <= j - 2 ? AT(i, j - 2) : 0;
            int64_t left = coin[i] + (a < b ? a : b), right = coin[j] + (b < c ? b : c);
            AT(i, j) = left > right ? left : right;
        }
    return AT(0, n - 1);
#undef AT
#undef CELL
}

static double time_seed_table(size_t n, int rows)
{
    double seconds[ROWS];
    int64_t *best = malloc(n * n * sizeof *best);
    volatile int64_t sink = 0;
    for (int r = 0; r < rows; r++) {
        int64_t *row = random_row(n);
        double t0 = bench_now();
        sink += seed_table(row, n, best);
        seconds[r] = bench_now() - t0;
        free(row);
    }
    free(best);
    return bench_median(seconds, rows);
}

int main(int argc, char **argv)
{
    if (cr_solver_new(&solver, NULL))
        return 1;
    self = argv[0];
    if (argc == 5 && strcmp(argv[1], "--peak") == 0)
        return peak_run(argv[2], argv[3], strtoul(argv[4], NULL, 10));
    double cells4 = 1e4 * (1e4 + 1) / 2, cells3 = 3e4 * (3e4 + 1) / 2;

    double lin6 = time_solve(1000000, CR_ALGO_LINEAR, CR_MOVES_FAST, ROWS);
    double lin7 = time_solve(10000000, CR_ALGO_LINEAR, CR_MOVES_FAST, ROWS);
    double dp4 = time_solve(10000, CR_ALGO_DP, CR_MOVES_NONE, ROWS);
    double dp3 = time_solve(30000, CR_ALGO_DP, CR_MOVES_NONE, ROWS);
    double seed4 = time_seed_table(10000, 3);
    double dp4_linear = time_solve(10000, CR_ALGO_LINEAR, CR_MOVES_FAST, ROWS);
    double ver6 = time_line(1, 1000000, ROWS, RANDOM), ver7 = time_line(1, 10000000, ROWS, RANDOM);
    double ver7_valley = time_line(1, 10000000, 1, VALLEY);
    double can5 = time_line(0, 100000, ROWS, RANDOM), can6 = time_line(0, 1000000, 3, RANDOM);
    double killer6 = time_line(0, 1000000, 1, KILLER), valley6 = time_line(0, 1000000, 1, VALLEY);
    double ver7_mib = peak_mib("verify", RANDOM, 10000000), ver7_valley_mib = peak_mib("verify", VALLEY, 10000000);
    double can5_mib = peak_mib("canonical", RANDOM, 100000), can6_mib = peak_mib("canonical", RANDOM, 1000000);
    double killer6_mib = peak_mib("canonical", KILLER, 1000000), valley6_mib = peak_mib("canonical", VALLEY, 1000000);

    printf("| measure | n | median | rate |\n|---|---|---|---|\n");
    printf("| linear, value + fast line | 10^6 | %.2f ms | %.0f million coins/s |\n", lin6 * 1e3, 1e6 / lin6 / 1e6);
    printf("| linear, value + fast line | 10^7 | %.1f ms | %.0f million coins/s |\n", lin7 * 1e3, 1e7 / lin7 / 1e6);
    printf("| dp (diagonals, O(n) memory) | 10^4 | %.1f ms | %.2f x 10^9 cells/s |\n", dp4 * 1e3,
           cells4 / dp4 / 1e9);
    printf("| dp (diagonals, O(n) memory) | 3*10^4 | %.1f ms | %.2f x 10^9 cells/s |\n", dp3 * 1e3,
           cells3 / dp3 / 1e9);
    printf("| seeds' 2D table by gap | 10^4 | %.1f ms | %.2f x 10^9 cells/s |\n", seed4 * 1e3,
           cells4 / seed4 / 1e9);
    printf("| verifier, fast line | 10^6 | %.1f ms | %.0f million moves/s |\n", ver6 * 1e3, 1e6 / ver6 / 1e6);
    printf("| verifier, fast line | 10^7 | %.2f s | %.0f million moves/s; peak %.0f MiB |\n", ver7, 1e7 / ver7 / 1e6,
           ver7_mib);
    printf("| verifier, fast line, a valley (nothing merges) | 10^7 | %.2f s | peak %.0f MiB |\n", ver7_valley,
           ver7_valley_mib);
    printf("| canonical line | 10^5 | %.3f s | peak %.0f MiB |\n", can5, can5_mib);
    printf("| canonical line | 10^6 | %.2f s | peak %.0f MiB |\n", can6, can6_mib);
    printf("| canonical line, the un-merge killer row | 10^6 | %.2f s | peak %.0f MiB |\n", killer6, killer6_mib);
    printf("| canonical line, a valley (nothing merges) | 10^6 | %.2f s | peak %.0f MiB |\n", valley6, valley6_mib);
    printf("\nratios in this run: dp / seeds' table at 10^4 = %.1fx faster; linear / dp at 10^4 = %.0fx faster\n",
           seed4 / dp4, dp4 / dp4_linear);
    cr_solver_free(solver);
    return 0;
}

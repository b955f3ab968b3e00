/* Benchmark of the solver core on one thread (make bench).  Every timing
 * solves a distinct random row, so that no branch pattern is memorised;
 * figures are medians over the rows. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "coinrow.h"

enum { ROWS = 5 };

static uint64_t rng = 0x5eed;

static int64_t random_coin(void)
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return (int64_t)((z ^ (z >> 31)) % 1000000000u) + 1;
}

static int64_t *random_row(size_t n)
{
    int64_t *row = malloc(n * sizeof *row);
    if (!row) {
        fprintf(stderr, "bench: no memory for %zu coins\n", n);
        exit(1);
    }
    for (size_t i = 0; i < n; i++)
        row[i] = random_coin();
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

static double time_canonical(size_t n, int rows)
{
    double seconds[ROWS];
    char *line = malloc(n + 1);
    for (int r = 0; r < rows; r++) {
        int64_t *row = random_row(n);
        cr_error err;
        double t0 = bench_now();
        if (cr_moves_canonical(line, row, n, CR_DIFF, &err)) {
            fprintf(stderr, "bench: %s\n", err.msg);
            exit(1);
        }
        seconds[r] = bench_now() - t0;
        free(row);
    }
    free(line);
    return bench_median(seconds, rows);
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

int main(void)
{
    if (cr_solver_new(&solver, NULL))
        return 1;
    double cells4 = 1e4 * (1e4 + 1) / 2, cells3 = 3e4 * (3e4 + 1) / 2;

    double lin6 = time_solve(1000000, CR_ALGO_LINEAR, CR_MOVES_FAST, ROWS);
    double lin7 = time_solve(10000000, CR_ALGO_LINEAR, CR_MOVES_FAST, ROWS);
    double dp4 = time_solve(10000, CR_ALGO_DP, CR_MOVES_NONE, ROWS);
    double dp3 = time_solve(30000, CR_ALGO_DP, CR_MOVES_NONE, ROWS);
    double seed4 = time_seed_table(10000, 3);
    double dp4_linear = time_solve(10000, CR_ALGO_LINEAR, CR_MOVES_FAST, ROWS);
    double can_small = time_canonical(20000, 3);
    double can_large = time_canonical(100000, 3);

    printf("| measure | n | median | rate |\n|---|---|---|---|\n");
    printf("| linear, value + fast line | 10^6 | %.2f ms | %.0f million coins/s |\n", lin6 * 1e3, 1e6 / lin6 / 1e6);
    printf("| linear, value + fast line | 10^7 | %.1f ms | %.0f million coins/s |\n", lin7 * 1e3, 1e7 / lin7 / 1e6);
    printf("| dp (diagonals, O(n) memory) | 10^4 | %.1f ms | %.2f x 10^9 cells/s |\n", dp4 * 1e3,
           cells4 / dp4 / 1e9);
    printf("| dp (diagonals, O(n) memory) | 3*10^4 | %.1f ms | %.2f x 10^9 cells/s |\n", dp3 * 1e3,
           cells3 / dp3 / 1e9);
    printf("| seeds' 2D table by gap | 10^4 | %.1f ms | %.2f x 10^9 cells/s |\n", seed4 * 1e3,
           cells4 / seed4 / 1e9);
    printf("| canonical line | 2*10^4 | %.2f s | %.2f x 10^9 cells/s |\n", can_small,
           2e4 * (2e4 + 1) / 2 / can_small / 1e9);
    printf("| canonical line | 10^5 | %.2f s | %.2f x 10^9 cells/s |\n", can_large,
           1e5 * (1e5 + 1) / 2 / can_large / 1e9);
    printf("\nratios in this run: dp / seeds' table at 10^4 = %.1fx faster; linear / dp at 10^4 = %.0fx faster\n",
           seed4 / dp4, dp4 / dp4_linear);
    cr_solver_free(solver);
    return 0;
}

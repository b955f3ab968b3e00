/* Benchmark of the online jury (make bench-jury): its own CPU time for a
 * whole game, judging included, at n = 10^6 against several contestants, on
 * distinct rows (random ones, and docs/design.md's worst rows for the
 * reduced row: the un-merge killer and the valley).  The contestant's
 * moves are made before the clock starts, or cost a coin flip, so the
 * figure is the jury's: cr_jury_new, every cr_jury_play and cr_jury_move,
 * cr_jury_judge and cr_jury_free.  Issue 37's targets: at most 1 s with an
 * optimal contestant, 2 s against any.
 *
 *   bench_jury [--n N] [--rows R] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "coinrow.h"

enum { MAX_ROWS = 15 };

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void *must(void *p)
{
    if (!p) {
        fprintf(stderr, "bench_jury: no memory\n");
        exit(1);
    }
    return p;
}

static uint64_t rng = 0x3737;

enum { RANDOM, KILLER, VALLEY };
static const char *const row_names[] = {"random", "the un-merge killer", "a valley"};

/* A distinct row of the kind: the worst rows are shifted by a random
 * amount, so that no two are alike. */
static void make_row(int64_t *row, size_t n, int kind)
{
    int64_t shift = bench_random_coin(&rng);
    for (size_t i = 0; i < n; i++)
        row[i] = kind == RANDOM ? bench_random_coin(&rng)
                 : kind == KILLER ? (i < n / 2 ? (i % 2 ? (int64_t)i : 0) : (int64_t)(4 * n - i)) + shift
                                  : (int64_t)(i < n / 2 ? n / 2 - i : i - n / 2) + shift;
}

enum { OPTIMAL, MIRROR, COIN_FLIP, LEFT };
static const char *const contestant_names[] = {"optimal (the canonical line)", "a mirror (the jury's last end)",
                                               "random (a coin flip a turn)", "always L"};

/* The jury's CPU seconds for one game of row[0..n) against the
 * contestant; canonical holds the row's canonical line. */
static double game(const int64_t *row, size_t n, int contestant, uint64_t seed, const char *canonical)
{
    cr_error err;
    cr_jury *jury;
    cr_verdict verdict;
    char last = 'L';
    uint64_t flips = rng;
    double t0 = cpu_now();
    if (cr_jury_new(&jury, row, n, CR_DIFF, (cr_jury_policy){.seed = seed}, &err)) {
        fprintf(stderr, "bench_jury: %s\n", err.msg);
        exit(1);
    }
    for (size_t k = 0; k < n; k++) {
        int rc;
        if (k % 2) {
            rc = cr_jury_move(&last, jury, &err);
        } else {
            char move = contestant == OPTIMAL  ? canonical[k]
                        : contestant == MIRROR ? last
                        : contestant == LEFT   ? 'L'
                                               : ((flips = flips * 6364136223846793005u + 1442695040888963407u) >> 63
                                                      ? 'L'
                                                      : 'R');
            rc = cr_jury_play(jury, move, &err);
        }
        if (rc) {
            fprintf(stderr, "bench_jury: turn %zu: %s\n", k + 1, err.msg);
            exit(1);
        }
    }
    int rc = cr_jury_judge(&verdict, jury, &err);
    cr_jury_free(jury);
    double seconds = cpu_now() - t0;
    if (rc || (contestant == OPTIMAL && verdict.fault != CR_LINE_OK)) {
        fprintf(stderr, "bench_jury: the judgement: %s\n", rc ? err.msg : verdict.why);
        exit(1);
    }
    rng = flips;
    return seconds;
}

int main(int argc, char **argv)
{
    size_t n = 1000000;
    int rows = 3;
    for (int k = 1; k + 1 < argc; k += 2) {
        if (strcmp(argv[k], "--n") == 0)
            n = strtoul(argv[k + 1], NULL, 10);
        else if (strcmp(argv[k], "--rows") == 0)
            rows = atoi(argv[k + 1]);
    }
    if (n < 2 || rows < 1 || rows > MAX_ROWS) {
        fprintf(stderr, "usage: bench_jury [--n N (>= 2)] [--rows R (1..%d)]\n", MAX_ROWS);
        return 2;
    }
    int64_t *row = must(malloc(n * sizeof *row));
    char *canonical = must(malloc(n + 1));
    static const struct {
        int kind, contestant;
        uint64_t seed;
    } cases[] = {
        {RANDOM, OPTIMAL, 0},  {RANDOM, MIRROR, 0},  {RANDOM, COIN_FLIP, 0}, {RANDOM, COIN_FLIP, 37},
        {KILLER, OPTIMAL, 0},  {KILLER, COIN_FLIP, 0}, {KILLER, LEFT, 0},     {VALLEY, OPTIMAL, 0},
        {VALLEY, COIN_FLIP, 0}, {VALLEY, MIRROR, 0},
    };
    printf("The jury's CPU time for one game of n = %zu (diff), judging included; median of %d distinct rows\n\n",
           n, rows);
    printf("| row | contestant | jury | median | slowest |\n|---|---|---|---:|---:|\n");
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        double seconds[MAX_ROWS];
        for (int r = 0; r < rows; r++) {
            make_row(row, n, cases[c].kind);
            if (cases[c].contestant == OPTIMAL) {
                cr_error err;
                if (cr_moves_canonical(canonical, row, n, CR_DIFF, &err)) {
                    fprintf(stderr, "bench_jury: %s\n", err.msg);
                    return 1;
                }
            }
            seconds[r] = game(row, n, cases[c].contestant, cases[c].seed, canonical);
        }
        double median = bench_median(seconds, rows);
        printf("| %s | %s | %s | %.2f s | %.2f s |\n", row_names[cases[c].kind],
               contestant_names[cases[c].contestant], cases[c].seed ? "deviating" : "optimal", median,
               seconds[rows - 1]);
        fflush(stdout);
    }
    free(row);
    free(canonical);
    return 0;
}

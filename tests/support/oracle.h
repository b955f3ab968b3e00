/* A brute-force oracle written from each variant's own definition, apart
 * from the core: memoised minimax over every interval of a small row. */
#ifndef CR_TEST_ORACLE_H
#define CR_TEST_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#include "coinrow/game.h"

__extension__ typedef __int128 i128;

#define ORACLE_MAX_N 24

typedef struct oracle {
    size_t n;
    int64_t a[ORACLE_MAX_N];
    i128 sum;
    /* per interval [i][j]: */
    i128 total[ORACLE_MAX_N][ORACLE_MAX_N];     /* most the mover can guarantee (seed recursion) */
    i128 lead[ORACLE_MAX_N][ORACLE_MAX_N];      /* mover's total minus the other's */
    i128 remaining[ORACLE_MAX_N][ORACLE_MAX_N]; /* mover's lead in the remaining-sum game */
    /* optimal moves, bit 1 = L, bit 2 = R, each from its own recursion */
    unsigned char opt_total[ORACLE_MAX_N][ORACLE_MAX_N];
    unsigned char opt_lead[ORACLE_MAX_N][ORACLE_MAX_N];
    unsigned char opt_remaining[ORACLE_MAX_N][ORACLE_MAX_N];
} oracle;

/* Solves every interval of a[0..n), 1 <= n <= ORACLE_MAX_N. */
void oracle_build(oracle *o, const int64_t *a, size_t n);

/* The variant's value for the whole row (winner: 1, -1, 0). */
i128 oracle_value(const oracle *o, cr_variant v);

/* Optimal moves at interval [i, j] under the variant's scoring. */
unsigned oracle_optimal(const oracle *o, cr_variant v, size_t i, size_t j);

/* The first turn of line[0..n) whose move is not optimal, or -1. */
long oracle_first_bad_turn(const oracle *o, cr_variant v, const char *line);

/* The lexicographically smallest optimal line (n chars + NUL). */
void oracle_smallest_line(const oracle *o, cr_variant v, char *out);

/* Both players' scores along line[0..n) under the variant's scoring. */
void oracle_replay(const oracle *o, cr_variant v, const char *line, i128 out[2]);

/* Deterministic test randomness (splitmix64). */
uint64_t test_rand(uint64_t *state);
int64_t test_rand_range(uint64_t *state, int64_t lo, int64_t hi);

/* A random row of 1..max_n coins into a: values from one of several ranges,
 * tiny ones full of ties and duplicates, mid-sized ones, and the int64
 * limits where figures overflow; or all equal. */
void oracle_random_row(int64_t *a, size_t *n, size_t max_n, uint64_t *rng);

#endif

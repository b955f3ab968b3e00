/* The O(n^2) verifier and canonical line coinrow had before issue 23, kept
 * as test oracles for the core's O(n log n) and O(n sqrt n) ones: the
 * interval DP swept by diagonals, each turn checked when the sweep reaches
 * its interval's length; the canonical line read from one bit per interval
 * ("L is optimal here").  128-bit figures throughout. */
#ifndef CR_TEST_QUADRATIC_H
#define CR_TEST_QUADRATIC_H

#include <stddef.h>
#include <stdint.h>

#include "coinrow/game.h"

/* The first turn of line[0..legal) (legal moves, legal <= n) whose move is
 * not optimal on coins[0..n) under the variant, or SIZE_MAX.  Fails the test
 * when there is no memory. */
size_t quadratic_first_bad(const int64_t *coins, size_t n, cr_variant variant, const char *line, size_t legal);

/* The canonical line of coins[0..n) into out (n chars + NUL); n^2/16 bytes.
 * Fails the test when there is no memory. */
void quadratic_canonical(char *out, const int64_t *coins, size_t n, cr_variant variant);

#endif

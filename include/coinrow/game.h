/* coinrow — the game's vocabulary: variants, algorithms, move policies.
 *
 * Coins lie in a row; players alternately take one coin from the left (L) or
 * the right (R) end; the first player moves first; both play optimally.
 * A line of play is a string of n characters 'L'/'R'; turn k (0-based) is the
 * first player's when k is even. */
#ifndef CR_GAME_H
#define CR_GAME_H

#include <stddef.h>
#include <stdint.h>

#include "coinrow/error.h"

/* The largest row the core accepts (scores are kept in 128 bits, which
 * holds n * n * 2^63 for every n up to this bound). */
#define CR_N_MAX ((size_t)UINT32_MAX)

/* What is reported.  total, diff and winner are judged on the standard game
 * (a move takes the coin's value); remaining on the remaining-sum game (a
 * move scores the sum of the coins still in the row after it). */
typedef enum cr_variant {
    CR_TOTAL,     /* the most the first player can guarantee */
    CR_DIFF,      /* first player's total minus second's */
    CR_REMAINING, /* first's remaining-sum score minus second's */
    CR_WINNER,    /* 1 first wins, -1 second wins, 0 draw */
    CR_VARIANT_COUNT
} cr_variant;

#define CR_VARIANT_BIT(v) (1u << (v))
#define CR_VARIANTS_ALL ((1u << CR_VARIANT_COUNT) - 1u)

typedef enum cr_algo {
    CR_ALGO_AUTO,   /* the fastest correct one: linear */
    CR_ALGO_LINEAR, /* O(n) peak merging */
    CR_ALGO_DP,     /* O(n^2) interval DP by diagonals, O(n) memory */
    CR_ALGO_NAIVE,  /* exponential minimax, the test oracle; n <= CR_NAIVE_MAX_N */
    CR_ALGO_COUNT
} cr_algo;

#define CR_NAIVE_MAX_N 25

typedef enum cr_moves {
    CR_MOVES_NONE,      /* no line is reported */
    CR_MOVES_FAST,      /* the linear method's optimal line, O(n) */
    CR_MOVES_CANONICAL, /* take L whenever it is optimal: the lexicographically
                           smallest optimal line, O(n sqrt n) time, O(n) memory */
    CR_MOVES_COUNT
} cr_moves;

/* Lower-case names ("total", "linear", "canonical", ...); NULL when out of range. */
const char *cr_variant_name(cr_variant v);
const char *cr_algo_name(cr_algo a);
const char *cr_moves_name(cr_moves m);

/* "first", "second" or "draw" for a winner of 1, -1 or 0. */
const char *cr_winner_name(int winner);

/* Parse a name into *out; CR_EINVAL naming the text when it is unknown. */
int cr_variant_parse(cr_variant *out, const char *name, cr_error *err);
int cr_algo_parse(cr_algo *out, const char *name, cr_error *err);
int cr_moves_parse(cr_moves *out, const char *name, cr_error *err);

/* Parse "all" or a comma-separated list of variant names into a mask of
 * CR_VARIANT_BIT()s. Duplicates are allowed; an empty list is not. */
int cr_variants_parse(unsigned *out, const char *list, cr_error *err);

/* Writes the variants of mask as a comma list in enum order ("total,diff")
 * into out (CR_VARIANTS_TEXT_MAX bytes). */
#define CR_VARIANTS_TEXT_MAX 32
void cr_variants_format(char out[CR_VARIANTS_TEXT_MAX], unsigned mask);

#endif

/* coinrow — lines of play: the canonical line, a verifier and a replay.
 *
 * A move is optimal when it achieves the best lead the mover can guarantee
 * from that position: in the standard game for total, diff and winner, in the
 * remaining-sum game for remaining.  On the last coin L and R are the same. */
#ifndef CR_MOVES_H
#define CR_MOVES_H

#include <stddef.h>
#include <stdint.h>

#include "coinrow/error.h"
#include "coinrow/game.h"

/* Writes the canonical line for coins[0..n) into out (n chars + NUL, so out
 * holds n + 1 bytes): at every position L when L is optimal, else R.  It is
 * the lexicographically smallest optimal line and does not depend on the
 * algorithm.  O(n sqrt n) time, O(n) memory (cr_moves_canonical_bytes);
 * CR_ENOMEM, saying how many MiB it needs, when that cannot be had. */
int cr_moves_canonical(char *out, const int64_t *coins, size_t n, cr_variant variant, cr_error *err);

/* Writes the greedy line for coins[0..n) into out (n chars + NUL): at every
 * turn the end that scores more at once, L on a tie; that is the larger coin,
 * or for remaining the smaller one (the removal that leaves more in the row).
 * The wrong answer strong tests catch.  O(n). */
void cr_moves_greedy(char *out, const int64_t *coins, size_t n, cr_variant variant);
/* The most cr_moves_canonical allocates for a row of n coins (about 67n
 * bytes; half that when the sum of |coin| is below 2^61), by arithmetic
 * alone: callers can refuse a row before trying.  SIZE_MAX beyond CR_N_MAX. */
size_t cr_moves_canonical_bytes(size_t n);

typedef enum cr_fault {
    CR_LINE_OK,         /* legal, complete, every move optimal */
    CR_LINE_BAD_MOVE,   /* the character at `turn` is not L or R */
    CR_LINE_SHORT,      /* the line stops after `turn` moves, before the row is empty */
    CR_LINE_LONG,       /* the row is empty at `turn` but the line goes on */
    CR_LINE_SUBOPTIMAL  /* the move at `turn` loses lead against the other end */
} cr_fault;

typedef struct cr_verdict {
    cr_fault fault;
    size_t turn;                /* the first bad turn as an index (0-based; messages count
                                   turns from 1); n when fault is OK */
    char why[CR_ERROR_MSG_MAX]; /* the fault in words, naming the turn (from 1) and showing a bad
                                   character escaped (cr_contest_escape); "" when OK */
} cr_verdict;

/* Checks line[0..len) for coins[0..n): legal, complete and optimal at every
 * move, reporting the first bad turn.  O(n log n) time, O(n) memory (16n
 * bytes; 32n when the sum of |coin| reaches 2^61).  Returns 0 with the
 * verdict in *out, or CR_EINVAL / CR_ENOMEM. */
int cr_moves_verify(cr_verdict *out, const int64_t *coins, size_t n, cr_variant variant,
                    const char *line, size_t len, cr_error *err);

typedef struct cr_scores {
    int64_t first, second;
} cr_scores;

/* Plays line[0..len) (exactly n legal moves) on coins[0..n) and returns both
 * players' scores under the variant's scoring.  CR_EINVAL naming the turn for
 * an illegal or incomplete line; CR_EOVERFLOW when a score leaves int64. */
int cr_moves_replay(cr_scores *out, const int64_t *coins, size_t n, cr_variant variant,
                    const char *line, size_t len, cr_error *err);

#endif

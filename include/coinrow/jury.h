/* coinrow — the online jury of the interactive game.
 *
 * The contestant is the first player and the jury the second (or the other
 * way round, cr_jury_policy's jury_first); they move in turn, one end ('L'
 * or 'R') at a time, until the row is empty.  The jury answers any position
 * the contestant leaves, as it comes, without an O(n^2) table: it computes
 * the optimal moves of the next turns by phases, as the canonical line
 * does (docs/design.md, "The online jury"), O(sqrt n log n) amortised a
 * turn, O(n) memory.  It records the line played, and judges the
 * contestant's turns of it when the game is over.
 *
 * A move is optimal as cr_moves_verify says (the best lead the mover can
 * guarantee), except under the winner variant, where a move is optimal when
 * it keeps the best outcome (win, draw or loss) the mover can still reach. */
#ifndef CR_JURY_H
#define CR_JURY_H

#include <stddef.h>
#include <stdint.h>

#include "coinrow/error.h"
#include "coinrow/game.h"
#include "coinrow/moves.h"

/* How the jury picks its own moves, and which player it is.  seed 0:
 * always optimal, L when both ends are (a jury that plays both sides so
 * plays the canonical line).
 * Otherwise the seed drives deviations, so that the line cannot be known in
 * advance: on each of its turns, with probability one half, the jury plays
 * the worse end when one end is worse (by lead), and R when both are
 * optimal; the other turns are optimal.  The same seed and the same
 * contestant moves give the same jury moves on every machine. */
typedef struct cr_jury_policy {
    uint64_t seed;
    int jury_first; /* the jury is the first player and the contestant the second (0: the game's own order):
                       an optimal jury that moves first is an optimal player for a contestant's side */
} cr_jury_policy;

typedef struct cr_jury cr_jury;

/* A jury for coins[0..n) (n >= 1) under the variant; the coins must outlive
 * it.  *out is freed with cr_jury_free.  CR_EINVAL for bad arguments,
 * CR_ENOMEM (saying how many MiB it needs) when its memory cannot be had. */
int cr_jury_new(cr_jury **out, const int64_t *coins, size_t n, cr_variant variant, cr_jury_policy policy,
                cr_error *err);

/* The most cr_jury_new allocates for n coins, by arithmetic alone (about
 * 69n bytes: the canonical line's, with a second bit plane); SIZE_MAX beyond CR_N_MAX. */
size_t cr_jury_bytes(size_t n);

/* How many moves have been played (0..n); the turn to come is the
 * contestant's when it is even (odd with jury_first). */
size_t cr_jury_turn(const cr_jury *jury);

/* The line played so far: cr_jury_turn(jury) letters, NUL-terminated; it
 * lives as long as the jury. */
const char *cr_jury_line(const cr_jury *jury);

/* Plays the contestant's move ('L' or 'R').  CR_EINVAL, saying why, when it
 * is not the contestant's turn, the row is empty, or the move is not L or R
 * (shown escaped); nothing is played then. */
int cr_jury_play(cr_jury *jury, char move, cr_error *err);

/* Picks the jury's move at its turn by the policy, plays it and writes it
 * into *out ('L' or 'R').  CR_EINVAL when it is not the jury's turn or the
 * row is empty. */
int cr_jury_move(char *out, cr_jury *jury, cr_error *err);

/* Judges the contestant's turns of the line played (which must be complete:
 * n moves) into *out: CR_LINE_OK, or CR_LINE_SUBOPTIMAL naming its first bad
 * turn and what it lost.  The jury's own turns are not judged.  O(n log n).
 * CR_EINVAL when the game is not over, CR_ENOMEM. */
int cr_jury_judge(cr_verdict *out, cr_jury *jury, cr_error *err);

/* Frees the jury; accepts NULL. */
void cr_jury_free(cr_jury *jury);

#endif

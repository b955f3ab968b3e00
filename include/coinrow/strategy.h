/* coinrow — built-in strategies: simple rules a contestant might play by
 * instead of optimal play, for judging a test set's strength.
 *
 * Both players move by the same rule.  A rule looks at the row the mover
 * faces in the variant's own game: for total, diff and winner a move takes
 * the coin's value; for remaining it scores the coins left after it, which
 * is the standard game on the negated coins (docs/design.md), so there the
 * rules look at the negated coins (greedy then takes the smaller end: the
 * move that scores most now).  Ties go to the left end. */
#ifndef CR_STRATEGY_H
#define CR_STRATEGY_H

#include <stddef.h>
#include <stdint.h>

#include "coinrow/error.h"
#include "coinrow/game.h"

typedef enum cr_strategy {
    CR_STRATEGY_GREEDY,     /* the larger end */
    CR_STRATEGY_LEFT,       /* always the left end */
    CR_STRATEGY_PARITY,     /* facing an even number of coins: the end whose class (the coins at the
                               row's even or odd positions, counted from that end) adds up to more;
                               facing an odd number: greedy */
    CR_STRATEGY_LOOKAHEAD2, /* two plies: the end that maximises the coin minus the larger end the
                               opponent is left with */
    CR_STRATEGY_COUNT
} cr_strategy;

/* "greedy", "left", "parity", "lookahead2"; NULL when out of range. */
const char *cr_strategy_name(cr_strategy s);

/* Parses a strategy's name; CR_EINVAL naming the text otherwise. */
int cr_strategy_parse(cr_strategy *out, const char *name, cr_error *err);

/* Plays coins[0..n) (n >= 1) with both players moving by `strategy`:
 * writes the line of play into line (n letters L/R and a NUL, so n + 1
 * bytes) and the variant's value along that line into *out (the first
 * player's score for total, the difference of the scores for diff and
 * remaining, its sign for winner).  Returns 0; CR_EOVERFLOW when the value
 * does not fit in int64 (the line is written all the same); CR_EINVAL for
 * bad arguments.  O(n) time, no memory. */
int cr_strategy_play(int64_t *out, char *line, const int64_t *coins, size_t n, cr_variant variant,
                     cr_strategy strategy, cr_error *err);

/* A strategy playing one side of a game move by move, whatever the other
 * side plays (invoke --interactive --builtin): the rule's move in the row
 * it faces now, and every move taken, by either side.  The coins must
 * outlive it. */
typedef struct cr_strategy_player cr_strategy_player;

/* A player on coins[0..n) (n >= 1); free it with cr_strategy_player_free.
 * CR_EINVAL for bad arguments, CR_ENOMEM. */
int cr_strategy_player_new(cr_strategy_player **out, const int64_t *coins, size_t n, cr_variant variant,
                           cr_strategy strategy, cr_error *err);

/* The rule's move ('L' or 'R') in the row as it stands, which must not be
 * empty.  O(1). */
char cr_strategy_player_move(const cr_strategy_player *p);

/* The move taken (by either side): CR_EINVAL, and nothing taken, when it
 * is not L or R or the row is empty. */
int cr_strategy_player_take(cr_strategy_player *p, char move, cr_error *err);

/* Accepts NULL. */
void cr_strategy_player_free(cr_strategy_player *p);

#endif

/* coinrow — solving an instance: values, scores, winner and a line of play. */
#ifndef CR_SOLVE_H
#define CR_SOLVE_H

#include <stddef.h>
#include <stdint.h>

#include "coinrow/error.h"
#include "coinrow/game.h"

/* Reusable workspace.  One solver serves one thread at a time; solvers share
 * nothing, so threads may each use their own at once. */
typedef struct cr_solver cr_solver;

/* Creates a solver in *out; free it with cr_solver_free. */
int cr_solver_new(cr_solver **out, cr_error *err);

/* Frees a solver and every line it handed out; accepts NULL. */
void cr_solver_free(cr_solver *solver);

/* Caps the memory a canonical line may take at `bytes` (0, the default: no
 * cap; a batch job passes the machine's physical memory).  A row whose line
 * needs more (cr_moves_canonical_bytes) is refused by arithmetic before
 * anything is allocated, with the message a failed allocation gives. */
void cr_solver_limit(cr_solver *solver, size_t bytes);

typedef struct cr_solve_opts {
    unsigned variants; /* mask of CR_VARIANT_BIT()s, at least one */
    cr_algo algo;      /* how the value is computed */
    cr_moves moves;    /* which line is reported */
} cr_solve_opts;

/* The figures of a result, as bits of cr_result.missing. */
enum {
    CR_FIGURE_VALUE = 1,
    CR_FIGURE_FIRST_SCORE = 2,
    CR_FIGURE_SECOND_SCORE = 4,
    CR_FIGURE_WINNER = 8,
    CR_FIGURES_ALL = 15
};

/* Every figure is computed in 128 bits and reported on its own: one that
 * does not fit in int64 is missing (its bit set in `missing`, the field 0),
 * the others are still given.  So a variant's value is given whenever it
 * fits, even when a player's score does not, and the winner (a sign) is
 * given for any values.  `error` then has code CR_EOVERFLOW and names each
 * missing figure with its exact value:
 *   "the diff first_score (18446744073709551614) does not fit in int64"
 *   "the total value (...) and first_score (...) do not fit in int64"
 * When the variant could not be solved at all (CR_ETOOBIG, CR_ENOMEM), every
 * figure is missing (CR_FIGURES_ALL), moves is NULL and `error` says why. */
typedef struct cr_result {
    cr_variant variant;
    cr_algo algo;         /* the algorithm that ran (never CR_ALGO_AUTO) */
    int64_t value;        /* the variant's answer */
    int64_t first_score;  /* scores under the variant's scoring, along the */
    int64_t second_score; /* reported line (the fast line when moves is none) */
    int winner;           /* 1 first, -1 second, 0 draw, under that scoring */
    const char *moves;    /* n chars 'L'/'R' + NUL, owned by the solver and valid
                             until its next cr_solve; NULL with CR_MOVES_NONE */
    unsigned missing;     /* CR_FIGURE_* bits of the figures not given; 0 when all are */
    cr_error error;       /* code 0 exactly when missing is 0; otherwise why not */
} cr_result;

/* Solves coins[0..n) for every variant in opts->variants, filling
 * out[variant] for each of them (other entries are left alone).  Work is
 * shared: total, diff and winner come from one solution of the standard game.
 *
 * Returns 0 when every requested variant's value is given (a score may still
 * be missing: see cr_result).  Otherwise returns the first variant without a
 * value's code with its message in err: CR_EOVERFLOW, CR_ETOOBIG or
 * CR_ENOMEM, the same as out[variant].error, while the other variants are
 * still solved; a failure of the row itself (more than CR_N_MAX coins, no
 * memory to solve it) is in every requested variant; or CR_EINVAL for bad
 * arguments (n == 0, no variant, NULL coins), with nothing filled. */
int cr_solve(cr_result out[CR_VARIANT_COUNT], cr_solver *solver, const int64_t *coins, size_t n,
             const cr_solve_opts *opts, cr_error *err);

#endif

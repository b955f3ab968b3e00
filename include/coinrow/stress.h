/* coinrow — cross-checking solvers against each other, and shrinking a row
 * on which they disagree to a small one that still shows it. */
#ifndef CR_STRESS_H
#define CR_STRESS_H

#include <stddef.h>
#include <stdint.h>

#include "coinrow/error.h"
#include "coinrow/gen.h"
#include "coinrow/solve.h"

/* A solver under test: cr_solve's contract, with its own context. */
typedef int (*cr_solve_fn)(cr_result out[CR_VARIANT_COUNT], void *ctx, const int64_t *coins, size_t n,
                           const cr_solve_opts *opts, cr_error *err);

typedef struct cr_contender {
    const char *name; /* in messages: "linear" */
    cr_solve_fn solve;
    void *ctx;
    cr_algo algo;     /* what opts->algo is set to when it is called */
} cr_contender;

/* Wraps the core's own algorithm as a contender; ctx must be a cr_solver. */
int cr_stress_builtin(cr_result out[CR_VARIANT_COUNT], void *ctx, const int64_t *coins, size_t n,
                      const cr_solve_opts *opts, cr_error *err);

typedef struct cr_disagreement {
    int found;                  /* 0: every contender agreed and every line passed */
    cr_variant variant;         /* where it was found */
    size_t first, second;       /* the contenders involved (equal for a bad line) */
    char what[CR_ERROR_MSG_MAX];
} cr_disagreement;

/* Solves coins[0..n) with every contender for the variants in mask with the
 * moves policy, and checks that they agree on every value, winner, error and
 * (for total, diff and winner) score, and that every line passes the
 * verifier and replays to the reported scores.  The first failure goes to
 * *out.  Returns 0, or a code when the check itself could not run (memory). */
int cr_stress_check(cr_disagreement *out, const cr_contender *contenders, size_t count, const int64_t *coins,
                    size_t n, unsigned variants, cr_moves moves, cr_error *err);

/* Shrinks coins[0..*n) in place while the check still fails: drops coins,
 * then moves values towards zero, until no single step keeps the failure.
 * *out describes the failure on the shrunk row. */
int cr_stress_shrink(cr_disagreement *out, int64_t *coins, size_t *n, const cr_contender *contenders,
                     size_t count, unsigned variants, cr_moves moves, cr_error *err);

typedef struct cr_stress_report {
    uint64_t agreed;         /* instances on which every contender agreed */
    cr_disagreement found;   /* found.found: a failure was found */
    uint64_t index;          /* the failing instance of the spec */
    size_t original_n;       /* its size before shrinking */
    int64_t *coins;          /* the shrunk row, owned by the report */
    size_t n;
} cr_stress_report;

/* Generates the spec's instances in order and cross-checks each; at the
 * first failure shrinks it and stops.  Fill *out; free it with
 * cr_stress_report_free.  Returns 0 (failure or not), or a code when the
 * spec is impossible or the check itself cannot run. */
int cr_stress_run(cr_stress_report *out, const cr_contender *contenders, size_t count, const cr_gen_spec *spec,
                  unsigned variants, cr_moves moves, cr_error *err);

/* Frees the report's row; accepts NULL. */
void cr_stress_report_free(cr_stress_report *report);

#endif

/* coinrow — comparing two solutions of the same instance and variant, as
 * two runs (two solver versions, algorithms or move policies) stored them. */
#ifndef CR_COMPARE_H
#define CR_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "coinrow/error.h"
#include "coinrow/game.h"

typedef enum cr_category {
    CR_SAME,       /* the same figures and the same line (or both failed alike) */
    CR_EQUIVALENT, /* the same figures, lines that differ but are both legal and optimal */
    CR_REGRESSION, /* figures differ, a line is illegal or not optimal, or one side failed */
    CR_MISSING,    /* one side has no result (decided by the caller, named here) */
    CR_CHANGED,    /* the instance's coins differ between the sides: not compared (caller) */
    CR_CATEGORY_COUNT
} cr_category;

/* "same", "equivalent", "regression", "missing", "changed"; NULL when out of range. */
const char *cr_category_name(cr_category c);

/* One side's stored result. */
typedef struct cr_side {
    const char *error; /* NULL when every figure is given; else why some are not */
    unsigned missing;  /* CR_FIGURE_* bits (solve.h) of the figures not given, which are unused */
    int64_t value, first_score, second_score;
    int winner;
    const char *moves; /* NULL when the run kept no line */
} cr_side;

typedef struct cr_difference {
    cr_category category;
    size_t parted_at;           /* the first turn where the lines differ; n when they do not */
    int wrong;                  /* which line is at fault: 0 none, 1 a's, 2 b's, 3 both */
    size_t wrong_turn;          /* the first bad turn of the (first) faulty line */
    char why[CR_ERROR_MSG_MAX]; /* in words; "" for same */
} cr_difference;

/* Compares a and b for coins[0..n) and the variant.  Identical lines are not
 * verified again (both runs vouched for them); lines that differ are, with
 * the core's verifier.  With strict_moves, lines that differ are a
 * regression even when both are optimal.  Returns 0, or CR_ENOMEM /
 * CR_EINVAL from the verifier. */
int cr_compare_sides(cr_difference *out, const int64_t *coins, size_t n, cr_variant variant, const cr_side *a,
                     const cr_side *b, int strict_moves, cr_error *err);

#endif

/* Inside the report (report/report.h): what a page shows, gathered from the
 * store first (gather.c), then written (page.c, with chart.c's SVG and
 * html.c's escaping and numbers).  Everything the page shows is in the
 * model, bounded whatever the set's size. */
#ifndef CR_REPORT_MODEL_H
#define CR_REPORT_MODEL_H

#include <stdio.h>

#include "report/report.h"
#include "util/util.h"

/* Runs listed, invocations shown (the latest), first rows of each list. */
#define CR_REPORT_RUNS 10
#define CR_REPORT_COLUMNS 20
#define CR_REPORT_ROWS 100 /* the matrix: one row per test up to this many, else as many folds */
#define CR_REPORT_REJECTED 10
#define CR_REPORT_ERRORS 5
#define CR_REPORT_DIFFERENCES 20
#define CR_REPORT_TEST_GROUPS 32 /* the set's groups of tests (subtasks) shown with their points */

/* A run with what the page says of it. */
typedef struct cr_report_run {
    cr_run run;
    cr_run_notes notes;
} cr_report_run;

/* An invocation: a column of the matrix. */
typedef struct cr_report_column {
    cr_invocation inv;             /* its argv is the column's (cr_invocation_clear) */
    cr_invocation_summary summary; /* what its verdicts add up to */
    cr_verdict_cell cells[CR_REPORT_ROWS];
    cr_times_by_n times;
    /* on a set with groups of tests: its points on each (invocation_group_points) */
    int64_t scored[CR_REPORT_TEST_GROUPS], scored_total, points_total;
    uint64_t accepted[CR_REPORT_TEST_GROUPS], judged[CR_REPORT_TEST_GROUPS];
    unsigned char passed[CR_REPORT_TEST_GROUPS];
} cr_report_column;

/* A group of tests of the set, a subtask (store/groups.c); not the folds of
 * the matrix below. */
typedef struct cr_report_test_group {
    char name[CR_STORE_GROUP_NAME_MAX + 1];
    int64_t points, tests;
    char depends[128]; /* a comma list, cut to fit; "" for none */
} cr_report_test_group;

typedef struct cr_report_model {
    const cr_report_opts *opts;
    char written_at[CR_TIME_TEXT_MAX];
    char set_name[256];
    cr_set_outline set;
    cr_histogram n;
    int has_coins;
    int64_t coin_min, coin_max;
    cr_rejected_row rejected[CR_REPORT_REJECTED];
    size_t rejected_count;

    cr_report_run runs[CR_REPORT_RUNS]; /* the latest runs of the set, newest first */
    size_t run_count;
    uint64_t runs_total;
    int has_run, has_against;
    cr_report_run run, against;
    cr_variant_stats variants[CR_VARIANT_COUNT]; /* the run's, for its variants */
    cr_result_error errors[CR_VARIANT_COUNT][CR_REPORT_ERRORS];
    size_t error_count[CR_VARIANT_COUNT];
    cr_answers_comparison comparison; /* against (a) with run (b) */
    cr_answer_difference differences[CR_REPORT_DIFFERENCES], missing[CR_REPORT_DIFFERENCES];
    size_t difference_count, missing_count;

    cr_report_test_group test_groups[CR_REPORT_TEST_GROUPS]; /* the first of the set's, in its order */
    size_t test_group_count, test_groups_total;
    cr_report_column *columns; /* the latest invocations, oldest first */
    size_t column_count;
    uint64_t invocations_total;
    /* the tests fold into groups of consecutive ids (width 1: a test a group) */
    cr_test_fold folds[CR_REPORT_ROWS];
    size_t groups;
    int64_t group_width;
    /* the built-in strategies: the columns of the latest built-in
     * invocation of each, of one variant, and the tests all of them accept */
    size_t builtins[CR_STRATEGY_COUNT], builtin_count;
    uint64_t weak;
} cr_report_model;

/* Fills m (its opts set, the rest zeroed) from store: what the run and
 * against ids name and default to is checked first, then the page's
 * figures are read on opts->jobs connections at once.  Free what it holds
 * with cr_report__model_clear. */
int cr_report__gather(cr_report_model *m, cr_store *store, cr_error *err);

/* Frees what a gathered (or half-gathered) model holds. */
void cr_report__model_clear(cr_report_model *m);

/* Writes the page of m to f (its errors are f's). */
void cr_report__page(FILE *f, const cr_report_model *m);

/* ---- SVG charts (chart.c) ---- */

/* A bar chart of a histogram: one bar per bin, its range and count in its
 * title; `what` names the values on the x axis. */
void cr_report__histogram(FILE *f, const cr_histogram *h, const char *what);

/* One horizontal bar split by shares: counts[0..count) in colours
 * classes[0..count) (CSS classes), named by labels. */
void cr_report__split(FILE *f, const uint64_t *counts, const char *const *classes, const char *const *labels,
                      int count);

/* One line per series over the bins of h (the x axis, by n): a series has
 * y[b] seconds for the bins b where has[b], drawn in its CSS class. */
typedef struct cr_report_series {
    const char *label;
    const char *css; /* the line's class */
    double y[CR_HISTOGRAM_BINS];
    int has[CR_HISTOGRAM_BINS];
} cr_report_series;

void cr_report__lines(FILE *f, const cr_histogram *h, const cr_report_series *series, size_t count);

/* Horizontal bars of times in seconds, one per label. */
void cr_report__bars(FILE *f, const char *const *labels, const double *seconds, int count);

/* ---- text (html.c) ---- */

/* s as HTML text, safe inside an element or a quoted attribute: & < > " '
 * escaped; control characters (but tab and newline), bytes that are not
 * UTF-8 and bidirectional embeddings, overrides and isolates shown as
 * U+FFFD (cr_text_char tells them). */
void cr_report__text(FILE *f, const char *s);

/* An integer with thousands grouped: "1,000,000", into out (32 bytes). */
const char *cr_report__count(char out[32], uint64_t v);

/* The same for a signed value. */
const char *cr_report__int(char out[32], int64_t v);

/* share / all as a percentage: "66.0 %" ("-" when all is 0), into out (16 bytes). */
const char *cr_report__percent(char out[16], uint64_t share, uint64_t all);

#endif

/* Exporting a stored set as a package a judging system takes as it is
 * (docs/judges.md, "Export"): the inputs in the contest format, the answers of a done
 * run, and, but for plain, the metadata, a statement, and the judge programs
 * as sources that build alone (judge/program.h).
 *
 *   kattis   problem.yaml, .timelimit, problem_statement/problem.en.tex,
 *            data/sample/NN.{in,ans}, data/secret/NN.{in,ans},
 *            input_validators/validator/validator.c,
 *            output_validators/checker/checker.c,
 *            submissions/accepted/reference.c, and when the tests catch them
 *            submissions/wrong_answer/greedy.c and
 *            submissions/time_limit_exceeded/brute_force.c; with --submissions
 *            also submissions/LABEL/invID-SOURCE  (Kattis, DOMjudge)
 *   polygon  problem.xml, tests/%02d and tests/%02d.a, files/check.cpp,
 *            files/val.cpp, files/testlib.h (and its licence), the statement
 *            (statements/english/problem.tex, statements/.pdf/english/problem.pdf),
 *            solutions/ as for kattis, tagged in problem.xml
 *   cms      task.yaml, input/inputK.txt, output/outputK.txt,
 *            check/checker.c and the built check/checker, statement/statement.pdf
 *   plain    ID.in, ID.ans (the instance's id made a safe file name)
 *
 * NN is the test's number from 1, zero-padded to the width of the count and
 * to at least 2 digits (the ids generate gives); K counts from 0. */
#ifndef CR_EXPORT_H
#define CR_EXPORT_H

#include <stdint.h>

#include "coinrow/error.h"
#include "coinrow/game.h"
#include "store/store.h"

typedef enum cr_export_format {
    CR_EXPORT_KATTIS,
    CR_EXPORT_POLYGON,
    CR_EXPORT_CMS,
    CR_EXPORT_PLAIN,
    CR_EXPORT_FORMAT_COUNT
} cr_export_format;

/* Parses "kattis", "polygon", "cms" or "plain"; CR_EINVAL naming the text. */
int cr_export_format_parse(cr_export_format *out, const char *name, cr_error *err);

typedef struct cr_export_opts {
    cr_export_format format;
    int64_t set_id;
    cr_variant variant; /* the value the answers hold */
    int lines;          /* answers carry the canonical line of play too */
    uint64_t samples;   /* the first instances are samples (kattis, polygon, cms) */
    int zip;            /* also write DIR.zip of the folder */
    int force;          /* replace an existing DIR (and DIR.zip) */
    const char *title;  /* the problem's name (NULL: the set's name) */
    const char *license, *rights_owner; /* kattis' problem.yaml (NULL: unknown, none) */
    unsigned time_limit_ms; /* 0: the reference solution's time on the slowest test (coinrow's
                               solver reading and solving it), times CR_EXPORT_TIME_FACTOR, rounded
                               up to whole seconds, at least one */
    int no_build;       /* cms: write check/checker.c only, without building check/checker */
    int submissions;    /* kattis, polygon: the sources of the set's labelled invocations too */
} cr_export_opts;

#define CR_EXPORT_TIME_FACTOR 3

/* 0 when the texts of opts can go into a package the judges' tools take:
 * the title and the rights owner are one line of UTF-8 text (no control
 * character, not blanks alone); the license is one problem.yaml knows
 * ("public domain", "cc0", "cc by", "cc by-sa", "educational", "permission")
 * and, as problemtools requires, comes with no rights owner for the public
 * domain and with one for every other.  Else CR_EINVAL naming the option. */
int cr_export_opts_check(const cr_export_opts *opts, cr_error *err);

/* Checks, before anything is computed, that a package of the set can go
 * to dir: opts pass cr_export_opts_check, and without a title the set's
 * name can be the problem's (but for plain); the set has instances, and more than opts->samples of them (but
 * for plain), and with zip no more than a zip holds (CR_ZIP_MAX_ENTRIES
 * files and folders); dir's name suits the format (kattis: lowercase
 * letters and digits, the problem's short name; polygon and cms: letters,
 * digits, '-' and '_'), its parent exists, and dir is missing or an empty
 * folder (with force: any folder that holds neither the database nor the
 * current folder); likewise DIR.zip with zip; with submissions, the sources
 * of the labelled invocations can be read.  CR_EINVAL saying what and
 * where. */
int cr_export_check(cr_store *store, const char *dir, const cr_export_opts *opts, cr_error *err);

/* Counts of what a package holds. */
typedef struct cr_export_stats {
    uint64_t tests, samples;
    unsigned time_limit_ms;    /* the package's time limit (0 for plain) */
    uint64_t submissions;      /* invocations' sources put in the package (--submissions) */
    uint64_t skipped;          /* labelled invocations left out (cr_submission_list_new) */
    char skipped_why[256];     /* why the first one was */
    uint64_t refused;          /* sources not copied: not in their invocation's folder */
    char refused_why[512];     /* which the first one was */
} cr_export_stats;

/* Checks as cr_export_check does, then writes the package of the set with
 * the answers of run run_id (one that cr_store_run_with_answers gives) into a new
 * folder beside dir, which then replaces dir (and, with zip, dir.zip is
 * written from it): on failure nothing is left.  The validator and the
 * statement take the constraints the set's generator kept, or for an
 * ingested set the n and value ranges of its data.  Refuses (CR_EINVAL,
 * naming them) instances the run could not answer (a value beyond int64), an
 * instance that breaks the constraints its generator promised, and plain ids
 * that become the same file name; for cms, without no_build, a checker that
 * cannot be built (the compiler is $CC, else cc).  Fills *out with the counts. */
int cr_export_write(cr_export_stats *out, cr_store *store, const char *dir, int64_t run_id,
                    const cr_export_opts *opts, cr_error *err);

#endif

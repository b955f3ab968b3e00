/* Inside export (export/export.h): the problem a package holds and the calls
 * that write its files, shared by export.c, which writes the tests and puts
 * the package in place, the formats' writers of their other files (each
 * format's file, format.h) and the statement's (statement.c). */
#ifndef CR_EXPORT_PACKAGE_H
#define CR_EXPORT_PACKAGE_H

#include <stdint.h>
#include <stdio.h>

#include "coinrow/contest.h"
#include "coinrow/error.h"
#include "coinrow/game.h"
#include "export/export.h"
#include "invoke/invoke.h"
#include "export/program.h"

/* A program the package holds for the judge to run on the tests, with the
 * verdict it must get there: Kattis' submissions/FOLDER/NAME, Polygon's
 * solutions/NAME tagged for the folder.  coinrow's own are written for the
 * problem; with --submissions a labelled invocation's source is copied as
 * it is. */
typedef struct cr_problem_solution {
    const char *folder;       /* accepted, wrong_answer, time_limit_exceeded, run_time_error or (a problem of
                                 groups) partially_accepted */
    const char *name;         /* its file name, unique in the package */
    cr_judge_program program; /* coinrow's own, */
    const char *source;       /* or (not NULL) the path of an invocation's source */
    cr_language lang;
} cr_problem_solution;

/* The problem, as the tests written show it. */
typedef struct cr_problem {
    const char *name;      /* the short name: the package folder's own name */
    const char *title;     /* --title, else the set's name */
    const char *set_name;
    int64_t run_id;        /* the answers' run */
    cr_variant variant;
    int lines;             /* answers carry the canonical line of play */
    int interactive;       /* the interactive game: the inputs end in the jury's seeds */
    cr_constraints limits; /* what every input promises (the generator's, or what the data spans) */
    uint64_t tests, samples;
    const char *const *sample_in, *const *sample_ans; /* each sample's files; NULL when too long to show */
    const char *const *sample_interaction; /* interactive: each sample's game, '<' the contestant reads, '>' it
                                              writes (a Kattis .interaction file); NULL when too long to show */
    const cr_problem_group *groups; /* the groups in the set's order (CR_EXPORT_GROUPS; NULL: none) */
    size_t group_count;
    const size_t *test_group; /* test k's group, an index into groups (NULL without groups) */
    const char *const *test_inputs; /* test k's input file in the package (NULL without groups) */
    const cr_problem_solution *solutions; /* coinrow's reference solution first */
    size_t solution_count;
    unsigned time_limit_ms, memory_mib;
    char uuid[40];         /* derived from the set's tests, the variant and the lines */
    const char *license, *rights_owner; /* CR_EXPORT_LICENSE; NULL when not given */
} cr_problem;

/* ---- writing the package's files (files.c) ---- */

/* Where a package's files go: the temporary folder export fills, renamed
 * into place once complete. */
typedef struct cr_package {
    const cr_export_opts *opts; /* what the package is written with */
    const char *shown;          /* the destination, as messages name it */
    char *root;                 /* the temporary folder being filled */
    char *path;                 /* root/relative, for one file at a time */
    size_t path_cap;
    char **names;               /* the names claimed (cr_export__claim): "name\0owner" in an */
    size_t names_cap, names_count; /* open-addressing hash table */
} cr_package;

/* Frees what cr_package holds (not the folder at root); accepts a zeroed one. */
void cr_export__package_free(cr_package *p);

/* Claims name for owner (say, a test's file name for the id it is made
 * of): 0, or 1 with the owner that claimed it first in *out_other (valid
 * while p is), or CR_ENOMEM. */
int cr_export__claim(cr_package *p, const char *name, const char *owner, const char **out_other);

/* The path of rel (relative to the package's root) as it is written now, in
 * a buffer valid until the next call. */
const char *cr_export__path(cr_package *p, const char *rel);

/* A new folder, or a new file for writing ("wbx": never one that exists). */
int cr_export__mkdir(cr_package *p, const char *rel, cr_error *err);
FILE *cr_export__create(cr_package *p, const char *rel, cr_error *err);

/* Closes a file made by cr_export__create; CR_EIO naming it when anything
 * written to it failed. */
int cr_export__finish(cr_package *p, FILE *f, const char *rel, cr_error *err);

/* Creates the file rel, has fill write it, and closes it: 0, or fill's
 * error or the write's. */
typedef int cr_export_fill(FILE *f, const cr_problem *pb, cr_error *err);
int cr_export__file(cr_package *p, const char *rel, cr_export_fill *fill, const cr_problem *pb, cr_error *err);

/* Writes text[0..len) to the new file rel; cr_export__text a NUL-terminated text. */
int cr_export__bytes(cr_package *p, const char *rel, const char *text, size_t len, cr_error *err);
int cr_export__text(cr_package *p, const char *rel, const char *text, cr_error *err);

/* Writes the judge program built for the problem to the new file rel. */
int cr_export__program(cr_package *p, const char *rel, cr_judge_program program, cr_convention convention,
                       const cr_problem *pb, cr_error *err);

/* Writes the solution to the new file rel: coinrow's own built for the
 * convention, or the invocation's source as it is. */
int cr_export__solution(cr_package *p, const char *rel, const cr_problem_solution *s, cr_convention convention,
                        const cr_problem *pb, cr_error *err);

/* s as a double-quoted YAML scalar; as XML attribute text. */
void cr_export__put_yaml(FILE *f, const char *s);
void cr_export__put_xml(FILE *f, const char *s);

/* 1 when path lies in the folder at dir (or is it), links followed in
 * both (files.c). */
int cr_export__lies_in(const char *path, const char *dir);

/* ---- the interactive game (game.c) ---- */

/* The seed of the jury (coinrow/jury.h) on test k (from 0) of an
 * interactive package whose first `samples` tests are samples: 0, the
 * optimal jury, on the samples and on the first secret test; k + 1, a jury
 * that deviates, on every other test. */
uint64_t cr_export__seed(uint64_t k, uint64_t samples);

/* The players coinrow exports as an interactive problem's submissions, as
 * they play in-process (judge/main/play_*.c). */
typedef enum cr_export_player {
    CR_PLAYER_REFERENCE, /* adaptive, optimal: a jury of its own that moves first, optimally */
    CR_PLAYER_GREEDY,    /* the end that scores more at once */
    CR_PLAYER_LINE       /* its turns of the canonical line of the whole row, blind to the jury's moves */
} cr_export_player;

/* Plays the game of coins[0..n) under the variant: the player against the
 * jury of the seed.  *out_accepted: 1 when the jury judges every move of
 * the player optimal; with out_line (not NULL) the line played, n letters,
 * which the caller frees.  CR_ENOMEM, or the jury's error. */
int cr_export__play(int *out_accepted, char **out_line, const int64_t *coins, size_t n, cr_variant variant,
                    uint64_t seed, cr_export_player player, cr_error *err);

/* ---- the sources of labelled invocations (submissions.c) ---- */

/* The folders of a Kattis package's submissions/, which a setter gives an
 * invocation as its label to have its source exported. */
#define CR_SUBMISSION_FOLDERS                                                                                    \
    {"accepted", "wrong_answer", "time_limit_exceeded", "run_time_error", "partially_accepted"}

/* The bytes a source's name in a package takes, with its NUL. */
#define CR_SUBMISSION_NAME_MAX 96

/* A labelled invocation's source, for a package. */
typedef struct cr_submission_source {
    const char *folder;                /* its label: one of CR_SUBMISSION_FOLDERS */
    char *path;                        /* where it is: its invocation's folder and command */
    char name[CR_SUBMISSION_NAME_MAX]; /* its file name in the package: "inv7-sol.c" */
    cr_language lang;
} cr_submission_source;

typedef struct cr_submission_list {
    cr_submission_source *v;
    size_t count;
    uint64_t skipped;      /* labelled invocations left out */
    char skipped_why[256]; /* why the first one was */
    uint64_t refused;      /* sources not copied: not in their invocation's folder */
    char refused_why[512]; /* which the first one was */
} cr_submission_list;

/* How the package's judge scores a set of groups, and so which folder a
 * labelled invocation's points fit (cr_submission_list_new). */
typedef struct cr_group_scoring {
    int alone;        /* each group alone, without dependencies, the samples apart from the groups and judged
                         first (Kattis: cr_store_invocation_points_alone); else as invoke scores it (Polygon:
                         after the groups it depends on, the samples among their groups' tests) */
    uint64_t samples; /* how many of the set's first instances are samples */
} cr_group_scoring;

/* The sources of the done invocations of set set_id for the variant that
 * are labelled with a submission folder, in invocation order, each source
 * once per folder.  Each is named "invID-NAME", NAME its own file name
 * (bytes but letters, digits, '.', '_' and '-' as '_'; a long one cut
 * before its extension), so that no two clash, nor one with coinrow's own
 * programs.  Left out, counted in skipped: a command that is not one
 * source file; an invocation whose moves policy is not `moves` (the
 * package's checker would judge another answer); one that has not judged
 * every instance the set has now (tests added since); one whose verdicts
 * do not give its folder's, as the judge reads them (`scoring`: the first
 * test that fails is WA or PE for wrong_answer, TLE for
 * time_limit_exceeded, RE or MLE for run_time_error; none fails for
 * accepted; some points and not all for partially_accepted, which only a
 * set of groups takes).  Refused, counted in refused:
 * a source that is not in its invocation's folder (an absolute path or one
 * with "..", or a link, that leads out of it): the database names both,
 * and what it names outside is not copied.  CR_EINVAL naming it when a
 * source cannot be read. */
int cr_submission_list_new(cr_submission_list *out, cr_store *store, int64_t set_id, cr_variant variant,
                           cr_check_moves moves, const cr_group_scoring *scoring, cr_error *err);

/* Frees the list; accepts a zeroed one. */
void cr_submission_list_free(cr_submission_list *list);

#endif

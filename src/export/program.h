/* coinrow — the judge programs as sources that build alone, for export.
 *
 * The build amalgamates the pieces of the programs (the core, the readers,
 * the judge runner, each program's main: scripts/amalgamate.sh) and embeds
 * them in coinrow; writing a program puts the problem's settings in front of
 * its pieces as #defines.  A C program then builds with a C compiler and
 * nothing else (gcc or clang, 64-bit): cc -O2 -o checker checker.c; a testlib
 * program (C++) with testlib.h beside it: g++ -O2 -o check check.cpp */
#ifndef CR_EXPORT_PROGRAM_H
#define CR_EXPORT_PROGRAM_H

#include <stdint.h>
#include <stdio.h>

#include "coinrow/contest.h"
#include "coinrow/error.h"
#include "coinrow/game.h"
#include "judge/judge.h"

typedef enum cr_judge_program {
    CR_JUDGE_CHECKER,         /* main/checker.c: cr_judge_check under a convention */
    CR_JUDGE_VALIDATOR,       /* main/validator.c: cr_judge_validate on standard input */
    CR_JUDGE_SOLUTION,        /* main/solution.c: the value (and the canonical line) */
    CR_JUDGE_GREEDY,          /* main/greedy.c: the greedy player's answer, a wrong one */
    CR_JUDGE_BRUTE_FORCE,     /* main/brute_force.c: right, in 2^n time */
    CR_JUDGE_TESTLIB_CHECKER, /* main/check.cpp: the checker written against testlib.h */
    CR_JUDGE_TESTLIB_VALIDATOR, /* main/val.cpp: the validator written against testlib.h */
    CR_JUDGE_INTERACTOR,      /* main/interactor.c: the jury of the interactive game (Kattis) */
    CR_JUDGE_MANAGER,         /* main/manager.c: the jury of the interactive game (CMS) */
    CR_JUDGE_PLAY_REFERENCE,  /* main/play_reference.c: plays the game adaptively, optimally */
    CR_JUDGE_PLAY_GREEDY,     /* main/play_greedy.c: plays the larger end (wrong) */
    CR_JUDGE_PLAY_LINE,       /* main/play_line.c: plays the canonical line blind (wrong) */
    CR_JUDGE_PLAY_UNFLUSHED,  /* main/play_unflushed.c: never flushes (times out) */
    CR_JUDGE_PLAY_CRASH,      /* main/play_crash.c: aborts (a run-time error) */
    CR_JUDGE_TESTLIB_INTERACTOR,   /* main/interactor.cpp: the jury of the interactive game (Polygon, testlib) */
    CR_JUDGE_TESTLIB_GAME_CHECKER, /* main/check_game.cpp: Polygon's checker of it, reading the interactor's tout */
    CR_JUDGE_PROGRAM_COUNT
} cr_judge_program;

/* A group of the problem's tests, scored together (CR_EXPORT_GROUPS): a
 * validator given `--group NAME` checks a test against its constraints. */
typedef struct cr_problem_group {
    const char *name;      /* letters, digits and '_' (cr_store_group_name_ok) */
    int64_t points;        /* what its tests give when all of them pass */
    cr_constraints limits; /* what every test of it meets */
    int all_equal;         /* and its coins are all equal */
    const char *depends;   /* the groups scored before it, a comma list of names ("" for none) */
    uint64_t tests;        /* its tests in the package, */
    uint64_t samples;      /* of them samples */
} cr_problem_group;

/* What a program is built for. */
typedef struct cr_judge_settings {
    cr_convention convention; /* checker and validator: CR_TESTLIB, CR_KATTIS (or CR_CMS, checker only) */
    cr_variant variant;       /* the value asked for (a validator refuses inputs it does not fit for) */
    cr_check_moves moves;     /* whether the answer carries the line */
    cr_constraints limits;    /* validators: what the input promises */
    int interactive;          /* validators: a test of the interactive game, the jury's seed on a third line */
} cr_judge_settings;

/* The file name a program is usually given ("checker.c", "check.cpp", ...). */
const char *cr_judge_program_file(cr_judge_program program);

/* Writes the complete source of `program` built for `settings` to f.
 * Returns 0, CR_EINVAL for settings the program cannot take, or CR_EIO when
 * writing fails. */
int cr_judge_program_write(FILE *f, cr_judge_program program, const cr_judge_settings *settings, cr_error *err);

/* The same for a problem of groups[0..count) (none: count 0, the same
 * source as cr_judge_program_write's): a validator then takes `--group
 * NAME` and checks the input against that group's constraints, the
 * settings' limits without it. */
int cr_judge_program_write_grouped(FILE *f, cr_judge_program program, const cr_judge_settings *settings,
                                   const cr_problem_group *groups, size_t count, cr_error *err);

/* testlib.h and its licence (MIT), as shipped beside the testlib programs. */
extern const char cr_judge__testlib_h[];
extern const char cr_judge__testlib_license[];

#endif

/* coinrow — the judge programs as C sources that build alone, for export.
 *
 * The build makes one amalgamation per program (scripts/amalgamate.sh) and
 * embeds it in coinrow; writing a program puts the problem's settings in
 * front of it as #defines.  The result builds with a plain C compiler and
 * nothing else (gcc or clang, 64-bit): cc -O2 -o checker checker.c */
#ifndef CR_JUDGE_SOURCE_H
#define CR_JUDGE_SOURCE_H

#include <stdio.h>

#include "coinrow/contest.h"
#include "coinrow/error.h"
#include "coinrow/game.h"
#include "judge/judge.h"

typedef enum cr_judge_program {
    CR_JUDGE_CHECKER,   /* src/judge/main/checker.c: cr_judge_check */
    CR_JUDGE_VALIDATOR  /* src/judge/main/validator.c: cr_judge_validate on standard input */
} cr_judge_program;

/* What a program is built for. */
typedef struct cr_judge_settings {
    cr_convention convention; /* a validator takes CR_TESTLIB or CR_KATTIS */
    cr_variant variant;       /* the value asked for (a validator refuses inputs it does not fit for) */
    cr_check_moves moves;     /* checker: whether the answer carries the line */
    cr_constraints limits;    /* validator: what the input promises */
} cr_judge_settings;

/* Writes the complete source of `program` built for `settings` to f.
 * Returns 0, CR_EINVAL for settings the program cannot take, or CR_EIO when
 * writing fails. */
int cr_judge_source_write(FILE *f, cr_judge_program program, const cr_judge_settings *settings, cr_error *err);

#endif

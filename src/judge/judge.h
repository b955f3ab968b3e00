/* coinrow — the judge programs: validating an input file and checking a
 * contestant's answer the way a judging system runs them.
 *
 * This file and judge.c are compiled into coinrow (the validate and check
 * commands) and, unchanged, into the self-contained validator and checker
 * sources that are exported for judges (scripts/amalgamate.sh): both run the
 * same code.  They read files and print, so they are not part of the core. */
#ifndef CR_JUDGE_H
#define CR_JUDGE_H

#include <stddef.h>

#include "coinrow/contest.h"
#include "coinrow/game.h"

/* The judging systems' ways of running a validator or a checker. */
typedef enum cr_convention {
    CR_TESTLIB, /* Polygon / testlib: checker INPUT OUTPUT ANSWER, exit 0 ok, 1 wrong answer,
                   2 presentation error, 3 fail; validator on standard input, exit 0 / 3 */
    CR_KATTIS,  /* Kattis / DOMjudge: checker INPUT ANSWER FEEDBACK_DIR < OUTPUT, exit 42
                   accepted, 43 wrong; judgemessage.txt in FEEDBACK_DIR; validator exit 42 / 43 */
    CR_CMS,     /* CMS: checker INPUT ANSWER OUTPUT, prints 1.0 or 0.0 on standard output and
                   one message line on standard error */
    CR_CONVENTION_COUNT
} cr_convention;

/* "testlib", "kattis" or "cms"; NULL when out of range. */
const char *cr_judge_convention_name(cr_convention conv);

/* Exit statuses of the judge programs (besides the conventions' verdicts). */
enum {
    CR_JUDGE_TESTLIB_FAIL = 3, /* testlib: the checker or the jury is at fault */
    CR_JUDGE_KATTIS_OK = 42,
    CR_JUDGE_KATTIS_WRONG = 43,
    CR_JUDGE_ERROR = 1 /* Kattis and CMS: anything but a verdict; also an unreadable file */
};

/* Validates the input file at `path` (NULL: standard input) against limits,
 * its coins all equal when `all_equal` (cr_contest_all_equal: a group's
 * property), and checks that an answer can be given for every variant of
 * the mask `answered` (cr_contest_answerable), printing what is wrong and where on
 * standard error.  Returns the exit status: 0 valid, 3 invalid (testlib and
 * CMS); 42 valid, 43 invalid (Kattis); 1 when the file cannot be read. */
int cr_judge_validate(cr_convention conv, const cr_constraints *limits, int all_equal, unsigned answered,
                      const char *path);

/* Checks a contestant's output for `variant`.  args[0..nargs) are the
 * program's positional arguments in the convention's order (testlib: INPUT
 * OUTPUT ANSWER, more ignored; Kattis: INPUT ANSWER FEEDBACK_DIR, more
 * ignored, the output on standard input; CMS: exactly INPUT ANSWER OUTPUT).  Reports the verdict as the
 * convention wants it ("accepted", "wrong answer: ...", "presentation
 * error: ...", or "judge error: ..." when the input, the jury answer or the
 * arguments are at fault) and returns the exit status. */
int cr_judge_check(cr_convention conv, cr_variant variant, cr_check_moves moves, int nargs, char *const *args);

/* What cr_judge_check does once it has the three files, from memory: reads
 * input[0..input_len) as an input file (input_name names it in messages)
 * and judges the contestant's output against the jury's answer
 * (cr_contest_check).  Returns 0 with the judgement in *out, or why the
 * check itself failed (the input, the jury answer), as cr_contest_check. */
int cr_judge_answer(cr_judgement *out, const char *input, size_t input_len, const char *input_name, const char *jury,
                    size_t jury_len, const char *output, size_t output_len, cr_variant variant, cr_check_moves moves,
                    cr_error *err);

/* A judge's message: at most CR_JUDGE_TEXT_MAX bytes of text, each shown
 * as at most 4 once it is made safe (cr_contest_escape), with its NUL. */
#define CR_JUDGE_TEXT_MAX (CR_ERROR_MSG_MAX + 64)
#define CR_JUDGE_MESSAGE_MAX (4 * CR_JUDGE_TEXT_MAX)

/* The message a checker reports for the outcome of cr_judge_answer (rc and
 * err) into out, as one line of printable ASCII whatever bytes the files
 * held: "accepted", "wrong answer: ...", "presentation error: ..." or, when
 * rc is not 0, "judge error: ...". */
void cr_judge_message(char out[CR_JUDGE_MESSAGE_MAX], int rc, const cr_judgement *verdict, const cr_error *err);

#endif

/* coinrow — the judge programs: validating an input file, checking a
 * contestant's answer the way a judging system runs them, and playing the
 * interactive game with a contestant as its jury.
 *
 * This file, judge.c and dialogue.c are compiled into coinrow (the
 * validate and check commands, invoke --interactive) and, unchanged, into
 * the self-contained validator, checker and interactor sources that are
 * exported for judges (scripts/amalgamate.sh): both run the same code.  They read files and print, so they are not part of the core. */
#ifndef CR_JUDGE_H
#define CR_JUDGE_H

#include <stddef.h>
#include <stdint.h>

#include "coinrow/contest.h"
#include "coinrow/error.h"
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

/* The checks of an input file, the file at `path` (NULL: standard input):
 * read whole and parsed strictly against limits, with the jury's seed on a
 * third line when `seeded` (a test of the interactive game:
 * cr_contest_game_parse), its coins all equal when `all_equal`
 * (cr_contest_all_equal: a group's property), and an answer that can be
 * given for every variant of the mask `answered` (cr_contest_answerable).
 * Returns 0, or a code with err saying what is wrong: CR_EIO or CR_ENOMEM
 * when the file cannot be read, another when it is invalid. */
int cr_judge_input_check(const cr_constraints *limits, int all_equal, int seeded, unsigned answered, const char *path,
                         cr_error *err);

/* cr_judge_input_check, printing what is wrong and where on standard
 * error.  Returns the exit status: 0 valid, 3 invalid (testlib and CMS);
 * 42 valid, 43 invalid (Kattis); 1 when the file cannot be read. */
int cr_judge_validate(cr_convention conv, const cr_constraints *limits, int all_equal, int seeded, unsigned answered,
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

/* Reports the outcome of a check or a game (rc and err as for
 * cr_judge_message) as CMS reads a checker's or a manager's: 1.0 or 0.0 on
 * standard output (nothing when rc is not 0), and on standard error
 * "translate:success" or cr_judge_message's line.  Returns the exit
 * status: 0, or CR_JUDGE_ERROR when rc is not 0 (CMS then fails the
 * evaluation rather than score it). */
int cr_judge_report_cms(int rc, const cr_judgement *verdict, const cr_error *err);

/* ---- the interactive game on the jury's side of the pipes (dialogue.c):
 * the protocol, the moves given to the core's jury (coinrow/jury.h) and its
 * answers, and what the contestant did wrong, named by turn.
 *
 * The protocol (docs/judges.md, "Interactive problems"): the jury writes n,
 * then the coins; the contestant is the first player; the player to move
 * writes one line, L or R; after the last coin nothing more is written,
 * and the contestant exits 0.  The jury answers each move as soon as it is
 * read.
 *
 * No I/O here: whoever runs the contestant moves the bytes (invoke's
 * runner, src/invoke/child.c; the exported interactor,
 * src/judge/main/interactor.c), writing without blocking what
 * cr_dialogue_pending gives and handing over what the contestant writes. ---- */

typedef struct cr_dialogue cr_dialogue;

/* The longest line the contestant may write (without its newline); one
 * byte more without a newline is a fault, and nothing more of it is kept. */
#define CR_DIALOGUE_LINE_MAX 16

/* A game on coins[0..n) (n >= 1) under the variant, the jury's policy by
 * seed (cr_jury_policy); row[0..row_len) is the instance in the contest
 * format, the first message, which must outlive the game, as must the
 * coins.  CR_ENOMEM as cr_jury_new.  Free with cr_dialogue_free. */
int cr_dialogue_new(cr_dialogue **out, const int64_t *coins, size_t n, cr_variant variant, uint64_t seed,
                    const char *row, size_t row_len, cr_error *err);

/* Accepts NULL. */
void cr_dialogue_free(cr_dialogue *d);

/* What is to be written to the contestant now, into *out: its length (0
 * for nothing now). */
size_t cr_dialogue_pending(const cr_dialogue *d, const char **out);

/* n bytes of what was pending were written. */
void cr_dialogue_sent(cr_dialogue *d, size_t n);

/* The contestant's input is closed (EPIPE, or POLLERR before a write), with
 * `unread` bytes of the jury's still in the pipe (FIONREAD): nothing more
 * goes there, and what was pending or unread is lost, which makes its next
 * move one on the jury's turn.  (A contestant that read the jury's last
 * move, wrote its own and exited loses nothing.) */
void cr_dialogue_closed(cr_dialogue *d, size_t unread);

/* Whether nothing more will be written: everything sent and the game over
 * (or the contestant faulted, or its input closed). */
int cr_dialogue_done_writing(const cr_dialogue *d);

/* bytes[0..len) the contestant wrote, taken line by line: each move played,
 * the jury's answer made pending.  unread: the bytes of the jury's still in
 * the contestant's input pipe (FIONREAD; 0 when that cannot be known).  0,
 * or what the jury says is wrong with itself (CR_ENOMEM, CR_EINVAL: the
 * jury's fault, not the contestant's). */
int cr_dialogue_heard(cr_dialogue *d, const char *bytes, size_t len, size_t unread, cr_error *err);

/* Whether the contestant broke the protocol or the game: the game is over
 * for it, and it need not be read further. */
int cr_dialogue_faulted(const cr_dialogue *d);

/* The verdict once the contestant's output has ended (a fault, its output
 * ending mid-game, or the jury's judgement of its turns) into *out, and its
 * message into message (cap bytes).  0, or the jury's own failure. */
int cr_dialogue_judge(cr_outcome *out, char *message, size_t cap, cr_dialogue *d, cr_error *err);

/* Plays the game over two descriptors (serve.c), as the exported juries
 * do: the contestant's output read from `from`, the jury's lines written to
 * `to`, which it makes non-blocking, so that a first message larger than
 * the pipe never blocks the jury while the contestant writes.  Returns when
 * the contestant's output ends or it faults; then cr_dialogue_judge gives
 * the verdict.  Ignore SIGPIPE first: a contestant that stops reading is
 * EPIPE here.  0, or the jury's own failure (CR_EIO: a descriptor, poll;
 * cr_dialogue_heard's). */
int cr_dialogue_serve(cr_dialogue *d, int from, int to, cr_error *err);

/* The game of the test file at path (NULL: standard input): its row, then
 * the jury's seed on a third line (cr_contest_game_parse), played over
 * from and to (cr_dialogue_serve, whose SIGPIPE note holds) and judged,
 * as the exported juries do.  0 with the outcome in *out and its account
 * in out->why (said when accepted too: its moves, the jury's seed), or
 * why the jury could not judge: the test (CR_EIO, CR_EINVAL), or the
 * jury itself ("the jury: ..."). */
int cr_dialogue_play(cr_judgement *out, const char *path, cr_variant variant, int from, int to, cr_error *err);

/* Where the game stood, for a contestant that ended otherwise (killed,
 * crashed): "at turn K of N" and, when the wall clock killed it, what it
 * was waiting for ("idle: ..."), into out. */
void cr_dialogue_where(char *out, size_t cap, const cr_dialogue *d, int killed_at_wall_clock);

#endif

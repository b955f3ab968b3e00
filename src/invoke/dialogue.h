/* Private to src/invoke/: what the runner (child.c) and the verdict
 * (verdict.c) ask of a game played with a program (dialogue.c, invoke
 * --interactive).  The runner hands it the bytes the program writes, and
 * writes what it has to send; the game itself is the core's jury
 * (coinrow/jury.h).  Calls go one way: child.c and verdict.c call
 * dialogue.c. */
#ifndef CR_INVOKE_DIALOGUE_H
#define CR_INVOKE_DIALOGUE_H

#include <stddef.h>

#include "invoke/invoke.h"

/* The longest line the program may write (without its newline); one byte
 * more without a newline is a fault, and nothing more of it is kept. */
#define CR_DIALOGUE__LINE_MAX 16

/* What is to be written to the program now, into *out: its length (0 for
 * nothing now). */
size_t cr_dialogue__pending(const cr_dialogue *d, const char **out);

/* n bytes of what was pending were written. */
void cr_dialogue__sent(cr_dialogue *d, size_t n);

/* The program's standard input is closed (EPIPE, or POLLERR before a
 * write), with unread bytes of coinrow's still in the pipe (FIONREAD):
 * nothing more goes there, and what was pending or unread is lost, which
 * makes its next move one on the jury's turn.  (A program that read the
 * jury's last move, wrote its own and exited loses nothing.) */
void cr_dialogue__closed(cr_dialogue *d, size_t unread);

/* Whether nothing more will be written: everything sent and the game over
 * (or the program faulted, or its input closed). */
int cr_dialogue__done_writing(const cr_dialogue *d);

/* bytes[0..len) the program wrote, taken line by line: each move played,
 * the jury's answer made pending.  unread: the bytes of coinrow's still
 * in its standard input's pipe, not read (FIONREAD).  0, or what the jury
 * says is wrong with itself (CR_ENOMEM, CR_EINVAL: the jury's fault). */
int cr_dialogue__heard(cr_dialogue *d, const char *bytes, size_t len, size_t unread, cr_error *err);

/* Whether the program broke the protocol or the game (the game is over
 * for it: it is killed). */
int cr_dialogue__faulted(const cr_dialogue *d);

/* The verdict of a program that exited 0 (AC, WA or PE) and its message
 * into out (cap bytes): a fault, its output ending mid-game, or the
 * jury's judgement of its turns.  0, or the jury's own failure. */
int cr_dialogue__judge(cr_invoke_verdict *out, char *message, size_t cap, cr_dialogue *d, cr_error *err);

/* Where the game stood, for a program that ended otherwise: "at turn K of
 * N, its move (idle: no move came)" and the like, into out. */
void cr_dialogue__where(char *out, size_t cap, const cr_dialogue *d, int killed_at_wall_clock);

#endif

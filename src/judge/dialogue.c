/* The interactive game on the jury's side of the pipes (judge.h says
 * what and why).  "Program" below is the contestant. */
#include "judge/judge.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coinrow/jury.h"
#include "util/util.h"

struct cr_dialogue {
    cr_jury *jury;
    size_t n;
    uint64_t seed;
    const char *row; /* the first message, "n\ncoins\n" (the caller's) */
    size_t row_len, row_sent;
    char reply[2];   /* the jury's last move, "L\n", while it is not all written */
    size_t reply_len, reply_sent;
    int input_closed;                  /* its standard input is closed (EPIPE) */
    int lost;                          /* and something of coinrow's was unread then */
    char line[CR_DIALOGUE_LINE_MAX];  /* the line it is writing */
    size_t line_len;
    int faulted;
    cr_outcome fault;
    char why[CR_ERROR_MSG_MAX + 64];
};

int cr_dialogue_new(cr_dialogue **out, const int64_t *coins, size_t n, cr_variant variant, uint64_t seed,
                    const char *row, size_t row_len, cr_error *err)
{
    cr_dialogue *d = (cr_dialogue *)calloc(1, sizeof *d); /* (C++ too: Polygon's interactor) */
    *out = NULL;
    if (!d)
        return cr_errorf(err, CR_ENOMEM, "no memory for a game of %zu coins", n);
    int rc = cr_jury_new(&d->jury, coins, n, variant, (cr_jury_policy){.seed = seed}, err);
    if (rc) {
        free(d);
        return rc;
    }
    d->n = n;
    d->seed = seed;
    d->row = row;
    d->row_len = row_len;
    *out = d;
    return 0;
}

void cr_dialogue_free(cr_dialogue *d)
{
    if (!d)
        return;
    cr_jury_free(d->jury);
    free(d);
}

size_t cr_dialogue_pending(const cr_dialogue *d, const char **out)
{
    if (d->input_closed || d->faulted)
        return 0;
    if (d->row_sent < d->row_len) {
        *out = d->row + d->row_sent;
        return d->row_len - d->row_sent;
    }
    *out = d->reply + d->reply_sent;
    return d->reply_len - d->reply_sent;
}

void cr_dialogue_sent(cr_dialogue *d, size_t n)
{
    if (d->row_sent < d->row_len) {
        d->row_sent += n;
        return;
    }
    d->reply_sent += n;
    if (d->reply_sent == d->reply_len)
        d->reply_len = d->reply_sent = 0;
}

void cr_dialogue_closed(cr_dialogue *d, size_t unread)
{
    const char *rest;
    d->lost |= cr_dialogue_pending(d, &rest) > 0 || unread > 1;
    d->input_closed = 1;
}

int cr_dialogue_done_writing(const cr_dialogue *d)
{
    const char *rest;
    return d->input_closed || d->faulted ||
           (cr_jury_turn(d->jury) == d->n && cr_dialogue_pending(d, &rest) == 0);
}

int cr_dialogue_faulted(const cr_dialogue *d) { return d->faulted; }

/* The fault that ends the game for the program: verdict v, the message
 * fmt formats. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void fault(cr_dialogue *d, cr_outcome v, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->why, sizeof d->why, fmt, ap);
    va_end(ap);
    d->fault = v;
    d->faulted = 1;
}

/* What the jury's seed makes of it, after a message. */
static const char *jury_kind(const cr_dialogue *d) { return d->seed ? "deviating" : "optimal"; }

/* The program's line d->line is its move at the jury's turn: 0, or the
 * jury's own failure. */
static int move(cr_dialogue *d, size_t unread, cr_error *err)
{
    size_t turn = cr_jury_turn(d->jury); /* its turn: the jury answers at once */
    const char *rest;
    /* A program that waits for the jury's move has read all of it (but
     * for a newline a byte-wise reader may leave) before it writes its
     * own: one that writes ahead is playing on the jury's turn.  The rule
     * is deterministic for a program that never reads; one that writes
     * ahead and reads later may or may not be caught, and is then judged
     * on its moves. */
    if (turn >= 2 && (d->lost || cr_dialogue_pending(d, &rest) || unread > 1)) {
        fault(d, CR_WRONG_ANSWER, "turn %zu: a move on the jury's turn: it came before the program read the jury's move of "
                               "turn %zu%s",
              turn + 1, turn, d->lost ? " (it had closed its standard input)" : "");
        return 0;
    }
    if (d->line_len != 1 || (d->line[0] != 'L' && d->line[0] != 'R')) {
        char shown[4 * CR_DIALOGUE_LINE_MAX + 8];
        cr_contest_escape(shown, sizeof shown, d->line, d->line_len, CR_DIALOGUE_LINE_MAX);
        fault(d, CR_PRESENTATION_ERROR, "turn %zu: '%s' is not L or R", turn + 1, shown);
        return 0;
    }
    int rc = cr_jury_play(d->jury, d->line[0], err);
    if (rc == 0 && cr_jury_turn(d->jury) < d->n && (rc = cr_jury_move(&d->reply[0], d->jury, err)) == 0) {
        d->reply[1] = '\n';
        d->reply_len = 2;
        d->reply_sent = 0;
        d->lost |= d->input_closed; /* it can never read this one */
    }
    return rc;
}

int cr_dialogue_heard(cr_dialogue *d, const char *bytes, size_t len, size_t unread, cr_error *err)
{
    for (size_t k = 0; k < len && !d->faulted; k++) {
        if (cr_jury_turn(d->jury) == d->n) {
            char shown[4 * CR_DIALOGUE_LINE_MAX + 8];
            cr_contest_escape(shown, sizeof shown, bytes + k, len - k, CR_DIALOGUE_LINE_MAX);
            fault(d, CR_WRONG_ANSWER, "output after the game, which ended at turn %zu: '%s'", d->n, shown);
        } else if (bytes[k] == '\n') {
            int rc = move(d, unread, err);
            d->line_len = 0;
            if (rc)
                return rc;
        } else if (d->line_len == CR_DIALOGUE_LINE_MAX) {
            char shown[4 * CR_DIALOGUE_LINE_MAX + 8];
            cr_contest_escape(shown, sizeof shown, d->line, d->line_len, CR_DIALOGUE_LINE_MAX);
            fault(d, CR_PRESENTATION_ERROR, "turn %zu: a line longer than %d bytes: '%s...'", cr_jury_turn(d->jury) + 1,
                  CR_DIALOGUE_LINE_MAX, shown);
        } else {
            d->line[d->line_len++] = bytes[k];
        }
    }
    return 0;
}

int cr_dialogue_judge(cr_outcome *out, char *message, size_t cap, cr_dialogue *d, cr_error *err)
{
    size_t turn = cr_jury_turn(d->jury);
    if (d->faulted) {
        *out = d->fault;
        snprintf(message, cap, "%s", d->why);
        return 0;
    }
    if (d->line_len) {
        char shown[4 * CR_DIALOGUE_LINE_MAX + 8];
        cr_contest_escape(shown, sizeof shown, d->line, d->line_len, CR_DIALOGUE_LINE_MAX);
        *out = CR_PRESENTATION_ERROR;
        snprintf(message, cap, "turn %zu: its last line '%s' has no newline", turn + 1, shown);
        return 0;
    }
    if (turn < d->n) {
        *out = CR_WRONG_ANSWER;
        snprintf(message, cap, "its output ended mid-game, at turn %zu of %zu%s", turn + 1, d->n,
                 d->lost ? " (it had closed its standard input: EPIPE)" : "");
        return 0;
    }
    cr_verdict judged;
    int rc = cr_jury_judge(&judged, d->jury, err);
    if (rc)
        return rc;
    size_t mine = (d->n + 1) / 2;
    *out = judged.fault == CR_LINE_OK ? CR_ACCEPTED : CR_WRONG_ANSWER;
    if (judged.fault == CR_LINE_OK)
        snprintf(message, cap, "every one of its %zu move%s optimal (of %zu); jury seed %llu (%s)", mine,
                 mine == 1 ? "" : "s", d->n, (unsigned long long)d->seed, jury_kind(d));
    else
        snprintf(message, cap, "%s; jury seed %llu (%s)", judged.why, (unsigned long long)d->seed, jury_kind(d));
    return 0;
}

void cr_dialogue_where(char *out, size_t cap, const cr_dialogue *d, int killed_at_wall_clock)
{
    size_t turn = cr_jury_turn(d->jury);
    const char *rest;
    size_t pending = cr_dialogue_pending(d, &rest);
    if (turn == d->n) {
        snprintf(out, cap, "after the game");
        return;
    }
    int len = snprintf(out, cap, "at turn %zu of %zu", turn + 1, d->n);
    if (!killed_at_wall_clock || len < 0 || (size_t)len >= cap)
        return;
    if (pending)
        snprintf(out + len, cap - (size_t)len, " (idle: it left %zu byte%s of coinrow's unread)", pending,
                 pending == 1 ? "" : "s");
    else if (d->line_len)
        snprintf(out + len, cap - (size_t)len, " (idle: its move was begun, not ended with a newline: unflushed?)");
    else
        snprintf(out + len, cap - (size_t)len, " (idle: its move, none came: unflushed?)");
}

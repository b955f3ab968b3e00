/* The exported interactor of the interactive game (Kattis: the output
 * validator of `validation: custom interactive`; docs/judges.md,
 * "Interactive problems").  It runs as
 *   interactor INPUT JUDGE_ANSWER FEEDBACK_DIR [flags ignored]
 * with its standard input the contestant's output and its standard output
 * the contestant's input, plays the jury's side (include/coinrow/jury.h)
 * with the seed the judge answer holds (a line `seed N`), and exits 42 when
 * every move of the contestant was optimal, 43 otherwise, 1 when the test
 * itself is at fault; FEEDBACK_DIR/judgemessage.txt says why in one line.
 *
 * The protocol: the jury writes n, then the coins; the contestant is the
 * first player; the player to move writes one line, L or R; after the last
 * coin nothing more is written.  The first message may fill the pipe (10^6
 * coins are megabytes), so standard output is written without blocking,
 * reading the contestant's moves meanwhile (poll).  SIGPIPE is ignored: a
 * contestant that stops reading is seen as EPIPE.  The contestant's output
 * is read to its end before a verdict: a byte after the game is wrong.  It
 * is compiled only inside the amalgamation, above which the exporter writes
 *   #define CR_JUDGE_VARIANT CR_DIFF             (a cr_variant) */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coinrow/contest.h"
#include "coinrow/jury.h"
#include "util/util.h"

#if !defined(CR_JUDGE_VARIANT)
#error "define CR_JUDGE_VARIANT above (coinrow writes it)"
#endif

/* The longest line a move can take ("L" or "R", and a CR tolerated by none):
 * a longer one is refused as soon as it is seen, not read to its end. */
#define MOVE_LINE_MAX 16

enum { ACCEPTED = 42, WRONG = 43, JUDGE_ERROR = 1 };

typedef struct session {
    cr_jury *jury;
    size_t n;
    char *out;              /* what is still to be written to the contestant: out[at..len) */
    size_t at, len, cap;
    int stopped_reading;    /* the contestant closed its input (EPIPE) at turn stopped_at */
    size_t stopped_at;
    char line[MOVE_LINE_MAX + 1]; /* the contestant's line so far */
    size_t line_len;
    char message[CR_ERROR_MSG_MAX + 256];
} session;

/* Writes the message to FEEDBACK_DIR/judgemessage.txt and returns status. */
static int report(const char *feedback_dir, int status, const char *message)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/judgemessage.txt", feedback_dir);
    FILE *f = fopen(path, "w");
    if (f) {
        fprintf(f, "%s\n", message);
        if (fclose(f) != 0)
            status = JUDGE_ERROR;
    } else {
        status = JUDGE_ERROR;
    }
    if (status == JUDGE_ERROR) /* what the judge's log then shows */
        fprintf(stderr, "%s\n", message);
    return status;
}

/* The seed of a judge answer: its first line, "seed N" (N decimal, 64
 * bits); the rest is the exporter's comment. */
static int read_seed(uint64_t *out, const char *text, cr_error *err)
{
    if (strncmp(text, "seed ", 5) != 0 || text[5] < '0' || text[5] > '9')
        return cr_errorf(err, CR_EINVAL, "the judge answer does not start with 'seed N'");
    errno = 0;
    char *end = NULL;
    unsigned long long seed = strtoull(text + 5, &end, 10);
    if (errno || (*end != '\n' && *end != '\0'))
        return cr_errorf(err, CR_EINVAL, "the judge answer's seed is not a 64-bit number");
    *out = (uint64_t)seed;
    return 0;
}

/* Reads the file at path whole. */
static int read_file(char **out, size_t *len, const char *path, cr_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return cr_errorf(err, CR_EINVAL, "cannot open %s", path);
    int rc = cr_read_all(out, len, f, path, err);
    fclose(f);
    return rc;
}

/* Queues text[0..len) for the contestant. */
static int queue(session *g, const char *text, size_t len)
{
    if (g->stopped_reading)
        return 0;
    if (g->at == g->len)
        g->at = g->len = 0;
    if (cr_grow((void **)&g->out, &g->cap, g->len + len, 1, 256))
        return CR_ENOMEM;
    memcpy(g->out + g->len, text, len);
    g->len += len;
    return 0;
}

/* Writes what the pipe takes now of what is queued; a contestant that
 * closed its input gets nothing more. */
static void flush_some(session *g)
{
    while (g->at < g->len) {
        ssize_t wrote = write(STDOUT_FILENO, g->out + g->at, g->len - g->at);
        if (wrote > 0) {
            g->at += (size_t)wrote;
        } else if (wrote < 0 && errno == EINTR) {
            continue;
        } else {
            if (wrote < 0 && errno != EAGAIN && errno != EWOULDBLOCK) { /* EPIPE: it stopped reading */
                g->stopped_reading = 1;
                g->stopped_at = cr_jury_turn(g->jury);
                g->at = g->len = 0;
            }
            return;
        }
    }
}

/* The contestant's line, at its turn: plays it and queues the jury's answer.
 * 0, WRONG with the message, or JUDGE_ERROR. */
static int take_line(session *g)
{
    size_t turn = cr_jury_turn(g->jury);
    char shown[4 * MOVE_LINE_MAX + 8];
    cr_error err = {CR_OK, ""};
    if (g->line_len != 1 || (g->line[0] != 'L' && g->line[0] != 'R')) {
        cr_contest_escape(shown, sizeof shown, g->line, g->line_len, MOVE_LINE_MAX);
        snprintf(g->message, sizeof g->message, "wrong answer: turn %zu: expected a line L or R, got '%s'", turn + 1,
                 shown);
        return WRONG;
    }
    if (cr_jury_play(g->jury, g->line[0], &err)) {
        snprintf(g->message, sizeof g->message, "wrong answer: turn %zu: %s", turn + 1, err.msg);
        return WRONG;
    }
    g->line_len = 0;
    if (cr_jury_turn(g->jury) == g->n)
        return 0;
    char move[2] = {0, '\n'};
    if (cr_jury_move(&move[0], g->jury, &err) || queue(g, move, 2)) {
        snprintf(g->message, sizeof g->message, "judge error: the jury's move at turn %zu: %s", turn + 2,
                 err.msg[0] ? err.msg : "no memory");
        return JUDGE_ERROR;
    }
    return 0;
}

/* Takes the contestant's bytes[0..len): 0 while the game may go on, else
 * the verdict with its message. */
static int take_bytes(session *g, const char *bytes, size_t len)
{
    for (size_t k = 0; k < len; k++) {
        size_t turn = cr_jury_turn(g->jury);
        if (turn == g->n) {
            char shown[64];
            cr_contest_escape(shown, sizeof shown, bytes + k, len - k, 16);
            snprintf(g->message, sizeof g->message, "wrong answer: output after the game's %zu moves: '%s'", g->n,
                     shown);
            return WRONG;
        }
        if (bytes[k] == '\n') {
            int rc = take_line(g);
            if (rc)
                return rc;
            continue;
        }
        if (g->line_len == MOVE_LINE_MAX) {
            char shown[4 * MOVE_LINE_MAX + 8];
            cr_contest_escape(shown, sizeof shown, g->line, g->line_len, MOVE_LINE_MAX);
            snprintf(g->message, sizeof g->message, "wrong answer: turn %zu: a line longer than %d bytes, not L or "
                                                    "R: '%s'",
                     turn + 1, MOVE_LINE_MAX, shown);
            return WRONG;
        }
        g->line[g->line_len++] = bytes[k];
    }
    return 0;
}

/* The contestant's output read to its end: the verdict of the game. */
static int judge(session *g)
{
    size_t turn = cr_jury_turn(g->jury);
    if (turn < g->n) {
        int n = snprintf(g->message, sizeof g->message, "wrong answer: the output ends at turn %zu of %zu, before "
                                                        "the row is empty%s",
                         turn + 1, g->n, g->line_len ? " (in a line without its newline)" : "");
        if (g->stopped_reading && n > 0 && (size_t)n < sizeof g->message)
            snprintf(g->message + n, sizeof g->message - (size_t)n, "; it stopped reading at turn %zu",
                     g->stopped_at + 1);
        return WRONG;
    }
    cr_verdict verdict;
    cr_error err = {CR_OK, ""};
    if (cr_jury_judge(&verdict, g->jury, &err)) {
        snprintf(g->message, sizeof g->message, "judge error: %s", err.msg);
        return JUDGE_ERROR;
    }
    if (verdict.fault != CR_LINE_OK) {
        snprintf(g->message, sizeof g->message, "wrong answer: %s", verdict.why);
        return WRONG;
    }
    snprintf(g->message, sizeof g->message, "accepted: each of the contestant's %zu moves was optimal",
             (g->n + 1) / 2);
    return ACCEPTED;
}

/* Plays the game over standard input and output: the verdict. */
static int play(session *g)
{
    char bytes[4096];
    int flags = fcntl(STDOUT_FILENO, F_GETFL);
    if (flags == -1 || fcntl(STDOUT_FILENO, F_SETFL, flags | O_NONBLOCK) == -1) {
        snprintf(g->message, sizeof g->message, "judge error: cannot make standard output non-blocking: %s",
                 strerror(errno));
        return JUDGE_ERROR;
    }
    for (;;) {
        struct pollfd fds[2] = {{STDIN_FILENO, POLLIN, 0}, {STDOUT_FILENO, POLLOUT, 0}};
        nfds_t count = g->at < g->len ? 2 : 1;
        if (poll(fds, count, -1) < 0) {
            if (errno == EINTR)
                continue;
            snprintf(g->message, sizeof g->message, "judge error: poll: %s", strerror(errno));
            return JUDGE_ERROR;
        }
        if (count == 2 && fds[1].revents)
            flush_some(g);
        if (!fds[0].revents)
            continue;
        ssize_t got = read(STDIN_FILENO, bytes, sizeof bytes);
        if (got < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (got <= 0) /* its end (an error reads as one: nothing more comes) */
            return judge(g);
        int rc = take_bytes(g, bytes, (size_t)got);
        if (rc)
            return rc;
        flush_some(g); /* the jury's answer at once: the contestant waits for it */
    }
}

int main(int argc, char **argv)
{
    cr_error err = {CR_OK, ""};
    char *input = NULL, *answer = NULL, *first = NULL;
    size_t input_len = 0, answer_len = 0, first_len = 0, first_cap = 0;
    cr_contest_input in = {NULL, 0};
    cr_jury_policy policy = {0};
    session g;
    memset(&g, 0, sizeof g);
    if (argc < 4) {
        fprintf(stderr, "usage: %s INPUT JUDGE_ANSWER FEEDBACK_DIR < contestant's output > contestant's input\n",
                argv[0]);
        return JUDGE_ERROR;
    }
    signal(SIGPIPE, SIG_IGN); /* a contestant that leaves is EPIPE, not the jury's death */
    int rc = read_file(&input, &input_len, argv[1], &err);
    if (rc == 0)
        rc = cr_contest_input_parse(&in, input, input_len, NULL, &err);
    if (rc == 0)
        rc = read_file(&answer, &answer_len, argv[2], &err);
    if (rc == 0)
        rc = read_seed(&policy.seed, answer, &err);
    if (rc == 0)
        rc = cr_jury_new(&g.jury, in.coins, in.n, CR_JUDGE_VARIANT, policy, &err);
    if (rc == 0)
        rc = cr_contest_text(&first_len, &first, &first_cap, in.coins, in.n, &err);
    int status;
    if (rc) {
        snprintf(g.message, sizeof g.message, "judge error: %s", err.msg);
        status = JUDGE_ERROR;
    } else {
        g.n = in.n;
        status = queue(&g, first, first_len) ? JUDGE_ERROR : play(&g);
        if (status == JUDGE_ERROR && !g.message[0])
            snprintf(g.message, sizeof g.message, "judge error: no memory");
    }
    status = report(argv[3], status, g.message);
    cr_jury_free(g.jury);
    free(g.out);
    free(first);
    cr_contest_input_free(&in);
    free(input);
    free(answer);
    return status;
}

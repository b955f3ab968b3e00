/* The exported interactor of the interactive game (Kattis: the output
 * validator of `validation: custom interactive`; docs/judges.md,
 * "Interactive problems").  It runs as
 *   interactor INPUT JUDGE_ANSWER FEEDBACK_DIR [flags ignored]
 * with its standard input the contestant's output and its standard output
 * the contestant's input, plays the jury's side (judge.h's dialogue: the
 * same game as invoke --interactive's) with the seed the judge answer
 * holds (a line `seed N`), and exits 42 when
 * every move of the contestant was optimal, 43 otherwise, 1 when the test
 * itself is at fault; FEEDBACK_DIR/judgemessage.txt says why in one line.
 *
 * The first message may fill the pipe (10^6
 * coins are megabytes), so standard output is written without blocking,
 * reading the contestant's moves meanwhile (poll).  SIGPIPE is ignored: a
 * contestant that stops reading is seen as EPIPE.  The contestant's output
 * is read to its end before a verdict (a byte after the game is wrong),
 * or until a fault ends the game for it.  It
 * is compiled only inside the amalgamation, above which the exporter writes
 *   #define CR_JUDGE_VARIANT CR_DIFF             (a cr_variant) */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "coinrow/contest.h"
#include "judge/judge.h"
#include "util/util.h"

#if !defined(CR_JUDGE_VARIANT)
#error "define CR_JUDGE_VARIANT above (coinrow writes it)"
#endif

enum { ACCEPTED = 42, WRONG = 43, JUDGE_ERROR = 1 };

/* A verdict's line: the outcome or "judge error", and why. */
enum { MESSAGE_MAX = CR_ERROR_MSG_MAX + 128 };

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

/* The bytes of the jury's still in the contestant's input pipe, not read
 * (0 when that cannot be known). */
static size_t unread(void)
{
    int bytes = 0;
    return ioctl(STDOUT_FILENO, FIONREAD, &bytes) == 0 && bytes > 0 ? (size_t)bytes : 0;
}

/* Writes what the pipe takes now of what the jury has to say; a contestant
 * that closed its input (EPIPE) gets nothing more. */
static void flush_some(cr_dialogue *d)
{
    const char *from;
    size_t left;
    while ((left = cr_dialogue_pending(d, &from)) > 0) {
        ssize_t wrote = write(STDOUT_FILENO, from, left);
        if (wrote > 0) {
            cr_dialogue_sent(d, (size_t)wrote);
        } else if (wrote < 0 && errno == EINTR) {
            continue;
        } else {
            if (wrote < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
                cr_dialogue_closed(d, unread());
            return;
        }
    }
}

/* Plays the game over standard input and output until the contestant's
 * output ends or it faults: the exit status, with the message. */
static int play(cr_dialogue *d, char *message)
{
    char bytes[4096];
    cr_error err = {CR_OK, ""};
    int flags = fcntl(STDOUT_FILENO, F_GETFL);
    if (flags == -1 || fcntl(STDOUT_FILENO, F_SETFL, flags | O_NONBLOCK) == -1) {
        snprintf(message, MESSAGE_MAX, "judge error: cannot make standard output non-blocking: %s", strerror(errno));
        return JUDGE_ERROR;
    }
    while (!cr_dialogue_faulted(d)) {
        const char *from;
        struct pollfd fds[2] = {{STDIN_FILENO, POLLIN, 0}, {STDOUT_FILENO, POLLOUT, 0}};
        nfds_t count = cr_dialogue_pending(d, &from) ? 2 : 1;
        if (poll(fds, count, -1) < 0) {
            if (errno == EINTR)
                continue;
            snprintf(message, MESSAGE_MAX, "judge error: poll: %s", strerror(errno));
            return JUDGE_ERROR;
        }
        if (count == 2 && fds[1].revents)
            flush_some(d);
        if (!fds[0].revents)
            continue;
        ssize_t got = read(STDIN_FILENO, bytes, sizeof bytes);
        if (got < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (got <= 0) /* its end (an error reads as one: nothing more comes) */
            break;
        if (cr_dialogue_heard(d, bytes, (size_t)got, unread(), &err)) {
            snprintf(message, MESSAGE_MAX, "judge error: the jury: %s", err.msg);
            return JUDGE_ERROR;
        }
        flush_some(d); /* the jury's answer at once: the contestant waits for it */
    }
    cr_outcome outcome;
    char why[MESSAGE_MAX - 32];
    if (cr_dialogue_judge(&outcome, why, sizeof why, d, &err)) {
        snprintf(message, MESSAGE_MAX, "judge error: the jury: %s", err.msg);
        return JUDGE_ERROR;
    }
    snprintf(message, MESSAGE_MAX, "%s: %s", cr_outcome_name(outcome), why);
    return outcome == CR_ACCEPTED ? ACCEPTED : WRONG;
}

int main(int argc, char **argv)
{
    cr_error err = {CR_OK, ""};
    char *input = NULL, *answer = NULL, *first = NULL, message[MESSAGE_MAX] = "";
    size_t input_len = 0, answer_len = 0, first_len = 0, first_cap = 0;
    cr_contest_input in = {NULL, 0};
    uint64_t seed = 0;
    cr_dialogue *d = NULL;
    if (argc < 4) {
        fprintf(stderr, "usage: %s INPUT JUDGE_ANSWER FEEDBACK_DIR < contestant's output > contestant's input\n",
                argv[0]);
        return JUDGE_ERROR;
    }
    signal(SIGPIPE, SIG_IGN); /* a contestant that leaves is EPIPE, not the jury's death */
    int rc = cr_read_path(&input, &input_len, argv[1], &err);
    if (rc == 0)
        rc = cr_contest_input_parse(&in, input, input_len, NULL, &err);
    if (rc == 0)
        rc = cr_read_path(&answer, &answer_len, argv[2], &err);
    if (rc == 0)
        rc = read_seed(&seed, answer, &err);
    if (rc == 0)
        rc = cr_contest_text(&first_len, &first, &first_cap, in.coins, in.n, &err);
    if (rc == 0)
        rc = cr_dialogue_new(&d, in.coins, in.n, CR_JUDGE_VARIANT, seed, first, first_len, &err);
    int status;
    if (rc) {
        snprintf(message, sizeof message, "judge error: %s", err.msg);
        status = JUDGE_ERROR;
    } else {
        status = play(d, message);
    }
    status = report(argv[3], status, message);
    cr_dialogue_free(d);
    free(first);
    cr_contest_input_free(&in);
    free(input);
    free(answer);
    return status;
}

/* The exported juries' side of the pipes (judge.h, cr_dialogue_serve and
 * cr_dialogue_play): the game of a test file played over two descriptors,
 * the jury's lines written without blocking while the contestant's moves
 * are read (poll).  Kattis' interactor, Polygon's and CMS's manager run
 * this loop; invoke's runner has its own, which also times and limits the
 * contestant. */
#include "judge/judge.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "util/util.h"

/* The bytes of the jury's still in the pipe at fd, not read by the
 * contestant (0 when that cannot be known). */
static size_t unread(int fd)
{
    int bytes = 0;
    return ioctl(fd, FIONREAD, &bytes) == 0 && bytes > 0 ? (size_t)bytes : 0;
}

/* Writes what the pipe takes now of what the jury has to say; a contestant
 * that closed its input (EPIPE) gets nothing more. */
static void flush_some(cr_dialogue *d, int to)
{
    const char *from;
    size_t left;
    while ((left = cr_dialogue_pending(d, &from)) > 0) {
        ssize_t wrote = write(to, from, left);
        if (wrote > 0) {
            cr_dialogue_sent(d, (size_t)wrote);
        } else if (wrote < 0 && errno == EINTR) {
            continue;
        } else {
            if (wrote < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
                cr_dialogue_closed(d, unread(to));
            return;
        }
    }
}

int cr_dialogue_serve(cr_dialogue *d, int from, int to, cr_error *err)
{
    char bytes[4096];
    int flags = fcntl(to, F_GETFL);
    if (flags == -1 || fcntl(to, F_SETFL, flags | O_NONBLOCK) == -1)
        return cr_errorf(err, CR_EIO, "cannot write to the contestant without blocking: %s", strerror(errno));
    while (!cr_dialogue_faulted(d)) {
        const char *pending;
        struct pollfd fds[2] = {{from, POLLIN, 0}, {to, POLLOUT, 0}};
        nfds_t count = cr_dialogue_pending(d, &pending) ? 2 : 1;
        if (poll(fds, count, -1) < 0) {
            if (errno == EINTR)
                continue;
            return cr_errorf(err, CR_EIO, "poll: %s", strerror(errno));
        }
        if (count == 2 && fds[1].revents)
            flush_some(d, to);
        if (!fds[0].revents)
            continue;
        ssize_t got = read(from, bytes, sizeof bytes);
        if (got < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (got <= 0) /* its end (an error reads as one: nothing more comes) */
            return 0;
        int rc = cr_dialogue_heard(d, bytes, (size_t)got, unread(to), err);
        if (rc)
            return rc;
        flush_some(d, to); /* the jury's answer at once: the contestant waits for it */
    }
    return 0;
}

int cr_dialogue_play(cr_judgement *out, const char *path, cr_variant variant, int from, int to, cr_error *err)
{
    char *input = NULL, *first = NULL;
    size_t input_len = 0, first_len = 0, first_cap = 0;
    cr_contest_input in = {NULL, 0};
    uint64_t seed = 0;
    cr_dialogue *d = NULL;
    memset(out, 0, sizeof *out);
    int rc = cr_read_path(&input, &input_len, path, err);
    if (rc == 0)
        rc = cr_contest_game_parse(&in, &seed, input, input_len, NULL, err);
    if (rc == 0)
        rc = cr_contest_text(&first_len, &first, &first_cap, in.coins, in.n, err);
    if (rc == 0)
        rc = cr_dialogue_new(&d, in.coins, in.n, variant, seed, first, first_len, err);
    if (rc == 0 && ((rc = cr_dialogue_serve(d, from, to, err)) != 0 ||
                    (rc = cr_dialogue_judge(&out->outcome, out->why, sizeof out->why, d, err)) != 0)) {
        char why[CR_ERROR_MSG_MAX];
        snprintf(why, sizeof why, "%s", err->msg);
        rc = cr_errorf(err, rc, "the jury: %s", why);
    }
    cr_dialogue_free(d);
    free(first);
    cr_contest_input_free(&in);
    free(input);
    return rc;
}

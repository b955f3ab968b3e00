/* SIGINT, SIGTERM and SIGHUP: a clean stop first, then the default action.
 * A reader of our output that is gone (SIGPIPE, a lost terminal) stops the
 * job the same way. */
#include "cli/signals.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

static atomic_int stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    atomic_store(&stop_requested, 1);
}

/* SA_RESETHAND: the handler takes one signal, the next one kills.  No
 * SA_RESTART: a read waiting for input returns, so that the stop is seen.
 * SIGPIPE is ignored: a write to a closed pipe fails with EPIPE, which
 * cli_signals_check_write turns into a stop, instead of killing the job
 * between two commits with its run left 'running'. */
const atomic_int *cli_signals_catch(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    sa.sa_handler = SIG_IGN;
    sa.sa_flags = 0;
    sigaction(SIGPIPE, &sa, NULL);
    return &stop_requested;
}

int cli_signals_caught(void) { return atomic_load(&stop_requested); }

void cli_signals_check_write(int written)
{
    if (written < 0 && (errno == EPIPE || errno == EIO))
        atomic_store(&stop_requested, 1);
}

/* SIGINT and SIGTERM: a clean stop first, then the default action. */
#include "cli/signals.h"

#include <signal.h>
#include <string.h>

static atomic_int stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    atomic_store(&stop_requested, 1);
}

/* SA_RESETHAND: the handler takes one signal, the next one kills.  No
 * SA_RESTART: a read waiting for input returns, so that the stop is seen. */
const atomic_int *cli_signals_catch(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    return &stop_requested;
}

int cli_signals_caught(void) { return atomic_load(&stop_requested); }

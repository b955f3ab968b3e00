/* Stopping a batch job cleanly: SIGINT, SIGTERM and SIGHUP (a lost
 * terminal) set a flag that the readers and the pipeline watch, and so does
 * a write to standard output or error whose reader is gone (EPIPE: the
 * other end of `| head` closed; EIO: the terminal hung up).  A second
 * signal stops at once (the database stays consistent either way). */
#ifndef CR_CLI_SIGNALS_H
#define CR_CLI_SIGNALS_H

#include <stdatomic.h>

/* Installs the handlers and returns the flag they set (for the stop fields
 * of cr_source_opts and cr_pipeline_opts). */
const atomic_int *cli_signals_catch(void);

/* Whether a signal has asked for a stop. */
int cli_signals_caught(void);

/* After a write to standard output or error that returned `written`
 * (negative when it failed, errno saying why): asks for a stop when no one
 * reads what we write any more (EPIPE, EIO). */
void cli_signals_check_write(int written);

#endif

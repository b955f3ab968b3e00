/* Stopping a batch job cleanly: SIGINT and SIGTERM set a flag that the
 * readers and the pipeline watch; a second signal stops at once (the
 * database stays consistent either way). */
#ifndef CR_CLI_SIGNALS_H
#define CR_CLI_SIGNALS_H

#include <stdatomic.h>

/* Installs the handlers and returns the flag they set (for the stop fields
 * of cr_source_opts and cr_pipeline_opts). */
const atomic_int *cli_signals_catch(void);

/* Whether a signal has asked for a stop. */
int cli_signals_caught(void);

#endif

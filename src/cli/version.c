/* The version baked in at build time ("git describe", or a fallback). */
#include "cli/cli.h"
#include "version.h"

const char *cli_version(void) { return CR_VERSION; }

/* The SQLite extension under test, for the tests that load it. */
#ifndef CR_TEST_EXT_H
#define CR_TEST_EXT_H

#include <sqlite3.h>

/* The extension under test: coinrow.so beside the binary under test
 * (run_bin()), so that the sanitizer build tests its own; in a buffer
 * each call writes, so threads take it from one call before they start. */
const char *ext_path(void);

/* A fresh in-memory connection with the extension loaded through
 * sqlite3_load_extension; fails the test when it cannot be had. */
sqlite3 *ext_open(void);

/* Readies the environment for a host program (the sqlite3 shell, Python) to
 * load the extension: in the sanitizer build the extension needs the ASan
 * runtime, which the host must preload (host leaks are not ours, so leak
 * checking is off there).  Nothing in the plain build. */
void ext_host_env(void);

#endif

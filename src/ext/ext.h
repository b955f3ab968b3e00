/* coinrow inside SQLite: what the extension's files share.  The extension
 * is a layer beside the CLI, over the core and the values parser of
 * src/util/coins.h; only its files include sqlite3ext.h. */
#ifndef CR_EXT_H
#define CR_EXT_H

#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include "coinrow.h"
#include "util/util.h"

/* Reads the coins of an argument (rows.c) (JSON array or plain values text) into out
 * with the ingest parser: 0, or its error (CR_EINVAL naming the value and
 * its position, CR_ENOMEM). */
int cr_ext__coins(cr_coins *out, sqlite3_value *arg, cr_error *err);

/* The text of an argument that names something (`what`: "the variant", "the
 * moves policy") into *out: CR_EINVAL when it holds a NUL byte, which C
 * would read as its end ('diff' || char(0) || 'xyz' as diff). */
int cr_ext__name(const char **out, sqlite3_value *arg, const char *what, cr_error *err);

/* cr_solve (rows.c) of coins for the variants with line policy `policy` and the
 * automatic algorithm.  A canonical line whose memory is more than SQLite's
 * hard heap limit (PRAGMA hard_heap_limit) is refused before anything is
 * allocated: CR_ENOMEM saying what it needs. */
int cr_ext__solve(cr_result out[CR_VARIANT_COUNT], cr_solver *solver, const cr_coins *coins, unsigned variants,
                  cr_moves policy, cr_error *err);

/* Registers the table-valued function coinrow_solve on db (solve_vtab.c). */
int cr_ext__solve_register(sqlite3 *db);

#endif

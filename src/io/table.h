/* Reading instances from a table (or view) of another SQLite database. */
#ifndef CR_IO_TABLE_H
#define CR_IO_TABLE_H

#include "io/source.h"

/* Reads every row of `table` in the database at db_path (opened read-only)
 * and calls fn for each, as cr_source_read does; rows are named
 * "DB_PATH:TABLE" and numbered from 1 in the table's order.  The id column is
 * opts->id_col or "id" (else the row number), the values column
 * opts->values_col or values/coins/piles/stones; its cells are text as for
 * CSV, or single integers.  The table and column names are matched against
 * the database's own (any case) and quoted, so no name the user gives is
 * ever run as SQL.  Errors name the database: CR_EIO (cannot open it),
 * CR_EINVAL (no such table or column, listing those there are). */
int cr_table_read(const char *db_path, const char *table, const cr_source_opts *opts, cr_row_fn fn, void *ctx,
                  cr_error *err);

#endif

/* Instances from a table of another SQLite database (--from-db): besides
 * the store, the one file that talks to SQLite. */
#include "source/source.h"

#include <sqlite3.h>
#include <string.h>

#include "util/util.h"
#include "source/readers.h"

/* The names of the database's tables and views, or of a table's columns,
 * for messages ("a, b, c"). */
static void list_names(char *out, size_t cap, sqlite3 *db, const char *table)
{
    sqlite3_stmt *st = NULL;
    out[0] = '\0';
    const char *sql = table ? "SELECT group_concat(name, ', ') FROM pragma_table_info(?1)"
                            : "SELECT group_concat(name, ', ') FROM (SELECT name FROM sqlite_master "
                              "WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite!_%' ESCAPE '!' ORDER BY name)";
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
        if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
            snprintf(out, cap, "%s", (const char *)sqlite3_column_text(st, 0));
    }
    sqlite3_finalize(st);
    if (!out[0])
        snprintf(out, cap, "none");
}

/* The database's own spelling of a table, or of one of its columns (with
 * `want` NULL: the first default values column); NULL when there is none.
 * Free with sqlite3_free. */
static char *real_name(sqlite3 *db, const char *table, const char *want)
{
    sqlite3_stmt *st = NULL;
    char *found = NULL;
    const char *sql = table ? "SELECT name FROM pragma_table_info(?1)"
                            : "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')";
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        return NULL;
    sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
    while (!found && sqlite3_step(st) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(st, 0);
        size_t len = strlen(name);
        if (want ? sqlite3_stricmp(name, want) == 0 : cr_source__is_values_name(name, len))
            found = sqlite3_mprintf("%s", name);
    }
    sqlite3_finalize(st);
    return found;
}

int cr_source_table_read(const char *db_path, const char *table, const cr_source_opts *opts, cr_row_fn fn, void *ctx,
                         cr_error *err)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    char *name = NULL, *id_col = NULL, *values_col = NULL, *sql = NULL, *source = NULL, names[256];
    cr_coins coins = {0};
    int rc = 0;
    if (sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
        sqlite3_exec(db, "SELECT 1 FROM sqlite_master LIMIT 1", NULL, NULL, NULL) != SQLITE_OK) {
        rc = cr_errorf(err, CR_EIO, "cannot read the database %s: %s", db_path,
                       db ? sqlite3_errmsg(db) : "out of memory");
        goto done;
    }
    if (!(name = real_name(db, NULL, table))) {
        list_names(names, sizeof names, db, NULL);
        rc = cr_errorf(err, CR_EINVAL, "%s has no table '%s' (tables: %s)", db_path, table, names);
        goto done;
    }
    id_col = real_name(db, name, opts->id_col ? opts->id_col : "id");
    values_col = real_name(db, name, opts->values_col);
    if ((opts->id_col && !id_col) || !values_col) {
        list_names(names, sizeof names, db, name);
        rc = cr_errorf(err, CR_EINVAL, "%s: table %s has no %s column '%s' (columns: %s)", db_path, name,
                       values_col ? "id" : "values", values_col ? opts->id_col
                       : opts->values_col ? opts->values_col : "values, coins, piles or stones", names);
        goto done;
    }
    /* %w doubles the quotes inside an identifier: the names stay names */
    sql = id_col ? sqlite3_mprintf("SELECT \"%w\", \"%w\" FROM \"%w\"", id_col, values_col, name)
                 : sqlite3_mprintf("SELECT NULL, \"%w\" FROM \"%w\"", values_col, name);
    source = sqlite3_mprintf("%s:%s", db_path, name);
    if (!sql || !source) {
        rc = cr_errorf(err, CR_ENOMEM, "no memory to read %s", db_path);
        goto done;
    }
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
        rc = cr_errorf(err, CR_EIO, "cannot read %s: %s", source, sqlite3_errmsg(db));
        goto done;
    }
    for (uint64_t number = 1;; number++) {
        int step = sqlite3_step(st);
        if (step == SQLITE_DONE)
            break;
        if (step != SQLITE_ROW) {
            rc = cr_errorf(err, CR_EIO, "cannot read %s row %llu: %s", source, (unsigned long long)number,
                           sqlite3_errmsg(db));
            break;
        }
        char numbered[24], why[64];
        cr_error bad = {0};
        const char *values = (const char *)sqlite3_column_text(st, 1);
        size_t values_len = (size_t)sqlite3_column_bytes(st, 1);
        cr_row row = {.source = source, .line = number, .raw = values ? values : "", .raw_len = values_len};
        if (id_col) {
            row.ext_id = (const char *)sqlite3_column_text(st, 0);
            row.ext_id_len = (size_t)sqlite3_column_bytes(st, 0);
        } else {
            row.ext_id = numbered;
            row.ext_id_len = (size_t)snprintf(numbered, sizeof numbered, "%llu", (unsigned long long)number);
        }
        const char *nul = row.ext_id ? memchr(row.ext_id, '\0', row.ext_id_len) : NULL;
        if (!row.ext_id || row.ext_id_len == 0 || nul) {
            /* an id with a NUL would show cut short: it is not named */
            if (nul)
                snprintf(why, sizeof why, "the id has a NUL byte at character %zu", (size_t)(nul - row.ext_id) + 1);
            row.reason = nul ? why : "the id is empty";
            row.ext_id = NULL;
        } else if (!values)
            row.reason = "the values are NULL";
        else if ((rc = cr_coins_parse(&coins, values, values_len, &bad)) != 0) {
            /* memory running out is the reading's failure, not the row's fault */
            if (rc == CR_ENOMEM) {
                rc = cr_errorf(err, CR_ENOMEM, "%s row %llu: %s", source, (unsigned long long)number, bad.msg);
                break;
            }
            row.reason = bad.msg;
        } else
            row.coins = coins.v, row.n = coins.n, row.coins_json = coins.json, row.coins_json_len = coins.json_len;
        if ((rc = fn(ctx, &row)) != 0)
            break;
    }
done:
    sqlite3_finalize(st);
    sqlite3_free(sql);
    sqlite3_free(source);
    sqlite3_free(name);
    sqlite3_free(id_col);
    sqlite3_free(values_col);
    sqlite3_close(db);
    cr_coins_free(&coins);
    return rc;
}

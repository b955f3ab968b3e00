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

/* What the reading of a table holds: its database, and the table's and
 * columns' own spellings (id_col NULL: rows are numbered). */
typedef struct table {
    sqlite3 *db;
    char *name, *id_col, *values_col;
} table;

/* Opens db_path read-only and finds the table and its columns in it: 0, or
 * an error naming what is missing and listing what is there. */
static int open_table(table *t, const char *db_path, const char *name, const cr_source_opts *opts, cr_error *err)
{
    char names[256];
    if (cr_db_open(&t->db, db_path, SQLITE_OPEN_READONLY) != SQLITE_OK ||
        sqlite3_exec(t->db, "SELECT 1 FROM sqlite_master LIMIT 1", NULL, NULL, NULL) != SQLITE_OK)
        return cr_errorf(err, CR_EIO, "cannot read the database %s: %s", db_path,
                         t->db ? sqlite3_errmsg(t->db) : "out of memory");
    if (!(t->name = real_name(t->db, NULL, name))) {
        list_names(names, sizeof names, t->db, NULL);
        return cr_errorf(err, CR_EINVAL, "%s has no table '%s' (tables: %s)", db_path, name, names);
    }
    /* a view SQLite cannot compute (one that calls a function the
     * connection does not trust) has no columns to list: say why */
    char *probe = sqlite3_mprintf("SELECT * FROM \"%w\" LIMIT 0", t->name);
    sqlite3_stmt *st = NULL;
    int readable = probe && sqlite3_prepare_v2(t->db, probe, -1, &st, NULL) == SQLITE_OK;
    sqlite3_finalize(st);
    sqlite3_free(probe);
    if (!readable)
        return cr_errorf(err, CR_EIO, "cannot read %s:%s: %s", db_path, t->name, sqlite3_errmsg(t->db));
    t->id_col = real_name(t->db, t->name, opts->id_col ? opts->id_col : "id");
    t->values_col = real_name(t->db, t->name, opts->values_col);
    if ((opts->id_col && !t->id_col) || !t->values_col) {
        list_names(names, sizeof names, t->db, t->name);
        return cr_errorf(err, CR_EINVAL, "%s: table %s has no %s column '%s' (columns: %s)", db_path, t->name,
                         t->values_col ? "id" : "values", t->values_col ? opts->id_col
                         : opts->values_col ? opts->values_col : "values, coins, piles or stones", names);
    }
    return 0;
}

/* SQLite's progress handler: a stop asked for (a signal) interrupts the
 * statement under way, such as a view that runs long before its first row
 * or never yields one. */
static int stop_asked(void *stop) { return atomic_load((const atomic_int *)stop) != 0; }

/* The room a row's id and reasons are written in while it is handed on. */
typedef struct row_text {
    char numbered[24], why[64];
    cr_error bad;
} row_text;

/* Row `number` of st (id, values) as the readers hand rows on: accepted,
 * or rejected with its reason.  0, or CR_ENOMEM: memory running out is the
 * reading's failure, not the row's fault. */
static int take_row(cr_row *row, row_text *text, cr_coins *coins, sqlite3_stmt *st, int numbered, uint64_t number,
                    const char *source, cr_error *err)
{
    const char *values = (const char *)sqlite3_column_text(st, 1);
    size_t values_len = (size_t)sqlite3_column_bytes(st, 1);
    *row = (cr_row){.source = source, .line = number, .raw = values ? values : "", .raw_len = values_len};
    if (numbered) {
        row->ext_id = text->numbered;
        row->ext_id_len = (size_t)snprintf(text->numbered, sizeof text->numbered, "%llu", (unsigned long long)number);
    } else {
        row->ext_id = (const char *)sqlite3_column_text(st, 0);
        row->ext_id_len = (size_t)sqlite3_column_bytes(st, 0);
    }
    const char *nul = row->ext_id ? memchr(row->ext_id, '\0', row->ext_id_len) : NULL;
    if (!row->ext_id || row->ext_id_len == 0 || nul) {
        /* an id with a NUL would show cut short: it is not named */
        if (nul)
            snprintf(text->why, sizeof text->why, "the id has a NUL byte at character %zu",
                     (size_t)(nul - row->ext_id) + 1);
        row->reason = nul ? text->why : "the id is empty";
        row->ext_id = NULL;
        return 0;
    }
    if (!values) {
        row->reason = "the values are NULL";
        return 0;
    }
    int rc = cr_coins_parse(coins, values, values_len, &text->bad);
    if (rc == CR_ENOMEM)
        return cr_errorf(err, CR_ENOMEM, "%s row %llu: %s", source, (unsigned long long)number, text->bad.msg);
    if (rc)
        row->reason = text->bad.msg;
    else
        row->coins = coins->v, row->n = coins->n, row->coins_json = coins->json, row->coins_json_len = coins->json_len;
    return 0;
}

int cr_source_table_read(const char *db_path, const char *name, const cr_source_opts *opts, cr_row_fn fn, void *ctx,
                         cr_error *err)
{
    table t = {0};
    sqlite3_stmt *st = NULL;
    char *sql = NULL, *source = NULL;
    cr_coins coins = {0};
    int rc = open_table(&t, db_path, name, opts, err);
    if (rc)
        goto done;
    /* %w doubles the quotes inside an identifier: the names stay names */
    sql = t.id_col ? sqlite3_mprintf("SELECT \"%w\", \"%w\" FROM \"%w\"", t.id_col, t.values_col, t.name)
                   : sqlite3_mprintf("SELECT NULL, \"%w\" FROM \"%w\"", t.values_col, t.name);
    source = sqlite3_mprintf("%s:%s", db_path, t.name);
    if (!sql || !source) {
        rc = cr_errorf(err, CR_ENOMEM, "no memory to read %s", db_path);
        goto done;
    }
    if (sqlite3_prepare_v2(t.db, sql, -1, &st, NULL) != SQLITE_OK) {
        rc = cr_errorf(err, CR_EIO, "cannot read %s: %s", source, sqlite3_errmsg(t.db));
        goto done;
    }
    if (opts->stop)
        sqlite3_progress_handler(t.db, 1000, stop_asked, (void *)opts->stop);
    for (uint64_t number = 1; rc == 0; number++) {
        int step = sqlite3_step(st);
        if (step == SQLITE_DONE)
            break;
        cr_row row;
        row_text text;
        if ((step & 0xff) == SQLITE_INTERRUPT && opts->stop && atomic_load(opts->stop))
            rc = cr_errorf(err, CR_EINTERRUPTED, "interrupted while reading %s row %llu", source,
                           (unsigned long long)number);
        else if (step != SQLITE_ROW)
            rc = cr_errorf(err, CR_EIO, "cannot read %s row %llu: %s", source, (unsigned long long)number,
                           sqlite3_errmsg(t.db));
        else if ((rc = take_row(&row, &text, &coins, st, !t.id_col, number, source, err)) == 0)
            rc = fn(ctx, &row);
    }
done:
    sqlite3_finalize(st);
    sqlite3_free(sql);
    sqlite3_free(source);
    sqlite3_free(t.name);
    sqlite3_free(t.id_col);
    sqlite3_free(t.values_col);
    sqlite3_close(t.db);
    cr_coins_free(&coins);
    return rc;
}

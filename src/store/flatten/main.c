/* flatten-schema: the one script that makes a new database at the current
 * schema version, written at build time from the chain of schema/ (which
 * stays the only place the schema is written).  It applies the chain to an
 * empty database in memory and writes out what that holds, as a C string:
 *   const char cr_schema_current[] = "...";
 * A new database then parses and runs one short script instead of every
 * migration and its data moves: a shard of a large job is a new database
 * each time.  tests/test_store.c holds the two ways to the same
 * sqlite_master and the same rows.
 *
 * The script's order: the tables, their rows (before any trigger exists),
 * the indexes, views and triggers, then SQLite's own tables (sqlite_stat1
 * and its kin, which only ANALYZE makes, so ANALYZE makes them and their
 * rows are put back as the chain left them).
 *   flatten-schema > schema_current.c */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/schema.h"
#include "store/sql.h"

static sqlite3 *db;

static void die(const char *doing)
{
    fprintf(stderr, "flatten-schema: %s: %s\n", doing, sqlite3_errmsg(db));
    exit(1);
}

/* The chain's own functions (lines.c, sets.c), which its data moves call:
 * over an empty database they are called on no row, so stand-ins that
 * fail if called take their names. */
static void never(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    (void)argv;
    sqlite3_result_error(ctx, "flatten-schema: the chain called coinrow's own function on an empty database", -1);
}

static void never_final(sqlite3_context *ctx) { never(ctx, 0, NULL); }

static void register_stand_ins(void)
{
    if (sqlite3_create_function(db, "coinrow_pack_line", 1, SQLITE_UTF8, NULL, never, NULL, NULL) != SQLITE_OK ||
        sqlite3_create_function(db, "coinrow_line_text", 1, SQLITE_UTF8, NULL, never, NULL, NULL) != SQLITE_OK ||
        sqlite3_create_function(db, "coinrow_set_digest", 2, SQLITE_UTF8, NULL, NULL, never, never_final) !=
            SQLITE_OK)
        die("registering the chain's functions");
}

/* Whether the next character opens a line of the C string. */
static int at_line_start = 1;

/* Writes SQL text as part of the C string: quotes and backslashes escaped,
 * '?' too (no trigraphs), a string line per line of SQL. */
static void put_sql(const char *text)
{
    for (; *text; text++) {
        if (at_line_start)
            fputs("    \"", stdout);
        at_line_start = 0;
        if (*text == '\n') {
            fputs("\\n\"\n", stdout);
            at_line_start = 1;
        } else {
            if (*text == '"' || *text == '\\' || *text == '?')
                putchar('\\');
            putchar(*text);
        }
    }
}

/* One SQL value as a literal. */
static void put_value(sqlite3_stmt *st, int col)
{
    char buf[64];
    switch (sqlite3_column_type(st, col)) {
    case SQLITE_NULL:
        put_sql("NULL");
        break;
    case SQLITE_INTEGER:
        snprintf(buf, sizeof buf, "%lld", (long long)sqlite3_column_int64(st, col));
        put_sql(buf);
        break;
    case SQLITE_FLOAT:
        snprintf(buf, sizeof buf, "%.17g", sqlite3_column_double(st, col));
        put_sql(buf);
        break;
    case SQLITE_TEXT: {
        const char *t = (const char *)sqlite3_column_text(st, col);
        put_sql("'");
        for (; *t; t++) {
            char c[2] = {*t, 0};
            put_sql(*t == '\'' ? "''" : c);
        }
        put_sql("'");
        break;
    }
    default: { /* a blob */
        const unsigned char *b = sqlite3_column_blob(st, col);
        put_sql("X'");
        for (int i = 0; i < sqlite3_column_bytes(st, col); i++) {
            snprintf(buf, sizeof buf, "%02X", b[i]);
            put_sql(buf);
        }
        put_sql("'");
    }
    }
}

/* Every row of table name, as INSERT statements. */
static void put_rows(const char *name)
{
    char *sql = sqlite3_mprintf("SELECT * FROM \"%w\"", name);
    sqlite3_stmt *st = NULL;
    if (!sql || sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        die(name);
    sqlite3_free(sql);
    int step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        char *head = sqlite3_mprintf("INSERT INTO \"%w\" VALUES (", name);
        put_sql(head);
        sqlite3_free(head);
        for (int c = 0; c < sqlite3_column_count(st); c++) {
            if (c)
                put_sql(", ");
            put_value(st, c);
        }
        put_sql(");\n");
    }
    if (step != SQLITE_DONE)
        die(name);
    sqlite3_finalize(st);
}

/* The objects of SQL type kind of ours (not SQLite's), in the order they
 * were made, each statement followed by its table's rows when rows is set. */
static void put_objects(const char *kind, int rows)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, "SELECT name, sql FROM sqlite_master WHERE type = ? AND sql IS NOT NULL AND "
                               "name NOT LIKE 'sqlite!_%' ESCAPE '!' ORDER BY rowid", -1, &st, NULL) != SQLITE_OK)
        die("reading the schema");
    sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
    int step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        put_sql((const char *)sqlite3_column_text(st, 1));
        put_sql(";\n");
        if (rows)
            put_rows((const char *)sqlite3_column_text(st, 0));
    }
    if (step != SQLITE_DONE)
        die("reading the schema");
    sqlite3_finalize(st);
}

int main(void)
{
    if (sqlite3_open(":memory:", &db) != SQLITE_OK)
        die("opening a database in memory");
    register_stand_ins();
    for (int v = 0; v < cr_schema_count; v++)
        if (sqlite3_exec(db, cr_schema_scripts[v], NULL, NULL, NULL) != SQLITE_OK)
            die("applying the chain of schema/");
    puts("/* generated from the files in schema/ by src/store/flatten/main.c; do not edit */");
    puts("#include \"store/schema.h\"");
    puts("const char cr_schema_current[] =");
    put_objects("table", 1);
    put_objects("index", 0);
    put_objects("view", 0);
    put_objects("trigger", 0);
    /* SQLite's tables: ANALYZE makes the statistics' tables (and
     * AUTOINCREMENT the sequence's); their rows are the chain's */
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'sqlite!_%' "
                               "ESCAPE '!' ORDER BY rowid", -1, &st, NULL) != SQLITE_OK)
        die("reading the schema");
    int analyzed = 0, step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(st, 0);
        if (strncmp(name, "sqlite_stat", 11) == 0 && !analyzed) {
            put_sql("ANALYZE main;\n");
            analyzed = 1;
        }
        char *clear = sqlite3_mprintf("DELETE FROM \"%w\";\n", name);
        put_sql(clear);
        sqlite3_free(clear);
        put_rows(name);
    }
    if (step != SQLITE_DONE)
        die("reading the schema");
    sqlite3_finalize(st);
    puts("    ;");
    sqlite3_close(db);
    return 0;
}

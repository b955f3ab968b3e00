/* Reading instances: CSV, TSV and wide CSV files, contest .in files,
 * folders of them and standard input (source.c, source/csv.c,
 * source/contest_files.c), tables of other SQLite databases (source/table.c) and
 * the generator (source/generator.c).  Readers stream: they hand each row to a
 * callback and keep only the row at hand. */
#ifndef CR_SOURCE_H
#define CR_SOURCE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "coinrow/error.h"
#include "coinrow/gen.h"

/* How much of a rejected row's text is kept (in ingest_error.raw). */
#define CR_RAW_MAX 200

/* One input row, accepted (coins set) or rejected (reason set).  Every
 * pointer is valid during the callback only. */
typedef struct cr_row {
    const char *source;   /* the input in messages: its path, "stdin", or FILE:TABLE */
    uint64_t line;        /* the line the row starts on, 1-based (a table's row number) */
    const char *ext_id;   /* the row's id (NUL-terminated, not empty); NULL only in a rejected
                             row whose id could not be read */
    size_t ext_id_len;
    int numbered;         /* the id is the row's number: its file has no id column */
    const int64_t *coins; /* the values of an accepted row */
    size_t n;
    const char *coins_json; /* the same values as a JSON array, cr_coins' json: the text the
                               store keeps, made where each value's text was at hand */
    size_t coins_json_len;
    const char *reason;   /* NULL when accepted; else why the row is rejected */
    const char *raw;      /* the row as read: at least its first CR_RAW_MAX + 1 bytes */
    size_t raw_len;
    uint64_t offset;      /* input bytes read so far, over all the inputs of the call */
} cr_row;

/* Called for each row; a non-zero return stops the reading, which returns it. */
typedef int (*cr_row_fn)(void *ctx, const cr_row *row);

typedef enum cr_format {
    CR_FORMAT_AUTO,   /* by extension: .in contest, .tsv TSV, otherwise CSV */
    CR_FORMAT_CSV,    /* header row; an id column and a values column */
    CR_FORMAT_TSV,    /* the same with tabs */
    CR_FORMAT_WIDE,   /* header row; every column but the id is one coin */
    CR_FORMAT_CONTEST /* n, then n integers; one instance per file */
} cr_format;

/* "auto", "csv", "tsv", "wide" or "contest" into *out; CR_EINVAL naming it. */
int cr_source_format_parse(cr_format *out, const char *name, cr_error *err);

typedef struct cr_source_opts {
    cr_format format;
    const char *id_col;     /* NULL: the column "id" when there is one, else the data row number */
    const char *values_col; /* NULL: the first of values, coins, piles, stones (any case) */
    const atomic_int *stop; /* may be NULL; when it becomes non-zero, a read waiting for
                               input gives up with CR_EINTERRUPTED */
    void (*idle)(void *ctx); /* may be NULL; called with idle_ctx each second a CSV or TSV read
                                waits for input (a pipe that gives rows slowly), so that the rows
                                passed on so far can be handed on */
    void *idle_ctx;
} cr_source_opts;

/* Reads inputs[0..count) in order, calling fn for each row.  An input is a
 * file (format by opts->format or its extension), "-" for standard input
 * (CSV unless opts->format says otherwise), or a folder, whose files of the
 * format (auto: .csv, .tsv and .in) are read in name order.  Missing inputs,
 * and regular files with no header or values column, are reported before
 * any row is passed on.  Returns 0, fn's non-zero return,
 * or a fatal error naming the input: CR_EIO (cannot open or read),
 * CR_EINVAL (no header, no values column, an empty folder). */
int cr_source_read(const char *const *inputs, size_t count, const cr_source_opts *opts, cr_row_fn fn, void *ctx,
                   cr_error *err);

/* Checks that every input ("-" aside) exists: 0, or CR_EIO naming the
 * first that does not (cr_source_read checks this first too). */
int cr_source_check(const char *const *inputs, size_t count, cr_error *err);

/* The bytes cr_source_read will read from inputs, or 0 when unknown
 * (standard input). */
uint64_t cr_source_size(const char *const *inputs, size_t count, const cr_source_opts *opts);

/* The default set name for an input into out: its base name without the
 * extension ("data/big.csv" -> "big", "sample-data/" -> "sample-data"),
 * "stdin" for "-". */
void cr_source_set_name(char *out, size_t cap, const char *input);

/* Reads every row of `table` in the database at db_path (opened read-only)
 * and calls fn for each, as cr_source_read does; rows are named
 * "DB_PATH:TABLE" and numbered from 1 in the table's order.  The id column is
 * opts->id_col or "id" (else the row number), the values column
 * opts->values_col or values/coins/piles/stones; its cells are text as for
 * CSV, or single integers.  The table and column names are matched against
 * the database's own (any case) and quoted, so no name the user gives is
 * ever run as SQL.  Errors name the database: CR_EIO (cannot open it),
 * CR_EINVAL (no such table or column, listing those there are).
 * (source/table.c, the one reader that talks to SQLite.) */
int cr_source_table_read(const char *db_path, const char *table, const cr_source_opts *opts, cr_row_fn fn, void *ctx,
                         cr_error *err);

/* Generates the instances of spec in order and calls fn for each, as the
 * other readers do: rows named "generate", numbered from 1, whose ids are
 * cr_gen_id's.  Returns 0, fn's non-zero return, or the generator's error
 * (CR_ENOMEM when n_max coins do not fit in memory). */
int cr_source_gen_read(const cr_gen_spec *spec, cr_row_fn fn, void *ctx, cr_error *err);

#endif

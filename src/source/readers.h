/* What the file readers share (source.c hands each file to one of them;
 * source/fields.c holds the rules they have in common). */
#ifndef CR_SOURCE_READERS_H
#define CR_SOURCE_READERS_H

#include <stddef.h>
#include <stdio.h>

#include "source/source.h"

/* Reads CSV, TSV or wide CSV from f, named `name` in rows and errors. */
int cr_source__csv(FILE *f, const char *name, cr_format format, const cr_source_opts *opts, cr_row_fn fn, void *ctx,
                   cr_error *err);

/* Splits one physical line s[0..len) that ends in '\n' or a CR alone the
 * way libcsv (strict, CSV_REPALL_NL, delimiter delim) does from the start
 * of a record, calling field and record exactly as csv_parse would, when
 * the line has no quote and no CR but the one of its end: 0.  Otherwise it
 * calls nothing and returns -1, and the line is libcsv's to parse. */
int cr_source__csv_plain_line(char *s, size_t len, char delim, void (*field)(void *, size_t, void *),
                              void (*record)(int, void *), void *ctx);

/* Reads one contest instance from f; its id is ext_id. */
int cr_source__contest(FILE *f, const char *name, const char *ext_id, const cr_source_opts *opts, cr_row_fn fn,
                       void *ctx, cr_error *err);

/* Checks a declared count, text[0..len), against the n values read: NULL
 * when they agree, else the reason, written to buf. */
const char *cr_source__check_n(char *buf, size_t cap, const char *text, size_t len, size_t n);

/* True when name matches one of the default values columns. */
int cr_source__is_values_name(const char *name, size_t len);

#endif

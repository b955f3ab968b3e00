/* What the file readers share (source.c hands each file to one of them;
 * source_fields.c holds the rules they have in common). */
#ifndef CR_IO_SOURCE_READERS_H
#define CR_IO_SOURCE_READERS_H

#include <stddef.h>
#include <stdio.h>

#include "io/source.h"

/* Reads CSV, TSV or wide CSV from f, named `name` in rows and errors. */
int cr_source__csv(FILE *f, const char *name, cr_format format, const cr_source_opts *opts, cr_row_fn fn, void *ctx,
                   cr_error *err);

/* Reads one contest instance from f; its id is ext_id. */
int cr_source__contest(FILE *f, const char *name, const char *ext_id, const cr_source_opts *opts, cr_row_fn fn,
                       void *ctx, cr_error *err);

/* Checks a declared count, text[0..len), against the n values read: NULL
 * when they agree, else the reason, written to buf. */
const char *cr_source__check_n(char *buf, size_t cap, const char *text, size_t len, size_t n);

/* True when name matches one of the default values columns. */
int cr_source__is_values_name(const char *name, size_t len);

#endif

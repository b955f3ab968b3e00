/* Reading a whole stream into memory. */
#ifndef CR_UTIL_READ_ALL_H
#define CR_UTIL_READ_ALL_H

#include <stdio.h>

#include "coinrow/error.h"

/* Reads f to its end into a NUL-terminated buffer *out (length in *out_len);
 * the caller frees *out.  `name` names the stream in errors. */
int cr_read_all(char **out, size_t *out_len, FILE *f, const char *name, cr_error *err);

#endif

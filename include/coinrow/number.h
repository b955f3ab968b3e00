/* coinrow — reading and writing a number: the one int64 parser and formatter
 * of every layer. */
#ifndef CR_NUMBER_H
#define CR_NUMBER_H

#include <stddef.h>
#include <stdint.h>

/* Parses s[0..len) exactly as one decimal int64: an optional '+' or '-', then
 * digits, nothing else.  Returns 0, CR_EINVAL (not an integer) or
 * CR_EOVERFLOW (outside int64). */
int cr_int64_parse(int64_t *out, const char *s, size_t len);

/* Writes value in decimal to out (at least CR_INT64_CHARS bytes; no NUL);
 * returns the length. */
#define CR_INT64_CHARS 20
size_t cr_int64_format(char *out, int64_t value);

#endif

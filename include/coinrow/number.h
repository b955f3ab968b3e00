/* coinrow — reading a number: the one int64 parser of every layer. */
#ifndef CR_NUMBER_H
#define CR_NUMBER_H

#include <stddef.h>
#include <stdint.h>

/* Parses s[0..len) exactly as one decimal int64: an optional '+' or '-', then
 * digits, nothing else.  Returns 0, CR_EINVAL (not an integer) or
 * CR_EOVERFLOW (outside int64). */
int cr_int64_parse(int64_t *out, const char *s, size_t len);

#endif

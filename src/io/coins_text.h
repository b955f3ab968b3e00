/* Reading a row of coins from text: "4 6 2 3", "4,6,2,3", "4;6;2;3" or a
 * JSON array "[4, 6, 2, 3]". */
#ifndef CR_IO_COINS_TEXT_H
#define CR_IO_COINS_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "coinrow/error.h"

/* A growable array of coins; zero-initialise, release with cr_coins_free. */
typedef struct cr_coins {
    int64_t *v;
    size_t n, cap;
} cr_coins;

void cr_coins_free(cr_coins *coins);

/* Appends one value; CR_ENOMEM on failure. */
int cr_coins_push(cr_coins *coins, int64_t value, cr_error *err);

/* Parses text[0..len) into out (replacing what it held).  Values are decimal
 * integers with an optional sign, separated by white space, commas or
 * semicolons; the whole may be wrapped in [ ].  Errors (CR_EINVAL) name the
 * value by its 1-based position and quote it: not an integer, out of the
 * int64 range, or no values at all. */
int cr_coins_parse(cr_coins *out, const char *text, size_t len, cr_error *err);

/* Parses one decimal int64 from s[0..len) exactly (no spaces): 0, or
 * CR_EINVAL (not an integer) / CR_EOVERFLOW (out of range). */
int cr_int64_parse(int64_t *out, const char *s, size_t len);

#endif

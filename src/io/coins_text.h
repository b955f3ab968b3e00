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

/* Parses the coin at 1-based `position` of a row from text[0..len), white
 * space around it allowed.  CR_EINVAL naming the position and quoting the
 * text: empty, not an integer, or out of the int64 range (the messages of
 * cr_coins_parse). */
int cr_coin_parse(int64_t *out, const char *text, size_t len, size_t position, cr_error *err);

/* Writes value in decimal to out (at least CR_INT64_CHARS bytes; no NUL);
 * returns the length. */
#define CR_INT64_CHARS 20
size_t cr_int64_format(char *out, int64_t value);

/* Writes coins[0..n) as a JSON array ("[4,6,2,3]", no spaces) and a NUL to
 * out, which holds cr_coins_json_max(n) bytes; returns the length. */
#define cr_coins_json_max(n) (2 + (size_t)(n) * (CR_INT64_CHARS + 1) + 1)
size_t cr_coins_json(char *out, const int64_t *coins, size_t n);

#endif

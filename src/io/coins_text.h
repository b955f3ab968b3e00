/* Reading a row of coins from text: "4 6 2 3", "4,6,2,3", "4;6;2;3" or a
 * JSON array "[4, 6, 2, 3]". */
#ifndef CR_IO_COINS_TEXT_H
#define CR_IO_COINS_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "coinrow/error.h"
#include "coinrow/number.h"

/* A growable array of coins, kept with the same coins as a JSON array
 * (the text the store keeps): readers make it while they read, where a
 * value's text is at hand.  Zero-initialise, empty by setting n to 0,
 * release with cr_coins_free. */
typedef struct cr_coins {
    int64_t *v;
    size_t n, cap;
    char *json; /* "[4,6,2,3]" (no spaces) and a NUL once a value is in */
    size_t json_len, json_cap;
} cr_coins;

void cr_coins_free(cr_coins *coins);

/* Appends one value; CR_ENOMEM on failure. */
int cr_coins_push(cr_coins *coins, int64_t value, cr_error *err);

/* Parses text[0..len) into out (replacing what it held).  Values are decimal
 * integers with an optional sign, separated by white space, commas or
 * semicolons; the whole may be wrapped in [ ].  Errors (CR_EINVAL) name the
 * value by its 1-based position and quote it: not an integer, out of the
 * int64 range, or no values at all; a NUL byte anywhere is refused, naming
 * its 1-based character.  The JSON has each value in plain
 * decimal ("+7" and "007" as 7, "-0" as 0). */
int cr_coins_parse(cr_coins *out, const char *text, size_t len, cr_error *err);

/* Parses the coin at 1-based `position` of a row from text[0..len), white
 * space around it allowed.  CR_EINVAL naming the position and quoting the
 * text: empty, not an integer, or out of the int64 range (the messages of
 * cr_coins_parse); a NUL byte is refused, naming its character. */
int cr_coin_parse(int64_t *out, const char *text, size_t len, size_t position, cr_error *err);

/* The sum of coins[0..n) into *out; returns 1, or 0 when it leaves int64
 * (*out is then meaningless). */
int cr_coins_total(int64_t *out, const int64_t *coins, size_t n);

/* Writes value in decimal to out (at least CR_INT64_CHARS bytes; no NUL);
 * returns the length. */
#define CR_INT64_CHARS 20
size_t cr_int64_format(char *out, int64_t value);

/* coins[0..n) as an input file of the contest format: n on the first line,
 * the coins separated by single spaces on the second, each line ending in
 * LF.  Written into *buf (grown as needed; *cap bytes), its length into
 * *out.  CR_ENOMEM on failure. */
int cr_contest_text(size_t *out, char **buf, size_t *cap, const int64_t *coins, size_t n, cr_error *err);

#endif

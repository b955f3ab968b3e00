/* Rows of coins as text. */
#include "util/util.h"

#include <stdlib.h>
#include <string.h>


void cr_coins_free(cr_coins *coins)
{
    if (!coins)
        return;
    free(coins->v);
    free(coins->json);
    *coins = (cr_coins){0};
}

/* Room for `values` more values and `chars` more characters of JSON
 * (counting the '[' or ',', the ']' and the NUL). */
static int reserve(cr_coins *coins, size_t values, size_t chars, cr_error *err)
{
    if (cr_grow((void **)&coins->v, &coins->cap, coins->n + values, sizeof *coins->v, 64) ||
        cr_grow((void **)&coins->json, &coins->json_cap, coins->json_len + chars, 1, 1024))
        return cr_errorf(err, CR_ENOMEM, "no memory for %zu coins", coins->n + values);
    return 0;
}

/* Appends value, written text[0..len) in plain decimal (text NULL: written
 * here).  Inline in the parser's loop; growing is apart. */
static inline int push(cr_coins *coins, int64_t value, const char *text, size_t len, cr_error *err)
{
    char digits[CR_INT64_CHARS];
    if (!text) {
        len = cr_int64_format(digits, value);
        text = digits;
    }
    if (coins->n == 0)
        coins->json_len = 0; /* emptied by n = 0 */
    int rc = coins->n == coins->cap || coins->json_len + len + 3 > coins->json_cap ? reserve(coins, 1, len + 3, err)
                                                                                   : 0;
    if (rc)
        return rc;
    if (coins->n == 0)
        coins->json[coins->json_len++] = '[';
    else
        coins->json[coins->json_len - 1] = ','; /* was the closing ']' */
    memcpy(coins->json + coins->json_len, text, len);
    coins->json_len += len;
    coins->json[coins->json_len++] = ']';
    coins->json[coins->json_len] = '\0';
    coins->v[coins->n++] = value;
    return 0;
}

int cr_coins_push(cr_coins *coins, int64_t value, cr_error *err) { return push(coins, value, NULL, 0, err); }


static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }
static int is_delimiter(char c) { return c == ',' || c == ';'; }

static int bad_value(cr_error *err, size_t position, const char *token, size_t len, const char *why)
{
    char shown[44]; /* 40 bytes and "...", at most */
    return cr_errorf(err, CR_EINVAL, "value %zu ('%s') %s", position, cr_text_shown_len(shown, sizeof shown, token, len),
                     why);
}

int cr_coin_parse(int64_t *out, const char *text, size_t len, size_t position, cr_error *err)
{
    const char *nul = memchr(text, '\0', len);
    if (nul)
        return cr_errorf(err, CR_EINVAL, "value %zu has a NUL byte at its character %zu", position,
                         (size_t)(nul - text) + 1);
    while (len > 0 && is_space(text[0]))
        text++, len--;
    while (len > 0 && is_space(text[len - 1]))
        len--;
    if (len == 0)
        return cr_errorf(err, CR_EINVAL, "value %zu is empty", position);
    int rc = cr_int64_parse(out, text, len);
    if (rc == CR_EINVAL)
        return bad_value(err, position, text, len, "is not an integer");
    if (rc == CR_EOVERFLOW)
        return bad_value(err, position, text, len, "is out of the int64 range");
    return 0;
}

/* Eight decimal digits at p (read as one little-endian word) into *out:
 * 1, or 0 when they are not all digits. */
static inline int eight_digits(uint64_t *out, const char *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t w;
    memcpy(&w, p, 8);
    /* every byte 0x30..0x39: high nibble 3, and still 3 after adding 6 */
    if (((w & 0xF0F0F0F0F0F0F0F0u) | (((w + 0x0606060606060606u) & 0xF0F0F0F0F0F0F0F0u) >> 4)) !=
        0x3333333333333333u)
        return 0;
    w -= 0x3030303030303030u;
    w = w * 10 + (w >> 8); /* pairs of digits */
    *out = ((w & 0x000000FF000000FFu) * (100 + (1000000ull << 32)) +
            ((w >> 16) & 0x000000FF000000FFu) * (1 + (10000ull << 32))) >> 32;
    return 1;
#else
    (void)out, (void)p;
    return 0;
#endif
}

/* Reads the decimal digits from p on (up to end) into *out, exactly when
 * there are at most 18 of them; returns where they stop. */
static inline const char *read_digits(uint64_t *out, const char *p, const char *end)
{
    uint64_t magnitude = 0;
    unsigned digit;
    if (end - p >= 8 && eight_digits(&magnitude, p))
        p += 8;
    while (p < end && (digit = (unsigned char)*p - '0') <= 9)
        magnitude = magnitude * 10 + digit, p++;
    *out = magnitude;
    return p;
}

/* Whether `digits` digits at first (after a '-' when negative) are written
 * as the JSON writes their value: no leading zero, and not "-0". */
static int plain_decimal(const char *first, size_t digits, int negative)
{
    return *first != '0' || (digits == 1 && !negative);
}

/* The common row: values in plain decimal (no '+', no leading zero, not
 * "-0") of at most 18 digits, which cannot overflow, one ' ', ',' or ';'
 * between each, maybe wrapped in [ ] with nothing around.  Its JSON is the
 * text itself with ',' for each separator, so it is copied whole rather than
 * value by value.  Returns 1 when text[0..len) is such a row, else 0 with
 * out empty, for the general parser (which words the errors). */
static int parse_plain(cr_coins *out, const char *text, size_t len)
{
    const char *p = text, *end = text + len;
    if (len >= 2 && *p == '[' && end[-1] == ']')
        p++, end--;
    size_t body = (size_t)(end - p);
    out->n = out->json_len = 0;
    if (body == 0 || reserve(out, body / 2 + 1, body + 3, NULL))
        return 0;
    const char *start = p;
    out->json[0] = '[';
    memcpy(out->json + 1, p, body);
    size_t n = 0;
    for (;;) {
        int negative = *p == '-';
        const char *first = p + negative;
        uint64_t magnitude;
        p = read_digits(&magnitude, first, end);
        size_t digits = (size_t)(p - first);
        if (digits == 0 || digits > 18 || !plain_decimal(first, digits, negative))
            return 0;
        out->v[n++] = negative ? -(int64_t)magnitude : (int64_t)magnitude;
        if (p == end)
            break;
        if ((*p != ' ' && *p != ',' && *p != ';') || p + 1 == end)
            return 0;
        out->json[1 + (p - start)] = ',';
        p++;
    }
    out->json[body + 1] = ']';
    out->json[body + 2] = '\0';
    out->json_len = body + 2;
    out->n = n;
    return 1;
}

int cr_coins_parse(cr_coins *out, const char *text, size_t len, cr_error *err)
{
    if (parse_plain(out, text, len))
        return 0;
    out->n = 0;
    out->failed_at = 0;
    /* a NUL is neither a separator nor part of a value, and would cut a
     * message quoting its token */
    const char *nul = memchr(text, '\0', len);
    if (nul) {
        out->failed_at = (size_t)(nul - text);
        return cr_errorf(err, CR_EINVAL, "the values have a NUL byte at character %zu", out->failed_at + 1);
    }
    size_t i = 0, end = len;
    while (i < end && is_space(text[i]))
        i++;
    while (end > i && is_space(text[end - 1]))
        end--;
    if (i < end && text[i] == '[') {
        if (text[end - 1] != ']')
            return cr_errorf(err, CR_EINVAL, "'[' without a closing ']'");
        i++;
        end--;
    }
    int after_delimiter = 0;
    for (;;) {
        while (i < end && is_space(text[i]))
            i++;
        out->failed_at = i;
        if (i == end || is_delimiter(text[i])) {
            if (after_delimiter || (i < end && out->n == 0))
                return cr_errorf(err, CR_EINVAL, "value %zu is empty", out->n + 1);
            if (i == end)
                break;
            after_delimiter = 1;
            i++;
            continue;
        }
        /* the common token, a sign and up to 18 digits (which cannot
         * overflow), is read in the pass that finds its end */
        size_t start = i;
        int negative = text[i] == '-';
        const char *first = text + i + (negative || text[i] == '+');
        uint64_t magnitude;
        const char *p = read_digits(&magnitude, first, text + end);
        int64_t value;
        int rc;
        i = (size_t)(p - text);
        if (p > first && p - first <= 18 && (i == end || is_space(*p) || is_delimiter(*p))) {
            value = negative ? -(int64_t)magnitude : (int64_t)magnitude;
            /* the JSON takes the token as it is when it is plain decimal */
            int plain = text[start] != '+' && plain_decimal(first, (size_t)(p - first), negative);
            rc = push(out, value, plain ? text + start : NULL, (size_t)(p - text) - start, err);
        } else {
            /* anything else is taken to its end and read exactly;
             * cr_coin_parse only to word an error */
            while (i < end && !is_space(text[i]) && !is_delimiter(text[i]))
                i++;
            rc = cr_int64_parse(&value, text + start, i - start) == 0
                     ? push(out, value, NULL, 0, err)
                     : cr_coin_parse(&value, text + start, i - start, out->n + 1, err);
        }
        if (rc)
            return rc;
        after_delimiter = 0;
    }
    out->failed_at = 0;
    if (out->n == 0)
        return cr_errorf(err, CR_EINVAL, "no values");
    return 0;
}

int cr_coins_total(int64_t *out, const int64_t *coins, size_t n)
{
    int64_t total = 0;
    for (size_t i = 0; i < n; i++)
        if (__builtin_add_overflow(total, coins[i], &total))
            return 0;
    *out = total;
    return 1;
}

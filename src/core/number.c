/* Reading a number. */
#include "coinrow/number.h"

#include "coinrow/error.h"

int cr_int64_parse(int64_t *out, const char *s, size_t len)
{
    size_t i = 0;
    int negative = 0;
    if (i < len && (s[i] == '-' || s[i] == '+'))
        negative = s[i++] == '-';
    if (i == len)
        return CR_EINVAL;
    if (len - i <= 18) {
        /* the common case: up to 18 digits cannot overflow */
        int64_t v = 0;
        for (; i < len; i++) {
            if (s[i] < '0' || s[i] > '9')
                return CR_EINVAL;
            v = v * 10 + (s[i] - '0');
        }
        *out = negative ? -v : v;
        return 0;
    }
    /* accumulate as a negative number: its range holds INT64_MIN */
    int64_t v = 0;
    int overflow = 0;
    for (; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return CR_EINVAL;
        int digit = s[i] - '0';
        if (v < (INT64_MIN + digit) / 10)
            overflow = 1;
        else
            v = v * 10 - digit;
    }
    if (overflow || (!negative && v == INT64_MIN))
        return CR_EOVERFLOW;
    *out = negative ? v : -v;
    return 0;
}

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

size_t cr_int64_format(char *out, int64_t value)
{
    static const char pairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                "8081828384858687888990919293949596979899";
    static const uint64_t powers[20] = {1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull,
                                        10000000ull, 100000000ull, 1000000000ull, 10000000000ull,
                                        100000000000ull, 1000000000000ull, 10000000000000ull, 100000000000000ull,
                                        1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
                                        1000000000000000000ull, 10000000000000000000ull};
    /* work on the magnitude as unsigned: -INT64_MIN does not fit in int64 */
    uint64_t v = value < 0 ? 0 - (uint64_t)value : (uint64_t)value;
    /* the digit count from the bit length (log10 2 ~ 1233 / 4096), then
     * the digits straight into place from the right, two per division */
    uint64_t v1 = v | 1; /* 0 has the bit length and the digit count of 1 */
    unsigned guess = (unsigned)(64 - __builtin_clzll(v1)) * 1233 >> 12;
    size_t len = (value < 0) + guess + (v1 >= powers[guess]);
    char *end = out + len;
    while (v >= 100) {
        unsigned pair = (unsigned)(v % 100) * 2;
        v /= 100;
        *--end = pairs[pair + 1];
        *--end = pairs[pair];
    }
    if (v >= 10) {
        *--end = pairs[v * 2 + 1];
        *--end = pairs[v * 2];
    } else {
        *--end = (char)('0' + v);
    }
    if (value < 0)
        out[0] = '-';
    return len;
}

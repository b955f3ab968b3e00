/* The rules the readers share: which columns hold the values, and an n
 * column checked against the values read. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "util/util.h"
#include "source/readers.h"

int cr_source__is_values_name(const char *name, size_t len)
{
    static const char *const names[] = {"values", "coins", "piles", "stones"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (strlen(names[k]) == len && strncasecmp(name, names[k], len) == 0)
            return 1;
    return 0;
}

const char *cr_source__check_n(char *buf, size_t cap, const char *text, size_t len, size_t n)
{
    int64_t declared;
    cr_error bad;
    if (cr_coin_parse(&declared, text, len, 1, &bad) != 0) {
        char shown[44];
        snprintf(buf, cap, "n ('%s') is not an integer", cr_text_shown_len(shown, sizeof shown, text, len));
        return buf;
    }
    if (declared < 0 || (uint64_t)declared != n) {
        snprintf(buf, cap, "n is %lld but there %s %zu value%s", (long long)declared, n == 1 ? "is" : "are", n,
                 n == 1 ? "" : "s");
        return buf;
    }
    return NULL;
}

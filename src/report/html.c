/* The page's text (model.h, "text"): every text from the database escaped
 * on its way out, numbers grouped for reading. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "report/model.h"

void cr_report__text(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '&':
            fputs("&amp;", f);
            break;
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        case '\'':
            fputs("&#39;", f);
            break;
        default:
            /* a control character is not text a page may hold */
            if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
                fputs("&#xFFFD;", f);
            else
                fputc(c, f);
        }
    }
}

/* digits (their sign first) with a comma every three from the right */
static const char *grouped(char out[32], const char *digits)
{
    size_t len = strlen(digits), sign = digits[0] == '-', k = 0;
    for (size_t i = 0; i < len; i++) {
        out[k++] = digits[i];
        size_t left = len - 1 - i;
        if (i >= sign && left > 0 && left % 3 == 0)
            out[k++] = ',';
    }
    out[k] = '\0';
    return out;
}

const char *cr_report__count(char out[32], uint64_t v)
{
    char digits[24];
    snprintf(digits, sizeof digits, "%" PRIu64, v);
    return grouped(out, digits);
}

const char *cr_report__int(char out[32], int64_t v)
{
    char digits[24];
    snprintf(digits, sizeof digits, "%" PRId64, v);
    return grouped(out, digits);
}

const char *cr_report__percent(char out[16], uint64_t share, uint64_t all)
{
    if (all)
        snprintf(out, 16, "%.1f %%", 100.0 * (double)share / (double)all);
    else
        snprintf(out, 16, "-");
    return out;
}

/* The page's text (model.h, "text"): every text from the database escaped
 * on its way out, numbers grouped for reading. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "report/model.h"
#include "util/util.h"

void cr_report__text(FILE *f, const char *s)
{
    for (size_t len = s ? strlen(s) : 0, i = 0, n; i < len; i += n) {
        cr_text_kind kind = cr_text_char(&n, s + i, len - i);
        switch (kind == CR_TEXT_PLAIN ? s[i] : 0) {
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
            /* a control character, a byte that is not UTF-8 or a
             * bidirectional override is not text a page may hold: an
             * override would show the text after it reordered */
            if (kind == CR_TEXT_PLAIN || (kind == CR_TEXT_CONTROL && (s[i] == '\t' || s[i] == '\n')))
                fwrite(s + i, 1, n, f);
            else
                fputs("&#xFFFD;", f);
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

/* Safe text for messages: any bytes shown as printable ASCII (contest.h).
 * A file of its own, because the contest's checks, the verifier and the
 * solver's messages all use it and none of them should call another for it. */
#include "coinrow/contest.h"

#include <string.h>

#include "internal.h"

void cr_contest_escape(char *out, size_t cap, const char *text, size_t len, size_t shown)
{
    size_t k = 0, i = 0;
    for (; i < len && i < shown && k + 5 < cap; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c >= 0x20 && c < 0x7f) {
            out[k++] = (char)c;
        } else {
            cr_error__format(out + k, cap - k, "\\x%x%x", c >> 4, c & 15u);
            k += 4;
        }
    }
    if (i < len && k + 3 < cap) {
        memcpy(out + k, "...", 3);
        k += 3;
    }
    out[k] = '\0';
}

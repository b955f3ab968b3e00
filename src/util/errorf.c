/* Error messages above the core: printf's formatting, bounded. */
#include "util/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>


int cr_errorf(cr_error *err, int code, const char *fmt, ...)
{
    if (!err)
        return code;
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    if (len < 0)
        err->msg[0] = '\0';
    else if ((size_t)len >= sizeof err->msg) /* cut: not in the middle of a character */
        err->msg[cr_utf8_cut(err->msg, strlen(err->msg))] = '\0';
    va_end(ap);
    err->code = code;
    return code;
}

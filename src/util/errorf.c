/* Error messages above the core: printf's formatting, bounded. */
#include "util/errorf.h"

#include <stdarg.h>
#include <stdio.h>

int cr_errorf(cr_error *err, int code, const char *fmt, ...)
{
    if (!err)
        return code;
    va_list ap;
    va_start(ap, fmt);
    if (vsnprintf(err->msg, sizeof err->msg, fmt, ap) < 0)
        err->msg[0] = '\0';
    va_end(ap);
    err->code = code;
    return code;
}

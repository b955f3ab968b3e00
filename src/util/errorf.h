/* The error setter of every layer above the core: cr_error_set with the
 * whole of printf, through vsnprintf.  (The core's cr_error_set formats
 * without stdio and knows only the conversions the core uses.) */
#ifndef CR_UTIL_ERRORF_H
#define CR_UTIL_ERRORF_H

#include "coinrow/error.h"

/* Fills err (when not NULL) with code and the message fmt formats as
 * printf does, cut to fit (between UTF-8 characters); returns code, so that callers can write
 * `return cr_errorf(err, CR_EINVAL, ...)`. */
int cr_errorf(cr_error *err, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif

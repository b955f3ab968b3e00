/* coinrow — error model shared by every layer.
 *
 * A call that can fail returns int: 0, or a negative CR_E* code.  The detail
 * (what went wrong and where) goes into a caller-supplied cr_error, which may
 * be NULL when the caller does not want it. */
#ifndef CR_ERROR_H
#define CR_ERROR_H

#include <stddef.h>

#define CR_ERROR_MSG_MAX 256

enum cr_code {
    CR_OK = 0,
    CR_EINVAL = -1,      /* bad argument or malformed input */
    CR_EOVERFLOW = -2,   /* a figure does not fit in int64 */
    CR_ETOOBIG = -3,     /* the instance is too large for the chosen method */
    CR_ENOMEM = -4,      /* out of memory */
    CR_EIO = -5,         /* reading or writing a file failed */
    CR_EDB = -6,         /* the database refused an operation */
    CR_EINTERRUPTED = -7 /* stopped on request (signal) */
};

typedef struct cr_error {
    int code;                   /* 0 or a CR_E* code */
    char msg[CR_ERROR_MSG_MAX]; /* what and where, no trailing newline */
} cr_error;

/* The fixed text for a code, e.g. "overflow" for CR_EOVERFLOW. Never NULL. */
const char *cr_strerror(int code);

/* Fills err (when not NULL) with code and a formatted message, cut to fit;
 * returns code so that callers can write `return cr_error_set(err, CR_EINVAL,
 * ...)`.  The format is printf's without stdio: every conversion but floating
 * point (d i u o x X c s p %, with flags, widths, precisions and the length
 * modifiers hh h l ll j z t), each as snprintf writes it.  A floating-point
 * conversion is copied as it stands (its argument skipped); %n writes
 * nothing.  A message too long is cut between UTF-8 characters. */
int cr_error_set(cr_error *err, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Resets err (when not NULL) to "no error". */
void cr_error_clear(cr_error *err);

/* The length of text[0..len) without a UTF-8 sequence left incomplete at
 * its end: messages cut what they quote (and are cut to fit) with it, so
 * that they stay UTF-8.  To cut text to at most n bytes: cr_utf8_cut(text, n). */
size_t cr_utf8_cut(const char *text, size_t len);

#endif

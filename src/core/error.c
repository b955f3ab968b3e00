/* The error model, with a small formatter so that the core needs no stdio. */
#include "coinrow/error.h"

#include <stdarg.h>
#include <stddef.h>

#include "internal.h"

const char *cr_strerror(int code)
{
    switch (code) {
    case CR_OK: return "ok";
    case CR_EINVAL: return "invalid input";
    case CR_EOVERFLOW: return "overflow";
    case CR_ETOOBIG: return "too large";
    case CR_ENOMEM: return "out of memory";
    case CR_EIO: return "i/o error";
    case CR_EDB: return "database error";
    case CR_EINTERRUPTED: return "interrupted";
    default: return "unknown error";
    }
}

void cr_error_clear(cr_error *err)
{
    if (err) {
        err->code = CR_OK;
        err->msg[0] = '\0';
    }
}

typedef struct sink {
    char *buf;
    size_t len, cap; /* cap counts the terminating NUL */
    int cut;         /* something did not fit */
} sink;

static void put_char(sink *s, char c)
{
    if (s->len + 1 < s->cap)
        s->buf[s->len++] = c;
    else
        s->cut = 1;
}

static void put_str(sink *s, const char *str, size_t max)
{
    for (size_t i = 0; i < max && str[i]; i++)
        put_char(s, str[i]);
}

static void put_unsigned(sink *s, unsigned long long v, unsigned base)
{
    char digits[32];
    size_t k = 0;
    do {
        digits[k++] = "0123456789abcdef"[v % base];
        v /= base;
    } while (v);
    while (k)
        put_char(s, digits[--k]);
}

static void put_signed(sink *s, long long v)
{
    if (v < 0) {
        put_char(s, '-');
        put_unsigned(s, 0ull - (unsigned long long)v, 10);
    } else {
        put_unsigned(s, (unsigned long long)v, 10);
    }
}

static void format(sink *s, const char *fmt, va_list ap)
{
    for (const char *p = fmt; *p; p++) {
        if (*p != '%') {
            put_char(s, *p);
            continue;
        }
        p++;
        if (p[0] == '.' && p[1] == '*' && p[2] == 's') {
            int max = va_arg(ap, int);
            put_str(s, va_arg(ap, const char *), max < 0 ? (size_t)-1 : (size_t)max);
            p += 2;
            continue;
        }
        int longs = 0, size = 0;
        while (*p == 'l') {
            longs++;
            p++;
        }
        if (*p == 'z') {
            size = 1;
            p++;
        }
        switch (*p) {
        case 's': put_str(s, va_arg(ap, const char *), (size_t)-1); break;
        case 'c': put_char(s, (char)va_arg(ap, int)); break;
        case '%': put_char(s, '%'); break;
        case 'd':
        case 'i':
            if (size)
                put_signed(s, (long long)va_arg(ap, ptrdiff_t));
            else if (longs == 2)
                put_signed(s, va_arg(ap, long long));
            else if (longs == 1)
                put_signed(s, va_arg(ap, long));
            else
                put_signed(s, va_arg(ap, int));
            break;
        case 'u':
        case 'x': {
            unsigned base = *p == 'x' ? 16 : 10;
            if (size)
                put_unsigned(s, va_arg(ap, size_t), base);
            else if (longs == 2)
                put_unsigned(s, va_arg(ap, unsigned long long), base);
            else if (longs == 1)
                put_unsigned(s, va_arg(ap, unsigned long), base);
            else
                put_unsigned(s, va_arg(ap, unsigned), base);
            break;
        }
        default: /* not supported: show it rather than guess */
            put_char(s, '%');
            if (!*p)
                return;
            put_char(s, *p);
        }
    }
}

size_t cr_utf8_cut(const char *text, size_t len)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t start = len;
    while (start > 0 && len - start < 3 && (s[start - 1] & 0xC0) == 0x80)
        start--;
    if (start == 0 || s[start - 1] < 0xC0)
        return len; /* ends in ASCII, or in bytes that are no UTF-8 anyway */
    unsigned lead = s[start - 1];
    size_t need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
    return len - (start - 1) < need ? start - 1 : len;
}

static void format_into(char *buf, size_t cap, const char *fmt, va_list ap)
{
    sink s = {buf, 0, cap, 0};
    format(&s, fmt, ap);
    buf[s.cut ? cr_utf8_cut(buf, s.len) : s.len] = '\0'; /* cut between characters */
}

void cr_error__format(char *buf, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    format_into(buf, cap, fmt, ap);
    va_end(ap);
}

int cr_error_set(cr_error *err, int code, const char *fmt, ...)
{
    if (!err)
        return code;
    va_list ap;
    va_start(ap, fmt);
    format_into(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    err->code = code;
    return code;
}

/* The error model, with a small formatter so that the core needs no stdio,
 * and safe text for messages. */
#include "coinrow/error.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "coinrow/contest.h"
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

static void put_chars(sink *s, char c, size_t count)
{
    while (count--)
        put_char(s, c);
}

static void put_bytes(sink *s, const char *bytes, size_t len)
{
    for (size_t i = 0; i < len; i++)
        put_char(s, bytes[i]);
}

/* One conversion's flags, width and precision. */
typedef struct spec {
    int left, plus, space, alt, zero;
    size_t width;
    int precision; /* -1: none */
} spec;

/* prefix (sign, 0x), `zeros` zeros and body, padded to the width. */
static void put_field(sink *s, const spec *sp, const char *prefix, size_t prefix_len, size_t zeros, const char *body,
                      size_t body_len)
{
    size_t len = prefix_len + zeros + body_len, pad = sp->width > len ? sp->width - len : 0;
    if (!sp->left && !sp->zero)
        put_chars(s, ' ', pad);
    put_bytes(s, prefix, prefix_len);
    put_chars(s, '0', zeros + (!sp->left && sp->zero ? pad : 0));
    put_bytes(s, body, body_len);
    if (sp->left)
        put_chars(s, ' ', pad);
}

/* An integer conversion of magnitude v (negative: a '-' in front). */
static void put_integer(sink *s, spec sp, unsigned long long v, int negative, char conv)
{
    unsigned base = conv == 'o' ? 8 : conv == 'x' || conv == 'X' || conv == 'p' ? 16 : 10;
    const char *digit_chars = conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
    char digits[24], prefix[2];
    size_t k = sizeof digits, prefix_len = 0, zeros = 0;
    for (unsigned long long rest = v; rest; rest /= base)
        digits[--k] = digit_chars[rest % base];
    size_t count = sizeof digits - k;
    if (sp.precision < 0 && count == 0)
        count = 1, digits[--k] = '0'; /* precision 0 prints no digit for 0 */
    if (sp.precision >= 0) {
        sp.zero = 0;
        if ((size_t)sp.precision > count)
            zeros = (size_t)sp.precision - count;
    }
    if (negative || sp.plus || sp.space)
        prefix[prefix_len++] = negative ? '-' : sp.plus ? '+' : ' ';
    if (sp.alt && conv == 'o' && zeros == 0 && (count == 0 || digits[k] != '0'))
        zeros = 1;
    if ((sp.alt && v && (conv == 'x' || conv == 'X')) || conv == 'p') {
        prefix[prefix_len++] = '0';
        prefix[prefix_len++] = conv == 'X' ? 'X' : 'x';
    }
    put_field(s, &sp, prefix, prefix_len, zeros, digits + k, count);
}

/* Reads "[flags][width][.precision]" from *p, taking '*' from ap. */
static spec read_spec(const char **p, va_list *ap)
{
    spec sp = {0, 0, 0, 0, 0, 0, -1};
    for (;; ++*p) {
        switch (**p) {
        case '-': sp.left = 1; continue;
        case '+': sp.plus = 1; continue;
        case ' ': sp.space = 1; continue;
        case '#': sp.alt = 1; continue;
        case '0': sp.zero = 1; continue;
        }
        break;
    }
    if (**p == '*') {
        int w = va_arg(*ap, int);
        if (w < 0)
            sp.left = 1;
        sp.width = w < 0 ? 0u - (unsigned)w : (unsigned)w;
        ++*p;
    }
    for (; **p >= '0' && **p <= '9'; ++*p)
        sp.width = sp.width * 10 + (size_t)(**p - '0');
    if (**p == '.') {
        ++*p;
        sp.precision = 0;
        if (**p == '*') {
            sp.precision = va_arg(*ap, int); /* negative: none */
            ++*p;
        }
        for (; **p >= '0' && **p <= '9'; ++*p)
            sp.precision = sp.precision * 10 + (**p - '0');
    }
    if (sp.left)
        sp.zero = 0;
    return sp;
}

enum { LEN_NONE, LEN_HH, LEN_H, LEN_L, LEN_LL, LEN_J, LEN_Z, LEN_T, LEN_BIG_L };

static int read_length(const char **p)
{
    static const struct {
        char text[3];
        int length;
    } lengths[] = {{"hh", LEN_HH}, {"h", LEN_H}, {"ll", LEN_LL}, {"l", LEN_L},
                   {"j", LEN_J},   {"z", LEN_Z}, {"t", LEN_T},   {"L", LEN_BIG_L}};
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
        size_t len = lengths[i].text[1] ? 2 : 1;
        if ((*p)[0] == lengths[i].text[0] && (len == 1 || (*p)[1] == lengths[i].text[1])) {
            *p += len;
            return lengths[i].length;
        }
    }
    return LEN_NONE;
}

static long long signed_arg(va_list *ap, int length)
{
    switch (length) {
    case LEN_HH: return (signed char)va_arg(*ap, int);
    case LEN_H: return (short)va_arg(*ap, int);
    case LEN_L: return va_arg(*ap, long);
    case LEN_LL: return va_arg(*ap, long long);
    case LEN_J: return va_arg(*ap, intmax_t);
    case LEN_Z: /* the signed type of size_t's width */
    case LEN_T: return va_arg(*ap, ptrdiff_t);
    default: return va_arg(*ap, int);
    }
}

static unsigned long long unsigned_arg(va_list *ap, int length)
{
    switch (length) {
    case LEN_HH: return (unsigned char)va_arg(*ap, unsigned);
    case LEN_H: return (unsigned short)va_arg(*ap, unsigned);
    case LEN_L: return va_arg(*ap, unsigned long);
    case LEN_LL: return va_arg(*ap, unsigned long long);
    case LEN_J: return va_arg(*ap, uintmax_t);
    case LEN_Z: return va_arg(*ap, size_t);
    case LEN_T: return (unsigned long long)va_arg(*ap, ptrdiff_t);
    default: return va_arg(*ap, unsigned);
    }
}

/* printf's conversions but floating point: d i u o x X c s p % with flags,
 * widths, precisions and length modifiers.  A floating-point conversion
 * (the core has none: scripts/check-layers.sh rejects them) is copied as
 * it stands, its argument skipped so that the others stay in step; %n
 * writes nothing. */
static void format(sink *s, const char *fmt, va_list *ap)
{
    for (const char *p = fmt; *p; p++) {
        if (*p != '%') {
            put_char(s, *p);
            continue;
        }
        const char *start = p++;
        spec sp = read_spec(&p, ap);
        int length = read_length(&p);
        switch (*p) {
        case 'd':
        case 'i': {
            long long v = signed_arg(ap, length);
            put_integer(s, sp, v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v, v < 0, *p);
            break;
        }
        case 'u':
        case 'o':
        case 'x':
        case 'X':
            sp.plus = sp.space = 0;
            put_integer(s, sp, unsigned_arg(ap, length), 0, *p);
            break;
        case 'p': {
            const void *v = va_arg(*ap, const void *);
            spec plain = {sp.left, 0, 0, 0, 0, sp.width, -1};
            if (v)
                put_integer(s, plain, (unsigned long long)(uintptr_t)v, 0, 'p');
            else
                put_field(s, &plain, "", 0, 0, "(nil)", 5);
            break;
        }
        case 'c': {
            char c = (char)va_arg(*ap, int);
            sp.zero = 0;
            put_field(s, &sp, "", 0, 0, &c, 1);
            break;
        }
        case 's': {
            const char *str = va_arg(*ap, const char *);
            if (!str)
                str = "(null)";
            size_t len = 0;
            while ((sp.precision < 0 || len < (size_t)sp.precision) && str[len])
                len++;
            sp.zero = 0;
            put_field(s, &sp, "", 0, 0, str, len);
            break;
        }
        case '%': put_char(s, '%'); break;
        case 'n': (void)va_arg(*ap, void *); break;
        case 'a':
        case 'A':
        case 'e':
        case 'E':
        case 'f':
        case 'F':
        case 'g':
        case 'G':
            if (length == LEN_BIG_L)
                (void)va_arg(*ap, long double);
            else
                (void)va_arg(*ap, double);
            put_bytes(s, start, (size_t)(p - start) + 1);
            break;
        default: /* not a conversion: show it rather than guess */
            put_bytes(s, start, (size_t)(p - start) + (*p != '\0'));
            if (!*p)
                return;
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
    va_list copy;
    va_copy(copy, ap); /* passed on by address, which a va_list parameter may not be */
    format(&s, fmt, &copy);
    va_end(copy);
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

/* Safe text for messages (contest.h): here, beside the formatter, so that
 * the contest checks, the verifier and the solver share it without calling
 * one another. */
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

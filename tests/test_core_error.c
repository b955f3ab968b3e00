/* The core's message formatter (cr_error_set), which works without stdio:
 * every conversion it claims formats as the C library's snprintf does,
 * flags, widths, precisions and length modifiers included. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "coinrow.h"
#include "support/oracle.h"

/* The formats are built at run time, to cover every combination, and some
 * are cut on purpose. */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat-security"
#pragma GCC diagnostic ignored "-Wformat-truncation"

enum { CASES = 200000 };

/* One random conversion: its text in fmt, the kind of argument it takes. */
typedef enum kind {
    K_INT, K_LONG, K_LLONG, K_PTRDIFF, K_INTMAX, /* signed; hh and h take an int */
    K_UINT, K_ULONG, K_ULLONG, K_USIZE, K_UINTMAX,
    K_CHAR, K_STRING, K_POINTER, K_NONE
} kind;

typedef struct conversion {
    char fmt[64];
    kind kind;
    int star_width, star_precision, width, precision;
} conversion;

static int pick(uint64_t *rng, int count) { return (int)test_rand_range(rng, 0, count - 1); }

/* Flags, width and precision as C defines them for the conversion. */
static void random_conversion(conversion *c, uint64_t *rng)
{
    static const char convs[] = "diuxXocsp%";
    char conv = convs[pick(rng, (int)sizeof convs - 1)];
    int integer = strchr("diuxXo", conv) != NULL, is_signed = conv == 'd' || conv == 'i';
    size_t len = 0;
    c->fmt[len++] = '%';
    c->star_width = c->star_precision = 0;
    if (conv != '%') {
        static const char flags[] = "-+ #0";
        for (int f = 0; f < 5; f++) {
            char flag = flags[f];
            int allowed = flag == '-' || ((flag == '+' || flag == ' ') && is_signed) ||
                          (flag == '#' && strchr("xXo", conv)) || (flag == '0' && integer);
            if (allowed && pick(rng, 4) == 0)
                c->fmt[len++] = flag;
        }
        switch (pick(rng, 3)) {
        case 0: break;
        case 1: len += (size_t)snprintf(c->fmt + len, sizeof c->fmt - len, "%d", pick(rng, 24)); break;
        default:
            c->fmt[len++] = '*';
            c->star_width = 1;
            c->width = pick(rng, 48) - 12; /* negative: left-justified */
        }
        if ((integer || conv == 's') && pick(rng, 2)) {
            c->fmt[len++] = '.';
            if (pick(rng, 3)) {
                len += (size_t)snprintf(c->fmt + len, sizeof c->fmt - len, "%d", pick(rng, 24));
            } else {
                c->fmt[len++] = '*';
                c->star_precision = 1;
                c->precision = pick(rng, 40) - 8; /* negative: as if none */
            }
        }
    }
    static const char *const signed_lengths[] = {"", "hh", "h", "l", "ll", "z", "t", "j"};
    static const kind signed_kinds[] = {K_INT, K_INT, K_INT, K_LONG, K_LLONG, K_PTRDIFF, K_PTRDIFF, K_INTMAX};
    static const kind unsigned_kinds[] = {K_UINT, K_UINT, K_UINT, K_ULONG, K_ULLONG, K_USIZE, K_USIZE, K_UINTMAX};
    if (integer) {
        int k = pick(rng, 8);
        len += (size_t)snprintf(c->fmt + len, sizeof c->fmt - len, "%s", signed_lengths[k]);
        c->kind = is_signed ? signed_kinds[k] : unsigned_kinds[k];
    } else {
        c->kind = conv == 'c' ? K_CHAR : conv == 's' ? K_STRING : conv == 'p' ? K_POINTER : K_NONE;
    }
    c->fmt[len++] = conv;
    c->fmt[len] = '\0';
}

/* A value of every size, sign and digit count, the limits included. */
static uint64_t random_bits(uint64_t *rng)
{
    switch (pick(rng, 4)) {
    case 0: return (uint64_t)test_rand_range(rng, -3, 3);
    case 1: return test_rand(rng) >> pick(rng, 64);
    case 2: return pick(rng, 2) ? UINT64_MAX : (uint64_t)INT64_MIN;
    default: return test_rand(rng);
    }
}

static const char *const strings[] = {"", "a", "coins", "instance id 'r1'", "0123456789abcdefghijklmnopqrstuvwxyz"};

/* cr_error_set and snprintf on the same format and arguments. */
#define BOTH(...)                                                                                                      \
    do {                                                                                                               \
        cr_error_set(&err, CR_EINVAL, fmt, __VA_ARGS__);                                                               \
        snprintf(want, sizeof want, fmt, __VA_ARGS__);                                                                 \
    } while (0)
#define WITH_STARS(value)                                                                                              \
    do {                                                                                                               \
        if (c->star_width && c->star_precision)                                                                        \
            BOTH(c->width, c->precision, value);                                                                       \
        else if (c->star_width)                                                                                        \
            BOTH(c->width, value);                                                                                     \
        else if (c->star_precision)                                                                                    \
            BOTH(c->precision, value);                                                                                 \
        else                                                                                                           \
            BOTH(value);                                                                                               \
    } while (0)

static void check_conversion(const conversion *c, uint64_t bits, const char *text, void *pointer)
{
    char fmt[96], want[CR_ERROR_MSG_MAX];
    cr_error err = {0};
    snprintf(fmt, sizeof fmt, "<%s>", c->fmt);
    switch (c->kind) {
    case K_INT: WITH_STARS((int)bits); break;
    case K_LONG: WITH_STARS((long)bits); break;
    case K_LLONG: WITH_STARS((long long)bits); break;
    case K_PTRDIFF: WITH_STARS((ptrdiff_t)bits); break; /* %zd too: the signed type of size_t's width */
    case K_INTMAX: WITH_STARS((intmax_t)bits); break;
    case K_UINT: WITH_STARS((unsigned)bits); break;
    case K_ULONG: WITH_STARS((unsigned long)bits); break;
    case K_ULLONG: WITH_STARS((unsigned long long)bits); break;
    case K_USIZE: WITH_STARS((size_t)bits); break;
    case K_UINTMAX: WITH_STARS((uintmax_t)bits); break;
    case K_CHAR: WITH_STARS((int)(' ' + bits % 95)); break;
    case K_STRING: WITH_STARS(text); break;
    case K_POINTER: WITH_STARS(pointer); break;
    case K_NONE:
        cr_error_set(&err, CR_EINVAL, fmt);
        snprintf(want, sizeof want, fmt, 0);
        break;
    }
    if (strcmp(err.msg, want) != 0)
        fail_msg("format \"%s\": cr_error_set wrote \"%s\", snprintf \"%s\"", fmt, err.msg, want);
    assert_int_equal(err.code, CR_EINVAL);
}

static void test_core_error__the_formatter_matches_snprintf_on_every_conversion_it_knows(void **state)
{
    (void)state;
    uint64_t rng = 11;
    int local;
    for (int i = 0; i < CASES; i++) {
        conversion c;
        random_conversion(&c, &rng);
        void *pointer = pick(&rng, 4) ? (void *)&local : NULL;
        check_conversion(&c, random_bits(&rng), strings[pick(&rng, 5)], pointer);
    }
}

/* What export asked of it: a precision on a string, then a number. */
static void test_core_error__a_precision_cuts_a_string_and_the_next_argument_stays_in_step(void **state)
{
    (void)state;
    cr_error err = {0};
    char id[300];
    memset(id, 'x', sizeof id - 1);
    id[sizeof id - 1] = '\0';
    cr_error_set(&err, CR_EINVAL, "instance id '%.40s...' is longer than %d bytes", id, 200);
    assert_string_equal(err.msg, "instance id 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...' is longer than 200 bytes");
}

/* A message longer than the buffer is cut, as snprintf cuts it. */
static void test_core_error__a_long_message_is_cut_to_the_buffer(void **state)
{
    (void)state;
    cr_error err = {0};
    char want[CR_ERROR_MSG_MAX];
    const char *fmt = "%s|%300d|%s";
    cr_error_set(&err, CR_EIO, fmt, "head", -7, "tail");
    snprintf(want, sizeof want, fmt, "head", -7, "tail");
    assert_string_equal(err.msg, want);
    assert_int_equal(strlen(err.msg), CR_ERROR_MSG_MAX - 1);
}

/* What it does not format (floating point, %n, a letter that is no
 * conversion, a '%' at the end) is shown as written, and a floating-point
 * or %n argument is skipped so that the next one stays in step; a NULL
 * string is "(null)", as glibc writes it. */
static void test_core_error__what_it_does_not_format_is_shown_as_written(void **state)
{
    (void)state;
    cr_error err = {0};
    int count = -1;
    const char *volatile none = NULL; /* a NULL the compiler cannot see */
    const char *fmt = "%f|%.2Lg|%d|%n%s|%y|%";
    cr_error_set(&err, CR_EINVAL, fmt, 1.5, (long double)2.5, 7, &count, none);
    assert_string_equal(err.msg, "%f|%.2Lg|7|(null)|%y|%");
    assert_int_equal(count, -1); /* %n writes nothing */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_core_error__the_formatter_matches_snprintf_on_every_conversion_it_knows),
        cmocka_unit_test(test_core_error__a_precision_cuts_a_string_and_the_next_argument_stays_in_step),
        cmocka_unit_test(test_core_error__a_long_message_is_cut_to_the_buffer),
        cmocka_unit_test(test_core_error__what_it_does_not_format_is_shown_as_written),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Rows of coins as text: separators, brackets and the errors that name the
 * value at fault; one coin by position; int64 and JSON formatting. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "util/util.h"

static int parse(cr_coins *c, const char *text, cr_error *err) { return cr_coins_parse(c, text, strlen(text), err); }

static void test_coins__accepts_every_separator_and_json(void **state)
{
    (void)state;
    static const char *const forms[] = {"4 6 2 3", "4,6,2,3", "4;6;2;3", "[4,6,2,3]", " [ 4, 6 ,2 ,3 ] \r\n",
                                        "4\t6\n2  3"};
    cr_coins c = {0};
    for (size_t k = 0; k < sizeof forms / sizeof forms[0]; k++) {
        assert_int_equal(parse(&c, forms[k], NULL), 0);
        assert_int_equal(c.n, 4);
        assert_true(c.v[0] == 4 && c.v[1] == 6 && c.v[2] == 2 && c.v[3] == 3);
    }
    cr_coins_free(&c);
}

/* A NUL is no separator and ends no token: the row is refused, saying
 * where the byte is, and no message is cut short by it. */
static void test_coins__a_nul_byte_is_refused_with_its_position(void **state)
{
    (void)state;
    cr_coins c = {0};
    cr_error err;
    static const struct {
        const char *text;
        size_t len;
        const char *says;
    } rows[] = {
        {"1 2\0 3", 7, "the values have a NUL byte at character 4"},
        {"\0", 1, "the values have a NUL byte at character 1"},
        {"[1,2]\0", 6, "the values have a NUL byte at character 6"},
        {"7 8 9\0", 6, "the values have a NUL byte at character 6"},
    };
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        assert_int_equal(cr_coins_parse(&c, rows[k].text, rows[k].len, &err), CR_EINVAL);
        assert_string_equal(err.msg, rows[k].says);
    }
    int64_t v;
    assert_int_equal(cr_coin_parse(&v, "1\0", 2, 3, &err), CR_EINVAL);
    assert_string_equal(err.msg, "value 3 has a NUL byte at its character 2");
    cr_coins_free(&c);
}

/* A message quotes a token whole up to 43 bytes, else at most 40 and
 * "...", cut between characters; a byte that is not UTF-8 shows as \xNN,
 * also at its end (it was cut off, and the token shown as "..."). */
static void test_coins__a_quoted_token_is_cut_between_characters(void **state)
{
    (void)state;
    cr_coins c = {0};
    cr_error err;
    assert_int_equal(parse(&c, "1 x\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
                               "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9",
                           &err),
                     CR_EINVAL);
    assert_string_equal(err.msg, "value 2 ('x\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
                                 "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9...') is "
                                 "not an integer");
    assert_int_equal(parse(&c, "1 x\xff", &err), CR_EINVAL);
    assert_string_equal(err.msg, "value 2 ('x\\xff') is not an integer");
    assert_int_equal(parse(&c, "\xff", &err), CR_EINVAL);
    assert_string_equal(err.msg, "value 1 ('\\xff') is not an integer");
    assert_int_equal(parse(&c, "2\xc3", &err), CR_EINVAL);
    assert_string_equal(err.msg, "value 1 ('2\\xc3') is not an integer");
    cr_coins_free(&c);
}

static void test_coins__int64_limits(void **state)
{
    (void)state;
    cr_coins c = {0};
    cr_error err;
    assert_int_equal(parse(&c, "-9223372036854775808 9223372036854775807 +5 -0", &err), 0);
    assert_true(c.v[0] == INT64_MIN && c.v[1] == INT64_MAX && c.v[2] == 5 && c.v[3] == 0);
    assert_int_equal(parse(&c, "1 -9223372036854775809", &err), CR_EINVAL);
    assert_string_equal(err.msg, "value 2 ('-9223372036854775809') is out of the int64 range");
    assert_int_equal(parse(&c, "99999999999999999999999999999999999999999999999999", &err), CR_EINVAL);
    assert_string_equal(err.msg, "value 1 ('9999999999999999999999999999999999999999...') is out of the int64 range");
    cr_coins_free(&c);
}

static void test_coins__errors_name_the_value(void **state)
{
    (void)state;
    cr_coins c = {0};
    cr_error err;
    assert_int_equal(parse(&c, "1 2 3.5", &err), CR_EINVAL);
    assert_string_equal(err.msg, "value 3 ('3.5') is not an integer");
    assert_int_equal(parse(&c, "1,,2", &err), CR_EINVAL);
    assert_string_equal(err.msg, "value 2 is empty");
    assert_int_equal(parse(&c, "1,2,", &err), CR_EINVAL);
    assert_string_equal(err.msg, "value 3 is empty");
    assert_int_equal(parse(&c, ",1", &err), CR_EINVAL);
    assert_string_equal(err.msg, "value 1 is empty");
    assert_int_equal(parse(&c, "[1,2", &err), CR_EINVAL);
    assert_string_equal(err.msg, "'[' without a closing ']'");
    assert_int_equal(parse(&c, "  ", &err), CR_EINVAL);
    assert_string_equal(err.msg, "no values");
    assert_int_equal(parse(&c, "[]", &err), CR_EINVAL);
    assert_int_equal(parse(&c, "- 1", &err), CR_EINVAL);
    assert_string_equal(err.msg, "value 1 ('-') is not an integer");
    cr_coins_free(&c);
}

/* A row's tokens read as cr_int64_parse reads them alone, whichever path
 * of the row parser takes them. */
static void test_coins__row_tokens_agree_with_the_int64_parser(void **state)
{
    (void)state;
    static const char *const tokens[] = {"0", "+0", "-0", "007", "-007", "999999999999999999", "-999999999999999999",
                                         "1000000000000000000", "-1000000000000000000", "9223372036854775807",
                                         "9223372036854775808", "-9223372036854775808", "00000000000000000000001",
                                         "12a", "1-2", "--1", "+-1", "+", "1e3", "0x10", "١"};
    cr_coins c = {0};
    for (size_t k = 0; k < sizeof tokens / sizeof tokens[0]; k++) {
        char row[64];
        snprintf(row, sizeof row, "7 %s;8", tokens[k]);
        int64_t want = 0;
        int alone = cr_int64_parse(&want, tokens[k], strlen(tokens[k]));
        cr_error err;
        int rc = parse(&c, row, &err);
        if (alone != 0) {
            assert_int_equal(rc, CR_EINVAL);
            assert_non_null(strstr(err.msg, "value 2 ("));
            continue;
        }
        assert_int_equal(rc, 0);
        assert_int_equal(c.n, 3);
        assert_true(c.v[0] == 7 && c.v[1] == want && c.v[2] == 8);
    }
    cr_coins_free(&c);
}

/* Rows of values of every digit count (1 to 19, both signs, some with
 * leading zeros) under every separator: the one-pass reading of short
 * tokens and the exact parser for long ones agree with the values, and the
 * JSON with writing them. */
static void test_coins__values_of_every_length_read_exactly(void **state)
{
    (void)state;
    char text[4096];
    int64_t want[200];
    cr_coins c = {0};
    uint64_t x = 12345;
    for (int round = 0; round < 300; round++) {
        size_t len = 0, n = 0;
        for (; n < 60; n++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            int digits = 1 + (int)(x % 19);
            uint64_t v = x >> 8;
            uint64_t limit = 1;
            for (int d = 0; d < digits && limit <= UINT64_MAX / 10; d++)
                limit *= 10;
            v %= limit;
            if (v > INT64_MAX)
                v /= 10;
            want[n] = x & 1 ? -(int64_t)v : (int64_t)v;
            const char *sep = n == 0 ? "" : (x & 6) == 0 ? ", " : (x & 6) == 2 ? ";" : " ";
            const char *zeros = (x & 24) == 0 ? "00" : "";
            len += (size_t)snprintf(text + len, sizeof text - len, "%s%s%s%llu", sep, want[n] < 0 ? "-" : "",
                                    zeros, (unsigned long long)v);
        }
        assert_int_equal(parse(&c, text, NULL), 0);
        assert_int_equal(c.n, n);
        for (size_t i = 0; i < n; i++)
            assert_true(c.v[i] == want[i]);
        /* the JSON is what writing the values gives */
        cr_coins again = {0};
        for (size_t i = 0; i < n; i++)
            assert_int_equal(cr_coins_push(&again, want[i], NULL), 0);
        assert_string_equal(c.json, again.json);
        cr_coins_free(&again);
    }
    cr_coins_free(&c);
}

/* Rows as tools write them, one separator between values (the parser's
 * fast path copies such a row whole into the JSON), with now and then a
 * token it must leave to the general reading: "+5", "007", "-0", 19
 * digits, a tab, two separators, a trailing one.  Every row reads as its
 * values, with the JSON of writing them, or fails as the general reading
 * words it. */
static void test_coins__plain_rows_read_as_their_values(void **state)
{
    (void)state;
    char text[2048];
    int64_t want[64];
    cr_coins c = {0};
    uint64_t x = 99991;
#define NEXT() (x ^= x << 13, x ^= x >> 7, x ^= x << 17)
    for (int round = 0; round < 5000; round++) {
        size_t len = 0, n = 1 + NEXT() % 40;
        int bracket = NEXT() % 4 == 0, odd = NEXT() % 3 == 0;
        char sep = " ,;"[NEXT() % 3];
        if (bracket)
            text[len++] = '[';
        for (size_t i = 0; i < n; i++) {
            int digits = 1 + (int)(NEXT() % 18);
            uint64_t v = NEXT() % 10;
            for (int d = 1; d < digits; d++)
                v = v * 10 + NEXT() % 10;
            want[i] = NEXT() & 1 ? -(int64_t)v : (int64_t)v;
            const char *oddity = "";
            if (odd && NEXT() % 8 == 0) {
                static const char *const oddities[] = {"+", "0", "00", "\t", "  "};
                oddity = oddities[NEXT() % 5];
                if (*oddity == '+' && want[i] < 0)
                    want[i] = -want[i];
                if (*oddity == '\t' || *oddity == ' ')
                    len += (size_t)snprintf(text + len, sizeof text - len, "%s", oddity), oddity = "";
            }
            if (i > 0)
                text[len++] = NEXT() % 16 == 0 ? " ,;"[NEXT() % 3] : sep;
            len += (size_t)snprintf(text + len, sizeof text - len, "%s%s%llu", want[i] < 0 ? "-" : "", oddity,
                                    (unsigned long long)v);
        }
        if (odd && NEXT() % 4 == 0)
            len += (size_t)snprintf(text + len, sizeof text - len, "%c%s", sep,
                                    NEXT() & 1 ? "1000000000000000000" : "-0");
        int trailing = odd && NEXT() % 4 == 0;
        if (trailing)
            text[len++] = sep == ' ' ? ',' : sep; /* a trailing space is only trimmed */
        if (bracket)
            text[len++] = ']';
        text[len] = '\0';

        cr_error err;
        if (trailing) {
            assert_int_equal(parse(&c, text, &err), CR_EINVAL);
            assert_non_null(strstr(err.msg, "is empty"));
            continue;
        }
        int rc = parse(&c, text, &err);
        assert_int_equal(rc, 0);
        cr_coins again = {0};
        for (size_t i = 0; i < n; i++)
            assert_int_equal(cr_coins_push(&again, want[i], NULL), 0);
        assert_true(c.n == n || c.n == n + 1); /* the appended long token or -0 */
        if (c.n == n + 1)
            assert_int_equal(cr_coins_push(&again, c.v[n], NULL), 0);
        assert_memory_equal(c.v, again.v, n * sizeof *c.v);
        assert_string_equal(c.json, again.json);
        assert_int_equal(c.json_len, strlen(c.json));
        cr_coins_free(&again);
    }
#undef NEXT
    cr_coins_free(&c);
}


static void assert_formats_as_printf(int64_t value)
{
    char got[CR_INT64_CHARS + 1], want[32];
    size_t len = cr_int64_format(got, value);
    got[len] = '\0';
    snprintf(want, sizeof want, "%lld", (long long)value);
    assert_string_equal(got, want);
}

static void test_coins__int64_format_agrees_with_printf(void **state)
{
    (void)state;
    const int64_t values[] = {0, 1, 9, 10, 99, 100, 101, 999, 1000, -1, -10, -99, -100, 1000000000, 4999999995,
                              INT64_MAX, INT64_MIN, INT64_MIN + 1, 1234567890123456789};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++)
        assert_formats_as_printf(values[i]);
    /* every digit count, at both ends */
    for (int64_t p = 10;; p *= 10) {
        assert_formats_as_printf(p - 1);
        assert_formats_as_printf(p);
        assert_formats_as_printf(-(p - 1));
        assert_formats_as_printf(-p);
        if (p > INT64_MAX / 10)
            break;
    }
}

static void test_coins__json_round_trips_through_the_parser(void **state)
{
    (void)state;
    const int64_t coins[] = {4, -6, INT64_MAX, INT64_MIN, 0};
    cr_coins pushed = {0}, back = {0};
    cr_error err = {0};
    for (size_t i = 0; i < 5; i++)
        assert_int_equal(cr_coins_push(&pushed, coins[i], &err), 0);
    assert_int_equal(pushed.json_len, strlen(pushed.json));
    assert_string_equal(pushed.json, "[4,-6,9223372036854775807,-9223372036854775808,0]");
    assert_int_equal(cr_coins_parse(&back, pushed.json, pushed.json_len, &err), 0);
    assert_int_equal(back.n, 5);
    assert_memory_equal(back.v, coins, sizeof coins);
    assert_string_equal(back.json, pushed.json);
    pushed.n = 0; /* emptied, it starts a new array */
    assert_int_equal(cr_coins_push(&pushed, 7, &err), 0);
    assert_string_equal(pushed.json, "[7]");
    cr_coins_free(&pushed);
    cr_coins_free(&back);
}

/* The JSON is plain decimal whatever the text said, and the same from
 * every form of a row. */
static void test_coins__json_is_plain_decimal(void **state)
{
    (void)state;
    static const char *const forms[] = {"+7 -0 007 -007 00 -5 12",
                                        "[7, 0, 7, -7, 0, -5, 12]",
                                        "7;-0;+007;-7;+0;-5;+12",
                                        "0000000000000000000007 0 7 -7 0 -00000000000000000005 12"};
    cr_coins c = {0};
    for (size_t k = 0; k < sizeof forms / sizeof forms[0]; k++) {
        assert_int_equal(parse(&c, forms[k], NULL), 0);
        assert_string_equal(c.json, "[7,0,7,-7,0,-5,12]");
        assert_int_equal(c.json_len, strlen(c.json));
    }
    cr_coins_free(&c);
}

static void test_coins__one_coin_is_named_by_its_position(void **state)
{
    (void)state;
    int64_t v = 0;
    cr_error err = {0};
    assert_int_equal(cr_coin_parse(&v, " -42\t", 5, 3, &err), 0);
    assert_int_equal(v, -42);
    assert_int_equal(cr_coin_parse(&v, "4x", 2, 7, &err), CR_EINVAL);
    assert_string_equal(err.msg, "value 7 ('4x') is not an integer");
    assert_int_equal(cr_coin_parse(&v, "  ", 2, 2, &err), CR_EINVAL);
    assert_string_equal(err.msg, "value 2 is empty");
    assert_int_equal(cr_coin_parse(&v, "-9223372036854775809", 20, 1, &err), CR_EINVAL);
    assert_string_equal(err.msg, "value 1 ('-9223372036854775809') is out of the int64 range");
    assert_int_equal(cr_coin_parse(&v, "000000000000000000000000000001", 30, 1, &err), 0);
    assert_int_equal(v, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_coins__accepts_every_separator_and_json),
        cmocka_unit_test(test_coins__a_nul_byte_is_refused_with_its_position),
        cmocka_unit_test(test_coins__a_quoted_token_is_cut_between_characters),
        cmocka_unit_test(test_coins__int64_limits),
        cmocka_unit_test(test_coins__errors_name_the_value),
        cmocka_unit_test(test_coins__row_tokens_agree_with_the_int64_parser),
        cmocka_unit_test(test_coins__values_of_every_length_read_exactly),
        cmocka_unit_test(test_coins__plain_rows_read_as_their_values),
        cmocka_unit_test(test_coins__int64_format_agrees_with_printf),
        cmocka_unit_test(test_coins__json_round_trips_through_the_parser),
        cmocka_unit_test(test_coins__json_is_plain_decimal),
        cmocka_unit_test(test_coins__one_coin_is_named_by_its_position),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

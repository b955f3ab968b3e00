/* Names of variants, algorithms and policies; numbers; the error formatter. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "coinrow.h"

static void test_game__names_round_trip(void **state)
{
    (void)state;
    for (int v = 0; v < CR_VARIANT_COUNT; v++) {
        cr_variant back;
        assert_int_equal(cr_variant_parse(&back, cr_variant_name((cr_variant)v), NULL), 0);
        assert_int_equal(back, v);
    }
    for (int a = 0; a < CR_ALGO_COUNT; a++) {
        cr_algo back;
        assert_int_equal(cr_algo_parse(&back, cr_algo_name((cr_algo)a), NULL), 0);
        assert_int_equal(back, a);
    }
    for (int m = 0; m < CR_MOVES_COUNT; m++) {
        cr_moves back;
        assert_int_equal(cr_moves_parse(&back, cr_moves_name((cr_moves)m), NULL), 0);
        assert_int_equal(back, m);
    }
    assert_null(cr_variant_name(CR_VARIANT_COUNT));
    assert_string_equal(cr_winner_name(1), "first");
    assert_string_equal(cr_winner_name(-1), "second");
    assert_string_equal(cr_winner_name(0), "draw");
}

static void test_game__unknown_names_are_refused_with_the_choices(void **state)
{
    (void)state;
    cr_error err;
    cr_algo algo;
    assert_int_equal(cr_algo_parse(&algo, "fastest", &err), CR_EINVAL);
    assert_string_equal(err.msg, "unknown algorithm 'fastest' (expected auto, linear, dp or naive)");
}

static void test_game__variant_lists(void **state)
{
    (void)state;
    unsigned mask;
    cr_error err;
    assert_int_equal(cr_variants_parse(&mask, "all", &err), 0);
    assert_int_equal(mask, CR_VARIANTS_ALL);
    assert_int_equal(cr_variants_parse(&mask, "winner,total,winner", &err), 0);
    assert_int_equal(mask, CR_VARIANT_BIT(CR_WINNER) | CR_VARIANT_BIT(CR_TOTAL));
    assert_int_equal(cr_variants_parse(&mask, "total,,diff", &err), CR_EINVAL);
    assert_int_equal(cr_variants_parse(&mask, "total,best", &err), CR_EINVAL);
    assert_string_equal(err.msg,
                        "unknown variant 'best' in 'total,best' (expected total, diff, remaining, winner or all)");
    assert_int_equal(cr_variants_parse(&mask, "", &err), CR_EINVAL);
    /* it said "unknown variant 'all' ... (expected ... or all)" */
    assert_int_equal(cr_variants_parse(&mask, "all,diff", &err), CR_EINVAL);
    assert_string_equal(err.msg, "'all' in 'all,diff' stands alone, not in a list");
}

static void test_error__formats_without_stdio(void **state)
{
    (void)state;
    cr_error err;
    assert_int_equal(cr_error_set(&err, CR_EIO, "%s at %zu: %d/%u %lld %llu %x %c%% %.*s", "row", (size_t)17, -5,
                                  7u, (long long)INT64_MIN, 18446744073709551615ull, 255u, 'q', 3, "abcdef"),
                     CR_EIO);
    assert_int_equal(err.code, CR_EIO);
    assert_string_equal(err.msg, "row at 17: -5/7 -9223372036854775808 18446744073709551615 ff q% abc");
    char long_text[400];
    memset(long_text, 'x', sizeof long_text - 1);
    long_text[sizeof long_text - 1] = '\0';
    cr_error_set(&err, CR_EINVAL, "%s", long_text);
    assert_int_equal(strlen(err.msg), CR_ERROR_MSG_MAX - 1);
    assert_int_equal(cr_error_set(NULL, CR_ENOMEM, "ignored"), CR_ENOMEM);
    cr_error_clear(&err);
    assert_int_equal(err.code, 0);
    assert_string_equal(err.msg, "");
    assert_string_equal(cr_strerror(CR_EOVERFLOW), "overflow");
}

/* Out of range, a name is NULL; a parse of NULL is refused like an unknown
 * name; every code has its own text. */
static void test_game__names_out_of_range_and_texts_of_every_code(void **state)
{
    (void)state;
    assert_null(cr_variant_name((cr_variant)-1));
    assert_null(cr_algo_name(CR_ALGO_COUNT));
    assert_null(cr_moves_name(CR_MOVES_COUNT));
    assert_null(cr_category_name(CR_CATEGORY_COUNT));
    assert_null(cr_outcome_name(CR_OUTCOME_COUNT));
    assert_null(cr_check_moves_name(CR_CHECK_MOVES_COUNT));
    assert_null(cr_profile_name(CR_PROFILE_COUNT));
    cr_error err;
    cr_variant v;
    assert_int_equal(cr_variant_parse(&v, NULL, &err), CR_EINVAL);
    assert_string_equal(err.msg, "unknown variant '' (expected total, diff, remaining or winner)");
    cr_moves m;
    assert_int_equal(cr_moves_parse(&m, "fast ", &err), CR_EINVAL);
    cr_check_moves cm;
    assert_int_equal(cr_check_moves_parse(&cm, "sometimes", &err), CR_EINVAL);
    assert_string_equal(err.msg, "unknown moves requirement 'sometimes' (expected required or ignored)");
    unsigned mask;
    assert_int_equal(cr_variants_parse(&mask, NULL, &err), CR_EINVAL);
    assert_string_equal(err.msg, "empty variant list");
    static const int codes[] = {CR_OK, CR_EINVAL, CR_EOVERFLOW, CR_ETOOBIG, CR_ENOMEM, CR_EIO, CR_EDB,
                                CR_EINTERRUPTED};
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(cr_strerror(codes[i]), cr_strerror(codes[j]));
    assert_string_equal(cr_strerror(1), "unknown error");
    cr_error_clear(NULL); /* accepted, as every _free accepts NULL */
}

/* cr_int64_parse on its own: nothing, a sign alone, and long tokens with a
 * byte that is no digit on either side of the digits. */
static void test_number__the_int64_parser_refuses_what_is_not_a_number(void **state)
{
    (void)state;
    int64_t v = 42;
    static const char *const bad[] = {"", "-", "+", "1234567890123456789x", "1234567890123456789/",
                                      "-12345678901234567890 "};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(cr_int64_parse(&v, bad[i], strlen(bad[i])), CR_EINVAL);
    assert_int_equal(v, 42);
    assert_int_equal(cr_int64_parse(&v, "+9223372036854775807", 20), 0);
    assert_true(v == INT64_MAX);
    assert_int_equal(cr_int64_parse(&v, "9223372036854775808", 19), CR_EOVERFLOW);
    assert_int_equal(cr_int64_parse(&v, "-9223372036854775809", 20), CR_EOVERFLOW);
}

/* A message cut to fit stops between UTF-8 characters, never inside one. */
static void test_error__a_message_is_cut_between_characters(void **state)
{
    (void)state;
    assert_int_equal(cr_utf8_cut("ab", 2), 2);
    assert_int_equal(cr_utf8_cut("a\xc3\xa9", 3), 3);   /* a complete 2-byte character */
    assert_int_equal(cr_utf8_cut("a\xc3\xa9", 2), 1);   /* its first byte alone */
    assert_int_equal(cr_utf8_cut("\xe2\x82\xac", 2), 0); /* 2 of a 3-byte character */
    assert_int_equal(cr_utf8_cut("\xf0\x9f\x98\x80", 4), 4);
    assert_int_equal(cr_utf8_cut("\xf0\x9f\x98\x80", 3), 0);
    assert_int_equal(cr_utf8_cut("\x80\x80", 2), 2);    /* no UTF-8 to keep whole */
    char name[300];
    for (size_t i = 0; i + 2 < sizeof name; i += 2)
        memcpy(name + i, "\xc3\xa9", 2);
    name[sizeof name - 2] = '\0';
    cr_error err;
    unsigned mask;
    assert_int_equal(cr_variants_parse(&mask, name, &err), CR_EINVAL);
    size_t len = strlen(err.msg);
    assert_true(len < CR_ERROR_MSG_MAX);
    assert_int_equal(cr_utf8_cut(err.msg, len), len);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_game__names_round_trip),
        cmocka_unit_test(test_game__unknown_names_are_refused_with_the_choices),
        cmocka_unit_test(test_game__variant_lists),
        cmocka_unit_test(test_game__names_out_of_range_and_texts_of_every_code),
        cmocka_unit_test(test_number__the_int64_parser_refuses_what_is_not_a_number),
        cmocka_unit_test(test_error__formats_without_stdio),
        cmocka_unit_test(test_error__a_message_is_cut_between_characters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

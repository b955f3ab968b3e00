/* Rows of coins as text: separators, brackets and the errors that name the
 * value at fault. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "io/coins_text.h"

static int parse(cr_coins *c, const char *text, cr_error *err) { return cr_coins_parse(c, text, strlen(text), err); }

static void test_coins_text__accepts_every_separator_and_json(void **state)
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

static void test_coins_text__int64_limits(void **state)
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

static void test_coins_text__errors_name_the_value(void **state)
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_coins_text__accepts_every_separator_and_json),
        cmocka_unit_test(test_coins_text__int64_limits),
        cmocka_unit_test(test_coins_text__errors_name_the_value),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The utilities' names and hash: an unknown name is refused listing the
 * table's names in order; FNV-1a gives its published values (the shards'
 * partition is made of it). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "util/util.h"

static void test_names__a_known_name_gives_its_index(void **state)
{
    (void)state;
    static const char *const names[] = {"kattis", "polygon", "cms"};
    int k = -1;
    assert_int_equal(cr_name_parse(&k, names, 3, "format", "cms", NULL), 0);
    assert_int_equal(k, 2);
}

static void test_names__an_unknown_one_is_refused_listing_every_name_in_order(void **state)
{
    (void)state;
    static const char *const names[] = {"kattis", "polygon", "cms", "plain"};
    cr_error err = {0};
    int k = -1;
    assert_int_equal(cr_name_parse(&k, names, 4, "format", "pdf", &err), CR_EINVAL);
    assert_string_equal(err.msg, "unknown format 'pdf' (kattis, polygon, cms or plain)");
    assert_int_equal(k, -1);
    assert_int_equal(cr_name_parse(&k, names, 2, "format", NULL, &err), CR_EINVAL);
    assert_string_equal(err.msg, "unknown format '' (kattis or polygon)");
    assert_int_equal(cr_name_parse(&k, names, 1, "format", "Kattis", &err), CR_EINVAL);
    assert_string_equal(err.msg, "unknown format 'Kattis' (kattis)");
    /* a name is the whole text: neither a prefix nor nothing is one */
    assert_int_equal(cr_name_parse(&k, names, 4, "format", "poly", NULL), CR_EINVAL);
    assert_int_equal(cr_name_parse(&k, names, 4, "format", "", NULL), CR_EINVAL);
    assert_int_equal(k, -1);
}

static void test_hash__fnv1a_gives_its_published_values(void **state)
{
    (void)state;
    assert_true(cr_fnv1a(CR_FNV1A_BASIS, "", 0) == 0xcbf29ce484222325u);
    assert_true(cr_fnv1a(CR_FNV1A_BASIS, "a", 1) == 0xaf63dc4c8601ec8cu);
    assert_true(cr_fnv1a(CR_FNV1A_BASIS, "foobar", 6) == 0x85944171f73967e8u);
    /* extending a hash is hashing the concatenation */
    assert_true(cr_fnv1a(cr_fnv1a(CR_FNV1A_BASIS, "foo", 3), "bar", 3) == 0x85944171f73967e8u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names__a_known_name_gives_its_index),
        cmocka_unit_test(test_names__an_unknown_one_is_refused_listing_every_name_in_order),
        cmocka_unit_test(test_hash__fnv1a_gives_its_published_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

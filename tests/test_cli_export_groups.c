/* Exporting a set scored by groups (issue 36): each format's package keeps
 * the groups as its judge reads them (kattis: data/secret/GROUP with its
 * testdata.yaml; polygon: problem.xml's groups; cms: GroupMin; plain: a
 * groups file), the exported validators check a test against its group's
 * constraints, and a set whose groups cannot be exported is refused with
 * nothing written.  A set without groups exports as it did: test_cli_export
 * pins those packages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "support/cc.h"
#include "support/files.h"
#include "support/run.h"

/* generate into group `group` of set sub (more arguments follow). */
#define INTO(db, group, points) "generate", "--db", db, "--set", "sub", "--group", group, "--points", points
#define EXPORT(db, format, out) "export", "--db", db, "--set", "sub", "--variant", "diff", "--format", format, "--out", out

static const char *const formats[] = {"kattis", "polygon", "cms", "plain"};

/* Three groups of set sub in db, solved: small (20 points, n <= 20), mid
 * (30, n in 21..60, after small) and big (50, n in 61..90, even n, after
 * both). */
static void three_groups(const char *db)
{
    run_result r;
    COINROW(&r, NULL, INTO(db, "small", "20"), "--count", "3", "--n", "1..20", "--values", "1..100", "--seed", "1",
            "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    COINROW(&r, NULL, INTO(db, "mid", "30"), "--depends", "small", "--count", "2", "--n", "21..60", "--values",
            "1..1000", "--seed", "2", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    COINROW(&r, NULL, INTO(db, "big", "50"), "--depends", "small,mid", "--count", "2", "--n", "61..90", "--even-n",
            "--values", "1..1000", "--seed", "3", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    COINROW(&r, NULL, "solve", "--db", db, "--variant", "diff", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
}

static void test_export_groups__a_group_without_tests_is_refused_naming_the_set_and_the_group(void **state)
{
    tmp_db *f = *state;
    three_groups(f->db);
    /* as an interrupted `generate --group` leaves it: the group made, no test in it yet */
    assert_int_equal(db_exec(f->db, "INSERT INTO test_group (set_id, name, position, points, n_min, n_max, "
                                    "value_min, value_max) SELECT set_id, 'late', 4, 0, 1, 5, 1, 5 FROM test_group "
                                    "WHERE name = 'small'"),
                     0);
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        const char *out = tmp_path(f->dir, "pkg");
        run_result r;
        COINROW(&r, NULL, EXPORT(f->db, formats[i], out));
        assert_int_equal(r.status, 1);
        assert_string_equal(r.err, "coinrow: set 'sub': group 'late' has no tests to export (generate --set sub "
                                   "--group late ... adds some)\n");
        run_result_free(&r);
        assert_int_equal(access(out, F_OK), -1);
    }
}

int main(void)
{
#define TEST(name) cmocka_unit_test_setup_teardown(name, tmp_db_setup, tmp_db_teardown)
    const struct CMUnitTest tests[] = {
        TEST(test_export_groups__a_group_without_tests_is_refused_naming_the_set_and_the_group),
    };
#undef TEST
    return cmocka_run_group_tests(tests, NULL, NULL);
}

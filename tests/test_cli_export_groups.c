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

#include "export/format.h" /* white box: a format without groups, as none of the four is */
#include "store/store.h"
#include "support/cc.h"
#include "support/files.h"
#include "support/run.h"

/* generate into group `group` of set sub (more arguments follow). */
#define INTO(db, group, points) "generate", "--db", db, "--set", "sub", "--group", group, "--points", points
#define EXPORT(db, format, out) "export", "--db", db, "--set", "sub", "--variant", "diff", "--format", format, "--out", out

static const char *const formats[] = {"kattis", "polygon", "cms", "plain"};

/* Three groups of set sub in db, solved: small (20 points, n <= 20), mid
 * (30, n in 21..60, after small) and big (50, n in 61..90, even n, after
 * both), one generate call each. */
static void three_groups(const char *db)
{
    static const char *const calls[][8] = { /* group, points, its ranges, what it depends on */
        {"small", "20", "--n", "1..20", "--values", "1..100", NULL, NULL},
        {"mid", "30", "--n", "21..60", "--values", "1..1000", "--depends", "small"},
        {"big", "50", "--n", "61..90", "--values", "1..1000", "--depends", "small,mid"},
    };
    static const char *const counts[] = {"3", "2", "2"}, *const seeds[] = {"1", "2", "3"};
    run_result r;
    for (size_t c = 0; c < sizeof calls / sizeof calls[0]; c++) {
        const char *args[] = {INTO(db, calls[c][0], calls[c][1]), calls[c][2], calls[c][3], calls[c][4], calls[c][5],
                              "--count", counts[c], "--seed", seeds[c], "--quiet",
                              calls[c][6], calls[c][7], c == 2 ? "--even-n" : NULL, NULL};
        assert_int_equal(run_coinrow_args(&r, NULL, args), 0);
        if (r.status != 0)
            fail_msg("generate --group %s: %s", calls[c][0], r.err);
        run_result_free(&r);
    }
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

/* coinrow's brute force is partially accepted when the groups it passes
 * (short ones) give some points and not all: with 0 points in them, or in
 * the ones it times out on, a judge accepts it in full ("fully accepted:
 * AC (100)", a warning of verifyproblem's), and it is left out. */
static void test_export_groups__the_brute_force_is_partially_accepted_only_with_some_points(void **state)
{
    tmp_db *f = *state;
    run_result r;
    COINROW(&r, NULL, INTO(f->db, "small", "20"), "--n", "1..10", "--values", "1..100", "--count", "3", "--seed", "1",
            "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    COINROW(&r, NULL, INTO(f->db, "large", "80"), "--n", "50..60", "--values", "1..100", "--count", "2", "--seed", "2",
            "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    static const struct {
        const char *points; /* of small, large */
        int partial;
    } cases[] = {{"20, 80", 1}, {"100, 0", 0}, {"0, 100", 0}, {"0, 0", 0}};
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        char sql[256], out[4400], bf[4500];
        int small, large;
        assert_int_equal(sscanf(cases[k].points, "%d, %d", &small, &large), 2);
        snprintf(sql, sizeof sql, "UPDATE test_group SET points = iif(name = 'small', %d, %d)", small, large);
        assert_int_equal(db_exec(f->db, sql), 0);
        snprintf(out, sizeof out, "%s", tmp_path(f->dir, "pkg"));
        COINROW(&r, NULL, EXPORT(f->db, "kattis", out), "--force");
        assert_int_equal(r.status, 0);
        run_result_free(&r);
        snprintf(bf, sizeof bf, "%s/submissions/partially_accepted/brute_force.c", out);
        if ((access(bf, F_OK) == 0) != cases[k].partial)
            fail_msg("points %s: the brute force is %spartially accepted", cases[k].points, cases[k].partial ? "not " : "");
        snprintf(bf, sizeof bf, "%s/submissions/time_limit_exceeded/brute_force.c", out);
        assert_int_equal(access(bf, F_OK), -1);
    }
}

/* A database handed over with a group whose name or points its table's
 * checks would refuse, written with them off: a name that leaves the
 * package's folder, one that ends the validator's C string and runs a
 * command, points that overflow a sum.  Or with dependencies coinrow never
 * makes, in a cycle, on a missing group or on another set's: they were
 * exported (a cycle into Polygon's problem.xml), and scored every group 0
 * in invoke.  Every format refuses the set, naming the group, and writes
 * nothing, inside the folder or out; so does invoke. */
static void test_export_groups__a_group_altered_past_its_checks_is_refused_and_nothing_written(void **state)
{
    tmp_db *f = *state;
    three_groups(f->db);
    static const char *const alterations[][2] = {
        {"UPDATE test_group SET name = '../../escaped' WHERE name = 'mid'",
         "altered.db: group 2 of set 1 breaks what its table promises"},
        {"UPDATE test_group SET name = '\"}};int main(void){return system(\"touch pwned\");}//' WHERE name = 'mid'",
         "altered.db: group 2 of set 1 breaks what its table promises"},
        {"UPDATE test_group SET points = 9223372036854775807 WHERE name IN ('mid', 'big')",
         "altered.db: group 2 of set 1 breaks what its table promises"},
        {"INSERT INTO test_group_dependency VALUES (1, 3)",
         "altered.db: set 1: group 'small' depends on itself through others: the file was changed outside coinrow"},
        {"INSERT INTO test_group_dependency VALUES (2, 99)",
         "altered.db: set 1: group 'mid' depends on group 99, which is missing: the file was changed outside "
         "coinrow"},
        {"INSERT INTO test_group (id, set_id, name, position, points, n_min, n_max, value_min, value_max) VALUES "
         "(7, 9, 'stray', 1, 0, 1, 5, 1, 5); INSERT INTO test_group_dependency VALUES (3, 7)",
         "altered.db: set 1: group 'big' depends on group 7, which is of another set: the file was changed outside "
         "coinrow"},
    };
    char *before = dir_snapshot(f->dir);
    for (size_t k = 0; k < sizeof alterations / sizeof *alterations; k++) {
        char sql[512], db[4400];
        snprintf(db, sizeof db, "%s", tmp_path(f->dir, "altered.db"));
        assert_int_equal(copy_file(f->db, db), 0);
        snprintf(sql, sizeof sql, "PRAGMA ignore_check_constraints = 1; %s", alterations[k][0]);
        assert_int_equal(db_exec(db, sql), 0);
        for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
            const char *out = tmp_path(f->dir, "pkg/deeper/pkg");
            run_result r;
            COINROW(&r, NULL, EXPORT(db, formats[i], out));
            assert_int_equal(r.status, 1);
            if (!strstr(r.err, alterations[k][1]))
                fail_msg("after %s, export said:\n%s", alterations[k][0], r.err);
            run_result_free(&r);
        }
        /* invoke too, before it judges anything: it judged and printed the
         * name, or "of -2" for the points' sum */
        int64_t invocations = db_int(db, "SELECT count(*) FROM invocation");
        run_result r;
        COINROW(&r, NULL, "invoke", "--db", db, "--set", "sub", "--variant", "diff", "--builtin", "greedy");
        assert_int_equal(r.status, 2);
        assert_non_null(strstr(r.err, alterations[k][1]));
        run_result_free(&r);
        assert_int_equal(db_int(db, "SELECT count(*) FROM invocation"), invocations);
        assert_int_equal(remove(db), 0);
        char *after = dir_snapshot(f->dir);
        assert_string_equal(after, before);
        free(after);
    }
    free(before);
}

/* Groups whose names differ only in letter case, in a file an older
 * coinrow made: data/secret/Small and data/secret/small were one folder
 * where the zip was unpacked on Windows or macOS.  Every format refuses. */
static void test_export_groups__groups_differing_only_in_case_are_refused(void **state)
{
    tmp_db *f = *state;
    three_groups(f->db);
    assert_int_equal(db_exec(f->db, "UPDATE test_group SET name = 'SMALL' WHERE name = 'mid'"), 0);
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        const char *out = tmp_path(f->dir, "pkg");
        run_result r;
        COINROW(&r, NULL, EXPORT(f->db, formats[i], out));
        assert_int_equal(r.status, 1);
        assert_non_null(strstr(r.err, "set 'sub': groups 'small' and 'SMALL' differ only in letter case"));
        run_result_free(&r);
        assert_int_equal(access(out, F_OK), -1);
    }
}

/* The file rel of the package at pkg, which must be there. */
static char *package_file(const char *pkg, const char *rel)
{
    char *text = read_text(tmp_path(pkg, rel));
    if (!text)
        fail_msg("the package has no %s", rel);
    return text;
}

/* Exports set sub (three_groups) of f's database to f->dir/name (into
 * pkg) in format, with samples samples (NULL: none) and --no-build. */
static void export_into(char pkg[4300], const tmp_db *f, const char *format, const char *name, const char *samples)
{
    snprintf(pkg, 4300, "%s", tmp_path(f->dir, name));
    run_result r;
    COINROW(&r, NULL, EXPORT(f->db, format, pkg), "--samples", samples ? samples : "0",
            strcmp(format, "cms") == 0 ? "--no-build" : NULL);
    if (r.status != 0)
        fail_msg("export --format %s: exit %d: %s", format, r.status, r.err);
    assert_non_null(strstr(r.out, "' in 3 groups to ")); /* what the tests are scored by, said */
    run_result_free(&r);
}

static void test_export_groups__kattis_scores_each_group_in_its_folder_and_its_validator_checks_it(void **state)
{
    tmp_db *f = *state;
    three_groups(f->db);
    char pkg[4300];
    export_into(pkg, f, "kattis", "kgroups", "1");
    /* the first test (of small) is the sample; the others are in their group's folder */
    static const char *const tests[] = {"data/sample/01", "data/secret/small/02", "data/secret/small/03",
                                        "data/secret/mid/04",  "data/secret/mid/05",   "data/secret/big/06",
                                        "data/secret/big/07"};
    static const char *const flags[] = {NULL, "small", "small", "mid", "mid", "big", "big"};
    char *yaml = package_file(pkg, "problem.yaml");
    assert_non_null(strstr(yaml, "\ntype: scoring\n"));
    assert_non_null(strstr(yaml, "\ngrading:\n  show_test_data_groups: true\n"));
    free(yaml);
    char *text = package_file(pkg, "data/secret/mid/testdata.yaml");
    assert_string_equal(text, "# group mid: n in 21..60, values in 1..1000; after small (Kattis scores each group "
                              "alone)\naccept_score: 30\nrange: 0 30\ngrader_flags: min\non_reject: break\n"
                              "input_validator_flags: --group mid\n");
    free(text);
    text = package_file(pkg, "data/secret/big/testdata.yaml");
    assert_memory_equal(text, "# group big: n in 61..90, values in 1..1000, n even; after small,mid", 68);
    free(text);
    text = package_file(pkg, "data/testdata.yaml");
    assert_non_null(strstr(text, "on_reject: continue\nrange: 0 100\n"));
    free(text);
    text = package_file(pkg, "data/sample/testdata.yaml");
    assert_string_equal(text, "accept_score: 0\nrange: 0 0\n");
    free(text);
    text = package_file(pkg, "data/secret/testdata.yaml");
    assert_string_equal(text, "grader_flags: accept_if_any_accepted\n");
    free(text);

    /* the validator takes each test with its group's flags, and refuses
     * one outside the group it is given; a group the problem lacks is a
     * judge error */
    char validator[4300], in[4300];
    snprintf(validator, sizeof validator, "%s", tmp_path(f->dir, "validator"));
    cc_build(validator, tmp_path(pkg, "input_validators/validator/validator.c"));
    for (size_t k = 0; k < sizeof tests / sizeof tests[0]; k++) {
        snprintf(in, sizeof in, "%s.in", tmp_path(pkg, tests[k]));
        char *run[] = {validator, flags[k] ? "--group" : NULL, (char *)flags[k], NULL};
        assert_int_equal(run_status(run, in), 42);
    }
    snprintf(in, sizeof in, "%s.in", tmp_path(pkg, "data/secret/mid/04"));
    char *as_small[] = {validator, "--group", "small", NULL}, *as_big[] = {validator, "--group", "big", NULL};
    char *as_none[] = {validator, "--group", "huge", NULL}, *as_problem[] = {validator, NULL};
    assert_int_equal(run_status(as_small, in), 43); /* n > 20 */
    assert_int_equal(run_status(as_big, in), 43);   /* n < 61 */
    assert_int_equal(run_status(as_none, in), 1); /* a judge error: the setup is wrong, not the test (it said 43) */
    assert_int_equal(run_status(as_problem, in), 42);
    /* a test of big has an even n: an odd one is refused under big, not under the problem's ranges */
    write_file(in, "63\n1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 "
                   "1 1 1 1 1 1 1 1 1 1 1 1 1 1\n");
    assert_int_equal(run_status(as_big, in), 43);
    assert_int_equal(run_status(as_problem, in), 42);
}

static void test_export_groups__kattis_validator_refuses_unequal_coins_in_an_all_equal_group_naming_the_coin(
    void **state)
{
    tmp_db *f = *state;
    run_result r;
    COINROW(&r, NULL, INTO(f->db, "small", "40"), "--count", "1", "--n", "1..10", "--values", "1..9", "--seed", "1",
            "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    COINROW(&r, NULL, INTO(f->db, "eq", "60"), "--all-equal", "--even-n", "--count", "2", "--n", "2..10", "--values",
            "1..9", "--seed", "2", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    COINROW(&r, NULL, "solve", "--db", f->db, "--variant", "diff", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    const char *pkg = tmp_path(f->dir, "keq");
    COINROW(&r, NULL, EXPORT(f->db, "kattis", pkg), "--samples", "0");
    if (r.status != 0)
        fail_msg("export --format kattis: exit %d: %s", r.status, r.err);
    run_result_free(&r);
    char validator[4300], in[4300];
    snprintf(validator, sizeof validator, "%s", tmp_path(f->dir, "validator"));
    cc_build(validator, tmp_path(pkg, "input_validators/validator/validator.c"));
    char *as_eq[] = {validator, "--group", "eq", NULL}, *as_small[] = {validator, "--group", "small", NULL};
    snprintf(in, sizeof in, "%s", tmp_path(pkg, "data/secret/eq/02.in"));
    assert_int_equal(run_status(as_eq, in), 42); /* the group's own test */
    /* within eq's ranges and n even, but its third coin is not the first's */
    char *run[] = {validator, "--group", "eq", NULL};
    assert_int_equal(run_capture(&r, run, "4\n2 2 3 2\n"), 0);
    assert_int_equal(r.status, 43);
    assert_string_equal(r.err, "standard input: line 2: coin 3 (value 3) differs from coin 1 (value 2), the group "
                               "wants all its coins equal\n");
    run_result_free(&r);
    assert_int_equal(run_capture(&r, as_small, "4\n2 2 3 2\n"), 0);
    assert_int_equal(r.status, 42); /* small does not want its coins equal */
    run_result_free(&r);
}

static void test_export_groups__polygon_gives_each_test_its_group_and_each_group_its_points_and_dependencies(
    void **state)
{
    tmp_db *f = *state;
    three_groups(f->db);
    char pkg[4300];
    export_into(pkg, f, "polygon", "pgroups", "1");
    char *xml = package_file(pkg, "problem.xml");
    assert_non_null(strstr(xml, "            <tests>\n"
                                "                <test method=\"manual\" sample=\"true\" group=\"small\" points=\"20\"/>\n"
                                "                <test method=\"manual\" group=\"small\" points=\"0\"/>\n"
                                "                <test method=\"manual\" group=\"small\" points=\"0\"/>\n"
                                "                <test method=\"manual\" group=\"mid\" points=\"30\"/>\n"
                                "                <test method=\"manual\" group=\"mid\" points=\"0\"/>\n"
                                "                <test method=\"manual\" group=\"big\" points=\"50\"/>\n"
                                "                <test method=\"manual\" group=\"big\" points=\"0\"/>\n"
                                "            </tests>\n"
                                "            <groups>\n"
                                "                <group name=\"small\" points=\"20\" points-policy=\"complete-group\"/>\n"
                                "                <group name=\"mid\" points=\"30\" points-policy=\"complete-group\">\n"
                                "                    <dependencies>\n"
                                "                        <dependency group=\"small\"/>\n"
                                "                    </dependencies>\n"
                                "                </group>\n"
                                "                <group name=\"big\" points=\"50\" points-policy=\"complete-group\">\n"
                                "                    <dependencies>\n"
                                "                        <dependency group=\"small\"/>\n"
                                "                        <dependency group=\"mid\"/>\n"
                                "                    </dependencies>\n"
                                "                </group>\n"
                                "            </groups>\n"
                                "        </testset>\n"));
    free(xml);
    char *val = package_file(pkg, "files/val.cpp");
    assert_non_null(strstr(val, "\n#define CR_JUDGE_GROUP_COUNT 3\n#define CR_JUDGE_GROUPS {{\"small\", {1, 20, 1, 100, "
                                "0, 0}, 0}, {\"mid\", {21, 60, 1, 1000, 0, 0}, 0}, {\"big\", {61, 90, 1, 1000, 1, 0}, "
                                "0}}\n"));
    assert_non_null(strstr(val, "validator.group()"));
    free(val);
}

static void test_export_groups__cms_scores_groupmin_with_a_regex_of_each_group_s_codenames(void **state)
{
    tmp_db *f = *state;
    three_groups(f->db);
    /* a later call into small: its tests come after the others', in id order */
    run_result r;
    COINROW(&r, NULL, INTO(f->db, "small", "20"), "--count", "1", "--n", "1..20", "--values", "1..100", "--seed", "9",
            "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    char pkg[4300];
    export_into(pkg, f, "cms", "cgroups", "1");
    char *yaml = package_file(pkg, "task.yaml");
    assert_non_null(strstr(yaml, "\nn_input: 8\n"));
    assert_non_null(strstr(yaml, "\nscore_type: GroupMin\nscore_type_parameters: [[20, \"^(000|001|002|007)$\"], "
                                 "[30, \"^(003|004)$\"], [50, \"^(005|006)$\"]]\n"));
    free(yaml);
}

static void test_export_groups__plain_writes_a_groups_file_beside_the_tests(void **state)
{
    tmp_db *f = *state;
    three_groups(f->db);
    char pkg[4300];
    export_into(pkg, f, "plain", "plgroups", NULL);
    char *json = package_file(pkg, "groups.json");
    assert_string_equal(json, "{\"groups\": [\n"
                              "  {\"name\": \"small\", \"points\": 20, \"n_min\": 1, \"n_max\": 20, \"value_min\": 1, "
                              "\"value_max\": 100, \"all_equal\": false, \"even_n\": false, \"odd_sum\": false,\n"
                              "   \"depends\": [],\n   \"tests\": [\"small-01\", \"small-02\", \"small-03\"]},\n"
                              "  {\"name\": \"mid\", \"points\": 30, \"n_min\": 21, \"n_max\": 60, \"value_min\": 1, "
                              "\"value_max\": 1000, \"all_equal\": false, \"even_n\": false, \"odd_sum\": false,\n"
                              "   \"depends\": [\"small\"],\n   \"tests\": [\"mid-01\", \"mid-02\"]},\n"
                              "  {\"name\": \"big\", \"points\": 50, \"n_min\": 61, \"n_max\": 90, \"value_min\": 1, "
                              "\"value_max\": 1000, \"all_equal\": false, \"even_n\": true, \"odd_sum\": false,\n"
                              "   \"depends\": [\"small\", \"mid\"],\n   \"tests\": [\"big-01\", \"big-02\"]}\n]}\n");
    free(json);
    char *in = package_file(pkg, "big-02.in");
    free(in);
}

/* A format's test paths for the white-box format below: never called. */
static int no_paths(char in[CR_EXPORT_TEST_PATH_MAX], char ans[CR_EXPORT_TEST_PATH_MAX], cr_package *p,
                    const cr_export_test *t, cr_error *err)
{
    (void)in, (void)ans, (void)p, (void)t, (void)err;
    fail_msg("a format without groups wrote a test of a set of groups");
    return CR_EINVAL;
}

static void test_export_groups__a_format_without_groups_refuses_a_set_of_groups_before_writing(void **state)
{
    tmp_db *f = *state;
    three_groups(f->db);
    const cr_export_format passfail = {.name = "passfail", .test_paths = no_paths};
    cr_store *store = NULL;
    cr_error err = {0};
    int64_t set_id = 0;
    assert_int_equal(cr_store_new(&store, f->db, CR_STORE_READ, &err), 0);
    assert_int_equal(cr_store_set_find(&set_id, store, "sub", 0, NULL, &err), 0);
    cr_export_opts opts = {.format = &passfail, .set_id = set_id, .variant = CR_DIFF};
    const char *out = tmp_path(f->dir, "pkg");
    assert_int_equal(cr_export_check(store, out, &opts, &err), CR_EINVAL);
    assert_string_equal(err.msg, "set 'sub' is scored by 3 groups, which the packages of --format passfail cannot "
                                 "hold (it is for --format kattis, polygon, cms or plain)");
    cr_export_stats stats;
    assert_int_equal(cr_export_write(&stats, store, out, 1, &opts, &err), CR_EINVAL);
    assert_int_equal(access(out, F_OK), -1);
    cr_store_free(store);
}

int main(void)
{
#define TEST(name) cmocka_unit_test_setup_teardown(name, tmp_db_setup, tmp_db_teardown)
    const struct CMUnitTest tests[] = {
        TEST(test_export_groups__a_group_without_tests_is_refused_naming_the_set_and_the_group),
        TEST(test_export_groups__a_group_altered_past_its_checks_is_refused_and_nothing_written),
        TEST(test_export_groups__groups_differing_only_in_case_are_refused),
        TEST(test_export_groups__kattis_scores_each_group_in_its_folder_and_its_validator_checks_it),
        TEST(test_export_groups__kattis_validator_refuses_unequal_coins_in_an_all_equal_group_naming_the_coin),
        TEST(test_export_groups__polygon_gives_each_test_its_group_and_each_group_its_points_and_dependencies),
        TEST(test_export_groups__cms_scores_groupmin_with_a_regex_of_each_group_s_codenames),
        TEST(test_export_groups__plain_writes_a_groups_file_beside_the_tests),
        TEST(test_export_groups__a_format_without_groups_refuses_a_set_of_groups_before_writing),
        TEST(test_export_groups__the_brute_force_is_partially_accepted_only_with_some_points),
    };
#undef TEST
    return cmocka_run_group_tests(tests, NULL, NULL);
}

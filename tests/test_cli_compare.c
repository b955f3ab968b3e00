/* `coinrow compare` end to end: runs of other algorithms and policies agree;
 * results altered by SQL are found, each in its category. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "support/files.h"
#include "support/run.h"

typedef struct fixture_state {
    char *dir;
    char a[4096], b[4096], csv[4096];
} fixture_state;

/* A set of 200 small rows plus [3, 5, 4, 0, 4, 0], on which the line LRRLLL
 * makes two mistakes that cancel out; runs 1 (linear, fast lines) and 2 (dp,
 * canonical lines) of it in database a. */
static int setup(void **state)
{
    fixture_state *f = calloc(1, sizeof *f);
    f->dir = tmp_dir_new();
    snprintf(f->a, sizeof f->a, "%s", tmp_path(f->dir, "a.db"));
    snprintf(f->b, sizeof f->b, "%s", tmp_path(f->dir, "b.db"));
    snprintf(f->csv, sizeof f->csv, "%s", tmp_path(f->dir, "rows.csv"));
    FILE *csv = fopen(f->csv, "w");
    fprintf(csv, "id,values\ncancel,3 5 4 0 4 0\n");
    unsigned x = 7;
    for (int i = 0; i < 200; i++) {
        fprintf(csv, "r%03d,", i);
        for (int k = 0, n = 1 + i % 12; k < n; k++)
            fprintf(csv, "%s%u", k ? " " : "", (x = x * 1103515245u + 12345u) >> 16 & 3u);
        fprintf(csv, "\n");
    }
    fclose(csv);
    run_result r;
    COINROW(&r, NULL, "run", f->csv, "--db", f->a, "--set", "rows", "--algo", "linear", "--moves", "fast", "--quiet");
    int ok = r.status == 0;
    run_result_free(&r);
    COINROW(&r, NULL, "solve", "--db", f->a, "--algo", "dp", "--moves", "canonical", "--quiet");
    ok &= r.status == 0;
    run_result_free(&r);
    *state = f;
    return ok ? 0 : -1;
}

static int teardown(void **state)
{
    fixture_state *f = *state;
    tmp_dir_free(f->dir);
    free(f);
    return 0;
}

/* The line of compare's table for a variant. */
static const char *counts_row(const char *variant, int same, int equivalent, int regression, int missing, int changed)
{
    static char row[128];
    snprintf(row, sizeof row, "%-10s %12d %12d %12d %12d %12d\n", variant, same, equivalent, regression, missing,
             changed);
    return row;
}

static void copy_a_to_b(fixture_state *f)
{
    char sql[8300];
    snprintf(sql, sizeof sql, "VACUUM INTO '%s'", f->b);
    remove(f->b);
    assert_int_equal(db_exec(f->a, sql), 0);
}

static void test_compare_cli__other_algorithm_and_policy_are_same_or_equivalent(void **state)
{
    fixture_state *f = *state;
    run_result r;
    COINROW(&r, NULL, "compare", "--db", f->a, "1", "2");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "no regression, nothing missing"));
    /* fast and canonical lines part on some rows, and both are optimal there */
    assert_null(strstr(r.out, counts_row("all", 804, 0, 0, 0, 0)));
    assert_non_null(strstr(r.out, "speed: b runs at"));
    run_result_free(&r);
    /* a run of no measured time has no speed to compare: it said 0.00x */
    const char *timeless = tmp_path(f->dir, "timeless.db");
    assert_int_equal(copy_file(f->a, timeless), 0);
    assert_int_equal(db_exec(timeless, "UPDATE run SET seconds = 0 WHERE id = 1"), 0);
    COINROW(&r, NULL, "compare", "--db", timeless, "1", "2");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\nspeed: not compared (a run solved no instance, or in no measurable time)\n"));
    run_result_free(&r);
    COINROW(&r, NULL, "compare", "--db", f->a, "1", "2", "--strict-moves");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "lines part at turn"));
    run_result_free(&r);
}

static void test_compare_cli__across_two_files_latest_done_runs(void **state)
{
    fixture_state *f = *state;
    copy_a_to_b(f);
    run_result r;
    COINROW(&r, NULL, "compare", "--db", f->a, "--against", f->b, "--run-a", "2", "--run-b", "2", "--json");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\"run\":2"));
    assert_non_null(strstr(r.out, "\"all\":{\"same\":804,\"equivalent\":0,\"regression\":0,\"missing\":0,\"changed\":0}"));
    assert_non_null(strstr(r.out, "\"passed\": true"));
    run_result_free(&r);
}

static void test_compare_cli__an_altered_value_is_a_regression(void **state)
{
    fixture_state *f = *state;
    copy_a_to_b(f);
    assert_int_equal(db_exec(f->b, "UPDATE result SET value = value + 1 WHERE run_id = 2 AND variant = 'diff' AND "
                                   "instance_id = (SELECT id FROM instance WHERE ext_id = 'r017')"),
                     0);
    run_result r;
    COINROW(&r, NULL, "compare", "--db", f->a, "--against", f->b);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "  r017 (n 6) diff: regression: value "));
    assert_non_null(strstr(r.out, counts_row("diff", 200, 0, 1, 0, 0)));
    run_result_free(&r);
}

/* remaining's scores follow its line; the same line scored otherwise is a regression. */
static void test_compare_cli__the_same_line_with_other_scores_is_a_regression(void **state)
{
    fixture_state *f = *state;
    copy_a_to_b(f);
    assert_int_equal(db_exec(f->b, "UPDATE result SET first_score = first_score + 1, second_score = second_score + 1 "
                                   "WHERE run_id = 2 AND variant = 'remaining' AND "
                                   "instance_id = (SELECT id FROM instance WHERE ext_id = 'r017')"),
                     0);
    run_result r;
    COINROW(&r, NULL, "compare", "--db", f->a, "--against", f->b);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "  r017 (n 6) remaining: regression: the same line scored differently\n"));
    assert_non_null(strstr(r.out, counts_row("remaining", 200, 0, 1, 0, 0)));
    run_result_free(&r);
}

static void test_compare_cli__a_suboptimal_line_with_the_right_score_is_a_regression(void **state)
{
    fixture_state *f = *state;
    copy_a_to_b(f);
    /* the canonical line scores 11 for the first player; so does LRRLLL */
    assert_int_equal(db_int(f->a, "SELECT first_score FROM result_view WHERE run_id = 2 AND ext_id = 'cancel' AND "
                                  "variant = 'total'"),
                     11);
    assert_int_equal(db_exec(f->b, "UPDATE result SET moves = 'LRRLLL' WHERE run_id = 2 AND variant = 'total' AND "
                                   "instance_id = (SELECT id FROM instance WHERE ext_id = 'cancel')"),
                     0);
    run_result r;
    COINROW(&r, NULL, "compare", "--db", f->a, "--against", f->b, "--json");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "{\"ext_id\":\"cancel\",\"n\":6,\"variant\":\"total\",\"category\":\"regression\","
                                  "\"value_a\":11,\"value_b\":11,\"why\":\"b's line: turn "));
    assert_non_null(strstr(r.out, "\"wrong_line\":\"b\""));
    run_result_free(&r);
}

static void test_compare_cli__a_deleted_row_is_missing_and_changed_coins_are_not_compared(void **state)
{
    fixture_state *f = *state;
    copy_a_to_b(f);
    /* diff: neither the first variant nor the last, whatever the order */
    assert_int_equal(db_exec(f->b, "DELETE FROM result WHERE run_id = 2 AND variant = 'diff' AND instance_id = "
                                   "(SELECT id FROM instance WHERE ext_id = 'r100');"
                                   "UPDATE instance SET coins = '[9,9,9,9,9]' WHERE ext_id = 'r004'"),
                     0);
    run_result r;
    COINROW(&r, NULL, "compare", "--db", f->a, "--against", f->b, "--record");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "  r100 (n 5) diff: missing: b has no result"));
    assert_non_null(strstr(r.out, "  r004 (n 5) total: changed: the instance's coins differ: not compared"));
    assert_non_null(strstr(r.out, counts_row("diff", 199, 0, 0, 1, 1)));
    assert_non_null(strstr(r.out, counts_row("remaining", 200, 0, 0, 0, 1)));
    run_result_free(&r);
    assert_int_equal(db_int(f->a, "SELECT missing * 10 + changed FROM comparison WHERE passed = 0"), 14);
}

/* Whether text is one JSON document, as SQLite's json_valid reads it. */
static int json_valid(const char *text)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    int valid = sqlite3_open(":memory:", &db) == SQLITE_OK &&
                sqlite3_prepare_v2(db, "SELECT json_valid(?1)", -1, &st, NULL) == SQLITE_OK &&
                sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW &&
                sqlite3_column_int(st, 0) == 1;
    sqlite3_finalize(st);
    sqlite3_close(db);
    return valid;
}

/* Changed coins alone fail the comparison; --limit N lists N findings, in
 * text and in JSON that stays one valid document. */
static void test_compare_cli__changed_coins_alone_fail_and_the_limit_holds(void **state)
{
    fixture_state *f = *state;
    copy_a_to_b(f);
    assert_int_equal(db_exec(f->b, "UPDATE instance SET coins = '[9,9]' WHERE ext_id IN ('r001', 'r002')"), 0);
    run_result r;
    COINROW(&r, NULL, "compare", "--db", f->a, "--against", f->b, "--limit", "1");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "  r001 (n 2) diff: changed: the instance's coins differ: not compared\n"
                                  "  ... 7 more (--limit)\n"));
    assert_non_null(strstr(r.out, counts_row("all", 796, 0, 0, 0, 8)));
    assert_non_null(strstr(r.out, "FAILED: see above"));
    run_result_free(&r);
    COINROW(&r, NULL, "compare", "--db", f->a, "--against", f->b, "--limit", "2", "--json");
    assert_int_equal(r.status, 1);
    assert_true(json_valid(r.out));
    assert_non_null(strstr(r.out, "\"findings\": [\n    {\"ext_id\":\"r001\",\"n\":2,\"variant\":\"diff\""));
    assert_non_null(strstr(r.out, "},\n    {\"ext_id\":\"r001\",\"n\":2,\"variant\":\"remaining\""));
    assert_null(strstr(r.out, "\"variant\":\"total\",\"category\""));
    assert_non_null(strstr(r.out, "\"passed\": false"));
    run_result_free(&r);
}

/* compare --db b 1 2 on a copy of a altered by sql: trouble (2), and the
 * message has want. */
static void compare_altered(fixture_state *f, const char *sql, const char *want)
{
    copy_a_to_b(f);
    assert_int_equal(db_exec(f->b, sql), 0);
    run_result r;
    COINROW(&r, NULL, "compare", "--db", f->b, "1", "2");
    if (r.status != 2 || !strstr(r.err, want))
        fail_msg("%s: exit %d, %s(wanted '%s')", sql, r.status, r.err, want);
    run_result_free(&r);
    /* --json prints nothing when refused before its document begins, and
     * else ends it with the error: it stopped at "findings": [ */
    COINROW(&r, NULL, "compare", "--db", f->b, "1", "2", "--json");
    if (r.status != 2 ||
        (*r.out && (!json_valid(r.out) || !strstr(r.out, "\n  \"error\": \"") || !strstr(r.out, want))))
        fail_msg("%s --json: exit %d, %s", sql, r.status, r.out);
    run_result_free(&r);
}

/* Rows altered by hand so that they no longer read back stop the
 * comparison as trouble, naming the database, the row and what is wrong. */
static void test_compare_cli__rows_that_do_not_read_back_are_trouble_naming_the_row(void **state)
{
    fixture_state *f = *state;
    compare_altered(f, "UPDATE run SET algo = 'quantum' WHERE id = 1", "b.db: run 1: ");
    compare_altered(f, "UPDATE instance SET coins = '[1,x]' WHERE ext_id = 'cancel'",
                    "b.db: instance 'cancel': coins: ");
    compare_altered(f, "UPDATE solution SET moves = 'LX' WHERE run_id = 2 AND instance_id = 1",
                    "b.db: run 2, instance 1: a line of play holds a letter other than L and R");
    compare_altered(f, "UPDATE solution SET extra = 1 WHERE run_id = 1 AND instance_id = 1",
                    "b.db: run 1, instance 1: the total result is missing from result_extra");
    /* a score gone NULL read as 0, a wrong answer shown as a regression */
    compare_altered(f, "UPDATE solution SET first_score = NULL WHERE run_id = 2 AND instance_id = 1",
                    "b.db: run 2, instance 1: the diff result's scores are missing or not whole numbers");
    /* a BLOB sorts after every text: paging by ext_id went round forever */
    compare_altered(f, "UPDATE instance SET ext_id = CAST(ext_id AS BLOB) WHERE id = 2;"
                       "UPDATE solution SET ext_id = CAST(ext_id AS BLOB) WHERE instance_id = 2",
                    "b.db: instance 2 has an ext_id stored as blob, not text: the file was changed outside coinrow");
}

/* As diff(1): 0 no difference, 1 differences, 2 trouble (a usage error, or
 * anything that stopped the comparison), so that a script can tell a
 * regression from a comparison that could not run. */
static void test_compare_cli__trouble_exits_2_and_differences_1(void **state)
{
    fixture_state *f = *state;
    run_result r;
    COINROW(&r, NULL, "compare", "--db", f->a, "1");
    assert_int_equal(r.status, 2);
    run_result_free(&r);
    COINROW(&r, NULL, "compare", "--db", f->a, "1", "9");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "has no run 9"));
    run_result_free(&r);
    COINROW(&r, NULL, "compare", "--db", f->a, "--against", "no-such.db");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "no-such.db"));
    run_result_free(&r);
    /* runs of two sets, and runs of one set that share no variant */
    copy_a_to_b(f);
    COINROW(&r, NULL, "run", f->csv, "--db", f->b, "--set", "other", "--variant", "total", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    COINROW(&r, NULL, "solve", "--db", f->b, "--set", "rows", "--variant", "diff", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    COINROW(&r, NULL, "compare", "--db", f->b, "1", "3");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "run 1 is of set 'rows' and run 3 of set 'other': nothing to compare\n"));
    run_result_free(&r);
    COINROW(&r, NULL, "compare", "--db", f->b, "--against", f->a, "--run-a", "3", "--run-b", "1");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "nothing to compare\n"));
    run_result_free(&r);
    COINROW(&r, NULL, "solve", "--db", f->b, "--set", "other", "--variant", "winner", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    COINROW(&r, NULL, "compare", "--db", f->b, "3", "5");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "runs 3 and 5 have no variant in common\n"));
    run_result_free(&r);
    COINROW(&r, NULL, "compare", "--help");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "Exit status, as diff(1): 0 no difference, 1 differences"));
    assert_non_null(strstr(r.out, "2 trouble"));
    run_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compare_cli__other_algorithm_and_policy_are_same_or_equivalent),
        cmocka_unit_test(test_compare_cli__across_two_files_latest_done_runs),
        cmocka_unit_test(test_compare_cli__an_altered_value_is_a_regression),
        cmocka_unit_test(test_compare_cli__the_same_line_with_other_scores_is_a_regression),
        cmocka_unit_test(test_compare_cli__a_suboptimal_line_with_the_right_score_is_a_regression),
        cmocka_unit_test(test_compare_cli__a_deleted_row_is_missing_and_changed_coins_are_not_compared),
        cmocka_unit_test(test_compare_cli__changed_coins_alone_fail_and_the_limit_holds),
        cmocka_unit_test(test_compare_cli__rows_that_do_not_read_back_are_trouble_naming_the_row),
        cmocka_unit_test(test_compare_cli__trouble_exits_2_and_differences_1),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

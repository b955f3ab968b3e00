/* Points when judging a set with groups (issue 36): the view
 * invocation_group_points scores a group when every test of it is AC and
 * every group it depends on scores; invoke prints the points group by
 * group; a reference that times out only on the large group gets exactly
 * the other groups' points; strength flags a group every strategy passes;
 * validate --group checks files against their group; the report shows the
 * points by group.  A program that must time out loops for ever above its
 * cap, so that any time limit stops it on any machine; one that must pass
 * answers in a millisecond or two, against a limit of 0.5 s or more. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "support/files.h"
#include "support/programs.h"
#include "support/run.h"

static char *dir;
static char db[4200];

/* The groups, in set "sub": small (20 points, n <= 10, where brute
 * force passes), mid (30, n <= 200, the O(n^2) DP) depending on small, and
 * large (50, n from 400) depending on mid; and set "whole", without groups. */
static int setup(void **state)
{
    (void)state;
    static const char *const calls[][16] = {
        {"--group", "small", "--points", "20", "--count", "3", "--n", "1..10", "--seed", "1"},
        {"--group", "mid", "--points", "30", "--depends", "small", "--count", "3", "--n", "11..200", "--seed", "2"},
        {"--group", "large", "--points", "50", "--depends", "mid", "--count", "2", "--n", "400..500", "--seed", "3"},
    };
    if (!(dir = tmp_dir_new()) || programs_build(dir) != 0)
        return -1;
    snprintf(db, sizeof db, "%s/t.db", dir);
    run_result r;
    for (size_t k = 0; k < sizeof calls / sizeof calls[0]; k++) {
        const char *args[32] = {"generate", "--db", db, "--set", "sub", "--values", "1..1000", "--quiet"};
        size_t n = 8;
        for (const char *const *a = calls[k]; *a; a++)
            args[n++] = *a;
        if (run_coinrow_args(&r, NULL, args) != 0 || r.status != 0)
            return -1;
        run_result_free(&r);
    }
    if (run_coinrow(&r, NULL, "generate", "--db", db, "--set", "whole", "--count", "3", "--n", "1..10", "--values",
                    "1..9", "--seed", "4", "--quiet", (char *)NULL) != 0 ||
        r.status != 0)
        return -1;
    run_result_free(&r);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    tmp_dir_free(dir);
    return 0;
}

/* coinrow invoke of program p with argument arg on set, its answers diff,
 * CPU time limit `seconds`. */
static void invoke(run_result *r, const char *set, program p, const char *arg, const char *seconds)
{
    char path[4300];
    snprintf(path, sizeof path, "%s/%s", dir, program_name(p));
    char *argv[] = {(char *)run_bin(), "invoke", "--db", db, "--set", (char *)set, "--variant", "diff",
                    "--time-limit", (char *)seconds, "--", path, (char *)arg, NULL};
    assert_int_equal(run_capture(r, argv, NULL), 0);
}

static int64_t latest(void) { return db_int(db, "SELECT max(id) FROM invocation"); }

/* The latest invocation's row of invocation_group_points, group by group:
 * "name points tests judged accepted passed scored", and the total. */
static char *points(void)
{
    char sql[1024];
    snprintf(sql, sizeof sql,
             "SELECT (SELECT group_concat(group_name || ' ' || points || ' ' || tests || ' ' || judged || ' ' || "
             "accepted || ' ' || passed || ' ' || scored, ', ') FROM (SELECT * FROM invocation_group_points "
             "WHERE invocation_id = %1$lld ORDER BY position)) || ' = ' || (SELECT scored || ' of ' || points || "
             "', ' || groups_passed || ' of ' || groups FROM invocation_points WHERE invocation_id = %1$lld)",
             (long long)latest());
    char *text = db_text(db, sql);
    assert_non_null(text);
    return text;
}

static void test_group_points__a_reference_that_times_out_only_on_the_large_group_gets_the_other_groups_points(
    void **state)
{
    (void)state;
    run_result r;
    invoke(&r, "sub", PROGRAM_CAPPED, "300", "0.5");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "judged 8 of 8: AC 6, TLE 2\n"
                                  "points: 50 of 100: small 20 of 20, mid 30 of 30, large 0 of 50 (AC 0 of 2)\n"));
    run_result_free(&r);
    char *text = points();
    assert_string_equal(text, "small 20 3 3 3 1 20, mid 30 3 3 3 1 30, large 50 2 2 0 0 0 = 50 of 100, 2 of 3");
    free(text);
}

static void test_group_points__a_correct_program_gets_every_point(void **state)
{
    (void)state;
    run_result r;
    invoke(&r, "sub", PROGRAM_CORRECT, NULL, "1");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "judged 8 of 8: AC 8\n"
                                  "points: 100 of 100: small 20 of 20, mid 30 of 30, large 50 of 50\n"));
    run_result_free(&r);
    char *text = points();
    assert_string_equal(text, "small 20 3 3 3 1 20, mid 30 3 3 3 1 30, large 50 2 2 2 1 50 = 100 of 100, 3 of 3");
    free(text);
}

/* coinrow invoke --label LABEL of the source NAME.c, in dir, limited to
 * 0.5 s; its invocation's id. */
static int64_t invoke_labelled(const char *name, const char *label)
{
    char path[300];
    snprintf(path, sizeof path, "%s.c", name);
    char *argv[] = {(char *)run_bin(), "invoke", "--db", db, "--set", "sub", "--variant", "diff", "--time-limit",
                    "0.5", "--label", (char *)label, "--", path, NULL};
    run_result r; /* in dir: export copies a source only from its invocation's folder */
    assert_int_equal(run_capture_in(&r, dir, argv, NULL), 0);
    run_result_free(&r);
    return latest();
}

/* export --submissions puts an invocation labelled partially_accepted in
 * the package only when its judge scores it so: some points and not all;
 * and one of a failing folder only when it scores none.  Here Kattis, which
 * scores each group alone, and Polygon, which scores as invoke does, agree:
 * the capped programs pass the first groups only. */
static void test_group_points__export_takes_a_partially_accepted_program_by_its_points(void **state)
{
    (void)state;
    /* the capped DP, its cap at small's largest n: small's 20 points */
    char *text = read_text(tmp_path(dir, "capped.c"));
    assert_non_null(text);
    char *cap = strstr(text, "(argc > 1 ? strtol(argv[1], NULL, 10) : 0)");
    assert_non_null(cap);
    size_t size = strlen(text) + 3;
    char *capped10 = malloc(size);
    assert_non_null(capped10);
    snprintf(capped10, size, "%.*s10%s", (int)(cap - text), text,
             cap + strlen("(argc > 1 ? strtol(argv[1], NULL, 10) : 0)"));
    assert_int_equal(write_file(tmp_path(dir, "capped10.c"), capped10), 0);
    free(capped10);
    free(text);
    int64_t some = invoke_labelled("capped10", "partially_accepted");
    int64_t all = invoke_labelled(program_name(PROGRAM_CORRECT), "partially_accepted");
    invoke_labelled(program_name(PROGRAM_CAPPED), "partially_accepted"); /* its cap 0: no point */

    run_result r;
    const char *pkg = tmp_path(dir, "partial");
    COINROW(&r, NULL, "export", "--db", db, "--set", "sub", "--variant", "diff", "--moves", "canonical", "--format", "kattis",
            "--out", pkg, "--submissions");
    assert_int_equal(r.status, 0);
    char why[512];
    snprintf(why, sizeof why, "2 labelled invocations left out of the package; the first: invocation %lld (label "
             "partially_accepted): a judge that scores each group alone gives it AC with 100 of 100 points",
             (long long)all);
    if (!strstr(r.err, why))
        fail_msg("export said: %s", r.err);
    run_result_free(&r);
    COINROW(&r, NULL, "export", "--db", db, "--set", "sub", "--variant", "diff", "--moves", "canonical", "--format",
            "polygon", "--out", tmp_path(dir, "partial-polygon"), "--submissions");
    assert_int_equal(r.status, 0);
    snprintf(why, sizeof why, "2 labelled invocations left out of the package; the first: invocation %lld (label "
             "partially_accepted): it scored 100 of 100 points, where a partially accepted program scores some and "
             "not all", (long long)all);
    if (!strstr(r.err, why))
        fail_msg("export said: %s", r.err);
    run_result_free(&r);
    char rel[256];
    snprintf(rel, sizeof rel, "submissions/partially_accepted/inv%lld-capped10.c", (long long)some);
    char *copy = read_text(tmp_path(pkg, rel));
    assert_non_null(copy);
    free(copy);

    /* the DP up to 10 coins that answers 0 beyond, labelled wrong_answer:
     * small's 20 points, which a judge of groups reads as AC (20); it was
     * exported, and verifyproblem failed the package */
    text = read_text(tmp_path(dir, "capped.c"));
    assert_non_null(text);
    const char *loop = "while (n > (argc > 1 ? strtol(argv[1], NULL, 10) : 0)) x++;";
    char *at = strstr(text, loop);
    assert_non_null(at);
    char *wrong10 = malloc(strlen(text) + 64);
    assert_non_null(wrong10);
    sprintf(wrong10, "%.*sif (n > 10) { (void)x; (void)argv; puts(\"0\"); return 0; }%s", (int)(at - text), text,
            at + strlen(loop));
    assert_int_equal(write_file(tmp_path(dir, "wrong10.c"), wrong10), 0);
    free(wrong10);
    free(text);
    assert_int_equal(db_exec(db, "UPDATE invocation SET label = NULL"), 0);
    int64_t wrong = invoke_labelled("wrong10", "wrong_answer");
    const char *pkg2 = tmp_path(dir, "partialwrong");
    COINROW(&r, NULL, "export", "--db", db, "--set", "sub", "--variant", "diff", "--moves", "canonical", "--format", "kattis",
            "--out", pkg2, "--submissions");
    if (r.status != 0)
        fail_msg("export: exit %d: %s", r.status, r.err);
    snprintf(why, sizeof why, "invocation %lld (label wrong_answer): a judge that scores each group alone gives it AC "
             "with 20 of 100 points", (long long)wrong);
    if (!strstr(r.err, why))
        fail_msg("export said: %s", r.err);
    run_result_free(&r);
    COINROW(&r, NULL, "export", "--db", db, "--set", "sub", "--variant", "diff", "--moves", "canonical", "--format",
            "polygon", "--out", tmp_path(dir, "partialwrong-polygon"), "--submissions");
    assert_int_equal(r.status, 0);
    snprintf(why, sizeof why, "invocation %lld (label wrong_answer): it scored 20 of 100 points, which a judge of "
             "groups reads as accepted with a partial score (label it partially_accepted)", (long long)wrong);
    if (!strstr(r.err, why))
        fail_msg("export said: %s", r.err);
    run_result_free(&r);
    snprintf(rel, sizeof rel, "submissions/wrong_answer/inv%lld-wrong10.c", (long long)wrong);
    assert_int_equal(access(tmp_path(pkg2, rel), F_OK), -1);
}

/* Exports set sub to format with `samples` samples and the submissions,
 * into dir/name: 0, and the folder the invocation `id` went to ("" when
 * left out) into folder, the reason it was left out into why. */
static void export_submissions(char *folder, size_t folder_cap, char *why, size_t why_cap, const char *format,
                               const char *samples, const char *name, int64_t id)
{
    run_result r;
    char pkg[4300];
    snprintf(pkg, sizeof pkg, "%s", tmp_path(dir, name));
    COINROW(&r, NULL, "export", "--db", db, "--set", "sub", "--variant", "diff", "--moves", "canonical", "--format",
            format, "--samples", samples, "--out", pkg, "--submissions");
    if (r.status != 0)
        fail_msg("export %s: exit %d: %s", name, r.status, r.err);
    snprintf(why, why_cap, "%s", r.err);
    run_result_free(&r);
    folder[0] = '\0';
    static const char *const folders[] = {"accepted", "partially_accepted", "wrong_answer"};
    int kattis = strcmp(format, "kattis") == 0; /* Polygon's solutions/ has no folders: "in" */
    for (size_t k = 0; k < sizeof folders / sizeof *folders; k++) {
        char rel[256];
        if (kattis)
            snprintf(rel, sizeof rel, "submissions/%s/inv%lld-wrongsmall.c", folders[k], (long long)id);
        else
            snprintf(rel, sizeof rel, "solutions/inv%lld-wrongsmall.c", (long long)id);
        if (access(tmp_path(pkg, rel), F_OK) == 0)
            snprintf(folder, folder_cap, "%s", kattis ? folders[k] : "in");
    }
}

/* A program wrong only on small's tests scores nothing by invoke's points
 * (mid and large depend on small) and 80 on Kattis, which scores each group
 * alone, or WA when small's first test is its sample, judged first: its
 * folder is the one its package's judge gives it.  Its wrong_answer copy
 * went into a Kattis package, and verifyproblem said "got AC (80)"; a
 * partially_accepted copy of a program that failed only a sample went in,
 * and verifyproblem said "got WA". */
static void test_group_points__export_files_a_program_by_the_verdict_its_packages_judge_gives(void **state)
{
    (void)state;
    char *text = read_text(tmp_path(dir, "correct.c"));
    assert_non_null(text);
    const char *value = "printf(\"%lld\\n\", d[n - 1]);";
    char *at = strstr(text, value);
    assert_non_null(at);
    char *wrong = malloc(strlen(text) + 64);
    assert_non_null(wrong);
    sprintf(wrong, "%.*sprintf(\"%%lld\\n\", d[n - 1] + (n <= 10));%s", (int)(at - text), text, at + strlen(value));
    assert_int_equal(write_file(tmp_path(dir, "wrongsmall.c"), wrong), 0);
    free(wrong);
    free(text);
    assert_int_equal(db_exec(db, "UPDATE invocation SET label = NULL"), 0);
    int64_t as_wrong = invoke_labelled("wrongsmall", "wrong_answer");
    int64_t as_partial = invoke_labelled("wrongsmall", "partially_accepted");
    char folder[64], why[2048], want[512];
    /* no sample: AC (80) */
    export_submissions(folder, sizeof folder, why, sizeof why, "kattis", "0", "alone0", as_partial);
    assert_string_equal(folder, "partially_accepted");
    snprintf(want, sizeof want, "invocation %lld (label wrong_answer): a judge that scores each group alone gives it "
             "AC with 80 of 100 points", (long long)as_wrong);
    if (!strstr(why, want))
        fail_msg("export said: %s", why);
    export_submissions(folder, sizeof folder, why, sizeof why, "kattis", "0", "alone0b", as_wrong);
    assert_string_equal(folder, "");
    /* small-01 a sample: WA there */
    export_submissions(folder, sizeof folder, why, sizeof why, "kattis", "1", "alone1", as_wrong);
    assert_string_equal(folder, "wrong_answer");
    snprintf(want, sizeof want, "invocation %lld (label partially_accepted): a judge that scores each group alone "
             "gives it WA, at the sample test 'small-01'", (long long)as_partial);
    if (!strstr(why, want))
        fail_msg("export said: %s", why);
    export_submissions(folder, sizeof folder, why, sizeof why, "kattis", "1", "alone1b", as_partial);
    assert_string_equal(folder, "");
    /* Polygon scores as invoke does: no point, WA */
    export_submissions(folder, sizeof folder, why, sizeof why, "polygon", "1", "after", as_wrong);
    assert_string_equal(folder, "in");
    export_submissions(folder, sizeof folder, why, sizeof why, "polygon", "1", "afterb", as_partial);
    assert_string_equal(folder, "");
    snprintf(want, sizeof want, "invocation %lld (label partially_accepted): it scored 0 of 100 points",
             (long long)as_partial);
    if (!strstr(why, want))
        fail_msg("export said: %s", why);
    assert_int_equal(db_exec(db, "UPDATE invocation SET label = NULL"), 0);
}

/* An invocation that has not judged every test the set has now is left
 * out of a package, naming how many it judged: it was filed as accepted,
 * and the judge then failed it on a test added since. */
static void test_group_points__export_leaves_out_a_program_the_set_has_grown_past(void **state)
{
    (void)state;
    run_result r;
    COINROW(&r, NULL, "generate", "--db", db, "--set", "grown", "--count", "3", "--n", "1..10", "--values", "1..9",
            "--seed", "5", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    char path[300];
    snprintf(path, sizeof path, "%s.c", program_name(PROGRAM_CORRECT));
    char *argv[] = {(char *)run_bin(), "invoke", "--db", db, "--set", "grown", "--variant", "diff", "--time-limit",
                    "0.5", "--label", "accepted", "--", path, NULL};
    assert_int_equal(run_capture_in(&r, dir, argv, NULL), 0);
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    int64_t id = latest();
    const char *csv = tmp_path(dir, "extra.csv");
    assert_int_equal(write_file(csv, "id,values\nextra,\"3 1 4\"\n"), 0);
    COINROW(&r, NULL, "ingest", csv, "--db", db, "--set", "grown", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    COINROW(&r, NULL, "export", "--db", db, "--set", "grown", "--variant", "diff", "--moves", "canonical", "--format",
            "kattis", "--out", tmp_path(dir, "grown"), "--submissions");
    assert_int_equal(r.status, 0);
    char want[256];
    snprintf(want, sizeof want, "invocation %lld (label accepted): it judged 3 of the set's 4 tests (tests were added "
             "since: invoke it again)", (long long)id);
    if (!strstr(r.err, want))
        fail_msg("export said: %s", r.err);
    assert_non_null(strstr(r.out, " and 0 submissions to "));
    run_result_free(&r);
}

/* A group whose every test is AC scores nothing when a group it depends
 * on, or one that one depends on, fails: the verdicts of a correct
 * program, one of small's then made WA, and one of large's missing. */
static void test_group_points__a_group_scores_only_when_the_groups_it_depends_on_score(void **state)
{
    (void)state;
    run_result r;
    invoke(&r, "sub", PROGRAM_CORRECT, NULL, "1");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    char sql[512];
    snprintf(sql, sizeof sql,
             "UPDATE verdict SET verdict = 'WA' WHERE invocation_id = %1$lld AND instance_id = (SELECT min(id) "
             "FROM instance WHERE ext_id LIKE 'small-%%'); DELETE FROM verdict WHERE invocation_id = %1$lld AND "
             "instance_id = (SELECT min(id) FROM instance WHERE ext_id LIKE 'large-%%')",
             (long long)latest());
    assert_int_equal(db_exec(db, sql), 0);
    char *text = points();
    assert_string_equal(text, "small 20 3 3 2 0 0, mid 30 3 3 3 0 0, large 50 2 1 1 0 0 = 0 of 100, 0 of 3");
    free(text);
}

/* A set without groups prints as before, and has no points. */
static void test_group_points__a_set_without_groups_has_no_points(void **state)
{
    (void)state;
    run_result r;
    invoke(&r, "whole", PROGRAM_CORRECT, NULL, "1");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "judged 3 of 3: AC 3\nslowest (CPU): "));
    assert_null(strstr(r.out, "points"));
    run_result_free(&r);
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM invocation_group_points WHERE invocation_id = %lld",
             (long long)latest());
    assert_int_equal(db_int(db, sql), 0);
}

/* strength names, group by group, the strategies that pass it, and flags
 * as weak a group that every strategy passes: antigreedy tests break
 * greedy, equal coins break none; a group worth no points is not weak. */
static void test_group_points__strength_flags_a_group_every_strategy_passes(void **state)
{
    (void)state;
    run_result r;
    COINROW(&r, NULL, "generate", "--db", db, "--set", "str", "--group", "ag", "--points", "10", "--profile",
            "antigreedy", "--even-n", "--count", "3", "--n", "4..8", "--values", "1..100", "--seed", "3", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    COINROW(&r, NULL, "generate", "--db", db, "--set", "str", "--group", "eq", "--points", "5", "--all-equal",
            "--count", "3", "--n", "2..6", "--values", "1..9", "--seed", "3", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    /* a group worth no points (samples) is easy without being weak */
    COINROW(&r, NULL, "generate", "--db", db, "--set", "str", "--group", "zero", "--points", "0", "--all-equal",
            "--count", "2", "--n", "2..6", "--values", "1..9", "--seed", "4", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    COINROW(&r, NULL, "strength", "--db", db, "--set", "str", "--variant", "diff");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "\ngroup            points  tests  passed by (no test of it breaks them)\n"
                                  "ag                   10      3  parity, lookahead2\n"
                                  "eq                    5      3  greedy, left, parity, lookahead2: WEAK, every "
                                  "strategy passes it\n"
                                  "zero                  0      2  greedy, left, parity, lookahead2: every strategy "
                                  "passes it, worth no points\n"
                                  "WEAK: 1 group that every strategy passes\n"));
    run_result_free(&r);
    /* a set without groups has no table of groups */
    COINROW(&r, NULL, "strength", "--db", db, "--set", "whole", "--variant", "diff");
    assert_null(strstr(r.out, "group"));
    run_result_free(&r);
}

/* validate --group checks files against a group's constraints, as the
 * database holds them, naming the file, the group and the constraint. */
static void test_group_points__validate_group_names_the_file_the_group_and_the_constraint(void **state)
{
    (void)state;
    run_result r;
    COINROW(&r, NULL, "generate", "--db", db, "--set", "val", "--group", "eq", "--points", "5", "--all-equal",
            "--even-n", "--count", "1", "--n", "2..6", "--values", "1..9", "--seed", "3", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    char ok[4300], big[4300], unequal[4300], odd[4300];
    snprintf(ok, sizeof ok, "%s/ok.in", dir);
    snprintf(big, sizeof big, "%s/big.in", dir);
    snprintf(unequal, sizeof unequal, "%s/unequal.in", dir);
    snprintf(odd, sizeof odd, "%s/odd.in", dir);
    assert_int_equal(write_file(ok, "4\n7 7 7 7\n"), 0);
    assert_int_equal(write_file(big, "12\n1 2 3 4 5 6 7 8 9 10 11 12\n"), 0);
    assert_int_equal(write_file(unequal, "4\n7 7 8 7\n"), 0);
    assert_int_equal(write_file(odd, "3\n7 7 7\n"), 0);

    COINROW(&r, NULL, "validate", "--db", db, "--set", "val", "--group", "eq", ok);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    run_result_free(&r);
    COINROW(&r, NULL, "validate", "--db", db, "--set", "val", "--group", "eq", "--kattis", ok);
    assert_int_equal(r.status, 42);
    run_result_free(&r);
    /* each file is checked, and each failure named */
    COINROW(&r, NULL, "validate", "--db", db, "--set", "val", "--group", "eq", ok, unequal, odd);
    assert_int_equal(r.status, 3);
    assert_non_null(strstr(r.err, "unequal.in: group 'eq' of set 'val': line 2: coin 3 (value 8) differs from "
                                  "coin 1 (value 7), the group wants all its coins equal\n"));
    assert_non_null(strstr(r.err, "odd.in: group 'eq' of set 'val': line 1, column 1: n = 3 is odd"));
    assert_null(strstr(r.err, "ok.in"));
    run_result_free(&r);
    COINROW(&r, NULL, "validate", "--db", db, "--set", "sub", "--group", "small", "--kattis", big);
    assert_int_equal(r.status, 43);
    assert_non_null(strstr(r.err, "big.in: group 'small' of set 'sub': line 1, column 1: n = 12 is out of range "
                                  "1..10\n"));
    run_result_free(&r);

    COINROW(&r, NULL, "validate", "--db", db, "--set", "val", "--group", "small", ok);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "set 'val' has no group 'small'"));
    run_result_free(&r);
    COINROW(&r, NULL, "validate", "--group", "eq", ok);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "--group needs --set"));
    run_result_free(&r);
    COINROW(&r, NULL, "validate", "--db", db, "--set", "val", "--group", "eq", "--n", "1..5", ok);
    assert_int_equal(r.status, 2);
    run_result_free(&r);
}

/* The report shows, above its matrix of verdicts, each invocation's points
 * group by group and in all; a set without groups shows no such table. */
static void test_group_points__the_report_shows_the_points_by_group(void **state)
{
    (void)state;
    run_result r;
    COINROW(&r, NULL, "generate", "--db", db, "--set", "rep", "--group", "low", "--points", "40", "--count", "2",
            "--n", "1..10", "--values", "1..99", "--seed", "5", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    COINROW(&r, NULL, "generate", "--db", db, "--set", "rep", "--group", "high", "--points", "60", "--depends", "low",
            "--count", "1", "--n", "400..450", "--values", "1..99", "--seed", "6", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    invoke(&r, "rep", PROGRAM_CORRECT, NULL, "1");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    invoke(&r, "rep", PROGRAM_CAPPED, "100", "0.5");
    assert_int_equal(r.status, 1);
    run_result_free(&r);
    char out[4300];
    snprintf(out, sizeof out, "%s/rep.html", dir);
    COINROW(&r, NULL, "report", "--db", db, "--set", "rep", "--out", out);
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    char *page = read_text(out);
    assert_non_null(page);
    const char *table = strstr(page, "<table class=\"matrix\" id=\"points\"><thead><tr><th>group</th>"
                                     "<th class=\"num\">points</th><th class=\"inv\" title=");
    assert_non_null(table);
    assert_true(table < strstr(page, "id=\"matrix\""));
    assert_non_null(strstr(table, "<tr><td>low <small>(2 tests)</small></td><td class=\"num\">40</td>"
                                  "<td class=\"cell v-AC\"><b>40</b><small>AC 2 of 2</small></td>"
                                  "<td class=\"cell v-AC\"><b>40</b><small>AC 2 of 2</small></td></tr>\n"
                                  "<tr><td>high <small>(1 test; needs low)</small></td><td class=\"num\">60</td>"
                                  "<td class=\"cell v-AC\"><b>60</b><small>AC 1 of 1</small></td>"
                                  "<td class=\"cell v-WA\"><b>0</b><small>AC 0 of 1</small></td></tr>\n"));
    assert_non_null(strstr(table, "<tr><td colspan=\"2\">points in all</td><td><b>100</b> of 100</td>"
                                  "<td><b>40</b> of 100</td></tr>"));
    free(page);

    invoke(&r, "whole", PROGRAM_CORRECT, NULL, "1");
    run_result_free(&r);
    COINROW(&r, NULL, "report", "--db", db, "--set", "whole", "--out", out);
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    page = read_text(out);
    assert_non_null(page);
    assert_non_null(strstr(page, "id=\"matrix\""));
    assert_null(strstr(page, "Points by group"));
    assert_null(strstr(page, "id=\"points\""));
    free(page);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(
            test_group_points__a_reference_that_times_out_only_on_the_large_group_gets_the_other_groups_points),
        cmocka_unit_test(test_group_points__a_correct_program_gets_every_point),
        cmocka_unit_test(test_group_points__export_takes_a_partially_accepted_program_by_its_points),
        cmocka_unit_test(test_group_points__export_files_a_program_by_the_verdict_its_packages_judge_gives),
        cmocka_unit_test(test_group_points__export_leaves_out_a_program_the_set_has_grown_past),
        cmocka_unit_test(test_group_points__a_group_scores_only_when_the_groups_it_depends_on_score),
        cmocka_unit_test(test_group_points__a_set_without_groups_has_no_points),
        cmocka_unit_test(test_group_points__strength_flags_a_group_every_strategy_passes),
        cmocka_unit_test(test_group_points__validate_group_names_the_file_the_group_and_the_constraint),
        cmocka_unit_test(test_group_points__the_report_shows_the_points_by_group),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

/* Groups of tests in a set (issue 36, schema/010_groups.sql) end to end:
 * `generate --group` builds one set from several groups, the same command
 * again changes nothing, a call that does not fit its group is refused
 * with the file left byte for byte, and the groups read in SQL. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/files.h"
#include "support/run.h"

/* generate into group `group` of set sub (more arguments follow). */
#define INTO(db, group, points) "generate", "--db", db, "--set", "sub", "--group", group, "--points", points

/* The three groups of the example, made in db: small (brute force
 * passes), mid (the O(n^2) DP) depending on small, and eq (all coins
 * equal, n even) depending on both. */
static void three_groups(const char *db)
{
    run_result r;
    COINROW(&r, NULL, INTO(db, "small", "20"), "--count", "3", "--n", "1..20", "--values", "1..100", "--seed", "1",
            "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    COINROW(&r, NULL, INTO(db, "mid", "30"), "--depends", "small", "--count", "2", "--n", "1..300", "--values",
            "1..1000000000", "--seed", "2", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    COINROW(&r, NULL, INTO(db, "eq", "50"), "--depends", "mid,small", "--all-equal", "--even-n", "--count", "2", "--n",
            "2..10", "--values", "1..9", "--seed", "3", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
}

/* Every instance of db with its group, "group:ext_id" in id order. */
static char *tests_by_group(const char *db)
{
    char *text = db_text(db, "SELECT group_concat(coalesce(g.name, '-') || ':' || i.ext_id, ' ') FROM "
                             "(SELECT * FROM instance ORDER BY id) AS i LEFT JOIN test_group_instance AS t "
                             "ON t.instance_id = i.id LEFT JOIN test_group AS g ON g.id = t.group_id");
    assert_non_null(text);
    return text;
}

/* What the groups of db hold: test_group_view, the calls and the tests. */
static char *groups(const char *db)
{
    char *text = db_text(db, "SELECT (SELECT group_concat(row, char(10)) FROM (SELECT json_array(set_name, group_name, "
                             "position, points, n_min, n_max, value_min, value_max, all_equal, even_n, odd_sum, depends, "
                             "tests) AS row FROM test_group_view ORDER BY set_name, position)) || char(10) || "
                             "(SELECT group_concat(group_id || '.' || call || ' ' || generator, char(10)) FROM "
                             "test_group_generator) || char(10) || (SELECT group_concat(ext_id || '=' || coins, ' ') "
                             "FROM instance)");
    assert_non_null(text);
    char *tests = tests_by_group(db);
    size_t len = strlen(text) + strlen(tests) + 2;
    char *both = malloc(len);
    snprintf(both, len, "%s\n%s", text, tests);
    free(text), free(tests);
    return both;
}

static void test_groups__several_calls_build_one_set_whose_ids_never_clash(void **state)
{
    tmp_db *f = *state;
    three_groups(f->db);
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM instance_set"), 1);
    char *tests = tests_by_group(f->db);
    assert_string_equal(tests, "small:small-01 small:small-02 small:small-03 mid:mid-01 mid:mid-02 eq:eq-01 eq:eq-02");
    free(tests);
    /* the set is as made by its first call; the groups read in plain SQL */
    char *source = db_text(f->db, "SELECT source || ' / ' || (generator IS NULL) FROM instance_set");
    assert_string_equal(source, "coinrow generate --set sub --count 3 --n 1..20 --values 1..100 --seed 1 --profile "
                                "random --group small --points 20 / 1");
    free(source);
    char *view = db_text(f->db, "SELECT group_concat(row, char(10)) FROM (SELECT json_array(set_name, group_name, "
                                "position, points, n_min, n_max, value_min, value_max, all_equal, even_n, odd_sum, "
                                "depends, tests) AS row FROM test_group_view ORDER BY position)");
    assert_string_equal(view, "[\"sub\",\"small\",1,20,1,20,1,100,0,0,0,null,3]\n"
                              "[\"sub\",\"mid\",2,30,1,300,1,1000000000,0,0,0,\"small\",2]\n"
                              "[\"sub\",\"eq\",3,50,2,10,1,9,1,1,0,\"small,mid\",2]");
    free(view);
    /* every test meets its group's constraints */
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM instance AS i JOIN test_group_instance AS t ON "
                                   "t.instance_id = i.id JOIN test_group AS g ON g.id = t.group_id WHERE i.n NOT "
                                   "BETWEEN g.n_min AND g.n_max OR g.even_n AND i.n % 2 OR EXISTS (SELECT 1 FROM "
                                   "json_each(i.coins) AS c WHERE c.value NOT BETWEEN g.value_min AND g.value_max OR "
                                   "g.all_equal AND c.value <> json_extract(i.coins, '$[0]'))"),
                     0);
    run_result r;
    COINROW(&r, NULL, "check-db", "--db", f->db);
    assert_int_equal(r.status, 0);
    run_result_free(&r);
}

static void test_groups__the_same_command_again_changes_nothing_and_another_call_adds_to_its_group(void **state)
{
    tmp_db *f = *state;
    three_groups(f->db);
    char *before = groups(f->db);
    run_result r;
    COINROW(&r, NULL, INTO(f->db, "mid", "30"), "--depends", "small", "--count", "2", "--n", "1..300", "--values",
            "1..1000000000", "--seed", "2");
    assert_int_equal(r.status, 0);
    assert_memory_equal(r.out, "ingested 0, skipped 2, rejected 0, set 'sub'", 44);
    run_result_free(&r);
    /* --depends names the same groups in any order, each once */
    COINROW(&r, NULL, INTO(f->db, "eq", "50"), "--depends", "small,mid", "--all-equal", "--even-n", "--count", "2",
            "--n", "2..10", "--values", "1..9", "--seed", "3");
    assert_int_equal(r.status, 0);
    assert_memory_equal(r.out, "ingested 0, skipped 2", 21);
    run_result_free(&r);
    char *after = groups(f->db);
    assert_string_equal(after, before);
    free(after);

    /* another call into a group, within its constraints, adds its tests behind
     * ids of its own; without --depends, the group's are kept */
    COINROW(&r, NULL, INTO(f->db, "small", "20"), "--count", "2", "--n", "5..20", "--values", "10..100", "--seed", "9",
            "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    COINROW(&r, NULL, INTO(f->db, "small", "20"), "--count", "2", "--n", "5..20", "--values", "10..100", "--seed", "9");
    assert_int_equal(r.status, 0);
    assert_memory_equal(r.out, "ingested 0, skipped 2", 21);
    run_result_free(&r);
    char *tests = tests_by_group(f->db);
    assert_string_equal(tests, "small:small-01 small:small-02 small:small-03 mid:mid-01 mid:mid-02 eq:eq-01 eq:eq-02 "
                               "small:small-2-01 small:small-2-02");
    free(tests);
    assert_int_equal(db_int(f->db, "SELECT tests FROM test_group_view WHERE group_name = 'small'"), 5);

    /* as if the call had been interrupted: the same command adds what is
     * missing, into its group, and puts back in it a test taken out by hand */
    assert_int_equal(db_exec(f->db, "DELETE FROM test_group_instance WHERE instance_id IN (SELECT id FROM instance "
                                    "WHERE ext_id IN ('mid-01', 'mid-02')); DELETE FROM instance WHERE ext_id = "
                                    "'mid-02'"),
                     0);
    COINROW(&r, NULL, INTO(f->db, "mid", "30"), "--depends", "small", "--count", "2", "--n", "1..300", "--values",
            "1..1000000000", "--seed", "2");
    assert_int_equal(r.status, 0);
    assert_memory_equal(r.out, "ingested 1, skipped 1", 21);
    run_result_free(&r);
    assert_int_equal(db_int(f->db, "SELECT tests FROM test_group_view WHERE group_name = 'mid'"), 2);
    free(before);
}

/* A call into a group stopped after its first commit says how to finish
 * it, with its group; that command completes it into the group, as one
 * call left alone makes it. */
static void test_groups__an_interrupted_call_is_finished_into_its_group_by_the_command_it_names(void **state)
{
    tmp_db *f = *state;
    const char *whole = tmp_path(f->dir, "whole.db");
    char *argv[] = {(char *)run_bin(), "generate", "--db", f->db, "--set", "big", "--group", "pairs", "--points", "7",
                    "--count", "400000", "--n", "2", "--values", "1..99", "--seed", "5", "--progress", NULL};
    int held; /* held after its first commit (run_start_held) */
    pid_t pid = run_start_held(argv, 0, &held);
    assert_true(pid > 0);
    assert_true(db_wait_for(f->db, "SELECT count(*) FROM instance", pid) > 0);
    run_signal(pid, SIGINT);
    char *text = run_release(held);
    assert_int_equal(run_wait(pid), 130);
    char finish[4400];
    snprintf(finish, sizeof finish,
             "interrupted before the end of the input; finish the job with:\n  coinrow generate --set big --count "
             "400000 --n 2..2 --values 1..99 --seed 5 --profile random --group pairs --points 7 --db %s\n",
             f->db);
    if (!strstr(text, finish))
        fail_msg("'%s' lacks '%s'", text, finish);
    free(text);
    assert_true(db_int(f->db, "SELECT count(*) FROM instance") < 400000);
    /* what was committed is in the group already */
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM instance WHERE id NOT IN (SELECT instance_id FROM "
                                   "test_group_instance)"),
                     0);

    run_result r;
    assert_int_equal(run_capture(&r, argv, NULL), 0);
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    argv[3] = (char *)whole;
    assert_int_equal(run_capture(&r, argv, NULL), 0);
    run_result_free(&r);
    char *completed = groups(f->db), *fresh = groups(whole);
    assert_string_equal(completed, fresh);
    free(completed), free(fresh);
    assert_int_equal(db_int(f->db, "SELECT tests FROM test_group_view"), 400000);
}

/* Runs generate with args (NULL-terminated after the database's INTO) and
 * expects exit status `status` with the message `message` (its text after
 * "coinrow: DB: " for status 1, after "coinrow: " for 2), the database
 * left byte for byte, its header's change counter too. */
static void refused(const tmp_db *f, int status, const char *message, const char *const *args)
{
    size_t len = 0, len_after = 0;
    char *before = read_bytes(f->db, &len);
    const char *argv[40];
    size_t n = 0;
    for (; args[n]; n++)
        argv[n] = args[n];
    argv[n] = NULL;
    run_result r;
    assert_int_equal(run_coinrow_args(&r, NULL, argv), 0);
    char want[4800];
    if (status == 1)
        snprintf(want, sizeof want, "coinrow: %s: %s\n", f->db, message);
    else
        snprintf(want, sizeof want, "coinrow: %s\n", message);
    if (r.status != status || strncmp(r.err, want, strlen(want)) != 0)
        fail_msg("status %d, '%s', not %d, '%s'", r.status, r.err, status, want);
    run_result_free(&r);
    char *after = read_bytes(f->db, &len_after);
    assert_int_equal(len_after, len);
    assert_true(len > 100);
    assert_memory_equal(after, before, len);
    free(before), free(after);
}

#define REFUSED(f, status, message, ...)                                                                               \
    do {                                                                                                               \
        const char *const args_[] = {__VA_ARGS__, NULL};                                                               \
        refused(f, status, message, args_);                                                                            \
    } while (0)

static void test_groups__a_call_that_does_not_fit_its_group_is_refused_naming_the_group_and_the_constraint(
    void **state)
{
    tmp_db *f = *state;
    three_groups(f->db);
    const char *db = f->db;
    REFUSED(f, 1, "group 'small' of set 'sub' has n in 1..20: --n 1..21 goes beyond it", INTO(db, "small", "20"),
            "--count", "2", "--n", "1..21", "--values", "1..100", "--seed", "4");
    REFUSED(f, 1, "group 'small' of set 'sub' has values in 1..100: --values 0..100 goes beyond it",
            INTO(db, "small", "20"), "--count", "2", "--n", "1..20", "--values", "0..100", "--seed", "4");
    REFUSED(f, 1, "group 'eq' of set 'sub' has an even n: add --even-n", INTO(db, "eq", "50"), "--all-equal",
            "--count", "2", "--n", "2..10", "--values", "1..9", "--seed", "4");
    REFUSED(f, 1,
            "group 'eq' of set 'sub' has all coins equal: --profile random does not make them so (use --all-equal)",
            INTO(db, "eq", "50"), "--even-n", "--count", "2", "--n", "2..10", "--values", "1..9", "--seed", "4");
    REFUSED(f, 1, "group 'small' of set 'sub' has 20 points, not 25", INTO(db, "small", "25"), "--count", "3", "--n",
            "1..20", "--values", "1..100", "--seed", "1");
    REFUSED(f, 1, "group 'mid' of set 'sub' depends on 'small', not 'eq'", INTO(db, "mid", "30"), "--depends", "eq",
            "--count", "2", "--n", "1..300", "--values", "1..1000000000", "--seed", "2");
    REFUSED(f, 1, "group 'eq' of set 'sub' depends on 'small,mid', not 'mid,mid'", INTO(db, "eq", "50"), "--depends",
            "mid,mid", "--all-equal", "--even-n", "--count", "2", "--n", "2..10", "--values", "1..9", "--seed", "3");
    REFUSED(f, 1, "group 'eq' of set 'sub' depends on 'small,mid', not 'mid'", INTO(db, "eq", "50"), "--depends",
            "mid", "--all-equal", "--even-n", "--count", "2", "--n", "2..10", "--values", "1..9", "--seed", "3");
    /* a new group: its dependencies are groups of the set, never itself */
    REFUSED(f, 1, "group 'big' of set 'sub' cannot depend on 'huge': the set has no such group (make it first)",
            INTO(db, "big", "0"), "--depends", "small,huge", "--count", "1", "--n", "1..9", "--values", "1..9",
            "--seed", "4");
    REFUSED(f, 1, "group 'big' of set 'sub' cannot depend on itself (a cycle)", INTO(db, "big", "0"), "--depends",
            "big", "--count", "1", "--n", "1..9", "--values", "1..9", "--seed", "4");
    REFUSED(f, 1, "group 'big' of set 'sub' cannot depend on 'a-b': not a group name", INTO(db, "big", "0"),
            "--depends", "a-b", "--count", "1", "--n", "1..9", "--values", "1..9", "--seed", "4");
    /* an empty name, first or last ("small," was taken as "small") */
    REFUSED(f, 1, "group 'big' of set 'sub' cannot depend on '': not a group name", INTO(db, "big", "0"),
            "--depends", ",small", "--count", "1", "--n", "1..9", "--values", "1..9", "--seed", "4");
    REFUSED(f, 1, "group 'big' of set 'sub' cannot depend on '': not a group name", INTO(db, "big", "0"),
            "--depends", "small,", "--count", "1", "--n", "1..9", "--values", "1..9", "--seed", "4");
    REFUSED(f, 1, "group 'big' of set 'sub': --depends names 'small' twice", INTO(db, "big", "0"), "--depends",
            "small,small", "--count", "1", "--n", "1..9", "--values", "1..9", "--seed", "4");
    /* a name another group has in other letter case: one Kattis folder where case does not count */
    REFUSED(f, 1,
            "set 'sub': groups 'small' and 'Small' differ only in letter case: a package's folders of them would be "
            "one where case does not count (a zip unpacked on Windows or macOS)",
            INTO(db, "Small", "0"),
            "--count", "1", "--n", "1..9", "--values", "1..9", "--seed", "4");
    /* a set of groups takes no call without one, and a set made otherwise no group */
    REFUSED(f, 1, "set 'sub' is made of groups: generate into it with --group", "generate", "--db", db, "--set", "sub",
            "--count", "1", "--n", "1..9", "--values", "1..9", "--seed", "4");
    run_result r;
    COINROW(&r, NULL, "generate", "--db", db, "--set", "whole", "--count", "1", "--n", "1..9", "--values", "1..9",
            "--seed", "4", "--quiet");
    run_result_free(&r);
    COINROW(&r, "id,values\na,1 2\n", "ingest", "-", "--db", db, "--set", "mine", "--quiet");
    run_result_free(&r);
    REFUSED(f, 1, "set 'whole' has no groups (it was generated as a whole); groups go in a set of their own",
            "generate", "--db", db, "--set", "whole", "--group", "g", "--points", "1", "--count", "1", "--n", "1..9",
            "--values", "1..9", "--seed", "4");
    REFUSED(f, 1, "set 'mine' has no groups (it was ingested as a whole); groups go in a set of their own",
            "generate", "--db", db, "--set", "mine", "--group", "g", "--points", "1", "--count", "1", "--n", "1..9",
            "--values", "1..9", "--seed", "4");
}

static void test_groups__ingest_puts_the_rows_that_fit_in_the_group_and_rejects_each_other_naming_the_constraint(
    void **state)
{
    tmp_db *f = *state;
    three_groups(f->db);
    run_result r;
    COINROW(&r, NULL, INTO(f->db, "odd", "0"), "--odd-sum", "--count", "1", "--n", "1..5", "--values", "1..9", "--seed",
            "5", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    /* eq: n in 2..10 and even, values in 1..9, all equal */
    const char *csv = tmp_path(f->dir, "eq.csv");
    write_file(csv, "id,values\na,4 4 4 4\nb,1 1 1\nc,2 2 2 2 2 2 2 2 2 2 2 2\nd,5 50\ne,4 4 5 4\nf,7 7\n");
    COINROW(&r, NULL, "ingest", csv, "--db", f->db, "--set", "sub", "--group", "eq");
    assert_int_equal(r.status, 3);
    assert_non_null(strstr(r.out, "ingested 2, skipped 0, rejected 4, set 'sub'"));
    run_result_free(&r);
    COINROW(&r, "id,values\ng,2 2\nh,2 3\n", "ingest", "-", "--db", f->db, "--set", "sub", "--group", "odd", "--quiet");
    assert_int_equal(r.status, 3);
    run_result_free(&r);
    char *errors = db_text(f->db, "SELECT group_concat(ext_id || ': ' || reason, char(10)) FROM "
                                  "(SELECT * FROM ingest_error ORDER BY id)");
    assert_string_equal(errors, "b: test 'b' breaks group 'eq' of set 'sub': n = 3 is odd, the group wants an even n\n"
                                "c: test 'c' breaks group 'eq' of set 'sub': n = 12 is out of range 2..10\n"
                                "d: test 'd' breaks group 'eq' of set 'sub': value 2 (50) is out of range 1..9\n"
                                "e: test 'e' breaks group 'eq' of set 'sub': coin 3 (value 5) differs from coin 1 "
                                "(value 4), the group wants all its coins equal\n"
                                "g: test 'g' breaks group 'odd' of set 'sub': the values add up to an even number, "
                                "the group wants an odd sum");
    free(errors);
    char *tests = tests_by_group(f->db);
    assert_string_equal(tests, "small:small-01 small:small-02 small:small-03 mid:mid-01 mid:mid-02 eq:eq-01 eq:eq-02 "
                               "odd:odd-01 eq:a eq:f odd:h");
    free(tests);
    COINROW(&r, NULL, "check-db", "--db", f->db);
    if (r.status != 0)
        fail_msg("check-db: %s", r.out);
    run_result_free(&r);
}

static void test_groups__ingest_into_a_group_the_set_lacks_is_refused_naming_the_set_and_the_group(void **state)
{
    tmp_db *f = *state;
    three_groups(f->db);
    const char *db = f->db, *csv = tmp_path(f->dir, "in.csv");
    write_file(csv, "id,values\na,4 4\n");
    run_result r;
    COINROW(&r, "id,values\na,1 2\n", "ingest", "-", "--db", db, "--set", "mine", "--quiet");
    run_result_free(&r);
    REFUSED(f, 1, "set 'sub' has no group 'huge' (generate --group makes one)", "ingest", csv, "--db", db, "--set",
            "sub", "--group", "huge");
    REFUSED(f, 1, "set 'mine' has no group 'eq' (it has no groups: generate --group makes them)", "ingest", csv,
            "--db", db, "--set", "mine", "--group", "eq");
    REFUSED(f, 1, "set 'nope' has no group 'eq' (the database has no set 'nope')", "ingest", csv, "--db", db, "--set",
            "nope", "--group", "eq");
    REFUSED(f, 2, "--group NAME goes with --set SET, the set that has the group", "ingest", csv, "--db", db,
            "--group", "eq");
}

/* Rows without --group for a set scored by groups are refused, the file
 * left as it was: they went into no group, and export then refused the set
 * as "an interrupted generate --group", which no command finished. */
static void test_groups__rows_without_a_group_for_a_set_of_groups_are_refused(void **state)
{
    tmp_db *f = *state;
    three_groups(f->db);
    const char *db = f->db, *csv = tmp_path(f->dir, "in.csv");
    write_file(csv, "id,values\nzz,4 4\n");
    static const char why[] = "set 'sub' is scored by groups, and each of its tests is in one: give --group NAME "
                              "(such as --group small) to put these rows in one";
    REFUSED(f, 1, why, "ingest", csv, "--db", db, "--set", "sub");
    REFUSED(f, 1, why, "run", csv, "--db", db, "--set", "sub", "--quiet");
    assert_int_equal(db_int(db, "SELECT count(*) FROM instance WHERE ext_id = 'zz'"), 0);
}

static void test_groups__usage_errors_name_the_option(void **state)
{
    tmp_db *f = *state;
    three_groups(f->db);
    const char *db = f->db;
#define SOME "--count", "1", "--n", "1..9", "--values", "1..9", "--seed", "4"
    REFUSED(f, 2, "--points takes a whole number of points, 0 to 1000000000, not '-1'", INTO(db, "g", "-1"), SOME);
    REFUSED(f, 2, "--points takes a whole number of points, 0 to 1000000000, not '2.5'", INTO(db, "g", "2.5"), SOME);
    REFUSED(f, 2, "--points takes a whole number of points, 0 to 1000000000, not 'ten'", INTO(db, "g", "ten"), SOME);
    /* a sign is a typo in a count or points: both were taken */
    REFUSED(f, 2, "--points takes a whole number of points, 0 to 1000000000, not '+5'", INTO(db, "g", "+5"), SOME);
    REFUSED(f, 2, "--points takes a whole number of points, 0 to 1000000000, not '-0'", INTO(db, "g", "-0"), SOME);
    /* two groups of the most points could not be summed as int64 */
    REFUSED(f, 2, "--points takes a whole number of points, 0 to 1000000000, not '9223372036854775807'",
            INTO(db, "g", "9223372036854775807"), SOME);
    REFUSED(f, 2, "--group needs --points", "generate", "--db", db, "--set", "sub", "--group", "g", SOME);
    REFUSED(f, 2, "--points, --depends and --all-equal describe a group: they need --group", "generate", "--db", db,
            "--set", "sub", "--depends", "small", SOME);
    REFUSED(f, 2, "--points, --depends and --all-equal describe a group: they need --group", "generate", "--db", db,
            "--set", "sub", "--points", "3", SOME);
    REFUSED(f, 2, "--points, --depends and --all-equal describe a group: they need --group", "generate", "--db", db,
            "--set", "sub", "--all-equal", SOME);
    REFUSED(f, 2, "group name 'a-b' may hold only letters, digits and '_' (64 at most)", INTO(db, "a-b", "1"), SOME);
    REFUSED(f, 2, "--all-equal makes the coins of an instance equal: not with --profile sorted", INTO(db, "g", "1"),
            "--all-equal", "--profile", "sorted", SOME);
    REFUSED(f, 2, "--group puts the instances in a group of a database's set: not with --out", "generate", "--set",
            "sub", "--group", "g", "--points", "1", "--out", "-", SOME);
#undef SOME
}

/* The table show prints of three_groups' set. */
#define THREE_GROUPS_SHOWN                                                                                             \
    "group            points  n                values                   properties       depends           tests\n"    \
    "small                20  1..20            1..100                   -                -                     3\n"    \
    "mid                  30  1..300           1..1000000000            -                small                 2\n"    \
    "eq                   50  2..10            1..9                     all-equal,even-n small,mid             2\n"

static void test_groups__show_shows_a_set_s_groups_alone_or_with_a_run(void **state)
{
    tmp_db *f = *state;
    three_groups(f->db);
    run_result r;
    COINROW(&r, NULL, "show", "--db", f->db, "--set", "sub");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, THREE_GROUPS_SHOWN);
    assert_string_equal(r.err, "");
    run_result_free(&r);
    COINROW(&r, NULL, "solve", "--db", f->db, "--set", "sub", "--variant", "diff", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    COINROW(&r, NULL, "show", "--db", f->db, "--limit", "1");
    assert_int_equal(r.status, 0);
    const char *table = strchr(r.out, '\n');
    assert_non_null(table);
    assert_memory_equal(table + 1, THREE_GROUPS_SHOWN "ext_id ", strlen(THREE_GROUPS_SHOWN "ext_id "));
    run_result_free(&r);
    /* a set without groups says so; a run of one shows none */
    COINROW(&r, "id,values\na,1 2\n", "run", "-", "--db", f->db, "--set", "plain", "--variant", "diff", "--quiet");
    run_result_free(&r);
    COINROW(&r, NULL, "show", "--db", f->db, "--set", "plain");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "set 'plain' has no groups\n");
    run_result_free(&r);
    COINROW(&r, NULL, "show", "--db", f->db);
    assert_int_equal(r.status, 0);
    assert_null(strstr(r.out, "group "));
    run_result_free(&r);
    COINROW(&r, NULL, "show", "--db", f->db, "--set", "sub", "--run", "1");
    assert_int_equal(r.status, 2);
    assert_memory_equal(r.err, "coinrow: --set shows a set's groups, --run a run's results: give one of them\n",
                        strlen("coinrow: --set shows a set's groups, --run a run's results: give one of them\n"));
    run_result_free(&r);
}

#define TEST(name) cmocka_unit_test_setup_teardown(name, tmp_db_setup, tmp_db_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        TEST(test_groups__several_calls_build_one_set_whose_ids_never_clash),
        TEST(test_groups__the_same_command_again_changes_nothing_and_another_call_adds_to_its_group),
        TEST(test_groups__a_call_that_does_not_fit_its_group_is_refused_naming_the_group_and_the_constraint),
        TEST(test_groups__ingest_puts_the_rows_that_fit_in_the_group_and_rejects_each_other_naming_the_constraint),
        TEST(test_groups__ingest_into_a_group_the_set_lacks_is_refused_naming_the_set_and_the_group),
        TEST(test_groups__rows_without_a_group_for_a_set_of_groups_are_refused),
        TEST(test_groups__usage_errors_name_the_option),
        TEST(test_groups__an_interrupted_call_is_finished_into_its_group_by_the_command_it_names),
        TEST(test_groups__show_shows_a_set_s_groups_alone_or_with_a_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Errors that coinrow must not swallow or misname (issue 33, item 7):
 * output written to a full disk (/dev/full) fails the command with a
 * message, as `ls > /dev/full` does, instead of exiting 0; a limit on open
 * files too low for a job names itself and leaves the folder as it was; a
 * command that refuses leaves the database byte for byte (its header and
 * its time too), and one given a mistyped path creates no database. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "support/files.h"
#include "support/run.h"

/* coinrow ARGS... run by `sh -c script`, as "$0" "$@": script sets its
 * standard output or its limits, then execs it. */
static void coinrow_by(run_result *r, const char *script, const char *const *args)
{
    char *argv[40] = {"sh", "-c", (char *)script, (char *)run_bin()};
    int argc = 4;
    for (; *args && argc < 38; args++)
        argv[argc++] = (char *)*args;
    argv[argc] = NULL;
    assert_int_equal(run_capture(r, argv, NULL), 0);
}

/* coinrow ARGS... with its standard output on /dev/full. */
#define INTO_FULL "exec \"$0\" \"$@\" > /dev/full"
/* coinrow ARGS... under a limit of 8 open files, or 7. */
#define EIGHT_FILES "ulimit -n 8 && exec \"$0\" \"$@\""
#define SEVEN_FILES "ulimit -n 7 && exec \"$0\" \"$@\""

#define WORDS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* A command line and the exit status it must end with. */
typedef struct command_case {
    const char *const *args;
    int status;
} command_case;

/* t->dir/rows.csv, of two rows, run into t->db: its path. */
static const char *rows_run(const tmp_db *t)
{
    const char *csv = tmp_path(t->dir, "rows.csv");
    assert_int_equal(write_file(csv, "id,values\na,1 2 3\nb,4 5\n"), 0);
    run_result r;
    COINROW(&r, NULL, "run", csv, "--db", t->db, "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    return csv;
}

static void test_errors__output_into_a_full_disk_fails_the_command(void **state)
{
    tmp_db *t = *state;
    if (access("/dev/full", W_OK) != 0)
        skip();
    const char *csv = rows_run(t);
    run_result r;
    COINROW(&r, NULL, "solve", "--db", t->db, "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);

    const command_case cases[] = {
        {WORDS("eval", "1", "2", "3"), 1},
        {WORDS("show", "--db", t->db), 1},
        {WORDS("check-db", "--db", t->db), 1},
        {WORDS("compare", "1", "2", "--db", t->db), 2}, /* as diff(1): 2 is trouble */
        {WORDS("compare", "1", "2", "--json", "--db", t->db), 2},
        /* invoke's and strength's 1 says verdicts differ, a strategy survives */
        {WORDS("invoke", "--db", t->db, "--set", "rows", "--variant", "diff", "--builtin", "greedy"), 2},
        {WORDS("strength", "--db", t->db, "--set", "rows", "--variant", "diff"), 2},
        {WORDS("run", csv, "--db", t->db, "--set", "again"), 1}, /* its summary */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        coinrow_by(&r, INTO_FULL, cases[i].args);
        if (r.status != cases[i].status || !strstr(r.err, "cannot write to standard output"))
            fail_msg("coinrow %s: exit %d, said: %s", cases[i].args[0], r.status, r.err);
        run_result_free(&r);
    }
}

static void test_errors__too_many_open_files_is_named_and_writes_nothing(void **state)
{
    tmp_db *t = *state;
    const char *csv = tmp_path(t->dir, "rows.csv");
    assert_int_equal(write_file(csv, "id,values\na,1 2 3\nb,4 5\n"), 0);
    run_result r;
    /* a new database: none is made */
    char *before = dir_snapshot(t->dir);
    coinrow_by(&r, EIGHT_FILES, WORDS("run", csv, "--db", t->db, "--quiet"));
    assert_int_equal(r.status, 1);
    if (!strstr(r.err, "too many open files"))
        fail_msg("said: %s", r.err);
    run_result_free(&r);
    char *after = dir_snapshot(t->dir);
    assert_string_equal(after, before);
    free(before);
    free(after);

    /* an existing one: no failed run or invocation, attempt after attempt
     * (a built-in's invocation needs four files beside the database) */
    rows_run(t);
    COINROW(&r, NULL, "solve", "--set", "rows", "--variant", "diff", "--db", t->db, "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    before = dir_snapshot(t->dir);
    const struct {
        const char *script;
        command_case c;
    } jobs[] = {
        {EIGHT_FILES, {WORDS("run", csv, "--db", t->db, "--set", "other", "--quiet"), 1}},
        {EIGHT_FILES, {WORDS("solve", "--set", "rows", "--db", t->db, "--quiet"), 1}},
        {EIGHT_FILES, {WORDS("solve", "--set", "rows", "--db", t->db, "--quiet"), 1}},
        {SEVEN_FILES, {WORDS("invoke", "--set", "rows", "--variant", "diff", "--builtin", "greedy", "--db", t->db), 2}},
        {SEVEN_FILES, {WORDS("invoke", "--set", "rows", "--variant", "diff", "--builtin", "greedy", "--db", t->db), 2}},
    };
    for (size_t i = 0; i < sizeof jobs / sizeof jobs[0]; i++) {
        coinrow_by(&r, jobs[i].script, jobs[i].c.args);
        if (r.status != jobs[i].c.status || !strstr(r.err, "too many open files"))
            fail_msg("coinrow %s: exit %d, said: %s", jobs[i].c.args[0], r.status, r.err);
        run_result_free(&r);
    }
    after = dir_snapshot(t->dir);
    assert_string_equal(after, before);
    free(before);
    free(after);
    assert_int_equal(db_int(t->db, "SELECT count(*) FROM run"), 2);
    assert_int_equal(db_int(t->db, "SELECT count(*) FROM invocation"), 0);
}

/* The folder's files and bytes, and the database's modification time. */
static char *dir_and_time(const tmp_db *t)
{
    char *snap = dir_snapshot(t->dir);
    struct stat st;
    assert_int_equal(stat(t->db, &st), 0);
    size_t len = strlen(snap);
    char *out = malloc(len + 64);
    assert_non_null(out);
    snprintf(out, len + 64, "%smtime %lld.%09ld\n", snap, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
    free(snap);
    return out;
}

static void test_errors__a_refusal_leaves_the_database_byte_for_byte(void **state)
{
    tmp_db *t = *state;
    rows_run(t);
    run_result r;
    COINROW(&r, NULL, "generate", "--set", "g", "--count", "3", "--n", "2..5", "--values", "1..9", "--seed", "1",
            "--db", t->db);
    assert_int_equal(r.status, 0);
    run_result_free(&r);

    const command_case cases[] = {
        {WORDS("solve", "--set", "nosuch", "--db", t->db), 1},
        {WORDS("solve", "--resume", "99", "--db", t->db), 1},
        {WORDS("invoke", "--set", "nosuch", "--variant", "diff", "--builtin", "greedy", "--db", t->db), 2},
        {WORDS("invoke", "--resume", "--db", t->db), 2},
        {WORDS("strength", "--set", "nosuch", "--variant", "diff", "--db", t->db), 2},
        {WORDS("compare", "1", "99", "--record", "--db", t->db), 2},
        {WORDS("generate", "--set", "g", "--count", "3", "--n", "2..5", "--values", "1..9", "--seed", "2", "--db",
               t->db),
         1},
        {WORDS("upgrade", "--db", t->db), 0}, /* up to date: nothing to write */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *before = dir_and_time(t);
        assert_int_equal(run_coinrow_args(&r, NULL, cases[i].args), 0);
        char *after = dir_and_time(t);
        if (r.status != cases[i].status || strcmp(before, after) != 0)
            fail_msg("coinrow %s %s: exit %d, said: %s\nbefore:\n%safter:\n%s", cases[i].args[0], cases[i].args[1],
                     r.status, r.err, before, after);
        run_result_free(&r);
        free(before);
        free(after);
    }
}

static void test_errors__a_mistyped_path_creates_no_database(void **state)
{
    tmp_db *t = *state;
    const struct {
        const char *const *args;
    } cases[] = {
        {WORDS("solve", "--set", "s", "--db", t->db)},
        {WORDS("solve", "--resume", "--db", t->db)},
        {WORDS("invoke", "--set", "s", "--variant", "diff", "--builtin", "greedy", "--db", t->db)},
        {WORDS("invoke", "--resume", "--db", t->db)},
        {WORDS("strength", "--set", "s", "--variant", "diff", "--db", t->db)},
        {WORDS("compare", "1", "2", "--record", "--db", t->db)},
        {WORDS("upgrade", "--db", t->db)},
        {WORDS("show", "--db", t->db)},
        {WORDS("check-db", "--db", t->db)},
    };
    char *before = dir_snapshot(t->dir);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run_result r;
        assert_int_equal(run_coinrow_args(&r, NULL, cases[i].args), 0);
        char *after = dir_snapshot(t->dir);
        if (r.status == 0 || strcmp(before, after) != 0)
            fail_msg("coinrow %s %s: exit %d, said: %s\nafter:\n%s", cases[i].args[0], cases[i].args[1], r.status,
                     r.err, after);
        run_result_free(&r);
        free(after);
    }
    free(before);
}

/* An option given twice is a usage error naming both values: the last one
 * won, silently (export --set a --set b exported b, --format kattis
 * --format cms wrote CMS), and nothing is written. */
static void test_errors__an_option_given_twice_is_a_usage_error(void **state)
{
    tmp_db *t = *state;
    const struct {
        const char *const *args;
        const char *said;
    } cases[] = {
        {WORDS("export", "--db", t->db, "--set", "a", "--set", "b", "--variant", "diff", "--format", "cms", "--out",
               tmp_path(t->dir, "pkg")),
         "coinrow: --set is given twice ('a', then 'b'): give it once\n"},
        {WORDS("generate", "--db", t->db, "--set", "s", "--group", "a", "--group=a", "--points", "1", "--count", "1",
               "--n", "1", "--values", "1..2", "--seed", "1"),
         "coinrow: --group is given twice ('a', then 'a'): give it once\n"},
        {WORDS("run", "-", "--db", t->db, "--jobs", "2", "--jobs", "1"),
         "coinrow: --jobs is given twice ('2', then '1'): give it once\n"},
    };
    char *before = dir_snapshot(t->dir);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run_result r;
        assert_int_equal(run_coinrow_args(&r, "id,coins\n1,2 3\n", cases[i].args), 0);
        assert_int_equal(r.status, 2);
        if (strncmp(r.err, cases[i].said, strlen(cases[i].said)) != 0)
            fail_msg("coinrow %s said:\n%s", cases[i].args[0], r.err);
        run_result_free(&r);
    }
    char *after = dir_snapshot(t->dir);
    assert_string_equal(after, before);
    free(before), free(after);
}

/* A file whose recorded schema version was lowered by hand is refused by
 * upgrade, saying so, byte for byte as it was: upgrade failed on "table
 * test_group already exists while applying schema script 10", after
 * check-db had sent the user to it. */
static void test_errors__a_lowered_schema_version_is_named_by_upgrade(void **state)
{
    tmp_db *t = *state;
    run_result r;
    assert_int_equal(run_coinrow(&r, "id,coins\n1,2 3\n", "run", "-", "--db", t->db, "--quiet", (char *)NULL), 0);
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    static const struct {
        int version;
        const char *said;
    } cases[] = {
        {9, "its schema version says 9, but it already holds what version 10 adds (table test_group already exists): "
            "the version was changed outside coinrow"},
        {5, "its schema version says 5, but it already holds what version 6 adds (duplicate column name: sandbox)"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        char sql[64];
        snprintf(sql, sizeof sql, "PRAGMA user_version = %d", cases[k].version);
        assert_int_equal(db_exec(t->db, sql), 0);
        size_t len_before, len_after;
        char *before = read_bytes(t->db, &len_before);
        assert_int_equal(run_coinrow(&r, NULL, "upgrade", "--db", t->db, (char *)NULL), 0);
        assert_int_equal(r.status, 1);
        if (!strstr(r.err, cases[k].said))
            fail_msg("upgrade said:\n%s", r.err);
        run_result_free(&r);
        char *after = read_bytes(t->db, &len_after);
        assert_int_equal(len_after, len_before);
        assert_memory_equal(after, before, len_before);
        free(before), free(after);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_errors__output_into_a_full_disk_fails_the_command, tmp_db_setup,
                                        tmp_db_teardown),
        cmocka_unit_test_setup_teardown(test_errors__too_many_open_files_is_named_and_writes_nothing, tmp_db_setup,
                                        tmp_db_teardown),
        cmocka_unit_test_setup_teardown(test_errors__a_refusal_leaves_the_database_byte_for_byte, tmp_db_setup,
                                        tmp_db_teardown),
        cmocka_unit_test_setup_teardown(test_errors__a_mistyped_path_creates_no_database, tmp_db_setup,
                                        tmp_db_teardown),
        cmocka_unit_test_setup_teardown(test_errors__an_option_given_twice_is_a_usage_error, tmp_db_setup,
                                        tmp_db_teardown),
        cmocka_unit_test_setup_teardown(test_errors__a_lowered_schema_version_is_named_by_upgrade, tmp_db_setup,
                                        tmp_db_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Runs stopped by SIGINT, SIGTERM and SIGKILL in the middle, then resumed:
 * every instance ends up solved exactly once, with the core's answers. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "support/core_check.h"
#include "support/files.h"
#include "support/run.h"

/* More than a commit (10,000 instances) and the batches in flight with two
 * solver threads hold, so that a run stopped after its first commit has
 * rows left. */
enum { ROWS = 200000, COINS = 8 };

static char *dir;
static char csv[4096];

static int make_input(void **state)
{
    (void)state;
    dir = tmp_dir_new();
    if (!dir)
        return -1;
    snprintf(csv, sizeof csv, "%s", tmp_path(dir, "big.csv"));
    FILE *f = fopen(csv, "w");
    if (!f)
        return -1;
    uint64_t x = 7;
    fputs("id,values\n", f);
    for (int i = 0; i < ROWS; i++) {
        fprintf(f, "r%d,", i);
        for (int k = 0; k < COINS; k++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            fprintf(f, "%s%llu", k ? " " : "", (unsigned long long)(x % 1000000));
        }
        fputc('\n', f);
    }
    return fclose(f);
}

static int remove_input(void **state)
{
    (void)state;
    tmp_dir_free(dir);
    return 0;
}

/* Starts coinrow with args (NULL-terminated) and --progress, held right
 * after its first commit of results to run run_id (run_start_held), sends
 * sig while it is held, lets it go on and returns its exit status. */
static int stop_after_first_commit(const char *db, int64_t run_id, int sig, ...)
{
    char *argv[16] = {(char *)run_bin()};
    int argc = 1;
    va_list ap;
    va_start(ap, sig);
    for (char *a; argc < 14 && (a = va_arg(ap, char *)) != NULL;)
        argv[argc++] = a;
    va_end(ap);
    argv[argc++] = "--progress";
    int held;
    pid_t pid = run_start_held(argv, &held);
    assert_true(pid > 0);
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM result WHERE run_id = %lld", (long long)run_id);
    assert_true(db_wait_for(db, sql) > 0);
    kill(pid, sig);
    free(run_release(held));
    return run_wait(pid);
}

/* Every instance of the database solved exactly once in run run_id, for
 * `variants` variants; a sample checked against the core. */
static void check_complete(const char *db_path, int64_t run_id, int variants)
{
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM result WHERE run_id = %lld", (long long)run_id);
    assert_int_equal(db_int(db_path, sql), (int64_t)ROWS * variants);
    snprintf(sql, sizeof sql, "SELECT count(DISTINCT instance_id) FROM result WHERE run_id = %lld", (long long)run_id);
    assert_int_equal(db_int(db_path, sql), ROWS);
    snprintf(sql, sizeof sql, "SELECT status = 'done' FROM run WHERE id = %lld", (long long)run_id);
    assert_int_equal(db_int(db_path, sql), 1);
    assert_int_equal(db_int(db_path, "SELECT count(*) FROM instance"), ROWS);
    assert_int_equal(db_exec(db_path, "PRAGMA integrity_check"), 0);

    assert_true(check_run_against_core(db_path, run_id, "i.id % 997 = 1") >= ROWS / 997 * variants);
}

static void test_cli_interrupt__sigint_stops_a_run_cleanly_and_it_can_be_finished(void **state)
{
    (void)state;
    const char *db = tmp_path(dir, "int.db");
    int status = stop_after_first_commit(db, 1, SIGINT, "run", csv, "--db", db, "--set", "big", "--variant",
                                         "total,remaining", "--jobs", "2", (char *)NULL);
    assert_int_equal(status, 130);
    assert_int_equal(db_int(db, "SELECT status = 'interrupted' AND finished_at IS NOT NULL FROM run"), 1);
    int64_t instances = db_int(db, "SELECT count(*) FROM instance");
    assert_true(instances > 0 && instances < ROWS);
    /* what was committed is whole: both variants of every instance solved */
    assert_int_equal(db_int(db, "SELECT count(*) FROM result"),
                     2 * db_int(db, "SELECT count(DISTINCT instance_id) FROM result"));

    /* as the hint says: ingest the rest, then resume */
    run_result r;
    assert_int_equal(run_coinrow(&r, NULL, "ingest", csv, "--db", db, "--set", "big", (char *)NULL), 0);
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    assert_int_equal(run_coinrow(&r, NULL, "solve", "--resume", "--db", db, (char *)NULL), 0);
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    check_complete(db, 1, 2);
}

static void test_cli_interrupt__sigterm_and_sigkill_of_solve_are_resumed_exactly_once(void **state)
{
    (void)state;
    const char *db = tmp_path(dir, "kill.db");
    run_result r;
    assert_int_equal(run_coinrow(&r, NULL, "ingest", csv, "--db", db, "--quiet", (char *)NULL), 0);
    assert_int_equal(r.status, 0);
    run_result_free(&r);

    assert_int_equal(stop_after_first_commit(db, 1, SIGTERM, "solve", "--db", db, "--jobs", "2", (char *)NULL), 130);
    assert_int_equal(db_int(db, "SELECT status = 'interrupted' FROM run WHERE id = 1"), 1);
    assert_int_equal(run_coinrow(&r, NULL, "solve", "--resume", "1", "--db", db, (char *)NULL), 0);
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    check_complete(db, 1, 4);

    assert_int_equal(stop_after_first_commit(db, 2, SIGKILL, "solve", "--db", db, "--jobs", "1", (char *)NULL),
                     128 + SIGKILL);
    assert_int_equal(db_int(db, "SELECT status = 'running' FROM run WHERE id = 2"), 1);
    int64_t solved = db_int(db, "SELECT count(DISTINCT instance_id) FROM result WHERE run_id = 2");
    assert_true(solved > 0 && solved < ROWS);
    assert_int_equal(db_int(db, "SELECT count(*) FROM result WHERE run_id = 2"), 4 * solved);
    assert_int_equal(db_exec(db, "PRAGMA integrity_check"), 0);
    assert_int_equal(run_coinrow(&r, NULL, "solve", "--resume", "--db", db, (char *)NULL), 0);
    assert_int_equal(r.status, 0);
    char expect[128];
    snprintf(expect, sizeof expect, "solved %lld, failed 0, set 'big', run 2", (long long)(ROWS - solved));
    assert_non_null(strstr(r.out, expect));
    run_result_free(&r);
    check_complete(db, 2, 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cli_interrupt__sigint_stops_a_run_cleanly_and_it_can_be_finished),
        cmocka_unit_test(test_cli_interrupt__sigterm_and_sigkill_of_solve_are_resumed_exactly_once),
    };
    return cmocka_run_group_tests(tests, make_input, remove_input);
}

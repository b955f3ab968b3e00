/* Errors that coinrow must not swallow (issue 33, item 7): output written
 * to a full disk (/dev/full) fails the command with a message, as
 * `ls > /dev/full` does, instead of exiting 0. */
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
#include "support/run.h"

/* coinrow ARGS... with its standard output on /dev/full. */
static void into_full(run_result *r, const char *const *args)
{
    char *argv[40] = {"sh", "-c", "exec \"$0\" \"$@\" > /dev/full", (char *)run_bin()};
    int argc = 4;
    for (; *args && argc < 38; args++)
        argv[argc++] = (char *)*args;
    argv[argc] = NULL;
    assert_int_equal(run_capture(r, argv, NULL), 0);
}

#define WORDS(...) ((const char *const[]){__VA_ARGS__, NULL})

static void test_errors__output_into_a_full_disk_fails_the_command(void **state)
{
    tmp_db *t = *state;
    if (access("/dev/full", W_OK) != 0)
        skip();
    const char *csv = tmp_path(t->dir, "rows.csv");
    assert_int_equal(write_file(csv, "id,values\na,1 2 3\nb,4 5\n"), 0);
    run_result r;
    COINROW(&r, NULL, "run", csv, "--db", t->db, "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    COINROW(&r, NULL, "solve", "--db", t->db, "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);

    const struct {
        const char *const *args;
        int status;
    } cases[] = {
        {WORDS("eval", "1", "2", "3"), 1},
        {WORDS("show", "--db", t->db), 1},
        {WORDS("check-db", "--db", t->db), 1},
        {WORDS("compare", "1", "2", "--db", t->db), 2}, /* as diff(1): 2 is trouble */
        {WORDS("compare", "1", "2", "--json", "--db", t->db), 2},
        {WORDS("run", csv, "--db", t->db, "--set", "again"), 1}, /* its summary */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        into_full(&r, cases[i].args);
        if (r.status != cases[i].status || !strstr(r.err, "cannot write to standard output"))
            fail_msg("coinrow %s: exit %d, said: %s", cases[i].args[0], r.status, r.err);
        run_result_free(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_errors__output_into_a_full_disk_fails_the_command, tmp_db_setup,
                                        tmp_db_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

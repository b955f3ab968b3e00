/* The runner inside the sandbox (invoke/invoke.h, sandbox.c and init.c):
 * what a program sees there, that its end and its resources come back as
 * they are (its own CPU time, a signal apart from an exit status of
 * 128 + N), that a stop kills the whole sandbox, and that nothing is left
 * to reap.  Skipped, saying so, without bubblewrap or where it cannot make
 * namespaces (make deps installs it). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "invoke/invoke.h"
#include "support/files.h"
#include "support/programs.h"
#include "support/run.h"

static char *dir;
static cr_child *child;
static const cr_limits limits = {.cpu_seconds = 0.3, .memory_bytes = 64 << 20, .output_bytes = 1 << 20};
static const char input[] = "4\n3 100 1 2\n";

static int setup(void **state)
{
    (void)state;
    signal(SIGPIPE, SIG_IGN);
    return !(dir = tmp_dir_new()) || programs_build(dir) != 0 || cr_child_new(&child, NULL) != 0 ? -1 : 0;
}

static int teardown(void **state)
{
    (void)state;
    cr_child_free(child);
    tmp_dir_free(dir);
    return 0;
}

static void nothing_to_reap(void)
{
    assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
    assert_int_equal(errno, ECHILD);
}

/* The sandbox of the program s (made in dir) with the coinrow under test
 * as its init, as invoke makes it. */
static int make_sandbox(cr_sandbox **out, const cr_submission *s, const cr_limits *lim, cr_error *err)
{
    cr_sandbox_opts o = {.path = cr_submission_path(s), .argv = cr_submission_argv(s),
                         .script = cr_submission_script(s), .dir = dir, .init = run_bin(), .limits = lim};
    return cr_sandbox_new(out, &o, err);
}

/* Runs the command argv (given in dir, as invoke would) once in a sandbox
 * made for it with the coinrow under test as its init; skips the test
 * when bubblewrap is missing or cannot make namespaces here. */
static int sandboxed(cr_child_report *out, char *const argv[], const cr_limits *lim, const atomic_int *stop,
                     cr_error *err)
{
    cr_submission *s = NULL;
    cr_sandbox *sb = NULL;
    cr_error why = {0};
    assert_int_equal(cr_submission_new(&s, argv, dir, run_bin(), &why), 0);
    int made = make_sandbox(&sb, s, lim, &why);
    if (made == CR_EINVAL && (strstr(why.msg, "needs bubblewrap") || strstr(why.msg, " cannot create namespaces: "))) {
        fprintf(stderr, "notice: skipped: %s\n", why.msg);
        cr_submission_free(s);
        skip();
    }
    if (made != 0)
        fail_msg("no sandbox: %s", why.msg);
    int rc = cr_child_run(out, child, NULL, NULL, NULL, sb, input, sizeof input - 1, lim, stop, err);
    cr_sandbox_free(sb);
    cr_submission_free(s);
    nothing_to_reap();
    return rc;
}

static int run_program(cr_child_report *out, program p, const cr_limits *lim)
{
    char path[4200];
    snprintf(path, sizeof path, "./%s", program_name(p));
    char *argv[] = {path, NULL};
    return sandboxed(out, argv, lim, NULL, NULL);
}

/* The promises of "What the program sees", looked at by a shell inside. */
static void test_sandbox__a_program_sees_its_own_namespaces_and_folders_only(void **state)
{
    (void)state;
    char *argv[] = {"sh", "-c",
                    "id -u; id -g; read -r inside outside count < /proc/self/uid_map; echo \"map $inside $outside\";"
                    " hostname; ls -A /; echo box $(ls -A /box | wc -l); echo pids $(ls /proc | grep -c '^[0-9]');"
                    " echo devices $(ls /dev); env; touch /usr/x /x 2>&1; echo tmp > /tmp/t && echo box > /box/b &&"
                    " echo written",
                    NULL};
    cr_child_report r;
    assert_int_equal(sandboxed(&r, argv, &limits, NULL, NULL), 0);
    if (r.end != CR_CHILD_EXITED || r.exit_code != 0)
        fail_msg("end %d, exit %d: %s", (int)r.end, r.exit_code, r.err);
    char uid[64];
    snprintf(uid, sizeof uid, "%d\n%d\nmap %d ", CR_SANDBOX_UID, CR_SANDBOX_UID, CR_SANDBOX_UID);
    assert_true(strncmp(r.out, uid, strlen(uid)) == 0);
    /* outside its namespace it is no one: never root */
    assert_true(strtol(r.out + strlen(uid), NULL, 10) != 0);
    assert_non_null(strstr(r.out, "\ncoinrow\n"));
    static const char *const there[] = {"\nbox\n", "\ndev\n", "\nproc\n", "\ntmp\n", "\nusr\n", "\nbin\n"};
    for (size_t k = 0; k < sizeof there / sizeof there[0]; k++)
        assert_non_null(strstr(r.out, there[k]));
    static const char *const hidden[] = {"\netc\n", "\nhome\n", "\nroot\n", "\nvar\n", "\nrun\n", "\nsys\n"};
    for (size_t k = 0; k < sizeof hidden / sizeof hidden[0]; k++)
        assert_null(strstr(r.out, hidden[k]));
    assert_non_null(strstr(r.out, "\nbox 0\n"));
    long pids = strtol(strstr(r.out, "\npids ") + 6, NULL, 10);
    assert_true(pids >= 2 && pids < 8); /* the init, the shell and its pipeline */
    assert_non_null(strstr(r.out, "\ndevices null urandom zero\n"));
    assert_non_null(strstr(r.out, "\nPATH=" CR_SANDBOX_PATH "\n"));
    assert_non_null(strstr(r.out, "\nHOME=/box\n"));
    assert_null(strstr(r.out, "SHELL="));
    assert_non_null(strstr(r.out, "/usr/x': Read-only file system"));
    assert_non_null(strstr(r.out, "/x': Read-only file system"));
    assert_non_null(strstr(r.out, "\nwritten\n"));
}

/* bwrap alone would report 128 + N for signal N; the init reports the
 * program's own wait status. */
static void test_sandbox__a_signal_and_an_exit_status_of_128_plus_n_are_told_apart(void **state)
{
    (void)state;
    cr_child_report r;
    assert_int_equal(run_program(&r, PROGRAM_SEGV, &limits), 0);
    assert_int_equal(r.end, CR_CHILD_SIGNALED);
    assert_int_equal(r.signal, SIGSEGV);
    assert_non_null(strstr(r.err, "about to crash\n"));
    assert_int_equal(run_program(&r, PROGRAM_ABORT, &limits), 0);
    assert_int_equal(r.end, CR_CHILD_SIGNALED);
    assert_int_equal(r.signal, SIGABRT); /* not pid 1, whose own signals would be dropped */
    assert_int_equal(run_program(&r, PROGRAM_EXIT_139, &limits), 0);
    assert_int_equal(r.end, CR_CHILD_EXITED);
    assert_int_equal(r.exit_code, 139);
}

static void test_sandbox__limits_end_programs_as_they_do_outside(void **state)
{
    (void)state;
    cr_child_report r;
    assert_int_equal(run_program(&r, PROGRAM_CORRECT, &limits), 0);
    assert_int_equal(r.end, CR_CHILD_EXITED);
    assert_string_equal(r.out, "98\nRLLL\n");
    /* the init's size, which its peak counts (both as Linux counts them,
     * a few pages either way) */
    assert_true(r.peak_rss_kib > 0 && r.floor_kib > 0);
    assert_int_equal(r.sandbox_note[0], '\0');

    assert_int_equal(run_program(&r, PROGRAM_SPINNER, &limits), 0);
    assert_true(r.end == CR_CHILD_CPU_KILLED || r.end == CR_CHILD_WALL_KILLED); /* the wall clock on a busy machine */
    assert_int_equal(r.signal, SIGKILL);
    assert_true(r.cpu_seconds > 0.1);

    assert_int_equal(run_program(&r, PROGRAM_SLEEPER, &limits), 0);
    assert_int_equal(r.end, CR_CHILD_WALL_KILLED);
    assert_true(r.wall_seconds >= 0.6 && r.cpu_seconds < 0.3);

    /* time enough, on a busy machine, to touch it all after bwrap's start */
    cr_limits roomy = limits;
    roomy.cpu_seconds = 2;
    assert_int_equal(run_program(&r, PROGRAM_HOG, &roomy), 0);
    assert_int_equal(r.end, CR_CHILD_SIGNALED);
    assert_true((uint64_t)r.peak_rss_kib * 1024 * 4 >= limits.memory_bytes * 3);

    assert_int_equal(run_program(&r, PROGRAM_FLOOD, &limits), 0);
    assert_int_equal(r.end, CR_CHILD_OUTPUT_KILLED);

    /* its CPU time is its own, bwrap's and the init's left out */
    assert_int_equal(run_program(&r, PROGRAM_BUSY, &limits), 0);
    assert_int_equal(r.end, CR_CHILD_EXITED);
    assert_true(r.cpu_seconds >= 0.03 && r.cpu_seconds < 0.3);
}

/* What the program leaves running dies with the sandbox: not waited for. */
static void test_sandbox__what_a_program_leaves_running_dies_with_the_sandbox(void **state)
{
    (void)state;
    cr_child_report r;
    assert_int_equal(run_program(&r, PROGRAM_FORKER, &limits), 0);
    assert_int_equal(r.end, CR_CHILD_EXITED);
    assert_int_equal(r.exit_code, 0);
    assert_true(r.wall_seconds < 0.6);
}

static void test_sandbox__a_stop_kills_the_sandbox_and_says_so(void **state)
{
    (void)state;
    atomic_int stop = 1;
    char *argv[] = {"./sleeper", NULL};
    cr_child_report r;
    cr_error err = {0};
    assert_int_equal(sandboxed(&r, argv, &limits, &stop, &err), CR_EINTERRUPTED);
    assert_true(r.wall_seconds < 0.3);
}

/* A program the sandbox's user may not execute is refused by the check,
 * naming it, before anything runs. */
static void test_sandbox__a_program_it_cannot_run_is_refused_naming_it(void **state)
{
    (void)state;
    const char *junk = tmp_path(dir, "junk");
    assert_int_equal(write_file(junk, "\x7f" "ELF junk"), 0);
    assert_int_equal(chmod(junk, 0755), 0);
    cr_submission *s = NULL;
    cr_sandbox *sb = NULL;
    cr_error err = {0};
    char *argv[] = {"./junk", NULL};
    assert_int_equal(cr_submission_new(&s, argv, dir, run_bin(), &err), 0);
    int made = make_sandbox(&sb, s, &limits, &err);
    if (made == CR_EINVAL && (strstr(err.msg, "needs bubblewrap") || strstr(err.msg, " cannot create namespaces: "))) {
        cr_submission_free(s);
        skip();
    }
    assert_int_equal(made, 0); /* it is there and executable: exec itself fails */
    cr_child_report r;
    assert_int_equal(cr_child_run(&r, child, NULL, NULL, NULL, sb, input, sizeof input - 1, &limits, NULL, &err),
                     CR_EIO);
    assert_non_null(strstr(err.msg, "the sandbox did not start the program (its init: cannot run /program/junk: "));
    cr_sandbox_free(sb);
    cr_submission_free(s);
    nothing_to_reap();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sandbox__a_program_sees_its_own_namespaces_and_folders_only),
        cmocka_unit_test(test_sandbox__a_signal_and_an_exit_status_of_128_plus_n_are_told_apart),
        cmocka_unit_test(test_sandbox__limits_end_programs_as_they_do_outside),
        cmocka_unit_test(test_sandbox__what_a_program_leaves_running_dies_with_the_sandbox),
        cmocka_unit_test(test_sandbox__a_stop_kills_the_sandbox_and_says_so),
        cmocka_unit_test(test_sandbox__a_program_it_cannot_run_is_refused_naming_it),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

/* The runner of programs (invoke/invoke.h) on the test programs: how each one
 * ends, what is read back, and that nothing is left behind: no zombie of
 * ours and no process in the program's group once a run returns. */
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
#include <dirent.h>
#include <time.h>

#include "invoke/invoke.h"
#include "support/files.h"
#include "support/programs.h"

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

/* Whether a process of the group is alive (not a zombie), waiting up to a
 * second for the SIGKILLs sent to it to land. */
static int group_alive(pid_t group)
{
    for (int tries = 0; tries < 1000; tries++) {
        int alive = 0;
        DIR *proc = opendir("/proc");
        for (struct dirent *e; proc && (e = readdir(proc)) != NULL;) {
            char path[300], stat[512];
            snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
            FILE *f = fopen(path, "r");
            size_t len = f ? fread(stat, 1, sizeof stat - 1, f) : 0;
            if (f)
                fclose(f);
            stat[len] = '\0';
            char state;
            int ppid, pgrp;
            const char *after_name = strrchr(stat, ')');
            if (after_name && sscanf(after_name, ") %c %d %d", &state, &ppid, &pgrp) == 3 && pgrp == group &&
                state != 'Z')
                alive = 1;
        }
        if (proc)
            closedir(proc);
        if (!alive)
            return 0;
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
    }
    return 1;
}

/* Checks that a run left nothing: no child of ours to reap. */
static void nothing_to_reap(void)
{
    assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
    assert_int_equal(errno, ECHILD);
}

/* Runs program p in dir under a shell that first writes its own pid (the
 * program's, after exec, and its group's) to stderr; checks that the run
 * left nothing: no child of ours to reap, nobody alive in the group. */
static int run(cr_child_report *out, program p, const char *in, size_t in_len, const cr_limits *lim,
               cr_error *err)
{
    char script[256];
    snprintf(script, sizeof script, "echo $$ >&2; exec ./%s", program_name(p));
    char *argv[] = {"sh", "-c", script, NULL};
    char *sh = NULL;
    assert_int_equal(cr_child_resolve(&sh, "sh", dir, NULL), 0);
    int rc = cr_child_run(out, child, sh, argv, dir, NULL, in, in_len, lim, NULL, err);
    free(sh);
    long group = strtol(out->err, NULL, 10);
    assert_true(group > 1);
    assert_false(group_alive((pid_t)group));
    nothing_to_reap();
    return rc;
}

static void test_child__a_correct_program_is_read_back_with_its_time_and_memory(void **state)
{
    (void)state;
    cr_child_report r;
    assert_int_equal(run(&r, PROGRAM_CORRECT, input, sizeof input - 1, &limits, NULL), 0);
    assert_int_equal(r.end, CR_CHILD_EXITED);
    assert_int_equal(r.exit_code, 0);
    assert_string_equal(r.out, "98\nRLLL\n");
    assert_int_equal(r.out_len, 8);
    assert_true(r.wall_seconds > 0 && r.wall_seconds < 0.6);
    assert_true(r.cpu_seconds >= 0 && r.cpu_seconds < 0.3);
    assert_true(r.peak_rss_kib > 0);
    assert_true(r.floor_kib > 0); /* coinrow's own size, which the peak counts */
    assert_int_equal(r.stdin_closed, 0);
}

static void test_child__a_sleeper_is_killed_at_the_wall_clock_and_a_spinner_by_its_cpu_time(void **state)
{
    (void)state;
    cr_child_report r;
    assert_int_equal(run(&r, PROGRAM_SLEEPER, input, sizeof input - 1, &limits, NULL), 0);
    assert_int_equal(r.end, CR_CHILD_WALL_KILLED);
    assert_true(r.wall_seconds >= 0.6);
    assert_true(r.cpu_seconds < 0.3);
    assert_int_equal(run(&r, PROGRAM_SPINNER, input, sizeof input - 1, &limits, NULL), 0);
    /* on a busy machine the wall clock may come first */
    assert_true(r.end == CR_CHILD_CPU_KILLED || r.end == CR_CHILD_WALL_KILLED);
    assert_int_equal(r.signal, SIGKILL);
}

static void test_child__a_hog_fails_at_the_address_space_limit_holding_most_of_it(void **state)
{
    (void)state;
    cr_child_report r;
    assert_int_equal(run(&r, PROGRAM_HOG, input, sizeof input - 1, &limits, NULL), 0);
    assert_int_equal(r.end, CR_CHILD_SIGNALED);
    assert_int_equal(r.signal, SIGSEGV);
    assert_true((uint64_t)r.peak_rss_kib * 1024 * 4 >= limits.memory_bytes * 3);
    assert_true((uint64_t)r.peak_rss_kib * 1024 <= limits.memory_bytes);
}

static void test_child__a_flood_is_killed_past_the_output_limit(void **state)
{
    (void)state;
    cr_child_report r;
    assert_int_equal(run(&r, PROGRAM_FLOOD, input, sizeof input - 1, &limits, NULL), 0);
    assert_int_equal(r.end, CR_CHILD_OUTPUT_KILLED);
    assert_true(r.out_len > limits.output_bytes);
    assert_true(r.out_len <= limits.output_bytes + 65536);
}

/* cat reads its input to the end, so it ends only when the input is closed;
 * it writes exactly the output limit back, which is allowed (one byte more
 * is not). */
static void test_child__cat_gets_its_input_closed_and_may_write_up_to_the_limit(void **state)
{
    (void)state;
    size_t len = 200000; /* more than a pipe holds */
    char *text = malloc(len);
    assert_non_null(text);
    for (size_t i = 0; i < len; i++)
        text[i] = (char)('a' + i % 26);
    char *cat = NULL;
    assert_int_equal(cr_child_resolve(&cat, "cat", dir, NULL), 0);
    char *argv[] = {"cat", NULL};
    cr_limits exact = limits;
    exact.output_bytes = len;
    cr_child_report r;
    assert_int_equal(cr_child_run(&r, child, cat, argv, dir, NULL, text, len, &exact, NULL, NULL), 0);
    assert_int_equal(r.end, CR_CHILD_EXITED);
    assert_int_equal(r.exit_code, 0);
    assert_int_equal(r.out_len, len);
    assert_memory_equal(r.out, text, len);
    exact.output_bytes = len - 1;
    assert_int_equal(cr_child_run(&r, child, cat, argv, dir, NULL, text, len, &exact, NULL, NULL), 0);
    assert_int_equal(r.end, CR_CHILD_OUTPUT_KILLED);
    free(cat);
    free(text);
    nothing_to_reap();
}

static void test_child__crashes_keep_their_signal_and_the_first_bytes_of_stderr(void **state)
{
    (void)state;
    cr_child_report r;
    assert_int_equal(run(&r, PROGRAM_SEGV, input, sizeof input - 1, &limits, NULL), 0);
    assert_int_equal(r.end, CR_CHILD_SIGNALED);
    assert_int_equal(r.signal, SIGSEGV);
    assert_non_null(strstr(r.err, "\nabout to crash\n"));
    assert_int_equal(run(&r, PROGRAM_ABORT, input, sizeof input - 1, &limits, NULL), 0);
    assert_int_equal(r.end, CR_CHILD_SIGNALED);
    assert_int_equal(r.signal, SIGABRT);
    assert_non_null(strstr(r.err, "Assertion"));
}

static void test_child__a_program_that_closes_its_input_early_is_no_error(void **state)
{
    (void)state;
    /* more than a pipe holds, so that writing it meets the closed end */
    size_t len = 1 << 20;
    char *big = malloc(len);
    assert_non_null(big);
    memset(big, '7', len);
    cr_child_report r;
    assert_int_equal(run(&r, PROGRAM_CLOSER, big, len, &limits, NULL), 0);
    assert_int_equal(r.end, CR_CHILD_EXITED);
    assert_int_equal(r.exit_code, 0);
    assert_string_equal(r.out, "0\n");
    assert_int_equal(r.stdin_closed, 1);
    free(big);
}

static void test_child__what_a_program_leaves_running_is_killed_with_its_group(void **state)
{
    (void)state;
    cr_child_report r;
    assert_int_equal(run(&r, PROGRAM_FORKER, input, sizeof input - 1, &limits, NULL), 0);
    assert_int_equal(r.end, CR_CHILD_EXITED);
    assert_int_equal(r.exit_code, 0);
    assert_true(r.wall_seconds < 0.6); /* its child held the pipes: not waited for */
}

static void test_child__a_stop_kills_the_program_and_says_so(void **state)
{
    (void)state;
    atomic_int stop = 1;
    char *argv[] = {"sleeper", NULL};
    cr_child_report r;
    cr_error err = {0};
    assert_int_equal(cr_child_run(&r, child, "./sleeper", argv, dir, NULL, input, sizeof input - 1, &limits, &stop, &err),
                     CR_EINTERRUPTED);
    assert_true(r.wall_seconds < 0.3);
    nothing_to_reap();
}

static void test_child__programs_that_cannot_run_are_named(void **state)
{
    (void)state;
    char *path = NULL;
    cr_error err = {0};
    assert_int_equal(cr_child_resolve(&path, "no-such-program-here", dir, &err), CR_EINVAL);
    assert_string_equal(err.msg, "cannot run 'no-such-program-here': no such program in PATH");
    assert_int_equal(cr_child_resolve(&path, "./correct.c", dir, &err), CR_EINVAL);
    assert_string_equal(err.msg, "cannot run './correct.c': not an executable file");
    assert_int_equal(cr_child_resolve(&path, "./missing", dir, &err), CR_EINVAL);
    assert_string_equal(err.msg, "cannot run './missing': no such file");
    assert_int_equal(cr_child_resolve(&path, "./correct", dir, NULL), 0);
    assert_string_equal(path, "./correct");
    free(path);
    assert_int_equal(cr_child_resolve(&path, "", dir, &err), CR_EINVAL);
    assert_string_equal(err.msg, "the command is empty");

    /* without PATH, a name is looked for where POSIX shells look */
    char *saved = strdup(getenv("PATH") ? getenv("PATH") : "");
    assert_int_equal(unsetenv("PATH"), 0);
    int found = cr_child_resolve(&path, "sh", dir, &err);
    assert_int_equal(setenv("PATH", saved, 1), 0);
    free(saved);
    assert_int_equal(found, 0);
    assert_true(strcmp(path, "/usr/local/bin/sh") == 0 || strcmp(path, "/usr/bin/sh") == 0 ||
                strcmp(path, "/bin/sh") == 0);
    free(path);

    /* executable, but not a program: exec itself fails */
    const char *junk = tmp_path(dir, "junk");
    assert_int_equal(write_file(junk, "\x7f" "ELF junk"), 0);
    assert_int_equal(chmod(junk, 0755), 0);
    char *argv[] = {"junk", NULL};
    cr_child_report r;
    assert_int_equal(cr_child_run(&r, child, junk, argv, dir, NULL, input, sizeof input - 1, &limits, NULL, &err), CR_EIO);
    assert_non_null(strstr(err.msg, "cannot run junk: "));
    nothing_to_reap();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_child__a_correct_program_is_read_back_with_its_time_and_memory),
        cmocka_unit_test(test_child__a_sleeper_is_killed_at_the_wall_clock_and_a_spinner_by_its_cpu_time),
        cmocka_unit_test(test_child__a_hog_fails_at_the_address_space_limit_holding_most_of_it),
        cmocka_unit_test(test_child__a_flood_is_killed_past_the_output_limit),
        cmocka_unit_test(test_child__cat_gets_its_input_closed_and_may_write_up_to_the_limit),
        cmocka_unit_test(test_child__crashes_keep_their_signal_and_the_first_bytes_of_stderr),
        cmocka_unit_test(test_child__a_program_that_closes_its_input_early_is_no_error),
        cmocka_unit_test(test_child__what_a_program_leaves_running_is_killed_with_its_group),
        cmocka_unit_test(test_child__a_stop_kills_the_program_and_says_so),
        cmocka_unit_test(test_child__programs_that_cannot_run_are_named),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

/* The runner of programs (invoke/invoke.h) on the test programs: how each one
 * ends, what is read back, and that nothing is left behind: no zombie of
 * ours and no process in the program's group once a run returns.  Then the
 * same inside the sandbox (sandbox.c, init.c): what a program sees there,
 * that its end and its resources come back as they are (its own CPU time,
 * a signal apart from an exit status of 128 + N), that a stop kills the
 * whole sandbox; skipped, saying so, without bubblewrap or where it cannot
 * make namespaces (make deps installs it). */
#define _XOPEN_SOURCE 700 /* posix_openpt, grantpt, unlockpt, ptsname */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "invoke/invoke.h"
#include "support/files.h"
#include "support/programs.h"
#include "support/run.h"

static char *dir;
static cr_child *child;
/* The time limits these tests check hold on a machine ten times slower or
 * faster than ours: what must end in time needs a few milliseconds (the
 * busy program 30 ms of CPU, counted by its own clock) against 0.3 s of CPU
 * and 0.6 s of wall clock, ten times more than it needs even ten times
 * slower; what must be killed never ends on its own (it spins or sleeps 60
 * s), whatever the speed.  Only which of the two limits kills a spinner
 * depends on the load, and no test asks. */
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
    assert_false(run_alive((pid_t)group, NULL));
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
    /* time enough to fill the memory on a loaded machine: this is about memory */
    cr_limits roomy = limits;
    roomy.cpu_seconds = 3;
    cr_child_report r;
    assert_int_equal(run(&r, PROGRAM_HOG, input, sizeof input - 1, &roomy, NULL), 0);
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

/* Runs the shell script `script` in dir, with no input: its report in *r. */
static void run_script(cr_child_report *r, const char *script)
{
    char *argv[] = {"sh", "-c", (char *)script, NULL};
    char *sh = NULL;
    assert_int_equal(cr_child_resolve(&sh, "sh", dir, NULL), 0);
    assert_int_equal(cr_child_run(r, child, sh, argv, dir, NULL, "", 0, &limits, NULL, NULL), 0);
    free(sh);
}

/* What a program leaves in a session of its own (setsid), out of the group
 * that is killed, is killed too: it was left running after coinrow. */
static void test_child__what_a_program_leaves_in_a_session_of_its_own_is_killed(void **state)
{
    (void)state;
    char fifo[4200];
    snprintf(fifo, sizeof fifo, "%s", tmp_path(dir, "left.fifo"));
    assert_int_equal(mkfifo(fifo, 0600), 0);
    /* the program ends once the one it leaves has said its pid */
    cr_child_report r;
    run_script(&r, "setsid sh -c 'echo $$ > left.fifo; exec sleep 60' </dev/null >/dev/null 2>&1 & "
                   "read left < left.fifo; echo $left >&2; echo 0");
    assert_int_equal(r.end, CR_CHILD_EXITED);
    pid_t left = (pid_t)strtol(r.err, NULL, 10);
    assert_true(left > 1);
    int alive = kill(left, 0) == 0;
    if (alive) { /* not to leave it for the next tests */
        kill(left, SIGKILL);
        waitpid(left, NULL, 0);
    }
    assert_false(alive);
    nothing_to_reap();
    unlink(fifo);
}

/* A program has no controlling terminal: through /dev/tty it wrote to the
 * terminal of the one who ran coinrow, escaping nothing, and could type
 * into it (TIOCSTI).  The check runs in a process that has a terminal of
 * its own, a new pseudo-terminal. */
static void test_child__a_program_has_no_terminal(void **state)
{
    (void)state;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int master = posix_openpt(O_RDWR | O_NOCTTY);
        if (setsid() < 0 || master < 0 || grantpt(master) != 0 || unlockpt(master) != 0)
            _exit(2);
        int tty = open(ptsname(master), O_RDWR); /* this session's terminal now */
        if (tty < 0 || open("/dev/tty", O_RDWR) < 0)
            _exit(3);
        cr_child_report r;
        run_script(&r, "if (: </dev/tty) 2>/dev/null; then echo terminal; else echo none; fi");
        _exit(strcmp(r.out, "none\n") == 0 ? 0 : 1);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
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

/* Makes close_range fail with ENOSYS in this process and its children, as
 * on a kernel before 5.9. */
static int without_close_range(void)
{
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_close_range, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA)),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog fprog = {sizeof filter / sizeof filter[0], filter};
    return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 && prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog) == 0
               ? 0
               : -1;
}

/* Whether a program run now finds descriptor 57 (open here, not
 * close-on-exec) open: 'inherited' or 'closed' on its output. */
static int program_sees_fd_57(char *out, size_t cap)
{
    char *argv[] = {"sh", "-c", "if [ -e /proc/$$/fd/57 ]; then echo inherited; else echo closed; fi", NULL};
    char *sh = NULL;
    cr_child_report r;
    if (cr_child_resolve(&sh, "sh", dir, NULL) != 0)
        return -1;
    int rc = cr_child_run(&r, child, sh, argv, dir, NULL, "", 0, &limits, NULL, NULL);
    free(sh);
    snprintf(out, cap, "%.*s", (int)r.out_len, r.out ? r.out : "");
    return rc;
}

/* close_range (Linux 5.11) is checked, and without it each descriptor is
 * marked close-on-exec one by one: the program gets none of coinrow's. */
static void test_child__no_descriptor_of_coinrow_reaches_a_program_without_close_range(void **state)
{
    (void)state;
    char seen[64] = "";
    assert_int_equal(dup2(open("/dev/null", O_RDONLY), 57), 57);
    assert_int_equal(program_sees_fd_57(seen, sizeof seen), 0);
    assert_string_equal(seen, "closed\n");
    int pipe_fds[2];
    assert_int_equal(pipe(pipe_fds), 0);
    pid_t pid = fork();
    if (pid == 0) { /* the filter stays with this process */
        close(pipe_fds[0]);
        int rc = without_close_range() == 0 ? program_sees_fd_57(seen, sizeof seen) : -1;
        if (rc != 0)
            snprintf(seen, sizeof seen, "cannot run (%d)\n", rc);
        ssize_t ignored = write(pipe_fds[1], seen, strlen(seen));
        (void)ignored;
        _exit(0);
    }
    close(pipe_fds[1]);
    char got[64] = "";
    ssize_t len = read(pipe_fds[0], got, sizeof got - 1);
    close(pipe_fds[0]);
    assert_int_equal(waitpid(pid, NULL, 0), pid);
    close(57);
    assert_true(len > 0);
    assert_string_equal(got, "closed\n");
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

/* The sandbox of the program s (made in dir) with the coinrow under test
 * as its init, as invoke makes it. */
static int make_sandbox(cr_sandbox **out, const cr_submission *s, const cr_limits *lim, cr_error *err)
{
    cr_sandbox_opts o = {.path = cr_submission_path(s), .argv = cr_submission_argv(s),
                         .script = cr_submission_script(s), .dir = dir, .init = run_bin(), .limits = lim};
    return cr_sandbox_new(out, &o, err);
}

/* The sandbox of the command argv (given in dir, as invoke would) and its
 * submission; skips the test when bubblewrap is missing or cannot make
 * namespaces here. */
static void make_sandboxed(cr_sandbox **out, cr_submission **s, char *const argv[], const cr_limits *lim)
{
    cr_error why = {0};
    assert_int_equal(cr_submission_new(s, argv, dir, run_bin(), &why), 0);
    int made = make_sandbox(out, *s, lim, &why);
    if (made == CR_EINVAL && (strstr(why.msg, "needs bubblewrap") || strstr(why.msg, " cannot create namespaces: "))) {
        fprintf(stderr, "notice: skipped: %s\n", why.msg);
        cr_submission_free(*s);
        skip();
    }
    if (made != 0)
        fail_msg("no sandbox: %s", why.msg);
}

/* Runs the command argv once in a sandbox made for it, with a runner of
 * its own (whose box ends with it); its output kept until the next call. */
static int sandboxed(cr_child_report *out, char *const argv[], const cr_limits *lim, const atomic_int *stop,
                     cr_error *err)
{
    static char *kept;
    cr_submission *s = NULL;
    cr_sandbox *sb = NULL;
    cr_child *runner = NULL;
    make_sandboxed(&sb, &s, argv, lim);
    assert_int_equal(cr_child_new(&runner, err), 0);
    int rc = cr_child_run(out, runner, NULL, NULL, NULL, sb, input, sizeof input - 1, lim, stop, err);
    free(kept);
    kept = rc == 0 ? strdup(out->out) : NULL;
    out->out = kept;
    cr_child_free(runner);
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
                    "id -u; id -g; read -r inside outside count < /proc/self/uid_map; echo \"map $inside $count\";"
                    " hostname; ls -A /; echo box $(ls -A /box | wc -l); echo pids $(ls /proc | grep -c '^[0-9]');"
                    " echo devices $(ls /dev); env; touch /usr/x /x 2>&1; echo tmp > /tmp/t && echo box > /box/b &&"
                    " echo written",
                    NULL};
    cr_child_report r;
    assert_int_equal(sandboxed(&r, argv, &limits, NULL, NULL), 0);
    if (r.end != CR_CHILD_EXITED || r.exit_code != 0)
        fail_msg("end %d, exit %d: %s", (int)r.end, r.exit_code, r.err);
    /* in a user namespace of its own, where only its user is mapped */
    char uid[64];
    snprintf(uid, sizeof uid, "%d\n%d\nmap %d 1\n", CR_SANDBOX_UID, CR_SANDBOX_UID, CR_SANDBOX_UID);
    assert_true(strncmp(r.out, uid, strlen(uid)) == 0);
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
    /* its CPU time counted: the limit's when that killed it (to the
     * microseconds the counts round off); when the wall clock did, whatever
     * share of a CPU a busy machine gave it */
    assert_true(r.end == CR_CHILD_CPU_KILLED ? r.cpu_seconds > limits.cpu_seconds - 0.01 : r.cpu_seconds > 0);

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
    make_sandboxed(&sb, &s, argv, &limits); /* it is there and executable: exec itself fails */
    cr_child_report r;
    cr_child *runner = NULL;
    assert_int_equal(cr_child_new(&runner, &err), 0);
    assert_int_equal(cr_child_run(&r, runner, NULL, NULL, NULL, sb, input, sizeof input - 1, &limits, NULL, &err),
                     CR_EIO);
    assert_non_null(strstr(err.msg, "the sandbox did not start the program (its init: cannot run /program/junk: "));
    /* and so is the next run: the failure was the run's, not its box's */
    assert_int_equal(cr_child_run(&r, runner, NULL, NULL, NULL, sb, input, sizeof input - 1, &limits, NULL, &err),
                     CR_EIO);
    assert_non_null(strstr(err.msg, "(its init: cannot run /program/junk: "));
    cr_child_free(runner);
    cr_sandbox_free(sb);
    cr_submission_free(s);
    nothing_to_reap();
}

/* The shell that plants or looks, in one sandbox, run by one runner. */
static char *const box_shell[] = {
    "sh", "-c",
    "read -r what; cut -d ' ' -f 22 /proc/1/stat;"
    " case $what in"
    " plant) echo x > /box/left; mkdir -p /tmp/d/e; echo y > /tmp/d/e/f; chmod 000 /tmp/d; chmod 500 /box;"
    "  sleep 30 & ipcmk -M 4096 > /dev/null; echo planted;;"
    " deep) mkdir -p /tmp/$(seq -s / 80) && echo deep;;"
    " *) echo box $(ls -A /box | wc -l) tmp $(ls -A /tmp | wc -l) sleepers $(cat /proc/[0-9]*/comm | grep -c sleep)"
    "  shm $(($(wc -l < /proc/sysvipc/shm) - 1)); touch /box/mine && echo writable;;"
    " esac",
    NULL};

/* Runs box_shell in sb with runner, what for its input: its output. */
static const char *in_box(cr_child *runner, const cr_sandbox *sb, const char *what)
{
    static cr_child_report r;
    cr_error err = {0};
    char asked[32];
    snprintf(asked, sizeof asked, "%s\n", what);
    assert_int_equal(cr_child_run(&r, runner, NULL, NULL, NULL, sb, asked, strlen(asked), &limits, NULL, &err), 0);
    if (r.end != CR_CHILD_EXITED || r.exit_code != 0)
        fail_msg("%s: end %d, exit %d: %s", what, (int)r.end, r.exit_code, r.err);
    return r.out;
}

/* A runner keeps its box for its next program, which finds nothing of the
 * last one's: no file in its folder or /tmp (made unreadable or not), no
 * process, no System V object; the folder writable again.  What the init
 * cannot remove (a folder too deep) ends the box, and the next program
 * runs in a new one, as clean. */
static void test_sandbox__a_program_finds_nothing_the_one_before_it_left(void **state)
{
    (void)state;
    cr_submission *s = NULL;
    cr_sandbox *sb = NULL;
    cr_child *runner = NULL;
    make_sandboxed(&sb, &s, box_shell, &limits);
    assert_int_equal(cr_child_new(&runner, NULL), 0);
    char started[32], again[32];
    const char *out = in_box(runner, sb, "plant");
    snprintf(started, sizeof started, "%.*s", (int)strcspn(out, "\n"), out);
    assert_non_null(strstr(out, "\nplanted\n"));
    out = in_box(runner, sb, "look");
    assert_int_equal(strncmp(out, started, strlen(started)), 0); /* the same init: the same box */
    assert_non_null(strstr(out, "\nbox 0 tmp 0 sleepers 0 shm 0\nwritable\n"));

    assert_non_null(strstr(in_box(runner, sb, "deep"), "\ndeep\n"));
    out = in_box(runner, sb, "look");
    snprintf(again, sizeof again, "%.*s", (int)strcspn(out, "\n"), out);
    assert_string_not_equal(again, started); /* a new box */
    assert_non_null(strstr(out, "\nbox 0 tmp 0 sleepers 0 shm 0\nwritable\n"));
    cr_child_free(runner);
    cr_sandbox_free(sb);
    cr_submission_free(s);
    nothing_to_reap();
}

/* Nor a key in the keyrings the sandbox's user keeps (its session's, its
 * own), where the last program put one. */
static void test_sandbox__a_program_finds_no_key_the_one_before_it_left(void **state)
{
    (void)state;
    cr_submission *s = NULL;
    cr_sandbox *sb = NULL;
    cr_child *runner = NULL;
    cr_error err = {0};
    char path[4200];
    snprintf(path, sizeof path, "./%s", program_name(PROGRAM_KEEPER));
    char *argv[] = {path, NULL};
    make_sandboxed(&sb, &s, argv, &limits);
    assert_int_equal(cr_child_new(&runner, NULL), 0);
    cr_child_report r;
    static const char *const asked[] = {"plant\n", "look\n"};
    for (int k = 0; k < 2; k++) {
        assert_int_equal(cr_child_run(&r, runner, NULL, NULL, NULL, sb, asked[k], strlen(asked[k]), &limits, NULL, &err),
                         0);
        if (r.end != CR_CHILD_EXITED || r.exit_code != 0)
            fail_msg("%s: end %d, exit %d: %s", asked[k], (int)r.end, r.exit_code, r.err);
    }
    assert_string_equal(r.out, "");
    cr_child_free(runner);
    cr_sandbox_free(sb);
    cr_submission_free(s);
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
        cmocka_unit_test(test_child__what_a_program_leaves_in_a_session_of_its_own_is_killed),
        cmocka_unit_test(test_child__a_program_has_no_terminal),
        cmocka_unit_test(test_child__a_stop_kills_the_program_and_says_so),
        cmocka_unit_test(test_child__programs_that_cannot_run_are_named),
        cmocka_unit_test(test_child__no_descriptor_of_coinrow_reaches_a_program_without_close_range),
        cmocka_unit_test(test_sandbox__a_program_sees_its_own_namespaces_and_folders_only),
        cmocka_unit_test(test_sandbox__a_signal_and_an_exit_status_of_128_plus_n_are_told_apart),
        cmocka_unit_test(test_sandbox__limits_end_programs_as_they_do_outside),
        cmocka_unit_test(test_sandbox__what_a_program_leaves_running_dies_with_the_sandbox),
        cmocka_unit_test(test_sandbox__a_stop_kills_the_sandbox_and_says_so),
        cmocka_unit_test(test_sandbox__a_program_it_cannot_run_is_refused_naming_it),
        cmocka_unit_test(test_sandbox__a_program_finds_nothing_the_one_before_it_left),
        cmocka_unit_test(test_sandbox__a_program_finds_no_key_the_one_before_it_left),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

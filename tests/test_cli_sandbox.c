/* coinrow invoke --sandbox end to end (issue 25): honest programs keep their
 * verdicts inside it; hostile ones (support/programs.h) fail at each thing
 * they try (a source, to build the database into itself), leave nothing
 * behind and change nothing outside their folder,
 * and the same programs run without --sandbox get there, which shows that
 * each test can fail; --resume keeps the sandbox; a missing bwrap, an old
 * one or one that cannot make namespaces is refused saying which.  Skipped,
 * saying so, where bubblewrap is not installed or cannot create namespaces
 * (make deps installs it). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "invoke/invoke.h"
#include "support/files.h"
#include "support/programs.h"
#include "support/run.h"

static char *dir;      /* the programs */
static char jury[4200]; /* the database's folder, with the jury's answers beside it */
static char db[4300], answers[4300];
static char why_not[1024]; /* why the sandbox cannot be tested here; "" when it can */

static const char *program_path(program p, const char *ext)
{
    static char path[4][4096];
    static int next;
    char *out = path[next++ % 4];
    snprintf(out, sizeof path[0], "%s/%s%s", dir, program_name(p), ext);
    return out;
}

#define WORDS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* coinrow invoke --db DB --set mix --variant diff [--sandbox] OPTIONS...
 * -- COMMAND, the words up to the first NULL options, those up to the
 * second the command. */
static void invoke(run_result *r, int sandboxed, const char *const *words)
{
    char *argv[48] = {(char *)run_bin(), "invoke", "--db", db, "--set", "mix", "--variant", "diff"};
    int argc = 8;
    if (sandboxed)
        argv[argc++] = "--sandbox";
    for (; *words; words++)
        argv[argc++] = (char *)*words;
    argv[argc++] = "--";
    for (words++; *words; words++)
        argv[argc++] = (char *)*words;
    argv[argc] = NULL;
    assert_int_equal(run_capture(r, argv, NULL), 0);
}

static int64_t latest(void) { return db_int(db, "SELECT max(id) FROM invocation"); }

static int64_t verdicts(const char *verdict)
{
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM verdict WHERE invocation_id = %lld AND verdict = '%s'",
             (long long)latest(), verdict);
    return db_int(db, sql);
}

static int setup(void **state)
{
    (void)state;
    if (!(dir = tmp_dir_new()) || programs_build(dir) != 0)
        return -1;
    snprintf(jury, sizeof jury, "%s/jury", dir);
    snprintf(db, sizeof db, "%s/t.db", jury);
    snprintf(answers, sizeof answers, "%s/answers.txt", jury);
    if (mkdir(jury, 0755) != 0 || write_file(answers, "the jury's answers\n") != 0)
        return -1;
    run_result r;
    if (run_coinrow(&r, NULL, "generate", "--db", db, "--set", "mix", "--count", "3", "--n", "2..7", "--values",
                    "-5..20", "--seed", "3", "--quiet", (char *)NULL) != 0 ||
        r.status != 0)
        return -1;
    run_result_free(&r);
    if (run_coinrow(&r, NULL, "solve", "--db", db, "--variant", "diff", "--quiet", (char *)NULL) != 0 || r.status != 0)
        return -1;
    run_result_free(&r);
    /* can it be tested here?  Only these two refusals skip: anything else
     * the sandbox does wrong fails the tests */
    invoke(&r, 1, WORDS(NULL, program_path(PROGRAM_CORRECT, "")));
    if (r.status == 2 && (strstr(r.err, "needs bubblewrap") || strstr(r.err, " cannot create namespaces: "))) {
        snprintf(why_not, sizeof why_not, "%s", r.err);
        fprintf(stderr, "notice: the sandbox's tests are skipped: %s", why_not);
    }
    run_result_free(&r);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    tmp_dir_free(dir);
    return 0;
}

static void need_sandbox(void)
{
    if (why_not[0])
        skip();
}

/* Whether a process called name is alive (not a zombie), waiting up to a
 * second for the SIGKILLs sent to it to land. */
static int alive(const char *name)
{
    for (int tries = 0; tries < 1000; tries++) {
        int found = 0;
        DIR *proc = opendir("/proc");
        for (struct dirent *e; proc && (e = readdir(proc)) != NULL;) {
            if (!isdigit((unsigned char)e->d_name[0]))
                continue;
            char path[300], stat[512];
            snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
            FILE *f = fopen(path, "r");
            size_t len = f ? fread(stat, 1, sizeof stat - 1, f) : 0;
            if (f)
                fclose(f);
            stat[len] = '\0';
            char comm[64], state;
            const char *open = strchr(stat, '('), *close = strrchr(stat, ')');
            if (open && close && close > open && (size_t)(close - open - 1) < sizeof comm) {
                snprintf(comm, sizeof comm, "%.*s", (int)(close - open - 1), open + 1);
                if (sscanf(close, ") %c", &state) == 1 && state != 'Z' && strcmp(comm, name) == 0)
                    found = 1;
            }
        }
        if (proc)
            closedir(proc);
        if (!found)
            return 0;
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
    }
    return 1;
}

/* The names in the jury's folder, the database's own files left out (the
 * verdicts change them), one a line. */
static char *jury_names(void)
{
    char *snap = dir_snapshot(jury), *out = calloc(1, strlen(snap ? snap : "") + 1);
    assert_non_null(out);
    for (char *line = snap, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        next = next ? next + 1 : line + strlen(line);
        if (strncmp(line, "t.db", 4) != 0)
            strncat(out, line, (size_t)(next - line));
    }
    free(snap);
    return out;
}

/* The first test's message as the summary gives it. */
static void first_says(const run_result *r, const char *what)
{
    if (!strstr(r->out, what) && !strstr(r->err, what))
        fail_msg("wanted '%s' in:\n%s%s", what, r->out, r->err);
}

/* Runs the hostile program p with args, first without the sandbox (it must
 * escape: exit 42, "escaped" on its stderr, unless `escape` says otherwise),
 * then with it (every verdict `verdict`, the jury's folder as it was, no
 * process called p left). */
static void hostile(program p, const char *arg, const char *escape, const char *verdict, const char *message)
{
    run_result r;
    invoke(&r, 0, WORDS(NULL, program_path(p, ""), arg));
    first_says(&r, escape);
    run_result_free(&r);
    assert_false(alive(program_name(p)));

    char *before = jury_names();
    invoke(&r, 1, WORDS(NULL, program_path(p, ""), arg));
    if (r.status != (strcmp(verdict, "AC") == 0 ? 0 : 1) || verdicts(verdict) != 3)
        fail_msg("%s in the sandbox: exit %d, %lld of 3 %s\n%s%s", program_name(p), r.status,
                 (long long)verdicts(verdict), verdict, r.out, r.err);
    assert_non_null(strstr(r.out, "; sandboxed)\n"));
    if (message)
        first_says(&r, message);
    assert_null(strstr(r.out, "escaped"));
    run_result_free(&r);
    char *after = jury_names();
    assert_string_equal(after, before);
    free(before);
    free(after);
    assert_false(alive(program_name(p)));
}

static void test_sandbox__honest_programs_keep_their_verdicts(void **state)
{
    (void)state;
    need_sandbox();
    static const struct {
        program p;
        const char *ext;
        const char *options[4];
        const char *verdict, *message;
    } cases[] = {
        {PROGRAM_CORRECT, "", {NULL}, "AC", "judged 3 of 3: AC 3\n"},
        {PROGRAM_CORRECT, "", {"--jobs", "2", NULL}, "AC", "judged 3 of 3: AC 3\n"},
        {PROGRAM_CORRECT, ".c", {NULL}, "AC", "judged 3 of 3: AC 3\n"},
        {PROGRAM_OFF_BY_ONE, "", {NULL}, "WA", "WA: wrong answer: line 1: the value "},
        {PROGRAM_SPINNER, "", {"--time-limit", "0.2", NULL}, "TLE", "TLE: killed "},
        {PROGRAM_SLEEPER, "", {"--time-limit", "0.2", NULL}, "TLE", "TLE: killed at the wall clock limit"},
        {PROGRAM_HOG, "", {"--memory-limit", "32", NULL}, "MLE", "resident of the 32 MiB limit"},
        {PROGRAM_FLOOD, "", {"--output-limit", "1", NULL}, "OLE", "OLE: killed for writing more than"},
        {PROGRAM_SEGV, "", {"--jobs", "2", NULL}, "RE", "RE: ended by SIGSEGV; "},
        {PROGRAM_ABORT, "", {NULL}, "RE", "RE: ended by SIGABRT; "},
        {PROGRAM_EXIT_139, "", {NULL}, "RE", "RE: exit status 139; "},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const char *words[8];
        int w = 0;
        for (const char *const *o = cases[k].options; *o; o++)
            words[w++] = *o;
        words[w++] = NULL;
        words[w++] = program_path(cases[k].p, cases[k].ext);
        words[w] = NULL;
        run_result r;
        invoke(&r, 1, words);
        int ac = strcmp(cases[k].verdict, "AC") == 0;
        if (r.status != (ac ? 0 : 1) || verdicts(cases[k].verdict) != 3 || !strstr(r.out, cases[k].message) ||
            !strstr(r.out, "; sandboxed)\n"))
            fail_msg("%s%s: exit %d, %lld of 3 %s\n%s%s", program_name(cases[k].p), cases[k].ext, r.status,
                     (long long)verdicts(cases[k].verdict), cases[k].verdict, r.out, r.err);
        run_result_free(&r);
        char sql[128];
        snprintf(sql, sizeof sql, "SELECT sandbox FROM invocation WHERE id = %lld", (long long)latest());
        assert_int_equal(db_int(db, sql), 1);
    }
    assert_false(alive(program_name(PROGRAM_SLEEPER)));
    assert_false(alive(program_name(PROGRAM_SPINNER)));
}

/* A Python source runs under the python3 of the sandbox's system folders,
 * whatever PATH finds first outside. */
static void test_sandbox__a_python_source_runs_under_the_system_python(void **state)
{
    (void)state;
    need_sandbox();
    struct stat st;
    if (stat("/usr/bin/python3", &st) != 0 && stat("/usr/local/bin/python3", &st) != 0)
        skip(); /* no python3 in the system folders */
    const char *source = tmp_path(dir, "sol.py");
    assert_int_equal(write_file(source, "import sys\n"
                                        "d = sys.stdin.read().split(); n = int(d[0]); a = list(map(int, d[1:1 + n]))\n"
                                        "f = {}\n"
                                        "for ln in range(1, n + 1):\n"
                                        "    for i in range(n - ln + 1):\n"
                                        "        j = i + ln - 1\n"
                                        "        f[i, j] = a[i] if i == j else max(a[i] - f[i + 1, j], a[j] - f[i, j - 1])\n"
                                        "print(f[0, n - 1])\n"),
                     0);
    run_result r;
    invoke(&r, 1, WORDS("--moves", "ignored", NULL, source));
    if (r.status != 0 || verdicts("AC") != 3)
        fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
    run_result_free(&r);
}

/* The first promise: a program that knows the database's path
 * cannot read it, nor the jury's answers beside it. */
static void test_sandbox__a_program_cannot_read_the_database_or_a_file_beside_it(void **state)
{
    (void)state;
    need_sandbox();
    hostile(PROGRAM_PEEK, db, "escaped: read ", "AC", NULL);
    hostile(PROGRAM_PEEK, answers, "escaped: read ", "AC", NULL);
}

static void test_sandbox__a_program_cannot_create_a_file_in_the_databases_folder(void **state)
{
    (void)state;
    need_sandbox();
    hostile(PROGRAM_LITTER, jury, "escaped: made ", "AC", NULL);
    /* what the run without the sandbox made */
    DIR *folder = opendir(jury);
    int made = 0;
    for (struct dirent *e; folder && (e = readdir(folder)) != NULL;)
        if (strncmp(e->d_name, "littered-", 9) == 0)
            made += unlink(tmp_path(jury, e->d_name)) == 0;
    if (folder)
        closedir(folder);
    assert_int_equal(made, 3); /* one an instance */
}

/* The test listens on a loopback port: a connection reaches it from a
 * plain run, none from the sandbox (its network is its own). */
static void test_sandbox__a_program_cannot_connect_to_a_loopback_port(void **state)
{
    (void)state;
    need_sandbox();
    int s = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof a;
    assert_true(s >= 0);
    assert_int_equal(bind(s, (struct sockaddr *)&a, sizeof a), 0);
    assert_int_equal(listen(s, 16), 0);
    assert_int_equal(getsockname(s, (struct sockaddr *)&a, &len), 0);
    char port[16];
    snprintf(port, sizeof port, "%d", ntohs(a.sin_port));
    run_result r;
    invoke(&r, 0, WORDS(NULL, program_path(PROGRAM_CALLER, ""), port));
    first_says(&r, "escaped: connected");
    run_result_free(&r);
    int got;
    int connections = 0;
    while ((got = accept(s, NULL, NULL)) >= 0)
        close(got), connections++;
    assert_true(connections > 0);

    invoke(&r, 1, WORDS(NULL, program_path(PROGRAM_CALLER, ""), port));
    assert_int_equal(r.status, 0);
    assert_int_equal(verdicts("AC"), 3);
    run_result_free(&r);
    assert_int_equal(accept(s, NULL, NULL), -1);
    assert_int_equal(errno, EAGAIN);
    close(s);
}

/* A source can have the compiler read a file into the program (here the
 * assembler's .incbin): built outside, it carries the database; built in
 * the sandbox, the file is not there, and the source does not build. */
static void test_sandbox__a_source_cannot_build_the_database_into_its_program(void **state)
{
    (void)state;
    need_sandbox();
    char source[8800];
    snprintf(source, sizeof source,
             "#include <stdio.h>\n"
             "__asm__(\".section .rodata\\n.global stolen\\nstolen:\\n.incbin \\\"%s\\\"\\n"
             ".global stolen_end\\nstolen_end:\\n.previous\\n\");\n"
             "extern const char stolen[], stolen_end[];\n"
             "int main(void) {\n"
             "    fprintf(stderr, \"escaped: %%ld bytes of it\\n\", (long)(stolen_end - stolen)); return 42;\n"
             "}\n",
             db);
    const char *path = tmp_path(dir, "sneak.c");
    assert_int_equal(write_file(path, source), 0);
    run_result r;
    invoke(&r, 0, WORDS(NULL, path));
    first_says(&r, "escaped: ");
    run_result_free(&r);
    int64_t before = latest();
    invoke(&r, 1, WORDS(NULL, path));
    assert_int_equal(r.status, 2);
    first_says(&r, "coinrow: cannot build ");
    run_result_free(&r);
    assert_int_equal(latest(), before);
}

/* Outside, the parent is coinrow, the database among its descriptors;
 * inside, it is the sandbox's init, which the program may not look into. */
static void test_sandbox__a_program_cannot_list_its_parents_descriptors(void **state)
{
    (void)state;
    need_sandbox();
    hostile(PROGRAM_SNOOP, db, ", the database among them", "AC", NULL);
}

/* Outside, SIGTERM reaches coinrow, which stops (130); inside, the parent
 * is the sandbox's init, whom signals from the sandbox do not reach. */
static void test_sandbox__a_program_cannot_signal_its_parent(void **state)
{
    (void)state;
    need_sandbox();
    run_result r;
    invoke(&r, 0, WORDS(NULL, program_path(PROGRAM_SIGNALLER, "")));
    assert_int_equal(r.status, 130);
    run_result_free(&r);
    invoke(&r, 1, WORDS(NULL, program_path(PROGRAM_SIGNALLER, "")));
    assert_int_equal(r.status, 0);
    assert_int_equal(verdicts("AC"), 3);
    run_result_free(&r);
}

/* Twice the sandbox's processes: all of them outside; inside, a fork fails
 * at its limit, the program dies of it (RE, saying so), and neither run
 * leaves one behind. */
static void test_sandbox__a_fork_bomb_stops_at_the_sandboxs_processes_and_leaves_none(void **state)
{
    (void)state;
    need_sandbox();
    char want[16];
    snprintf(want, sizeof want, "%d", 2 * CR_SANDBOX_PROCESSES);
    char says[128];
    snprintf(says, sizeof says, "RE: exit status 1; in the sandbox, it reached the limit of %d processes",
             CR_SANDBOX_PROCESSES);
    hostile(PROGRAM_BOMB, want, "escaped: ", "RE", says);
}

/* Twice the size of the sandbox's /tmp: all of it outside (to the real
 * /tmp, removed at once); inside, no room after its size, RE saying so,
 * and nothing of it left in the real /tmp. */
static void test_sandbox__filling_tmp_stops_at_its_size(void **state)
{
    (void)state;
    need_sandbox();
    char want[16];
    snprintf(want, sizeof want, "%d", 2 * CR_SANDBOX_FILES_MIB);
    char says[128];
    snprintf(says, sizeof says, "RE: exit status 1; in the sandbox, its /tmp was full (%d MiB)", CR_SANDBOX_FILES_MIB);
    hostile(PROGRAM_FILLER, want, "escaped: wrote ", "RE", says);
    DIR *tmp = opendir("/tmp");
    for (struct dirent *e; tmp && (e = readdir(tmp)) != NULL;)
        assert_true(strncmp(e->d_name, "filler-", 7) != 0);
    if (tmp)
        closedir(tmp);
}

/* Interrupted, an invocation resumes in its sandbox: the rest of the set
 * is judged there too (the peeking program still reads nothing). */
static void test_sandbox__resume_judges_the_rest_in_the_sandbox(void **state)
{
    (void)state;
    need_sandbox();
    const char *d = tmp_path(jury, "resume.db");
    run_result r;
    COINROW(&r, NULL, "generate", "--db", d, "--set", "long", "--count", "60", "--n", "2..8", "--values", "1..50",
            "--seed", "5", "--quiet");
    run_result_free(&r);
    COINROW(&r, NULL, "solve", "--db", d, "--variant", "diff", "--quiet");
    run_result_free(&r);
    char *argv[] = {(char *)run_bin(), "invoke", "--db", (char *)d, "--set", "long", "--variant", "diff", "--sandbox",
                    "--", (char *)program_path(PROGRAM_PEEK, ""), (char *)d, NULL};
    pid_t pid = run_start(argv, tmp_path(dir, "resume.log"));
    assert_true(pid > 0);
    assert_true(db_wait_for(d, "SELECT count(*) FROM verdict") > 0);
    kill(pid, SIGINT);
    assert_int_equal(run_wait(pid), 130);
    int64_t judged = db_int(d, "SELECT count(*) FROM verdict");
    assert_true(judged > 0 && judged < 60);
    assert_int_equal(db_int(d, "SELECT sandbox FROM invocation"), 1);

    COINROW(&r, NULL, "invoke", "--db", d, "--resume", "--sandbox");
    assert_int_equal(r.status, 2); /* the invocation's own, not the command line's */
    run_result_free(&r);
    COINROW(&r, NULL, "invoke", "--db", d, "--resume");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "; sandboxed)\n"));
    assert_non_null(strstr(r.out, "judged 60 of 60: AC 60\n"));
    run_result_free(&r);
    assert_false(alive(program_name(PROGRAM_PEEK)));
}

/* A database from before the sandbox (schema 5) is upgraded in place: its
 * invocations ran without, and resume without. */
static void test_sandbox__an_invocation_from_before_it_resumes_without_it(void **state)
{
    (void)state;
    need_sandbox();
    const char *d = tmp_path(jury, "old.db");
    char sql[8400];
    snprintf(sql, sizeof sql, "VACUUM INTO '%s'", d);
    assert_int_equal(db_exec(db, sql), 0);
    run_result r;
    char *argv[] = {(char *)run_bin(), "invoke", "--db", (char *)d, "--set", "mix", "--variant", "diff", "--",
                    (char *)program_path(PROGRAM_PEEK, ""), (char *)d, NULL};
    assert_int_equal(run_capture(&r, argv, NULL), 0);
    run_result_free(&r);
    /* as schema 5 had it: no column, a running invocation */
    assert_int_equal(db_exec(d, "ALTER TABLE invocation DROP COLUMN sandbox; PRAGMA user_version = 5;"
                                "UPDATE invocation SET status = 'running', finished_at = NULL "
                                "WHERE id = (SELECT max(id) FROM invocation);"
                                "DELETE FROM verdict WHERE invocation_id = (SELECT max(id) FROM invocation)"),
                     0);
    COINROW(&r, NULL, "invoke", "--db", d, "--resume");
    assert_int_equal(r.status, 1);
    assert_null(strstr(r.out, "sandboxed"));
    assert_non_null(strstr(r.out, "escaped: read ")); /* it ran as it did: outside */
    run_result_free(&r);
    assert_int_equal(db_int(d, "SELECT count(*) FROM invocation WHERE sandbox <> 0"), 0);
    assert_int_equal(db_int(d, "PRAGMA user_version"), cr_store_schema_version());
}

/* A bwrap in a folder of its own (which a root coinrow's bwrap, run as
 * nobody, can reach) that says `said` on stderr and exits 1; PATH becomes
 * that folder and the system's.  Returns the old PATH; *bin for
 * tmp_dir_free. */
static char *fake_bwrap(char **bin, const char *said)
{
    *bin = tmp_dir_new();
    assert_non_null(*bin);
    assert_int_equal(chmod(*bin, 0755), 0);
    char script[1024];
    snprintf(script, sizeof script, "#!/bin/sh\necho '%s' >&2\nexit 1\n", said);
    const char *path = tmp_path(*bin, "bwrap");
    assert_int_equal(write_file(path, script), 0);
    assert_int_equal(chmod(path, 0755), 0);
    char *saved = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin"), with[4400];
    snprintf(with, sizeof with, "%s:/usr/bin:/bin", *bin);
    setenv("PATH", with, 1);
    return saved;
}

/* Each refusal names what is missing and how to get it, and leaves the
 * database as it was (here: not even made). */
static void test_sandbox__without_bwrap_or_namespaces_it_says_which_and_changes_nothing(void **state)
{
    (void)state;
    const char *fresh = tmp_path(dir, "never.db");
    char *argv[] = {(char *)run_bin(), "invoke", "--db", (char *)fresh, "--set", "mix", "--variant", "diff",
                    "--sandbox", "--", (char *)program_path(PROGRAM_CORRECT, ""), NULL};
    static const struct {
        const char *bwrap_says; /* NULL: no bwrap at all */
        const char *coinrow_says;
    } cases[] = {
        {NULL, "coinrow: --sandbox needs bubblewrap, and there is no bwrap in PATH (install it: apt-get install "
               "bubblewrap, as root; or make deps in coinrow's source)\n"},
        {"bwrap: No permissions to create new namespace, likely because the kernel does not allow non-privileged "
         "user namespaces.",
         " cannot create namespaces: allow unprivileged user namespaces (sysctl -w "
         "kernel.unprivileged_userns_clone=1; Ubuntu: kernel.apparmor_restrict_unprivileged_userns=0) (bwrap: No "
         "permissions to create new namespace, "},
        {"bwrap: Creating new namespace failed: nesting depth or /proc/sys/user/max_*_namespaces exceeded (ENOSPC)",
         " cannot create namespaces: allow unprivileged user namespaces (sysctl -w "},
        {"bwrap: Unknown option --disable-userns",
         "coinrow: --sandbox: this bubblewrap is too old: 0.8.0 or later is needed (apt-get install bubblewrap, or "
         "make deps) ("},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char *saved = NULL, *bin = NULL;
        if (cases[k].bwrap_says) {
            saved = fake_bwrap(&bin, cases[k].bwrap_says);
        } else {
            saved = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
            setenv("PATH", tmp_path(dir, "no-such-folder"), 1);
        }
        run_result r;
        int started = run_capture(&r, argv, NULL);
        setenv("PATH", saved, 1);
        free(saved);
        if (bin)
            tmp_dir_free(bin);
        assert_int_equal(started, 0);
        if (r.status != 2 || !strstr(r.err, cases[k].coinrow_says))
            fail_msg("exit %d, wanted '%s' in: %s", r.status, cases[k].coinrow_says, r.err);
        run_result_free(&r);
        struct stat st;
        assert_int_equal(stat(fresh, &st), -1);
    }
}

/* The real refusal, where bwrap itself cannot make a user namespace: coinrow
 * run (as an unprivileged user) inside a bubblewrap that allows none. */
static void test_sandbox__a_bwrap_that_cannot_make_namespaces_is_refused_before_anything_is_judged(void **state)
{
    (void)state;
    need_sandbox();
    const char *copy = tmp_path(jury, "nested.db");
    char sql[8400];
    snprintf(sql, sizeof sql, "VACUUM INTO '%s'", copy);
    assert_int_equal(db_exec(db, sql), 0);
    int64_t before = db_int(copy, "SELECT count(*) FROM invocation");
    char bin[4200], here[4096];
    assert_non_null(getcwd(here, sizeof here));
    snprintf(bin, sizeof bin, "%s%s%s", run_bin()[0] == '/' ? "" : here, run_bin()[0] == '/' ? "" : "/", run_bin());
    char *argv[] = {"bwrap", "--unshare-user", "--uid", "1000", "--disable-userns", "--bind", "/", "/", "--dev", "/dev",
                    "--proc", "/proc", "--", bin, "invoke", "--db", (char *)copy, "--set", "mix", "--variant", "diff",
                    "--sandbox", "--", (char *)program_path(PROGRAM_CORRECT, ""), NULL};
    run_result r;
    assert_int_equal(run_capture(&r, argv, NULL), 0);
    if (r.status != 2 || !strstr(r.err, "coinrow: --sandbox: bwrap cannot create namespaces: "))
        fail_msg("exit %d: %s", r.status, r.err);
    run_result_free(&r);
    assert_int_equal(db_int(copy, "SELECT count(*) FROM invocation"), before);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sandbox__honest_programs_keep_their_verdicts),
        cmocka_unit_test(test_sandbox__a_python_source_runs_under_the_system_python),
        cmocka_unit_test(test_sandbox__a_program_cannot_read_the_database_or_a_file_beside_it),
        cmocka_unit_test(test_sandbox__a_program_cannot_create_a_file_in_the_databases_folder),
        cmocka_unit_test(test_sandbox__a_program_cannot_connect_to_a_loopback_port),
        cmocka_unit_test(test_sandbox__a_source_cannot_build_the_database_into_its_program),
        cmocka_unit_test(test_sandbox__a_program_cannot_list_its_parents_descriptors),
        cmocka_unit_test(test_sandbox__a_program_cannot_signal_its_parent),
        cmocka_unit_test(test_sandbox__a_fork_bomb_stops_at_the_sandboxs_processes_and_leaves_none),
        cmocka_unit_test(test_sandbox__filling_tmp_stops_at_its_size),
        cmocka_unit_test(test_sandbox__resume_judges_the_rest_in_the_sandbox),
        cmocka_unit_test(test_sandbox__an_invocation_from_before_it_resumes_without_it),
        cmocka_unit_test(test_sandbox__without_bwrap_or_namespaces_it_says_which_and_changes_nothing),
        cmocka_unit_test(test_sandbox__a_bwrap_that_cannot_make_namespaces_is_refused_before_anything_is_judged),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

/* coinrow invoke, strength, compare --invocations and export --submissions
 * end to end, with the test programs (support/programs.h) built here: every
 * program gets its verdict on every instance, stored with what tells it;
 * a killed invocation resumes and judges each instance once.
 *
 * Then invoke --sandbox (issue 25): honest programs keep their verdicts
 * inside it; hostile ones fail at each thing they try (a source, to build
 * the database into itself), leave nothing behind and change nothing in
 * the database's folder, while the same programs run without --sandbox get
 * there, which shows that each of those tests can fail; --resume keeps the
 * sandbox; a missing bwrap, an old one or one that cannot make namespaces
 * is refused saying which.  The sandbox's tests skip, saying so, where
 * bubblewrap is not installed or cannot create namespaces (make deps
 * installs it). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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

static char *dir;
static char db[4300];
/* the database's folder, with the jury's answers beside it */
static char jury[4200], answers[4300];
static char why_not[1024]; /* why the sandbox cannot be tested here; "" when it can */

/* The sets every test judges, made in the group setup. */
static const struct {
    const char *name, *count, *n, *values, *profile;
} sets[] = {
    {"mix", "3", "2..7", "-5..20", "random"},
    {"ag", "3", "4..8", "1..100", "antigreedy"}, /* greedy loses every one */
    {"eq", "3", "2..6", "1..9", "equal"},        /* every line is optimal, the value 0 */
    {"big", "2", "40000", "10..10", "equal"},    /* more input than a pipe holds */
};

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
    for (size_t k = 0; k < sizeof sets / sizeof sets[0]; k++) {
        run_result r;
        if (run_coinrow(&r, NULL, "generate", "--db", db, "--set", sets[k].name, "--count", sets[k].count, "--n",
                        sets[k].n, "--values", sets[k].values, "--seed", "3", "--profile", sets[k].profile,
                        "--even-n", "--quiet", (char *)NULL) != 0 ||
            r.status != 0)
            return -1;
        run_result_free(&r);
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    tmp_dir_free(dir);
    return 0;
}

/* The program's path, or its source's with ext ".c". */
static const char *program_path(program p, const char *ext)
{
    static char path[4][4096];
    static int next;
    char *out = path[next++ % 4];
    snprintf(out, sizeof path[0], "%s/%s%s", dir, program_name(p), ext);
    return out;
}

/* coinrow invoke --db DB --set SET --variant diff OPTIONS... -- COMMAND,
 * where options and command are NULL-terminated lists in one: the words
 * up to the first NULL are options, those up to the second the command;
 * run from the folder of the test programs and sources (which export
 * --submissions copies only from there). */
static void invoke(run_result *r, const char *set, const char *const *words)
{
    char *argv[48] = {(char *)run_bin(), "invoke", "--db", db, "--set", (char *)set, "--variant", "diff"};
    int argc = 8;
    for (; *words; words++)
        argv[argc++] = (char *)*words;
    argv[argc++] = "--";
    for (words++; *words; words++)
        argv[argc++] = (char *)*words;
    argv[argc] = NULL;
    assert_int_equal(run_capture_in(r, dir, argv, NULL), 0);
}

#define WORDS(...) ((const char *const[]){__VA_ARGS__, NULL})

static int64_t latest(void) { return db_int(db, "SELECT max(id) FROM invocation"); }

/* How many verdicts of the latest invocation are `verdict`. */
static int64_t verdicts(const char *verdict)
{
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM verdict WHERE invocation_id = %lld AND verdict = '%s'",
             (long long)latest(), verdict);
    return db_int(db, sql);
}

static int64_t set_size(const char *set)
{
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM instance JOIN instance_set AS s ON s.id = set_id WHERE s.name = '%s'",
             set);
    return db_int(db, sql);
}

/* The time limits here hold on a machine ten times slower or faster than
 * ours: a program that must end in time answers in a millisecond or two,
 * against the default limit of 1 s of CPU (2 s of wall clock), a hundred
 * times more even ten times slower; one that must be killed (TLE) spins or
 * sleeps without end, so any limit kills it, however fast the machine. */
static void test_invoke__every_program_gets_its_verdict_on_every_instance(void **state)
{
    (void)state;
    static const struct {
        program p;
        const char *set;
        const char *options[4];
        const char *verdict;
    } cases[] = {
        {PROGRAM_CORRECT, "mix", {NULL}, "AC"},
        {PROGRAM_CORRECT, "mix", {"--jobs", "2", NULL}, "AC"},
        {PROGRAM_SEGV, "mix", {"--jobs", "3", NULL}, "RE"},
        {PROGRAM_OTHER_LINE, "eq", {NULL}, "AC"}, /* RR...R, not the canonical LL...L */
        {PROGRAM_OTHER_LINE, "mix", {NULL}, "AC"},
        {PROGRAM_GREEDY, "ag", {NULL}, "WA"},
        {PROGRAM_OFF_BY_ONE, "mix", {NULL}, "WA"},
        {PROGRAM_SLEEPER, "mix", {"--time-limit", "0.2", NULL}, "TLE"},
        {PROGRAM_SPINNER, "mix", {"--time-limit", "0.2", NULL}, "TLE"},
        {PROGRAM_HOG, "mix", {"--memory-limit", "32", NULL}, "MLE"},
        {PROGRAM_FLOOD, "mix", {"--output-limit", "1", NULL}, "OLE"},
        {PROGRAM_SEGV, "mix", {NULL}, "RE"},
        {PROGRAM_ABORT, "mix", {NULL}, "RE"},
        {PROGRAM_CLOSER, "big", {"--moves", "ignored", NULL}, "AC"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const char *words[8];
        int w = 0;
        for (const char *const *o = cases[k].options; *o; o++)
            words[w++] = *o;
        words[w++] = NULL;
        words[w++] = program_path(cases[k].p, "");
        words[w] = NULL;
        run_result r;
        invoke(&r, cases[k].set, words);
        int ac = strcmp(cases[k].verdict, "AC") == 0;
        if (r.status != (ac ? 0 : 1) || verdicts(cases[k].verdict) != set_size(cases[k].set))
            fail_msg("%s on %s: exit %d, %lld of %lld %s\n%s%s", program_name(cases[k].p), cases[k].set, r.status,
                     (long long)verdicts(cases[k].verdict), (long long)set_size(cases[k].set), cases[k].verdict,
                     r.out, r.err);
        run_result_free(&r);
    }
}

static void test_invoke__a_crash_keeps_its_signal_its_stderr_and_what_the_checker_said(void **state)
{
    (void)state;
    run_result r;
    invoke(&r, "mix", WORDS(NULL, program_path(PROGRAM_SEGV, "")));
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "judged 3 of 3: RE 3\n"));
    assert_non_null(strstr(r.out, "first test not AC: 01: RE: ended by SIGSEGV; its output: presentation error: "));
    assert_non_null(strstr(r.out, "  its stderr: about to crash\\x0a\n"));
    run_result_free(&r);
    char sql[256];
    snprintf(sql, sizeof sql,
             "SELECT count(*) FROM verdict_view WHERE invocation_id = %lld AND signal = 'SIGSEGV' AND exit_code IS "
             "NULL AND stderr = 'about to crash\\x0a' AND peak_rss_kib > 0 AND set_name = 'mix'",
             (long long)latest());
    assert_int_equal(db_int(db, sql), 3);

    invoke(&r, "mix", WORDS(NULL, program_path(PROGRAM_ABORT, "")));
    snprintf(sql, sizeof sql,
             "SELECT count(*) FROM verdict WHERE invocation_id = %lld AND signal = 'SIGABRT' AND stderr LIKE "
             "'%%Assertion%%'",
             (long long)latest());
    assert_int_equal(db_int(db, sql), 3);
    run_result_free(&r);
}

static void test_invoke__expect_sets_the_exit_status_and_the_summary_names_the_first_failure(void **state)
{
    (void)state;
    run_result r;
    invoke(&r, "mix", WORDS("--expect", "WA", NULL, program_path(PROGRAM_OFF_BY_ONE, "")));
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "judged 3 of 3: WA 3\n"));
    assert_null(strstr(r.out, "first test not"));
    run_result_free(&r);
    invoke(&r, "mix", WORDS("--expect", "WA", "--label", "v1", NULL, program_path(PROGRAM_CORRECT, "")));
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "first test not WA: 01: AC: accepted\n"));
    assert_non_null(strstr(r.out, "; label v1)\n"));
    assert_non_null(strstr(r.out, "peak memory: "));
    assert_non_null(strstr(r.out, "slowest (CPU): "));
    run_result_free(&r);
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT status = 'done' AND label = 'v1' AND answers_run > 0 FROM invocation WHERE id = %lld",
             (long long)latest());
    assert_int_equal(db_int(db, sql), 1);

    /* some verdicts expected, not all: greedy is right on some rows of mix, wrong on others */
    invoke(&r, "mix", WORDS("--expect", "WA", NULL, program_path(PROGRAM_GREEDY, "")));
    assert_true(verdicts("WA") > 0 && verdicts("AC") > 0);
    assert_int_equal(r.status, 1);
    run_result_free(&r);
}

static void test_invoke__a_source_file_is_built_and_one_that_does_not_build_changes_nothing(void **state)
{
    (void)state;
    run_result r;
    invoke(&r, "mix", WORDS(NULL, program_path(PROGRAM_CORRECT, ".c")));
    assert_int_equal(r.status, 0);
    assert_int_equal(verdicts("AC"), 3);
    run_result_free(&r);

    int64_t before = latest();
    const char *bad = tmp_path(dir, "bad.c");
    assert_int_equal(write_file(bad, "int main(void) { return }\n"), 0);
    invoke(&r, "mix", WORDS(NULL, bad));
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "coinrow: cannot build "));
    assert_non_null(strstr(r.err, "error"));
    run_result_free(&r);
    assert_int_equal(latest(), before);
}

static void test_invoke__usage_and_trouble_exit_2_and_leave_the_database_alone(void **state)
{
    (void)state;
    run_result r;
    COINROW(&r, NULL, "invoke", "--db", db, "--set", "mix", "--variant", "diff");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "give the program after '--'"));
    run_result_free(&r);
    COINROW(&r, NULL, "invoke", "--db", db, "--set", "mix", "--variant", "diff", "--builtin", "greedy",
            "--time-limit", "1");
    assert_int_equal(r.status, 2);
    run_result_free(&r);
    COINROW(&r, NULL, "invoke", "--db", db, "--set", "mix", "--variant", "diff", "--expect", "XX", "--", "true");
    assert_int_equal(r.status, 2);
    run_result_free(&r);
    COINROW(&r, NULL, "invoke", "--db", db, "--set", "mix", "--variant", "diff", "--time-limit", "0", "--", "true");
    assert_int_equal(r.status, 2);
    run_result_free(&r);

    const char *fresh = tmp_path(dir, "untouched.db");
    COINROW(&r, NULL, "invoke", "--db", fresh, "--set", "mix", "--variant", "diff", "--", "./no-such-program");
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "coinrow: cannot run './no-such-program': no such file\n");
    run_result_free(&r);
    struct stat st;
    assert_int_equal(stat(fresh, &st), -1);

    COINROW(&r, NULL, "invoke", "--db", db, "--set", "nope", "--variant", "diff", "--", "true");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "has no instance set 'nope'"));
    run_result_free(&r);
}

static void test_invoke__builtins_and_strength_break_greedy_on_antigreedy_not_on_equal_coins(void **state)
{
    (void)state;
    run_result r;
    COINROW(&r, NULL, "invoke", "--db", db, "--set", "ag", "--variant", "diff", "--builtin", "greedy");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, ": --builtin greedy (diff, moves required)\njudged 3 of 3: WA 3\n"));
    run_result_free(&r);
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT builtin = 'greedy' AND command IS NULL AND peak_rss_kib IS NULL FROM invocation "
                              "WHERE id = %lld", (long long)latest());
    assert_int_equal(db_int(db, sql), 1);
    COINROW(&r, NULL, "invoke", "--db", db, "--set", "eq", "--variant", "diff", "--builtin", "left", "--jobs", "2");
    assert_int_equal(r.status, 0);
    run_result_free(&r);

    COINROW(&r, NULL, "strength", "--db", db, "--set", "ag", "--variant", "diff");
    assert_non_null(strstr(r.out, "greedy       3 of 3           01 (WA: wrong answer: "));
    assert_int_equal(r.status, strstr(r.out, "survives every test") ? 1 : 0);
    run_result_free(&r);
    COINROW(&r, NULL, "strength", "--db", db, "--set", "eq", "--variant", "diff");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "greedy       0 of 3           none: it survives every test\n"));
    assert_non_null(strstr(r.out, "weak tests (they break no strategy): 3 of 3: 01, 02, 03\n"));
    assert_non_null(strstr(r.out, "WEAK: some strategy survives every test\n"));
    run_result_free(&r);
}

/* An invocation row altered by hand that no longer reads back (an empty
 * command, an unknown variant) is trouble naming the database and the row. */
static void test_invoke__an_invocation_that_does_not_read_back_is_named(void **state)
{
    (void)state;
    run_result r;
    invoke(&r, "mix", WORDS(NULL, program_path(PROGRAM_CORRECT, "")));
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    char id[24], copy[4200], sql[8400], want[4400];
    snprintf(id, sizeof id, "%lld", (long long)latest());
    static const char *const alter[] = {"command = '[]'", "variant = 'nope'"};
    static const char *const what[] = {" has an empty command", ": "};
    snprintf(copy, sizeof copy, "%s", tmp_path(dir, "altered.db"));
    for (size_t k = 0; k < 2; k++) {
        remove(copy);
        snprintf(sql, sizeof sql, "VACUUM INTO '%s'", copy);
        assert_int_equal(db_exec(db, sql), 0);
        snprintf(sql, sizeof sql, "UPDATE invocation SET %s WHERE id = %s", alter[k], id);
        assert_int_equal(db_exec(copy, sql), 0);
        COINROW(&r, NULL, "compare", "--db", copy, "--invocations", id, id);
        snprintf(want, sizeof want, "altered.db: invocation %s%s", id, what[k]);
        if (r.status != 2 || !strstr(r.err, want))
            fail_msg("%s: exit %d, %s(wanted '%s')", sql, r.status, r.err, want);
        run_result_free(&r);
    }
}

static void test_invoke__compare_lists_regressions_and_slowdowns_and_records_them(void **state)
{
    (void)state;
    run_result r;
    invoke(&r, "mix", WORDS(NULL, program_path(PROGRAM_CORRECT, "")));
    run_result_free(&r);
    int64_t a = latest();
    invoke(&r, "mix", WORDS(NULL, program_path(PROGRAM_BUSY, "")));
    run_result_free(&r);
    int64_t same = latest();
    invoke(&r, "mix", WORDS(NULL, program_path(PROGRAM_OFF_BY_ONE, "")));
    run_result_free(&r);
    int64_t b = latest();
    char ia[24], ib[24], is[24];
    snprintf(ia, sizeof ia, "%lld", (long long)a);
    snprintf(ib, sizeof ib, "%lld", (long long)b);
    snprintf(is, sizeof is, "%lld", (long long)same);

    COINROW(&r, NULL, "compare", "--db", db, "--invocations", ia, ib, "--record");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "  01 (n "));
    assert_non_null(strstr(r.out, "): AC -> WA, regression: wrong answer: "));
    assert_non_null(strstr(r.out, "same 0, regression 3, improved 0, changed 0, missing 0\n"));
    run_result_free(&r);
    /* the other way round it is all improvement */
    COINROW(&r, NULL, "compare", "--db", db, "--invocations", ib, ia);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "same 0, regression 0, improved 3, changed 0, missing 0\n"));
    run_result_free(&r);
    /* the busy twin: the same verdicts, every test several times slower */
    COINROW(&r, NULL, "compare", "--db", db, "--invocations", ia, is, "--record");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "same 3, regression 0"));
    const char *listed = strstr(r.out, "slowest first:\n");
    assert_non_null(listed);
    int rows = 0;
    double ratio, last = 1e300;
    for (const char *line = strstr(listed, "\n  ") ; line && strncmp(line, "\n  all", 6) != 0;
         line = strstr(line + 1, "\n  ")) {
        const char *x = strstr(line, "x\n");
        while (x > line && x[-1] != ' ')
            x--;
        assert_int_equal(sscanf(x, "%lf", &ratio), 1);
        /* 30 ms of CPU against about 1: a wide margin, since a loaded
         * machine, or a sanitized parent's fork, adds CPU to both */
        assert_true(ratio >= 2 && ratio <= last);
        last = ratio;
        rows++;
    }
    assert_int_equal(rows, 3);
    assert_non_null(strstr(r.out, "  all 3 tests judged by both: "));
    run_result_free(&r);

    assert_int_equal(db_int(db, "SELECT count(*) FROM comparison WHERE kind = 'invocations'"), 2);
    assert_int_equal(db_int(db, "SELECT regression = 3 AND passed = 0 AND improved = 0 FROM comparison ORDER BY id LIMIT 1"),
                     1);

    COINROW(&r, NULL, "compare", "--db", db, "--invocations", ia, "99999");
    assert_int_equal(r.status, 2);
    run_result_free(&r);
    COINROW(&r, NULL, "compare", "--db", db, "--invocations", ia, ib, "--json");
    assert_int_equal(r.status, 2);
    run_result_free(&r);
}

/* problem.xml has a solution of tag at solutions/path, in language type. */
static void assert_solution(const char *xml, const char *tag, const char *path, const char *type)
{
    char expect[4800];
    snprintf(expect, sizeof expect, "<solution tag=\"%s\">\n                <source path=\"solutions/%s\" "
             "type=\"%s\"/>", tag, path, type);
    if (!strstr(xml, expect))
        fail_msg("no %s in problem.xml", expect);
}

/* The name the source of invocation id has in a package: "invID-NAME". */
static const char *in_package(const char *folder, int64_t id, const char *name)
{
    static char path[2][4096];
    static int next;
    char *out = path[next++ % 2];
    snprintf(out, sizeof path[0], "%s%sinv%lld-%s", folder, *folder ? "/" : "", (long long)id, name);
    return out;
}

static void test_invoke__export_puts_labelled_sources_beside_coinrows_own(void **state)
{
    (void)state;
    run_result r;
    /* a source named as coinrow's own reference solution: it must not clash */
    const char *mine = tmp_path(dir, "mine");
    assert_int_equal(mkdir(mine, 0777), 0);
    char *text = read_text(program_path(PROGRAM_CORRECT, ".c"));
    assert_non_null(text);
    assert_int_equal(write_file(tmp_path(mine, "reference.c"), text), 0);
    invoke(&r, "mix", WORDS("--label", "accepted", NULL, tmp_path(mine, "reference.c")));
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    int64_t accepted = latest();
    invoke(&r, "mix", WORDS("--label", "wrong_answer", NULL, program_path(PROGRAM_OFF_BY_ONE, ".c")));
    run_result_free(&r);
    int64_t wrong = latest();
    invoke(&r, "mix", WORDS("--label", "wrong_answer", NULL, program_path(PROGRAM_GREEDY, "")));
    run_result_free(&r);
    int64_t not_a_source = latest();
    /* labels the verdicts do not bear out, and another checker's policy: left out */
    invoke(&r, "mix", WORDS("--label", "time_limit_exceeded", NULL, program_path(PROGRAM_CORRECT, ".c")));
    run_result_free(&r);
    invoke(&r, "mix", WORDS("--label", "accepted", "--moves", "ignored", NULL, program_path(PROGRAM_CORRECT, ".c")));
    run_result_free(&r);

    const char *kattis = tmp_path(dir, "mixk");
    COINROW(&r, NULL, "export", "--db", db, "--set", "mix", "--variant", "diff", "--moves", "canonical", "--format",
            "kattis", "--out", kattis, "--submissions");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "and 2 submissions to "));
    char why[256];
    snprintf(why, sizeof why,
             "3 labelled invocations left out of the package; the first: invocation %lld (label wrong_answer): not "
             "one source file a judge builds: ",
             (long long)not_a_source);
    assert_non_null(strstr(r.err, why));
    run_result_free(&r);
    char *copy = read_text(tmp_path(kattis, in_package("submissions/accepted", accepted, "reference.c")));
    assert_non_null(copy);
    assert_string_equal(copy, text);
    free(copy);
    struct stat st;
    assert_int_equal(stat(tmp_path(kattis, "submissions/accepted/reference.c"), &st), 0); /* coinrow's own */
    assert_int_equal(stat(tmp_path(kattis, in_package("submissions/wrong_answer", wrong, "off_by_one.c")), &st), 0);
    assert_int_equal(stat(tmp_path(kattis, "submissions/time_limit_exceeded"), &st), -1);

    const char *polygon = tmp_path(dir, "mixp");
    COINROW(&r, NULL, "export", "--db", db, "--set", "mix", "--variant", "diff", "--moves", "canonical", "--format",
            "polygon", "--out", polygon, "--submissions");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    char *xml = read_text(tmp_path(polygon, "problem.xml"));
    assert_non_null(xml);
    assert_solution(xml, "main", "reference.c", "c.gcc");
    assert_solution(xml, "accepted", in_package("", accepted, "reference.c"), "c.gcc");
    assert_solution(xml, "wrong-answer", in_package("", wrong, "off_by_one.c"), "c.gcc");
    free(xml);
    copy = read_text(tmp_path(polygon, in_package("solutions", accepted, "reference.c")));
    assert_non_null(copy);
    assert_string_equal(copy, text);
    free(copy);
    free(text);

    COINROW(&r, NULL, "export", "--db", db, "--set", "mix", "--variant", "diff", "--format", "cms", "--out",
            tmp_path(dir, "mixc"), "--submissions");
    assert_int_equal(r.status, 2);
    run_result_free(&r);
}

/* The diff and the canonical line (L whenever it is optimal), in Python. */
static const char python_solution[] =
    "import sys\n"
    "w = sys.stdin.read().split()\n"
    "n = int(w[0]); a = [int(x) for x in w[1:1 + n]]\n"
    "d = [[0] * (n + 1) for _ in range(n + 1)]\n"
    "for size in range(1, n + 1):\n"
    "    for i in range(n - size + 1):\n"
    "        j = i + size\n"
    "        d[i][j] = max(a[i] - d[i + 1][j], a[j - 1] - d[i][j - 1])\n"
    "i, j, line = 0, n, ''\n"
    "while i < j:\n"
    "    if a[i] - d[i + 1][j] >= a[j - 1] - d[i][j - 1]:\n"
    "        line += 'L'; i += 1\n"
    "    else:\n"
    "        line += 'R'; j -= 1\n"
    "print(d[0][n]); print(line)\n";

/* A Python source is run with python3 and goes into a package as Python; a
 * program that crashes or runs out of time goes into run_time_error or
 * time_limit_exceeded; the same source twice goes in once; and a source
 * gone since it was judged stops the export, naming it. */
static void test_invoke__python_sources_and_every_folder_go_into_the_package(void **state)
{
    (void)state;
    run_result r;
    /* a name with bytes a package does not take, too long for it */
    const char *py = tmp_path(dir, "a solution, whose name is longer than the ninety-six bytes a name in a "
                                   "package may take, is cut before its extension.py");
    char source[4200];
    snprintf(source, sizeof source, "%s", py);
    assert_int_equal(write_file(source, python_solution), 0);
    for (int k = 0; k < 2; k++) {
        /* python3's start takes a loaded machine past the second of the
         * default limit now and then */
        invoke(&r, "eq", WORDS("--label", "accepted", "--time-limit", "10", NULL, source));
        if (r.status != 0)
            fail_msg("python: %d %s%s", r.status, r.out, r.err);
        run_result_free(&r);
    }
    int64_t python = latest();
    char expect[4800];
    invoke(&r, "eq", WORDS(NULL, tmp_path(dir, "missing.py")));
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "cannot read the source "));
    assert_non_null(strstr(r.err, "missing.py"));
    run_result_free(&r);
    invoke(&r, "eq", WORDS("--label", "run_time_error", "--expect", "RE", NULL, program_path(PROGRAM_SEGV, ".c")));
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    int64_t crash = latest();
    invoke(&r, "eq", WORDS("--label", "time_limit_exceeded", "--expect", "TLE", "--time-limit", "0.1", NULL,
                           program_path(PROGRAM_SPINNER, ".c")));
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    int64_t slow = latest();
    COINROW(&r, NULL, "invoke", "--db", db, "--set", "eq", "--variant", "diff", "--builtin", "left", "--label",
            "accepted", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    int64_t builtin = latest();

    const char *polygon = tmp_path(dir, "eqp");
    COINROW(&r, NULL, "export", "--db", db, "--set", "eq", "--variant", "diff", "--moves", "canonical", "--format",
            "polygon", "--out", polygon, "--submissions");
    if (r.status != 0)
        fail_msg("export: %d %s", r.status, r.err);
    assert_non_null(strstr(r.out, "and 3 submissions to "));
    snprintf(expect, sizeof expect, "1 labelled invocation left out of the package; the first: invocation %lld "
             "(label accepted): not one source file a judge builds: --builtin left\n", (long long)builtin);
    assert_non_null(strstr(r.err, expect));
    run_result_free(&r);
    /* "invID-", the name's first bytes with '_' for the others, ".py": 95 bytes */
    static const char long_stem[] =
        "a_solution__whose_name_is_longer_than_the_ninety-six_bytes_a_name_in_a_package_may_take__is_cut";
    char cut[sizeof long_stem + 3]; /* room for all of it, so that the cut is the precision's alone */
    snprintf(cut, sizeof cut, "%.*s.py", 88 - snprintf(NULL, 0, "%lld", (long long)(python - 1)), long_stem);
    char *xml = read_text(tmp_path(polygon, "problem.xml"));
    assert_non_null(xml);
    assert_solution(xml, "accepted", in_package("", python - 1, cut), "python.3");
    assert_solution(xml, "rejected", in_package("", crash, "segv.c"), "c.gcc");
    assert_solution(xml, "time-limit-exceeded", in_package("", slow, "spinner.c"), "c.gcc");
    free(xml);

    remove(source);
    const char *gone = tmp_path(dir, "eqk");
    COINROW(&r, NULL, "export", "--db", db, "--set", "eq", "--variant", "diff", "--moves", "canonical", "--format",
            "kattis", "--out", gone, "--submissions");
    assert_int_equal(r.status, 1);
    snprintf(expect, sizeof expect, "coinrow: invocation %lld (label accepted): cannot read its source %s\n",
             (long long)(python - 1), source);
    assert_string_equal(r.err, expect);
    run_result_free(&r);
    assert_int_equal(access(gone, F_OK), -1);
}

/* More instances than invoke commits at once (1,024 verdicts, or those of
 * half a second when fewer) and than a job has in hand besides: its first
 * commit comes before the end, however fast the machine. */
#define STOPPED_SET_COUNT "1500"
enum { STOPPED_SET = 1500 };

/* Starts `coinrow invoke ARGS...` (argv, NULL-terminated, without
 * --progress) held right after its first commit of verdicts to invocation
 * `id` of database d (run_start_held, past what it says first, measured on
 * a copy of d at a path as long), sends sig while it is held, lets it go
 * on and returns its exit status; what it wrote to standard error in
 * *out_err (NULL: not kept).  The set must have its answers already: an
 * invoke that solves it first may say, before its first commit, that a
 * reader (this test's own polling) kept the WAL from being emptied, which
 * the copy's run did not say, and it was held before it judged anything. */
static int stop_at_first_commit(char **out_err, const char *d, int64_t id, char *const argv[], int sig)
{
    char *probe_dir = tmp_dir_new(), copy[4200], sql[8400];
    assert_non_null(probe_dir);
    snprintf(copy, sizeof copy, "%s%s", probe_dir, d + strlen(dir));
    snprintf(sql, sizeof sql, "VACUUM INTO '%s'", copy);
    assert_int_equal(db_exec(d, sql), 0);
    char *args[32] = {argv[0], argv[1], "--progress"}, *probe[32] = {argv[0], argv[1], "--progress"};
    for (int k = 2; argv[k] && k < 30; k++)
        args[k + 1] = argv[k], probe[k + 1] = strcmp(argv[k], d) == 0 ? copy : argv[k];
    long preamble = run_preamble(probe);
    tmp_dir_free(probe_dir);
    assert_true(preamble >= 0);

    int held;
    pid_t pid = run_start_held(args, (size_t)preamble, &held);
    assert_true(pid > 0);
    snprintf(sql, sizeof sql, "SELECT count(*) FROM verdict WHERE invocation_id = %lld", (long long)id);
    assert_true(db_wait_for(d, sql, pid) > 0);
    run_signal(pid, sig);
    char *err = run_release(held);
    if (out_err)
        *out_err = err;
    else
        free(err);
    return run_wait(pid);
}

/* stop_at_first_commit of invocation `id` of the correct program on set
 * `set` of database d. */
static int stop_after_first_verdicts(char **out_err, const char *d, const char *set, int64_t id, int sig)
{
    char *argv[] = {(char *)run_bin(), "invoke", "--db", (char *)d, "--set", (char *)set, "--variant", "diff", "--",
                    (char *)program_path(PROGRAM_CORRECT, ""), NULL};
    return stop_at_first_commit(out_err, d, id, argv, sig);
}

static void test_invoke__killed_or_interrupted_it_resumes_and_judges_each_instance_once(void **state)
{
    (void)state;
    const char *d = tmp_path(dir, "resume.db");
    run_result r;
    COINROW(&r, NULL, "generate", "--db", d, "--set", "long", "--count", STOPPED_SET_COUNT, "--n", "2..8", "--values", "1..50",
            "--seed", "5", "--quiet");
    run_result_free(&r);
    COINROW(&r, NULL, "solve", "--db", d, "--variant", "diff", "--quiet");
    run_result_free(&r);

    assert_int_equal(stop_after_first_verdicts(NULL, d, "long", 1, SIGKILL), 128 + SIGKILL);
    assert_int_equal(db_int(d, "SELECT status = 'running' FROM invocation WHERE id = 1"), 1);
    int64_t judged = db_int(d, "SELECT count(*) FROM verdict");
    assert_true(judged > 0 && judged < STOPPED_SET);
    COINROW(&r, NULL, "invoke", "--db", d, "--resume", "--", program_path(PROGRAM_CORRECT, ""));
    assert_int_equal(r.status, 0);
    char line[64];
    snprintf(line, sizeof line, "judged %d of %d: AC %d\n", STOPPED_SET, STOPPED_SET, STOPPED_SET);
    assert_non_null(strstr(r.out, line));
    run_result_free(&r);
    assert_int_equal(db_int(d, "SELECT count(DISTINCT instance_id) = " STOPPED_SET_COUNT " AND count(*) = " STOPPED_SET_COUNT
                               " FROM verdict"), 1);
    assert_int_equal(db_int(d, "SELECT status = 'done' FROM invocation WHERE id = 1"), 1);

    char *log = NULL;
    assert_int_equal(stop_after_first_verdicts(&log, d, "long", 2, SIGINT), 130);
    assert_int_equal(db_int(d, "SELECT status = 'interrupted' AND finished_at IS NOT NULL FROM invocation WHERE id = 2"),
                     1);
    assert_true(db_int(d, "SELECT count(*) FROM verdict WHERE invocation_id = 2") < STOPPED_SET);
    char hint[8400];
    snprintf(hint, sizeof hint, "coinrow invoke --resume 2 --db %s -- %s\n", d, program_path(PROGRAM_CORRECT, ""));
    assert_non_null(strstr(log, hint));
    free(log);
    COINROW(&r, NULL, "invoke", "--db", d, "--resume", "2", "--", program_path(PROGRAM_CORRECT, ""));
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    assert_int_equal(db_int(d, "SELECT count(DISTINCT instance_id) = " STOPPED_SET_COUNT " AND count(*) = " STOPPED_SET_COUNT
                               " FROM verdict "
                               "WHERE invocation_id = 2"),
                     1);
    COINROW(&r, NULL, "invoke", "--db", d, "--resume");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "has no unfinished invocation"));
    run_result_free(&r);
}

/* Generates set `set` of `count` instances (2 to 8 coins of 1..9) into the
 * database d. */
static void generate_into(const char *d, const char *set, const char *count, const char *seed)
{
    run_result r;
    COINROW(&r, NULL, "generate", "--db", d, "--set", set, "--count", count, "--n", "2..8", "--values", "1..9",
            "--seed", seed, "--even-n", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
}

/* The same, with the set's diff answers, for stop_at_first_commit. */
static void generate_answered_into(const char *d, const char *set, const char *count, const char *seed)
{
    generate_into(d, set, count, seed);
    run_result r;
    COINROW(&r, NULL, "solve", "--db", d, "--set", set, "--variant", "diff", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
}

/* coinrow invoke ARGS... (NULL-terminated) run from folder `in`. */
static void invoke_in(run_result *r, const char *in, const char *const *args)
{
    char *argv[32] = {(char *)run_bin(), "invoke"};
    int argc = 2;
    for (; *args; args++)
        argv[argc++] = (char *)*args;
    argv[argc] = NULL;
    assert_int_equal(run_capture_in(r, in, argv, NULL), 0);
}

/* A source named relative to the folder invoke ran in is built from that
 * folder again when the invocation is resumed, from there alone (elsewhere
 * the same words could name another program); an instance added to the
 * set meanwhile has no answer in the invocation's run, and is left
 * unjudged, saying so. */
static void test_invoke__a_source_in_its_folder_resumes_from_there_and_late_instances_wait(void **state)
{
    (void)state;
    const char *d = tmp_path(dir, "relative.db");
    run_result r;
    generate_into(d, "s", "6", "7");
    char source[256];
    snprintf(source, sizeof source, "%s.c", program_name(PROGRAM_CORRECT));
    invoke_in(&r, dir, WORDS("--db", d, "--set", "s", "--variant", "diff", "--quiet", "--", source));
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    assert_int_equal(db_int(d, "SELECT count(*) FROM verdict WHERE verdict = 'AC'"), 6);
    /* as a kill leaves it: running, half of its verdicts committed */
    assert_int_equal(db_exec(d, "UPDATE invocation SET status = 'running', finished_at = NULL;"
                                "DELETE FROM verdict WHERE instance_id > 3"),
                     0);
    COINROW(&r, "id,values\nlate,4 1 5 9\n", "ingest", "-", "--db", d, "--set", "s", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);

    invoke_in(&r, "/", WORDS("--db", d, "--resume", "--", source));
    assert_int_equal(r.status, 2);
    char refused[8400];
    snprintf(refused, sizeof refused, "coinrow: invocation 1 ran its command in %s, not here (/): go on from there", dir);
    assert_non_null(strstr(r.err, refused));
    run_result_free(&r);
    assert_int_equal(db_int(d, "SELECT count(*) FROM verdict"), 3);
    invoke_in(&r, dir, WORDS("--db", d, "--resume", "--", source));
    assert_int_equal(r.status, 0);
    int64_t run = db_int(d, "SELECT answers_run FROM invocation");
    char expect[128];
    snprintf(expect, sizeof expect, "coinrow: 1 instance added to the set after run %lld has no answer: not judged\n",
             (long long)run);
    assert_non_null(strstr(r.err, expect));
    run_result_free(&r);
    assert_int_equal(db_int(d, "SELECT count(*) FROM verdict WHERE verdict = 'AC'"), 6);
    assert_int_equal(db_int(d, "SELECT count(*) FROM verdict JOIN instance ON id = instance_id WHERE ext_id = 'late'"),
                     0);
    assert_int_equal(db_int(d, "SELECT status = 'done' FROM invocation"), 1);
}

/* Sets the modification time of path to t (seconds since the epoch). */
static void set_mtime(const char *path, int64_t t)
{
    struct timespec times[2] = {{.tv_sec = (time_t)t}, {.tv_sec = (time_t)t}};
    assert_int_equal(utimensat(AT_FDCWD, path, times, 0), 0);
}

/* A source edited after its invocation started is refused on resume,
 * naming it: the verdicts before and after would be of two programs (it
 * was built afresh and judged). */
static void test_invoke__a_source_changed_since_the_invocation_started_does_not_resume(void **state)
{
    (void)state;
    const char *d = tmp_path(dir, "changed.db");
    char source[4096];
    snprintf(source, sizeof source, "%s", tmp_path(dir, "edited.c"));
    assert_int_equal(copy_file(program_path(PROGRAM_CORRECT, ".c"), source), 0);
    run_result r;
    generate_into(d, "s", "6", "7");
    invoke_in(&r, dir, WORDS("--db", d, "--set", "s", "--variant", "diff", "--quiet", "--", "edited.c"));
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    assert_int_equal(db_exec(d, "UPDATE invocation SET status = 'running', finished_at = NULL;"
                                "DELETE FROM verdict WHERE instance_id > 3"),
                     0);
    int64_t started = db_int(d, "SELECT strftime('%s', started_at) FROM invocation");
    set_mtime(source, started + 60); /* edited a minute later */
    invoke_in(&r, dir, WORDS("--db", d, "--resume", "--", "edited.c"));
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "coinrow: invocation 1 started at "));
    assert_non_null(strstr(r.err, ", and edited.c has changed since (at "));
    assert_non_null(strstr(r.err, "judge it in a new invocation\n"));
    run_result_free(&r);
    assert_int_equal(db_int(d, "SELECT count(*) FROM verdict"), 3);
    set_mtime(source, started); /* as it was */
    invoke_in(&r, dir, WORDS("--db", d, "--resume", "--", "edited.c"));
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    assert_int_equal(db_int(d, "SELECT count(*) FROM verdict WHERE verdict = 'AC'"), 6);
}

/* A compiler that dies without saying "error" is quoted by its first line,
 * with the signal; nothing is stored. */
static void test_invoke__a_compiler_killed_without_an_error_line_is_quoted_by_its_first_line(void **state)
{
    (void)state;
    const char *bin = tmp_path(dir, "fake-bin");
    assert_int_equal(mkdir(bin, 0755), 0);
    const char *cc = tmp_path(bin, "cc");
    assert_int_equal(write_file(cc, "#!/bin/sh\necho 'cc: internal fault' >&2\necho 'cc: giving up' >&2\nkill -9 $$\n"),
                     0);
    assert_int_equal(chmod(cc, 0755), 0);
    const char *path = getenv("PATH");
    char *saved = strdup(path ? path : "/usr/bin:/bin"), with_fake[8400];
    snprintf(with_fake, sizeof with_fake, "%s:%s", bin, saved);
    int64_t before = latest();
    run_result r;
    setenv("PATH", with_fake, 1);
    unsetenv("CC"); /* the cc of PATH is the compiler */
    invoke(&r, "mix", WORDS(NULL, program_path(PROGRAM_CORRECT, ".c")));
    setenv("PATH", saved, 1);
    free(saved);
    assert_int_equal(r.status, 2);
    char expect[4400];
    snprintf(expect, sizeof expect, "coinrow: cannot build %s with cc (signal 9): cc: internal fault\n",
             program_path(PROGRAM_CORRECT, ".c"));
    assert_string_equal(r.err, expect);
    run_result_free(&r);
    assert_int_equal(latest(), before);
}

/* One rule for every build coinrow starts: $CC builds a C source and $CXX a
 * C++ one, as they build the CMS checker (test_cli_export); their words are
 * split at blanks as make splits them (a compiler with flags was taken for
 * one program's name, and refused). */
static void test_invoke__sources_are_built_with_cc_and_cxx_from_the_environment(void **state)
{
    (void)state;
    char log[4096], script[8400];
    snprintf(log, sizeof log, "%s", tmp_path(dir, "compilers.log"));
    const char *names[2] = {"logging-cc", "logging-cxx"}, *real[2] = {"cc", "c++"};
    for (int k = 0; k < 2; k++) {
        snprintf(script, sizeof script, "#!/bin/sh\necho \"%s $*\" >> '%s'\nexec %s \"$@\"\n", names[k], log, real[k]);
        const char *path = tmp_path(dir, names[k]);
        assert_int_equal(write_file(path, script), 0);
        assert_int_equal(chmod(path, 0755), 0);
    }
    const char *cpp = tmp_path(dir, "silent.cpp");
    assert_int_equal(write_file(cpp, "int main() { return 0; }\n"), 0);
    run_result r;
    char cc[4200], cxx[4200];
    snprintf(cc, sizeof cc, "  %s\t-DFROM_CC ", tmp_path(dir, "logging-cc"));
    snprintf(cxx, sizeof cxx, "%s -DFROM_CXX", tmp_path(dir, "logging-cxx"));
    setenv("CC", cc, 1);
    setenv("CXX", cxx, 1);
    invoke(&r, "mix", WORDS(NULL, program_path(PROGRAM_CORRECT, ".c")));
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    invoke(&r, "mix", WORDS(NULL, cpp));
    unsetenv("CC");
    unsetenv("CXX");
    assert_int_equal(r.status, 1); /* built, and judged: it writes nothing */
    run_result_free(&r);
    char *calls = read_text(log);
    assert_non_null(calls);
    assert_non_null(strstr(calls, "logging-cc -DFROM_CC -O2 -std=gnu11 -o "));
    assert_non_null(strstr(calls, "logging-cxx -DFROM_CXX -O2 -std=gnu++17 -o "));
    free(calls);
}

/* A built-in judges thousands of instances faster than they are committed:
 * each gets its verdict once. */
static void test_invoke__a_builtin_on_thousands_of_instances_stores_each_verdict_once(void **state)
{
    (void)state;
    const char *d = tmp_path(dir, "many.db");
    run_result r;
    generate_into(d, "many", "3000", "2");
    COINROW(&r, NULL, "invoke", "--db", d, "--set", "many", "--variant", "diff", "--builtin", "left");
    assert_int_equal(r.status, 1); /* left is wrong on some */
    assert_non_null(strstr(r.out, "judged 3000 of 3000: "));
    run_result_free(&r);
    assert_int_equal(db_int(d, "SELECT count(*) = 3000 AND count(DISTINCT instance_id) = 3000 FROM verdict"), 1);
}

/* A labelled invocation whose first failing test got a verdict its label
 * does not promise stays out of the package, saying which test and what. */
static void test_invoke__a_label_its_first_failure_does_not_fit_is_left_out_of_the_package(void **state)
{
    (void)state;
    const char *d = tmp_path(dir, "label.db");
    run_result r;
    generate_into(d, "s", "3", "4");
    COINROW(&r, NULL, "invoke", "--db", d, "--set", "s", "--variant", "diff", "--moves", "ignored", "--label",
            "time_limit_exceeded", "--quiet", "--", program_path(PROGRAM_OFF_BY_ONE, ".c"));
    assert_int_equal(r.status, 1);
    run_result_free(&r);
    const char *pkg = tmp_path(dir, "labels");
    COINROW(&r, NULL, "export", "--db", d, "--set", "s", "--variant", "diff", "--format", "kattis", "--out", pkg,
            "--submissions");
    assert_int_equal(r.status, 0);
    char *first = db_text(d, "SELECT ext_id FROM instance ORDER BY id LIMIT 1"), expect[256];
    snprintf(expect, sizeof expect, "1 labelled invocation left out of the package; the first: invocation 1 (label "
             "time_limit_exceeded): its first failing test, '%s', got WA\n", first);
    free(first);
    assert_non_null(strstr(r.err, expect));
    run_result_free(&r);
    assert_int_equal(access(tmp_path(pkg, "submissions/time_limit_exceeded"), F_OK), -1);
    assert_int_equal(access(tmp_path(pkg, "submissions/accepted"), F_OK), 0);
}

/* Whether the sandbox can be tested here: only these two refusals skip its
 * tests; anything else the sandbox does wrong fails them. */
static void probe_sandbox(void)
{
    run_result r;
    invoke(&r, "mix", WORDS("--sandbox", NULL, program_path(PROGRAM_CORRECT, "")));
    if (r.status == 2 && (strstr(r.err, "needs bubblewrap") || strstr(r.err, " cannot create namespaces: "))) {
        snprintf(why_not, sizeof why_not, "%s", r.err);
        fprintf(stderr, "notice: the sandbox's tests are skipped: %s", why_not);
    }
    run_result_free(&r);
}

/* Skips a test of the sandbox where it cannot be tested (the first call
 * looks). */
static void need_sandbox(void)
{
    static int probed;
    if (!probed++)
        probe_sandbox();
    if (why_not[0])
        skip();
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

/* A copy of the database, called name, in the tests' folder. */
static const char *copy_of_db(const char *name)
{
    const char *copy = tmp_path(dir, name);
    char sql[8400];
    snprintf(sql, sizeof sql, "VACUUM INTO '%s'", copy);
    assert_int_equal(db_exec(db, sql), 0);
    return copy;
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
    invoke(&r, "mix", WORDS(NULL, program_path(p, ""), arg));
    first_says(&r, escape);
    run_result_free(&r);
    assert_false(run_alive(0, program_name(p)));

    char *before = jury_names();
    invoke(&r, "mix", WORDS("--sandbox", NULL, program_path(p, ""), arg));
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
    assert_false(run_alive(0, program_name(p)));
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
        const char *words[8] = {"--sandbox"};
        int w = 1;
        for (const char *const *o = cases[k].options; *o; o++)
            words[w++] = *o;
        words[w++] = NULL;
        words[w++] = program_path(cases[k].p, cases[k].ext);
        words[w] = NULL;
        run_result r;
        invoke(&r, "mix", words);
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
    assert_false(run_alive(0, program_name(PROGRAM_SLEEPER)));
    assert_false(run_alive(0, program_name(PROGRAM_SPINNER)));
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
    invoke(&r, "mix", WORDS("--sandbox", "--moves", "ignored", NULL, source));
    if (r.status != 0 || verdicts("AC") != 3)
        fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
    run_result_free(&r);
}

/* Outside its namespaces the program is an unprivileged user: nobody when
 * coinrow is root, else coinrow's own user; never root.  The sleeper, given
 * more time than it sleeps, is there until the SIGINT, however slow the
 * machine. */
static void test_sandbox__the_program_is_never_root_outside_its_namespaces(void **state)
{
    (void)state;
    need_sandbox();
    char *argv[] = {(char *)run_bin(), "invoke", "--db", db, "--set", "mix", "--variant", "diff", "--sandbox",
                    "--time-limit", "100", "--", (char *)program_path(PROGRAM_SLEEPER, ""), NULL};
    pid_t pid = run_start(argv, tmp_path(dir, "never-root.log"));
    assert_true(pid > 0);
    long uid = -1;
    while (uid < 0 && !run_ended(pid)) { /* until the sleeper is there, or coinrow ended without it */
        DIR *proc = opendir("/proc");
        for (struct dirent *e; proc && uid < 0 && (e = readdir(proc)) != NULL;) {
            char path[300], status[2048];
            snprintf(path, sizeof path, "/proc/%s/status", e->d_name);
            FILE *f = fopen(path, "r"); /* (procfs gives no size, for read_text) */
            size_t len = f ? fread(status, 1, sizeof status - 1, f) : 0;
            if (f)
                fclose(f);
            status[len] = '\0';
            const char *line = strstr(status, "\nUid:\t");
            if (line && strncmp(status, "Name:\tsleeper\n", 14) == 0)
                uid = strtol(line + 6, NULL, 10);
        }
        if (proc)
            closedir(proc);
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
    }
    run_signal(pid, SIGINT);
    int status = run_wait(pid);
    assert_int_equal(status, 130);
    assert_false(run_alive(0, program_name(PROGRAM_SLEEPER)));
    assert_int_equal(uid, geteuid() == 0 ? 65534 : (long)geteuid());
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
    invoke(&r, "mix", WORDS(NULL, program_path(PROGRAM_CALLER, ""), port));
    first_says(&r, "escaped: connected");
    run_result_free(&r);
    int got;
    int connections = 0;
    while ((got = accept(s, NULL, NULL)) >= 0)
        close(got), connections++;
    assert_true(connections > 0);

    invoke(&r, "mix", WORDS("--sandbox", NULL, program_path(PROGRAM_CALLER, ""), port));
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
    invoke(&r, "mix", WORDS(NULL, path));
    first_says(&r, "escaped: ");
    run_result_free(&r);
    int64_t before = latest();
    invoke(&r, "mix", WORDS("--sandbox", NULL, path));
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
    invoke(&r, "mix", WORDS(NULL, program_path(PROGRAM_SIGNALLER, "")));
    assert_int_equal(r.status, 130);
    run_result_free(&r);
    invoke(&r, "mix", WORDS("--sandbox", NULL, program_path(PROGRAM_SIGNALLER, "")));
    assert_int_equal(r.status, 0);
    assert_int_equal(verdicts("AC"), 3);
    run_result_free(&r);
}

/* hostile() for a program asked for twice the sandbox's limit of
 * something: all of it outside; inside, RE, the message saying what it
 * ran into (`says`, then the limit). */
static void twice_the_limit(program p, int limit, const char *says)
{
    char want[16], message[256];
    snprintf(want, sizeof want, "%d", 2 * limit);
    snprintf(message, sizeof message, "%s%d", says, limit);
    hostile(p, want, "escaped: ", "RE", message);
}

/* Twice the sandbox's processes: all of them outside; inside, a fork fails
 * at its limit, the program dies of it (RE, saying so), and neither run
 * leaves one behind. */
static void test_sandbox__a_fork_bomb_stops_at_the_sandboxs_processes_and_leaves_none(void **state)
{
    (void)state;
    need_sandbox();
    twice_the_limit(PROGRAM_BOMB, CR_SANDBOX_PROCESSES, "RE: exit status 1; in the sandbox, it reached the limit of ");
}

/* Twice the size of the sandbox's /tmp: all of it outside (to the real
 * /tmp, removed at once); inside, no room after its size, RE saying so,
 * and nothing of it left in the real /tmp. */
static void test_sandbox__filling_tmp_stops_at_its_size(void **state)
{
    (void)state;
    need_sandbox();
    twice_the_limit(PROGRAM_FILLER, CR_SANDBOX_FILES_MIB, "RE: exit status 1; in the sandbox, its /tmp was full (");
    DIR *tmp = opendir("/tmp");
    for (struct dirent *e; tmp && (e = readdir(tmp)) != NULL;)
        assert_true(strncmp(e->d_name, "filler-", 7) != 0);
    if (tmp)
        closedir(tmp);
}

/* Interrupted, an invocation resumes in its sandbox, which --resume must
 * name (it cannot be turned off): the rest of the set is judged there too
 * (the peeking program still reads nothing). */
static void test_sandbox__resume_judges_the_rest_in_the_sandbox(void **state)
{
    (void)state;
    need_sandbox();
    const char *d = tmp_path(dir, "sandboxed-resume.db");
    run_result r;
    generate_answered_into(d, "long", STOPPED_SET_COUNT, "5");
    char *argv[] = {(char *)run_bin(), "invoke", "--db", (char *)d, "--set", "long", "--variant", "diff", "--sandbox",
                    "--", (char *)program_path(PROGRAM_PEEK, ""), (char *)d, NULL};
    assert_int_equal(stop_at_first_commit(NULL, d, 1, argv, SIGINT), 130);
    int64_t judged = db_int(d, "SELECT count(*) FROM verdict");
    assert_true(judged > 0 && judged < STOPPED_SET);
    assert_int_equal(db_int(d, "SELECT sandbox FROM invocation"), 1);

    COINROW(&r, NULL, "invoke", "--db", d, "--resume", "--", program_path(PROGRAM_PEEK, ""), d);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "coinrow: invocation 1 runs its program in the sandbox: give --sandbox to go on"));
    run_result_free(&r);
    assert_int_equal(db_int(d, "SELECT count(*) FROM verdict"), judged);
    COINROW(&r, NULL, "invoke", "--db", d, "--resume", "--sandbox", "--", program_path(PROGRAM_PEEK, ""), d);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "; sandboxed)\n"));
    char line[64];
    snprintf(line, sizeof line, "judged %d of %d: AC %d\n", STOPPED_SET, STOPPED_SET, STOPPED_SET);
    assert_non_null(strstr(r.out, line));
    run_result_free(&r);
    assert_false(run_alive(0, program_name(PROGRAM_PEEK)));
}

/* Killed by SIGKILL at its first commit, `invoke OPTION -- PROGRAM EXT`
 * leaves nothing in $TMPDIR. */
static void killed_it_leaves_nothing_in_tmpdir(const char *name, const char *option, const char *ext)
{
    const char *d = tmp_path(dir, name);
    generate_answered_into(d, "long", STOPPED_SET_COUNT, "5");
    char *tmp = tmp_dir_new(), *was = getenv("TMPDIR") ? strdup(getenv("TMPDIR")) : NULL;
    assert_non_null(tmp);
    assert_int_equal(chmod(tmp, 0755), 0); /* as /tmp lets bwrap, run as nobody, through */
    assert_int_equal(setenv("TMPDIR", tmp, 1), 0);
    char *argv[] = {(char *)run_bin(), "invoke", "--db", (char *)d, "--set", "long", "--variant", "diff",
                    (char *)option, "--", (char *)program_path(PROGRAM_CORRECT, ext), NULL};
    int status = stop_at_first_commit(NULL, d, 1, argv, SIGKILL);
    assert_int_equal(was ? setenv("TMPDIR", was, 1) : unsetenv("TMPDIR"), 0);
    free(was);
    assert_int_equal(status, 128 + SIGKILL);
    char *left = dir_snapshot(tmp);
    assert_string_equal(left, "");
    free(left);
    tmp_dir_free(tmp);
    assert_false(run_alive(0, program_name(PROGRAM_CORRECT)));
}

/* Ctrl-C while a source builds: coinrow lets the compiler end, removes
 * the build folder and exits 130, nothing judged.  The compiler ($CC, a
 * script here) waits at a FIFO until the signal is sent.  The signal
 * used to kill coinrow, and the build folder stayed in $TMPDIR. */
static void test_invoke__a_stop_while_a_source_builds_leaves_nothing_in_tmpdir(void **state)
{
    (void)state;
    const char *d = tmp_path(dir, "stopped-build.db");
    generate_into(d, "s", "6", "7");
    char *tmp = tmp_dir_new(), *was_tmp = getenv("TMPDIR") ? strdup(getenv("TMPDIR")) : NULL;
    char *was_cc = getenv("CC") ? strdup(getenv("CC")) : NULL;
    char gate[4096], cc[4096], script[8400], log[4096];
    snprintf(gate, sizeof gate, "%s", tmp_path(dir, "build-gate"));
    snprintf(cc, sizeof cc, "%s", tmp_path(dir, "gated-cc"));
    snprintf(log, sizeof log, "%s", tmp_path(dir, "stopped-build.log"));
    assert_int_equal(mkfifo(gate, 0600), 0);
    snprintf(script, sizeof script, "#!/bin/sh\nread go < '%s'\nexec cc \"$@\"\n", gate);
    assert_int_equal(write_file(cc, script), 0);
    assert_int_equal(chmod(cc, 0755), 0);
    assert_int_equal(setenv("TMPDIR", tmp, 1), 0);
    assert_int_equal(setenv("CC", cc, 1), 0);
    char *argv[] = {(char *)run_bin(), "invoke", "--db", (char *)d, "--set", "s", "--variant", "diff", "--",
                    (char *)program_path(PROGRAM_CORRECT, ".c"), NULL};
    pid_t pid = run_start(argv, log);
    assert_int_equal(was_tmp ? setenv("TMPDIR", was_tmp, 1) : unsetenv("TMPDIR"), 0);
    assert_int_equal(was_cc ? setenv("CC", was_cc, 1) : unsetenv("CC"), 0);
    free(was_tmp), free(was_cc);
    assert_true(pid > 0);
    /* the compiler waits at the gate: the build folder is there */
    FILE *open_gate = fopen(gate, "w");
    assert_non_null(open_gate);
    run_signal(pid, SIGINT);
    fputs("go\n", open_gate);
    fclose(open_gate);
    assert_int_equal(run_wait(pid), 130);
    char *said = read_text(log), *left = dir_snapshot(tmp);
    assert_non_null(strstr(said, "coinrow: interrupted: nothing was judged"));
    assert_string_equal(left, "");
    assert_int_equal(db_int(d, "SELECT count(*) FROM invocation"), 0);
    free(said), free(left);
    tmp_dir_free(tmp);
}

/* A source is built in a folder of $TMPDIR, but the program built is held
 * open and the folder removed as soon as it is built. */
static void test_invoke__a_source_killed_leaves_nothing_in_tmpdir(void **state)
{
    (void)state;
    killed_it_leaves_nothing_in_tmpdir("source-killed.db", "--jobs=1", ".c");
}

/* In a sandbox, the program's copies are sealed in memory, not kept in a
 * folder of $TMPDIR for coinrow to remove at its end. */
static void test_sandbox__killed_it_leaves_nothing_in_tmpdir(void **state)
{
    (void)state;
    need_sandbox();
    killed_it_leaves_nothing_in_tmpdir("sandbox-killed.db", "--sandbox", "");
    killed_it_leaves_nothing_in_tmpdir("sandbox-source-killed.db", "--sandbox", ".c");
}

/* --resume --sandbox turns the sandbox on for an invocation that ran
 * without it (its first verdicts, outside, stay as they were); from then
 * on it is on, and a resume without --sandbox is refused. */
static void test_sandbox__resume_turns_it_on_and_it_stays_on(void **state)
{
    (void)state;
    need_sandbox();
    const char *d = copy_of_db("sandbox-turned-on.db");
    run_result r;
    char *argv[] = {(char *)run_bin(), "invoke", "--db", (char *)d, "--set", "mix", "--variant", "diff", "--",
                    (char *)program_path(PROGRAM_PEEK, ""), (char *)d, NULL};
    assert_int_equal(run_capture(&r, argv, NULL), 0);
    assert_int_equal(r.status, 1); /* outside, it reads the database */
    run_result_free(&r);
    static const char interrupted[] = "UPDATE invocation SET status = 'interrupted' WHERE id = (SELECT max(id) FROM "
                                      "invocation); DELETE FROM verdict WHERE invocation_id = (SELECT max(id) FROM "
                                      "invocation) AND instance_id > (SELECT min(instance_id) FROM verdict WHERE "
                                      "invocation_id = (SELECT max(id) FROM invocation))";
    assert_int_equal(db_exec(d, interrupted), 0);
    COINROW(&r, NULL, "invoke", "--db", d, "--resume", "--sandbox", "--", program_path(PROGRAM_PEEK, ""), d);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "; sandboxed)\n"));
    assert_non_null(strstr(r.out, "judged 3 of 3: AC 2, RE 1\n"));
    run_result_free(&r);
    assert_int_equal(db_int(d, "SELECT sandbox FROM invocation WHERE id = (SELECT max(id) FROM invocation)"), 1);
    assert_int_equal(db_exec(d, interrupted), 0);
    COINROW(&r, NULL, "invoke", "--db", d, "--resume", "--", program_path(PROGRAM_PEEK, ""), d);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "runs its program in the sandbox: give --sandbox to go on"));
    run_result_free(&r);
}

/* A database from before the sandbox (schema 5) is upgraded in place: its
 * invocations ran without, and resume without. */
static void test_sandbox__an_invocation_from_before_it_resumes_without_it(void **state)
{
    (void)state;
    need_sandbox();
    const char *d = copy_of_db("from-before-the-sandbox.db");
    run_result r;
    char *argv[] = {(char *)run_bin(), "invoke", "--db", (char *)d, "--set", "mix", "--variant", "diff", "--",
                    (char *)program_path(PROGRAM_PEEK, ""), (char *)d, NULL};
    assert_int_equal(run_capture(&r, argv, NULL), 0);
    run_result_free(&r);
    /* as schema 5 had it: no column, a running invocation (and no view
     * result_full, which the upgrade to version 8 makes with the others, nor
     * version 9's set_mark and columns, nor version 10's groups) */
    assert_int_equal(db_exec(d, "ALTER TABLE invocation DROP COLUMN sandbox; PRAGMA user_version = 5;"
                                "DROP VIEW result_view; DROP VIEW result; DROP VIEW result_full;"
                                "CREATE VIEW result AS SELECT 1 AS run_id; CREATE VIEW result_view AS SELECT 1;"
                                "DROP TABLE set_mark; ALTER TABLE instance_set DROP COLUMN size;"
                                "ALTER TABLE instance_set DROP COLUMN digest; ALTER TABLE instance_set DROP COLUMN marked;"
                                "ALTER TABLE shard DROP COLUMN split; ALTER TABLE shard DROP COLUMN lo;"
                                "ALTER TABLE shard DROP COLUMN hi;"
                                "DROP VIEW invocation_points; DROP VIEW invocation_group_points;"
                                "DROP VIEW test_group_view; DROP TABLE test_group_generator;"
                                "DROP TABLE test_group_instance; DROP TABLE test_group_dependency;"
                                "DROP TABLE test_group;"
                                "UPDATE invocation SET status = 'running', finished_at = NULL "
                                "WHERE id = (SELECT max(id) FROM invocation);"
                                "DELETE FROM verdict WHERE invocation_id = (SELECT max(id) FROM invocation)"),
                     0);
    COINROW(&r, NULL, "invoke", "--db", d, "--resume", "--", program_path(PROGRAM_PEEK, ""), d);
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
    const char *copy = copy_of_db("no-user-namespaces.db");
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
        cmocka_unit_test(test_invoke__every_program_gets_its_verdict_on_every_instance),
        cmocka_unit_test(test_invoke__a_crash_keeps_its_signal_its_stderr_and_what_the_checker_said),
        cmocka_unit_test(test_invoke__expect_sets_the_exit_status_and_the_summary_names_the_first_failure),
        cmocka_unit_test(test_invoke__a_source_file_is_built_and_one_that_does_not_build_changes_nothing),
        cmocka_unit_test(test_invoke__a_source_killed_leaves_nothing_in_tmpdir),
        cmocka_unit_test(test_invoke__a_stop_while_a_source_builds_leaves_nothing_in_tmpdir),
        cmocka_unit_test(test_invoke__usage_and_trouble_exit_2_and_leave_the_database_alone),
        cmocka_unit_test(test_invoke__builtins_and_strength_break_greedy_on_antigreedy_not_on_equal_coins),
        cmocka_unit_test(test_invoke__an_invocation_that_does_not_read_back_is_named),
        cmocka_unit_test(test_invoke__compare_lists_regressions_and_slowdowns_and_records_them),
        cmocka_unit_test(test_invoke__python_sources_and_every_folder_go_into_the_package),
        cmocka_unit_test(test_invoke__export_puts_labelled_sources_beside_coinrows_own),
        cmocka_unit_test(test_invoke__killed_or_interrupted_it_resumes_and_judges_each_instance_once),
        cmocka_unit_test(test_invoke__a_source_in_its_folder_resumes_from_there_and_late_instances_wait),
        cmocka_unit_test(test_invoke__a_source_changed_since_the_invocation_started_does_not_resume),
        cmocka_unit_test(test_invoke__a_compiler_killed_without_an_error_line_is_quoted_by_its_first_line),
        cmocka_unit_test(test_invoke__sources_are_built_with_cc_and_cxx_from_the_environment),
        cmocka_unit_test(test_invoke__a_builtin_on_thousands_of_instances_stores_each_verdict_once),
        cmocka_unit_test(test_invoke__a_label_its_first_failure_does_not_fit_is_left_out_of_the_package),
        cmocka_unit_test(test_sandbox__honest_programs_keep_their_verdicts),
        cmocka_unit_test(test_sandbox__a_python_source_runs_under_the_system_python),
        cmocka_unit_test(test_sandbox__the_program_is_never_root_outside_its_namespaces),
        cmocka_unit_test(test_sandbox__a_program_cannot_read_the_database_or_a_file_beside_it),
        cmocka_unit_test(test_sandbox__a_program_cannot_create_a_file_in_the_databases_folder),
        cmocka_unit_test(test_sandbox__a_program_cannot_connect_to_a_loopback_port),
        cmocka_unit_test(test_sandbox__a_source_cannot_build_the_database_into_its_program),
        cmocka_unit_test(test_sandbox__a_program_cannot_list_its_parents_descriptors),
        cmocka_unit_test(test_sandbox__a_program_cannot_signal_its_parent),
        cmocka_unit_test(test_sandbox__a_fork_bomb_stops_at_the_sandboxs_processes_and_leaves_none),
        cmocka_unit_test(test_sandbox__filling_tmp_stops_at_its_size),
        cmocka_unit_test(test_sandbox__resume_judges_the_rest_in_the_sandbox),
        cmocka_unit_test(test_sandbox__killed_it_leaves_nothing_in_tmpdir),
        cmocka_unit_test(test_sandbox__resume_turns_it_on_and_it_stays_on),
        cmocka_unit_test(test_sandbox__an_invocation_from_before_it_resumes_without_it),
        cmocka_unit_test(test_sandbox__without_bwrap_or_namespaces_it_says_which_and_changes_nothing),
        cmocka_unit_test(test_sandbox__a_bwrap_that_cannot_make_namespaces_is_refused_before_anything_is_judged),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

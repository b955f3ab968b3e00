/* End-to-end tests of generate, validate and check, and of the exported
 * checker and validator: built with `cc` alone in a temporary folder, they
 * must behave exactly like the coinrow commands on the same files. */
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

#include "export/program.h"
#include "support/cc.h"
#include "support/run.h"

static char dir[256]; /* the temporary folder of this run */

static const char *path_of(const char *name)
{
    static char paths[8][512];
    static int next;
    char *p = paths[next++ % 8];
    snprintf(p, sizeof paths[0], "%s/%s", dir, name);
    return p;
}

static void write_file(const char *name, const char *text)
{
    FILE *f = fopen(path_of(name), "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char text[4096];
    size_t len = fread(text, 1, sizeof text - 1, f);
    text[len] = '\0';
    fclose(f);
    return text;
}

static int make_dir(void **state)
{
    (void)state;
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/coinrow-judge-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
    (void)state;
    char *argv[] = {"rm", "-rf", dir, NULL};
    run_result r;
    if (run_capture(&r, argv, NULL) != 0)
        return -1;
    run_result_free(&r);
    return 0;
}

/* --- generate ------------------------------------------------------------ */

#define GENERATE(...) "generate", "--set", "demo", "--count", "12", "--n", "4..9", "--values", "-5..20", __VA_ARGS__

static void test_generate__same_arguments_give_the_same_bytes_and_another_seed_others(void **state)
{
    (void)state;
    run_result a, b, c;
    assert_int_equal(run_coinrow(&a, NULL, GENERATE("--seed", "7", "--profile", "antigreedy", "--odd-sum", "--out", "-"),
                                 (char *)NULL),
                     0);
    assert_int_equal(run_coinrow(&b, NULL, GENERATE("--seed", "7", "--profile", "antigreedy", "--odd-sum", "--out", "-"),
                                 (char *)NULL),
                     0);
    assert_int_equal(run_coinrow(&c, NULL, GENERATE("--seed", "8", "--profile", "antigreedy", "--odd-sum", "--out", "-"),
                                 (char *)NULL),
                     0);
    assert_int_equal(a.status, 0);
    assert_string_equal(a.err, "");
    assert_string_equal(a.out, b.out);
    assert_string_not_equal(a.out, c.out);
    assert_memory_equal(a.out, "id,values\n01,2 1 17 3\n02,", 25); /* pinned: see test_core_gen */
    size_t rows = 0;
    for (const char *p = a.out; *p; p++)
        rows += *p == '\n';
    assert_int_equal(rows, 13);
    run_result_free(&a), run_result_free(&b), run_result_free(&c);
}

static void test_generate__out_file_holds_what_standard_output_gets(void **state)
{
    (void)state;
    run_result a, b;
    assert_int_equal(run_coinrow(&a, NULL, GENERATE("--seed", "3", "--profile", "peaks", "--out", "-"), (char *)NULL), 0);
    assert_int_equal(
        run_coinrow(&b, NULL, GENERATE("--seed", "3", "--profile", "peaks", "--out", path_of("set.csv")), (char *)NULL),
        0);
    assert_int_equal(b.status, 0);
    assert_string_equal(b.out, "");
    assert_string_equal(read_file(path_of("set.csv")), a.out);
    run_result_free(&a), run_result_free(&b);
}

/* --out naming a link writes the file it names, the link kept; a FIFO (or
 * a device) is refused: the rename that puts the file in place replaced
 * them (as root, --out /dev/full the device); and so is a database. */
static void test_generate__out_writes_through_a_link_and_refuses_a_fifo(void **state)
{
    (void)state;
    char link[4096], fifo[4096];
    snprintf(link, sizeof link, "%s", path_of("link.csv"));
    snprintf(fifo, sizeof fifo, "%s", path_of("pipe.csv"));
    write_file("linked.csv", "old\n");
    assert_int_equal(symlink("linked.csv", link), 0);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    run_result r;
    assert_int_equal(run_coinrow(&r, NULL, GENERATE("--seed", "3", "--out", link), (char *)NULL), 0);
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_true(strncmp(read_file(path_of("linked.csv")), "id,values\n", 10) == 0);
    assert_int_equal(run_coinrow(&r, NULL, GENERATE("--seed", "3", "--out", fifo), (char *)NULL), 0);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "pipe.csv: it is a FIFO, not a file"));
    run_result_free(&r);
    assert_int_equal(lstat(fifo, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    /* nor over a database: --out coinrow.db, meant for --db, replaced its every set with CSV */
    char db[4096];
    snprintf(db, sizeof db, "%s", path_of("kept.db"));
    assert_int_equal(run_coinrow(&r, NULL, GENERATE("--seed", "3", "--db", db, "--quiet"), (char *)NULL), 0);
    run_result_free(&r);
    assert_int_equal(run_coinrow(&r, NULL, GENERATE("--seed", "4", "--out", db), (char *)NULL), 0);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "kept.db: it is a SQLite database, which --out would replace with CSV"));
    run_result_free(&r);
    assert_true(strncmp(read_file(db), "SQLite format 3", 15) == 0); /* kept */
}

static void test_generate__constraints_no_instance_meets_are_a_usage_error(void **state)
{
    (void)state;
    run_result r;
    assert_int_equal(
        run_coinrow(&r, NULL, GENERATE("--seed", "1", "--profile", "equal", "--even-n", "--odd-sum", "--out", "-"),
                    (char *)NULL),
        0);
    assert_int_equal(r.status, 2);
    assert_string_equal(r.out, "");
    assert_non_null(strstr(r.err, "coinrow: equal coins never add up to an odd number when n is even\n"));
    run_result_free(&r);
    assert_int_equal(run_coinrow(&r, NULL, GENERATE("--seed", "1", "--out", "-", "--db", "x.db"), (char *)NULL), 0);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "--db and --out exclude each other"));
    run_result_free(&r);
    assert_int_equal(run_coinrow(&r, NULL, GENERATE("--seed", "-1", "--out", "-"), (char *)NULL), 0);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "--seed '-1' is not a whole number"));
    run_result_free(&r);
}

/* Seeds are 0 to 2^64 - 1, both ends included; sizes stop at the solver's
 * largest row, whichever command reads them. */
static void test_generate__a_seed_and_sizes_at_their_limits(void **state)
{
    (void)state;
    run_result r;
    assert_int_equal(run_coinrow(&r, NULL, GENERATE("--seed", "18446744073709551615", "--out", "-"), (char *)NULL), 0);
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    assert_int_equal(run_coinrow(&r, NULL, GENERATE("--seed", "18446744073709551616", "--out", "-"), (char *)NULL), 0);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "--seed '18446744073709551616' is larger than 18446744073709551615"));
    run_result_free(&r);
    assert_int_equal(run_coinrow(&r, "1\n5\n", "validate", "--n", "1..4294967296", "--values", "1..9", (char *)NULL),
                     0);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "--n '1..4294967296' must lie within 1..4294967295"));
    run_result_free(&r);
}

/* A set whose file cannot be written whole leaves no file: here the shell
 * limits file sizes to one block and ignores SIGXFSZ, so writes past it fail. */
static void test_generate__a_file_that_cannot_be_written_whole_is_removed(void **state)
{
    (void)state;
    char script[512];
    snprintf(script, sizeof script,
             "ulimit -f 1 && trap '' XFSZ && exec \"$0\" generate --set big --count 2000 --n 50 --values 1..1000000 "
             "--seed 1 --out \"$1\"");
    char *argv[] = {"sh", "-c", script, (char *)run_bin(), (char *)path_of("big.csv"), NULL};
    run_result r;
    assert_int_equal(run_capture(&r, argv, NULL), 0);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "coinrow: cannot write "));
    assert_int_equal(access(path_of("big.csv"), F_OK), -1);
    run_result_free(&r);
    /* and a set name is letters, digits, '.', '_' and '-' */
    assert_int_equal(run_coinrow(&r, NULL, "generate", "--set", "a/b", "--count", "1", "--n", "2", "--values", "1..2",
                                 "--seed", "1", "--out", "-", (char *)NULL),
                     0);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "set name 'a/b' may hold only letters, digits, '.', '_' and '-'"));
    run_result_free(&r);
}

/* --- validate and check through coinrow ---------------------------------- */

static void test_validate__exit_statuses_and_messages_follow_the_convention(void **state)
{
    (void)state;
    run_result r;
    assert_int_equal(run_coinrow(&r, "4\n8 15 3 7\n", "validate", "--n", "1..10", "--values", "1..20", (char *)NULL), 0);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    run_result_free(&r);
    assert_int_equal(run_coinrow(&r, "4\n8  15 3 7\n", "validate", "--n", "1..10", "--values", "1..20", (char *)NULL), 0);
    assert_int_equal(r.status, 3);
    assert_string_equal(r.err, "standard input: line 2, column 3: two spaces in a row (values are separated by "
                               "single spaces)\n");
    run_result_free(&r);
    assert_int_equal(run_coinrow(&r, "5\n8 15 3 7 1\n", "validate", "--n", "1..10", "--values", "1..20", "--even-n",
                                 "--kattis", (char *)NULL),
                     0);
    assert_int_equal(r.status, 43);
    assert_non_null(strstr(r.err, "n = 5 is odd"));
    run_result_free(&r);
    write_file("valid.in", "4\n8 15 3 7\n");
    assert_int_equal(run_coinrow(&r, NULL, "validate", "--n", "4", "--values", "3..15", "--kattis", path_of("valid.in"),
                                 (char *)NULL),
                     0);
    assert_int_equal(r.status, 42);
    run_result_free(&r);
    assert_int_equal(run_coinrow(&r, NULL, "validate", "--n", "4", "--values", "3..15", path_of("missing.in"),
                                 (char *)NULL),
                     0);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "cannot open"));
    run_result_free(&r);
}

/* validate, eval and check agree: an input is valid for a variant exactly
 * when its value can be given, even when a player's total leaves int64. */
static void test_validate__accepts_exactly_the_inputs_an_answer_can_be_given_for(void **state)
{
    (void)state;
    static const char *const max3 = "3\n9223372036854775807 9223372036854775807 9223372036854775807\n";
    static const struct {
        const char *variants;
        int status;
    } cases[] = {{"diff", 0}, {"winner", 0}, {"remaining", 0}, {"diff,winner", 0}, {"total", 3}, {"all", 3}};
    static const char *const range = "-9223372036854775808..9223372036854775807";
    write_file("max3.in", max3);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run_result r, e;
        assert_int_equal(run_coinrow(&r, max3, "validate", "--n", "1..3", "--values", range, "--variant",
                                     cases[i].variants, (char *)NULL),
                         0);
        assert_int_equal(run_coinrow(&e, max3 + 2, "eval", "--variant", cases[i].variants, (char *)NULL), 0);
        if (r.status != cases[i].status || e.status != (cases[i].status ? 1 : 0))
            fail_msg("%s: validate %d (%s), eval %d", cases[i].variants, r.status, r.err, e.status);
        run_result_free(&r);
        run_result_free(&e);
    }
    run_result r;
    assert_int_equal(run_coinrow(&r, max3, "validate", "--n", "1..3", "--values", range, (char *)NULL), 0);
    assert_int_equal(r.status, 3); /* every variant by default, as eval */
    assert_string_equal(r.err, "standard input: line 2: no total answer can be given: the total value "
                               "(18446744073709551614) and first_score (18446744073709551614) do not fit in int64\n");
    run_result_free(&r);
    /* check judges it: the answer is the value */
    write_file("max3.ans", "9223372036854775807\n");
    assert_int_equal(run_coinrow(&r, NULL, "check", "--variant", "diff", "--moves", "ignored", path_of("max3.in"),
                                 path_of("max3.ans"), path_of("max3.ans"), (char *)NULL),
                     0);
    assert_int_equal(r.status, 0);
    run_result_free(&r);
}

/* One check case: the contestant's output, the jury's answer and what each
 * convention must say. */
typedef struct check_case {
    const char *output, *jury;
    int testlib;         /* exit status */
    const char *message; /* the verdict line, as written */
} check_case;

/* [1, 2, 3, 4]: RLLL has two mistakes that cancel out (the same final score). */
static const check_case check_cases[] = {
    {"6\nRRRL\n", "6\nRRRL\n", 0, "accepted"},
    {"6\nRRRR", "6\n", 0, "accepted"},
    {"6\nRLLL\n", "6\nRRRL\n", 1, "wrong answer: line of play: turn 2 (second player): L is not optimal, R is"},
    /* a prefix of the jury's line is no copy of it */
    {"6\nRRR\n", "6\nRRRL\n", 1, "wrong answer: line of play: the line stops after 3 moves with 1 coins left"},
    {"7\nRRRL\n", "6\n", 1, "wrong answer: line 1: the value 7 is wrong"},
    {"6\nRRRX\n", "6\n", 1, "wrong answer: line of play: turn 4 (second player): 'X' is not a move (L or R)"},
    {"\x01garbage\n", "6\n", 2, "presentation error: line 1: the value '\\x01garbage' is not an integer"},
    {"6\n", "6\n", 2, "presentation error: no line of play after the value"},
    {"6\nRRRL\n", "5\n", 3, "judge error: the jury answer's value 5 is wrong: the total value is 6"},
    /* golden: hostile bytes are shown escaped, so every message is one line of ASCII */
    {"6\n\xc2\xa0RRL\n", "6\n", 1, "wrong answer: line of play: turn 1 (first player): '\\xc2' is not a move (L or R)"},
    {"\x7f\x1b[2J\r\n", "6\n", 2, "presentation error: line 1: the value '\\x7f\\x1b[2J' is not an integer"},
    {"6\nRRRL\n\xff\xfe\n", "6\n", 2, "presentation error: line 3: unexpected '\\xff\\xfe' after the answer"},
};

static void test_check__every_convention_reports_every_verdict(void **state)
{
    (void)state;
    write_file("in.txt", "4\n1 2 3 4\n");
    for (size_t i = 0; i < sizeof check_cases / sizeof check_cases[0]; i++) {
        const check_case *c = &check_cases[i];
        write_file("out.txt", c->output);
        write_file("ans.txt", c->jury);
        int accepted = c->testlib == 0, judge_error = c->testlib == 3;
        char line[512];
        snprintf(line, sizeof line, "%s\n", c->message);
        run_result r;

        assert_int_equal(run_coinrow(&r, NULL, "check", "--variant", "total", path_of("in.txt"), path_of("out.txt"),
                                     path_of("ans.txt"), (char *)NULL),
                         0);
        assert_int_equal(r.status, c->testlib);
        assert_string_equal(r.err, line);
        run_result_free(&r);

        remove(path_of("judgemessage.txt"));
        assert_int_equal(run_coinrow(&r, c->output, "check", "--variant", "total", "--kattis", path_of("in.txt"),
                                     path_of("ans.txt"), dir, (char *)NULL),
                         0);
        assert_int_equal(r.status, judge_error ? 1 : accepted ? 42 : 43);
        assert_string_equal(read_file(path_of("judgemessage.txt")), line);
        run_result_free(&r);

        assert_int_equal(run_coinrow(&r, NULL, "check", "--variant", "total", "--cms", path_of("in.txt"),
                                     path_of("ans.txt"), path_of("out.txt"), (char *)NULL),
                         0);
        assert_int_equal(r.status, judge_error ? 1 : 0);
        assert_string_equal(r.out, judge_error ? "" : accepted ? "1.0\n" : "0.0\n");
        assert_string_equal(r.err, accepted ? "translate:success\n" : line);
        run_result_free(&r);
    }
}

/* A path is the judge's, but it is shown escaped too: CMS cannot decode other bytes. */
static void test_check__a_judge_error_shows_a_hostile_path_escaped(void **state)
{
    (void)state;
    write_file("in.txt", "4\n1 2 3 4\n");
    write_file("ans.txt", "6\n");
    run_result r;
    assert_int_equal(run_coinrow(&r, NULL, "check", "--variant", "total", "--cms", path_of("in.txt"),
                                 path_of("ans.txt"), path_of("out\xc3(\x01.txt"), (char *)NULL),
                     0);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    assert_non_null(strstr(r.err, "out\\xc3(\\x01.txt"));
    assert_non_null(strstr(r.err, "judge error: cannot open "));
    assert_ptr_equal(strchr(r.err, '\n'), r.err + strlen(r.err) - 1);
    for (const char *p = r.err; *p != '\n'; p++)
        assert_true(*p >= 0x20 && *p < 0x7f);
    run_result_free(&r);
}

static void test_check__a_bad_command_line_is_a_failure_not_a_verdict(void **state)
{
    (void)state;
    run_result r;
    assert_int_equal(run_coinrow(&r, NULL, "check", "--variant", "best", "a", "b", "c", (char *)NULL), 0);
    assert_int_equal(r.status, 3);
    assert_non_null(strstr(r.err, "unknown variant 'best'"));
    run_result_free(&r);
    assert_int_equal(run_coinrow(&r, NULL, "check", "--variant", "diff", "--frobnicate", (char *)NULL), 0);
    assert_int_equal(r.status, 3);
    run_result_free(&r);
    assert_int_equal(run_coinrow(&r, NULL, "check", "--variant", "diff", "only-one", (char *)NULL), 0);
    assert_int_equal(r.status, 3);
    assert_string_equal(r.err, "judge error: expected the arguments INPUT CONTESTANT_OUTPUT JURY_ANSWER, got 1 "
                               "arguments\n");
    run_result_free(&r);
}

/* Polygon may pass a result file and Kattis its flags after the three
 * files: they are ignored; CMS passes exactly three. */
static void test_check__arguments_after_the_three_files_are_ignored_except_under_cms(void **state)
{
    (void)state;
    write_file("in.txt", "4\n1 2 3 4\n");
    write_file("out.txt", "6\nRRRL\n");
    write_file("ans.txt", "6\n");
    run_result r;
    assert_int_equal(run_coinrow(&r, NULL, "check", "--variant", "total", path_of("in.txt"), path_of("out.txt"),
                                 path_of("ans.txt"), path_of("result.xml"), (char *)NULL),
                     0);
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    assert_int_equal(run_coinrow(&r, "6\nRRRL\n", "check", "--variant", "total", "--kattis", path_of("in.txt"),
                                 path_of("ans.txt"), dir, "case_sensitive", "space_change_sensitive", (char *)NULL),
                     0);
    assert_int_equal(r.status, 42);
    run_result_free(&r);
    assert_int_equal(run_coinrow(&r, NULL, "check", "--variant", "total", "--cms", path_of("in.txt"),
                                 path_of("ans.txt"), path_of("out.txt"), "extra", (char *)NULL),
                     0);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "expected the arguments INPUT JURY_ANSWER CONTESTANT_OUTPUT, got 4 arguments"));
    run_result_free(&r);
}

/* The jury's input is the judge's: one that does not parse is a judge error, named. */
static void test_check__an_input_that_does_not_parse_is_a_judge_error(void **state)
{
    (void)state;
    write_file("in.txt", "4\n1 2 3\n");
    write_file("out.txt", "6\n");
    write_file("ans.txt", "6\n");
    run_result r;
    assert_int_equal(run_coinrow(&r, NULL, "check", "--variant", "total", path_of("in.txt"), path_of("out.txt"),
                                 path_of("ans.txt"), (char *)NULL),
                     0);
    assert_int_equal(r.status, 3);
    assert_non_null(strstr(r.err, "judge error: the input file "));
    assert_non_null(strstr(r.err, "in.txt: "));
    run_result_free(&r);
}

/* Kattis reads the verdict's message from FEEDBACK_DIR: when it cannot be
 * written there, the judge says so and fails, whatever the verdict. */
static void test_check__a_feedback_folder_that_cannot_be_written_is_a_judge_error(void **state)
{
    (void)state;
    write_file("in.txt", "4\n1 2 3 4\n");
    write_file("ans.txt", "6\n");
    run_result r;
    assert_int_equal(run_coinrow(&r, "6\n", "check", "--variant", "total", "--kattis", path_of("in.txt"),
                                 path_of("ans.txt"), path_of("no-such-folder"), (char *)NULL),
                     0);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "judge error: cannot write "));
    assert_non_null(strstr(r.err, "no-such-folder/judgemessage.txt\n"));
    run_result_free(&r);
}

/* --- the exported programs ----------------------------------------------- */

/* Writes program's source for settings as NAME.c and builds it with cc
 * alone, as a judge would; the build must be silent. */
static void build(const char *name, cr_judge_program program, const cr_judge_settings *settings)
{
    char source[64];
    snprintf(source, sizeof source, "%s.c", name);
    assert_true(strchr(cr_judge_program_file(program), '.')[1] == 'c'); /* a C program */
    FILE *f = fopen(path_of(source), "w");
    assert_non_null(f);
    cr_error err = {0};
    assert_int_equal(cr_judge_program_write(f, program, settings, &err), 0);
    assert_int_equal(fclose(f), 0);
    cc_build(path_of(name), path_of(source));
}

static void assert_same_run(const run_result *a, const run_result *b)
{
    assert_int_equal(a->status, b->status);
    assert_string_equal(a->out, b->out);
    assert_string_equal(a->err, b->err);
}

static void test_export__checkers_build_alone_and_judge_like_coinrow_check(void **state)
{
    (void)state;
    static const char *const flags[CR_CONVENTION_COUNT] = {NULL, "--kattis", "--cms"};
    write_file("in.txt", "4\n1 2 3 4\n");
    for (int conv = 0; conv < CR_CONVENTION_COUNT; conv++) {
        cr_judge_settings settings = {(cr_convention)conv, CR_TOTAL, CR_CHECK_MOVES_REQUIRED, {0}, 0};
        build("checker", CR_JUDGE_CHECKER, &settings);
        for (size_t i = 0; i < sizeof check_cases / sizeof check_cases[0]; i++) {
            const check_case *c = &check_cases[i];
            write_file("out.txt", c->output);
            write_file("ans.txt", c->jury);
            char *in = (char *)path_of("in.txt"), *out = (char *)path_of("out.txt"), *ans = (char *)path_of("ans.txt");
            char *args[3] = {in, out, ans}; /* testlib's order */
            if (conv == CR_KATTIS)
                args[1] = ans, args[2] = dir;
            if (conv == CR_CMS)
                args[1] = ans, args[2] = out;
            const char *stdin_text = conv == CR_KATTIS ? c->output : NULL;
            run_result mine, exported;
            char *coinrow_argv[] = {(char *)run_bin(), "check", "--variant", "total",
                                    (char *)(flags[conv] ? flags[conv] : "--moves=required"),
                                    args[0], args[1], args[2], NULL};
            char *checker_argv[] = {(char *)path_of("checker"), args[0], args[1], args[2], NULL};
            assert_int_equal(run_capture(&mine, coinrow_argv, stdin_text), 0);
            char kattis_message[4096] = "";
            if (conv == CR_KATTIS)
                snprintf(kattis_message, sizeof kattis_message, "%s", read_file(path_of("judgemessage.txt")));
            assert_int_equal(run_capture(&exported, checker_argv, stdin_text), 0);
            assert_same_run(&mine, &exported);
            if (conv == CR_KATTIS)
                assert_string_equal(read_file(path_of("judgemessage.txt")), kattis_message);
            run_result_free(&mine), run_result_free(&exported);
        }
    }
}

static void test_export__validators_build_alone_and_validate_like_coinrow_validate(void **state)
{
    (void)state;
    static const char *const inputs[] = {
        "4\n8 15 3 7\n",   "4\n8 15 3 7",   "4\n8  15 3 7\n", "3\n8 15 3\n", "4\n8 15 3 21\n",  "4\r\n8 15 3 7\r\n",
        "4\n8 15 3 7 9\n", "4\n8 15 3\n",   "", "4\n8 15 3 7\n\n", "2\n-9223372036854775808 3\n", "4\n8 15 3 8\n",
        "2\n-04 3\n", /* valid but for the leading zero after the sign */
    };
    for (int conv = CR_TESTLIB; conv <= CR_KATTIS; conv++) {
        cr_judge_settings settings = {(cr_convention)conv, CR_TOTAL, CR_CHECK_MOVES_REQUIRED,
                                      {2, 10, INT64_MIN, 20, 1, 1}, 0};
        build("validator", CR_JUDGE_VALIDATOR, &settings);
        for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
            run_result mine, exported;
            char *coinrow_argv[] = {(char *)run_bin(), "validate",   "--n",      "2..10",
                                    "--values",        "-9223372036854775808..20",  "--even-n", "--odd-sum",
                                    "--variant",       "total",      conv == CR_KATTIS ? "--kattis" : "--",
                                    NULL};
            char *validator_argv[] = {(char *)path_of("validator"), NULL};
            assert_int_equal(run_capture(&mine, coinrow_argv, inputs[i]), 0);
            assert_int_equal(run_capture(&exported, validator_argv, inputs[i]), 0);
            assert_same_run(&mine, &exported);
            int valid = i == 0 || i == 10;
            assert_int_equal(mine.status, conv == CR_KATTIS ? (valid ? 42 : 43) : (valid ? 0 : 3));
            run_result_free(&mine), run_result_free(&exported);
        }
    }
}

/* A test of the interactive game carries the jury's seed on a third line:
 * the exported validator built for it and coinrow validate --interactive
 * take it, and a row without one, or a bad one, is invalid saying so. */
static void test_export__an_interactive_validator_takes_the_seed_line(void **state)
{
    (void)state;
    static const struct {
        const char *input, *says;
    } inputs[] = {
        {"4\n8 15 3 7\n0\n", NULL},
        {"2\n1 2\n18446744073709551615\n", NULL},
        {"4\n8 15 3 7\n", "line 3, column 1: expected the jury's seed, found the end of the file"},
        {"4\n8 15 3 7\nseed 3\n", "line 3, column 1: the jury's seed ('seed') is not a decimal number"},
        {"4\n8 15 3 7\n3\n\n", "line 4, column 1: expected the end of the file after the seed"},
        {"4\n8 15 3 70\n3\n", "line 2, column 8: value 4 (70) is out of range 1..20"},
    };
    cr_judge_settings settings = {CR_KATTIS, CR_DIFF, CR_CHECK_MOVES_REQUIRED, {1, 10, 1, 20, 0, 0}, 1};
    build("validator", CR_JUDGE_VALIDATOR, &settings);
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        run_result mine, exported;
        char *coinrow_argv[] = {(char *)run_bin(), "validate", "--n", "1..10", "--values", "1..20", "--variant",
                                "diff", "--interactive", "--kattis", NULL};
        char *validator_argv[] = {(char *)path_of("validator"), NULL};
        assert_int_equal(run_capture(&mine, coinrow_argv, inputs[i].input), 0);
        assert_int_equal(run_capture(&exported, validator_argv, inputs[i].input), 0);
        assert_same_run(&mine, &exported);
        assert_int_equal(mine.status, inputs[i].says ? 43 : 42);
        if (inputs[i].says && !strstr(mine.err, inputs[i].says))
            fail_msg("input %zu: '%s' does not say '%s'", i, mine.err, inputs[i].says);
        run_result_free(&mine), run_result_free(&exported);
    }
}

/* Runs the program at dir/name on input, its output in *out; returns its exit status. */
static int run_program(run_result *out, const char *name, const char *input)
{
    char *argv[] = {(char *)path_of(name), NULL};
    assert_int_equal(run_capture(out, argv, input), 0);
    return out->status;
}

/* The exported submissions: the reference solution and the brute force give
 * the same accepted answer (the canonical line), the greedy one a wrong
 * answer where greedy play is not optimal. */
static void test_export__submissions_build_alone_and_earn_their_verdicts(void **state)
{
    (void)state;
    static const struct {
        const char *input;
        int greedy_wrong;
    } inputs[] = {
        {"4\n8 15 3 7\n", 1},
        {"4\n1 2 3 4\n", 0},
        {"1\n-5\n", 0},
        {"4\n2 10 1 1\n", 1},
        {"3\n9223372036854775807 9223372036854775807 9223372036854775807\n", 0},
    };
    cr_judge_settings settings = {CR_TESTLIB, CR_DIFF, CR_CHECK_MOVES_REQUIRED, {0}, 0};
    build("solution", CR_JUDGE_SOLUTION, &settings);
    build("greedy", CR_JUDGE_GREEDY, &settings);
    build("brute_force", CR_JUDGE_BRUTE_FORCE, &settings);
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        run_result reference, brute, greedy, verdict;
        write_file("in.txt", inputs[i].input);
        assert_int_equal(run_program(&reference, "solution", inputs[i].input), 0);
        assert_int_equal(run_program(&brute, "brute_force", inputs[i].input), 0);
        assert_int_equal(run_program(&greedy, "greedy", inputs[i].input), 0);
        assert_string_equal(brute.out, reference.out);
        write_file("ans.txt", reference.out);
        write_file("out.txt", greedy.out);
        assert_int_equal(run_coinrow(&verdict, NULL, "check", "--variant", "diff", path_of("in.txt"), path_of("ans.txt"),
                                     path_of("ans.txt"), (char *)NULL),
                         0);
        assert_int_equal(verdict.status, 0);
        run_result_free(&verdict);
        assert_int_equal(run_coinrow(&verdict, NULL, "check", "--variant", "diff", path_of("in.txt"), path_of("out.txt"),
                                     path_of("ans.txt"), (char *)NULL),
                         0);
        if (verdict.status != (inputs[i].greedy_wrong ? 1 : 0))
            fail_msg("%s: greedy's %s judged %d (%s)", inputs[i].input, greedy.out, verdict.status, verdict.err);
        run_result_free(&verdict);
        run_result_free(&reference), run_result_free(&brute), run_result_free(&greedy);
    }
}

/* Kattis refuses a submission over 128 KiB (problemtools' default code
 * limit): the exported ones are held to what contestants are. */
/* The reference solution and the brute force print the same answer and
 * the same canonical line under every variant: here on a row whose fast
 * line (RRLLL) is not the canonical one (LLRRL) in the standard game. */
static void test_export__the_solution_and_the_brute_force_agree_under_every_variant(void **state)
{
    (void)state;
    static const char *const inputs[] = {"5\n3 5 1 2 4\n", "4\n8 15 3 7\n", "3\n-4 0 -4\n"};
    for (int v = 0; v < CR_VARIANT_COUNT; v++) {
        cr_judge_settings settings = {CR_TESTLIB, (cr_variant)v, CR_CHECK_MOVES_REQUIRED, {0}, 0};
        build("solution", CR_JUDGE_SOLUTION, &settings);
        build("brute_force", CR_JUDGE_BRUTE_FORCE, &settings);
        for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
            run_result reference, brute;
            assert_int_equal(run_program(&reference, "solution", inputs[i]), 0);
            assert_int_equal(run_program(&brute, "brute_force", inputs[i]), 0);
            if (strcmp(reference.out, brute.out) != 0)
                fail_msg("%s on %s: the solution says %s, the brute force %s", cr_variant_name((cr_variant)v),
                         inputs[i], reference.out, brute.out);
            if (i == 0 && v != CR_REMAINING) /* the standard game's line; remaining plays its own */
                assert_non_null(strstr(reference.out, "\nLLRRL\n"));
            run_result_free(&reference), run_result_free(&brute);
        }
    }
}

static void test_export__every_submission_fits_a_contestant_s_code_limit(void **state)
{
    (void)state;
    static const cr_judge_program submissions[] = {CR_JUDGE_SOLUTION, CR_JUDGE_GREEDY, CR_JUDGE_BRUTE_FORCE};
    for (size_t k = 0; k < sizeof submissions / sizeof submissions[0]; k++) {
        cr_judge_settings settings = {CR_KATTIS, CR_DIFF, CR_CHECK_MOVES_REQUIRED, {0}, 0};
        FILE *f = fopen(path_of("submission.c"), "w");
        assert_non_null(f);
        cr_error err = {0};
        assert_int_equal(cr_judge_program_write(f, submissions[k], &settings, &err), 0);
        long size = ftell(f);
        fclose(f);
        if (size > 128 * 1024)
            fail_msg("%s is %ld bytes, over 128 KiB", cr_judge_program_file(submissions[k]), size);
    }
}

static void test_export__a_validator_for_cms_is_refused(void **state)
{
    (void)state;
    cr_judge_settings settings = {CR_CMS, CR_TOTAL, CR_CHECK_MOVES_REQUIRED, {1, 10, 1, 10, 0, 0}, 0};
    cr_error err = {0};
    FILE *f = fopen(path_of("cms-validator.c"), "w");
    assert_non_null(f);
    assert_int_equal(cr_judge_program_write(f, CR_JUDGE_VALIDATOR, &settings, &err), CR_EINVAL);
    fclose(f);
    assert_string_equal(err.msg, "no validator.c for the cms convention");
}

static void test_export__bad_settings_and_a_stream_that_cannot_be_written_are_errors(void **state)
{
    (void)state;
    cr_judge_settings settings = {CR_KATTIS, CR_TOTAL, CR_CHECK_MOVES_REQUIRED, {0}, 0};
    cr_error err = {0};
    FILE *f = fopen("/dev/null", "r"); /* every write to it fails */
    assert_non_null(f);
    assert_int_equal(cr_judge_program_write(f, CR_JUDGE_PROGRAM_COUNT, &settings, &err), CR_EINVAL);
    assert_non_null(strstr(err.msg, "no such judge program"));
    settings.variant = (cr_variant)99;
    assert_int_equal(cr_judge_program_write(f, CR_JUDGE_CHECKER, &settings, &err), CR_EINVAL);
    assert_non_null(strstr(err.msg, "bad variant or moves setting"));
    settings.variant = CR_TOTAL;
    assert_int_equal(cr_judge_program_write(f, CR_JUDGE_CHECKER, &settings, &err), CR_EIO);
    assert_non_null(strstr(err.msg, "cannot write "));
    fclose(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generate__same_arguments_give_the_same_bytes_and_another_seed_others),
        cmocka_unit_test(test_generate__out_file_holds_what_standard_output_gets),
        cmocka_unit_test(test_generate__out_writes_through_a_link_and_refuses_a_fifo),
        cmocka_unit_test(test_generate__constraints_no_instance_meets_are_a_usage_error),
        cmocka_unit_test(test_generate__a_seed_and_sizes_at_their_limits),
        cmocka_unit_test(test_generate__a_file_that_cannot_be_written_whole_is_removed),
        cmocka_unit_test(test_validate__exit_statuses_and_messages_follow_the_convention),
        cmocka_unit_test(test_validate__accepts_exactly_the_inputs_an_answer_can_be_given_for),
        cmocka_unit_test(test_check__every_convention_reports_every_verdict),
        cmocka_unit_test(test_check__a_judge_error_shows_a_hostile_path_escaped),
        cmocka_unit_test(test_check__a_bad_command_line_is_a_failure_not_a_verdict),
        cmocka_unit_test(test_check__arguments_after_the_three_files_are_ignored_except_under_cms),
        cmocka_unit_test(test_check__an_input_that_does_not_parse_is_a_judge_error),
        cmocka_unit_test(test_check__a_feedback_folder_that_cannot_be_written_is_a_judge_error),
        cmocka_unit_test(test_export__checkers_build_alone_and_judge_like_coinrow_check),
        cmocka_unit_test(test_export__validators_build_alone_and_validate_like_coinrow_validate),
        cmocka_unit_test(test_export__an_interactive_validator_takes_the_seed_line),
        cmocka_unit_test(test_export__submissions_build_alone_and_earn_their_verdicts),
        cmocka_unit_test(test_export__the_solution_and_the_brute_force_agree_under_every_variant),
        cmocka_unit_test(test_export__every_submission_fits_a_contestant_s_code_limit),
        cmocka_unit_test(test_export__a_validator_for_cms_is_refused),
        cmocka_unit_test(test_export__bad_settings_and_a_stream_that_cannot_be_written_are_errors),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}

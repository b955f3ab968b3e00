/* End-to-end tests of judge test data in the database: generate --db and
 * what it stores, and export: the exact layout of every format, the zip,
 * the exported validator and checker built with cc alone and run on every
 * exported file, which run the answers come from, and every refusal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "export/export.h"
#include "support/cc.h"
#include "support/core_check.h"
#include "support/files.h"
#include "support/run.h"

#define GENERATE(db, seed)                                                                                       \
    "generate", "--db", db, "--set", "demo", "--count", "12", "--n", "4..9", "--values", "-5..20", "--seed", seed

/* Stores set demo of GENERATE(db, seed). */
static void generate_quietly(const char *db, const char *seed)
{
    run_result r;
    COINROW(&r, NULL, GENERATE(db, seed), "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
}

/* Every instance of the database at db as "id=[coins]", in id order. */
static char *instances(const char *db)
{
    char *text = db_text(db, "SELECT group_concat(ext_id || '=' || coins, ';') FROM "
                             "(SELECT ext_id, coins FROM instance ORDER BY id)");
    assert_non_null(text);
    return text;
}

/* The rows of generate's CSV written the way instances() writes them. */
static char *csv_as_instances(const char *csv)
{
    size_t cap = 2 * strlen(csv) + 64, len = 0;
    char *out = calloc(1, cap);
    const char *line = strchr(csv, '\n') + 1; /* after the header */
    for (const char *end; (end = strchr(line, '\n')) != NULL; line = end + 1) {
        const char *comma = strchr(line, ',');
        len += (size_t)snprintf(out + len, cap - len, "%s%.*s=[", len ? ";" : "", (int)(comma - line), line);
        for (const char *p = comma + 1; p < end; p++)
            out[len++] = *p == ' ' ? ',' : *p;
        out[len++] = ']';
    }
    return out;
}

static void test_generate__the_database_holds_the_csv_s_instances_and_a_seed_makes_them(void **state)
{
    tmp_db *f = *state;
    const char *same = tmp_path(f->dir, "same.db"), *other = tmp_path(f->dir, "other.db");
    run_result r;
    COINROW(&r, NULL, GENERATE(f->db, "7"), "--quiet");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "");
    assert_string_equal(r.err, "");
    run_result_free(&r);
    COINROW(&r, NULL, GENERATE(same, "7"), "--quiet");
    run_result_free(&r);
    COINROW(&r, NULL, GENERATE(other, "8"), "--quiet");
    run_result_free(&r);
    COINROW(&r, NULL, "generate", "--set", "demo", "--count", "12", "--n", "4..9", "--values", "-5..20", "--seed",
            "7", "--out", "-");
    assert_int_equal(r.status, 0);

    char *stored = instances(f->db), *again = instances(same), *seed8 = instances(other), *csv = csv_as_instances(r.out);
    assert_string_equal(stored, csv);
    assert_string_equal(stored, again);
    assert_string_not_equal(stored, seed8);
    assert_memory_equal(stored, "01=[1,19,-3,1];02=[", 19); /* pinned, as the CSV is in test_cli_judge */
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM instance"), 12);
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM instance WHERE n NOT BETWEEN 4 AND 9"), 0);
    free(stored), free(again), free(seed8), free(csv);
    run_result_free(&r);
}

static void test_generate__the_arguments_are_stored_with_the_set_and_shown(void **state)
{
    tmp_db *f = *state;
    run_result r;
    COINROW(&r, NULL, GENERATE(f->db, "7"), "--profile", "antigreedy", "--odd-sum");
    assert_int_equal(r.status, 0);
    char summary[4200];
    snprintf(summary, sizeof summary, "ingested 12, skipped 0, rejected 0, set 'demo' in %s, ", f->db);
    assert_memory_equal(r.out, summary, strlen(summary));
    run_result_free(&r);
    char *generator = db_text(f->db, "SELECT generator FROM instance_set WHERE name = 'demo'");
    char *source = db_text(f->db, "SELECT source FROM instance_set WHERE name = 'demo'");
    assert_string_equal(generator, "{\"count\":12,\"n_min\":4,\"n_max\":9,\"value_min\":-5,\"value_max\":20,"
                                   "\"even_n\":false,\"odd_sum\":true,\"profile\":\"antigreedy\",\"seed\":7}");
    assert_string_equal(source, "coinrow generate --set demo --count 12 --n 4..9 --values -5..20 --seed 7 "
                                "--profile antigreedy --odd-sum");
    free(generator), free(source);
    /* SQL reads them too */
    assert_int_equal(db_int(f->db, "SELECT json_extract(generator, '$.seed') FROM instance_set"), 7);
    /* and show shows them with a run's results */
    COINROW(&r, NULL, "solve", "--db", f->db, "--variant", "total", "--quiet");
    run_result_free(&r);
    COINROW(&r, NULL, "show", "--db", f->db, "--limit", "1");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\nset 'demo' was generated by: coinrow generate --set demo --count 12 --n 4..9 "
                                  "--values -5..20 --seed 7 --profile antigreedy --odd-sum\next_id "));
    run_result_free(&r);
}

static void test_generate__the_same_command_again_changes_nothing_and_completes_a_cut_set(void **state)
{
    tmp_db *f = *state;
    run_result r;
    generate_quietly(f->db, "7");
    char *before = instances(f->db);
    COINROW(&r, NULL, GENERATE(f->db, "7"));
    assert_int_equal(r.status, 0);
    assert_memory_equal(r.out, "ingested 0, skipped 12, rejected 0, set 'demo'", 45);
    run_result_free(&r);
    char *after = instances(f->db);
    assert_string_equal(after, before);
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM instance_set"), 1);
    free(after);

    /* as if it had been interrupted: the same command adds what is missing */
    assert_int_equal(db_exec(f->db, "DELETE FROM instance WHERE id > 9"), 0);
    COINROW(&r, NULL, GENERATE(f->db, "7"));
    assert_int_equal(r.status, 0);
    assert_memory_equal(r.out, "ingested 3, skipped 9, rejected 0, set 'demo'", 45);
    run_result_free(&r);
    after = instances(f->db);
    assert_string_equal(after, before);
    free(after), free(before);
}

static void test_generate__a_name_taken_by_other_arguments_or_an_ingest_is_refused(void **state)
{
    tmp_db *f = *state;
    run_result r;
    generate_quietly(f->db, "7");
    char *before = instances(f->db);
    COINROW(&r, NULL, GENERATE(f->db, "8"), "--quiet");
    assert_int_equal(r.status, 1);
    char message[4400];
    snprintf(message, sizeof message,
             "coinrow: %s: set 'demo' was generated with other arguments: coinrow generate --set demo --count 12 "
             "--n 4..9 --values -5..20 --seed 7 --profile random\n",
             f->db);
    assert_string_equal(r.err, message);
    run_result_free(&r);
    char *after = instances(f->db);
    assert_string_equal(after, before);
    free(after), free(before);

    COINROW(&r, "id,values\na,1 2\n", "ingest", "-", "--db", f->db, "--set", "mine", "--quiet");
    run_result_free(&r);
    COINROW(&r, NULL, "generate", "--db", f->db, "--set", "mine", "--count", "1", "--n", "2", "--values", "1..9",
            "--seed", "1");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "set 'mine' was not generated (its instances come from -); generate into another "
                                  "set name\n"));
    run_result_free(&r);
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM instance WHERE set_id = (SELECT id FROM instance_set "
                                   "WHERE name = 'mine')"),
                     1);
}

static void test_generate__an_interrupted_set_is_completed_by_the_same_command(void **state)
{
    tmp_db *f = *state;
    const char *whole = tmp_path(f->dir, "whole.db");
    char *argv[] = {(char *)run_bin(), "generate", "--db", f->db, "--set", "big", "--count", "400000", "--n", "2",
                    "--values", "1..99", "--seed", "5", "--progress", NULL};
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
             "400000 --n 2..2 --values 1..99 --seed 5 --profile random --db %s\n",
             f->db);
    assert_non_null(strstr(text, finish));
    free(text);
    assert_true(db_int(f->db, "SELECT count(*) FROM instance") < 400000);

    run_result r;
    assert_int_equal(run_capture(&r, argv, NULL), 0);
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    argv[3] = (char *)whole;
    assert_int_equal(run_capture(&r, argv, NULL), 0);
    run_result_free(&r);
    const char *digest = "SELECT count(*) || ' ' || sum(total) || ' ' || sum(length(coins) * CAST(ext_id AS INTEGER)) "
                         "FROM instance";
    char *completed = db_text(f->db, digest), *fresh = db_text(whole, digest);
    assert_string_equal(completed, fresh);
    free(completed), free(fresh);
    /* still in the generator's order */
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM (SELECT ext_id, lag(ext_id) OVER (ORDER BY id) AS prev "
                                   "FROM instance) WHERE prev > ext_id"),
                     0);
}

static void test_generate__a_generated_set_is_an_ordinary_set(void **state)
{
    tmp_db *f = *state;
    run_result r;
    generate_quietly(f->db, "7");
    COINROW(&r, NULL, "solve", "--db", f->db, "--set", "demo", "--moves", "canonical", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    assert_int_equal(check_run_against_core(f->db, 1, NULL), 12 * 4);
}

/* ---- export ------------------------------------------------------------ */

#define EXPORT(db, ...) "export", "--db", db, "--set", "demo", __VA_ARGS__

/* Runs `sh -c cmd`, expects exit 0 and returns its standard output. */
static char *sh(const char *cmd)
{
    char *argv[] = {"sh", "-c", (char *)cmd, NULL};
    run_result r;
    assert_int_equal(run_capture(&r, argv, NULL), 0);
    if (r.status != 0)
        fail_msg("%s: status %d\n%s", cmd, r.status, r.err);
    free(r.err);
    return r.out;
}

/* Every folder ("name/") and file below dir, one a line, in byte order. */
static char *tree(const char *dir)
{
    char cmd[4300];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && find . -mindepth 1 \\( -type d -printf '%%P/\\n' \\) -o -printf '%%P\\n' | LC_ALL=C sort", dir);
    return sh(cmd);
}

/* Appends printf's text to the array buf. */
#define APPEND(buf, ...) snprintf((buf) + strlen(buf), sizeof(buf) - strlen(buf), __VA_ARGS__)

static int by_bytes(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Sorts the lines of text in place, in byte order (as tree() lists). */
static void sort_lines(char *text)
{
    char *lines[1024], *copy = strdup(text);
    size_t count = 0;
    for (char *line = strtok(copy, "\n"); line && count < 1024; line = strtok(NULL, "\n"))
        lines[count++] = line;
    qsort(lines, count, sizeof lines[0], by_bytes);
    text[0] = '\0';
    for (size_t i = 0; i < count; i++)
        text = strcat(strcat(text, lines[i]), "\n");
    free(copy);
}

/* Every file of the package but the PDF statement and a built checker is
 * text as judges want it: no BOM, no CR, a final LF. */
static void assert_text_files(const char *dir)
{
    char cmd[4300];
    snprintf(cmd, sizeof cmd, "cd '%s' && find . -type f ! -name '*.pdf' ! -path ./check/checker | LC_ALL=C sort",
             dir);
    char *files = sh(cmd);
    for (char *name = strtok(files, "\n"); name; name = strtok(NULL, "\n")) {
        char *text = read_text(tmp_path(dir, name));
        size_t len = strlen(text);
        if (len == 0 || text[len - 1] != '\n' || strchr(text, '\r') || (unsigned char)text[0] == 0xEF)
            fail_msg("%s is not LF text ending in a newline", name);
        free(text);
    }
    free(files);
}

/* The package at pkg holds exactly the folders and files listed in layout
 * (sorted here), every one of them text as judges want it. */
static void assert_package(const char *pkg, char *layout)
{
    sort_lines(layout);
    char *found = tree(pkg);
    assert_string_equal(found, layout);
    free(found);
    assert_text_files(pkg);
}

/* The zip holds exactly the folder: the same entries, the same bytes. */
static void assert_zip_matches(const char *zip, const char *dir, const char *scratch)
{
    char cmd[13000];
    char *entries, *folder = tree(dir);
    snprintf(cmd, sizeof cmd, "unzip -tq '%s' >/dev/null && unzip -Z1 '%s' | LC_ALL=C sort", zip, zip);
    entries = sh(cmd);
    assert_string_equal(entries, folder);
    snprintf(cmd, sizeof cmd, "unzip -q '%s' -d '%s' && diff -r '%s' '%s' && python3 -m zipfile -t '%s' >/dev/null",
             zip, scratch, dir, scratch, zip);
    free(sh(cmd));
    free(entries), free(folder);
}

static void generate_demo(const char *db, const char *count)
{
    run_result r;
    COINROW(&r, NULL, "generate", "--db", db, "--set", "demo", "--count", count, "--n", "4..9", "--values", "-5..20",
            "--seed", "7", "--even-n", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
}

static void test_export__kattis_layout_zip_and_its_programs_accept_every_test(void **state)
{
    tmp_db *f = *state;
    generate_demo(f->db, "12");
    char pkg[4200], zip[4300], expected[4096] = "data/\ndata/sample/\ndata/secret/\n";
    snprintf(pkg, sizeof pkg, "%s", tmp_path(f->dir, "coins"));
    snprintf(zip, sizeof zip, "%s.zip", pkg);
    run_result r;
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "diff", "--format", "kattis", "--out", pkg, "--moves", "canonical",
                             "--samples", "2", "--zip"));
    assert_int_equal(r.status, 0);
    char line[8600];
    snprintf(line, sizeof line, "solved 12, failed 0, set 'demo', run 1 in %s, ", f->db); /* the new run's summary */
    assert_memory_equal(r.out, line, strlen(line));
    snprintf(line, sizeof line, "\nexported 12 tests (2 samples) of set 'demo' to %s, zipped too, time limit 1.000 s\n",
             pkg);
    assert_string_equal(strchr(r.out, '\n'), line);
    assert_non_null(strstr(r.err, "coinrow: problem.yaml says license: unknown (verifyproblem warns): give --license "
                                  "and --rights-owner\n"));
    assert_non_null(strstr(r.err, "coinrow: no done run of set 'demo' has the diff answers with canonical lines "
                                  "for every instance: solving it first\n"));
    assert_non_null(strstr(r.err, "coinrow: the diff answers and lines come from run 1 (done; algo auto, moves "
                                  "canonical, coinrow "));
    run_result_free(&r);

    for (int k = 1; k <= 12; k++)
        APPEND(expected, "data/%s/%02d.ans\ndata/%s/%02d.in\n", k <= 2 ? "sample" : "secret", k,
               k <= 2 ? "sample" : "secret", k);
    APPEND(expected, ".timelimit\ninput_validators/\ninput_validators/validator/\n"
                     "input_validators/validator/validator.c\noutput_validators/\noutput_validators/checker/\n"
                     "output_validators/checker/checker.c\nproblem.yaml\nproblem_statement/\n"
                     "problem_statement/problem.en.tex\nsubmissions/\nsubmissions/accepted/\n"
                     "submissions/accepted/reference.c\nsubmissions/wrong_answer/\n"
                     "submissions/wrong_answer/greedy.c\n");
    assert_package(pkg, expected);
    char *yaml = read_text(tmp_path(pkg, "problem.yaml"));
    assert_memory_equal(yaml, "# written by coinrow export: the diff value and the line of play, answers of run 1 of "
                              "set \"demo\"\nname: \"demo\"\nuuid: ", 111);
    assert_string_equal(strstr(yaml, "\nlicense:"), "\nlicense: unknown\nvalidation: custom\n"
                        "# Kattis sets the time limit to the slowest accepted submission's time times\n"
                        "# time_multiplier; .timelimit holds the one coinrow set (DOMjudge reads it).\n"
                        "limits:\n  time_multiplier: 3\n  memory: 256\n");
    free(yaml);
    char *timelimit = read_text(tmp_path(pkg, ".timelimit"));
    assert_string_equal(timelimit, "1\n");
    free(timelimit);
    assert_zip_matches(zip, pkg, tmp_path(f->dir, "unzipped"));

    char validator[4300], checker[4300], in[4300], ans[4300], feedback[4300];
    snprintf(validator, sizeof validator, "%s", tmp_path(f->dir, "validator"));
    snprintf(checker, sizeof checker, "%s", tmp_path(f->dir, "checker"));
    snprintf(feedback, sizeof feedback, "%s/", f->dir);
    cc_build(validator, tmp_path(pkg, "input_validators/validator/validator.c"));
    cc_build(checker, tmp_path(pkg, "output_validators/checker/checker.c"));
    for (int k = 1; k <= 12; k++) {
        char name[64];
        snprintf(name, sizeof name, "data/%s/%02d.in", k <= 2 ? "sample" : "secret", k);
        snprintf(in, sizeof in, "%s", tmp_path(pkg, name));
        snprintf(name, sizeof name, "data/%s/%02d.ans", k <= 2 ? "sample" : "secret", k);
        snprintf(ans, sizeof ans, "%s", tmp_path(pkg, name));
        char *run_validator[] = {validator, NULL};
        char *run_validate[] = {(char *)run_bin(), "validate", "--kattis", "--n", "4..9", "--values", "-5..20",
                                "--even-n", in, NULL};
        char *run_checker[] = {checker, in, ans, feedback, NULL};
        assert_int_equal(run_status(run_validator, in), 42);
        assert_int_equal(run_status(run_validate, NULL), 42);
        assert_int_equal(run_status(run_checker, ans), 42); /* the jury's answer as a contestant's */
    }
    /* the checker does check: a wrong value is rejected */
    assert_int_equal(write_file(tmp_path(f->dir, "wrong.txt"), "999\nLLLL\n"), 0);
    char *run_checker[] = {checker, in, ans, feedback, NULL};
    assert_int_equal(run_status(run_checker, tmp_path(f->dir, "wrong.txt")), 43);
    /* the validator checks what the generator promised: an odd n */
    assert_int_equal(write_file(tmp_path(f->dir, "odd.in"), "5\n1 2 3 4 5\n"), 0);
    char *run_validator[] = {validator, NULL};
    assert_int_equal(run_status(run_validator, tmp_path(f->dir, "odd.in")), 43);
}

/* Without samples there is no data/sample: problemtools warns of an
 * empty one ("exists, but does not contain any testcases"). */
static void test_export__kattis_without_samples_has_no_sample_folder(void **state)
{
    tmp_db *f = *state;
    generate_demo(f->db, "3");
    const char *pkg = tmp_path(f->dir, "nosamples");
    run_result r;
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "total", "--format", "kattis", "--out", pkg, "--samples", "0"));
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    char *layout = tree(pkg);
    assert_non_null(strstr(layout, "\ndata/\ndata/secret/\ndata/secret/01.ans\n"));
    assert_null(strstr(layout, "sample"));
    free(layout);
}

static void test_export__polygon_layout_patterns_and_testlib_programs(void **state)
{
    tmp_db *f = *state;
    generate_demo(f->db, "12");
    char pkg[4200], expected[4096] = "files/\nfiles/check.cpp\nfiles/testlib-LICENSE.txt\nfiles/testlib.h\n"
                                     "files/val.cpp\nproblem.xml\nsolutions/\nsolutions/greedy.c\n"
                                     "solutions/reference.c\nstatements/\nstatements/.pdf/\n"
                                     "statements/.pdf/english/\nstatements/.pdf/english/problem.pdf\n"
                                     "statements/english/\nstatements/english/problem.tex\ntests/\n";
    snprintf(pkg, sizeof pkg, "%s", tmp_path(f->dir, "coins-total"));
    run_result r;
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "total", "--format", "polygon", "--out", pkg, "--title", "Coins & co"));
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    for (int k = 1; k <= 12; k++)
        APPEND(expected, "tests/%02d\ntests/%02d.a\n", k, k);
    assert_package(pkg, expected);
    char *xml = read_text(tmp_path(pkg, "problem.xml"));
    assert_non_null(strstr(xml, "<problem revision=\"1\" short-name=\"coins-total\">"));
    assert_non_null(strstr(xml, "<name language=\"english\" value=\"Coins &amp; co\"/>"));
    assert_non_null(strstr(xml, "<test-count>12</test-count>"));
    assert_non_null(strstr(xml, "<input-path-pattern>tests/%02d</input-path-pattern>"));
    assert_non_null(strstr(xml, "<answer-path-pattern>tests/%02d.a</answer-path-pattern>"));
    assert_non_null(strstr(xml, "<tests>\n                <test method=\"manual\" sample=\"true\"/>\n"
                                "                <test method=\"manual\"/>\n"));
    assert_null(strstr(strstr(xml, "sample=") + 1, "sample="));
    assert_non_null(strstr(xml, "<checker name=\"check.cpp\" type=\"testlib\">\n            <source "
                                "path=\"files/check.cpp\" type=\"cpp.g++17\"/>"));
    assert_non_null(strstr(xml, "<source path=\"files/val.cpp\" type=\"cpp.g++17\"/>"));
    assert_non_null(strstr(xml, "<solution tag=\"main\">\n                <source path=\"solutions/reference.c\""));
    assert_non_null(strstr(xml, "<solution tag=\"wrong-answer\">"));
    assert_non_null(strstr(xml, "path=\"statements/.pdf/english/problem.pdf\" type=\"application/pdf\""));
    free(xml);
    char *answer = read_text(tmp_path(pkg, "tests/01.a"));
    char *stored = db_text(f->db, "SELECT value || char(10) FROM result_view WHERE ext_id = '01' AND variant = 'total'");
    assert_string_equal(answer, stored); /* the value alone */
    free(answer), free(stored);
    char *check = read_text(tmp_path(pkg, "files/check.cpp"));
    assert_memory_equal(check, "// check.cpp of the", 19);
    assert_non_null(strstr(check, "\n#include \"testlib.h\"\n"));
    assert_non_null(strstr(check, "registerTestlibCmd(argc, argv);"));
    free(check);
    char *testlib = read_text(tmp_path(pkg, "files/testlib.h"));
    assert_non_null(strstr(testlib, "#define VERSION \"0.9.45\""));
    free(testlib);
    char *tex = read_text(tmp_path(pkg, "statements/english/problem.tex"));
    assert_memory_equal(tex, "\\begin{problem}{Coins \\& co}{standard input}{standard output}{1 second}{256 "
                             "megabytes}\n", 82);
    assert_non_null(strstr(tex, "\\exmp{"));
    free(tex);

    /* Polygon's own names, %02d: 100 is "100" */
    const char *db100 = tmp_path(f->dir, "hundred.db");
    generate_demo(db100, "100");
    snprintf(pkg, sizeof pkg, "%s", tmp_path(f->dir, "hundred"));
    COINROW(&r, NULL, EXPORT(db100, "--variant", "total", "--format", "polygon", "--out", pkg));
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    xml = read_text(tmp_path(pkg, "problem.xml"));
    assert_non_null(strstr(xml, "<input-path-pattern>tests/%02d</input-path-pattern>"));
    free(xml);
    char *layout = tree(pkg);
    assert_non_null(strstr(layout, "\ntests/01\ntests/01.a\n"));
    assert_non_null(strstr(layout, "\ntests/99\ntests/99.a\n"));
    assert_non_null(strstr(layout, "\ntests/100\ntests/100.a\n"));
    free(layout);
}

static void test_export__cms_layout_task_yaml_and_checker(void **state)
{
    tmp_db *f = *state;
    generate_demo(f->db, "12");
    char pkg[4200], expected[4096] = "check/\ncheck/checker\ncheck/checker.c\ninput/\n";
    snprintf(pkg, sizeof pkg, "%s", tmp_path(f->dir, "coins_cms"));
    run_result r;
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "winner", "--format", "cms", "--out", pkg, "--moves", "canonical",
                             "--samples", "3"));
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    for (int k = 0; k < 12; k++)
        APPEND(expected, "input/input%d.txt\noutput/output%d.txt\n", k, k);
    APPEND(expected, "output/\nstatement/\nstatement/statement.pdf\ntask.yaml\n");
    assert_package(pkg, expected);
    char *yaml = read_text(tmp_path(pkg, "task.yaml"));
    assert_string_equal(yaml, "name: \"coins_cms\"\ntitle: \"demo\"\nprimary_language: en\nn_input: 12\n"
                              "time_limit: 1.000\nmemory_limit: 256\npublic_testcases: \"0,1,2\"\ninfile: \"\"\n"
                              "outfile: \"\"\ntoken_mode: disabled\n");
    free(yaml);
    char *pdf = read_text(tmp_path(pkg, "statement/statement.pdf"));
    assert_memory_equal(pdf, "%PDF-1.4\n", 9);
    assert_non_null(strstr(pdf, "(Print 1 when the first player ends with the larger total, -1 when the second) Tj"));
    free(pdf);

    /* the package's own built checker judges */
    char checker[4300];
    snprintf(checker, sizeof checker, "%s", tmp_path(pkg, "check/checker"));
    for (int k = 0; k < 12; k++) {
        char in[4300], ans[4300], name[32];
        snprintf(name, sizeof name, "input/input%d.txt", k);
        snprintf(in, sizeof in, "%s", tmp_path(pkg, name));
        snprintf(name, sizeof name, "output/output%d.txt", k);
        snprintf(ans, sizeof ans, "%s", tmp_path(pkg, name));
        char *argv[] = {checker, in, ans, ans, NULL};
        assert_int_equal(run_capture(&r, argv, NULL), 0);
        assert_int_equal(r.status, 0);
        assert_string_equal(r.out, "1.0\n");
        assert_string_equal(r.err, "translate:success\n");
        run_result_free(&r);
    }
}

static void test_export__plain_names_files_after_ids_and_refuses_clashes(void **state)
{
    tmp_db *f = *state;
    run_result r;
    COINROW(&r, "id,values\na b,3 1\nx/y,5\n.h,2 2 7\nok-1.2,4 6 2 3\n", "ingest", "-", "--db", f->db, "--set",
            "demo", "--quiet");
    run_result_free(&r);
    char pkg[4200];
    snprintf(pkg, sizeof pkg, "%s", tmp_path(f->dir, "plain"));
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "total", "--format", "plain", "--out", pkg, "--moves", "canonical"));
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    char layout[] = "_h.ans\n_h.in\na_b.ans\na_b.in\nok-1.2.ans\nok-1.2.in\nx_y.ans\nx_y.in\n";
    assert_package(pkg, layout);
    char *in = read_text(tmp_path(pkg, "ok-1.2.in")), *ans = read_text(tmp_path(pkg, "ok-1.2.ans"));
    assert_string_equal(in, "4\n4 6 2 3\n");
    assert_string_equal(ans, "9\nRLLL\n"); /* the canonical line: L whenever it is optimal */
    free(in), free(ans);

    COINROW(&r, NULL, EXPORT(f->db, "--variant", "total", "--format", "plain", "--out", pkg, "--samples", "1"));
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "--samples has no meaning for --format plain"));
    run_result_free(&r);

    const char *clash_db = tmp_path(f->dir, "clash.db");
    COINROW(&r, "id,values\nP q,1\nAB,2\np_Q,3\n", "ingest", "-", "--db", clash_db, "--set", "demo", "--quiet");
    run_result_free(&r);
    snprintf(pkg, sizeof pkg, "%s", tmp_path(f->dir, "clash"));
    COINROW(&r, NULL, EXPORT(clash_db, "--variant", "total", "--format", "plain", "--out", pkg));
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "coinrow: set 'demo': the ids 'P q' and 'p_Q' both become the file p_Q.in"));
    run_result_free(&r);
    char *left = tree(f->dir);
    assert_null(strstr(left, "clash/"));   /* neither the package */
    assert_null(strstr(left, "coinrow-")); /* nor its temporary folder */
    free(left);
}

/* The summary line escapes the set's name and the folder's, as every
 * message does: a name with an escape sequence reached the terminal raw,
 * and one with a line end split the line.  One test is "1 test". */
static void test_export__the_summary_escapes_the_names_it_shows(void **state)
{
    tmp_db *f = *state;
    run_result r;
    const char *set = "e\x1b[31mvil\nset";
    COINROW(&r, "id,values\na,3 1\n", "ingest", "-", "--db", f->db, "--set", set, "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    char pkg[4200], want[4400];
    snprintf(pkg, sizeof pkg, "%s", tmp_path(f->dir, "out\x1b[2J"));
    COINROW(&r, NULL, "export", "--db", f->db, "--set", set, "--variant", "total", "--format", "plain", "--out", pkg);
    assert_int_equal(r.status, 0);
    snprintf(want, sizeof want, "\nexported 1 test (0 samples) of set 'e\\x1b[31mvil\\x0aset' to %.*s\\x1b[2J\n",
             (int)(strlen(pkg) - 4), pkg);
    if (!strstr(r.out, want))
        fail_msg("export said: %s", r.out);
    run_result_free(&r);
}

/* The message quotes the start of the id and says the limit (it once read
 * the limit from the wrong argument). */
static void test_export__plain_refuses_an_id_too_long_for_a_file_name(void **state)
{
    tmp_db *f = *state;
    char csv[400] = "id,values\n", id[202];
    memset(id, 'i', sizeof id - 1);
    id[sizeof id - 1] = '\0';
    snprintf(csv + strlen(csv), sizeof csv - strlen(csv), "%s,1 2\n", id);
    run_result r;
    COINROW(&r, csv, "ingest", "-", "--db", f->db, "--set", "demo", "--quiet");
    run_result_free(&r);
    char pkg[4200];
    snprintf(pkg, sizeof pkg, "%s", tmp_path(f->dir, "plain"));
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "total", "--format", "plain", "--out", pkg));
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "coinrow: set 'demo': instance id 'iiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiii...' is "
                                  "longer than 200 bytes, too long for a file name\n"));
    run_result_free(&r);
}

static void test_export__answers_come_from_a_done_run_of_the_variant_else_a_new_one(void **state)
{
    tmp_db *f = *state;
    generate_demo(f->db, "12");
    run_result r;
    char pkg[4200];
    snprintf(pkg, sizeof pkg, "%s", tmp_path(f->dir, "p"));
    COINROW(&r, NULL, "solve", "--db", f->db, "--variant", "total,diff", "--quiet"); /* run 1: done, fast lines */
    run_result_free(&r);
    COINROW(&r, NULL, "solve", "--db", f->db, "--variant", "diff", "--quiet"); /* run 2: made unfinished */
    run_result_free(&r);
    assert_int_equal(db_exec(f->db, "UPDATE run SET status = 'interrupted' WHERE id = 2; "
                                    "UPDATE result SET value = value + 1 WHERE run_id = 2"),
                     0);

    /* the latest done run with the variant, not the newer unfinished one */
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "diff", "--format", "polygon", "--out", pkg));
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.err, "coinrow: the diff answers come from run 1 (done; algo auto, moves fast, "));
    assert_null(strstr(r.err, "solving"));
    run_result_free(&r);
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM run"), 2);
    char *answer = read_text(tmp_path(pkg, "tests/05.a"));
    char *stored = db_text(f->db, "SELECT value || char(10) FROM result_view WHERE run_id = 1 AND ext_id = '05' "
                                  "AND variant = 'diff'");
    assert_string_equal(answer, stored);
    free(answer), free(stored);

    /* no run has the variant: a new run, stored like any, of that variant only */
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "remaining", "--format", "polygon", "--out", pkg, "--force"));
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.err, "coinrow: the remaining answers come from run 3 (done; algo auto, moves none, "));
    run_result_free(&r);
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM run WHERE id = 3 AND status = 'done' AND variants = "
                                   "'remaining' AND moves_policy = 'none' AND label = 'coinrow export'"),
                     1);
    assert_int_equal(check_run_against_core(f->db, 3, NULL), 12);

    /* lines wanted: only a canonical run will do */
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "total", "--format", "polygon", "--out", pkg, "--force", "--moves",
                             "canonical"));
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.err, "coinrow: the total answers and lines come from run 4 (done; algo auto, moves "
                                  "canonical, "));
    run_result_free(&r);
    assert_int_equal(check_run_against_core(f->db, 4, NULL), 12);

    /* a run that has not seen every instance of the set does not do */
    COINROW(&r, "id,values\nlate,4 1 2 9\n", "ingest", "-", "--db", f->db, "--set", "demo", "--quiet");
    run_result_free(&r);
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "total", "--format", "plain", "--out", pkg, "--force"));
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.err, "solving it first"));
    assert_non_null(strstr(r.err, "come from run 5 "));
    run_result_free(&r);
    answer = read_text(tmp_path(pkg, "late.ans"));
    assert_string_equal(answer, "11\n");
    free(answer);
}

/* --help lists the formats from export's table, each with what its package
 * holds: a format added there is in the help, the man page and the
 * completion (coinrow-doc reads the same option) without an edit here. */
static void test_export__help_lists_every_format_of_the_table(void **state)
{
    (void)state;
    run_result r;
    COINROW(&r, NULL, "export", "--help");
    assert_int_equal(r.status, 0);
    const cr_export_format *format;
    size_t k = 0;
    for (; (format = cr_export_format_at(k)) != NULL; k++) {
        char line[1024];
        snprintf(line, sizeof line, "\n  %-22s %s\n", cr_export_format_name(format), cr_export_format_summary(format));
        if (!strstr(r.out, line))
            fail_msg("export --help lacks the line of format %s:\n%s", cr_export_format_name(format), r.out);
    }
    assert_true(k >= 4);
    assert_non_null(strstr(r.out, "FMT (--format) is one of:\n"));
    run_result_free(&r);
}

/* A program that embeds export gets the refusals the command gives: an
 * option a format has no use for is refused by cr_export_opts_check. */
static void test_export__the_library_refuses_an_option_its_format_lacks(void **state)
{
    (void)state;
    cr_error err = {0};
    cr_export_opts o = {.samples = 1};
    assert_int_equal(cr_export_format_parse(&o.format, "plain", &err), 0);
    assert_int_equal(cr_export_opts_check(&o, &err), CR_EINVAL);
    assert_string_equal(err.msg, "--samples has no meaning for --format plain, whose packages hold no samples (it "
                                 "is for --format kattis, polygon or cms)");
    o.samples = 0;
    assert_int_equal(cr_export_opts_check(&o, &err), 0);
    o = (cr_export_opts){.samples = 1, .license = "cc0", .rights_owner = "me"};
    assert_int_equal(cr_export_format_parse(&o.format, "cms", &err), 0);
    assert_int_equal(cr_export_opts_check(&o, &err), CR_EINVAL);
    assert_string_equal(err.msg, "--license has no meaning for --format cms, whose packages hold no licence (it is "
                                 "for --format kattis)");
    assert_int_equal(cr_export_format_parse(&o.format, "kattis", &err), 0);
    assert_int_equal(cr_export_opts_check(&o, &err), 0);
}

/* A zip that cannot go in place (a folder of that name) leaves the
 * previous package as it was, folder and zip, and no temporary folder
 * beside it: refused before the package is made. */
static void test_export__a_zip_that_cannot_go_in_place_leaves_the_previous_package(void **state)
{
    tmp_db *f = *state;
    generate_demo(f->db, "4");
    char pkg[4200], zip[4300];
    snprintf(pkg, sizeof pkg, "%s", tmp_path(f->dir, "coins"));
    snprintf(zip, sizeof zip, "%s.zip", pkg);
    run_result r;
    /* the diff answers solved first, so that the database stays as it is */
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "diff", "--format", "plain", "--out", tmp_path(f->dir, "first")));
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "total", "--format", "plain", "--out", pkg));
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    assert_int_equal(mkdir(zip, 0755), 0); /* a zip cannot replace a folder that holds a file */
    assert_int_equal(write_file(tmp_path(zip, "keep"), "mine\n"), 0);
    char *before = dir_snapshot(f->dir);
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "diff", "--format", "plain", "--out", pkg, "--zip", "--force"));
    assert_int_equal(r.status, 1);
    char says[8600];
    snprintf(says, sizeof says, "coinrow: cannot write %s: it is a folder, not a file", zip);
    if (!strstr(r.err, says) || strstr(r.err, "kept as"))
        fail_msg("said: %s", r.err);
    run_result_free(&r);
    char *after = dir_snapshot(f->dir);
    assert_string_equal(after, before);
    free(before);
    free(after);
}

static void test_export__refusals_name_what_and_leave_everything_as_it_was(void **state)
{
    tmp_db *f = *state;
    generate_demo(f->db, "12");
    char pkg[4200], zip[4300], line[8600];
    snprintf(pkg, sizeof pkg, "%s", tmp_path(f->dir, "pkg"));
    snprintf(zip, sizeof zip, "%s.zip", pkg);
    assert_int_equal(mkdir(pkg, 0755), 0);
    assert_int_equal(write_file(tmp_path(pkg, "mine.txt"), "keep\n"), 0);
    run_result r;

    /* a non-empty folder, before anything is solved */
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "diff", "--format", "kattis", "--out", pkg));
    assert_int_equal(r.status, 1);
    snprintf(line, sizeof line, "coinrow: %s is not empty (--force replaces it)\n", pkg);
    assert_string_equal(r.err, line);
    run_result_free(&r);
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM run"), 0);

    /* an unknown set, a short name Kattis refuses, a zip in the way, the database in the folder */
    COINROW(&r, NULL, "export", "--db", f->db, "--set", "nope", "--variant", "diff", "--format", "kattis", "--out",
            pkg);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "has no instance set 'nope' (sets: demo)\n"));
    run_result_free(&r);
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "diff", "--format", "kattis", "--out", tmp_path(f->dir, "Coins_1")));
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "coinrow: the folder name 'Coins_1' is the problem's short name, so it may hold "
                                  "only lowercase letters and digits (Kattis, DOMjudge)\n"));
    run_result_free(&r);
    assert_int_equal(write_file(zip, "not mine to replace\n"), 0);
    assert_int_equal(write_file(tmp_path(f->dir, "empty.zip"), "x\n"), 0);
    assert_int_equal(mkdir(tmp_path(f->dir, "empty"), 0755), 0);
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "diff", "--format", "kattis", "--out", tmp_path(f->dir, "empty"),
                             "--zip"));
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "empty.zip exists (--force replaces it)\n"));
    run_result_free(&r);
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "diff", "--format", "plain", "--out", f->dir, "--force"));
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "t.db: it cannot be replaced\n"));
    run_result_free(&r);
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "diff", "--format", "pdf", "--out", pkg));
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "unknown format 'pdf' (kattis, polygon, cms or plain)"));
    run_result_free(&r);
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "diff", "--format", "cms", "--out", pkg, "--samples", "12"));
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "coinrow: set 'demo' has 12 instances: 12 samples would leave no secret test\n"));
    run_result_free(&r);
    const char *many = tmp_path(f->dir, "many.db");
    COINROW(&r, NULL, "generate", "--db", many, "--set", "demo", "--count", "32766", "--n", "1", "--values", "1..9",
            "--seed", "1", "--quiet");
    run_result_free(&r);
    COINROW(&r, NULL, EXPORT(many, "--variant", "diff", "--format", "cms", "--out", pkg, "--zip", "--force"));
    assert_int_equal(r.status, 1);
    assert_string_equal(r.err, "coinrow: --zip: a package of 32766 tests holds 65546 files and folders, more than "
                               "the 65535 a zip without ZIP64 holds\n");
    run_result_free(&r);
    char *kept = read_text(tmp_path(pkg, "mine.txt"));
    assert_string_equal(kept, "keep\n");
    free(kept);

    /* an instance that breaks its generator's promise: the validator would reject it */
    assert_int_equal(db_exec(f->db, "UPDATE instance SET coins = '[99,1,2,3]', n = 4 WHERE ext_id = '03'"), 0);
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "diff", "--format", "kattis", "--out", pkg, "--force", "--zip"));
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "coinrow: set 'demo': instance '03' breaks the constraints of its generator: line 2, "
                                  "column 1: value 1 (99) is out of range -5..20\n"));
    run_result_free(&r);
    kept = read_text(tmp_path(pkg, "mine.txt"));
    assert_string_equal(kept, "keep\n");
    free(kept);
    kept = read_text(zip);
    assert_string_equal(kept, "not mine to replace\n");
    free(kept);

    /* --force replaces the folder and the zip whole */
    assert_int_equal(db_exec(f->db, "UPDATE instance SET coins = '[9,1,2,3]' WHERE ext_id = '03'"), 0);
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "diff", "--format", "kattis", "--out", pkg, "--force", "--zip"));
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    assert_null(read_text(tmp_path(pkg, "mine.txt")));
    assert_zip_matches(zip, pkg, tmp_path(f->dir, "unzipped"));

    /* answers that do not fit in int64 cannot be exported */
    COINROW(&r, "id,values\nfine,1 2\nhuge,9223372036854775807 9223372036854775807 1\n", "ingest", "-", "--db",
            f->db, "--set", "wide", "--quiet");
    run_result_free(&r);
    COINROW(&r, NULL, "export", "--db", f->db, "--set", "wide", "--variant", "total", "--format", "plain", "--out",
            tmp_path(f->dir, "wide"));
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "coinrow: set 'wide': 1 instance has no total answer in run 2, so it cannot be "
                                  "exported: 'huge' (the total value (9223372036854775808) and first_score "
                                  "(9223372036854775808) do not fit in int64)"));
    run_result_free(&r);
    char *left = tree(f->dir);
    assert_null(strstr(left, "wide/"));
    assert_null(strstr(left, "coinrow-"));
    free(left);
    /* its diff (1) fits though a player's total does not: that exports */
    COINROW(&r, NULL, "export", "--db", f->db, "--set", "wide", "--variant", "diff", "--format", "plain", "--out",
            tmp_path(f->dir, "wide"));
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    char *answer = read_text(tmp_path(f->dir, "wide/huge.ans"));
    assert_string_equal(answer, "1\n");
    free(answer);
}

/* --out must be the package's own folder: not a file, not ".", not a folder
 * holding the current one; and a set must have an instance to export.  Each
 * refusal names what and where and leaves the file system as it was. */
static void test_export__an_out_that_is_a_file_or_holds_the_current_folder_and_an_empty_set_are_refused(void **state)
{
    tmp_db *f = *state;
    generate_demo(f->db, "4");
    char file[4200], here[4200], line[8600];
    snprintf(file, sizeof file, "%s", tmp_path(f->dir, "afile"));
    assert_int_equal(write_file(file, "mine\n"), 0);
    run_result r;
    char slashed[4300];
    snprintf(slashed, sizeof slashed, "%s/", file);
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "diff", "--format", "kattis", "--out", slashed, "--force"));
    assert_int_equal(r.status, 1);
    snprintf(line, sizeof line, "coinrow: %s exists and is not a folder\n", file);
    assert_string_equal(r.err, line);
    run_result_free(&r);
    char *kept = read_text(file);
    assert_string_equal(kept, "mine\n");
    free(kept);

    COINROW(&r, NULL, EXPORT(f->db, "--variant", "diff", "--format", "plain", "--out", ".", "--force"));
    assert_int_equal(r.status, 1);
    assert_string_equal(r.err, "coinrow: --out '.' must name the package's own folder\n");
    run_result_free(&r);

    /* run from inside the folder --out names */
    snprintf(here, sizeof here, "%s", tmp_path(f->dir, "pkg"));
    assert_int_equal(mkdir(here, 0755), 0);
    assert_int_equal(mkdir(tmp_path(here, "inside"), 0755), 0);
    char cmd[13000];
    snprintf(cmd, sizeof cmd, "cd '%s/inside' && exec \"$0\" export --db '%s' --set demo --variant diff --format plain "
             "--out '%s' --force", here, f->db, here);
    char bin[4200], cwd[4096];
    snprintf(bin, sizeof bin, "%s%s%s", run_bin()[0] == '/' ? "" : getcwd(cwd, sizeof cwd),
             run_bin()[0] == '/' ? "" : "/", run_bin());
    char *argv[] = {"sh", "-c", cmd, bin, NULL};
    assert_int_equal(run_capture(&r, argv, NULL), 0);
    assert_int_equal(r.status, 1);
    snprintf(line, sizeof line, "coinrow: %s holds the current folder: it cannot be replaced\n", here);
    assert_string_equal(r.err, line);
    run_result_free(&r);
    assert_int_equal(access(tmp_path(here, "inside"), F_OK), 0);

    assert_int_equal(db_exec(f->db, "INSERT INTO instance_set (name) VALUES ('empty')"), 0);
    COINROW(&r, NULL, "export", "--db", f->db, "--set", "empty", "--variant", "diff", "--format", "plain", "--out",
            tmp_path(f->dir, "none"));
    assert_int_equal(r.status, 1);
    assert_string_equal(r.err, "coinrow: set 'empty' has no instances to export\n");
    run_result_free(&r);
    assert_int_equal(access(tmp_path(f->dir, "none"), F_OK), -1);
}

/* What the jury types goes into the package as each format reads it: the
 * title XML-escaped in Polygon's problem.xml, a time limit with
 * milliseconds as "2.500" in Kattis' .timelimit. */
static void test_export__a_title_is_xml_escaped_and_a_time_limit_keeps_its_milliseconds(void **state)
{
    tmp_db *f = *state;
    generate_demo(f->db, "4");
    char pkg[4200];
    snprintf(pkg, sizeof pkg, "%s", tmp_path(f->dir, "poly"));
    run_result r;
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "diff", "--format", "polygon", "--out", pkg, "--title",
                             "Tom & Jerry's <\"coins\">"));
    if (r.status != 0)
        fail_msg("polygon: %d %s", r.status, r.err);
    run_result_free(&r);
    char *xml = read_text(tmp_path(pkg, "problem.xml"));
    assert_non_null(strstr(xml, "<name language=\"english\" value=\"Tom &amp; Jerry&apos;s &lt;&quot;coins&quot;&gt;\"/>"));
    free(xml);

    snprintf(pkg, sizeof pkg, "%s", tmp_path(f->dir, "kat"));
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "diff", "--format", "kattis", "--out", pkg, "--time-limit", "2.5"));
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    char *limit = read_text(tmp_path(pkg, ".timelimit"));
    assert_string_equal(limit, "2.500\n");
    free(limit);
}

/* A set altered by hand that no longer reads back (an instance's coins, its
 * generator's arguments) is refused, naming the database and the row. */
static void test_export__a_set_that_does_not_read_back_is_refused_naming_the_row(void **state)
{
    tmp_db *f = *state;
    generate_demo(f->db, "4");
    run_result r;
    assert_int_equal(db_exec(f->db, "UPDATE instance_set SET generator = json_set(generator, '$.n_min', 'four')"), 0);
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "diff", "--format", "kattis", "--out", tmp_path(f->dir, "a")));
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "t.db: set 1: the generator's arguments cannot be read\n"));
    run_result_free(&r);
    assert_int_equal(db_exec(f->db, "UPDATE instance_set SET generator = json_set(generator, '$.n_min', 4);"
                                    "UPDATE instance SET coins = '[1,x]' WHERE ext_id = '02'"),
                     0);
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "diff", "--format", "kattis", "--out", tmp_path(f->dir, "b")));
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "t.db: instance 2 ('02'): coins: "));
    run_result_free(&r);
    assert_int_equal(access(tmp_path(f->dir, "a"), F_OK), -1);
    assert_int_equal(access(tmp_path(f->dir, "b"), F_OK), -1);
}

/* An extreme set at the full int64 range: the winner, a sign, answers every
 * instance, where the totals of most leave int64. */
static void test_export__winner_answers_a_set_at_the_full_int64_range(void **state)
{
    tmp_db *f = *state;
    run_result r;
    COINROW(&r, NULL, "generate", "--db", f->db, "--set", "demo", "--count", "20", "--n", "1..8", "--values",
            "-9223372036854775808..9223372036854775807", "--seed", "5", "--profile", "extreme", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "winner", "--format", "plain", "--out", tmp_path(f->dir, "w")));
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "exported 20 tests"));
    run_result_free(&r);
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "total", "--format", "plain", "--out", tmp_path(f->dir, "t")));
    assert_int_equal(r.status, 1); /* but their totals do not fit */
    assert_non_null(strstr(r.err, "no total answer in run"));
    run_result_free(&r);
}

/* A stored line of another instance's length (a database altered by hand)
 * is no line for this one: export refuses, writing nothing. */
static void test_export__a_line_of_the_wrong_length_is_refused(void **state)
{
    tmp_db *f = *state;
    generate_demo(f->db, "12");
    run_result r;
    COINROW(&r, NULL, "solve", "--db", f->db, "--variant", "diff", "--moves", "canonical", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    assert_int_equal(db_exec(f->db, "UPDATE solution SET moves = (SELECT s.moves FROM solution AS s JOIN instance AS i "
                                    "ON i.id = s.instance_id WHERE i.n = 4 LIMIT 1) WHERE instance_id = "
                                    "(SELECT id FROM instance WHERE n = 8 LIMIT 1)"),
                     0);
    char pkg[4200];
    snprintf(pkg, sizeof pkg, "%s", tmp_path(f->dir, "p"));
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "diff", "--format", "plain", "--out", pkg, "--moves", "canonical"));
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "has no line of play in run 1\n"));
    run_result_free(&r);
    assert_int_equal(access(pkg, F_OK), -1);
}

/* A plain package of more than 128 tests (past the first table of file
 * names) with an answer line past 4096 bytes (past the first buffer). */
static void test_export__plain_takes_many_tests_and_a_line_of_thousands_of_moves(void **state)
{
    tmp_db *f = *state;
    size_t cap = 64 * 1024, len = 0;
    char *csv = malloc(cap);
    assert_non_null(csv);
    len += (size_t)snprintf(csv + len, cap - len, "id,values\n");
    for (int i = 0; i < 130; i++)
        len += (size_t)snprintf(csv + len, cap - len, "r%03d,%d %d\n", i, i % 7, i % 5);
    len += (size_t)snprintf(csv + len, cap - len, "long,");
    for (int i = 0; i < 5000; i++)
        len += (size_t)snprintf(csv + len, cap - len, "%d%s", (i * 37) % 11, i < 4999 ? " " : "\n");
    assert_true(len < cap);
    run_result r;
    COINROW(&r, csv, "ingest", "-", "--db", f->db, "--set", "demo", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    free(csv);
    char pkg[4200];
    snprintf(pkg, sizeof pkg, "%s", tmp_path(f->dir, "plain"));
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "total", "--format", "plain", "--out", pkg, "--moves", "canonical"));
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "exported 131 tests"));
    run_result_free(&r);
    char *in = read_text(tmp_path(pkg, "r129.in")), *ans = read_text(tmp_path(pkg, "long.ans"));
    assert_string_equal(in, "2\n3 4\n");
    char *value = db_text(f->db, "SELECT value FROM result JOIN instance AS i ON i.id = instance_id "
                                 "WHERE i.ext_id = 'long'"),
         *moves = db_text(f->db, "SELECT moves FROM result JOIN instance AS i ON i.id = instance_id "
                                 "WHERE i.ext_id = 'long'");
    assert_int_equal(strlen(moves), 5000);
    char want[5100];
    snprintf(want, sizeof want, "%s\n%s\n", value, moves);
    assert_string_equal(ans, want);
    free(in), free(ans), free(value), free(moves);
}

/* The brute-force solution is a time_limit_exceeded submission only when a
 * test is long enough (40 coins) to time it out. */
static void test_export__kattis_holds_the_brute_force_only_for_long_tests(void **state)
{
    tmp_db *f = *state;
    run_result r;
    const char *ns[] = {"39", "40"};
    for (int k = 0; k < 2; k++) {
        char set[8], pkg[4200];
        snprintf(set, sizeof set, "n%s", ns[k]);
        COINROW(&r, NULL, "generate", "--db", f->db, "--set", set, "--count", "3", "--n", ns[k], "--values", "1..9",
                "--seed", "1", "--quiet");
        assert_int_equal(r.status, 0);
        run_result_free(&r);
        snprintf(pkg, sizeof pkg, "%s", tmp_path(f->dir, set));
        COINROW(&r, NULL, "export", "--db", f->db, "--set", set, "--variant", "total", "--format", "kattis", "--out",
                pkg);
        assert_int_equal(r.status, 0);
        run_result_free(&r);
        char rel[64];
        snprintf(rel, sizeof rel, "%s/submissions/time_limit_exceeded/brute_force.c", set);
        assert_int_equal(access(tmp_path(f->dir, rel), F_OK), k == 0 ? -1 : 0);
        snprintf(rel, sizeof rel, "%s/submissions/accepted/reference.c", set);
        assert_int_equal(access(tmp_path(f->dir, rel), F_OK), 0);
    }
}

/* Kattis' problem.yaml takes the license and rights owner given; a license
 * Kattis does not know is a usage error, before anything is solved. */
static void test_export__kattis_license_and_rights_owner_go_in_problem_yaml(void **state)
{
    tmp_db *f = *state;
    generate_demo(f->db, "4");
    char pkg[4200];
    snprintf(pkg, sizeof pkg, "%s", tmp_path(f->dir, "coins"));
    run_result r;
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "diff", "--format", "kattis", "--out", pkg, "--license", "nope"));
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "unknown license 'nope' (public domain, cc0, cc by, cc by-sa, educational or "
                                  "permission)"));
    run_result_free(&r);
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM run"), 0);

    COINROW(&r, NULL, EXPORT(f->db, "--variant", "diff", "--format", "kattis", "--out", pkg, "--license", "cc by-sa",
                             "--rights-owner", "A. \"Jury\" \\ co"));
    assert_int_equal(r.status, 0);
    assert_null(strstr(r.err, "license: unknown"));
    run_result_free(&r);
    char *yaml = read_text(tmp_path(pkg, "problem.yaml"));
    assert_non_null(strstr(yaml, "\nlicense: cc by-sa\nrights_owner: \"A. \\\"Jury\\\" \\\\ co\"\nvalidation: custom\n"));
    free(yaml);
}

/* problemtools' rule for every licence: a rights owner for all but the
 * public domain (and unknown, when no --license is given), and none for it.
 * A combination it would refuse is a usage error that writes nothing: no
 * package, no run, the folder as it was. */
static void test_export__every_license_goes_with_a_rights_owner_as_kattis_requires(void **state)
{
    tmp_db *f = *state;
    generate_demo(f->db, "4");
    char pkg[4200], line[200];
    snprintf(pkg, sizeof pkg, "%s", tmp_path(f->dir, "coins"));
    static const char *const owned[] = {"cc0", "cc by", "cc by-sa", "educational", "permission"};
    run_result r;
    char *before = dir_snapshot(f->dir);
    for (size_t k = 0; k < sizeof owned / sizeof owned[0]; k++) {
        COINROW(&r, NULL, EXPORT(f->db, "--variant", "diff", "--format", "kattis", "--out", pkg, "--license", owned[k]));
        assert_int_equal(r.status, 2);
        snprintf(line, sizeof line, "coinrow: license '%s' needs --rights-owner TEXT, who holds the rights (Kattis "
                                    "refuses the package without one)\n", owned[k]);
        assert_memory_equal(r.err, line, strlen(line));
        run_result_free(&r);
    }
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "diff", "--format", "kattis", "--out", pkg, "--license",
                             "public domain", "--rights-owner", "A. Jury"));
    assert_int_equal(r.status, 2);
    assert_memory_equal(r.err, "coinrow: a problem in the public domain has no rights owner: leave out --rights-owner "
                               "(Kattis refuses the package)\n", 103);
    run_result_free(&r);
    char *after = dir_snapshot(f->dir);
    assert_string_equal(after, before);
    free(before), free(after);

    for (size_t k = 0; k < sizeof owned / sizeof owned[0]; k++) {
        COINROW(&r, NULL, EXPORT(f->db, "--variant", "diff", "--format", "kattis", "--out", pkg, "--force",
                                 "--license", owned[k], "--rights-owner", "A. Jury"));
        assert_int_equal(r.status, 0);
        run_result_free(&r);
        char *yaml = read_text(tmp_path(pkg, "problem.yaml"));
        snprintf(line, sizeof line, "\nlicense: %s\nrights_owner: \"A. Jury\"\nvalidation: custom\n", owned[k]);
        assert_non_null(strstr(yaml, line));
        free(yaml);
    }
    const char *unowned[][4] = {{"--license", "public domain"}, {"--rights-owner", "A. Jury"}, {"--samples", "1"}};
    const char *yamls[] = {"\nlicense: public domain\nvalidation: custom\n",
                           "\nlicense: unknown\nrights_owner: \"A. Jury\"\nvalidation: custom\n",
                           "\nlicense: unknown\nvalidation: custom\n"};
    for (size_t k = 0; k < 3; k++) {
        COINROW(&r, NULL, EXPORT(f->db, "--variant", "diff", "--format", "kattis", "--out", pkg, "--force",
                                 unowned[k][0], unowned[k][1]));
        assert_int_equal(r.status, 0);
        run_result_free(&r);
        char *yaml = read_text(tmp_path(pkg, "problem.yaml"));
        assert_non_null(strstr(yaml, yamls[k]));
        free(yaml);
    }
}

/* The problem's name and its rights owner go into problem.yaml, the LaTeX
 * statement, problem.xml and task.yaml: text the judges' tools cannot read
 * (not UTF-8, a control character, blanks alone) is a usage error, and a
 * set's name that cannot be the problem's is refused unless --title gives one. */
static void test_export__a_title_or_rights_owner_the_judges_cannot_read_is_refused(void **state)
{
    tmp_db *f = *state;
    generate_demo(f->db, "4");
    const char *pkg = tmp_path(f->dir, "coins");
    struct {
        const char *option, *text, *why;
    } bad[] = {
        {"--title", "Coins\x01", "--title holds a control character (byte 6): it must be one line of printable text"},
        {"--title", "two\n\nlines", "--title holds a control character (byte 4)"},
        {"--title", "C1 \xc2\x85", "--title holds a control character (byte 4)"},
        {"--title", "Caf\xe9", "--title is not UTF-8 text (byte 4): the package's text files are UTF-8"},
        {"--title", "\xc0\xaf overlong", "--title is not UTF-8 text (byte 1)"},
        {"--title", "surrogate \xed\xa0\x80", "--title is not UTF-8 text (byte 11)"},
        {"--title", "cut \xe2\x9c", "--title is not UTF-8 text (byte 5)"},
        {"--title", " \xc2\xa0\xe3\x80\x80 ", "--title is blanks alone: it must hold some text"},
        {"--rights-owner", "J\xfcry", "--rights-owner is not UTF-8 text (byte 2)"},
    };
    run_result r;
    char *before = dir_snapshot(f->dir);
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        int owner = strcmp(bad[k].option, "--rights-owner") == 0; /* an option is given once */
        COINROW(&r, NULL, EXPORT(f->db, "--variant", "diff", "--format", "kattis", "--out", pkg, "--license", "cc0",
                                 "--rights-owner", owner ? bad[k].text : "A. Jury", "--title",
                                 owner ? "Coins" : bad[k].text));
        assert_int_equal(r.status, 2);
        assert_memory_equal(r.err, "coinrow: ", 9);
        assert_memory_equal(r.err + 9, bad[k].why, strlen(bad[k].why));
        run_result_free(&r);
    }
    char *after = dir_snapshot(f->dir);
    assert_string_equal(after, before);
    free(before), free(after);
    /* what they take: UTF-8 beyond ASCII, LaTeX's special characters (escaped) */
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "diff", "--format", "kattis", "--out", pkg, "--title",
                             "Pi\xc3\xa8" "ces & 100% \xe2\x9c\x93", "--license", "cc0", "--rights-owner", "J\xc3\xbcry"));
    assert_int_equal(r.status, 0);
    run_result_free(&r);

    /* without --title the set's name is the problem's */
    assert_int_equal(db_exec(f->db, "UPDATE instance_set SET name = 'demo' || char(9) || 'x'"), 0);
    before = dir_snapshot(f->dir);
    COINROW(&r, NULL, "export", "--db", f->db, "--set", "demo\tx", "--variant", "diff", "--format", "polygon",
            "--out", tmp_path(f->dir, "poly"));
    assert_int_equal(r.status, 1);
    assert_string_equal(r.err, "coinrow: the set's name (the problem's name without --title) holds a control "
                               "character (byte 5): it must be one line of printable text\n");
    run_result_free(&r);
    after = dir_snapshot(f->dir);
    assert_string_equal(after, before);
    free(before), free(after);
    COINROW(&r, NULL, "export", "--db", f->db, "--set", "demo\tx", "--variant", "diff", "--format", "polygon",
            "--out", tmp_path(f->dir, "poly"), "--title", "Coins");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
}

/* CMS runs check/checker: without a compiler to build it export refuses,
 * saying so, unless --no-build, which writes the source alone.  A
 * compiler with flags is one ($CC split at blanks; it was refused). */
static void test_export__cms_without_a_compiler_is_refused_unless_no_build(void **state)
{
    tmp_db *f = *state;
    generate_demo(f->db, "4");
    run_result r;
    setenv("CC", "/nonexistent/cc -O0", 1);
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "diff", "--format", "cms", "--out", tmp_path(f->dir, "task")));
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "no C compiler (/nonexistent/cc) to build "));
    assert_non_null(strstr(r.err, "give --no-build"));
    run_result_free(&r);
    assert_null(read_text(tmp_path(f->dir, "task/task.yaml")));
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "diff", "--format", "cms", "--out", tmp_path(f->dir, "task"),
                             "--no-build", "--time-limit", "2.5"));
    unsetenv("CC");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, ", time limit 2.500 s\n"));
    run_result_free(&r);
    char *yaml = read_text(tmp_path(f->dir, "task/task.yaml"));
    assert_non_null(strstr(yaml, "\ntime_limit: 2.500\n"));
    free(yaml);
    char *source = read_text(tmp_path(f->dir, "task/check/checker.c"));
    assert_non_null(source);
    free(source);
    assert_int_equal(access(tmp_path(f->dir, "task/check/checker"), F_OK), -1);
    setenv("CC", "cc -O0", 1);
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "diff", "--format", "cms", "--out", tmp_path(f->dir, "task"),
                             "--force"));
    unsetenv("CC");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    assert_int_equal(access(tmp_path(f->dir, "task/check/checker"), X_OK), 0);
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "diff", "--format", "kattis", "--out", tmp_path(f->dir, "k"),
                             "--no-build"));
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "--no-build has no meaning for --format kattis, whose packages hold no program to "
                                  "build (it is for --format cms)"));
    run_result_free(&r);
}

/* export --format cms of set demo into f->dir/task, with $CC the script
 * `script` (written to f->dir/NAME). */
static void export_cms_with_cc(run_result *r, tmp_db *f, const char *name, const char *script)
{
    const char *cc = tmp_path(f->dir, name);
    assert_int_equal(write_file(cc, script), 0);
    assert_int_equal(chmod(cc, 0755), 0);
    setenv("CC", cc, 1);
    COINROW(r, NULL, EXPORT(f->db, "--variant", "diff", "--format", "cms", "--out", tmp_path(f->dir, "task")));
    unsetenv("CC");
}

/* A compiler that fails to build the checker fails the export, quoting
 * what it said, and leaves no package behind. */
static void test_export__cms_checker_that_does_not_build_fails_the_export_quoting_the_compiler(void **state)
{
    tmp_db *f = *state;
    generate_demo(f->db, "4");
    run_result r;
    export_cms_with_cc(&r, f, "broken-cc", "#!/bin/sh\necho 'broken-cc: error: no room left on the device' >&2\nexit 4\n");
    assert_int_equal(r.status, 1);
    char expect[4200];
    snprintf(expect, sizeof expect, "coinrow: %s could not build check/checker (exit status 4): broken-cc: error: no "
             "room left on the device\n", tmp_path(f->dir, "broken-cc"));
    assert_non_null(strstr(r.err, expect));
    run_result_free(&r);
    assert_int_equal(access(tmp_path(f->dir, "task"), F_OK), -1);
}

/* A toolchain without a static C library builds the checker dynamically. */
static void test_export__cms_checker_is_built_dynamically_when_static_linking_fails(void **state)
{
    tmp_db *f = *state;
    generate_demo(f->db, "4");
    const char *log = tmp_path(f->dir, "cc.log");
    char script[8400];
    snprintf(script, sizeof script, "#!/bin/sh\necho \"$*\" >> '%s'\n"
             "if [ \"$2\" = -static ]; then echo 'cannot find -lc' >&2; exit 1; fi\nexec cc \"$@\"\n", log);
    run_result r;
    export_cms_with_cc(&r, f, "no-static-cc", script);
    assert_int_equal(r.status, 0);
    assert_null(strstr(r.err, "could not build"));
    run_result_free(&r);
    char *calls = read_text(log);
    assert_non_null(calls);
    assert_non_null(strstr(calls, "-O2 -static -o "));
    assert_non_null(strstr(strchr(calls, '\n') + 1, "-O2 -o "));
    free(calls);
    assert_int_equal(access(tmp_path(f->dir, "task/check/checker"), X_OK), 0);
}

static void test_export__an_ingested_set_s_validator_takes_the_ranges_of_its_data(void **state)
{
    tmp_db *f = *state;
    run_result r;
    COINROW(&r, "id,values\na,3 -3\nb,40 1 2 7 5\nc,8 8 8\n", "ingest", "-", "--db", f->db, "--set", "demo",
            "--quiet");
    run_result_free(&r);
    char pkg[4200];
    snprintf(pkg, sizeof pkg, "%s", tmp_path(f->dir, "ranges"));
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "diff", "--format", "kattis", "--out", pkg));
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    char *source = read_text(tmp_path(pkg, "input_validators/validator/validator.c"));
    assert_non_null(strstr(source, "#define CR_JUDGE_CONVENTION CR_KATTIS\n#define CR_JUDGE_VARIANT CR_DIFF\n"
                                   "#define CR_JUDGE_N_MIN 2\n"
                                   "#define CR_JUDGE_N_MAX 5\n#define CR_JUDGE_VALUE_MIN (-3)\n"
                                   "#define CR_JUDGE_VALUE_MAX 40\n#define CR_JUDGE_EVEN_N 0\n"
                                   "#define CR_JUDGE_ODD_SUM 0\n"));
    free(source);
    source = read_text(tmp_path(pkg, "output_validators/checker/checker.c"));
    assert_non_null(strstr(source, "#define CR_JUDGE_CONVENTION CR_KATTIS\n#define CR_JUDGE_VARIANT CR_DIFF\n"
                                   "#define CR_JUDGE_MOVES CR_CHECK_MOVES_IGNORED\n"));
    free(source);
}

/* Interrupted (SIGINT or SIGTERM), export stops with 130 and leaves
 * nothing: no package, no hidden folder of one beside it.  The signal comes
 * once the set's answers are committed, before a test is written: held at
 * what it says next (run_start_held), after the run it made. */
static void test_export__interrupted_it_leaves_nothing(void **state)
{
    tmp_db *f = *state;
    const int signals[] = {SIGINT, SIGTERM};
    for (size_t k = 0; k < sizeof signals / sizeof *signals; k++) {
        char db[4400], out_dir[4400], out[4400];
        snprintf(db, sizeof db, "%s", tmp_path(f->dir, k ? "term.db" : "int.db"));
        generate_quietly(db, "3");
        char *folder = tmp_dir_new();
        assert_non_null(folder);
        snprintf(out_dir, sizeof out_dir, "%s", folder);
        snprintf(out, sizeof out, "%s", tmp_path(folder, "pkg"));
        const char *first = "coinrow: no done run of set 'demo' has the total answers for every instance: solving "
                            "it first\n";
        char *argv[] = {(char *)run_bin(), "export", "--db", db, "--set", "demo", "--variant", "total", "--format",
                        "kattis", "--out", out, "--zip", NULL};
        int held;
        pid_t pid = run_start_held(argv, strlen(first), &held);
        assert_true(pid > 0);
        assert_true(db_wait_for(db, "SELECT count(*) FROM run WHERE status = 'done'", pid) > 0);
        run_signal(pid, signals[k]);
        char *text = run_release(held);
        assert_int_equal(run_wait(pid), 130);
        char said[4600];
        snprintf(said, sizeof said, "coinrow: interrupted: nothing was written to %s\n", out);
        assert_non_null(strstr(text, said));
        free(text);
        char *left = dir_snapshot(out_dir);
        assert_string_equal(left, "");
        free(left);
        tmp_dir_free(folder);
    }
}

int main(void)
{
#define TEST(name) cmocka_unit_test_setup_teardown(name, tmp_db_setup, tmp_db_teardown)
    const struct CMUnitTest tests[] = {
        TEST(test_generate__the_database_holds_the_csv_s_instances_and_a_seed_makes_them),
        TEST(test_generate__the_arguments_are_stored_with_the_set_and_shown),
        TEST(test_generate__the_same_command_again_changes_nothing_and_completes_a_cut_set),
        TEST(test_generate__a_name_taken_by_other_arguments_or_an_ingest_is_refused),
        TEST(test_generate__an_interrupted_set_is_completed_by_the_same_command),
        TEST(test_generate__a_generated_set_is_an_ordinary_set),
        TEST(test_export__kattis_layout_zip_and_its_programs_accept_every_test),
        TEST(test_export__kattis_without_samples_has_no_sample_folder),
        TEST(test_export__polygon_layout_patterns_and_testlib_programs),
        TEST(test_export__cms_layout_task_yaml_and_checker),
        TEST(test_export__plain_names_files_after_ids_and_refuses_clashes),
        TEST(test_export__the_summary_escapes_the_names_it_shows),
        TEST(test_export__plain_refuses_an_id_too_long_for_a_file_name),
        TEST(test_export__answers_come_from_a_done_run_of_the_variant_else_a_new_one),
        TEST(test_export__interrupted_it_leaves_nothing),
        TEST(test_export__help_lists_every_format_of_the_table),
        TEST(test_export__the_library_refuses_an_option_its_format_lacks),
        TEST(test_export__refusals_name_what_and_leave_everything_as_it_was),
        TEST(test_export__a_zip_that_cannot_go_in_place_leaves_the_previous_package),
        TEST(test_export__an_out_that_is_a_file_or_holds_the_current_folder_and_an_empty_set_are_refused),
        TEST(test_export__a_title_is_xml_escaped_and_a_time_limit_keeps_its_milliseconds),
        TEST(test_export__a_set_that_does_not_read_back_is_refused_naming_the_row),
        TEST(test_export__plain_takes_many_tests_and_a_line_of_thousands_of_moves),
        TEST(test_export__kattis_holds_the_brute_force_only_for_long_tests),
        TEST(test_export__winner_answers_a_set_at_the_full_int64_range),
        TEST(test_export__a_line_of_the_wrong_length_is_refused),
        TEST(test_export__kattis_license_and_rights_owner_go_in_problem_yaml),
        TEST(test_export__every_license_goes_with_a_rights_owner_as_kattis_requires),
        TEST(test_export__a_title_or_rights_owner_the_judges_cannot_read_is_refused),
        TEST(test_export__cms_without_a_compiler_is_refused_unless_no_build),
        TEST(test_export__cms_checker_that_does_not_build_fails_the_export_quoting_the_compiler),
        TEST(test_export__cms_checker_is_built_dynamically_when_static_linking_fails),
        TEST(test_export__an_ingested_set_s_validator_takes_the_ranges_of_its_data),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

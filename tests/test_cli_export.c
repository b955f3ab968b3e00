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
#include <sys/wait.h>
#include <time.h>

#include <cmocka.h>

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
                    "--values", "1..99", "--seed", "5", NULL};
    pid_t pid = run_start(argv, tmp_path(f->dir, "log.txt"));
    assert_true(pid > 0);
    struct timespec pause = {0, 2000000};
    for (int tries = 0; tries < 15000; tries++) { /* 30 s at most: until the first commit */
        int64_t stored = db_int(f->db, "SELECT count(*) FROM instance");
        if (stored > 0 && stored != INT64_MIN)
            break;
        nanosleep(&pause, NULL);
    }
    assert_int_equal(waitpid(pid, NULL, WNOHANG), 0); /* still running: the set is large enough */
    kill(pid, SIGINT);
    assert_int_equal(run_wait(pid), 130);
    FILE *log = fopen(tmp_path(f->dir, "log.txt"), "r");
    char text[4096] = "";
    assert_non_null(log);
    text[fread(text, 1, sizeof text - 1, log)] = '\0';
    fclose(log);
    assert_non_null(strstr(text, "interrupted before the end of the input: the same command for set 'big' again adds "
                                 "the rest (stored rows are skipped)\n"));
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

/* Exit status of argv run with the file at input (NULL: nothing) on its
 * standard input. */
static int status_of(char *const argv[], const char *input)
{
    char *text = input ? read_text(input) : NULL;
    run_result r;
    assert_true(!input || text);
    assert_int_equal(run_capture(&r, argv, text), 0);
    int status = r.status;
    run_result_free(&r);
    free(text);
    return status;
}

/* Every file of the package is text as judges want it: no BOM, no CR, a
 * final LF. */
static void assert_text_files(const char *dir)
{
    char cmd[4300];
    snprintf(cmd, sizeof cmd, "cd '%s' && find . -type f | LC_ALL=C sort", dir);
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
    snprintf(line, sizeof line, "\nexported 12 tests (2 samples) of set 'demo' to %s, zipped too\n", pkg);
    assert_string_equal(strchr(r.out, '\n'), line);
    assert_non_null(strstr(r.err, "coinrow: no done run of set 'demo' has the diff answers with canonical lines "
                                  "for every instance: solving it first\n"));
    assert_non_null(strstr(r.err, "coinrow: the diff answers and lines come from run 1 (done; algo auto, moves "
                                  "canonical, coinrow "));
    run_result_free(&r);

    for (int k = 1; k <= 12; k++)
        APPEND(expected, "data/%s/%02d.ans\ndata/%s/%02d.in\n", k <= 2 ? "sample" : "secret", k,
               k <= 2 ? "sample" : "secret", k);
    APPEND(expected, "input_validators/\ninput_validators/validator/\ninput_validators/validator/validator.c\n"
                     "output_validators/\noutput_validators/checker/\noutput_validators/checker/checker.c\n"
                     "problem.yaml\n");
    assert_package(pkg, expected);
    char *yaml = read_text(tmp_path(pkg, "problem.yaml"));
    assert_string_equal(yaml, "# written by coinrow export: the diff value and the line of play, answers of run 1\n"
                              "name: \"demo\"\nvalidation: custom\n");
    free(yaml);
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
        assert_int_equal(status_of(run_validator, in), 42);
        assert_int_equal(status_of(run_validate, NULL), 42);
        assert_int_equal(status_of(run_checker, ans), 42); /* the jury's answer as a contestant's */
    }
    /* the checker does check: a wrong value is rejected */
    assert_int_equal(write_file(tmp_path(f->dir, "wrong.txt"), "999\nLLLL\n"), 0);
    char *run_checker[] = {checker, in, ans, feedback, NULL};
    assert_int_equal(status_of(run_checker, tmp_path(f->dir, "wrong.txt")), 43);
    /* the validator checks what the generator promised: an odd n */
    assert_int_equal(write_file(tmp_path(f->dir, "odd.in"), "5\n1 2 3 4 5\n"), 0);
    char *run_validator[] = {validator, NULL};
    assert_int_equal(status_of(run_validator, tmp_path(f->dir, "odd.in")), 43);
}

static void test_export__polygon_layout_patterns_and_testlib_programs(void **state)
{
    tmp_db *f = *state;
    generate_demo(f->db, "12");
    char pkg[4200], expected[4096] = "files/\nfiles/check.c\nfiles/val.c\nproblem.xml\ntests/\n";
    snprintf(pkg, sizeof pkg, "%s", tmp_path(f->dir, "coins-total"));
    run_result r;
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "total", "--format", "polygon", "--out", pkg));
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    for (int k = 1; k <= 12; k++)
        APPEND(expected, "tests/%02d\ntests/%02d.a\n", k, k);
    assert_package(pkg, expected);
    char *xml = read_text(tmp_path(pkg, "problem.xml"));
    assert_non_null(strstr(xml, "<problem revision=\"1\" short-name=\"coins-total\">"));
    assert_non_null(strstr(xml, "<test-count>12</test-count>"));
    assert_non_null(strstr(xml, "<input-path-pattern>tests/%02d</input-path-pattern>"));
    assert_non_null(strstr(xml, "<answer-path-pattern>tests/%02d.a</answer-path-pattern>"));
    assert_non_null(strstr(xml, "<tests>\n                <test method=\"manual\" sample=\"true\"/>\n"
                                "                <test method=\"manual\"/>\n"));
    assert_null(strstr(strstr(xml, "sample=") + 1, "sample="));
    assert_non_null(strstr(xml, "<checker type=\"testlib\">\n            <source path=\"files/check.c\" "
                                "type=\"c.gcc\"/>"));
    assert_non_null(strstr(xml, "<source path=\"files/val.c\" type=\"c.gcc\"/>"));
    free(xml);
    char *answer = read_text(tmp_path(pkg, "tests/01.a"));
    char *stored = db_text(f->db, "SELECT value || char(10) FROM result_view WHERE ext_id = '01' AND variant = 'total'");
    assert_string_equal(answer, stored); /* the value alone */
    free(answer), free(stored);

    char validator[4300], checker[4300];
    snprintf(validator, sizeof validator, "%s", tmp_path(f->dir, "val"));
    snprintf(checker, sizeof checker, "%s", tmp_path(f->dir, "check"));
    cc_build(validator, tmp_path(pkg, "files/val.c"));
    cc_build(checker, tmp_path(pkg, "files/check.c"));
    for (int k = 1; k <= 12; k++) {
        char in[4300], ans[4310], name[32];
        snprintf(name, sizeof name, "tests/%02d", k);
        snprintf(in, sizeof in, "%s", tmp_path(pkg, name));
        snprintf(ans, sizeof ans, "%s.a", in);
        char *run_validator[] = {validator, NULL}, *run_checker[] = {checker, in, ans, ans, NULL};
        assert_int_equal(status_of(run_validator, in), 0);
        assert_int_equal(status_of(run_checker, NULL), 0);
    }

    /* the pattern's width grows with the count */
    const char *db100 = tmp_path(f->dir, "hundred.db");
    generate_demo(db100, "100");
    snprintf(pkg, sizeof pkg, "%s", tmp_path(f->dir, "hundred"));
    COINROW(&r, NULL, EXPORT(db100, "--variant", "total", "--format", "polygon", "--out", pkg));
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    xml = read_text(tmp_path(pkg, "problem.xml"));
    assert_non_null(strstr(xml, "<input-path-pattern>tests/%03d</input-path-pattern>"));
    assert_non_null(strstr(xml, "<answer-path-pattern>tests/%03d.a</answer-path-pattern>"));
    free(xml);
    char *layout = tree(pkg);
    assert_non_null(strstr(layout, "\ntests/001\ntests/001.a\n"));
    assert_non_null(strstr(layout, "\ntests/100\ntests/100.a\n"));
    free(layout);
}

static void test_export__cms_layout_task_yaml_and_checker(void **state)
{
    tmp_db *f = *state;
    generate_demo(f->db, "12");
    char pkg[4200], expected[4096] = "check/\ncheck/checker.c\ninput/\n";
    snprintf(pkg, sizeof pkg, "%s", tmp_path(f->dir, "coins_cms"));
    run_result r;
    COINROW(&r, NULL, EXPORT(f->db, "--variant", "winner", "--format", "cms", "--out", pkg, "--moves", "canonical",
                             "--samples", "3"));
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    for (int k = 0; k < 12; k++)
        APPEND(expected, "input/input%d.txt\noutput/output%d.txt\n", k, k);
    APPEND(expected, "output/\ntask.yaml\n");
    assert_package(pkg, expected);
    char *yaml = read_text(tmp_path(pkg, "task.yaml"));
    assert_string_equal(yaml, "name: \"coins_cms\"\ntitle: \"demo\"\nn_input: 12\ntime_limit: 1.000\n"
                              "memory_limit: 256\npublic_testcases: \"0,1,2\"\ninfile: \"\"\noutfile: \"\"\n");
    free(yaml);

    char checker[4300];
    snprintf(checker, sizeof checker, "%s", tmp_path(f->dir, "checker"));
    cc_build(checker, tmp_path(pkg, "check/checker.c"));
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
    assert_string_equal(r.err, "coinrow: --zip: a package of 32766 tests holds 65537 files and folders, more than "
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
                                  "exported: 'huge' (the total value does not fit in int64"));
    run_result_free(&r);
    char *left = tree(f->dir);
    assert_null(strstr(left, "wide/"));
    assert_null(strstr(left, "coinrow-"));
    free(left);
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
    assert_non_null(strstr(source, "#define CR_JUDGE_CONVENTION CR_KATTIS\n#define CR_JUDGE_N_MIN 2\n"
                                   "#define CR_JUDGE_N_MAX 5\n#define CR_JUDGE_VALUE_MIN (-3)\n"
                                   "#define CR_JUDGE_VALUE_MAX 40\n#define CR_JUDGE_EVEN_N 0\n"
                                   "#define CR_JUDGE_ODD_SUM 0\n"));
    free(source);
    source = read_text(tmp_path(pkg, "output_validators/checker/checker.c"));
    assert_non_null(strstr(source, "#define CR_JUDGE_CONVENTION CR_KATTIS\n#define CR_JUDGE_VARIANT CR_DIFF\n"
                                   "#define CR_JUDGE_MOVES CR_CHECK_MOVES_IGNORED\n"));
    free(source);
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
        TEST(test_export__polygon_layout_patterns_and_testlib_programs),
        TEST(test_export__cms_layout_task_yaml_and_checker),
        TEST(test_export__plain_names_files_after_ids_and_refuses_clashes),
    TEST(test_export__plain_refuses_an_id_too_long_for_a_file_name),
        TEST(test_export__answers_come_from_a_done_run_of_the_variant_else_a_new_one),
        TEST(test_export__refusals_name_what_and_leave_everything_as_it_was),
        TEST(test_export__an_ingested_set_s_validator_takes_the_ranges_of_its_data),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

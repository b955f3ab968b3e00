/* End-to-end tests of judge test data in the database: generate --db and
 * what it stores. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include <cmocka.h>

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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

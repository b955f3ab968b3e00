/* End-to-end tests of run, ingest, solve and show: exit statuses, messages,
 * and what lands in the database, checked against the core. */
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
#include <sqlite3.h>

#include "coinrow/moves.h"
#include "store/store.h"
#include "support/core_check.h"
#include "support/files.h"
#include "support/run.h"

/* s begins with prefix (shown in full when it does not). */
static void assert_starts(const char *s, const char *prefix)
{
    char head[512];
    snprintf(head, sizeof head, "%.*s", (int)strlen(prefix), s);
    assert_string_equal(head, prefix);
}

static int64_t value_of(const char *db, const char *ext_id, const char *variant)
{
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT value FROM result_view WHERE ext_id = '%s' AND variant = '%s'", ext_id, variant);
    return db_int(db, sql);
}

static void test_cli_batch__run_on_the_sample_data_agrees_with_the_core(void **state)
{
    tmp_db *f = *state;
    run_result r;
    COINROW(&r, NULL, "run", "sample-data/", "--db", f->db);
    assert_int_equal(r.status, 0);
    assert_starts(r.out, "ingested 14, skipped 0, rejected 0, solved 14, failed 0, set 'sample-data', run 1 in ");
    assert_string_equal(r.err, "");
    run_result_free(&r);
    assert_int_equal(check_run_against_core(f->db, 1, NULL), 14 * 4);
    /* the answers the sources print */
    assert_int_equal(value_of(f->db, "pots-of-gold-1", "total"), 9);
    assert_int_equal(value_of(f->db, "optimal-strategy-2", "total"), 22);
    assert_int_equal(value_of(f->db, "stone-game-vii-1", "remaining"), 8);
    assert_int_equal(value_of(f->db, "deque-1", "diff"), 10);
    assert_int_equal(value_of(f->db, "deque-2", "diff"), -80);
    assert_int_equal(value_of(f->db, "deque-4", "diff"), 4999999995);
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM run WHERE status = 'done' AND variants = "
                                   "'total,diff,remaining,winner' AND algo = 'auto' AND moves_policy = 'fast'"),
                     1);
}

static void test_cli_batch__bad_rows_exit_3_and_the_good_rows_are_solved(void **state)
{
    tmp_db *f = *state;
    run_result r;
    COINROW(&r, NULL, "run", fixture("bad_rows.csv"), "--db", f->db, "--variant", "total,diff", "--moves", "none",
            "--jobs", "1", "--label", "night 1");
    assert_int_equal(r.status, 3);
    assert_starts(r.out, "ingested 2, skipped 1, rejected 9, solved 2, failed 0, set 'bad_rows', run 1");
    assert_non_null(strstr(r.err, "coinrow: tests/fixtures/bad_rows.csv line 3: value 2 ('x') is not an integer\n"));
    assert_non_null(strstr(r.err, "line 11: id 'good-1' is already in set 'bad_rows' with other coins\n"));
    assert_non_null(strstr(r.err, "coinrow: 9 rows rejected; every one is in the table ingest_error\n"));
    run_result_free(&r);
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM ingest_error WHERE source = 'tests/fixtures/bad_rows.csv'"), 9);
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM ingest_error WHERE reason = 'n is 2 but there are 3 values'"), 1);
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM instance"), 2);
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM result_view WHERE moves IS NULL AND label = 'night 1'"), 4);
    assert_int_equal(check_run_against_core(f->db, 1, NULL), 4);

    /* the same file again: nothing new is stored, the rejections still count */
    COINROW(&r, NULL, "ingest", fixture("bad_rows.csv"), "--db", f->db, "--quiet");
    assert_int_equal(r.status, 3);
    assert_string_equal(r.out, "");
    run_result_free(&r);
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM ingest_error"), 9);
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM instance"), 2);
}

/* A file of many bad rows does not flood the terminal: the first ten are
 * shown, the rest only counted (all are in ingest_error). */
static void test_cli_batch__the_first_ten_rejected_rows_are_shown_and_the_rest_counted(void **state)
{
    tmp_db *f = *state;
    char csv[8192] = "id,values\n";
    for (int k = 0; k < 15; k++)
        snprintf(csv + strlen(csv), sizeof csv - strlen(csv), "bad%d,1 x\n", k);
    const char *path = tmp_path(f->dir, "bad.csv");
    assert_int_equal(write_file(path, csv), 0);
    run_result r;
    COINROW(&r, NULL, "ingest", path, "--db", f->db);
    assert_int_equal(r.status, 3);
    int shown = 0;
    for (const char *p = r.err; (p = strstr(p, "bad.csv line ")) != NULL; p++)
        shown++;
    assert_int_equal(shown, 10);
    assert_non_null(strstr(r.err, "bad.csv line 11: value 2 ('x') is not an integer\n"));
    assert_null(strstr(r.err, "bad.csv line 12:"));
    assert_non_null(strstr(r.err, "coinrow: 15 rows rejected (the first ones are above); every one is in the table "
                                  "ingest_error\n"));
    run_result_free(&r);
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM ingest_error"), 15);
}

/* The reproducer: the middle row has no id. */
static void test_cli_batch__a_short_wide_row_costs_only_itself(void **state)
{
    tmp_db *f = *state;
    const char *wide = tmp_path(f->dir, "w.csv");
    assert_int_equal(write_file(wide, "c1,c2,id\n1,2,a\n5\n3,4,b\n"), 0);
    run_result r;
    COINROW(&r, NULL, "run", wide, "--format", "wide", "--db", f->db);
    assert_int_equal(r.status, 3);
    assert_starts(r.out, "ingested 2, skipped 0, rejected 1, solved 2, failed 0, set 'w', run 1");
    assert_non_null(strstr(r.err, "w.csv line 3: the row has no id (1 field; the id is field 3)\n"));
    run_result_free(&r);
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM instance WHERE ext_id IN ('a', 'b')"), 2);
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM ingest_error WHERE line = 3 AND raw = '5'"), 1);
    assert_int_equal(db_int(f->db, "SELECT status = 'done' FROM run"), 1);
}

/* The reproducer: a, a\0b and a\0c were three instances that all
 * displayed as 'a'. */
static void test_cli_batch__ids_with_a_nul_byte_are_rejected(void **state)
{
    tmp_db *f = *state;
    const char *csv = tmp_path(f->dir, "nul.csv");
    FILE *out = fopen(csv, "wb");
    static const char text[] = "id,values\na,1 2\na\0b,1 2\na\0c,3 4\n";
    assert_int_equal(fwrite(text, 1, sizeof text - 1, out), sizeof text - 1);
    assert_int_equal(fclose(out), 0);
    run_result r;
    COINROW(&r, NULL, "run", csv, "--db", f->db);
    assert_int_equal(r.status, 3);
    assert_starts(r.out, "ingested 1, skipped 0, rejected 2, solved 1");
    assert_non_null(strstr(r.err, "nul.csv line 3: field 1 has a NUL byte at character 2\n"));
    assert_non_null(strstr(r.err, "nul.csv line 4: field 1 has a NUL byte at character 2\n"));
    run_result_free(&r);
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM instance"), 1);
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM instance WHERE instr(ext_id, char(0)) > 0"), 0);
}

/* Input refused before its first row leaves no trace: no database, no
 * empty set, no run, no summary. */
static void test_cli_batch__input_refused_before_its_first_row_creates_nothing(void **state)
{
    tmp_db *f = *state;
    const char *other = tmp_path(f->dir, "other.db");
    assert_int_equal(db_exec(other, "CREATE TABLE t (id, coins); INSERT INTO t VALUES ('a', '1 2')"), 0);
    run_result r;
    COINROW(&r, NULL, "ingest", "--from-db", other, "--table", "nope", "--db", f->db);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    assert_non_null(strstr(r.err, "has no table 'nope' (tables: t)"));
    run_result_free(&r);
    assert_int_equal(access(f->db, F_OK), -1);

    COINROW(&r, NULL, "ingest", "--from-db", other, "--table", "t", "--db", f->db, "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    const char *no_values = tmp_path(f->dir, "nv.csv");
    assert_int_equal(write_file(no_values, "id,foo\na,1\n"), 0);
    const char *refused[][12] = {
        {"ingest", "--from-db", other, "--table", "t", "--values-col", "zz", "--db", f->db},
        {"run", "--from-db", other, "--table", "t", "--id-col", "zz", "--db", f->db},
        {"run", no_values, "--db", f->db},
        {"ingest", "-", "--db", f->db, "--set", "empty-stdin"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        assert_int_equal(run_coinrow_args(&r, NULL, refused[i]), 0);
        assert_int_equal(r.status, 1);
        assert_string_equal(r.out, "");
        run_result_free(&r);
    }
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM instance_set"), 1);
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM run"), 0);
}

/* --from-db naming the database the command writes to, by any path, is
 * refused at once, the file as it was: SQLite cannot read a table of it
 * while the same command commits to it (it waited, then said "locked by
 * another writer"). */
static void test_cli_batch__from_db_of_the_database_written_to_is_refused(void **state)
{
    tmp_db *f = *state;
    run_result r;
    COINROW(&r, NULL, "run", "sample-data", "--db", f->db, "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    assert_int_equal(db_exec(f->db, "CREATE VIEW by_id AS SELECT ext_id, coins FROM instance ORDER BY ext_id"), 0);
    const char *link = tmp_path(f->dir, "link.db");
    assert_int_equal(symlink("t.db", link), 0);
    char *before = dir_snapshot(f->dir);
    const char *const commands[] = {"ingest", "run"};
    for (size_t i = 0; i < 2; i++) {
        COINROW(&r, NULL, commands[i], "--from-db", link, "--table", "by_id", "--id-col", "ext_id", "--values-col",
                "coins", "--db", f->db, "--set", "again");
        assert_int_equal(r.status, 2);
        assert_string_equal(r.out, "");
        assert_non_null(strstr(r.err, "is the database this command writes to"));
        run_result_free(&r);
    }
    char *after = dir_snapshot(f->dir);
    assert_string_equal(after, before);
    free(before), free(after);
}

/* An empty set name or option value is refused, and so is an empty id
 * where it would name a file. */
static void test_cli_batch__empty_names_are_refused_everywhere(void **state)
{
    tmp_db *f = *state;
    const char *csv = fixture("no_id.csv");
    const char *refused[][14] = {
        {"run", csv, "--db", f->db, "--set", ""},
        {"ingest", csv, "--db", f->db, "--set="},
        {"solve", "--db", f->db, "--set", ""},
        {"run", csv, "--db", ""},
        {"generate", "--db", f->db, "--set", "", "--count", "1", "--n", "2", "--values", "1..2", "--seed", "1"},
        {"export", "--db", f->db, "--set", "", "--variant", "diff", "--format", "plain", "--out", "x"},
    };
    run_result r;
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        assert_int_equal(run_coinrow_args(&r, NULL, refused[i]), 0);
        if (r.status != 2 || !strstr(r.err, "cannot be empty"))
            fail_msg("coinrow %s: exit %d: %s", refused[i][0], r.status, r.err);
        run_result_free(&r);
    }
    assert_int_equal(access(f->db, F_OK), -1);

    /* an empty id, put there by hand, names no plain file */
    COINROW(&r, NULL, "run", csv, "--db", f->db, "--set", "s", "--variant", "diff", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    assert_int_equal(db_exec(f->db, "UPDATE instance SET ext_id = '' WHERE id = 2"), 0);
    COINROW(&r, NULL, "export", "--db", f->db, "--set", "s", "--variant", "diff", "--format", "plain", "--out",
            tmp_path(f->dir, "plain"));
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "set 's': instance 2 has an empty id, which names no file"));
    run_result_free(&r);
    assert_int_equal(access(tmp_path(f->dir, "plain"), F_OK), -1);
}

/* A run whose set was deleted by hand (SQLite leaves foreign keys off by
 * default) is refused, naming the database and the set. */
static void test_cli_batch__a_run_whose_set_was_deleted_by_hand_is_refused(void **state)
{
    tmp_db *f = *state;
    run_result r;
    COINROW(&r, NULL, "run", "tests/fixtures/windows.csv", "--db", f->db, "--set", "s", "--variant", "diff",
            "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    assert_int_equal(db_exec(f->db, "DELETE FROM instance_set"), 0);
    COINROW(&r, NULL, "show", "--db", f->db, "--run", "1");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "coinrow: "));
    assert_non_null(strstr(r.err, f->db));
    assert_non_null(strstr(r.err, " has no instance set 1"));
    run_result_free(&r);
}

/* An ext_id edited by hand into one coinrow cannot read fails the solve,
 * naming it, without the hint to resume that failed the same way; once the
 * row is mended, the run resumes. */
static void test_cli_batch__an_unreadable_ext_id_is_named_without_a_hint_that_fails_again(void **state)
{
    tmp_db *f = *state;
    run_result r;
    COINROW(&r, NULL, "ingest", "tests/fixtures/windows.csv", "--db", f->db, "--set", "s", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    assert_int_equal(db_exec(f->db, "UPDATE instance SET ext_id = CAST(ext_id AS BLOB) WHERE id = 2"), 0);
    COINROW(&r, NULL, "solve", "--db", f->db, "--set", "s", "--quiet");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "instance 2 has an ext_id stored as blob, not text"));
    assert_null(strstr(r.err, "--resume"));
    run_result_free(&r);
    assert_int_equal(db_exec(f->db, "UPDATE instance SET ext_id = CAST(ext_id AS TEXT) WHERE id = 2"), 0);
    COINROW(&r, NULL, "solve", "--resume", "1", "--db", f->db, "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    assert_int_equal(check_run_against_core(f->db, 1, NULL), 3 * 4); /* every instance, every variant */
}

/* An instance whose coins or n were edited by hand so that they cannot be
 * read is that instance's failure, in its results' error, and the run goes
 * on over the rest (it failed the whole run); export, which cannot do
 * without its answer, refuses, naming it and why.  An n that is not
 * its count of coins had been solved, and its lines had the wrong length. */
static void test_cli_batch__a_damaged_instance_is_its_own_failure_not_the_runs(void **state)
{
    tmp_db *f = *state;
    run_result r;
    COINROW(&r, NULL, "ingest", "tests/fixtures/windows.csv", "--db", f->db, "--set", "s", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    assert_int_equal(db_exec(f->db, "UPDATE instance SET n = n + 1 WHERE id = 2"), 0);
    COINROW(&r, NULL, "solve", "--db", f->db, "--set", "s", "--variant", "total,diff");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "solved 3, failed 1, "));
    run_result_free(&r);
    assert_int_equal(db_exec(f->db, "UPDATE instance SET coins = '[1,x]' WHERE id = 3"), 0);
    COINROW(&r, NULL, "solve", "--db", f->db, "--set", "s", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM result_view WHERE run_id = 1 AND value IS NULL AND error = "
                                   "'the instance was changed outside coinrow, so it cannot be read: n is 5 but it "
                                   "has 4 coins (coinrow check-db)' AND instance_id = 2"),
                     2);
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM result_view WHERE run_id = 2 AND value IS NULL AND error = "
                                   "'the instance was changed outside coinrow, so it cannot be read: coins: value 2 "
                                   "(''x'') is not an integer (coinrow check-db)' AND instance_id = 3"),
                     4);
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM result_view WHERE run_id = 2 AND error IS NOT NULL"), 8);
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM result_view WHERE run_id = 2 AND value IS NOT NULL"), 4);
    assert_int_equal(check_run_against_core(f->db, 2, "instance_id = 1"), 4);
    COINROW(&r, NULL, "check-db", "--db", f->db);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "instance 2: n is 5 but it has 4 coins"));
    run_result_free(&r);
    COINROW(&r, NULL, "export", "--db", f->db, "--set", "s", "--variant", "diff", "--format", "plain", "--out",
            tmp_path(f->dir, "plain"));
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "2 instances have no diff answer in run 2, so they cannot be exported: 'p2', "
                                  "'p,3' (the instance was changed outside coinrow, so it cannot be read: coins: "
                                  "value 2 ('x') is not an integer (coinrow check-db))"));
    run_result_free(&r);
}

/* show's columns line up whatever the ids' bytes and the groups' points
 * and names: "café" took one column less than "plain" (printf pads bytes),
 * and points of a million and more pushed the row right. */
static void test_cli_batch__show_lines_up_utf8_ids_and_large_points_and_long_names(void **state)
{
    tmp_db *f = *state;
    const char *csv = tmp_path(f->dir, "ids.csv");
#define JA "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e" /* three characters of nine bytes */
    assert_int_equal(write_file(csv, "id,values\ncaf\xc3\xa9,\"1 2\"\nplain,\"3 4\"\n" JA JA JA JA JA JA JA JA ",5\n"),
                     0);
    run_result r;
    COINROW(&r, NULL, "run", csv, "--db", f->db, "--set", "s", "--variant", "total", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    COINROW(&r, NULL, "generate", "--db", f->db, "--set", "g", "--group", "big", "--points", "1000000000", "--count",
            "1", "--n", "1..3", "--values", "1..9", "--seed", "1", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    COINROW(&r, NULL, "show", "--db", f->db, "--set", "g");
    assert_int_equal(r.status, 0);
    assert_memory_equal(r.out, "group            points  n ", 27);
    assert_non_null(strstr(r.out, "\nbig          1000000000  1..3 "));
    run_result_free(&r);
    /* a name longer than the column widens it, in show and in strength:
     * it pushed the rest of its row right */
    COINROW(&r, NULL, "generate", "--db", f->db, "--set", "g", "--group", "the_largest_of_them_all", "--points", "7",
            "--depends", "big", "--count", "1", "--n", "1..3", "--values", "1..9", "--seed", "1", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    COINROW(&r, NULL, "show", "--db", f->db, "--set", "g");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "group                       points  n                values                   "
                               "properties       depends           tests\n"
                               "big                     1000000000  1..3             1..9                     "
                               "-                -                     1\n"
                               "the_largest_of_them_all          7  1..3             1..9                     "
                               "-                big                   1\n");
    run_result_free(&r);
    COINROW(&r, NULL, "strength", "--db", f->db, "--set", "g", "--variant", "total");
    assert_non_null(strstr(r.out, "\ngroup                       points  tests  passed by"));
    assert_non_null(strstr(r.out, "\nbig                     1000000000      1  "));
    assert_non_null(strstr(r.out, "\nthe_largest_of_them_all          7      1  "));
    run_result_free(&r);
    COINROW(&r, NULL, "show", "--db", f->db, "--run", "1");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\next_id                    n  variant "));
    assert_non_null(strstr(r.out, "\ncaf\xc3\xa9                      2  total "));
    assert_non_null(strstr(r.out, "\nplain                     2  total "));
    /* cut at 20 characters, not at 20 bytes */
    assert_non_null(strstr(r.out, "\n" JA JA JA JA JA "\xe6\x97\xa5\xe6\x9c\xac...      1  total "));
#undef JA
    run_result_free(&r);
}

static void test_cli_batch__ingest_then_solve_then_resume_nothing(void **state)
{
    tmp_db *f = *state;
    run_result r;
    COINROW(&r, NULL, "ingest", "tests/fixtures/contest", "tests/fixtures/windows.csv", "--db", f->db, "--set", "mixed");
    assert_int_equal(r.status, 3); /* two of the contest files are bad */
    assert_starts(r.out, "ingested 5, skipped 0, rejected 2, set 'mixed' in ");
    run_result_free(&r);
    COINROW(&r, NULL, "solve", "--db", f->db, "--variant", "winner", "--algo", "naive", "--moves", "canonical");
    assert_int_equal(r.status, 0);
    assert_starts(r.out, "solved 5, failed 0, set 'mixed', run 1 in ");
    run_result_free(&r);
    assert_int_equal(check_run_against_core(f->db, 1, NULL), 5);
    COINROW(&r, NULL, "solve", "--resume", "--db", f->db);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "has no unfinished run\n"));
    run_result_free(&r);
    COINROW(&r, NULL, "solve", "--resume", "1", "--db", f->db);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "run 1 is done, not unfinished\n"));
    run_result_free(&r);
    COINROW(&r, NULL, "show", "--db", f->db, "--limit", "2");
    assert_int_equal(r.status, 0);
    assert_starts(r.out, "run 1 of set 'mixed' (done): algo naive, moves canonical, coinrow ");
    assert_non_null(strstr(r.out, "\n01                        4  winner                       1"));
    assert_non_null(strstr(r.out, "... more: sqlite3 "));
    size_t lines = 0; /* the run, the column names, 2 rows, the hint */
    for (const char *p = r.out; *p; p++)
        lines += *p == '\n';
    assert_int_equal(lines, 5);
    run_result_free(&r);
}

static void test_cli_batch__reads_stdin_and_tables_of_other_databases(void **state)
{
    tmp_db *f = *state;
    run_result r;
    COINROW(&r, "id,coins\ns1,3 1\n", "run", "-", "--db", f->db, "--variant", "diff");
    assert_int_equal(r.status, 0);
    assert_starts(r.out, "ingested 1, skipped 0, rejected 0, solved 1, failed 0, set 'stdin', run 1");
    run_result_free(&r);
    assert_int_equal(value_of(f->db, "s1", "diff"), 2);

    const char *other = tmp_path(f->dir, "other.db");
    assert_int_equal(db_exec(other, "CREATE TABLE \"my rows\" (id, piles); INSERT INTO \"my rows\" VALUES ('t1', '[5,3]');"),
                     0);
    COINROW(&r, NULL, "ingest", "--from-db", other, "--table", "MY ROWS", "--db", f->db);
    assert_int_equal(r.status, 0);
    assert_starts(r.out, "ingested 1, skipped 0, rejected 0, set 'MY ROWS' in ");
    run_result_free(&r);
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM instance_set s JOIN instance i ON i.set_id = s.id "
                                   "WHERE s.name = 'MY ROWS' AND i.coins = '[5,3]' AND s.source LIKE '%:MY ROWS'"),
                     1);
    COINROW(&r, NULL, "solve", "--db", f->db);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "has 2 instance sets (stdin, MY ROWS): name one\n"));
    run_result_free(&r);
}

static void test_cli_batch__usage_errors_exit_2(void **state)
{
    tmp_db *f = *state;
    struct {
        const char *args[7]; /* NULL after the last */
        const char *message;
    } cases[] = {
        {{"run", "--db", f->db}, "no input: give files, folders or '-', or --from-db FILE --table NAME"},
        /* it stored the rows, then marked the set unfinished with a command that could never finish it */
        {{"run", "-", "-", "--db", f->db}, "'-' is given twice: standard input is read once"},
        {{"ingest", "-", "x.csv", "-", "--db", f->db}, "'-' is given twice"},
        {{"ingest", "--from-db", f->db}, "--from-db FILE and --table NAME go together"},
        {{"ingest", "x.csv", "--from-db", f->db, "--table", "t"}, "give input files or --from-db, not both"},
        {{"solve", "--resume", "--variant", "diff"}, "--resume goes on with the run's own set and options"},
        {{"solve", "--resume", "x"}, "--resume takes one run id"},
        {{"solve", "data.csv"}, "'data.csv': solve takes no inputs (ingest them first, or use run)"},
        {{"run", "x.csv", "--jobs", "0"}, "--jobs takes a number from 1 to 256, not '0'"},
        {{"run", "x.csv", "--format", "xml"}, "unknown format 'xml'"},
        {{"run", "x.csv", "--variant", "best"}, "unknown variant 'best'"},
        {{"show", "--limit", "-1"}, "--limit takes a positive number"},
        /* accepted: --quiet won, and --values-col was left unused */
        {{"run", "x.csv", "--quiet", "--progress"}, "--quiet and --progress ask for opposites: give one of them"},
        {{"run", "x.csv", "--format", "wide", "--values-col", "b"}, "--values-col has no meaning for --format wide"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run_result r;
        assert_int_equal(run_coinrow_args(&r, NULL, cases[i].args), 0);
        assert_int_equal(r.status, 2);
        assert_non_null(strstr(r.err, cases[i].message));
        assert_non_null(strstr(r.err, "Try 'coinrow "));
        run_result_free(&r);
    }
    assert_int_equal(access(f->db, F_OK), -1);
}

static void test_cli_batch__fatal_errors_exit_1_naming_what_and_where(void **state)
{
    tmp_db *f = *state;
    run_result r;
    COINROW(&r, NULL, "run", "no-such.csv", "--db", f->db);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.err, "coinrow: cannot read no-such.csv: No such file or directory\n");
    run_result_free(&r);
    assert_int_equal(access(f->db, F_OK), -1); /* nothing was created */
    /* solve needs a set there, and so does a resumed run (it made an empty database) */
    const char *resumed[][7] = {{"solve", "--db", f->db}, {"run", "--resume", fixture("windows.csv"), "--db", f->db}};
    for (size_t k = 0; k < 2; k++) {
        assert_int_equal(run_coinrow_args(&r, NULL, resumed[k]), 0);
        assert_int_equal(r.status, 1);
        assert_non_null(strstr(r.err, "t.db: no such file (this command needs a coinrow database there, and creates "
                                      "none)\n"));
        run_result_free(&r);
        assert_int_equal(access(f->db, F_OK), -1);
    }
    COINROW(&r, NULL, "ingest", fixture("no_values_column.csv"), "--db", f->db);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "coinrow: tests/fixtures/no_values_column.csv line 1: no values column"));
    run_result_free(&r);
    COINROW(&r, NULL, "run", fixture("no_id.csv"), "--db", fixture("no_id.csv"));
    assert_int_equal(r.status, 1);
    assert_string_equal(r.err, "coinrow: tests/fixtures/no_id.csv: the file is not a SQLite database while "
                               "reading its schema version\n");
    run_result_free(&r);
    COINROW(&r, NULL, "show", "--db", tmp_path(f->dir, "none.db"));
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "none.db: no such file (this command needs a coinrow database there, and "
                                  "creates none)\n"));
    run_result_free(&r);
    /* a folder: SQLite said "an I/O error while opening it" */
    const char *folder = tmp_path(f->dir, "folder.db");
    assert_int_equal(mkdir(folder, 0700), 0);
    const char *commands[] = {"show", "check-db", "solve"};
    for (size_t i = 0; i < 3; i++) {
        COINROW(&r, NULL, commands[i], "--db", folder);
        assert_int_equal(r.status, 1);
        assert_non_null(strstr(r.err, "folder.db is a folder, not a database\n"));
        run_result_free(&r);
    }
    COINROW(&r, NULL, "run", "sample-data", "--db", folder);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "folder.db is a folder, not a database\n"));
    run_result_free(&r);
}

static void test_cli_batch__read_only_and_locked_databases_stay_intact(void **state)
{
    tmp_db *f = *state;
    run_result r;
    COINROW(&r, NULL, "ingest", fixture("no_id.csv"), "--db", f->db);
    assert_int_equal(r.status, 0);
    run_result_free(&r);

    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(f->db, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    COINROW(&r, NULL, "run", fixture("separators.csv"), "--db", f->db);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "t.db: the database is locked by another connection (another coinrow writing to it, or a "
                                  "program reading it in a transaction?)"));
    run_result_free(&r);
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    /* a reader in a transaction (a database browser left open) holds a
     * commit off in rollback mode: it was called "another writer" */
    assert_int_equal(sqlite3_exec(db, "BEGIN; SELECT count(*) FROM instance", NULL, NULL, NULL), SQLITE_OK);
    COINROW(&r, NULL, "run", fixture("separators.csv"), "--db", f->db);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "or a program reading it in a transaction?)"));
    run_result_free(&r);
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close(db);

    if (make_read_only(f->db) == 0) {
        COINROW(&r, NULL, "run", fixture("separators.csv"), "--db", f->db);
        make_writable(f->db);
        assert_int_equal(r.status, 1);
        assert_non_null(strstr(r.err, "t.db: the file is read-only; coinrow needs to write to it\n"));
        run_result_free(&r);
        /* up to date, which upgrade finds by reading alone: it asked to write */
        assert_int_equal(make_read_only(f->db), 0);
        COINROW(&r, NULL, "upgrade", "--db", f->db);
        make_writable(f->db);
        assert_int_equal(r.status, 0);
        assert_non_null(strstr(r.out, "t.db: schema version "));
        assert_non_null(strstr(r.out, ", up to date\n"));
        run_result_free(&r);
    }
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM instance"), 2);
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM run"), 0);
    assert_int_equal(db_exec(f->db, "PRAGMA integrity_check"), 0);
}

/* show, compare, check-db, strength and export's reading leave the
 * database's folder as it was, byte for byte and without -wal or -shm
 * files, even when the file is read-only (strength asked to write to it). */
static void test_cli_batch__read_only_commands_change_no_file(void **state)
{
    tmp_db *f = *state;
    char *data = tmp_dir_new(), *out = tmp_dir_new();
    snprintf(f->db, sizeof f->db, "%s", tmp_path(data, "t.db"));
    run_result r;
    COINROW(&r, NULL, "run", "sample-data", "--db", f->db, "--variant", "diff", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    char *before = dir_snapshot(data);
    assert_non_null(strstr(before, "t.db "));
    assert_null(strstr(before, "-wal"));
    for (int read_only = 0; read_only < 2; read_only++) {
        if (read_only && make_read_only(f->db) != 0)
            break;
        const char *commands[][12] = {
            {"show", "--db", f->db},
            {"compare", "--db", f->db, "1", "1"},
            {"check-db", "--db", f->db},
            {"export", "--db", f->db, "--set", "sample-data", "--variant", "diff", "--format", "plain", "--out",
             tmp_path(out, read_only ? "b" : "a")},
            {"strength", "--db", f->db, "--set", "sample-data", "--variant", "diff"},
        };
        for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
            assert_int_equal(run_coinrow_args(&r, NULL, commands[i]), 0);
            int weak = strcmp(commands[i][0], "strength") == 0 && r.status == 1; /* a strategy survives */
            if (r.status != 0 && !weak)
                fail_msg("%s: exit %d: %s", commands[i][0], r.status, r.err);
            run_result_free(&r);
            char *after = dir_snapshot(data);
            if (strcmp(after, before) != 0)
                fail_msg("%s changed the database's folder:\n%s\nwas:\n%s", commands[i][0], after, before);
            free(after);
        }
    }
    make_writable(f->db);
    free(before);
    tmp_dir_free(data);
    tmp_dir_free(out);
}

/* A database of an older coinrow (tests/fixtures/schemaV/coinrow.db, of
 * schema version V): the reading commands refuse it, naming `coinrow
 * upgrade`, and leave its folder as it was; upgrade brings it up to date
 * keeping every row of result_view, after which they read it. */
static void readers_refuse_then_upgrade(tmp_db *f, int version)
{
    char *data = tmp_dir_new(), *out = tmp_dir_new(), name[64];
    snprintf(f->db, sizeof f->db, "%s", tmp_path(data, "old.db"));
    snprintf(name, sizeof name, "schema%d/coinrow.db", version);
    assert_int_equal(copy_file(fixture(name), f->db), 0);
    const char *every_row = "SELECT group_concat(json_array(run_id, ext_id, variant, value, first_score, second_score, "
                            "winner, moves, error), char(10)) FROM (SELECT * FROM result_view "
                            "ORDER BY run_id, instance_id, variant)";
    char *rows = db_text(f->db, every_row), *before = dir_snapshot(data);
    char hint[4200];
    snprintf(hint, sizeof hint, "schema version %d, this coinrow reads version %d: 'coinrow upgrade --db %s' upgrades it",
             version, cr_store_schema_version(), f->db);
    const char *readers[][12] = {
        {"show", "--db", f->db},
        {"compare", "--db", f->db, "1", "2"},
        {"check-db", "--db", f->db},
        {"export", "--db", f->db, "--set", "gen", "--variant", "diff", "--format", "plain", "--out",
         tmp_path(out, "p")},
        {"report", "--db", f->db, "--set", "mix", "--out", tmp_path(out, "r.html")},
        {"compare", "--db", f->db, "--against", f->db, "--run-a", "1", "--run-b", "2"},
    };
    run_result r;
    for (size_t i = 0; i < sizeof readers / sizeof readers[0]; i++) {
        assert_int_equal(run_coinrow_args(&r, NULL, readers[i]), 0);
        if (r.status != (strcmp(readers[i][0], "compare") == 0 ? 2 : 1) || !strstr(r.err, hint))
            fail_msg("%s: exit %d: %s", readers[i][0], r.status, r.err);
        run_result_free(&r);
        char *after = dir_snapshot(data);
        assert_string_equal(after, before);
        free(after);
    }
    /* a command that may write, but refuses (or, as strength with a run to
     * read, writes nothing), leaves the file as it was: it used to upgrade
     * it first, for good */
    const char *unwritten[][12] = {
        {"solve", "--db", f->db, "--set", "nosuch"},
        {"solve", "--db", f->db, "--resume", "99"},
        {"invoke", "--db", f->db, "--set", "nosuch", "--variant", "diff", "--builtin", "greedy"},
        {"invoke", "--db", f->db, "--resume", "99"},
        {"strength", "--db", f->db, "--set", "nosuch", "--variant", "diff"},
        {"strength", "--db", f->db, "--set", "gen", "--variant", "total"},
        {"compare", "--db", f->db, "1", "99", "--record"},
    };
    size_t len, was_len;
    char *was = read_bytes(f->db, &was_len);
    for (size_t i = 0; i < sizeof unwritten / sizeof unwritten[0]; i++) {
        assert_int_equal(run_coinrow_args(&r, NULL, unwritten[i]), 0);
        run_result_free(&r);
        char *now = read_bytes(f->db, &len);
        if (len != was_len || memcmp(now, was, len) != 0)
            fail_msg("%s %s %s changed the file", unwritten[i][0], unwritten[i][3], unwritten[i][4]);
        free(now);
    }
    free(was);

    COINROW(&r, NULL, "upgrade", "--db", f->db);
    assert_int_equal(r.status, 0);
    snprintf(hint, sizeof hint, "%s: schema version %d upgraded to %d\n", f->db, version, cr_store_schema_version());
    assert_string_equal(r.out, hint);
    run_result_free(&r);
    char *upgraded = db_text(f->db, every_row);
    assert_string_equal(upgraded, rows);
    COINROW(&r, NULL, "upgrade", "--db", f->db);
    assert_int_equal(r.status, 0);
    snprintf(hint, sizeof hint, "%s: schema version %d, up to date\n", f->db, cr_store_schema_version());
    assert_string_equal(r.out, hint);
    run_result_free(&r);
    char *listed = dir_snapshot(data), *bytes = read_bytes(f->db, &len);
    assert_null(strstr(listed, "-wal"));
    assert_true(len > 19 && bytes[18] == 1 && bytes[19] == 1); /* rollback mode, whatever the fixture's */
    free(bytes);
    for (size_t i = 0; i < sizeof readers / sizeof readers[0]; i++) {
        assert_int_equal(run_coinrow_args(&r, NULL, readers[i]), 0);
        /* compare may find differences (1): schema5 and 6 have a row edited by hand */
        if (strcmp(readers[i][0], "compare") == 0 ? r.status > 1 : r.status != 0)
            fail_msg("%s after the upgrade: exit %d: %s", readers[i][0], r.status, r.err);
        run_result_free(&r);
    }
    free(listed);
    free(upgraded);
    free(rows);
    free(before);
    tmp_dir_free(data);
    tmp_dir_free(out);
}

/* tests/fixtures/schema3: made by coinrow at 22b5fee (tests/test_store_results.c). */
static void test_cli_batch__readers_refuse_a_version_3_database_and_upgrade_brings_it_up_to_date(void **state)
{
    readers_refuse_then_upgrade(*state, 3);
}

/* tests/fixtures/schema5: made by coinrow at e719b78 (tests/test_store_results.c). */
static void test_cli_batch__readers_refuse_a_version_5_database_and_upgrade_brings_it_up_to_date(void **state)
{
    readers_refuse_then_upgrade(*state, 5);
}

/* tests/fixtures/schema6: made by coinrow at b3200a8 (tests/test_store_results.c). */
static void test_cli_batch__readers_refuse_a_version_6_database_and_upgrade_brings_it_up_to_date(void **state)
{
    readers_refuse_then_upgrade(*state, 6);
}

/* tests/fixtures/schema7: made by coinrow at 4e16f53 (tests/test_store_results.c). */
static void test_cli_batch__readers_refuse_a_version_7_database_and_upgrade_brings_it_up_to_date(void **state)
{
    readers_refuse_then_upgrade(*state, 7);
}

/* tests/fixtures/schema8: made by coinrow at e1df001 (tests/test_store_results.c). */
static void test_cli_batch__readers_refuse_a_version_8_database_and_upgrade_brings_it_up_to_date(void **state)
{
    readers_refuse_then_upgrade(*state, 8);
}

/* tests/fixtures/schema9: made by coinrow at 95a2399 (tests/test_store_results.c). */
static void test_cli_batch__readers_refuse_a_version_9_database_and_upgrade_brings_it_up_to_date(void **state)
{
    readers_refuse_then_upgrade(*state, 9);
}

/* upgrade creates nothing and changes nothing it refuses: a missing file,
 * an empty one, another program's database; and it takes no operands. */
static void test_cli_batch__upgrade_refuses_what_is_not_an_older_coinrow_database(void **state)
{
    tmp_db *f = *state;
    run_result r;
    COINROW(&r, NULL, "upgrade", "--db", f->db);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "t.db: no such file"));
    run_result_free(&r);
    assert_int_equal(access(f->db, F_OK), -1);

    const char *empty = tmp_path(f->dir, "empty.db"), *theirs = tmp_path(f->dir, "theirs.db");
    assert_int_equal(write_file(empty, ""), 0);
    assert_int_equal(db_exec(theirs, "CREATE TABLE notes(text); INSERT INTO notes VALUES ('mine')"), 0);
    char *before = dir_snapshot(f->dir);
    COINROW(&r, NULL, "upgrade", "--db", empty);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "empty.db: not a coinrow database (it has no tables)"));
    run_result_free(&r);
    COINROW(&r, NULL, "upgrade", "--db", theirs);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "theirs.db: not a coinrow database: it has tables of its own (notes)"));
    run_result_free(&r);
    char *after = dir_snapshot(f->dir);
    assert_string_equal(after, before);
    COINROW(&r, NULL, "upgrade", "--db", theirs, "extra");
    assert_int_equal(r.status, 2);
    run_result_free(&r);
    free(before);
    free(after);
}

/* A file of this schema whose table of results was dropped by hand is not
 * "up to date": every command that reads results would fail on it.
 * upgrade says what is missing, exits 1, and leaves the file as it was. */
static void test_cli_batch__upgrade_refuses_a_current_file_missing_one_of_coinrows_tables(void **state)
{
    tmp_db *f = *state;
    run_result r;
    COINROW(&r, NULL, "run", "sample-data", "--db", f->db, "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    assert_int_equal(db_exec(f->db, "PRAGMA foreign_keys = OFF; DROP TABLE solution"), 0);
    char *before = dir_snapshot(f->dir);
    COINROW(&r, NULL, "upgrade", "--db", f->db);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    char said[4400];
    snprintf(said, sizeof said, "%s: schema version %d, but coinrow's objects are not all as it defines them", f->db,
             cr_store_schema_version());
    assert_non_null(strstr(r.err, said));
    assert_non_null(strstr(r.err, "\n  table 'solution': missing: CREATE TABLE solution ("));
    assert_non_null(strstr(r.err, "\n  index 'solution_ext_id' on solution: missing"));
    run_result_free(&r);
    char *after = dir_snapshot(f->dir);
    assert_string_equal(after, before);
    free(before);
    free(after);
}

static void test_cli_batch__progress_only_when_asked_and_quiet_is_quiet(void **state)
{
    tmp_db *f = *state;
    run_result r;
    COINROW(&r, NULL, "run", "sample-data", "--db", f->db, "--progress");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.err, "\rsolved ") ? strstr(r.err, "\rsolved ") : strstr(r.err, "\ringested "));
    run_result_free(&r);
    COINROW(&r, NULL, "solve", "--db", f->db, "--quiet");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "");
    assert_string_equal(r.err, "");
    run_result_free(&r);
}

static void test_cli_batch__every_command_has_help(void **state)
{
    (void)state;
    const char *commands[] = {"run", "ingest", "solve", "show"};
    for (size_t i = 0; i < 4; i++) {
        run_result r;
        COINROW(&r, NULL, commands[i], "--help");
        assert_int_equal(r.status, 0);
        char usage[64];
        snprintf(usage, sizeof usage, "usage: coinrow %s", commands[i]);
        assert_non_null(strstr(r.out, usage));
        assert_non_null(strstr(r.out, "--db PATH"));
        run_result_free(&r);
        COINROW(&r, NULL, "help", commands[i]);
        assert_int_equal(r.status, 0);
        assert_non_null(strstr(r.out, usage));
        run_result_free(&r);
    }
    run_result r;
    COINROW(&r, NULL, "help");
    assert_non_null(strstr(r.out, "  run "));
    assert_non_null(strstr(r.out, "  solve "));
    char *overview = r.out;
    r.out = NULL;
    run_result_free(&r);
    COINROW(&r, NULL, "help", "help"); /* listed as a command: "no command 'help'" */
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, overview);
    free(overview);
    run_result_free(&r);
    COINROW(&r, NULL, "solve", "--help");
    assert_non_null(strstr(r.out, "--resume"));
    assert_non_null(strstr(r.out, "Exit status: 0 done, 3 done but some rows were rejected"));
    run_result_free(&r);
}

int main(void)
{
#define TEST(name) cmocka_unit_test_setup_teardown(name, tmp_db_setup, tmp_db_teardown)
    const struct CMUnitTest tests[] = {
        TEST(test_cli_batch__run_on_the_sample_data_agrees_with_the_core),
        TEST(test_cli_batch__bad_rows_exit_3_and_the_good_rows_are_solved),
        TEST(test_cli_batch__the_first_ten_rejected_rows_are_shown_and_the_rest_counted),
        TEST(test_cli_batch__a_short_wide_row_costs_only_itself),
        TEST(test_cli_batch__ids_with_a_nul_byte_are_rejected),
        TEST(test_cli_batch__input_refused_before_its_first_row_creates_nothing),
        TEST(test_cli_batch__from_db_of_the_database_written_to_is_refused),
        TEST(test_cli_batch__empty_names_are_refused_everywhere),
        TEST(test_cli_batch__a_run_whose_set_was_deleted_by_hand_is_refused),
        TEST(test_cli_batch__an_unreadable_ext_id_is_named_without_a_hint_that_fails_again),
        TEST(test_cli_batch__a_damaged_instance_is_its_own_failure_not_the_runs),
        TEST(test_cli_batch__show_lines_up_utf8_ids_and_large_points_and_long_names),
        TEST(test_cli_batch__ingest_then_solve_then_resume_nothing),
        TEST(test_cli_batch__reads_stdin_and_tables_of_other_databases),
        TEST(test_cli_batch__usage_errors_exit_2),
        TEST(test_cli_batch__fatal_errors_exit_1_naming_what_and_where),
        TEST(test_cli_batch__read_only_and_locked_databases_stay_intact),
        TEST(test_cli_batch__read_only_commands_change_no_file),
        TEST(test_cli_batch__readers_refuse_a_version_3_database_and_upgrade_brings_it_up_to_date),
        TEST(test_cli_batch__readers_refuse_a_version_5_database_and_upgrade_brings_it_up_to_date),
        TEST(test_cli_batch__readers_refuse_a_version_6_database_and_upgrade_brings_it_up_to_date),
        TEST(test_cli_batch__readers_refuse_a_version_7_database_and_upgrade_brings_it_up_to_date),
        TEST(test_cli_batch__readers_refuse_a_version_8_database_and_upgrade_brings_it_up_to_date),
        TEST(test_cli_batch__readers_refuse_a_version_9_database_and_upgrade_brings_it_up_to_date),
        TEST(test_cli_batch__upgrade_refuses_what_is_not_an_older_coinrow_database),
        TEST(test_cli_batch__upgrade_refuses_a_current_file_missing_one_of_coinrows_tables),
        TEST(test_cli_batch__progress_only_when_asked_and_quiet_is_quiet),
        TEST(test_cli_batch__every_command_has_help),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* check-db end to end: a sound database passes, damage to a page and each
 * broken invariant is found and named, and export and merge refuse a
 * damaged database. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "support/files.h"
#include "support/run.h"

/* A done run of sample-data (14 instances, every variant) in db, and a
 * done invocation of a built-in strategy on it (its verdicts). */
static void sample_run(const char *db)
{
    run_result r;
    COINROW(&r, NULL, "run", "sample-data", "--db", db, "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    COINROW(&r, NULL, "invoke", "--set", "sample-data", "--variant", "total", "--builtin", "greedy", "--db", db,
            "--quiet");
    run_result_free(&r);
    assert_int_equal(db_int(db, "SELECT count(*) FROM verdict JOIN invocation ON id = invocation_id "
                                "WHERE status = 'done'"),
                     14);
}

/* A set of two groups, sub, in db: small (ids 1, tests small-01 to -03)
 * and eq (2, all coins equal, n even, depending on small; eq-01 and -02). */
static void group_set(const char *db)
{
    run_result r;
    COINROW(&r, NULL, "generate", "--db", db, "--set", "sub", "--group", "small", "--points", "20", "--count", "3",
            "--n", "1..20", "--values", "1..100", "--seed", "1", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    COINROW(&r, NULL, "generate", "--db", db, "--set", "sub", "--group", "eq", "--points", "30", "--depends", "small",
            "--all-equal", "--even-n", "--count", "2", "--n", "2..20", "--values", "1..100", "--seed", "2", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
}

/* Writes 4 KiB of random bytes over the start of the solution table's
 * first page, as a failing disk would. */
static void damage_results(const char *db)
{
    int64_t page = db_int(db, "PRAGMA page_size"), root = db_int(db, "SELECT rootpage FROM sqlite_master "
                                                                     "WHERE name = 'solution'");
    assert_true(root > 0);
    FILE *f = fopen(db, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, (long)((root - 1) * page), SEEK_SET), 0);
    uint64_t x = 88172645463325252u;
    for (int i = 0; i < 4096; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        fputc((int)(x & 0xff), f);
    }
    assert_int_equal(fclose(f), 0);
}

static void test_check_db__a_sound_database_passes_every_check(void **state)
{
    tmp_db *f = *state;
    sample_run(f->db);
    group_set(f->db);
    run_result r;
    COINROW(&r, NULL, "check-db", "--db", f->db);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "integrity                            ok\n"
                               "schema-is-coinrows                   ok\n"
                               "objects-of-your-own                  ok\n"
                               "results-have-their-instance          ok\n"
                               "solved-instances-have-every-variant  ok\n"
                               "extra-is-within-variants             ok\n"
                               "extra-rows-match-extra-bits          ok\n"
                               "solutions-have-their-scores          ok\n"
                               "lines-have-their-length              ok\n"
                               "extra-rows-are-results               ok\n"
                               "solutions-copy-their-set             ok\n"
                               "solutions-copy-their-ext-id          ok\n"
                               "solutions-copy-their-n               ok\n"
                               "outcome-is-the-winner                ok\n"
                               "done-runs-have-every-instance        ok\n"
                               "ingests-are-finished                 ok\n"
                               "verdicts-have-their-instance         ok\n"
                               "verdicts-have-their-times            ok\n"
                               "done-invocations-have-every-instance ok\n"
                               "group-tests-are-of-their-set         ok\n"
                               "group-tests-meet-their-constraints   ok\n"
                               "groups-keep-their-checks             ok\n"
                               "group-dependencies-are-of-their-set  ok\n"
                               "group-dependencies-have-no-cycle     ok\n"
                               "sets-keep-their-size-and-digest      ok\n"
                               "names-are-not-empty                  ok\n"
                               "rows-read-back                       ok\n");
    assert_string_equal(r.err, "");
    run_result_free(&r);
    /* figures beyond int64: rows kept whole in result_extra (and a row rejected) */
    COINROW(&r, NULL, "run", fixture("schema3/mix.csv"), "--db", f->db, "--quiet");
    assert_int_equal(r.status, 3);
    run_result_free(&r);
    assert_true(db_int(f->db, "SELECT count(*) FROM result_extra") > 0);
    COINROW(&r, NULL, "check-db", "--db", f->db);
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    /* a run done before more instances came is still whole */
    COINROW(&r, NULL, "ingest", fixture("no_id.csv"), "--db", f->db, "--set", "sample-data", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    COINROW(&r, NULL, "check-db", "--db", f->db);
    assert_int_equal(r.status, 0);
    run_result_free(&r);
}

/* Each edit of the tables breaks one invariant (the sample's instances
 * have every variant, none kept in result_extra, and a verdict each); the
 * edits of instances also break their sets' size and digest. */
static void test_check_db__each_broken_invariant_is_named(void **state)
{
    tmp_db *f = *state;
    sample_run(f->db);
    group_set(f->db);
    assert_int_equal(db_exec(f->db, /* a run that does not exist */
                             "INSERT INTO solution (run_id, instance_id, set_id, ext_id, n, variants, extra, outcome, "
                             "first_score, second_score) SELECT 77, id, set_id, ext_id, n, 2, 0, 4, 5, 4 "
                             "FROM instance WHERE id = 10;"
                             /* no diff */
                             "UPDATE solution SET variants = 13, outcome = outcome & ~12 WHERE instance_id = 1;"
                             /* a bit of no variant the row solves */
                             "UPDATE solution SET extra = 16 WHERE instance_id = 3;"
                             /* winner marked without its row, total's row without its mark */
                             "UPDATE solution SET extra = 8 WHERE instance_id = 9;"
                             "INSERT INTO result_extra (run_id, instance_id, variant, value) VALUES (1, 5, 'total', 1);"
                             /* a winner and a line coinrow does not write, in result_extra */
                             "UPDATE result_extra SET winner = 'sideways', moves = 'QQ' WHERE instance_id = 5;"
                             /* remaining without its game's scores */
                             "UPDATE solution SET remaining_first_score = NULL WHERE instance_id = 6;"
                             /* a line of 3 turns for 6 coins, and one of 6 with another letter */
                             "UPDATE solution SET moves = 'LLR', remaining_moves = 'LLRRLX' WHERE instance_id = 7;"
                             /* an instance the done run lost */
                             "DELETE FROM solution WHERE instance_id = 2;"
                             /* an invocation that does not exist, an instance the done one lost */
                             "INSERT INTO verdict (invocation_id, instance_id, verdict, cpu_seconds, wall_seconds, "
                             "message) VALUES (9, 3, 'AC', 0, 0, '');"
                             "DELETE FROM verdict WHERE instance_id = 5;"
                             /* a time no program takes */
                             "UPDATE verdict SET cpu_seconds = -1 WHERE instance_id = 6;"
                             "UPDATE instance SET ext_id = '' WHERE id = 2;"
                             /* names coinrow does not write: an algorithm, a verdict (shown as RE);
                              * coins it cannot read */
                             "UPDATE run SET algo = 'quantum' WHERE id = 1;"
                             "UPDATE verdict SET verdict = 'XX' WHERE instance_id = 4;"
                             "UPDATE instance SET coins = replace(coins, ']', '.5]') WHERE id = 8;"
                             /* copies that are not their instance's */
                             "UPDATE solution SET set_id = 9 WHERE instance_id = 11;"
                             "UPDATE solution SET ext_id = 'other' WHERE instance_id = 12;"
                             "UPDATE solution SET n = 99 WHERE instance_id = 13;"
                             /* a draw where the first player wins the diff */
                             "UPDATE solution SET outcome = outcome | 12 WHERE instance_id = 14 AND first_score > "
                             "second_score;"
                             /* an ingest that did not finish */
                             "INSERT INTO ingest_error (set_id, source, line, reason, raw) VALUES "
                             "(1, 'in.csv', 0, 'ingest unfinished', 'coinrow run --resume in.csv');"
                             /* a test of sub's group small from set sample-data */
                             "INSERT INTO test_group_instance (instance_id, group_id) VALUES (1, 1);"
                             /* eq's coins not all equal */
                             "UPDATE instance SET coins = '[4,6]', n = 2, total = 10 WHERE ext_id = 'eq-01';"
                             /* a group of sample-data that depends on sub's small */
                             "INSERT INTO test_group (set_id, name, position, points, n_min, n_max, value_min, "
                             "value_max) VALUES (1, 'other', 1, 0, 1, 9, 1, 9);"
                             "INSERT INTO test_group_dependency (group_id, depends_on) VALUES (3, 1);"
                             /* a name that would leave an export's folder, written with the checks off */
                             "PRAGMA ignore_check_constraints = 1;"
                             "UPDATE test_group SET name = '../other' WHERE id = 3;"
                             /* small depends on eq, which depends on small */
                             "INSERT INTO test_group_dependency (group_id, depends_on) VALUES (1, 2);"),
                     0);
    run_result r;
    COINROW(&r, NULL, "check-db", "--db", f->db);
    assert_int_equal(r.status, 1);
    char want[8192]; /* the command that finishes the ingest names the database as check-db was given it */
    snprintf(want, sizeof want,
                               "integrity                            ok\n"
                               "schema-is-coinrows                   ok\n"
                               "objects-of-your-own                  ok\n"
                               "results-have-their-instance          1 solutions whose run or instance is missing, or "
                               "whose instance is not of the run's set (such as run 77, instance 10)\n"
                               "solved-instances-have-every-variant  1 instances solved in a run without exactly the "
                               "run's variants (such as run 1, instance 1: total,remaining,winner of "
                               "total,diff,remaining,winner)\n"
                               "extra-is-within-variants             1 solutions with variants kept in result_extra "
                               "that they do not solve (such as run 1, instance 3)\n"
                               "extra-rows-match-extra-bits          2 variants marked extra without their row in "
                               "result_extra, or rows there without their mark (such as run 1, instance 5, total: "
                               "not marked)\n"
                               "solutions-have-their-scores          1 solutions without whole-number scores of a game "
                               "that a variant they give reads (such as run 1, instance 6)\n"
                               "lines-have-their-length              1 solutions with a line of play that is not one L "
                               "or R per coin of their instance (such as run 1, instance 7)\n"
                               "extra-rows-are-results               1 rows of result_extra whose winner is not first, "
                               "second or draw, or whose line is not one L or R per coin of their instance (such as "
                               "run 1, instance 5, total)\n"
                               "solutions-copy-their-set             1 solutions whose set_id is not their instance's "
                               "(such as run 1, instance 11)\n"
                               "solutions-copy-their-ext-id          1 solutions whose ext_id is not their instance's "
                               "(such as run 1, instance 12)\n"
                               "solutions-copy-their-n               1 solutions whose n is not their instance's (such "
                               "as run 1, instance 13)\n"
                               "outcome-is-the-winner                1 solutions whose outcome is not the winner of "
                               "each variant they give (such as run 1, instance 14, diff)\n"
                               "done-runs-have-every-instance        1 done runs that lack an instance of their set "
                               "older than the last they solved (such as run 1 lacks 1 of them, from instance 2)\n"
                               "ingests-are-finished                 1 sets whose ingest did not finish: rows of their "
                               "input are missing (such as set 1 (sample-data): the ingest of in.csv did not finish; finish "
                               "the job with: coinrow run --resume in.csv --db %s)\n"
                               "verdicts-have-their-instance         1 verdicts whose invocation or instance is "
                               "missing, or whose instance is not of the invocation's set (such as invocation 9, "
                               "instance 3)\n"
                               "verdicts-have-their-times            1 verdicts and invocations whose times are no "
                               "number of seconds from 0 to 1e9 (such as invocation 1, instance 6)\n"
                               "done-invocations-have-every-instance 1 done invocations that lack an instance of "
                               "their set older than the last they judged (such as invocation 1 lacks 1 of them, from "
                               "instance 5)\n"
                               "group-tests-are-of-their-set         1 tests of a group whose group or instance is "
                               "missing, or whose instance is not of the group's set (such as test_group 1, "
                               "instance 1)\n"
                               "group-tests-meet-their-constraints   1 tests that break their group's constraints "
                               "(such as set 2, group eq, test eq-01: its coins are not all equal)\n"
                               "groups-keep-their-checks             1 groups whose name, points or ranges break what "
                               "test_group promises (such as set 1, group 3 (position 1))\n"
                               "group-dependencies-are-of-their-set  1 dependencies between groups that are missing "
                               "or of two sets (such as group 3 depends on group 1)\n"
                               "group-dependencies-have-no-cycle     2 groups that depend on themselves through "
                               "others (such as set 2, group eq)\n"
                               "sets-keep-their-size-and-digest      2 sets whose size or digest is not their "
                               "instances' (such as set 1 (sample-data): size 14 and digest 638bb8ca43784774, its "
                               "instances 14 and f2e32f3363499ba8)\n"
                               "names-are-not-empty                  1 sets or instances whose name is empty, holds "
                               "a NUL byte or is not text (such as instance 2)\n"
                               "rows-read-back                       4 runs, invocations, verdicts, instances or sets "
                               "that the commands refuse (such as run 1: unknown algorithm 'quantum' (expected auto, "
                               "linear, dp or naive))\n",
             f->db);
    assert_string_equal(r.out, want);
    assert_non_null(strstr(r.err, "t.db: 24 checks found problems\n"));
    run_result_free(&r);
}

/* Generates `count` rows of set g into csv, then runs them (diff) into db. */
static void run_generated(const char *db, const char *csv, const char *count)
{
    run_result r;
    COINROW(&r, NULL, "generate", "--set", "g", "--count", count, "--n", "2..20", "--values", "0..9", "--seed", "3",
            "--out", csv);
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    COINROW(&r, NULL, "run", csv, "--db", db, "--set", "g", "--variant", "diff", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
}

/* A verdict coinrow does not write, edited in by hand, is refused by the
 * commands that read verdicts, naming it: it was counted and shown as RE. */
static void test_check_db__a_verdict_coinrow_does_not_write_is_refused_not_shown_as_re(void **state)
{
    tmp_db *f = *state;
    sample_run(f->db);
    run_result r;
    COINROW(&r, NULL, "invoke", "--set", "sample-data", "--variant", "total", "--builtin", "left", "--db", f->db,
            "--quiet");
    run_result_free(&r);
    assert_int_equal(db_exec(f->db, "UPDATE verdict SET verdict = 'XX' WHERE invocation_id = 1 AND instance_id = 4"),
                     0);
    const char *said = "t.db: unknown verdict 'XX' (AC, WA, PE, TLE, MLE, RE or OLE) in the table verdict, which "
                       "coinrow does not write";
    COINROW(&r, NULL, "compare", "--db", f->db, "--invocations", "1", "2");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, said));
    run_result_free(&r);
    COINROW(&r, NULL, "report", "--db", f->db, "--set", "sample-data", "--out", tmp_path(f->dir, "r.html"));
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, said));
    run_result_free(&r);
    assert_int_equal(access(tmp_path(f->dir, "r.html"), F_OK), -1);
}

/* A copy of f's database, edited.db beside it, with sql run on it; its
 * path into db. */
static void edited_copy(char db[4400], const tmp_db *f, const char *sql)
{
    snprintf(db, 4400, "%s", tmp_path(f->dir, "edited.db"));
    assert_int_equal(copy_file(f->db, db), 0);
    assert_int_equal(db_exec(db, sql), 0);
}

/* Times coinrow does not write (negative, beyond 1e9 s, infinite, text)
 * in a verdict or an invocation's sums are refused by the commands that
 * read them and found by check-db: report drew a time of -1e308 at y =
 * inf, and -0.5 far below its chart. */
static void test_check_db__times_coinrow_does_not_write_are_refused_not_drawn(void **state)
{
    tmp_db *f = *state;
    sample_run(f->db);
    run_result r;
    COINROW(&r, NULL, "invoke", "--set", "sample-data", "--variant", "total", "--builtin", "left", "--db", f->db,
            "--quiet");
    run_result_free(&r);
    static const char *const edits[][2] = {
        {"UPDATE verdict SET cpu_seconds = -0.5 WHERE invocation_id = 1 AND instance_id = 4", "invocation 1: the verdict of instance 4 "},
        {"UPDATE verdict SET wall_seconds = 9e999 WHERE invocation_id = 1 AND instance_id = 2", "invocation 1: the verdict of instance 2 "},
        {"UPDATE verdict SET cpu_seconds = x'31' WHERE invocation_id = 1 AND instance_id = 3", "invocation 1: the verdict of instance 3 "},
        {"UPDATE invocation SET cpu_seconds = -1e308 WHERE id = 1", "invocation 1: its row "},
    };
    for (size_t k = 0; k < sizeof edits / sizeof *edits; k++) {
        char db[4400], said[256];
        edited_copy(db, f, edits[k][0]);
        snprintf(said, sizeof said, "edited.db: %sholds a time that is no number of seconds from 0 to 1e9, which "
                                    "coinrow does not write", edits[k][1]);
        COINROW(&r, NULL, "report", "--db", db, "--set", "sample-data", "--out", tmp_path(f->dir, "r.html"));
        assert_int_equal(r.status, 1);
        if (!strstr(r.err, said))
            fail_msg("after %s, report said:\n%s", edits[k][0], r.err);
        run_result_free(&r);
        assert_int_equal(access(tmp_path(f->dir, "r.html"), F_OK), -1);
        COINROW(&r, NULL, "check-db", "--db", db);
        assert_int_equal(r.status, 1);
        if (!strstr(r.out, "\nverdicts-have-their-times            1 verdicts and invocations whose "))
            fail_msg("after %s, check-db said:\n%s", edits[k][0], r.out);
        run_result_free(&r);
        assert_int_equal(remove(db), 0);
    }
}

/* A set deleted by hand, or a generator's arguments edited so that they
 * cannot be read, is a finding: check-db passed both, while show, compare
 * and export refused the file (and an ingest then took the set's id, and
 * its orphaned instances). */
static void test_check_db__a_deleted_set_and_an_unreadable_generator_are_named(void **state)
{
    tmp_db *f = *state;
    sample_run(f->db);
    run_result r;
    COINROW(&r, NULL, "generate", "--db", f->db, "--set", "gen", "--count", "2", "--n", "2..4", "--values", "1..9",
            "--seed", "1", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    static const char *const edits[][2] = {
        {"DELETE FROM instance_set WHERE id = 1", "(such as run 1: its set 1 is missing)"},
        {"UPDATE instance_set SET generator = '{}' WHERE id = 2",
         "(such as set 2: the generator's arguments cannot be read)"},
    };
    for (size_t k = 0; k < sizeof edits / sizeof *edits; k++) {
        char db[4400];
        edited_copy(db, f, edits[k][0]);
        COINROW(&r, NULL, "check-db", "--db", db);
        assert_int_equal(r.status, 1);
        const char *line = strstr(r.out, "\nrows-read-back ");
        if (!line || !strstr(line, edits[k][1]))
            fail_msg("after %s, check-db said:\n%s", edits[k][0], r.out);
        run_result_free(&r);
        assert_int_equal(remove(db), 0);
    }
}

/* A winner edited into result (UPDATE result, which docs/sql.md allows)
 * that coinrow does not write is refused by the commands that read it, and
 * found by check-db; it was shown as a draw.  A winner set to NULL is
 * shown as none ("-"), not as a draw. */
static void test_check_db__a_winner_coinrow_does_not_write_is_refused_not_shown_as_a_draw(void **state)
{
    tmp_db *f = *state;
    sample_run(f->db);
    assert_int_equal(db_exec(f->db, "UPDATE result SET winner = NULL WHERE run_id = 1 AND instance_id = 1 AND "
                                    "variant = 'total'"),
                     0);
    run_result r;
    COINROW(&r, NULL, "show", "--db", f->db, "--run", "1", "--limit", "4");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\ndeque-1                   4  total                      110                  110 "
                                  "                 100  -       "));
    run_result_free(&r);
    assert_int_equal(db_exec(f->db, "UPDATE result SET winner = 'First' WHERE run_id = 1 AND instance_id = 1 AND "
                                    "variant = 'winner'"),
                     0);
    COINROW(&r, NULL, "show", "--db", f->db, "--run", "1");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "t.db: run 1, instance 1: the winner result's winner is 'First', not first, second "
                                  "or draw (coinrow check-db finds such rows)\n"));
    run_result_free(&r);
    COINROW(&r, NULL, "check-db", "--db", f->db);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "\nextra-rows-are-results               1 rows of result_extra "));
    run_result_free(&r);
}

/* A run's status written past its CHECK is refused by the commands and
 * found by check-db: it read as failed, and solve --resume made it done. */
static void test_check_db__a_status_coinrow_does_not_write_is_refused(void **state)
{
    tmp_db *f = *state;
    sample_run(f->db);
    assert_int_equal(db_exec(f->db, "PRAGMA ignore_check_constraints = 1; UPDATE run SET status = 'weird'"), 0);
    const char *said = "t.db: run 1: unknown status 'weird' (running, done, interrupted or failed)";
    run_result r;
    COINROW(&r, NULL, "solve", "--db", f->db, "--resume");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, said));
    run_result_free(&r);
    COINROW(&r, NULL, "check-db", "--db", f->db);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "rows-read-back                       1 runs, invocations, verdicts, instances or sets "
                                  "that the commands refuse (such as run 1: unknown status 'weird'"));
    run_result_free(&r);
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM run WHERE status = 'weird'"), 1);
}

/* A set's size edited alone (merge and shards prove a set whole by its
 * size and digest) is a finding; it passed check-db. */
static void test_check_db__a_set_whose_size_is_not_its_count_is_named(void **state)
{
    tmp_db *f = *state;
    sample_run(f->db);
    assert_int_equal(db_exec(f->db, "UPDATE instance_set SET size = -4"), 0);
    run_result r;
    COINROW(&r, NULL, "check-db", "--db", f->db);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "\nsets-keep-their-size-and-digest      1 sets whose size or digest is not their "
                                  "instances' (such as set 1 (sample-data): size -4 and digest "));
    assert_non_null(strstr(r.err, "t.db: 1 check found problems\n"));
    run_result_free(&r);
}

/* A score that is not a whole number, which show and compare refuse
 * sending the user to check-db, is a finding: check-db passed it. */
static void test_check_db__a_score_that_is_not_a_whole_number_is_named(void **state)
{
    tmp_db *f = *state;
    sample_run(f->db);
    static const char *const edits[] = {"UPDATE solution SET first_score = 'abc' WHERE instance_id = 4",
                                        "UPDATE solution SET remaining_second_score = 2.5 WHERE instance_id = 4"};
    for (size_t k = 0; k < sizeof edits / sizeof *edits; k++) {
        assert_int_equal(db_exec(f->db, edits[k]), 0);
        run_result r;
        COINROW(&r, NULL, "show", "--db", f->db);
        assert_int_equal(r.status, 1);
        assert_non_null(strstr(r.err, "scores are missing or not whole numbers"));
        run_result_free(&r);
        COINROW(&r, NULL, "check-db", "--db", f->db);
        assert_int_equal(r.status, 1);
        assert_non_null(strstr(r.out, "\nsolutions-have-their-scores          1 solutions without whole-number scores "
                                      "of a game that a variant they give reads (such as run 1, instance 4)\n"));
        run_result_free(&r);
        assert_int_equal(db_exec(f->db, "UPDATE solution SET first_score = CAST(first_score AS INTEGER), "
                                        "remaining_second_score = 1 WHERE instance_id = 4"),
                         0);
    }
}

/* A deleted instance is a solution without its instance, not a done run
 * that lacks one: the run was said to lack one, "9 of 8". */
static void test_check_db__a_deleted_instance_is_not_called_one_the_run_lacks(void **state)
{
    tmp_db *f = *state;
    sample_run(f->db);
    assert_int_equal(db_exec(f->db, "DELETE FROM instance WHERE id = 3"), 0);
    run_result r;
    COINROW(&r, NULL, "check-db", "--db", f->db);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "\nresults-have-their-instance          1 solutions whose run or instance is "
                                  "missing, or whose instance is not of the run's set (such as run 1, instance 3)\n"));
    assert_non_null(strstr(r.out, "\ndone-runs-have-every-instance        ok\n"));
    assert_non_null(strstr(r.out, "\ndone-invocations-have-every-instance ok\n"));
    run_result_free(&r);
}

/* An instance's total (the sum of its coins, NULL when it leaves int64),
 * which SQL reads and no command, edited alone is a finding; it passed. */
static void test_check_db__an_instance_whose_total_is_not_its_sum_is_named(void **state)
{
    tmp_db *f = *state;
    sample_run(f->db);
    const char *csv = tmp_path(f->dir, "big.csv");
    assert_int_equal(write_file(csv, "id,values\na,\"9223372036854775807 5\"\n"), 0);
    run_result r;
    COINROW(&r, NULL, "run", csv, "--db", f->db, "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    COINROW(&r, NULL, "check-db", "--db", f->db); /* a total NULL because the sum leaves int64 is no finding */
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    static const char *const edits[][2] = {
        {"UPDATE instance SET total = total + 1 WHERE id = 6", "instance 6: total is 16 but its coins add up to 15"},
        {"UPDATE instance SET total = NULL WHERE id = 6", "instance 6: total is NULL but its coins add up to 15"},
        {"UPDATE instance SET total = 'x' WHERE id = 6", "instance 6: total is x but its coins add up to 15"},
    };
    for (size_t k = 0; k < sizeof edits / sizeof edits[0]; k++) {
        assert_int_equal(db_exec(f->db, edits[k][0]), 0);
        COINROW(&r, NULL, "check-db", "--db", f->db);
        assert_int_equal(r.status, 1);
        char finding[256];
        snprintf(finding, sizeof finding, "rows-read-back                       1 runs, invocations, verdicts, "
                                          "instances or sets that the commands refuse (such as %s)\n", edits[k][1]);
        assert_non_null(strstr(r.out, finding));
        run_result_free(&r);
    }
}

static void test_check_db__a_damaged_page_is_found_and_export_and_merge_refuse(void **state)
{
    tmp_db *f = *state;
    const char *csv = tmp_path(f->dir, "set.csv"), *shard = tmp_path(f->dir, "shard.db"),
               *into = tmp_path(f->dir, "into.db");
    run_result r;
    run_generated(f->db, csv, "300");
    COINROW(&r, NULL, "solve", "--db", f->db, "--shard", "0/1", "--out", shard, "--run-tag", "j", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    damage_results(f->db);
    damage_results(shard);

    COINROW(&r, NULL, "check-db", "--db", f->db);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "integrity "));
    assert_null(strstr(r.out, "integrity                            ok"));
    assert_non_null(strstr(r.err, "check"));
    run_result_free(&r);
    COINROW(&r, NULL, "export", "--db", f->db, "--set", "g", "--variant", "diff", "--format", "plain", "--out",
            tmp_path(f->dir, "package"));
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "t.db: the database is damaged ("));
    assert_non_null(strstr(r.err, "'coinrow check-db --db "));
    run_result_free(&r);
    assert_int_equal(access(tmp_path(f->dir, "package"), F_OK), -1);
    COINROW(&r, NULL, "merge", "--db", into, shard);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "shard.db: the database is damaged ("));
    run_result_free(&r);
    assert_int_equal(access(into, F_OK), -1);
}

/* The shards are checked two at a time (each of two threads takes every
 * other one): of two damaged ones, one for each thread, the first in k
 * order is named, whichever thread finds its damage first, and nothing is
 * written. */
static void test_check_db__the_first_damaged_shard_is_named(void **state)
{
    tmp_db *f = *state;
    static const char *const names[4] = {"zero.db", "one.db", "two.db", "three.db"};
    char shards[4][4400], into[4400], spec[8];
    run_result r;
    run_generated(f->db, tmp_path(f->dir, "set.csv"), "300");
    for (int k = 0; k < 4; k++) {
        snprintf(spec, sizeof spec, "%d/4", k);
        COINROW(&r, NULL, "solve", "--db", f->db, "--shard", spec, "--out", path_in(shards[k], f->dir, names[k]),
                "--run-tag", "j", "--quiet");
        assert_int_equal(r.status, 0);
        run_result_free(&r);
    }
    damage_results(shards[2]);
    damage_results(shards[1]);
    COINROW(&r, NULL, "merge", "--db", path_in(into, f->dir, "into.db"), shards[0], shards[1], shards[2], shards[3]);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "one.db: the database is damaged ("));
    assert_null(strstr(r.err, "two.db"));
    run_result_free(&r);
    assert_int_equal(access(into, F_OK), -1);
}

/* A generated set of `rows` instances in f's database, its instances'
 * index then pointed at another's pages: each row is missing from it. */
static void index_missing_rows(tmp_db *f, const char *rows)
{
    run_generated(f->db, tmp_path(f->dir, "set.csv"), rows);
    assert_int_equal(db_exec(f->db, "PRAGMA writable_schema = ON; UPDATE sqlite_master SET rootpage = "
                                    "(SELECT rootpage FROM sqlite_master WHERE name = 'sqlite_autoindex_instance_set_1') "
                                    "WHERE name = 'sqlite_autoindex_instance_1'"),
                     0);
}

/* SQLite's findings are listed ten at most, then how many more: an index
 * pointed at another's pages misses every one of the 30 rows. */
static void test_check_db__more_than_ten_findings_show_ten_and_count_the_rest(void **state)
{
    tmp_db *f = *state;
    run_result r;
    index_missing_rows(f, "30");
    COINROW(&r, NULL, "check-db", "--db", f->db);
    assert_int_equal(r.status, 1);
    /* 32 or 33 findings: the page referred to twice, the 30 rows, the
     * count, and the index's own page that nothing refers to any more
     * when the schema's size has SQLite lay out the pages so */
    int unused = strstr(r.out, "is never used") != NULL;
    const char *rows = strstr(r.out, "integrity                            row 1 missing from index "
                                     "sqlite_autoindex_instance_1\n");
    assert_non_null(rows);
    char last[160], more[64];
    snprintf(last, sizeof last, "row %d missing from index sqlite_autoindex_instance_1\n", 9 - unused);
    snprintf(more, sizeof more, "integrity                            ... and %d more\n", 22 + unused);
    assert_non_null(rows = strstr(rows, last));
    assert_ptr_equal(strstr(rows, more), rows + strlen(last));
    assert_non_null(strstr(rows, "more\n"
                                 "schema-is-coinrows                   not checked: the file is damaged\n"
                                 "objects-of-your-own                  not checked: the file is damaged\n"
                                 "results-have-their-instance          not checked: the file is damaged\n"));
    snprintf(last, sizeof last, "row %d missing", 10 - unused);
    assert_null(strstr(r.out, last));
    assert_non_null(strstr(r.err, ": 1 check found problems"));
    run_result_free(&r);
}

/* Past the 100 findings SQLite lists, the count says it is a floor. */
static void test_check_db__past_the_findings_sqlite_lists_the_count_is_a_floor(void **state)
{
    tmp_db *f = *state;
    run_result r;
    index_missing_rows(f, "300");
    COINROW(&r, NULL, "check-db", "--db", f->db);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "integrity                            ... and at least 90 more (SQLite lists 100 "
                                  "at most)\n"));
    run_result_free(&r);
}

/* A trigger planted on solution rewrites every score of the runs that come
 * after it; check-db names it and fails (it said all was well, issue 33). */
static void test_check_db__a_trigger_planted_on_solution_fails_the_check(void **state)
{
    tmp_db *f = *state;
    sample_run(f->db);
    assert_int_equal(db_exec(f->db, "CREATE TRIGGER rig AFTER INSERT ON solution BEGIN "
                                    "UPDATE solution SET first_score = 999 "
                                    "WHERE run_id = new.run_id AND instance_id = new.instance_id; END"),
                     0);
    run_result r;
    COINROW(&r, NULL, "run", "sample-data", "--db", f->db, "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    assert_int_equal(db_int(f->db, "SELECT count(*) = 14 FROM solution WHERE run_id = 2 AND first_score = 999"), 1);
    COINROW(&r, NULL, "check-db", "--db", f->db);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "schema-is-coinrows                   trigger 'rig' on solution: not coinrow's; it "
                                  "runs with coinrow's writes: CREATE TRIGGER rig AFTER INSERT ON solution BEGIN "
                                  "UPDATE solution SET first_score = 999 WHERE"));
    assert_non_null(strstr(r.out, "objects-of-your-own                  ok\n"));
    assert_non_null(strstr(r.out, "results-have-their-instance          ok\n")); /* the tables are coinrow's */
    /* and the winners stored before the trigger changed the scores are not theirs */
    assert_non_null(strstr(r.out, "outcome-is-the-winner                3 solutions whose outcome is not the winner "
                                  "of each variant they give (such as run 2, instance 2, diff)\n"));
    assert_non_null(strstr(r.err, "t.db: 2 checks found problems\n"));
    run_result_free(&r);
}

/* What coinrow defines must be as it defines it (its SQL byte for byte, as
 * a fresh database of this coinrow has it); the user's own tables, views,
 * indexes and their triggers are notes, and pass.  What is shown of a
 * definition is one line, escaped. */
static void test_check_db__coinrows_objects_as_defined_and_the_users_own_as_notes(void **state)
{
    tmp_db *f = *state;
    sample_run(f->db);
    assert_int_equal(db_exec(f->db, "CREATE TABLE mine (x); CREATE INDEX mine_x ON mine (x);"
                                    "CREATE VIEW \"my\nview\" AS SELECT '\x1b[2J' AS x;"
                                    "CREATE TRIGGER mine_t AFTER INSERT ON mine BEGIN SELECT 1; END"),
                     0);
    run_result r;
    COINROW(&r, NULL, "check-db", "--db", f->db);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "schema-is-coinrows                   ok\n"
                                  "objects-of-your-own                  table 'mine': coinrow neither reads nor writes "
                                  "it: CREATE TABLE mine (x)\n"
                                  "objects-of-your-own                  trigger 'mine_t' on mine: coinrow neither "
                                  "reads nor writes it: CREATE TRIGGER mine_t AFTER INSERT ON mine BEGIN SELECT 1; "
                                  "END\n"
                                  "objects-of-your-own                  index 'mine_x' on mine: coinrow neither reads "
                                  "nor writes it: CREATE INDEX mine_x ON mine (x)\n"
                                  "objects-of-your-own                  view 'my\\x0aview': coinrow neither reads nor "
                                  "writes it: CREATE VIEW \"my view\" AS SELECT '\\x1b[2J' AS x\n"
                                  "results-have-their-instance          ok\n"));
    run_result_free(&r);

    /* coinrow's own view redefined, one of its triggers dropped, a column added */
    assert_int_equal(db_exec(f->db, "DROP VIEW verdict_view; CREATE VIEW verdict_view AS SELECT 1 AS verdict;"
                                    "DROP TRIGGER result_delete;"
                                    "ALTER TABLE run ADD COLUMN note TEXT"),
                     0);
    COINROW(&r, NULL, "check-db", "--db", f->db);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "schema-is-coinrows                   table 'run': not as coinrow defines it: "
                                  "CREATE TABLE run ("));
    assert_non_null(strstr(r.out, "schema-is-coinrows                   view 'verdict_view': not as coinrow defines "
                                  "it: CREATE VIEW verdict_view AS SELECT 1 AS verdict\n"));
    assert_non_null(strstr(r.out, "schema-is-coinrows                   trigger 'result_delete' on result: missing: "
                                  "CREATE TRIGGER result_delete INSTEAD OF DELETE ON result"));
    assert_non_null(strstr(r.out, "results-have-their-instance          not checked: coinrow's tables are not as it "
                                  "defines them\n"));
    run_result_free(&r);
}

/* A database of each older schema, upgraded, has coinrow's schema as a
 * fresh one has it. */
static void test_check_db__an_upgraded_database_has_coinrows_schema(void **state)
{
    tmp_db *f = *state;
    static const char *const fixtures[] = {"schema3/coinrow.db", "schema5/coinrow.db", "schema6/coinrow.db",
                                           "schema7/coinrow.db", "schema8/coinrow.db", "schema9/coinrow.db"};
    for (size_t k = 0; k < sizeof fixtures / sizeof fixtures[0]; k++) {
        char name[64];
        snprintf(name, sizeof name, "upgraded-%zu.db", k);
        const char *db = tmp_path(f->dir, name);
        assert_int_equal(copy_file(fixture(fixtures[k]), db), 0);
        run_result r;
        COINROW(&r, NULL, "upgrade", "--db", db);
        assert_int_equal(r.status, 0);
        run_result_free(&r);
        COINROW(&r, NULL, "check-db", "--db", db);
        assert_int_equal(r.status, 0);
        assert_non_null(strstr(r.out, "schema-is-coinrows                   ok\n"
                                      "objects-of-your-own                  ok\n"));
        run_result_free(&r);
    }
}

/* coinrow's connections trust no schema: a trigger of the database that
 * calls a function SQLite does not call innocuous (fts3_tokenizer hands
 * out a pointer to code) fails the write that fires it, and a --from-db
 * view that calls one fails the read; neither gets to run. */
static void test_check_db__a_schema_may_not_call_unsafe_functions_in_coinrows_connections(void **state)
{
    tmp_db *f = *state;
    sample_run(f->db);
    assert_int_equal(db_exec(f->db, "CREATE TABLE leak (p); CREATE TRIGGER peek AFTER INSERT ON solution BEGIN "
                                    "INSERT INTO leak VALUES (fts3_tokenizer('simple')); END"),
                     0);
    run_result r;
    COINROW(&r, NULL, "run", "sample-data", "--db", f->db, "--quiet");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "unsafe use of fts3_tokenizer()"));
    run_result_free(&r);
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM leak"), 0);

    const char *other = tmp_path(f->dir, "other.db");
    assert_int_equal(db_exec(other, "CREATE TABLE t (id, coins); INSERT INTO t VALUES ('a', '1 2 3');"
                                    "CREATE VIEW v AS SELECT id, CASE WHEN fts3_tokenizer('simple') IS NOT NULL "
                                    "THEN coins END AS coins FROM t"),
                     0);
    COINROW(&r, NULL, "ingest", "--from-db", other, "--table", "v", "--db", tmp_path(f->dir, "in.db"), "--quiet");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "unsafe use of fts3_tokenizer()"));
    run_result_free(&r);
}

static void test_check_db__usage_and_an_unreadable_database(void **state)
{
    tmp_db *f = *state;
    run_result r;
    COINROW(&r, NULL, "check-db", "--db", f->db);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "t.db: no such file"));
    run_result_free(&r);
    assert_int_equal(access(f->db, F_OK), -1);
    COINROW(&r, NULL, "check-db", "extra");
    assert_int_equal(r.status, 2);
    run_result_free(&r);
    COINROW(&r, NULL, "check-db", "--help");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "usage: coinrow check-db [--db PATH]"));
    run_result_free(&r);
}

int main(void)
{
#define TEST(name) cmocka_unit_test_setup_teardown(name, tmp_db_setup, tmp_db_teardown)
    const struct CMUnitTest tests[] = {
        TEST(test_check_db__a_sound_database_passes_every_check),
        TEST(test_check_db__each_broken_invariant_is_named),
        TEST(test_check_db__a_verdict_coinrow_does_not_write_is_refused_not_shown_as_re),
        TEST(test_check_db__times_coinrow_does_not_write_are_refused_not_drawn),
        TEST(test_check_db__a_deleted_set_and_an_unreadable_generator_are_named),
        TEST(test_check_db__a_score_that_is_not_a_whole_number_is_named),
        TEST(test_check_db__a_deleted_instance_is_not_called_one_the_run_lacks),
        TEST(test_check_db__a_set_whose_size_is_not_its_count_is_named),
        TEST(test_check_db__a_winner_coinrow_does_not_write_is_refused_not_shown_as_a_draw),
        TEST(test_check_db__a_status_coinrow_does_not_write_is_refused),
        TEST(test_check_db__an_instance_whose_total_is_not_its_sum_is_named),
        TEST(test_check_db__a_damaged_page_is_found_and_export_and_merge_refuse),
        TEST(test_check_db__the_first_damaged_shard_is_named),
        TEST(test_check_db__more_than_ten_findings_show_ten_and_count_the_rest),
        TEST(test_check_db__past_the_findings_sqlite_lists_the_count_is_a_floor),
        TEST(test_check_db__a_trigger_planted_on_solution_fails_the_check),
        TEST(test_check_db__coinrows_objects_as_defined_and_the_users_own_as_notes),
        TEST(test_check_db__an_upgraded_database_has_coinrows_schema),
        TEST(test_check_db__a_schema_may_not_call_unsafe_functions_in_coinrows_connections),
        TEST(test_check_db__usage_and_an_unreadable_database),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

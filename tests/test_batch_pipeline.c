/* The batch pipeline against the core: what it stores is what cr_solve says. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "coinrow.h"
#include "util/util.h"
#include "batch/batch.h"
#include "store/store.h"
#include "store/sql.h" /* white box: the connection, to fill the disk */
#include "support/core_check.h"
#include "support/files.h"

typedef store_fixture fixture_state;

static uint64_t rng;
static uint64_t next_random(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}

/* Whether make_row makes huge rows (too slow for the O(n^2) methods). */
static int huge_rows = 1;

/* Instance k of a test set: mostly small rows of mixed signs; k % 97 == 5 is
 * one huge row (more coins than a batch holds), k % 50 == 7 overflows. */
static size_t make_row(int64_t *coins, int k)
{
    rng = 0x9E3779B97F4A7C15u * (uint64_t)(k + 1); /* the same row for the same k */
    size_t n = huge_rows && k % 97 == 5 ? 70000 : 1 + next_random() % 12;
    if (k % 50 == 7 && n < 3)
        n = 3;
    for (size_t i = 0; i < n; i++)
        coins[i] = k % 50 == 7 ? INT64_MAX - (int64_t)i : (int64_t)(next_random() % 2001) - 1000;
    return n;
}

static int queue_rows(cr_pipeline *p, int first, int count, const char *source)
{
    static int64_t coins[70000];
    cr_coins row_coins = {0}; /* as a reader hands them: with their JSON */
    int rc = 0;
    for (int k = first; rc == 0 && k < first + count; k++) {
        char id[32];
        size_t n = make_row(coins, k);
        row_coins.n = 0;
        for (size_t i = 0; i < n; i++)
            assert_int_equal(cr_coins_push(&row_coins, coins[i], NULL), 0);
        cr_row row = {.source = source, .line = (uint64_t)k + 1, .coins = row_coins.v, .n = n,
                      .coins_json = row_coins.json, .coins_json_len = row_coins.json_len, .raw = "raw", .raw_len = 3};
        row.ext_id = id;
        row.ext_id_len = (size_t)snprintf(id, sizeof id, "k%d", k);
        rc = cr_pipeline_row(p, &row);
    }
    cr_coins_free(&row_coins);
    return rc;
}

/* Queues rows k0.. and, when rest, the set's unsolved instances through a
 * pipeline of po, and finishes it. */
static cr_pipeline_stats run_with(fixture_state *f, const cr_pipeline_opts *po, int rows, int rest)
{
    cr_pipeline *p = NULL;
    cr_pipeline_stats stats = {0};
    cr_error err = {0};
    assert_int_equal(cr_pipeline_new(&p, f->store, po, &err), 0);
    int rc = queue_rows(p, 0, rows, "gen");
    if (rc == 0 && rest)
        rc = cr_pipeline_queue_unsolved(p, &err);
    assert_true(rc == 0 || (po->stop && rc == CR_EINTERRUPTED));
    assert_int_equal(cr_pipeline_finish(p, &stats, &err), 0);
    cr_pipeline_free(p);
    return stats;
}

static cr_pipeline_stats run_pipeline(fixture_state *f, int64_t run_id, const cr_solve_opts *opts, int jobs,
                                      int rows, int rest, const atomic_int *stop)
{
    /* a checkpointer beside the writer from the first commit, as a large job has */
    cr_pipeline_opts po = {.set_id = f->set_id, .run_id = run_id, .solve = *opts, .jobs = jobs, .stop = stop,
                           .checkpoint_from = 1};
    return run_with(f, &po, rows, rest);
}

/* Every stored result equals the core's answer for the stored coins, and
 * every instance of the set has one per variant of the run. */
static void check_against_core(fixture_state *f, int64_t run_id, const cr_solve_opts *opts)
{
    cr_store_results *results = NULL;
    cr_solver *solver = NULL;
    cr_coins coins = {0};
    cr_error err = {0};
    const cr_stored_result *got;
    uint64_t instances, seen = 0, variants = 0;
    for (int v = 0; v < CR_VARIANT_COUNT; v++)
        variants += (opts->variants & CR_VARIANT_BIT(v)) != 0;
    assert_int_equal(cr_store_set_size(&instances, f->store, f->set_id, &err), 0);
    assert_int_equal(cr_store_results_new(&results, f->store, run_id, CR_BY_EXT_ID, &err), 0);
    assert_int_equal(cr_solver_new(&solver, &err), 0);
    while (cr_store_results_next(&got, results, &err) == 1) {
        seen++;
        assert_int_equal(cr_coins_parse(&coins, got->coins, strlen(got->coins), &err), 0);
        assert_int_equal(coins.n, got->n);
        cr_result want[CR_VARIANT_COUNT];
        cr_solve(want, solver, coins.v, coins.n, opts, &err);
        cr_variant v = got->variant;
        assert_true(opts->variants & CR_VARIANT_BIT(v));
        if (want[v].error.code) {
            assert_string_equal(got->error, want[v].error.msg);
            continue;
        }
        assert_null(got->error);
        assert_int_equal(got->value, want[v].value);
        assert_int_equal(got->first_score, want[v].first_score);
        assert_int_equal(got->second_score, want[v].second_score);
        assert_int_equal(got->winner, want[v].winner);
        if (want[v].moves)
            assert_string_equal(got->moves, want[v].moves);
        else
            assert_null(got->moves);
    }
    assert_int_equal(seen, instances * variants);
    cr_coins_free(&coins);
    cr_solver_free(solver);
    cr_store_results_free(results);
}

/* The set's fingerprint is its instances' digests summed: the solvers hash
 * each row as the store would. */
static void check_fingerprint(fixture_state *f)
{
    cr_store_instances *it = NULL;
    cr_error err = {0};
    const cr_instance *in;
    uint64_t size = 0, digest = 0, got_size, got_digest;
    int rc;
    assert_int_equal(cr_store_instances_new(&it, f->store, f->set_id, 0, &err), 0);
    while ((rc = cr_store_instances_next(&in, it, &err)) == 1) {
        size++;
        digest += cr_instance_digest(in->ext_id, strlen(in->ext_id), in->coins_json, in->coins_json_len);
    }
    assert_int_equal(rc, 0);
    cr_store_instances_free(it);
    assert_int_equal(cr_store_set_fingerprint(&got_size, &got_digest, f->store, f->set_id, &err), 0);
    assert_int_equal(got_size, size);
    assert_true(got_digest == digest);
}

static void solves_like_the_core(fixture_state *f, const cr_solve_opts *opts, int jobs)
{
    int64_t run;
    cr_error err = {0};
    assert_int_equal(cr_store_run_new(&run, f->store, f->set_id, opts, "test", NULL, &err), 0);
    cr_pipeline_stats s = run_pipeline(f, run, opts, jobs, 3000, 1, NULL);
    assert_int_equal(s.ingested, 3000);
    assert_int_equal(s.solved, 3000);
    assert_int_equal(s.failed, 60); /* k % 50 == 7 overflows in total, diff, winner */
    assert_int_equal(db_int(f->path, "SELECT count(*) FROM instance WHERE n = 70000"), 31);
    check_against_core(f, run, opts);
    check_fingerprint(f);
}

static void test_pipeline__stores_what_the_core_answers_with_one_solver(void **state)
{
    cr_solve_opts opts = {CR_VARIANT_BIT(CR_TOTAL) | CR_VARIANT_BIT(CR_WINNER), CR_ALGO_AUTO, CR_MOVES_FAST};
    solves_like_the_core(*state, &opts, 1);
}

static void test_pipeline__stores_what_the_core_answers_with_three_solvers(void **state)
{
    cr_solve_opts opts = {CR_VARIANTS_ALL & ~CR_VARIANT_BIT(CR_REMAINING), CR_ALGO_AUTO, CR_MOVES_NONE};
    solves_like_the_core(*state, &opts, 3);
}

/* A job's size is a hint for its batches, not a limit: told 100 rows, a
 * pipeline cut into the smallest batches takes 3,000 (the 70,000-coin rows
 * among them, each beyond a small batch's coins) and stores each as the
 * core answers it; its WAL stays small, and is copied at its end. */
static void test_pipeline__a_job_said_to_be_small_stores_every_row(void **state)
{
    fixture_state *f = *state;
    cr_solve_opts opts = {CR_VARIANTS_ALL, CR_ALGO_AUTO, CR_MOVES_FAST};
    int64_t run;
    cr_error err = {0};
    assert_int_equal(cr_store_run_new(&run, f->store, f->set_id, &opts, "test", NULL, &err), 0);
    cr_pipeline_opts po = {.set_id = f->set_id, .run_id = run, .solve = opts, .jobs = 2, .rows = 100};
    cr_pipeline_stats s = run_with(f, &po, 3000, 0);
    assert_int_equal(s.ingested, 3000);
    assert_int_equal(s.solved, 3000);
    check_against_core(f, run, &opts);
    check_fingerprint(f);
}

static void test_pipeline__rejected_and_clashing_rows_are_recorded(void **state)
{
    fixture_state *f = *state;
    const char *reasons[] = {"value 2 ('x') is not an integer", NULL, NULL, NULL};
    int64_t coins[2][2] = {{1, 2}, {3, 4}};
    const char *json[2] = {"[1,2]", "[3,4]"};
    const char *ids[] = {"bad", "a", "a", "a"};
    int which[] = {0, 0, 0, 1}; /* a, then a again (same), then a with other coins */
    cr_pipeline_opts po = {.set_id = f->set_id, .jobs = 1};
    cr_pipeline *p = NULL;
    cr_pipeline_stats s;
    cr_error err = {0};
    assert_int_equal(cr_pipeline_new(&p, f->store, &po, &err), 0);
    for (int i = 0; i < 4; i++) {
        cr_row row = {.source = "in.csv", .line = (uint64_t)i + 2, .ext_id = ids[i], .ext_id_len = strlen(ids[i]),
                      .coins = coins[which[i]], .n = 2, .coins_json = json[which[i]], .coins_json_len = 5,
                      .reason = reasons[i], .raw = "r", .raw_len = 1};
        assert_int_equal(cr_pipeline_row(p, &row), 0);
    }
    assert_int_equal(cr_pipeline_finish(p, &s, &err), 0);
    cr_pipeline_free(p);
    assert_int_equal(s.ingested, 1);
    assert_int_equal(s.skipped, 1);
    assert_int_equal(s.rejected, 2);
    assert_int_equal(db_int(f->path, "SELECT count(*) FROM ingest_error WHERE source = 'in.csv' AND "
                                     "((line = 2 AND ext_id = 'bad' AND reason LIKE 'value 2%') OR "
                                     "(line = 5 AND ext_id = 'a' AND reason = 'id ''a'' is already in set ''s'' "
                                     "with other coins'))"),
                     2);
}

static void test_pipeline__rest_solves_only_what_the_run_lacks(void **state)
{
    fixture_state *f = *state;
    cr_solve_opts opts = {CR_VARIANT_BIT(CR_DIFF), CR_ALGO_DP, CR_MOVES_CANONICAL};
    cr_solve_opts none = {0};
    int64_t run;
    cr_error err = {0};
    huge_rows = 0;
    cr_pipeline_stats s = run_pipeline(f, 0, &none, 2, 200, 0, NULL); /* ingest only */
    assert_int_equal(s.ingested, 200);
    assert_int_equal(cr_store_run_new(&run, f->store, f->set_id, &opts, "test", NULL, &err), 0);
    s = run_pipeline(f, run, &opts, 2, 0, 1, NULL);
    assert_int_equal(s.solved, 200);
    s = run_pipeline(f, run, &opts, 2, 210, 1, NULL); /* 200 known, 10 new */
    assert_int_equal(s.ingested, 10);
    assert_int_equal(s.skipped, 200);
    assert_int_equal(s.solved, 10);
    assert_int_equal(db_int(f->path, "SELECT count(*) FROM result"), 210);
    check_against_core(f, run, &opts);
    huge_rows = 1;
}

/* The machine's memory as the pipeline sees it (this program is linked with
 * -Wl,--wrap=cr_physical_memory, the Makefile): the real figure, or the one
 * a test sets. */
size_t __real_cr_physical_memory(void);
size_t __wrap_cr_physical_memory(void);
static size_t memory_said;
size_t __wrap_cr_physical_memory(void) { return memory_said ? memory_said : __real_cr_physical_memory(); }

/* A row whose canonical line needs more than the machine has fails alone:
 * each of its variants says what the line needs, the other rows are solved
 * and the run goes on.  A line takes about 66 bytes a coin, so on a real
 * machine such a row has hundreds of millions of coins: here the machine
 * has 1 MiB and the row (k5) 70000 coins. */
static void test_pipeline__a_row_too_big_for_its_line_fails_alone(void **state)
{
    fixture_state *f = *state;
    cr_solve_opts opts = {CR_VARIANTS_ALL, CR_ALGO_AUTO, CR_MOVES_CANONICAL};
    int64_t run;
    cr_error err = {0};
    assert_int_equal(cr_store_run_new(&run, f->store, f->set_id, &opts, "test", NULL, &err), 0);
    memory_said = (size_t)1 << 20;
    cr_pipeline_stats s = run_pipeline(f, run, &opts, 2, 100, 0, NULL);
    memory_said = 0;
    assert_int_equal(s.solved, 100);
    assert_int_equal(s.failed, 3); /* k5, and k7 and k57 overflow */
    char sql[256];
    snprintf(sql, sizeof sql,
             "SELECT count(*) FROM result_view WHERE ext_id = 'k5' AND error = "
             "'canonical line of 70000 coins needs %zu MiB'",
             (cr_moves_canonical_bytes(70000) + (1u << 20) - 1) >> 20);
    assert_int_equal(db_int(f->path, sql), CR_VARIANT_COUNT);
    assert_int_equal(check_run_against_core(f->path, run, "i.ext_id <> 'k5'"), 99 * CR_VARIANT_COUNT);
}

/* A row longer than SQLite stores (SQLITE_MAX_LENGTH, 10^9 bytes on Debian:
 * a row of n < 2^32 coins can be longer) is that row's ingest_error, naming
 * the limit, and every other row is stored and solved: here the limit is
 * lowered to 100,000 bytes and the row (k5) has 70,000 coins. */
static void test_pipeline__a_row_longer_than_sqlite_stores_is_its_own_ingest_error(void **state)
{
    fixture_state *f = *state;
    cr_solve_opts opts = {CR_VARIANTS_ALL, CR_ALGO_AUTO, CR_MOVES_FAST};
    int64_t run;
    cr_error err = {0};
    assert_int_equal(cr_store_run_new(&run, f->store, f->set_id, &opts, "test", NULL, &err), 0);
    sqlite3_limit(f->store->db, SQLITE_LIMIT_LENGTH, 100000);
    cr_pipeline_stats s = run_pipeline(f, run, &opts, 2, 100, 1, NULL);
    assert_int_equal(s.ingested, 99);
    assert_int_equal(s.rejected, 1);
    assert_int_equal(s.solved, 99);
    assert_int_equal(db_int(f->path, "SELECT count(*) FROM ingest_error WHERE ext_id = 'k5' AND line = 6 AND "
                                     "reason LIKE '%SQLite stores at most 100000 bytes%'"),
                     1);
    assert_int_equal(db_int(f->path, "SELECT count(*) FROM instance WHERE ext_id = 'k5'"), 0);
    check_against_core(f, run, &opts);
}

static void test_pipeline__a_stop_stores_what_is_in_hand_and_resume_finishes(void **state)
{
    fixture_state *f = *state;
    cr_solve_opts opts = {CR_VARIANT_BIT(CR_TOTAL), CR_ALGO_AUTO, CR_MOVES_FAST};
    int64_t run;
    cr_error err = {0};
    atomic_int stop = 0;
    assert_int_equal(cr_store_run_new(&run, f->store, f->set_id, &opts, "test", NULL, &err), 0);
    cr_pipeline_opts po = {.set_id = f->set_id, .run_id = run, .solve = opts, .jobs = 2, .stop = &stop};
    cr_pipeline *p = NULL;
    cr_pipeline_stats s;
    assert_int_equal(cr_pipeline_new(&p, f->store, &po, &err), 0);
    assert_int_equal(queue_rows(p, 0, 1500, "gen"), 0);
    atomic_store(&stop, 1);
    assert_int_equal(queue_rows(p, 1500, 10, "gen"), CR_EINTERRUPTED);
    assert_int_equal(cr_pipeline_queue_unsolved(p, &err), CR_EINTERRUPTED);
    assert_int_equal(cr_pipeline_finish(p, &s, &err), 0);
    cr_pipeline_free(p);
    assert_int_equal(s.ingested, 1500);
    assert_true(s.solved <= 1500);
    assert_int_equal(db_int(f->path, "SELECT count(*) FROM result"), (int64_t)s.solved);

    atomic_store(&stop, 0);
    s = run_pipeline(f, run, &opts, 2, 0, 1, NULL);
    assert_int_equal(db_int(f->path, "SELECT count(*) FROM result"), 1500);
    assert_int_equal(db_int(f->path, "SELECT count(DISTINCT instance_id) FROM result"), 1500);
    check_against_core(f, run, &opts);
}

static void test_pipeline__a_full_disk_fails_the_pipeline_and_keeps_commits(void **state)
{
    fixture_state *f = *state;
    cr_solve_opts none = {0};
    run_pipeline(f, 0, &none, 1, 100, 0, NULL);
    int64_t pages = db_int(f->path, "PRAGMA page_count");
    char sql[64];
    snprintf(sql, sizeof sql, "PRAGMA max_page_count = %lld", (long long)pages + 3);
    assert_int_equal(sqlite3_exec(f->store->db, sql, NULL, NULL, NULL), SQLITE_OK);

    cr_pipeline_opts po = {.set_id = f->set_id, .solve = none, .jobs = 2};
    cr_pipeline *p = NULL;
    cr_pipeline_stats s;
    cr_error err = {0};
    assert_int_equal(cr_pipeline_new(&p, f->store, &po, &err), 0);
    int rc = 0;
    for (int first = 100; rc == 0 && first < 100000; first += 1000)
        rc = queue_rows(p, first, 1000, "gen");
    assert_int_equal(rc, CR_EIO);
    assert_int_equal(cr_pipeline_finish(p, &s, &err), CR_EIO);
    assert_non_null(strstr(err.msg, "the disk is full"));
    cr_pipeline_free(p);
    assert_int_equal(db_int(f->path, "SELECT count(*) FROM instance"), 100 + (int64_t)s.ingested);
    assert_int_equal(db_exec(f->path, "PRAGMA integrity_check"), 0);
}

/* Options no row can take (no variant) fail the run, saying why, and no
 * result is stored; the rows are the set's all the same. */
static void test_pipeline__options_no_row_can_take_fail_the_run_and_store_no_result(void **state)
{
    fixture_state *f = *state;
    cr_solve_opts opts = {CR_VARIANT_BIT(CR_TOTAL), CR_ALGO_AUTO, CR_MOVES_NONE}, none = {0};
    int64_t run;
    cr_error err = {0};
    assert_int_equal(cr_store_run_new(&run, f->store, f->set_id, &opts, "test", NULL, &err), 0);
    cr_pipeline_opts po = {.set_id = f->set_id, .run_id = run, .solve = none, .jobs = 2};
    cr_pipeline *p = NULL;
    cr_pipeline_stats s;
    assert_int_equal(cr_pipeline_new(&p, f->store, &po, &err), 0);
    int rc = queue_rows(p, 0, 10, "gen");
    assert_true(rc == 0 || rc == CR_EINVAL);
    assert_int_equal(cr_pipeline_finish(p, &s, &err), CR_EINVAL);
    assert_non_null(strstr(err.msg, "solve: bad options (variants 0x0, algo 0, moves 0)"));
    cr_pipeline_free(p);
    assert_int_equal(db_int(f->path, "SELECT count(*) FROM result"), 0);
}

static int wal_held_calls;
static char wal_held_db[4200];
static uint64_t wal_held_bytes;
static int wal_held_ended;

static void note_wal_held(void *ctx, const char *db, uint64_t wal_bytes, int ended)
{
    (void)ctx;
    wal_held_calls++;
    wal_held_ended = ended;
    snprintf(wal_held_db, sizeof wal_held_db, "%s", db);
    wal_held_bytes = wal_bytes;
}

/* A reader that holds the WAL when the pipeline ends keeps it from being
 * truncated: the caller is told once, with the WAL's size, and the WAL is
 * left for the reader. */
static void test_pipeline__a_reader_holding_the_wal_at_the_end_is_told_once(void **state)
{
    fixture_state *f = *state;
    /* something in the WAL, so that the reader's snapshot is read from it */
    assert_int_equal(sqlite3_exec(f->store->db, "UPDATE instance_set SET name = name", NULL, NULL, NULL), SQLITE_OK);
    sqlite3 *reader = NULL;
    assert_int_equal(sqlite3_open_v2(f->path, &reader, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_exec(reader, "BEGIN; SELECT count(*) FROM instance", NULL, NULL, NULL), SQLITE_OK);
    cr_solve_opts none = {0};
    cr_pipeline_opts po = {.set_id = f->set_id, .solve = none, .jobs = 1, .wal_held = note_wal_held};
    cr_pipeline *p = NULL;
    cr_pipeline_stats s;
    cr_error err = {0};
    wal_held_calls = 0;
    assert_int_equal(cr_pipeline_new(&p, f->store, &po, &err), 0);
    assert_int_equal(queue_rows(p, 0, 100, "gen"), 0);
    assert_int_equal(cr_pipeline_finish(p, &s, &err), 0);
    cr_pipeline_free(p);
    assert_int_equal(wal_held_calls, 1);
    assert_int_equal(wal_held_ended, 1);
    assert_string_equal(wal_held_db, f->path);
    char wal[4200];
    snprintf(wal, sizeof wal, "%s-wal", f->path);
    struct stat st;
    assert_int_equal(stat(wal, &st), 0);
    assert_true(wal_held_bytes > 0 && wal_held_bytes <= (uint64_t)st.st_size);
    sqlite3_exec(reader, "COMMIT", NULL, NULL, NULL);
    sqlite3_close(reader);
    assert_int_equal(s.ingested, 100);
    assert_int_equal(db_int(f->path, "SELECT count(*) FROM instance"), 100);
}

/* What the commits of an ingest took: the rows committed so far, the most
 * rows one commit took, and how many commits there were. */
typedef struct commit_sizes {
    uint64_t committed, largest, count;
} commit_sizes;

static void note_commit(void *ctx, const cr_pipeline_stats *s)
{
    commit_sizes *c = ctx;
    uint64_t rows = s->ingested - c->committed;
    c->committed = s->ingested;
    c->largest = rows > c->largest ? rows : c->largest;
    c->count++;
}

/* Ingests rows one-coin rows into set set_id, 1,000 rows a transaction at
 * first; their ids in key order, or scattered over the set's index. */
static commit_sizes ingest_one_coin_rows(fixture_state *f, int64_t set_id, int rows, int scattered)
{
    commit_sizes c = {0};
    cr_pipeline_opts po = {.set_id = set_id, .jobs = 1, .progress = note_commit, .ctx = &c, .commit_rows = 1000};
    cr_pipeline *p = NULL;
    cr_pipeline_stats s;
    cr_error err = {0};
    cr_coins coins = {0};
    assert_int_equal(cr_pipeline_new(&p, f->store, &po, &err), 0);
    for (int k = 0; k < rows; k++) {
        char id[32];
        coins.n = 0;
        assert_int_equal(cr_coins_push(&coins, k % 100, NULL), 0);
        cr_row row = {.source = "gen", .line = (uint64_t)k + 1, .coins = coins.v, .n = coins.n,
                      .coins_json = coins.json, .coins_json_len = coins.json_len, .ext_id = id, .raw = "raw",
                      .raw_len = 3};
        row.ext_id_len = scattered ? (size_t)snprintf(id, sizeof id, "%016llx",
                                                      (unsigned long long)(0x9E3779B97F4A7C15u * (uint64_t)(k + 1)))
                                   : (size_t)snprintf(id, sizeof id, "%08d", k);
        assert_int_equal(cr_pipeline_row(p, &row), 0);
    }
    assert_int_equal(cr_pipeline_finish(p, &s, &err), 0);
    cr_pipeline_free(p);
    cr_coins_free(&coins);
    assert_int_equal(s.ingested, rows);
    return c;
}

/* Rows in key order commit every 1,000 (a batch's 1,024); rows whose ids
 * are in no order, whose commits rewrite more and more of the set's index
 * as it grows, go on in larger transactions (10^6 random ids took 15 s to
 * run, 3 in order; 9.5 with this). */
static void test_pipeline__rows_in_no_order_commit_in_larger_transactions(void **state)
{
    fixture_state *f = *state;
    cr_error err = {0};
    int64_t ordered;
    assert_int_equal(cr_store_set_find(&ordered, f->store, "ordered", 1, "test", &err), 0);
    commit_sizes in_order = ingest_one_coin_rows(f, ordered, 40000, 0);
    commit_sizes scattered = ingest_one_coin_rows(f, f->set_id, 40000, 1);
    assert_true(in_order.largest <= 1024);
    assert_true(in_order.count >= 40);
    assert_true(scattered.largest >= 2 * 1024);
    assert_true(scattered.count < in_order.count);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_pipeline__stores_what_the_core_answers_with_one_solver, store_fixture_setup,
                                        store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_pipeline__stores_what_the_core_answers_with_three_solvers, store_fixture_setup,
                                        store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_pipeline__a_job_said_to_be_small_stores_every_row, store_fixture_setup,
                                        store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_pipeline__rejected_and_clashing_rows_are_recorded, store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_pipeline__rows_in_no_order_commit_in_larger_transactions, store_fixture_setup,
                                        store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_pipeline__rest_solves_only_what_the_run_lacks, store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_pipeline__a_row_too_big_for_its_line_fails_alone, store_fixture_setup,
                                        store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_pipeline__a_row_longer_than_sqlite_stores_is_its_own_ingest_error,
                                        store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_pipeline__a_stop_stores_what_is_in_hand_and_resume_finishes, store_fixture_setup,
                                        store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_pipeline__a_full_disk_fails_the_pipeline_and_keeps_commits, store_fixture_setup,
                                        store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_pipeline__options_no_row_can_take_fail_the_run_and_store_no_result,
                                        store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_pipeline__a_reader_holding_the_wal_at_the_end_is_told_once,
                                        store_fixture_setup, store_fixture_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Shards and merge end to end: the partition, shards merged back into a run
 * equal to a single-process one, a shard killed and started again, and the
 * merges that must be refused without touching the target. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#include <cmocka.h>

#include "batch/batch.h"
#include "store/store.h"
#include "support/core_check.h"
#include "support/files.h"
#include "support/run.h"

static char *dir;
static char input[4096]; /* the set 'jobset', solved once in run 1 */

/* dir/name, in one of 8 buffers used in turn */
static const char *path(const char *name)
{
    static char buf[8][4096];
    static int next;
    char *p = buf[next++ % 8];
    snprintf(p, 4096, "%s", tmp_path(dir, name));
    return p;
}

/* Runs coinrow and returns its exit status, its stderr kept for err. */
static int coinrow(char *err, size_t cap, ...)
{
    char *argv[32] = {(char *)run_bin()};
    int argc = 1;
    va_list ap;
    va_start(ap, cap);
    for (char *a; argc < 31 && (a = va_arg(ap, char *)) != NULL;)
        argv[argc++] = a;
    va_end(ap);
    run_result r;
    assert_int_equal(run_capture(&r, argv, NULL), 0);
    if (err)
        snprintf(err, cap, "%s", r.err);
    int status = r.status;
    run_result_free(&r);
    return status;
}

static int solve_shard(int k, const char *tag, const char *out)
{
    char shard[16];
    snprintf(shard, sizeof shard, "%d/4", k);
    return coinrow(NULL, 0, "solve", "--db", input, "--shard", shard, "--out", out, "--run-tag", tag, "--moves",
                   "canonical", "--quiet", (char *)NULL);
}

static int setup(void **state)
{
    (void)state;
    dir = tmp_dir_new();
    snprintf(input, sizeof input, "%s", tmp_path(dir, "input.db"));
    const char *csv = path("jobset.csv");
    int ok = coinrow(NULL, 0, "generate", "--set", "jobset", "--count", "6000", "--n", "10..60", "--values",
                     "-1000..1000", "--seed", "11", "--out", csv, (char *)NULL) == 0 &&
             coinrow(NULL, 0, "run", csv, "--db", input, "--set", "jobset", "--moves", "canonical", "--quiet",
                     (char *)NULL) == 0;
    for (int k = 0; k < 4 && ok; k++) {
        char name[32];
        snprintf(name, sizeof name, "job1-%d.db", k);
        ok = solve_shard(k, "job1", path(name)) == 0;
    }
    return ok ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    tmp_dir_free(dir);
    return 0;
}

/* The file's bytes, to see that a refused merge wrote nothing. */
static uint64_t file_sum(const char *p)
{
    FILE *f = fopen(p, "rb");
    uint64_t h = 1469598103934665603u;
    for (int c; f && (c = getc(f)) != EOF;)
        h = (h ^ (unsigned)c) * 1099511628211u;
    if (f)
        fclose(f);
    return h;
}

/* A copy of the database at from, at dir/to, with sql run on it. */
static const char *altered_copy(const char *from, const char *to, const char *sql)
{
    const char *copy = path(to);
    char vacuum[8300];
    snprintf(vacuum, sizeof vacuum, "VACUUM INTO '%s'", copy);
    assert_int_equal(db_exec(from, vacuum), 0);
    if (sql)
        assert_int_equal(db_exec(copy, sql), 0);
    return copy;
}

static void test_shard__partition_is_stable_and_even(void **state)
{
    (void)state;
    /* pinned: the partition is part of the documented contract */
    assert_int_equal(cr_shard_first(6000, 1, 4), 1500);
    assert_int_equal(cr_shard_first(10, 3, 4), 7);
    assert_int_equal(cr_shard_first(UINT64_MAX, 1, 2), UINT64_MAX / 2);
    assert_int_equal(cr_shard_first(UINT64_MAX, 0xffffffffu, 0xffffffffu), UINT64_MAX);
    int64_t counted = 0;
    for (int k = 0; k < 4; k++) {
        char name[32];
        snprintf(name, sizeof name, "job1-%d.db", k);
        int64_t held = db_int(path(name), "SELECT count(*) FROM instance");
        assert_int_equal(held, 1500);
        counted += held;
    }
    assert_int_equal(counted, 6000);
    /* the ranges of ids follow each other */
    assert_int_equal(db_int(path("job1-0.db"), "SELECT lo IS NULL FROM shard"), 1);
    assert_int_equal(db_int(path("job1-3.db"), "SELECT hi IS NULL FROM shard"), 1);
}

/* Every shard K/N of the set at db holds its instances and no others:
 * each instance once, in the shard cr_shard_holds names, and as many as
 * cr_shard_first says. */
static void check_partition(cr_store *store, int64_t set, uint32_t n, uint64_t size)
{
    char *seen = calloc(size + 1, 1);
    assert_non_null(seen);
    cr_error err = {0};
    for (uint32_t k = 0; k < n; k++) {
        cr_store_shard row = {0};
        cr_store_instances *it = NULL;
        assert_int_equal(cr_shard_bounds(&row, store, set, k, n, &err), 0);
        assert_int_equal(row.set_size, size);
        /* a range holds its first id, unless it is empty (more shards
         * than instances), and not the next range's first (merge refuses a
         * shard that holds an instance outside its range) */
        if (row.lo && (!row.hi || strcmp(row.lo, row.hi) != 0))
            assert_true(cr_shard_holds(&row, row.lo));
        if (row.hi)
            assert_false(cr_shard_holds(&row, row.hi));
        uint64_t held = 0;
        if (k == 0 || row.lo) { /* else it starts at the end: empty */
            assert_int_equal(cr_store_instances_range_new(&it, store, set, row.lo, row.hi, &err), 0);
            const cr_instance *in;
            int rc;
            while ((rc = cr_store_instances_next(&in, it, &err)) == 1) {
                if (!cr_shard_holds(&row, in->ext_id))
                    fail_msg("shard %u/%u: '%s' is outside its range", k, n, in->ext_id);
                assert_true(in->id >= 1 && (uint64_t)in->id <= size);
                if (seen[in->id]++)
                    fail_msg("shard %u/%u: '%s' is in two shards", k, n, in->ext_id);
                held++;
            }
            assert_int_equal(rc, 0);
            cr_store_instances_free(it);
        }
        if (held != cr_shard_first(size, k + 1, n) - cr_shard_first(size, k, n))
            fail_msg("shard %u/%u holds %llu instances", k, n, (unsigned long long)held);
        cr_store_shard_clear(&row);
    }
    for (uint64_t i = 1; i <= size; i++)
        if (!seen[i])
            fail_msg("of %u shards, none holds instance %llu", n, (unsigned long long)i);
    free(seen);
}

/* The shards K/N of a set partition it exactly, for many N: 1, 1,000, as
 * many shards as instances and more.  Its ids are of every length, some
 * the start of others, some beyond ASCII, in no order; once with the set's
 * marks, once with them stale (each bound counted from the first id). */
static void test_shard__k_of_n_partitions_the_set_exactly_for_every_n(void **state)
{
    (void)state;
    enum { SIZE = 3000 };
    static const char *const parts[] = {"a", "ab", "\xc3\xa9", "Z", "0", "9", "-", "~", ""};
    cr_store *store = NULL;
    cr_error err = {0};
    int64_t set;
    assert_int_equal(cr_store_new(&store, path("partition.db"), CR_STORE_WRITE, &err), 0);
    assert_int_equal(cr_store_begin(store, &err), 0);
    assert_int_equal(cr_store_set_find(&set, store, "ids", 1, "test", &err), 0);
    uint64_t x = 12345;
    for (int i = 0; i < SIZE; i++) {
        char id[64];
        x = x * 6364136223846793005u + 1442695040888963407u;
        snprintf(id, sizeof id, "%s%s%d", parts[(x >> 33) % 9], parts[(x >> 45) % 9], (int)((x >> 20) % 1000) * SIZE + i);
        cr_store_instance row = {id, strlen(id), "[1]", 3, 1, 1, 1, 0, 0, 0};
        assert_int_equal(cr_store_add_instances(store, set, &row, 1, &err), 0);
        assert_int_equal(row.state, CR_STORE_ADDED);
        assert_int_equal(row.id, i + 1);
    }
    assert_int_equal(cr_store_set_mark(store, set, &err), 0);
    assert_int_equal(cr_store_commit(store, &err), 0);
    assert_int_equal(db_int(path("partition.db"), "SELECT count(*) FROM set_mark"), (SIZE + 1023) / 1024);
    static const uint32_t many[] = {1, 2, 3, 7, 10, 64, 100, 999, 1000, 1024, 2999, SIZE, SIZE + 1, 5000};
    for (size_t i = 0; i < sizeof many / sizeof *many; i++)
        check_partition(store, set, many[i], SIZE);
    cr_store_free(store);

    assert_int_equal(db_exec(path("partition.db"), "UPDATE instance_set SET marked = NULL"), 0);
    assert_int_equal(cr_store_new(&store, path("partition.db"), CR_STORE_READ, &err), 0);
    static const uint32_t some[] = {1, 3, 100, 1000};
    for (size_t i = 0; i < sizeof some / sizeof *some; i++)
        check_partition(store, set, some[i], SIZE);
    cr_store_free(store);
}

/* A shard reads its own instances and no others (issue 35: each shard
 * read, hashed and fingerprinted the whole set).  In a copy of the input,
 * every instance outside shard 1/4 has coins that cannot be read: the shard
 * is made and solved all the same, and merges with the others into the
 * single-process run. */
static void test_shard__a_shard_reads_only_its_own_instances(void **state)
{
    (void)state;
    char err[1024], sparse[4096], sql[9000];
    snprintf(sparse, sizeof sparse, "%s", path("sparse.db"));
    snprintf(sql, sizeof sql, "VACUUM INTO '%s'", sparse);
    assert_int_equal(db_exec(input, sql), 0);
    snprintf(sql, sizeof sql,
             "ATTACH '%s' AS shard; UPDATE main.instance SET coins = 'unreadable' "
             "WHERE ext_id < (SELECT lo FROM shard.shard) OR ext_id >= (SELECT hi FROM shard.shard)",
             path("job1-1.db"));
    assert_int_equal(db_exec(sparse, sql), 0);
    assert_int_equal(db_int(sparse, "SELECT count(*) FROM instance WHERE coins = 'unreadable'"), 4500);
    int status = coinrow(err, sizeof err, "solve", "--db", sparse, "--shard", "1/4", "--out", path("sparse-1.db"),
                         "--run-tag", "job1", "--moves", "canonical", "--quiet", (char *)NULL);
    if (status != 0)
        fail_msg("shard 1/4 of the sparse input: exit %d: %s", status, err);
    const char *into = path("sparse-merged.db");
    assert_int_equal(coinrow(err, sizeof err, "merge", "--db", into, path("job1-0.db"), path("sparse-1.db"),
                             path("job1-2.db"), path("job1-3.db"), "--quiet", (char *)NULL),
                     0);
    assert_int_equal(coinrow(err, sizeof err, "compare", "--db", into, "--against", input, (char *)NULL), 0);
}

/* A writer that died in the middle of a transaction in rollback mode
 * (upgrade, merge, the first commit of a database) leaves pages of it in
 * the file and their old contents in a hot -journal beside it.  A shard
 * reads its input immutable, which looks for no journal: it read those
 * pages as if committed.  Now an input with a -journal beside it is opened
 * with SQLite's locks, and refused (a read-only reader cannot roll the
 * journal back), naming the file, until a writer opens it once. */
static void test_shard__an_input_left_with_a_hot_journal_is_not_read_as_committed(void **state)
{
    (void)state;
    char err[1024], sql[4200], hot[4096];
    snprintf(hot, sizeof hot, "%s", altered_copy(input, "hot.db", NULL));
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) { /* the writer: every instance's coins changed, a page cache too small to hold them, and no end */
        sqlite3 *db = NULL;
        int ok = sqlite3_open(hot, &db) == SQLITE_OK &&
                 sqlite3_exec(db, "PRAGMA cache_size = 10; BEGIN; UPDATE instance SET coins = '[1]', n = 1",
                              NULL, NULL, NULL) == SQLITE_OK;
        _exit(ok ? 0 : 1);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    snprintf(sql, sizeof sql, "%s-journal", hot);
    assert_int_equal(access(sql, F_OK), 0);

    const char *out = path("hot-0.db");
    int code = coinrow(err, sizeof err, "solve", "--db", hot, "--shard", "0/4", "--out", out, "--run-tag", "hot",
                       "--quiet", (char *)NULL);
    if (code != 1 || !strstr(err, "hot.db: a writer stopped in the middle of a transaction and left its journal"))
        fail_msg("shard 0/4 of an input with a hot journal: exit %d, %s", code, err);
    assert_int_equal(access(out, F_OK), -1);

    /* once a writer has rolled it back, the input is as its last commit left it */
    assert_int_equal(coinrow(err, sizeof err, "upgrade", "--db", hot, (char *)NULL), 0);
    assert_int_equal(access(sql, F_OK), -1);
    assert_int_equal(coinrow(err, sizeof err, "solve", "--db", hot, "--shard", "0/4", "--out", out, "--run-tag",
                             "hot", "--quiet", (char *)NULL),
                     0);
    assert_int_equal(db_int(out, "SELECT count(*) FROM instance WHERE coins = '[1]'"), 0);
}

/* Writes a CSV of `rows` instances of 30 coins named `csv`, their ids in
 * order (i000001, ...) or in none (a bijective hash of the row number). */
static void write_ids_csv(const char *csv, int rows, int in_order)
{
    FILE *f = fopen(csv, "w");
    assert_non_null(f);
    fprintf(f, "id,values\n");
    for (uint32_t i = 1; i <= (uint32_t)rows; i++) {
        if (in_order)
            fprintf(f, "i%06u,", (unsigned)i);
        else
            fprintf(f, "%08x,", (unsigned)(i * 2654435761u));
        for (uint32_t j = 0; j < 30; j++)
            fprintf(f, "%s%u", j ? " " : "", (unsigned)((i * 7 + j * 13) % 1000));
        fprintf(f, "\n");
    }
    assert_int_equal(fclose(f), 0);
}

/* A shard is a range of ids and its rows lie where they were ingested:
 * of a set whose ids came in no order, shard 50/100 reads most of the
 * input (about 410 page reads of a 428-page file here, against a dozen
 * with ids in order), and says so on standard error, even with --quiet. */
static void test_shard__a_shard_of_a_set_ingested_out_of_order_says_it_read_most_of_the_input(void **state)
{
    (void)state;
    char err[2048];
    for (int in_order = 0; in_order < 2; in_order++) {
        const char *csv = path(in_order ? "ordered.csv" : "scattered.csv"),
                   *db = path(in_order ? "ordered.db" : "scattered.db"),
                   *out = path(in_order ? "ordered-50.db" : "scattered-50.db");
        write_ids_csv(csv, 40000, in_order);
        assert_int_equal(coinrow(err, sizeof err, "ingest", csv, "--db", db, "--set", "ids", "--quiet", (char *)NULL),
                         0);
        assert_int_equal(coinrow(err, sizeof err, "solve", "--db", db, "--shard", "50/100", "--out", out,
                                 "--run-tag", "ids", "--variant", "total", "--quiet", (char *)NULL),
                         0);
        if (in_order)
            assert_string_equal(err, "");
        else
            assert_non_null(strstr(err, "coinrow: note: shard 50/100 read a page of its input "));
        assert_int_equal(db_int(out, "SELECT count(*) FROM solution"), 400);
    }
}

static void test_shard__merged_run_equals_the_single_process_run(void **state)
{
    (void)state;
    char err[1024], into[4096];
    snprintf(into, sizeof into, "%s", path("merged.db"));
    assert_int_equal(coinrow(err, sizeof err, "merge", "--db", into, path("job1-0.db"), path("job1-1.db"),
                             path("job1-2.db"), path("job1-3.db"), (char *)NULL),
                     0);
    assert_int_equal(coinrow(err, sizeof err, "compare", "--db", into, "--against", input, (char *)NULL), 0);
    assert_int_equal(db_int(into, "SELECT count(*) FROM result_view WHERE run_id = 1"), 24000);
    assert_int_equal(db_int(into, "SELECT count(*) FROM run WHERE tag = 'job1' AND status = 'done'"), 1);
    /* into the input database too, beside the single-process run */
    assert_int_equal(coinrow(err, sizeof err, "merge", "--db", input, path("job1-3.db"), path("job1-2.db"),
                             path("job1-1.db"), path("job1-0.db"), (char *)NULL),
                     0);
    assert_int_equal(coinrow(err, sizeof err, "compare", "--db", input, "1", "2", (char *)NULL), 0);
    /* again: nothing changes */
    uint64_t before = file_sum(input);
    assert_int_equal(coinrow(err, sizeof err, "merge", "--db", input, path("job1-0.db"), path("job1-1.db"),
                             path("job1-2.db"), path("job1-3.db"), path("job1-0.db"), (char *)NULL),
                     0);
    assert_int_equal(file_sum(input), before);
    assert_int_equal(db_int(input, "SELECT count(*) FROM run"), 2);
}

/* Shards of another job that reuses a merged job's tag (a fixed
 * "nightly", an array id another cluster gives too), on other options or
 * other data, are refused and the target kept: they were "merged already",
 * exit 0, and the new job was dropped. */
static void test_shard__another_job_under_a_merged_jobs_tag_is_refused(void **state)
{
    (void)state;
    char err[1024], into[4096], small[4096];
    snprintf(into, sizeof into, "%s", path("tagged.db"));
    snprintf(small, sizeof small, "%s", path("small.db"));
    assert_int_equal(coinrow(err, sizeof err, "merge", "--db", into, path("job1-0.db"), path("job1-1.db"),
                             path("job1-2.db"), path("job1-3.db"), (char *)NULL),
                     0);
    assert_int_equal(coinrow(err, sizeof err, "generate", "--db", small, "--set", "jobset", "--count", "20", "--n",
                             "1..9", "--values", "1..9", "--seed", "5", "--quiet", (char *)NULL),
                     0);
    static const char *const why[] = {
        "is merged already as run 1 (--variant total,diff,remaining,winner --algo auto --moves canonical), and "
        "these shards have other options (--variant diff --algo auto --moves canonical): another job of that tag",
        "is merged already as run 1, of set 'jobset' (6000 instances), and these shards are of other data (set "
        "'jobset', 20 instances): another job of that tag",
    };
    for (int j = 0; j < 2; j++) {
        char shards[2][32];
        for (int k = 0; k < 2; k++) {
            snprintf(shards[k], sizeof shards[k], "again%d-%d.db", j, k);
            char spec[8];
            snprintf(spec, sizeof spec, "%d/2", k);
            assert_int_equal(coinrow(err, sizeof err, "solve", "--db", j ? small : input, "--shard", spec, "--out",
                                     path(shards[k]), "--run-tag", "job1", "--variant", j ? "all" : "diff",
                                     "--moves", "canonical", "--quiet", (char *)NULL),
                             0);
        }
        uint64_t before = file_sum(into);
        assert_int_equal(coinrow(err, sizeof err, "merge", "--db", into, path(shards[0]), path(shards[1]),
                                 (char *)NULL),
                         1);
        if (!strstr(err, why[j]))
            fail_msg("merge of another job 'job1': %s", err);
        assert_int_equal(file_sum(into), before);
    }
}

/* A target of an older coinrow's is upgraded and merged into, as every
 * command that writes upgrades it, and one refused is left byte for byte:
 * merge refused it as readers do ("upgrades it in place (as any command
 * that writes to it does)"). */
static void test_shard__merge_upgrades_an_older_target_and_a_refused_one_is_kept(void **state)
{
    (void)state;
    char err[1024], old[4096], other[4096];
    snprintf(old, sizeof old, "%s", path("old-target.db"));
    assert_int_equal(copy_file(fixture("schema3/coinrow.db"), old), 0);
    assert_int_equal(coinrow(err, sizeof err, "merge", "--db", old, path("job1-0.db"), path("job1-1.db"),
                             path("job1-2.db"), path("job1-3.db"), (char *)NULL),
                     0);
    assert_int_equal(db_int(old, "PRAGMA user_version"), cr_store_schema_version());
    assert_int_equal(db_int(old, "SELECT count(*) FROM result_view JOIN run ON id = run_id WHERE tag = 'job1'"),
                     24000);
    /* of version 9, holding other data under the job's set name */
    assert_int_equal(coinrow(err, sizeof err, "generate", "--db", path("other-v9.db"), "--set", "jobset", "--count",
                             "20", "--n", "1..9", "--values", "1..9", "--seed", "5", "--quiet", (char *)NULL),
                     0);
    snprintf(other, sizeof other, "%s", path("other-v9.db"));
    assert_int_equal(db_exec(other, "DROP VIEW invocation_points; DROP VIEW invocation_group_points; "
                                    "DROP VIEW test_group_view; DROP TABLE test_group_generator; "
                                    "DROP TABLE test_group_instance; DROP TABLE test_group_dependency; "
                                    "DROP TABLE test_group; PRAGMA user_version = 9"),
                     0);
    uint64_t before = file_sum(other);
    assert_int_equal(coinrow(err, sizeof err, "merge", "--db", other, path("job1-0.db"), path("job1-1.db"),
                             path("job1-2.db"), path("job1-3.db"), (char *)NULL),
                     1);
    if (!strstr(err, "set 'jobset' (20 instances) is not the data the shards of job 'job1' were made from"))
        fail_msg("%s", err);
    assert_int_equal(file_sum(other), before);
    assert_int_equal(db_int(other, "PRAGMA user_version"), 9);
}

/* An empty file, as a writing command takes it: 0 bytes (touch), or a
 * SQLite database with no tables and user_version 0.  merge used to refuse
 * both, "not a coinrow database (it has no tables)". */
static void test_shard__merge_initialises_an_empty_database(void **state)
{
    (void)state;
    char err[1024], targets[2][4096];
    snprintf(targets[0], sizeof targets[0], "%s", path("zero.db"));
    snprintf(targets[1], sizeof targets[1], "%s", path("blank.db"));
    FILE *f = fopen(targets[0], "wb");
    assert_non_null(f);
    fclose(f);
    assert_int_equal(db_exec(targets[1], "PRAGMA page_size = 4096; VACUUM"), 0);
    for (int i = 0; i < 2; i++) {
        int status = coinrow(err, sizeof err, "merge", "--db", targets[i], path("job1-0.db"), path("job1-1.db"),
                             path("job1-2.db"), path("job1-3.db"), (char *)NULL);
        if (status != 0)
            fail_msg("merge into %s: exit %d: %s", targets[i], status, err);
        assert_int_equal(db_int(targets[i], "SELECT count(*) FROM result_view WHERE run_id = 1"), 24000);
        assert_int_equal(coinrow(err, sizeof err, "compare", "--db", targets[i], "--against", input, (char *)NULL),
                         0);
    }
}

/* The paths of job1's four shards, into paths, and shards[k] pointing at them. */
static void job1_shards(char paths[4][4096], const char *shards[4])
{
    for (int k = 0; k < 4; k++) {
        char name[32];
        snprintf(name, sizeof name, "job1-%d.db", k);
        snprintf(paths[k], sizeof paths[k], "%s", path(name));
        shards[k] = paths[k];
    }
}

/* A merge stopped (the flag Ctrl-C and SIGTERM set) rolls back: a target
 * it made goes with its journal, one that was there keeps every byte, and
 * it is CR_EINTERRUPTED, which the command exits 130 for.  It used to have
 * no handler: the signal killed it and left a hot journal beside the target. */
static void test_shard__a_stopped_merge_leaves_its_target_as_it_was(void **state)
{
    (void)state;
    char shard_paths[4][4096], fresh[4096], journal[4200];
    const char *shards[4];
    job1_shards(shard_paths, shards);
    snprintf(fresh, sizeof fresh, "%s", path("stopped-new.db"));
    snprintf(journal, sizeof journal, "%s-journal", fresh);
    atomic_int stop = 1;
    cr_merge_report report;
    cr_error e = {0};
    assert_int_equal(cr_shard_merge(&report, fresh, shards, 4, &stop, &e), CR_EINTERRUPTED);
    assert_non_null(strstr(e.msg, "interrupted: nothing was merged, and "));
    assert_int_equal(access(fresh, F_OK), -1);
    assert_int_equal(access(journal, F_OK), -1);

    const char *existing = altered_copy(input, "stopped-into.db",
                                        "DELETE FROM result WHERE run_id IN (SELECT id FROM run WHERE tag = 'job1');"
                                        "DELETE FROM run WHERE tag = 'job1'");
    uint64_t before = file_sum(existing);
    assert_int_equal(cr_shard_merge(&report, existing, shards, 4, &stop, &e), CR_EINTERRUPTED);
    assert_int_equal(file_sum(existing), before);
    snprintf(journal, sizeof journal, "%s-journal", existing);
    assert_int_equal(access(journal, F_OK), -1);
}

/* A merge of the job into the target, run to its end between this merge's
 * check of the target and its write transaction (cr_store_begin, wrapped:
 * the Makefile links this program with --wrap=cr_store_begin), as another
 * merge started at the same time is.  Off while race_into is NULL. */
static const char *race_into;
static const char *const *race_shards;

int __real_cr_store_begin(cr_store *store, cr_error *err);
int __wrap_cr_store_begin(cr_store *store, cr_error *err);
int __wrap_cr_store_begin(cr_store *store, cr_error *err)
{
    const char *into = race_into;
    if (into && strcmp(cr_store_path(store), into) == 0) {
        race_into = NULL; /* the other merge's own begin goes through */
        cr_merge_report other;
        cr_error e = {0};
        if (cr_shard_merge(&other, into, race_shards, 4, NULL, &e) != 0 || other.already)
            fail_msg("the other merge: %s", e.msg);
    }
    return __real_cr_store_begin(store, err);
}

/* A writer killed in the middle of a transaction on the target leaves its
 * journal hot: a child process spills a change to the file and exits
 * without committing, as a merge SIGKILLed does.  The next merge rolls it
 * back and merges; it was refused, its message naming `coinrow upgrade`
 * as the writer to run first. */
static void test_shard__a_merge_after_a_killed_one_rolls_its_journal_back(void **state)
{
    (void)state;
    const char *into = altered_copy(input, "killed-into.db",
                                    "DELETE FROM result WHERE run_id IN (SELECT id FROM run WHERE tag = 'job1');"
                                    "DELETE FROM run WHERE tag = 'job1'");
    uint64_t before = file_sum(into);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        sqlite3 *db = NULL;
        int ok = sqlite3_open(into, &db) == SQLITE_OK &&
                 sqlite3_exec(db, "PRAGMA cache_size = 1; BEGIN; UPDATE instance SET n = n + 1", NULL, NULL, NULL) ==
                     SQLITE_OK;
        _exit(ok ? 0 : 1); /* no commit, no rollback: the journal stays hot */
    }
    int status;
    assert_int_equal(waitpid(child, &status, 0), child);
    assert_int_equal(status, 0);
    char journal[4200];
    snprintf(journal, sizeof journal, "%s-journal", into);
    assert_int_equal(access(journal, F_OK), 0);
    assert_true(file_sum(into) != before); /* the change spilled into the file */
    char err[1024];
    int merged = coinrow(err, sizeof err, "merge", "--db", into, path("job1-0.db"), path("job1-1.db"),
                         path("job1-2.db"), path("job1-3.db"), "--quiet", (char *)NULL);
    if (merged != 0)
        fail_msg("merge: exit %d: %s", merged, err);
    assert_int_equal(access(journal, F_OK), -1);
    assert_int_equal(db_int(into, "SELECT count(*) FROM instance AS i WHERE n <> json_array_length(coins)"), 0);
    assert_int_equal(coinrow(err, sizeof err, "compare", "--db", into, "--against", input, (char *)NULL), 0);
}

/* Two merges of one job into one target at the same time: the second to
 * take the write lock finds the job merged and does nothing.  Both used to
 * write it, two done runs of the job and every result twice, check-db
 * passing. */
static void test_shard__a_merge_that_loses_the_race_to_the_target_merges_nothing(void **state)
{
    (void)state;
    char shard_paths[4][4096], into[4096];
    const char *shards[4];
    job1_shards(shard_paths, shards);
    snprintf(into, sizeof into, "%s", path("raced.db"));
    race_shards = shards;
    race_into = into;
    cr_merge_report report;
    cr_error e = {0};
    int rc = cr_shard_merge(&report, into, shards, 4, NULL, &e);
    race_into = NULL;
    if (rc != 0)
        fail_msg("%s", e.msg);
    assert_true(report.already);
    assert_int_equal(report.run, 1);
    assert_int_equal(db_int(into, "SELECT count(*) FROM run"), 1);
    assert_int_equal(db_int(into, "SELECT count(*) FROM solution"), db_int(input, "SELECT count(*) FROM solution "
                                                                                  "WHERE run_id = 1"));
}

static void test_shard__refused_merges_name_the_shard_and_touch_nothing(void **state)
{
    (void)state;
    char err[1024], into[4096];
    snprintf(into, sizeof into, "%s", path("refused.db"));
    assert_int_equal(coinrow(err, sizeof err, "merge", "--db", into, path("job1-0.db"), path("job1-1.db"),
                             path("job1-3.db"), (char *)NULL),
                     1);
    assert_non_null(strstr(err, "shard 2/4 of job 'job1' is missing"));
    assert_int_equal(solve_shard(2, "job2", path("job2-2.db")), 0);
    assert_int_equal(coinrow(err, sizeof err, "merge", "--db", into, path("job1-0.db"), path("job1-1.db"),
                             path("job2-2.db"), path("job1-3.db"), (char *)NULL),
                     1);
    assert_non_null(strstr(err, "job2-2.db is shard 2/4 of job 'job2'"));
    assert_non_null(strstr(err, "a stranger"));
    assert_null(fopen(into, "r")); /* never created */

    /* a target whose set is other data than the shards' */
    char other[4096], sql[8300];
    snprintf(other, sizeof other, "%s", path("other.db"));
    snprintf(sql, sizeof sql, "VACUUM INTO '%s'", other);
    assert_int_equal(db_exec(input, sql), 0);
    assert_int_equal(db_exec(other, "DELETE FROM result WHERE run_id IN (SELECT id FROM run WHERE tag = 'job1');"
                                    "DELETE FROM run WHERE tag = 'job1';"
                                    "UPDATE instance SET coins = '[1,2,3]', n = 3 WHERE ext_id = '0042'"),
                     0);
    /* edited by hand, its recorded fingerprint is the shards': the clash
     * shows while the merge writes, and is rolled back */
    uint64_t before = file_sum(other);
    assert_int_equal(coinrow(err, sizeof err, "merge", "--db", other, path("job1-0.db"), path("job1-1.db"),
                             path("job1-2.db"), path("job1-3.db"), (char *)NULL),
                     1);
    assert_non_null(strstr(err, "instance '0042' has other coins than the shards'"));
    assert_int_equal(file_sum(other), before);
    /* a set recorded as other data is refused before anything is written */
    assert_int_equal(db_exec(other, "UPDATE instance_set SET size = size + 1"), 0);
    before = file_sum(other);
    assert_int_equal(coinrow(err, sizeof err, "merge", "--db", other, path("job1-0.db"), path("job1-1.db"),
                             path("job1-2.db"), path("job1-3.db"), (char *)NULL),
                     1);
    assert_non_null(strstr(err, "is not the data the shards of job 'job1' were made from"));
    assert_int_equal(file_sum(other), before);

    /* a target that is one of the shards, by another path too: it holds a
     * run of the job, but a shard's share of it */
    char shard1[4096], shard1_again[4200];
    snprintf(shard1, sizeof shard1, "%s", path("job1-1.db"));
    snprintf(shard1_again, sizeof shard1_again, "%s/./job1-1.db", dir);
    before = file_sum(shard1);
    assert_int_equal(coinrow(err, sizeof err, "merge", "--db", shard1_again, path("job1-0.db"), shard1,
                             path("job1-2.db"), path("job1-3.db"), (char *)NULL),
                     1);
    assert_non_null(strstr(err, "job1-1.db is shard 1/4 of job 'job1' itself"));
    assert_int_equal(file_sum(shard1), before);
}

static void test_shard__a_shard_started_again_checks_what_it_holds(void **state)
{
    (void)state;
    char err[1024];
    assert_int_equal(coinrow(err, sizeof err, "solve", "--db", input, "--shard", "1/4", "--out", path("job1-1.db"),
                             "--run-tag", "job1", "--moves", "canonical", (char *)NULL),
                     0);
    assert_int_equal(coinrow(err, sizeof err, "solve", "--db", input, "--shard", "1/4", "--out", path("job1-1.db"),
                             "--run-tag", "job1", "--moves", "fast", (char *)NULL),
                     1);
    assert_non_null(strstr(err, "was started with other options"));
    assert_int_equal(coinrow(err, sizeof err, "solve", "--db", input, "--shard", "2/4", "--out", path("job1-1.db"),
                             "--run-tag", "job1", "--moves", "canonical", (char *)NULL),
                     1);
    assert_non_null(strstr(err, "holds shard 1/4 of job 'job1' (set 'jobset'), not shard 2/4"));
    /* a task refused before its shard is made leaves no database at --out
     * (it used to leave a new one behind, with no shard in it) */
    assert_int_equal(coinrow(err, sizeof err, "solve", "--db", path("no-input.db"), "--shard", "1/4", "--out",
                             path("never-1.db"), "--run-tag", "job1", (char *)NULL),
                     1);
    assert_int_equal(access(path("never-1.db"), F_OK), -1);
    assert_int_equal(coinrow(err, sizeof err, "solve", "--db", input, "--set", "nope", "--shard", "1/4", "--out",
                             path("never-1.db"), "--run-tag", "job1", (char *)NULL),
                     1);
    assert_non_null(strstr(err, "no instance set 'nope'"));
    assert_int_equal(access(path("never-1.db"), F_OK), -1);
    /* refused, the shard is as it was: done, and merges */
    assert_int_equal(db_int(path("job1-1.db"), "SELECT count(*) FROM run WHERE status = 'done'"), 1);
    assert_int_equal(coinrow(err, sizeof err, "solve", "--db", input, "--shard", "4/4", "--out", path("x.db"),
                             "--run-tag", "job1", (char *)NULL),
                     2);
    assert_int_equal(coinrow(err, sizeof err, "solve", "--db", input, "--shard", "1/4", "--out", path("x.db"),
                             (char *)NULL),
                     2);
}


/* Runs merge into a new database dir/into with the shards of job1, shard k
 * replaced by other: exit 1, the message has want, and no file is left. */
static void merge_refused(const char *into, int k, const char *other, const char *want)
{
    char err[1024];
    const char *shards[4] = {path("job1-0.db"), path("job1-1.db"), path("job1-2.db"), path("job1-3.db")};
    shards[k] = other;
    const char *target = path(into);
    int status = coinrow(err, sizeof err, "merge", "--db", target, shards[0], shards[1], shards[2], shards[3],
                         (char *)NULL);
    if (status != 1 || !strstr(err, want))
        fail_msg("merge with %s: exit %d, %s (wanted '%s')", other, status, err, want);
    assert_int_equal(access(target, F_OK), -1); /* never left behind */
}

/* Shards that are not one whole job, each file once and done, are refused
 * before anything is written, naming the file and what is wrong. */
static void test_shard__shards_that_do_not_fit_together_are_refused(void **state)
{
    (void)state;
    char want[4200];
    merge_refused("m1.db", 0, path("no-such.db"), "cannot open shard ");
    snprintf(want, sizeof want, "%s is not a shard database", input);
    merge_refused("m2.db", 1, input, want);

    assert_int_equal(coinrow(NULL, 0, "solve", "--db", input, "--shard", "2/4", "--out", path("fast-2.db"),
                             "--run-tag", "job1", "--moves", "fast", "--quiet", (char *)NULL),
                     0);
    merge_refused("m3.db", 2, path("fast-2.db"), "are of job 'job1' but differ");

    const char *twice = altered_copy(path("job1-1.db"), "twice-1.db", NULL);
    merge_refused("m4.db", 2, twice, "shard 1/4 of job 'job1' is given twice");

    const char *running = altered_copy(path("job1-3.db"), "running-3.db", "UPDATE run SET status = 'running'");
    merge_refused("m5.db", 3, running, "running-3.db) is not done: running");

    const char *fewer = altered_copy(path("job1-0.db"), "fewer-0.db",
                                     "DELETE FROM result WHERE instance_id = (SELECT min(id) FROM instance);"
                                     "DELETE FROM instance WHERE id = (SELECT min(id) FROM instance)");
    merge_refused("m6.db", 0, fewer, "the 4 shards of job 'job1' hold 5999 instances; set 'jobset' had 6000");

    /* the io call itself, which the command guards with a usage error */
    cr_merge_report report;
    cr_error e = {0};
    assert_int_equal(cr_shard_merge(&report, path("m7.db"), NULL, 0, NULL, &e), CR_EINVAL);
    assert_non_null(strstr(e.msg, "no shard databases to merge"));
}

/* A shard altered by hand after it was solved: an instance moved out of its
 * part of the set, two instances' ids and coins swapped (the set's
 * fingerprint the same, but each has the other's results now), a line of
 * play with a letter other than L and R, or
 * other coins than the set's in the target, which the merge finds while it
 * writes: refused then, the target keeps every byte, its header's too (no
 * switch to WAL and back), and no journal is left beside it. */
static void test_shard__a_shard_altered_by_hand_is_refused_and_the_target_kept(void **state)
{
    (void)state;
    /* 'zzz' sorts after every generated id: past shard 0's range */
    const char *stray = "zzz";
    char sql[256];
    snprintf(sql, sizeof sql, "UPDATE instance SET ext_id = '%s' WHERE id = (SELECT min(id) FROM instance)", stray);
    const char *moved = altered_copy(path("job1-0.db"), "moved-0.db", sql);
    char want[256];
    snprintf(want, sizeof want, "moved-0.db: instance '%s' does not belong to shard 0/4", stray);
    merge_refused("m8.db", 0, moved, want);

    /* merge reads a shard in the order of its instances' numbers, which
     * coinrow gives in the order of their ids */
    const char *swapped = altered_copy(path("job1-0.db"), "swapped-0.db",
                                       "CREATE TEMP TABLE two AS SELECT * FROM instance WHERE id IN (1, 2);"
                                       "UPDATE instance SET ext_id = 'swapping' WHERE id = 1;"
                                       "UPDATE instance SET ext_id = (SELECT ext_id FROM two WHERE id = 1) "
                                       "WHERE id = 2;"
                                       "UPDATE instance SET ext_id = (SELECT ext_id FROM two WHERE id = 2) "
                                       "WHERE id = 1");
    merge_refused("m13.db", 0, swapped, "swapped-0.db: instance '0001' is numbered after '0002', whose id is not "
                                        "smaller: a shard was altered");

    /* a line of play edited through the result view is kept in result_extra */
    const char *relined = altered_copy(path("job1-0.db"), "relined-0.db",
                                       "UPDATE result SET moves = 'LXR' "
                                       "WHERE instance_id = (SELECT min(instance_id) FROM result)");
    merge_refused("m9.db", 0, relined, "relined-0.db: instance '0001': its diff line is not one L or R per coin");
    /* a line cut short, and a variant edited out of an instance: they were
     * merged into a done run that check-db then faulted */
    const char *cut = altered_copy(path("job1-0.db"), "cut-0.db",
                                   "UPDATE solution SET moves = substr(moves, 2) "
                                   "WHERE instance_id = (SELECT min(instance_id) FROM solution)");
    merge_refused("m14.db", 0, cut, "cut-0.db: instance '0001': its diff line is not one L or R per coin");
    const char *unsolved = altered_copy(path("job1-0.db"), "unsolved-0.db",
                                        "UPDATE solution SET variants = 3, outcome = outcome & 15 "
                                        "WHERE instance_id = (SELECT max(instance_id) FROM solution)");
    merge_refused("m15.db", 0, unsolved, "has the results of total,diff, not of the run's variants "
                                      "total,diff,remaining,winner");

    /* the last shard's last instance is read after the merge has handed
     * its first stage of instances to the writer: the reader fails while
     * the writer works */
    const char *late = altered_copy(path("job1-3.db"), "late-3.db",
                                    "UPDATE instance SET ext_id = '0000' WHERE id = (SELECT max(id) FROM instance)");
    merge_refused("m12.db", 3, late, "late-3.db: instance '0000' does not belong to shard 3/4");

    /* other coins in the target, found by the writer: in the first stage
     * (the reader still reading), and in the last; and an id the target's
     * set lacks (shard 1's first id with an 'x' after it: still in its
     * range) */
    /* copies: path()'s eight buffers go round within the loop */
    char target[4096], shards[4][4096];
    snprintf(target, sizeof target, "%s",
             altered_copy(input, "before-job1.db",
                          "DELETE FROM result WHERE run_id IN (SELECT id FROM run WHERE tag = 'job1');"
                          "DELETE FROM run WHERE tag = 'job1'"));
    for (int k = 0; k < 4; k++) {
        char name[32];
        snprintf(name, sizeof name, "job1-%d.db", k);
        snprintf(shards[k], sizeof shards[k], "%s", path(name));
    }
    static const struct {
        int k;
        const char *sql, *want;
        int names_target; /* the error begins with the target's path */
    } alterations[] = {
        {0, "UPDATE instance SET coins = json_set(coins, '$[0]', coins ->> 0 + 1) "
            "WHERE id = (SELECT min(id) FROM instance)",
         "' has other coins than the shards'", 1},
        {3, "UPDATE instance SET coins = json_set(coins, '$[0]', coins ->> 0 + 1) "
            "WHERE id = (SELECT max(id) FROM instance)",
         "' has other coins than the shards'", 1},
        {1, "UPDATE instance SET ext_id = ext_id || 'x' WHERE id = (SELECT min(id) FROM instance)",
         "x' of the shards, though its size and digest say it holds them: it or a shard was changed outside "
         "coinrow", 1},
        /* a line with another letter in the last instance of all, found
         * once the writer has had every stage before it: the target, whose
         * deleted run left free pages, is rolled back byte for byte all
         * the same (merge keeps an existing target's pages in its cache:
         * SQLite journals no page it takes from the freelist, and one
         * spilled into the file would keep its new bytes) */
        {3, "UPDATE result SET moves = 'LXR' WHERE instance_id = (SELECT max(instance_id) FROM result)",
         "line is not one L or R per coin", 0},
        /* one cut short, counted against the coins as the target has them */
        {2, "UPDATE solution SET moves = substr(moves, 2) WHERE instance_id = (SELECT max(instance_id) FROM solution)",
         "line is not one L or R per coin", 0},
    };
    for (size_t i = 0; i < sizeof alterations / sizeof alterations[0]; i++) {
        char name[32];
        int k = alterations[i].k;
        snprintf(name, sizeof name, "altered-%zu-%d.db", i, k);
        const char *given[4] = {shards[0], shards[1], shards[2], shards[3]};
        given[k] = altered_copy(shards[k], name, alterations[i].sql);
        char err[1024], beside[4200];
        size_t len = 0, len_after = 0;
        char *before = read_bytes(target, &len);
        assert_non_null(before);
        assert_int_equal(coinrow(err, sizeof err, "merge", "--db", target, given[0], given[1], given[2], given[3],
                                 (char *)NULL),
                         1);
        if ((alterations[i].names_target && !strstr(err, "before-job1.db: ")) || !strstr(err, alterations[i].want))
            fail_msg("merge with %s: %s (wanted '%s')", name, err, alterations[i].want);
        char *after = read_bytes(target, &len_after);
        assert_non_null(after);
        assert_int_equal(len_after, len);
        assert_memory_equal(after, before, len);
        free(before), free(after);
        static const char *const suffixes[] = {"-journal", "-wal", "-shm"};
        for (int j = 0; j < 3; j++) {
            snprintf(beside, sizeof beside, "%s%s", target, suffixes[j]);
            assert_int_equal(access(beside, F_OK), -1);
        }
    }
}

/* A copy of shard k of job1 with page `page` (from 1) overwritten at its
 * start: the kind of damage a disk or a copy gone wrong leaves, which only
 * reading the page finds.  page_sql gives the page. */
static const char *damaged_copy(int k, const char *name, const char *page_sql)
{
    char from[32];
    snprintf(from, sizeof from, "job1-%d.db", k);
    const char *to = altered_copy(path(from), name, NULL);
    int64_t page = db_int(to, page_sql), page_size = db_int(to, "PRAGMA page_size");
    FILE *f = fopen(to, "r+b");
    assert_non_null(f);
    unsigned char junk[64];
    memset(junk, 0xff, sizeof junk);
    assert_int_equal(fseek(f, (long)((page - 1) * page_size), SEEK_SET), 0);
    assert_int_equal(fwrite(junk, 1, sizeof junk, f), sizeof junk);
    assert_int_equal(fclose(f), 0);
    return to;
}

/* A damaged shard is refused by SQLite's check of it, which runs while
 * the merge writes: whichever of the merge's reader and the check comes to
 * damage in its data first (the reader starts on the first shard as the
 * check does), nothing is left at a new target; damage in an index the
 * reader never reads is the check's alone to find, and the merge does not
 * commit before it is done: a target that holds the set keeps every
 * byte. */
static void test_shard__a_damaged_shard_is_refused_by_its_check(void **state)
{
    (void)state;
    merge_refused("m14.db", 0,
                  damaged_copy(0, "damaged-0.db", "SELECT rootpage FROM sqlite_schema WHERE name = 'solution'"),
                  "damaged-0.db: the database is damaged (");

    const char *target = altered_copy(input, "before-damage.db",
                                      "DELETE FROM result WHERE run_id IN (SELECT id FROM run WHERE tag = 'job1');"
                                      "DELETE FROM run WHERE tag = 'job1'");
    const char *damaged = damaged_copy(2, "damaged-2.db",
                                       "SELECT rootpage FROM sqlite_schema WHERE name = 'solution_ext_id'");
    size_t len = 0, len_after = 0;
    char *before = read_bytes(target, &len), err[1024];
    assert_non_null(before);
    assert_int_equal(coinrow(err, sizeof err, "merge", "--db", target, path("job1-0.db"), path("job1-1.db"), damaged,
                             path("job1-3.db"), (char *)NULL),
                     1);
    if (!strstr(err, "damaged-2.db: the database is damaged ("))
        fail_msg("merge with damaged-2.db: %s", err);
    char *after = read_bytes(target, &len_after);
    assert_non_null(after);
    assert_int_equal(len_after, len);
    assert_memory_equal(after, before, len);
    free(before), free(after);
}

/* K/N is two plain numbers, 0 <= K < N: no sign, no blank, nothing else. */
/* Shards made by an older coinrow (schema 3 to 7, the modulus split) are
 * refused by name, whether still of their version or upgraded since; and a
 * shard task finds one in its --out and refuses it too. */
static void test_shard__shards_of_the_old_form_are_refused_by_name(void **state)
{
    (void)state;
    char upgraded[4096]; /* path()'s buffers are used in turn */
    snprintf(upgraded, sizeof upgraded, "%s",
             altered_copy(path("job1-2.db"), "modulus-2.db", "UPDATE shard SET split = 'modulus'"));
    merge_refused("m10.db", 2, upgraded,
                  "modulus-2.db holds shard 2/4 of job 'job1' split by an older coinrow's rule (FNV-1a mod N");
    const char *old = altered_copy(path("job1-2.db"), "v7-2.db", "PRAGMA user_version = 7");
    merge_refused("m11.db", 2, old, "v7-2.db is of schema version 7, an older coinrow's");
    /* version 9 split by ranges: upgraded, it merges (it was told to solve
     * the job again, split "by the older rule") */
    char v9[4096];
    snprintf(v9, sizeof v9, "%s",
             altered_copy(path("job1-2.db"), "v9-2.db",
                          "DROP VIEW invocation_points; DROP VIEW invocation_group_points; DROP VIEW test_group_view; "
                          "DROP TABLE test_group_generator; DROP TABLE test_group_instance; "
                          "DROP TABLE test_group_dependency; DROP TABLE test_group; PRAGMA user_version = 9"));
    merge_refused("m12.db", 2, v9, "v9-2.db is of schema version 9, an older coinrow's, split by ranges as this "
                                   "one splits: 'coinrow upgrade --db ");
    char err[1024];
    assert_int_equal(coinrow(err, sizeof err, "upgrade", "--db", v9, (char *)NULL), 0);
    assert_int_equal(coinrow(err, sizeof err, "merge", "--db", path("m12.db"), path("job1-0.db"), path("job1-1.db"),
                             v9, path("job1-3.db"), (char *)NULL),
                     0);
    assert_int_equal(coinrow(err, sizeof err, "compare", "--db", path("m12.db"), "--against", input, (char *)NULL), 0);
    assert_int_equal(coinrow(err, sizeof err, "solve", "--db", input, "--shard", "2/4", "--out", upgraded,
                             "--run-tag", "job1", "--moves", "canonical", (char *)NULL),
                     1);
    if (!strstr(err, "split by an older coinrow's rule"))
        fail_msg("%s", err);
}

/* merge --shards DIR takes every *.db of the folder, --shards FILE the
 * paths it lists, one a line (blank lines and CRLF endings allowed): for
 * more shards than a command line holds.  A hidden *.db (a copy set
 * aside, macOS's "._" twin) is left out, as the target is when it is in
 * the folder: merged again, it says so (it was taken for a shard, and a
 * hidden copy for a shard given twice). */
static void test_shard__merge_reads_the_shards_from_a_folder_or_a_list(void **state)
{
    (void)state;
    char err[1024], folder[4096];
    snprintf(folder, sizeof folder, "%s", path("listed"));
    assert_int_equal(mkdir(folder, 0700), 0);
    FILE *list = fopen(path("shards.txt"), "w");
    assert_non_null(list);
    for (int k = 0; k < 4; k++) {
        char name[64];
        snprintf(name, sizeof name, "listed/job1-%d.db", k);
        altered_copy(path(name + 7), name, NULL);
        fprintf(list, "%s\r\n\n", path(name + 7));
    }
    fclose(list);
    assert_int_equal(db_exec(path("listed/notes.txt.db-not"), "CREATE TABLE x (y)"), 0); /* not *.db: left out */
    altered_copy(path("job1-1.db"), "listed/.job1-1-copy.db", NULL);
    assert_int_equal(write_file(path("listed/._job1-1.db"), "not a database"), 0);
    const char *into = path("from-folder.db");
    int status = coinrow(err, sizeof err, "merge", "--db", into, "--shards", folder, "--quiet", (char *)NULL);
    if (status != 0)
        fail_msg("merge --shards %s: exit %d: %s", folder, status, err);
    assert_int_equal(coinrow(err, sizeof err, "compare", "--db", into, "--against", input, (char *)NULL), 0);
    const char *inside = path("listed/merged.db");
    for (int again = 0; again < 2; again++) {
        status = coinrow(err, sizeof err, "merge", "--db", inside, "--shards", folder, "--quiet", (char *)NULL);
        if (status != 0)
            fail_msg("merge --shards %s into it, time %d: exit %d: %s", folder, again + 1, status, err);
    }
    assert_int_equal(db_int(inside, "SELECT count(*) FROM run"), 1);
    into = path("from-list.db");
    status = coinrow(err, sizeof err, "merge", "--db", into, "--shards", path("shards.txt"), "--quiet", (char *)NULL);
    if (status != 0)
        fail_msg("merge --shards shards.txt: exit %d: %s", status, err);
    assert_int_equal(coinrow(err, sizeof err, "compare", "--db", into, "--against", input, (char *)NULL), 0);
    /* a list short of one shard is refused, naming it */
    list = fopen(path("three.txt"), "w");
    assert_non_null(list);
    fprintf(list, "%s\n%s\n%s\n", path("job1-0.db"), path("job1-1.db"), path("job1-3.db"));
    fclose(list);
    assert_int_equal(coinrow(err, sizeof err, "merge", "--db", path("m12.db"), "--shards", path("three.txt"),
                             (char *)NULL),
                     1);
    assert_non_null(strstr(err, "shard 2/4 of job 'job1' is missing"));
}

/* A shard's --out that is its input, by any path, is refused before
 * anything is written: it solved the whole set into the input, which
 * every shard of the job reads immutable, and recorded a shard there. */
static void test_shard__a_shard_written_into_its_input_is_refused(void **state)
{
    (void)state;
    const char *copy = altered_copy(input, "own-input.db", NULL), *link = path("own-input-link.db");
    assert_int_equal(symlink("own-input.db", link), 0);
    uint64_t before = file_sum(copy);
    char err[1024];
    for (int i = 0; i < 2; i++) {
        const char *out = i ? link : copy;
        assert_int_equal(coinrow(err, sizeof err, "solve", "--db", copy, "--shard", "0/4", "--out", out, "--run-tag",
                                 "own", (char *)NULL),
                         2);
        assert_non_null(strstr(err, "is the input database"));
    }
    assert_int_equal(file_sum(copy), before);
}

/* --out naming a database of other sets, not a shard, is refused and left
 * byte for byte: it gained the shard's set, a run and a shard row, and
 * with a set of the same name it solved that set's instances as the job's. */
static void test_shard__a_shard_written_into_a_database_of_other_sets_is_refused(void **state)
{
    (void)state;
    char err[1024];
    const char *same = path("same-name.db"), *other = path("other-set.db");
    assert_int_equal(coinrow(err, sizeof err, "generate", "--db", same, "--set", "jobset", "--count", "10", "--n",
                             "1..9", "--values", "1..9", "--seed", "9", "--quiet", (char *)NULL),
                     0);
    assert_int_equal(coinrow(err, sizeof err, "generate", "--db", other, "--set", "mine", "--count", "10", "--n",
                             "1..9", "--values", "1..9", "--seed", "9", "--quiet", (char *)NULL),
                     0);
    for (int i = 0; i < 2; i++) {
        const char *out = i ? other : same;
        uint64_t before = file_sum(out);
        assert_int_equal(coinrow(err, sizeof err, "solve", "--db", input, "--shard", "0/4", "--out", out, "--run-tag",
                                 "into", (char *)NULL),
                         1);
        assert_non_null(strstr(err, i ? "holds 1 instance set (mine), and no shard: --out takes a new file"
                                      : "holds 1 instance set (jobset), and no shard: --out takes a new file"));
        assert_int_equal(file_sum(out), before);
    }
}

/* A shard of a set whose ingest did not finish is refused, as solve
 * refuses the set, and no shard database is made: the job merged into a
 * run marked done with part of the set, which check-db passed. */
static void test_shard__a_shard_of_a_set_whose_ingest_did_not_finish_is_refused(void **state)
{
    (void)state;
    const char *cut = altered_copy(input, "unfinished-input.db",
                                   "INSERT INTO ingest_error (set_id, source, line, reason, raw) VALUES (1, "
                                   "'jobset.csv', 0, 'ingest unfinished', 'coinrow run --resume jobset.csv --set "
                                   "jobset')");
    const char *out = path("unfinished-0.db");
    char err[1024];
    assert_int_equal(coinrow(err, sizeof err, "solve", "--db", cut, "--shard", "0/4", "--out", out, "--run-tag", "cut",
                             (char *)NULL),
                     1);
    if (!strstr(err, "unfinished-input.db: set 'jobset' lacks rows of its input: its ingest of jobset.csv did not "
                     "finish, and its shards would merge into a run done without them"))
        fail_msg("%s", err);
    assert_int_equal(access(out, F_OK), -1);
}

/* solve --resume of a shard's run is refused, naming the shard: it marked
 * the shard done with the instances it had copied, and the job's merge
 * came out short.  Its solve --shard command finishes it. */
static void test_shard__a_shard_is_finished_by_its_command_not_by_resume(void **state)
{
    (void)state;
    const char *out = path("resumed-2.db");
    char err[1024];
    assert_int_equal(solve_shard(2, "resumed", out), 0);
    /* as a stop leaves it: interrupted, part of its share copied and solved */
    assert_int_equal(db_exec(out, "UPDATE run SET status = 'interrupted'; DELETE FROM solution WHERE instance_id IN "
                                  "(SELECT id FROM instance ORDER BY id DESC LIMIT 10); DELETE FROM instance WHERE id "
                                  "IN (SELECT id FROM instance ORDER BY id DESC LIMIT 10)"),
                     0);
    uint64_t before = file_sum(out);
    assert_int_equal(coinrow(err, sizeof err, "solve", "--resume", "--db", out, (char *)NULL), 1);
    if (!strstr(err, "resumed-2.db: run 1 is shard 2/4 of job 'resumed', whose instances come from its input: run "
                     "the solve --shard command that made it again"))
        fail_msg("%s", err);
    assert_int_equal(file_sum(out), before);
    assert_int_equal(solve_shard(2, "resumed", out), 0);
    assert_int_equal(db_int(out, "SELECT status = 'done' FROM run"), 1);
    assert_int_equal(db_int(out, "SELECT count(*) FROM solution"), db_int(out, "SELECT count(*) FROM instance"));
    assert_int_equal(db_int(out, "SELECT count(*) = 1500 FROM instance"), 1);
}

/* A shard started again after its input's set changed (an ingest into it
 * between the two runs) is refused, naming both sizes: it went on with the
 * new set, its row still saying the old size, and only merge found out. */
static void test_shard__a_shard_started_again_on_a_changed_input_is_refused(void **state)
{
    (void)state;
    const char *changed = altered_copy(input, "changed-input.db", NULL), *out = path("changed-1.db");
    char err[1024];
    assert_int_equal(coinrow(err, sizeof err, "solve", "--db", changed, "--shard", "1/4", "--out", out, "--run-tag",
                             "changed", "--quiet", (char *)NULL),
                     0);
    /* as a stop leaves it: interrupted, part of its share solved */
    assert_int_equal(db_exec(out, "UPDATE run SET status = 'interrupted'; DELETE FROM solution WHERE instance_id IN "
                                  "(SELECT instance_id FROM solution ORDER BY instance_id DESC LIMIT 10)"),
                     0);
    int64_t solved = db_int(out, "SELECT count(*) FROM solution");
    assert_int_equal(write_file(path("more.csv"), "id,values\nzzz-added,1 2 3\n"), 0);
    assert_int_equal(coinrow(err, sizeof err, "ingest", path("more.csv"), "--db", changed, "--set", "jobset", "--quiet",
                             (char *)NULL),
                     0);
    assert_int_equal(coinrow(err, sizeof err, "solve", "--db", changed, "--shard", "1/4", "--out", out, "--run-tag",
                             "changed", (char *)NULL),
                     1);
    if (!strstr(err, "set 'jobset' of the input has changed since shard 1/4 of job 'changed' began (6000 instances "
                     "then, 6001 now)"))
        fail_msg("%s", err);
    assert_int_equal(db_int(out, "SELECT count(*) FROM solution"), solved);
}

static void test_shard__k_of_n_is_read_strictly(void **state)
{
    (void)state;
    static const char *const bad[] = {"0/-1", " 1/ 2", "1 /2", "+1/2", "-0/2", "1/+2", "1/2 ", "1/2/3", "1/",
                                      "/2",   "2/2",   "5/4",  "0/0",  "a/2",  "1/2x", "0/4294967296", "", "1"};
    char err[1024];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int status = coinrow(err, sizeof err, "solve", "--db", input, "--shard", bad[i], "--out", path("strict.db"),
                             "--run-tag", "strict", (char *)NULL);
        if (status != 2 || !strstr(err, "--shard takes K/N"))
            fail_msg("--shard '%s': exit %d, %s", bad[i], status, err);
    }
    assert_int_equal(access(path("strict.db"), F_OK), -1); /* never created */
    assert_int_equal(coinrow(err, sizeof err, "solve", "--db", input, "--shard", "03/4", "--out", path("strict.db"),
                             "--run-tag", "strict", "--quiet", (char *)NULL),
                     0);
    char *kn = db_text(path("strict.db"), "SELECT k || '/' || n FROM shard");
    assert_string_equal(kn, "3/4");
    free(kn);
}

/* SIGKILL in the middle of a shard, as Slurm does to a task it requeues:
 * held right after its first commit of instances and their results
 * (10,000 results of 60,000 rows); started again, it reads its range again
 * and writes only what it lacks. */
static void test_shard__a_killed_shard_started_again_completes(void **state)
{
    (void)state;
    const char *slow = path("slow.db"), *csv = path("slow.csv"), *out = path("killed.db");
    assert_int_equal(coinrow(NULL, 0, "generate", "--set", "slow", "--count", "60000", "--n", "8", "--values",
                             "0..999999", "--seed", "5", "--out", csv, (char *)NULL),
                     0);
    assert_int_equal(coinrow(NULL, 0, "ingest", csv, "--db", slow, "--quiet", (char *)NULL), 0);
    char *argv[] = {(char *)run_bin(), "solve", "--db", (char *)slow, "--shard", "0/1", "--out", (char *)out,
                    "--run-tag", "job3", "--jobs", "1", "--progress", NULL};
    int held;
    pid_t pid = run_start_held(argv, 0, &held);
    assert_true(pid > 0);
    assert_true(db_wait_for(out, "SELECT count(*) FROM result", pid) > 0);
    kill(pid, SIGKILL);
    free(run_release(held));
    assert_int_equal(run_wait(pid), 128 + SIGKILL);
    int64_t partial = db_int(out, "SELECT count(*) FROM result");
    assert_true(partial > 0 && partial < 4 * 60000);
    /* copied and solved in one pass: each instance committed has its
     * results (a shard used to copy them all first, then solve) */
    assert_int_equal(db_int(out, "SELECT count(*) FROM instance") * 4, partial);

    assert_int_equal(coinrow(NULL, 0, "solve", "--db", slow, "--shard", "0/1", "--out", out, "--run-tag", "job3",
                             "--quiet", (char *)NULL),
                     0);
    assert_int_equal(db_int(out, "SELECT count(*) FROM result"), 4 * 60000);
    assert_int_equal(check_run_against_core(out, 1, NULL), 4 * 60000);
    assert_int_equal(db_int(out, "SELECT count(*) FROM run WHERE status = 'done'"), 1);
    /* what it wrote after the restart follows what it kept, in id order:
     * merge reads a shard in the order of its rows and checks that */
    char err[1024];
    int status = coinrow(err, sizeof err, "merge", "--db", path("killed-merged.db"), out, "--quiet", (char *)NULL);
    if (status != 0)
        fail_msg("merge of the shard started again: exit %d, %s", status, err);
    assert_int_equal(db_int(path("killed-merged.db"), "SELECT count(*) FROM result"), 4 * 60000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shard__partition_is_stable_and_even),
        cmocka_unit_test(test_shard__k_of_n_partitions_the_set_exactly_for_every_n),
        cmocka_unit_test(test_shard__a_shard_reads_only_its_own_instances),
        cmocka_unit_test(test_shard__a_shard_of_a_set_ingested_out_of_order_says_it_read_most_of_the_input),
        cmocka_unit_test(test_shard__an_input_left_with_a_hot_journal_is_not_read_as_committed),
        cmocka_unit_test(test_shard__merged_run_equals_the_single_process_run),
        cmocka_unit_test(test_shard__another_job_under_a_merged_jobs_tag_is_refused),
        cmocka_unit_test(test_shard__merge_upgrades_an_older_target_and_a_refused_one_is_kept),
        cmocka_unit_test(test_shard__merge_initialises_an_empty_database),
        cmocka_unit_test(test_shard__a_stopped_merge_leaves_its_target_as_it_was),
        cmocka_unit_test(test_shard__a_merge_that_loses_the_race_to_the_target_merges_nothing),
        cmocka_unit_test(test_shard__a_shard_written_into_its_input_is_refused),
        cmocka_unit_test(test_shard__a_shard_written_into_a_database_of_other_sets_is_refused),
        cmocka_unit_test(test_shard__a_merge_after_a_killed_one_rolls_its_journal_back),
        cmocka_unit_test(test_shard__refused_merges_name_the_shard_and_touch_nothing),
        cmocka_unit_test(test_shard__a_shard_started_again_checks_what_it_holds),
        cmocka_unit_test(test_shard__a_shard_started_again_on_a_changed_input_is_refused),
        cmocka_unit_test(test_shard__a_shard_of_a_set_whose_ingest_did_not_finish_is_refused),
        cmocka_unit_test(test_shard__a_shard_is_finished_by_its_command_not_by_resume),
        cmocka_unit_test(test_shard__shards_that_do_not_fit_together_are_refused),
        cmocka_unit_test(test_shard__a_shard_altered_by_hand_is_refused_and_the_target_kept),
        cmocka_unit_test(test_shard__a_damaged_shard_is_refused_by_its_check),
        cmocka_unit_test(test_shard__shards_of_the_old_form_are_refused_by_name),
        cmocka_unit_test(test_shard__merge_reads_the_shards_from_a_folder_or_a_list),
        cmocka_unit_test(test_shard__k_of_n_is_read_strictly),
        cmocka_unit_test(test_shard__a_killed_shard_started_again_completes),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

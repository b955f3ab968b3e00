/* Every allocation of the subsystems above the core (source, store, batch,
 * invoke, export) fails in turn, as test_core_nomem does
 * for the core: each entry point returns CR_ENOMEM with a message that says
 * "no memory" (or answers the failure in its result, as the pipeline does
 * for a row the core could not solve), leaks nothing (the sanitizer build
 * checks), leaves behind nothing it promises not to, and succeeds with the
 * normal result once no allocation is left to fail.
 *
 * This program is linked with -Wl,--wrap for malloc, calloc, realloc,
 * strdup and strndup (the Makefile), so the calls of coinrow's own objects
 * come here; those of SQLite, libcsv and the C library do not, and the
 * countdown is armed only around the call under test.  The pipeline's
 * threads allocate too, hence the atomics. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "coinrow.h"
#include "util/util.h"
#include "export/export.h"
#include "invoke/invoke.h"
#include "batch/batch.h"
#include "source/source.h"
#include "store/store.h"
#include "support/files.h"
#include "support/run.h"

void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *p, size_t size);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *p, size_t size);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t n);

static atomic_int armed;          /* counting, inside the call under test */
static atomic_long allocations;   /* since the countdown was armed */
static atomic_long fail_at = -1;  /* the allocation that fails; -1: none */
static atomic_int from_on;        /* and every one after it, as when memory has run out */

static int failing(void)
{
    if (!atomic_load(&armed))
        return 0;
    long k = atomic_fetch_add(&allocations, 1), at = atomic_load(&fail_at);
    return k == at || (atomic_load(&from_on) && at >= 0 && k > at);
}
void *__wrap_malloc(size_t size) { return failing() ? NULL : __real_malloc(size); }
void *__wrap_calloc(size_t count, size_t size) { return failing() ? NULL : __real_calloc(count, size); }
void *__wrap_realloc(void *p, size_t size) { return failing() ? NULL : __real_realloc(p, size); }
char *__wrap_strdup(const char *s) { return failing() ? NULL : __real_strdup(s); }
char *__wrap_strndup(const char *s, size_t n) { return failing() ? NULL : __real_strndup(s, n); }

/* What a call reports: 0 or its error code, or ANSWERED when it succeeded
 * with the failure in its result (a row's error). */
#define ANSWERED 1

typedef struct entry_point {
    const char *name;
    /* The call, armed throughout (its own checks disarm first). */
    int (*call)(void *ctx, cr_error *err);
    /* After a failed call, disarmed: whatever must not be left behind is
     * not (may be NULL). */
    void (*after_failure)(void *ctx);
    void *ctx;
    int from_on; /* each allocation fails from its turn on, not alone */
} entry_point;

static void disarm(void) { atomic_store(&armed, 0); }

/* Runs the call with allocation 0, 1, 2, ... failing until it no longer
 * allocates that many: each failure must be CR_ENOMEM with a message that
 * says "no memory", or ANSWERED, or a success with the normal result (the
 * call checks it: a failure another way around, as the coins parser's fast
 * path gives way to the general one); the last run must succeed.  Returns
 * how many allocations it makes. */
static long fail_each_allocation(const entry_point *e)
{
    long recovered = 0, answered = 0;
    for (long k = 0;; k++) {
        cr_error err = {0};
        atomic_store(&allocations, 0);
        atomic_store(&fail_at, k);
        atomic_store(&from_on, e->from_on);
        atomic_store(&armed, 1);
        int rc = e->call(e->ctx, &err);
        disarm();
        atomic_store(&fail_at, -1);
        if (atomic_load(&allocations) <= k) {
            if (rc != 0)
                fail_msg("%s, with every allocation made: %d (%s)", e->name, rc, err.msg);
            print_message("%s: %ld allocations failed %s (%ld got round, %ld answered)\n", e->name, k,
                          e->from_on ? "from each on" : "in turn", recovered, answered);
            return k;
        }
        if (rc == 0 || rc == ANSWERED) {
            recovered += rc == 0, answered += rc == ANSWERED;
            continue;
        }
        if (rc != CR_ENOMEM || !strstr(err.msg, "no memory"))
            fail_msg("%s, allocation %ld failed: %d (%s), expected CR_ENOMEM saying \"no memory\"", e->name, k, rc,
                     err.msg);
        if (e->after_failure)
            e->after_failure(e->ctx);
    }
}

static char *dir; /* this program's temporary folder */

static int setup(void **state)
{
    (void)state;
    dir = tmp_dir_new();
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    tmp_dir_free(dir);
    return 0;
}

/* A path in the folder, owned by the caller. */
static char *path_of(const char *name)
{
    char *p = malloc(strlen(dir) + strlen(name) + 2);
    assert_non_null(p);
    snprintf(p, strlen(dir) + strlen(name) + 2, "%s/%s", dir, name);
    return p;
}

static int exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

/* ---- readers ---- */

typedef struct reading {
    const char *input;
    cr_format format;
    uint64_t rows; /* accepted rows seen */
    uint64_t want; /* how many a read that succeeds must see */
} reading;

static int count_row(void *ctx, const cr_row *row)
{
    reading *r = ctx;
    if (row->reason) {
        disarm();
        fail_msg("%s line %llu rejected, though sound: %s", row->source, (unsigned long long)row->line, row->reason);
    }
    r->rows++;
    return 0;
}

static int read_input(void *ctx, cr_error *err)
{
    reading *r = ctx;
    const char *inputs[] = {r->input};
    cr_source_opts opts = {.format = r->format};
    r->rows = 0;
    int rc = cr_source_read(inputs, 1, &opts, count_row, r, err);
    disarm();
    if (rc == 0)
        assert_int_equal(r->rows, r->want);
    return rc;
}

static void test_nomem__reading_each_format_fails_cleanly_at_every_allocation(void **state)
{
    (void)state;
    char *csv = path_of("set.csv"), *tsv = path_of("set.tsv"), *wide = path_of("wide.csv"), *folder = path_of("in");
    assert_int_equal(write_file(csv, "id,values\na,3 9 -2\nlonger-id-than-the-first,\"7,7,1,0\"\nc,-5\n"), 0);
    assert_int_equal(write_file(tsv, "id\tcoins\na\t3 9 -2\nb\t[7, 7, 1, 0]\n"), 0);
    assert_int_equal(write_file(wide, "id,c1,c2,c3,c4\na,3,9,-2,4\nb,7,7,,\n"), 0);
    assert_int_equal(mkdir(folder, 0755), 0);
    assert_int_equal(write_file(tmp_path(folder, "01.in"), "3\n3 9 -2\n"), 0);
    assert_int_equal(write_file(tmp_path(folder, "02.in"), "1\n0\n"), 0);
    reading inputs[] = {{csv, CR_FORMAT_AUTO, 0, 3}, {tsv, CR_FORMAT_AUTO, 0, 2}, {wide, CR_FORMAT_WIDE, 0, 2},
                        {folder, CR_FORMAT_AUTO, 0, 2}};
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        for (int mode = 0; mode < 2; mode++) {
            entry_point e = {inputs[i].input, read_input, NULL, &inputs[i], mode};
            assert_true(fail_each_allocation(&e) >= 1);
        }
    }
    free(csv), free(tsv), free(wide), free(folder);
}

static int read_table(void *ctx, cr_error *err)
{
    reading *r = ctx;
    cr_source_opts opts = {.format = CR_FORMAT_AUTO};
    r->rows = 0;
    int rc = cr_source_table_read(r->input, "rows", &opts, count_row, r, err);
    disarm();
    if (rc == 0)
        assert_int_equal(r->rows, r->want);
    return rc;
}

static int read_generated(void *ctx, cr_error *err)
{
    reading *r = ctx;
    cr_gen_spec spec = {{2, 6, -9, 9, 0, 0}, 4, 7, CR_PROFILE_RANDOM};
    r->rows = 0;
    int rc = cr_source_gen_read(&spec, count_row, r, err);
    disarm();
    if (rc == 0)
        assert_int_equal(r->rows, r->want);
    return rc;
}

static void test_nomem__reading_a_table_and_generating_fail_cleanly_at_every_allocation(void **state)
{
    (void)state;
    char *db = path_of("table.db");
    assert_int_equal(db_exec(db, "CREATE TABLE rows(id TEXT, coins); "
                                 "INSERT INTO rows VALUES ('a', '3 9 -2'), ('b', 7), ('c', '[1,2]');"),
                     0);
    reading table = {db, CR_FORMAT_AUTO, 0, 3}, generated = {"generate", CR_FORMAT_AUTO, 0, 4};
    for (int mode = 0; mode < 2; mode++) {
        entry_point t = {"a table", read_table, NULL, &table, mode};
        entry_point g = {"the generator", read_generated, NULL, &generated, mode};
        assert_true(fail_each_allocation(&t) >= 1);
        assert_true(fail_each_allocation(&g) >= 1);
    }
    free(db);
}

/* ---- the coins text parser ---- */

static int parse_coins(void *ctx, cr_error *err)
{
    (void)ctx;
    static const char text[] = "[3, 9, -2, 7, 7, 1, 0, -5, 12, 4, 8, 15, 3, 7, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8]";
    cr_coins coins = {0};
    char *buf = NULL;
    size_t cap = 0, len = 0;
    int rc = cr_coins_parse(&coins, text, sizeof text - 1, err);
    if (rc == 0)
        rc = cr_contest_text(&len, &buf, &cap, coins.v, coins.n, err);
    disarm();
    if (rc == 0) {
        assert_int_equal(coins.n, 24);
        assert_memory_equal(buf, "24\n3 9 -2 ", 10);
    }
    free(buf);
    cr_coins_free(&coins);
    return rc;
}

static void test_nomem__parsing_coins_fails_cleanly_at_every_allocation(void **state)
{
    (void)state;
    entry_point e = {"coins text", parse_coins, NULL, NULL, 0};
    assert_true(fail_each_allocation(&e) >= 3);
}

/* ---- the pipeline: ingest and solve into a fresh store ---- */

typedef struct piping {
    const char *input, *db;
} piping;

static void remove_db(const char *db)
{
    char side[4200];
    unlink(db);
    snprintf(side, sizeof side, "%s-wal", db);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", db);
    unlink(side);
    snprintf(side, sizeof side, "%s-journal", db);
    unlink(side);
}

static int ingest_and_solve(void *ctx, cr_error *err)
{
    piping *pp = ctx;
    disarm();
    remove_db(pp->db);
    atomic_store(&armed, 1);
    cr_store *store = NULL;
    cr_pipeline *p = NULL;
    int64_t set_id = 0, run_id = 0;
    cr_pipeline_stats stats = {0};
    cr_solve_opts solve = {CR_VARIANTS_ALL, CR_ALGO_AUTO, CR_MOVES_CANONICAL};
    int rc = cr_store_new(&store, pp->db, CR_STORE_WRITE, err);
    if (rc == 0)
        rc = cr_store_set_find(&set_id, store, "set", 1, pp->input, err);
    if (rc == 0)
        rc = cr_store_run_new(&run_id, store, set_id, &solve, "test", NULL, err);
    cr_pipeline_opts po = {.set_id = set_id, .run_id = run_id, .solve = solve, .jobs = 2};
    if (rc == 0)
        rc = cr_pipeline_new(&p, store, &po, err);
    if (rc == 0) {
        const char *inputs[] = {pp->input};
        cr_source_opts so = {.format = CR_FORMAT_AUTO};
        rc = cr_source_read(inputs, 1, &so, cr_pipeline_row, p, err);
        if (rc == 0)
            rc = cr_pipeline_queue_unsolved(p, err);
        /* the writer's error, when it failed, is the one finish tells */
        int finished = cr_pipeline_finish(p, &stats, err);
        if (finished)
            rc = finished;
    }
    cr_pipeline_free(p);
    cr_store_free(store);
    disarm();
    if (rc)
        return rc;
    assert_int_equal(stats.ingested, 3);
    assert_int_equal(stats.rejected, 0);
    assert_int_equal(stats.solved, 3);
    /* a row the core could not solve for want of memory has that as its
     * error, in every variant it lacks: the run's answer, not its failure */
    int64_t failed = db_int(pp->db, "SELECT count(*) FROM result WHERE error IS NOT NULL");
    assert_int_equal(db_int(pp->db, "SELECT count(*) FROM result WHERE error IS NOT NULL AND error NOT LIKE "
                                    "'%no memory%' AND error NOT LIKE 'canonical line of % coins needs % MiB'"),
                     0);
    return failed ? ANSWERED : 0;
}

static void test_nomem__the_pipeline_fails_cleanly_at_every_allocation(void **state)
{
    (void)state;
    char *csv = path_of("pipe.csv"), *db = path_of("pipe.db");
    assert_int_equal(write_file(csv, "id,values\na,3 9 -2\nb,7 7 1 0\nc,-5 12\n"), 0);
    piping pp = {csv, db};
    entry_point e = {"the pipeline", ingest_and_solve, NULL, &pp, 0};
    assert_true(fail_each_allocation(&e) >= 10);
    free(csv), free(db);
}

/* ---- on a stored set: export, merge, compare, strength ---- */

/* A set of three instances in a new database at `db`, solved by `coinrow
 * run` (the binary: its allocations are not this program's). */
static void stored_set(const char *db, const char *name)
{
    char *csv = path_of("stored.csv");
    assert_int_equal(write_file(csv, "id,values\na,3 9 -2 4\nb,7 7 1 0\nc,-5 12\n"), 0);
    run_result r;
    COINROW(&r, NULL, "run", csv, "--db", db, "--set", name, "--moves", "canonical", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    free(csv);
}

typedef struct exporting {
    const char *db;
    char *parent; /* a folder of its own, empty but for a package written in full */
    char out[4200];
    const cr_export_format *format;
    int zip;
    char *package; /* the first package written (dir_snapshot): every other one is the same */
} exporting;

static int export_package(void *ctx, cr_error *err)
{
    exporting *x = ctx;
    cr_store *store = NULL;
    int64_t set_id = 0;
    cr_run run;
    int found = 0;
    cr_export_stats stats = {0};
    /* each option the format takes (it refuses the others) */
    cr_export_opts opts = {.format = x->format, .variant = CR_DIFF, .lines = 1,
                           .samples = (uint64_t)cr_export_format_supports(x->format, CR_EXPORT_SAMPLES), .zip = x->zip,
                           .time_limit_ms = cr_export_format_supports(x->format, CR_EXPORT_METADATA) ? 1000 : 0,
                           .no_build = cr_export_format_supports(x->format, CR_EXPORT_BUILD)};
    int rc = cr_store_new(&store, x->db, CR_STORE_READ, err);
    if (rc == 0)
        rc = cr_store_set_find(&set_id, store, "exp", 0, NULL, err);
    if (rc == 0)
        rc = cr_store_run_with_answers(&run, &found, store, set_id, CR_DIFF, 1, err);
    opts.set_id = set_id;
    if (rc == 0 && !found)
        fail_msg("no run with answers");
    if (rc == 0)
        rc = cr_export_write(&stats, store, x->out, run.id, &opts, err);
    cr_store_free(store);
    disarm();
    if (rc == 0) {
        assert_int_equal(stats.tests, 3);
        char *package = dir_snapshot(x->out);
        assert_non_null(package);
        if (!x->package)
            x->package = package;
        else
            assert_string_equal(package, x->package), free(package);
        char zip[4300];
        snprintf(zip, sizeof zip, "%s.zip", x->out);
        assert_int_equal(exists(zip), x->zip);
        unlink(zip);
        tmp_dir_free(strdup(x->out));
    }
    return rc;
}

static void nothing_exported(void *ctx)
{
    exporting *x = ctx;
    char *left = dir_snapshot(x->parent);
    assert_non_null(left);
    if (left[0])
        fail_msg("a failed export left behind:\n%s", left);
    free(left);
}

static void test_nomem__export_fails_cleanly_at_every_allocation_leaving_nothing(void **state)
{
    (void)state;
    char *db = path_of("export.db");
    stored_set(db, "exp");
    /* every format of export's table; the first one zipped too */
    const cr_export_format *format;
    for (size_t i = 0; (format = cr_export_format_at(i)) != NULL; i++) {
        const char *name = cr_export_format_name(format);
        exporting x = {db, path_of(name), "", format, i == 0, NULL};
        assert_int_equal(mkdir(x.parent, 0755), 0);
        snprintf(x.out, sizeof x.out, "%s/problem", x.parent);
        entry_point e = {name, export_package, nothing_exported, &x, 0};
        assert_true(fail_each_allocation(&e) >= 5);
        free(x.parent), free(x.package);
    }
    free(db);
}

typedef struct merging {
    const char *into;
    const char *shards[2];
} merging;

static int merge_shards(void *ctx, cr_error *err)
{
    merging *m = ctx;
    disarm();
    remove_db(m->into);
    atomic_store(&armed, 1);
    cr_merge_report report = {0};
    int rc = cr_shard_merge(&report, m->into, m->shards, 2, NULL, err);
    disarm();
    if (rc == 0) {
        assert_int_equal(report.shards, 2);
        assert_int_equal(report.instances, 3);
        assert_int_equal(db_int(m->into, "SELECT count(*) FROM result"), 3 * CR_VARIANT_COUNT);
    }
    return rc;
}

static void nothing_merged(void *ctx)
{
    merging *m = ctx;
    /* all or nothing: a target the merge made holds no run */
    if (exists(m->into))
        assert_int_equal(db_int(m->into, "SELECT count(*) FROM run"), 0);
}

static void test_nomem__merging_shards_fails_cleanly_at_every_allocation(void **state)
{
    (void)state;
    char *db = path_of("sharded.db"), *one = path_of("shard1.db"), *two = path_of("shard2.db");
    char *into = path_of("merged.db");
    stored_set(db, "sharded");
    const char *shards[][2] = {{"0/2", one}, {"1/2", two}};
    for (int i = 0; i < 2; i++) {
        run_result r;
        COINROW(&r, NULL, "solve", "--db", db, "--shard", shards[i][0], "--out", shards[i][1], "--run-tag", "job",
                "--quiet");
        assert_int_equal(r.status, 0);
        run_result_free(&r);
    }
    merging m = {into, {one, two}};
    entry_point e = {"merge", merge_shards, nothing_merged, &m, 0};
    assert_true(fail_each_allocation(&e) >= 2);
    free(db), free(one), free(two), free(into);
}

static void ignore_finding(void *ctx, const cr_run_finding *f) { (void)ctx, (void)f; }

static int compare_runs(void *ctx, cr_error *err)
{
    const char *db = ctx;
    cr_store *store = NULL;
    cr_run a, b;
    cr_run_comparison c = {0};
    int rc = cr_store_new(&store, db, CR_STORE_READ, err);
    if (rc == 0)
        rc = cr_store_run_find(&a, store, 1, CR_PICK_DONE, err);
    if (rc == 0)
        rc = cr_store_run_find(&b, store, 2, CR_PICK_DONE, err);
    if (rc == 0)
        rc = cr_run_compare(&c, store, &a, store, &b, 1, ignore_finding, NULL, err);
    cr_store_free(store);
    disarm();
    if (rc == 0)
        for (int v = 0; v < CR_VARIANT_COUNT; v++)
            assert_int_equal(c.counts[v][CR_SAME], 3);
    return rc;
}

static int judge_strength(void *ctx, cr_error *err)
{
    const char *db = ctx;
    cr_store *store = NULL;
    int64_t set_id = 0;
    cr_strength s = {0};
    int rc = cr_store_new(&store, db, CR_STORE_READ, err);
    if (rc == 0)
        rc = cr_store_set_find(&set_id, store, "runs", 0, NULL, err);
    if (rc == 0)
        rc = cr_strength_run(&s, store, set_id, 1, CR_DIFF, CR_CHECK_MOVES_REQUIRED, NULL, NULL, NULL, err);
    cr_store_free(store);
    disarm();
    if (rc == 0)
        assert_int_equal(s.tests, 3);
    return rc;
}

static void test_nomem__comparing_runs_and_strength_fail_cleanly_at_every_allocation(void **state)
{
    (void)state;
    char *db = path_of("runs.db");
    stored_set(db, "runs");
    run_result r;
    COINROW(&r, NULL, "solve", "--db", db, "--set", "runs", "--algo", "dp", "--moves", "canonical", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    entry_point compare = {"compare", compare_runs, NULL, db, 0}, strength = {"strength", judge_strength, NULL, db, 0};
    assert_true(fail_each_allocation(&compare) >= 1);
    assert_true(fail_each_allocation(&strength) >= 1);
    free(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nomem__reading_each_format_fails_cleanly_at_every_allocation),
        cmocka_unit_test(test_nomem__reading_a_table_and_generating_fail_cleanly_at_every_allocation),
        cmocka_unit_test(test_nomem__parsing_coins_fails_cleanly_at_every_allocation),
        cmocka_unit_test(test_nomem__the_pipeline_fails_cleanly_at_every_allocation),
        cmocka_unit_test(test_nomem__export_fails_cleanly_at_every_allocation_leaving_nothing),
        cmocka_unit_test(test_nomem__merging_shards_fails_cleanly_at_every_allocation),
        cmocka_unit_test(test_nomem__comparing_runs_and_strength_fail_cleanly_at_every_allocation),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

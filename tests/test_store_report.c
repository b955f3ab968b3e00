/* The report's aggregates (store/report.c): histogram bins over any int64
 * range, a variant's counts against a count made here row by row, and two
 * runs compared instance by instance. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "coinrow/rng.h"
#include "report/report.h"
#include "store/store.h"
#include "support/core_check.h"
#include "support/files.h"
#include "support/run.h"

typedef store_fixture fixture_state;

enum { INSTANCES = 300 };

/* Instances e1 .. eN of the fixture's set; their ids into ids. */
static void add_instances(const fixture_state *f, int64_t *ids, int count)
{
    cr_store_instance *rows = calloc((size_t)count, sizeof *rows);
    char(*names)[16] = calloc((size_t)count, 16);
    cr_error err = {0};
    for (int i = 0; i < count; i++)
        rows[i] =
            (cr_store_instance){names[i], (size_t)snprintf(names[i], 16, "e%d", i + 1), "[1,2]", 5, 2, 3, 1, 0, 0, 0};
    assert_int_equal(cr_store_begin(f->store, &err), 0);
    assert_int_equal(cr_store_add_instances(f->store, f->set_id, rows, (size_t)count, &err), 0);
    assert_int_equal(cr_store_commit(f->store, &err), 0);
    for (int i = 0; i < count; i++)
        ids[i] = rows[i].id;
    free(rows);
    free(names);
}

/* A done run of the given variants whose instance k has value values[k]
 * (first score the value, second 0) in every variant, or an error where
 * errors[k]; instances with skip[k] are not solved. */
static cr_run add_run(const fixture_state *f, const int64_t *ids, const int64_t *values, const int *errors,
                      const int *skip, int count, unsigned variants)
{
    cr_solve_opts opts = {variants, CR_ALGO_AUTO, CR_MOVES_NONE};
    cr_run run;
    int64_t id;
    cr_error err = {0};
    assert_int_equal(cr_store_run_new(&id, f->store, f->set_id, &opts, "v", NULL, &err), 0);
    assert_int_equal(cr_store_begin(f->store, &err), 0);
    for (int k = 0; k < count; k++) {
        cr_store_result rows[CR_VARIANT_COUNT];
        size_t n = 0;
        if (skip && skip[k])
            continue;
        for (int v = 0; v < CR_VARIANT_COUNT; v++) {
            if (!(variants & CR_VARIANT_BIT(v)))
                continue;
            cr_store_result *r = &rows[n++];
            *r = (cr_store_result){
                ids[k], (cr_variant)v, NULL, 0, values[k], values[k], 0, (values[k] > 0) - (values[k] < 0), NULL, 0};
            if (errors && errors[k])
                r->error = "too large", r->missing = CR_FIGURES_ALL;
        }
        assert_int_equal(cr_store_add_results(NULL, f->store, id, rows, n, &err), 0);
    }
    assert_int_equal(cr_store_commit(f->store, &err), 0);
    assert_int_equal(cr_store_run_set_status(f->store, id, CR_RUN_DONE, NULL, &err), 0);
    assert_int_equal(cr_store_run_find(&run, f->store, id, CR_PICK_ANY, &err), 0);
    return run;
}

static void test_store_report__histogram_bins_cover_any_int64_range_in_at_most_forty(void **state)
{
    (void)state;
    static const int64_t edges[] = {INT64_MIN, INT64_MIN + 1, -1000000007,   -40,      -39, -1, 0, 1, 39, 40, 41, 999,
                                    1000,      123456789,     INT64_MAX - 1, INT64_MAX};
    size_t count = sizeof edges / sizeof edges[0];
    for (size_t i = 0; i < count; i++)
        for (size_t j = i; j < count; j++) {
            cr_histogram h;
            int64_t min = edges[i], max = edges[j];
            cr_store_histogram_init(&h, 1, min, max);
            assert_true(h.bins >= 1 && h.bins <= CR_HISTOGRAM_BINS);
            /* 1, 2 or 5 times a power of ten */
            int64_t w = h.width;
            while (w % 10 == 0)
                w /= 10;
            assert_true(w == 1 || w == 2 || w == 5);
            assert_true(h.from[0] == min && h.to[h.bins - 1] == max);
            for (int k = 0; k < h.bins; k++) {
                assert_true(h.from[k] <= h.to[k]);
                if (k + 1 < h.bins)
                    assert_true(h.to[k] + 1 == h.from[k + 1]);
            }
            /* one value a bin when the range holds at most forty */
            if ((uint64_t)max - (uint64_t)min < CR_HISTOGRAM_BINS)
                assert_int_equal(h.width, 1);
        }
    cr_histogram none;
    cr_store_histogram_init(&none, 0, 0, 0);
    assert_int_equal(none.bins, 0);
}

static void test_store_report__a_variant_counts_every_value_in_its_bin_and_every_winner(void **state)
{
    fixture_state *f = *state;
    int64_t ids[INSTANCES], values[INSTANCES];
    int errors[INSTANCES] = {0};
    cr_rng rng;
    cr_rng_seed(&rng, 24, 0);
    add_instances(f, ids, INSTANCES);
    for (int k = 0; k < INSTANCES; k++)
        values[k] = k % 3 ? (int64_t)cr_rng_below(&rng, 2000) - 1000 : (int64_t)cr_rng_next(&rng);
    values[0] = INT64_MIN, values[1] = INT64_MAX, values[2] = 0;
    errors[5] = errors[6] = 1;
    cr_run run = add_run(f, ids, values, errors, NULL, INSTANCES, CR_VARIANT_BIT(CR_DIFF));
    cr_variant_stats s;
    cr_error err = {0};
    assert_int_equal(cr_store_run_variant_stats(&s, f->store, run.id, CR_DIFF, &err), 0);
    assert_int_equal(s.results, INSTANCES);
    assert_int_equal(s.errors, 2);
    assert_int_equal(s.values.count, INSTANCES - 2);
    assert_true(s.values.min == INT64_MIN && s.values.max == INT64_MAX);
    uint64_t bins[CR_HISTOGRAM_BINS] = {0}, winners[3] = {0};
    for (int k = 0; k < INSTANCES; k++) {
        if (errors[k])
            continue;
        winners[values[k] > 0 ? 0 : values[k] < 0 ? 1 : 2]++;
        int b = 0;
        while (values[k] > s.values.to[b])
            b++;
        bins[b]++;
    }
    assert_memory_equal(s.values.counts, bins, sizeof bins);
    assert_memory_equal(s.winners, winners, sizeof winners);
    cr_result_error first[3];
    size_t listed = 0;
    assert_int_equal(cr_store_run_errors(first, 3, &listed, f->store, run.id, CR_DIFF, &err), 0);
    assert_int_equal(listed, 2);
    assert_string_equal(first[0].ext_id, "e6");
    assert_string_equal(first[1].error, "too large");
}

static void test_store_report__two_runs_compare_instance_by_instance(void **state)
{
    fixture_state *f = *state;
    int64_t ids[INSTANCES], a[INSTANCES], b[INSTANCES];
    int skip_a[INSTANCES] = {0}, skip_b[INSTANCES] = {0};
    add_instances(f, ids, INSTANCES);
    for (int k = 0; k < INSTANCES; k++)
        a[k] = b[k] = k - 100;
    b[10] += 1, b[20] -= 1; /* in every variant: each instance counts once */
    skip_b[30] = 1;         /* solved by a only */
    skip_a[40] = skip_a[41] = 1;
    unsigned both = CR_VARIANT_BIT(CR_TOTAL) | CR_VARIANT_BIT(CR_DIFF);
    cr_run ra = add_run(f, ids, a, NULL, skip_a, INSTANCES, both | CR_VARIANT_BIT(CR_WINNER));
    cr_run rb = add_run(f, ids, b, NULL, skip_b, INSTANCES, both);
    cr_answers_comparison c;
    cr_error err = {0};
    assert_int_equal(cr_store_answers_compare(&c, f->store, &ra, &rb, &err), 0);
    assert_int_equal(c.variants, both);
    assert_int_equal(c.solved_a, INSTANCES - 2);
    assert_int_equal(c.solved_b, INSTANCES - 1);
    assert_int_equal(c.common, INSTANCES - 3);
    assert_int_equal(c.differing, 2);
    assert_int_equal(c.differing_by[CR_TOTAL], 2);
    assert_int_equal(c.differing_by[CR_DIFF], 2);
    assert_int_equal(c.differing_by[CR_WINNER], 0);

    cr_answer_difference d[3];
    size_t count = 0;
    assert_int_equal(cr_store_answer_differences(d, 3, &count, f->store, &ra, &rb, 0, &err), 0);
    assert_int_equal(count, 3); /* the limit: four pairs differ */
    assert_string_equal(d[0].ext_id, "e11");
    assert_int_equal(d[0].variant, CR_DIFF); /* variants in name order */
    assert_true(d[0].a.given && d[0].a.has_value && d[0].a.value == -90);
    assert_true(d[0].b.value == -89 && strcmp(d[0].b.winner, "second") == 0);
    assert_string_equal(d[2].ext_id, "e21");
    assert_int_equal(cr_store_answer_differences(d, 3, &count, f->store, &ra, &rb, 1, &err), 0);
    assert_int_equal(count, 3);
    assert_string_equal(d[0].ext_id, "e31");
    assert_true(d[0].a.given && !d[0].b.given);
    assert_string_equal(d[1].ext_id, "e41");
    assert_true(!d[1].a.given && d[1].b.given);
}

/* The database the wrapped cr_store_run_variant_stats finishes run 1 of
 * (with solve --resume) at its second call: between the report's reading
 * of one variant and the next.  NULL: it only reads. */
static const char *finish_at_second_variant;
static int variant_calls;

int __real_cr_store_run_variant_stats(cr_variant_stats *out, cr_store *store, int64_t run_id, cr_variant variant,
                                      cr_error *err);
int __wrap_cr_store_run_variant_stats(cr_variant_stats *out, cr_store *store, int64_t run_id, cr_variant variant,
                                      cr_error *err);
int __wrap_cr_store_run_variant_stats(cr_variant_stats *out, cr_store *store, int64_t run_id, cr_variant variant,
                                      cr_error *err)
{
    if (finish_at_second_variant && ++variant_calls == 2) {
        run_result r;
        COINROW(&r, NULL, "solve", "--resume", "1", "--db", finish_at_second_variant, "--quiet");
        assert_int_equal(r.status, 0);
        run_result_free(&r);
    }
    return __real_cr_store_run_variant_stats(out, store, run_id, variant, err);
}

/* A report of a run that is writing is of one moment: a run that committed
 * between the reading of two variants made one variant's page say 1,000
 * results and the next 2,000 (the parts were read on their own
 * connections, each at its own moment). */
static void test_store_report__a_run_writing_meanwhile_is_shown_as_of_one_moment(void **state)
{
    (void)state;
    char *dir = tmp_dir_new();
    const char *db = tmp_path(dir, "w.db"), *page = tmp_path(dir, "w.html");
    run_result r;
    COINROW(&r, NULL, "generate", "--db", db, "--set", "s", "--count", "2000", "--n", "1..30", "--values", "1..99",
            "--seed", "4", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    COINROW(&r, NULL, "solve", "--db", db, "--set", "s", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    /* as a stop leaves it, half solved; in WAL mode, as while it writes */
    assert_int_equal(db_exec(db, "UPDATE run SET status = 'running', finished_at = NULL; "
                                 "DELETE FROM result_extra WHERE instance_id > 1000; "
                                 "DELETE FROM solution WHERE instance_id > 1000; PRAGMA journal_mode = WAL"),
                     0);
    cr_store *store = NULL;
    cr_error err = {0};
    assert_int_equal(cr_store_new(&store, db, CR_STORE_READ, &err), 0);
    cr_report_opts opts = {.set_id = 1, .run_id = 1, .version = "test", .db_shown = db, .jobs = 4};
    cr_report_stats stats;
    finish_at_second_variant = db;
    int rc = cr_report_write(&stats, store, page, &opts, &err);
    finish_at_second_variant = NULL;
    cr_store_free(store);
    assert_int_equal(rc, 0);
    assert_int_equal(db_int(db, "SELECT count(*) FROM solution"), 2000); /* it did commit meanwhile */
    char *html = read_text(page);
    assert_non_null(html);
    size_t found = 0;
    for (const char *at = strstr(html, " results, "); at; at = strstr(at + 1, " results, ")) {
        const char *start = at;
        while (start > html && (start[-1] == ',' || (start[-1] >= '0' && start[-1] <= '9')))
            start--;
        if (strncmp(start, "1,000 results", 13) != 0)
            fail_msg("a variant shows %.*s", (int)(at - start) + 8, start);
        found++;
    }
    assert_int_equal(found, 4);
    free(html);
    tmp_dir_free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_store_report__histogram_bins_cover_any_int64_range_in_at_most_forty),
        cmocka_unit_test(test_store_report__a_run_writing_meanwhile_is_shown_as_of_one_moment),
        cmocka_unit_test_setup_teardown(test_store_report__a_variant_counts_every_value_in_its_bin_and_every_winner,
                                        store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store_report__two_runs_compare_instance_by_instance, store_fixture_setup,
                                        store_fixture_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

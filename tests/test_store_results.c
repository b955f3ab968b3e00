/* How the store keeps results (schema/004_results.sql, 007_lines_as_text.sql):
 * one solution row per instance with result_extra beside it, the views that
 * give the rows back and how SQLite plans them, lines packed as versions 4
 * to 6 kept them, and the upgrades from schema versions 3, 5, 6, 7, 8 and 9. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "coinrow/rng.h"
#include "util/util.h"
#include "store/schema.h"
#include "store/store.h"
#include "store/sql.h" /* white box: the line packing */
#include "support/core_check.h"
#include "support/files.h"

typedef store_fixture fixture_state;

/* ---- lines ---- */

static void test_store_results__lines_pack_one_bit_per_turn_behind_a_leading_one(void **state)
{
    (void)state;
    cr_rng rng;
    cr_rng_seed(&rng, 13, 0);
    char line[200], back[201];
    unsigned char bits[32];
    for (size_t n = 0; n < sizeof line; n++) {
        for (size_t k = 0; k < n; k++)
            line[k] = cr_rng_below(&rng, 2) ? 'R' : 'L';
        size_t bytes = cr_store__line_bytes(n), got = 0;
        assert_int_equal(bytes, n / 8 + 1);
        assert_int_equal(cr_store__line_pack(bits, line, n), 0);
        /* bit by bit: a 1, then the turns, right-aligned in the bytes */
        for (size_t b = 0; b <= n; b++) {
            size_t from_end = n - b;
            int bit = bits[bytes - 1 - from_end / 8] >> (from_end % 8) & 1;
            assert_int_equal(bit, b == 0 ? 1 : line[b - 1] == 'R');
        }
        for (size_t b = n + 1; b < 8 * bytes; b++) /* zeros before the 1 */
            assert_int_equal(bits[0] >> (n % 8 + 1 + b - n - 1) & 1, 0);
        assert_int_equal(cr_store__line_length(&got, bits, bytes), 0);
        assert_int_equal(got, n);
        cr_store__line_unpack(back, bits, n);
        assert_memory_equal(back, line, n);
        assert_int_equal(back[n], '\0');
    }
    unsigned char example[1];
    assert_int_equal(cr_store__line_pack(example, "LRRL", 4), 0);
    assert_int_equal(example[0], 0x16); /* the schema's example */
    assert_int_equal(cr_store__line_pack(bits, "LLLLRLRX", 8), -1);
    assert_int_equal(cr_store__line_pack(bits, "LLLLRLRRLLLLRLRr", 16), -1);
    size_t n;
    assert_int_equal(cr_store__line_length(&n, (const unsigned char *)"\0\1", 2), -1);
    assert_int_equal(cr_store__line_length(&n, bits, 0), -1);
}

/* What the views of schema versions 4 to 6 showed for a packed line, written as
 * they were (schema/004_results.sql): the upgrade to version 7 keeps it. */
#define VERSION_5_LINE                                                                                                 \
    "substr(ltrim(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace("          \
    "replace(replace(replace(replace(replace(nullif(hex(?1), ''), '0', 'LLLL'), '1', 'LLLR'), '2', 'LLRL'), '3', "  \
    "'LLRR'), '4', 'LRLL'), '5', 'LRLR'), '6', 'LRRL'), '7', 'LRRR'), '8', 'RLLL'), '9', 'RLLR'), 'A', 'RLRL'), "   \
    "'B', 'RLRR'), 'C', 'RRLL'), 'D', 'RRLR'), 'E', 'RRRL'), 'F', 'RRRR'), 'L'), 2)"

static void test_store_results__a_packed_line_reads_as_the_views_of_version_5_showed_it(void **state)
{
    fixture_state *f = *state;
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_prepare_v2(f->store->db, "SELECT coinrow_line_text(?1) IS " VERSION_5_LINE ", "
                                                      "coinrow_line_text(?1), " VERSION_5_LINE, -1, &st, NULL),
                     SQLITE_OK);
    cr_rng rng;
    cr_rng_seed(&rng, 17, 0);
    unsigned char bits[40];
    char line[8 * sizeof bits];
    for (int k = 0; k < 3000; k++) {
        /* packed lines, and blobs that are not one: empty, zeros first, all zeros */
        size_t bytes = (size_t)cr_rng_below(&rng, sizeof bits + 1);
        for (size_t b = 0; b < bytes; b++)
            bits[b] = (unsigned char)cr_rng_below(&rng, 256);
        size_t zeros = (size_t)cr_rng_below(&rng, 4);
        for (size_t b = 0; b < zeros && b < bytes; b++)
            bits[b] = 0;
        if (k % 3 == 0 && bytes > 0) {
            size_t n = 8 * (bytes - 1) + (size_t)cr_rng_below(&rng, 8);
            for (size_t t = 0; t < n; t++)
                line[t] = cr_rng_below(&rng, 2) ? 'R' : 'L';
            assert_int_equal(cr_store__line_pack(bits, line, n), 0);
        }
        sqlite3_reset(st);
        sqlite3_bind_blob(st, 1, bits, (int)bytes, SQLITE_STATIC);
        assert_int_equal(sqlite3_step(st), SQLITE_ROW);
        if (sqlite3_column_int(st, 0) != 1)
            fail_msg("%zu bytes: '%s', not '%s'", bytes, sqlite3_column_text(st, 1), sqlite3_column_text(st, 2));
    }
    /* NULL, and what is not a blob, as hex() reads them */
    const char *texts[] = {"LR", "0", "\x01"};
    for (size_t k = 0; k < 4; k++) {
        sqlite3_reset(st);
        if (k < 3)
            sqlite3_bind_text(st, 1, texts[k], -1, SQLITE_STATIC);
        else
            sqlite3_bind_null(st, 1);
        assert_int_equal(sqlite3_step(st), SQLITE_ROW);
        assert_int_equal(sqlite3_column_int(st, 0), 1);
    }
    sqlite3_finalize(st);
}

/* ---- results written and read back ---- */

static int lead_of(int64_t first, int64_t second) { return (first > second) - (first < second); }

/* A variant's row as one game, with scores first and second and a line,
 * gives it (a difference beyond int64 is a missing value, as the core says). */
static cr_store_result row_from_game(int64_t id, cr_variant v, int64_t first, int64_t second, const char *line,
                                     size_t n)
{
    cr_store_result r = {.instance_id = id, .variant = v, .first_score = first, .second_score = second,
                         .winner = lead_of(first, second), .moves = line, .moves_len = line ? n : 0};
    r.value = v == CR_TOTAL ? first : v == CR_WINNER ? r.winner : 0;
    if ((v == CR_DIFF || v == CR_REMAINING) && __builtin_sub_overflow(first, second, &r.value)) {
        r.value = 0;
        r.missing = CR_FIGURE_VALUE;
        r.error = "the diff value does not fit in int64";
    }
    return r;
}

static int64_t random_score(cr_rng *rng)
{
    switch (cr_rng_below(rng, 4)) {
    case 0:
        return cr_rng_between(rng, INT64_MIN, INT64_MAX);
    case 1:
        return cr_rng_between(rng, -3, 3);
    default:
        return cr_rng_between(rng, -2000000000000, 2000000000000);
    }
}

typedef struct written {
    cr_store_result rows[CR_VARIANT_COUNT];
    char lines[4][80];
    char error[64];
    size_t count, n;
} written;

/* An instance's rows in a random order: each game's scores and line shared
 * by its variants, and now and then a row that is not what its game gives
 * (figures missing, another value, winner, score or line, no line). */
static void random_instance(written *w, cr_rng *rng, int64_t id, size_t n)
{
    memset(w, 0, sizeof *w);
    w->n = n;
    int64_t scores[2][2];
    const char *line[2];
    for (int g = 0; g < 2; g++) {
        scores[g][0] = random_score(rng);
        scores[g][1] = random_score(rng);
        for (size_t k = 0; k < n; k++)
            w->lines[g][k] = cr_rng_below(rng, 2) ? 'R' : 'L';
        line[g] = cr_rng_below(rng, 5) ? w->lines[g] : NULL;
    }
    unsigned variants = 0;
    while (!variants)
        variants = (unsigned)cr_rng_below(rng, 16);
    for (int v = 0; v < CR_VARIANT_COUNT; v++) {
        if (!(variants & CR_VARIANT_BIT(v)))
            continue;
        int g = v == CR_REMAINING;
        cr_store_result r = row_from_game(id, (cr_variant)v, scores[g][0], scores[g][1], line[g], n);
        switch (cr_rng_below(rng, 24)) {
        case 0:
            snprintf(w->error, sizeof w->error, "some %s figures do not fit in int64", cr_variant_name(r.variant));
            r.error = w->error;
            r.missing = 1 + (unsigned)cr_rng_below(rng, CR_FIGURES_ALL);
            r.value = r.missing & CR_FIGURE_VALUE ? 0 : r.value;
            r.first_score = r.missing & CR_FIGURE_FIRST_SCORE ? 0 : r.first_score;
            r.second_score = r.missing & CR_FIGURE_SECOND_SCORE ? 0 : r.second_score;
            r.winner = r.missing & CR_FIGURE_WINNER ? 0 : r.winner;
            break;
        case 1:
            r.value ^= 1;
            break;
        case 2:
            r.winner = -r.winner ? -r.winner : 1;
            break;
        case 3:
            r.second_score ^= 4;
            break;
        case 4:
            memcpy(w->lines[2 + g], w->lines[g], n);
            w->lines[2 + g][0] = n && w->lines[g][0] == 'L' ? 'R' : 'L';
            r.moves = w->lines[2 + g];
            r.moves_len = n;
            break;
        case 5:
            r.moves = NULL;
            r.moves_len = 0;
            break;
        }
        w->rows[w->count++] = r;
    }
    for (size_t i = w->count; i > 1; i--) {
        size_t j = (size_t)cr_rng_below(rng, i);
        cr_store_result t = w->rows[i - 1];
        w->rows[i - 1] = w->rows[j];
        w->rows[j] = t;
    }
}

/* Rows compare in the order results are read: instance, then variant name. */
static int by_instance_and_name(const void *a, const void *b)
{
    const cr_store_result *x = a, *y = b;
    if (x->instance_id != y->instance_id)
        return x->instance_id < y->instance_id ? -1 : 1;
    return strcmp(cr_variant_name(x->variant), cr_variant_name(y->variant));
}

static void assert_same_result(const cr_stored_result *got, const cr_store_result *want)
{
    assert_int_equal(got->instance_id, want->instance_id);
    assert_int_equal(got->variant, want->variant);
    if (want->error)
        assert_string_equal(got->error, want->error);
    else
        assert_null(got->error);
    assert_int_equal(got->missing, want->missing);
    assert_int_equal(got->value, want->value); /* 0 when missing */
    assert_int_equal(got->first_score, want->first_score);
    assert_int_equal(got->second_score, want->second_score);
    assert_int_equal(got->winner, want->winner);
    if (want->moves) {
        assert_non_null(got->moves);
        assert_int_equal(strlen(got->moves), want->moves_len);
        assert_memory_equal(got->moves, want->moves, want->moves_len);
    } else {
        assert_null(got->moves);
    }
}

/* The row as the view `result` shows it, through plain SQLite. */
static void assert_view_row(sqlite3_stmt *st, const cr_store_result *want)
{
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    cr_variant v;
    cr_error err = {0};
    assert_int_equal(sqlite3_column_int64(st, 0), want->instance_id);
    assert_int_equal(cr_variant_parse(&v, (const char *)sqlite3_column_text(st, 1), &err), 0);
    assert_int_equal(v, want->variant);
    if (want->error)
        assert_string_equal((const char *)sqlite3_column_text(st, 7), want->error);
    else
        assert_int_equal(sqlite3_column_type(st, 7), SQLITE_NULL);
    const int64_t figures[3] = {want->value, want->first_score, want->second_score};
    for (int f = 0; f < 3; f++) {
        if (want->missing & 1u << f)
            assert_int_equal(sqlite3_column_type(st, 2 + f), SQLITE_NULL);
        else
            assert_int_equal(sqlite3_column_int64(st, 2 + f), figures[f]);
    }
    if (want->missing & CR_FIGURE_WINNER)
        assert_int_equal(sqlite3_column_type(st, 5), SQLITE_NULL);
    else
        assert_string_equal((const char *)sqlite3_column_text(st, 5), cr_winner_name(want->winner));
    if (want->moves) {
        assert_int_equal(sqlite3_column_bytes(st, 6), (int)want->moves_len);
        assert_memory_equal(sqlite3_column_text(st, 6), want->moves, want->moves_len);
    } else {
        assert_int_equal(sqlite3_column_type(st, 6), SQLITE_NULL);
    }
}

/* The rows of the view `result` for one run, through plain SQLite, in the
 * order coinrow reads them. */
typedef struct view_rows {
    sqlite3 *db;
    sqlite3_stmt *st;
} view_rows;

static view_rows view_rows_open(const char *path, int64_t run)
{
    view_rows v = {NULL, NULL};
    assert_int_equal(sqlite3_open_v2(path, &v.db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(v.db,
                                        "SELECT instance_id, variant, value, first_score, second_score, winner, moves, "
                                        "error FROM result WHERE run_id = ? ORDER BY instance_id, variant",
                                        -1, &v.st, NULL),
                     SQLITE_OK);
    sqlite3_bind_int64(v.st, 1, run);
    return v;
}

/* Checks that every row was seen, and closes. */
static void view_rows_close(view_rows *v)
{
    assert_int_equal(sqlite3_step(v->st), SQLITE_DONE);
    sqlite3_finalize(v->st);
    sqlite3_close(v->db);
}

/* Instances e1, e2, ... (one coin each) in the fixture's set, and a run of
 * it with the given variants: the run's id. */
static int64_t start_run(const fixture_state *f, int instances, unsigned variants, cr_moves moves)
{
    cr_store_instance *rows = calloc((size_t)instances, sizeof *rows);
    char(*ids)[16] = calloc((size_t)instances, 16);
    cr_solve_opts opts = {variants, CR_ALGO_AUTO, moves};
    int64_t run;
    cr_error err = {0};
    for (int i = 0; i < instances; i++)
        rows[i] = (cr_store_instance){ids[i], (size_t)snprintf(ids[i], 16, "e%d", i + 1), "[1]", 3, 1, 1, 1, 0, 0, 0};
    assert_int_equal(cr_store_begin(f->store, &err), 0);
    assert_int_equal(cr_store_add_instances(f->store, f->set_id, rows, (size_t)instances, &err), 0);
    assert_int_equal(cr_store_commit(f->store, &err), 0);
    assert_int_equal(cr_store_run_new(&run, f->store, f->set_id, &opts, "v", NULL, &err), 0);
    free(rows);
    free(ids);
    return run;
}

/* Adds rows[0..count) to run in a transaction of their own: how many
 * instances were new. */
static size_t write_results(const fixture_state *f, int64_t run, const cr_store_result *rows, size_t count)
{
    size_t added = 0;
    cr_error err = {0};
    assert_int_equal(cr_store_begin(f->store, &err), 0);
    assert_int_equal(cr_store_add_results(&added, f->store, run, rows, count, &err), 0);
    assert_int_equal(cr_store_commit(f->store, &err), 0);
    return added;
}

static void test_store_results__every_row_reads_back_as_written_from_c_and_from_the_view(void **state)
{
    fixture_state *f = *state;
    enum { INSTANCES = 700 }; /* more than a chunk of inserts and a page of reads */
    int64_t run = start_run(f, INSTANCES, CR_VARIANTS_ALL, CR_MOVES_FAST);
    written *w = calloc(INSTANCES, sizeof *w);
    cr_store_result *all = calloc(INSTANCES * CR_VARIANT_COUNT, sizeof *all), *batch = all;
    size_t total = 0, extras = 0;
    cr_error err = {0};
    cr_rng rng;
    cr_rng_seed(&rng, 7, 0);
    for (int i = 0; i < INSTANCES; i++) {
        random_instance(&w[i], &rng, i + 1, (size_t)cr_rng_below(&rng, 70) + 1);
        memcpy(all + total, w[i].rows, w[i].count * sizeof *all);
        total += w[i].count;
        /* batches of a few instances, as the pipeline and merge write them */
        if (cr_rng_below(&rng, 90) == 0 || i == INSTANCES - 1) {
            size_t in_batch = (size_t)(all + total - batch), instances = 1;
            for (size_t k = 1; k < in_batch; k++)
                instances += batch[k].instance_id != batch[k - 1].instance_id;
            assert_int_equal(write_results(f, run, batch, in_batch), instances);
            batch = all + total;
        }
    }
    uint64_t solved = 0;
    assert_int_equal(cr_store_run_solved(&solved, f->store, run, &err), 0);
    assert_int_equal(solved, INSTANCES);
    extras = (size_t)db_int(f->path, "SELECT count(*) FROM result_extra");
    assert_true(extras > 0 && extras < total / 4); /* the shared rows were shared */
    qsort(all, total, sizeof *all, by_instance_and_name);

    cr_store_results *it = NULL;
    const cr_stored_result *r;
    assert_int_equal(cr_store_results_new(&it, f->store, run, CR_BY_INSTANCE, &err), 0);
    for (size_t k = 0; k < total; k++) {
        assert_int_equal(cr_store_results_next(&r, it, &err), 1);
        assert_same_result(r, &all[k]);
    }
    assert_int_equal(cr_store_results_next(&r, it, &err), 0);
    cr_store_results_free(it);

    view_rows view = view_rows_open(f->path, run);
    for (size_t k = 0; k < total; k++)
        assert_view_row(view.st, &all[k]);
    view_rows_close(&view);
    free(all);
    free(w);
}

static void test_store_results__an_instance_already_solved_keeps_its_rows(void **state)
{
    fixture_state *f = *state;
    int64_t run = start_run(f, 1, CR_VARIANTS_ALL, CR_MOVES_FAST);
    cr_store_result first[2] = {row_from_game(1, CR_TOTAL, 5, 3, "LR", 2),
                                {.instance_id = 1, .variant = CR_WINNER, .missing = CR_FIGURES_ALL,
                                 .error = "naive minimax takes at most 25 coins"}};
    cr_store_result again[2] = {row_from_game(1, CR_TOTAL, 6, 3, "RR", 2), row_from_game(1, CR_WINNER, 6, 3, NULL, 2)};
    assert_int_equal(write_results(f, run, first, 2), 1);
    assert_int_equal(write_results(f, run, again, 2), 0);
    assert_int_equal(write_results(f, run, again, 1), 0);
    char *rows = db_text(f->path, "SELECT group_concat(variant || ' ' || coalesce(value, error) || ' ' || "
                                  "coalesce(moves, '-'), '; ') FROM result");
    assert_string_equal(rows, "total 5 LR; winner naive minimax takes at most 25 coins -");
    free(rows);
}

/* ---- the views ---- */

/* The query plan of sql on the database at path, one step per line. */
static char *plan_of(const char *path, const char *sql)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    char explain[1024], *plan = calloc(1, 4096);
    snprintf(explain, sizeof explain, "EXPLAIN QUERY PLAN %s", sql);
    assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, explain, -1, &st, NULL), SQLITE_OK);
    while (sqlite3_step(st) == SQLITE_ROW) {
        size_t len = strlen(plan);
        snprintf(plan + len, 4096 - len, "%s\n", (const char *)sqlite3_column_text(st, 3));
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return plan;
}

/* Fails the test unless the plan of each of `queries` on the database at
 * path has each of the steps `has` and none of `lacks` (all three
 * NULL-terminated). */
static void assert_plans(const char *path, const char *const *queries, const char *const *has,
                         const char *const *lacks)
{
    for (; *queries; queries++) {
        char *plan = plan_of(path, *queries);
        for (const char *const *step = has; *step; step++)
            if (!strstr(plan, *step))
                fail_msg("%s: no '%s' in\n%s", *queries, *step, plan);
        for (const char *const *step = lacks; *step; step++)
            if (strstr(plan, *step))
                fail_msg("%s: '%s' in\n%s", *queries, *step, plan);
        free(plan);
    }
}

/* A run and a variant: the run's solution rows by their key, the variant by
 * its name; joined as result_view joins it, no table of the whole view
 * first. */
static void test_store_results__a_run_and_variant_are_searched_by_key_not_scanned(void **state)
{
    fixture_state *f = *state;
    static const char *const queries[] = {"SELECT * FROM result WHERE run_id = 1 AND variant = 'diff'",
                                          "SELECT * FROM result_view WHERE run_id = 1 AND variant = 'winner'", NULL},
                             *const has[] = {"SEARCH s USING PRIMARY KEY (run_id=?)",
                                             "SEARCH v USING COVERING INDEX sqlite_autoindex_variant_1 (name=?)", NULL},
                             *const lacks[] = {"SCAN", "TEMP", "MATERIALIZE", NULL};
    assert_plans(f->path, queries, has, lacks);
}

/* One instance by its ext_id: through result_view, from solution's own
 * ext_id index to its rows, in each of the few runs; through result joined
 * to instance, from the set's (set_id, ext_id) index, in each of the few
 * sets, to its solution rows by their key.  Not a scan of every solution
 * either way (schema/007_lines_as_text.sql, the planner's figures;
 * 008_copies_in_solution.sql, the index). */
static void test_store_results__one_instance_is_found_by_its_ext_id_through_the_keys(void **state)
{
    fixture_state *f = *state;
    static const char *const through_view[] = {
        "SELECT variant, value, moves FROM result_view WHERE ext_id = 'e7'",
        "SELECT * FROM result_view WHERE set_name = 's' AND ext_id = 'e7' AND variant = 'diff'",
        NULL,
    };
    static const char *const by_copy[] = {"SEARCH s USING INDEX solution_ext_id (ext_id=?)", NULL},
                             *const by_copy_lacks[] = {"SCAN s\n", " i ", "TEMP", "AUTOMATIC", NULL};
    assert_plans(f->path, through_view, by_copy, by_copy_lacks);
    static const char *const through_result[] = {
        "SELECT r.variant, r.value, r.moves FROM result AS r JOIN instance AS i ON i.id = r.instance_id "
        "WHERE i.ext_id = 'e7'",
        NULL,
    };
    static const char *const has[] = {"INDEX sqlite_autoindex_instance_1 (", "ext_id=?)",
                                      "SEARCH s USING PRIMARY KEY (", "instance_id=?)", NULL},
                             *const lacks[] = {"SCAN i\n", "SCAN s\n", "TEMP", "AUTOMATIC", NULL};
    assert_plans(f->path, through_result, has, lacks);
}

/* result_view reads no instance: its set, ext_id and n are solution's
 * copies (schema/008_copies_in_solution.sql), so that a query over a whole
 * run reads solution alone, and a GROUP BY winner sorts the winner and
 * solution's outcome, not the scores it comes from. */
static void test_store_results__result_view_reads_solution_alone(void **state)
{
    fixture_state *f = *state;
    static const char *const queries[] = {
        "SELECT winner, count(*) FROM result_view WHERE variant = 'diff' GROUP BY winner",
        "SELECT set_name, winner, count(*) FROM result_view WHERE variant = 'winner' GROUP BY set_name, winner",
        "SELECT * FROM result_view WHERE run_id = 1",
        "SELECT count(*) FROM result_view WHERE variant = 'total' AND n BETWEEN 2 AND 9",
        "SELECT ext_id, value FROM result_view WHERE run_id = 1 AND variant = 'diff' ORDER BY value DESC LIMIT 100",
        NULL,
    };
    static const char *const has[] = {"s USING PRIMARY KEY", NULL},
                             *const lacks[] = {" i ", "AUTOMATIC", "MATERIALIZE", NULL};
    assert_plans(f->path, queries, has, lacks);
}

/* Two runs side by side: the first run's rows by its key, the second's
 * looked up by theirs, with no table made on the way. */
static void test_store_results__two_runs_side_by_side_are_joined_by_their_keys(void **state)
{
    fixture_state *f = *state;
    static const char *const queries[] = {
        "SELECT a.instance_id, a.variant, a.value, b.value FROM result AS a JOIN result AS b "
        "ON b.instance_id = a.instance_id AND b.variant = a.variant "
        "WHERE a.run_id = 1 AND b.run_id = 2 AND a.value IS NOT b.value",
        "SELECT a.ext_id, a.moves, b.moves FROM result_view AS a JOIN result_view AS b "
        "ON b.instance_id = a.instance_id AND b.variant = a.variant "
        "WHERE a.run_id = 1 AND b.run_id = 2 AND a.variant = 'diff'",
        NULL,
    };
    static const char *const has[] = {"SEARCH s USING PRIMARY KEY (run_id=?)",
                                      "SEARCH s USING PRIMARY KEY (run_id=? AND instance_id=?)", NULL},
                             *const lacks[] = {"SCAN s\n", "SCAN i\n", "TEMP", "AUTOMATIC", "MATERIALIZE", NULL};
    assert_plans(f->path, queries, has, lacks);
}

static void test_store_results__views_show_only_the_variants_a_run_solved(void **state)
{
    fixture_state *f = *state;
    int64_t run = start_run(f, 2, CR_VARIANT_BIT(CR_DIFF) | CR_VARIANT_BIT(CR_REMAINING), CR_MOVES_NONE);
    cr_store_result rows[4] = {row_from_game(1, CR_DIFF, 4, 1, NULL, 0), row_from_game(1, CR_REMAINING, 2, 7, NULL, 0),
                               row_from_game(2, CR_DIFF, 0, 0, NULL, 0), row_from_game(2, CR_REMAINING, 9, 9, NULL, 0)};
    assert_int_equal(write_results(f, run, rows, 4), 2);
    char *got = db_text(f->path, "SELECT group_concat(ext_id || ' ' || variant || ' ' || value || ' ' || winner || ' ' "
                                 "|| coalesce(moves, '-'), '; ') FROM (SELECT * FROM result_view ORDER BY ext_id, "
                                 "variant)");
    assert_string_equal(got, "e1 diff 3 first -; e1 remaining -5 second -; e2 diff 0 draw -; e2 remaining 0 draw -");
    free(got);
}

static void test_store_results__editing_result_edits_the_tables_under_it(void **state)
{
    fixture_state *f = *state;
    int64_t run = start_run(f, 1, CR_VARIANTS_ALL, CR_MOVES_FAST);
    cr_store_result rows[2] = {row_from_game(1, CR_TOTAL, 5, 3, "LR", 2), row_from_game(1, CR_DIFF, 5, 3, "LR", 2)};
    assert_int_equal(write_results(f, run, rows, 2), 1);
    const char *rows_sql = "SELECT group_concat(variant || ' ' || value || ' ' || moves, '; ') FROM result";
    assert_int_equal(db_exec(f->path, "UPDATE result SET value = 9, moves = 'RR' WHERE variant = 'diff'"), 0);
    char *got = db_text(f->path, rows_sql);
    assert_string_equal(got, "total 5 LR; diff 9 RR");
    free(got);
    assert_int_equal(db_exec(f->path, "UPDATE result SET variant = 'winner' WHERE variant = 'diff'"), -1);
    assert_int_equal(db_exec(f->path, "DELETE FROM result WHERE variant = 'diff'"), 0);
    got = db_text(f->path, rows_sql);
    assert_string_equal(got, "total 5 LR");
    free(got);
    assert_int_equal(db_int(f->path, "SELECT count(*) FROM result_extra"), 0);
    assert_int_equal(db_exec(f->path, "DELETE FROM result"), 0);
    assert_int_equal(db_int(f->path, "SELECT count(*) FROM solution"), 0);
}

/* ---- the upgrades from schema versions 3, 5, 6, 7, 8 and 9 ----
 *
 * tests/fixtures/schema3/coinrow.db was made by coinrow at commit 22b5fee
 * (schema version 3), in tests/fixtures/schema3:
 *   coinrow run mix.csv --db coinrow.db --variant all --moves fast --label "all fast"
 *   coinrow solve --db coinrow.db --set mix --variant diff,winner --moves none --label "no lines"
 *   coinrow solve --db coinrow.db --set mix --algo naive --variant total,remaining --moves canonical
 *   coinrow generate --db coinrow.db --set gen --count 6 --n 1..9 --values -20..20 --seed 13
 *   coinrow solve --db coinrow.db --set gen
 *   coinrow compare --db coinrow.db 1 2 --record
 * so it holds errors (scores beyond int64, rows too large for naive), lines
 * fast, canonical and none, a rejected row, a generated set and a comparison.
 *
 * tests/fixtures/schema5/coinrow.db was made by coinrow at commit e719b78
 * (schema version 5, lines packed a bit per turn) with the same commands on
 * the same mix.csv, then
 *   coinrow invoke --db coinrow.db --set gen --variant diff --builtin greedy --expect WA
 *   sqlite3 coinrow.db "UPDATE result SET value = 99, moves = 'RL' WHERE run_id = 1 AND variant = 'diff'
 *                       AND instance_id = (SELECT id FROM instance WHERE ext_id = 'two')"
 * so it also holds an invocation and a row edited through the view.
 *
 * tests/fixtures/schema6/coinrow.db was made by coinrow at commit b3200a8
 * (schema version 6, lines still packed; invocations may be sandboxed) with
 * the same commands, and one more before the edit:
 *   coinrow invoke --db coinrow.db --set gen --variant total --sandbox -- true
 * so it holds a sandboxed invocation too (its directory then set to
 * tests/fixtures/schema6, not the folder it was made in).
 *
 * tests/fixtures/schema7/coinrow.db was made by coinrow at commit 4e16f53
 * (schema version 7, lines as text) with the same commands as schema6's,
 * its sandboxed invocation's directory then set to tests/fixtures/schema7.
 *
 * tests/fixtures/schema8/coinrow.db (solution's copies of its instance) and
 * tests/fixtures/schema9/coinrow.db (a set's size, digest and marks) were
 * made the same way by coinrow at commits e1df001 and 95a2399, their
 * sandboxed invocation's directory then set to their own folder. */

#define EVERY_VIEW_ROW                                                                                                 \
    "SELECT group_concat(row, char(10)) FROM (SELECT json_array(run_id, set_name, ext_id, n, variant, value, "      \
    "first_score, second_score, winner, moves, error, algo, moves_policy, solver_version, instance_id, label) AS row " \
    "FROM result_view ORDER BY run_id, instance_id, variant)"

/* A copy of the fixture of schema version `version` in the test's folder,
 * at path. */
static void copy_fixture(const char *path, int version)
{
    char name[64];
    snprintf(name, sizeof name, "schema%d/coinrow.db", version);
    assert_int_equal(copy_file(fixture(name), path), 0);
}

/* The rows of result_view of the database at path, and those coinrow reads
 * back of each run, before and after an upgrade from `version`. */
static void upgrade_and_compare(const char *path, int version)
{
    assert_int_equal(db_int(path, "PRAGMA user_version"), version);
    char *before = db_text(path, EVERY_VIEW_ROW);
    assert_int_equal(db_int(path, "SELECT count(*) FROM result_view"), 120);

    cr_store *store = NULL;
    cr_error err = {0};
    assert_int_equal(cr_store_new(&store, path, CR_STORE_WRITE, &err), 0);
    assert_int_equal(cr_store_keep_upgrade(store, &err), 0); /* kept: commands keep it at their first write */
    assert_int_equal(db_int(path, "PRAGMA user_version"), cr_schema_count);
    char *after = db_text(path, EVERY_VIEW_ROW);
    assert_string_equal(after, before);

    /* coinrow reads back what the view shows, run by run */
    for (int64_t run = 1; run <= 4; run++) {
        cr_store_results *it = NULL;
        const cr_stored_result *r;
        assert_int_equal(cr_store_results_new(&it, store, run, CR_BY_INSTANCE, &err), 0);
        view_rows view = view_rows_open(path, run);
        while (cr_store_results_next(&r, it, &err) == 1) {
            cr_store_result want = {r->instance_id, r->variant,  r->error, r->missing, r->value, r->first_score,
                                    r->second_score, r->winner,  r->moves, r->moves ? strlen(r->moves) : 0};
            assert_view_row(view.st, &want);
        }
        view_rows_close(&view);
        cr_store_results_free(it);
    }
    cr_store_free(store);
    free(before);
    free(after);
}

/* A cr_store_check_fn: a check that finds something fails the test (the
 * user's own objects, such as the view my_lines, are notes); when ctx is a
 * check's name, only that check. */
static void no_finding(void *ctx, const char *check, const char *finding)
{
    if (finding && strcmp(check, CR_STORE_CHECK_OWN) != 0 && (!ctx || strcmp(check, ctx) == 0))
        fail_msg("%s: %s", check, finding);
}

/* The database at path holds check-db's invariant `name` (NULL: every one). */
static void assert_invariant_holds(const char *path, const char *name)
{
    cr_store *store = NULL;
    cr_error err = {0};
    unsigned failed = 0;
    assert_int_equal(cr_store_new(&store, path, CR_STORE_READ, &err), 0);
    assert_int_equal(cr_store_check(&failed, store, no_finding, (void *)name, &err), 0);
    if (!name)
        assert_int_equal(failed, 0);
    cr_store_free(store);
}

/* The database at path holds check-db's invariants. */
static void assert_invariants_hold(const char *path) { assert_invariant_holds(path, NULL); }

/* A winner edited through result is the one the views show, and the one
 * solution's outcome keeps (schema/008_copies_in_solution.sql): first,
 * second and draw in its bits, anything else read from result_extra; a
 * deleted variant leaves no bits. */
static void test_store_results__editing_a_winner_keeps_the_stored_outcome(void **state)
{
    fixture_state *f = *state;
    int64_t run = start_run(f, 1, CR_VARIANT_BIT(CR_TOTAL) | CR_VARIANT_BIT(CR_DIFF), CR_MOVES_FAST);
    cr_store_result rows[2] = {row_from_game(1, CR_TOTAL, 5, 3, "LR", 2), row_from_game(1, CR_DIFF, 5, 3, "LR", 2)};
    assert_int_equal(write_results(f, run, rows, 2), 1);
    const char *winners = "SELECT group_concat(variant || ' ' || coalesce(winner, '-'), '; ') FROM "
                          "(SELECT * FROM result_view ORDER BY variant DESC)";
    static const struct {
        const char *edit, *shown;
        int outcome;
    } edits[] = {
        {NULL, "total first; diff first", 1 | 1 << 2},
        {"UPDATE result SET winner = 'draw' WHERE variant = 'diff'", "total first; diff draw", 1 | 3 << 2},
        {"UPDATE result SET winner = 'nobody' WHERE variant = 'total'", "total nobody; diff draw", 3 << 2},
        {"UPDATE result SET winner = NULL WHERE variant = 'diff'", "total nobody; diff -", 0},
        {"UPDATE result SET winner = 'second' WHERE variant = 'total'", "total second; diff -", 2},
        {"UPDATE result SET winner = 'first' WHERE variant = 'diff'", "total second; diff first", 2 | 1 << 2},
        {"DELETE FROM result WHERE variant = 'total'", "diff first", 1 << 2},
    };
    for (size_t k = 0; k < sizeof edits / sizeof *edits; k++) {
        if (edits[k].edit)
            assert_int_equal(db_exec(f->path, edits[k].edit), 0);
        char *got = db_text(f->path, winners);
        assert_string_equal(got, edits[k].shown);
        free(got);
        assert_int_equal(db_int(f->path, "SELECT outcome FROM solution"), edits[k].outcome);
        assert_invariant_holds(f->path, "outcome-is-the-winner");
    }
}

static void test_store_results__a_version_3_database_upgrades_without_changing_a_row(void **state)
{
    fixture_state *f = *state;
    char path[4096];
    snprintf(path, sizeof path, "%s", tmp_path(f->dir, "v3.db"));
    copy_fixture(path, 3);
    upgrade_and_compare(path, 3);
    /* total, diff and winner share a row; the errors are kept whole */
    assert_int_equal(db_int(path, "SELECT count(*) FROM solution"), 42);
    assert_int_equal(db_int(path, "SELECT count(*) FROM result_extra"), 18);
    assert_int_equal(db_int(path, "SELECT count(*) FROM result_extra WHERE error IS NULL"), 0);
    /* and the new tables hold check-db's invariants */
    assert_invariants_hold(path);
}

static void test_store_results__rows_edited_by_hand_upgrade_whole(void **state)
{
    fixture_state *f = *state;
    char path[4096];
    snprintf(path, sizeof path, "%s", tmp_path(f->dir, "v3.db"));
    copy_fixture(path, 3);
    assert_int_equal(db_exec(path, "UPDATE result SET moves = 'LRX' WHERE run_id = 1 AND instance_id = 3;"
                                   "UPDATE result SET value = 99 WHERE run_id = 2 AND instance_id = 5 AND "
                                   "variant = 'diff';"
                                   "UPDATE result SET moves = 'RL' WHERE run_id = 4 AND variant = 'remaining'"),
                     0);
    upgrade_and_compare(path, 3);
    /* not lines: the instance's four rows; another value: the row; the
     * remaining game's rows, alone in their game, are its own */
    assert_int_equal(db_int(path, "SELECT count(*) FROM result_extra WHERE error IS NULL"), 4 + 1);
}

/* A database of `version`, with packed lines, upgrades to lines as text. */
static void packed_lines_upgrade_to_text(const fixture_state *f, int version)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", tmp_path(f->dir, "packed.db"));
    copy_fixture(path, version);
    /* a view of the user's own over solution reads the new table */
    assert_int_equal(db_exec(path, "CREATE VIEW my_lines AS SELECT run_id, instance_id, moves FROM solution"), 0);
    upgrade_and_compare(path, version);
    assert_int_equal(db_int(path, "SELECT count(*) FROM solution"), 42);
    assert_int_equal(db_int(path, "SELECT count(*) FROM result_extra"), 19);
    assert_int_equal(db_int(path, "SELECT count(*) FROM solution WHERE typeof(moves) = 'blob' OR "
                                  "typeof(remaining_moves) = 'blob'"),
                     0);
    char *lines = db_text(path, "SELECT group_concat(moves, ' ') FROM my_lines WHERE run_id = 4");
    assert_string_equal(lines, "RRLLLLL RLLLRL LLLLLL RL LLL RLLL");
    free(lines);
    assert_invariants_hold(path);
}

static void test_store_results__a_version_5_database_upgrades_without_changing_a_row(void **state)
{
    packed_lines_upgrade_to_text(*state, 5);
}

static void test_store_results__a_version_6_database_upgrades_without_changing_a_row(void **state)
{
    packed_lines_upgrade_to_text(*state, 6);
    fixture_state *f = *state;
    /* the sandboxed invocation is still one */
    assert_int_equal(db_int(tmp_path(f->dir, "packed.db"), "SELECT count(*) FROM invocation WHERE sandbox = 1"), 1);
}

/* Version 7 (lines as text) gains solution's copies of its instance's
 * set, ext_id and n, and the winners in outcome, the row edited by hand
 * (kept whole in result_extra) counted as it reads there. */
static void test_store_results__a_version_7_database_upgrades_without_changing_a_row(void **state)
{
    fixture_state *f = *state;
    char path[4096];
    snprintf(path, sizeof path, "%s", tmp_path(f->dir, "v7.db"));
    copy_fixture(path, 7);
    /* a view of the user's own over solution reads the new table */
    assert_int_equal(db_exec(path, "CREATE VIEW my_lines AS SELECT run_id, instance_id, moves FROM solution"), 0);
    upgrade_and_compare(path, 7);
    assert_int_equal(db_int(path, "SELECT count(*) FROM solution"), 42);
    assert_int_equal(db_int(path, "SELECT count(*) FROM result_extra"), 19);
    assert_int_equal(db_int(path, "SELECT count(*) FROM solution AS s JOIN instance AS i ON i.id = s.instance_id "
                                  "WHERE (s.set_id, s.ext_id, s.n) IS (i.set_id, i.ext_id, i.n)"),
                     42);
    assert_int_equal(db_int(path, "SELECT count(*) FROM my_lines WHERE run_id = 4"), 6);
    assert_invariants_hold(path);
}

/* Versions 8 and 9 upgrade keeping every row, as the others do. */
static void test_store_results__a_version_8_or_9_database_upgrades_without_changing_a_row(void **state)
{
    fixture_state *f = *state;
    for (int version = 8; version <= 9; version++) {
        char path[4096];
        snprintf(path, sizeof path, "%s", tmp_path(f->dir, version == 8 ? "v8.db" : "v9.db"));
        copy_fixture(path, version);
        upgrade_and_compare(path, version);
        assert_int_equal(db_int(path, "SELECT count(*) FROM solution"), 42);
        assert_int_equal(db_int(path, "SELECT count(*) FROM result_extra"), 19);
        assert_int_equal(db_int(path, "SELECT count(*) FROM invocation WHERE sandbox = 1"), 1);
        assert_invariants_hold(path);
    }
}

/* Every older version upgrades to schema 10 with no groups: its sets are as
 * they were, and a set of groups can then be made beside them. */
static void test_store_results__every_older_version_upgrades_to_groups_with_none(void **state)
{
    const fixture_state *f = *state;
    static const int versions[] = {3, 5, 6, 7, 8, 9};
    for (size_t v = 0; v < sizeof versions / sizeof *versions; v++) {
        char path[4096];
        snprintf(path, sizeof path, "%s", tmp_path(f->dir, "old10.db"));
        copy_fixture(path, versions[v]);
        char *sets = db_text(path, "SELECT group_concat(name || ' ' || coalesce(generator, '-'), '; ') FROM instance_set");
        cr_store *store = NULL;
        cr_error err = {0};
        assert_int_equal(cr_store_new(&store, path, CR_STORE_WRITE, &err), 0);
        assert_int_equal(cr_store_keep_upgrade(store, &err), 0); /* kept: commands keep it at their first write */
        assert_int_equal(db_int(path, "SELECT (SELECT count(*) FROM test_group) + (SELECT count(*) FROM "
                                      "test_group_dependency) + (SELECT count(*) FROM test_group_instance) + "
                                      "(SELECT count(*) FROM test_group_generator) + (SELECT count(*) FROM "
                                      "test_group_view)"),
                         0);
        char *after = db_text(path, "SELECT group_concat(name || ' ' || coalesce(generator, '-'), '; ') FROM "
                                    "instance_set");
        assert_string_equal(after, sets);
        /* the generated set gen is no set of groups; a new one is */
        cr_gen_spec spec = {{1, 9, 1, 9, 0, 0}, 2, 1, CR_PROFILE_RANDOM};
        cr_store_group group = {"small", 20, spec.limits, 0, "", 0, 0};
        int64_t set_id, group_id, call;
        assert_int_equal(cr_store_group_generated(&set_id, &group_id, &call, store, "gen", &group, &spec, "test", &err),
                         CR_EINVAL);
        assert_non_null(strstr(err.msg, "set 'gen' has no groups (it was generated as a whole)"));
        assert_int_equal(cr_store_group_generated(&set_id, &group_id, &call, store, "sub", &group, &spec, "test", &err),
                         0);
        assert_int_equal(call, 1);
        cr_store_free(store);
        assert_int_equal(db_int(path, "SELECT count(*) FROM test_group_view WHERE set_name = 'sub' AND points = 20"),
                         1);
        assert_invariants_hold(path);
        free(sets), free(after);
        remove(path);
    }
}

/* A copy of the fixture of `version` changed by `change` (then by `then`,
 * when not NULL, in a connection of its own) fails to upgrade, saying
 * `message`, and is left as it was, in WAL mode (as coinrow before version
 * 4 left its files) and in rollback mode, with nothing beside it. */
static void upgrade_fails_leaving_the_file(const fixture_state *f, int version, const char *change, const char *then,
                                           const char *message)
{
    static const char *const modes[] = {"PRAGMA journal_mode = WAL", "PRAGMA journal_mode = DELETE"},
                             *const besides[] = {"-wal", "-shm", "-journal"};
    for (size_t m = 0; m < 2; m++) {
        char path[4096], beside[4200];
        snprintf(path, sizeof path, "%s", tmp_path(f->dir, "old.db"));
        copy_fixture(path, version);
        assert_int_equal(db_exec(path, change), 0);
        if (then)
            assert_int_equal(db_exec(path, then), 0);
        assert_int_equal(db_exec(path, modes[m]), 0);
        size_t len = 0, len_after = 0;
        char *before = read_bytes(path, &len);
        cr_store *store = NULL;
        cr_error err = {0};
        assert_int_equal(cr_store_new(&store, path, CR_STORE_WRITE, &err), CR_EDB);
        assert_null(store);
        if (!strstr(err.msg, message))
            fail_msg("'%s', not '%s'", err.msg, message);
        char *after = read_bytes(path, &len_after);
        assert_int_equal(len_after, len);
        assert_memory_equal(after, before, len);
        for (size_t b = 0; b < sizeof besides / sizeof *besides; b++) {
            snprintf(beside, sizeof beside, "%s%s", path, besides[b]);
            assert_int_equal(access(beside, F_OK), -1);
        }
        assert_int_equal(db_int(path, "PRAGMA user_version"), version);
        free(before);
        free(after);
        /* reading a file in WAL mode read-only leaves its -wal and -shm */
        remove(path);
        for (size_t b = 0; b < sizeof besides / sizeof *besides; b++) {
            snprintf(beside, sizeof beside, "%s%s", path, besides[b]);
            remove(beside);
        }
    }
}

static void test_store_results__a_failed_upgrade_from_version_3_leaves_the_file_unchanged(void **state)
{
    upgrade_fails_leaving_the_file(*state, 3, "CREATE TABLE solution (x)", NULL,
                                   "already holds what version 4 adds (table solution already exists)");
    upgrade_fails_leaving_the_file(*state, 3,
                                   "INSERT INTO result (run_id, instance_id, variant, value) VALUES (1, 1, 'bogus', 1)",
                                   NULL, "the upgrade would change result rows");
}

/* At its first step (the old table's new name is taken), and half-way
 * through, once the new table is made: a solution row without its extra
 * bits, which only a schema edited by hand lets in, breaks its NOT NULL. */
static void packed_lines_upgrade_fails_leaving_the_file(const fixture_state *f, int version)
{
    upgrade_fails_leaving_the_file(f, version, "CREATE TABLE solution_v5 (x)", NULL, "applying schema script 7");
    upgrade_fails_leaving_the_file(f, version,
                                   "PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql = replace(sql, "
                                   "'extra                  INTEGER NOT NULL', 'extra INTEGER') WHERE name = "
                                   "'solution'",
                                   "UPDATE solution SET extra = NULL WHERE run_id = 1 AND instance_id = 1",
                                   "NOT NULL constraint failed: solution.extra");
}

static void test_store_results__a_failed_upgrade_from_version_5_leaves_the_file_unchanged(void **state)
{
    packed_lines_upgrade_fails_leaving_the_file(*state, 5);
}

static void test_store_results__a_failed_upgrade_from_version_6_leaves_the_file_unchanged(void **state)
{
    packed_lines_upgrade_fails_leaving_the_file(*state, 6);
}

/* At its first step (the old table's new name is taken); and a result
 * whose instance is gone is not upgraded (it would have no copies), rather
 * than lost. */
static void test_store_results__a_failed_upgrade_from_version_7_leaves_the_file_unchanged(void **state)
{
    upgrade_fails_leaving_the_file(*state, 7, "CREATE TABLE solution_v7 (x)", NULL, "applying schema script 8");
    upgrade_fails_leaving_the_file(*state, 7, "DELETE FROM instance WHERE id = 3", NULL,
                                   "solution rows without their instance: restore those instances, or delete the "
                                   "rows (DELETE FROM solution WHERE instance_id NOT IN (SELECT id FROM "
                                   "instance)), and upgrade again");
}

/* The upgrade to version 9 fails like the others: at its first step (the
 * new table's name is taken), from every older version. */
static void test_store_results__a_failed_upgrade_to_version_9_leaves_the_file_unchanged(void **state)
{
    static const int versions[] = {3, 5, 6, 7, 8};
    for (size_t v = 0; v < sizeof versions / sizeof *versions; v++)
        upgrade_fails_leaving_the_file(*state, versions[v], "CREATE TABLE set_mark (x)", NULL,
                                       "already holds what version 9 adds (table set_mark already exists)");
}

/* The upgrade to version 10 fails like the others, at its first step
 * (the new table's name is taken), from every older version. */
static void test_store_results__a_failed_upgrade_to_version_10_leaves_the_file_unchanged(void **state)
{
    static const int versions[] = {3, 5, 6, 7, 8, 9};
    for (size_t v = 0; v < sizeof versions / sizeof *versions; v++)
        upgrade_fails_leaving_the_file(*state, versions[v], "CREATE TABLE test_group (x)", NULL,
                                       "already holds what version 10 adds (table test_group already exists)");
}

/* The upgrade to version 9 counts and fingerprints every set as the store does when it
 * adds instances, and marks it: the set copied instance by instance into a
 * new database has the same size and digest, from every older version. */
static void test_store_results__the_upgrade_to_version_9_counts_every_set_as_adding_does(void **state)
{
    const fixture_state *f = *state;
    static const int versions[] = {3, 5, 6, 7, 8};
    for (size_t v = 0; v < sizeof versions / sizeof *versions; v++) {
        char path[4096], copy[4096];
        snprintf(path, sizeof path, "%s", tmp_path(f->dir, "old8.db"));
        snprintf(copy, sizeof copy, "%s", tmp_path(f->dir, "copy8.db"));
        copy_fixture(path, versions[v]);
        remove(copy);
        cr_store *old = NULL, *fresh = NULL;
        cr_error err = {0};
        assert_int_equal(cr_store_new(&old, path, CR_STORE_WRITE, &err), 0);
        assert_int_equal(cr_store_keep_upgrade(old, &err), 0); /* kept: commands keep it at their first write */
        assert_int_equal(cr_store_new(&fresh, copy, CR_STORE_WRITE, &err), 0);
        int64_t sets = db_int(path, "SELECT max(id) FROM instance_set");
        assert_true(sets > 0);
        for (int64_t set_old = 1; set_old <= sets; set_old++) {
            cr_store_instances *it = NULL;
            int64_t set_fresh;
            char name[32];
            snprintf(name, sizeof name, "copied%d", (int)set_old);
            assert_int_equal(cr_store_begin(fresh, &err), 0);
            assert_int_equal(cr_store_set_find(&set_fresh, fresh, name, 1, "test", &err), 0);
            assert_int_equal(cr_store_instances_new(&it, old, set_old, 0, &err), 0);
            const cr_instance *in;
            int rc;
            while ((rc = cr_store_instances_next(&in, it, &err)) == 1) {
                size_t ext_id_len = strlen(in->ext_id);
                cr_store_instance row = {.ext_id = in->ext_id,
                                         .ext_id_len = ext_id_len,
                                         .coins_json = in->coins_json,
                                         .coins_json_len = in->coins_json_len,
                                         .n = in->n,
                                         .digest = cr_instance_digest(in->ext_id, ext_id_len, in->coins_json,
                                                                      in->coins_json_len)};
                assert_int_equal(cr_store_add_instances(fresh, set_fresh, &row, 1, &err), 0);
            }
            assert_int_equal(rc, 0);
            cr_store_instances_free(it);
            assert_int_equal(cr_store_commit(fresh, &err), 0);
            uint64_t size_old, digest_old, size_fresh, digest_fresh;
            assert_int_equal(cr_store_set_fingerprint(&size_old, &digest_old, old, set_old, &err), 0);
            assert_int_equal(cr_store_set_fingerprint(&size_fresh, &digest_fresh, fresh, set_fresh, &err), 0);
            assert_true(size_old > 0);
            assert_int_equal(size_old, size_fresh);
            assert_true(digest_old == digest_fresh);
        }
        cr_store_free(old);
        cr_store_free(fresh);
        assert_int_equal(db_int(path, "SELECT count(*) FROM instance_set WHERE marked IS NOT digest OR size IS NOT "
                                      "(SELECT count(*) FROM instance WHERE set_id = instance_set.id)"),
                         0);
        assert_int_equal(db_int(path, "SELECT count(*) FROM set_mark"), db_int(path, "SELECT count(*) FROM instance_set "
                                                                                    "WHERE size > 0"));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_store_results__lines_pack_one_bit_per_turn_behind_a_leading_one),
        cmocka_unit_test_setup_teardown(test_store_results__a_packed_line_reads_as_the_views_of_version_5_showed_it,
                                        store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store_results__every_row_reads_back_as_written_from_c_and_from_the_view,
                                        store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store_results__an_instance_already_solved_keeps_its_rows,
                                        store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store_results__a_run_and_variant_are_searched_by_key_not_scanned,
                                        store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store_results__editing_a_winner_keeps_the_stored_outcome,
                                        store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store_results__result_view_reads_solution_alone,
                                        store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store_results__one_instance_is_found_by_its_ext_id_through_the_keys,
                                        store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store_results__two_runs_side_by_side_are_joined_by_their_keys,
                                        store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store_results__views_show_only_the_variants_a_run_solved,
                                        store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store_results__editing_result_edits_the_tables_under_it,
                                        store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store_results__a_version_3_database_upgrades_without_changing_a_row,
                                        store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store_results__rows_edited_by_hand_upgrade_whole, store_fixture_setup,
                                        store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store_results__a_failed_upgrade_from_version_3_leaves_the_file_unchanged,
                                        store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store_results__a_version_5_database_upgrades_without_changing_a_row,
                                        store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store_results__a_failed_upgrade_from_version_5_leaves_the_file_unchanged,
                                        store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store_results__a_version_6_database_upgrades_without_changing_a_row,
                                        store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store_results__a_failed_upgrade_from_version_6_leaves_the_file_unchanged,
                                        store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store_results__a_version_7_database_upgrades_without_changing_a_row,
                                        store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store_results__a_failed_upgrade_from_version_7_leaves_the_file_unchanged,
                                        store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store_results__a_failed_upgrade_to_version_9_leaves_the_file_unchanged,
                                        store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store_results__the_upgrade_to_version_9_counts_every_set_as_adding_does,
                                        store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store_results__a_version_8_or_9_database_upgrades_without_changing_a_row,
                                        store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store_results__every_older_version_upgrades_to_groups_with_none,
                                        store_fixture_setup, store_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_store_results__a_failed_upgrade_to_version_10_leaves_the_file_unchanged,
                                        store_fixture_setup, store_fixture_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

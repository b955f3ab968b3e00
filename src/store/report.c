/* What coinrow report shows (store.h, "what coinrow report shows"): every
 * figure an aggregate SQLite computes over the views and the tables of
 * sets, runs and invocations, so that a report of a million instances reads
 * back a few hundred rows.  The results are read through the view result
 * (and result_view) alone, whatever tables hold them. */
#include "store/sql.h"

#include <stdio.h>
#include <string.h>

#include "util/util.h"

/* ---- running a statement ---- */

/* A statement's parameters: ?1 to ?8 integers, ?9 a text (NULL binds NULL);
 * the SQL names those it uses. */
typedef struct params {
    int64_t i[8];
    const char *text;
} params;

/* Runs sql bound with p, calling row for each row until it returns non-zero
 * (which is returned). */
static int each_row(cr_store *s, const char *sql, const params *p, int (*row)(void *ctx, sqlite3_stmt *st), void *ctx,
                    const char *doing, cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = cr_store__prepare(&st, s, sql, doing, err), step = SQLITE_DONE;
    if (rc)
        return rc;
    int count = sqlite3_bind_parameter_count(st);
    for (int k = 0; k < 8 && k < count; k++)
        sqlite3_bind_int64(st, k + 1, p->i[k]);
    if (count >= 9)
        sqlite3_bind_text(st, 9, p->text, -1, SQLITE_STATIC);
    while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW)
        rc = row(ctx, st);
    if (rc == 0 && step != SQLITE_DONE)
        rc = cr_store__fail(s, doing, err);
    sqlite3_finalize(st);
    return rc;
}

/* A list of fixed-size rows filled by a statement, up to its capacity. */
typedef struct list {
    void *rows;
    size_t size, cap, count;
    void (*fill)(void *row, sqlite3_stmt *st);
} list;

static int list_row(void *ctx, sqlite3_stmt *st)
{
    list *l = ctx;
    if (l->count < l->cap)
        l->fill((char *)l->rows + l->count++ * l->size, st);
    return 0;
}

static int64_t column_int(sqlite3_stmt *st, int col) { return sqlite3_column_int64(st, col); }

/* ---- histograms ---- */

/* floor(v / w) for w > 0 (C's division truncates towards zero). */
static int64_t floor_div(int64_t v, int64_t w) { return v / w - (v % w < 0); }

/* The bin of the integer expression x, SQLite's division being C's: ?3 the
 * width, ?4 the start. */
#define BIN(x) "(" x ") / ?3 - ((" x ") % ?3 < 0) - ?4"

void cr_store_histogram_init(cr_histogram *out, uint64_t count, int64_t min, int64_t max)
{
    static const int64_t steps[] = {1, 2, 5};
    memset(out, 0, sizeof *out);
    out->count = count;
    out->min = min;
    out->max = max;
    if (!count)
        return;
    /* 5 * 10^18 takes at most four bins of any int64 range, so the widths
     * stop short of overflowing */
    int64_t width = 1;
    for (int64_t scale = 1, fits = 0; !fits; scale *= 10)
        for (int k = 0; k < 3 && !fits; k++) {
            width = steps[k] * scale;
            fits = (uint64_t)floor_div(max, width) - (uint64_t)floor_div(min, width) < CR_HISTOGRAM_BINS;
        }
    out->width = width;
    out->start = floor_div(min, width);
    out->bins = (int)(floor_div(max, width) - out->start + 1);
    for (int k = 0; k < out->bins; k++) {
        out->from[k] = k == 0 ? min : (out->start + k) * width;
        out->to[k] = k == out->bins - 1 ? max : (out->start + k + 1) * width - 1;
    }
}

/* Adds a row's count (column col) to the bin its column 0 names, if any. */
static void add_to_bin(cr_histogram *h, sqlite3_stmt *st, int col)
{
    int64_t k = column_int(st, 0);
    if (sqlite3_column_type(st, 0) != SQLITE_NULL && k >= 0 && k < h->bins)
        h->counts[k] += (uint64_t)column_int(st, col);
}

/* (bin, count) rows into a histogram's counts. */
static int count_bins(void *ctx, sqlite3_stmt *st)
{
    add_to_bin(ctx, st, 1);
    return 0;
}

/* ---- the set ---- */

static int read_outline(void *ctx, sqlite3_stmt *st)
{
    cr_set_outline *o = ctx;
    if (sqlite3_column_count(st) == 5) {
        o->instances = (uint64_t)column_int(st, 0);
        o->n_min = column_int(st, 1), o->n_max = column_int(st, 2);
        o->id_min = column_int(st, 3), o->id_max = column_int(st, 4);
    } else {
        cr_store__column_text(o->source, sizeof o->source, st, 0);
        cr_store__column_text(o->created_at, sizeof o->created_at, st, 1);
        o->rejected = (uint64_t)column_int(st, 2);
    }
    return 0;
}

int cr_store_set_outline(cr_set_outline *out, cr_store *store, int64_t set_id, cr_error *err)
{
    memset(out, 0, sizeof *out);
    params p = {.i = {set_id}};
    int rc = each_row(store,
                      "SELECT count(*), coalesce(min(n), 0), coalesce(max(n), 0), coalesce(min(id), 0), "
                      "coalesce(max(id), 0) FROM instance WHERE set_id = ?1",
                      &p, read_outline, out, "reading the set", err);
    return rc ? rc
              : each_row(store,
                         "SELECT source, created_at, (SELECT count(*) FROM ingest_error WHERE set_id = ?1 AND NOT " CR_STORE__UNFINISHED ") "
                         "FROM instance_set WHERE id = ?1",
                         &p, read_outline, out, "reading the set", err);
}

int cr_store_set_n_histogram(cr_histogram *out, cr_store *store, int64_t set_id, cr_error *err)
{
    params p = {.i = {set_id, 0, out->width, out->start}};
    memset(out->counts, 0, sizeof out->counts);
    return out->count ? each_row(store, "SELECT " BIN("n") ", count(*) FROM instance WHERE set_id = ?1 GROUP BY 1", &p,
                                 count_bins, out, "counting the instances by n", err)
                      : 0;
}

static int read_range(void *ctx, sqlite3_stmt *st)
{
    int64_t *range = ctx;
    range[0] = column_int(st, 0), range[1] = column_int(st, 1), range[2] = column_int(st, 2);
    return 0;
}

int cr_store_set_coin_range(int64_t *out_min, int64_t *out_max, int *out_found, cr_store *store, int64_t set_id,
                            cr_error *err)
{
    int64_t range[3] = {0};
    params p = {.i = {set_id}};
    int rc = each_row(store,
                      "SELECT count(j.value), min(j.value), max(j.value) FROM instance AS i, json_each(i.coins) AS j "
                      "WHERE i.set_id = ?1",
                      &p, read_range, range, "reading the coins", err);
    *out_found = range[0] > 0;
    *out_min = range[1], *out_max = range[2];
    return rc;
}

static void fill_rejected(void *row, sqlite3_stmt *st)
{
    cr_rejected_row *r = row;
    cr_store__column_text(r->source, sizeof r->source, st, 0);
    r->line = (uint64_t)column_int(st, 1);
    cr_store__column_text(r->ext_id, sizeof r->ext_id, st, 2);
    cr_store__column_text(r->reason, sizeof r->reason, st, 3);
    cr_store__column_text(r->raw, sizeof r->raw, st, 4);
}

int cr_store_rejected_rows(cr_rejected_row *out, size_t cap, size_t *out_count, cr_store *store, int64_t set_id,
                           cr_error *err)
{
    list l = {out, sizeof *out, cap, 0, fill_rejected};
    params p = {.i = {set_id, (int64_t)cap}};
    int rc = each_row(store,
                      "SELECT source, line, ext_id, reason, raw FROM ingest_error WHERE set_id = ?1 AND NOT " CR_STORE__UNFINISHED
                      " ORDER BY id "
                      "LIMIT ?2",
                      &p, list_row, &l, "reading the rejected rows", err);
    *out_count = l.count;
    return rc;
}

/* ---- runs and invocations ---- */

static void fill_id(void *row, sqlite3_stmt *st) { *(int64_t *)row = column_int(st, 0); }

int cr_store_set_jobs(int64_t *out, size_t cap, size_t *out_count, uint64_t *out_total, cr_store *store, int64_t set_id,
                      int runs, cr_error *err)
{
    static const char *const sql[2][2] = {
        {"SELECT id FROM invocation WHERE set_id = ?1 ORDER BY id DESC LIMIT ?2",
         "SELECT count(*) FROM invocation WHERE set_id = ?1"},
        {"SELECT id FROM run WHERE set_id = ?1 ORDER BY id DESC LIMIT ?2",
         "SELECT count(*) FROM run WHERE set_id = ?1"},
    };
    list l = {out, sizeof *out, cap, 0, fill_id};
    params p = {.i = {set_id, (int64_t)cap}};
    int64_t total = 0;
    int rc = each_row(store, sql[runs != 0][0], &p, list_row, &l, "reading the set's runs", err);
    if (rc == 0)
        rc = cr_store__query_int(&total, store, sql[runs != 0][1], set_id, 0, "reading the set's runs", err);
    *out_count = l.count;
    *out_total = (uint64_t)total;
    return rc;
}

int cr_store_set_latest_done(int64_t *out_id, cr_store *store, int64_t set_id, int64_t below, cr_error *err)
{
    return cr_store__query_int(out_id, store,
                               "SELECT coalesce(max(id), 0) FROM run WHERE set_id = ?1 AND status = 'done' AND "
                               "(?2 = 0 OR id < ?2)",
                               set_id, below, "reading the set's runs", err);
}

static int read_notes(void *ctx, sqlite3_stmt *st)
{
    cr_run_notes *n = ctx;
    cr_store__column_text(n->label, sizeof n->label, st, 0);
    cr_store__column_text(n->started_at, sizeof n->started_at, st, 1);
    cr_store__column_text(n->finished_at, sizeof n->finished_at, st, 2);
    cr_store__column_text(n->message, sizeof n->message, st, 3);
    return 0;
}

int cr_store_run_notes(cr_run_notes *out, cr_store *store, int64_t run_id, cr_error *err)
{
    memset(out, 0, sizeof *out);
    params p = {.i = {run_id}};
    int rc = each_row(store, "SELECT label, started_at, finished_at, message FROM run WHERE id = ?1", &p, read_notes,
                      out, "reading the run", err);
    return rc ? rc : cr_store_run_solved(&out->solved, store, run_id, err);
}

/* ---- a run's variants ---- */

static int read_stats(void *ctx, sqlite3_stmt *st)
{
    cr_variant_stats *s = ctx;
    s->results = (uint64_t)column_int(st, 0);
    s->errors = (uint64_t)column_int(st, 4);
    cr_store_histogram_init(&s->values, (uint64_t)column_int(st, 1), column_int(st, 2), column_int(st, 3));
    return 0;
}

/* (bin of the value, winner, count) rows: the values' counts and the
 * winner split at once, one pass over the rows. */
static int count_values(void *ctx, sqlite3_stmt *st)
{
    static const char *const winners[3] = {"first", "second", "draw"};
    cr_variant_stats *s = ctx;
    const char *winner = (const char *)sqlite3_column_text(st, 1);
    for (int k = 0; k < 3 && winner; k++)
        if (strcmp(winner, winners[k]) == 0)
            s->winners[k] += (uint64_t)column_int(st, 2);
    add_to_bin(&s->values, st, 2);
    return 0;
}

int cr_store_run_variant_stats(cr_variant_stats *out, cr_store *store, int64_t run_id, cr_variant variant,
                               cr_error *err)
{
    memset(out, 0, sizeof *out);
    params p = {.i = {run_id}, .text = cr_variant_name(variant)};
    int rc = each_row(store,
                      "SELECT count(*), count(value), min(value), max(value), count(error) FROM result "
                      "WHERE run_id = ?1 AND variant = ?9",
                      &p, read_stats, out, "reading the run's results", err);
    p.i[2] = out->values.count ? out->values.width : 1;
    p.i[3] = out->values.start;
    return rc ? rc
              : each_row(store,
                         "SELECT " BIN("value") ", winner, count(*) FROM result WHERE run_id = ?1 AND variant = ?9 "
                                                "GROUP BY 1, 2",
                         &p, count_values, out, "counting the run's results", err);
}

static void fill_error(void *row, sqlite3_stmt *st)
{
    cr_result_error *e = row;
    cr_store__column_text(e->ext_id, sizeof e->ext_id, st, 0);
    e->n = (size_t)column_int(st, 1);
    cr_store__column_text(e->error, sizeof e->error, st, 2);
}

int cr_store_run_errors(cr_result_error *out, size_t cap, size_t *out_count, cr_store *store, int64_t run_id,
                        cr_variant variant, cr_error *err)
{
    list l = {out, sizeof *out, cap, 0, fill_error};
    params p = {.i = {run_id, (int64_t)cap}, .text = cr_variant_name(variant)};
    int rc = each_row(store,
                      "SELECT ext_id, n, error FROM result_view WHERE run_id = ?1 AND variant = ?9 AND error IS NOT "
                      "NULL ORDER BY instance_id LIMIT ?2",
                      &p, list_row, &l, "reading the run's errors", err);
    *out_count = l.count;
    return rc;
}

/* ---- two runs ---- */

/* The pairs of results of runs ?1 and ?2 for one variant, and whether
 * their answers differ. */
#define PAIRS                                                                                                          \
    "FROM result AS a JOIN result AS b ON b.run_id = ?2 AND b.instance_id = a.instance_id AND b.variant = a.variant "
#define DIFFER "(a.value, a.winner, a.error) IS NOT (b.value, b.winner, b.error)"

static int read_pair_counts(void *ctx, sqlite3_stmt *st)
{
    uint64_t *counts = ctx;
    counts[0] = (uint64_t)column_int(st, 0);
    counts[1] = (uint64_t)column_int(st, 1);
    return 0;
}

int cr_store_answers_compare(cr_answers_comparison *out, cr_store *store, const cr_run *a, const cr_run *b,
                             cr_error *err)
{
    memset(out, 0, sizeof *out);
    out->variants = a->opts.variants & b->opts.variants;
    params p = {.i = {a->id, b->id}};
    int rc = cr_store_run_solved(&out->solved_a, store, a->id, err), differing_variants = 0;
    if (rc == 0)
        rc = cr_store_run_solved(&out->solved_b, store, b->id, err);
    /* one variant at a time: the view then reads only that variant's rows */
    for (int v = 0; rc == 0 && v < CR_VARIANT_COUNT; v++) {
        if (!(out->variants & CR_VARIANT_BIT(v)))
            continue;
        uint64_t counts[2] = {0};
        p.text = cr_variant_name((cr_variant)v);
        rc = each_row(store,
                      "SELECT count(*), coalesce(sum(" DIFFER "), 0) " PAIRS "WHERE a.run_id = ?1 AND a.variant = ?9",
                      &p, read_pair_counts, counts, "comparing the runs", err);
        /* every instance a run solved has each of its variants */
        out->common = counts[0];
        out->differing_by[v] = counts[1];
        differing_variants += counts[1] > 0;
        if (counts[1] > out->differing)
            out->differing = counts[1];
    }
    /* instances that differ in more than one variant count once */
    if (rc == 0 && differing_variants > 1) {
        int64_t distinct = 0;
        rc = cr_store__query_int(&distinct, store,
                                 "SELECT count(DISTINCT a.instance_id) " PAIRS "WHERE a.run_id = ?1 AND " DIFFER, a->id,
                                 b->id, "comparing the runs", err);
        out->differing = (uint64_t)distinct;
    }
    return rc;
}

/* Columns col.. of a row (value, winner, error) into an answer; given says
 * whether the run has the result. */
static void read_answer(cr_answer *out, sqlite3_stmt *st, int col, int given)
{
    memset(out, 0, sizeof *out);
    out->given = given;
    out->has_value = given && sqlite3_column_type(st, col) != SQLITE_NULL;
    out->value = column_int(st, col);
    if (given) {
        cr_store__column_text(out->winner, sizeof out->winner, st, col + 1);
        cr_store__column_text(out->error, sizeof out->error, st, col + 2);
    }
}

static void fill_difference(void *row, sqlite3_stmt *st)
{
    cr_answer_difference *d = row;
    cr_store__column_text(d->ext_id, sizeof d->ext_id, st, 0);
    d->n = (size_t)column_int(st, 1);
    cr_error ignored = {0};
    const char *variant = (const char *)sqlite3_column_text(st, 2);
    if (!variant || cr_variant_parse(&d->variant, variant, &ignored))
        d->variant = CR_VARIANT_COUNT;
    read_answer(&d->a, st, 3, sqlite3_column_int(st, 9));
    read_answer(&d->b, st, 6, sqlite3_column_int(st, 10));
}

int cr_store_answer_differences(cr_answer_difference *out, size_t cap, size_t *out_count, cr_store *store,
                                const cr_run *a, const cr_run *b, int missing, cr_error *err)
{
    list l = {out, sizeof *out, cap, 0, fill_difference};
    params p = {.i = {a->id, b->id, (int64_t)cap, a->set_id}};
    int rc = each_row(store,
                      missing ? "SELECT ext_id, n, NULL, NULL, NULL, NULL, NULL, NULL, NULL, x, y FROM ("
                                "SELECT i.id, i.ext_id, i.n, "
                                "EXISTS (SELECT 1 FROM result WHERE run_id = ?1 AND instance_id = i.id) AS x, "
                                "EXISTS (SELECT 1 FROM result WHERE run_id = ?2 AND instance_id = i.id) AS y "
                                "FROM instance AS i WHERE i.set_id = ?4) WHERE x <> y ORDER BY id LIMIT ?3"
                              : "SELECT i.ext_id, i.n, a.variant, a.value, a.winner, a.error, b.value, b.winner, "
                                "b.error, 1, 1 " PAIRS
                                "JOIN instance AS i ON i.id = a.instance_id WHERE a.run_id = ?1 AND " DIFFER
                                " ORDER BY a.instance_id, a.variant LIMIT ?3",
                      &p, list_row, &l, "listing what differs between the runs", err);
    *out_count = l.count;
    return rc;
}

/* ---- invocations ---- */

static int read_fold(void *ctx, sqlite3_stmt *st)
{
    list *l = ctx;
    int64_t g = column_int(st, 0);
    if (g < 0 || (uint64_t)g >= l->cap)
        return 0;
    cr_test_fold *f = (cr_test_fold *)l->rows + g;
    f->tests = (uint64_t)column_int(st, 1);
    f->n_min = column_int(st, 2), f->n_max = column_int(st, 3);
    cr_store__column_text(f->first, sizeof f->first, st, 4);
    cr_store__column_text(f->last, sizeof f->last, st, 5);
    return 0;
}

int cr_store_set_folds(cr_test_fold *out, size_t groups, cr_store *store, int64_t set_id, int64_t id_min, int64_t width,
                       cr_error *err)
{
    memset(out, 0, groups * sizeof *out);
    list l = {out, sizeof *out, groups, 0, NULL};
    params p = {.i = {set_id, id_min, width}};
    return each_row(store,
                    "SELECT g, c, lo_n, hi_n, (SELECT ext_id FROM instance WHERE id = lo), "
                    "(SELECT ext_id FROM instance WHERE id = hi) FROM (SELECT (id - ?2) / ?3 AS g, count(*) AS c, "
                    "min(id) AS lo, max(id) AS hi, min(n) AS lo_n, max(n) AS hi_n FROM instance WHERE set_id = ?1 "
                    "GROUP BY g)",
                    &p, read_fold, &l, "folding the tests", err);
}

/* Where (group, bin of n, verdict) rows go. */
typedef struct verdict_sums {
    cr_verdict_cell *cells;
    size_t groups;
    cr_times_by_n *times;
    cr_store *store;
    cr_error *err;
} verdict_sums;

static int read_verdicts(void *ctx, sqlite3_stmt *st)
{
    verdict_sums *s = ctx;
    int64_t g = column_int(st, 0), k = column_int(st, 1);
    uint64_t count = (uint64_t)column_int(st, 3);
    double cpu_max = sqlite3_column_double(st, 4);
    cr_invoke_verdict v;
    int rc = cr_store__column_verdict(&v, s->store, st, 2, s->err);
    if (rc)
        return rc;
    if (g >= 0 && (uint64_t)g < s->groups) {
        cr_verdict_cell *c = &s->cells[g];
        c->counts[v] += count;
        if (cpu_max > c->cpu_max)
            c->cpu_max = cpu_max;
    }
    if (k >= 0 && k < CR_HISTOGRAM_BINS) {
        s->times->count[k] += count;
        s->times->cpu_sum[k] += sqlite3_column_double(st, 5);
        if (cpu_max > s->times->cpu_max[k])
            s->times->cpu_max[k] = cpu_max;
    }
    return 0;
}

int cr_store_verdict_cells(cr_verdict_cell *out, size_t groups, cr_times_by_n *times, cr_store *store,
                           int64_t invocation_id, int64_t id_min, int64_t width, const cr_histogram *n, cr_error *err)
{
    memset(out, 0, groups * sizeof *out);
    memset(times, 0, sizeof *times);
    verdict_sums sums = {out, groups, times, store, err};
    params p = {.i = {invocation_id, id_min, n->count ? n->width : 1, n->start, width}};
    /* one pass for both: the matrix's cells and the time by n */
    return each_row(store,
                    "SELECT (v.instance_id - ?2) / ?5, " BIN(
                        "i.n") ", v.verdict, count(*), max(v.cpu_seconds), "
                               "total(v.cpu_seconds) FROM verdict AS v JOIN instance AS i ON i.id = v.instance_id "
                               "WHERE v.invocation_id = ?1 GROUP BY 1, 2, 3",
                    &p, read_verdicts, &sums, "reading the verdicts", err);
}

int cr_store_accepted_by_all(uint64_t *out, cr_store *store, const int64_t *ids, size_t count, cr_error *err)
{
    /* the ids as a JSON array, for json_each */
    char json[32 * 24];
    size_t len = 0;
    for (size_t k = 0; k < count && len < sizeof json; k++)
        len += (size_t)snprintf(json + len, sizeof json - len, "%s%lld", k ? "," : "[", (long long)ids[k]);
    if (len + 2 > sizeof json)
        return cr_errorf(err, CR_EINVAL, "%s: too many invocations to compare at once (%zu)", cr_store_path(store),
                         count);
    memcpy(json + len, "]", 2);
    int64_t accepted[3] = {0};
    params p = {.i = {ids[0], (int64_t)count}, .text = json};
    int rc = each_row(store,
                      "SELECT count(*), 0, 0 FROM verdict AS a WHERE a.invocation_id = ?1 AND a.verdict = 'AC' AND "
                      "(SELECT count(*) FROM json_each(?9) AS j JOIN verdict AS b ON b.invocation_id = j.value AND "
                      "b.instance_id = a.instance_id WHERE b.verdict = 'AC') = ?2",
                      &p, read_range, accepted, "reading the verdicts", err);
    *out = (uint64_t)accepted[0];
    return rc;
}

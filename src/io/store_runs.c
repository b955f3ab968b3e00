/* Runs and their results: starting, finding and closing runs, adding
 * results, reading them back in pages, and the questions export and merge
 * ask of a set's runs. */
#include "io/store_sql.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/errorf.h"

static const char *const run_status_names[CR_RUN_STATUS_COUNT] = {"running", "done", "interrupted", "failed"};

const char *cr_store_run_status_name(cr_run_status status)
{
    return (unsigned)status < CR_RUN_STATUS_COUNT ? run_status_names[status] : "unknown";
}

int cr_store_run_new(int64_t *out_id, cr_store *store, int64_t set_id, const cr_solve_opts *opts,
                     const char *solver_version, const char *label, cr_error *err)
{
    char variants[CR_VARIANTS_TEXT_MAX];
    cr_variants_format(variants, opts->variants);
    sqlite3_stmt *st = NULL;
    int rc = cr_store__prepare(&st, store,
                               "INSERT INTO run (set_id, variants, algo, moves_policy, solver_version, label, status) "
                               "VALUES (?, ?, ?, ?, ?, ?, 'running')",
                               "starting a run", err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, set_id);
    sqlite3_bind_text(st, 2, variants, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, cr_algo_name(opts->algo), -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, cr_moves_name(opts->moves), -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 5, solver_version, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 6, label, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_DONE)
        *out_id = sqlite3_last_insert_rowid(store->db);
    else
        rc = cr_store__fail(store, "starting a run", err);
    sqlite3_finalize(st);
    return rc;
}

static const char *const pick_where[] = {
    [CR_PICK_ANY] = "1",
    [CR_PICK_DONE] = "status = 'done'",
    [CR_PICK_UNFINISHED] = "status <> 'done'",
};
static const char *const pick_words[] = {
    [CR_PICK_ANY] = "",
    [CR_PICK_DONE] = " finished",
    [CR_PICK_UNFINISHED] = " unfinished",
};

int cr_store_run_find(cr_run *out, cr_store *store, int64_t id, cr_run_pick pick, cr_error *err)
{
    /* the last column says whether the run matches pick */
    char sql[256];
    snprintf(sql, sizeof sql,
             "SELECT id, set_id, variants, algo, moves_policy, status, solver_version, %s, coalesce(tag, ''), "
             "coalesce(seconds, 0) FROM run "
             "WHERE %s ORDER BY id DESC LIMIT 1",
             pick_where[pick], id ? "id = ?" : pick_where[pick]);
    sqlite3_stmt *st = NULL;
    int rc = cr_store__prepare(&st, store, sql, "reading the runs", err);
    if (rc)
        return rc;
    if (id)
        sqlite3_bind_int64(st, 1, id);
    int step = sqlite3_step(st);
    if (step == SQLITE_ROW && sqlite3_column_int(st, 7)) {
        cr_error bad = {0};
        out->id = sqlite3_column_int64(st, 0);
        out->set_id = sqlite3_column_int64(st, 1);
        const char *status = (const char *)sqlite3_column_text(st, 5);
        out->status = CR_RUN_FAILED;
        for (int k = 0; k < CR_RUN_STATUS_COUNT; k++)
            if (strcmp(status, run_status_names[k]) == 0)
                out->status = (cr_run_status)k;
        snprintf(out->solver_version, sizeof out->solver_version, "%s", (const char *)sqlite3_column_text(st, 6));
        snprintf(out->tag, sizeof out->tag, "%s", (const char *)sqlite3_column_text(st, 8));
        out->seconds = sqlite3_column_double(st, 9);
        if (cr_variants_parse(&out->opts.variants, (const char *)sqlite3_column_text(st, 2), &bad) ||
            cr_algo_parse(&out->opts.algo, (const char *)sqlite3_column_text(st, 3), &bad) ||
            cr_moves_parse(&out->opts.moves, (const char *)sqlite3_column_text(st, 4), &bad))
            rc = cr_errorf(err, CR_EDB, "%s: run %lld: %s", store->path, (long long)out->id, bad.msg);
    } else if (step == SQLITE_ROW) {
        rc = cr_errorf(err, CR_EINVAL, "%s: run %lld is %s, not%s", store->path, (long long)id,
                       (const char *)sqlite3_column_text(st, 5), pick_words[pick]);
    } else if (step == SQLITE_DONE) {
        rc = id ? cr_errorf(err, CR_EINVAL, "%s has no run %lld", store->path, (long long)id)
                : cr_errorf(err, CR_EINVAL, "%s has no%s run", store->path, pick_words[pick]);
    } else {
        rc = cr_store__fail(store, "reading the runs", err);
    }
    sqlite3_finalize(st);
    return rc;
}

int cr_store_run_set_status(cr_store *store, int64_t run_id, cr_run_status status, const char *message,
                            cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = cr_store__prepare(&st, store,
                               "UPDATE run SET status = ?2, message = ?3, finished_at = CASE WHEN ?2 = 'running' "
                               "THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%SZ', 'now') END WHERE id = ?1",
                               "updating the run", err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, run_id);
    sqlite3_bind_text(st, 2, cr_store_run_status_name(status), -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, message, -1, SQLITE_STATIC);
    rc = cr_store__step_done(store, st, "updating the run", err);
    sqlite3_finalize(st);
    return rc;
}

int cr_store_run_add_seconds(cr_store *store, int64_t run_id, double seconds, cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = cr_store__prepare(&st, store, "UPDATE run SET seconds = coalesce(seconds, 0) + ?2 WHERE id = ?1",
                               "updating the run", err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, run_id);
    sqlite3_bind_double(st, 2, seconds);
    rc = cr_store__step_done(store, st, "updating the run", err);
    sqlite3_finalize(st);
    return rc;
}

int cr_store_run_set_tag(cr_store *store, int64_t run_id, const char *tag, cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = cr_store__prepare(&st, store, "UPDATE run SET tag = ?2 WHERE id = ?1", "updating the run", err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, run_id);
    sqlite3_bind_text(st, 2, tag, -1, SQLITE_STATIC);
    rc = cr_store__step_done(store, st, "updating the run", err);
    sqlite3_finalize(st);
    return rc;
}

int cr_store_run_solved(uint64_t *out, cr_store *store, int64_t run_id, cr_error *err)
{
    int64_t v = 0;
    int rc = cr_store__query_int(&v, store, "SELECT count(DISTINCT instance_id) FROM result WHERE run_id = ?", run_id,
                                 0, "counting results", err);
    *out = (uint64_t)v;
    return rc;
}

/* ---- questions about a set's runs ---- */

int cr_store_run_with_answers(cr_run *out, int *out_found, cr_store *store, int64_t set_id, cr_variant variant,
                              int canonical, cr_error *err)
{
    sqlite3_stmt *st = NULL;
    uint64_t size = 0;
    *out_found = 0;
    int rc = cr_store_set_size(&size, store, set_id, err);
    if (rc == 0)
        rc = cr_store__prepare(&st, store,
                               "SELECT id FROM run WHERE set_id = ?1 AND status = 'done' "
                               "AND instr(',' || variants || ',', ',' || ?2 || ',') > 0 "
                               "AND (?3 = 0 OR moves_policy = 'canonical') ORDER BY id DESC",
                               "reading the runs", err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, set_id);
    sqlite3_bind_text(st, 2, cr_variant_name(variant), -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 3, canonical);
    int step = SQLITE_DONE;
    /* a done run has solved every instance the set had when it ran */
    while (rc == 0 && !*out_found && (step = sqlite3_step(st)) == SQLITE_ROW) {
        uint64_t solved = 0;
        int64_t id = sqlite3_column_int64(st, 0);
        rc = cr_store_run_solved(&solved, store, id, err);
        if (rc == 0 && solved == size && (rc = cr_store_run_find(out, store, id, CR_PICK_DONE, err)) == 0)
            *out_found = 1;
    }
    if (rc == 0 && !*out_found && step != SQLITE_DONE)
        rc = cr_store__fail(store, "reading the runs", err);
    sqlite3_finalize(st);
    return rc;
}

int cr_store_run_unanswered(cr_store_unanswered *out, cr_store *store, int64_t run_id, cr_variant variant,
                            cr_error *err)
{
    sqlite3_stmt *st = NULL;
    memset(out, 0, sizeof *out);
    int rc = cr_store__prepare(&st, store,
                               "SELECT count(*), (SELECT group_concat(q, ', ') FROM (SELECT '''' || i.ext_id || '''' "
                               "AS q FROM result AS r JOIN instance AS i ON i.id = r.instance_id WHERE r.run_id = ?1 "
                               "AND r.variant = ?2 AND r.value IS NULL ORDER BY r.instance_id LIMIT 5)), "
                               "min(error) FROM result WHERE run_id = ?1 AND variant = ?2 AND value IS NULL",
                               "reading the results", err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, run_id);
    sqlite3_bind_text(st, 2, cr_variant_name(variant), -1, SQLITE_STATIC);
    if (sqlite3_step(st) != SQLITE_ROW) {
        rc = cr_store__fail(store, "reading the results", err);
    } else if ((out->count = (uint64_t)sqlite3_column_int64(st, 0)) > 0) {
        snprintf(out->first_ids, sizeof out->first_ids, "%s", (const char *)sqlite3_column_text(st, 1));
        snprintf(out->an_error, sizeof out->an_error, "%s", (const char *)sqlite3_column_text(st, 2));
    }
    sqlite3_finalize(st);
    return rc;
}

int cr_store_run_of_job(int64_t *out, cr_store *store, const char *tag, cr_error *err)
{
    sqlite3_stmt *st = NULL;
    *out = 0;
    int rc = cr_store__prepare(&st, store, "SELECT id FROM run WHERE tag = ? AND status = 'done' LIMIT 1",
                               "reading the runs", err);
    if (rc)
        return rc;
    sqlite3_bind_text(st, 1, tag, -1, SQLITE_STATIC);
    int step = sqlite3_step(st);
    if (step == SQLITE_ROW)
        *out = sqlite3_column_int64(st, 0);
    else if (step != SQLITE_DONE)
        rc = cr_store__fail(store, "reading the runs", err);
    sqlite3_finalize(st);
    return rc;
}

/* ---- results ---- */

int cr_store_add_results(size_t *out_added, cr_store *store, int64_t run_id, const cr_store_result *rows,
                         size_t count, cr_error *err)
{
    int rc = 0;
    size_t added = 0;
    for (size_t done = 0; rc == 0 && done < count;) {
        size_t k = count - done >= CR_STORE__CHUNK ? CR_STORE__CHUNK : 1;
        sqlite3_stmt *st = NULL;
        rc = cr_store__kept_insert(&st, store, CR_STORE__RESULTS_CHUNK,
                                   "result (run_id, instance_id, variant, value, first_score, second_score, winner, "
                                   "moves, error)",
                                   "(?,?,?,?,?,?,?,?,?)", k, err);
        if (rc)
            break;
        for (size_t i = 0; i < k; i++) {
            const cr_store_result *r = &rows[done + i];
            int p = (int)(9 * i);
            sqlite3_bind_int64(st, p + 1, run_id);
            sqlite3_bind_int64(st, p + 2, r->instance_id);
            sqlite3_bind_text(st, p + 3, cr_variant_name(r->variant), -1, SQLITE_STATIC);
            const int64_t figures[3] = {r->value, r->first_score, r->second_score};
            for (int f = 0; f < 3; f++) {
                if (r->missing & 1u << f)
                    sqlite3_bind_null(st, p + 4 + f);
                else
                    sqlite3_bind_int64(st, p + 4 + f, figures[f]);
            }
            if (r->missing & CR_FIGURE_WINNER)
                sqlite3_bind_null(st, p + 7);
            else
                sqlite3_bind_text(st, p + 7, cr_winner_name(r->winner), -1, SQLITE_STATIC);
            if (r->error)
                sqlite3_bind_text(st, p + 9, r->error, -1, SQLITE_STATIC);
            else
                sqlite3_bind_null(st, p + 9);
            if (r->moves)
                sqlite3_bind_text(st, p + 8, r->moves, (int)r->moves_len, SQLITE_STATIC);
            else
                sqlite3_bind_null(st, p + 8);
        }
        if ((rc = cr_store__step_done(store, st, "writing results", err)) == 0)
            added += (size_t)sqlite3_changes(store->db);
        done += k;
    }
    if (out_added)
        *out_added = added;
    return rc;
}


/* ---- reading results ---- */

struct cr_store_results {
    cr_store__pager pager;
    int64_t run_id, set_id;
    int64_t last_id;   /* the key of the last row read: instance id or ext_id, */
    char *last_ext_id; /* then variant */
    size_t last_cap;
    cr_variant last_variant;
    cr_stored_result row;
};

static void bind_results(void *ctx, sqlite3_stmt *st)
{
    cr_store_results *it = ctx;
    int started = it->last_ext_id != NULL;
    sqlite3_bind_int64(st, 1, it->run_id);
    sqlite3_bind_int64(st, 2, it->last_id);
    sqlite3_bind_text(st, 3, started ? cr_variant_name(it->last_variant) : "", -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 4, CR_STORE__PAGE);
    sqlite3_bind_int64(st, 5, it->set_id);
    /* a copy: last_ext_id changes with every row of the page */
    sqlite3_bind_text(st, 6, started ? it->last_ext_id : "", -1, SQLITE_TRANSIENT);
}

#define RESULT_COLUMNS                                                                                                 \
    "SELECT r.instance_id, i.ext_id, i.n, r.variant, r.value, r.first_score, r.second_score, r.winner, r.moves, "      \
    "r.error, i.coins "

static const char *const results_sql[] = {
    [CR_BY_INSTANCE] = RESULT_COLUMNS "FROM result AS r JOIN instance AS i ON i.id = r.instance_id "
                                      "WHERE r.run_id = ?1 AND (r.instance_id, r.variant) > (?2, ?3) "
                                      "ORDER BY r.instance_id, r.variant LIMIT ?4",
    /* the set's (set_id, ext_id) index gives the order; each instance's
     * results follow the result table's key */
    [CR_BY_EXT_ID] = RESULT_COLUMNS "FROM instance AS i JOIN result AS r ON r.run_id = ?1 AND r.instance_id = i.id "
                                    "WHERE i.set_id = ?5 AND i.ext_id >= ?6 AND (i.ext_id > ?6 OR r.variant > ?3) "
                                    "ORDER BY i.ext_id, r.variant LIMIT ?4",
};

int cr_store_results_new(cr_store_results **out, cr_store *store, int64_t run_id, cr_results_order order,
                         cr_error *err)
{
    *out = NULL;
    cr_store_results *it = calloc(1, sizeof *it);
    if (!it)
        return cr_errorf(err, CR_ENOMEM, "no memory to read results");
    it->run_id = run_id;
    int rc = cr_store__query_int(&it->set_id, store, "SELECT set_id FROM run WHERE id = ?", run_id, 0,
                                 "reading the run", err);
    if (rc == 0)
        rc = cr_store__pager_open(&it->pager, store, results_sql[order], "reading results", err);
    if (rc) {
        cr_store_results_free(it);
        return rc;
    }
    *out = it;
    return 0;
}

int cr_store_results_next(const cr_stored_result **out, cr_store_results *it, cr_error *err)
{
    int rc = cr_store__pager_step(&it->pager, bind_results, it, err);
    if (rc <= 0)
        return rc;
    sqlite3_stmt *st = it->pager.st;
    cr_stored_result *r = &it->row;
    cr_error ignored;
    memset(r, 0, sizeof *r);
    r->instance_id = it->last_id = sqlite3_column_int64(st, 0);
    r->ext_id = (const char *)sqlite3_column_text(st, 1);
    if ((rc = cr_store__keep_text(&it->last_ext_id, &it->last_cap, st, 1, err)) != 0)
        return rc;
    r->coins = (const char *)sqlite3_column_text(st, 10);
    r->n = (size_t)sqlite3_column_int64(st, 2);
    cr_variant_parse(&r->variant, (const char *)sqlite3_column_text(st, 3), &ignored);
    it->last_variant = r->variant;
    r->error = (const char *)sqlite3_column_text(st, 9);
    int64_t *figures[3] = {&r->value, &r->first_score, &r->second_score};
    for (int f = 0; f < 3; f++) {
        if (sqlite3_column_type(st, 4 + f) == SQLITE_NULL)
            r->missing |= 1u << f;
        else
            *figures[f] = sqlite3_column_int64(st, 4 + f);
    }
    const char *winner = (const char *)sqlite3_column_text(st, 7);
    if (!winner)
        r->missing |= CR_FIGURE_WINNER;
    else
        r->winner = strcmp(winner, "first") == 0 ? 1 : strcmp(winner, "second") == 0 ? -1 : 0;
    r->moves = (const char *)sqlite3_column_text(st, 8);
    *out = r;
    return 1;
}

void cr_store_results_free(cr_store_results *it)
{
    if (!it)
        return;
    sqlite3_finalize(it->pager.st);
    free(it->last_ext_id);
    free(it);
}


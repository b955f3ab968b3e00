/* Runs and their results: starting, finding and closing runs, adding
 * results, reading them back in pages, and the questions export and merge
 * ask of a set's runs. */
#include "store/sql.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

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

int cr_store__status_parse(cr_run_status *out, const char *name, cr_error *err)
{
    int k, rc = cr_name_parse(&k, run_status_names, CR_RUN_STATUS_COUNT, "status", name ? name : "", err);
    *out = rc == 0 ? (cr_run_status)k : CR_RUN_FAILED;
    return rc;
}

int cr_store__find_latest(sqlite3_stmt **out, cr_store *s, const char *table, const char *columns, int status_col,
                          int64_t id, cr_run_pick pick, cr_error *err)
{
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
    char doing[64];
    snprintf(doing, sizeof doing, "reading the %ss", table);
    /* the last column says whether the row matches pick */
    char *sql = sqlite3_mprintf("SELECT %s, %s FROM %s WHERE %s ORDER BY id DESC LIMIT 1", columns, pick_where[pick],
                                table, id ? "id = ?" : pick_where[pick]);
    *out = NULL;
    if (!sql)
        return cr_errorf(err, CR_ENOMEM, "no memory for a statement");
    int rc = cr_store__prepare(out, s, sql, doing, err);
    sqlite3_free(sql);
    if (rc)
        return rc;
    if (id)
        sqlite3_bind_int64(*out, 1, id);
    int step = sqlite3_step(*out), matches = sqlite3_column_count(*out) - 1;
    if (step == SQLITE_ROW && sqlite3_column_int(*out, matches))
        return 0;
    if (step == SQLITE_ROW)
        rc = cr_errorf(err, CR_EINVAL, "%s: %s %lld is %s, not%s", s->path, table, (long long)id,
                       (const char *)sqlite3_column_text(*out, status_col), pick_words[pick]);
    else if (step == SQLITE_DONE)
        rc = id ? cr_errorf(err, CR_EINVAL, "%s has no %s %lld", s->path, table, (long long)id)
                : cr_errorf(err, CR_EINVAL, "%s has no%s %s", s->path, pick_words[pick], table);
    else
        rc = cr_store__fail(s, doing, err);
    sqlite3_finalize(*out);
    *out = NULL;
    return rc;
}

int cr_store__set_status(cr_store *s, const char *table, int64_t id, cr_run_status status, const char *message,
                         double seconds, cr_error *err)
{
    char sql[320], doing[64];
    snprintf(sql, sizeof sql,
             "UPDATE %s SET status = ?2, message = ?3, finished_at = CASE WHEN ?2 = 'running' THEN NULL ELSE "
             "strftime('%%Y-%%m-%%dT%%H:%%M:%%SZ', 'now') END, seconds = CASE WHEN ?4 IS NULL THEN seconds ELSE "
             "coalesce(seconds, 0) + ?4 END WHERE id = ?1",
             table);
    snprintf(doing, sizeof doing, "updating the %s", table);
    sqlite3_stmt *st = NULL;
    int rc = cr_store__prepare(&st, s, sql, doing, err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_text(st, 2, cr_store_run_status_name(status), -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, message, -1, SQLITE_STATIC);
    if (seconds >= 0)
        sqlite3_bind_double(st, 4, seconds);
    rc = cr_store__step_done(s, st, doing, err);
    sqlite3_finalize(st);
    return rc;
}

int cr_store_run_find(cr_run *out, cr_store *store, int64_t id, cr_run_pick pick, cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = cr_store__find_latest(&st, store, "run",
                                   "id, set_id, variants, algo, moves_policy, status, solver_version, "
                                   "coalesce(tag, ''), coalesce(seconds, 0)",
                                   5, id, pick, err);
    if (rc)
        return rc;
    cr_error bad = {0};
    out->id = sqlite3_column_int64(st, 0);
    out->set_id = sqlite3_column_int64(st, 1);
    snprintf(out->solver_version, sizeof out->solver_version, "%s", (const char *)sqlite3_column_text(st, 6));
    snprintf(out->tag, sizeof out->tag, "%s", (const char *)sqlite3_column_text(st, 7));
    out->seconds = sqlite3_column_double(st, 8);
    if (cr_store__status_parse(&out->status, (const char *)sqlite3_column_text(st, 5), &bad) ||
        cr_variants_parse(&out->opts.variants, (const char *)sqlite3_column_text(st, 2), &bad) ||
        cr_algo_parse(&out->opts.algo, (const char *)sqlite3_column_text(st, 3), &bad) ||
        cr_moves_parse(&out->opts.moves, (const char *)sqlite3_column_text(st, 4), &bad))
        rc = cr_errorf(err, CR_EDB, "%s: run %lld: %s", store->path, (long long)out->id, bad.msg);
    sqlite3_finalize(st);
    return rc;
}

int cr_store_run_latest_unfinished(int64_t *out, cr_store *store, int64_t set_id, cr_error *err)
{
    return cr_store__query_int(out, store, "SELECT coalesce(max(id), 0) FROM run WHERE set_id = ? AND status <> 'done'",
                               set_id, 0, "reading the runs", err);
}

int cr_store_run_set_status(cr_store *store, int64_t run_id, cr_run_status status, const char *message,
                            cr_error *err)
{
    return cr_store__set_status(store, "run", run_id, status, message, -1, err);
}

int cr_store_run_finish(cr_store *store, int64_t run_id, cr_run_status status, const char *message, double seconds,
                        cr_error *err)
{
    return cr_store__set_status(store, "run", run_id, status, message, seconds, err);
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
    int rc = cr_store__query_int(&v, store, "SELECT count(*) FROM solution WHERE run_id = ?", run_id, 0,
                                 "counting results", err);
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

int cr_store_run_refuse_unanswered(cr_store *store, int64_t run_id, cr_variant variant, const char *set_name,
                                   const char *what, cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = cr_store__prepare(&st, store,
                               "SELECT count(*), (SELECT group_concat(q, ', ') FROM (SELECT '''' || i.ext_id || '''' "
                               "AS q FROM result_extra AS r JOIN instance AS i ON i.id = r.instance_id WHERE "
                               "r.run_id = ?1 AND r.variant = ?2 AND r.value IS NULL ORDER BY r.instance_id "
                               "LIMIT 5)), min(error) FROM result_extra WHERE run_id = ?1 AND variant = ?2 AND "
                               "value IS NULL",
                               "reading the results", err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, run_id);
    sqlite3_bind_text(st, 2, cr_variant_name(variant), -1, SQLITE_STATIC);
    uint64_t count;
    if (sqlite3_step(st) != SQLITE_ROW)
        rc = cr_store__fail(store, "reading the results", err);
    else if ((count = (uint64_t)sqlite3_column_int64(st, 0)) > 0)
        rc = cr_errorf(err, CR_EINVAL, "set '%s': %llu instance%s no %s answer in run %lld, so %s cannot be %s: "
                                       "%s%s (%s)",
                       set_name, (unsigned long long)count, count == 1 ? " has" : "s have", cr_variant_name(variant),
                       (long long)run_id, count == 1 ? "it" : "they", what, (const char *)sqlite3_column_text(st, 1),
                       count > 5 ? ", ..." : "", (const char *)sqlite3_column_text(st, 2));
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

/* ---- results: one solution row per instance, result_extra for the rest ---- */

/* The two games behind the variants (schema/004_results.sql, 007_lines_as_text.sql,
 * 008_copies_in_solution.sql). */
enum { STANDARD, REMAINING, GAMES };

static int game_of(cr_variant v) { return v == CR_REMAINING ? REMAINING : STANDARD; }

static int lead_sign(int64_t first_score, int64_t second_score)
{
    return (first_score > second_score) - (first_score < second_score);
}

static int same_line(const cr_store_result *a, const cr_store_result *b)
{
    if (a->moves == b->moves || !a->moves || !b->moves) /* one game's rows often share a line */
        return a->moves == b->moves && a->moves_len == b->moves_len;
    return a->moves_len == b->moves_len && memcmp(a->moves, b->moves, a->moves_len) == 0;
}

/* Whether the solution row, keeping the scores and line of g (its game's
 * first row without an error), gives r exactly as it is. */
static int solution_gives(const cr_store_result *g, const cr_store_result *r)
{
    if (r->error || r->missing || r->first_score != g->first_score || r->second_score != g->second_score ||
        !same_line(r, g) || r->winner != lead_sign(r->first_score, r->second_score))
        return 0;
    int64_t value;
    if (r->variant == CR_TOTAL)
        value = r->first_score;
    else if (r->variant == CR_WINNER)
        value = r->winner;
    else if (__builtin_sub_overflow(r->first_score, r->second_score, &value))
        return 0;
    return r->value == value;
}

/* An instance's rows, as its solution row keeps them. */
typedef struct gathered {
    int64_t instance_id;
    unsigned variants, extra;           /* CR_VARIANT_BIT()s: solved, and kept in result_extra */
    const cr_store_result *game[GAMES]; /* where each game's scores and line come from (NULL: none) */
    const cr_store_result *rows;        /* the instance's rows */
    size_t count;
} gathered;

/* Gathers the rows at the start of rows[0..count) that are of one instance;
 * returns how many. */
static size_t gather(gathered *out, const cr_store_result *rows, size_t count)
{
    *out = (gathered){.instance_id = rows[0].instance_id, .rows = rows};
    size_t k = 0;
    for (; k < count && rows[k].instance_id == out->instance_id; k++) {
        const cr_store_result *r = &rows[k];
        const cr_store_result **g = &out->game[game_of(r->variant)];
        if (!*g && !r->error && !r->missing)
            *g = r;
        out->variants |= CR_VARIANT_BIT(r->variant);
        if (!*g || !solution_gives(*g, r))
            out->extra |= CR_VARIANT_BIT(r->variant);
    }
    out->count = k;
    return k;
}

/* Binds one game's scores and line. */
static void bind_game(sqlite3_stmt *st, int p, const cr_store_result *g)
{
    if (!g) {
        for (int c = 0; c < 3; c++)
            sqlite3_bind_null(st, p + c);
        return;
    }
    sqlite3_bind_int64(st, p, g->first_score);
    sqlite3_bind_int64(st, p + 1, g->second_score);
    if (g->moves)
        sqlite3_bind_text64(st, p + 2, g->moves, (sqlite3_uint64)g->moves_len, SQLITE_STATIC, SQLITE_UTF8);
    else
        sqlite3_bind_null(st, p + 2);
}

/* The winners of an instance's rows as solution.outcome keeps them: two
 * bits per variant (schema/008_copies_in_solution.sql). */
static int64_t outcome_of(const gathered *s)
{
    int64_t outcome = 0;
    for (size_t i = 0; i < s->count; i++) {
        const cr_store_result *r = &s->rows[i];
        int code = r->missing & CR_FIGURE_WINNER ? 0 : r->winner > 0 ? 1 : r->winner < 0 ? 2 : 3;
        outcome |= (int64_t)code << (2 * r->variant);
    }
    return outcome;
}

#define SOLUTION_COLUMNS 11

/* Adds the solution rows of rows[0..count) (CR_STORE__CHUNK or 1 of them),
 * with the copies of their instance's set, ext_id and n read from it; how
 * many were new is added to *added.  CROSS JOIN keeps the VALUES the outer
 * loop, read as a co-routine: with JOIN, SQLite first copied them into a
 * temporary table (MATERIALIZE in the plan), a tenth of a run's CPU. */
static int add_solutions(size_t *added, cr_store *store, int64_t run_id, const gathered *rows, size_t count,
                         cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = cr_store__kept_insert(&st, store, CR_STORE__SOLUTIONS_CHUNK,
                                   "solution (run_id, instance_id, set_id, ext_id, n, variants, extra, outcome, "
                                   "first_score, second_score, moves, remaining_first_score, remaining_second_score, "
                                   "remaining_moves) SELECT v.column1, v.column2, i.set_id, i.ext_id, i.n, v.column3, "
                                   "v.column4, v.column5, v.column6, v.column7, v.column8, v.column9, v.column10, "
                                   "v.column11 FROM (",
                                   "(?,?,?,?,?,?,?,?,?,?,?)", count,
                                   ") AS v CROSS JOIN instance AS i ON i.id = v.column2", err);
    if (rc)
        return rc;
    for (size_t i = 0; i < count; i++) {
        const gathered *s = &rows[i];
        int p = (int)(SOLUTION_COLUMNS * i);
        sqlite3_bind_int64(st, p + 1, run_id);
        sqlite3_bind_int64(st, p + 2, s->instance_id);
        sqlite3_bind_int(st, p + 3, (int)s->variants);
        sqlite3_bind_int(st, p + 4, (int)s->extra);
        sqlite3_bind_int64(st, p + 5, outcome_of(s));
        bind_game(st, p + 6, s->game[STANDARD]);
        bind_game(st, p + 9, s->game[REMAINING]);
    }
    if ((rc = cr_store__step_done(store, st, "writing results", err)) == 0)
        *added += (size_t)sqlite3_changes(store->db);
    return rc;
}

/* Adds result_extra's row for r. */
static int add_extra(cr_store *store, int64_t run_id, const cr_store_result *r, cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = cr_store__kept(&st, store, CR_STORE__RESULT_EXTRA,
                            "INSERT OR IGNORE INTO result_extra (run_id, instance_id, variant, value, first_score, "
                            "second_score, winner, moves, error) VALUES (?,?,?,?,?,?,?,?,?)",
                            err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, run_id);
    sqlite3_bind_int64(st, 2, r->instance_id);
    sqlite3_bind_text(st, 3, cr_variant_name(r->variant), -1, SQLITE_STATIC);
    const int64_t figures[3] = {r->value, r->first_score, r->second_score};
    for (int f = 0; f < 3; f++) {
        if (r->missing & 1u << f)
            sqlite3_bind_null(st, 4 + f);
        else
            sqlite3_bind_int64(st, 4 + f, figures[f]);
    }
    if (r->missing & CR_FIGURE_WINNER)
        sqlite3_bind_null(st, 7);
    else
        sqlite3_bind_text(st, 7, cr_winner_name(r->winner), -1, SQLITE_STATIC);
    if (r->moves)
        sqlite3_bind_text64(st, 8, r->moves, (sqlite3_uint64)r->moves_len, SQLITE_STATIC, SQLITE_UTF8);
    else
        sqlite3_bind_null(st, 8);
    sqlite3_bind_text(st, 9, r->error, -1, SQLITE_STATIC);
    return cr_store__step_done(store, st, "writing results", err);
}

int cr_store_add_results(size_t *out_added, cr_store *store, int64_t run_id, const cr_store_result *rows,
                         size_t count, cr_error *err)
{
    gathered chunk[CR_STORE__CHUNK];
    size_t in_chunk = 0, added = 0;
    int rc = 0;
    for (size_t done = 0; rc == 0 && done < count;) {
        gathered *s = &chunk[in_chunk];
        done += gather(s, rows + done, count - done);
        if (!s->extra) {
            if (++in_chunk == CR_STORE__CHUNK) {
                rc = add_solutions(&added, store, run_id, chunk, in_chunk, err);
                in_chunk = 0;
            }
            continue;
        }
        /* rare: alone, so that its extra rows go in only with a new solution row */
        size_t before = added;
        rc = add_solutions(&added, store, run_id, s, 1, err);
        for (size_t i = 0; rc == 0 && added > before && i < s->count; i++)
            if (s->extra & CR_VARIANT_BIT(s->rows[i].variant))
                rc = add_extra(store, run_id, &s->rows[i], err);
    }
    for (size_t i = 0; rc == 0 && i < in_chunk; i++)
        rc = add_solutions(&added, store, run_id, &chunk[i], 1, err);
    if (out_added)
        *out_added = added;
    return rc;
}

/* ---- reading results ---- */

/* The variants in the order of their names (strcmp's), the order results
 * are read in. */
static const cr_variant by_name[CR_VARIANT_COUNT] = {CR_DIFF, CR_REMAINING, CR_TOTAL, CR_WINNER};

struct cr_store_results {
    cr_store__pager pager;
    int64_t run_id, set_id;
    int64_t last_id;   /* the key of the last solution row read: instance id */
    char *last_ext_id; /* or ext_id */
    size_t last_cap;
    int at_row;        /* a solution row is at hand ... */
    int next;          /* ... and by_name[next] is the next variant to look at */
    unsigned variants, extra;
    const char *line[GAMES]; /* its lines, the row's own text (NULL: none) */
    sqlite3_stmt *extra_st; /* a row of result_extra */
    cr_stored_result row;
    const cr_stored_result *at; /* where cr_store_results_seek stopped */
    int ended;
};

static void bind_results(void *ctx, sqlite3_stmt *st)
{
    cr_store_results *it = ctx;
    sqlite3_bind_int64(st, 1, it->run_id);
    sqlite3_bind_int64(st, 2, it->last_id);
    sqlite3_bind_int(st, 3, CR_STORE__PAGE);
    sqlite3_bind_int64(st, 4, it->set_id);
    /* a copy: last_ext_id changes with every row of the page */
    sqlite3_bind_text(st, 5, it->last_ext_id ? it->last_ext_id : "", -1, SQLITE_TRANSIENT);
}

#define SOLUTION_READ                                                                                                  \
    "SELECT s.instance_id, i.ext_id, i.n, i.coins, s.variants, s.extra, s.first_score, s.second_score, s.moves, "     \
    "s.remaining_first_score, s.remaining_second_score, s.remaining_moves "
enum { COL_ID, COL_EXT_ID, COL_N, COL_COINS, COL_VARIANTS, COL_EXTRA, COL_GAMES };

static const char *const results_sql[] = {
    [CR_BY_INSTANCE] = SOLUTION_READ "FROM solution AS s JOIN instance AS i ON i.id = s.instance_id "
                                     "WHERE s.run_id = ?1 AND s.instance_id > ?2 ORDER BY s.instance_id LIMIT ?3",
    /* the set's (set_id, ext_id) index gives the order (ext_id is never empty) */
    [CR_BY_EXT_ID] = SOLUTION_READ "FROM instance AS i JOIN solution AS s ON s.run_id = ?1 AND s.instance_id = i.id "
                                   "WHERE i.set_id = ?4 AND i.ext_id > ?5 ORDER BY i.ext_id LIMIT ?3",
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
    if (rc == 0)
        rc = cr_store__prepare(&it->extra_st, store,
                               "SELECT value, first_score, second_score, winner, moves, error FROM result_extra "
                               "WHERE run_id = ? AND instance_id = ? AND variant = ?",
                               "reading results", err);
    if (rc) {
        cr_store_results_free(it);
        return rc;
    }
    *out = it;
    return 0;
}

/* Game g's line of the solution row at hand into it->line[g]: the text
 * SQLite holds, valid until the next step.  When a variant of the row that
 * is not kept whole in result_extra reads the game, its scores must be
 * integers: NULL (a file changed outside coinrow) would read as 0 and show
 * a wrong answer.  Checked once a row, not once a result. */
static int read_line(cr_store_results *it, int g, cr_error *err)
{
    sqlite3_stmt *st = it->pager.st;
    int col = COL_GAMES + 3 * g + 2;
    for (int k = 0; k < CR_VARIANT_COUNT; k++) {
        cr_variant v = by_name[k];
        if (!(it->variants & ~it->extra & CR_VARIANT_BIT(v)) || game_of(v) != g)
            continue;
        if (sqlite3_column_type(st, col - 2) != SQLITE_INTEGER || sqlite3_column_type(st, col - 1) != SQLITE_INTEGER)
            return cr_errorf(err, CR_EINVAL, "%s: run %lld, instance %lld: the %s result's scores are missing or "
                                             "not whole numbers: the file was changed outside coinrow (coinrow "
                                             "check-db --db %s)",
                             cr_store_path(it->pager.store), (long long)it->run_id, (long long)it->last_id,
                             cr_variant_name(v), cr_store_path(it->pager.store));
        break;
    }
    const char *line = (const char *)sqlite3_column_text(st, col);
    it->line[g] = line;
    if (!line && sqlite3_column_type(st, col) != SQLITE_NULL)
        return cr_errorf(err, CR_ENOMEM, "no memory to read a line of play");
    if (line && line[strspn(line, "LR")] != '\0')
        return cr_errorf(err, CR_EDB, "%s: run %lld, instance %lld: a line of play holds a letter other than L and R",
                         cr_store_path(it->pager.store), (long long)it->run_id, (long long)it->last_id);
    return 0;
}

/* Steps to the next solution row; 1, 0 at the end, or an error. */
static int next_solution(cr_store_results *it, cr_error *err)
{
    int rc = cr_store__pager_step(&it->pager, bind_results, it, err);
    if (rc <= 0)
        return rc;
    sqlite3_stmt *st = it->pager.st;
    it->last_id = sqlite3_column_int64(st, COL_ID);
    if ((rc = cr_store__keep_ext_id(&it->last_ext_id, &it->last_cap, it->pager.store, st, COL_EXT_ID, it->last_id,
                                    err)) != 0)
        return rc;
    it->variants = (unsigned)sqlite3_column_int(st, COL_VARIANTS);
    it->extra = (unsigned)sqlite3_column_int(st, COL_EXTRA);
    for (int g = 0; rc == 0 && g < GAMES; g++)
        rc = read_line(it, g, err);
    it->at_row = 1;
    it->next = 0;
    return rc ? rc : 1;
}

/* r's figures from result_extra's row. */
static int read_extra(cr_store_results *it, cr_stored_result *r, cr_error *err)
{
    sqlite3_stmt *st = it->extra_st;
    sqlite3_reset(st);
    sqlite3_bind_int64(st, 1, it->run_id);
    sqlite3_bind_int64(st, 2, r->instance_id);
    sqlite3_bind_text(st, 3, cr_variant_name(r->variant), -1, SQLITE_STATIC);
    int step = sqlite3_step(st);
    if (step == SQLITE_DONE)
        return cr_errorf(err, CR_EDB, "%s: run %lld, instance %lld: the %s result is missing from result_extra",
                         cr_store_path(it->pager.store), (long long)it->run_id, (long long)r->instance_id,
                         cr_variant_name(r->variant));
    if (step != SQLITE_ROW)
        return cr_store__fail(it->pager.store, "reading results", err);
    r->error = (const char *)sqlite3_column_text(st, 5);
    int64_t *figures[3] = {&r->value, &r->first_score, &r->second_score};
    for (int f = 0; f < 3; f++) {
        if (sqlite3_column_type(st, f) == SQLITE_NULL)
            r->missing |= 1u << f;
        else
            *figures[f] = sqlite3_column_int64(st, f);
    }
    const char *winner = (const char *)sqlite3_column_text(st, 3);
    if (!winner) {
        r->missing |= CR_FIGURE_WINNER;
    } else if (strcmp(winner, "first") == 0 || strcmp(winner, "second") == 0 || strcmp(winner, "draw") == 0) {
        r->winner = winner[0] == 'f' ? 1 : winner[0] == 's' ? -1 : 0;
    } else { /* written by hand: it read as a draw */
        char shown[CR_TEXT_SHOWN_CAP(24)];
        return cr_errorf(err, CR_EDB, "%s: run %lld, instance %lld: the %s result's winner is '%s', not first, "
                                      "second or draw (coinrow check-db finds such rows)",
                         cr_store_path(it->pager.store), (long long)it->run_id, (long long)r->instance_id,
                         cr_variant_name(r->variant), cr_text_shown(shown, sizeof shown, winner));
    }
    r->moves = (const char *)sqlite3_column_text(st, 4);
    return 0;
}

/* r's figures as the solution row gives them (read_line checked them). */
static void read_solution(const cr_store_results *it, cr_stored_result *r)
{
    sqlite3_stmt *st = it->pager.st;
    int g = game_of(r->variant), col = COL_GAMES + 3 * g;
    r->first_score = sqlite3_column_int64(st, col);
    r->second_score = sqlite3_column_int64(st, col + 1);
    r->winner = lead_sign(r->first_score, r->second_score);
    if (r->variant == CR_TOTAL)
        r->value = r->first_score;
    else if (r->variant == CR_WINNER)
        r->value = r->winner;
    else /* written only when it fits */
        (void)__builtin_sub_overflow(r->first_score, r->second_score, &r->value);
    r->moves = it->line[g];
}

int cr_store_results_next(const cr_stored_result **out, cr_store_results *it, cr_error *err)
{
    for (;;) {
        if (!it->at_row) {
            int rc = next_solution(it, err);
            if (rc <= 0)
                return rc;
        }
        while (it->next < CR_VARIANT_COUNT) {
            cr_variant v = by_name[it->next++];
            if (!(it->variants & CR_VARIANT_BIT(v)))
                continue;
            sqlite3_stmt *st = it->pager.st;
            cr_stored_result *r = &it->row;
            *r = (cr_stored_result){
                .instance_id = it->last_id,
                .ext_id = it->last_ext_id,
                .coins = (const char *)sqlite3_column_text(st, COL_COINS),
                .n = (size_t)sqlite3_column_int64(st, COL_N),
                .variant = v,
            };
            if (it->extra & CR_VARIANT_BIT(v)) {
                int rc = read_extra(it, r, err);
                if (rc)
                    return rc;
            } else {
                read_solution(it, r);
            }
            *out = r;
            return 1;
        }
        it->at_row = 0;
    }
}

int cr_store_results_seek(const cr_stored_result **out, cr_store_results *it, int64_t instance_id,
                          cr_variant variant, cr_error *err)
{
    const cr_stored_result *r = it->ended ? NULL : it->at;
    while (!it->ended && (!r || r->instance_id < instance_id || (r->instance_id == instance_id && r->variant != variant))) {
        int rc = cr_store_results_next(&r, it, err);
        if (rc < 0)
            return rc;
        it->ended = rc == 0;
    }
    it->at = it->ended ? NULL : r;
    *out = it->at;
    return it->at && it->at->instance_id == instance_id && it->at->variant == variant;
}

void cr_store_results_free(cr_store_results *it)
{
    if (!it)
        return;
    sqlite3_finalize(it->pager.st);
    sqlite3_finalize(it->extra_st);
    free(it->last_ext_id);
    free(it);
}

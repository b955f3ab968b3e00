/* Invocations (schema/005_invoke.sql): programs and built-in strategies
 * judged against a set, their verdicts, and the questions invoke, compare
 * and export ask of them. */
#include "store/sql.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* The moves_policy of an interactive invocation: the line is played, not
 * written after a value (a coinrow before --interactive refuses it as
 * damaged rather than judge it as a batch one). */
#define CR_STORE__INTERACTIVE "interactive"

static const char *const verdict_names[CR_INVOKE_VERDICT_COUNT] = {"AC", "WA", "PE", "TLE", "MLE", "RE", "OLE"};

const char *cr_invoke_verdict_name(cr_invoke_verdict v)
{
    return (unsigned)v < CR_INVOKE_VERDICT_COUNT ? verdict_names[v] : NULL;
}

int cr_invoke_verdict_parse(cr_invoke_verdict *out, const char *name, cr_error *err)
{
    int k, rc = cr_name_parse(&k, verdict_names, CR_INVOKE_VERDICT_COUNT, "verdict", name, err);
    if (rc == 0)
        *out = (cr_invoke_verdict)k;
    return rc;
}

void cr_invocation_clear(cr_invocation *inv)
{
    if (inv->argv)
        for (char **a = inv->argv; *a; a++)
            free(*a);
    free(inv->argv);
    inv->argv = NULL;
}

/* The command as a JSON array, one argument at a time (json_insert quotes
 * them), in the open transaction. */
static int store_command(cr_store *store, int64_t id, char *const *argv, cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = cr_store__prepare(&st, store, "UPDATE invocation SET command = json_insert(command, '$[#]', ?2) "
                                           "WHERE id = ?1",
                               "recording the command", err);
    for (; rc == 0 && *argv; argv++) {
        sqlite3_bind_int64(st, 1, id);
        sqlite3_bind_text(st, 2, *argv, -1, SQLITE_STATIC);
        rc = cr_store__step_done(store, st, "recording the command", err);
    }
    sqlite3_finalize(st);
    return rc;
}

int cr_store_invocation_new(cr_invocation *inv, cr_store *store, const char *coinrow_version, cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = cr_store_begin(store, err);
    if (rc == 0)
        rc = cr_store__prepare(&st, store,
                               "INSERT INTO invocation (set_id, variant, command, builtin, directory, label, "
                               "moves_policy, time_limit, memory_limit, output_limit, jobs, answers_run, "
                               "coinrow_version, status, sandbox) VALUES (?1, ?2, CASE WHEN ?3 THEN '[]' END, ?4, ?5, "
                               "?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, 'running', ?14)",
                               "starting an invocation", err);
    if (rc == 0) {
        int program = inv->argv != NULL;
        sqlite3_bind_int64(st, 1, inv->set_id);
        sqlite3_bind_text(st, 2, cr_variant_name(inv->variant), -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 3, program);
        sqlite3_bind_text(st, 4, program ? NULL : cr_strategy_name(inv->strategy), -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 5, program ? inv->directory : NULL, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 6, inv->label[0] ? inv->label : NULL, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 7, inv->interactive ? CR_STORE__INTERACTIVE : cr_check_moves_name(inv->moves), -1,
                          SQLITE_STATIC);
        if (program) {
            sqlite3_bind_double(st, 8, inv->limits.cpu_seconds);
            sqlite3_bind_int64(st, 9, (int64_t)(inv->limits.memory_bytes >> 20));
            sqlite3_bind_int64(st, 10, (int64_t)(inv->limits.output_bytes >> 20));
        }
        sqlite3_bind_int(st, 11, inv->jobs);
        sqlite3_bind_int64(st, 12, inv->answers_run);
        sqlite3_bind_text(st, 13, coinrow_version, -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 14, program && inv->sandbox);
        if (sqlite3_step(st) == SQLITE_DONE)
            inv->id = sqlite3_last_insert_rowid(store->db);
        else
            rc = cr_store__fail(store, "starting an invocation", err);
    }
    sqlite3_finalize(st);
    if (rc == 0 && inv->argv)
        rc = store_command(store, inv->id, inv->argv, err);
    if (rc == 0)
        rc = cr_store_commit(store, err);
    else
        cr_store_rollback(store);
    inv->status = CR_RUN_RUNNING;
    return rc;
}

/* inv->argv from the stored JSON array, each of its words a string
 * without a NUL (a command's arguments can be nothing else). */
static int load_command(cr_invocation *inv, cr_store *store, cr_error *err)
{
    int64_t count = 0;
    int rc = cr_store__query_int(&count, store, "SELECT json_array_length(command) FROM invocation WHERE id = ?",
                                 inv->id, 0, "reading the invocation", err);
    sqlite3_stmt *st = NULL;
    if (rc == 0 && count < 1)
        return cr_errorf(err, CR_EDB, "%s: invocation %lld has an empty command", store->path, (long long)inv->id);
    if (rc == 0 && !(inv->argv = calloc((size_t)count + 1, sizeof *inv->argv)))
        return cr_errorf(err, CR_ENOMEM, "no memory for a command");
    if (rc == 0)
        rc = cr_store__prepare(&st, store,
                               "SELECT j.value, j.type = 'text' FROM invocation AS u, json_each(u.command) AS j "
                               "WHERE u.id = ? ORDER BY j.key",
                               "reading the invocation", err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, inv->id);
    for (int64_t k = 0; rc == 0 && k < count; k++) {
        const char *word;
        if (sqlite3_step(st) != SQLITE_ROW)
            rc = cr_store__fail(store, "reading the invocation", err);
        else if (!sqlite3_column_int(st, 1) || !(word = (const char *)sqlite3_column_text(st, 0)) ||
                 strlen(word) != (size_t)sqlite3_column_bytes(st, 0))
            rc = cr_errorf(err, CR_EDB, "%s: invocation %lld: word %lld of its command is not a string of text",
                           store->path, (long long)inv->id, (long long)k + 1);
        else if (!(inv->argv[k] = strdup(word)))
            rc = cr_errorf(err, CR_ENOMEM, "no memory for a command");
    }
    sqlite3_finalize(st);
    return rc;
}

/* What the row at st (from find's SELECT) says, bar the command. */
static int read_invocation(cr_invocation *out, cr_store *store, sqlite3_stmt *st, cr_error *err)
{
    cr_error bad = {0};
    out->id = sqlite3_column_int64(st, 0);
    out->set_id = sqlite3_column_int64(st, 1);
    const char *builtin = (const char *)sqlite3_column_text(st, 3);
    snprintf(out->directory, sizeof out->directory, "%s", (const char *)sqlite3_column_text(st, 4));
    snprintf(out->label, sizeof out->label, "%s", (const char *)sqlite3_column_text(st, 5));
    out->limits.cpu_seconds = sqlite3_column_double(st, 7);
    out->limits.memory_bytes = (uint64_t)sqlite3_column_int64(st, 8) << 20;
    out->limits.output_bytes = (uint64_t)sqlite3_column_int64(st, 9) << 20;
    out->jobs = sqlite3_column_int(st, 10);
    out->answers_run = sqlite3_column_int64(st, 11);
    snprintf(out->coinrow_version, sizeof out->coinrow_version, "%s", (const char *)sqlite3_column_text(st, 12));
    out->sandbox = sqlite3_column_int(st, 14);
    out->started = sqlite3_column_int64(st, 15);
    const char *moves = (const char *)sqlite3_column_text(st, 6);
    out->interactive = moves && strcmp(moves, CR_STORE__INTERACTIVE) == 0;
    if (cr_store__status_parse(&out->status, (const char *)sqlite3_column_text(st, 13), &bad) ||
        cr_variant_parse(&out->variant, (const char *)sqlite3_column_text(st, 2), &bad) ||
        (!out->interactive && cr_check_moves_parse(&out->moves, moves, &bad)) ||
        (builtin && cr_strategy_parse(&out->strategy, builtin, &bad)))
        return cr_errorf(err, CR_EDB, "%s: invocation %lld: %s", store->path, (long long)out->id, bad.msg);
    /* the limits invoke's options allow, and no more: an edited row does
     * not get to run a program a million times at once or without bounds */
    int64_t memory = sqlite3_column_int64(st, 8), output = sqlite3_column_int64(st, 9);
    const char *beyond = out->jobs < 1 || out->jobs > CR_INVOCATION_JOBS_MAX ? "jobs"
                         : builtin                                         ? NULL
                         : !(out->limits.cpu_seconds > 0 && out->limits.cpu_seconds <= CR_INVOCATION_SECONDS_MAX)
                             ? "time_limit"
                         : memory < 1 || memory > CR_INVOCATION_MEMORY_MIB_MAX ? "memory_limit"
                         : output < 1 || output > CR_INVOCATION_OUTPUT_MIB_MAX ? "output_limit"
                                                                               : NULL;
    if (beyond)
        return cr_errorf(err, CR_EDB, "%s: invocation %lld: its %s is beyond what invoke allows", store->path,
                         (long long)out->id, beyond);
    return 0;
}

/* Times that are no number of seconds from 0 to 1e9, in invocation id's
 * row or its verdicts', are refused: the reports and summaries draw and
 * add them (a time of -1e308 was drawn at y = inf). */
static int refuse_broken_times(cr_store *store, int64_t id, cr_error *err)
{
    int64_t instance = 0, sums = 0;
    int rc = cr_store__query_int(&instance, store,
                                 "SELECT coalesce(min(instance_id), 0) FROM verdict AS v WHERE invocation_id = ? AND "
                                 CR_STORE__TIMES_BROKEN("v"),
                                 id, 0, "reading the verdicts", err);
    if (rc == 0 && !instance)
        rc = cr_store__query_int(&sums, store,
                                 "SELECT count(*) FROM invocation AS v WHERE id = ? AND " CR_STORE__TIMES_BROKEN("v"),
                                 id, 0, "reading the invocation", err);
    if (rc || (!instance && !sums))
        return rc;
    char what[64] = "its row";
    if (instance)
        snprintf(what, sizeof what, "the verdict of instance %lld", (long long)instance);
    return cr_errorf(err, CR_EDB, "%s: invocation %lld: %s holds a time that is no number of seconds from 0 to 1e9, "
                                  "which coinrow does not write: a row edited by hand (coinrow check-db lists them)",
                     store->path, (long long)id, what);
}

int cr_store_invocation_find(cr_invocation *out, cr_store *store, int64_t id, cr_run_pick pick, cr_error *err)
{
    memset(out, 0, sizeof *out);
    sqlite3_stmt *st = NULL;
    int rc = cr_store__find_latest(&st, store, "invocation",
                                   "id, set_id, variant, builtin, coalesce(directory, ''), coalesce(label, ''), "
                                   "moves_policy, coalesce(time_limit, 0), coalesce(memory_limit, 0), "
                                   "coalesce(output_limit, 0), jobs, answers_run, coinrow_version, status, sandbox, "
                                   "coalesce(CAST(strftime('%s', started_at) AS INTEGER), 0)",
                                   13, id, pick, err);
    if (rc)
        return rc;
    int program = sqlite3_column_type(st, 3) == SQLITE_NULL;
    rc = read_invocation(out, store, st, err);
    sqlite3_finalize(st);
    if (rc == 0)
        rc = refuse_broken_times(store, out->id, err);
    if (rc == 0 && program)
        rc = load_command(out, store, err);
    if (rc)
        cr_invocation_clear(out);
    return rc;
}

int cr_store_invocation_set_status(cr_store *store, int64_t id, cr_run_status status, const char *message,
                                   cr_error *err)
{
    return cr_store__set_status(store, "invocation", id, status, message, -1, err);
}

int cr_store_invocation_finish(cr_store *store, int64_t id, cr_run_status status, const char *message, double seconds,
                               cr_error *err)
{
    return cr_store__set_status(store, "invocation", id, status, message, seconds, err);
}

int cr_store_invocation_sandbox_on(cr_store *store, int64_t id, cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = cr_store__prepare(&st, store, "UPDATE invocation SET sandbox = 1 WHERE id = ?", "recording the sandbox",
                               err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, id);
    rc = cr_store__step_done(store, st, "recording the sandbox", err);
    sqlite3_finalize(st);
    return rc;
}

int cr_store_add_verdicts(cr_store *store, int64_t id, const cr_verdict_row *rows, size_t count, cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = cr_store__prepare(&st, store,
                               "INSERT OR IGNORE INTO verdict (invocation_id, instance_id, verdict, cpu_seconds, "
                               "wall_seconds, peak_rss_kib, exit_code, signal, message, stderr) "
                               "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                               "writing verdicts", err);
    double cpu = 0, wall = 0;
    int64_t peak = -1, floor = -1;
    for (size_t k = 0; rc == 0 && k < count; k++) {
        const cr_verdict_row *r = &rows[k];
        sqlite3_bind_int64(st, 1, id);
        sqlite3_bind_int64(st, 2, r->instance_id);
        sqlite3_bind_text(st, 3, cr_invoke_verdict_name(r->verdict), -1, SQLITE_STATIC);
        sqlite3_bind_double(st, 4, r->cpu_seconds);
        sqlite3_bind_double(st, 5, r->wall_seconds);
        if (r->peak_rss_kib >= 0)
            sqlite3_bind_int64(st, 6, r->peak_rss_kib);
        else
            sqlite3_bind_null(st, 6);
        if (r->exit_code >= 0)
            sqlite3_bind_int(st, 7, r->exit_code);
        else
            sqlite3_bind_null(st, 7);
        sqlite3_bind_text(st, 8, r->signal[0] ? r->signal : NULL, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 9, r->message, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 10, r->stderr_text[0] ? r->stderr_text : NULL, -1, SQLITE_STATIC);
        rc = cr_store__step_done(store, st, "writing verdicts", err);
        cpu += r->cpu_seconds;
        wall += r->wall_seconds;
        peak = r->peak_rss_kib > peak ? r->peak_rss_kib : peak;
        floor = r->floor_kib > floor ? r->floor_kib : floor;
    }
    sqlite3_finalize(st);
    if (rc == 0)
        rc = cr_store__prepare(&st, store,
                               "UPDATE invocation SET cpu_seconds = cpu_seconds + ?2, wall_seconds = wall_seconds + "
                               "?3, peak_rss_kib = CASE WHEN ?4 < 0 THEN peak_rss_kib ELSE max(coalesce(peak_rss_kib, "
                               "0), ?4) END, rss_floor_kib = CASE WHEN ?5 < 0 THEN rss_floor_kib ELSE "
                               "max(coalesce(rss_floor_kib, 0), ?5) END WHERE id = ?1",
                               "writing verdicts", err);
    if (rc == 0) {
        sqlite3_bind_int64(st, 1, id);
        sqlite3_bind_double(st, 2, cpu);
        sqlite3_bind_double(st, 3, wall);
        sqlite3_bind_int64(st, 4, peak);
        sqlite3_bind_int64(st, 5, floor);
        rc = cr_store__step_done(store, st, "writing verdicts", err);
        sqlite3_finalize(st);
    }
    return rc;
}

int cr_store_invocation_progress(uint64_t *out_judged, uint64_t *out_left, cr_store *store, const cr_invocation *inv,
                                 cr_error *err)
{
    int64_t judged = 0;
    uint64_t size = 0;
    int rc = cr_store__query_int(&judged, store, "SELECT count(*) FROM verdict WHERE invocation_id = ?", inv->id, 0,
                                 "counting verdicts", err);
    if (rc == 0)
        rc = cr_store_set_size(&size, store, inv->set_id, err);
    *out_judged = (uint64_t)judged;
    *out_left = size > (uint64_t)judged ? size - (uint64_t)judged : 0;
    return rc;
}

int cr_store__column_verdict(cr_invoke_verdict *out, cr_store *s, sqlite3_stmt *st, int col, cr_error *err)
{
    const char *text = (const char *)sqlite3_column_text(st, col);
    cr_error bad;
    *out = CR_INVOKE_RE;
    if (!text || cr_invoke_verdict_parse(out, text, &bad) == 0)
        return 0;
    return cr_errorf(err, CR_EDB, "%s: %s in the table verdict, which coinrow does not write: a row edited by hand "
                                  "(coinrow check-db lists them)",
                     s->path, bad.msg);
}

int cr_store_invocation_summary(cr_invocation_summary *out, cr_store *store, int64_t id, cr_invoke_verdict expect,
                                cr_error *err)
{
    static const char *const sql[] = {
        "SELECT verdict, count(*) FROM verdict WHERE invocation_id = ?1 GROUP BY verdict",
        "SELECT i.ext_id, v.verdict, v.cpu_seconds, v.wall_seconds FROM verdict AS v JOIN instance AS i "
        "ON i.id = v.instance_id WHERE v.invocation_id = ?1 ORDER BY v.cpu_seconds DESC, v.instance_id LIMIT 5",
        "SELECT i.ext_id, v.peak_rss_kib FROM verdict AS v JOIN instance AS i ON i.id = v.instance_id "
        "WHERE v.invocation_id = ?1 AND v.peak_rss_kib IS NOT NULL ORDER BY v.peak_rss_kib DESC, v.instance_id "
        "LIMIT 1",
        "SELECT i.ext_id, v.verdict, v.message, v.stderr FROM verdict AS v JOIN instance AS i "
        "ON i.id = v.instance_id WHERE v.invocation_id = ?1 AND v.verdict <> ?2 ORDER BY v.instance_id LIMIT 1",
        "SELECT cpu_seconds, wall_seconds, coalesce(seconds, 0), coalesce(rss_floor_kib, -1) FROM invocation "
        "WHERE id = ?1",
    };
    _Static_assert(CR_SUMMARY_SLOWEST == 5, "the query's LIMIT");
    memset(out, 0, sizeof *out);
    out->peak_rss_kib = -1;
    int rc = 0;
    for (size_t q = 0; rc == 0 && q < sizeof sql / sizeof sql[0]; q++) {
        sqlite3_stmt *st = NULL;
        if ((rc = cr_store__prepare(&st, store, sql[q], "summing up the verdicts", err)) != 0)
            break;
        sqlite3_bind_int64(st, 1, id);
        if (q == 3)
            sqlite3_bind_text(st, 2, cr_invoke_verdict_name(expect), -1, SQLITE_STATIC);
        int step = SQLITE_DONE;
        cr_invoke_verdict v;
        while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
            if (q == 0) {
                uint64_t count = (uint64_t)sqlite3_column_int64(st, 1);
                if ((rc = cr_store__column_verdict(&v, store, st, 0, err)) != 0)
                    break;
                out->counts[v] += count;
                out->judged += count;
            } else if (q == 1) {
                int k = out->slowest_count++;
                cr_store__column_text(out->slowest[k].ext_id, sizeof out->slowest[k].ext_id, st, 0);
                rc = cr_store__column_verdict(&out->slowest[k].verdict, store, st, 1, err);
                out->slowest[k].cpu_seconds = sqlite3_column_double(st, 2);
                out->slowest[k].wall_seconds = sqlite3_column_double(st, 3);
            } else if (q == 2) {
                cr_store__column_text(out->peak_ext_id, sizeof out->peak_ext_id, st, 0);
                out->peak_rss_kib = sqlite3_column_int64(st, 1);
            } else if (q == 3) {
                out->has_failure = 1;
                cr_store__column_text(out->failure_ext_id, sizeof out->failure_ext_id, st, 0);
                rc = cr_store__column_verdict(&out->failure_verdict, store, st, 1, err);
                cr_store__column_text(out->failure_message, sizeof out->failure_message, st, 2);
                cr_store__column_text(out->failure_stderr, sizeof out->failure_stderr, st, 3);
            } else {
                out->cpu_seconds = sqlite3_column_double(st, 0);
                out->wall_seconds = sqlite3_column_double(st, 1);
                out->seconds = sqlite3_column_double(st, 2);
                out->rss_floor_kib = sqlite3_column_int64(st, 3);
            }
        }
        if (rc == 0 && step != SQLITE_DONE)
            rc = cr_store__fail(store, "summing up the verdicts", err);
        sqlite3_finalize(st);
    }
    return rc;
}

int cr_store_invocation_points_each(size_t *out_count, cr_store *store, int64_t id, cr_group_points_fn fn, void *ctx,
                                    cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int64_t set_id = 0;
    *out_count = 0;
    int rc = cr_store__query_int(&set_id, store, "SELECT set_id FROM invocation WHERE id = ?", id, 0,
                                 "reading the points", err);
    if (rc == 0)
        rc = cr_store_groups_refuse_broken(store, set_id, err);
    if (rc == 0)
        rc = cr_store__prepare(&st, store,
                               "SELECT group_name, points, scored, tests, judged, accepted, passed "
                               "FROM invocation_group_points WHERE invocation_id = ? ORDER BY position",
                               "reading the points", err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, id);
    int step;
    while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
        char name[CR_STORE_GROUP_NAME_MAX + 1];
        cr_store__column_text(name, sizeof name, st, 0);
        cr_group_points g = {name, sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2),
                             (uint64_t)sqlite3_column_int64(st, 3), (uint64_t)sqlite3_column_int64(st, 4),
                             (uint64_t)sqlite3_column_int64(st, 5), sqlite3_column_int(st, 6)};
        ++*out_count;
        rc = fn(ctx, &g);
    }
    if (rc == 0 && step != SQLITE_DONE)
        rc = cr_store__fail(store, "reading the points", err);
    sqlite3_finalize(st);
    return rc;
}

int cr_store_invocation_points_alone(cr_alone_points *out, cr_store *store, int64_t id, uint64_t samples,
                                     cr_error *err)
{
    /* each row: a group's points and its first test not AC (NULL: none),
     * the groups in name order; then the first sample not AC, if any */
    static const char sql[] =
        "WITH u AS (SELECT id, set_id FROM invocation WHERE id = ?1), "
        "sample AS MATERIALIZED (SELECT i.id FROM instance AS i JOIN u ON i.set_id = u.set_id ORDER BY i.id LIMIT ?2), "
        "failing AS (SELECT 0 AS kind, g.name, g.points, (SELECT t.instance_id FROM test_group_instance AS t "
        "LEFT JOIN verdict AS v ON v.invocation_id = u.id AND v.instance_id = t.instance_id WHERE t.group_id = g.id "
        "AND t.instance_id NOT IN sample AND v.verdict IS NOT 'AC' ORDER BY t.instance_id LIMIT 1) AS test "
        "FROM test_group AS g JOIN u ON g.set_id = u.set_id "
        "UNION ALL SELECT 1, NULL, 0, (SELECT s.id FROM sample AS s LEFT JOIN verdict AS v ON v.invocation_id = ?1 "
        "AND v.instance_id = s.id WHERE v.verdict IS NOT 'AC' ORDER BY s.id LIMIT 1)) "
        "SELECT f.kind, f.points, f.test, i.ext_id, v.verdict FROM failing AS f LEFT JOIN instance AS i ON i.id = f.test "
        "LEFT JOIN verdict AS v ON v.invocation_id = ?1 AND v.instance_id = f.test ORDER BY f.kind, f.name";
    memset(out, 0, sizeof *out);
    sqlite3_stmt *st = NULL;
    int rc = cr_store__prepare(&st, store, sql, "reading the points", err), step = SQLITE_DONE;
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_int64(st, 2, samples > INT64_MAX ? INT64_MAX : (int64_t)samples);
    while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
        int sample = sqlite3_column_int(st, 0), failed = sqlite3_column_type(st, 2) != SQLITE_NULL;
        int64_t points = sqlite3_column_int64(st, 1);
        out->points += points;
        out->scored += !sample && !failed ? points : 0;
        out->passed += !sample && !failed;
        /* the sample's row comes last and decides first */
        if (failed && (sample || !out->group_failed)) {
            out->sample_failed = sample;
            out->group_failed = !sample;
            cr_store__column_text(out->failure_ext_id, sizeof out->failure_ext_id, st, 3);
            rc = cr_store__column_verdict(&out->failure_verdict, store, st, 4, err);
        }
    }
    if (rc == 0 && step != SQLITE_DONE)
        rc = cr_store__fail(store, "reading the points", err);
    sqlite3_finalize(st);
    return rc;
}

int cr_store_verdict_changes(uint64_t *out_same, cr_store *store, int64_t set_id, int64_t a, int64_t b,
                             void (*fn)(void *ctx, const cr_verdict_change *c), void *ctx, cr_error *err)
{
    int64_t same = 0;
    sqlite3_stmt *st = NULL;
    int rc = cr_store__query_int(&same, store,
                                 "SELECT count(*) FROM verdict AS a JOIN verdict AS b ON b.invocation_id = ?2 "
                                 "AND b.instance_id = a.instance_id WHERE a.invocation_id = ?1 AND a.verdict = b.verdict",
                                 a, b, "comparing verdicts", err);
    if (rc == 0)
        rc = cr_store__prepare(&st, store,
                               "SELECT i.ext_id, i.n, a.verdict, b.verdict, a.message, b.message FROM instance AS i "
                               "LEFT JOIN verdict AS a ON a.invocation_id = ?2 AND a.instance_id = i.id "
                               "LEFT JOIN verdict AS b ON b.invocation_id = ?3 AND b.instance_id = i.id "
                               "WHERE +i.set_id = ?1 AND a.verdict IS NOT b.verdict ORDER BY i.id",
                               "comparing verdicts", err);
    if (rc)
        return rc;
    *out_same = (uint64_t)same;
    sqlite3_bind_int64(st, 1, set_id);
    sqlite3_bind_int64(st, 2, a);
    sqlite3_bind_int64(st, 3, b);
    int step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        cr_verdict_change c = {(const char *)sqlite3_column_text(st, 0), (size_t)sqlite3_column_int64(st, 1),
                               sqlite3_column_type(st, 2) != SQLITE_NULL, sqlite3_column_type(st, 3) != SQLITE_NULL,
                               CR_INVOKE_RE, CR_INVOKE_RE, (const char *)sqlite3_column_text(st, 4),
                               (const char *)sqlite3_column_text(st, 5)};
        if ((rc = cr_store__column_verdict(&c.a, store, st, 2, err)) != 0 ||
            (rc = cr_store__column_verdict(&c.b, store, st, 3, err)) != 0)
            break;
        fn(ctx, &c);
    }
    if (rc == 0 && step != SQLITE_DONE)
        rc = cr_store__fail(store, "comparing verdicts", err);
    sqlite3_finalize(st);
    return rc;
}

int cr_store_time_changes(cr_time_change *out, size_t cap, size_t *out_count, uint64_t *out_common, double *out_a,
                          double *out_b, cr_store *store, int64_t a, int64_t b, double floor, cr_error *err)
{
    static const char *const sql[] = {
        "SELECT count(*), total(a.cpu_seconds), total(b.cpu_seconds) FROM verdict AS a JOIN verdict AS b "
        "ON b.invocation_id = ?2 AND b.instance_id = a.instance_id WHERE a.invocation_id = ?1",
        "SELECT i.ext_id, i.n, a.cpu_seconds, b.cpu_seconds, max(b.cpu_seconds, ?3) / max(a.cpu_seconds, ?3) AS r "
        "FROM verdict AS a JOIN verdict AS b ON b.invocation_id = ?2 AND b.instance_id = a.instance_id "
        "JOIN instance AS i ON i.id = a.instance_id WHERE a.invocation_id = ?1 AND (r >= ?5 OR r <= 1 / ?5) "
        "ORDER BY r DESC, a.instance_id LIMIT ?4",
    };
    *out_count = 0;
    int rc = 0;
    for (int q = 0; rc == 0 && q < 2; q++) {
        sqlite3_stmt *st = NULL;
        if ((rc = cr_store__prepare(&st, store, sql[q], "comparing times", err)) != 0)
            break;
        sqlite3_bind_int64(st, 1, a);
        sqlite3_bind_int64(st, 2, b);
        if (q == 1) {
            sqlite3_bind_double(st, 3, floor);
            sqlite3_bind_int64(st, 4, (int64_t)cap);
            sqlite3_bind_double(st, 5, CR_TIME_CHANGE);
        }
        int step;
        while ((step = sqlite3_step(st)) == SQLITE_ROW) {
            if (q == 0) {
                *out_common = (uint64_t)sqlite3_column_int64(st, 0);
                *out_a = sqlite3_column_double(st, 1);
                *out_b = sqlite3_column_double(st, 2);
                continue;
            }
            cr_time_change *t = &out[(*out_count)++];
            cr_store__column_text(t->ext_id, sizeof t->ext_id, st, 0);
            t->n = (size_t)sqlite3_column_int64(st, 1);
            t->cpu_a = sqlite3_column_double(st, 2);
            t->cpu_b = sqlite3_column_double(st, 3);
            t->ratio = sqlite3_column_double(st, 4);
        }
        if (step != SQLITE_DONE)
            rc = cr_store__fail(store, "comparing times", err);
        sqlite3_finalize(st);
    }
    return rc;
}

int cr_store_labelled_invocations(int64_t **out, size_t *out_count, cr_store *store, int64_t set_id,
                                  cr_variant variant, const char *const *labels, size_t count, cr_error *err)
{
    *out = NULL;
    *out_count = 0;
    sqlite3_stmt *st = NULL;
    int rc = cr_store__prepare(&st, store,
                               "SELECT u.id FROM invocation AS u, json_each(?3) AS l WHERE u.set_id = ?1 "
                               "AND u.variant = ?2 AND u.status = 'done' AND u.label = l.value ORDER BY u.id",
                               "reading the invocations", err);
    if (rc)
        return rc;
    /* the labels as a JSON array: they are plain words */
    sqlite3_str *json = sqlite3_str_new(NULL);
    for (size_t k = 0; k < count; k++)
        sqlite3_str_appendf(json, "%s\"%w\"", k ? "," : "[", labels[k]);
    sqlite3_str_appendall(json, "]");
    char *list = sqlite3_str_finish(json);
    sqlite3_bind_int64(st, 1, set_id);
    sqlite3_bind_text(st, 2, cr_variant_name(variant), -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, list, -1, sqlite3_free);
    size_t cap = 0;
    int step;
    while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
        if (cr_grow((void **)out, &cap, *out_count + 1, sizeof **out, 16)) {
            rc = cr_errorf(err, CR_ENOMEM, "no memory for the invocations");
            break;
        }
        (*out)[(*out_count)++] = sqlite3_column_int64(st, 0);
    }
    if (rc == 0 && step != SQLITE_DONE)
        rc = cr_store__fail(store, "reading the invocations", err);
    sqlite3_finalize(st);
    return rc;
}

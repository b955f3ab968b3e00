/* Checking a database: SQLite's own checks of the file's structure, its
 * schema against coinrow's own, and coinrow's invariants about runs and
 * their results, one named query each. */
#include "store/sql.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* Findings of SQLite's checks passed on, one each, before "and more". */
#define SHOWN 10
/* The findings SQLite's checks give at most, when not told otherwise. */
#define SQLITE_LISTS 100

/* Rows of `rows` whose `owner` (run or invocation, by rows.owner_id) is
 * missing, or whose instance is missing or not of the owner's set. */
#define HAVE_THEIR_INSTANCE(rows, owner, owner_id)                                                                     \
    "SELECT count(*), min(printf('" #owner " %d, instance %d', r." #owner_id ", r.instance_id)) FROM " #rows " AS r " \
    "LEFT JOIN " #owner " AS u ON u.id = r." #owner_id " "                                                             \
    "LEFT JOIN instance AS i ON i.id = r.instance_id AND i.set_id = u.set_id WHERE i.id IS NULL"

/* Done owners (runs, invocations) without a row in `rows` for every
 * instance of their set up to the last they have one for: a done one covers
 * its set as it was, and instances ingested later have higher ids. Rows
 * whose instance is gone are HAVE_THEIR_INSTANCE's, not counted here. */
#define DONE_HAVE_EVERY_INSTANCE(rows, owner, owner_id)                                                                \
    "SELECT count(*), min(printf('" #owner " %d lacks %d of them, from instance %d', id, lacking, first)) FROM "       \
    "(SELECT u.id, count(*) AS lacking, min(i.id) AS first FROM " #owner " AS u "                                      \
    "JOIN (SELECT " #owner_id " AS owner, max(instance_id) AS last FROM " #rows " "                                    \
    "GROUP BY " #owner_id ") AS m ON m.owner = u.id "                                                                  \
    "JOIN instance AS i ON i.set_id = u.set_id AND i.id <= m.last WHERE u.status = 'done' "                            \
    "AND NOT EXISTS (SELECT 1 FROM " #rows " AS r WHERE r." #owner_id " = u.id AND r.instance_id = i.id) "             \
    "GROUP BY u.id)"

/* A solution's copy of its instance's column `col` (schema/008_copies_in_solution.sql). */
#define COPIES_ITS_INSTANCE(name, col)                                                                                 \
    {"solutions-copy-their-" name, "solutions whose " #col " is not their instance's",                                \
     "SELECT count(*), min(printf('run %d, instance %d', s.run_id, s.instance_id)) FROM solution AS s "               \
     "JOIN instance AS i ON i.id = s.instance_id WHERE s." #col " IS NOT i." #col}

/* coinrow's invariants, on the tables as they are stored (schema/008_copies_in_solution.sql,
 * 005_invoke.sql): each is one pass over a table at most, with lookups by
 * key, so that a database of millions of results is checked in seconds.
 * Each query returns how many rows break it and a description of one of
 * them (the least, as text), in which ?1 is the database as a shell word
 * (a command to paste names it); add one by adding a line. */
static const struct invariant {
    const char *name; /* what it checks, as check-db shows it */
    const char *says; /* what the rows that break it are */
    const char *sql;
} invariants[] = {
    {"results-have-their-instance",
     "solutions whose run or instance is missing, or whose instance is not of the run's set",
     HAVE_THEIR_INSTANCE(solution, run, run_id)},
    /* run.variants is a comma list of names: its bits, once per run */
    {"solved-instances-have-every-variant", "instances solved in a run without exactly the run's variants",
     "WITH runs (id, names, variants) AS MATERIALIZED (SELECT u.id, u.variants, (SELECT coalesce(sum(1 << v.code), 0) "
     "FROM variant AS v WHERE instr(',' || u.variants || ',', ',' || v.name || ',') > 0) FROM run AS u) "
     "SELECT count(*), min(printf('run %d, instance %d: %s of %s', s.run_id, s.instance_id, "
     "(SELECT group_concat(name, ',') FROM variant WHERE s.variants >> code & 1), r.names)) "
     "FROM solution AS s JOIN runs AS r ON r.id = s.run_id WHERE s.variants <> r.variants"},
    {"extra-is-within-variants", "solutions with variants kept in result_extra that they do not solve",
     "SELECT count(*), min(printf('run %d, instance %d', run_id, instance_id)) FROM solution "
     "WHERE extra & ~variants <> 0"},
    {"extra-rows-match-extra-bits", "variants marked extra without their row in result_extra, or rows there "
                                    "without their mark",
     "SELECT count(*), min(what) FROM ("
     "SELECT printf('run %d, instance %d, %s: no row', s.run_id, s.instance_id, v.name) AS what "
     "FROM solution AS s JOIN variant AS v ON s.extra >> v.code & 1 WHERE s.extra <> 0 AND NOT EXISTS "
     "(SELECT 1 FROM result_extra AS x WHERE x.run_id = s.run_id AND x.instance_id = s.instance_id "
     "AND x.variant = v.name) "
     "UNION ALL SELECT printf('run %d, instance %d, %s: not marked', x.run_id, x.instance_id, x.variant) "
     "FROM result_extra AS x LEFT JOIN variant AS v ON v.name = x.variant "
     "LEFT JOIN solution AS s ON s.run_id = x.run_id AND s.instance_id = x.instance_id "
     "WHERE s.extra IS NULL OR v.code IS NULL OR NOT s.extra >> v.code & 1)"},
    /* remaining (bit 1 << 2) reads the remaining-sum game, the others the standard one */
    {"solutions-have-their-scores", "solutions without whole-number scores of a game that a variant they give reads",
     "SELECT count(*), min(printf('run %d, instance %d', run_id, instance_id)) FROM solution "
     "WHERE variants & ~extra & ~4 <> 0 AND (typeof(first_score) <> 'integer' OR typeof(second_score) <> 'integer') "
     "OR variants & ~extra & 4 <> 0 AND (typeof(remaining_first_score) <> 'integer' "
     "OR typeof(remaining_second_score) <> 'integer')"},
    {"lines-have-their-length", "solutions with a line of play that is not one L or R per coin of their instance",
     "SELECT count(*), min(printf('run %d, instance %d', s.run_id, s.instance_id)) FROM solution AS s "
     "JOIN instance AS i ON i.id = s.instance_id "
     "WHERE s.moves IS NOT NULL AND (length(s.moves) IS NOT i.n OR s.moves GLOB '*[^LR]*') "
     "OR s.remaining_moves IS NOT NULL AND (length(s.remaining_moves) IS NOT i.n "
     "OR s.remaining_moves GLOB '*[^LR]*')"},
    /* what the readers take from result_extra as it is (the rows of the
     * view result, which UPDATE result writes) */
    {"extra-rows-are-results", "rows of result_extra whose winner is not first, second or draw, or whose line is "
                               "not one L or R per coin of their instance",
     "SELECT count(*), min(printf('run %d, instance %d, %s', x.run_id, x.instance_id, x.variant)) "
     "FROM result_extra AS x JOIN instance AS i ON i.id = x.instance_id "
     "WHERE x.winner NOT IN ('first', 'second', 'draw') "
     "OR x.moves IS NOT NULL AND (length(x.moves) IS NOT i.n OR x.moves GLOB '*[^LR]*')"},
    COPIES_ITS_INSTANCE("set", set_id),
    COPIES_ITS_INSTANCE("ext-id", ext_id),
    COPIES_ITS_INSTANCE("n", n),
    /* two bits per variant: 1 first, 2 second, 3 draw, 0 what else result_extra holds; a game
     * without its scores or a mark without its row is another invariant's */
    {"outcome-is-the-winner", "solutions whose outcome is not the winner of each variant they give",
     "SELECT count(*), min(what) FROM ("
     "SELECT printf('run %d, instance %d, %s', s.run_id, s.instance_id, v.name) AS what "
     "FROM solution AS s JOIN variant AS v "
     "WHERE s.outcome >> 2 * v.code & 3 <> CASE WHEN NOT s.variants >> v.code & 1 THEN 0 "
     "WHEN s.extra >> v.code & 1 THEN (SELECT CASE x.winner WHEN 'first' THEN 1 WHEN 'second' THEN 2 "
     "WHEN 'draw' THEN 3 ELSE 0 END FROM result_extra AS x WHERE x.run_id = s.run_id "
     "AND x.instance_id = s.instance_id AND x.variant = v.name) "
     "WHEN v.code = 2 THEN CASE WHEN s.remaining_first_score > s.remaining_second_score THEN 1 "
     "WHEN s.remaining_first_score < s.remaining_second_score THEN 2 "
     "WHEN s.remaining_first_score = s.remaining_second_score THEN 3 END "
     "ELSE CASE WHEN s.first_score > s.second_score THEN 1 WHEN s.first_score < s.second_score THEN 2 "
     "WHEN s.first_score = s.second_score THEN 3 END END "
     "UNION ALL SELECT printf('run %d, instance %d: bits beyond the variants', run_id, instance_id) "
     "FROM solution WHERE outcome >> 8 <> 0)"},
    {"done-runs-have-every-instance", "done runs that lack an instance of their set older than the last they solved",
     DONE_HAVE_EVERY_INSTANCE(solution, run, run_id)},
    /* an ingest under way (cr_store_ingest_begin) that no process is
     * carrying on: a write failed, or coinrow was stopped or killed */
    {"ingests-are-finished", "sets whose ingest did not finish: rows of their input are missing",
     "SELECT count(*), min(printf('set %d (%s): the ingest of %s did not finish; finish the job with: %s', "
     "e.set_id, s.name, e.source, coinrow_command_shown(e.raw, ?1))) FROM ingest_error AS e LEFT JOIN instance_set AS s ON s.id = e.set_id "
     "WHERE " CR_STORE__UNFINISHED},
    {"verdicts-have-their-instance",
     "verdicts whose invocation or instance is missing, or whose instance is not of the invocation's set",
     HAVE_THEIR_INSTANCE(verdict, invocation, invocation_id)},
    {"verdicts-have-their-times", "verdicts and invocations whose times are no number of seconds from 0 to 1e9",
     "SELECT sum(n), min(example) FROM (SELECT count(*) AS n, min(printf('invocation %d, instance %d', "
     "invocation_id, instance_id)) AS example FROM verdict AS v WHERE " CR_STORE__TIMES_BROKEN("v") " UNION ALL "
     "SELECT count(*), min(printf('invocation %d', id)) FROM invocation AS v WHERE " CR_STORE__TIMES_BROKEN("v") ")"},
    {"done-invocations-have-every-instance",
     "done invocations that lack an instance of their set older than the last they judged",
     DONE_HAVE_EVERY_INSTANCE(verdict, invocation, invocation_id)},
    /* groups (schema/010_groups.sql): what their tables cannot enforce */
    {"group-tests-are-of-their-set",
     "tests of a group whose group or instance is missing, or whose instance is not of the group's set",
     HAVE_THEIR_INSTANCE(test_group_instance, test_group, group_id)},
    {"group-tests-meet-their-constraints", "tests that break their group's constraints",
     "WITH tests AS (SELECT g.name, g.set_id, i.ext_id, i.n, g.n_min, g.n_max, g.value_min, g.value_max, "
     "g.all_equal, g.even_n, g.odd_sum, min(c.value) AS lo, max(c.value) AS hi, abs(sum(c.value % 2)) % 2 AS odd "
     "FROM test_group_instance AS t JOIN test_group AS g ON g.id = t.group_id "
     "JOIN instance AS i ON i.id = t.instance_id, json_each(i.coins) AS c GROUP BY t.instance_id) "
     "SELECT count(*), min(printf('set %d, group %s, test %s: %s', set_id, name, ext_id, why)) FROM "
     "(SELECT *, CASE WHEN n NOT BETWEEN n_min AND n_max THEN printf('n = %d is out of %d..%d', n, n_min, n_max) "
     "WHEN even_n AND n % 2 <> 0 THEN printf('n = %d is odd, the group wants an even n', n) "
     "WHEN lo < value_min OR hi > value_max THEN printf('its values %d..%d go beyond %d..%d', lo, hi, value_min, "
     "value_max) WHEN all_equal AND lo <> hi THEN 'its coins are not all equal' "
     "WHEN odd_sum AND odd = 0 THEN 'its coins add up to an even number, the group wants an odd sum' END AS why "
     "FROM tests) WHERE why IS NOT NULL"},
    {"groups-keep-their-checks", "groups whose name, points or ranges break what test_group promises",
     "SELECT count(*), min(printf('set %d, group %d (position %d)', g.set_id, g.id, g.position)) "
     "FROM test_group AS g WHERE " CR_STORE__GROUP_BROKEN},
    {"group-dependencies-are-of-their-set", "dependencies between groups that are missing or of two sets",
     "SELECT count(*), min(printf('group %d depends on group %d', d.group_id, d.depends_on)) "
     "FROM " CR_STORE__DEPENDENCY_ASTRAY},
    {"group-dependencies-have-no-cycle", "groups that depend on themselves through others",
     CR_STORE__DEPENDENCY_REACH "SELECT count(*), min(printf('set %d, group %s', g.set_id, g.name)) FROM reach AS r "
     "JOIN test_group AS g ON g.id = r.start WHERE r.start = r.g"},
    /* kept at each commit (cr_store__sets_settle); merge and shards prove a set whole by them */
    {"sets-keep-their-size-and-digest", "sets whose size or digest is not their instances'",
     "SELECT count(*), min(printf('set %d (%s): size %d and digest %s, its instances %d and %s', id, name, size, "
     "digest, n, d)) FROM (SELECT id, name, size, digest, (SELECT count(*) FROM instance WHERE set_id = s.id) AS n, "
     "(SELECT coinrow_set_digest(ext_id, coins) FROM instance WHERE set_id = s.id) AS d FROM instance_set AS s) "
     "WHERE size IS NOT n OR digest IS NOT d"},
    {"names-are-not-empty", "sets or instances whose name is empty, holds a NUL byte or is not text",
     "SELECT count(*), min(what) FROM "
     "(SELECT printf('set %d', id) AS what FROM instance_set WHERE typeof(name) <> 'text' OR name = '' OR "
     "instr(name, char(0)) > 0 UNION ALL SELECT printf('instance %d', id) FROM instance WHERE typeof(ext_id) <> "
     "'text' OR ext_id = '' OR instr(ext_id, char(0)) > 0)"},
};

/* Passes one finding of SQLite's to fn, up to SHOWN of them. */
static void sqlite_finding(int *count, const char *name, const char *text, size_t len, cr_store_check_fn fn,
                           void *ctx)
{
    static const char header[] = "*** in database "; /* names the schema, here always main */
    if (len == 0 || (len >= sizeof header - 1 && memcmp(text, header, sizeof header - 1) == 0))
        return;
    if ((*count)++ < SHOWN) {
        char line[CR_ERROR_MSG_MAX];
        snprintf(line, sizeof line, "%.*s", (int)len, text);
        fn(ctx, name, line);
    }
}

/* Runs PRAGMA quick_check or integrity_check, passing each finding to fn
 * (up to SHOWN, then how many more); *out_ok when it found nothing. */
static int sqlite_check(int *out_ok, cr_store *s, const char *pragma, const char *name, cr_store_check_fn fn,
                        void *ctx, cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = cr_store__prepare(&st, s, pragma, "checking it", err), step = SQLITE_DONE, count = 0;
    *out_ok = 1;
    while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
        const char *text = (const char *)sqlite3_column_text(st, 0);
        if (!text || strcmp(text, "ok") == 0)
            continue;
        *out_ok = 0;
        /* a row may hold several findings, a line each (the file's own, in
         * one row), and SQLite's limit counts findings, not rows */
        for (const char *end; (end = strchr(text, '\n')) != NULL; text = end + 1)
            sqlite_finding(&count, name, text, (size_t)(end - text), fn, ctx);
        sqlite_finding(&count, name, text, strlen(text), fn, ctx);
    }
    if (rc == 0 && step != SQLITE_DONE) {
        /* damage that stops the check is a finding too */
        *out_ok = 0;
        const char *why = sqlite3_errmsg(s->db);
        sqlite_finding(&count, name, why, strlen(why), fn, ctx);
    }
    if (count > SHOWN) {
        char more[80];
        snprintf(more, sizeof more, "... and %s%d more%s", count >= SQLITE_LISTS ? "at least " : "", count - SHOWN,
                 count >= SQLITE_LISTS ? " (SQLite lists 100 at most)" : "");
        fn(ctx, name, more);
    }
    sqlite3_finalize(st);
    return rc;
}

static void first_finding(void *ctx, const char *check, const char *finding)
{
    char *first = ctx;
    (void)check;
    if (!first[0])
        snprintf(first, CR_ERROR_MSG_MAX / 2, "%s", finding);
}

int cr_store_quick_check(cr_store *store, cr_error *err)
{
    char first[CR_ERROR_MSG_MAX / 2] = "";
    int ok, rc = sqlite_check(&ok, store, "PRAGMA quick_check", "quick_check", first_finding, first, err);
    if (rc == 0 && !ok)
        rc = cr_errorf(err, CR_EDB, "%s: the database is damaged (%s); 'coinrow check-db --db %s' tells more",
                       store->path, first, store->path);
    return rc;
}

/* ---- the schema against coinrow's own ---- */

/* The checks of the schema, as check-db names them. */
#define SCHEMA_CHECK "schema-is-coinrows"
#define OWN_CHECK CR_STORE_CHECK_OWN

/* One object of a schema (sqlite_master, SQLite's own left out). */
typedef struct object {
    char *type, *name, *table, *sql;
} object;

typedef struct objects {
    object *v;
    size_t count;
} objects;

static void objects_free(objects *o)
{
    for (size_t k = 0; k < o->count; k++)
        free(o->v[k].type), free(o->v[k].name), free(o->v[k].table), free(o->v[k].sql);
    free(o->v);
}

/* The objects of s's schema, sorted by name as memcmp sorts them. */
static int objects_read(objects *out, cr_store *s, cr_error *err)
{
    memset(out, 0, sizeof *out);
    int64_t count = 0;
    sqlite3_stmt *st = NULL;
    int step = SQLITE_DONE, rc = cr_store__exec(s, "BEGIN", "reading its schema", err); /* one snapshot */
    if (rc)
        return rc;
    rc = cr_store__query_int(&count, s, "SELECT count(*) FROM sqlite_master", 0, 0, "reading its schema", err);
    if (rc == 0 && !(out->v = calloc((size_t)count + 1, sizeof *out->v)))
        rc = cr_errorf(err, CR_ENOMEM, "no memory for a schema");
    if (rc == 0)
        rc = cr_store__prepare(&st, s,
                               "SELECT type, name, tbl_name, sql FROM sqlite_master "
                               "WHERE name NOT LIKE 'sqlite!_%' ESCAPE '!' ORDER BY name",
                               "reading its schema", err);
    while (rc == 0 && (size_t)count > out->count && (step = sqlite3_step(st)) == SQLITE_ROW) {
        object *o = &out->v[out->count++];
        const char *sql = (const char *)sqlite3_column_text(st, 3);
        if (!(o->type = strdup((const char *)sqlite3_column_text(st, 0))) ||
            !(o->name = strdup((const char *)sqlite3_column_text(st, 1))) ||
            !(o->table = strdup((const char *)sqlite3_column_text(st, 2))) || !(o->sql = strdup(sql ? sql : "")))
            rc = cr_errorf(err, CR_ENOMEM, "no memory for a schema");
    }
    if (rc == 0 && step != SQLITE_DONE && step != SQLITE_ROW)
        rc = cr_store__fail(s, "reading its schema", err);
    sqlite3_finalize(st);
    cr_store_rollback(s);
    if (rc)
        objects_free(out);
    return rc;
}

static int by_name(const void *key, const void *o) { return strcmp(key, ((const object *)o)->name); }

static const object *object_find(const objects *in, const char *name)
{
    return in->count ? bsearch(name, in->v, in->count, sizeof *in->v, by_name) : NULL;
}

/* "TYPE 'NAME'" (" on TABLE" for an index or a trigger) and what is said of it, then its SQL with its
 * white space made single spaces, cut to a message. */
static void describe(char *out, size_t cap, const object *o, const char *said)
{
    int on = strcmp(o->type, "index") == 0 || strcmp(o->type, "trigger") == 0;
    int len = snprintf(out, cap, "%s '%s'%s%s: %s: ", o->type, o->name, on ? " on " : "", on ? o->table : "", said);
    size_t k = len < 0 ? 0 : (size_t)len < cap ? (size_t)len : cap - 1;
    for (const char *c = o->sql; *c && k + 1 < cap; c++)
        if (!strchr(" \t\r\n", *c))
            out[k++] = *c;
        else if (k > 0 && out[k - 1] != ' ')
            out[k++] = ' ';
    out[cr_utf8_cut(out, k)] = '\0';
}

/* Passes a finding of the schema's check to fn, up to SHOWN per check. */
static void schema_finding(int *count, const char *check, const object *o, const char *said, cr_store_check_fn fn,
                           void *ctx)
{
    if ((*count)++ < SHOWN) {
        char line[CR_ERROR_MSG_MAX];
        describe(line, sizeof line, o, said);
        fn(ctx, check, line);
    }
}

static void schema_more(int count, const char *check, cr_store_check_fn fn, void *ctx)
{
    if (count > SHOWN) {
        char more[32];
        snprintf(more, sizeof more, "... and %d more", count - SHOWN);
        fn(ctx, check, more);
    }
    if (count == 0)
        fn(ctx, check, NULL);
}

/* The file's schema against the one coinrow makes in a fresh database
 * from the scripts it embeds (so it follows every schema version): each of
 * coinrow's objects missing or defined otherwise, and a trigger on one of
 * its objects that it does not define (a trigger runs with coinrow's own
 * writes and can change what they store), is a finding of SCHEMA_CHECK;
 * the user's own tables, views, indexes and triggers on them, which
 * coinrow neither reads nor writes, are notes of OWN_CHECK, which does
 * not fail.  *out_failed when SCHEMA_CHECK found something, *out_ours_ok
 * when every table of coinrow's is as it defines it (the invariants, which
 * read them, can be checked). */
static int schema_check(int *out_failed, int *out_ours_ok, cr_store *s, cr_store_check_fn fn, void *ctx,
                        cr_error *err)
{
    cr_store *fresh = NULL;
    objects want = {0}, have = {0};
    int rc = cr_store_new(&fresh, ":memory:", CR_STORE_WRITE_ROLLBACK, err);
    if (rc == 0)
        rc = objects_read(&want, fresh, err);
    if (rc == 0)
        rc = objects_read(&have, s, err);
    int failed = 0, own = 0, ours_ok = 1;
    char *seen = rc == 0 ? calloc(want.count + 1, 1) : NULL;
    if (rc == 0 && !seen)
        rc = cr_errorf(err, CR_ENOMEM, "no memory for a schema");
    /* coinrow's objects first, then the user's */
    for (size_t k = 0; rc == 0 && k < have.count; k++) {
        const object *o = &have.v[k], *w = object_find(&want, o->name);
        if (w) {
            seen[w - want.v] = 1;
            if (strcmp(o->type, w->type) != 0 || strcmp(o->sql, w->sql) != 0) {
                schema_finding(&failed, SCHEMA_CHECK, o, "not as coinrow defines it", fn, ctx);
                ours_ok &= strcmp(w->type, "table") != 0;
            }
        } else if (strcmp(o->type, "trigger") == 0 && object_find(&want, o->table)) {
            schema_finding(&failed, SCHEMA_CHECK, o, "not coinrow's; it runs with coinrow's writes", fn, ctx);
        }
    }
    for (size_t k = 0; rc == 0 && k < want.count; k++)
        if (!seen[k]) {
            schema_finding(&failed, SCHEMA_CHECK, &want.v[k], "missing", fn, ctx);
            ours_ok &= strcmp(want.v[k].type, "table") != 0;
        }
    if (rc == 0)
        schema_more(failed, SCHEMA_CHECK, fn, ctx);
    for (size_t k = 0; rc == 0 && k < have.count; k++) {
        const object *o = &have.v[k];
        if (!object_find(&want, o->name) && !(strcmp(o->type, "trigger") == 0 && object_find(&want, o->table)))
            schema_finding(&own, OWN_CHECK, o, "coinrow neither reads nor writes it", fn, ctx);
    }
    if (rc == 0)
        schema_more(own, OWN_CHECK, fn, ctx);
    *out_failed = failed > 0;
    *out_ours_ok = ours_ok;
    free(seen);
    objects_free(&want);
    objects_free(&have);
    cr_store_free(fresh);
    return rc;
}

/* ---- what the commands read, read as they read it ---- */

#define READ_BACK_CHECK "rows-read-back"

/* Reads the row st is on as the commands read it: a run (with its set) or
 * an invocation by its id (kind 0, 1), a verdict name (2, with the least
 * invocation that has it), an instance's set, its coins against its n and
 * its total (3), a set's generator (4).  0, or the refusal in *why. */
static int read_back(cr_store *s, sqlite3_stmt *st, cr_coins *coins, cr_error *why)
{
    int kind = sqlite3_column_int(st, 0);
    int64_t id = sqlite3_column_int64(st, 1);
    const char *text = (const char *)sqlite3_column_text(st, 2);
    cr_error bad;
    if (kind == 0) {
        cr_run run;
        char name[128];
        int rc = cr_store_run_find(&run, s, id, CR_PICK_ANY, why);
        if (rc == 0 && cr_store_set_name(name, sizeof name, s, run.set_id, &bad) != 0)
            rc = cr_errorf(why, CR_EDB, "run %lld: its set %lld is missing", (long long)id, (long long)run.set_id);
        return rc;
    }
    if (kind == 4) {
        cr_gen_spec spec;
        int found;
        return cr_store_set_generator(&spec, &found, s, id, why);
    }
    if (kind == 3 && sqlite3_column_int64(st, 5) == 0)
        return cr_errorf(why, CR_EDB, "instance %lld: its set %lld is missing", (long long)id,
                         (long long)sqlite3_column_int64(st, 6));
    if (kind == 1) {
        cr_invocation inv;
        int rc = cr_store_invocation_find(&inv, s, id, CR_PICK_ANY, why);
        if (rc == 0)
            cr_invocation_clear(&inv);
        return rc;
    }
    if (kind == 2) {
        cr_invoke_verdict v;
        if (text && cr_invoke_verdict_parse(&v, text, &bad) == 0)
            return 0;
        return cr_errorf(why, CR_EDB, "invocation %lld: %s", (long long)id, text ? bad.msg : "a verdict that is NULL");
    }
    int64_t n = sqlite3_column_int64(st, 3);
    if (cr_coins_parse(coins, text ? text : "", (size_t)sqlite3_column_bytes(st, 2), &bad) != 0)
        return cr_errorf(why, CR_EDB, "instance %lld: coins: %s", (long long)id, bad.msg);
    if ((int64_t)coins->n != n)
        return cr_errorf(why, CR_EDB, "instance %lld: n is %lld but it has %zu coins", (long long)id, (long long)n,
                         coins->n);
    /* total: their sum, NULL when it leaves int64 */
    int64_t total = 0;
    int fits = cr_coins_total(&total, coins->v, coins->n), type = sqlite3_column_type(st, 4);
    if (fits ? type == SQLITE_INTEGER && sqlite3_column_int64(st, 4) == total : type == SQLITE_NULL)
        return 0;
    char sum[32] = "more than int64 holds";
    if (fits)
        snprintf(sum, sizeof sum, "%lld", (long long)total);
    char shown[64];
    cr_text_shown(shown, sizeof shown, type == SQLITE_NULL ? "NULL" : (const char *)sqlite3_column_text(st, 4));
    return cr_errorf(why, CR_EDB, "instance %lld: total is %s but its coins add up to %s", (long long)id, shown, sum);
}

/* Every run and invocation, every verdict name, every instance's coins and
 * every set's generator, read by the same code as the commands that read
 * them: a name coinrow does not write (an algorithm, a variant, a verdict),
 * coins or a generator it cannot read, or a run or instance whose set was
 * deleted, edited in by hand, make them refuse the file; here they are a
 * finding, and there is no second list of names to keep.  An instance
 * whose total is not the sum of its coins (which SQL reads, and no
 * command) is one too. */
static int read_back_check(unsigned *out_failed, cr_store *s, cr_store_check_fn fn, void *ctx, cr_error *err)
{
    static const char *const sql[] = {
        "SELECT 0, id, NULL, 1 FROM run UNION ALL SELECT 1, id, NULL, 1 FROM invocation UNION ALL "
        "SELECT 2, min(invocation_id), verdict, count(*) FROM verdict GROUP BY verdict ORDER BY 1, 2",
        "SELECT 3, id, coins, n, total, (SELECT count(*) FROM instance_set AS s WHERE s.id = i.set_id), set_id "
        "FROM instance AS i ORDER BY id",
        "SELECT 4, id FROM instance_set ORDER BY id",
    };
    int64_t broken = 0;
    char first[CR_ERROR_MSG_MAX] = "";
    size_t skip = strlen(s->path) + 2; /* "PATH: " */
    cr_coins coins = {0};
    int rc = 0;
    for (size_t q = 0; rc == 0 && q < sizeof sql / sizeof *sql; q++) {
        sqlite3_stmt *st = NULL;
        int step = SQLITE_DONE;
        rc = cr_store__prepare(&st, s, sql[q], "checking it", err);
        while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
            cr_error why = {0};
            if (read_back(s, st, &coins, &why) == 0)
                continue;
            broken += q == 0 ? sqlite3_column_int64(st, 3) : 1;
            if (!first[0])
                snprintf(first, sizeof first, "%s",
                         strncmp(why.msg, s->path, skip - 2) == 0 ? why.msg + skip : why.msg);
        }
        if (rc == 0 && step != SQLITE_DONE)
            rc = cr_store__fail(s, "checking it", err);
        sqlite3_finalize(st);
    }
    cr_coins_free(&coins);
    if (rc == 0 && broken) {
        char finding[CR_ERROR_MSG_MAX + 96];
        snprintf(finding, sizeof finding, "%lld runs, invocations, verdicts, instances or sets that the commands refuse "
                                          "(such as %s)",
                 (long long)broken, first);
        fn(ctx, READ_BACK_CHECK, finding);
        ++*out_failed;
    } else if (rc == 0) {
        fn(ctx, READ_BACK_CHECK, NULL);
    }
    return rc;
}

int cr_store_check_schema(int *out_failed, cr_store *store, cr_store_check_fn fn, void *ctx, cr_error *err)
{
    int ours_ok;
    return schema_check(out_failed, &ours_ok, store, fn, ctx, err);
}

int cr_store_check(unsigned *out_failed, cr_store *store, cr_store_check_fn fn, void *ctx, cr_error *err)
{
    int ok, rc = sqlite_check(&ok, store, "PRAGMA integrity_check", "integrity", fn, ctx, err);
    *out_failed = !ok;
    if (rc == 0 && ok)
        fn(ctx, "integrity", NULL);
    int schema_failed = 0, ours_ok = 1;
    if (rc == 0 && ok)
        rc = schema_check(&schema_failed, &ours_ok, store, fn, ctx, err);
    else if (rc == 0)
        fn(ctx, SCHEMA_CHECK, "not checked: the file is damaged"), fn(ctx, OWN_CHECK, "not checked: the file is damaged");
    *out_failed += (unsigned)schema_failed;
    char *db_word = NULL; /* ?1 of the invariants (NULL, no memory: the path as it is) */
    size_t db_word_len = 0;
    FILE *word = open_memstream(&db_word, &db_word_len);
    if (word) {
        cr_text_put_word(word, store->path);
        fclose(word);
    }
    for (size_t k = 0; rc == 0 && k < sizeof invariants / sizeof invariants[0]; k++) {
        const struct invariant *v = &invariants[k];
        sqlite3_stmt *st = NULL;
        if (!ok || !ours_ok) {
            /* the queries would read damaged pages, or tables that are not
             * the ones they know */
            fn(ctx, v->name, ok ? "not checked: coinrow's tables are not as it defines them"
                              : "not checked: the file is damaged");
            continue;
        }
        if ((rc = cr_store__prepare(&st, store, v->sql, "checking it", err)) != 0)
            break;
        sqlite3_bind_text(st, 1, db_word ? db_word : store->path, -1, SQLITE_STATIC);
        if (sqlite3_step(st) != SQLITE_ROW) {
            rc = cr_store__fail(store, "checking it", err);
        } else if (sqlite3_column_int64(st, 0) == 0) {
            fn(ctx, v->name, NULL);
        } else {
            char finding[4 * CR_ERROR_MSG_MAX]; /* room for a command to paste, with its paths */
            snprintf(finding, sizeof finding, "%lld %s (such as %s)", (long long)sqlite3_column_int64(st, 0),
                     v->says, (const char *)sqlite3_column_text(st, 1));
            fn(ctx, v->name, finding);
            ++*out_failed;
        }
        sqlite3_finalize(st);
    }
    free(db_word);
    if (rc == 0 && ok && ours_ok)
        rc = read_back_check(out_failed, store, fn, ctx, err);
    else if (rc == 0)
        fn(ctx, READ_BACK_CHECK, ok ? "not checked: coinrow's tables are not as it defines them"
                                    : "not checked: the file is damaged");
    return rc;
}

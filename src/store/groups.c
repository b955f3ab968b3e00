/* Groups of tests, the subtasks of a set (schema/010_groups.sql): making
 * them from `generate --group` calls, putting tests in them, reading them
 * back.  What the tables cannot hold to (a test within its group's
 * constraints, no cycle of dependencies) check.c checks. */
#include "store/sql.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

int cr_store_group_name_ok(const char *name)
{
    size_t len = strlen(name);
    if (len == 0 || len > CR_STORE_GROUP_NAME_MAX)
        return 0;
    for (const char *p = name; *p; p++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_", *p))
            return 0;
    return 1;
}

/* One name of a comma list: list's next name into out (cap bytes) and
 * *at past it and its comma; 0 at the end, -1 for a name too long. */
static int next_name(char *out, size_t cap, const char **at)
{
    const char *p = *at, *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (!*p)
        return 0;
    if (len >= cap)
        return -1;
    memcpy(out, p, len);
    out[len] = '\0';
    *at = end ? end + 1 : p + len;
    return 1;
}

/* The id of group `name` of set set_id in *out, 0 when there is none. */
static int group_id(int64_t *out, cr_store *s, int64_t set_id, const char *name, cr_error *err)
{
    sqlite3_stmt *st = NULL;
    *out = 0;
    int rc = cr_store__prepare(&st, s, "SELECT id FROM test_group WHERE set_id = ? AND name = ?", "reading the groups",
                               err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, set_id);
    sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
    int step = sqlite3_step(st);
    if (step == SQLITE_ROW)
        *out = sqlite3_column_int64(st, 0);
    else if (step != SQLITE_DONE)
        rc = cr_store__fail(s, "reading the groups", err);
    sqlite3_finalize(st);
    return rc;
}

/* Finds set `set` or creates it as a set of groups; refuses one that is
 * not made of groups (a generated set keeps its generator, an ingested one
 * has no group). */
static int group_set(int64_t *out, cr_store *s, const char *set, const char *command, cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = cr_store__prepare(&st, s,
                               "SELECT id, generator IS NOT NULL, EXISTS (SELECT 1 FROM test_group AS g "
                               "WHERE g.set_id = instance_set.id) FROM instance_set WHERE name = ?",
                               "reading the sets", err);
    if (rc)
        return rc;
    sqlite3_bind_text(st, 1, set, -1, SQLITE_STATIC);
    int step = sqlite3_step(st);
    if (step == SQLITE_ROW) {
        *out = sqlite3_column_int64(st, 0);
        if (!sqlite3_column_int(st, 2))
            rc = cr_errorf(err, CR_EINVAL, "%s: set '%s' has no groups (it was %s as a whole); groups go in a set "
                                           "of their own",
                           s->path, set, sqlite3_column_int(st, 1) ? "generated" : "ingested");
    } else if (step != SQLITE_DONE) {
        rc = cr_store__fail(s, "reading the sets", err);
    }
    sqlite3_finalize(st);
    if (rc || step == SQLITE_ROW)
        return rc;
    return cr_store_set_find(out, s, set, 1, command, err);
}

/* Refuses a call of spec into group g (as stored) whose tests would not
 * all stay within g's constraints, naming the group and the constraint. */
static int within(cr_store *s, const char *set, const cr_store_group *g, const cr_gen_spec *spec, cr_error *err)
{
    const cr_constraints *have = &g->limits, *l = &spec->limits;
    const char *who = g->name;
    if (l->n_min < have->n_min || l->n_max > have->n_max)
        return cr_errorf(err, CR_EINVAL, "%s: group '%s' of set '%s' has n in %zu..%zu: --n %zu..%zu goes beyond it",
                         s->path, who, set, have->n_min, have->n_max, l->n_min, l->n_max);
    if (l->value_min < have->value_min || l->value_max > have->value_max)
        return cr_errorf(err, CR_EINVAL,
                         "%s: group '%s' of set '%s' has values in %" PRId64 "..%" PRId64 ": --values %" PRId64
                         "..%" PRId64 " goes beyond it",
                         s->path, who, set, have->value_min, have->value_max, l->value_min, l->value_max);
    if (g->all_equal && spec->profile != CR_PROFILE_EQUAL && l->value_min != l->value_max)
        return cr_errorf(err, CR_EINVAL, "%s: group '%s' of set '%s' has all coins equal: --profile %s does not make "
                                         "them so (use --all-equal)",
                         s->path, who, set, cr_profile_name(spec->profile));
    if (have->even_n && !l->even_n)
        return cr_errorf(err, CR_EINVAL, "%s: group '%s' of set '%s' has an even n: add --even-n", s->path, who,
                         set);
    if (have->odd_sum && !l->odd_sum)
        return cr_errorf(err, CR_EINVAL, "%s: group '%s' of set '%s' has an odd sum: add --odd-sum", s->path, who,
                         set);
    return 0;
}

/* Reads group id's points, constraints and dependencies (a comma list in
 * the set's order, into deps, cap bytes) into *out; out->name is left. */
static int group_read(cr_store_group *out, char *deps, size_t cap, cr_store *s, int64_t id, cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = cr_store__prepare(&st, s,
                               "SELECT points, n_min, n_max, value_min, value_max, all_equal, even_n, odd_sum, "
                               "position, coalesce(depends, ''), tests FROM test_group_view WHERE group_id = ?",
                               "reading a group", err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, id);
    if (sqlite3_step(st) == SQLITE_ROW) {
        out->points = sqlite3_column_int64(st, 0);
        out->limits = (cr_constraints){(size_t)sqlite3_column_int64(st, 1), (size_t)sqlite3_column_int64(st, 2),
                                       sqlite3_column_int64(st, 3), sqlite3_column_int64(st, 4),
                                       sqlite3_column_int(st, 6), sqlite3_column_int(st, 7)};
        out->all_equal = sqlite3_column_int(st, 5);
        out->position = sqlite3_column_int64(st, 8);
        snprintf(deps, cap, "%s", (const char *)sqlite3_column_text(st, 9));
        out->depends = deps;
        out->tests = sqlite3_column_int64(st, 10);
    } else {
        rc = cr_store__fail(s, "reading a group", err);
    }
    sqlite3_finalize(st);
    return rc;
}

/* CR_STORE__GROUP_BROKEN: its names and points are not read; nor are
 * dependencies that are missing, of another set or in a cycle, which
 * coinrow never makes: scores would follow them. */
int cr_store_groups_refuse_broken(cr_store *s, int64_t set_id, cr_error *err)
{
    int64_t broken = 0;
    char why[160];
    int rc = cr_store__query_int(&broken, s,
                                 "SELECT coalesce(min(g.id), 0) FROM test_group AS g WHERE g.set_id = ? AND "
                                 CR_STORE__GROUP_BROKEN,
                                 set_id, 0, "reading the groups", err);
    if (rc == 0 && broken)
        return cr_errorf(err, CR_EINVAL, "%s: group %lld of set %lld breaks what its table promises (a name of "
                                         "letters, digits and '_', points 0 to %d, ranges in order): the file was "
                                         "changed outside coinrow, and its groups are not read (coinrow check-db "
                                         "--db %s)",
                         s->path, (long long)broken, (long long)set_id, CR_STORE_GROUP_POINTS_MAX, s->path);
    if (rc == 0)
        rc = cr_store__query_text(why, sizeof why, s,
                                  "SELECT printf('group ''%s'' depends on group %d, which is %s', a.name, "
                                  "d.depends_on, iif(b.id IS NULL, 'missing', 'of another set')) FROM "
                                  CR_STORE__DEPENDENCY_ASTRAY " AND a.set_id = ?1 ORDER BY a.position LIMIT 1",
                                  set_id, "reading the groups", err);
    if (rc == 0 && !why[0])
        rc = cr_store__query_text(why, sizeof why, s,
                                  CR_STORE__DEPENDENCY_REACH "SELECT printf('group ''%s'' depends on itself through "
                                  "others', g.name) FROM reach AS r JOIN test_group AS g ON g.id = r.start WHERE "
                                  "r.start = r.g AND g.set_id = ?1 ORDER BY g.position LIMIT 1",
                                  set_id, "reading the groups", err);
    if (rc == 0 && why[0])
        rc = cr_errorf(err, CR_EINVAL, "%s: set %lld: %s: the file was changed outside coinrow, and its groups are "
                                       "not read (coinrow check-db --db %s)",
                       s->path, (long long)set_id, why, s->path);
    return rc;
}

int cr_store_groups_refuse_case_twins(cr_store *s, int64_t set_id, const char *set, cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = cr_store__prepare(&st, s,
                               "SELECT a.name, b.name FROM test_group AS a JOIN test_group AS b ON b.set_id = a.set_id "
                               "AND b.position > a.position AND b.name = a.name COLLATE NOCASE WHERE a.set_id = ? "
                               "ORDER BY a.position, b.position LIMIT 1",
                               "reading the groups", err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, set_id);
    int step = sqlite3_step(st);
    if (step == SQLITE_ROW)
        rc = cr_errorf(err, CR_EINVAL, "%s: set '%s': groups '%s' and '%s' differ only in letter case: a package's "
                                       "folders of them would be one where case does not count (a zip unpacked on "
                                       "Windows or macOS)",
                       s->path, set, (const char *)sqlite3_column_text(st, 0), (const char *)sqlite3_column_text(st, 1));
    else if (step != SQLITE_DONE)
        rc = cr_store__fail(s, "reading the groups", err);
    sqlite3_finalize(st);
    return rc;
}

int cr_store_group_find(int64_t *out_set, int64_t *out_group, cr_store_group *out, cr_store *store, const char *set,
                        const char *group, cr_error *err)
{
    int64_t groups = 0;
    int rc = cr_store_set_find(out_set, store, set, 0, NULL, err);
    if (rc == CR_EINVAL) /* no such set: said as the group's */
        return cr_errorf(err, rc, "%s: set '%s' has no group '%s' (the database has no set '%s')", store->path, set,
                         group, set);
    if (rc == 0)
        rc = cr_store_groups_refuse_broken(store, *out_set, err);
    if (rc == 0)
        rc = cr_store__query_int(&groups, store, "SELECT count(*) FROM test_group WHERE set_id = ?", *out_set, 0,
                                 "reading the groups", err);
    *out_group = 0;
    sqlite3_stmt *st = NULL;
    if (rc == 0)
        rc = cr_store__prepare(&st, store, "SELECT id FROM test_group WHERE set_id = ? AND name = ?",
                               "reading the groups", err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, *out_set);
    sqlite3_bind_text(st, 2, group, -1, SQLITE_STATIC);
    int step = sqlite3_step(st);
    if (step == SQLITE_ROW)
        *out_group = sqlite3_column_int64(st, 0);
    else if (step != SQLITE_DONE)
        rc = cr_store__fail(store, "reading the groups", err);
    sqlite3_finalize(st);
    if (rc == 0 && !*out_group)
        rc = cr_errorf(err, CR_EINVAL, "%s: set '%s' has no group '%s' (%s)", store->path, set, group,
                       groups ? "generate --group makes one" : "it has no groups: generate --group makes them");
    char deps[1];
    if (rc == 0)
        rc = group_read(out, deps, sizeof deps, store, *out_group, err);
    out->depends = NULL;
    return rc;
}

/* Whether the comma list list[0..len) names `name`. */
static int names(const char *list, size_t len, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list, *end = list + len; p < end;) {
        const char *comma = memchr(p, ',', (size_t)(end - p));
        size_t k = comma ? (size_t)(comma - p) : (size_t)(end - p);
        if (k == n && memcmp(p, name, n) == 0)
            return 1;
        p += k + 1;
    }
    return 0;
}

/* The dependencies of a group as given (want, a comma list) against those
 * it has (have, as group_read gives them): the same names in any order,
 * each once. */
static int same_depends(const char *want, const char *have)
{
    size_t count = 0, had = *have ? 1 : 0;
    for (const char *c = have; *c; c++)
        had += *c == ',';
    char name[CR_STORE_GROUP_NAME_MAX + 1];
    const char *at = want, *start = want;
    int got;
    for (; (got = next_name(name, sizeof name, &at)) == 1; start = at, count++)
        if (!names(have, strlen(have), name) || names(want, (size_t)(start - want), name))
            return 0;
    return got == 0 && count == had;
}

/* Makes group g of set set_id, the last of its order, with its
 * dependencies, each a group of the set other than itself. */
static int group_create(int64_t *out, cr_store *s, int64_t set_id, const char *set, const cr_store_group *g,
                        cr_error *err)
{
    sqlite3_stmt *st = NULL;
    const cr_constraints *l = &g->limits;
    int rc = cr_store__prepare(&st, s,
                               "INSERT INTO test_group (set_id, name, position, points, n_min, n_max, value_min, "
                               "value_max, all_equal, even_n, odd_sum) VALUES (?1, ?2, (SELECT coalesce(max(position), "
                               "0) + 1 FROM test_group WHERE set_id = ?1), ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                               "creating a group", err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, set_id);
    sqlite3_bind_text(st, 2, g->name, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, g->points);
    sqlite3_bind_int64(st, 4, (sqlite3_int64)l->n_min);
    sqlite3_bind_int64(st, 5, (sqlite3_int64)l->n_max);
    sqlite3_bind_int64(st, 6, l->value_min);
    sqlite3_bind_int64(st, 7, l->value_max);
    sqlite3_bind_int(st, 8, !!g->all_equal);
    sqlite3_bind_int(st, 9, !!l->even_n);
    sqlite3_bind_int(st, 10, !!l->odd_sum);
    rc = cr_store__step_done(s, st, "creating a group", err);
    sqlite3_finalize(st);
    if (rc == 0) /* in the transaction that made it: refused, it goes */
        rc = cr_store_groups_refuse_case_twins(s, set_id, set, err);
    if (rc)
        return rc;
    *out = sqlite3_last_insert_rowid(s->db);
    char name[CR_STORE_GROUP_NAME_MAX + 1];
    const char *at = g->depends ? g->depends : "";
    size_t len = strlen(at);
    if (len > 0 && at[len - 1] == ',') /* an empty last name, as an empty first one is */
        return cr_errorf(err, CR_EINVAL, "%s: group '%s' of set '%s' cannot depend on '': not a group name", s->path,
                         g->name, set);
    int got;
    while (rc == 0 && (got = next_name(name, sizeof name, &at)) != 0) {
        int64_t dep = 0;
        if (got < 0 || !cr_store_group_name_ok(name))
            return cr_errorf(err, CR_EINVAL, "%s: group '%s' of set '%s' cannot depend on '%.*s': not a group name",
                             s->path, g->name, set, CR_STORE_GROUP_NAME_MAX, got < 0 ? at : name);
        if (strcmp(name, g->name) == 0)
            return cr_errorf(err, CR_EINVAL, "%s: group '%s' of set '%s' cannot depend on itself (a cycle)", s->path,
                             g->name, set);
        if ((rc = group_id(&dep, s, set_id, name, err)) != 0)
            return rc;
        if (!dep)
            return cr_errorf(err, CR_EINVAL, "%s: group '%s' of set '%s' cannot depend on '%s': the set has no such "
                                             "group (make it first)",
                             s->path, g->name, set, name);
        rc = cr_store__prepare(&st, s, "INSERT INTO test_group_dependency (group_id, depends_on) VALUES (?, ?)",
                               "creating a group", err);
        if (rc)
            return rc;
        sqlite3_bind_int64(st, 1, *out);
        sqlite3_bind_int64(st, 2, dep);
        if ((sqlite3_step(st) & 0xff) == SQLITE_CONSTRAINT) /* the key: the same name again */
            rc = cr_errorf(err, CR_EINVAL, "%s: group '%s' of set '%s': --depends names '%s' twice", s->path, g->name,
                           set, name);
        else if (sqlite3_reset(st) != SQLITE_OK)
            rc = cr_store__fail(s, "creating a group", err);
        sqlite3_finalize(st);
    }
    return rc;
}

/* The number of group_id's call with generator json, made the next one
 * when new. */
static int group_call(int64_t *out, cr_store *s, int64_t group, const char *json, cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = cr_store__prepare(&st, s,
                               "INSERT INTO test_group_generator (group_id, call, generator) SELECT ?1, "
                               "coalesce(max(call), 0) + 1, ?2 FROM test_group_generator WHERE group_id = ?1 "
                               "ON CONFLICT (group_id, generator) DO NOTHING",
                               "recording a group's call", err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, group);
    sqlite3_bind_text(st, 2, json, -1, SQLITE_STATIC);
    rc = cr_store__step_done(s, st, "recording a group's call", err);
    sqlite3_finalize(st);
    if (rc)
        return rc;
    rc = cr_store__prepare(&st, s, "SELECT call FROM test_group_generator WHERE group_id = ? AND generator = ?",
                           "recording a group's call", err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, group);
    sqlite3_bind_text(st, 2, json, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW)
        *out = sqlite3_column_int64(st, 0);
    else
        rc = cr_store__fail(s, "recording a group's call", err);
    sqlite3_finalize(st);
    return rc;
}

/* Inside the transaction: the set, the group (checked or made) and the call. */
static int generated(int64_t *out_set, int64_t *out_group, int64_t *out_call, cr_store *s, const char *set,
                     const cr_store_group *g, const cr_gen_spec *spec, const char *command, cr_error *err)
{
    int rc = group_set(out_set, s, set, command, err);
    if (rc == 0)
        rc = group_id(out_group, s, *out_set, g->name, err);
    if (rc)
        return rc;
    if (!*out_group) {
        rc = group_create(out_group, s, *out_set, set, g, err);
    } else {
        cr_store_group have = {.name = g->name};
        char deps[1024];
        if ((rc = group_read(&have, deps, sizeof deps, s, *out_group, err)) != 0)
            return rc;
        if (have.points != g->points)
            return cr_errorf(err, CR_EINVAL, "%s: group '%s' of set '%s' has %" PRId64 " points, not %" PRId64,
                             s->path, g->name, set, have.points, g->points);
        if (g->depends && !same_depends(g->depends, have.depends))
            return cr_errorf(err, CR_EINVAL, "%s: group '%s' of set '%s' depends on '%s', not '%s'", s->path,
                             g->name, set, have.depends, g->depends);
        rc = within(s, set, &have, spec, err);
    }
    char json[512];
    cr_store__generator_json(json, sizeof json, spec);
    return rc ? rc : group_call(out_call, s, *out_group, json, err);
}

int cr_store_group_generated(int64_t *out_set, int64_t *out_group, int64_t *out_call, cr_store *store,
                             const char *set, const cr_store_group *group, const cr_gen_spec *spec,
                             const char *command, cr_error *err)
{
    int rc = cr_store_begin(store, err);
    if (rc == 0)
        rc = generated(out_set, out_group, out_call, store, set, group, spec, command, err);
    if (rc == 0)
        return cr_store_commit(store, err);
    cr_store_rollback(store);
    return rc;
}

int cr_store_group_add(cr_store *store, int64_t group_id, const cr_store_instance *rows, size_t count,
                       cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = cr_store__prepare(&st, store,
                               "INSERT INTO test_group_instance (instance_id, group_id) VALUES (?, ?) "
                               "ON CONFLICT (instance_id) DO NOTHING",
                               "putting tests in their group", err);
    for (size_t i = 0; rc == 0 && i < count; i++) {
        if (rows[i].state != CR_STORE_ADDED && rows[i].state != CR_STORE_SAME)
            continue;
        sqlite3_bind_int64(st, 1, rows[i].id);
        sqlite3_bind_int64(st, 2, group_id);
        rc = cr_store__step_done(store, st, "putting tests in their group", err);
    }
    sqlite3_finalize(st);
    return rc;
}

int cr_store_groups_each(size_t *out_count, cr_store *store, int64_t set_id, cr_store_group_fn fn, void *ctx,
                         cr_error *err)
{
    sqlite3_stmt *st = NULL;
    *out_count = 0;
    int rc = cr_store_groups_refuse_broken(store, set_id, err);
    if (rc == 0)
        rc = cr_store__prepare(&st, store, "SELECT id, name FROM test_group WHERE set_id = ? ORDER BY position",
                               "reading the groups", err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, set_id);
    int step;
    while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
        char name[CR_STORE_GROUP_NAME_MAX + 1], deps[1024];
        snprintf(name, sizeof name, "%s", (const char *)sqlite3_column_text(st, 1));
        cr_store_group g = {.name = name};
        if ((rc = group_read(&g, deps, sizeof deps, store, sqlite3_column_int64(st, 0), err)) == 0) {
            ++*out_count;
            rc = fn(ctx, &g);
        }
    }
    if (rc == 0 && step != SQLITE_DONE)
        rc = cr_store__fail(store, "reading the groups", err);
    sqlite3_finalize(st);
    return rc;
}

int cr_store_group_tests_each(cr_store *store, int64_t set_id, cr_store_group_test_fn fn, void *ctx, cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = cr_store__prepare(&st, store,
                               "SELECT t.instance_id, (SELECT count(*) FROM test_group AS o WHERE o.set_id = g.set_id "
                               "AND o.position <= g.position) FROM test_group_instance AS t JOIN test_group AS g "
                               "ON g.id = t.group_id WHERE g.set_id = ? ORDER BY t.instance_id",
                               "reading the groups' tests", err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, set_id);
    int step;
    while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW)
        rc = fn(ctx, sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1));
    if (rc == 0 && step != SQLITE_DONE)
        rc = cr_store__fail(store, "reading the groups' tests", err);
    sqlite3_finalize(st);
    return rc;
}

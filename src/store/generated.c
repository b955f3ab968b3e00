/* Generated sets: the generator's arguments a set keeps (the column
 * generator of instance_set), so that it can be made again, audited, and
 * described to judges by its constraints. */
#include "store/sql.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

void cr_store__generator_json(char *out, size_t cap, const cr_gen_spec *spec)
{
    const cr_constraints *l = &spec->limits;
    snprintf(out, cap,
             "{\"count\":%" PRIu64 ",\"n_min\":%zu,\"n_max\":%zu,\"value_min\":%" PRId64 ",\"value_max\":%" PRId64
             ",\"even_n\":%s,\"odd_sum\":%s,\"profile\":\"%s\",\"seed\":%" PRIu64 "}",
             spec->count, l->n_min, l->n_max, l->value_min, l->value_max, l->even_n ? "true" : "false",
             l->odd_sum ? "true" : "false", cr_profile_name(spec->profile), spec->seed);
}

void cr_store_generator_command(FILE *f, const char *name, const cr_gen_spec *spec)
{
    const cr_constraints *l = &spec->limits;
    fputs("coinrow generate --set ", f);
    cr_text_put_word(f, name);
    fprintf(f, " --count %" PRIu64 " --n %zu..%zu --values %" PRId64 "..%" PRId64 " --seed %" PRIu64 " --profile %s%s%s",
            spec->count, l->n_min, l->n_max, l->value_min, l->value_max, spec->seed, cr_profile_name(spec->profile),
            l->even_n ? " --even-n" : "", l->odd_sum ? " --odd-sum" : "");
}

/* cr_store_generator_command into out (cap bytes, cut to fit). */
static void spec_command(char *out, size_t cap, const char *name, const cr_gen_spec *spec)
{
    FILE *f = fmemopen(out, cap, "w");
    out[0] = '\0';
    if (f) {
        cr_store_generator_command(f, name, spec);
        fclose(f);
    }
    out[cap - 1] = '\0';
}

/* Inside the transaction: finds or creates the set. */
static int find_or_create(int64_t *out_id, cr_store *store, const char *name, const char *json, const char *command,
                          cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = cr_store__prepare(&st, store,
                               "SELECT id, generator, source, EXISTS (SELECT 1 FROM test_group AS g WHERE g.set_id = "
                               "instance_set.id) FROM instance_set WHERE name = ?",
                               "reading the sets", err);
    if (rc)
        return rc;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    int step = sqlite3_step(st);
    if (step == SQLITE_ROW) {
        const char *generator = (const char *)sqlite3_column_text(st, 1);
        const char *source = (const char *)sqlite3_column_text(st, 2);
        *out_id = sqlite3_column_int64(st, 0);
        if (sqlite3_column_int(st, 3))
            rc = cr_errorf(err, CR_EINVAL, "%s: set '%s' is made of groups: generate into it with --group", store->path,
                           name);
        else if (!generator)
            rc = cr_errorf(err, CR_EINVAL, "%s: set '%s' was not generated (its instances come from %s); "
                                           "generate into another set name",
                           store->path, name, source ? source : "ingest");
        else if (strcmp(generator, json) != 0)
            rc = cr_errorf(err, CR_EINVAL, "%s: set '%s' was generated with other arguments: %s", store->path, name,
                           source ? source : generator);
    } else if (step != SQLITE_DONE) {
        rc = cr_store__fail(store, "reading the sets", err);
    }
    sqlite3_finalize(st);
    if (rc || step == SQLITE_ROW)
        return rc;
    /* a new set: the store makes it, with the command as its source */
    if ((rc = cr_store_set_find(out_id, store, name, 1, command, err)) != 0)
        return rc;
    rc = cr_store__prepare(&st, store, "UPDATE instance_set SET generator = ? WHERE id = ?", "creating a set", err);
    if (rc)
        return rc;
    sqlite3_bind_text(st, 1, json, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, *out_id);
    rc = cr_store__step_done(store, st, "creating a set", err);
    sqlite3_finalize(st);
    return rc;
}

int cr_store_set_generated(int64_t *out_id, cr_store *store, const char *name, const cr_gen_spec *spec,
                           cr_error *err)
{
    char json[512], command[512];
    cr_store__generator_json(json, sizeof json, spec);
    spec_command(command, sizeof command, name, spec);
    int rc = cr_store_begin(store, err);
    if (rc == 0)
        rc = find_or_create(out_id, store, name, json, command, err);
    if (rc == 0)
        return cr_store_commit(store, err);
    cr_store_rollback(store);
    return rc;
}

/* Two unsigned decimals from "[A,B]": json_extract with two paths gives
 * the values' own text, where one path gives a REAL for one beyond int64
 * (a seed may be up to 2^64 - 1).  1 when both are read. */
static int two_u64(uint64_t *a, uint64_t *b, const char *text)
{
    char *end;
    if (!text || text[0] != '[' || text[1] < '0' || text[1] > '9')
        return 0;
    errno = 0;
    *a = strtoull(text + 1, &end, 10);
    if (errno || *end != ',' || end[1] < '0' || end[1] > '9')
        return 0;
    *b = strtoull(end + 1, &end, 10);
    return !errno && end[0] == ']' && end[1] == '\0';
}

int cr_store_set_generator(cr_gen_spec *out, int *out_found, cr_store *store, int64_t set_id, cr_error *err)
{
    sqlite3_stmt *st = NULL;
    *out_found = 0;
    int rc = cr_store__prepare(&st, store,
                               "SELECT generator IS NOT NULL, json_extract(generator, '$.n_min'), "
                               "json_extract(generator, '$.n_max'), json_extract(generator, '$.value_min'), "
                               "json_extract(generator, '$.value_max'), json_extract(generator, '$.even_n'), "
                               "json_extract(generator, '$.odd_sum'), json_extract(generator, '$.profile'), "
                               "json_type(generator, '$.count') = 'integer' AND json_type(generator, '$.seed') = "
                               "'integer', json_extract(generator, '$.count', '$.seed') FROM instance_set WHERE id = ?",
                               "reading a set's generator", err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, set_id);
    int step = sqlite3_step(st);
    if (step == SQLITE_ROW && sqlite3_column_int(st, 0)) {
        int readable = sqlite3_column_int(st, 8);
        for (int c = 1; c <= 6; c++)
            readable &= sqlite3_column_type(st, c) == SQLITE_INTEGER;
        int64_t n_min = sqlite3_column_int64(st, 1), n_max = sqlite3_column_int64(st, 2);
        cr_constraints *l = &out->limits;
        *l = (cr_constraints){(size_t)n_min, (size_t)n_max, sqlite3_column_int64(st, 3), sqlite3_column_int64(st, 4),
                              sqlite3_column_int(st, 5), sqlite3_column_int(st, 6)};
        readable = readable && two_u64(&out->count, &out->seed, (const char *)sqlite3_column_text(st, 9)) &&
                   cr_profile_parse(&out->profile, (const char *)sqlite3_column_text(st, 7), NULL) == 0;
        if (!readable || out->count < 1 || n_min < 1 || n_max < n_min || (uint64_t)n_max > CR_N_MAX ||
            l->value_min > l->value_max)
            rc = cr_errorf(err, CR_EDB, "%s: set %lld: the generator's arguments cannot be read", store->path,
                           (long long)set_id);
        else
            *out_found = 1;
    } else if (step != SQLITE_ROW && step != SQLITE_DONE) {
        rc = cr_store__fail(store, "reading a set's generator", err);
    }
    sqlite3_finalize(st);
    return rc;
}

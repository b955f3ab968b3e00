/* Shard databases: making one from an input database, merging a job's. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "io/shard.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/coins_text.h"

#define BATCH 256 /* instances per write */

/* ---- hashing ---- */

#define FNV_OFFSET 0xcbf29ce484222325u
#define FNV_PRIME 0x100000001b3u

static uint64_t fnv(uint64_t h, const char *bytes, size_t len)
{
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)bytes[i]) * FNV_PRIME;
    return h;
}

uint32_t cr_shard_of(const char *set_name, const char *ext_id, size_t ext_id_len, uint32_t n)
{
    uint64_t h = fnv(FNV_OFFSET, set_name, strlen(set_name) + 1); /* with its NUL: the zero byte */
    return (uint32_t)(fnv(h, ext_id, ext_id_len) % n);
}

/* A set's fingerprint: the sum (mod 2^64) of every instance's FNV-1a of
 * (ext_id, a zero byte, its coins as JSON), so that the order of the rows
 * does not matter. */
typedef struct fingerprint {
    uint64_t size, digest;
} fingerprint;

static void fingerprint_add(fingerprint *f, const cr_instance *in)
{
    f->size++;
    f->digest += fnv(fnv(FNV_OFFSET, in->ext_id, strlen(in->ext_id) + 1), in->coins_json, in->coins_json_len);
}

/* ---- batches of instances (and their results) on their way to a store ---- */

typedef struct batch {
    cr_store_instance rows[BATCH];
    char *text[BATCH]; /* each row's ext_id and JSON, owned */
    size_t count;
    cr_store_result results[BATCH * CR_VARIANT_COUNT];
    size_t row_of[BATCH * CR_VARIANT_COUNT]; /* the row each result belongs to */
    char *result_text[BATCH * CR_VARIANT_COUNT];
    size_t result_count;
} batch;

/* Adds an instance to b (copying its strings); CR_ENOMEM. */
static int batch_instance(batch *b, const cr_instance *in, cr_error *err)
{
    size_t ext_id_len = strlen(in->ext_id);
    char *text = malloc(ext_id_len + 1 + in->coins_json_len + 1);
    if (!text)
        return cr_error_set(err, CR_ENOMEM, "no memory for instance '%s'", in->ext_id);
    memcpy(text, in->ext_id, ext_id_len + 1);
    char *json = text + ext_id_len + 1;
    memcpy(json, in->coins_json, in->coins_json_len + 1);
    int64_t total = 0;
    int fits = cr_coins_total(&total, in->coins, in->n);
    b->text[b->count] = text;
    b->rows[b->count++] =
        (cr_store_instance){text, ext_id_len, json, in->coins_json_len, in->n, total, fits, 0, 0};
    return 0;
}

/* Adds a result of the batch's last instance (copying its strings). */
static int batch_result(batch *b, const cr_stored_result *r, cr_error *err)
{
    size_t moves_len = r->moves ? strlen(r->moves) : 0, error_len = r->error ? strlen(r->error) : 0;
    char *text = malloc(moves_len + error_len + 2);
    if (!text)
        return cr_error_set(err, CR_ENOMEM, "no memory for a result of '%s'", r->ext_id);
    memcpy(text, r->moves ? r->moves : "", moves_len + 1);
    memcpy(text + moves_len + 1, r->error ? r->error : "", error_len + 1);
    size_t k = b->result_count++;
    b->result_text[k] = text;
    b->row_of[k] = b->count - 1;
    b->results[k] = (cr_store_result){0,
                                      r->variant,
                                      r->error ? text + moves_len + 1 : NULL,
                                      r->missing,
                                      r->value,
                                      r->first_score,
                                      r->second_score,
                                      r->winner,
                                      r->moves ? text : NULL,
                                      moves_len};
    return 0;
}

static void batch_clear(batch *b)
{
    for (size_t i = 0; i < b->count; i++)
        free(b->text[i]);
    for (size_t i = 0; i < b->result_count; i++)
        free(b->result_text[i]);
    b->count = b->result_count = 0;
}

/* Writes the batch's instances to set_id and its results to run (0: none);
 * an instance the set has with other coins is CR_EINVAL. */
static int batch_flush(batch *b, cr_store *store, int64_t set_id, int64_t run, cr_error *err)
{
    int rc = b->count ? cr_store_add_instances(store, set_id, b->rows, b->count, err) : 0;
    for (size_t i = 0; rc == 0 && i < b->count; i++)
        if (b->rows[i].state == CR_STORE_CLASH)
            rc = cr_error_set(err, CR_EINVAL, "%s: instance '%s' has other coins than the shards'", cr_store_path(store),
                              b->rows[i].ext_id);
    for (size_t k = 0; rc == 0 && k < b->result_count; k++)
        b->results[k].instance_id = b->rows[b->row_of[k]].id;
    if (rc == 0 && run && b->result_count)
        rc = cr_store_add_results(NULL, store, run, b->results, b->result_count, err);
    batch_clear(b);
    return rc;
}

/* ---- one shard ---- */

typedef struct shard_info {
    char path[PATH_MAX]; /* as given */
    char real[PATH_MAX]; /* resolved, to find a file given twice */
    int64_t run;
    uint32_t k, n;
    fingerprint set;
    char set_name[256], input[PATH_MAX];
    cr_run run_row;
    uint64_t instances, solved;
} shard_info;

/* Reads the shard row of an open store: 1 found, 0 none, or a code. */
static int read_shard(shard_info *out, cr_store *store, cr_error *err)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(cr_store_db(store),
                           "SELECT s.run_id, s.k, s.n, s.set_size, s.set_digest, s.input, i.name, "
                           "(SELECT count(*) FROM instance WHERE set_id = i.id) "
                           "FROM shard AS s JOIN run AS r ON r.id = s.run_id JOIN instance_set AS i ON i.id = r.set_id",
                           -1, &st, NULL) != SQLITE_OK)
        return cr_store_fail(store, "reading the shard", err);
    int step = sqlite3_step(st), rc = 0;
    if (step == SQLITE_ROW) {
        out->run = sqlite3_column_int64(st, 0);
        out->k = (uint32_t)sqlite3_column_int64(st, 1);
        out->n = (uint32_t)sqlite3_column_int64(st, 2);
        out->set.size = (uint64_t)sqlite3_column_int64(st, 3);
        out->set.digest = strtoull((const char *)sqlite3_column_text(st, 4), NULL, 16);
        snprintf(out->input, sizeof out->input, "%s", (const char *)sqlite3_column_text(st, 5));
        snprintf(out->set_name, sizeof out->set_name, "%s", (const char *)sqlite3_column_text(st, 6));
        out->instances = (uint64_t)sqlite3_column_int64(st, 7);
        rc = cr_store_run_find(&out->run_row, store, out->run, CR_PICK_ANY, err);
        if (rc == 0)
            rc = cr_store_run_solved(&out->solved, store, out->run, err);
    } else if (step != SQLITE_DONE) {
        rc = cr_store_fail(store, "reading the shard", err);
    }
    sqlite3_finalize(st);
    return rc ? rc : step == SQLITE_ROW;
}

static int same_opts(const cr_solve_opts *a, const cr_solve_opts *b)
{
    return a->variants == b->variants && a->algo == b->algo && a->moves == b->moves;
}

/* Copies the input's instances of shard k/n into the shard store, in the
 * open transaction, and fingerprints the whole set on the way. */
static int copy_shard(fingerprint *out, cr_store *shard, int64_t shard_set, cr_store *input, int64_t input_set,
                      const char *set_name, const cr_shard_spec *spec, cr_error *err)
{
    cr_store_instances *it = NULL;
    batch *b = calloc(1, sizeof *b);
    int rc = b ? cr_store_instances_new(&it, input, input_set, 0, err) : cr_error_set(err, CR_ENOMEM, "no memory");
    const cr_instance *in;
    while (rc == 0 && (rc = cr_store_instances_next(&in, it, err)) == 1) {
        rc = 0;
        fingerprint_add(out, in);
        if (cr_shard_of(set_name, in->ext_id, strlen(in->ext_id), spec->n) != spec->k)
            continue;
        rc = batch_instance(b, in, err);
        if (rc == 0 && b->count == BATCH)
            rc = batch_flush(b, shard, shard_set, 0, err);
    }
    if (rc == 0)
        rc = batch_flush(b, shard, shard_set, 0, err);
    if (b)
        batch_clear(b);
    free(b);
    cr_store_instances_free(it);
    return rc;
}

static int insert_shard_row(cr_store *shard, int64_t run, const cr_shard_spec *spec, const fingerprint *set,
                            cr_error *err)
{
    char digest[17];
    snprintf(digest, sizeof digest, "%016" PRIx64, set->digest);
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(cr_store_db(shard),
                           "INSERT INTO shard (run_id, k, n, set_size, set_digest, input) VALUES (?, ?, ?, ?, ?, ?)", -1,
                           &st, NULL) != SQLITE_OK)
        return cr_store_fail(shard, "recording the shard", err);
    sqlite3_bind_int64(st, 1, run);
    sqlite3_bind_int64(st, 2, spec->k);
    sqlite3_bind_int64(st, 3, spec->n);
    sqlite3_bind_int64(st, 4, (int64_t)set->size);
    sqlite3_bind_text(st, 5, digest, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 6, spec->input, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : cr_store_fail(shard, "recording the shard", err);
    sqlite3_finalize(st);
    return rc;
}

/* A shard database that already holds a shard must hold this one. */
static int check_same_shard(const shard_info *have, cr_store *shard, const cr_shard_spec *spec, cr_error *err)
{
    if (have->k != spec->k || have->n != spec->n || strcmp(have->run_row.tag, spec->tag) != 0 ||
        (spec->set && strcmp(have->set_name, spec->set) != 0))
        return cr_error_set(err, CR_EINVAL, "%s holds shard %u/%u of job '%s' (set '%s'), not shard %u/%u of job '%s'",
                            cr_store_path(shard), have->k, have->n, have->run_row.tag, have->set_name, spec->k, spec->n,
                            spec->tag);
    if (!same_opts(&have->run_row.opts, &spec->opts)) {
        char variants[CR_VARIANTS_TEXT_MAX];
        cr_variants_format(variants, have->run_row.opts.variants);
        return cr_error_set(err, CR_EINVAL, "%s: shard %u/%u of job '%s' was started with other options "
                            "(--variant %s --algo %s --moves %s): give them again, or another --out",
                            cr_store_path(shard), have->k, have->n, have->run_row.tag, variants,
                            cr_algo_name(have->run_row.opts.algo), cr_moves_name(have->run_row.opts.moves));
    }
    return 0;
}

int cr_shard_prepare(int64_t *out_set, int64_t *out_run, int *out_done, cr_store *shard, const cr_shard_spec *spec,
                     cr_error *err)
{
    shard_info *have = calloc(1, sizeof *have);
    if (!have)
        return cr_error_set(err, CR_ENOMEM, "no memory");
    int rc = read_shard(have, shard, err);
    if (rc == 1) { /* started again: go on with what is there */
        rc = check_same_shard(have, shard, spec, err);
        *out_set = have->run_row.set_id;
        *out_run = have->run;
        *out_done = have->run_row.status == CR_RUN_DONE;
        free(have);
        return rc;
    }
    free(have);
    if (rc)
        return rc;

    cr_store *input = NULL;
    int64_t input_set, shard_set, run;
    char set_name[256], source[PATH_MAX + 32];
    fingerprint set = {0, 0};
    rc = cr_store_new(&input, spec->input, CR_STORE_READ, err);
    if (rc == 0)
        rc = cr_store_set_find(&input_set, input, spec->set, 0, NULL, err);
    if (rc == 0)
        rc = cr_store_set_name(set_name, sizeof set_name, input, input_set, err);
    snprintf(source, sizeof source, "shard %u/%u of %s", spec->k, spec->n, spec->input);
    if (rc == 0)
        rc = cr_store_begin(shard, err);
    if (rc == 0) {
        rc = cr_store_set_find(&shard_set, shard, set_name, 1, source, err);
        if (rc == 0)
            rc = copy_shard(&set, shard, shard_set, input, input_set, set_name, spec, err);
        if (rc == 0)
            rc = cr_store_run_new(&run, shard, shard_set, &spec->opts, spec->solver_version, spec->label, err);
        if (rc == 0)
            rc = cr_store_run_set_tag(shard, run, spec->tag, err);
        if (rc == 0)
            rc = insert_shard_row(shard, run, spec, &set, err);
        if (rc == 0)
            rc = cr_store_commit(shard, err);
        else
            cr_store_rollback(shard);
    }
    cr_store_free(input);
    if (rc == 0) {
        *out_set = shard_set;
        *out_run = run;
        *out_done = 0;
    }
    return rc;
}

/* ---- merging ---- */

/* Opens and reads every shard, dropping files given twice. */
static int read_shards(shard_info *shards, size_t *count, const char *const *paths, cr_error *err)
{
    size_t kept = 0;
    int rc = 0;
    for (size_t i = 0; i < *count && rc == 0; i++) {
        shard_info *s = &shards[kept];
        if (!realpath(paths[i], s->real)) {
            rc = cr_error_set(err, CR_EIO, "cannot open shard %s", paths[i]);
            break;
        }
        int seen = 0;
        for (size_t j = 0; j < kept && !seen; j++)
            seen = strcmp(shards[j].real, s->real) == 0;
        if (seen)
            continue; /* the same file twice is merged once */
        cr_store *store = NULL;
        rc = cr_store_new(&store, paths[i], CR_STORE_READ, err);
        int found = rc == 0 ? read_shard(s, store, err) : rc;
        cr_store_free(store);
        if (found == 0)
            rc = cr_error_set(err, CR_EINVAL, "%s is not a shard database (coinrow solve --shard makes them)", paths[i]);
        else if (found < 0)
            rc = found;
        snprintf(s->path, sizeof s->path, "%s", paths[i]);
        kept++;
    }
    *count = kept;
    return rc;
}

/* The shards must be one job's, all of it, each once and done. */
static int check_job(const shard_info *shards, size_t count, cr_error *err)
{
    const shard_info *first = &shards[0];
    for (size_t i = 1; i < count; i++) {
        const shard_info *s = &shards[i];
        if (strcmp(s->run_row.tag, first->run_row.tag) != 0)
            return cr_error_set(err, CR_EINVAL, "%s is shard %u/%u of job '%s', but %s is of job '%s': a stranger",
                                s->path, s->k, s->n, s->run_row.tag, first->path, first->run_row.tag);
        if (s->n != first->n || strcmp(s->set_name, first->set_name) != 0 || s->set.size != first->set.size ||
            s->set.digest != first->set.digest || !same_opts(&s->run_row.opts, &first->run_row.opts))
            return cr_error_set(err, CR_EINVAL,
                                "%s and %s are of job '%s' but differ (shard count, set, its data or the options): "
                                "made from different inputs",
                                s->path, first->path, s->run_row.tag);
    }
    uint64_t covered = 0;
    for (uint32_t k = 0; k < first->n; k++) {
        const shard_info *found = NULL;
        for (size_t i = 0; i < count; i++) {
            if (shards[i].k != k)
                continue;
            if (found)
                return cr_error_set(err, CR_EINVAL, "shard %u/%u of job '%s' is given twice: %s and %s", k, first->n,
                                    first->run_row.tag, found->path, shards[i].path);
            found = &shards[i];
        }
        if (!found)
            return cr_error_set(err, CR_EINVAL, "shard %u/%u of job '%s' is missing (%zu of %u shards given)", k,
                                first->n, first->run_row.tag, count, first->n);
        if (found->run_row.status != CR_RUN_DONE)
            return cr_error_set(err, CR_EINVAL,
                                "shard %u/%u of job '%s' (%s) is not done: %s, %" PRIu64 " of %" PRIu64
                                " instances solved; run its task again",
                                k, first->n, first->run_row.tag, found->path, cr_run_status_name(found->run_row.status),
                                found->solved, found->instances);
        covered += found->instances;
    }
    if (covered != first->set.size)
        return cr_error_set(err, CR_EINVAL, "the %u shards of job '%s' hold %" PRIu64 " instances; set '%s' had %" PRIu64,
                            first->n, first->run_row.tag, covered, first->set_name, first->set.size);
    return 0;
}

/* The fingerprint of a set already in the target. */
static int fingerprint_set(fingerprint *out, cr_store *store, int64_t set_id, cr_error *err)
{
    cr_store_instances *it = NULL;
    const cr_instance *in;
    int rc = cr_store_instances_new(&it, store, set_id, 0, err);
    while (rc == 0 && (rc = cr_store_instances_next(&in, it, err)) == 1) {
        rc = 0;
        fingerprint_add(out, in);
    }
    cr_store_instances_free(it);
    return rc;
}

/* Copies one shard's results (and instances) into the target's run. */
static int merge_shard(cr_merge_report *out, batch *b, cr_store *into, int64_t set_id, int64_t run, const shard_info *s,
                       cr_error *err)
{
    cr_store *store = NULL;
    cr_store_results *it = NULL;
    cr_coins coins = {0};
    const cr_stored_result *r;
    int rc = cr_store_new(&store, s->path, CR_STORE_READ, err);
    if (rc == 0)
        rc = cr_store_results_new(&it, store, s->run, CR_BY_EXT_ID, err);
    while (rc == 0 && (rc = cr_store_results_next(&r, it, err)) == 1) {
        rc = 0;
        size_t ext_len = strlen(r->ext_id);
        int new_instance = b->count == 0 || strcmp(b->rows[b->count - 1].ext_id, r->ext_id) != 0;
        if (new_instance && b->count == BATCH)
            rc = batch_flush(b, into, set_id, run, err);
        if (rc == 0 && new_instance) {
            if (cr_shard_of(s->set_name, r->ext_id, ext_len, s->n) != s->k)
                rc = cr_error_set(err, CR_EINVAL, "%s: instance '%s' does not belong to shard %u/%u", s->path, r->ext_id,
                                  s->k, s->n);
            else if ((rc = cr_coins_parse(&coins, r->coins, strlen(r->coins), err)) == 0) {
                cr_instance in = {0, r->ext_id, coins.v, coins.n, coins.json, coins.json_len};
                if ((rc = batch_instance(b, &in, err)) == 0)
                    out->instances++;
            }
        }
        if (rc == 0 && (rc = batch_result(b, r, err)) == 0)
            out->results++;
    }
    cr_coins_free(&coins);
    cr_store_results_free(it);
    cr_store_free(store);
    return rc;
}

/* The run of `into` that already holds the job tag: its id, or 0. */
static int merged_before(int64_t *out, cr_store *into, const char *tag, cr_error *err)
{
    sqlite3_stmt *st = NULL;
    *out = 0;
    if (sqlite3_prepare_v2(cr_store_db(into), "SELECT id FROM run WHERE tag = ? AND status = 'done' LIMIT 1", -1, &st,
                           NULL) != SQLITE_OK)
        return cr_store_fail(into, "reading the runs", err);
    sqlite3_bind_text(st, 1, tag, -1, SQLITE_STATIC);
    int step = sqlite3_step(st);
    if (step == SQLITE_ROW)
        *out = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return step == SQLITE_ROW || step == SQLITE_DONE ? 0 : cr_store_fail(into, "reading the runs", err);
}

/* What the target holds already, read without writing to it: the run of a
 * job merged before (*out_run), or else that its set, when it has one, is
 * the data the shards were made from. */
static int check_target(int64_t *out_run, const char *into_path, const shard_info *shard, cr_error *err)
{
    *out_run = 0;
    if (access(into_path, F_OK) != 0)
        return 0; /* a new database */
    cr_store *into = NULL;
    int64_t set_id;
    cr_error missing;
    fingerprint have = {0, 0};
    int rc = cr_store_new(&into, into_path, CR_STORE_READ, err);
    if (rc == 0)
        rc = merged_before(out_run, into, shard->run_row.tag, err);
    if (rc == 0 && !*out_run && cr_store_set_find(&set_id, into, shard->set_name, 0, NULL, &missing) == 0) {
        rc = fingerprint_set(&have, into, set_id, err);
        if (rc == 0 && (have.size != shard->set.size || have.digest != shard->set.digest))
            rc = cr_error_set(err, CR_EINVAL,
                              "%s: set '%s' (%" PRIu64 " instances) is not the data the shards of job '%s' were made "
                              "from (%" PRIu64 " instances)",
                              into_path, shard->set_name, have.size, shard->run_row.tag, shard->set.size);
    }
    cr_store_free(into);
    return rc;
}

/* Writes the merged run: one transaction. */
static int write_merge(cr_merge_report *out, batch *b, const char *into_path, const shard_info *shards, size_t count,
                       cr_error *err)
{
    cr_store *into = NULL;
    int64_t set_id;
    double seconds = 0;
    char label[256];
    snprintf(label, sizeof label, "merged from %u shards of job %s", out->shards, out->tag);
    for (size_t i = 0; i < count; i++)
        seconds += shards[i].run_row.seconds;
    int rc = cr_store_new(&into, into_path, CR_STORE_WRITE, err);
    if (rc == 0)
        rc = cr_store_begin(into, err);
    if (rc) {
        cr_store_free(into);
        return rc;
    }
    rc = cr_store_set_find(&set_id, into, shards[0].set_name, 1, "merged shards", err);
    if (rc == 0)
        rc = cr_store_run_new(&out->run, into, set_id, &shards[0].run_row.opts, shards[0].run_row.solver_version, label,
                              err);
    if (rc == 0)
        rc = cr_store_run_set_tag(into, out->run, out->tag, err);
    for (size_t i = 0; rc == 0 && i < count; i++)
        rc = merge_shard(out, b, into, set_id, out->run, &shards[i], err);
    if (rc == 0)
        rc = batch_flush(b, into, set_id, out->run, err);
    if (rc == 0)
        rc = cr_store_run_add_seconds(into, out->run, seconds, err);
    if (rc == 0)
        rc = cr_store_run_set_status(into, out->run, CR_RUN_DONE, NULL, err);
    if (rc == 0)
        rc = cr_store_commit(into, err);
    else
        cr_store_rollback(into);
    cr_store_free(into);
    return rc;
}

int cr_shard_merge(cr_merge_report *out, const char *into_path, const char *const *paths, size_t count,
                   cr_error *err)
{
    memset(out, 0, sizeof *out);
    if (count == 0)
        return cr_error_set(err, CR_EINVAL, "no shard databases to merge");
    shard_info *shards = calloc(count, sizeof *shards);
    batch *b = calloc(1, sizeof *b);
    int rc = shards && b ? read_shards(shards, &count, paths, err) : cr_error_set(err, CR_ENOMEM, "no memory");
    if (rc == 0)
        rc = check_job(shards, count, err);
    if (rc == 0) {
        snprintf(out->tag, sizeof out->tag, "%s", shards[0].run_row.tag);
        out->shards = shards[0].n;
        rc = check_target(&out->run, into_path, &shards[0], err);
    }
    out->already = rc == 0 && out->run;
    if (rc == 0 && !out->already)
        rc = write_merge(out, b, into_path, shards, count, err);
    if (b)
        batch_clear(b);
    free(b);
    free(shards);
    return rc;
}

/* Shard databases: making one from an input database, merging a job's. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "batch/batch.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/util.h"

#define STAGED 256 /* instances per write */

/* ---- hashing ---- */

uint32_t cr_shard_of(const char *set_name, const char *ext_id, size_t ext_id_len, uint32_t n)
{
    uint64_t h = cr_fnv1a(CR_FNV1A_BASIS, set_name, strlen(set_name) + 1); /* with its NUL: the zero byte */
    return (uint32_t)(cr_fnv1a(h, ext_id, ext_id_len) % n);
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
    f->digest +=
        cr_fnv1a(cr_fnv1a(CR_FNV1A_BASIS, in->ext_id, strlen(in->ext_id) + 1), in->coins_json, in->coins_json_len);
}

/* ---- instances (and their results) staged on their way to a store ---- */

typedef struct stage {
    cr_store_instance rows[STAGED];
    char *text[STAGED]; /* each row's ext_id and JSON, owned */
    size_t count;
    cr_store_result results[STAGED * CR_VARIANT_COUNT];
    size_t row_of[STAGED * CR_VARIANT_COUNT]; /* the row each result belongs to */
    char *result_text[STAGED * CR_VARIANT_COUNT];
    size_t result_count;
} stage;

/* Adds an instance to b (copying its strings); CR_ENOMEM. */
static int stage_instance(stage *b, const cr_instance *in, cr_error *err)
{
    size_t ext_id_len = strlen(in->ext_id);
    char *text = malloc(ext_id_len + 1 + in->coins_json_len + 1);
    if (!text)
        return cr_errorf(err, CR_ENOMEM, "no memory for instance '%s'", in->ext_id);
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

/* Adds a result of the last staged instance (copying its strings). */
static int stage_result(stage *b, const cr_stored_result *r, cr_error *err)
{
    size_t moves_len = r->moves ? strlen(r->moves) : 0, error_len = r->error ? strlen(r->error) : 0;
    char *text = malloc(moves_len + error_len + 2);
    if (!text)
        return cr_errorf(err, CR_ENOMEM, "no memory for a result of '%s'", r->ext_id);
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

static void stage_clear(stage *b)
{
    for (size_t i = 0; i < b->count; i++)
        free(b->text[i]);
    for (size_t i = 0; i < b->result_count; i++)
        free(b->result_text[i]);
    b->count = b->result_count = 0;
}

/* Writes the staged instances to set_id and its results to run (0: none);
 * an instance the set has with other coins is CR_EINVAL. */
static int stage_flush(stage *b, cr_store *store, int64_t set_id, int64_t run, cr_error *err)
{
    int rc = b->count ? cr_store_add_instances(store, set_id, b->rows, b->count, err) : 0;
    for (size_t i = 0; rc == 0 && i < b->count; i++)
        if (b->rows[i].state == CR_STORE_CLASH)
            rc = cr_errorf(err, CR_EINVAL, "%s: instance '%s' has other coins than the shards'", cr_store_path(store),
                           b->rows[i].ext_id);
    for (size_t k = 0; rc == 0 && k < b->result_count; k++)
        b->results[k].instance_id = b->rows[b->row_of[k]].id;
    if (rc == 0 && run && b->result_count)
        rc = cr_store_add_results(NULL, store, run, b->results, b->result_count, err);
    stage_clear(b);
    return rc;
}

/* ---- one shard ---- */

typedef struct shard_info {
    char path[PATH_MAX]; /* as given */
    char real[PATH_MAX]; /* resolved, to find a file given twice */
    cr_store_shard row;
    cr_run run_row;
    uint64_t solved;
} shard_info;

/* Reads the shard row of an open store and its run: 1 found, 0 none, or a
 * code. */
static int read_shard(shard_info *out, cr_store *store, cr_error *err)
{
    int rc = cr_store_shard_read(&out->row, store, err);
    if (rc != 1)
        return rc;
    rc = cr_store_run_find(&out->run_row, store, out->row.run_id, CR_PICK_ANY, err);
    if (rc == 0)
        rc = cr_store_run_solved(&out->solved, store, out->row.run_id, err);
    return rc ? rc : 1;
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
    stage *b = calloc(1, sizeof *b);
    int rc = b ? cr_store_instances_new(&it, input, input_set, 0, err) : cr_errorf(err, CR_ENOMEM, "no memory");
    const cr_instance *in;
    while (rc == 0 && (rc = cr_store_instances_next(&in, it, err)) == 1) {
        rc = 0;
        fingerprint_add(out, in);
        if (cr_shard_of(set_name, in->ext_id, strlen(in->ext_id), spec->n) != spec->k)
            continue;
        rc = stage_instance(b, in, err);
        if (rc == 0 && b->count == STAGED)
            rc = stage_flush(b, shard, shard_set, 0, err);
    }
    if (rc == 0)
        rc = stage_flush(b, shard, shard_set, 0, err);
    if (b)
        stage_clear(b);
    free(b);
    cr_store_instances_free(it);
    return rc;
}

/* A shard database that already holds a shard must hold this one. */
static int check_same_shard(const shard_info *have, cr_store *shard, const cr_shard_spec *spec, cr_error *err)
{
    const cr_store_shard *row = &have->row;
    if (row->k != spec->k || row->n != spec->n || strcmp(have->run_row.tag, spec->tag) != 0 ||
        (spec->set && strcmp(row->set_name, spec->set) != 0))
        return cr_errorf(err, CR_EINVAL, "%s holds shard %u/%u of job '%s' (set '%s'), not shard %u/%u of job '%s'",
                         cr_store_path(shard), row->k, row->n, have->run_row.tag, row->set_name, spec->k, spec->n,
                         spec->tag);
    if (!same_opts(&have->run_row.opts, &spec->opts)) {
        char variants[CR_VARIANTS_TEXT_MAX];
        cr_variants_format(variants, have->run_row.opts.variants);
        return cr_errorf(err, CR_EINVAL, "%s: shard %u/%u of job '%s' was started with other options "
                         "(--variant %s --algo %s --moves %s): give them again, or another --out",
                         cr_store_path(shard), row->k, row->n, have->run_row.tag, variants,
                         cr_algo_name(have->run_row.opts.algo), cr_moves_name(have->run_row.opts.moves));
    }
    return 0;
}

int cr_shard_prepare(int64_t *out_set, int64_t *out_run, int *out_done, cr_store *shard, const cr_shard_spec *spec,
                     cr_error *err)
{
    shard_info *have = calloc(1, sizeof *have);
    if (!have)
        return cr_errorf(err, CR_ENOMEM, "no memory");
    int rc = read_shard(have, shard, err);
    if (rc == 1) { /* started again: go on with what is there */
        rc = check_same_shard(have, shard, spec, err);
        if (rc == 0) { /* refused, its run is not ours to mark failed */
            *out_set = have->run_row.set_id;
            *out_run = have->row.run_id;
            *out_done = have->run_row.status == CR_RUN_DONE;
        }
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
        if (rc == 0) {
            cr_store_shard row = {.run_id = run, .k = spec->k, .n = spec->n, .set_size = set.size,
                                  .set_digest = set.digest};
            snprintf(row.input, sizeof row.input, "%s", spec->input);
            rc = cr_store_shard_add(shard, &row, err);
        }
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
            rc = cr_errorf(err, CR_EIO, "cannot open shard %s", paths[i]);
            break;
        }
        int seen = 0;
        for (size_t j = 0; j < kept && !seen; j++)
            seen = strcmp(shards[j].real, s->real) == 0;
        if (seen)
            continue; /* the same file twice is merged once */
        cr_store *store = NULL;
        rc = cr_store_new(&store, paths[i], CR_STORE_READ, err);
        if (rc == 0)
            rc = cr_store_quick_check(store, err);
        int found = rc == 0 ? read_shard(s, store, err) : rc;
        cr_store_free(store);
        if (found == 0)
            rc = cr_errorf(err, CR_EINVAL, "%s is not a shard database (coinrow solve --shard makes them)", paths[i]);
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
            return cr_errorf(err, CR_EINVAL, "%s is shard %u/%u of job '%s', but %s is of job '%s': a stranger",
                             s->path, s->row.k, s->row.n, s->run_row.tag, first->path, first->run_row.tag);
        if (s->row.n != first->row.n || strcmp(s->row.set_name, first->row.set_name) != 0 || s->row.set_size != first->row.set_size ||
            s->row.set_digest != first->row.set_digest || !same_opts(&s->run_row.opts, &first->run_row.opts))
            return cr_errorf(err, CR_EINVAL,
                             "%s and %s are of job '%s' but differ (shard count, set, its data or the options): "
                             "made from different inputs",
                             s->path, first->path, s->run_row.tag);
    }
    uint64_t covered = 0;
    for (uint32_t k = 0; k < first->row.n; k++) {
        const shard_info *found = NULL;
        for (size_t i = 0; i < count; i++) {
            if (shards[i].row.k != k)
                continue;
            if (found)
                return cr_errorf(err, CR_EINVAL, "shard %u/%u of job '%s' is given twice: %s and %s", k, first->row.n,
                                 first->run_row.tag, found->path, shards[i].path);
            found = &shards[i];
        }
        if (!found)
            return cr_errorf(err, CR_EINVAL, "shard %u/%u of job '%s' is missing (%zu of %u shards given)", k,
                             first->row.n, first->run_row.tag, count, first->row.n);
        if (found->run_row.status != CR_RUN_DONE)
            return cr_errorf(err, CR_EINVAL,
                             "shard %u/%u of job '%s' (%s) is not done: %s, %" PRIu64 " of %" PRIu64
                             " instances solved; run its task again",
                             k, first->row.n, first->run_row.tag, found->path, cr_store_run_status_name(found->run_row.status),
                             found->solved, found->row.instances);
        covered += found->row.instances;
    }
    if (covered != first->row.set_size)
        return cr_errorf(err, CR_EINVAL, "the %u shards of job '%s' hold %" PRIu64 " instances; set '%s' had %" PRIu64,
                         first->row.n, first->run_row.tag, covered, first->row.set_name, first->row.set_size);
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
static int merge_shard(cr_merge_report *out, stage *b, cr_store *into, int64_t set_id, int64_t run, const shard_info *s,
                       cr_error *err)
{
    cr_store *store = NULL;
    cr_store_results *it = NULL;
    cr_coins coins = {0};
    const cr_stored_result *r;
    int rc = cr_store_new(&store, s->path, CR_STORE_READ, err);
    if (rc == 0)
        rc = cr_store_results_new(&it, store, s->row.run_id, CR_BY_EXT_ID, err);
    while (rc == 0 && (rc = cr_store_results_next(&r, it, err)) == 1) {
        rc = 0;
        size_t ext_len = strlen(r->ext_id);
        int new_instance = b->count == 0 || strcmp(b->rows[b->count - 1].ext_id, r->ext_id) != 0;
        if (new_instance && b->count == STAGED)
            rc = stage_flush(b, into, set_id, run, err);
        if (rc == 0 && new_instance) {
            if (cr_shard_of(s->row.set_name, r->ext_id, ext_len, s->row.n) != s->row.k)
                rc = cr_errorf(err, CR_EINVAL, "%s: instance '%s' does not belong to shard %u/%u", s->path, r->ext_id,
                               s->row.k, s->row.n);
            else if ((rc = cr_coins_parse(&coins, r->coins, strlen(r->coins), err)) == 0) {
                cr_instance in = {0, r->ext_id, coins.v, coins.n, coins.json, coins.json_len};
                if ((rc = stage_instance(b, &in, err)) == 0)
                    out->instances++;
            }
        }
        if (rc == 0 && r->moves && r->moves[strspn(r->moves, "LR")] != '\0')
            rc = cr_errorf(err, CR_EINVAL, "%s: instance '%s': its %s line holds a letter other than L and R", s->path,
                           r->ext_id, cr_variant_name(r->variant));
        if (rc == 0 && (rc = stage_result(b, r, err)) == 0)
            out->results++;
    }
    cr_coins_free(&coins);
    cr_store_results_free(it);
    cr_store_free(store);
    return rc;
}

/* What the target holds already, read without writing to it: the run of a
 * job merged before (*out_run), or else that its set, when it has one, is
 * the data the shards were made from. */
static int check_target(int64_t *out_run, const char *into_path, const shard_info *shard, cr_error *err)
{
    *out_run = 0;
    int blank;
    int rc = cr_store_blank(&blank, into_path, err);
    if (rc || blank)
        return rc; /* a new database, or an empty one */
    cr_store *into = NULL;
    int64_t set_id;
    cr_error missing;
    fingerprint have = {0, 0};
    rc = cr_store_new(&into, into_path, CR_STORE_READ, err);
    if (rc == 0)
        rc = cr_store_quick_check(into, err);
    if (rc == 0)
        rc = cr_store_run_of_job(out_run, into, shard->run_row.tag, err);
    if (rc == 0 && !*out_run && cr_store_set_find(&set_id, into, shard->row.set_name, 0, NULL, &missing) == 0) {
        rc = fingerprint_set(&have, into, set_id, err);
        if (rc == 0 && (have.size != shard->row.set_size || have.digest != shard->row.set_digest))
            rc = cr_errorf(err, CR_EINVAL,
                           "%s: set '%s' (%" PRIu64 " instances) is not the data the shards of job '%s' were made "
                           "from (%" PRIu64 " instances)",
                           into_path, shard->row.set_name, have.size, shard->run_row.tag, shard->row.set_size);
    }
    cr_store_free(into);
    return rc;
}

/* Writes the merged run: one transaction. */
static int write_merge(cr_merge_report *out, stage *b, const char *into_path, const shard_info *shards, size_t count,
                       cr_error *err)
{
    cr_store *into = NULL;
    int64_t set_id;
    double seconds = 0;
    char label[256];
    snprintf(label, sizeof label, "merged from %u shards of job %s", out->shards, out->tag);
    for (size_t i = 0; i < count; i++)
        seconds += shards[i].run_row.seconds;
    int rc = cr_store_new(&into, into_path, CR_STORE_WRITE_ONCE, err); /* a refusal leaves every byte */
    if (rc == 0)
        rc = cr_store_begin(into, err);
    if (rc) {
        cr_store_free(into);
        return rc;
    }
    rc = cr_store_set_find(&set_id, into, shards[0].row.set_name, 1, "merged shards", err);
    if (rc == 0)
        rc = cr_store_run_new(&out->run, into, set_id, &shards[0].run_row.opts, shards[0].run_row.solver_version, label,
                              err);
    if (rc == 0)
        rc = cr_store_run_set_tag(into, out->run, out->tag, err);
    for (size_t i = 0; rc == 0 && i < count; i++)
        rc = merge_shard(out, b, into, set_id, out->run, &shards[i], err);
    if (rc == 0)
        rc = stage_flush(b, into, set_id, out->run, err);
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
        return cr_errorf(err, CR_EINVAL, "no shard databases to merge");
    shard_info *shards = calloc(count, sizeof *shards);
    stage *b = calloc(1, sizeof *b);
    int rc = shards && b ? read_shards(shards, &count, paths, err) : cr_errorf(err, CR_ENOMEM, "no memory");
    if (rc == 0)
        rc = check_job(shards, count, err);
    if (rc == 0) {
        snprintf(out->tag, sizeof out->tag, "%s", shards[0].run_row.tag);
        out->shards = shards[0].row.n;
        rc = check_target(&out->run, into_path, &shards[0], err);
    }
    out->already = rc == 0 && out->run;
    if (rc == 0 && !out->already) {
        int created = access(into_path, F_OK) != 0;
        rc = write_merge(out, b, into_path, shards, count, err);
        if (rc && created)
            remove(into_path); /* a refused merge leaves no empty database behind */
    }
    if (b)
        stage_clear(b);
    free(b);
    free(shards);
    return rc;
}

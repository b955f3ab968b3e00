/* Shard databases: making one from an input database, merging a job's. */
#define _GNU_SOURCE /* gettid, for the checks' thread's own priority */
#include "batch/batch.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/util.h"

/* Instances per write, and per hand-over between merge's two threads: a
 * hand-over wakes a thread, which can take a millisecond on a virtual
 * machine, so 256 a time kept merge's threads waiting on each other. */
#define STAGED 4096

/* Page caches, in KiB, of a database read in key order (a shard's input,
 * the shards a merge reads) and of one appended to in key order (a shard's
 * database, a merge's new target).  Each page is wanted once, and a large
 * cache only adds memory touched once each: a page fault each, which a
 * shard of 10,000 instances paid 2,000 times and a merge of 10^6 28,000
 * times.  Measured from 256 KiB to 4 MiB, on shards of 10^4 to 5 * 10^5
 * instances and merges of 10^6: as fast as 64 MiB, or faster
 * (docs/scaling.md). */
#define READ_CACHE_KIB 512
#define WRITE_CACHE_KIB 1024

/* The schema version whose shards are split by ranges of ids
 * (schema/009_shard_ranges.sql); those of older ones, by FNV-1a mod N. */
#define RANGES_SINCE 9

/* ---- where a shard's instances are ---- */

uint64_t cr_shard_first(uint64_t size, uint32_t k, uint32_t n)
{
    /* floor(k * size / n) without the product: k * (size / n) is at most
     * size, and k and size % n are below 2^32 */
    uint64_t q = size / n, r = size % n;
    return k * q + (uint64_t)k * r / n;
}

/* Bound j (0 <= j <= n) of the shards of set_id into *out: the id at
 * shard j's first position, or NULL for the first shard's start and for
 * the end of the set (the last shard's end, and the start of any shard
 * that starts there, which is empty). */
static int shard_bound(char **out, cr_store *input, int64_t set_id, uint64_t size, uint32_t j, uint32_t n,
                       cr_error *err)
{
    *out = NULL;
    uint64_t at = cr_shard_first(size, j, n);
    return j == 0 || at >= size ? 0 : cr_store_set_id_at(out, input, set_id, at, err);
}

int cr_shard_bounds(cr_store_shard *out, cr_store *input, int64_t set_id, uint32_t k, uint32_t n, cr_error *err)
{
    out->k = k;
    out->n = n;
    out->lo = out->hi = NULL;
    int rc = cr_store_set_fingerprint(&out->set_size, &out->set_digest, input, set_id, err);
    if (rc == 0)
        rc = shard_bound(&out->lo, input, set_id, out->set_size, k, n, err);
    if (rc == 0)
        rc = shard_bound(&out->hi, input, set_id, out->set_size, k + 1, n, err);
    if (rc)
        cr_store_shard_clear(out);
    return rc;
}

int cr_shard_holds(const cr_store_shard *shard, const char *ext_id)
{
    /* strcmp's order is SQLite's BINARY one; a shard after the first with
     * no lower bound starts at the end of the set and holds nothing */
    if (shard->k > 0 && (!shard->lo || strcmp(ext_id, shard->lo) < 0))
        return 0;
    return !shard->hi || strcmp(ext_id, shard->hi) < 0;
}

/* ---- instances (and their results) staged on their way to a store ---- */

typedef struct stage {
    cr_store_instance rows[STAGED];
    size_t count;
    cr_store_result results[STAGED * CR_VARIANT_COUNT];
    size_t row_of[STAGED * CR_VARIANT_COUNT]; /* the row each result belongs to */
    size_t result_count;
    /* the staged strings one after another, the rows' and results' copies
     * pointing into it: kept from stage to stage, so that staging allocates
     * nothing once it has grown (a malloc and a free on another thread for
     * each instance and result took a tenth of a merge) */
    char *text;
    size_t text_len, text_cap;
} stage;

/* text + (at - from): a staged string's place once the text has moved. */
static const char *moved(const char *at, const char *from, char *text)
{
    return at ? text + (at - from) : NULL;
}

/* Room for len more bytes of staged text, moving the text (and what points
 * into it) when it must grow; NULL when there is no memory. */
static char *stage_text(stage *b, size_t len)
{
    if (len > b->text_cap - b->text_len) {
        size_t cap = b->text_cap ? b->text_cap : 1 << 16;
        while (cap - b->text_len < len)
            cap *= 2;
        char *text = malloc(cap);
        if (!text)
            return NULL;
        if (b->text_len)
            memcpy(text, b->text, b->text_len);
        for (size_t i = 0; i < b->count; i++) {
            b->rows[i].ext_id = moved(b->rows[i].ext_id, b->text, text);
            b->rows[i].coins_json = moved(b->rows[i].coins_json, b->text, text);
        }
        for (size_t k = 0; k < b->result_count; k++) {
            b->results[k].error = moved(b->results[k].error, b->text, text);
            b->results[k].moves = moved(b->results[k].moves, b->text, text);
        }
        free(b->text);
        b->text = text;
        b->text_cap = cap;
    }
    char *at = b->text + b->text_len;
    b->text_len += len;
    return at;
}

/* Adds an instance to b (copying its strings): with its coins parsed, its
 * total and digest, for a target that adds it; or, coins NULL, only its
 * ext_id and text, all that a lookup in a set that holds it compares.
 * CR_ENOMEM. */
static int stage_instance(stage *b, const char *ext_id, const char *json, size_t json_len, const cr_coins *coins,
                          cr_error *err)
{
    size_t ext_id_len = strlen(ext_id);
    char *text = stage_text(b, ext_id_len + 1 + json_len + 1);
    if (!text)
        return cr_errorf(err, CR_ENOMEM, "no memory for instance '%s'", ext_id);
    memcpy(text, ext_id, ext_id_len + 1);
    char *copy = text + ext_id_len + 1;
    memcpy(copy, json, json_len + 1);
    cr_store_instance *r = &b->rows[b->count++];
    *r = (cr_store_instance){.ext_id = text, .ext_id_len = ext_id_len, .coins_json = copy, .coins_json_len = json_len};
    if (coins) {
        r->n = coins->n;
        r->total_fits = cr_coins_total(&r->total, coins->v, coins->n);
        r->digest = cr_instance_digest(text, ext_id_len, copy, json_len);
    }
    return 0;
}

/* Adds a result of the last staged instance (copying its strings). */
static int stage_result(stage *b, const cr_stored_result *r, cr_error *err)
{
    size_t moves_len = r->moves ? strlen(r->moves) : 0, error_len = r->error ? strlen(r->error) : 0;
    char *text = stage_text(b, moves_len + error_len + 2);
    if (!text)
        return cr_errorf(err, CR_ENOMEM, "no memory for a result of '%s'", r->ext_id);
    memcpy(text, r->moves ? r->moves : "", moves_len + 1);
    memcpy(text + moves_len + 1, r->error ? r->error : "", error_len + 1);
    size_t k = b->result_count++;
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

/* Empties b, keeping its room for text. */
static void stage_clear(stage *b) { b->count = b->result_count = b->text_len = 0; }

/* Writes the staged instances to set_id, or finds them there when it holds
 * them (has_set), and their results to run (0: none); an instance the set
 * has with other coins, or lacks when it should hold it, is CR_EINVAL. */
static int stage_flush(stage *b, cr_store *store, int64_t set_id, int has_set, int64_t run, cr_error *err)
{
    int rc = !b->count ? 0
             : has_set ? cr_store_find_instances(store, set_id, b->rows, b->count, err)
                       : cr_store_add_instances(store, set_id, b->rows, b->count, err);
    for (size_t i = 0; rc == 0 && i < b->count; i++)
        if (b->rows[i].state == CR_STORE_CLASH)
            rc = cr_errorf(err, CR_EINVAL, "%s: instance '%s' has other coins than the shards'", cr_store_path(store),
                           b->rows[i].ext_id);
        else if (b->rows[i].state == CR_STORE_MISSING)
            rc = cr_errorf(err, CR_EINVAL, "%s: the set lacks instance '%s' of the shards, though its size and "
                                           "digest say it holds them: it or a shard was changed outside coinrow "
                                           "(coinrow check-db on each finds which)",
                           cr_store_path(store), b->rows[i].ext_id);
    for (size_t k = 0; rc == 0 && k < b->result_count; k++)
        b->results[k].instance_id = b->rows[b->row_of[k]].id;
    if (rc == 0 && run && b->result_count)
        rc = cr_store_add_results(NULL, store, run, b->results, b->result_count, err);
    stage_clear(b);
    return rc;
}

/* ---- one shard ---- */

typedef struct shard_info {
    char *path;       /* as given */
    dev_t dev;        /* the file, to find one given twice */
    ino_t ino;
    cr_store_shard row;
    cr_run run_row;
    uint64_t solved;  /* read only for a run not done */
} shard_info;

/* Reads the shard row of an open store and its run: 1 found, 0 none, or a
 * code. */
static int read_shard(shard_info *out, cr_store *store, cr_error *err)
{
    int rc = cr_store_shard_read(&out->row, store, err);
    if (rc != 1)
        return rc;
    rc = cr_store_run_find(&out->run_row, store, out->row.run_id, CR_PICK_ANY, err);
    if (rc == 0 && out->run_row.status != CR_RUN_DONE) /* for check_job's refusal: it reads every solution */
        rc = cr_store_run_solved(&out->solved, store, out->row.run_id, err);
    return rc ? rc : 1;
}

static int same_opts(const cr_solve_opts *a, const cr_solve_opts *b)
{
    return a->variants == b->variants && a->algo == b->algo && a->moves == b->moves;
}

/* The refusal of a shard split by versions 3 to 7's rule, which no range
 * describes. */
static int old_split(const char *path, const cr_store_shard *row, const char *tag, cr_error *err)
{
    return cr_errorf(err, CR_EINVAL,
                     "%s holds shard %u/%u of job '%s' split by an older coinrow's rule (FNV-1a mod N, schema "
                     "versions 3 to 7), which this coinrow does not merge: solve the job's shards again",
                     path, row->k, row->n, tag);
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
    if (!row->ranged)
        return old_split(cr_store_path(shard), row, have->run_row.tag, err);
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

/* Writes the shard into the shard store, in one transaction: its set,
 * its run and its row, with the range of ids it holds. */
static int make_shard(int64_t *out_set, int64_t *out_run, cr_store_shard *out_row, cr_store *shard, cr_store *input,
                      int64_t input_set, const char *source, const cr_shard_spec *spec, cr_error *err)
{
    int64_t shard_set, run;
    cr_store_shard row = {0};
    int rc = cr_store_set_name(row.set_name, sizeof row.set_name, input, input_set, err);
    if (rc == 0)
        rc = cr_shard_bounds(&row, input, input_set, spec->k, spec->n, err);
    snprintf(row.input, sizeof row.input, "%s", spec->input);
    if (rc == 0 && (rc = cr_store_begin(shard, err)) == 0) {
        rc = cr_store_set_find(&shard_set, shard, row.set_name, 1, source, err);
        if (rc == 0)
            rc = cr_store_run_new(&run, shard, shard_set, &spec->opts, spec->solver_version, spec->label, err);
        if (rc == 0)
            rc = cr_store_run_set_tag(shard, run, spec->tag, err);
        if (rc == 0) {
            row.run_id = run;
            rc = cr_store_shard_add(shard, &row, err);
        }
        if (rc == 0)
            rc = cr_store_commit(shard, err);
        else
            cr_store_rollback(shard);
    }
    if (rc == 0) {
        *out_set = shard_set;
        *out_run = run;
        *out_row = row;
    } else {
        cr_store_shard_clear(&row);
    }
    return rc;
}

struct cr_shard_input {
    cr_store *store;
    int64_t set_id;
    cr_store_shard row;         /* the shard's range of ids, its set's name */
    char source[PATH_MAX + 32]; /* "shard K/N of INPUT": the set's source, and its rows' */
};

uint64_t cr_shard_input_size(const cr_shard_input *in)
{
    const cr_store_shard *row = &in->row;
    return cr_shard_first(row->set_size, row->k + 1, row->n) - cr_shard_first(row->set_size, row->k, row->n);
}

int cr_shard_input_scattered(const cr_shard_input *in, int64_t *out_read, int64_t *out_total)
{
    cr_store_pages_read(in->store, out_read, out_total);
    double share = in->row.set_size ? (double)cr_shard_input_size(in) / (double)in->row.set_size : 1;
    return *out_total > 0 && (double)*out_read > 4 * share * (double)*out_total + 64;
}

void cr_shard_input_free(cr_shard_input *in)
{
    if (!in)
        return;
    cr_store_free(in->store);
    cr_store_shard_clear(&in->row);
    free(in);
}

/* Opens the input of spec, and its set (spec->set, or the shard's own
 * when started again: set_name), for reading. */
static int open_input(cr_shard_input **out, const cr_shard_spec *spec, const char *set_name, cr_error *err)
{
    cr_shard_input *in = calloc(1, sizeof *in);
    if (!in)
        return cr_errorf(err, CR_ENOMEM, "no memory");
    snprintf(in->source, sizeof in->source, "shard %u/%u of %s", spec->k, spec->n, spec->input);
    int rc = cr_store_new(&in->store, spec->input, CR_STORE_READ_SHARED, err);
    if (rc == 0) {
        cr_store_cache_limit(in->store, READ_CACHE_KIB);
        rc = cr_store_set_find(&in->set_id, in->store, set_name ? set_name : spec->set, 0, NULL, err);
    }
    /* as solve refuses it: the job would merge into a done run of part of the set */
    cr_unfinished_ingest u;
    int unfinished = 0;
    char name[128];
    if (rc == 0 && (rc = cr_store_ingest_unfinished(&u, &unfinished, in->store, in->set_id, NULL, err)) == 0 &&
        unfinished && (rc = cr_store_set_name(name, sizeof name, in->store, in->set_id, err)) == 0)
        rc = cr_errorf(err, CR_EINVAL, "%s: set '%s' lacks rows of its input: its ingest of %s did not finish, and "
                                       "its shards would merge into a run done without them (check-db names the "
                                       "command that finishes it)",
                       spec->input, name, u.source);
    if (rc)
        cr_shard_input_free(in);
    else
        *out = in;
    return rc;
}

/* The input's set, for a shard started again, must be the one it began
 * from: an ingest into it since would give the job's shards two sets, and
 * the shard's range another share of it, which only merge found out. */
static int check_same_input(const cr_shard_input *in, const shard_info *have, const char *path, cr_error *err)
{
    uint64_t size, digest;
    const cr_store_shard *row = &have->row;
    int rc = cr_store_set_fingerprint(&size, &digest, in->store, in->set_id, err);
    if (rc == 0 && (size != row->set_size || digest != row->set_digest))
        rc = cr_errorf(err, CR_EINVAL,
                       "%s: set '%s' of the input has changed since shard %u/%u of job '%s' began (%" PRIu64
                       " instances then, %" PRIu64 " now), and the job's shards would not merge: remove the shard "
                       "databases and solve the job again",
                       path, row->set_name, row->k, row->n, have->run_row.tag, row->set_size, size);
    return rc;
}

int cr_shard_prepare(int64_t *out_set, int64_t *out_run, int *out_done, cr_shard_input **out_input, cr_store *shard,
                     const cr_shard_spec *spec, cr_error *err)
{
    *out_input = NULL;
    shard_info *have = calloc(1, sizeof *have);
    if (!have)
        return cr_errorf(err, CR_ENOMEM, "no memory");
    cr_shard_input *in = NULL;
    int rc = read_shard(have, shard, err);
    if (rc == 1) { /* started again: go on with what is there */
        rc = check_same_shard(have, shard, spec, err);
        if (rc == 0) { /* refused, its run is not ours to mark failed */
            *out_set = have->run_row.set_id;
            *out_run = have->row.run_id;
            *out_done = have->run_row.status == CR_RUN_DONE;
        }
        if (rc == 0 && !*out_done && (rc = open_input(&in, spec, have->row.set_name, err)) == 0)
            rc = check_same_input(in, have, cr_store_path(shard), err);
        if (rc == 0 && in) {
            in->row = have->row;
            have->row.lo = have->row.hi = NULL; /* now the input's */
            rc = cr_store_run_set_status(shard, have->row.run_id, CR_RUN_RUNNING, NULL, err);
        }
    } else if (rc == 0) {
        *out_done = 0;
        rc = cr_store_refuse_sets(shard, "no shard: --out takes a new file, or the shard database an earlier start "
                                         "of this shard made", err);
        if (rc == 0)
            rc = open_input(&in, spec, NULL, err);
        if (rc == 0)
            rc = make_shard(out_set, out_run, &in->row, shard, in->store, in->set_id, in->source, spec, err);
    }
    cr_store_shard_clear(&have->row);
    free(have);
    if (rc)
        cr_shard_input_free(in);
    else
        *out_input = in;
    if (*out_input) /* a shard to write, not one done */
        cr_store_cache_limit(shard, WRITE_CACHE_KIB);
    return rc;
}

int cr_shard_feed(cr_shard_input *in, cr_row_fn fn, void *ctx, cr_error *err)
{
    const cr_store_shard *row = &in->row;
    /* a shard after the first with no lower bound starts at the set's end:
     * it holds nothing */
    if (row->k > 0 && !row->lo)
        return 0;
    cr_store_instances *it = NULL;
    int rc = cr_store_instances_range_new(&it, in->store, in->set_id, row->lo, row->hi, err);
    const cr_instance *instance;
    for (uint64_t line = 1; rc == 0 && (rc = cr_store_instances_next(&instance, it, err)) == 1; line++) {
        cr_row r = {.source = in->source, .line = line, .ext_id = instance->ext_id,
                    .ext_id_len = strlen(instance->ext_id), .coins = instance->coins, .n = instance->n,
                    .coins_json = instance->coins_json, .coins_json_len = instance->coins_json_len};
        rc = fn(ctx, &r);
    }
    cr_store_instances_free(it);
    return rc;
}

/* ---- merging ---- */

static void shards_free(shard_info *shards, size_t count)
{
    for (size_t i = 0; shards && i < count; i++) {
        free(shards[i].path);
        cr_store_shard_clear(&shards[i].row);
    }
    free(shards);
}

/* Reads one shard into s: CR_EINVAL naming it when it is no shard of this
 * coinrow's. */
static int read_one(shard_info *s, const char *path, cr_error *err)
{
    cr_store *store = NULL;
    int rc = cr_store_new(&store, path, CR_STORE_READ_ANY, err);
    int version = rc == 0 ? cr_store_opened_version(store) : 0;
    if (rc == 0 && version < RANGES_SINCE)
        rc = cr_errorf(err, CR_EINVAL,
                       "%s is of schema version %d, an older coinrow's: a shard of it was split by the older "
                       "rule (FNV-1a mod N), which this coinrow does not merge; solve the job's shards again",
                       path, version);
    else if (rc == 0 && version < cr_store_schema_version())
        rc = cr_errorf(err, CR_EINVAL,
                       "%s is of schema version %d, an older coinrow's, split by ranges as this one splits: "
                       "'coinrow upgrade --db %s' brings it up to date, then merge",
                       path, version, path);
    int found = rc == 0 ? read_shard(s, store, err) : rc;
    cr_store_free(store);
    if (found == 0)
        return cr_errorf(err, CR_EINVAL, "%s is not a shard database (coinrow solve --shard makes them)", path);
    if (found < 0)
        return found;
    return s->row.ranged ? 0 : old_split(path, &s->row, s->run_row.tag, err);
}

static int by_k(const void *a, const void *b)
{
    const shard_info *x = a, *y = b;
    return x->row.k < y->row.k ? -1 : x->row.k > y->row.k;
}

/* Opens and reads every shard, one at a time, dropping files given twice,
 * and sorts them by k. */
static int read_shards(shard_info *shards, size_t *count, const char *const *paths, cr_error *err)
{
    size_t kept = 0;
    int rc = 0;
    for (size_t i = 0; i < *count && rc == 0; i++) {
        shard_info *s = &shards[kept];
        struct stat st;
        if (stat(paths[i], &st) != 0) {
            rc = cr_errorf(err, CR_EIO, "cannot open shard %s", paths[i]);
            break;
        }
        int seen = 0;
        for (size_t j = 0; j < kept && !seen; j++) /* files are few beside their contents */
            seen = shards[j].dev == st.st_dev && shards[j].ino == st.st_ino;
        if (seen)
            continue; /* the same file twice is merged once */
        s->dev = st.st_dev;
        s->ino = st.st_ino;
        if (!(s->path = strdup(paths[i])))
            rc = cr_errorf(err, CR_ENOMEM, "no memory");
        kept++;
        if (rc == 0)
            rc = read_one(s, paths[i], err);
    }
    *count = kept;
    if (rc == 0)
        qsort(shards, kept, sizeof *shards, by_k);
    return rc;
}

/* Whether two bounds are the same (NULL: the set's end). */
static int same_bound(const char *a, const char *b) { return a && b ? strcmp(a, b) == 0 : a == b; }

/* The shards, sorted by k, must be one job's, all of it, each once and
 * done, and their ranges must meet end to end. */
static int check_job(const shard_info *shards, size_t count, cr_error *err)
{
    const shard_info *first = &shards[0];
    const cr_store_shard *f = &first->row;
    for (size_t i = 1; i < count; i++) {
        const shard_info *s = &shards[i];
        if (strcmp(s->run_row.tag, first->run_row.tag) != 0)
            return cr_errorf(err, CR_EINVAL, "%s is shard %u/%u of job '%s', but %s is of job '%s': a stranger",
                             s->path, s->row.k, s->row.n, s->run_row.tag, first->path, first->run_row.tag);
        if (s->row.n != f->n || strcmp(s->row.set_name, f->set_name) != 0 || s->row.set_size != f->set_size ||
            s->row.set_digest != f->set_digest || !same_opts(&s->run_row.opts, &first->run_row.opts))
            return cr_errorf(err, CR_EINVAL,
                             "%s and %s are of job '%s' but differ (shard count, set, its data or the options): "
                             "made from different inputs",
                             s->path, first->path, s->run_row.tag);
    }
    size_t i = 0;
    for (uint32_t k = 0; k < f->n; k++, i++) {
        if (i >= count || shards[i].row.k != k)
            return cr_errorf(err, CR_EINVAL, "shard %u/%u of job '%s' is missing (%zu of %u shards given)", k, f->n,
                             first->run_row.tag, count, f->n);
        const shard_info *s = &shards[i];
        if (i + 1 < count && shards[i + 1].row.k == k)
            return cr_errorf(err, CR_EINVAL, "shard %u/%u of job '%s' is given twice: %s and %s", k, f->n,
                             first->run_row.tag, s->path, shards[i + 1].path);
        if (s->run_row.status != CR_RUN_DONE)
            return cr_errorf(err, CR_EINVAL,
                             "shard %u/%u of job '%s' (%s) is not done: %s, %" PRIu64 " of %" PRIu64
                             " instances solved; run its task again",
                             k, f->n, first->run_row.tag, s->path, cr_store_run_status_name(s->run_row.status),
                             s->solved, s->row.instances);
    }
    if (i < count) /* a k beyond n: sorted last */
        return cr_errorf(err, CR_EINVAL, "%s claims to be shard %u of %u", shards[i].path, shards[i].row.k, f->n);
    /* now shards[k] is shard k: ranges that meet end to end cover the ids
     * once, and each instance is checked to be in its shard's as it is
     * merged */
    uint64_t covered = 0, digest = 0;
    for (uint32_t k = 0; k < f->n; k++) {
        const cr_store_shard *s = &shards[k].row;
        const char *next_lo = k + 1 < f->n ? shards[k + 1].row.lo : NULL;
        if ((k == 0 && s->lo) || !same_bound(s->hi, next_lo) || (s->lo && s->hi && strcmp(s->lo, s->hi) > 0) ||
            (k > 0 && !s->lo && s->hi))
            return cr_errorf(err, CR_EINVAL, "shard %u/%u of job '%s' (%s) does not end where shard %u begins: "
                             "the shards were made from different inputs",
                             k, f->n, first->run_row.tag, shards[k].path, k + 1);
        covered += s->instances;
        digest += s->digest;
    }
    if (covered != f->set_size || digest != f->set_digest)
        return cr_errorf(err, CR_EINVAL,
                         "the %u shards of job '%s' hold %" PRIu64 " instances; set '%s' had %" PRIu64
                         "%s",
                         f->n, first->run_row.tag, covered, f->set_name, f->set_size,
                         covered == f->set_size ? ", but not the same ones" : "");
    return 0;
}

/* ---- the shards' checks ---- */

/* SQLite's quick check reads all of a shard: a fifth of a merge's work
 * beside the writer's.  A thread of its own checks the shards in k order
 * while the merge writes, and the merge commits only once every shard
 * passed.  A damaged shard read before its check fails its reading too
 * (SQLite finds damage in what it reads); either way, the failure the
 * merge reports is the check's.  The checks run at a lower priority
 * (CHECKS_NICE; on Linux a thread has its own): the writer's thread is the
 * merge's longest, and three threads on two cores took it from the writer
 * for a tenth of a second in 1.3. */
#define CHECKS_NICE 10

typedef struct checks {
    const shard_info *shards;
    size_t count;
    atomic_int failed; /* a shard failed its check: the writer stops */
    int rc;            /* the first shard's failure, in k order */
    cr_error err;
    pthread_t thread;
    int started;
} checks;

static void *check_all(void *arg)
{
    checks *c = arg;
    /* lower than the merge's own, whatever that is (should it fail, the
     * checks take their share) */
    id_t self = (id_t)gettid();
    errno = 0;
    int nice = getpriority(PRIO_PROCESS, self);
    if (errno == 0)
        setpriority(PRIO_PROCESS, self, nice + CHECKS_NICE);
    for (size_t i = 0; i < c->count && c->rc == 0; i++) {
        cr_store *store = NULL;
        c->rc = cr_store_new(&store, c->shards[i].path, CR_STORE_READ_SHARED, &c->err);
        if (c->rc == 0) {
            cr_store_cache_limit(store, READ_CACHE_KIB);
            c->rc = cr_store_quick_check(store, &c->err);
        }
        cr_store_free(store);
    }
    atomic_store(&c->failed, c->rc != 0);
    return NULL;
}

/* Starts checking the count shards on a thread of its own (or, without
 * one, checks them now). */
static void checks_start(checks *c, const shard_info *shards, size_t count)
{
    c->shards = shards;
    c->count = count;
    atomic_init(&c->failed, 0);
    c->rc = 0;
    c->started = pthread_create(&c->thread, NULL, check_all, c) == 0;
    if (!c->started)
        check_all(c);
}

/* Waits for the checks: 0 when every shard passed, else the first
 * failure, into *err. */
static int checks_end(checks *c, cr_error *err)
{
    if (c->started)
        pthread_join(c->thread, NULL);
    c->started = 0;
    if (c->rc)
        *err = c->err;
    return c->rc;
}

/* ---- the shards read while the target is written ---- */

/* The merge reads the shards on a thread of its own (their queries, the
 * coins parsed, the checks) into stages that it hands to the writer, the
 * caller's thread, in turn: reading the next stages overlaps with writing
 * the last.  STAGES of them go round, so memory stays STAGES stages
 * whatever the number of shards.  With two, the reader, the faster, waited
 * for each stage written and the writer then for it: every stage woke each
 * thread once, up to 2 ms on a virtual machine, and a merge of 10^6
 * instances took 1.3 s or 2 s by how its threads were woken. */
#define STAGES 4

typedef struct feed {
    pthread_mutex_t mu;
    pthread_cond_t changed;
    stage stages[STAGES];
    size_t filled;  /* stages handed to the writer so far: stages[filled % STAGES] is the reader's */
    size_t written; /* stages the writer is done with: stages[written % STAGES] is the writer's next */
    int finished;  /* the reader is done: every shard read, or rc */
    int abandoned; /* the writer failed: the reader stops */
    int rc;
    cr_error err;
    const shard_info *shards;
    size_t count;
    int has_set; /* the target holds the set: its instances are only looked up */
    cr_merge_report *out;
} feed;

/* The reader's side: hands its filled stage *b to the writer and takes the
 * next, once the writer is done with it; nonzero when the writer has given
 * up. */
static int hand_over(feed *f, stage **b)
{
    pthread_mutex_lock(&f->mu);
    f->filled++;
    pthread_cond_broadcast(&f->changed);
    while (f->filled - f->written == STAGES && !f->abandoned)
        pthread_cond_wait(&f->changed, &f->mu);
    *b = &f->stages[f->filled % STAGES];
    int rc = f->abandoned;
    pthread_mutex_unlock(&f->mu);
    return rc ? CR_EINTERRUPTED : 0;
}

/* Whether ext_id, an instance of shard s read after *last (NULL for its
 * first), is in the shard's range and after *last by id; *last becomes a
 * copy of it.  CR_EINVAL naming the instance when it is not. */
static int check_instance(char **last, size_t *last_cap, const shard_info *s, const char *ext_id, cr_error *err)
{
    size_t len = strlen(ext_id);
    if (!cr_shard_holds(&s->row, ext_id))
        return cr_errorf(err, CR_EINVAL, "%s: instance '%s' does not belong to shard %u/%u", s->path, ext_id, s->row.k,
                         s->row.n);
    if (*last && strcmp(*last, ext_id) >= 0)
        return cr_errorf(err, CR_EINVAL, "%s: instance '%s' is numbered after '%s', whose id is not smaller: a shard "
                                         "was altered", s->path, ext_id, *last);
    if (cr_grow((void **)last, last_cap, len + 1, 1, 64))
        return cr_errorf(err, CR_ENOMEM, "no memory for instance '%s'", ext_id);
    memcpy(*last, ext_id, len + 1);
    return 0;
}

/* How many times c is in text. */
static size_t count_of(const char *text, char c)
{
    size_t count = 0;
    for (; (text = strchr(text, c)) != NULL; text++)
        count++;
    return count;
}

/* An instance of shard s (ext_id) must have a result of each of the run's
 * variants (seen: the bits of those it has): one edited out by hand was
 * merged as a run that lacks it. */
static int check_variants(const shard_info *s, const char *ext_id, unsigned seen, cr_error *err)
{
    if (seen == s->run_row.opts.variants)
        return 0;
    char have[CR_VARIANTS_TEXT_MAX], want[CR_VARIANTS_TEXT_MAX];
    cr_variants_format(have, seen);
    cr_variants_format(want, s->run_row.opts.variants);
    return cr_errorf(err, CR_EINVAL, "%s: instance '%s' has the results of %s, not of the run's variants %s", s->path,
                     ext_id, have, want);
}

/* Reads one shard's results (and instances) into stages, in the order of
 * their rows, which is their ids' (a shard numbers its instances as it
 * copies them from its range, in id order): the order of their ids is
 * checked, rather than paid for by looking each row up through the
 * (set, ext_id) index, which took a third of the reader's time. */
static int read_shard_rows(feed *f, stage **b, const shard_info *s, cr_error *err)
{
    cr_store *store = NULL;
    cr_store_results *it = NULL;
    cr_coins coins = {0};
    char *last = NULL; /* the ext_id of the instance before */
    size_t last_cap = 0;
    const cr_stored_result *r;
    int rc = cr_store_new(&store, s->path, CR_STORE_READ_SHARED, err);
    if (rc == 0) {
        cr_store_cache_limit(store, READ_CACHE_KIB);
        rc = cr_store_results_new(&it, store, s->row.run_id, CR_BY_INSTANCE, err);
    }
    unsigned seen = 0; /* the variants of the instance before */
    size_t n = 0;      /* its count of coins */
    while (rc == 0 && (rc = cr_store_results_next(&r, it, err)) == 1) {
        rc = 0;
        int new_instance = (*b)->count == 0 || strcmp((*b)->rows[(*b)->count - 1].ext_id, r->ext_id) != 0;
        if (new_instance && last)
            rc = check_variants(s, last, seen, err);
        if (rc == 0 && new_instance && (*b)->count == STAGED)
            rc = hand_over(f, b);
        if (rc == 0 && new_instance)
            rc = check_instance(&last, &last_cap, s, r->ext_id, err);
        if (rc == 0 && new_instance) {
            seen = 0;
            if (f->has_set) { /* compared with the set's text as it is, a flat array */
                rc = stage_instance(*b, r->ext_id, r->coins, strlen(r->coins), NULL, err);
                n = strcmp(r->coins, "[]") == 0 ? 0 : 1 + count_of(r->coins, ',');
            } else if ((rc = cr_coins_parse(&coins, r->coins, strlen(r->coins), err)) == 0) {
                rc = stage_instance(*b, r->ext_id, coins.json, coins.json_len, &coins, err);
                n = coins.n;
            }
            if (rc == 0)
                f->out->instances++;
        }
        seen |= 1u << r->variant;
        if (rc == 0 && r->moves && (r->moves[strspn(r->moves, "LR")] != '\0' || strlen(r->moves) != n))
            rc = cr_errorf(err, CR_EINVAL, "%s: instance '%s': its %s line is not one L or R per coin (%zu)", s->path,
                           r->ext_id, cr_variant_name(r->variant), n);
        if (rc == 0 && (rc = stage_result(*b, r, err)) == 0)
            f->out->results++;
    }
    if (rc == 0 && last)
        rc = check_variants(s, last, seen, err);
    free(last);
    cr_coins_free(&coins);
    cr_store_results_free(it);
    cr_store_free(store);
    return rc;
}

/* The reader's thread: every shard in k order, each in ext_id order (the
 * set's instances come in ext_id order, and take their ids, and their
 * solutions' keys, in it), then the last stage. */
static void *reader_main(void *arg)
{
    feed *f = arg;
    stage *b = &f->stages[0];
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < f->count; i++)
        rc = read_shard_rows(f, &b, &f->shards[i], &f->err);
    if (rc == 0 && b->count)
        rc = hand_over(f, &b);
    pthread_mutex_lock(&f->mu);
    f->finished = 1;
    f->rc = rc;
    pthread_cond_broadcast(&f->changed);
    pthread_mutex_unlock(&f->mu);
    return NULL;
}

/* The writer's side: the next filled stage, or NULL once the reader is
 * done. */
static stage *take_ready(feed *f)
{
    pthread_mutex_lock(&f->mu);
    while (f->written == f->filled && !f->finished)
        pthread_cond_wait(&f->changed, &f->mu);
    stage *b = f->written < f->filled ? &f->stages[f->written % STAGES] : NULL;
    pthread_mutex_unlock(&f->mu);
    return b;
}

/* The writer's side: the stage it took is written (failed: the reader is
 * told to stop). */
static void give_back(feed *f, int failed)
{
    pthread_mutex_lock(&f->mu);
    f->written++;
    f->abandoned |= failed;
    pthread_cond_broadcast(&f->changed);
    pthread_mutex_unlock(&f->mu);
}

/* CR_EINTERRUPTED once *stop is set, else 0. */
static int merge_stopped(const atomic_int *stop, const char *into_path, cr_error *err)
{
    if (!stop || !atomic_load(stop))
        return 0;
    return cr_errorf(err, CR_EINTERRUPTED, "interrupted: nothing was merged, and %s is as it was", into_path);
}

/* Writes every shard's instances and results into set_id and run, read on
 * the reader's thread; stops when a shard fails its check or a stop is
 * asked for. */
static int write_shards(cr_merge_report *out, cr_store *into, const char *into_path, int64_t set_id, int has_set,
                        int64_t run, const shard_info *shards, size_t count, const checks *c, const atomic_int *stop,
                        cr_error *err)
{
    feed *f = calloc(1, sizeof *f);
    if (!f)
        return cr_errorf(err, CR_ENOMEM, "no memory to merge");
    *f = (feed){.shards = shards, .count = count, .has_set = has_set, .out = out};
    pthread_mutex_init(&f->mu, NULL);
    pthread_cond_init(&f->changed, NULL);
    pthread_t reader;
    int rc = pthread_create(&reader, NULL, reader_main, f) == 0
                 ? 0
                 : cr_errorf(err, CR_ENOMEM, "no thread to read the shards with");
    if (rc == 0) {
        stage *b;
        while (rc == 0 && (b = take_ready(f)) != NULL) {
            if (atomic_load(&c->failed))
                rc = cr_errorf(err, CR_EDB, "a shard failed its check");
            else if ((rc = merge_stopped(stop, into_path, err)) == 0)
                rc = stage_flush(b, into, set_id, has_set, run, err);
            give_back(f, rc != 0);
        }
        pthread_join(reader, NULL);
        if (rc == 0 && f->rc) {
            rc = f->rc;
            *err = f->err;
        }
    }
    for (int i = 0; i < STAGES; i++)
        free(f->stages[i].text);
    pthread_cond_destroy(&f->changed);
    pthread_mutex_destroy(&f->mu);
    free(f);
    return rc;
}

/* The target must not be one of the shards, whatever path names it: a
 * shard holds a run of the job, its own share of it. */
static int refuse_shard_as_target(const char *into_path, const shard_info *shards, size_t count, cr_error *err)
{
    struct stat st;
    if (stat(into_path, &st) != 0)
        return 0;
    for (size_t i = 0; i < count; i++)
        if (shards[i].dev == st.st_dev && shards[i].ino == st.st_ino)
            return cr_errorf(err, CR_EINVAL, "%s is shard %u/%u of job '%s' itself: merge the job into another "
                                             "database (a new one is made)",
                             into_path, shards[i].row.k, shards[i].row.n, shards[i].run_row.tag);
    return 0;
}

/* The run of the target tagged as the shards' job must be that job's:
 * a tag used again (a fixed "nightly", an array id another cluster gave
 * too) on other data or options is another job, not one merged already. */
static int same_job_merged(cr_store *into, const char *into_path, int64_t run_id, const shard_info *shard,
                           cr_error *err)
{
    cr_run run;
    char set_name[sizeof shard->row.set_name];
    uint64_t size = 0, digest = 0;
    int rc = cr_store_run_find(&run, into, run_id, CR_PICK_ANY, err);
    if (rc == 0)
        rc = cr_store_set_name(set_name, sizeof set_name, into, run.set_id, err);
    if (rc == 0)
        rc = cr_store_set_fingerprint(&size, &digest, into, run.set_id, err);
    int same_data = rc == 0 && strcmp(set_name, shard->row.set_name) == 0 && size == shard->row.set_size &&
                    digest == shard->row.set_digest;
    if (rc || (same_data && same_opts(&run.opts, &shard->run_row.opts)))
        return rc;
    if (!same_data)
        return cr_errorf(err, CR_EINVAL,
                         "%s: job '%s' is merged already as run %lld, of set '%s' (%" PRIu64 " instances), and these "
                         "shards are of other data (set '%s', %" PRIu64 " instances): another job of that tag; merge "
                         "it into another database",
                         into_path, shard->run_row.tag, (long long)run_id, set_name, size, shard->row.set_name,
                         shard->row.set_size);
    char variants[CR_VARIANTS_TEXT_MAX], theirs[CR_VARIANTS_TEXT_MAX];
    cr_variants_format(variants, run.opts.variants);
    cr_variants_format(theirs, shard->run_row.opts.variants);
    return cr_errorf(err, CR_EINVAL,
                     "%s: job '%s' is merged already as run %lld (--variant %s --algo %s --moves %s), and these "
                     "shards have other options (--variant %s --algo %s --moves %s): another job of that tag; merge "
                     "it into another database",
                     into_path, shard->run_row.tag, (long long)run_id, variants, cr_algo_name(run.opts.algo),
                     cr_moves_name(run.opts.moves), theirs, cr_algo_name(shard->run_row.opts.algo),
                     cr_moves_name(shard->run_row.opts.moves));
}

/* What the target `into` holds already: the run of a job merged before
 * (*out_run), or else that its set, when it has one (*out_has_set), is the
 * data the shards were made from. */
static int target_holds(int64_t *out_run, int *out_has_set, cr_store *into, const char *into_path,
                        const shard_info *shard, cr_error *err)
{
    int64_t set_id;
    cr_error missing;
    uint64_t size, digest;
    *out_run = 0;
    *out_has_set = 0;
    int rc = cr_store_run_of_job(out_run, into, shard->run_row.tag, err);
    if (rc == 0 && *out_run)
        return same_job_merged(into, into_path, *out_run, shard, err);
    if (rc == 0 && cr_store_set_find(&set_id, into, shard->row.set_name, 0, NULL, &missing) == 0) {
        rc = cr_store_set_fingerprint(&size, &digest, into, set_id, err);
        if (rc == 0 && (size != shard->row.set_size || digest != shard->row.set_digest))
            rc = cr_errorf(err, CR_EINVAL,
                           "%s: set '%s' (%" PRIu64 " instances) is not the data the shards of job '%s' were made "
                           "from (%" PRIu64 " instances)",
                           into_path, shard->row.set_name, size, shard->run_row.tag, shard->row.set_size);
        *out_has_set = rc == 0;
    }
    return rc;
}

/* target_holds, read without writing to the target, so that a merge
 * refused or done before leaves it byte for byte. */
static int check_target(int64_t *out_run, const char *into_path, const shard_info *shard, cr_error *err)
{
    *out_run = 0;
    int blank, has_set;
    /* a merge killed in its transaction left its journal: this is a
     * writer, and rolls it back, as the message of a reader asks one to */
    int rc = cr_store_roll_back_journal(into_path, err);
    if (rc == 0)
        rc = cr_store_blank(&blank, into_path, err);
    if (rc || blank)
        return rc; /* a new database, or an empty one */
    cr_store *into = NULL;
    /* no quick check of the target: it would read all of it (hours at 10^9
     * instances) for a merge that writes at its end; damage in what the
     * merge reads or writes fails it, and it rolls back */
    rc = cr_store_new(&into, into_path, CR_STORE_READ_ANY, err);
    /* an older coinrow's is upgraded by write_merge, as every command that
     * writes upgrades it, and checked there, in the transaction a refusal
     * rolls back */
    if (rc == 0 && cr_store_opened_version(into) == cr_store_schema_version())
        rc = target_holds(out_run, &has_set, into, into_path, shard, err);
    cr_store_free(into);
    return rc;
}

/* Writes the merged run: one transaction, committed once every shard
 * passed its check (c).  A new target (created: a refusal removes it)
 * gets a small page cache, as a shard's database does; an existing one
 * keeps the writer's 64 MiB: a transaction larger than its cache spills
 * pages into the file, and a page SQLite took from the freelist then keeps
 * its new bytes through a rollback (its content was free, so it is not
 * journalled): a merge refused after writing more than that leaves the
 * target's content as it was, its free pages not. */
static int write_merge(cr_merge_report *out, const char *into_path, int created, const shard_info *shards,
                       size_t count, checks *c, const atomic_int *stop, cr_error *err)
{
    cr_store *into = NULL;
    int64_t set_id, merged = 0;
    int has_set = 0;
    double seconds = 0;
    char label[256];
    snprintf(label, sizeof label, "merged from %u shards of job %s", out->shards, out->tag);
    for (size_t i = 0; i < count; i++)
        seconds += shards[i].run_row.seconds;
    int rc = cr_store_new(&into, into_path, CR_STORE_WRITE_ROLLBACK, err); /* a refusal leaves every byte */
    if (rc == 0 && created)
        cr_store_cache_limit(into, WRITE_CACHE_KIB);
    int begun = rc == 0 && (rc = cr_store_begin(into, err)) == 0;
    /* again under the write lock: another merge of the job into the same
     * target, started at the same time, may have committed it since */
    if (begun)
        rc = target_holds(&merged, &has_set, into, into_path, &shards[0], err);
    if (rc || merged) {
        out->run = merged;
        out->already = merged != 0;
        if (begun)
            cr_store_rollback(into);
        cr_store_free(into);
        return rc;
    }
    rc = cr_store_set_find(&set_id, into, shards[0].row.set_name, 1, "merged shards", err);
    if (rc == 0)
        rc = cr_store_run_new(&out->run, into, set_id, &shards[0].run_row.opts, shards[0].run_row.solver_version, label,
                              err);
    if (rc == 0)
        rc = cr_store_run_set_tag(into, out->run, out->tag, err);
    uint64_t size = 0, digest = 0;
    if (rc == 0)
        rc = write_shards(out, into, into_path, set_id, has_set, out->run, shards, count, c, stop, err);
    /* what was merged is the set, each instance once (what the shards
     * recorded may have been altered by hand): as many instances, in ranges
     * that do not meet, and the target's set (made by them, or found the
     * same data before, and each of them found in it with its coins) has
     * the set's size and digest */
    const cr_store_shard *f = &shards[0].row;
    if (rc == 0)
        rc = cr_store_set_fingerprint(&size, &digest, into, set_id, err);
    if (rc == 0 && (out->instances != f->set_size || size != f->set_size || digest != f->set_digest))
        rc = cr_errorf(err, CR_EINVAL,
                       "the shards of job '%s' hold %" PRIu64 " instances, which are not set '%s' of %" PRIu64
                       " instances they were made from: a shard was altered",
                       out->tag, out->instances, f->set_name, f->set_size);
    if (rc == 0)
        rc = cr_store_set_mark(into, set_id, err);
    if (rc == 0)
        rc = cr_store_run_finish(into, out->run, CR_RUN_DONE, NULL, seconds, err);
    if (rc == 0)
        rc = checks_end(c, err);
    if (rc == 0)
        rc = merge_stopped(stop, into_path, err);
    if (rc == 0)
        rc = cr_store_commit(into, err);
    else
        cr_store_rollback(into);
    cr_store_free(into);
    return rc;
}

int cr_shard_merge(cr_merge_report *out, const char *into_path, const char *const *paths, size_t count,
                   const atomic_int *stop, cr_error *err)
{
    memset(out, 0, sizeof *out);
    if (count == 0)
        return cr_errorf(err, CR_EINVAL, "no shard databases to merge");
    shard_info *shards = calloc(count, sizeof *shards);
    int rc = shards ? read_shards(shards, &count, paths, err) : cr_errorf(err, CR_ENOMEM, "no memory");
    if (rc == 0)
        rc = check_job(shards, count, err);
    if (rc == 0) {
        snprintf(out->tag, sizeof out->tag, "%s", shards[0].run_row.tag);
        out->shards = shards[0].row.n;
        rc = refuse_shard_as_target(into_path, shards, count, err);
    }
    if (rc == 0)
        rc = check_target(&out->run, into_path, &shards[0], err);
    out->already = rc == 0 && out->run;
    if (rc == 0 && !out->already) {
        int created = access(into_path, F_OK) != 0;
        checks c;
        checks_start(&c, shards, count);
        rc = write_merge(out, into_path, created, shards, count, &c, stop, err);
        cr_error damage;
        if (checks_end(&c, &damage)) { /* a damaged shard is told by its check, however its reading failed */
            rc = c.rc;
            *err = damage;
        }
        if (rc && created) /* a refused merge leaves no database it made (nor its journal, which a
                            * rollback that could not finish, on a full disk, keeps) */
            cr_store_discard_new(into_path);
    }
    shards_free(shards, count);
    return rc;
}

/* The invoke engine: the caller's thread reads instances and writes
 * verdicts; workers run the program (or the built-in) and judge. */
#include "invoke/invoke.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/util.h"

/* Instances handed out per worker ahead of time: a program takes long
 * enough that two will do; a built-in is so quick that the workers take
 * many at a time, so that the threads wake each other seldom.  Whatever
 * the count, the instances waiting hold at most QUEUED_COINS coins (but
 * for a single larger one). */
#define AHEAD_PROGRAM 2
#define AHEAD_BUILTIN 256
#define QUEUED_COINS ((size_t)1 << 22)
/* Verdicts are committed once this many are in hand, or this long after
 * the last commit. */
#define COMMIT_ROWS 1024
#define COMMIT_SECONDS 0.5
/* The page cache of each connection, in KiB. */
#define STORE_CACHE_KIB 2048
/* How long the caller's thread sleeps at most between looks at the stop
 * flag. */
#define WAIT_NS 100000000L

/* One instance to judge: its input file and the jury's answer. */
typedef struct task {
    int64_t instance_id;
    char *ext_id;
    int64_t *coins;
    size_t n;
    char *input;
    size_t input_len, input_cap;
    char jury[32];
    size_t jury_len;
} task;

static void task_free(task *t)
{
    if (!t)
        return;
    free(t->ext_id);
    free(t->coins);
    free(t->input);
    free(t);
}

typedef struct engine {
    const cr_invocation *inv;
    const cr_invoke_opts *opts;
    pthread_mutex_t mu;
    pthread_cond_t work, done; /* workers wait for tasks; the caller's thread for verdicts */
    task **queue;              /* a ring of `cap` tasks */
    task **incoming;           /* room for `cap` tasks read before they are queued */
    size_t cap, head, queued;
    size_t queued_coins;       /* what the queued tasks hold */
    int closing;               /* no more tasks: workers leave when the queue is empty */
    int busy;                  /* tasks being judged */
    cr_verdict_row *rows;      /* judged, not yet taken by the caller's thread */
    size_t rows_count, rows_cap;
    int failed;
    cr_error error;            /* the first worker's error */
} engine;

uint64_t cr_invoke_seed(const char *ext_id)
{
    uint64_t h = cr_fnv1a(CR_FNV1A_BASIS, ext_id, strlen(ext_id));
    return h % 3 == 0 ? 0 : h;
}

/* ---- workers ---- */

static int judge(cr_verdict_row *out, cr_child *child, const engine *e, const task *t, cr_error *err)
{
    const cr_invocation *inv = e->inv;
    const cr_invoke_opts *o = e->opts;
    cr_child_report run;
    if (inv->interactive) { /* a game with the jury, the seed the test's (docs/invoke.md, "Interactive") */
        cr_dialogue *d = NULL;
        int rc = cr_dialogue_new(&d, t->coins, t->n, inv->variant, cr_invoke_seed(t->ext_id), t->input,
                                 t->input_len, err);
        if (rc == 0 && !o->path)
            rc = cr_verdict_builtin_play(out, inv->strategy, t->coins, t->n, inv->variant, d, err);
        else if (rc == 0 && (rc = cr_child_play(&run, child, o->sandbox ? NULL : o->path, o->sandbox ? NULL : o->argv,
                                                o->sandbox ? NULL : inv->directory, o->sandbox, d, &inv->limits,
                                                o->stop, err)) == 0)
            rc = cr_verdict_play(out, &run, &inv->limits, d, err);
        cr_dialogue_free(d);
        return rc;
    }
    if (!o->path)
        return cr_verdict_builtin(out, inv->strategy, t->coins, t->n, t->input, t->input_len, t->jury, t->jury_len,
                                  inv->variant, inv->moves, err);
    int rc = cr_child_run(&run, child, o->sandbox ? NULL : o->path, o->sandbox ? NULL : o->argv,
                          o->sandbox ? NULL : inv->directory, o->sandbox, t->input, t->input_len, &inv->limits, o->stop,
                          err);
    return rc ? rc
              : cr_verdict_program(out, &run, &inv->limits, t->input, t->input_len, t->jury, t->jury_len,
                                   inv->variant, inv->moves, err);
}

/* Adds a verdict for the caller's thread; under the lock. */
static int keep_row(engine *e, const cr_verdict_row *row, cr_error *err)
{
    if (cr_grow((void **)&e->rows, &e->rows_cap, e->rows_count + 1, sizeof *e->rows, 64))
        return cr_errorf(err, CR_ENOMEM, "no memory for verdicts");
    e->rows[e->rows_count++] = *row;
    return 0;
}

static void *worker(void *arg)
{
    engine *e = arg;
    cr_child *child = NULL;
    cr_error err = {0};
    int rc = e->opts->path ? cr_child_new(&child, &err) : 0;
    cr_verdict_row *row = malloc(sizeof *row);
    if (rc == 0 && !row)
        rc = cr_errorf(&err, CR_ENOMEM, "no memory for a verdict");
    for (;;) {
        pthread_mutex_lock(&e->mu);
        if (rc && rc != CR_EINTERRUPTED && !e->failed) {
            e->failed = 1;
            e->error = err;
        }
        while (!e->queued && !e->closing && !e->failed)
            pthread_cond_wait(&e->work, &e->mu);
        if (!e->queued || e->failed) {
            pthread_cond_signal(&e->done);
            pthread_mutex_unlock(&e->mu);
            break;
        }
        task *t = e->queue[e->head];
        e->head = (e->head + 1) % e->cap;
        e->queued--;
        e->queued_coins -= t->n;
        e->busy++;
        if (e->queued <= e->cap / 2) /* time to hand out more */
            pthread_cond_signal(&e->done);
        pthread_mutex_unlock(&e->mu);

        memset(row, 0, sizeof *row);
        rc = judge(row, child, e, t, &err);
        row->instance_id = t->instance_id;
        task_free(t);

        pthread_mutex_lock(&e->mu);
        e->busy--;
        if (rc == 0)
            rc = keep_row(e, row, &err);
        if (!e->queued || e->rows_count >= COMMIT_ROWS) /* the rows are due, or all is done */
            pthread_cond_signal(&e->done);
        pthread_mutex_unlock(&e->mu);
    }
    free(row);
    cr_child_free(child);
    return NULL;
}

/* ---- the caller's thread ---- */

/* The next instance of `instances` as a task in *out (NULL at the end),
 * skipping (and counting) those the answers run has no answer for. */
static int next_task(task **out, cr_store_instances *instances, cr_store_results *answers, cr_variant variant,
                     uint64_t *unanswered, cr_error *err)
{
    *out = NULL;
    for (;;) {
        const cr_instance *in;
        const cr_stored_result *answer;
        int rc = cr_store_instances_next(&in, instances, err);
        if (rc <= 0)
            return rc;
        if ((rc = cr_store_results_seek(&answer, answers, in->id, variant, err)) < 0)
            return rc;
        if (rc == 0 || answer->error) {
            (*unanswered)++;
            continue;
        }
        task *t = calloc(1, sizeof *t);
        if (!t || !(t->coins = malloc(in->n * sizeof *t->coins)) || !(t->ext_id = strdup(in->ext_id))) {
            task_free(t);
            return cr_errorf(err, CR_ENOMEM, "no memory for an instance of %zu coins", in->n);
        }
        t->instance_id = in->id;
        t->n = in->n;
        memcpy(t->coins, in->coins, in->n * sizeof *t->coins);
        t->jury_len = (size_t)snprintf(t->jury, sizeof t->jury, "%lld\n", (long long)answer->value);
        if ((rc = cr_contest_text(&t->input_len, &t->input, &t->input_cap, in->coins, in->n, err)) != 0) {
            task_free(t);
            return rc;
        }
        *out = t;
        return 0;
    }
}

/* Writes rows[0..count) in one transaction. */
static int commit_rows(cr_store *store, const cr_invocation *inv, const cr_verdict_row *rows, size_t count,
                       cr_invoke_stats *stats, cr_error *err)
{
    int rc = cr_store_begin(store, err);
    if (rc == 0 && (rc = cr_store_add_verdicts(store, inv->id, rows, count, err)) != 0)
        cr_store_rollback(store);
    if (rc == 0)
        rc = cr_store_commit(store, err);
    if (rc == 0) {
        stats->judged += count;
        stats->left -= count < stats->left ? count : stats->left;
        for (size_t k = 0; k < count; k++)
            stats->counts[rows[k].verdict]++;
    }
    return rc;
}

/* Reads as many tasks as the queue has room for, the lock (which the
 * caller holds) released meanwhile, then queues them; *ended at the end of
 * the set. */
static int hand_out(engine *e, int *ended, cr_store_instances *instances, cr_store_results *answers,
                    cr_invoke_stats *stats, cr_error *err)
{
    /* the workers only take from the queue meanwhile: the room stays */
    size_t queued = e->queued, coins = e->queued_coins, room = e->cap - e->queued, got = 0;
    int rc = 0;
    pthread_mutex_unlock(&e->mu);
    while (got < room && (queued + got == 0 || coins < QUEUED_COINS)) {
        task *t;
        if ((rc = next_task(&t, instances, answers, e->inv->variant, &stats->unanswered, err)) != 0 || !t) {
            *ended = rc == 0;
            break;
        }
        e->incoming[got++] = t;
        coins += t->n;
    }
    pthread_mutex_lock(&e->mu);
    for (size_t k = 0; k < got; k++) {
        e->queue[(e->head + e->queued++) % e->cap] = e->incoming[k];
        e->queued_coins += e->incoming[k]->n;
    }
    if (got)
        pthread_cond_broadcast(&e->work);
    return rc;
}

/* Hands out tasks and commits verdicts until the set is done, a stop, or a
 * failure.  The lock is held except while reading and writing. */
static int feed_and_collect(engine *e, cr_store *store, cr_store_instances *instances, cr_store_results *answers,
                            cr_invoke_stats *stats, cr_error *err)
{
    const cr_invoke_opts *o = e->opts;
    cr_verdict_row *batch = NULL;
    size_t batch_count = 0, batch_cap = 0;
    int rc = 0, ended = 0;
    double last_commit = cr_seconds_now();
    pthread_mutex_lock(&e->mu);
    for (;;) {
        int stopping = o->stop && atomic_load(o->stop);
        if (rc == 0 && !ended && !stopping && !e->failed && e->queued < e->cap &&
            (e->queued == 0 || e->queued_coins < QUEUED_COINS))
            rc = hand_out(e, &ended, instances, answers, stats, err);
        if (stopping) /* what has not started stays unjudged */
            for (; e->queued; e->queued--, e->head = (e->head + 1) % e->cap)
                task_free(e->queue[e->head]);
        e->queued_coins = e->queued ? e->queued_coins : 0;
        int finished = rc || e->failed || ((ended || stopping) && e->queued == 0 && e->busy == 0);
        if (finished || stopping)
            e->closing = 1, pthread_cond_broadcast(&e->work);
        /* take what the workers judged */
        if (e->rows_count) {
            if (cr_grow((void **)&batch, &batch_cap, batch_count + e->rows_count, sizeof *batch, 64) && rc == 0)
                rc = cr_errorf(err, CR_ENOMEM, "no memory for verdicts");
            if (batch_count + e->rows_count <= batch_cap) {
                memcpy(batch + batch_count, e->rows, e->rows_count * sizeof *batch);
                batch_count += e->rows_count;
                e->rows_count = 0;
            }
        }
        double now = cr_seconds_now();
        if (rc == 0 && batch_count && (finished || batch_count >= COMMIT_ROWS || now - last_commit >= COMMIT_SECONDS)) {
            pthread_mutex_unlock(&e->mu);
            rc = commit_rows(store, e->inv, batch, batch_count, stats, err);
            if (rc == 0 && o->progress)
                o->progress(o->ctx, stats);
            pthread_mutex_lock(&e->mu);
            batch_count = 0;
            last_commit = now;
            continue; /* look again: more may have come meanwhile */
        }
        if (finished)
            break;
        struct timespec until;
        cr_deadline_in(&until, WAIT_NS);
        pthread_cond_timedwait(&e->done, &e->mu, &until);
    }
    if (rc == 0 && e->failed) {
        *err = e->error;
        rc = e->error.code ? e->error.code : CR_EIO;
    }
    pthread_mutex_unlock(&e->mu);
    free(batch);
    if (rc == 0 && o->stop && atomic_load(o->stop))
        rc = cr_errorf(err, CR_EINTERRUPTED, "interrupted");
    return rc;
}

int cr_invoke_run(cr_invoke_stats *out, cr_store *store, const cr_invocation *inv, const cr_invoke_opts *opts,
                  cr_error *err)
{
    memset(out, 0, sizeof *out);
    int jobs = inv->jobs > 0 ? inv->jobs : 1;
    engine e = {.inv = inv, .opts = opts, .cap = (size_t)jobs * (opts->path ? AHEAD_PROGRAM : AHEAD_BUILTIN)};
    cr_store *reader = NULL;
    cr_store_instances *instances = NULL;
    cr_store_results *answers = NULL;
    pthread_t *threads = calloc((size_t)jobs, sizeof *threads);
    e.queue = calloc(e.cap, sizeof *e.queue);
    e.incoming = calloc(e.cap, sizeof *e.incoming);
    int started = 0, rc = 0;
    uint64_t judged;
    if (!threads || !e.queue || !e.incoming) {
        rc = cr_errorf(err, CR_ENOMEM, "no memory for %d workers", jobs);
        goto done;
    }
    rc = cr_store_invocation_progress(&judged, &out->left, store, inv, err);
    cr_store_wal_now(store); /* its commits go on while the reader reads */
    if (rc == 0)
        rc = cr_store_new(&reader, cr_store_path(store), CR_STORE_READ, err);
    /* coinrow's size is part of every program's peak memory: kept small */
    if (rc == 0) {
        cr_store_cache_limit(store, STORE_CACHE_KIB);
        cr_store_cache_limit(reader, STORE_CACHE_KIB);
    }
    if (rc == 0)
        rc = cr_store_instances_unjudged_new(&instances, reader, inv->set_id, inv->id, err);
    if (rc == 0)
        rc = cr_store_results_new(&answers, reader, inv->answers_run, CR_BY_INSTANCE, err);
    if (rc)
        goto done;
    pthread_mutex_init(&e.mu, NULL);
    pthread_cond_init(&e.work, NULL);
    cr_cond_init_monotonic(&e.done); /* its waits time out */
    for (; started < jobs; started++)
        if (pthread_create(&threads[started], NULL, worker, &e) != 0)
            break;
    if (started == 0)
        rc = cr_errorf(err, CR_ENOMEM, "cannot start a worker thread");
    else
        rc = feed_and_collect(&e, store, instances, answers, out, err);
    for (int k = 0; k < started; k++)
        pthread_join(threads[k], NULL);
    pthread_cond_destroy(&e.done);
    pthread_cond_destroy(&e.work);
    pthread_mutex_destroy(&e.mu);
done:
    for (size_t k = 0; e.queue && k < e.queued; k++)
        task_free(e.queue[(e.head + k) % e.cap]);
    cr_store_results_free(answers);
    cr_store_instances_free(instances);
    cr_store_free(reader);
    free(e.queue);
    free(e.incoming);
    free(e.rows);
    free(threads);
    return rc;
}

/* ---- strength ---- */

int cr_strength_run(cr_strength *out, cr_store *store, int64_t set_id, int64_t answers_run, cr_variant variant,
                    cr_check_moves moves, const atomic_int *stop, cr_strength_test_fn each, void *ctx,
                    cr_error *err)
{
    memset(out, 0, sizeof *out);
    cr_store_instances *instances = NULL;
    cr_store_results *answers = NULL;
    cr_verdict_row row;
    task *t = NULL;
    int rc = cr_store_instances_new(&instances, store, set_id, 0, err);
    if (rc == 0)
        rc = cr_store_results_new(&answers, store, answers_run, CR_BY_INSTANCE, err);
    while (rc == 0 && (rc = next_task(&t, instances, answers, variant, &out->unanswered, err)) == 0 && t) {
        unsigned broken = 0;
        for (int s = 0; rc == 0 && s < CR_STRATEGY_COUNT; s++) {
            cr_strength_of *of = &out->of[s];
            rc = cr_verdict_builtin(&row, (cr_strategy)s, t->coins, t->n, t->input, t->input_len, t->jury,
                                    t->jury_len, variant, moves, err);
            if (rc || row.verdict == CR_INVOKE_AC)
                continue;
            broken |= 1u << s;
            if (of->broken++ == 0) {
                snprintf(of->first, sizeof of->first, "%s", t->ext_id);
                of->first_verdict = row.verdict;
                snprintf(of->first_message, sizeof of->first_message, "%s", row.message);
            }
        }
        out->tests++;
        out->weak += rc == 0 && !broken;
        if (rc == 0 && each)
            each(ctx, t->instance_id, t->ext_id, broken);
        task_free(t);
        t = NULL;
        if (rc == 0 && stop && atomic_load(stop))
            rc = cr_errorf(err, CR_EINTERRUPTED, "interrupted");
    }
    task_free(t);
    cr_store_results_free(answers);
    cr_store_instances_free(instances);
    return rc;
}

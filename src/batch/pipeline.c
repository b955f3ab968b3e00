/* The batch pipeline: a ring of batches passed from the caller's thread to
 * the solver threads to the writer thread, and a checkpointer beside it. */
#include "batch/batch.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/util.h"

/* A batch takes up to BATCH_ROWS rows and BATCH_COINS_PER_ROW coins a row.
 * A job known to be small (cr_pipeline_opts.rows: a shard of 100 is 10^4
 * rows, each slot of the ring filled once) gets batches of about a quarter
 * of its share of the ring: what a batch fills is memory the process
 * touches for the first time, and those page faults cost such a shard
 * about a twelfth of its time.  Always a multiple of BATCH_ROWS_MIN, the
 * rows of the store's multi-row inserts (a batch's odd rows are written one
 * at a time, at about twice the cost). */
#define BATCH_ROWS 1024
#define BATCH_ROWS_MIN 64
#define BATCH_COINS_PER_ROW 64
#define COMMIT_ROWS 10000
/* A transaction ends after its rows (COMMIT_ROWS at first) or after a
 * second; when the last commit took long, after COMMIT_SHARE times as long
 * as it took, up to COMMIT_NS_MAX.  A commit that writes and copies a large
 * WAL (ids in no order, below) then takes at most a fifth of the writer's
 * time (3*10^6 random ids: 60 s against 80 s with the one second). */
#define COMMIT_NS 1000000000LL
#define COMMIT_SHARE 4
#define COMMIT_NS_MAX (10 * COMMIT_NS)
/* A commit that wrote more than SCATTERED pages for each page the database
 * grew by, and SCATTERED_SLACK more (what any commit writes: the tables'
 * and indexes' upper levels, the set's row), rewrote pages of an index its
 * rows were scattered over (ids in no order), and each such commit
 * rewrote more of them as the index grew: 6 KiB a row at 10^6 random ids,
 * against 0.6 KiB (1.07 pages a page added) in order.  The transactions
 * after it take twice the rows, so that such a page is written once for
 * more of them, still within the time a transaction may last. */
#define SCATTERED 2
#define SCATTERED_SLACK 16
#define MAX_JOBS 256
/* WAL pages (of 16 KiB) past which the writer makes the WAL start again
 * from its beginning (cr_store_wal_limit): the checkpointer copies each
 * commit as it comes, this bounds the WAL should it fall behind or readers
 * keep it. */
#define WAL_LIMIT 4096
/* The checkpointer starts once a commit leaves CHECKPOINT_FROM pages in
 * the WAL (cr_pipeline_opts.checkpoint_from): a small job (a shard of 100
 * writes 3.5 MB) leaves its WAL to the checkpoint at its end, without a
 * second connection and a thread for it, which took a tenth of a tiny
 * shard's CPU time. */
#define CHECKPOINT_FROM (WAL_LIMIT / 4)
#define NONE ((size_t)-1)

enum { SLOT_FREE, SLOT_FILLING, SLOT_READY, SLOT_SOLVING, SLOT_SOLVED };
enum { ENTRY_ROW, ENTRY_STORED, ENTRY_REJECT };

/* One variant's figures; offsets into the batch's text. */
typedef struct answer {
    int64_t value, first_score, second_score;
    int winner;
    unsigned missing;        /* CR_FIGURE_* bits of the figures not given */
    size_t moves, moves_len; /* moves NONE: no line */
    size_t error;            /* NONE when every figure is given */
} answer;

typedef struct entry {
    int kind;
    uint64_t line, offset;
    size_t source, ext_id, ext_id_len, raw, raw_len; /* text offsets (NONE: absent) */
    size_t reason; /* why a REJECT is rejected, or why a STORED instance cannot be read (NONE: absent) */
    size_t coins, n;                                          /* offset into the batch's coins */
    size_t json, json_len;                                    /* ENTRY_ROW: the coins' JSON text */
    int64_t instance_id;                                      /* ENTRY_STORED */
    /* filled by a solver */
    int64_t total;
    uint64_t digest; /* ENTRY_ROW: cr_instance_digest, hashed here rather than on the writer's thread */
    int total_fits, solved;
    answer answers[CR_VARIANT_COUNT];
} entry;

typedef struct batch {
    int state;
    entry *entries;
    size_t count, cap;
    char *text;
    size_t text_len, text_cap;
    int64_t *coins;
    size_t coins_len, coins_cap;
    size_t source; /* the last source name copied into text */
} batch;

/* The batch's text at offset (NONE: absent). */
static const char *text_at(const batch *b, size_t offset) { return offset == NONE ? NULL : b->text + offset; }

struct cr_pipeline {
    cr_store *store;
    cr_pipeline_opts opts;
    char set_name[128];

    pthread_mutex_t mu;
    /* each thread waits on a condition of its own, signalled by the changes
     * it waits for: with one condition for all, every change woke every
     * thread, and the woken took the cores from the reader and the writer */
    pthread_cond_t to_solve;      /* solvers: a batch is ready */
    pthread_cond_t to_write;      /* the writer: a batch is solved, a flush */
    pthread_cond_t to_fill;       /* the caller: a slot is free, a flush is done */
    pthread_cond_t to_checkpoint; /* the checkpointer: a commit */
    batch *ring;
    size_t ring_size;
    size_t batch_rows; /* rows a batch takes (BATCH_ROWS, fewer for a small job) */
    uint64_t filled, solving, written; /* batches handed on, taken by solvers, written */
    int closing, flush;
    atomic_int failed;
    cr_error error;         /* the first failure, set before failed */
    cr_pipeline_stats stats; /* committed */
    pthread_t writer, *solvers, checkpointer;
    int solver_count, writer_started, checkpointer_started, finished;
    cr_store *checkpoints; /* the checkpointer's own connection */
    int checkpoint_from;   /* WAL pages after a commit that start it */
    uint64_t commits;
    int wal_told;          /* opts.wal_held was called */

    batch *fill; /* the caller's batch at hand */
    uint64_t set_before, run_before;

    /* the writer's own */
    cr_pipeline_stats txn; /* counted in the open transaction */
    uint64_t txn_rows, txn_stored;
    uint64_t commit_rows; /* rows a transaction takes */
    int64_t commit_ns;    /* and the time it may last */
    int in_txn;
    struct timespec txn_start;
    cr_store_instance *ins;
    cr_store_result *res;
    size_t ins_cap, res_cap;
};

static int stopped(const cr_pipeline *p) { return p->opts.stop && atomic_load(p->opts.stop); }

/* Failing or closing: every thread has to look. */
static void wake_all(cr_pipeline *p)
{
    pthread_cond_broadcast(&p->to_solve);
    pthread_cond_broadcast(&p->to_write);
    pthread_cond_broadcast(&p->to_fill);
    pthread_cond_broadcast(&p->to_checkpoint);
}

static void fail(cr_pipeline *p, const cr_error *err)
{
    pthread_mutex_lock(&p->mu);
    if (!atomic_load(&p->failed)) {
        p->error = *err;
        atomic_store(&p->failed, 1);
    }
    wake_all(p);
    pthread_mutex_unlock(&p->mu);
}

static int64_t elapsed_ns(const struct timespec *since)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)(now.tv_sec - since->tv_sec) * 1000000000LL + (now.tv_nsec - since->tv_nsec);
}

/* ---- batches ---- */

/* Copies len bytes and a NUL into the batch's text; their offset in *out. */
static int put_text(size_t *out, batch *b, const char *s, size_t len)
{
    if (cr_grow((void **)&b->text, &b->text_cap, b->text_len + len + 1, 1, 64))
        return -1;
    memcpy(b->text + b->text_len, s, len);
    b->text[b->text_len + len] = '\0';
    *out = b->text_len;
    b->text_len += len + 1;
    return 0;
}

/* The rows a batch takes in a job of `rows` rows (0: not known). */
static size_t batch_rows(uint64_t rows, size_t ring_size)
{
    uint64_t share = rows / (4 * ring_size) / BATCH_ROWS_MIN * BATCH_ROWS_MIN;
    return rows == 0 || share >= BATCH_ROWS ? BATCH_ROWS : share <= BATCH_ROWS_MIN ? BATCH_ROWS_MIN : (size_t)share;
}

static void batch_clear(batch *b)
{
    b->count = b->text_len = b->coins_len = 0;
    b->source = NONE;
}

static void batch_free(batch *b)
{
    free(b->entries);
    free(b->text);
    free(b->coins);
}

/* Starts a thread with SIGINT and SIGTERM blocked: they go to the caller's
 * thread, whose reads they can interrupt. */
static int start(pthread_t *out, void *(*fn)(void *), void *arg)
{
    sigset_t handled, old;
    sigemptyset(&handled);
    sigaddset(&handled, SIGINT);
    sigaddset(&handled, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &handled, &old);
    int rc = pthread_create(out, NULL, fn, arg);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc;
}

/* ---- the solvers ---- */

/* Copies an instance's results into the batch: lines shared by variants
 * (total, diff and winner come from one game) are copied once. */
static int keep_answers(batch *b, entry *e, const cr_result *results, unsigned variants)
{
    for (int v = 0; v < CR_VARIANT_COUNT; v++) {
        if (!(variants & CR_VARIANT_BIT(v)))
            continue;
        const cr_result *r = &results[v];
        answer *a = &e->answers[v];
        *a = (answer){r->value, r->first_score, r->second_score, r->winner, r->missing, NONE, 0, NONE};
        if (r->error.code && put_text(&a->error, b, r->error.msg, strlen(r->error.msg)))
            return -1;
        if (!r->moves)
            continue;
        for (int u = 0; u < v && a->moves == NONE; u++)
            if ((variants & CR_VARIANT_BIT(u)) && results[u].moves == r->moves)
                a->moves = e->answers[u].moves;
        if (a->moves == NONE && put_text(&a->moves, b, r->moves, e->n))
            return -1;
        a->moves_len = e->n;
    }
    return 0;
}

static int solve_batch(cr_pipeline *p, batch *b, cr_solver *solver, int solve, cr_error *err)
{
    for (size_t i = 0; i < b->count; i++) {
        entry *e = &b->entries[i];
        const int64_t *coins = b->coins + e->coins;
        if (e->kind == ENTRY_REJECT)
            continue;
        if (e->kind == ENTRY_ROW) {
            e->total_fits = cr_coins_total(&e->total, coins, e->n);
            e->digest = cr_instance_digest(text_at(b, e->ext_id), e->ext_id_len, text_at(b, e->json), e->json_len);
        }
        if (!solve)
            continue;
        if (e->reason != NONE) { /* a stored instance that cannot be read: its answer says why */
            for (int v = 0; v < CR_VARIANT_COUNT; v++)
                e->answers[v] = (answer){.missing = CR_FIGURES_ALL, .moves = NONE, .error = e->reason};
            e->solved = 1;
            continue;
        }
        cr_result results[CR_VARIANT_COUNT];
        /* a row's own failure (too many coins, no memory for it or its
         * line, a figure beyond int64) is its answer, in its results'
         * error; only options no row can take stop the run */
        if (cr_solve(results, solver, coins, e->n, &p->opts.solve, err) == CR_EINVAL)
            return CR_EINVAL;
        if (keep_answers(b, e, results, p->opts.solve.variants))
            return cr_errorf(err, CR_ENOMEM, "no memory for the results of %zu coins", e->n);
        e->solved = 1;
    }
    return 0;
}

static void *solver_main(void *arg)
{
    cr_pipeline *p = arg;
    cr_solver *solver = NULL;
    cr_error err = {0};
    if (cr_solver_new(&solver, &err))
        fail(p, &err);
    else
        cr_solver_limit(solver, cr_physical_memory()); /* a line beyond it is refused, not tried */
    pthread_mutex_lock(&p->mu);
    for (;;) {
        if (p->solving < p->filled) {
            batch *b = &p->ring[p->solving++ % p->ring_size];
            b->state = SLOT_SOLVING;
            /* once stopped or failed, batches are only stored, not solved */
            int solve = p->opts.run_id != 0 && solver && !stopped(p) && !atomic_load(&p->failed);
            pthread_mutex_unlock(&p->mu);
            if (solve_batch(p, b, solver, solve, &err) != 0)
                fail(p, &err);
            pthread_mutex_lock(&p->mu);
            b->state = SLOT_SOLVED;
            pthread_cond_signal(&p->to_write);
            continue;
        }
        if (p->closing)
            break;
        pthread_cond_wait(&p->to_solve, &p->mu);
    }
    pthread_mutex_unlock(&p->mu);
    cr_solver_free(solver);
    return NULL;
}

/* ---- the checkpointer ---- */

/* Copies each commit from the WAL into the database file.  SQLite would do
 * it on the committing thread, waiting there for the disk twice per
 * checkpoint: about a quarter of the writer's time on a new database.  A failed
 * checkpoint loses nothing (the WAL keeps every commit), so errors are left
 * to the next one and to the writer's own. */
static void *checkpointer_main(void *arg)
{
    cr_pipeline *p = arg;
    uint64_t seen = 0;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        if (p->commits != seen) {
            seen = p->commits;
            pthread_mutex_unlock(&p->mu);
            cr_error ignored;
            cr_store_checkpoint(p->checkpoints, &ignored);
            pthread_mutex_lock(&p->mu);
            continue;
        }
        if (p->closing)
            break;
        pthread_cond_wait(&p->to_checkpoint, &p->mu);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* Opens the checkpointer's connection and starts it, on the writer's thread
 * after a commit that left checkpoint_from pages in the WAL. */
static int start_checkpointer(cr_pipeline *p, cr_error *err)
{
    int rc = cr_store_new(&p->checkpoints, cr_store_path(p->store), CR_STORE_WRITE, err);
    if (rc == 0 && start(&p->checkpointer, checkpointer_main, p) != 0)
        rc = cr_errorf(err, CR_ENOMEM, "cannot start the checkpointer thread");
    p->checkpointer_started = rc == 0;
    return rc;
}

/* ---- the writer ---- */

static int begin(cr_pipeline *p, cr_error *err)
{
    if (p->in_txn)
        return 0;
    int rc = cr_store_begin(p->store, err);
    if (rc == 0) {
        p->in_txn = 1;
        p->txn_rows = p->txn_stored = 0;
        memset(&p->txn, 0, sizeof p->txn);
        clock_gettime(CLOCK_MONOTONIC, &p->txn_start);
    }
    return rc;
}

/* The first time readers keep the WAL growing (cr_store_wal_held), the
 * caller hears of it, once: it stays so until they are done. */
static void tell_wal_held(cr_pipeline *p, int ended)
{
    uint64_t held = cr_store_wal_held(p->store);
    if (held && !p->wal_told && p->opts.wal_held) {
        p->wal_told = 1;
        p->opts.wal_held(p->opts.ctx, cr_store_path(p->store), held, ended);
    }
}

static int commit(cr_pipeline *p, cr_error *err)
{
    if (!p->in_txn)
        return 0;
    p->in_txn = 0;
    struct timespec began;
    clock_gettime(CLOCK_MONOTONIC, &began);
    int rc = cr_store_commit(p->store, err);
    if (rc)
        return rc;
    int64_t bound = COMMIT_SHARE * elapsed_ns(&began);
    p->commit_ns = bound < COMMIT_NS ? COMMIT_NS : bound > COMMIT_NS_MAX ? COMMIT_NS_MAX : bound;
    int64_t written, added;
    cr_store_pages_written(p->store, &written, &added);
    if (written > SCATTERED * added + SCATTERED_SLACK && p->commit_rows <= UINT64_MAX / 2)
        p->commit_rows *= 2;
    pthread_mutex_lock(&p->mu);
    cr_pipeline_stats *s = &p->stats;
    s->ingested += p->txn.ingested;
    s->skipped += p->txn.skipped;
    s->rejected += p->txn.rejected;
    s->solved += p->txn.solved;
    s->failed += p->txn.failed;
    s->pending -= s->pending < p->txn_stored ? s->pending : p->txn_stored;
    if (p->txn.bytes > s->bytes)
        s->bytes = p->txn.bytes;
    cr_pipeline_stats snapshot = *s;
    p->commits++;
    pthread_cond_signal(&p->to_checkpoint);
    pthread_mutex_unlock(&p->mu);
    if (p->opts.progress)
        p->opts.progress(p->opts.ctx, &snapshot);
    tell_wal_held(p, 0);
    if (!p->checkpointer_started && cr_store_wal_frames(p->store) >= p->checkpoint_from)
        return start_checkpointer(p, err);
    return 0;
}

static int reject(cr_pipeline *p, const batch *b, const entry *e, const char *reason, cr_error *err)
{
    cr_row row = {
        .source = text_at(b, e->source),
        .line = e->line,
        .ext_id = text_at(b, e->ext_id),
        .ext_id_len = e->ext_id_len,
        .reason = reason,
        .raw = text_at(b, e->raw),
        .raw_len = e->raw_len,
        .offset = e->offset,
    };
    int rc = cr_store_add_ingest_error(p->store, p->opts.set_id, row.source, row.line, row.ext_id, row.ext_id_len,
                                       reason, row.raw, row.raw_len, err);
    if (rc == 0) {
        p->txn.rejected++;
        if (p->opts.rejected)
            p->opts.rejected(p->opts.ctx, &row);
    }
    return rc;
}

/* Appends an entry's result rows to p->res for instance id. */
static int queue_results(cr_pipeline *p, size_t *count, const batch *b, const entry *e, int64_t id)
{
    int failed = 0;
    for (int v = 0; v < CR_VARIANT_COUNT; v++) {
        if (!(p->opts.solve.variants & CR_VARIANT_BIT(v)))
            continue;
        if (cr_grow((void **)&p->res, &p->res_cap, *count + 1, sizeof *p->res, 64))
            return -1;
        const answer *a = &e->answers[v];
        p->res[(*count)++] = (cr_store_result){id,
                                               (cr_variant)v,
                                               text_at(b, a->error),
                                               a->missing,
                                               a->value,
                                               a->first_score,
                                               a->second_score,
                                               a->winner,
                                               text_at(b, a->moves),
                                               a->moves_len};
        failed |= (a->missing & CR_FIGURE_VALUE) != 0;
    }
    p->txn.solved++;
    p->txn.failed += (uint64_t)failed;
    return 0;
}

static int write_batch(cr_pipeline *p, batch *b, cr_error *err)
{
    int rc = begin(p, err);
    size_t rows = 0, results = 0;
    for (size_t i = 0; rc == 0 && i < b->count; i++) {
        const entry *e = &b->entries[i];
        if (e->kind != ENTRY_ROW)
            continue;
        if ((rc = cr_grow((void **)&p->ins, &p->ins_cap, rows + 1, sizeof *p->ins, 64)) != 0)
            return cr_errorf(err, CR_ENOMEM, "no memory to write instances");
        p->ins[rows++] = (cr_store_instance){.ext_id = text_at(b, e->ext_id),
                                             .ext_id_len = e->ext_id_len,
                                             .coins_json = text_at(b, e->json),
                                             .coins_json_len = e->json_len,
                                             .n = e->n,
                                             .total = e->total,
                                             .total_fits = e->total_fits,
                                             .digest = e->digest};
    }
    if (rc == 0)
        rc = cr_store_add_instances(p->store, p->opts.set_id, p->ins, rows, err);
    if (rc == 0 && p->opts.group_id)
        rc = cr_store_group_add(p->store, p->opts.group_id, p->ins, rows, err);
    rows = 0;
    for (size_t i = 0; rc == 0 && i < b->count; i++) {
        const entry *e = &b->entries[i];
        if (e->offset > p->txn.bytes)
            p->txn.bytes = e->offset;
        if (e->kind == ENTRY_REJECT) {
            rc = reject(p, b, e, text_at(b, e->reason), err);
            continue;
        }
        if (e->kind == ENTRY_STORED) {
            p->txn_stored++;
            if (e->solved && queue_results(p, &results, b, e, e->instance_id))
                rc = cr_errorf(err, CR_ENOMEM, "no memory to write results");
            continue;
        }
        const cr_store_instance *in = &p->ins[rows++];
        if (in->state == CR_STORE_TOO_LONG) {
            char why[CR_ERROR_MSG_MAX];
            snprintf(why, sizeof why,
                     "its coins take %zu bytes as stored: SQLite stores at most %llu bytes in a row "
                     "(SQLITE_MAX_LENGTH)",
                     in->coins_json_len, (unsigned long long)cr_store_length_max(p->store));
            rc = reject(p, b, e, why, err);
            continue;
        }
        if (in->state == CR_STORE_CLASH) {
            char why[CR_ERROR_MSG_MAX];
            snprintf(why, sizeof why, "id '%.*s' is already in set '%s' with other coins",
                     (int)cr_utf8_cut(in->ext_id, e->ext_id_len > 60 ? 60 : e->ext_id_len), in->ext_id, p->set_name);
            rc = reject(p, b, e, why, err);
            continue;
        }
        if (in->state == CR_STORE_ADDED)
            p->txn.ingested++;
        else
            p->txn.skipped++;
        if (!e->solved)
            continue;
        if (in->state == CR_STORE_ADDED) {
            if (queue_results(p, &results, b, e, in->id))
                rc = cr_errorf(err, CR_ENOMEM, "no memory to write results");
            continue;
        }
        /* the set had it: solved only when the run does not have it yet
         * (the results queued so far go first: they may be its own) */
        size_t added = 0;
        cr_pipeline_stats before = p->txn;
        rc = cr_store_add_results(NULL, p->store, p->opts.run_id, p->res, results, err);
        results = 0;
        if (rc == 0 && queue_results(p, &results, b, e, in->id))
            rc = cr_errorf(err, CR_ENOMEM, "no memory to write results");
        else if (rc == 0)
            rc = cr_store_add_results(&added, p->store, p->opts.run_id, p->res, results, err);
        results = 0;
        if (added == 0)
            p->txn.solved = before.solved, p->txn.failed = before.failed;
    }
    if (rc == 0)
        rc = cr_store_add_results(NULL, p->store, p->opts.run_id, p->res, results, err);
    p->txn_rows += b->count;
    if (rc == 0 && (p->txn_rows >= p->commit_rows || elapsed_ns(&p->txn_start) >= p->commit_ns))
        rc = commit(p, err);
    return rc;
}

/* Commits unless a write failed (then the transaction was rolled back). */
static void settle(cr_pipeline *p, int write_failed)
{
    cr_error err = {0};
    if (!write_failed && commit(p, &err) != 0)
        fail(p, &err);
}

static void *writer_main(void *arg)
{
    cr_pipeline *p = arg;
    cr_error err = {0};
    int write_failed = 0;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        batch *b = &p->ring[p->written % p->ring_size];
        if (p->written < p->filled && b->state == SLOT_SOLVED) {
            pthread_mutex_unlock(&p->mu);
            /* after a failure batches are dropped; what was written before
             * it is still committed unless the failure was the writer's */
            if (!atomic_load(&p->failed) && write_batch(p, b, &err) != 0) {
                cr_store_rollback(p->store);
                p->in_txn = 0;
                write_failed = 1;
                fail(p, &err);
            }
            pthread_mutex_lock(&p->mu);
            batch_clear(b);
            b->state = SLOT_FREE;
            p->written++;
            pthread_cond_signal(&p->to_fill);
            continue;
        }
        if (p->written == p->filled && (p->closing || p->flush)) {
            pthread_mutex_unlock(&p->mu);
            settle(p, write_failed);
            pthread_mutex_lock(&p->mu);
            p->flush = 0;
            pthread_cond_signal(&p->to_fill);
            if (p->closing)
                break;
            continue;
        }
        if (!p->in_txn) {
            pthread_cond_wait(&p->to_write, &p->mu);
            continue;
        }
        /* a transaction is open: commit it within a second even when the
         * next batch is slow to come */
        struct timespec deadline = p->txn_start;
        deadline.tv_sec += 1;
        if (pthread_cond_timedwait(&p->to_write, &p->mu, &deadline) != 0) {
            pthread_mutex_unlock(&p->mu);
            settle(p, write_failed);
            pthread_mutex_lock(&p->mu);
        }
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* ---- the caller's side ---- */

/* Hands the batch at hand on to the solvers. */
static void submit(cr_pipeline *p)
{
    if (!p->fill)
        return;
    pthread_mutex_lock(&p->mu);
    if (p->fill->count > 0) {
        p->fill->state = SLOT_READY;
        p->filled++;
        pthread_cond_signal(&p->to_solve);
    } else {
        p->fill->state = SLOT_FREE;
    }
    p->fill = NULL;
    pthread_mutex_unlock(&p->mu);
}

/* A batch with room for a row of n coins, or NULL once the writer failed. */
static batch *batch_for(cr_pipeline *p, size_t n)
{
    batch *b = p->fill;
    if (b && (b->count == p->batch_rows || (b->count > 0 && b->coins_len + n > p->batch_rows * BATCH_COINS_PER_ROW))) {
        submit(p);
        b = NULL;
    }
    if (b)
        return b;
    pthread_mutex_lock(&p->mu);
    for (b = &p->ring[p->filled % p->ring_size]; b->state != SLOT_FREE && !atomic_load(&p->failed);)
        pthread_cond_wait(&p->to_fill, &p->mu);
    if (atomic_load(&p->failed))
        b = NULL;
    else
        b->state = SLOT_FILLING;
    pthread_mutex_unlock(&p->mu);
    return p->fill = b;
}

static int put_optional(size_t *out, batch *b, const char *s, size_t len)
{
    *out = NONE;
    return s ? put_text(out, b, s, len) : 0;
}

/* Queues an input row (kind ROW or REJECT) or a stored instance (STORED). */
static int queue(cr_pipeline *p, int kind, const cr_row *row, int64_t instance_id)
{
    if (stopped(p))
        return CR_EINTERRUPTED;
    batch *b = batch_for(p, row->n);
    if (!b)
        return p->error.code ? p->error.code : CR_EDB;
    if (cr_grow((void **)&b->entries, &b->cap, b->count + 1, sizeof *b->entries, 64) ||
        cr_grow((void **)&b->coins, &b->coins_cap, b->coins_len + row->n, sizeof *b->coins, 64))
        goto no_memory;
    entry *e = &b->entries[b->count];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->line = row->line;
    e->offset = row->offset;
    e->instance_id = instance_id;
    e->source = e->reason = e->raw = NONE;
    if (kind != ENTRY_STORED) {
        if (b->source == NONE || strcmp(b->text + b->source, row->source) != 0) {
            if (put_text(&b->source, b, row->source, strlen(row->source)))
                goto no_memory;
        }
        e->source = b->source;
        e->raw_len = row->raw_len > CR_RAW_MAX + 1 ? CR_RAW_MAX + 1 : row->raw_len;
        if (put_optional(&e->raw, b, row->raw, e->raw_len))
            goto no_memory;
    }
    if (put_optional(&e->reason, b, row->reason, row->reason ? strlen(row->reason) : 0))
        goto no_memory;
    e->ext_id_len = row->ext_id_len;
    if (put_optional(&e->ext_id, b, kind == ENTRY_STORED ? NULL : row->ext_id, row->ext_id_len))
        goto no_memory;
    if (kind == ENTRY_ROW && put_text(&e->json, b, row->coins_json, row->coins_json_len))
        goto no_memory;
    e->json_len = row->coins_json_len;
    if (kind != ENTRY_REJECT) {
        e->coins = b->coins_len;
        e->n = row->n;
        if (row->n) /* a damaged stored instance has none */
            memcpy(b->coins + b->coins_len, row->coins, row->n * sizeof *row->coins);
        b->coins_len += row->n;
    }
    b->count++;
    return 0;
no_memory:;
    cr_error err;
    cr_errorf(&err, CR_ENOMEM, "no memory to queue row %llu of %s", (unsigned long long)row->line,
              row->source ? row->source : "the set");
    fail(p, &err);
    return CR_ENOMEM;
}

int cr_pipeline_row(void *pipeline, const cr_row *row)
{
    return queue(pipeline, row->reason ? ENTRY_REJECT : ENTRY_ROW, row, 0);
}

void cr_pipeline_hand_on(cr_pipeline *p) { submit(p); }

int cr_pipeline_queue_unsolved(cr_pipeline *p, cr_error *err)
{
    if (p->opts.run_id == 0)
        return 0;
    if (stopped(p))
        return CR_EINTERRUPTED;
    /* what was queued must be committed before the store is read */
    submit(p);
    pthread_mutex_lock(&p->mu);
    p->flush = 1;
    pthread_cond_signal(&p->to_write);
    while (p->flush && !atomic_load(&p->failed))
        pthread_cond_wait(&p->to_fill, &p->mu);
    uint64_t covered = p->run_before + p->stats.solved, in_set = p->set_before + p->stats.ingested;
    p->stats.pending = in_set > covered ? in_set - covered : 0;
    uint64_t pending = p->stats.pending;
    pthread_mutex_unlock(&p->mu);
    if (atomic_load(&p->failed))
        return p->error.code;
    if (pending == 0)
        return 0; /* the counts say every instance of the set is solved */

    cr_store *reader = NULL;
    cr_store_instances *it = NULL;
    int rc = cr_store_new(&reader, cr_store_path(p->store), CR_STORE_READ, err);
    if (rc == 0 && (rc = cr_store_instances_new(&it, reader, p->opts.set_id, p->opts.run_id, err)) == 0)
        cr_store_instances_keep_damaged(it); /* a damaged one is its own failure, not the run's */
    const cr_instance *in;
    while (rc == 0 && (rc = cr_store_instances_next(&in, it, err)) == 1) {
        cr_row row = {.ext_id = in->ext_id, .ext_id_len = strlen(in->ext_id), .coins = in->coins, .n = in->n,
                      .reason = in->damage};
        rc = queue(p, ENTRY_STORED, &row, in->id);
    }
    cr_store_instances_free(it);
    cr_store_free(reader);
    return rc;
}

int cr_pipeline_new(cr_pipeline **out, cr_store *store, const cr_pipeline_opts *opts, cr_error *err)
{
    *out = NULL;
    cr_pipeline *p = calloc(1, sizeof *p);
    int jobs = opts->jobs < 1 ? 1 : opts->jobs > MAX_JOBS ? MAX_JOBS : opts->jobs;
    if (!p)
        return cr_errorf(err, CR_ENOMEM, "no memory for the pipeline");
    p->store = store;
    p->opts = *opts;
    p->commit_rows = opts->commit_rows ? opts->commit_rows : COMMIT_ROWS;
    p->commit_ns = COMMIT_NS;
    p->checkpoint_from = opts->checkpoint_from > 0 ? opts->checkpoint_from : CHECKPOINT_FROM;
    int64_t ignored;
    cr_store_pages_written(store, &ignored, &ignored); /* counted from here */
    p->ring_size = 2 * (size_t)jobs + 4;
    p->batch_rows = batch_rows(opts->rows, p->ring_size);
    p->ring = calloc(p->ring_size, sizeof *p->ring);
    p->solvers = calloc((size_t)jobs, sizeof *p->solvers);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->to_solve, NULL);
    cr_cond_init_monotonic(&p->to_write); /* its waits time out */
    pthread_cond_init(&p->to_fill, NULL);
    pthread_cond_init(&p->to_checkpoint, NULL);
    p->finished = 1; /* until the threads run */
    int rc = p->ring && p->solvers ? 0 : cr_errorf(err, CR_ENOMEM, "no memory for the pipeline");
    for (size_t i = 0; rc == 0 && i < p->ring_size; i++)
        batch_clear(&p->ring[i]);
    if (rc == 0)
        rc = cr_store_set_name(p->set_name, sizeof p->set_name, store, opts->set_id, err);
    if (rc == 0 && opts->run_id) {
        rc = cr_store_set_size(&p->set_before, store, opts->set_id, err);
        if (rc == 0)
            rc = cr_store_run_solved(&p->run_before, store, opts->run_id, err);
    }
    if (rc == 0) {
        cr_store_wal_now(store); /* the checkpointer and readers work beside the writer */
        p->finished = 0;
        cr_store_wal_limit(store, WAL_LIMIT);
    }
    if (rc == 0) {
        if (start(&p->writer, writer_main, p) != 0)
            rc = cr_errorf(err, CR_ENOMEM, "cannot start the writer thread");
        else
            p->writer_started = 1;
    }
    for (int i = 0; rc == 0 && i < jobs; i++) {
        if (start(&p->solvers[i], solver_main, p) != 0)
            rc = cr_errorf(err, CR_ENOMEM, "cannot start solver thread %d", i + 1);
        else
            p->solver_count++;
    }
    if (rc) {
        cr_pipeline_free(p);
        return rc;
    }
    *out = p;
    return 0;
}

static int mark_set(cr_pipeline *p, cr_error *err)
{
    int rc = cr_store_begin(p->store, err);
    if (rc == 0)
        rc = cr_store_set_mark(p->store, p->opts.set_id, err);
    if (rc == 0)
        rc = cr_store_commit(p->store, err);
    else
        cr_store_rollback(p->store);
    return rc;
}

int cr_pipeline_finish(cr_pipeline *p, cr_pipeline_stats *out, cr_error *err)
{
    if (!p->finished) {
        submit(p);
        pthread_mutex_lock(&p->mu);
        p->closing = 1;
        wake_all(p);
        pthread_mutex_unlock(&p->mu);
        for (int i = 0; i < p->solver_count; i++)
            pthread_join(p->solvers[i], NULL);
        if (p->writer_started)
            pthread_join(p->writer, NULL);
        if (p->checkpointer_started)
            pthread_join(p->checkpointer, NULL);
        cr_store_free(p->checkpoints);
        p->checkpoints = NULL;
        cr_error ignored; /* the WAL is only made smaller */
        cr_store_wal_truncate(p->store, &ignored);
        tell_wal_held(p, 1);
        cr_store_wal_limit(p->store, 0);
        p->finished = 1;
        /* the set's marks, so that its shards find their bounds at once */
        if (!atomic_load(&p->failed) && p->stats.ingested > 0 && !p->opts.unmarked && mark_set(p, &p->error) != 0)
            atomic_store(&p->failed, 1);
    }
    if (out)
        *out = p->stats;
    if (!atomic_load(&p->failed))
        return 0;
    if (err)
        *err = p->error;
    return p->error.code;
}

void cr_pipeline_free(cr_pipeline *p)
{
    if (!p)
        return;
    cr_pipeline_finish(p, NULL, NULL);
    for (size_t i = 0; p->ring && i < p->ring_size; i++)
        batch_free(&p->ring[i]);
    free(p->ring);
    free(p->solvers);
    free(p->ins);
    free(p->res);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->to_solve);
    pthread_cond_destroy(&p->to_write);
    pthread_cond_destroy(&p->to_fill);
    pthread_cond_destroy(&p->to_checkpoint);
    free(p);
}

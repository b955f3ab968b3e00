/* Gathering a report's model (model.h): the runs and invocations it shows
 * are picked and checked on the caller's connection, then its figures are
 * read as independent parts by a crew of connections, each part on one
 * connection, so that a large set's aggregates (each a full pass over its
 * rows) run side by side on the machine's cores. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/model.h"
#include "util/util.h"

/* ---- what the page shows: picked and checked first ---- */

/* Reads run id into *out, refusing one of another set; what names the
 * option ("--run"). */
static int find_run(cr_report_run *out, cr_report_model *m, cr_store *store, int64_t id, const char *what,
                    cr_error *err)
{
    int rc = cr_store_run_find(&out->run, store, id, CR_PICK_ANY, err);
    if (rc == 0 && out->run.set_id != m->opts->set_id) {
        char other[256];
        rc = cr_store_set_name(other, sizeof other, store, out->run.set_id, err);
        return rc ? rc
                  : cr_errorf(err, CR_EINVAL, "%s: %s %lld is a run of set '%s', not of '%s'", cr_store_path(store),
                              what, (long long)id, other, m->set_name);
    }
    return rc ? rc : cr_store_run_notes(&out->notes, store, out->run.id, err);
}

/* The run (--run, else the latest done one) and the one it is compared
 * with (--against, else the latest done one before it), and the latest
 * runs to list. */
static int pick_runs(cr_report_model *m, cr_store *store, cr_error *err)
{
    const cr_report_opts *o = m->opts;
    int64_t ids[CR_REPORT_RUNS], run_id = o->run_id, against_id = o->against_id;
    int rc = cr_store_set_jobs(ids, CR_REPORT_RUNS, &m->run_count, &m->runs_total, store, o->set_id, 1, err);
    for (size_t k = 0; rc == 0 && k < m->run_count; k++)
        rc = find_run(&m->runs[k], m, store, ids[k], "run", err);
    if (rc == 0 && !run_id)
        rc = cr_store_set_latest_done(&run_id, store, o->set_id, 0, err);
    if (rc == 0 && run_id && (rc = find_run(&m->run, m, store, run_id, "--run", err)) == 0)
        m->has_run = 1;
    if (rc == 0 && against_id && !m->has_run)
        return cr_errorf(err, CR_EINVAL, "%s: set '%s' has no done run to compare run %lld with: give --run too",
                         cr_store_path(store), m->set_name, (long long)against_id);
    if (rc == 0 && against_id && against_id == run_id)
        return cr_errorf(err, CR_EINVAL, "%s: --against names run %lld, the run itself: give another",
                         cr_store_path(store), (long long)against_id);
    if (rc == 0 && !against_id && m->has_run)
        rc = cr_store_set_latest_done(&against_id, store, o->set_id, run_id, err);
    if (rc == 0 && against_id && (rc = find_run(&m->against, m, store, against_id, "--against", err)) == 0)
        m->has_against = 1;
    return rc;
}

/* The latest invocations, oldest first, and among them the built-in
 * strategies' latest of the variant the latest built-in judged. */
static int pick_invocations(cr_report_model *m, cr_store *store, cr_error *err)
{
    int64_t ids[CR_REPORT_COLUMNS];
    size_t count = 0;
    int rc = cr_store_set_jobs(ids, CR_REPORT_COLUMNS, &count, &m->invocations_total, store, m->opts->set_id, 0, err);
    if (rc || !count)
        return rc;
    if (!(m->columns = calloc(count, sizeof *m->columns)))
        return cr_errorf(err, CR_ENOMEM, "no memory for %zu invocations", count);
    for (; rc == 0 && m->column_count < count; m->column_count++)
        rc = cr_store_invocation_find(&m->columns[m->column_count].inv, store, ids[count - 1 - m->column_count],
                                      CR_PICK_ANY, err);
    int taken[CR_STRATEGY_COUNT] = {0}, variant = -1;
    for (size_t k = m->column_count; rc == 0 && k-- > 0;) {
        const cr_invocation *inv = &m->columns[k].inv;
        if (inv->argv || inv->status != CR_RUN_DONE || (variant >= 0 && (int)inv->variant != variant) ||
            taken[inv->strategy]++)
            continue;
        variant = (int)inv->variant;
        m->builtins[m->builtin_count++] = k;
    }
    return rc;
}

static int add_test_group(void *ctx, const cr_store_group *g)
{
    cr_report_model *m = ctx;
    if (m->test_group_count < CR_REPORT_TEST_GROUPS) {
        cr_report_test_group *t = &m->test_groups[m->test_group_count++];
        snprintf(t->name, sizeof t->name, "%s", g->name);
        snprintf(t->depends, sizeof t->depends, "%s", g->depends ? g->depends : "");
        t->points = g->points;
        t->tests = g->tests;
    }
    return 0;
}

/* The set's groups of tests, when an invocation is shown. */
static int pick_test_groups(cr_report_model *m, cr_store *store, cr_error *err)
{
    return m->column_count ? cr_store_groups_each(&m->test_groups_total, store, m->opts->set_id, add_test_group, m, err)
                           : 0;
}

/* Its points, group by group, into the column. */
typedef struct points_into {
    cr_report_column *column;
    size_t next;
} points_into;

static int add_points(void *ctx, const cr_group_points *g)
{
    points_into *p = ctx;
    cr_report_column *c = p->column;
    size_t k = p->next++;
    c->scored_total += g->scored;
    c->points_total += g->points;
    if (k < CR_REPORT_TEST_GROUPS) {
        c->scored[k] = g->scored;
        c->accepted[k] = g->accepted;
        c->judged[k] = g->judged;
        c->passed[k] = (unsigned char)g->passed;
    }
    return 0;
}

/* Tests a group: one each while the ids span at most CR_REPORT_ROWS. */
static void pick_folds(cr_report_model *m)
{
    if (!m->set.instances)
        return;
    uint64_t span = (uint64_t)m->set.id_max - (uint64_t)m->set.id_min + 1;
    uint64_t width = (span + CR_REPORT_ROWS - 1) / CR_REPORT_ROWS;
    m->group_width = (int64_t)width;
    m->groups = (size_t)((span + width - 1) / width);
}

/* ---- the parts, read side by side ---- */

typedef int part_fn(cr_report_model *m, int arg, cr_store *store, cr_error *err);

static int part_set(cr_report_model *m, int arg, cr_store *store, cr_error *err)
{
    (void)arg;
    int rc = cr_store_set_n_histogram(&m->n, store, m->opts->set_id, err);
    return rc ? rc
              : cr_store_rejected_rows(m->rejected, CR_REPORT_REJECTED, &m->rejected_count, store, m->opts->set_id,
                                       err);
}

static int part_coins(cr_report_model *m, int arg, cr_store *store, cr_error *err)
{
    (void)arg;
    return cr_store_set_coin_range(&m->coin_min, &m->coin_max, &m->has_coins, store, m->opts->set_id, err);
}

static int part_variant(cr_report_model *m, int v, cr_store *store, cr_error *err)
{
    int rc = cr_store_run_variant_stats(&m->variants[v], store, m->run.run.id, (cr_variant)v, err);
    if (rc == 0 && m->variants[v].errors)
        rc = cr_store_run_errors(m->errors[v], CR_REPORT_ERRORS, &m->error_count[v], store, m->run.run.id,
                                 (cr_variant)v, err);
    return rc;
}

static int part_comparison(cr_report_model *m, int arg, cr_store *store, cr_error *err)
{
    (void)arg;
    const cr_run *a = &m->against.run, *b = &m->run.run;
    const cr_answers_comparison *c = &m->comparison;
    int rc = cr_store_answers_compare(&m->comparison, store, a, b, err);
    if (rc == 0 && c->differing)
        rc = cr_store_answer_differences(m->differences, CR_REPORT_DIFFERENCES, &m->difference_count, store, a, b, 0,
                                         err);
    if (rc == 0 && (c->solved_a > c->common || c->solved_b > c->common))
        rc = cr_store_answer_differences(m->missing, CR_REPORT_DIFFERENCES, &m->missing_count, store, a, b, 1, err);
    return rc;
}

static int part_folds(cr_report_model *m, int arg, cr_store *store, cr_error *err)
{
    (void)arg;
    return cr_store_set_folds(m->folds, m->groups, store, m->opts->set_id, m->set.id_min, m->group_width, err);
}

static int part_column(cr_report_model *m, int k, cr_store *store, cr_error *err)
{
    cr_report_column *c = &m->columns[k];
    size_t seen = 0;
    points_into into = {c, 0};
    int rc = cr_store_invocation_summary(&c->summary, store, c->inv.id, CR_INVOKE_AC, err);
    if (rc == 0 && m->test_group_count)
        rc = cr_store_invocation_points_each(&seen, store, c->inv.id, add_points, &into, err);
    return rc ? rc
              : cr_store_verdict_cells(c->cells, m->groups, &c->times, store, c->inv.id, m->set.id_min,
                                       m->group_width ? m->group_width : 1, &m->n, err);
}

static int part_weak(cr_report_model *m, int arg, cr_store *store, cr_error *err)
{
    (void)arg;
    int64_t ids[CR_STRATEGY_COUNT];
    for (size_t k = 0; k < m->builtin_count; k++)
        ids[k] = m->columns[m->builtins[k]].inv.id;
    return cr_store_accepted_by_all(&m->weak, store, ids, m->builtin_count, err);
}

typedef struct part {
    part_fn *fn;
    int arg;
} part;

/* The parts and who reads them: each connection takes the next part not
 * taken until none is left, or one has failed, or a stop is asked. */
typedef struct crew {
    cr_report_model *m;
    part parts[8 + CR_VARIANT_COUNT + CR_REPORT_COLUMNS];
    int rcs[8 + CR_VARIANT_COUNT + CR_REPORT_COLUMNS];
    cr_error errs[8 + CR_VARIANT_COUNT + CR_REPORT_COLUMNS];
    size_t count;
    atomic_size_t next;
    atomic_int failed;
} crew;

typedef struct hand {
    crew *crew;
    cr_store *store;
    pthread_t thread;
} hand;

static void work(crew *c, cr_store *store)
{
    const atomic_int *stop = c->m->opts->stop;
    for (size_t k; (k = atomic_fetch_add(&c->next, 1)) < c->count && !atomic_load(&c->failed);) {
        if (stop && atomic_load(stop))
            c->rcs[k] = cr_errorf(&c->errs[k], CR_EINTERRUPTED, "interrupted: no report written");
        else
            c->rcs[k] = c->parts[k].fn(c->m, c->parts[k].arg, store, &c->errs[k]);
        if (c->rcs[k])
            atomic_store(&c->failed, 1);
    }
}

static void *hand_main(void *arg)
{
    hand *h = arg;
    work(h->crew, h->store);
    return NULL;
}

static void add_part(crew *c, part_fn *fn, int arg) { c->parts[c->count++] = (part){fn, arg}; }

/* Reads every part, on the store and up to jobs - 1 more connections. */
static int read_parts(cr_report_model *m, cr_store *store, int jobs, cr_error *err)
{
    crew *c = calloc(1, sizeof *c);
    hand hands[8];
    size_t started = 0, opened = 0;
    int rc = c ? 0 : cr_errorf(err, CR_ENOMEM, "no memory for the report");
    if (rc)
        return rc;
    c->m = m;
    add_part(c, part_set, 0);
    add_part(c, part_coins, 0);
    for (int v = 0; m->has_run && v < CR_VARIANT_COUNT; v++)
        if (m->run.run.opts.variants & CR_VARIANT_BIT(v))
            add_part(c, part_variant, v);
    if (m->has_against)
        add_part(c, part_comparison, 0);
    if (m->groups)
        add_part(c, part_folds, 0);
    for (size_t k = 0; k < m->column_count; k++)
        add_part(c, part_column, (int)k);
    if (m->builtin_count)
        add_part(c, part_weak, 0);

    size_t want = jobs > 1 ? (size_t)jobs - 1 : 0;
    if (want > sizeof hands / sizeof hands[0])
        want = sizeof hands / sizeof hands[0];
    for (; rc == 0 && opened < want && opened + 1 < c->count; opened++) {
        hands[opened] = (hand){c, NULL, 0};
        rc = cr_store_new(&hands[opened].store, cr_store_path(store), CR_STORE_READ, err);
    }
    for (; rc == 0 && started < opened; started++)
        if (pthread_create(&hands[started].thread, NULL, hand_main, &hands[started]) != 0)
            break; /* the others read its share */
    if (rc == 0)
        work(c, store);
    for (size_t k = 0; k < started; k++)
        pthread_join(hands[k].thread, NULL);
    for (size_t k = 0; k < opened; k++)
        cr_store_free(hands[k].store);
    /* the first part that failed, in their order, says why */
    for (size_t k = 0; rc == 0 && k < c->count; k++)
        if ((rc = c->rcs[k]) != 0)
            *err = c->errs[k];
    free(c);
    return rc;
}

/* Whether a run or an invocation the page shows is writing (or was
 * stopped by a kill, which leaves it running). */
static int writing(const cr_report_model *m)
{
    int any = (m->has_run && m->run.run.status == CR_RUN_RUNNING) ||
              (m->has_against && m->against.run.status == CR_RUN_RUNNING);
    for (size_t k = 0; k < m->column_count; k++)
        any |= m->columns[k].inv.status == CR_RUN_RUNNING;
    return any;
}

/* What the page shows: the set, its runs, invocations and groups. */
static int pick(cr_report_model *m, cr_store *store, cr_error *err)
{
    int rc = cr_store_set_name(m->set_name, sizeof m->set_name, store, m->opts->set_id, err);
    if (rc == 0)
        rc = cr_store_set_outline(&m->set, store, m->opts->set_id, err);
    if (rc == 0)
        rc = pick_runs(m, store, err);
    if (rc == 0)
        rc = pick_invocations(m, store, err);
    if (rc == 0)
        rc = pick_test_groups(m, store, err);
    return rc;
}

int cr_report__gather(cr_report_model *m, cr_store *store, cr_error *err)
{
    /* what the page shows is picked in a read transaction; while a run or
     * an invocation it shows is writing, every part is read in it too, on
     * this connection alone, so that the page is of one moment (the parts
     * read side by side on others were of moments apart, and one variant's
     * totals disagreed with another's).  Otherwise it ends at once, which in
     * rollback mode would hold off a writer for the whole page. */
    int rc = cr_store_read_begin(store, err);
    if (rc)
        return rc;
    rc = pick(m, store, err);
    int snapshot = rc == 0 && writing(m);
    if (!snapshot)
        cr_store_read_end(store);
    cr_time_text(m->written_at, (int64_t)time(NULL));
    if (rc == 0) {
        cr_store_histogram_init(&m->n, m->set.instances, m->set.n_min, m->set.n_max);
        pick_folds(m);
        rc = read_parts(m, store, snapshot ? 1 : m->opts->jobs, err);
    }
    if (snapshot)
        cr_store_read_end(store);
    return rc;
}

void cr_report__model_clear(cr_report_model *m)
{
    for (size_t k = 0; k < m->column_count; k++)
        cr_invocation_clear(&m->columns[k].inv);
    free(m->columns);
    m->columns = NULL;
    m->column_count = 0;
}

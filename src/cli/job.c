/* Carrying out ingest, solve and run: one job, steps chosen by the command. */
#include "cli/job.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/progress.h"
#include "cli/signals.h"
#include "coinrow.h"
#include "batch/batch.h"
#include "source/source.h"
#include "store/store.h"
#include "util/util.h"

/* --shard K/N with --out and a tag into *shard (its options are set later). */
static int check_shard(cr_shard_spec *shard, const cli_command *cmd, const cli_job_args *a)
{
    uint32_t k, n;
    if (cli_shard_parse(&k, &n, a->shard) != 0)
        return cli_usage_error(cmd, "--shard takes K/N with 0 <= K < N, not '%s'", a->shard);
    if (!a->out)
        return cli_usage_error(cmd, "--shard K/N writes to its own database: give --out SHARD.db");
    const char *tag = a->run_tag ? a->run_tag : getenv("SLURM_ARRAY_JOB_ID");
    if (!tag || !*tag)
        return cli_usage_error(cmd, "--shard needs --run-tag TAG, the same for every shard of the job");
    if (a->resume)
        return cli_usage_error(cmd, "a shard resumes by itself: run the same command again, without --resume");
    *shard = (cr_shard_spec){a->db, a->set, k, n, tag, {0}, cli_version(), a->label};
    return -1;
}

/* Checks the command line; the options it takes are in `solve`, `format`,
 * `jobs` and (with --shard) `shard`.  Returns -1 to go on, or the exit status. */
static int check_args(int64_t *out_run, cr_solve_opts *solve, cr_source_opts *src, int *jobs, cr_shard_spec *shard,
                      const cli_command *cmd, const cli_job_args *a, int steps, int npos, char **pos)
{
    cr_error err = {0};
    *out_run = 0;
    int status;
    if (a->shard && (status = check_shard(shard, cmd, a)) >= 0)
        return status;
    if (!a->shard && (a->out || a->run_tag))
        return cli_usage_error(cmd, "--out and --run-tag go with --shard K/N");
    if (steps & CLI_JOB_INGEST) {
        if (a->from_db && npos)
            return cli_usage_error(cmd, "give input files or --from-db, not both");
        if (!a->from_db && !a->read && npos == 0)
            return cli_usage_error(cmd, "no input: give files, folders or '-', or --from-db FILE --table NAME");
        if (!a->from_db != !a->table)
            return cli_usage_error(cmd, "--from-db FILE and --table NAME go together");
        if (cr_source_format_parse(&src->format, a->format, &err))
            return cli_usage_error(cmd, "%s", err.msg);
        src->id_col = a->id_col;
        src->values_col = a->values_col;
    } else if (a->resume) {
        int64_t id = 0;
        if (npos > 1 || (npos == 1 && cli_int_parse(&id, pos[0], 1, INT64_MAX)))
            return cli_usage_error(cmd, "--resume takes one run id (a positive number), or none for the latest");
        if (a->set || a->variant || a->moves || a->algo || a->label)
            return cli_usage_error(cmd, "--resume goes on with the run's own set and options");
        *out_run = id;
    } else if (npos) {
        return cli_usage_error(cmd, "'%s': solve takes no inputs (ingest them first, or use run)", pos[0]);
    }
    if (steps & CLI_JOB_SOLVE) {
        if (cr_variants_parse(&solve->variants, a->variant ? a->variant : "all", &err) ||
            cr_moves_parse(&solve->moves, a->moves ? a->moves : "fast", &err) ||
            cr_algo_parse(&solve->algo, a->algo ? a->algo : "auto", &err))
            return cli_usage_error(cmd, "%s", err.msg);
    }
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int64_t n = cpus > 0 ? cpus : 1;
    if (a->jobs && cli_int_parse(&n, a->jobs, 1, 256))
        return cli_usage_error(cmd, "--jobs takes a number from 1 to 256, not '%s'", a->jobs);
    *jobs = (int)n;
    shard->opts = *solve;
    return -1;
}

/* The set the job works on: created by an ingest of inputs, found for a
 * solve or the rows a command makes. */
static int find_set(int64_t *out, cr_store *store, const cli_job_args *a, int steps, int npos, char **pos,
                    cr_error *err)
{
    if (!(steps & CLI_JOB_INGEST) || a->read)
        return cr_store_set_find(out, store, a->set, 0, NULL, err);
    char name[256], source[512];
    if (a->from_db) {
        snprintf(name, sizeof name, "%s", a->table);
        snprintf(source, sizeof source, "%s:%s", a->from_db, a->table);
    } else {
        cr_source_set_name(name, sizeof name, pos[0]);
        size_t len = 0;
        source[0] = '\0';
        for (int i = 0; i < npos && len < sizeof source; i++)
            len += (size_t)snprintf(source + len, sizeof source - len, "%s%s", i ? " " : "", pos[i]);
    }
    return cr_store_set_find(out, store, a->set ? a->set : name, 1, source, err);
}

/* The run results go to: a new one, or the unfinished one to resume. */
static int open_run(int64_t *out, int64_t *set_id, cr_solve_opts *solve, cr_store *store, const cli_job_args *a,
                    int64_t resume_id, cr_error *err)
{
    if (!a->resume)
        return cr_store_run_new(out, store, *set_id, solve, cli_version(), a->label, err);
    cr_run run;
    int rc = cr_store_run_find(&run, store, resume_id, CR_PICK_UNFINISHED, err);
    if (rc == 0 && strcmp(run.solver_version, cli_version()) != 0)
        cli_fail("note: run %lld was started by coinrow %s; this is %s", (long long)run.id, run.solver_version,
                 cli_version());
    if (rc == 0)
        rc = cr_store_run_set_status(store, run.id, CR_RUN_RUNNING, NULL, err);
    if (rc == 0) {
        *out = run.id;
        *set_id = run.set_id;
        *solve = run.opts;
    }
    return rc;
}

static void summary(const cli_progress *progress, const cli_job_args *a, int steps, const cr_pipeline_stats *s,
                    const char *set_name, int64_t run_id)
{
    if (steps & CLI_JOB_INGEST)
        printf("ingested %llu, skipped %llu, rejected %llu, ", (unsigned long long)s->ingested,
               (unsigned long long)s->skipped, (unsigned long long)s->rejected);
    if (steps & CLI_JOB_SOLVE)
        printf("solved %llu, failed %llu, ", (unsigned long long)s->solved, (unsigned long long)s->failed);
    printf("set '");
    cr_text_put(stdout, set_name); /* a file's name, or the database's */
    printf("'");
    if (run_id)
        printf(", run %lld", (long long)run_id);
    printf(" in %s, %.2f s\n", a->shard ? a->out : a->db, cli_progress_seconds(progress));
}

/* After a clean stop: how to carry on. */
static void resume_hint(const cli_job_args *a, const char *set_name, int64_t run_id, int input_done)
{
    if (a->shard) {
        cli_fail("interrupted; run the same command again to finish shard %s into %s", a->shard, a->out);
        return;
    }
    if (!input_done)
        cli_fail("interrupted before the end of the input: %s set '%s' again adds the rest (stored rows are "
                 "skipped)%s",
                 a->read ? "the same command for" : "ingesting the same input into", set_name,
                 run_id ? "; then finish the run with:" : "");
    else if (run_id)
        cli_fail("interrupted; finish the run with:");
    if (run_id) {
        fprintf(stderr, "  coinrow solve --resume %lld --db ", (long long)run_id);
        cr_text_put_word(stderr, a->db);
        fputc('\n', stderr);
    }
}

int cli_job_main(const cli_command *cmd, int steps, int argc, char **argv)
{
    cli_job_args a = CLI_JOB_ARGS_INIT;
    int npos, status = cli_parse(&npos, cmd, &a, argc, argv);
    return status >= 0 ? status : cli_job_run(cmd, &a, steps, npos, argv);
}

/* A job under way: what check_args found, and what starting it made. */
typedef struct job {
    const cli_job_args *a;
    int steps, npos;
    char **pos;
    int64_t resume_id, set_id, run_id;
    cr_solve_opts solve;
    cr_shard_spec shard;
    int jobs, shard_done;
    cli_progress progress;
    const atomic_int *stop;
    cr_store *store;
    cr_pipeline *p;
    char set_name[128];
    cr_error *err;
} job;

/* Opens the database, finds or makes the set and the run, and starts the
 * pipeline (or finds the shard done).  A job that ingests starts on its
 * first input row, so that input refused before it creates nothing: no
 * database, no empty set, no run. */
static int job_start(job *j)
{
    const cli_job_args *a = j->a;
    int rc = cr_store_new(&j->store, a->shard ? a->out : a->db, CR_STORE_WRITE, j->err);
    if (rc == 0 && a->shard) {
        rc = cr_shard_prepare(&j->set_id, &j->run_id, &j->shard_done, j->store, &j->shard, j->err);
        if (rc == 0 && !j->shard_done)
            rc = cr_store_run_set_status(j->store, j->run_id, CR_RUN_RUNNING, NULL, j->err);
    } else {
        if (rc == 0 && !a->resume)
            rc = find_set(&j->set_id, j->store, a, j->steps, j->npos, j->pos, j->err);
        if (rc == 0 && (j->steps & CLI_JOB_SOLVE))
            rc = open_run(&j->run_id, &j->set_id, &j->solve, j->store, a, j->resume_id, j->err);
    }
    if (rc == 0)
        rc = cr_store_set_name(j->set_name, sizeof j->set_name, j->store, j->set_id, j->err);
    if (rc || j->shard_done)
        return rc;
    cr_pipeline_opts po = {.set_id = j->set_id, .run_id = j->run_id, .solve = j->solve, .jobs = j->jobs,
                           .stop = j->stop, .progress = cli_progress_update, .rejected = cli_progress_rejected,
                           .wal_held = cli_progress_wal_held, .ctx = &j->progress};
    return cr_pipeline_new(&j->p, j->store, &po, j->err);
}

/* A cr_row_fn: starts the job on the first row, then queues each. */
static int job_row(void *ctx, const cr_row *row)
{
    job *j = ctx;
    int rc = j->store ? 0 : job_start(j);
    return rc ? rc : cr_pipeline_row(j->p, row);
}

int cli_job_run(const cli_command *cmd, const cli_job_args *a, int steps, int npos, char **pos)
{
    cr_error err = {0};
    job j = {.a = a, .steps = steps, .npos = npos, .pos = pos, .jobs = 1, .err = &err};
    cr_source_opts src = {0};
    int status = check_args(&j.resume_id, &j.solve, &src, &j.jobs, &j.shard, cmd, a, steps, npos, pos);
    if (status >= 0)
        return status;
    int from_files = (steps & CLI_JOB_INGEST) && !a->from_db && !a->read;
    cli_progress_start(&j.progress, !a->quiet && (a->progress || isatty(STDERR_FILENO)), steps & CLI_JOB_INGEST,
                       steps & CLI_JOB_SOLVE, from_files ? cr_source_size((const char *const *)pos, (size_t)npos, &src) : 0);
    src.stop = j.stop = cli_signals_catch();

    cr_pipeline_stats stats = {0};
    int rc = 0, input_done = !(steps & CLI_JOB_INGEST);
    if (steps & CLI_JOB_INGEST) {
        rc = a->read      ? a->read(a->read_ctx, job_row, &j, &err)
             : a->from_db ? cr_source_table_read(a->from_db, a->table, &src, job_row, &j, &err)
                          : cr_source_read((const char *const *)pos, (size_t)npos, &src, job_row, &j, &err);
        input_done = rc == 0;
    }
    if (rc == 0 && !j.store)
        rc = job_start(&j); /* nothing to ingest, or nothing was */
    if (!j.p) {
        /* refused before the first row (nothing was made but, should the
         * pipeline fail to start, a run, marked failed), or a shard done */
        cr_error ignored;
        if (rc && j.run_id)
            cr_store_run_set_status(j.store, j.run_id, CR_RUN_FAILED, err.msg, &ignored);
        cli_progress_clear(&j.progress);
        if (rc == 0 && !a->quiet) {
            printf("shard %s of job '", a->shard);
            cr_text_put(stdout, j.shard.tag); /* the input database's */
            printf("' is done already in %s\n", a->out);
        }
        cr_store_free(j.store);
        return rc ? cli_report(&err) : CR_EXIT_OK;
    }
    if (rc == 0 && (steps & CLI_JOB_SOLVE))
        rc = cr_pipeline_queue_unsolved(j.p, &err);
    cr_error late = {0};
    if (cr_pipeline_finish(j.p, &stats, &late) != 0)
        rc = late.code, err = late; /* the pipeline's own failure is the cause */
    cr_pipeline_free(j.p);
    cli_progress_clear(&j.progress);

    int interrupted = cli_signals_caught() && (rc == 0 || rc == CR_EINTERRUPTED);
    if (j.run_id) {
        cr_error status_err = {0};
        cr_run_status final = interrupted ? CR_RUN_INTERRUPTED : rc ? CR_RUN_FAILED : CR_RUN_DONE;
        if ((cr_store_run_add_seconds(j.store, j.run_id, cli_progress_seconds(&j.progress), &status_err) ||
             cr_store_run_set_status(j.store, j.run_id, final, final == CR_RUN_FAILED ? err.msg : NULL,
                                     &status_err)) &&
            rc == 0)
            rc = status_err.code, err = status_err;
    }
    if (!a->quiet)
        summary(&j.progress, a, steps, &stats, j.set_name, j.run_id);
    if (stats.rejected)
        cli_fail("%llu row%s rejected%s; every one is in the table ingest_error", (unsigned long long)stats.rejected,
                 stats.rejected == 1 ? "" : "s", stats.rejected > CLI_PROGRESS_SHOWN_REJECTS ? " (the first ones are above)" : "");
    cr_store_free(j.store);
    if (interrupted) {
        resume_hint(a, j.set_name, j.run_id, input_done);
        return CR_EXIT_INTERRUPTED;
    }
    if (rc)
        return cli_report(&err);
    return stats.rejected ? CR_EXIT_REJECTED : CR_EXIT_OK;
}

int cli_answers_run(cr_run *out, const cli_command *cmd, cr_store *store, const char *db, const char *set,
                    int64_t set_id, cr_variant variant, int lines)
{
    cr_error err = {0};
    int found;
    if (cr_store_run_with_answers(out, &found, store, set_id, variant, lines, &err))
        return cli_report(&err);
    if (!found) {
        cli_fail("no done run of set '%s' has the %s answers%s for every instance: solving it first", set,
                 cr_variant_name(variant), lines ? " with canonical lines" : "");
        cli_job_args a = CLI_JOB_ARGS_INIT;
        a.db = db;
        a.set = set;
        a.variant = cr_variant_name(variant);
        a.moves = lines ? "canonical" : "none";
        char label[64];
        snprintf(label, sizeof label, "coinrow %s", cmd->name);
        a.label = label;
        int status = cli_job_run(cmd, &a, CLI_JOB_SOLVE, 0, NULL);
        if (status != CR_EXIT_OK)
            return status;
        if (cr_store_run_with_answers(out, &found, store, set_id, variant, lines, &err))
            return cli_report(&err);
        if (!found) {
            cli_fail("the new run of set '%s' did not answer every instance", set);
            return CR_EXIT_FATAL;
        }
    }
    cli_fail("the %s answers%s come from run %lld (done; algo %s, moves %s, coinrow %s)", cr_variant_name(variant),
             lines ? " and lines" : "", (long long)out->id, cr_algo_name(out->opts.algo), cr_moves_name(out->opts.moves),
             out->solver_version);
    return -1;
}

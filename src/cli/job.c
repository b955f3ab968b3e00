/* Carrying out ingest, solve and run: one job, steps chosen by the command. */
#define _XOPEN_SOURCE 700 /* realpath */
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
    /* the input is read immutable by every shard at once: none may write it */
    if (cr_file_same(a->out, a->db))
        return cli_usage_error(cmd, "--out %s is the input database (--db %s): a shard writes a database of its own",
                               a->out, a->db);
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
        for (int i = 0, stdin_seen = 0; i < npos; i++)
            if (strcmp(pos[i], "-") == 0 && stdin_seen++)
                return cli_usage_error(cmd, "'-' is given twice: standard input is read once");
        if (!a->from_db != !a->table)
            return cli_usage_error(cmd, "--from-db FILE and --table NAME go together");
        /* SQLite cannot hold a table of a file open for reading while the
         * same command commits to it: it waited, then said "locked" */
        if (a->from_db && cr_file_same(a->from_db, a->db))
            return cli_usage_error(cmd, "--from-db %s is the database this command writes to (--db %s): copy it "
                                        "first, and give --from-db the copy",
                                   a->from_db, a->db);
        if (cr_source_format_parse(&src->format, a->format, &err))
            return cli_usage_error(cmd, "%s", err.msg);
        if (src->format == CR_FORMAT_WIDE && a->values_col)
            return cli_usage_error(cmd, "--values-col has no meaning for --format wide, whose every column but the "
                                        "id is a coin");
        src->id_col = a->id_col;
        src->values_col = a->values_col;
        if (a->group && !a->set)
            return cli_usage_error(cmd, "--group NAME goes with --set SET, the set that has the group");
        if (a->resume && (a->variant || a->moves || a->algo || a->label))
            return cli_usage_error(cmd, "--resume goes on with the run's own options");
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
 * solve or the rows a command makes; what its ingest reads, as the set's
 * source names it, into source (cap bytes). */
static int find_set(int64_t *out, char *source, size_t cap, cr_store *store, const cli_job_args *a, int steps,
                    int npos, char **pos, cr_error *err)
{
    snprintf(source, cap, "%s", a->read ? "generated rows" : "");
    if (!(steps & CLI_JOB_INGEST) || a->read)
        return cr_store_set_find(out, store, a->set, 0, NULL, err);
    char name[256];
    if (a->from_db) {
        snprintf(name, sizeof name, "%s", a->table);
        snprintf(source, cap, "%s:%s", a->from_db, a->table);
    } else {
        cr_source_set_name(name, sizeof name, pos[0]);
        size_t len = 0;
        for (int i = 0; i < npos && len < cap; i++)
            len += (size_t)snprintf(source + len, cap - len, "%s%s", i ? " " : "", pos[i]);
    }
    /* rows for a group go into a set of groups that is there */
    return cr_store_set_find(out, store, a->set ? a->set : name, !a->group, source, err);
}

/* A job under way: what check_args found, and what starting it made. */
typedef struct job {
    const cli_job_args *a;
    const cli_command *cmd;
    int steps, npos;
    char **pos;
    int64_t resume_id, set_id, run_id;
    int64_t group_id;       /* the group the rows join (0: none) ... */
    cr_store_group group;   /* ... and its constraints (ingest --group) */
    cr_solve_opts solve;
    cr_shard_spec shard;
    cr_shard_input *shard_input; /* with --shard: where its instances come from */
    int jobs, shard_done;
    cli_progress progress;
    const atomic_int *stop;
    cr_store *store;
    cr_pipeline *p;
    char set_name[128];
    char source[512];  /* what the ingest reads, as the set's source names it */
    char *files;       /* the same resolved (cr_store_ingest_of), or NULL */
    int ingesting;     /* its ingest is recorded as under way (cr_store_ingest_begin) */
    int ran;           /* the pipeline was started */
    char *finish;      /* the command that finishes the job, when it stops short; NULL */
    int lacking;       /* refused: its set lacks rows of another ingest, which j->finish finishes */
    cr_error *err;
} job;

/* An input file resolved: absolute, without links (NULL: standard input,
 * or one that cannot be, which the ingest then names). */
static char *resolved(const char *path) { return strcmp(path, "-") == 0 ? NULL : realpath(path, NULL); }

/* What the job ingests, resolved (cr_store_ingest_of's files): its input
 * files, or its --from-db file and table; NULL when one of them is no file
 * or there is no memory. */
static char *input_files(const job *j)
{
    const cli_job_args *a = j->a;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    int all = 1;
    for (int i = 0; all && i < (a->from_db ? 1 : j->npos); i++) {
        char *file = resolved(a->from_db ? a->from_db : j->pos[i]);
        all = file != NULL;
        if (file)
            fprintf(f, "%s%s", i ? "\n" : "", file);
        free(file);
    }
    if (a->from_db)
        fprintf(f, ":%s", a->table);
    if (fclose(f) != 0 || !all) {
        free(text);
        return NULL;
    }
    return text;
}

/* A path of the command that finishes the job: resolved, so that it
 * finishes it from any folder. */
static void put_path(FILE *f, const char *path)
{
    char *file = resolved(path);
    cr_text_put_word(f, file ? file : path);
    free(file);
}

/* The command that finishes the job should its ingest stop short: the same
 * input (resolved) into the same set again (the rows stored are skipped)
 * and, for a run, --resume to finish that run; without --db
 * (cr_store_finish_put adds it).  NULL when there is no memory for it. */
static char *finish_command(const job *j)
{
    const cli_job_args *a = j->a;
    if (a->read)
        return a->again ? strdup(a->again) : NULL;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    fprintf(f, "coinrow %s%s", j->cmd->name, j->steps & CLI_JOB_SOLVE ? " --resume" : "");
    const char *flags[][2] = {{"--table", a->table}, {"--id-col", a->id_col}, {"--values-col", a->values_col},
                              {"--format", strcmp(a->format, "auto") ? a->format : NULL}, {"--group", a->group}};
    for (int i = 0; !a->from_db && i < j->npos; i++) {
        fputc(' ', f);
        put_path(f, j->pos[i]);
    }
    if (a->from_db) {
        fputs(" --from-db ", f);
        put_path(f, a->from_db);
    }
    for (size_t k = 0; k < sizeof flags / sizeof *flags; k++) {
        if (flags[k][1]) {
            fprintf(f, " %s ", flags[k][0]);
            cr_text_put_word(f, flags[k][1]);
        }
    }
    fputs(" --set ", f);
    cr_text_put_word(f, j->set_name);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* Refuses to solve set set_id while an ingest of it is unfinished (but
 * for one of this job's own input, which it finishes): the run would be
 * done with part of that input.  The command that finishes the job goes to
 * j->finish. */
static int refuse_unfinished(job *j, int64_t set_id)
{
    cr_unfinished_ingest u;
    int found;
    cr_store_ingest_of of = {j->source, j->files};
    int rc = cr_store_ingest_unfinished(&u, &found, j->store, set_id, j->steps & CLI_JOB_INGEST ? &of : NULL, j->err);
    if (rc || !found)
        return rc;
    j->lacking = 1;
    char name[128];
    if ((rc = cr_store_set_name(name, sizeof name, j->store, set_id, j->err)) != 0)
        return rc;
    free(j->finish);
    j->finish = strdup(u.finish);
    return cr_errorf(j->err, CR_EINVAL, "%s: set '%s' lacks rows of its input: its ingest of %s did not finish, "
                                        "and a run now would be done without them",
                     j->a->db, name, u.source);
}

/* Refuses to resume a shard's run: its instances are those of its share
 * of the input, which only solve --shard copies in; a resume marked it done
 * with those it had, and the job merged short of the set. */
static int refuse_shard(job *j, const cr_run *run)
{
    cr_store_shard shard;
    int rc = cr_store_shard_read(&shard, j->store, j->err);
    if (rc == 1 && shard.run_id == run->id)
        rc = cr_errorf(j->err, CR_EINVAL, "%s: run %lld is shard %u/%u of job '%s', whose instances come from its "
                                          "input: run the solve --shard command that made it again, which finishes "
                                          "it, rather than --resume",
                       j->a->db, (long long)run->id, shard.k, shard.n, run->tag);
    if (rc == 1)
        rc = 0;
    cr_store_shard_clear(&shard);
    return rc;
}

/* The run results go to: a new one, or the unfinished one to resume (for
 * run --resume, the latest of the set the input goes to). */
static int open_run(job *j)
{
    const cli_job_args *a = j->a;
    int ingest = j->steps & CLI_JOB_INGEST;
    int rc = 0;
    if (!a->resume) {
        if ((rc = refuse_unfinished(j, j->set_id)) != 0)
            return rc;
        return cr_store_run_new(&j->run_id, j->store, j->set_id, &j->solve, cli_version(), a->label, j->err);
    }
    int64_t id = j->resume_id;
    if (ingest && (rc = cr_store_run_latest_unfinished(&id, j->store, j->set_id, j->err)) == 0 && id == 0)
        return cr_errorf(j->err, CR_EINVAL, "%s: set '%s' has no unfinished run to resume", a->db, j->set_name);
    cr_run run;
    if (rc == 0)
        rc = cr_store_run_find(&run, j->store, id, CR_PICK_UNFINISHED, j->err);
    if (rc == 0)
        rc = refuse_shard(j, &run);
    if (rc == 0)
        rc = refuse_unfinished(j, run.set_id);
    if (rc == 0 && strcmp(run.solver_version, cli_version()) != 0)
        cli_fail("note: run %lld was started by coinrow %s; this is %s", (long long)run.id, run.solver_version,
                 cli_version());
    if (rc == 0)
        rc = cr_store_run_set_status(j->store, run.id, CR_RUN_RUNNING, NULL, j->err);
    if (rc == 0) {
        j->run_id = run.id;
        j->set_id = run.set_id;
        j->solve = run.opts;
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

/* A shard that read most of its input for its share says why, once it is
 * done: every shard of the job does the same. */
static void scattered_note(const cr_shard_input *in, const cr_shard_spec *spec)
{
    int64_t read, total;
    if (cr_shard_input_scattered(in, &read, &total))
        cli_fail("note: shard %u/%u read a page of its input %lld times (the input has %lld pages): the set's ids "
                 "were not ingested in their order, so every shard reads most of the input (docs/scaling.md: "
                 "ingest it again in id order)",
                 spec->k, spec->n, (long long)read, (long long)total);
}

/* The command that finishes the job, on standard error after what stopped
 * it. */
static void finish_hint(const job *j, const char *why)
{
    cli_fail("%s; finish the job with:", why);
    if (!j->finish) {
        fputs("  (the same command again)\n", stderr);
        return;
    }
    fputs("  ", stderr);
    cr_store_finish_put(stderr, j->finish, j->a->db);
    fputc('\n', stderr);
}

/* After a clean stop: how to carry on. */
static void resume_hint(const job *j)
{
    const cli_job_args *a = j->a;
    if (a->shard) {
        cli_fail("interrupted; run the same command again to finish shard %s into %s", a->shard, a->out);
        return;
    }
    if (j->ingesting) {
        finish_hint(j, "interrupted before the end of the input");
        return;
    }
    if (!j->run_id)
        return;
    cli_fail("interrupted; finish the run with:");
    fprintf(stderr, "  coinrow solve --resume %lld --db ", (long long)j->run_id);
    cr_text_put_word(stderr, a->db);
    fputc('\n', stderr);
}

/* After a failure: the error, and how to finish the job when there is a
 * way. */
static int fail_hint(const job *j, const cr_error *err)
{
    int status = cli_report(err);
    if (j->ingesting) {
        finish_hint(j, "the input is not all stored");
    } else if (j->lacking) {
        finish_hint(j, "its set is not complete");
    } else if (j->ran && j->run_id && !j->a->shard && err->code != CR_EINVAL) {
        /* a write that failed (disk, lock, memory): the rows are stored */
        cli_fail("finish the run with:");
        fprintf(stderr, "  coinrow solve --resume %lld --db ", (long long)j->run_id);
        cr_text_put_word(stderr, j->a->db);
        fputc('\n', stderr);
    }
    return status;
}

int cli_job_main(const cli_command *cmd, int steps, int argc, char **argv)
{
    cli_job_args a = CLI_JOB_ARGS_INIT;
    int npos, status = cli_parse(&npos, cmd, &a, argc, argv);
    return status >= 0 ? status : cli_job_run(cmd, &a, steps, npos, argv);
}

/* A cr_store_group_fn: keeps the first group's name and stops. */
static int first_group(void *ctx, const cr_store_group *g)
{
    snprintf(ctx, CR_STORE_GROUP_NAME_MAX + 1, "%s", g->name);
    return 1;
}

/* Refuses rows without --group for the job's set when it is scored by
 * groups: each of its tests is in one, and a test in none was stored, then
 * refused by export as left by "an interrupted generate --group". */
static int refuse_groupless(job *j)
{
    char group[CR_STORE_GROUP_NAME_MAX + 1] = "";
    size_t count = 0;
    int rc = cr_store_groups_each(&count, j->store, j->set_id, first_group, group, j->err);
    if (rc < 0 || !group[0])
        return rc < 0 ? rc : 0;
    char shown_set[CR_TEXT_SHOWN_CAP(sizeof j->set_name)];
    return cr_errorf(j->err, CR_EINVAL, "%s: set '%s' is scored by groups, and each of its tests is in one: give "
                                        "--group NAME (such as --group %s) to put these rows in one",
                     j->a->db, cr_text_shown(shown_set, sizeof shown_set, j->set_name), group);
}

/* Inside one transaction, so that a job refused here leaves nothing: finds
 * or makes the set, records its ingest as under way, and opens the run. */
static int job_open(job *j)
{
    const cli_job_args *a = j->a;
    int ingest = j->steps & CLI_JOB_INGEST;
    int rc = cr_store_begin(j->store, j->err);
    if (rc == 0 && ingest && a->group) /* first: it names the group when the set is missing */
        rc = cr_store_group_find(&j->set_id, &j->group_id, &j->group, j->store, a->set, a->group, j->err);
    if (rc == 0 && (!a->resume || ingest))
        rc = find_set(&j->set_id, j->source, sizeof j->source, j->store, a, j->steps, j->npos, j->pos, j->err);
    if (rc == 0 && ingest)
        rc = cr_store_set_name(j->set_name, sizeof j->set_name, j->store, j->set_id, j->err);
    if (rc == 0 && ingest && !a->group && !a->group_id) /* generate --group gives its group's id */
        rc = refuse_groupless(j);
    if (rc == 0 && ingest) {
        j->finish = finish_command(j);
        if (!a->read)
            j->files = input_files(j);
        cr_store_ingest_of of = {j->source, j->files};
        rc = cr_store_ingest_begin(j->store, j->set_id, &of, j->finish, j->err);
    }
    if (rc == 0 && (j->steps & CLI_JOB_SOLVE))
        rc = open_run(j);
    if (rc == 0)
        rc = cr_store_commit(j->store, j->err);
    else
        cr_store_rollback(j->store);
    j->ingesting = rc == 0 && ingest;
    return rc;
}

/* Opens the database, finds or makes the set and the run, and starts the
 * pipeline (or finds the shard done).  A job that ingests starts on its
 * first input row, so that input refused before it creates nothing: no
 * database, no empty set, no run. */
static int job_start(job *j)
{
    const cli_job_args *a = j->a;
    const char *db = a->shard ? a->out : a->db;
    /* a limit too low for the whole job refuses it before the database is
     * made or a run row is written, rather than at its second connection */
    if (!cr_files_spare(CR_PIPELINE_FILES))
        return cr_errorf(j->err, CR_EIO, "%s: too many open files: the job needs %d more at once (raise the limit, "
                                         "ulimit -n)", db, CR_PIPELINE_FILES);
    /* solve, and a resumed run, need a set in a database that is there: a
     * mistyped path creates none */
    int creates = (j->steps & CLI_JOB_INGEST) && !a->group && !a->resume;
    int made = a->shard && access(db, F_OK) != 0;
    int rc = cr_store_new(&j->store, db,
                          a->shard ? CR_STORE_WRITE_ROLLBACK : creates ? CR_STORE_WRITE : CR_STORE_WRITE_EXISTING,
                          j->err);
    if (rc == 0 && a->shard) {
        rc = cr_shard_prepare(&j->set_id, &j->run_id, &j->shard_done, &j->shard_input, j->store, &j->shard, j->err);
        if (rc && made) { /* refused (no such input or set): no database left at --out */
            cr_store_free(j->store);
            j->store = NULL;
            remove(db);
        }
    } else if (rc == 0) {
        rc = job_open(j);
    }
    if (rc == 0)
        rc = cr_store_set_name(j->set_name, sizeof j->set_name, j->store, j->set_id, j->err);
    if (rc || j->shard_done)
        return rc;
    cr_pipeline_opts po = {.set_id = j->set_id, .group_id = j->group_id, .run_id = j->run_id, .solve = j->solve,
                           .jobs = j->jobs, .stop = j->stop, .progress = cli_progress_update, .rejected = cli_progress_rejected,
                           .wal_held = cli_progress_wal_held, .ctx = &j->progress,
                           .rows = j->shard_input ? cr_shard_input_size(j->shard_input) : 0,
                           .unmarked = j->shard_input != NULL};
    return cr_pipeline_new(&j->p, j->store, &po, j->err);
}

/* A cr_row_fn: starts the job on the first row, then queues each; a row
 * for a group (ingest --group) that breaks its constraints is rejected,
 * naming the test, the group and the constraint. */
static int job_row(void *ctx, const cr_row *row)
{
    job *j = ctx;
    int rc = j->store ? 0 : job_start(j);
    if (rc)
        return rc;
    cr_error why = {0};
    if (!j->a->group || row->reason || cr_contest_meets(row->coins, row->n, &j->group.limits, j->group.all_equal, &why) == 0)
        return cr_pipeline_row(j->p, row);
    char reason[CR_ERROR_MSG_MAX + 256], shown[64];
    snprintf(reason, sizeof reason, "test '%s' breaks group '%s' of set '%s': %s",
             cr_text_shown_len(shown, sizeof shown, row->ext_id, row->ext_id_len), j->a->group, j->set_name, why.msg);
    cr_row rejected = *row;
    rejected.reason = reason;
    return cr_pipeline_row(j->p, &rejected);
}

/* A cr_source_opts idle: the input has stopped coming for a second; the
 * rows in hand are committed rather than kept until more come. */
static void job_idle(void *ctx)
{
    job *j = ctx;
    if (j->p)
        cr_pipeline_hand_on(j->p);
}

int cli_job_run(const cli_command *cmd, const cli_job_args *a, int steps, int npos, char **pos)
{
    cr_error err = {0};
    job j = {.a = a, .cmd = cmd, .steps = steps, .npos = npos, .pos = pos, .jobs = 1, .group_id = a->group_id, .err = &err};
    cr_source_opts src = {0};
    int status = check_args(&j.resume_id, &j.solve, &src, &j.jobs, &j.shard, cmd, a, steps, npos, pos);
    if (status >= 0)
        return status;
    int from_files = (steps & CLI_JOB_INGEST) && !a->from_db && !a->read;
    cli_progress_start(&j.progress, !a->quiet && (a->progress || isatty(STDERR_FILENO)), steps & CLI_JOB_INGEST,
                       steps & CLI_JOB_SOLVE, from_files ? cr_source_size((const char *const *)pos, (size_t)npos, &src) : 0);
    src.stop = j.stop = cli_signals_catch();
    src.idle = job_idle;
    src.idle_ctx = &j;

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
        cr_shard_input_free(j.shard_input);
        status = rc ? fail_hint(&j, &err) : CR_EXIT_OK;
        free(j.finish);
        free(j.files);
        return status;
    }
    j.ran = 1;
    if (rc == 0 && a->shard) /* its instances, copied and solved in one pass */
        rc = cr_shard_feed(j.shard_input, cr_pipeline_row, j.p, &err);
    if (rc == 0 && (steps & CLI_JOB_SOLVE))
        rc = cr_pipeline_queue_unsolved(j.p, &err);
    cr_error late = {0};
    int stored = cr_pipeline_finish(j.p, &stats, &late) == 0;
    if (!stored)
        rc = late.code, err = late; /* the pipeline's own failure is the cause */
    cr_pipeline_free(j.p);
    cli_progress_clear(&j.progress);
    /* every row of the input is committed: the ingest is over */
    if (j.ingesting && input_done && stored) {
        cr_error end_err = {0};
        cr_store_ingest_of of = {j.source, j.files};
        if (cr_store_ingest_end(j.store, j.set_id, &of, &end_err) == 0)
            j.ingesting = 0;
        else if (rc == 0)
            rc = end_err.code, err = end_err;
    }

    int interrupted = cli_signals_caught() && (rc == 0 || rc == CR_EINTERRUPTED);
    if (j.run_id) {
        cr_error status_err = {0};
        cr_run_status final = interrupted ? CR_RUN_INTERRUPTED : rc ? CR_RUN_FAILED : CR_RUN_DONE;
        if (cr_store_run_finish(j.store, j.run_id, final, final == CR_RUN_FAILED ? err.msg : NULL,
                                cli_progress_seconds(&j.progress), &status_err) &&
            rc == 0)
            rc = status_err.code, err = status_err;
    }
    if (!a->quiet)
        summary(&j.progress, a, steps, &stats, j.set_name, j.run_id);
    if (rc == 0 && j.shard_input)
        scattered_note(j.shard_input, &j.shard);
    if (stats.rejected)
        cli_fail("%llu row%s rejected%s; every one is in the table ingest_error", (unsigned long long)stats.rejected,
                 stats.rejected == 1 ? "" : "s", stats.rejected > CLI_PROGRESS_SHOWN_REJECTS ? " (the first ones are above)" : "");
    cr_store_free(j.store);
    cr_shard_input_free(j.shard_input);
    if (interrupted) {
        resume_hint(&j);
        status = CR_EXIT_INTERRUPTED;
    } else if (rc) {
        status = fail_hint(&j, &err);
    } else {
        status = stats.rejected ? CR_EXIT_REJECTED : CR_EXIT_OK;
    }
    free(j.finish);
    free(j.files);
    return status;
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
        /* the run's own connection is to find the file upgraded, not wait for this one */
        if (cr_store_keep_upgrade(store, &err))
            return cli_report(&err);
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

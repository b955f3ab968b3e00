/* A batch job: what ingest, solve, run (and generate and export, which run
 * one) share: their options, and one way to carry the job out (summary,
 * resume hints, exit status; progress.c draws its progress, signals.c
 * stops it cleanly). */
#ifndef CR_CLI_JOB_H
#define CR_CLI_JOB_H

#include "cli/cli.h"
#include "source/source.h"
#include "store/store.h"

typedef struct cli_job_args {
    const char *db, *set, *label;
    const char *format, *id_col, *values_col, *from_db, *table; /* ingesting */
    const char *group; /* ingesting: the group of set `set` (made by generate --group) the rows join */
    const char *variant, *moves, *algo, *jobs;                  /* solving */
    const char *shard, *out, *run_tag;                          /* solving a shard */
    int resume, quiet, progress;
    /* Ingesting rows a command makes itself (generate) instead of reading
     * inputs: calls fn for each row, as cr_source_read does; its set must
     * exist (a->set names it). */
    int (*read)(void *ctx, cr_row_fn fn, void *fn_ctx, cr_error *err);
    void *read_ctx;
    const char *again; /* with read: the command that makes the rows again, to finish a job cut short */
    int64_t group_id;  /* with read: the group of the set the rows join (0: none) */
} cli_job_args;

/* The defaults that are not NULL; the solving options default to all, fast
 * and auto when left NULL (so that --resume can tell they were not given). */
#define CLI_JOB_ARGS_INIT {.db = "coinrow.db", .format = "auto"}

/* Option table lines, one definition each.  A command whose arguments add
 * to a job's begins its arguments struct with a cli_job_args, so that these
 * offsets hold for it too. */
#define CLI_JOB_OPT_DB \
    CLI_TEXT(cli_job_args, db, "db", "PATH", "the database (default coinrow.db; created when missing)")
#define CLI_JOB_OPT_SET CLI_TEXT(cli_job_args, set, "set", "NAME", "the instance set (default: the input's base name)")
#define CLI_JOB_OPT_FORMAT \
    CLI_TEXT(cli_job_args, format, "format", "FMT", "auto (default: by extension), csv, tsv, wide or contest")
#define CLI_JOB_OPT_ID_COL \
    CLI_TEXT(cli_job_args, id_col, "id-col", "NAME", "the id column (default id, else the row number)")
#define CLI_JOB_OPT_VALUES_COL                                                                                         \
    CLI_TEXT(cli_job_args, values_col, "values-col", "NAME",                                                           \
             "the values column (default values, coins, piles or stones)")
#define CLI_JOB_OPT_FROM_DB \
    CLI_TEXT(cli_job_args, from_db, "from-db", "FILE", "read a table of another SQLite database ...")
#define CLI_JOB_OPT_GROUP                                                                                          \
    CLI_TEXT(cli_job_args, group, "group", "NAME",                                                                 \
             "put the rows in this group of the set (generate --group made it)")
#define CLI_JOB_OPT_TABLE CLI_TEXT(cli_job_args, table, "table", "NAME", "... this table (with --from-db)")
#define CLI_JOB_OPT_VARIANT \
    CLI_TEXT(cli_job_args, variant, "variant", "LIST", "total, diff, remaining, winner, a comma list, or all (default)")
#define CLI_JOB_OPT_MOVES CLI_TEXT(cli_job_args, moves, "moves", "POLICY", "fast (default), canonical or none")
#define CLI_JOB_OPT_ALGO CLI_TEXT(cli_job_args, algo, "algo", "NAME", "auto (default), linear, dp or naive")
#define CLI_JOB_OPT_JOBS CLI_TEXT(cli_job_args, jobs, "jobs", "N", "solver threads (default: the number of CPUs)")
#define CLI_JOB_OPT_LABEL CLI_TEXT(cli_job_args, label, "label", "TEXT", "a note stored with the run")
#define CLI_JOB_OPT_QUIET CLI_FLAG(cli_job_args, quiet, "quiet", "no progress and no summary")
#define CLI_JOB_OPT_PROGRESS \
    CLI_FLAG(cli_job_args, progress, "progress", "progress on stderr even when it is not a terminal")

/* Where a job that ingests reads its input. */
#define CLI_JOB_OPTS_INPUT                                                                                         \
    CLI_JOB_OPT_FORMAT, CLI_JOB_OPT_ID_COL, CLI_JOB_OPT_VALUES_COL, CLI_JOB_OPT_FROM_DB, CLI_JOB_OPT_TABLE

/* The exit statuses of a job, for the commands' details. */
#define CLI_JOB_EXIT_HELP                                                                                          \
    "Exit status: 0 done, 3 done but some rows were rejected, 1 a fatal error, 2 usage,\n"                     \
    "130 interrupted (after a clean stop)."

/* Which steps a command takes. */
enum { CLI_JOB_INGEST = 1, CLI_JOB_SOLVE = 2 };


/* Parses argv against cmd's options into a fresh cli_job_args and carries
 * the job out (cli_job_run).  Returns the exit status. */
int cli_job_main(const cli_command *cmd, int steps, int argc, char **argv);

/* Carries a job out with the options in a and the positional arguments
 * pos[0..npos), checked as a command line: ingests inputs (pos, --from-db or
 * a->read) when steps has CLI_JOB_INGEST, then solves the set in a new or
 * resumed run when it has CLI_JOB_SOLVE, with progress, summary, signals and
 * resume hints.  Usage errors name cmd.  Returns the exit status. */
int cli_job_run(const cli_command *cmd, const cli_job_args *a, int steps, int npos, char **pos);

/* The run whose answers for `variant` (with lines: and canonical lines)
 * judges and exports take: the latest done run of set set_id (named `set`)
 * that has them for every instance, else a new run solved here first, in
 * the database at db (store's).  Standard error names the run.  Returns -1
 * with the run in *out, or the exit status of a failed solve. */
int cli_answers_run(cr_run *out, const cli_command *cmd, cr_store *store, const char *db, const char *set,
                    int64_t set_id, cr_variant variant, int lines);

#endif

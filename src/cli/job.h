/* A batch job: what ingest, solve, run (and generate and export, which run
 * one) share: their options, and one way to carry the job out (summary,
 * resume hints, exit status; progress.c draws its progress, signals.c
 * stops it cleanly). */
#ifndef CR_CLI_JOB_H
#define CR_CLI_JOB_H

#include "cli/cli.h"
#include "io/source.h"
#include "io/store.h"

typedef struct cli_job_args {
    const char *db, *set, *label;
    const char *format, *id_col, *values_col, *from_db, *table; /* ingesting */
    const char *variant, *moves, *algo, *jobs;                  /* solving */
    const char *shard, *out, *run_tag;                          /* solving a shard */
    int resume, quiet, progress;
    /* Ingesting rows a command makes itself (generate) instead of reading
     * inputs: calls fn for each row, as cr_source_read does; its set must
     * exist (a->set names it). */
    int (*read)(void *ctx, cr_row_fn fn, void *fn_ctx, cr_error *err);
    void *read_ctx;
} cli_job_args;

/* The defaults that are not NULL; the solving options default to all, fast
 * and auto when left NULL (so that --resume can tell they were not given). */
#define CLI_JOB_ARGS_INIT {.db = "coinrow.db", .format = "auto"}

/* Option table lines, one definition each. */
#define CLI_JOB_OPT_DB(a) {"db", "PATH", "the database (default coinrow.db; created when missing)", &(a)->db, NULL}
#define CLI_JOB_OPT_SET(a) {"set", "NAME", "the instance set (default: the input's base name)", &(a)->set, NULL}
#define CLI_JOB_OPT_FORMAT(a) {"format", "FMT", "auto (default: by extension), csv, tsv, wide or contest", &(a)->format, NULL}
#define CLI_JOB_OPT_ID_COL(a) {"id-col", "NAME", "the id column (default id, else the row number)", &(a)->id_col, NULL}
#define CLI_JOB_OPT_VALUES_COL(a) \
    {"values-col", "NAME", "the values column (default values, coins, piles or stones)", &(a)->values_col, NULL}
#define CLI_JOB_OPT_FROM_DB(a) {"from-db", "FILE", "read a table of another SQLite database ...", &(a)->from_db, NULL}
#define CLI_JOB_OPT_TABLE(a) {"table", "NAME", "... this table (with --from-db)", &(a)->table, NULL}
#define CLI_JOB_OPT_VARIANT(a) \
    {"variant", "LIST", "total, diff, remaining, winner, a comma list, or all (default)", &(a)->variant, NULL}
#define CLI_JOB_OPT_MOVES(a) {"moves", "POLICY", "fast (default), canonical or none", &(a)->moves, NULL}
#define CLI_JOB_OPT_ALGO(a) {"algo", "NAME", "auto (default), linear, dp or naive", &(a)->algo, NULL}
#define CLI_JOB_OPT_JOBS(a) {"jobs", "N", "solver threads (default: the number of CPUs)", &(a)->jobs, NULL}
#define CLI_JOB_OPT_LABEL(a) {"label", "TEXT", "a note stored with the run", &(a)->label, NULL}
#define CLI_JOB_OPT_QUIET(a) {"quiet", NULL, "no progress and no summary", NULL, &(a)->quiet}
#define CLI_JOB_OPT_PROGRESS(a) {"progress", NULL, "progress on stderr even when it is not a terminal", NULL, &(a)->progress}

/* Which steps a command takes. */
enum { CLI_JOB_INGEST = 1, CLI_JOB_SOLVE = 2 };

/* Parses argv against opts and carries the job out (cli_job_run).  Returns
 * the exit status. */
int cli_job_main(const cli_command *cmd, const cli_option *opts, cli_job_args *a, int steps, int argc, char **argv);

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

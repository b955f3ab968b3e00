/* A batch job's progress line on standard error ("solved 120000 of 1000000
 * (12%), 45678/s, ETA 0:00:19"), redrawn at most four times a second from
 * the pipeline's writer thread, and the first rejected rows printed above
 * it. */
#ifndef CR_CLI_PROGRESS_H
#define CR_CLI_PROGRESS_H

#include <stdint.h>
#include <time.h>

#include "batch/batch.h"
#include "source/source.h"

/* Rejected rows printed; all of them are in the table ingest_error. */
#define CLI_PROGRESS_SHOWN_REJECTS 10

typedef struct cli_progress {
    int show;             /* draw the line (a terminal, or --progress) */
    int ingest, solve;    /* which counts the line shows */
    uint64_t input_bytes; /* what the inputs hold, for the fraction; 0: unknown */
    struct timespec start, last;
    int shown;            /* the line is on the screen */
    uint64_t rejects_shown;
} cli_progress;

/* Starts the clock. */
void cli_progress_start(cli_progress *p, int show, int ingest, int solve, uint64_t input_bytes);

/* Seconds since cli_progress_start. */
double cli_progress_seconds(const cli_progress *p);

/* A cr_pipeline_opts.progress callback (ctx: the cli_progress). */
void cli_progress_update(void *ctx, const cr_pipeline_stats *stats);

/* A cr_pipeline_opts.rejected callback: prints the first rejected rows. */
void cli_progress_rejected(void *ctx, const cr_row *row);

/* A bar for a job that counts `done` of `total` ("[#####     ] 50% 120/240,
 * 15/s, ETA 0:00:08" and the tail, say "AC 118, WA 2"), drawn as
 * cli_progress_update draws its line. */
void cli_progress_bar(cli_progress *p, uint64_t done, uint64_t total, const char *tail);

/* A cr_pipeline_opts.wal_held callback: says once that readers keep the
 * WAL growing, or kept it from being emptied at the end. */
void cli_progress_wal_held(void *ctx, const char *db, uint64_t wal_bytes, int ended);

/* Erases the line, before other output. */
void cli_progress_clear(cli_progress *p);

#endif

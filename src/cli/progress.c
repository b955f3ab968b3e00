/* The progress line and the rejected rows shown while a batch job runs. */
#include "cli/progress.h"

#include <stdio.h>

#include "cli/cli.h"
#include "cli/signals.h"

#define REDRAW_SECONDS 0.25

static double seconds_since(const struct timespec *t)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

void cli_progress_start(cli_progress *p, int show, int ingest, int solve, uint64_t input_bytes)
{
    *p = (cli_progress){.show = show, .ingest = ingest, .solve = solve, .input_bytes = input_bytes};
    clock_gettime(CLOCK_MONOTONIC, &p->start);
}

double cli_progress_seconds(const cli_progress *p) { return seconds_since(&p->start); }

void cli_progress_clear(cli_progress *p)
{
    if (p->shown)
        cli_signals_check_write(fputs("\r\033[K", stderr));
    p->shown = 0;
}

/* Whether to draw now: shown, and not drawn in the last REDRAW_SECONDS. */
static int due(cli_progress *p)
{
    if (!p->show || (p->shown && seconds_since(&p->last) < REDRAW_SECONDS))
        return 0;
    clock_gettime(CLOCK_MONOTONIC, &p->last);
    return 1;
}

static int eta(char *out, size_t cap, double t, double fraction)
{
    long left = (long)(t * (1 - fraction) / fraction + 0.5);
    return snprintf(out, cap, ", ETA %ld:%02ld:%02ld", left / 3600, left / 60 % 60, left % 60);
}

void cli_progress_update(void *ctx, const cr_pipeline_stats *s)
{
    cli_progress *p = ctx;
    if (!due(p))
        return;
    double t = seconds_since(&p->start), fraction = -1;
    uint64_t done = p->solve ? s->solved : s->ingested + s->skipped;
    char line[200];
    int len = 0;
    if (p->ingest)
        len += snprintf(line + len, sizeof line - (size_t)len, "ingested %llu, ",
                        (unsigned long long)(s->ingested + s->skipped));
    if (p->solve) {
        len += snprintf(line + len, sizeof line - (size_t)len, "solved %llu", (unsigned long long)s->solved);
        if (s->pending)
            len += snprintf(line + len, sizeof line - (size_t)len, " of %llu",
                            (unsigned long long)(s->solved + s->pending));
        len += snprintf(line + len, sizeof line - (size_t)len, ", ");
    }
    if (s->pending)
        fraction = (double)s->solved / (double)(s->solved + s->pending);
    else if (p->input_bytes)
        fraction = (double)s->bytes / (double)p->input_bytes;
    if (fraction >= 0)
        len += snprintf(line + len, sizeof line - (size_t)len, "%.0f%%, ", 100 * fraction);
    len += snprintf(line + len, sizeof line - (size_t)len, "%.0f/s", t > 0 ? (double)done / t : 0.0);
    if (fraction > 0 && fraction < 1)
        eta(line + len, sizeof line - (size_t)len, t, fraction);
    cli_signals_check_write(fprintf(stderr, "\r%s\033[K", line)); /* the reader gone: a stop */
    p->shown = 1;
}

void cli_progress_bar(cli_progress *p, uint64_t done, uint64_t total, const char *tail)
{
    enum { WIDTH = 20 };
    if (!due(p))
        return;
    double t = seconds_since(&p->start), fraction = total ? (double)done / (double)total : 1;
    char bar[WIDTH + 1];
    for (int k = 0; k < WIDTH; k++)
        bar[k] = k < (int)(fraction * WIDTH) ? '#' : ' ';
    bar[WIDTH] = '\0';
    char line[256];
    int len = snprintf(line, sizeof line, "[%s] %.0f%% %llu/%llu, %.1f/s", bar, 100 * fraction,
                       (unsigned long long)done, (unsigned long long)total, t > 0 ? (double)done / t : 0.0);
    if (fraction > 0 && fraction < 1)
        len += eta(line + len, sizeof line - (size_t)len, t, fraction);
    snprintf(line + len, sizeof line - (size_t)len, "%s%s", tail && *tail ? "  " : "", tail ? tail : "");
    cli_signals_check_write(fprintf(stderr, "\r%s\033[K", line)); /* the reader gone: a stop */
    p->shown = 1;
}

void cli_progress_rejected(void *ctx, const cr_row *row)
{
    cli_progress *p = ctx;
    if (p->rejects_shown++ >= CLI_PROGRESS_SHOWN_REJECTS)
        return;
    cli_progress_clear(p);
    cli_fail("%s line %llu: %s", row->source, (unsigned long long)row->line, row->reason);
}

void cli_progress_wal_held(void *ctx, const char *db, uint64_t wal_bytes, int ended)
{
    cli_progress *p = ctx;
    int mib = wal_bytes >= 1u << 20;
    char size[40];
    snprintf(size, sizeof size, "%llu %s", (unsigned long long)(mib ? wal_bytes >> 20 : (wal_bytes + 1023) >> 10),
             mib ? "MiB" : "KiB");
    cli_progress_clear(p);
    cli_fail("note: readers of %s %s (a read transaction held open?): %s %s %s until they let go", db,
             ended ? "kept its WAL from being emptied when the run ended"
                   : "keep its WAL from starting again from its beginning",
             ended ? "its" : "it is", size, ended ? "stay there" : "and grows");
}

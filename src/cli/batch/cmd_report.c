/* coinrow report: one HTML page of a set, its run, a comparison of two runs
 * and its invocations (report/report.h, docs/report.md). */
#include <stdio.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/signals.h"
#include "report/report.h"
#include "util/util.h"

typedef struct report_args {
    const char *db, *set, *out, *run, *against;
} report_args;

static const cli_option options[] = {
    CLI_TEXT(report_args, db, "db", "PATH", "the database (default coinrow.db)"),
    CLI_TEXT(report_args, set, "set", "NAME", "the instance set (required)"),
    CLI_TEXT(report_args, out, "out", "FILE.html", "the page to write (required; replaced once whole)"),
    CLI_TEXT(report_args, run, "run", "ID", "the run shown (default: the set's latest done run)"),
    CLI_TEXT(report_args, against, "against", "ID",
             "the run it is compared with (default: the latest done run before it)"),
    {0},
};

static int cmd_report(const cli_command *self, int argc, char **argv)
{
    report_args a = {.db = "coinrow.db"};
    int status = cli_parse_options(self, &a, argc, argv);
    if (status >= 0)
        return status;
    cr_report_opts o = {.version = cli_version(), .db_shown = a.db};
    if (!a.set || !a.out)
        return cli_usage_error(self, "--set and --out are required");
    if (a.run && cli_int_parse(&o.run_id, a.run, 1, INT64_MAX))
        return cli_usage_error(self, "--run takes a run id (a positive number), not '%s'", a.run);
    if (a.against && cli_int_parse(&o.against_id, a.against, 1, INT64_MAX))
        return cli_usage_error(self, "--against takes a run id (a positive number), not '%s'", a.against);
    /* the report's parts are independent passes over the database: one
     * connection per core reads them side by side */
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    o.jobs = cpus < 1 ? 1 : cpus > 8 ? 8 : (int)cpus;
    o.stop = cli_signals_catch();

    cr_error err = {0};
    cr_store *store = NULL;
    cr_report_stats stats;
    int rc = cr_store_new(&store, a.db, CR_STORE_READ, &err);
    if (rc == 0)
        rc = cr_store_set_find(&o.set_id, store, a.set, 0, NULL, &err);
    if (rc == 0)
        rc = cr_report_write(&stats, store, a.out, &o, &err);
    cr_store_free(store);
    if (rc)
        return cli_report(&err);
    /* the names as the terminal may show them: a set's name is any text */
    fputs("wrote ", stdout);
    cr_text_put(stdout, a.out);
    fputs(": set '", stdout);
    cr_text_put(stdout, a.set);
    printf("', %llu instances", (unsigned long long)stats.instances);
    if (stats.run_id)
        printf(", run %lld", (long long)stats.run_id);
    if (stats.against_id)
        printf(" against run %lld", (long long)stats.against_id);
    printf(", %zu invocation%s, %.1f KiB\n", stats.invocations, stats.invocations == 1 ? "" : "s",
           (double)stats.bytes / 1024);
    return CR_EXIT_OK;
}

const cli_command cli_cmd_report = {
    "report",
    cmd_report,
    "write one self-contained HTML page of a set: its run, a comparison, its invocations",
    "report --db PATH --set NAME --out FILE.html [--run ID] [--against ID]",
    "The page shows the set (instances, a histogram of n, the range of the coins, the\n"
    "rows rejected at ingest), the run (status, algorithm, lines, version, wall time,\n"
    "instances per second; per variant a histogram of the values, who wins, the\n"
    "errors), the comparison with the other run (instances with the same answers,\n"
    "different ones, missing ones; the first that differ, with both answers) and the\n"
    "invocations (a matrix of tests by invocations, each cell its verdict and CPU\n"
    "time, folded into at most 100 rows for a large set; a summary row per\n"
    "invocation; the time by n; the strength of the built-in strategies).  Charts are\n"
    "SVG drawn from aggregates SQLite computes.  The page is one file: its CSS and SVG\n"
    "are inline, it has no script and loads nothing.  It is written beside FILE.html\n"
    "and renamed over it once whole.  See docs/report.md.\n"
    "Exit status: 0 written, 1 a fatal error (nothing written), 2 usage, 130\n"
    "interrupted (nothing written).",
    options,
};

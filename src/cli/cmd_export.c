/* coinrow export: a set's tests with a done run's answers, as a package a
 * judging system takes (io/export.h).  When no done run has the answers,
 * the set is solved first, in a new run stored like any other. */
#include <stdio.h>
#include <string.h>

#include "cli/job.h"
#include "io/export.h"

/* "coinrow: the diff answers come from run 3 (done; ...)" on stderr. */
static void say_run(const cr_run *run, const cr_export_opts *o)
{
    cli_fail("the %s answers%s come from run %lld (done; algo %s, moves %s, coinrow %s)", cr_variant_name(o->variant),
             o->lines ? " and lines" : "", (long long)run->id, cr_algo_name(run->opts.algo),
             cr_moves_name(run->opts.moves), run->solver_version);
}

/* The run the answers come from: a done one, or a new one solved here.
 * Returns -1 to go on, or the exit status. */
static int answers_run(cr_run *out, const cli_command *self, cr_store *store, const char *db, const char *set,
                       const cr_export_opts *o)
{
    cr_error err = {0};
    int found;
    if (cr_export_find_run(out, &found, store, o, &err))
        return cli_report(&err);
    if (!found) {
        cli_fail("no done run of set '%s' has the %s answers%s for every instance: solving it first", set,
                 cr_variant_name(o->variant), o->lines ? " with canonical lines" : "");
        cli_job_args a = CLI_JOB_ARGS_INIT;
        a.db = db;
        a.set = set;
        a.variant = cr_variant_name(o->variant);
        a.moves = o->lines ? "canonical" : "none";
        a.label = "coinrow export";
        int status = cli_job_run(self, &a, CLI_JOB_SOLVE, 0, NULL);
        if (status != CR_EXIT_OK)
            return status;
        if (cr_export_find_run(out, &found, store, o, &err))
            return cli_report(&err);
        if (!found) {
            cli_fail("the new run of set '%s' did not answer every instance", set);
            return CR_EXIT_FATAL;
        }
    }
    say_run(out, o);
    return -1;
}

int cmd_export(const cli_command *self, int argc, char **argv)
{
    const char *db = "coinrow.db", *set = NULL, *variant = NULL, *format = NULL, *out = NULL, *moves = "none",
               *samples = NULL;
    int zip = 0, force = 0;
    const cli_option opts[] = {
        {"db", "PATH", "the database (default coinrow.db)", &db, NULL},
        {"set", "NAME", "the instance set (required)", &set, NULL},
        {"variant", "V", "total, diff, remaining or winner: the value the answers hold (required)", &variant, NULL},
        {"format", "FMT", "kattis, polygon, cms or plain (required)", &format, NULL},
        {"out", "DIR", "the package's folder, made beside it and renamed into place (required)", &out, NULL},
        {"moves", "POLICY", "none (default): answers hold the value; canonical: and the canonical line", &moves, NULL},
        {"samples", "K", "the first K instances are samples (default 1; not for plain)", &samples, NULL},
        {"zip", NULL, "also write DIR.zip of the folder (DOMjudge imports it)", NULL, &zip},
        {"force", NULL, "replace an existing DIR (and DIR.zip)", NULL, &force},
        {0},
    };
    int status = cli_parse_options(self, opts, argc, argv);
    if (status >= 0)
        return status;
    if (!set || !variant || !format || !out)
        return cli_usage_error(self, "--set, --variant, --format and --out are required");
    cr_error err = {0};
    cr_export_opts o = {.samples = 1, .zip = zip, .force = force};
    if (cr_export_format_parse(&o.format, format, &err) || cr_variant_parse(&o.variant, variant, &err) ||
        (samples && cli_u64_parse(&o.samples, samples, "--samples", &err)))
        return cli_usage_error(self, "%s", err.msg);
    if (strcmp(moves, "canonical") != 0 && strcmp(moves, "none") != 0)
        return cli_usage_error(self, "--moves takes canonical or none, not '%s'", moves);
    o.lines = strcmp(moves, "canonical") == 0;
    if (o.format == CR_EXPORT_PLAIN) {
        if (samples)
            return cli_usage_error(self, "--samples has no meaning for --format plain (it has no samples)");
        o.samples = 0;
    }

    /* read only: a set solved already is exported without a write (a
     * missing run is solved by a job of its own) */
    cr_store *store = NULL;
    int rc = cr_store_new(&store, db, CR_STORE_READ, &err);
    if (rc == 0)
        rc = cr_store_quick_check(store, &err); /* judges get no package of a damaged database */
    if (rc == 0)
        rc = cr_store_set_find(&o.set_id, store, set, 0, NULL, &err);
    if (rc == 0)
        rc = cr_export_check(store, out, &o, &err); /* before any solving */
    if (rc) {
        cr_store_free(store);
        return cli_report(&err);
    }
    cr_run run;
    if ((status = answers_run(&run, self, store, db, set, &o)) >= 0) {
        cr_store_free(store);
        return status;
    }
    cr_export_stats stats;
    rc = cr_export_write(&stats, store, out, run.id, &o, &err);
    cr_store_free(store);
    if (rc)
        return cli_report(&err);
    printf("exported %llu tests (%llu sample%s) of set '%s' to %s%s\n", (unsigned long long)stats.tests,
           (unsigned long long)stats.samples, stats.samples == 1 ? "" : "s", set, out, zip ? ", zipped too" : "");
    return CR_EXIT_OK;
}

/* coinrow export: a set's tests with a done run's answers, as a package a
 * judging system takes (io/export.h).  When no done run has the answers,
 * the set is solved first, in a new run stored like any other
 * (cli_answers_run). */
#include <stdio.h>
#include <string.h>

#include "cli/job.h"
#include "io/export.h"

int cmd_export(const cli_command *self, int argc, char **argv)
{
    const char *db = "coinrow.db", *set = NULL, *variant = NULL, *format = NULL, *out = NULL, *moves = "none",
               *samples = NULL;
    int zip = 0, force = 0, submissions = 0;
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
        {"submissions", NULL, "kattis, polygon: the sources of invocations labelled accepted, wrong_answer, ...",
         NULL, &submissions},
        {0},
    };
    int status = cli_parse_options(self, opts, argc, argv);
    if (status >= 0)
        return status;
    if (!set || !variant || !format || !out)
        return cli_usage_error(self, "--set, --variant, --format and --out are required");
    cr_error err = {0};
    cr_export_opts o = {.samples = 1, .zip = zip, .force = force, .submissions = submissions};
    if (cr_export_format_parse(&o.format, format, &err) || cr_variant_parse(&o.variant, variant, &err) ||
        (samples && cli_u64_parse(&o.samples, samples, "--samples", &err)))
        return cli_usage_error(self, "%s", err.msg);
    if (strcmp(moves, "canonical") != 0 && strcmp(moves, "none") != 0)
        return cli_usage_error(self, "--moves takes canonical or none, not '%s'", moves);
    o.lines = strcmp(moves, "canonical") == 0;
    if (submissions && o.format != CR_EXPORT_KATTIS && o.format != CR_EXPORT_POLYGON)
        return cli_usage_error(self, "--submissions is for --format kattis or polygon");
    if (o.format == CR_EXPORT_PLAIN) {
        if (samples)
            return cli_usage_error(self, "--samples has no meaning for --format plain (it has no samples)");
        o.samples = 0;
    }

    cr_store *store = NULL;
    int rc = cr_store_new(&store, db, CR_STORE_WRITE, &err);
    if (rc == 0)
        rc = cr_store_set_find(&o.set_id, store, set, 0, NULL, &err);
    if (rc == 0)
        rc = cr_export_check(store, out, &o, &err); /* before any solving */
    if (rc) {
        cr_store_free(store);
        return cli_report(&err);
    }
    cr_run run;
    if ((status = cli_answers_run(&run, self, store, db, set, o.set_id, o.variant, o.lines)) >= 0) {
        cr_store_free(store);
        return status;
    }
    cr_export_stats stats;
    rc = cr_export_write(&stats, store, out, run.id, &o, &err);
    cr_store_free(store);
    if (rc)
        return cli_report(&err);
    if (stats.skipped)
        cli_fail("%llu labelled invocation%s not one source file a judge builds (as '%s'): left out",
                 (unsigned long long)stats.skipped, stats.skipped == 1 ? " is" : "s are", stats.skipped_example);
    printf("exported %llu tests (%llu sample%s) of set '%s'", (unsigned long long)stats.tests,
           (unsigned long long)stats.samples, stats.samples == 1 ? "" : "s", set);
    if (submissions)
        printf(" and %llu submission%s", (unsigned long long)stats.submissions, stats.submissions == 1 ? "" : "s");
    printf(" to %s%s\n", out, zip ? ", zipped too" : "");
    return CR_EXIT_OK;
}

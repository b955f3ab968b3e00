/* coinrow export: a set's tests with a done run's answers, as a package a
 * judging system takes (export/export.h).  When no done run has the answers,
 * the set is solved first, in a new run stored like any other
 * (cli_answers_run). */
#include <stdio.h>
#include <string.h>

#include "cli/job.h"
#include "cli/signals.h"
#include "export/export.h"
#include "util/util.h"

typedef struct export_args {
    const char *db, *set, *variant, *format, *out, *moves, *samples, *title, *time_limit, *license, *rights_owner;
    int zip, force, no_build, submissions, interactive;
} export_args;

/* SECONDS (up to three decimals, 0 < SECONDS <= 3600) in milliseconds. */
static int parse_seconds(unsigned *out, const char *text, cr_error *err)
{
    unsigned long whole = 0, ms = 0, scale = 100;
    const char *p = text;
    for (; *p >= '0' && *p <= '9' && whole <= 3600; p++)
        whole = 10 * whole + (unsigned long)(*p - '0');
    if (*p == '.' && p > text)
        for (p++; *p >= '0' && *p <= '9' && scale; p++, scale /= 10)
            ms += scale * (unsigned long)(*p - '0');
    unsigned long total = whole * 1000 + ms;
    if (p == text || *p || total == 0 || total > 3600 * 1000)
        return cr_errorf(err, CR_EINVAL, "--time-limit '%s' is not a number of seconds in (0, 3600] with at most "
                                         "three decimals",
                         text);
    *out = (unsigned)total;
    return 0;
}

/* The formats, for --help, the man page and the completion: the k-th's
 * name and what its package holds. */
static const char *format_at(size_t k, const char **out_line)
{
    const cr_export_format *f = cr_export_format_at(k);
    if (!f)
        return NULL;
    *out_line = cr_export_format_summary(f);
    return cr_export_format_name(f);
}

static const cli_option options[] = {
    CLI_TEXT(export_args, db, "db", "PATH", "the database (default coinrow.db)"),
    CLI_TEXT(export_args, set, "set", "NAME", "the instance set (required)"),
    CLI_TEXT(export_args, variant, "variant", "V",
             "total, diff, remaining or winner: the value the answers hold (required)"),
    CLI_CHOICE(export_args, format, "format", "FMT", "the judging system's format, listed below (required)", format_at),
    CLI_TEXT(export_args, out, "out", "DIR", "the package's folder, made beside it and renamed into place (required)"),
    CLI_TEXT(export_args, moves, "moves", "POLICY",
             "none (default): answers hold the value; canonical: and the canonical line"),
    CLI_TEXT(export_args, samples, "samples", "K", "the first K instances are samples (default 1; for formats with samples)"),
    CLI_TEXT(export_args, title, "title", "TEXT",
             "the problem's name in the statement and metadata, one line of UTF-8 text (default: the set's name)"),
    CLI_TEXT(export_args, time_limit, "time-limit", "SECONDS",
             "the time limit (default: the reference solution's time on the slowest test, times 3, in whole seconds, "
             "at least 1)"),
    CLI_TEXT(export_args, license, "license", "NAME",
             "the package's licence (public domain, cc0, cc by, cc by-sa, educational, permission; default "
             "unknown); all but public domain need --rights-owner"),
    CLI_TEXT(export_args, rights_owner, "rights-owner", "TEXT",
             "who holds the rights to the package (not with public domain)"),
    CLI_FLAG(export_args, no_build, "no-build", "write the checker's source without building it (for formats that build one)"),
    CLI_FLAG(export_args, zip, "zip", "also write DIR.zip of the folder (DOMjudge imports it)"),
    CLI_FLAG(export_args, force, "force", "replace an existing DIR (and DIR.zip)"),
    CLI_FLAG(export_args, submissions, "submissions",
             "the sources of invocations labelled accepted, wrong_answer, ... (for formats with submissions)"),
    CLI_FLAG(export_args, interactive, "interactive",
             "the interactive game: the contestant plays the first player against the jury, an interactor "
             "(for formats with interactive problems)"),
    {0},
};

static int cmd_export(const cli_command *self, int argc, char **argv)
{
    export_args a = {.db = "coinrow.db", .moves = "none"};
    int status = cli_parse_options(self, &a, argc, argv);
    if (status >= 0)
        return status;
    if (!a.set || !a.variant || !a.format || !a.out)
        return cli_usage_error(self, "--set, --variant, --format and --out are required");
    cr_error err = {0};
    cr_export_opts o = {.zip = a.zip, .force = a.force, .title = a.title, .license = a.license,
                        .rights_owner = a.rights_owner, .no_build = a.no_build, .submissions = a.submissions,
                        .interactive = a.interactive, .stop = cli_signals_catch()};
    if (cr_export_format_parse(&o.format, a.format, &err) || cr_variant_parse(&o.variant, a.variant, &err) ||
        (a.samples && cli_u64_parse(&o.samples, a.samples, "--samples", &err)) ||
        (a.time_limit && parse_seconds(&o.time_limit_ms, a.time_limit, &err)))
        return cli_usage_error(self, "%s", err.msg);
    if (!a.samples) /* one sample where the format shows samples */
        o.samples = (uint64_t)cr_export_format_supports(o.format, CR_EXPORT_SAMPLES);
    if (strcmp(a.moves, "canonical") != 0 && strcmp(a.moves, "none") != 0)
        return cli_usage_error(self, "--moves takes canonical or none, not '%s'", a.moves);
    o.lines = strcmp(a.moves, "canonical") == 0;
    if (cr_export_opts_check(&o, &err)) /* before the store is opened: nothing is written */
        return cli_usage_error(self, "%s", err.msg);

    /* read only: a set solved already is exported without a write (a
     * missing run is solved by a job of its own) */
    cr_store *store = NULL;
    int rc = cr_store_new(&store, a.db, CR_STORE_READ, &err);
    if (rc == 0)
        rc = cr_store_quick_check(store, &err); /* judges get no package of a damaged database */
    if (rc == 0)
        rc = cr_store_set_find(&o.set_id, store, a.set, 0, NULL, &err);
    if (rc == 0)
        rc = cr_export_check(store, a.out, &o, &err); /* before any solving */
    if (rc) {
        cr_store_free(store);
        return cli_report(&err);
    }
    cr_run run;
    if ((status = cli_answers_run(&run, self, store, a.db, a.set, o.set_id, o.variant, o.lines)) >= 0) {
        cr_store_free(store);
        return status;
    }
    cr_export_stats stats;
    rc = cr_export_write(&stats, store, a.out, run.id, &o, &err);
    cr_store_free(store);
    if (rc)
        return cli_report(&err);
    if (stats.skipped)
        cli_fail("%llu labelled invocation%s left out of the package; the first: %s", (unsigned long long)stats.skipped,
                 stats.skipped == 1 ? "" : "s", stats.skipped_why);
    if (stats.refused) /* the database named a file outside the folder it says the program ran in */
        cli_fail("%llu source%s not copied: a source is copied only from its invocation's folder; %s%s",
                 (unsigned long long)stats.refused, stats.refused == 1 ? "" : "s", stats.refused == 1 ? "" : "the first: ",
                 stats.refused_why);
    /* the set's name and the folder's, as typed: escaped, as every message escapes them */
    printf("exported %llu test%s (%llu sample%s) of set '", (unsigned long long)stats.tests,
           stats.tests == 1 ? "" : "s", (unsigned long long)stats.samples, stats.samples == 1 ? "" : "s");
    cr_text_put(stdout, a.set);
    putchar('\'');
    if (stats.groups)
        printf(" in %zu group%s", stats.groups, stats.groups == 1 ? "" : "s");
    if (a.submissions)
        printf(" and %llu submission%s", (unsigned long long)stats.submissions, stats.submissions == 1 ? "" : "s");
    printf(" to ");
    cr_text_put(stdout, a.out);
    printf("%s", a.zip ? ", zipped too" : "");
    if (stats.time_limit_ms)
        printf(", time limit %u.%03u s", stats.time_limit_ms / 1000, stats.time_limit_ms % 1000);
    printf("\n");
    if (stats.advice)
        cli_fail("%s", stats.advice);
    return CR_EXIT_OK;
}

const cli_command cli_cmd_export = {
    "export",
    cmd_export,
    "write a set's tests and answers as a package a judging system takes",
    "export [--db PATH] --set NAME --variant V --format FMT --out DIR\n"
    "            [--moves canonical|none] [--samples K] [--title TEXT] [--time-limit SECONDS]\n"
    "            [--license NAME --rights-owner TEXT] [--no-build] [--zip] [--force] [--submissions]\n"
    "            [--interactive]",
    "Inputs in the contest format; answers hold the value (and with --moves canonical\n"
    "the canonical line of play) from the latest done run of the set that has them for\n"
    "every instance, else from a new run solved first; stderr names the run.  DIR's\n"
    "name is the problem's short name, of the characters its format takes.  An option\n"
    "a format has no use for is refused, naming the formats that take it.  The\n"
    "package is written beside DIR and renamed into place.\n"
    "--submissions adds the sources of the set's done invocations of V labelled\n"
    "accepted, wrong_answer, time_limit_exceeded or run_time_error (or, in a set of\n"
    "groups, partially_accepted) whose command is one source file, as invID-NAME\n"
    "beside coinrow's own, where the format keeps submissions.\n"
    "A set of groups (generate --group) exports scored by groups in each format\n"
    "(docs/judges.md, \"Groups\").\n"
    "--interactive exports the game played against the jury: the package's jury\n"
    "(Kattis' interactor, Polygon's testlib interactor, CMS's manager of a\n"
    "Communication task) reads the contestant's moves, L or R, a line each, and\n"
    "answers each; a move that is not optimal is wrong.  Each test's input holds\n"
    "the jury's seed on a third line, which the contestant never sees: 0 (an\n"
    "optimal jury) on the samples and the first secret test, the test's number on\n"
    "the others, where the jury deviates from optimal play (docs/judges.md,\n"
    "\"Interactive problems\").\n"
    "Exit status: 0 written, 1 refused or failed (the message says why), 2 usage,\n"
    "130 interrupted while solving.",
    options,
};

/* coinrow generate: a reproducible instance set, stored in the database or
 * written as CSV.
 *
 * The instances come from one stream (cr_source_gen_read) that goes to one of two
 * sinks: the batch pipeline, which stores them in batched transactions with
 * flat memory (the set keeps the arguments, cr_store_set_generated), or
 * write_row, one CSV line each. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/job.h"
#include "coinrow/gen.h"
#include "source/source.h"
#include "store/store.h"
#include "util/util.h"

/* Set names: letters, digits, '.', '_' and '-', like file names everywhere. */
static int valid_set_name(const char *name)
{
    if (!*name)
        return 0;
    for (const char *p = name; *p; p++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *p))
            return 0;
    return 1;
}

/* A cr_row_fn writing one CSV row "id,v1 v2 ..." to the FILE in ctx (the
 * header is id,values: what ingest reads). */
static int write_row(void *ctx, const cr_row *row)
{
    FILE *out = ctx;
    fprintf(out, "%s,", row->ext_id);
    for (size_t i = 0; i < row->n; i++)
        fprintf(out, i ? " %" PRId64 : "%" PRId64, row->coins[i]);
    fputc('\n', out);
    return ferror(out) ? CR_EIO : 0;
}

static int write_csv(const char *out, const cr_gen_spec *spec)
{
    cr_error err = {0};
    int to_stdout = strcmp(out, "-") == 0;
    FILE *f = to_stdout ? stdout : fopen(out, "w");
    if (!f) {
        cli_fail("cannot create %s", out);
        return CR_EXIT_FATAL;
    }
    fputs("id,values\n", f);
    int rc = cr_source_gen_read(spec, write_row, f, &err);
    int failed = ferror(f);
    failed |= (to_stdout ? fflush(f) : fclose(f)) != 0;
    if ((rc == 0 || rc == CR_EIO) && failed)
        rc = cr_errorf(&err, CR_EIO, "cannot write %s", to_stdout ? "standard output" : out);
    if (rc && !to_stdout)
        remove(out); /* no half-written set is left behind */
    return rc ? cli_report(&err) : CR_EXIT_OK;
}

/* cli_job_args.read: the generated rows. */
static int read_generated(void *spec, cr_row_fn fn, void *fn_ctx, cr_error *err)
{
    return cr_source_gen_read(spec, fn, fn_ctx, err);
}

/* Stores the set: the set and its arguments first (refused when the name is
 * taken by other arguments), then the instances through the pipeline, which
 * skips those already stored, so the same command again changes nothing and
 * completes an interrupted set. */
static int store_set(const cli_command *self, cli_job_args *a, const cr_gen_spec *spec)
{
    cr_error err = {0};
    cr_store *store = NULL;
    int64_t set_id;
    int rc = cr_store_new(&store, a->db, CR_STORE_WRITE, &err);
    if (rc == 0)
        rc = cr_store_set_generated(&set_id, store, a->set, spec, &err);
    cr_store_free(store);
    if (rc)
        return cli_report(&err);
    a->read = read_generated;
    a->read_ctx = (void *)spec;
    /* should it stop short, the same command finishes the set */
    char *again = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&again, &len);
    if (f) {
        cr_store_generator_command(f, a->set, spec);
        fputs(" --db ", f);
        cr_text_put_word(f, a->db);
        if (fclose(f) == 0)
            a->again = again;
    }
    int status = cli_job_run(self, a, CLI_JOB_INGEST, 0, NULL);
    free(again);
    return status;
}

/* A job's arguments first (cli_job_args' option lines hold for it), then
 * generate's own; --db is kept apart, to tell it was given. */
typedef struct generate_args {
    cli_job_args job;
    const char *db, *count, *n, *values, *seed, *profile, *out;
    int even_n, odd_sum;
} generate_args;
_Static_assert(offsetof(generate_args, job) == 0, "the job's option lines hold for generate_args");

static const cli_option options[] = {
    CLI_TEXT(generate_args, db, "db", "PATH",
             "store the set in this database (default coinrow.db; created when missing)"),
    CLI_TEXT(generate_args, job.set, "set", "NAME", "the set's name: letters, digits, '.', '_', '-' (required)"),
    CLI_TEXT(generate_args, count, "count", "K", "how many instances (required)"),
    CLI_TEXT(generate_args, n, "n", "MIN[..MAX]", "the sizes (required)"),
    CLI_TEXT(generate_args, values, "values", "MIN..MAX", "the coins' values, 64-bit (required)"),
    CLI_TEXT(generate_args, seed, "seed", "S", "0 to 18446744073709551615 (required)"),
    CLI_TEXT(generate_args, profile, "profile", "NAME",
             "random (default), sorted, reversed, equal, zigzag, antigreedy, peaks, extreme, small"),
    CLI_FLAG(generate_args, even_n, "even-n", "every instance has an even n"),
    CLI_FLAG(generate_args, odd_sum, "odd-sum", "every instance's coins add up to an odd number"),
    CLI_TEXT(generate_args, out, "out", "FILE|-",
             "write the set as CSV (id,values) to FILE or standard output instead"),
    CLI_JOB_OPT_QUIET,
    CLI_JOB_OPT_PROGRESS,
    {0},
};

static int cmd_generate(const cli_command *self, int argc, char **argv)
{
    generate_args a = {.job = CLI_JOB_ARGS_INIT, .profile = "random"};
    int status = cli_parse_options(self, &a, argc, argv);
    if (status >= 0)
        return status;
    if (!a.job.set || !a.count || !a.n || !a.values || !a.seed)
        return cli_usage_error(self, "--set, --count, --n, --values and --seed are required");
    if (a.db && a.out)
        return cli_usage_error(self, "--db and --out exclude each other: the set goes to a database or to CSV");
    if (!valid_set_name(a.job.set))
        return cli_usage_error(self, "set name '%s' may hold only letters, digits, '.', '_' and '-'", a.job.set);

    cr_error err = {0};
    cr_gen_spec spec;
    if (cli_constraints_parse(&spec.limits, a.n, a.values, a.even_n, a.odd_sum, &err) ||
        cli_u64_parse(&spec.count, a.count, "--count", &err) || cli_u64_parse(&spec.seed, a.seed, "--seed", &err) ||
        cr_profile_parse(&spec.profile, a.profile, &err) || cr_gen_check(&spec, &err))
        return cli_usage_error(self, "%s", err.msg);
    if (a.out)
        return write_csv(a.out, &spec);
    if (a.db)
        a.job.db = a.db;
    return store_set(self, &a.job, &spec);
}

const cli_command cli_cmd_generate = {
    "generate",
    cmd_generate,
    "make a reproducible set of instances for judges or stress tests",
    "generate [--db PATH] --set NAME --count K --n MIN[..MAX] --values MIN..MAX --seed S\n"
    "            [--profile NAME] [--even-n] [--odd-sum] [--out FILE|-] [--quiet | --progress]",
    "The same arguments give the same bytes on every machine; instance k depends\n"
    "only on them and k.  Ids are k + 1 zero-padded to the width of K (01, 02, ...).\n"
    "Profiles: random, sorted, reversed, equal, zigzag, antigreedy (greedy loses,\n"
    "optimal play wins; even n >= 4), peaks, extreme (values at the range limits),\n"
    "small (instance k has the k-th size of MIN..MAX in turn).  See docs/judges.md.\n"
    "The set is stored in the database with its arguments (the column generator of\n"
    "instance_set); the same command again changes nothing, and the name of a set made\n"
    "otherwise is refused.  --out writes CSV instead (id,values), '-' to standard output.\n"
    "Exit status: 0 done, 1 could not write or the set exists with other arguments,\n"
    "2 usage or constraints no instance meets, 130 interrupted (the same command again\n"
    "completes the set).",
    options,
};

/* coinrow generate: a reproducible instance set, stored in the database or
 * written as CSV.
 *
 * The instances come from one stream (cr_source_gen_read) that goes to one of two
 * sinks: the batch pipeline, which stores them in batched transactions with
 * flat memory (the set keeps the arguments, cr_store_set_generated), or
 * write_row, one CSV line each. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/job.h"
#include "coinrow/gen.h"
#include "io/source.h"
#include "io/store.h"
#include "util/errorf.h"

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
    return cli_job_run(self, a, CLI_JOB_INGEST, 0, NULL);
}

int cmd_generate(const cli_command *self, int argc, char **argv)
{
    cli_job_args a = CLI_JOB_ARGS_INIT;
    const char *db = NULL, *count = NULL, *n = NULL, *values = NULL, *seed = NULL, *profile = "random", *out = NULL;
    int even_n = 0, odd_sum = 0;
    const cli_option opts[] = {
        {"db", "PATH", "store the set in this database (default coinrow.db; created when missing)", &db, NULL},
        {"set", "NAME", "the set's name: letters, digits, '.', '_', '-' (required)", &a.set, NULL},
        {"count", "K", "how many instances (required)", &count, NULL},
        {"n", "MIN[..MAX]", "the sizes (required)", &n, NULL},
        {"values", "MIN..MAX", "the coins' values, 64-bit (required)", &values, NULL},
        {"seed", "S", "0 to 18446744073709551615 (required)", &seed, NULL},
        {"profile", "NAME", "random (default), sorted, reversed, equal, zigzag, antigreedy, peaks, extreme, small",
         &profile, NULL},
        {"even-n", NULL, "every instance has an even n", NULL, &even_n},
        {"odd-sum", NULL, "every instance's coins add up to an odd number", NULL, &odd_sum},
        {"out", "FILE|-", "write the set as CSV (id,values) to FILE or standard output instead", &out, NULL},
        CLI_JOB_OPT_QUIET(&a),
        CLI_JOB_OPT_PROGRESS(&a),
        {0},
    };
    int status = cli_parse_options(self, opts, argc, argv);
    if (status >= 0)
        return status;
    if (!a.set || !count || !n || !values || !seed)
        return cli_usage_error(self, "--set, --count, --n, --values and --seed are required");
    if (db && out)
        return cli_usage_error(self, "--db and --out exclude each other: the set goes to a database or to CSV");
    if (!valid_set_name(a.set))
        return cli_usage_error(self, "set name '%s' may hold only letters, digits, '.', '_' and '-'", a.set);

    cr_error err = {0};
    cr_gen_spec spec;
    if (cli_constraints_parse(&spec.limits, n, values, even_n, odd_sum, &err) ||
        cli_u64_parse(&spec.count, count, "--count", &err) || cli_u64_parse(&spec.seed, seed, "--seed", &err) ||
        cr_profile_parse(&spec.profile, profile, &err) || cr_gen_check(&spec, &err))
        return cli_usage_error(self, "%s", err.msg);
    if (out)
        return write_csv(out, &spec);
    if (db)
        a.db = db;
    return store_set(self, &a, &spec);
}

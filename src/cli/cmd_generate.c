/* coinrow generate: a reproducible instance set, written as CSV.
 *
 * The instances come from the core's generator one at a time (cr_gen_instance)
 * and go to one place, write_row; the database store will be the other place
 * they can go. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "coinrow/gen.h"

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

/* One CSV row "id,v1 v2 ...": the header is id,values (what ingest reads). */
static void write_row(FILE *out, const char *id, const int64_t *coins, size_t n)
{
    fprintf(out, "%s,", id);
    for (size_t i = 0; i < n; i++)
        fprintf(out, i ? " %" PRId64 : "%" PRId64, coins[i]);
    fputc('\n', out);
}

static int write_set(FILE *out, const cr_gen_spec *spec, cr_error *err)
{
    int64_t *coins = malloc(spec->limits.n_max * sizeof *coins);
    if (!coins)
        return cr_error_set(err, CR_ENOMEM, "no memory for %zu coins", spec->limits.n_max);
    int rc = 0;
    fputs("id,values\n", out);
    for (uint64_t k = 0; k < spec->count && rc == 0 && !ferror(out); k++) {
        char id[CR_GEN_ID_MAX];
        size_t n;
        if ((rc = cr_gen_instance(coins, &n, spec, k, err)) == 0) {
            cr_gen_id(id, spec->count, k);
            write_row(out, id, coins, n);
        }
    }
    free(coins);
    return rc;
}

int cmd_generate(const cli_command *self, int argc, char **argv)
{
    const char *set = NULL, *count = NULL, *n = NULL, *values = NULL, *seed = NULL, *profile = "random", *out = NULL;
    int even_n = 0, odd_sum = 0;
    const cli_option opts[] = {
        {"set", "NAME", "the set's name: letters, digits, '.', '_', '-' (required)", &set, NULL},
        {"count", "K", "how many instances (required)", &count, NULL},
        {"n", "MIN[..MAX]", "the sizes (required)", &n, NULL},
        {"values", "MIN..MAX", "the coins' values, 64-bit (required)", &values, NULL},
        {"seed", "S", "0 to 18446744073709551615 (required)", &seed, NULL},
        {"profile", "NAME", "random (default), sorted, reversed, equal, zigzag, antigreedy, peaks, extreme, small",
         &profile, NULL},
        {"even-n", NULL, "every instance has an even n", NULL, &even_n},
        {"odd-sum", NULL, "every instance's coins add up to an odd number", NULL, &odd_sum},
        {"out", "FILE|-", "write the set as CSV (id,values) to FILE or standard output (required)", &out, NULL},
        {0},
    };
    int npos, status = cli_parse(&npos, self, opts, argc, argv);
    if (status >= 0)
        return status;
    if (npos > 0)
        return cli_usage_error(self, "unexpected argument '%s'", argv[0]);
    if (!set || !count || !n || !values || !seed)
        return cli_usage_error(self, "--set, --count, --n, --values and --seed are required");
    if (!out)
        return cli_usage_error(self, "--out is required: sets are written as CSV until the database store lands");
    if (!valid_set_name(set))
        return cli_usage_error(self, "set name '%s' may hold only letters, digits, '.', '_' and '-'", set);

    cr_error err = {0};
    cr_gen_spec spec;
    if (cli_constraints_parse(&spec.limits, n, values, even_n, odd_sum, &err) ||
        cli_u64_parse(&spec.count, count, "--count", &err) || cli_u64_parse(&spec.seed, seed, "--seed", &err) ||
        cr_profile_parse(&spec.profile, profile, &err) || cr_gen_check(&spec, &err))
        return cli_usage_error(self, "%s", err.msg);

    int to_stdout = strcmp(out, "-") == 0;
    FILE *f = to_stdout ? stdout : fopen(out, "w");
    if (!f) {
        cli_fail("cannot create %s", out);
        return CR_EXIT_FATAL;
    }
    int rc = write_set(f, &spec, &err);
    int failed = ferror(f);
    failed |= (to_stdout ? fflush(f) : fclose(f)) != 0;
    if (rc == 0 && failed)
        rc = cr_error_set(&err, CR_EIO, "cannot write %s", to_stdout ? "standard output" : out);
    if (rc && !to_stdout)
        remove(out); /* no half-written set is left behind */
    return rc ? cli_report(&err) : CR_EXIT_OK;
}

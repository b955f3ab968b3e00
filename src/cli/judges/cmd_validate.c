/* coinrow validate: the strict check of one input file (judge/judge.c, the
 * code the exported validator runs too). */
#include "cli/cli.h"
#include "judge/judge.h"

typedef struct validate_args {
    const char *n, *values, *variant;
    int even_n, odd_sum, kattis;
} validate_args;

static const cli_option options[] = {
    CLI_TEXT(validate_args, n, "n", "MIN..MAX", "the sizes allowed (required)"),
    CLI_TEXT(validate_args, values, "values", "MIN..MAX", "the coins' values allowed (required)"),
    CLI_FLAG(validate_args, even_n, "even-n", "n must be even"),
    CLI_FLAG(validate_args, odd_sum, "odd-sum", "the coins must add up to an odd number"),
    CLI_TEXT(validate_args, variant, "variant", "LIST",
             "the answers that must fit in int64: variants, a comma list or all (default)"),
    CLI_FLAG(validate_args, kattis, "kattis", "Kattis exit statuses: 42 valid, 43 invalid"),
    {0},
};

static int cmd_validate(const cli_command *self, int argc, char **argv)
{
    validate_args a = {.variant = "all"};
    int npos, status = cli_parse(&npos, self, &a, argc, argv);
    if (status >= 0)
        return status;
    if (npos > 1)
        return cli_usage_error(self, "one FILE at most, got %d", npos);
    if (!a.n || !a.values)
        return cli_usage_error(self, "--n and --values are required");
    cr_error err = {0};
    cr_constraints limits;
    unsigned answered;
    if (cli_constraints_parse(&limits, a.n, a.values, a.even_n, a.odd_sum, &err) ||
        cr_variants_parse(&answered, a.variant, &err))
        return cli_usage_error(self, "%s", err.msg);
    return cr_judge_validate(a.kattis ? CR_KATTIS : CR_TESTLIB, &limits, answered, npos ? argv[0] : NULL);
}

const cli_command cli_cmd_validate = {
    "validate",
    cmd_validate,
    "strict check of a contest input file (testlib or Kattis statuses)",
    "validate --n MIN..MAX --values MIN..MAX [--even-n] [--odd-sum] [--variant LIST] [--kattis] [FILE]",
    "The file (standard input without FILE) must be n on the first line, then the\n"
    "n values separated by single spaces, each line ending in LF, nothing else;\n"
    "numbers plain (no '+', no leading zeros, no -0); and the value of each variant\n"
    "of --variant (default all) must fit in int64, so that an answer can be given.\n"
    "The message names the line, the column and the token.\n"
    "Exit status: 0 valid, 3 invalid (42 / 43 with --kattis), 1 unreadable, 2 usage.",
    options,
};

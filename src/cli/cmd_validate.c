/* coinrow validate: the strict check of one input file (judge/judge.c, the
 * code the exported validator runs too). */
#include "cli/cli.h"
#include "judge/judge.h"

int cmd_validate(const cli_command *self, int argc, char **argv)
{
    const char *n = NULL, *values = NULL, *variants = "all";
    int even_n = 0, odd_sum = 0, kattis = 0;
    const cli_option opts[] = {
        {"n", "MIN..MAX", "the sizes allowed (required)", &n, NULL},
        {"values", "MIN..MAX", "the coins' values allowed (required)", &values, NULL},
        {"even-n", NULL, "n must be even", NULL, &even_n},
        {"odd-sum", NULL, "the coins must add up to an odd number", NULL, &odd_sum},
        {"variant", "LIST", "the answers that must fit in int64: variants, a comma list or all (default)", &variants,
         NULL},
        {"kattis", NULL, "Kattis exit statuses: 42 valid, 43 invalid", NULL, &kattis},
        {0},
    };
    int npos, status = cli_parse(&npos, self, opts, argc, argv);
    if (status >= 0)
        return status;
    if (npos > 1)
        return cli_usage_error(self, "one FILE at most, got %d", npos);
    if (!n || !values)
        return cli_usage_error(self, "--n and --values are required");
    cr_error err = {0};
    cr_constraints limits;
    unsigned answered;
    if (cli_constraints_parse(&limits, n, values, even_n, odd_sum, &err) ||
        cr_variants_parse(&answered, variants, &err))
        return cli_usage_error(self, "%s", err.msg);
    return cr_judge_validate(kattis ? CR_KATTIS : CR_TESTLIB, &limits, answered, npos ? argv[0] : NULL);
}

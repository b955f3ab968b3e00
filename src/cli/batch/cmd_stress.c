/* coinrow stress: random rows through several algorithms at once; the first
 * disagreement is shrunk and printed as a ready-to-run eval command line. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "coinrow.h"
#include "coinrow/stress.h"
#include "util/util.h"

enum { MAX_CONTENDERS = CR_ALGO_COUNT };

/* Parses "linear,dp,naive" into contenders, each with a solver of its own. */
static int parse_algos(cr_contender *out, cr_solver **solvers, size_t *count, const char *list, cr_error *err)
{
    *count = 0;
    char name[32];
    for (const char *p = list;;) {
        size_t len = strcspn(p, ",");
        if (len >= sizeof name)
            return cr_errorf(err, CR_EINVAL, "unknown algorithm '%.*s'", (int)len, p);
        memcpy(name, p, len);
        name[len] = '\0';
        cr_algo algo;
        int rc = cr_algo_parse(&algo, name, err);
        if (rc)
            return rc;
        if (*count == MAX_CONTENDERS)
            return cr_errorf(err, CR_EINVAL, "--algos lists more than %d algorithms", MAX_CONTENDERS);
        if ((rc = cr_solver_new(&solvers[*count], err)) != 0)
            return rc;
        out[*count] = (cr_contender){cr_algo_name(algo), cr_stress_builtin, solvers[*count], algo};
        ++*count;
        if (!p[len])
            return 0;
        p += len + 1;
    }
}

static void print_eval_line(const cr_stress_report *r, const cr_contender *c, cr_moves moves)
{
    printf("  coinrow eval --variant %s --moves %s --algo %s --", cr_variant_name(r->found.variant),
           cr_moves_name(moves), c->name);
    for (size_t i = 0; i < r->n; i++)
        printf(" %" PRId64, r->coins[i]);
    printf("\n");
}

typedef struct stress_args {
    const char *algos, *variant, *moves, *count, *n, *values, *seed;
} stress_args;

static const cli_option options[] = {
    CLI_TEXT(stress_args, algos, "algos", "LIST", "algorithms to cross-check (default linear,dp,naive)"),
    CLI_TEXT(stress_args, variant, "variant", "LIST", "total, diff, remaining, winner, a comma list, or all (default)"),
    CLI_TEXT(stress_args, moves, "moves", "POLICY", "fast (default) or canonical: the lines every algorithm reports"),
    CLI_TEXT(stress_args, count, "count", "K", "how many random rows (required)"),
    CLI_TEXT(stress_args, n, "n", "MIN..MAX", "their sizes (required; naive takes at most 25 coins)"),
    CLI_TEXT(stress_args, values, "values", "MIN..MAX", "their coins' values (required)"),
    CLI_TEXT(stress_args, seed, "seed", "S", "the generator's seed (required)"),
    {0},
};

static int cmd_stress(const cli_command *self, int argc, char **argv)
{
    stress_args arg = {.algos = "linear,dp,naive", .variant = "all", .moves = "fast"};
    int status = cli_parse_options(self, &arg, argc, argv);
    if (status >= 0)
        return status;
    if (!arg.count || !arg.n || !arg.values || !arg.seed)
        return cli_usage_error(self, "--count, --n, --values and --seed are required");

    cr_error err = {0};
    cr_gen_spec spec = {.profile = CR_PROFILE_RANDOM};
    unsigned variants;
    cr_moves moves;
    cr_contender contenders[MAX_CONTENDERS];
    cr_solver *solvers[MAX_CONTENDERS] = {NULL};
    size_t contender_count = 0;
    int rc = cli_constraints_parse(&spec.limits, arg.n, arg.values, 0, 0, &err);
    if (rc == 0 && (rc = cli_u64_parse(&spec.count, arg.count, "--count", &err)) == 0 &&
        (rc = cli_u64_parse(&spec.seed, arg.seed, "--seed", &err)) == 0 &&
        (rc = cr_variants_parse(&variants, arg.variant, &err)) == 0 &&
        (rc = cr_moves_parse(&moves, arg.moves, &err)) == 0 && moves == CR_MOVES_NONE)
        rc = cr_errorf(&err, CR_EINVAL, "--moves none checks no line; use fast or canonical");
    if (rc == 0)
        rc = parse_algos(contenders, solvers, &contender_count, arg.algos, &err);
    for (size_t k = 0; rc == 0 && k < contender_count; k++)
        if (contenders[k].algo == CR_ALGO_NAIVE && spec.limits.n_max > CR_NAIVE_MAX_N)
            rc = cr_errorf(&err, CR_EINVAL, "naive takes at most %d coins: lower --n or drop naive from --algos",
                           CR_NAIVE_MAX_N);
    if (rc) {
        for (size_t k = 0; k < contender_count; k++)
            cr_solver_free(solvers[k]);
        return cli_usage_error(self, "%s", err.msg);
    }

    cr_stress_report report;
    rc = cr_stress_run(&report, contenders, contender_count, &spec, variants, moves, &err);
    if (rc) {
        status = cli_report_trouble(&err);
    } else if (report.found.found) {
        printf("stress: instance %" PRIu64 " of %" PRIu64 " (seed %" PRIu64 ") fails: %s\n", report.index + 1,
               spec.count, spec.seed, report.found.what);
        printf("shrunk from %zu to %zu coins; to see it again:\n", report.original_n, report.n);
        print_eval_line(&report, &contenders[report.found.first], moves);
        if (report.found.second != report.found.first)
            print_eval_line(&report, &contenders[report.found.second], moves);
        status = CR_EXIT_DIFFERENT;
    } else {
        printf("stress: %" PRIu64 " rows (n %s, values %s, seed %" PRIu64 "): %s", report.agreed, arg.n, arg.values,
               spec.seed, contenders[0].name);
        for (size_t k = 1; k < contender_count; k++)
            printf("%s%s", k + 1 == contender_count ? " and " : ", ", contenders[k].name);
        printf(" agree on every value, and every %s line passed the verifier\n", cr_moves_name(moves));
        status = CR_EXIT_SAME;
    }
    cr_stress_report_free(&report);
    for (size_t k = 0; k < contender_count; k++)
        cr_solver_free(solvers[k]);
    return status;
}

const cli_command cli_cmd_stress = {
    "stress",
    cmd_stress,
    "cross-check algorithms on random rows; shrink the first disagreement",
    "stress [--algos linear,dp,naive] [--variant LIST|all] [--moves fast|canonical]\n"
    "              --count K --n MIN..MAX --values MIN..MAX --seed S",
    "Each random row (the generator of 'coinrow generate', profile random) is solved\n"
    "with every listed algorithm: all values, winners and errors must agree, and\n"
    "every line must pass the verifier and replay to its scores.  The first row\n"
    "that fails is shrunk (coins dropped, values moved towards zero, while it still\n"
    "fails) and printed as 'coinrow eval' command lines.\n"
    "Exit status, as diff(1): 0 all agree, 1 a disagreement, 2 trouble (a usage error,\n"
    "or anything that stopped the run).",
    options,
};

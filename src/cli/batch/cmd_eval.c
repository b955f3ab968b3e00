/* coinrow eval: solve one row given on the command line or standard input. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "coinrow.h"
#include "util/util.h"

/* The values of the command line, joined by spaces so that one parser (and
 * one way of counting positions) serves both sources. */
static char *join(int argc, char **argv, size_t *out_len)
{
    size_t len = 0;
    for (int i = 0; i < argc; i++)
        len += strlen(argv[i]) + 1;
    char *text = malloc(len + 1), *p = text;
    if (!text)
        return NULL;
    for (int i = 0; i < argc; i++) {
        size_t k = strlen(argv[i]);
        memcpy(p, argv[i], k);
        p += k;
        *p++ = ' ';
    }
    *p = '\0';
    *out_len = len;
    return text;
}

/* A figure for the table (width 20) or JSON: its value, or what stands for a missing one. */
static const char *figure(char buf[24], const cr_result *r, unsigned bit, int64_t v, const char *missing)
{
    if (r->missing & bit)
        return missing;
    snprintf(buf, 24, "%" PRId64, v);
    return buf;
}

static void print_json(const cr_result *r, size_t n)
{
    char value[24], first[24], second[24];
    printf("{\"variant\":\"%s\",\"n\":%zu,\"value\":%s,\"first_score\":%s,\"second_score\":%s,\"winner\":",
           cr_variant_name(r->variant), n, figure(value, r, CR_FIGURE_VALUE, r->value, "null"),
           figure(first, r, CR_FIGURE_FIRST_SCORE, r->first_score, "null"),
           figure(second, r, CR_FIGURE_SECOND_SCORE, r->second_score, "null"));
    printf(r->missing & CR_FIGURE_WINNER ? "null" : "\"%s\"", cr_winner_name(r->winner));
    printf(",\"moves\":");
    if (r->moves)
        printf("\"%s\"", r->moves);
    else
        printf("null");
    printf(",\"algo\":\"%s\",\"error\":", cr_algo_name(r->algo));
    if (r->error.code)
        printf("\"%s\"", r->error.msg); /* the core's messages need no JSON escaping */
    else
        printf("null");
    printf("}\n");
}

/* The variants that have a value as a table; nothing when none has. */
static void print_table(const cr_result *results, unsigned solved, size_t n)
{
    if (!solved)
        return;
    printf("%-10s %20s %20s %20s  %-6s  %s\n", "variant", "value", "first_score", "second_score", "winner",
           "moves");
    const cr_result *r = NULL;
    for (int v = 0; v < CR_VARIANT_COUNT; v++) {
        if (!(solved & CR_VARIANT_BIT(v)))
            continue;
        r = &results[v];
        char value[24], first[24], second[24];
        printf("%-10s %20s %20s %20s  %-6s  %s\n", cr_variant_name(r->variant),
               figure(value, r, CR_FIGURE_VALUE, r->value, "-"),
               figure(first, r, CR_FIGURE_FIRST_SCORE, r->first_score, "-"),
               figure(second, r, CR_FIGURE_SECOND_SCORE, r->second_score, "-"), cr_winner_name(r->winner),
               r->moves ? r->moves : "-");
    }
    printf("n = %zu, algorithm %s\n", n, cr_algo_name(r->algo));
}

typedef struct eval_args {
    const char *variant, *moves, *algo;
    int json;
} eval_args;

static const cli_option options[] = {
    CLI_TEXT(eval_args, variant, "variant", "LIST", "total, diff, remaining, winner, a comma list, or all (default)"),
    CLI_TEXT(eval_args, moves, "moves", "POLICY", "fast (default), canonical or none"),
    CLI_TEXT(eval_args, algo, "algo", "NAME", "auto (default), linear, dp or naive"),
    CLI_FLAG(eval_args, json, "json", "one JSON object per variant per line"),
    {0},
};

static int cmd_eval(const cli_command *self, int argc, char **argv)
{
    eval_args a = {"all", "fast", "auto", 0};
    int npos, status = cli_parse(&npos, self, &a, argc, argv);
    if (status >= 0)
        return status;

    cr_error err = {0};
    cr_solve_opts solve_opts;
    if (cr_variants_parse(&solve_opts.variants, a.variant, &err) || cr_moves_parse(&solve_opts.moves, a.moves, &err) ||
        cr_algo_parse(&solve_opts.algo, a.algo, &err))
        return cli_usage_error(self, "%s", err.msg);

    char *text = NULL;
    size_t len = 0;
    int rc = npos > 0 ? (text = join(npos, argv, &len)) ? 0 : cr_errorf(&err, CR_ENOMEM, "no memory")
                      : cr_read_all(&text, &len, stdin, "standard input", &err);
    cr_coins coins = {0};
    size_t bom = rc == 0 ? cr_utf8_bom(text, len) : 0; /* a file saved by an editor, piped in */
    if (rc == 0)
        rc = cr_coins_parse(&coins, text + bom, len - bom, &err);
    free(text);
    if (rc) {
        cr_coins_free(&coins);
        return cli_report(&err);
    }

    cr_solver *solver = NULL;
    cr_result results[CR_VARIANT_COUNT];
    rc = cr_solver_new(&solver, &err);
    if (rc == 0)
        cr_solver_limit(solver, cr_physical_memory());
    if (rc == 0)
        rc = cr_solve(results, solver, coins.v, coins.n, &solve_opts, &err);
    if (rc == 0 || rc == CR_EOVERFLOW || rc == CR_ETOOBIG) {
        /* the table has the variants with a value, "-" for the figures that
         * do not fit; JSON every variant asked for, null for them and the
         * error naming them; each missing figure is named after them */
        unsigned solved = 0;
        for (int v = 0; v < CR_VARIANT_COUNT; v++)
            if ((solve_opts.variants & CR_VARIANT_BIT(v)) && !(results[v].missing & CR_FIGURE_VALUE))
                solved |= CR_VARIANT_BIT(v);
        for (int v = 0; a.json && v < CR_VARIANT_COUNT; v++)
            if (solve_opts.variants & CR_VARIANT_BIT(v))
                print_json(&results[v], coins.n);
        if (!a.json)
            print_table(results, solved, coins.n);
        for (int v = 0; v < CR_VARIANT_COUNT; v++)
            if ((solve_opts.variants & CR_VARIANT_BIT(v)) && results[v].error.code)
                cli_fail("%s", results[v].error.msg);
    } else {
        cli_report(&err);
    }
    cr_solver_free(solver);
    cr_coins_free(&coins);
    return rc ? CR_EXIT_FATAL : CR_EXIT_OK;
}

const cli_command cli_cmd_eval = {
    "eval",
    cmd_eval,
    "solve one row of coins given on the command line or standard input",
    "eval [--variant total|diff|remaining|winner|all] [--moves fast|canonical|none]\n"
    "            [--algo auto|linear|dp|naive] [--json] [--] [VALUES...]",
    "Values are integers separated by white space, commas or semicolons; with none\n"
    "on the command line they are read from standard input.  Put '--' before values\n"
    "that start with '-':  coinrow eval --json -- -3 5 -1\n"
    "Exit status: 0 solved, 1 bad input or overflow, 2 usage.",
    options,
};

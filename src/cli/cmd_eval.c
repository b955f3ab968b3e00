/* coinrow eval: solve one row given on the command line or standard input. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "coinrow.h"
#include "io/coins_text.h"
#include "util/errorf.h"
#include "util/memory.h"
#include "util/read_all.h"

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

static void print_json(const cr_result *r, size_t n)
{
    printf("{\"variant\":\"%s\",\"n\":%zu,\"value\":%" PRId64 ",\"first_score\":%" PRId64
           ",\"second_score\":%" PRId64 ",\"winner\":\"%s\",\"moves\":",
           cr_variant_name(r->variant), n, r->value, r->first_score, r->second_score, cr_winner_name(r->winner));
    if (r->moves)
        printf("\"%s\"", r->moves);
    else
        printf("null");
    printf(",\"algo\":\"%s\"}\n", cr_algo_name(r->algo));
}

/* The solved variants as a table; nothing when none was solved. */
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
        printf("%-10s %20" PRId64 " %20" PRId64 " %20" PRId64 "  %-6s  %s\n", cr_variant_name(r->variant), r->value,
               r->first_score, r->second_score, cr_winner_name(r->winner), r->moves ? r->moves : "-");
    }
    printf("n = %zu, algorithm %s\n", n, cr_algo_name(r->algo));
}

int cmd_eval(const cli_command *self, int argc, char **argv)
{
    const char *variant_arg = "all", *moves_arg = "fast", *algo_arg = "auto";
    int json = 0;
    const cli_option opts[] = {
        {"variant", "LIST", "total, diff, remaining, winner, a comma list, or all (default)", &variant_arg, NULL},
        {"moves", "POLICY", "fast (default), canonical or none", &moves_arg, NULL},
        {"algo", "NAME", "auto (default), linear, dp or naive", &algo_arg, NULL},
        {"json", NULL, "one JSON object per variant per line", NULL, &json},
        {0},
    };
    int npos, status = cli_parse(&npos, self, opts, argc, argv);
    if (status >= 0)
        return status;

    cr_error err = {0};
    cr_solve_opts solve_opts;
    if (cr_variants_parse(&solve_opts.variants, variant_arg, &err) ||
        cr_moves_parse(&solve_opts.moves, moves_arg, &err) || cr_algo_parse(&solve_opts.algo, algo_arg, &err))
        return cli_usage_error(self, "%s", err.msg);

    char *text = NULL;
    size_t len = 0;
    int rc = npos > 0 ? (text = join(npos, argv, &len)) ? 0 : cr_errorf(&err, CR_ENOMEM, "no memory")
                      : cr_read_all(&text, &len, stdin, "standard input", &err);
    cr_coins coins = {0};
    if (rc == 0)
        rc = cr_coins_parse(&coins, text, len, &err);
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
        /* what could be solved is printed, each failure reported after it */
        unsigned solved = 0;
        for (int v = 0; v < CR_VARIANT_COUNT; v++)
            if ((solve_opts.variants & CR_VARIANT_BIT(v)) && results[v].error.code == 0)
                solved |= CR_VARIANT_BIT(v);
        for (int v = 0; json && v < CR_VARIANT_COUNT; v++)
            if (solved & CR_VARIANT_BIT(v))
                print_json(&results[v], coins.n);
        if (!json)
            print_table(results, solved, coins.n);
        for (int v = 0; v < CR_VARIANT_COUNT; v++)
            if ((solve_opts.variants & ~solved) & CR_VARIANT_BIT(v))
                cli_fail("%s", results[v].error.msg);
    } else {
        cli_report(&err);
    }
    cr_solver_free(solver);
    cr_coins_free(&coins);
    return rc ? CR_EXIT_FATAL : CR_EXIT_OK;
}

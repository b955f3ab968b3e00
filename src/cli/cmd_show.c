/* coinrow show: the first results of a run, as result_view has them. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "io/store.h"

static int parse_positive(long long *out, const char *text)
{
    char *end;
    long long v = strtoll(text, &end, 10);
    if (end == text || *end || v < 1)
        return -1;
    *out = v;
    return 0;
}

int cmd_show(const cli_command *self, int argc, char **argv)
{
    const char *db = "coinrow.db", *run_arg = NULL, *limit_arg = "20";
    const cli_option opts[] = {
        {"db", "PATH", "the database (default coinrow.db)", &db, NULL},
        {"run", "ID", "the run (default: the latest)", &run_arg, NULL},
        {"limit", "N", "rows to print (default 20)", &limit_arg, NULL},
        {0},
    };
    int status = cli_parse_options(self, opts, argc, argv);
    if (status >= 0)
        return status;
    long long run_id = 0, limit;
    if (run_arg && parse_positive(&run_id, run_arg))
        return cli_usage_error(self, "--run takes a run id, not '%s'", run_arg);
    if (parse_positive(&limit, limit_arg))
        return cli_usage_error(self, "--limit takes a positive number, not '%s'", limit_arg);

    cr_error err = {0};
    cr_store *store = NULL;
    cr_store_results *it = NULL;
    cr_run run;
    char set_name[128];
    int rc = cr_store_new(&store, db, CR_STORE_READ, &err);
    if (rc == 0)
        rc = cr_store_run_find(&run, store, run_id, CR_PICK_ANY, &err);
    if (rc == 0)
        rc = cr_store_set_name(set_name, sizeof set_name, store, run.set_id, &err);
    if (rc == 0)
        rc = cr_store_results_new(&it, store, run.id, &err);
    if (rc == 0) {
        printf("run %lld of set '%s' (%s): algo %s, moves %s, coinrow %s\n", (long long)run.id, set_name,
               cr_run_status_name(run.status), cr_algo_name(run.opts.algo), cr_moves_name(run.opts.moves),
               run.solver_version);
        printf("%-20s %6s  %-9s %20s %20s %20s  %-6s  %s\n", "ext_id", "n", "variant", "value", "first_score",
               "second_score", "winner", "moves");
    }
    const cr_stored_result *r;
    long long shown = 0;
    while (rc == 0 && (rc = cr_store_results_next(&r, it, &err)) == 1) {
        rc = 0;
        if (shown++ == limit) {
            printf("... more: sqlite3 %s \"SELECT * FROM result_view WHERE run_id = %lld\"\n", db, (long long)run.id);
            break;
        }
        if (r->error) {
            printf("%-20.20s %6zu  %-9s error: %s\n", r->ext_id, r->n, cr_variant_name(r->variant), r->error);
        } else {
            size_t moves_len = r->moves ? strlen(r->moves) : 0;
            printf("%-20.20s %6zu  %-9s %20" PRId64 " %20" PRId64 " %20" PRId64 "  %-6s  %.24s%s\n", r->ext_id, r->n,
                   cr_variant_name(r->variant), r->value, r->first_score, r->second_score, cr_winner_name(r->winner),
                   r->moves ? r->moves : "-", moves_len > 24 ? "..." : "");
        }
    }
    cr_store_results_free(it);
    cr_store_free(store);
    return rc < 0 ? cli_report(&err) : CR_EXIT_OK;
}

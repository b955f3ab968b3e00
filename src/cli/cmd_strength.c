/* coinrow strength: every built-in strategy judged on a set's tests, in
 * coinrow (io/invoke.h); what a setter reads before a contest. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/job.h"
#include "cli/signals.h"
#include "io/invoke.h"

/* The first weak tests, to list after the table. */
typedef struct weak_list {
    int64_t limit, kept;
    char **ids;
    int failed; /* out of memory: fewer are listed */
} weak_list;

static void keep_weak(void *ctx, const char *ext_id)
{
    weak_list *w = ctx;
    if (w->kept < w->limit && !w->failed) {
        char *id = strdup(ext_id);
        w->failed = !id;
        if (id)
            w->ids[w->kept++] = id;
    }
}

static void print_table(const cr_strength *s, const weak_list *weak)
{
    printf("%-12s %-16s %s\n", "strategy", "broken by", "first test that breaks it");
    for (int k = 0; k < CR_STRATEGY_COUNT; k++) {
        const cr_strength_of *of = &s->of[k];
        char count[48];
        snprintf(count, sizeof count, "%llu of %llu", (unsigned long long)of->broken, (unsigned long long)s->tests);
        printf("%-12s %-16s ", cr_strategy_name((cr_strategy)k), count);
        if (of->broken)
            printf("%s (%s: %s)\n", of->first, cr_invoke_verdict_name(of->first_verdict), of->first_message);
        else
            printf("none: it survives every test\n");
    }
    printf("\nweak tests (they break no strategy): %llu of %llu", (unsigned long long)s->weak,
           (unsigned long long)s->tests);
    for (int64_t k = 0; k < weak->kept; k++)
        printf("%s%s", k ? ", " : ": ", weak->ids[k]);
    printf("%s\n", (uint64_t)weak->kept < s->weak ? ", ..." : "");
}

int cmd_strength(const cli_command *self, int argc, char **argv)
{
    const char *db = "coinrow.db", *set = NULL, *variant = NULL, *moves = "required", *limit = "20";
    const cli_option opts[] = {
        {"set", "NAME", "the instance set (required)", &set, NULL},
        {"variant", "V", "total, diff, remaining or winner: what the answers hold (required)", &variant, NULL},
        {"db", "PATH", "the database (default coinrow.db)", &db, NULL},
        {"moves", "POLICY", "required (default): an answer carries the line, checked move by move; ignored",
         &moves, NULL},
        {"limit", "N", "list at most N weak tests (default 20)", &limit, NULL},
        {0},
    };
    int status = cli_parse_options(self, opts, argc, argv);
    if (status >= 0)
        return status;
    cr_error err = {0};
    cr_variant v;
    cr_check_moves m;
    weak_list weak = {0};
    if (!set || !variant)
        return cli_usage_error(self, "--set and --variant are required");
    if (cr_variant_parse(&v, variant, &err) || cr_check_moves_parse(&m, moves, &err))
        return cli_usage_error(self, "%s", err.msg);
    if (cli_int_parse(&weak.limit, limit, 0, 100000))
        return cli_usage_error(self, "--limit takes a number from 0 to 100000, not '%s'", limit);
    if (!(weak.ids = calloc((size_t)weak.limit + 1, sizeof *weak.ids)))
        return cli_usage_error(self, "no memory for --limit %s", limit);

    cr_store *store = NULL;
    int64_t set_id = 0;
    char set_name[256];
    cr_run run;
    cr_strength s;
    int rc = cr_store_new(&store, db, CR_STORE_WRITE, &err);
    if (rc == 0)
        rc = cr_store_set_find(&set_id, store, set, 0, NULL, &err);
    if (rc == 0)
        rc = cr_store_set_name(set_name, sizeof set_name, store, set_id, &err);
    if (rc == 0 && (status = cli_answers_run(&run, self, store, db, set_name, set_id, v, 0)) >= 0) {
        cr_store_free(store);
        free(weak.ids);
        return status == CR_EXIT_INTERRUPTED ? status : CR_EXIT_TROUBLE;
    }
    if (rc == 0)
        rc = cr_store_run_refuse_unanswered(store, run.id, v, set_name, "judged", &err);
    if (rc == 0)
        rc = cr_strength_run(&s, store, set_id, run.id, v, m, cli_signals_catch(), keep_weak, &weak, &err);
    cr_store_free(store);
    int survivors = 0;
    if (rc == 0) {
        print_table(&s, &weak);
        for (int k = 0; k < CR_STRATEGY_COUNT; k++)
            survivors += s.of[k].broken == 0;
        printf("%s\n", survivors ? "WEAK: some strategy survives every test" : "every strategy is broken by some test");
    }
    for (int64_t k = 0; k < weak.kept; k++)
        free(weak.ids[k]);
    free(weak.ids);
    if (rc) {
        cli_report(&err);
        return rc == CR_EINTERRUPTED ? CR_EXIT_INTERRUPTED : CR_EXIT_TROUBLE;
    }
    return survivors ? CR_EXIT_FATAL : CR_EXIT_OK;
}

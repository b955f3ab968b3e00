/* coinrow strength: every built-in strategy judged on a set's tests, in
 * coinrow (invoke/invoke.h); what a setter reads before a contest. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/job.h"
#include "cli/signals.h"
#include "invoke/invoke.h"
#include "util/util.h"

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
        if (of->broken) { /* the ids and messages are the database's: escaped */
            cr_text_put(stdout, of->first);
            printf(" (%s: ", cr_invoke_verdict_name(of->first_verdict));
            cr_text_put(stdout, of->first_message);
            printf(")\n");
        } else
            printf("none: it survives every test\n");
    }
    printf("\nweak tests (they break no strategy): %llu of %llu", (unsigned long long)s->weak,
           (unsigned long long)s->tests);
    for (int64_t k = 0; k < weak->kept; k++) {
        printf("%s", k ? ", " : ": ");
        cr_text_put(stdout, weak->ids[k]);
    }
    printf("%s\n", (uint64_t)weak->kept < s->weak ? ", ..." : "");
}

typedef struct strength_args {
    const char *db, *set, *variant, *moves, *limit;
} strength_args;

static const cli_option options[] = {
    CLI_TEXT(strength_args, set, "set", "NAME", "the instance set (required)"),
    CLI_TEXT(strength_args, variant, "variant", "V", "total, diff, remaining or winner: what the answers hold (required)"),
    CLI_TEXT(strength_args, db, "db", "PATH", "the database (default coinrow.db)"),
    CLI_TEXT(strength_args, moves, "moves", "POLICY",
             "required (default): an answer carries the line, checked move by move; ignored"),
    CLI_TEXT(strength_args, limit, "limit", "N", "list at most N weak tests (default 20)"),
    {0},
};

static int cmd_strength(const cli_command *self, int argc, char **argv)
{
    strength_args a = {.db = "coinrow.db", .moves = "required", .limit = "20"};
    int status = cli_parse_options(self, &a, argc, argv);
    if (status >= 0)
        return status;
    const char *db = a.db, *set = a.set, *variant = a.variant, *moves = a.moves, *limit = a.limit;
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
    int rc = cr_store_new(&store, db, CR_STORE_WRITE_EXISTING, &err);
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
    if (rc)
        return rc == CR_EINTERRUPTED ? cli_report(&err) : cli_report_trouble(&err);
    return survivors ? CR_EXIT_DIFFERENT : CR_EXIT_SAME;
}

const cli_command cli_cmd_strength = {
    "strength",
    cmd_strength,
    "how many tests break each built-in strategy, and which tests break none",
    "strength --set NAME --variant V [--db PATH] [--moves required|ignored] [--limit N]",
    "Judges every built-in strategy (greedy, left, parity, lookahead2; see 'coinrow\n"
    "invoke --builtin') on every instance of the set, in coinrow, against the answers\n"
    "of a done run of the variant (else one solved first), and prints for each\n"
    "strategy how many tests break it and the first that does, then the weak tests:\n"
    "those that break no strategy.  Nothing is stored.\n"
    "Exit status: 0 every strategy is broken by some test, 1 some strategy survives\n"
    "every test, 2 usage or trouble, 130 interrupted.",
    options,
};

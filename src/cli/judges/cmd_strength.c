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

static void keep_weak(weak_list *w, const char *ext_id)
{
    if (w->kept < w->limit && !w->failed) {
        char *id = strdup(ext_id);
        w->failed = !id;
        if (id)
            w->ids[w->kept++] = id;
    }
}

/* A group of the set, and what its tests did to the strategies. */
typedef struct group_row {
    char name[CR_STORE_GROUP_NAME_MAX + 1];
    int64_t points;
    uint64_t tests, broken[CR_STRATEGY_COUNT]; /* its tests judged; those that break each strategy */
} group_row;

/* A test of a group: its instance, its group's rank (1, 2, ...). */
typedef struct member {
    int64_t instance_id, rank;
} member;

/* What strength gathers test by test: the weak tests and, on a set with
 * groups, each group's tally. */
typedef struct tally {
    weak_list weak;
    group_row *groups;
    size_t ngroups, groups_cap;
    member *members; /* in instance id order, as the tests are judged */
    size_t nmembers, members_cap, next;
} tally;

static int add_group(void *ctx, const cr_store_group *g)
{
    tally *t = ctx;
    if (cr_grow((void **)&t->groups, &t->groups_cap, t->ngroups + 1, sizeof *t->groups, 8))
        return CR_ENOMEM;
    group_row *row = &t->groups[t->ngroups++];
    memset(row, 0, sizeof *row);
    snprintf(row->name, sizeof row->name, "%s", g->name);
    row->points = g->points;
    return 0;
}

static int add_member(void *ctx, int64_t instance_id, int64_t rank)
{
    tally *t = ctx;
    if (cr_grow((void **)&t->members, &t->members_cap, t->nmembers + 1, sizeof *t->members, 64))
        return CR_ENOMEM;
    t->members[t->nmembers++] = (member){instance_id, rank};
    return 0;
}

/* Reads the set's groups and their tests into t. */
static int read_groups(tally *t, cr_store *store, int64_t set_id, cr_error *err)
{
    size_t count = 0;
    int rc = cr_store_groups_each(&count, store, set_id, add_group, t, err);
    if (rc == 0 && count)
        rc = cr_store_group_tests_each(store, set_id, add_member, t, err);
    if (rc == CR_ENOMEM && !err->msg[0])
        rc = cr_errorf(err, CR_ENOMEM, "no memory for the groups");
    return rc;
}

static void on_test(void *ctx, int64_t instance_id, const char *ext_id, unsigned broken)
{
    tally *t = ctx;
    if (!broken)
        keep_weak(&t->weak, ext_id);
    /* the tests come in instance id order, as the members are */
    while (t->next < t->nmembers && t->members[t->next].instance_id < instance_id)
        t->next++;
    if (t->next == t->nmembers || t->members[t->next].instance_id != instance_id)
        return; /* in no group */
    int64_t rank = t->members[t->next].rank;
    if (rank < 1 || (uint64_t)rank > t->ngroups)
        return; /* a group made since the groups were read */
    group_row *g = &t->groups[rank - 1];
    g->tests++;
    for (int k = 0; k < CR_STRATEGY_COUNT; k++)
        g->broken[k] += broken >> k & 1;
}

/* The groups' table: which strategies pass each group (break on none of
 * its tests); a group every strategy passes is weak, unless it is worth no
 * points.  Returns how many are. */
static size_t print_groups(const tally *t)
{
    size_t weak = 0;
    int width = 12; /* the longest name's: names are letters, digits and '_', a byte a column */
    char name[CR_TEXT_SHOWN_CAP(CR_STORE_GROUP_NAME_MAX + 1)];
    for (size_t k = 0; k < t->ngroups; k++) {
        int len = (int)strlen(cr_text_shown(name, sizeof name, t->groups[k].name));
        width = len > width ? len : width;
    }
    printf("\n%-*s %10s %6s  %s\n", width, "group", "points", "tests", "passed by (no test of it breaks them)");
    for (size_t k = 0; k < t->ngroups; k++) {
        const group_row *g = &t->groups[k];
        printf("%-*s %10lld %6llu  ", width, cr_text_shown(name, sizeof name, g->name), (long long)g->points,
               (unsigned long long)g->tests);
        int passing = 0;
        for (int s = 0; s < CR_STRATEGY_COUNT; s++)
            if (!g->broken[s])
                printf("%s%s", passing++ ? ", " : "", cr_strategy_name((cr_strategy)s));
        /* a group worth no points (the samples, say) costs nothing when it is easy */
        int easy = passing == CR_STRATEGY_COUNT;
        weak += easy && g->points > 0;
        printf("%s\n", !passing                ? "none"
                       : easy && g->points > 0 ? ": WEAK, every strategy passes it"
                       : easy                  ? ": every strategy passes it, worth no points"
                                               : "");
    }
    return weak;
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
    tally t = {0};
    weak_list *weak = &t.weak;
    if (!set || !variant)
        return cli_usage_error(self, "--set and --variant are required");
    if (cr_variant_parse(&v, variant, &err) || cr_check_moves_parse(&m, moves, &err))
        return cli_usage_error(self, "%s", err.msg);
    if (cli_int_parse(&weak->limit, limit, 0, 100000))
        return cli_usage_error(self, "--limit takes a number from 0 to 100000, not '%s'", limit);
    if (!(weak->ids = calloc((size_t)weak->limit + 1, sizeof *weak->ids)))
        return cli_usage_error(self, "no memory for --limit %s", limit);

    cr_store *store = NULL;
    int64_t set_id = 0;
    char set_name[256];
    cr_run run;
    cr_strength s;
    int rc = cr_store_new(&store, db, CR_STORE_READ, &err);
    if (rc == 0)
        rc = cr_store_set_find(&set_id, store, set, 0, NULL, &err);
    if (rc == 0)
        rc = cr_store_set_name(set_name, sizeof set_name, store, set_id, &err);
    if (rc == 0 && (status = cli_answers_run(&run, self, store, db, set_name, set_id, v, 0)) >= 0) {
        cr_store_free(store);
        free(weak->ids);
        return status == CR_EXIT_INTERRUPTED ? status : CR_EXIT_TROUBLE;
    }
    if (rc == 0)
        rc = cr_store_run_refuse_unanswered(store, run.id, v, set_name, "judged", &err);
    if (rc == 0)
        rc = read_groups(&t, store, set_id, &err);
    if (rc == 0)
        rc = cr_strength_run(&s, store, set_id, run.id, v, m, cli_signals_catch(), on_test, &t, &err);
    cr_store_free(store);
    int survivors = 0;
    size_t weak_groups = 0;
    if (rc == 0) {
        print_table(&s, weak);
        if (t.ngroups)
            weak_groups = print_groups(&t);
        for (int k = 0; k < CR_STRATEGY_COUNT; k++)
            survivors += s.of[k].broken == 0;
        if (weak_groups)
            printf("WEAK: %zu group%s that every strategy passes\n", weak_groups, weak_groups == 1 ? "" : "s");
        printf("%s\n", survivors ? "WEAK: some strategy survives every test" : "every strategy is broken by some test");
    }
    for (int64_t k = 0; k < weak->kept; k++)
        free(weak->ids[k]);
    free(weak->ids);
    free(t.groups);
    free(t.members);
    if (rc)
        return rc == CR_EINTERRUPTED ? cli_report(&err) : cli_report_trouble(&err);
    return survivors || weak_groups ? CR_EXIT_DIFFERENT : CR_EXIT_SAME;
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
    "those that break no strategy.  On a set with groups, then, each group with\n"
    "the strategies that pass it (no test of it breaks them); a group that every\n"
    "strategy passes is weak.  The verdicts are not stored (the run solved first,\n"
    "when there is none, is, as any run).\n"
    "Exit status: 0 every strategy is broken by some test (and every group breaks\n"
    "some strategy), 1 some strategy survives every test or a group is weak, 2 usage\n"
    "or trouble, 130 interrupted.",
    options,
};

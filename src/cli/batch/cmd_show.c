/* coinrow show: the first results of a run, as result_view has them, and
 * the groups of its set (or of the set --set names). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/job.h"
#include "store/store.h"
#include "util/util.h"

typedef struct show_args {
    const char *db, *run, *limit, *set;
} show_args;

static const cli_option options[] = {
    CLI_TEXT(show_args, db, "db", "PATH", "the database (default coinrow.db)"),
    CLI_TEXT(show_args, run, "run", "ID", "the run (default: the latest)"),
    CLI_TEXT(show_args, limit, "limit", "N", "rows to print (default 20)"),
    CLI_TEXT(show_args, set, "set", "NAME", "show this set's groups instead of a run"),
    {0},
};

/* The table of a set's groups: its name and depends columns as wide as
 * their longest entry (a name may have CR_STORE_GROUP_NAME_MAX letters). */
typedef struct group_table {
    int name_width, depends_width;
} group_table;

/* A group's depends column: its comma list, or "-", escaped. */
static const char *depends_shown(char *out, size_t cap, const cr_store_group *g)
{
    char cut[256];
    snprintf(cut, sizeof cut, "%s", *g->depends ? g->depends : "-");
    return cr_text_shown(out, cap, cut);
}

/* A cr_store_group_fn: widens the columns to fit group g. */
static int group_widths(void *ctx, const cr_store_group *g)
{
    group_table *t = ctx;
    char name[CR_TEXT_SHOWN_CAP(CR_STORE_GROUP_NAME_MAX + 1)], depends[CR_TEXT_SHOWN_CAP(256)];
    int name_len = (int)strlen(cr_text_shown(name, sizeof name, g->name)),
        depends_len = (int)strlen(depends_shown(depends, sizeof depends, g));
    t->name_width = name_len > t->name_width ? name_len : t->name_width;
    t->depends_width = depends_len > t->depends_width ? depends_len : t->depends_width;
    return 0;
}

/* A cr_store_group_fn: one line of the table of a set's groups. */
static int group_line(void *ctx, const cr_store_group *g)
{
    const group_table *t = ctx;
    char name[CR_TEXT_SHOWN_CAP(CR_STORE_GROUP_NAME_MAX + 1)], n[48], values[48], properties[32],
        depends[CR_TEXT_SHOWN_CAP(256)];
    const cr_constraints *l = &g->limits;
    snprintf(n, sizeof n, "%zu..%zu", l->n_min, l->n_max);
    snprintf(values, sizeof values, "%" PRId64 "..%" PRId64, l->value_min, l->value_max);
    snprintf(properties, sizeof properties, "%s%s%s%s%s", g->all_equal ? "all-equal" : "",
             g->all_equal && l->even_n ? "," : "", l->even_n ? "even-n" : "",
             (g->all_equal || l->even_n) && l->odd_sum ? "," : "", l->odd_sum ? "odd-sum" : "");
    printf("%-*s %10" PRId64 "  %-16s %-24s %-16s %-*s %6" PRId64 "\n", t->name_width,
           cr_text_shown(name, sizeof name, g->name), g->points, n, values, *properties ? properties : "-",
           t->depends_width, depends_shown(depends, sizeof depends, g), g->tests);
    return 0;
}

/* The groups of set set_id (shown_set: its name, escaped) as a table, or
 * that it has none when `always`.  Group names are letters, digits and
 * '_': a byte is a column. */
static int show_groups(cr_store *store, int64_t set_id, const char *shown_set, int always, cr_error *err)
{
    group_table t = {12, 16};
    size_t count = 0;
    int rc = cr_store_groups_each(&count, store, set_id, group_widths, &t, err);
    if (rc == 0 && count > 0) {
        printf("%-*s %10s  %-16s %-24s %-16s %-*s %6s\n", t.name_width, "group", "points", "n", "values",
               "properties", t.depends_width, "depends", "tests");
        rc = cr_store_groups_each(&count, store, set_id, group_line, &t, err);
    }
    if (rc == 0 && count == 0 && always)
        printf("set '%s' has no groups\n", shown_set);
    return rc;
}

/* show --set: the set's groups. */
static int show_set(const char *db, const char *set)
{
    cr_error err = {0};
    cr_store *store = NULL;
    int64_t set_id;
    int rc = cr_store_new(&store, db, CR_STORE_READ, &err);
    if (rc == 0)
        rc = cr_store_set_find(&set_id, store, set, 0, NULL, &err);
    if (rc == 0) {
        char shown_set[CR_TEXT_SHOWN_CAP(256)], cut[256];
        snprintf(cut, sizeof cut, "%s", set);
        rc = show_groups(store, set_id, cr_text_shown(shown_set, sizeof shown_set, cut), 1, &err);
    }
    cr_store_free(store);
    return rc ? cli_report(&err) : CR_EXIT_OK;
}

static int cmd_show(const cli_command *self, int argc, char **argv)
{
    show_args a = {"coinrow.db", NULL, "20", NULL};
    int status = cli_parse_options(self, &a, argc, argv);
    if (status >= 0)
        return status;
    if (a.set && a.run)
        return cli_usage_error(self, "--set shows a set's groups, --run a run's results: give one of them");
    if (a.set)
        return show_set(a.db, a.set);
    int64_t run_id = 0, limit;
    if (a.run && cli_int_parse(&run_id, a.run, 1, INT64_MAX))
        return cli_usage_error(self, "--run takes a run id, not '%s'", a.run);
    if (cli_int_parse(&limit, a.limit, 1, INT64_MAX))
        return cli_usage_error(self, "--limit takes a positive number, not '%s'", a.limit);

    cr_error err = {0};
    cr_store *store = NULL;
    cr_store_results *it = NULL;
    cr_run run;
    cr_gen_spec spec;
    char set_name[256];
    int generated = 0, unfinished = 0;
    cr_unfinished_ingest ingest;
    int rc = cr_store_new(&store, a.db, CR_STORE_READ, &err);
    if (rc == 0)
        rc = cr_store_run_find(&run, store, run_id, CR_PICK_ANY, &err);
    if (rc == 0)
        rc = cr_store_set_name(set_name, sizeof set_name, store, run.set_id, &err);
    if (rc == 0)
        rc = cr_store_set_generator(&spec, &generated, store, run.set_id, &err);
    if (rc == 0)
        rc = cr_store_ingest_unfinished(&ingest, &unfinished, store, run.set_id, NULL, &err);
    if (rc == 0)
        rc = cr_store_results_new(&it, store, run.id, CR_BY_INSTANCE, &err);
    /* every text below comes from the database: escaped on its way out */
    char shown_set[CR_TEXT_SHOWN_CAP(sizeof set_name)], version[CR_TEXT_SHOWN_CAP(sizeof run.solver_version)];
    if (rc == 0) {
        cr_text_shown(shown_set, sizeof shown_set, set_name);
        printf("run %lld of set '%s' (%s%s): algo %s, moves %s, coinrow %s\n", (long long)run.id, shown_set,
               cr_store_run_status_name(run.status), unfinished ? ", ingest unfinished" : "",
               cr_algo_name(run.opts.algo), cr_moves_name(run.opts.moves),
               cr_text_shown(version, sizeof version, run.solver_version));
        if (unfinished) { /* a write failed, or coinrow was stopped, before the end of the input */
            printf("set '%s' lacks rows of its input: its ingest of ", shown_set);
            cr_text_put(stdout, ingest.source);
            printf(" did not finish; finish the job with:\n  ");
            cr_store_finish_put(stdout, ingest.finish, a.db);
            putchar('\n');
        }
        if (generated) { /* made from the arguments, to paste into a shell */
            printf("set '%s' was generated by: ", shown_set);
            cr_store_generator_command(stdout, set_name, &spec);
            putchar('\n');
        }
        rc = show_groups(store, run.set_id, shown_set, 0, &err);
    }
    if (rc == 0) {
        printf("%-20s %6s  %-9s %20s %20s %20s  %-6s  %s\n", "ext_id", "n", "variant", "value", "first_score",
               "second_score", "winner", "moves");
    }
    const cr_stored_result *r;
    int64_t shown = 0;
    while (rc == 0 && (rc = cr_store_results_next(&r, it, &err)) == 1) {
        rc = 0;
        if (shown++ == limit) {
            printf("... more: sqlite3 ");
            cr_text_put_word(stdout, a.db);
            printf(" \"SELECT * FROM result_view WHERE run_id = %lld\"\n", (long long)run.id);
            break;
        }
        char id[CR_TEXT_COLUMN_CAP(20)];
        cr_text_column(id, sizeof id, r->ext_id, 20);
        if (r->missing & CR_FIGURE_VALUE) {
            printf("%s %6zu  %-9s error: ", id, r->n, cr_variant_name(r->variant));
            cr_text_put(stdout, r->error ? r->error : "no value, and no error (a row edited by hand)");
            putchar('\n');
            continue;
        }
        /* a figure that does not fit is NULL: "-", and the error says which */
        char figures[3][24];
        const int64_t values[3] = {r->value, r->first_score, r->second_score};
        for (int f = 0; f < 3; f++)
            snprintf(figures[f], sizeof figures[f], r->missing & 1u << f ? "-" : "%" PRId64, values[f]);
        /* the first 24 moves */
        char moves[25], moves_shown[CR_TEXT_SHOWN_CAP(sizeof moves)];
        size_t moves_len = r->moves ? strlen(r->moves) : 0;
        snprintf(moves, sizeof moves, "%s", r->moves ? r->moves : "-");
        printf("%s %6zu  %-9s %20s %20s %20s  %-6s  %s%s\n", id, r->n, cr_variant_name(r->variant), figures[0],
               figures[1], figures[2], r->missing & CR_FIGURE_WINNER ? "-" : cr_winner_name(r->winner),
               cr_text_shown(moves_shown, sizeof moves_shown, moves),
               moves_len > 24 ? "..." : "");
        if (r->error) {
            printf("%-20s %6s  %-9s error: ", "", "", "");
            cr_text_put(stdout, r->error);
            putchar('\n');
        }
    }
    cr_store_results_free(it);
    cr_store_free(store);
    return rc < 0 ? cli_report(&err) : CR_EXIT_OK;
}

const cli_command cli_cmd_show = {
    "show",
    cmd_show,
    "print the first results of a run, or a set's groups",
    "show [--db PATH] [--run ID] [--limit N] | show [--db PATH] --set NAME",
    "Rows of result_view in instance order, after the groups of the run's set when\n"
    "it has some; for anything more, query the database with SQL (see docs/batch.md).\n"
    "--set NAME shows the set's groups alone: each one's points, constraints (n,\n"
    "values, properties), the groups it depends on and its tests (test_group_view).",
    options,
};

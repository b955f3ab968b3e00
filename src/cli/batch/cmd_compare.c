/* coinrow compare: two runs of one set, in one database or two, instance by
 * instance and variant by variant; regressions listed, speed side by side. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "coinrow/compare.h"
#include "batch/batch.h"
#include "store/store.h"
#include "util/util.h"

/* One side of the comparison: where its run is and how fast it was. */
typedef struct side {
    const char *db;
    cr_store *store;
    cr_run run;
    char set[256];
    uint64_t solved;
} side;

typedef struct listing {
    int json;
    int64_t limit, listed;
} listing;

/* s as a JSON string: a control or bidirectional character as its \\u
 * escape (the same character to a reader, none to a terminal), a byte that
 * is not UTF-8 as U+FFFD (JSON has no bytes). */
static void json_string(const char *s)
{
    putchar('"');
    for (size_t len = s ? strlen(s) : 0, i = 0, n; i < len; i += n) {
        const unsigned char *c = (const unsigned char *)s + i;
        cr_text_kind kind = cr_text_char(&n, s + i, len - i);
        if (kind == CR_TEXT_INVALID)
            printf("\\ufffd");
        else if (kind != CR_TEXT_PLAIN) /* U+0000..U+009F, or U+202A..U+2069 */
            printf("\\u%04x", n == 1 ? c[0] : n == 2 ? (c[0] & 0x1fu) << 6 | (c[1] & 0x3fu)
                                                     : (c[0] & 0x0fu) << 12 | (c[1] & 0x3fu) << 6 | (c[2] & 0x3fu));
        else if (*c == '"' || *c == '\\')
            printf("\\%c", *c);
        else
            fwrite(c, 1, n, stdout);
    }
    putchar('"');
}

/* ,"value_a":V (null without a result), with the error when it failed */
static void json_value(const char *name, const cr_stored_result *r)
{
    if (r && !(r->missing & CR_FIGURE_VALUE)) {
        printf(",\"value_%s\":%" PRId64, name, r->value);
        return;
    }
    printf(",\"value_%s\":null", name);
    if (r) {
        printf(",\"error_%s\":", name);
        json_string(r->error);
    }
}

static const char *wrong_side(int wrong) { return wrong == 1 ? "a" : wrong == 2 ? "b" : wrong == 3 ? "both" : ""; }

/* Prints one finding, up to the limit: a line, or a JSON object. */
static void list_finding(void *ctx, const cr_run_finding *f)
{
    listing *l = ctx;
    if (l->listed++ >= l->limit)
        return;
    if (!l->json) {
        printf("  ");
        cr_text_put(stdout, f->ext_id);
        printf(" (n %zu) %s: %s: ", f->n, cr_variant_name(f->variant), cr_category_name(f->diff.category));
        cr_text_put(stdout, f->diff.why);
        putchar('\n');
        return;
    }
    printf("%s\n    {\"ext_id\":", l->listed > 1 ? "," : "");
    json_string(f->ext_id);
    printf(",\"n\":%zu,\"variant\":\"%s\",\"category\":\"%s\"", f->n, cr_variant_name(f->variant),
           cr_category_name(f->diff.category));
    json_value("a", f->a);
    json_value("b", f->b);
    printf(",\"why\":");
    json_string(f->diff.why);
    if (f->a && f->b && f->a->moves && f->b->moves && f->diff.parted_at < f->n)
        printf(",\"lines_part_at\":%zu", f->diff.parted_at);
    if (f->diff.wrong)
        printf(",\"wrong_line\":\"%s\",\"wrong_turn\":%zu", wrong_side(f->diff.wrong), f->diff.wrong_turn);
    printf("}");
}

static double per_second(const side *s) { return s->run.seconds > 0 ? (double)s->solved / s->run.seconds : 0; }

static void print_run(const char *name, const side *s, int json)
{
    if (json) {
        printf("  \"%s\": {\"db\":", name);
        json_string(s->db);
        printf(",\"run\":%" PRId64 ",\"set\":", s->run.id);
        json_string(s->set);
        printf(",\"status\":\"%s\",\"algo\":\"%s\",\"moves_policy\":\"%s\",\"solver_version\":",
               cr_store_run_status_name(s->run.status), cr_algo_name(s->run.opts.algo), cr_moves_name(s->run.opts.moves));
        json_string(s->run.solver_version);
        printf(",\"instances\":%" PRIu64 ",\"seconds\":%.6f,\"per_second\":%.1f},\n", s->solved, s->run.seconds,
               per_second(s));
        return;
    }
    char set[CR_TEXT_SHOWN_CAP(sizeof s->set)], version[CR_TEXT_SHOWN_CAP(sizeof s->run.solver_version)];
    printf("%s: run %" PRId64 " of set '%s' in ", name, s->run.id, cr_text_shown(set, sizeof set, s->set));
    cr_text_put(stdout, s->db);
    printf(" (%s; %s, moves %s; coinrow %s): %" PRIu64 " instances in %.3f s, %.0f/s\n",
           cr_store_run_status_name(s->run.status), cr_algo_name(s->run.opts.algo), cr_moves_name(s->run.opts.moves),
           cr_text_shown(version, sizeof version, s->run.solver_version), s->solved, s->run.seconds, per_second(s));
}

static void print_counts(const cr_run_comparison *c, int json)
{
    uint64_t all[CR_CATEGORY_COUNT] = {0};
    if (!json)
        printf("\n%-10s %12s %12s %12s %12s %12s\n", "variant", "same", "equivalent", "regression", "missing",
               "changed");
    else
        printf("  \"counts\": {");
    int first = 1;
    for (int v = 0; v < CR_VARIANT_COUNT; v++) {
        if (!(c->variants & CR_VARIANT_BIT(v)))
            continue;
        if (json)
            printf("%s\"%s\":{", first ? "" : ",", cr_variant_name((cr_variant)v));
        else
            printf("%-10s", cr_variant_name((cr_variant)v));
        for (int k = 0; k < CR_CATEGORY_COUNT; k++) {
            all[k] += c->counts[v][k];
            if (json)
                printf("%s\"%s\":%" PRIu64, k ? "," : "", cr_category_name((cr_category)k), c->counts[v][k]);
            else
                printf(" %12" PRIu64, c->counts[v][k]);
        }
        printf(json ? "}" : "\n");
        first = 0;
    }
    if (json) {
        printf(",\"all\":{");
        for (int k = 0; k < CR_CATEGORY_COUNT; k++)
            printf("%s\"%s\":%" PRIu64, k ? "," : "", cr_category_name((cr_category)k), all[k]);
        printf("}},\n");
    } else {
        printf("%-10s", "all");
        for (int k = 0; k < CR_CATEGORY_COUNT; k++)
            printf(" %12" PRIu64, all[k]);
        printf("\n");
    }
}

static uint64_t total(const cr_run_comparison *c, cr_category k)
{
    uint64_t sum = 0;
    for (int v = 0; v < CR_VARIANT_COUNT; v++)
        sum += c->counts[v][k];
    return sum;
}

static int passed(const cr_run_comparison *c)
{
    return total(c, CR_REGRESSION) + total(c, CR_MISSING) + total(c, CR_CHANGED) == 0;
}

/* Records the comparison in a's database (compare --record). */
static int record(const side *a, const side *b, int strict_moves, const cr_run_comparison *c, cr_error *err)
{
    cr_store_comparison row = {.run_a = a->run.id, .run_b = b->run.id, .db_b = a->store == b->store ? NULL : b->db,
                               .strict_moves = strict_moves, .passed = passed(c)};
    for (int k = 0; k < CR_CATEGORY_COUNT; k++)
        row.counts[k] = total(c, (cr_category)k);
    return cr_store_comparison_add(a->store, &row, err);
}

/* Opens s->db (or uses `shared`, the other side's store) and finds run id,
 * or the latest done run when id is 0. */
static int open_side(side *s, cr_store *shared, int64_t id, int write, cr_error *err)
{
    int rc = 0;
    s->store = shared;
    if (!shared)
        rc = cr_store_new(&s->store, s->db, write ? CR_STORE_WRITE_EXISTING : CR_STORE_READ, err);
    if (rc == 0)
        rc = cr_store_run_find(&s->run, s->store, id, id ? CR_PICK_ANY : CR_PICK_DONE, err);
    if (rc == 0)
        rc = cr_store_set_name(s->set, sizeof s->set, s->store, s->run.set_id, err);
    return rc ? rc : cr_store_run_solved(&s->solved, s->store, s->run.id, err);
}

/* ---- two invocations ---- */

/* Times under this count as this: below it a ratio is noise. */
#define TIME_FLOOR 0.001

/* The categories of a verdict change, counted into a cr_store_comparison's
 * fields (the order of compare's table: same, regression, improved, changed,
 * missing). */
typedef struct verdict_listing {
    cr_store_comparison counts;
    int64_t limit, listed;
} verdict_listing;

static void list_change(void *ctx, const cr_verdict_change *c)
{
    verdict_listing *l = ctx;
    const char *what;
    if (!c->judged_a || !c->judged_b)
        what = "missing", l->counts.counts[CR_MISSING]++;
    else if (c->a == CR_INVOKE_AC)
        what = "regression", l->counts.counts[CR_REGRESSION]++;
    else if (c->b == CR_INVOKE_AC)
        what = "improved", l->counts.improved++;
    else
        what = "changed", l->counts.counts[CR_CHANGED]++;
    if (l->listed++ == 0)
        printf("\nverdict changes:\n");
    if (l->listed > l->limit)
        return;
    printf("  ");
    cr_text_put(stdout, c->ext_id);
    printf(" (n %zu): %s -> %s, %s", c->n, c->judged_a ? cr_invoke_verdict_name(c->a) : "-",
           c->judged_b ? cr_invoke_verdict_name(c->b) : "-", what);
    if (c->judged_b && c->b != CR_INVOKE_AC) {
        printf(": ");
        cr_text_put(stdout, c->message_b);
    }
    printf("\n");
}

/* "a: invocation 3 of set 'demo': ./sol (diff, label v1): 12 judged, CPU 0.120 s" */
static int print_invocation(const char *name, cr_store *store, const cr_invocation *inv, cr_error *err)
{
    char set[256];
    cr_invocation_summary s;
    int rc = cr_store_set_name(set, sizeof set, store, inv->set_id, err);
    if (rc == 0)
        rc = cr_store_invocation_summary(&s, store, inv->id, CR_INVOKE_AC, err);
    if (rc)
        return rc;
    char shown[CR_TEXT_SHOWN_CAP(sizeof set)];
    printf("%s: invocation %lld of set '%s' (%s): ", name, (long long)inv->id, cr_text_shown(shown, sizeof shown, set),
           cr_store_run_status_name(inv->status));
    if (inv->argv)
        cli_print_command(stdout, inv->argv);
    else
        printf("--builtin %s", cr_strategy_name(inv->strategy));
    printf("%s", inv->label[0] ? ", label " : "");
    cr_text_put(stdout, inv->label);
    printf(": %llu judged", (unsigned long long)s.judged);
    for (int v = 0; v < CR_INVOKE_VERDICT_COUNT; v++)
        if (s.counts[v])
            printf(", %s %llu", cr_invoke_verdict_name((cr_invoke_verdict)v), (unsigned long long)s.counts[v]);
    printf("; CPU %.3f s\n", s.cpu_seconds);
    return 0;
}

static void print_times(const cr_time_change *t, size_t count, uint64_t common, double cpu_a, double cpu_b)
{
    if (!common)
        return;
    printf("\nCPU time, b against a (times under %g s count as %g s; changes by %gx or more), slowest first:\n",
           TIME_FLOOR, TIME_FLOOR, CR_TIME_CHANGE);
    for (size_t k = 0; k < count; k++) {
        printf("  ");
        cr_text_put(stdout, t[k].ext_id);
        printf(" (n %zu): %.3f s -> %.3f s, %.2fx\n", t[k].n, t[k].cpu_a, t[k].cpu_b, t[k].ratio);
    }
    printf("  all %llu tests judged by both: %.3f s -> %.3f s, %.2fx\n", (unsigned long long)common, cpu_a, cpu_b,
           (cpu_b > TIME_FLOOR ? cpu_b : TIME_FLOOR) / (cpu_a > TIME_FLOOR ? cpu_a : TIME_FLOOR));
}

/* compare --invocations A B: exit per diff(1), 2 for trouble. */
static int compare_invocations(const char *db, int64_t id_a, int64_t id_b, int64_t limit, int record_it)
{
    cr_error err = {0};
    cr_store *store = NULL;
    cr_invocation a = {0}, b = {0};
    verdict_listing l = {.counts = {.run_a = id_a, .run_b = id_b, .invocations = 1}, .limit = limit};
    cr_time_change *slow = calloc((size_t)(limit ? limit : 1), sizeof *slow);
    size_t slow_count = 0;
    uint64_t common = 0;
    double cpu_a = 0, cpu_b = 0;
    int rc = slow ? cr_store_new(&store, db, record_it ? CR_STORE_WRITE_EXISTING : CR_STORE_READ, &err)
                  : cr_errorf(&err, CR_ENOMEM, "no memory for --limit %lld", (long long)limit);
    if (rc == 0)
        rc = cr_store_invocation_find(&a, store, id_a, CR_PICK_ANY, &err);
    if (rc == 0)
        rc = cr_store_invocation_find(&b, store, id_b, CR_PICK_ANY, &err);
    if (rc == 0 && (a.set_id != b.set_id || a.variant != b.variant))
        rc = cr_errorf(&err, CR_EINVAL, "%s: invocations %lld and %lld judge %s: nothing to compare", db,
                       (long long)id_a, (long long)id_b,
                       a.set_id != b.set_id ? "different sets" : "different variants");
    if (rc == 0)
        rc = print_invocation("a", store, &a, &err);
    if (rc == 0)
        rc = print_invocation("b", store, &b, &err);
    if (rc == 0)
        rc = cr_store_verdict_changes(&l.counts.counts[CR_SAME], store, a.set_id, id_a, id_b, list_change, &l, &err);
    if (rc == 0 && l.listed > l.limit)
        printf("  ... %lld more (--limit)\n", (long long)(l.listed - l.limit));
    if (rc == 0)
        rc = cr_store_time_changes(slow, (size_t)limit, &slow_count, &common, &cpu_a, &cpu_b, store, id_a, id_b,
                                   TIME_FLOOR, &err);
    const uint64_t *n = l.counts.counts;
    l.counts.passed = n[CR_REGRESSION] + n[CR_MISSING] == 0;
    if (rc == 0) {
        print_times(slow, slow_count, common, cpu_a, cpu_b);
        printf("\nsame %llu, regression %llu, improved %llu, changed %llu, missing %llu\n%s\n",
               (unsigned long long)n[CR_SAME], (unsigned long long)n[CR_REGRESSION],
               (unsigned long long)l.counts.improved, (unsigned long long)n[CR_CHANGED],
               (unsigned long long)n[CR_MISSING],
               l.counts.passed ? "no regression, nothing missing" : "FAILED: see above");
        if (record_it)
            rc = cr_store_comparison_add(store, &l.counts, &err);
    }
    cr_invocation_clear(&a);
    cr_invocation_clear(&b);
    cr_store_free(store);
    free(slow);
    if (rc)
        return cli_report_trouble(&err);
    return l.counts.passed ? CR_EXIT_SAME : CR_EXIT_DIFFERENT;
}

typedef struct compare_args {
    const char *db, *against, *run_a, *run_b, *limit;
    int strict_moves, json, record, invocations;
} compare_args;

static const cli_option options[] = {
    CLI_TEXT(compare_args, db, "db", "PATH", "the database of run a (default coinrow.db)"),
    CLI_TEXT(compare_args, against, "against", "PATH", "the database of run b (default: the same)"),
    CLI_TEXT(compare_args, run_a, "run-a", "ID", "with --against: run a (default the latest done run)"),
    CLI_TEXT(compare_args, run_b, "run-b", "ID", "with --against: run b (default the latest done run)"),
    CLI_FLAG(compare_args, strict_moves, "strict-moves",
             "lines that differ are regressions even when both are optimal"),
    CLI_TEXT(compare_args, limit, "limit", "N", "list at most N regressions, missing or changed pairs (default 20)"),
    CLI_FLAG(compare_args, json, "json", "one JSON document for machines"),
    CLI_FLAG(compare_args, record, "record", "record the comparison in the table comparison of --db"),
    CLI_FLAG(compare_args, invocations, "invocations",
             "compare two invocations (coinrow invoke) of --db instead: verdicts and times"),
    {0},
};

static int cmd_compare(const cli_command *self, int argc, char **argv)
{
    compare_args arg = {.db = "coinrow.db", .limit = "20"};
    int npos, status = cli_parse(&npos, self, &arg, argc, argv);
    if (status >= 0)
        return status;
    listing l = {arg.json, 0, 0};
    int64_t id_a = 0, id_b = 0;
    if (cli_int_parse(&l.limit, arg.limit, 0, INT64_MAX))
        return cli_usage_error(self, "--limit takes a number, not '%s'", arg.limit);
    if (arg.invocations) {
        if (arg.against || arg.run_a || arg.run_b || arg.strict_moves || arg.json)
            return cli_usage_error(self, "--invocations compares two invocations of --db: --against, --run-a, "
                                         "--run-b, --strict-moves and --json are for runs");
        if (npos != 2 || cli_int_parse(&id_a, argv[0], 1, INT64_MAX) || cli_int_parse(&id_b, argv[1], 1, INT64_MAX))
            return cli_usage_error(self, "--invocations takes two invocation ids");
        if (l.limit > 100000)
            return cli_usage_error(self, "--limit with --invocations takes at most 100000");
        return compare_invocations(arg.db, id_a, id_b, l.limit, arg.record);
    }
    if (arg.against) {
        if (npos)
            return cli_usage_error(self, "with --against, name runs with --run-a and --run-b");
        if ((arg.run_a && cli_int_parse(&id_a, arg.run_a, 1, INT64_MAX)) ||
            (arg.run_b && cli_int_parse(&id_b, arg.run_b, 1, INT64_MAX)))
            return cli_usage_error(self, "run ids are positive numbers");
    } else if (npos != 2 || arg.run_a || arg.run_b || cli_int_parse(&id_a, argv[0], 1, INT64_MAX) ||
               cli_int_parse(&id_b, argv[1], 1, INT64_MAX)) {
        return cli_usage_error(self, "give two run ids of --db, or --against ANOTHER.db");
    }

    cr_error err = {0};
    side a = {.db = arg.db}, b = {.db = arg.against ? arg.against : arg.db};
    cr_run_comparison c;
    int rc = open_side(&a, NULL, id_a, arg.record, &err);
    if (rc == 0)
        rc = open_side(&b, arg.against ? NULL : a.store, id_b, 0, &err);
    int begun = rc == 0; /* the document is begun: it is ended, trouble or not */
    if (rc == 0) {
        if (arg.json) {
            printf("{\n");
            print_run("a", &a, 1);
            print_run("b", &b, 1);
            printf("  \"strict_moves\": %s,\n  \"findings\": [", arg.strict_moves ? "true" : "false");
        } else {
            print_run("a", &a, 0);
            print_run("b", &b, 0);
        }
        rc = cr_run_compare(&c, a.store, &a.run, b.store, &b.run, arg.strict_moves, list_finding, &l, &err);
    }
    if (rc == 0) {
        double ratio = per_second(&a) > 0 ? per_second(&b) / per_second(&a) : 0;
        if (arg.json) {
            printf("%s],\n", l.listed ? "\n  " : "");
            print_counts(&c, 1);
            printf("  \"speed_ratio\": %.3f,\n  \"passed\": %s\n}\n", ratio, passed(&c) ? "true" : "false");
        } else {
            if (l.listed > l.limit)
                printf("  ... %" PRId64 " more (--limit)\n", l.listed - l.limit);
            print_counts(&c, 0);
            if (ratio > 0)
                printf("\nspeed: b runs at %.2fx the instances per second of a\n", ratio);
            else /* it said "0.00x" for two empty runs */
                printf("\nspeed: not compared (a run solved no instance, or in no measurable time)\n");
            printf("%s\n", passed(&c) ? "no regression, nothing missing" : "FAILED: see above");
        }
        if (arg.record)
            rc = record(&a, &b, arg.strict_moves, &c, &err);
    } else if (begun && arg.json) { /* what stopped it, in place of the counts */
        printf("%s],\n  \"error\": ", l.listed ? "\n  " : "");
        json_string(err.msg);
        printf("\n}\n");
    }
    if (b.store != a.store)
        cr_store_free(b.store);
    cr_store_free(a.store);
    if (rc)
        return cli_report_trouble(&err);
    return passed(&c) ? CR_EXIT_SAME : CR_EXIT_DIFFERENT;
}

const cli_command cli_cmd_compare = {
    "compare",
    cmd_compare,
    "compare two runs (or two invocations): regressions, missing results, speed",
    "compare [--db PATH] RUN_A RUN_B [--strict-moves] [--limit N] [--json] [--record]\n"
    "       coinrow compare --db A.db --against B.db [--run-a ID] [--run-b ID] [OPTIONS]\n"
    "       coinrow compare --invocations A B [--db PATH] [--limit N] [--record]",
    "Results are matched by set name, external id and variant (the variants both runs\n"
    "have), streaming both sides.  Each pair is same; equivalent (equal figures, lines\n"
    "that differ but are both legal and optimal, checked with the verifier: not a\n"
    "regression unless --strict-moves); regression (figures differ, a line is illegal\n"
    "or not optimal, or only one side failed); missing on one side; or changed (the\n"
    "instance's coins differ: not compared).  Without run ids --against takes the\n"
    "latest done run of each database.\n"
    "--invocations: two invocations of one set (coinrow invoke), instance by instance:\n"
    "each verdict change (AC -> WA is a regression, WA -> AC improved, WA -> TLE\n"
    "changed, missing on one side), then CPU time ratios b/a, slowest changes first.\n"
    "Exit status, as diff(1): 0 no difference, 1 differences (a regression, or a pair\n"
    "missing or changed), 2 trouble (a usage error, or anything that stopped the\n"
    "comparison).",
    options,
};

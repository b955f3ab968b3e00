/* coinrow validate: the strict check of one input file (judge/judge.c, the
 * code the exported validator runs too), or of input files against a
 * group's constraints, read from the database. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "judge/judge.h"
#include "store/store.h"
#include "util/util.h"

typedef struct validate_args {
    const char *n, *values, *variant, *group, *set, *db;
    int even_n, odd_sum, interactive, kattis;
} validate_args;

static const cli_option options[] = {
    CLI_TEXT(validate_args, n, "n", "MIN..MAX", "the sizes allowed (required without --group)"),
    CLI_TEXT(validate_args, values, "values", "MIN..MAX", "the coins' values allowed (required without --group)"),
    CLI_FLAG(validate_args, even_n, "even-n", "n must be even"),
    CLI_FLAG(validate_args, odd_sum, "odd-sum", "the coins must add up to an odd number"),
    CLI_TEXT(validate_args, group, "group", "NAME", "the constraints of this group of --set instead, from the database"),
    CLI_TEXT(validate_args, set, "set", "NAME", "the set of --group"),
    CLI_TEXT(validate_args, db, "db", "PATH", "the database of --group (default coinrow.db)"),
    CLI_TEXT(validate_args, variant, "variant", "LIST",
             "the answers that must fit in int64: variants, a comma list or all (default)"),
    CLI_FLAG(validate_args, interactive, "interactive",
             "a test of the interactive game: a third line holds the jury's seed (export --interactive)"),
    CLI_FLAG(validate_args, kattis, "kattis", "Kattis exit statuses: 42 valid, 43 invalid"),
    {0},
};

/* The group asked for, found among the set's. */
typedef struct group_pick {
    const char *name;
    int found;
    cr_constraints limits;
    int all_equal;
} group_pick;

static int pick_group(void *ctx, const cr_store_group *g)
{
    group_pick *p = ctx;
    if (strcmp(g->name, p->name) == 0) {
        p->found = 1;
        p->limits = g->limits;
        p->all_equal = g->all_equal;
    }
    return 0;
}

/* Reads group a->group of set a->set into *out; CR_EINVAL naming them
 * when there is no such set or group. */
static int read_group(group_pick *out, const validate_args *a, cr_error *err)
{
    cr_store *store = NULL;
    int64_t set_id = 0;
    size_t count = 0;
    *out = (group_pick){.name = a->group};
    const char *db = a->db ? a->db : "coinrow.db";
    int rc = cr_store_new(&store, db, CR_STORE_READ, err);
    if (rc == 0)
        rc = cr_store_set_find(&set_id, store, a->set, 0, NULL, err);
    if (rc == 0)
        rc = cr_store_groups_each(&count, store, set_id, pick_group, out, err);
    if (rc == 0 && !out->found)
        rc = cr_errorf(err, CR_EINVAL, "%s: set '%s' has no group '%s'%s", db, a->set, a->group,
                       count ? "" : " (it has no groups)");
    cr_store_free(store);
    return rc;
}

/* Validates the file at path (NULL: standard input) against group g of
 * set `set`, saying on stderr what is wrong: 0, CR_EINVAL (invalid) or
 * CR_EIO / CR_ENOMEM (unreadable). */
static int validate_in_group(const char *path, const group_pick *g, const char *set, int seeded, unsigned answered)
{
    cr_error err = {0};
    int rc = cr_judge_input_check(&g->limits, g->all_equal, seeded, answered, path, &err);
    if (rc) { /* the file's name and its tokens are the user's: escaped */
        char line[CR_ERROR_MSG_MAX + 512];
        snprintf(line, sizeof line, "%s: group '%s' of set '%s': %s", path ? path : "standard input", g->name, set,
                 err.msg);
        cr_text_put(stderr, line);
        fputc('\n', stderr);
    }
    return rc;
}

static int cmd_validate(const cli_command *self, int argc, char **argv)
{
    validate_args a = {.variant = "all"};
    int npos, status = cli_parse(&npos, self, &a, argc, argv);
    if (status >= 0)
        return status;
    cr_error err = {0};
    unsigned answered;
    if (cr_variants_parse(&answered, a.variant, &err))
        return cli_usage_error(self, "%s", err.msg);
    if (a.group) {
        if (!a.set)
            return cli_usage_error(self, "--group needs --set: the set whose group it is");
        if (a.n || a.values || a.even_n || a.odd_sum)
            return cli_usage_error(self, "--group takes its group's constraints: leave out --n, --values, --even-n "
                                         "and --odd-sum");
        group_pick g;
        if (read_group(&g, &a, &err))
            return cli_report(&err);
        int invalid = 0, unreadable = 0;
        for (int k = 0; k < (npos ? npos : 1); k++) {
            int rc = validate_in_group(npos ? argv[k] : NULL, &g, a.set, a.interactive, answered);
            invalid |= rc == CR_EINVAL || rc == CR_EOVERFLOW;
            unreadable |= rc && rc != CR_EINVAL && rc != CR_EOVERFLOW;
        }
        if (unreadable)
            return CR_JUDGE_ERROR;
        if (a.kattis)
            return invalid ? CR_JUDGE_KATTIS_WRONG : CR_JUDGE_KATTIS_OK;
        return invalid ? CR_JUDGE_TESTLIB_FAIL : 0;
    }
    if (a.set || a.db)
        return cli_usage_error(self, "--set and --db go with --group");
    if (npos > 1)
        return cli_usage_error(self, "one FILE at most, got %d (several with --group)", npos);
    if (!a.n || !a.values)
        return cli_usage_error(self, "--n and --values are required (or --group)");
    cr_constraints limits;
    if (cli_constraints_parse(&limits, a.n, a.values, a.even_n, a.odd_sum, &err))
        return cli_usage_error(self, "%s", err.msg);
    return cr_judge_validate(a.kattis ? CR_KATTIS : CR_TESTLIB, &limits, 0, a.interactive, answered,
                             npos ? argv[0] : NULL);
}

const cli_command cli_cmd_validate = {
    "validate",
    cmd_validate,
    "strict check of a contest input file (testlib or Kattis statuses)",
    "validate --n MIN..MAX --values MIN..MAX [--even-n] [--odd-sum] [--variant LIST] [--interactive] [--kattis]\n"
    "            [FILE]\n"
    "       coinrow validate --group NAME --set NAME [--db PATH] [--variant LIST] [--interactive] [--kattis]\n"
    "            [FILE...]",
    "The file (standard input without FILE) must be n on the first line, then the\n"
    "n values separated by single spaces, each line ending in LF, nothing else;\n"
    "numbers plain (no '+', no leading zeros, no -0); and the value of each variant\n"
    "of --variant (default all) must fit in int64, so that an answer can be given.\n"
    "The message names the line, the column and the token.\n"
    "--group checks each FILE against the constraints of a group of the set, as\n"
    "the database holds them (n and value ranges, even n, odd sum, all coins\n"
    "equal); each message names the file, the group and the constraint.\n"
    "Exit status: 0 valid, 3 invalid (42 / 43 with --kattis), 1 unreadable, 2 usage.",
    options,
};

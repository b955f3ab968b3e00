/* coinrow generate: a reproducible instance set, stored in the database or
 * written as CSV.
 *
 * The instances come from one stream (cr_source_gen_read) that goes to one of two
 * sinks: the batch pipeline, which stores them in batched transactions with
 * flat memory (the set keeps the arguments, cr_store_set_generated), or
 * write_row, one CSV line each. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/job.h"
#include "cli/signals.h"
#include "coinrow/gen.h"
#include "source/source.h"
#include "store/store.h"
#include "util/util.h"

/* Set names: letters, digits, '.', '_' and '-', like file names everywhere. */
static int valid_set_name(const char *name)
{
    if (!*name)
        return 0;
    for (const char *p = name; *p; p++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *p))
            return 0;
    return 1;
}

/* Where write_row writes, and the flag Ctrl-C and SIGTERM set. */
typedef struct csv_sink {
    FILE *f;
    const atomic_int *stop;
} csv_sink;

/* A cr_row_fn writing one CSV row "id,v1 v2 ..." to the sink in ctx (the
 * header is id,values: what ingest reads); CR_EINTERRUPTED once asked to
 * stop. */
static int write_row(void *ctx, const cr_row *row)
{
    const csv_sink *sink = ctx;
    FILE *out = sink->f;
    if (atomic_load(sink->stop))
        return CR_EINTERRUPTED;
    fprintf(out, "%s,", row->ext_id);
    for (size_t i = 0; i < row->n; i++)
        fprintf(out, i ? " %" PRId64 : "%" PRId64, row->coins[i]);
    fputc('\n', out);
    return ferror(out) ? CR_EIO : 0;
}

/* Whether the file at path is a regular file that begins as a SQLite
 * database does (a FIFO is not opened: that would wait for a writer). */
static int is_sqlite(const char *path)
{
    static const char magic[16] = "SQLite format 3";
    char head[16];
    struct stat st;
    FILE *f = stat(path, &st) == 0 && S_ISREG(st.st_mode) ? fopen(path, "rb") : NULL;
    int is = f && fread(head, 1, sizeof head, f) == sizeof head && memcmp(head, magic, sizeof magic) == 0;
    if (f)
        fclose(f);
    return is;
}

/* The set's CSV to out ("-": standard output), a file written whole or
 * not at all: a failure (a full disk) or a stop (Ctrl-C) leaves a file
 * that was there as it was, and no half-written set. */
static int write_csv(const char *out, const cr_gen_spec *spec)
{
    cr_error err = {0};
    csv_sink sink = {NULL, cli_signals_catch()};
    int to_stdout = strcmp(out, "-") == 0;
    if (!to_stdout && is_sqlite(out)) { /* --out coinrow.db for --db coinrow.db replaced every set of it */
        cr_errorf(&err, CR_EINVAL, "cannot write %s: it is a SQLite database, which --out would replace with CSV "
                                   "(--db adds the set to a database)", out);
        return cli_report(&err);
    }
    char *tmp = NULL, *target = NULL;
    FILE *f = to_stdout ? stdout : cr_file_beside(&tmp, &target, out, &err);
    if (!f) {
        free(tmp);
        free(target);
        return cli_report(&err);
    }
    fputs("id,values\n", f);
    sink.f = f;
    int rc = cr_source_gen_read(spec, write_row, &sink, &err);
    if (rc == CR_EINTERRUPTED)
        cr_errorf(&err, rc, "interrupted: %s", to_stdout ? "the set is cut short" : "no file written");
    int failed = ferror(f), e = errno;
    if ((to_stdout ? fflush(f) : fclose(f)) != 0 && !failed)
        failed = 1, e = errno;
    if ((rc == 0 || rc == CR_EIO) && failed)
        rc = cr_errorf(&err, CR_EIO, "cannot write %s: %s", to_stdout ? "standard output" : out, strerror(e));
    if (rc == 0 && !to_stdout && rename(tmp, target) != 0)
        rc = cr_errorf(&err, CR_EIO, "cannot write %s: %s", out, strerror(errno));
    if (rc && tmp)
        remove(tmp);
    free(tmp);
    free(target);
    return rc ? cli_report(&err) : CR_EXIT_OK;
}

/* cli_job_args.read: the generated rows. */
static int read_generated(void *spec, cr_row_fn fn, void *fn_ctx, cr_error *err)
{
    return cr_source_gen_read(spec, fn, fn_ctx, err);
}

/* A group to generate into, as the command line gives it (name NULL: none). */
typedef struct group_args {
    const char *name, *depends;
    int64_t points;
    int all_equal;
} group_args;

/* The command that makes the set (or the group's tests) again, to paste
 * into a shell: generate's arguments, then the group's. */
static void write_command(FILE *f, const char *set, const cr_gen_spec *spec, const group_args *g)
{
    cr_store_generator_command(f, set, spec);
    if (!g->name)
        return;
    fprintf(f, " --group %s --points %" PRId64, g->name, g->points);
    if (g->depends && *g->depends)
        fprintf(f, " --depends %s", g->depends);
    if (g->all_equal)
        fputs(" --all-equal", f);
}

/* write_command's text, in a new string (NULL: no memory). */
static char *command_text(const char *set, const cr_gen_spec *spec, const group_args *g)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    write_command(f, set, spec, g);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* cli_job_args.read of a group: the generated rows, each id behind the
 * group's prefix ("NAME-" for its first call, "NAME-K-" for call K), so
 * that the ids of the groups of a set never clash. */
typedef struct group_rows {
    const cr_gen_spec *spec;
    char prefix[CR_STORE_GROUP_NAME_MAX + 24];
    cr_row_fn fn;
    void *fn_ctx;
} group_rows;

static int prefixed_row(void *ctx, const cr_row *row)
{
    group_rows *g = ctx;
    char id[sizeof g->prefix + CR_GEN_ID_MAX];
    cr_row r = *row;
    int len = snprintf(id, sizeof id, "%s%s", g->prefix, row->ext_id);
    r.ext_id = id;
    r.ext_id_len = len > 0 ? (size_t)len : 0;
    return g->fn(g->fn_ctx, &r);
}

static int read_group(void *ctx, cr_row_fn fn, void *fn_ctx, cr_error *err)
{
    group_rows *g = ctx;
    g->fn = fn;
    g->fn_ctx = fn_ctx;
    return cr_source_gen_read(g->spec, prefixed_row, g, err);
}

/* Stores the set: the set and its arguments first (refused when the name is
 * taken by other arguments), or its group and the call's arguments (refused
 * when they do not fit the group), then the instances through the
 * pipeline, which skips those already stored, so the same command again
 * changes nothing and completes an interrupted set. */
static int store_set(const cli_command *self, cli_job_args *a, const cr_gen_spec *spec, const group_args *g)
{
    cr_error err = {0};
    cr_store *store = NULL;
    int64_t set_id, call = 0;
    group_rows rows = {.spec = spec};
    int rc = cr_store_new(&store, a->db, CR_STORE_WRITE, &err);
    if (rc == 0 && g->name) {
        char *source = command_text(a->set, spec, g);
        cr_store_group group = {g->name, g->points, spec->limits, g->all_equal, g->depends, 0, 0};
        rc = source ? cr_store_group_generated(&set_id, &a->group_id, &call, store, a->set, &group, spec, source, &err)
                    : cr_errorf(&err, CR_ENOMEM, "no memory for a command line");
        free(source);
    } else if (rc == 0) {
        rc = cr_store_set_generated(&set_id, store, a->set, spec, &err);
    }
    cr_store_free(store);
    if (rc)
        return cli_report(&err);
    if (g->name) {
        if (call > 1)
            snprintf(rows.prefix, sizeof rows.prefix, "%s-%" PRId64 "-", g->name, call);
        else
            snprintf(rows.prefix, sizeof rows.prefix, "%s-", g->name);
        a->read = read_group;
        a->read_ctx = &rows;
    } else {
        a->read = read_generated;
        a->read_ctx = (void *)spec;
    }
    /* should it stop short, the same command finishes the set (the job
     * adds --db) */
    char *again = command_text(a->set, spec, g);
    a->again = again;
    int status = cli_job_run(self, a, CLI_JOB_INGEST, 0, NULL);
    free(again);
    return status;
}

/* A job's arguments first (cli_job_args' option lines hold for it), then
 * generate's own; --db is kept apart, to tell it was given. */
typedef struct generate_args {
    cli_job_args job;
    const char *db, *count, *n, *values, *seed, *profile, *out, *group, *points, *depends;
    int even_n, odd_sum, all_equal;
} generate_args;
_Static_assert(offsetof(generate_args, job) == 0, "the job's option lines hold for generate_args");

static const cli_option options[] = {
    CLI_TEXT(generate_args, db, "db", "PATH",
             "store the set in this database (default coinrow.db; created when missing)"),
    CLI_TEXT(generate_args, job.set, "set", "NAME", "the set's name: letters, digits, '.', '_', '-' (required)"),
    CLI_TEXT(generate_args, count, "count", "K", "how many instances (required)"),
    CLI_TEXT(generate_args, n, "n", "MIN[..MAX]", "the sizes (required)"),
    CLI_TEXT(generate_args, values, "values", "MIN..MAX", "the coins' values, 64-bit (required)"),
    CLI_TEXT(generate_args, seed, "seed", "S", "0 to 18446744073709551615 (required)"),
    CLI_TEXT(generate_args, profile, "profile", "NAME",
             "random (default), sorted, reversed, equal, zigzag, antigreedy, peaks, extreme, small"),
    CLI_FLAG(generate_args, even_n, "even-n", "every instance has an even n"),
    CLI_FLAG(generate_args, odd_sum, "odd-sum", "every instance's coins add up to an odd number"),
    CLI_TEXT(generate_args, group, "group", "NAME",
             "add the instances to this group of the set (letters, digits, '_'): a subtask"),
    CLI_TEXT(generate_args, points, "points", "P", "the group's points, 0 to 1000000000 (with --group)"),
    CLI_TEXT(generate_args, depends, "depends", "A,B", "the groups of the set this new group depends on (with --group)"),
    CLI_FLAG(generate_args, all_equal, "all-equal",
             "every coin of an instance is equal: a property of the group (with --group)"),
    CLI_TEXT(generate_args, out, "out", "FILE|-",
             "write the set as CSV (id,values) to FILE or standard output instead"),
    CLI_JOB_OPT_QUIET,
    CLI_JOB_OPT_PROGRESS,
    {0},
};

/* The group of the command line into *g, checked as usage: NULL for
 * none, else why not. */
static const char *group_parse(group_args *g, generate_args *a, char *why, size_t cap)
{
    *g = (group_args){a->group, a->depends, 0, a->all_equal};
    if (!a->group) {
        if (a->points || a->depends || a->all_equal)
            return "--points, --depends and --all-equal describe a group: they need --group";
        return NULL;
    }
    if (a->out)
        return "--group puts the instances in a group of a database's set: not with --out";
    if (!cr_store_group_name_ok(a->group)) {
        snprintf(why, cap, "group name '%.*s' may hold only letters, digits and '_' (%d at most)",
                 CR_STORE_GROUP_NAME_MAX + 1, a->group, CR_STORE_GROUP_NAME_MAX);
        return why;
    }
    if (!a->points)
        return "--group needs --points";
    if (cli_int_parse(&g->points, a->points, 0, CR_STORE_GROUP_POINTS_MAX)) {
        snprintf(why, cap, "--points takes a whole number of points, 0 to %d, not '%.40s'", CR_STORE_GROUP_POINTS_MAX,
                 a->points);
        return why;
    }
    if (a->all_equal && a->profile && strcmp(a->profile, "equal") != 0) {
        snprintf(why, cap, "--all-equal makes the coins of an instance equal: not with --profile %.40s", a->profile);
        return why;
    }
    if (a->all_equal)
        a->profile = "equal";
    return NULL;
}

static int cmd_generate(const cli_command *self, int argc, char **argv)
{
    generate_args a = {.job = CLI_JOB_ARGS_INIT};
    int status = cli_parse_options(self, &a, argc, argv);
    if (status >= 0)
        return status;
    if (!a.job.set || !a.count || !a.n || !a.values || !a.seed)
        return cli_usage_error(self, "--set, --count, --n, --values and --seed are required");
    if (a.db && a.out)
        return cli_usage_error(self, "--db and --out exclude each other: the set goes to a database or to CSV");
    if (!valid_set_name(a.job.set))
        return cli_usage_error(self, "set name '%s' may hold only letters, digits, '.', '_' and '-'", a.job.set);
    group_args group;
    char why[160];
    const char *wrong = group_parse(&group, &a, why, sizeof why);
    if (wrong)
        return cli_usage_error(self, "%s", wrong);

    cr_error err = {0};
    cr_gen_spec spec;
    if (cli_constraints_parse(&spec.limits, a.n, a.values, a.even_n, a.odd_sum, &err) ||
        cli_u64_parse(&spec.count, a.count, "--count", &err) || cli_u64_parse(&spec.seed, a.seed, "--seed", &err) ||
        cr_profile_parse(&spec.profile, a.profile ? a.profile : "random", &err) || cr_gen_check(&spec, &err))
        return cli_usage_error(self, "%s", err.msg);
    if (a.out)
        return write_csv(a.out, &spec);
    if (a.db)
        a.job.db = a.db;
    return store_set(self, &a.job, &spec, &group);
}

const cli_command cli_cmd_generate = {
    "generate",
    cmd_generate,
    "make a reproducible set of instances for judges or stress tests, or a group of one",
    "generate [--db PATH] --set NAME --count K --n MIN[..MAX] --values MIN..MAX --seed S\n"
    "            [--profile NAME] [--even-n] [--odd-sum] [--out FILE|-] [--quiet | --progress]\n"
    "            [--group NAME --points P [--depends A,B] [--all-equal]]",
    "The same arguments give the same bytes on every machine; instance k depends\n"
    "only on them and k.  Ids are k + 1 zero-padded to the width of K (01, 02, ...).\n"
    "Profiles: random, sorted, reversed, equal, zigzag, antigreedy (greedy loses,\n"
    "optimal play wins; even n >= 4), peaks, extreme (values at the range limits),\n"
    "small (instance k has the k-th size of MIN..MAX in turn).  See docs/judges.md.\n"
    "The set is stored in the database with its arguments (the column generator of\n"
    "instance_set); the same command again changes nothing, and the name of a set made\n"
    "otherwise is refused.  --out writes CSV instead (id,values), '-' to standard output.\n"
    "With --group the instances go to group NAME of the set (a subtask), which is\n"
    "made, with the set, when missing: that call sets the group's points, its\n"
    "constraints (--n, --values, --even-n, --odd-sum, --all-equal) and the groups it\n"
    "depends on; a later call into it must stay within them.  Ids are NAME-01 ...\n"
    "(NAME-K-01 ... for the K-th other call into the group); several groups make\n"
    "one set.  See \"Groups\" in docs/judges.md.\n"
    "Exit status: 0 done, 1 could not write, the set exists with other arguments or\n"
    "the call does not fit its group, 2 usage or constraints no instance meets,\n"
    "130 interrupted (the same command again completes the set).",
    options,
};

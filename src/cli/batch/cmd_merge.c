/* coinrow merge: a job's shard databases back into one run. */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/signals.h"
#include "util/util.h"
#include "batch/batch.h"

typedef struct merge_args {
    const char *db;
    const char *shards;
    int quiet;
} merge_args;

static const cli_option options[] = {
    CLI_TEXT(merge_args, db, "db", "PATH", "the database that receives the merged run (default coinrow.db; created "
                                           "when missing)"),
    CLI_TEXT(merge_args, shards, "shards", "DIR|FILE",
             "the shard databases: every *.db file in folder DIR (not hidden, nor INTO.db), or the paths FILE "
             "lists, one a line, relative ones from the current folder (for more shards than a command line holds)"),
    CLI_FLAG(merge_args, quiet, "quiet", "no summary"),
    {0},
};

/* The shard paths: the command line's, then --shards'. */
typedef struct shard_list {
    const char **paths;
    size_t count;
    char *text;   /* FILE's lines, cut in place */
    char **names; /* DIR/NAME, each allocated */
    size_t named;
} shard_list;

static void list_free(shard_list *l)
{
    for (size_t i = 0; i < l->named; i++)
        free(l->names[i]);
    free(l->names);
    free(l->paths);
    free(l->text);
}

/* A name of a folder's shard: *.db, not hidden (a copy set aside, or the
 * "._NAME" macOS leaves beside a file it copied), as input folders go. */
static int a_shard_name(const char *name)
{
    size_t len = strlen(name);
    return name[0] != '.' && len > 3 && strcmp(name + len - 3, ".db") == 0;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Every *.db file of folder dir, in name order, into l->names: but the
 * target `into`, when the merge writes it there (merged again, it is the
 * job's run, not a shard of it). */
static int list_folder(shard_list *l, const char *dir, const char *into, cr_error *err)
{
    DIR *d = opendir(dir);
    if (!d)
        return cr_errorf(err, CR_EIO, "cannot read folder %s: %s", dir, strerror(errno));
    size_t cap = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        cap += a_shard_name(e->d_name);
    rewinddir(d);
    int rc = 0;
    l->names = calloc(cap ? cap : 1, sizeof *l->names);
    if (!l->names)
        rc = cr_errorf(err, CR_ENOMEM, "no memory for the shard list");
    for (struct dirent *e; rc == 0 && l->named < cap && (e = readdir(d)) != NULL;) {
        if (!a_shard_name(e->d_name))
            continue;
        size_t len = strlen(dir) + 1 + strlen(e->d_name) + 1;
        char *p = malloc(len);
        if (!p) {
            rc = cr_errorf(err, CR_ENOMEM, "no memory for the shard list");
            break;
        }
        snprintf(p, len, "%s/%s", dir, e->d_name);
        if (cr_file_same(p, into))
            free(p);
        else
            l->names[l->named++] = p;
    }
    closedir(d);
    if (rc == 0)
        qsort(l->names, l->named, sizeof *l->names, by_name);
    if (rc == 0 && l->named == 0)
        rc = cr_errorf(err, CR_EINVAL, "folder %s holds no shard databases (*.db)", dir);
    return rc;
}

/* The paths file lists, one a line (empty lines skipped), into l->names,
 * pointing into l->text. */
static int list_file(shard_list *l, const char *file, cr_error *err)
{
    FILE *f = fopen(file, "r");
    if (!f)
        return cr_errorf(err, CR_EIO, "cannot open %s: %s", file, strerror(errno));
    size_t len = 0;
    int rc = cr_read_all(&l->text, &len, f, file, err);
    fclose(f);
    if (rc)
        return rc;
    size_t lines = 1;
    for (size_t i = 0; i < len; i++)
        lines += l->text[i] == '\n';
    char **lined = calloc(lines, sizeof *lined);
    if (!lined)
        return cr_errorf(err, CR_ENOMEM, "no memory for the shard list");
    size_t count = 0;
    for (char *line = l->text; line && *line;) {
        char *next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        size_t n = strlen(line);
        if (n && line[n - 1] == '\r')
            line[--n] = '\0';
        if (n)
            lined[count++] = line;
        line = next;
    }
    /* names the list owns are freed by list_free; these point into text */
    l->paths = (const char **)lined;
    l->count = count;
    if (count == 0)
        return cr_errorf(err, CR_EINVAL, "%s lists no shard databases", file);
    return 0;
}

/* pos[0..npos) and what --shards names, into l->paths. */
static int list_shards(shard_list *l, char **pos, size_t npos, const char *shards, const char *into, cr_error *err)
{
    memset(l, 0, sizeof *l);
    int rc = 0;
    if (shards) {
        struct stat st;
        if (stat(shards, &st) != 0)
            return cr_errorf(err, CR_EIO, "cannot open %s: %s", shards, strerror(errno));
        rc = S_ISDIR(st.st_mode) ? list_folder(l, shards, into, err) : list_file(l, shards, err);
    }
    if (rc)
        return rc;
    size_t listed = l->paths ? l->count : l->named;
    const char **all = calloc(npos + listed + 1, sizeof *all);
    if (!all)
        return cr_errorf(err, CR_ENOMEM, "no memory for the shard list");
    for (size_t i = 0; i < npos; i++)
        all[i] = pos[i];
    for (size_t i = 0; i < listed; i++)
        all[npos + i] = l->paths ? l->paths[i] : l->names[i];
    free(l->paths);
    l->paths = all;
    l->count = npos + listed;
    return 0;
}

static int cmd_merge(const cli_command *self, int argc, char **argv)
{
    merge_args a = {"coinrow.db", NULL, 0};
    int npos, status = cli_parse(&npos, self, &a, argc, argv);
    if (status >= 0)
        return status;
    if (npos == 0 && !a.shards)
        return cli_usage_error(self, "give the shard databases to merge");
    cr_error err = {0};
    cr_merge_report report;
    shard_list list;
    const atomic_int *stop = cli_signals_catch(); /* Ctrl-C rolls the merge back */
    int rc = list_shards(&list, argv, (size_t)npos, a.shards, a.db, &err);
    if (rc == 0)
        rc = cr_shard_merge(&report, a.db, list.paths, list.count, stop, &err);
    list_free(&list);
    if (rc)
        return cli_report(&err);
    if (a.quiet)
        return CR_EXIT_OK;
    char tag[CR_TEXT_SHOWN_CAP(sizeof report.tag)]; /* the shards' */
    cr_text_shown(tag, sizeof tag, report.tag);
    if (report.already)
        printf("job '%s' is merged already, as run %" PRId64 " of %s: nothing to do\n", tag, report.run, a.db);
    else
        printf("merged %u shards of job '%s' into run %" PRId64 " of %s: %" PRIu64 " instances, %" PRIu64
               " results\n",
               report.shards, tag, report.run, a.db, report.instances, report.results);
    return CR_EXIT_OK;
}

const cli_command cli_cmd_merge = {
    "merge",
    cmd_merge,
    "merge the shard databases of one job into one run",
    "merge [--db INTO.db] SHARD.db...\n"
    "       coinrow merge [--db INTO.db] --shards DIR|FILE",
    "The shards (from 'coinrow solve --shard K/N --run-tag TAG') must be one job's:\n"
    "the same tag, set and options, every shard 0..N-1 once and done, their ranges of\n"
    "ids meeting end to end.  Together they must be the set, each instance once; a set\n"
    "INTO.db holds already must be the data they were made from.  All or nothing: one\n"
    "transaction, and nothing is written when a shard is missing, given twice or a\n"
    "stranger.  A job merged before is not merged again, also by two merges at once.\n"
    "The shards are read one at a time: any number of them takes one open file and\n"
    "bounded memory.\n"
    "Exit status: 0 merged (or merged before), 1 refused or an error, 2 usage.",
    options,
};

/* coinrow merge: a job's shard databases back into one run. */
#include <inttypes.h>
#include <stdio.h>

#include "cli/cli.h"
#include "util/util.h"
#include "batch/batch.h"

typedef struct merge_args {
    const char *db;
    int quiet;
} merge_args;

static const cli_option options[] = {
    CLI_TEXT(merge_args, db, "db", "PATH", "the database that receives the merged run (default coinrow.db; created "
                                           "when missing)"),
    CLI_FLAG(merge_args, quiet, "quiet", "no summary"),
    {0},
};

static int cmd_merge(const cli_command *self, int argc, char **argv)
{
    merge_args a = {"coinrow.db", 0};
    int npos, status = cli_parse(&npos, self, &a, argc, argv);
    if (status >= 0)
        return status;
    if (npos == 0)
        return cli_usage_error(self, "give the shard databases to merge");
    cr_error err = {0};
    cr_merge_report report;
    if (cr_shard_merge(&report, a.db, (const char *const *)argv, (size_t)npos, &err))
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
    "merge [--db INTO.db] SHARD.db...",
    "The shards (from 'coinrow solve --shard K/N --run-tag TAG') must be one job's:\n"
    "the same tag, set and options, every shard 0..N-1 once and done.  Together they\n"
    "must cover the set exactly once; a set INTO.db holds already must be the data\n"
    "they were made from.  All or nothing: one transaction, and nothing is written\n"
    "when a shard is missing, given twice or a stranger.  A job merged before is not\n"
    "merged again.\n"
    "Exit status: 0 merged (or merged before), 1 refused or an error, 2 usage.",
    options,
};

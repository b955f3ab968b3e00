/* coinrow merge: a job's shard databases back into one run. */
#include <inttypes.h>
#include <stdio.h>

#include "cli/cli.h"
#include "io/shard.h"

int cmd_merge(const cli_command *self, int argc, char **argv)
{
    const char *db = "coinrow.db";
    int quiet = 0;
    const cli_option opts[] = {
        {"db", "PATH", "the database that receives the merged run (default coinrow.db; created when missing)", &db,
         NULL},
        {"quiet", NULL, "no summary", NULL, &quiet},
        {0},
    };
    int npos, status = cli_parse(&npos, self, opts, argc, argv);
    if (status >= 0)
        return status;
    if (npos == 0)
        return cli_usage_error(self, "give the shard databases to merge");
    cr_error err = {0};
    cr_merge_report report;
    if (cr_shard_merge(&report, db, (const char *const *)argv, (size_t)npos, &err))
        return cli_report(&err);
    if (quiet)
        return CR_EXIT_OK;
    if (report.already)
        printf("job '%s' is merged already, as run %" PRId64 " of %s: nothing to do\n", report.tag, report.run, db);
    else
        printf("merged %u shards of job '%s' into run %" PRId64 " of %s: %" PRIu64 " instances, %" PRIu64
               " results\n",
               report.shards, report.tag, report.run, db, report.instances, report.results);
    return CR_EXIT_OK;
}

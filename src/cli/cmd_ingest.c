/* coinrow ingest: store instances from files, folders, stdin or a table. */
#include "cli/job.h"

int cmd_ingest(const cli_command *self, int argc, char **argv)
{
    cli_job_args a = CLI_JOB_ARGS_INIT;
    const cli_option opts[] = {
        CLI_JOB_OPT_DB(&a),      CLI_JOB_OPT_SET(&a),     CLI_JOB_OPT_FORMAT(&a), CLI_JOB_OPT_ID_COL(&a),
        CLI_JOB_OPT_VALUES_COL(&a), CLI_JOB_OPT_FROM_DB(&a), CLI_JOB_OPT_TABLE(&a), CLI_JOB_OPT_QUIET(&a),
        CLI_JOB_OPT_PROGRESS(&a), {0},
    };
    return cli_job_main(self, opts, &a, CLI_JOB_INGEST, argc, argv);
}

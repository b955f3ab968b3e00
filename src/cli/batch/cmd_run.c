/* coinrow run: ingest, then solve the set, in one pass. */
#include "cli/job.h"

static const cli_option options[] = {
    CLI_JOB_OPT_DB,
    CLI_JOB_OPT_SET,
    CLI_JOB_OPT_VARIANT,
    CLI_JOB_OPT_MOVES,
    CLI_JOB_OPT_ALGO,
    CLI_JOB_OPT_JOBS,
    CLI_JOB_OPT_LABEL,
    CLI_FLAG(cli_job_args, resume, "resume",
             "finish the latest unfinished run of the set, storing the rows its ingest did not"),
    CLI_JOB_OPTS_INPUT,
    CLI_JOB_OPT_QUIET,
    CLI_JOB_OPT_PROGRESS,
    {0},
};

static int cmd_run(const cli_command *self, int argc, char **argv)
{
    return cli_job_main(self, CLI_JOB_INGEST | CLI_JOB_SOLVE, argc, argv);
}

const cli_command cli_cmd_run = {
    "run",
    cmd_run,
    "ingest inputs into a set, then solve the set in a new run",
    "run INPUT... [--db PATH] [--set NAME] [--variant LIST|all] [--moves fast|canonical|none]\n"
    "            [--algo auto|linear|dp|naive] [--jobs N] [--label TEXT] [--format FMT]\n"
    "            [--id-col NAME] [--values-col NAME] [--quiet | --progress]\n"
    "       coinrow run --from-db FILE --table NAME [OPTIONS]\n"
    "       coinrow run --resume INPUT... [--db PATH] [--set NAME] [--format FMT] ...",
    "The main job: 'coinrow ingest' and 'coinrow solve' in one pass, reading, solving and\n"
    "writing at once.  A run covers every instance of its set.  Results go to the tables\n"
    "result and result_view of the database; see 'coinrow help ingest' for the inputs.\n"
    "Ctrl-C (or SIGTERM) stops cleanly: what is in hand is written and committed, and\n"
    "the run can be finished with 'coinrow solve --resume'.  A run stopped before the end\n"
    "of its input (a stop, a full disk, a lock held by another program) is finished by\n"
    "the command it prints: the same input again with --resume, which stores the rows\n"
    "that were not and solves the run to the end; until then 'coinrow solve', and 'run'\n"
    "of any other input, refuse the set, and 'show' and 'check-db' say that its ingest\n"
    "did not finish.\n" CLI_JOB_EXIT_HELP,
    options,
};

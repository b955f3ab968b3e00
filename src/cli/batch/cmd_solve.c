/* coinrow solve: a new run over a set's instances, --resume one, or solve
 * one shard of it into a database of its own. */
#include "cli/job.h"

static const cli_option options[] = {
    CLI_JOB_OPT_DB,
    CLI_TEXT(cli_job_args, set, "set", "NAME", "the instance set (default: the only one)"),
    CLI_JOB_OPT_VARIANT,
    CLI_JOB_OPT_MOVES,
    CLI_JOB_OPT_ALGO,
    CLI_JOB_OPT_JOBS,
    CLI_JOB_OPT_LABEL,
    CLI_FLAG(cli_job_args, resume, "resume", "finish run RUN_ID, or the latest unfinished run"),
    CLI_TEXT(cli_job_args, shard, "shard", "K/N", "solve only shard K (0-based) of N of the set, into --out"),
    CLI_TEXT(cli_job_args, out, "out", "SHARD.db", "with --shard: the shard's own database (--db is only read)"),
    CLI_TEXT(cli_job_args, run_tag, "run-tag", "TAG",
             "with --shard: the job's tag, the same for all its shards (default $SLURM_ARRAY_JOB_ID)"),
    CLI_JOB_OPT_QUIET,
    CLI_JOB_OPT_PROGRESS,
    {0},
};

static int cmd_solve(const cli_command *self, int argc, char **argv)
{
    return cli_job_main(self, CLI_JOB_SOLVE, argc, argv);
}

const cli_command cli_cmd_solve = {
    "solve",
    cmd_solve,
    "solve every instance of a set in a new run, or resume a run",
    "solve [--db PATH] [--set NAME] [--variant LIST|all] [--moves fast|canonical|none]\n"
    "            [--algo auto|linear|dp|naive] [--jobs N] [--label TEXT] [--quiet | --progress]\n"
    "       coinrow solve --resume [RUN_ID] [--db PATH]\n"
    "       coinrow solve --shard K/N --out SHARD.db --run-tag TAG [--db INPUT.db] [--set NAME] [OPTIONS]",
    "--resume finishes the named run, or the latest one that is not done, with its own\n"
    "options: instances it has solved are not solved or written again.\n"
    "--shard K/N solves the instances of shard K (0-based) of N of the set, read from\n"
    "--db (never written, opened immutable), into SHARD.db: the set's instances at\n"
    "positions floor(K*size/N) to floor((K+1)*size/N)-1 in id order, one range of its\n"
    "index.  It reads only its share of the file when the set was ingested in id order\n"
    "(from a file sorted by id, LC_ALL=C sort): a set whose ids came in no order has\n"
    "every shard read nearly all of it.  Run again after a kill, it goes on where it\n"
    "stopped.  'coinrow merge' puts a job's shards (same TAG) back together.\n" CLI_JOB_EXIT_HELP,
    options,
};

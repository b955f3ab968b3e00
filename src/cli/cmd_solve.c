/* coinrow solve: a new run over a set's instances, --resume one, or solve
 * one shard of it into a database of its own. */
#include "cli/job.h"

int cmd_solve(const cli_command *self, int argc, char **argv)
{
    cli_job_args a = CLI_JOB_ARGS_INIT;
    const cli_option opts[] = {
        CLI_JOB_OPT_DB(&a),
        {"set", "NAME", "the instance set (default: the only one)", &a.set, NULL},
        CLI_JOB_OPT_VARIANT(&a),
        CLI_JOB_OPT_MOVES(&a),
        CLI_JOB_OPT_ALGO(&a),
        CLI_JOB_OPT_JOBS(&a),
        CLI_JOB_OPT_LABEL(&a),
        {"resume", NULL, "finish run RUN_ID, or the latest unfinished run", NULL, &a.resume},
        {"shard", "K/N", "solve only shard K (0-based) of N of the set, into --out", &a.shard, NULL},
        {"out", "SHARD.db", "with --shard: the shard's own database (--db is only read)", &a.out, NULL},
        {"run-tag", "TAG", "with --shard: the job's tag, the same for all its shards (default $SLURM_ARRAY_JOB_ID)",
         &a.run_tag, NULL},
        CLI_JOB_OPT_QUIET(&a),
        CLI_JOB_OPT_PROGRESS(&a),
        {0},
    };
    return cli_job_main(self, opts, &a, CLI_JOB_SOLVE, argc, argv);
}

/* coinrow solve: a new run over a set's instances, --resume one, or solve
 * one shard of it into a database of its own. */
#include "cli/batch.h"

int cmd_solve(const cli_command *self, int argc, char **argv)
{
    batch_args a = BATCH_ARGS_INIT;
    const cli_option opts[] = {
        BATCH_OPT_DB(&a),
        {"set", "NAME", "the instance set (default: the only one)", &a.set, NULL},
        BATCH_OPT_VARIANT(&a),
        BATCH_OPT_MOVES(&a),
        BATCH_OPT_ALGO(&a),
        BATCH_OPT_JOBS(&a),
        BATCH_OPT_LABEL(&a),
        {"resume", NULL, "finish run RUN_ID, or the latest unfinished run", NULL, &a.resume},
        {"shard", "K/N", "solve only shard K (0-based) of N of the set, into --out", &a.shard, NULL},
        {"out", "SHARD.db", "with --shard: the shard's own database (--db is only read)", &a.out, NULL},
        {"run-tag", "TAG", "with --shard: the job's tag, the same for all its shards (default $SLURM_ARRAY_JOB_ID)",
         &a.run_tag, NULL},
        BATCH_OPT_QUIET(&a),
        BATCH_OPT_PROGRESS(&a),
        {0},
    };
    return batch_main(self, opts, &a, BATCH_SOLVE, argc, argv);
}

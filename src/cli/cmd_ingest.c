/* coinrow ingest: store instances from files, folders, stdin or a table. */
#include "cli/batch.h"

int cmd_ingest(const cli_command *self, int argc, char **argv)
{
    batch_args a = BATCH_ARGS_INIT;
    const cli_option opts[] = {
        BATCH_OPT_DB(&a),      BATCH_OPT_SET(&a),     BATCH_OPT_FORMAT(&a), BATCH_OPT_ID_COL(&a),
        BATCH_OPT_VALUES_COL(&a), BATCH_OPT_FROM_DB(&a), BATCH_OPT_TABLE(&a), BATCH_OPT_QUIET(&a),
        BATCH_OPT_PROGRESS(&a), {0},
    };
    return batch_main(self, opts, &a, BATCH_INGEST, argc, argv);
}

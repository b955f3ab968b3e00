/* coinrow ingest: store instances from files, folders, stdin or a table. */
#include "cli/job.h"

static const cli_option options[] = {
    CLI_JOB_OPT_DB,
    CLI_JOB_OPT_SET,
    CLI_JOB_OPT_GROUP,
    CLI_JOB_OPTS_INPUT,
    CLI_JOB_OPT_QUIET,
    CLI_JOB_OPT_PROGRESS,
    {0},
};

static int cmd_ingest(const cli_command *self, int argc, char **argv)
{
    return cli_job_main(self, CLI_JOB_INGEST, argc, argv);
}

const cli_command cli_cmd_ingest = {
    "ingest",
    cmd_ingest,
    "store instances from CSV, TSV, contest files or a SQLite table",
    "ingest INPUT... [--db PATH] [--set NAME [--group NAME]] [--format auto|csv|tsv|wide|contest]\n"
    "            [--id-col NAME] [--values-col NAME] [--quiet | --progress]\n"
    "       coinrow ingest --from-db FILE --table NAME [--id-col NAME] [--values-col NAME]\n"
    "            [--db PATH] [--set NAME [--group NAME]]",
    "INPUT is a file, a folder (its .csv, .tsv and .in files in name order) or '-' for\n"
    "standard input.  CSV and TSV have a header row: the id column is 'id' (else ids\n"
    "are data row numbers), the values column 'values', 'coins', 'piles' or 'stones',\n"
    "with integers separated by spaces, commas or semicolons, or a JSON array; a column\n"
    "'n', when there is one, must match the count.  --format wide: every column but the\n"
    "id is one coin.  Contest files (.in): n, then n integers; the id is the file name.\n"
    "A row that cannot be read is recorded in the table ingest_error (source, line, id,\n"
    "reason, raw text) and the rest goes on.  Ingesting the same rows again stores\n"
    "nothing twice; an id the set has with other coins is rejected.  --group NAME puts\n"
    "the rows in group NAME of the set (made by generate --group): a row outside the\n"
    "group's constraints is rejected, naming the test, the group and the constraint.\n" CLI_JOB_EXIT_HELP,
    options,
};

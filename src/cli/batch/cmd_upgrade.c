/* coinrow upgrade: an older coinrow database brought up to this schema. */
#include <stdio.h>

#include "cli/cli.h"
#include "store/store.h"

typedef struct upgrade_args {
    const char *db;
} upgrade_args;

static const cli_option options[] = {
    CLI_TEXT(upgrade_args, db, "db", "PATH", "the database (default coinrow.db)"),
    {0},
};

static int cmd_upgrade(const cli_command *self, int argc, char **argv)
{
    upgrade_args a = {"coinrow.db"};
    int status = cli_parse_options(self, &a, argc, argv);
    if (status >= 0)
        return status;
    cr_error err = {0};
    cr_store *store = NULL;
    if (cr_store_new(&store, a.db, CR_STORE_WRITE_EXISTING, &err) != 0)
        return cli_report(&err);
    int from = cr_store_opened_version(store);
    cr_store_free(store);
    if (from == cr_store_schema_version())
        printf("%s: schema version %d, up to date\n", a.db, from);
    else
        printf("%s: schema version %d upgraded to %d\n", a.db, from, cr_store_schema_version());
    return CR_EXIT_OK;
}

const cli_command cli_cmd_upgrade = {
    "upgrade",
    cmd_upgrade,
    "bring a database made by an older coinrow up to this one's schema",
    "upgrade [--db PATH]",
    "Applies the schema scripts the database lacks, all in one transaction, keeping\n"
    "every row: what result_view showed before, it shows after.  A database that is\n"
    "missing, empty, not coinrow's or newer than this coinrow is refused, and one\n"
    "whose upgrade fails at any script is left, byte for byte, as it was.  Any\n"
    "command that writes (ingest, run, solve, invoke) upgrades the same way; the\n"
    "commands that only read (show, compare, export, check-db) refuse an older\n"
    "database, naming this command.\n"
    "Exit status: 0 upgraded or up to date, 1 refused or failed, 2 usage.",
    options,
};

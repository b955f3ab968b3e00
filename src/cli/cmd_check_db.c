/* coinrow check-db: SQLite's integrity check and coinrow's invariants. */
#include <stdio.h>

#include "cli/cli.h"
#include "io/store.h"

/* One line per finding, and "ok" for a check that passed. */
static void print_finding(void *ctx, const char *check, const char *finding)
{
    (void)ctx;
    printf("%-36s %s\n", check, finding ? finding : "ok");
}

int cmd_check_db(const cli_command *self, int argc, char **argv)
{
    const char *db = "coinrow.db";
    const cli_option opts[] = {
        {"db", "PATH", "the database (default coinrow.db)", &db, NULL},
        {0},
    };
    int status = cli_parse_options(self, opts, argc, argv);
    if (status >= 0)
        return status;
    cr_error err = {0};
    cr_store *store = NULL;
    unsigned failed = 0;
    int rc = cr_store_new(&store, db, CR_STORE_READ, &err);
    if (rc == 0)
        rc = cr_store_check(&failed, store, print_finding, NULL, &err);
    cr_store_free(store);
    if (rc)
        return cli_report(&err);
    if (failed) {
        cli_fail("%s: %u check%s found problems", db, failed, failed == 1 ? "" : "s");
        return CR_EXIT_FATAL;
    }
    return CR_EXIT_OK;
}

/* coinrow upgrade: an older coinrow database brought up to this schema. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "store/store.h"
#include "util/util.h"

typedef struct upgrade_args {
    const char *db;
} upgrade_args;

static const cli_option options[] = {
    CLI_TEXT(upgrade_args, db, "db", "PATH", "the database (default coinrow.db)"),
    {0},
};

/* What the schema's check finds, under a first line that says so; the
 * user's own objects, which pass, are left to check-db. */
typedef struct schema_findings {
    const char *db;
    int from, to, count;
} schema_findings;

static void print_finding(void *ctx, const char *check, const char *finding)
{
    schema_findings *f = ctx;
    if (!finding || strcmp(check, CR_STORE_CHECK_OWN) == 0)
        return;
    if (f->count++ == 0) {
        cli_fail("%s: schema version %d%s, but coinrow's objects are not all as it defines them, which "
                 "upgrade cannot put back (coinrow check-db checks the rest):",
                 f->db, f->from, f->from == f->to ? "" : " upgraded");
    }
    fputs("  ", stderr);
    cr_text_put(stderr, finding);
    fputc('\n', stderr);
}

static int cmd_upgrade(const cli_command *self, int argc, char **argv)
{
    upgrade_args a = {"coinrow.db"};
    int status = cli_parse_options(self, &a, argc, argv);
    if (status >= 0)
        return status;
    cr_error err = {0};
    cr_store *store = NULL;
    /* read first: an up-to-date file is not written, and a read-only one is
     * up to date too; but the journal a stopped writer left is rolled back
     * first, which readers ask upgrade to do */
    int rc = cr_store_roll_back_journal(a.db, &err);
    if (rc == 0)
        rc = cr_store_new(&store, a.db, CR_STORE_READ_ANY, &err);
    if (rc == 0 && cr_store_opened_version(store) < cr_store_schema_version()) {
        cr_store_free(store);
        store = NULL;
        rc = cr_store_new(&store, a.db, CR_STORE_WRITE_EXISTING, &err);
        if (rc == 0)
            rc = cr_store_keep_upgrade(store, &err);
    }
    if (rc) {
        cr_store_free(store);
        return cli_report(&err);
    }
    /* "up to date" is a promise that every command can use the file: one
     * whose table of results was dropped by hand is not */
    schema_findings found = {a.db, cr_store_opened_version(store), cr_store_schema_version(), 0};
    int failed = 0;
    rc = cr_store_check_schema(&failed, store, print_finding, &found, &err);
    cr_error closing = {0};
    if (cr_store_close(store, &closing) != 0 && rc == 0) /* upgraded, but not at rest */
        rc = closing.code, err = closing;
    if (rc)
        return cli_report(&err);
    if (failed)
        return CR_EXIT_FATAL;
    if (found.from == found.to)
        printf("%s: schema version %d, up to date\n", a.db, found.from);
    else
        printf("%s: schema version %d upgraded to %d\n", a.db, found.from, found.to);
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
    "whose upgrade fails at any script is left, byte for byte, as it was.  A file\n"
    "one of whose tables, views, indexes or triggers of coinrow's was dropped or\n"
    "changed by hand is not up to date: upgrade lists what differs, as check-db\n"
    "does, and exits 1.  Any command that writes (ingest, run, solve, invoke)\n"
    "upgrades the same way, with its first write (one that refuses leaves the file\n"
    "as it was); the commands that only read (show, compare, export, check-db)\n"
    "refuse an older database, naming this command.\n"
    "Exit status: 0 upgraded or up to date, 1 refused or failed, 2 usage.",
    options,
};

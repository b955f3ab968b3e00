/* coinrow check-db: SQLite's integrity check, the schema against coinrow's, and
 * coinrow's invariants. */
#include <stdio.h>

#include "cli/cli.h"
#include "store/store.h"
#include "util/util.h"

typedef struct check_db_args {
    const char *db;
} check_db_args;

static const cli_option options[] = {
    CLI_TEXT(check_db_args, db, "db", "PATH", "the database (default coinrow.db)"),
    {0},
};

/* One line per finding (the database's names and SQL escaped), and "ok"
 * for a check that passed. */
static void print_finding(void *ctx, const char *check, const char *finding)
{
    (void)ctx;
    printf("%-36s ", check);
    cr_text_put(stdout, finding ? finding : "ok");
    putchar('\n');
}

static int cmd_check_db(const cli_command *self, int argc, char **argv)
{
    check_db_args a = {"coinrow.db"};
    int status = cli_parse_options(self, &a, argc, argv);
    if (status >= 0)
        return status;
    cr_error err = {0};
    cr_store *store = NULL;
    unsigned failed = 0;
    int rc = cr_store_new(&store, a.db, CR_STORE_READ, &err);
    if (rc == 0)
        rc = cr_store_check(&failed, store, print_finding, NULL, &err);
    cr_store_free(store);
    if (rc)
        return cli_report(&err);
    if (failed) {
        cli_fail("%s: %u check%s found problems", a.db, failed, failed == 1 ? "" : "s");
        return CR_EXIT_FATAL;
    }
    return CR_EXIT_OK;
}

const cli_command cli_cmd_check_db = {
    "check-db",
    cmd_check_db,
    "check a database: SQLite's integrity check, coinrow's schema and invariants",
    "check-db [--db PATH]",
    "PRAGMA integrity_check; the schema against coinrow's own (every table, view,\n"
    "index and trigger of coinrow's there and defined as a fresh database has it, no\n"
    "trigger of anyone else's on them; your own objects are listed as notes, which\n"
    "pass); then coinrow's invariants, on the tables as stored: every solution row\n"
    "has its run and an instance of the run's set, and exactly the run's variants;\n"
    "its variants kept in result_extra are among them, each with its row there and\n"
    "every row there marked; it has the scores of each game a variant it gives reads,\n"
    "and lines of one L or R per coin of its instance; a done run has every instance\n"
    "of its set up to the last it solved; every verdict has its invocation and an\n"
    "instance of its set, and a done invocation a verdict for every instance up to\n"
    "the last it judged; a set's size and digest are its instances'; no set or\n"
    "instance name is empty or holds a NUL byte; every run, invocation, verdict and\n"
    "instance reads back as the commands read it (an instance's coins, n of them).\n"
    "One line per check: ok, or how many rows break it and one of them.  The database\n"
    "is only read.  (export and merge run SQLite's quick check first and refuse a\n"
    "damaged database.)\n"
    "Exit status: 0 every check passed, 1 a check found problems (or the database\n"
    "cannot be read), 2 usage.",
    options,
};

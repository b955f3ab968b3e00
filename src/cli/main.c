/* coinrow's entry point: the table of subcommands and the help around it. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

#define BATCH_EXIT_HELP                                                                                          \
    "Exit status: 0 done, 3 done but some rows were rejected, 1 a fatal error, 2 usage,\n"                     \
    "130 interrupted (after a clean stop)."

static const cli_command commands[] = {
    {"eval", cmd_eval, "solve one row of coins given on the command line or standard input",
     "eval [--variant total|diff|remaining|winner|all] [--moves fast|canonical|none]\n"
     "            [--algo auto|linear|dp|naive] [--json] [--] [VALUES...]",
     "Values are integers separated by white space, commas or semicolons; with none\n"
     "on the command line they are read from standard input.  Put '--' before values\n"
     "that start with '-':  coinrow eval --json -- -3 5 -1\n"
     "Exit status: 0 solved, 1 bad input or overflow, 2 usage."},
    {"run", cmd_run, "ingest inputs into a set, then solve the set in a new run",
     "run INPUT... [--db PATH] [--set NAME] [--variant LIST|all] [--moves fast|canonical|none]\n"
     "            [--algo auto|linear|dp|naive] [--jobs N] [--label TEXT] [--format FMT]\n"
     "            [--id-col NAME] [--values-col NAME] [--quiet | --progress]\n"
     "       coinrow run --from-db FILE --table NAME [OPTIONS]",
     "The main job: 'coinrow ingest' and 'coinrow solve' in one pass, reading, solving and\n"
     "writing at once.  A run covers every instance of its set.  Results go to the tables\n"
     "result and result_view of the database; see 'coinrow help ingest' for the inputs.\n"
     "Ctrl-C (or SIGTERM) stops cleanly: what is in hand is written and committed, and\n"
     "the run can be finished with 'coinrow solve --resume'.\n" BATCH_EXIT_HELP},
    {"ingest", cmd_ingest, "store instances from CSV, TSV, contest files or a SQLite table",
     "ingest INPUT... [--db PATH] [--set NAME] [--format auto|csv|tsv|wide|contest]\n"
     "            [--id-col NAME] [--values-col NAME] [--quiet | --progress]\n"
     "       coinrow ingest --from-db FILE --table NAME [--id-col NAME] [--values-col NAME]\n"
     "            [--db PATH] [--set NAME]",
     "INPUT is a file, a folder (its .csv, .tsv and .in files in name order) or '-' for\n"
     "standard input.  CSV and TSV have a header row: the id column is 'id' (else ids\n"
     "are data row numbers), the values column 'values', 'coins', 'piles' or 'stones',\n"
     "with integers separated by spaces, commas or semicolons, or a JSON array; a column\n"
     "'n', when there is one, must match the count.  --format wide: every column but the\n"
     "id is one coin.  Contest files (.in): n, then n integers; the id is the file name.\n"
     "A row that cannot be read is recorded in the table ingest_error (source, line, id,\n"
     "reason, raw text) and the rest goes on.  Ingesting the same rows again stores\n"
     "nothing twice; an id the set has with other coins is rejected.\n" BATCH_EXIT_HELP},
    {"solve", cmd_solve, "solve every instance of a set in a new run, or resume a run",
     "solve [--db PATH] [--set NAME] [--variant LIST|all] [--moves fast|canonical|none]\n"
     "            [--algo auto|linear|dp|naive] [--jobs N] [--label TEXT] [--quiet | --progress]\n"
     "       coinrow solve --resume [RUN_ID] [--db PATH]\n"
     "       coinrow solve --shard K/N --out SHARD.db --run-tag TAG [--db INPUT.db] [--set NAME] [OPTIONS]",
     "--resume finishes the named run, or the latest one that is not done, with its own\n"
     "options: instances it has solved are not solved or written again.\n"
     "--shard K/N solves the instances of shard K (0-based) of N of the set, read from\n"
     "--db (never written), into SHARD.db: instance (set S, id E) is in shard\n"
     "FNV-1a-64(S, a zero byte, E) mod N.  Run again after a kill, it goes on where it\n"
     "stopped.  'coinrow merge' puts a job's shards (same TAG) back together.\n" BATCH_EXIT_HELP},
    {"show", cmd_show, "print the first results of a run",
     "show [--db PATH] [--run ID] [--limit N]",
     "Rows of result_view in instance order; for anything more, query the database\n"
     "with SQL (see the README)."},
    {"generate", cmd_generate, "make a reproducible set of instances for judges or stress tests",
     "generate [--db PATH] --set NAME --count K --n MIN[..MAX] --values MIN..MAX --seed S\n"
     "            [--profile NAME] [--even-n] [--odd-sum] [--out FILE|-] [--quiet | --progress]",
     "The same arguments give the same bytes on every machine; instance k depends\n"
     "only on them and k.  Ids are k + 1 zero-padded to the width of K (01, 02, ...).\n"
     "Profiles: random, sorted, reversed, equal, zigzag, antigreedy (greedy loses,\n"
     "optimal play wins; even n >= 4), peaks, extreme (values at the range limits),\n"
     "small (instance k has the k-th size of MIN..MAX in turn).  See the README.\n"
     "The set is stored in the database with its arguments (the column generator of\n"
     "instance_set); the same command again changes nothing, and the name of a set made\n"
     "otherwise is refused.  --out writes CSV instead (id,values), '-' to standard output.\n"
     "Exit status: 0 done, 1 could not write or the set exists with other arguments,\n"
     "2 usage or constraints no instance meets, 130 interrupted (the same command again\n"
     "completes the set)."},
    {"export", cmd_export, "write a set's tests and answers as a Kattis, Polygon, CMS or plain package",
     "export [--db PATH] --set NAME --variant V --format kattis|polygon|cms|plain --out DIR\n"
     "            [--moves canonical|none] [--samples K] [--zip] [--force]",
     "Inputs in the contest format; answers hold the value (and with --moves canonical\n"
     "the canonical line of play) from the latest done run of the set that has them for\n"
     "every instance, else from a new run solved first; stderr names the run.  kattis:\n"
     "problem.yaml, data/sample, data/secret, input_validators, output_validators (DIR's\n"
     "name is the short name: lowercase letters and digits); polygon: problem.xml, tests/,\n"
     "files/check.c, files/val.c; cms: task.yaml, input/, output/, check/checker.c;\n"
     "plain: ID.in and ID.ans.  The package is written beside DIR and renamed into place.\n"
     "Exit status: 0 written, 1 refused or failed (the message says why), 2 usage,\n"
     "130 interrupted while solving."},
    {"validate", cmd_validate, "strict check of a contest input file (testlib or Kattis statuses)",
     "validate --n MIN..MAX --values MIN..MAX [--even-n] [--odd-sum] [--kattis] [FILE]",
     "The file (standard input without FILE) must be n on the first line, then the\n"
     "n values separated by single spaces, each line ending in LF, nothing else;\n"
     "numbers plain (no '+', no leading zeros, no -0).  The message names the line,\n"
     "the column and the token.\n"
     "Exit status: 0 valid, 3 invalid (42 / 43 with --kattis), 1 unreadable, 2 usage."},
    {"check", cmd_check, "judge a contestant's answer (testlib, Kattis or CMS convention)",
     "check --variant V [--moves required|ignored] INPUT CONTESTANT_OUTPUT JURY_ANSWER\n"
     "       coinrow check --variant V [--moves ...] --kattis INPUT JURY_ANSWER FEEDBACK_DIR < OUTPUT\n"
     "       coinrow check --variant V [--moves ...] --cms INPUT JURY_ANSWER CONTESTANT_OUTPUT",
     "An answer is the value, then (--moves required) the line of play as L/R letters;\n"
     "any white space separates them.  A line is accepted when it is legal and every\n"
     "move in it is optimal; the message names the first bad turn.  The value is\n"
     "computed from INPUT and must match the jury's answer.\n"
     "Exit status: testlib 0 accepted, 1 wrong answer, 2 presentation error, 3 fail\n"
     "(jury answer wrong or unreadable, bad command line); --kattis 42 accepted, 43\n"
     "wrong, 1 judge error, judgemessage.txt in FEEDBACK_DIR; --cms 0 with 1.0 or 0.0\n"
     "on standard output and one message line on standard error, 1 judge error."},
    {"merge", cmd_merge, "merge the shard databases of one job into one run",
     "merge [--db INTO.db] SHARD.db...",
     "The shards (from 'coinrow solve --shard K/N --run-tag TAG') must be one job's:\n"
     "the same tag, set and options, every shard 0..N-1 once and done.  Together they\n"
     "must cover the set exactly once; a set INTO.db holds already must be the data\n"
     "they were made from.  All or nothing: one transaction, and nothing is written\n"
     "when a shard is missing, given twice or a stranger.  A job merged before is not\n"
     "merged again.\n"
     "Exit status: 0 merged (or merged before), 1 refused or an error, 2 usage."},
    {"check-db", cmd_check_db, "check a database: SQLite's integrity check and coinrow's invariants",
     "check-db [--db PATH]",
     "PRAGMA integrity_check, then coinrow's invariants: every result has its run and an\n"
     "instance of the run's set; every instance a run solved has exactly the run's\n"
     "variants; a done run has every instance of its set up to the last it solved; no\n"
     "set or instance name is empty or holds a NUL byte.  One line per check: ok, or\n"
     "what it found.  The database is only read.  (export and merge run SQLite's quick\n"
     "check first and refuse a damaged database.)\n"
     "Exit status: 0 every check passed, 1 a check found problems (or the database\n"
     "cannot be read), 2 usage."},
    {"compare", cmd_compare, "compare two runs: regressions, missing results, speed",
     "compare [--db PATH] RUN_A RUN_B [--strict-moves] [--limit N] [--json] [--record]\n"
     "       coinrow compare --db A.db --against B.db [--run-a ID] [--run-b ID] [OPTIONS]",
     "Results are matched by set name, external id and variant (the variants both runs\n"
     "have), streaming both sides.  Each pair is same; equivalent (equal figures, lines\n"
     "that differ but are both legal and optimal, checked with the verifier: not a\n"
     "regression unless --strict-moves); regression (figures differ, a line is illegal\n"
     "or not optimal, or only one side failed); missing on one side; or changed (the\n"
     "instance's coins differ: not compared).  Without run ids --against takes the\n"
     "latest done run of each database.\n"
     "Exit status: 0 no regression and nothing missing or changed, 1 otherwise or an\n"
     "error, 2 usage."},
    {"stress", cmd_stress, "cross-check algorithms on random rows; shrink the first disagreement",
     "stress [--algos linear,dp,naive] [--variant LIST|all] [--moves fast|canonical]\n"
     "              --count K --n MIN..MAX --values MIN..MAX --seed S",
     "Each random row (the generator of 'coinrow generate', profile random) is solved\n"
     "with every listed algorithm: all values, winners and errors must agree, and\n"
     "every line must pass the verifier and replay to its scores.  The first row\n"
     "that fails is shrunk (coins dropped, values moved towards zero, while it still\n"
     "fails) and printed as 'coinrow eval' command lines.\n"
     "Exit status: 0 all agree, 1 a disagreement (or an error), 2 usage."},
};

static const size_t command_count = sizeof commands / sizeof commands[0];

static const cli_command *find_command(const char *name)
{
    for (size_t i = 0; i < command_count; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

static void print_overview(FILE *to)
{
    fprintf(to, "usage: coinrow COMMAND [OPTIONS] [ARGS]\n\n"
                "Solves the two-player \"coins in a row\" game in bulk.\n\ncommands:\n");
    for (size_t i = 0; i < command_count; i++)
        fprintf(to, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(to, "  %-10s %s\n", "help", "show the help of a command: coinrow help COMMAND");
    fprintf(to, "\n'coinrow COMMAND --help' for a command's options; 'coinrow --version'.\n");
}

/* `coinrow help [COMMAND]` */
static int help(int argc, char **argv)
{
    if (argc < 3) {
        print_overview(stdout);
        return CR_EXIT_OK;
    }
    const cli_command *cmd = find_command(argv[2]);
    if (!cmd) {
        cli_fail("no command '%s'; 'coinrow help' lists them", argv[2]);
        return CR_EXIT_USAGE;
    }
    char *help_argv[] = {argv[2], "--help", NULL};
    return cmd->run(cmd, 2, help_argv);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        print_overview(stderr);
        return CR_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "help") == 0 || strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0)
        return help(argc, argv);
    if (strcmp(name, "--version") == 0) {
        printf("coinrow %s\n", cli_version());
        return CR_EXIT_OK;
    }
    const cli_command *cmd = find_command(name);
    if (!cmd) {
        cli_fail("no command '%s'; 'coinrow help' lists them", name);
        return CR_EXIT_USAGE;
    }
    return cmd->run(cmd, argc - 1, argv + 1);
}

/* The command-line layer: subcommands, option tables, exit statuses.
 * Only this layer prints to the user and picks exit codes. */
#ifndef CR_CLI_H
#define CR_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "coinrow/contest.h"
#include "coinrow/error.h"

/* Exit statuses shared by every command. */
enum {
    CR_EXIT_OK = 0,
    CR_EXIT_FATAL = 1,       /* the message says what and where */
    CR_EXIT_USAGE = 2,       /* bad command line; a hint follows */
    CR_EXIT_REJECTED = 3,    /* done, but some input was rejected */
    CR_EXIT_INTERRUPTED = 130
};

/* The commands that compare (compare, stress) exit as diff(1) does. */
enum {
    CR_EXIT_SAME = 0,      /* no difference */
    CR_EXIT_DIFFERENT = 1, /* differences: regressions, disagreements */
    CR_EXIT_TROUBLE = 2    /* a usage error, or anything that stopped the command */
};

/* One option of a command, as data: parsing, --help, the man page and the
 * shell completion are all made from the same tables.  The value goes into
 * the command's arguments struct at `offset`: a const char * for an option
 * that takes an argument, an int set to 1 for a flag. */
typedef struct cli_option {
    const char *name; /* without the dashes: "variant" */
    const char *arg;  /* the argument's name in --help: "LIST"; NULL for flags */
    const char *help; /* one line */
    size_t offset;
    /* The values it takes, from a table of the layer below (NULL: any):
     * the k-th value's name and one line on it in *out_line, NULL after the
     * last.  --help and the man page list them, and the completion offers
     * them. */
    const char *(*choices)(size_t k, const char **out_line);
} cli_option;

/* An option taking an argument, one taking a value of choices, and a flag,
 * of the arguments struct T. */
#define CLI_TEXT(T, field, name_, arg_, help_) {.name = name_, .arg = arg_, .help = help_, .offset = offsetof(T, field)}
#define CLI_CHOICE(T, field, name_, arg_, help_, choices_)                                                              \
    {.name = name_, .arg = arg_, .help = help_, .offset = offsetof(T, field), .choices = choices_}
#define CLI_FLAG(T, field, name_, help_) {.name = name_, .help = help_, .offset = offsetof(T, field)}

/* The most options a command has. */
#define CLI_OPTIONS_MAX 48

typedef struct cli_command {
    const char *name;
    int (*run)(const struct cli_command *self, int argc, char **argv);
    const char *summary;        /* one line for `coinrow help` */
    const char *usage;          /* the synopsis after "usage: coinrow " */
    const char *details;        /* paragraphs after the options, or NULL */
    const cli_option *options;  /* terminated by a zeroed entry */
} cli_command;

/* What coinrow is, in one line, for `coinrow help` and the man page. */
extern const char cli_about[];

/* Every command, in the order `coinrow help` lists them (commands.c). */
extern const cli_command *const cli_commands[];
extern const size_t cli_command_count;

/* The command called name, or NULL. */
const cli_command *cli_command_find(const char *name);

/* Parses argv[1..argc) against cmd's options into args, the command's
 * arguments struct: options may come as --name VALUE or --name=VALUE (a
 * value never empty), anywhere; "--" ends them.  The other arguments are moved to the front of
 * argv, their count stored in *out_npos.  Returns -1 to go on, or an exit
 * status to return at once: CR_EXIT_OK after printing --help, CR_EXIT_USAGE
 * after a usage error. */
int cli_parse(int *out_npos, const cli_command *cmd, void *args, int argc, char **argv);

/* cli_parse, also telling how many of the other arguments came after "--"
 * (*out_ncommand, the last of them): for a command line that ends in a
 * command to run. */
int cli_parse_command(int *out_npos, int *out_ncommand, const cli_command *cmd, void *args, int argc, char **argv);

/* cli_parse for a command that takes no positional argument: -1 to go on,
 * or the exit status to return (a usage error naming a stray argument). */
int cli_parse_options(const cli_command *cmd, void *args, int argc, char **argv);

/* Prints the command's --help to stdout. */
void cli_print_help(const cli_command *cmd);

/* A command for people to read and paste, written to f: its words as a
 * shell reads them back, escaped for the terminal (cr_text_put_word). */
void cli_print_command(FILE *f, char *const *argv);

/* "coinrow: <message>" on stderr; what the message quotes of a file or a
 * database is escaped for the terminal (cr_text_put). */
void cli_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A usage error: the message and a hint on stderr; returns CR_EXIT_USAGE. */
int cli_usage_error(const cli_command *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prints err as "coinrow: <msg>" and returns the exit status for its code. */
int cli_report(const cr_error *err);

/* Prints err as cli_report does, for a command that compares: returns
 * CR_EXIT_TROUBLE, whatever stopped it. */
int cli_report_trouble(const cr_error *err);

/* Parses an unsigned decimal (digits only) such as a count or a seed;
 * CR_EINVAL naming `what` (the option) otherwise. */
int cli_u64_parse(uint64_t *out, const char *text, const char *what, cr_error *err);

/* Parses a decimal integer in [min, max] (the core's cr_int64_parse, then
 * the range), without a sign when min >= 0 (a count, a limit, points):
 * 0, or -1 for anything else. */
int cli_int_parse(int64_t *out, const char *text, int64_t min, int64_t max);

/* Parses a shard's "K/N": two numbers without sign or blank (the core's
 * cr_int64_parse), 0 <= K < N <= UINT32_MAX.  0, or -1 for anything else. */
int cli_shard_parse(uint32_t *out_k, uint32_t *out_n, const char *text);

/* Parses "MIN..MAX" (or "N", meaning N..N) of 64-bit integers; CR_EINVAL
 * naming `what` when it is malformed or empty. */
int cli_range_parse(int64_t *out_min, int64_t *out_max, const char *text, const char *what, cr_error *err);

/* The problem's constraints from the texts of --n and --values and the flags
 * --even-n and --odd-sum; CR_EINVAL naming the option at fault. */
int cli_constraints_parse(cr_constraints *out, const char *n, const char *values, int even_n, int odd_sum,
                          cr_error *err);

/* The commands, one file each: cmd_<name>.c in batch/ (sets and runs:
 * docs/batch.md, compare.md, scaling.md, report.md) or in judges/ (judge
 * test data and judging programs: docs/judges.md, invoke.md). */
extern const cli_command cli_cmd_eval, cli_cmd_run, cli_cmd_ingest, cli_cmd_solve, cli_cmd_show, cli_cmd_report,
    cli_cmd_generate, cli_cmd_export, cli_cmd_validate, cli_cmd_check, cli_cmd_invoke, cli_cmd_strength, cli_cmd_merge,
    cli_cmd_compare, cli_cmd_stress, cli_cmd_check_db, cli_cmd_upgrade;

/* coinrow as the init of invoke --sandbox's sandbox (cr_sandbox_init),
 * argv[0] being CR_SANDBOX_INIT: 0 once it reported to the coinrow
 * outside, else CR_EXIT_TROUBLE, saying why on stderr (which that coinrow
 * reads). */
int cli_sandbox_init(int argc, char **argv);

/* The program's version, "git describe" at build time. */
const char *cli_version(void);

#endif

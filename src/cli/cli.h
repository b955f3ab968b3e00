/* The command-line layer: subcommands, option tables, exit statuses.
 * Only this layer prints to the user and picks exit codes. */
#ifndef CR_CLI_H
#define CR_CLI_H

#include <stddef.h>
#include <stdint.h>

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

/* One option of a command.  Exactly one of `value` (an option taking an
 * argument) and `flag` (set to 1 when present) is set. */
typedef struct cli_option {
    const char *name; /* without the dashes: "variant" */
    const char *arg;  /* the argument's name in --help: "LIST"; NULL for flags */
    const char *help; /* one line */
    const char **value;
    int *flag;
} cli_option;

typedef struct cli_command {
    const char *name;
    int (*run)(const struct cli_command *self, int argc, char **argv);
    const char *summary; /* one line for `coinrow help` */
    const char *usage;   /* the synopsis after "usage: coinrow " */
    const char *details; /* paragraphs after the options, or NULL */
} cli_command;

/* Parses argv[1..argc) against opts (terminated by a zeroed entry):
 * options may come as --name VALUE or --name=VALUE (never empty), anywhere;
 * "--" ends them.
 * The other arguments are moved to the front of argv, their count stored in
 * *out_npos.  Returns -1 to go on, or an exit status to return at once:
 * CR_EXIT_OK after printing --help, CR_EXIT_USAGE after a usage error. */
int cli_parse(int *out_npos, const cli_command *cmd, const cli_option *opts, int argc, char **argv);

/* cli_parse for a command that takes no positional argument: -1 to go on,
 * or the exit status to return (a usage error naming a stray argument). */
int cli_parse_options(const cli_command *cmd, const cli_option *opts, int argc, char **argv);

/* Prints the command's --help to stdout. */
void cli_print_help(const cli_command *cmd, const cli_option *opts);

/* "coinrow: <message>" on stderr. */
void cli_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A usage error: the message and a hint on stderr; returns CR_EXIT_USAGE. */
int cli_usage_error(const cli_command *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prints err as "coinrow: <msg>" and returns the exit status for its code. */
int cli_report(const cr_error *err);

/* Parses an unsigned decimal (digits only) such as a count or a seed;
 * CR_EINVAL naming `what` (the option) otherwise. */
int cli_u64_parse(uint64_t *out, const char *text, const char *what, cr_error *err);

/* Parses a decimal integer in [min, max] (the core's cr_int64_parse, then
 * the range): 0, or -1 for anything else. */
int cli_int_parse(int64_t *out, const char *text, int64_t min, int64_t max);

/* Parses "MIN..MAX" (or "N", meaning N..N) of 64-bit integers; CR_EINVAL
 * naming `what` when it is malformed or empty. */
int cli_range_parse(int64_t *out_min, int64_t *out_max, const char *text, const char *what, cr_error *err);

/* The problem's constraints from the texts of --n and --values and the flags
 * --even-n and --odd-sum; CR_EINVAL naming the option at fault. */
int cli_constraints_parse(cr_constraints *out, const char *n, const char *values, int even_n, int odd_sum,
                          cr_error *err);

/* The commands, one file each (cmd_<name>.c). */
int cmd_eval(const cli_command *self, int argc, char **argv);
int cmd_ingest(const cli_command *self, int argc, char **argv);
int cmd_solve(const cli_command *self, int argc, char **argv);
int cmd_run(const cli_command *self, int argc, char **argv);
int cmd_show(const cli_command *self, int argc, char **argv);
int cmd_generate(const cli_command *self, int argc, char **argv);
int cmd_export(const cli_command *self, int argc, char **argv);
int cmd_validate(const cli_command *self, int argc, char **argv);
int cmd_check(const cli_command *self, int argc, char **argv);
int cmd_stress(const cli_command *self, int argc, char **argv);
int cmd_compare(const cli_command *self, int argc, char **argv);
int cmd_merge(const cli_command *self, int argc, char **argv);
int cmd_check_db(const cli_command *self, int argc, char **argv);

/* The program's version, "git describe" at build time. */
const char *cli_version(void);

#endif

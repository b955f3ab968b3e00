/* coinrow's entry point: the table of subcommands and the help around it. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static const cli_command commands[] = {
    {"eval", cmd_eval, "solve one row of coins given on the command line or standard input",
     "eval [--variant total|diff|remaining|winner|all] [--moves fast|canonical|none]\n"
     "            [--algo auto|linear|dp|naive] [--json] [--] [VALUES...]",
     "Values are integers separated by white space, commas or semicolons; with none\n"
     "on the command line they are read from standard input.  Put '--' before values\n"
     "that start with '-':  coinrow eval --json -- -3 5 -1\n"
     "Exit status: 0 solved, 1 bad input or overflow, 2 usage."},
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

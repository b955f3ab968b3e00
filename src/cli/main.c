/* coinrow's entry point: a command from the table (commands.c), and the
 * help around them. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "invoke/invoke.h"

static void print_overview(FILE *to)
{
    fprintf(to, "usage: coinrow COMMAND [OPTIONS] [ARGS]\n\n%s\n\ncommands:\n", cli_about);
    for (size_t i = 0; i < cli_command_count; i++)
        fprintf(to, "  %-10s %s\n", cli_commands[i]->name, cli_commands[i]->summary);
    fprintf(to, "  %-10s %s\n", "help", "show the help of a command: coinrow help COMMAND");
    fprintf(to, "\n'coinrow COMMAND --help' for a command's options; 'coinrow --version'.\n");
}

/* `coinrow help [COMMAND]` (help help: the overview, which says what help does) */
static int help(int argc, char **argv)
{
    if (argc < 3 || strcmp(argv[2], "help") == 0) {
        print_overview(stdout);
        return CR_EXIT_OK;
    }
    const cli_command *cmd = cli_command_find(argv[2]);
    if (!cmd) {
        cli_fail("no command '%s'; 'coinrow help' lists them", argv[2]);
        return CR_EXIT_USAGE;
    }
    char *help_argv[] = {argv[2], "--help", NULL};
    return cmd->run(cmd, 2, help_argv);
}

/* Runs the command of argv; its exit status, and the command in *out_cmd
 * (NULL for help and --version). */
static int run(const cli_command **out_cmd, int argc, char **argv)
{
    *out_cmd = NULL;
    if (argc < 2) {
        print_overview(stderr);
        return CR_EXIT_USAGE;
    }
    const char *name = argv[1];
    /* coinrow as the init of invoke's sandbox (invoke/invoke.h), run there by bwrap: not a command */
    if (strcmp(name, CR_SANDBOX_INIT) == 0)
        return cli_sandbox_init(argc - 1, argv + 1);
    if (strcmp(name, "help") == 0 || strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0)
        return help(argc, argv);
    if (strcmp(name, "--version") == 0) {
        printf("coinrow %s\n", cli_version());
        return CR_EXIT_OK;
    }
    const cli_command *cmd = cli_command_find(name);
    if (!cmd) {
        cli_fail("no command '%s'; 'coinrow help' lists them", name);
        return CR_EXIT_USAGE;
    }
    *out_cmd = cmd;
    return cmd->run(cmd, argc - 1, argv + 1);
}

/* Whether what was written to standard output reached it (a full disk, a
 * closed pipe): a command whose output is lost has failed, as ls says. */
static int stdout_written(void)
{
    int failed = ferror(stdout);
    errno = 0;
    if (fflush(stdout) != 0)
        failed = 1;
    else if (failed)
        errno = 0; /* the cause went by with an earlier write */
    int why = errno;
    if (fclose(stdout) != 0 && errno != EBADF) /* EBADF: closed, and nothing written */
        failed = 1, why = why ? why : errno;
    if (failed)
        cli_fail("cannot write to standard output%s%s", why ? ": " : "", why ? strerror(why) : "");
    return !failed;
}

int main(int argc, char **argv)
{
    const cli_command *cmd;
    int status = run(&cmd, argc, argv);
    if (stdout_written())
        return status;
    /* its output lost, a command that succeeded has failed; a comparison's
     * 0 and 1 (differences, verdicts not as expected, a strategy that
     * survives) both promised its whole output */
    if (cmd == &cli_cmd_compare || cmd == &cli_cmd_stress || cmd == &cli_cmd_invoke || cmd == &cli_cmd_strength)
        return CR_EXIT_TROUBLE;
    return status == CR_EXIT_OK || status == CR_EXIT_REJECTED ? CR_EXIT_FATAL : status;
}

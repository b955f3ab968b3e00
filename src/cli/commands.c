/* The table of commands, in the order `coinrow help` lists them: the data
 * that main, --help, the man page and the shell completion share. */
#include <string.h>

#include "cli/cli.h"

const char cli_about[] = "Solves the two-player \"coins in a row\" game in bulk.";

const cli_command *const cli_commands[] = {
    &cli_cmd_eval,    &cli_cmd_run,      &cli_cmd_ingest, &cli_cmd_solve,  &cli_cmd_show,     &cli_cmd_report,
    &cli_cmd_generate, &cli_cmd_export,  &cli_cmd_validate, &cli_cmd_check, &cli_cmd_invoke, &cli_cmd_strength,
    &cli_cmd_merge,   &cli_cmd_compare,  &cli_cmd_stress, &cli_cmd_check_db, &cli_cmd_upgrade,
};

const size_t cli_command_count = sizeof cli_commands / sizeof cli_commands[0];

const cli_command *cli_command_find(const char *name)
{
    for (size_t i = 0; i < cli_command_count; i++)
        if (strcmp(cli_commands[i]->name, name) == 0)
            return cli_commands[i];
    return NULL;
}

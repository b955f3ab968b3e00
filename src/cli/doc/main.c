/* coinrow-doc: the man page and the bash completion of coinrow, written at
 * build time from the tables --help prints (commands.c and each command's
 * options), so that they cannot drift from the program.
 *   coinrow-doc man VERSION DATE > coinrow.1
 *   coinrow-doc bash > coinrow.bash */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

/* text[0..len) with roff's escapes for backslashes and hyphens; returns
 * how many bytes it wrote. */
static size_t put_escaped(const char *text, size_t len)
{
    size_t wrote = 0;
    for (size_t i = 0; i < len; i++) {
        int special = text[i] == '\\' || text[i] == '-';
        if (special)
            putchar('\\');
        putchar(text[i] == '\\' ? 'e' : text[i]);
        wrote += 1 + (size_t)special;
    }
    return wrote;
}

/* Lines of roff at most this long (mandoc's style). */
#define ROFF_WIDTH 78

/* text as roff: escaped, a line that would start with a control character
 * protected.  Filled text is rewrapped into short lines, one sentence
 * starting each (roff fills them again), and a source line that starts
 * "Exit status" opens a paragraph of its own; otherwise the lines stay as
 * they are. */
static void put_roff(const char *text, int fill)
{
    size_t column = 0;
    for (const char *p = text; *p;) {
        int line_start = p == text || p[-1] == '\n';
        size_t len = fill ? strcspn(p, " \n") : strcspn(p, "\n");
        if (fill && line_start && p != text && strncmp(p, "Exit status", 11) == 0) {
            fputs(column ? "\n.PP\n" : ".PP\n", stdout);
            column = 0;
        }
        if (len > 0) {
            if (column && column + 1 + len > ROFF_WIDTH) {
                putchar('\n');
                column = 0;
            } else if (column) {
                putchar(' ');
                column++;
            }
            if (column == 0 && (*p == '.' || *p == '\'')) {
                fputs("\\&", stdout);
                column += 2;
            }
            column += put_escaped(p, len);
            if (fill && strchr(".?!", p[len - 1]) && p[len] == ' ' && p[len + 1] == ' ') {
                putchar('\n'); /* a new sentence on a new line, as roff wants it */
                column = 0;
            }
        }
        p += len;
        if (*p == '\n' && !fill) {
            putchar('\n');
            column = 0;
        }
        if (*p)
            p++;
    }
    if (column)
        putchar('\n');
}

static void put_command(const cli_command *cmd)
{
    printf(".SS %s\n", cmd->name);
    put_roff(cmd->summary, 1);
    /* the synopsis, its lines aligned for "usage: coinrow " in --help */
    fputs(".PP\n.nf\n\\fBcoinrow\\fR ", stdout);
    for (const char *line = cmd->usage; *line;) {
        size_t len = strcspn(line, "\n"), usage_width = sizeof "usage: " - 1;
        if (line != cmd->usage && strspn(line, " ") >= usage_width)
            line += usage_width, len -= usage_width;
        put_escaped(line, len);
        putchar('\n');
        line += len + (line[len] == '\n');
    }
    fputs(".fi\n", stdout);
    for (const cli_option *o = cmd->options; o->name; o++) {
        fputs(".TP\n\\fB\\-\\-", stdout);
        put_escaped(o->name, strlen(o->name));
        fputs("\\fR", stdout);
        if (o->arg) {
            fputs(" \\fI", stdout);
            put_escaped(o->arg, strlen(o->arg));
            fputs("\\fR", stdout);
        }
        putchar('\n');
        put_roff(o->help, 1);
    }
    fputs(".TP\n\\fB\\-\\-help\\fR\nshow this help\n", stdout);
    for (const cli_option *o = cmd->options; o->name; o++) {
        if (!o->choices)
            continue;
        fputs(".PP\n\\fI", stdout);
        put_escaped(o->arg, strlen(o->arg));
        fputs("\\fR (\\fB\\-\\-", stdout);
        put_escaped(o->name, strlen(o->name));
        fputs("\\fR) is one of:\n", stdout);
        const char *value, *line;
        for (size_t k = 0; (value = o->choices(k, &line)) != NULL; k++) {
            fputs(".TP\n\\fB", stdout);
            put_escaped(value, strlen(value));
            fputs("\\fR\n", stdout);
            put_roff(line, 1);
        }
    }
    if (cmd->details) {
        fputs(".PP\n", stdout);
        put_roff(cmd->details, 1);
    }
}

/* What every command's exit status means (each command's details add its own). */
static const char exit_statuses[] =
    "0 done; 1 a fatal error, whose message says what and where; 2 a usage error; 3 done, but some input rows\n"
    "were rejected (each is kept in the table ingest_error); 130 interrupted, after a clean stop.\n"
    "compare and stress exit as diff(1) does: 0 no difference, 1 differences, 2 trouble.\n"
    "validate and check exit as the judging systems expect (see them above).";

static int write_man(const char *version, const char *date)
{
    printf(".\\\" coinrow(1), written by coinrow-doc from the command tables of src/cli; do not edit\n"
           ".TH COINROW 1 %s \"coinrow %s\" \"User Commands\"\n",
           date, version);
    fputs(".SH NAME\ncoinrow \\- solve the two\\-player \"coins in a row\" game in bulk\n"
          ".SH SYNOPSIS\n.B coinrow\n.I command\n.RI [ options ]\n.RI [ arguments ]\n.br\n"
          ".B coinrow help\n.RI [ command ]\n.br\n.B coinrow \\-\\-version\n"
          ".SH DESCRIPTION\n",
          stdout);
    put_roff(cli_about, 1);
    fputs(".PP\nOptions come as \\fB\\-\\-name\\fR \\fIvalue\\fR or \\fB\\-\\-name=\\fR\\fIvalue\\fR,\n"
          "anywhere on the line; \\fB\\-\\-\\fR ends them.\n"
          "\\fBcoinrow help\\fR \\fIcommand\\fR and \\fBcoinrow\\fR \\fIcommand\\fR \\fB\\-\\-help\\fR\n"
          "print what this page says of a command.\n"
          ".SH COMMANDS\n",
          stdout);
    for (size_t i = 0; i < cli_command_count; i++)
        put_command(cli_commands[i]);
    fputs(".SH EXIT STATUS\n", stdout);
    put_roff(exit_statuses, 1);
    fputs(".SH SEE ALSO\n.BR sqlite3 (1)\n", stdout);
    return ferror(stdout) ? 1 : 0;
}

static int write_bash(void)
{
    fputs("# bash completion for coinrow, written by coinrow-doc from the command tables of src/cli\n"
          "_coinrow()\n{\n    local cur=${COMP_WORDS[COMP_CWORD]} commands=\"",
          stdout);
    for (size_t i = 0; i < cli_command_count; i++)
        printf("%s ", cli_commands[i]->name);
    fputs("help\"\n"
          "    if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
          "        COMPREPLY=($(compgen -W \"$commands --help --version\" -- \"$cur\"))\n"
          "        return\n"
          "    fi\n"
          "    local options prev=${COMP_WORDS[COMP_CWORD-1]}\n"
          "    case ${COMP_WORDS[1]}:$prev in\n",
          stdout);
    /* the values of an option that takes one of a table's */
    for (size_t i = 0; i < cli_command_count; i++)
        for (const cli_option *o = cli_commands[i]->options; o->name; o++) {
            if (!o->choices)
                continue;
            printf("    %s:--%s) COMPREPLY=($(compgen -W \"", cli_commands[i]->name, o->name);
            const char *value, *line;
            for (size_t k = 0; (value = o->choices(k, &line)) != NULL; k++)
                printf("%s%s", k ? " " : "", value);
            fputs("\" -- \"$cur\")); return ;;\n", stdout);
        }
    fputs("    esac\n"
          "    case ${COMP_WORDS[1]} in\n",
          stdout);
    for (size_t i = 0; i < cli_command_count; i++) {
        printf("    %s) options=\"", cli_commands[i]->name);
        for (const cli_option *o = cli_commands[i]->options; o->name; o++)
            printf("--%s ", o->name);
        fputs("--help\" ;;\n", stdout);
    }
    fputs("    help)\n"
          "        [ \"$COMP_CWORD\" -eq 2 ] && COMPREPLY=($(compgen -W \"$commands\" -- \"$cur\"))\n"
          "        return\n"
          "        ;;\n"
          "    *) return ;;\n"
          "    esac\n"
          "    case $cur in\n"
          "    -*) COMPREPLY=($(compgen -W \"$options\" -- \"$cur\")) ;;\n"
          "    *) COMPREPLY=() ;; # files, by complete -o default\n"
          "    esac\n"
          "}\n"
          "complete -o default -F _coinrow coinrow\n",
          stdout);
    return ferror(stdout) ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "man") == 0)
        return write_man(argv[2], argv[3]);
    if (argc == 2 && strcmp(argv[1], "bash") == 0)
        return write_bash();
    fputs("usage: coinrow-doc man VERSION DATE | coinrow-doc bash\n", stderr);
    return 2;
}

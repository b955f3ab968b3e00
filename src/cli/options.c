/* Option tables: parsing and --help from one description, and the messages
 * of usage errors and failures. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/signals.h"
#include "util/util.h"

/* "coinrow: MESSAGE" and a line end; the message is one line, and what it
 * quotes of a file, a database or the command line reaches the terminal
 * escaped (cr_text_put): every message goes out here. */
__attribute__((format(printf, 1, 0))) static void vfail(const char *fmt, va_list ap)
{
    char small[512], *text = small;
    va_list again;
    va_copy(again, ap);
    int len = vsnprintf(small, sizeof small, fmt, ap);
    if (len >= (int)sizeof small && (text = malloc((size_t)len + 1)) != NULL)
        vsnprintf(text, (size_t)len + 1, fmt, again);
    else if (len >= (int)sizeof small)
        text = small; /* no memory for all of it: its start */
    va_end(again);
    fputs("coinrow: ", stderr);
    cr_text_put(stderr, len < 0 ? "" : text);
    cli_signals_check_write(fputc('\n', stderr) == EOF ? -1 : 0); /* the reader gone: a stop */
    if (text != small)
        free(text);
}

void cli_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(fmt, ap);
    va_end(ap);
}

void cli_print_command(FILE *f, char *const *argv)
{
    for (char *const *a = argv; *a; a++) {
        if (a != argv)
            fputc(' ', f);
        cr_text_put_word(f, *a);
    }
}

int cli_usage_error(const cli_command *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(fmt, ap);
    va_end(ap);
    fprintf(stderr, "usage: coinrow %s\nTry 'coinrow %s --help' for more.\n", cmd->usage, cmd->name);
    return CR_EXIT_USAGE;
}

int cli_report(const cr_error *err)
{
    cli_fail("%s", err->msg[0] ? err->msg : cr_strerror(err->code));
    return err->code == CR_EINTERRUPTED ? CR_EXIT_INTERRUPTED : CR_EXIT_FATAL;
}

int cli_report_trouble(const cr_error *err)
{
    cli_report(err);
    return CR_EXIT_TROUBLE;
}

void cli_print_help(const cli_command *cmd)
{
    printf("usage: coinrow %s\n\n%s\n", cmd->usage, cmd->summary);
    if (cmd->options && cmd->options->name) {
        printf("\noptions:\n");
        for (const cli_option *o = cmd->options; o->name; o++) {
            char left[64];
            snprintf(left, sizeof left, "--%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
            printf("  %-22s %s\n", left, o->help);
        }
    }
    printf("  %-22s %s\n", "--help", "show this help");
    for (const cli_option *o = cmd->options; o && o->name; o++) {
        if (!o->choices)
            continue;
        printf("\n%s (--%s) is one of:\n", o->arg, o->name);
        const char *value, *line;
        for (size_t k = 0; (value = o->choices(k, &line)) != NULL; k++)
            printf("  %-22s %s\n", value, line);
    }
    if (cmd->details)
        printf("\n%s\n", cmd->details);
}

static const cli_option *find(const cli_option *opts, const char *name, size_t len)
{
    for (const cli_option *o = opts; o && o->name; o++)
        if (strlen(o->name) == len && memcmp(o->name, name, len) == 0)
            return o;
    return NULL;
}

int cli_parse_command(int *out_npos, int *out_ncommand, const cli_command *cmd, void *args, int argc, char **argv)
{
    int npos = 0, options_done = 0, ncommand = 0;
    const char *given[CLI_OPTIONS_MAX] = {0}; /* each option's value so far: one given twice is refused */
    size_t count = 0;
    while (cmd->options && cmd->options[count].name)
        count++;
    if (count > CLI_OPTIONS_MAX) /* coinrow's own mistake, which every command's --help test meets */
        return cli_usage_error(cmd, "coinrow's %s has %zu options, more than CLI_OPTIONS_MAX", cmd->name, count);
    for (int i = 1; i < argc; i++) {
        char *a = argv[i];
        if (options_done || a[0] != '-' || a[1] != '-') {
            if (!options_done && a[0] == '-' && a[1] != '\0')
                return cli_usage_error(cmd, "unknown option '%s' (values that start with '-' go after '--')", a);
            argv[npos++] = a;
            ncommand += options_done;
            continue;
        }
        if (a[2] == '\0') {
            options_done = 1;
            continue;
        }
        const char *name = a + 2, *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        if (len == 4 && memcmp(name, "help", 4) == 0) {
            cli_print_help(cmd);
            return CR_EXIT_OK;
        }
        const cli_option *o = find(cmd->options, name, len);
        if (!o)
            return cli_usage_error(cmd, "unknown option '--%.*s'", (int)len, name);
        char *field = (char *)args + o->offset;
        const char **seen = &given[o - cmd->options];
        if (!o->arg) {
            if (eq)
                return cli_usage_error(cmd, "option '--%s' takes no value", o->name);
            *(int *)(void *)field = 1;
        } else if (eq) {
            *(const char **)(void *)field = eq + 1;
        } else if (i + 1 < argc) {
            *(const char **)(void *)field = argv[++i];
        } else {
            return cli_usage_error(cmd, "option '--%s' needs a value (%s)", o->name, o->arg);
        }
        /* an empty name would make a set, a file or a column of nothing */
        if (o->arg && !**(const char **)(void *)field)
            return cli_usage_error(cmd, "--%s takes %s, which cannot be empty", o->name, o->arg);
        /* the last one won, silently: --set a --set b exported b */
        if (o->arg && *seen)
            return cli_usage_error(cmd, "--%s is given twice ('%s', then '%s'): give it once", o->name, *seen,
                                   *(const char **)(void *)field);
        if (o->arg)
            *seen = *(const char **)(void *)field;
    }
    /* the usage lines show [--quiet | --progress]: given both, --quiet won */
    const cli_option *quiet = find(cmd->options, "quiet", 5), *progress = find(cmd->options, "progress", 8);
    if (quiet && progress && *(int *)(void *)((char *)args + quiet->offset) &&
        *(int *)(void *)((char *)args + progress->offset))
        return cli_usage_error(cmd, "--quiet and --progress ask for opposites: give one of them");
    *out_npos = npos;
    if (out_ncommand)
        *out_ncommand = ncommand;
    return -1;
}

int cli_parse(int *out_npos, const cli_command *cmd, void *args, int argc, char **argv)
{
    return cli_parse_command(out_npos, NULL, cmd, args, argc, argv);
}

int cli_parse_options(const cli_command *cmd, void *args, int argc, char **argv)
{
    int npos, status = cli_parse(&npos, cmd, args, argc, argv);
    if (status < 0 && npos > 0)
        return cli_usage_error(cmd, "unexpected argument '%s'", argv[0]);
    return status;
}

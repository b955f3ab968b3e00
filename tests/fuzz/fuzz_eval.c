/* Fuzz target: eval's command line (cli/batch/cmd_eval.c and the option parser
 * under it, run as main runs it).  The input is its arguments, separated by NUL bytes; standard
 * input is empty.
 *
 * Contract: the exit status is 0, 1 or 2; 2 (a usage error) prints the
 * usage and a hint; 1 says why in "coinrow: " lines; 0 prints results (or
 * the help), and on standard error at most "coinrow: " lines naming the
 * figures that do not fit in int64; with --json every line of a success is
 * a JSON object; whatever is printed is valid UTF-8 and holds nothing a
 * terminal would obey, whatever the arguments hold (issue 33: what the
 * arguments say is quoted escaped). */
#define _GNU_SOURCE /* memmem */
#include "cli/cli.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_ARGS = 24 };

/* Whether every line of text begins with prefix and ends in a newline. */
static int lines_say(const char *text, const char *prefix)
{
    for (const char *line = text; *line; line = strchr(line, '\n') + 1)
        if (strncmp(line, prefix, strlen(prefix)) != 0 || !strchr(line, '\n'))
            return 0;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* naive minimax is exponential in n: its rows stay small here */
    if (size > 64 && memmem(data, size, "naive", 5))
        return 0;
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    char *argv[MAX_ARGS + 2] = {"eval"};
    int argc = 1, json = 0;
    for (char *p = text; p <= text + size && argc <= MAX_ARGS; p += strlen(p) + 1) {
        argv[argc++] = p;
        json |= strcmp(p, "--json") == 0;
    }
    argv[argc] = NULL;
    FILE *in = fopen("/dev/null", "rb");
    fuzz_output io;
    fuzz_output_begin(&io, in);
    int status = cli_cmd_eval.run(&cli_cmd_eval, argc, argv);
    fuzz_output_end(&io);
    fclose(in);

    FUZZ_CHECK(fuzz_utf8_text(io.out) && fuzz_utf8_text(io.err), "output that is not UTF-8");
    FUZZ_CHECK(fuzz_terminal_safe(io.out) && fuzz_terminal_safe(io.err), "a control character printed: '%s' '%s'",
               io.out, io.err);
    switch (status) {
    case 0:
        FUZZ_CHECK(io.out[0] && lines_say(io.err, "coinrow: ") && (!io.err[0] || strstr(io.err, "fit in int64")),
                   "success with '%s' on standard error", io.err);
        for (const char *line = io.out; json && *line && !strstr(io.out, "usage:"); line = strchr(line, '\n') + 1)
            FUZZ_CHECK(line[0] == '{' && strchr(line, '\n')[-1] == '}', "not a JSON object: '%s'", line);
        break;
    case 1:
        FUZZ_CHECK(io.err[0] && lines_say(io.err, "coinrow: "), "'%s'", io.err);
        break;
    case 2:
        FUZZ_CHECK(strstr(io.err, "usage: coinrow eval") && strstr(io.err, "Try 'coinrow eval --help'"), "'%s'",
                   io.err);
        break;
    default:
        FUZZ_CHECK(0, "exit status %d", status);
    }
    fuzz_output_free(&io);
    free(text);
    return 0;
}

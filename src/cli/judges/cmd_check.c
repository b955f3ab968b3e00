/* coinrow check: judge a contestant's answer under a judging system's
 * convention (judge/judge.c, the code the exported checker runs too). */
#include "cli/cli.h"
#include "judge/judge.h"
#include "util/util.h"

typedef struct check_args {
    const char *variant, *moves;
    int kattis, cms;
} check_args;

static const cli_option options[] = {
    CLI_TEXT(check_args, variant, "variant", "V", "total, diff, remaining or winner: the value asked for (required)"),
    CLI_TEXT(check_args, moves, "moves", "POLICY", "required (default): a line of play follows the value; ignored"),
    CLI_FLAG(check_args, kattis, "kattis", "Kattis convention: INPUT JURY_ANSWER FEEDBACK_DIR < OUTPUT"),
    CLI_FLAG(check_args, cms, "cms", "CMS convention: INPUT JURY_ANSWER CONTESTANT_OUTPUT"),
    {0},
};

static int cmd_check(const cli_command *self, int argc, char **argv)
{
    check_args a = {NULL, "required", 0, 0};
    /* A bad command line must not read as a verdict: testlib's 2 is a
     * presentation error, so it is a failure (3) here under every convention. */
    int npos, status = cli_parse(&npos, self, &a, argc, argv);
    if (status >= 0)
        return status == CR_EXIT_USAGE ? CR_JUDGE_TESTLIB_FAIL : status;
    cr_error err = {0};
    cr_variant variant;
    cr_check_moves moves;
    if (!a.variant)
        cr_errorf(&err, CR_EINVAL, "--variant is required");
    else if (a.kattis && a.cms)
        cr_errorf(&err, CR_EINVAL, "--kattis and --cms exclude each other");
    else if (cr_variant_parse(&variant, a.variant, &err) == 0)
        cr_check_moves_parse(&moves, a.moves, &err);
    if (err.code) {
        cli_usage_error(self, "%s", err.msg);
        return CR_JUDGE_TESTLIB_FAIL;
    }
    return cr_judge_check(a.kattis ? CR_KATTIS : a.cms ? CR_CMS : CR_TESTLIB, variant, moves, npos, argv);
}

const cli_command cli_cmd_check = {
    "check",
    cmd_check,
    "judge a contestant's answer (testlib, Kattis or CMS convention)",
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
    "on standard output and one message line on standard error, 1 judge error.",
    options,
};

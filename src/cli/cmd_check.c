/* coinrow check: judge a contestant's answer under a judging system's
 * convention (judge/judge.c, the code the exported checker runs too). */
#include "cli/cli.h"
#include "judge/judge.h"
#include "util/errorf.h"

int cmd_check(const cli_command *self, int argc, char **argv)
{
    const char *variant_arg = NULL, *moves_arg = "required";
    int kattis = 0, cms = 0;
    const cli_option opts[] = {
        {"variant", "V", "total, diff, remaining or winner: the value asked for (required)", &variant_arg, NULL},
        {"moves", "POLICY", "required (default): a line of play follows the value; ignored", &moves_arg, NULL},
        {"kattis", NULL, "Kattis convention: INPUT JURY_ANSWER FEEDBACK_DIR < OUTPUT", NULL, &kattis},
        {"cms", NULL, "CMS convention: INPUT JURY_ANSWER CONTESTANT_OUTPUT", NULL, &cms},
        {0},
    };
    /* A bad command line must not read as a verdict: testlib's 2 is a
     * presentation error, so it is a failure (3) here under every convention. */
    int npos, status = cli_parse(&npos, self, opts, argc, argv);
    if (status >= 0)
        return status == CR_EXIT_USAGE ? CR_JUDGE_TESTLIB_FAIL : status;
    cr_error err = {0};
    cr_variant variant;
    cr_check_moves moves;
    if (!variant_arg)
        cr_errorf(&err, CR_EINVAL, "--variant is required");
    else if (kattis && cms)
        cr_errorf(&err, CR_EINVAL, "--kattis and --cms exclude each other");
    else if (cr_variant_parse(&variant, variant_arg, &err) == 0)
        cr_check_moves_parse(&moves, moves_arg, &err);
    if (err.code) {
        cli_usage_error(self, "%s", err.msg);
        return CR_JUDGE_TESTLIB_FAIL;
    }
    return cr_judge_check(kattis ? CR_KATTIS : cms ? CR_CMS : CR_TESTLIB, variant, moves, npos, argv);
}

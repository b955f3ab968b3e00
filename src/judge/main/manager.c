/* The exported manager of the interactive game (CMS: the check/manager of
 * a Communication task; docs/judges.md, "Interactive problems").  CMS runs
 * it as
 *   manager FROM_CONTESTANT TO_CONTESTANT < input
 * (two FIFOs, the test on standard input), plays the jury's side
 * (judge.h's dialogue, the game of the Kattis interactor and of invoke
 * --interactive) with the seed on the input's third line, and writes 1.0
 * when every move of the contestant was optimal, else 0.0, on standard
 * output, and one line of ASCII on standard error: translate:success, or
 * what was wrong (cr_judge_report_cms, as the CMS checker).  A test it
 * cannot read is a judge error: exit 1, nothing on standard output.
 *
 * CMS's sandbox opens the contestant's standard input (TO_CONTESTANT)
 * before its standard output: the manager opens its ends in that order,
 * or each side waits for the other in open(2).  It is compiled only inside
 * the amalgamation, above which the exporter writes
 *   #define CR_JUDGE_VARIANT CR_DIFF             (a cr_variant) */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "judge/judge.h"

#if !defined(CR_JUDGE_VARIANT)
#error "define CR_JUDGE_VARIANT above (coinrow writes it)"
#endif

int main(int argc, char **argv)
{
    cr_error err = {CR_OK, ""};
    cr_judgement verdict = {CR_ACCEPTED, ""};
    int rc, to = -1, from = -1;
    if (argc != 3) {
        fprintf(stderr, "usage: %s FROM_CONTESTANT TO_CONTESTANT < input\n", argv[0]);
        return CR_JUDGE_ERROR;
    }
    signal(SIGPIPE, SIG_IGN); /* a contestant that leaves is EPIPE, not the jury's death */
    if ((to = open(argv[2], O_WRONLY)) < 0)
        rc = cr_errorf(&err, CR_EIO, "cannot open %s: %s", argv[2], strerror(errno));
    else if ((from = open(argv[1], O_RDONLY)) < 0)
        rc = cr_errorf(&err, CR_EIO, "cannot open %s: %s", argv[1], strerror(errno));
    else
        rc = cr_dialogue_play(&verdict, NULL, CR_JUDGE_VARIANT, from, to, &err);
    return cr_judge_report_cms(rc, &verdict, &err);
}

/* The exported wrong solution (submissions/wrong_answer): plays greedily,
 * taking the end that scores more at once, and prints the value its play
 * reaches (and its line).  Tests that catch it are strong.  It is compiled
 * only inside the amalgamation, above which the exporter writes
 *   #define CR_JUDGE_VARIANT CR_DIFF
 *   #define CR_JUDGE_MOVES CR_CHECK_MOVES_REQUIRED (the line is printed too) */
#include <stdio.h>
#include <stdlib.h>

#include "coinrow/contest.h"
#include "util/util.h"

#if !defined(CR_JUDGE_VARIANT) || !defined(CR_JUDGE_MOVES)
#error "define CR_JUDGE_VARIANT and CR_JUDGE_MOVES above (coinrow writes them)"
#endif

int main(void)
{
    cr_error err = {CR_OK, ""};
    char *text = NULL, *answer = NULL;
    size_t len = 0;
    cr_contest_input in = {NULL, 0};
    int rc = cr_read_all(&text, &len, stdin, "standard input", &err);
    if (rc == 0)
        rc = cr_contest_input_parse(&in, text, len, NULL, &err);
    if (rc == 0 && !(answer = (char *)malloc(in.n + 48)))
        rc = cr_errorf(&err, CR_ENOMEM, "no memory");
    if (rc == 0)
        fputs(cr_contest_greedy_answer(answer, &in, CR_JUDGE_VARIANT, CR_JUDGE_MOVES == CR_CHECK_MOVES_REQUIRED),
              stdout);
    else
        fprintf(stderr, "%s\n", err.msg);
    free(answer);
    cr_contest_input_free(&in);
    free(text);
    return rc ? 1 : 0;
}

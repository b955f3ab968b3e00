/* The exported reference solution (submissions/accepted): reads an input
 * file on standard input and prints the variant's value and, when lines are
 * asked for, the canonical line of play.  It is compiled only inside the
 * amalgamation (scripts/amalgamate.sh), above which the exporter writes
 *   #define CR_JUDGE_VARIANT CR_DIFF             (a cr_variant)
 *   #define CR_JUDGE_MOVES CR_CHECK_MOVES_REQUIRED (the line is printed too) */
#include <stdio.h>
#include <stdlib.h>

#include "coinrow/contest.h"
#include "coinrow/solve.h"
#include "util/util.h"

#if !defined(CR_JUDGE_VARIANT) || !defined(CR_JUDGE_MOVES)
#error "define CR_JUDGE_VARIANT and CR_JUDGE_MOVES above (coinrow writes them)"
#endif

int main(void)
{
    cr_error err = {CR_OK, ""};
    char *text = NULL;
    size_t len = 0;
    cr_contest_input in = {NULL, 0};
    cr_solver *solver = NULL;
    cr_result results[CR_VARIANT_COUNT];
    int lines = CR_JUDGE_MOVES == CR_CHECK_MOVES_REQUIRED;
    cr_solve_opts opts = {CR_VARIANT_BIT(CR_JUDGE_VARIANT), CR_ALGO_AUTO, lines ? CR_MOVES_CANONICAL : CR_MOVES_NONE};
    int rc = cr_read_all(&text, &len, stdin, "standard input", &err);
    if (rc == 0)
        rc = cr_contest_input_parse(&in, text, len, NULL, &err);
    if (rc == 0)
        rc = cr_solver_new(&solver, &err);
    if (rc == 0)
        rc = cr_solve(results, solver, in.coins, in.n, &opts, &err);
    if (rc == 0) {
        printf("%lld\n", (long long)results[CR_JUDGE_VARIANT].value);
        if (lines)
            printf("%s\n", results[CR_JUDGE_VARIANT].moves);
    } else {
        fprintf(stderr, "%s\n", err.msg);
    }
    cr_solver_free(solver);
    cr_contest_input_free(&in);
    free(text);
    return rc ? 1 : 0;
}

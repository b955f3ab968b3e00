/* The exported slow solution (submissions/time_limit_exceeded): plain
 * minimax over every line of play, 2^n of them, without the guard that keeps
 * the core's naive method to small rows.  Right on small tests, hopeless on
 * a large one.  It is compiled only inside the amalgamation, above which the
 * exporter writes
 *   #define CR_JUDGE_VARIANT CR_DIFF
 *   #define CR_JUDGE_MOVES CR_CHECK_MOVES_REQUIRED (the canonical line is printed too) */
#include <stdio.h>
#include <stdlib.h>

#include "coinrow/contest.h"
#include "core/internal.h"
#include "io/read_all.h"

#if !defined(CR_JUDGE_VARIANT) || !defined(CR_JUDGE_MOVES)
#error "define CR_JUDGE_VARIANT and CR_JUDGE_MOVES above (coinrow writes them)"
#endif

int main(void)
{
    cr_error err = {CR_OK, ""};
    char *text = NULL, *line = NULL;
    size_t len = 0;
    cr_contest_input in = {NULL, 0};
    int negate = CR_JUDGE_VARIANT == CR_REMAINING; /* the remaining game is the standard one on -coins */
    int rc = cr_read_all(&text, &len, stdin, "standard input", &err);
    if (rc == 0)
        rc = cr_contest_input_parse(&in, text, len, NULL, &err);
    if (rc == 0 && !(line = (char *)malloc(in.n + 1)))
        rc = cr_error_set(&err, CR_ENOMEM, "no memory");
    if (rc) {
        fprintf(stderr, "%s\n", err.msg);
        goto done;
    }
    cr_i128 sum, abs_sum, value, lead = cr_naive__lead(in.coins, in.n, negate);
    cr_coins__sums(&sum, &abs_sum, in.coins, in.n);
    value = CR_JUDGE_VARIANT == CR_DIFF     ? lead
            : CR_JUDGE_VARIANT == CR_WINNER ? (lead > 0) - (lead < 0)
                                            : (sum + lead) / 2; /* total, and remaining's lead over the row */
    char digits[48];
    cr_i128__format(digits, sizeof digits, value);
    printf("%s\n", digits);
    if (CR_JUDGE_MOVES == CR_CHECK_MOVES_REQUIRED) {
        /* the canonical line: L whenever taking the left end keeps the best lead */
        for (size_t i = 0, j = in.n - 1, k = 0; k < in.n; k++) {
            int left = 1;
            if (i < j) {
                cr_i128 l = negate ? -(cr_i128)in.coins[i] : in.coins[i];
                cr_i128 r = negate ? -(cr_i128)in.coins[j] : in.coins[j];
                left = l - cr_naive__lead(in.coins + i + 1, j - i, negate) >=
                       r - cr_naive__lead(in.coins + i, j - i, negate);
            }
            line[k] = left ? 'L' : 'R';
            if (left)
                i++;
            else
                j--;
        }
        line[in.n] = '\0';
        printf("%s\n", line);
    }
done:
    free(line);
    cr_contest_input_free(&in);
    free(text);
    return rc ? 1 : 0;
}

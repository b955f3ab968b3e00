/* The exported slow solution (submissions/time_limit_exceeded): plain
 * minimax over every line of play, 2^n of them, written on its own as a
 * contestant would (the core's reader aside).  Right on small tests,
 * hopeless on a large one.  It is compiled only inside the amalgamation,
 * above which the exporter writes
 *   #define CR_JUDGE_VARIANT CR_DIFF
 *   #define CR_JUDGE_MOVES CR_CHECK_MOVES_REQUIRED (the canonical line is printed too) */
#include <stdio.h>
#include <stdlib.h>

#include "coinrow/contest.h"
#include "util/util.h"

#if !defined(CR_JUDGE_VARIANT) || !defined(CR_JUDGE_MOVES)
#error "define CR_JUDGE_VARIANT and CR_JUDGE_MOVES above (coinrow writes them)"
#endif

__extension__ typedef __int128 i128;

/* The coins as the game scores them: the remaining game is the standard one on -coins. */
static i128 coin(const int64_t *coins, size_t i)
{
    return CR_JUDGE_VARIANT == CR_REMAINING ? -(i128)coins[i] : (i128)coins[i];
}

/* The mover's best lead on coins i..j. */
static i128 lead(const int64_t *coins, size_t i, size_t j)
{
    if (i == j)
        return coin(coins, i);
    i128 left = coin(coins, i) - lead(coins, i + 1, j), right = coin(coins, j) - lead(coins, i, j - 1);
    return left >= right ? left : right;
}

static void print(i128 v)
{
    char digits[48];
    size_t k = 0;
    i128 rest = v < 0 ? v : -v; /* negative digits: the most negative value needs no negation */
    do {
        digits[k++] = (char)('0' - (int)(rest % 10));
        rest /= 10;
    } while (rest);
    if (v < 0)
        putchar('-');
    while (k)
        putchar(digits[--k]);
    putchar('\n');
}

int main(void)
{
    cr_error err = {CR_OK, ""};
    char *text = NULL, *line = NULL;
    size_t len = 0;
    cr_contest_input in = {NULL, 0};
    int rc = cr_read_all(&text, &len, stdin, "standard input", &err);
    if (rc == 0)
        rc = cr_contest_input_parse(&in, text, len, NULL, &err);
    if (rc == 0 && !(line = (char *)malloc(in.n + 1)))
        rc = cr_errorf(&err, CR_ENOMEM, "no memory");
    if (rc == 0) {
        i128 sum = 0, best = lead(in.coins, 0, in.n - 1);
        for (size_t i = 0; i < in.n; i++)
            sum += in.coins[i];
        /* total, and remaining's lead over the row, are the first player's half of sum + lead */
        print(CR_JUDGE_VARIANT == CR_DIFF     ? best
              : CR_JUDGE_VARIANT == CR_WINNER ? (i128)((best > 0) - (best < 0))
                                              : (sum + best) / 2);
        /* the canonical line: L whenever taking the left end keeps the best lead */
        for (size_t i = 0, j = in.n - 1, k = 0; CR_JUDGE_MOVES == CR_CHECK_MOVES_REQUIRED && k < in.n; k++) {
            int left = i == j || coin(in.coins, i) - lead(in.coins, i + 1, j) >=
                                     coin(in.coins, j) - lead(in.coins, i, j - 1);
            line[k] = left ? 'L' : 'R';
            i += left;
            j -= !left;
        }
        line[in.n] = '\0';
        if (CR_JUDGE_MOVES == CR_CHECK_MOVES_REQUIRED)
            printf("%s\n", line);
    } else {
        fprintf(stderr, "%s\n", err.msg);
    }
    free(line);
    cr_contest_input_free(&in);
    free(text);
    return rc ? 1 : 0;
}

/* An exported wrong submission of the interactive game
 * (submissions/wrong_answer): at each turn it takes the end that scores more
 * at once (cr_moves_greedy on the two ends).  It is compiled only inside the
 * amalgamation, above which the exporter writes
 *   #define CR_JUDGE_VARIANT CR_DIFF             (a cr_variant) */
#include "coinrow/moves.h"
#include "play.h"

#if !defined(CR_JUDGE_VARIANT)
#error "define CR_JUDGE_VARIANT above (coinrow writes it)"
#endif

static char choose(void *ctx, const int64_t *coins, size_t n, size_t i, size_t j, size_t turn, char heard)
{
    int64_t ends[2] = {coins[i], coins[j]};
    char line[3];
    (void)ctx, (void)n, (void)turn, (void)heard;
    cr_moves_greedy(line, ends, i == j ? 1 : 2, CR_JUDGE_VARIANT);
    return line[0];
}

int main(void)
{
    return cr_play(choose, NULL, 1);
}

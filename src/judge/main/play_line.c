/* An exported wrong submission of the interactive game
 * (submissions/wrong_answer): it plays its turns of the canonical line of
 * the whole row, computed before the first move, as if the jury were
 * optimal, and never looks at the jury's moves.  Right against an optimal
 * jury, wrong once the jury deviates (the tests with a seed).  It is
 * compiled only inside the amalgamation, above which the exporter writes
 *   #define CR_JUDGE_VARIANT CR_DIFF             (a cr_variant) */
#include "coinrow/moves.h"
#include "play.h"

#if !defined(CR_JUDGE_VARIANT)
#error "define CR_JUDGE_VARIANT above (coinrow writes it)"
#endif

static char choose(void *ctx, const int64_t *coins, size_t n, size_t i, size_t j, size_t turn, char heard)
{
    char **line = (char **)ctx;
    cr_error err = {CR_OK, ""};
    (void)i, (void)j, (void)heard;
    if (turn == 0 && (!(*line = (char *)malloc(n + 1)) || cr_moves_canonical(*line, coins, n, CR_JUDGE_VARIANT, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        exit(1);
    }
    return (*line)[turn];
}

int main(void)
{
    char *line = NULL;
    int status = cr_play(choose, &line, 1);
    free(line);
    return status;
}

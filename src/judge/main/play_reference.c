/* The exported reference of the interactive game (submissions/accepted):
 * it plays adaptively, each of its moves optimal in the position the jury
 * leaves.  Its oracle is a jury of its own (coinrow/jury.h) that moves
 * first, optimally: its moves are the reference's, and it hears the real
 * jury's moves as its contestant's.  O(sqrt n log n) amortised a turn.  It is compiled only
 * inside the amalgamation, above which the exporter writes
 *   #define CR_JUDGE_VARIANT CR_DIFF             (a cr_variant) */
#include <stdio.h>
#include <stdlib.h>

#include "coinrow/jury.h"
#include "play.h"

#if !defined(CR_JUDGE_VARIANT)
#error "define CR_JUDGE_VARIANT above (coinrow writes it)"
#endif

static char choose(void *ctx, const int64_t *coins, size_t n, size_t i, size_t j, size_t turn, char heard)
{
    cr_jury **oracle = (cr_jury **)ctx;
    cr_error err = {CR_OK, ""};
    cr_jury_policy first = {0, 1}; /* optimal, moving first */
    char move = 'L';
    (void)i, (void)j;
    if (turn == 0 ? cr_jury_new(oracle, coins, n, CR_JUDGE_VARIANT, first, &err) : cr_jury_play(*oracle, heard, &err))
        goto fail;
    if (cr_jury_move(&move, *oracle, &err) == 0)
        return move;
fail:
    fprintf(stderr, "%s\n", err.msg);
    exit(1);
}

int main(void)
{
    cr_jury *oracle = NULL;
    int status = cr_play(choose, &oracle, 1);
    cr_jury_free(oracle);
    return status;
}

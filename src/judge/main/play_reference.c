/* The exported reference of the interactive game (submissions/accepted):
 * it plays adaptively, each of its moves optimal in the position the jury
 * leaves.  Its oracle is a jury of its own (coinrow/jury.h), which plays
 * optimally for the player it answers: given the row behind a coin of
 * value 0 that its "contestant" takes first, that jury moves first on the
 * row itself, as the contestant does, and hears the real jury's moves as
 * its contestant's.  O(sqrt n log n) amortised a turn.  It is compiled only
 * inside the amalgamation, above which the exporter writes
 *   #define CR_JUDGE_VARIANT CR_DIFF             (a cr_variant) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coinrow/jury.h"
#include "play.h"

#if !defined(CR_JUDGE_VARIANT)
#error "define CR_JUDGE_VARIANT above (coinrow writes it)"
#endif

typedef struct oracle {
    int64_t *padded; /* 0, then the coins */
    cr_jury *jury;
} oracle;

static char choose(void *ctx, const int64_t *coins, size_t n, size_t i, size_t j, size_t turn, char heard)
{
    oracle *o = (oracle *)ctx;
    cr_error err = {CR_OK, ""};
    cr_jury_policy optimal = {0};
    char move = 'L';
    (void)i, (void)j;
    if (turn == 0) {
        if (!(o->padded = (int64_t *)calloc(n + 1, sizeof *o->padded)))
            exit(1);
        memcpy(o->padded + 1, coins, n * sizeof *coins);
        if (cr_jury_new(&o->jury, o->padded, n + 1, CR_JUDGE_VARIANT, optimal, &err) ||
            cr_jury_play(o->jury, 'L', &err))
            goto fail;
    } else if (cr_jury_play(o->jury, heard, &err)) {
        goto fail;
    }
    if (cr_jury_move(&move, o->jury, &err) == 0)
        return move;
fail:
    fprintf(stderr, "%s\n", err.msg);
    exit(1);
}

int main(void)
{
    oracle o = {NULL, NULL};
    int status = cr_play(choose, &o, 1);
    cr_jury_free(o.jury);
    free(o.padded);
    return status;
}

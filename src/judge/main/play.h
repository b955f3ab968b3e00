/* The contestant's side of the interactive game, for the exported
 * submissions of an interactive problem (docs/judges.md, "Interactive
 * problems"): it reads n and the coins, then at each of its turns writes
 * the end its chooser picks, one line, and at the jury's turns reads the
 * jury's.  Each submission's main (play_*.c) gives its chooser; it is
 * compiled only inside the amalgamation. */
#ifndef CR_JUDGE_PLAY_H
#define CR_JUDGE_PLAY_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The move ('L' or 'R') of the player to move on coins[i..j], turn `turn`
 * (from 0), the jury's last move being `heard` ('\0' at the first turn). */
typedef char cr_play_chooser(void *ctx, const int64_t *coins, size_t n, size_t i, size_t j, size_t turn,
                             char heard);

/* Plays the contestant's side on standard input and output, flushing each
 * move when `flush` (a program that does not waits for an answer that never
 * comes).  Returns the exit status: 0, or 1 when the input is not the
 * game's.  The coins live until it returns. */
static int cr_play(cr_play_chooser *choose, void *ctx, int flush)
{
    size_t n = 0, i = 0, j;
    char heard = '\0', line[8];
    if (scanf("%zu", &n) != 1 || n == 0)
        return 1;
    int64_t *coins = (int64_t *)malloc(n * sizeof *coins);
    if (!coins)
        return 1;
    for (size_t k = 0; k < n; k++)
        if (scanf("%" SCNd64, &coins[k]) != 1) {
            free(coins);
            return 1;
        }
    j = n - 1;
    for (size_t turn = 0; turn < n; turn++) {
        char move;
        if (turn % 2 == 0) {
            move = choose(ctx, coins, n, i, j, turn, heard);
            printf("%c\n", move);
            if (flush)
                fflush(stdout);
        } else {
            if (scanf("%7s", line) != 1 || (line[0] != 'L' && line[0] != 'R')) {
                free(coins);
                return 1;
            }
            move = heard = line[0];
        }
        if (move == 'L')
            i++;
        else
            j--;
    }
    free(coins);
    return 0;
}

#endif

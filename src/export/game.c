/* The interactive game played in-process, as the exported interactor and
 * players play it over pipes (judge/main/interactor.c, play_*.c): for the
 * samples' interactions and to know which wrong player a test catches. */
#include "export/package.h"

#include <stdlib.h>
#include <string.h>

#include "coinrow/jury.h"
#include "coinrow/moves.h"
#include "util/util.h"

uint64_t cr_export__seed(uint64_t k, uint64_t samples)
{
    return k <= samples ? 0 : k + 1;
}

/* What a player keeps between its moves. */
typedef struct player {
    cr_export_player kind;
    cr_jury *oracle;  /* CR_PLAYER_REFERENCE: an optimal jury that moves first, the player's side */
    char *line;       /* CR_PLAYER_LINE: the canonical line of the whole row */
} player;

static int player_start(player *p, const int64_t *coins, size_t n, cr_variant variant, cr_error *err)
{
    if (p->kind == CR_PLAYER_LINE) {
        if (!(p->line = malloc(n + 1)))
            return cr_errorf(err, CR_ENOMEM, "no memory for a line of %zu moves", n);
        return cr_moves_canonical(p->line, coins, n, variant, err);
    }
    if (p->kind != CR_PLAYER_REFERENCE)
        return 0;
    return cr_jury_new(&p->oracle, coins, n, variant, (cr_jury_policy){.jury_first = 1}, err);
}

/* The player's move at `turn` on coins[i..j]. */
static int player_move(char *out, player *p, const int64_t *coins, size_t i, size_t j, size_t turn,
                       cr_variant variant, cr_error *err)
{
    int64_t ends[2] = {coins[i], coins[j]};
    char greedy[3];
    switch (p->kind) {
    case CR_PLAYER_REFERENCE: return cr_jury_move(out, p->oracle, err);
    case CR_PLAYER_LINE: *out = p->line[turn]; return 0;
    case CR_PLAYER_GREEDY: break;
    }
    cr_moves_greedy(greedy, ends, i == j ? 1 : 2, variant);
    *out = greedy[0];
    return 0;
}

int cr_export__play(int *out_accepted, char **out_line, const int64_t *coins, size_t n, cr_variant variant,
                    uint64_t seed, cr_export_player kind, cr_error *err)
{
    player p = {kind, NULL, NULL};
    cr_jury *jury = NULL;
    cr_verdict verdict;
    int rc = cr_jury_new(&jury, coins, n, variant, (cr_jury_policy){.seed = seed}, err);
    if (rc == 0)
        rc = player_start(&p, coins, n, variant, err);
    for (size_t turn = 0, i = 0, j = n - 1; rc == 0 && turn < n; turn++) {
        char move = 'L';
        if (turn % 2 == 0) {
            rc = player_move(&move, &p, coins, i, j, turn, variant, err);
            if (rc == 0)
                rc = cr_jury_play(jury, move, err);
        } else {
            rc = cr_jury_move(&move, jury, err);
            if (rc == 0 && p.oracle)
                rc = cr_jury_play(p.oracle, move, err);
        }
        if (move == 'L')
            i++;
        else
            j--;
    }
    if (rc == 0)
        rc = cr_jury_judge(&verdict, jury, err);
    if (rc == 0)
        *out_accepted = verdict.fault == CR_LINE_OK;
    if (rc == 0 && out_line && !(*out_line = strdup(cr_jury_line(jury))))
        rc = cr_errorf(err, CR_ENOMEM, "no memory for a line of %zu moves", n);
    cr_jury_free(jury);
    cr_jury_free(p.oracle);
    free(p.line);
    return rc;
}

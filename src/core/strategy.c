/* Built-in strategies: one move rule for both players, then the value of
 * the line it plays. */
#include "coinrow/strategy.h"

#include <stdlib.h>

#include "internal.h"

static const char *const strategy_names[CR_STRATEGY_COUNT] = {"greedy", "left", "parity", "lookahead2"};

const char *cr_strategy_name(cr_strategy s)
{
    return (unsigned)s < CR_STRATEGY_COUNT ? strategy_names[s] : NULL;
}

int cr_strategy_parse(cr_strategy *out, const char *name, cr_error *err)
{
    int i, rc = cr_game__parse_name(&i, strategy_names, CR_STRATEGY_COUNT, "strategy",
                                    "greedy, left, parity or lookahead2", name, err);
    if (rc == 0)
        *out = (cr_strategy)i;
    return rc;
}

/* The row as the rule sees it: the coins, negated for the remaining-sum
 * game, and what is left of it.  class_sum[p] adds up the remaining coins
 * at positions of parity p in the whole row, so that the coins at even
 * positions of the remaining row (counted from its left end i) are
 * class_sum[i % 2]. */
typedef struct row {
    const int64_t *coins;
    cr_strategy strategy;
    int negate;
    size_t i, j; /* the remaining coins are i..j */
    cr_i128 class_sum[2];
} row;

struct cr_strategy_player {
    row at;      /* the row as it stands, */
    size_t left; /* of so many coins (j wraps below i once the row is empty) */
};

static cr_i128 seen(const row *r, size_t k) { return r->negate ? -(cr_i128)r->coins[k] : r->coins[k]; }

static char greedy(const row *r) { return seen(r, r->i) >= seen(r, r->j) ? 'L' : 'R'; }

static char parity(const row *r)
{
    if ((r->j - r->i) % 2 == 0) /* an odd number of coins: both ends are of one class */
        return greedy(r);
    /* an even number: the left end is of the class of i, the right end of the other */
    return r->class_sum[r->i % 2] >= r->class_sum[1 - r->i % 2] ? 'L' : 'R';
}

static char lookahead2(const row *r)
{
    if (r->i == r->j)
        return 'L';
    size_t i = r->i, j = r->j;
    /* after L the opponent faces i+1..j, after R i..j-1 (one coin when i+1 == j) */
    cr_i128 reply_l = seen(r, i + 1) > seen(r, j) ? seen(r, i + 1) : seen(r, j);
    cr_i128 reply_r = seen(r, i) > seen(r, j - 1) ? seen(r, i) : seen(r, j - 1);
    return seen(r, i) - reply_l >= seen(r, j) - reply_r ? 'L' : 'R';
}

/* The whole row; CR_EINVAL for bad arguments. */
static int row_start(row *r, const int64_t *coins, size_t n, cr_variant variant, cr_strategy strategy, cr_error *err)
{
    if (!coins || n == 0 || (unsigned)variant >= CR_VARIANT_COUNT || (unsigned)strategy >= CR_STRATEGY_COUNT)
        return cr_error_set(err, CR_EINVAL, "strategy: no coins, or an unknown variant or strategy");
    *r = (row){coins, strategy, variant == CR_REMAINING, 0, n - 1, {0, 0}};
    for (size_t k = 0; k < n; k++)
        r->class_sum[k % 2] += seen(r, k);
    return 0;
}

static char row_move(const row *r)
{
    switch (r->strategy) {
    case CR_STRATEGY_GREEDY: return greedy(r);
    case CR_STRATEGY_PARITY: return parity(r);
    case CR_STRATEGY_LOOKAHEAD2: return lookahead2(r);
    default: return 'L';
    }
}

static void row_take(row *r, char move)
{
    size_t taken = move == 'L' ? r->i++ : r->j--;
    r->class_sum[taken % 2] -= seen(r, taken);
}

int cr_strategy_play(int64_t *out, char *line, const int64_t *coins, size_t n, cr_variant variant,
                     cr_strategy strategy, cr_error *err)
{
    row r;
    if (!out || !line)
        return cr_error_set(err, CR_EINVAL, "strategy: no room for the value or the line");
    int rc = row_start(&r, coins, n, variant, strategy, err);
    if (rc)
        return rc;
    for (size_t turn = 0; turn < n; turn++) {
        line[turn] = row_move(&r);
        row_take(&r, line[turn]);
    }
    line[n] = '\0';

    cr_i128 score[2];
    (void)cr_moves__scores(score, coins, n, variant, line, n, NULL); /* its own line: legal and full */
    return cr_figures__fit_i64(out, cr_moves__value(score, variant), "the strategy's value", err);
}

int cr_strategy_player_new(cr_strategy_player **out, const int64_t *coins, size_t n, cr_variant variant,
                           cr_strategy strategy, cr_error *err)
{
    row r;
    *out = NULL;
    int rc = row_start(&r, coins, n, variant, strategy, err);
    if (rc)
        return rc;
    if (!(*out = (cr_strategy_player *)malloc(sizeof **out)))
        return cr_error_set(err, CR_ENOMEM, "no memory for a player");
    (*out)->at = r;
    (*out)->left = n;
    return 0;
}

char cr_strategy_player_move(const cr_strategy_player *p)
{
    return row_move(&p->at);
}

int cr_strategy_player_take(cr_strategy_player *p, char move, cr_error *err)
{
    if ((move != 'L' && move != 'R') || p->left == 0)
        return cr_error_set(err, CR_EINVAL, "strategy: a move that is not L or R, or on an empty row");
    row_take(&p->at, move);
    p->left--;
    return 0;
}

void cr_strategy_player_free(cr_strategy_player *p)
{
    free(p);
}

/* Plain minimax over the game tree: the reference every other method is
 * tested against.  2^n leaves, so the caller keeps n small. */
#include "internal.h"

static cr_i128 lead_of(const int64_t *coins, size_t i, size_t j, int negate)
{
    cr_i128 left = negate ? -(cr_i128)coins[i] : coins[i];
    if (i == j)
        return left;
    cr_i128 right = negate ? -(cr_i128)coins[j] : coins[j];
    cr_i128 take_left = left - lead_of(coins, i + 1, j, negate);
    cr_i128 take_right = right - lead_of(coins, i, j - 1, negate);
    return take_left >= take_right ? take_left : take_right;
}

cr_i128 cr_naive__lead(const int64_t *coins, size_t n, int negate)
{
    return lead_of(coins, 0, n - 1, negate);
}

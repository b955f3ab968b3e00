/* Lines of play: the greedy line, the verifier's verdict and the replay (the
 * canonical line and the leads along a line are reduced.c's). */
#include "coinrow/moves.h"

#include "coinrow/contest.h"
#include "internal.h"

static int is_remaining(cr_variant variant) { return variant == CR_REMAINING; }

/* --- greedy ------------------------------------------------------------------ */

void cr_moves_greedy(char *out, const int64_t *coins, size_t n, cr_variant variant)
{
    for (size_t k = 0, i = 0, j = n - 1; k < n; k++) {
        int left = is_remaining(variant) ? coins[i] <= coins[j] : coins[i] >= coins[j];
        out[k] = left ? 'L' : 'R';
        if (left)
            i++;
        else
            j--;
    }
    out[n] = '\0';
}

/* --- verifier: every lead along the line, walked backwards (reduced.c) ---- */

static const char *player(size_t turn) { return turn % 2 == 0 ? "first" : "second"; }

int cr_moves_verify(cr_verdict *out, const int64_t *coins, size_t n, cr_variant variant, const char *line,
                    size_t len, cr_error *err)
{
    if (!out || !coins || n == 0 || (!line && len))
        return cr_error_set(err, CR_EINVAL, "verify: no coins or no line");
    size_t legal = 0, limit = len < n ? len : n;
    while (legal < limit && (line[legal] == 'L' || line[legal] == 'R'))
        legal++;

    cr_reduced__bad first = {SIZE_MAX, 0, 0};
    int rc = legal > 0 ? cr_reduced__first_bad(&first, coins, n, is_remaining(variant), line, legal,
                                               CR_REDUCED_BOTH, 0, err)
                       : 0;
    if (rc)
        return rc;
    size_t bad = first.turn;

    out->why[0] = '\0';
    if (bad != SIZE_MAX) {
        out->fault = CR_LINE_SUBOPTIMAL;
        out->turn = bad;
        cr_error__format(out->why, sizeof out->why, "turn %zu (%s player): %c is not optimal, %c is", bad + 1,
                    player(bad), line[bad], line[bad] == 'L' ? 'R' : 'L');
    } else if (legal < limit) {
        out->fault = CR_LINE_BAD_MOVE;
        out->turn = legal;
        char shown[8];
        cr_contest_escape(shown, sizeof shown, line + legal, 1, 1);
        cr_error__format(out->why, sizeof out->why, "turn %zu (%s player): '%s' is not a move (L or R)", legal + 1,
                    player(legal), shown);
    } else if (len < n) {
        out->fault = CR_LINE_SHORT;
        out->turn = len;
        cr_error__format(out->why, sizeof out->why, "the line stops after %zu moves with %zu coins left", len,
                         n - len);
    } else if (len > n) {
        out->fault = CR_LINE_LONG;
        out->turn = n;
        cr_error__format(out->why, sizeof out->why, "the line has %zu moves for %zu coin%s", len, n, n == 1 ? "" : "s");
    } else {
        out->fault = CR_LINE_OK;
        out->turn = n;
    }
    return 0;
}

/* --- replay ---------------------------------------------------------------- */

int cr_moves__scores(cr_i128 out[2], const int64_t *coins, size_t n, cr_variant variant, const char *line,
                     size_t len, cr_error *err)
{
    cr_i128 left_in_row, ignored;
    cr_figures__sums(&left_in_row, &ignored, coins, n);
    out[0] = out[1] = 0;
    /* a letter past the coins that is no move is named before the length:
     * "Lé" has two letters, not the three moves its bytes count */
    size_t past = n;
    while (past < len && (line[past] == 'L' || line[past] == 'R'))
        past++;
    size_t turns = len < n ? len : n;
    for (size_t k = 0, i = 0, j = n - 1; k < turns; k++) {
        int64_t taken;
        if (line[k] == 'L')
            taken = coins[i++];
        else if (line[k] == 'R')
            taken = coins[j--];
        else
        {
            char shown[8];
            cr_contest_escape(shown, sizeof shown, line + k, 1, 1);
            return cr_error_set(err, CR_EINVAL, "turn %zu (%s player): '%s' is not a move (L or R)", k + 1,
                                player(k), shown);
        }
        left_in_row -= taken;
        out[k % 2] += is_remaining(variant) ? left_in_row : taken;
    }
    if (past < len) {
        char shown[8];
        cr_contest_escape(shown, sizeof shown, line + past, 1, 1);
        return cr_error_set(err, CR_EINVAL, "turn %zu: '%s' is not a move (L or R)", past + 1, shown);
    }
    if (len != n)
        return cr_error_set(err, CR_EINVAL, "the line has %zu move%s for %zu coin%s", len, len == 1 ? "" : "s", n,
                            n == 1 ? "" : "s");
    return 0;
}

cr_i128 cr_moves__value(const cr_i128 scores[2], cr_variant variant)
{
    cr_i128 lead = scores[0] - scores[1];
    return variant == CR_TOTAL ? scores[0] : variant == CR_WINNER ? (lead > 0) - (lead < 0) : lead;
}

int cr_moves_replay(cr_scores *out, const int64_t *coins, size_t n, cr_variant variant, const char *line,
                    size_t len, cr_error *err)
{
    if (!out || !coins || n == 0 || (!line && len))
        return cr_error_set(err, CR_EINVAL, "replay: no coins or no line");
    cr_i128 score[2];
    int rc = cr_moves__scores(score, coins, n, variant, line, len, err);
    if (rc == 0)
        rc = cr_figures__fit_i64(&out->first, score[0], "the first player's score", err);
    return rc ? rc : cr_figures__fit_i64(&out->second, score[1], "the second player's score", err);
}

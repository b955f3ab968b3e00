/* Comparing two stored solutions of one instance and variant. */
#include "coinrow/compare.h"

#include <string.h>

#include "coinrow/moves.h"
#include "coinrow/solve.h"
#include "internal.h"

static const char *const category_names[CR_CATEGORY_COUNT] = {"same", "equivalent", "regression", "missing",
                                                                         "changed"};

const char *cr_category_name(cr_category c)
{
    return (unsigned)c < CR_CATEGORY_COUNT ? category_names[c] : NULL;
}

static int verdict(cr_difference *out, cr_category category, const char *why)
{
    out->category = category;
    cr_error__format(out->why, sizeof out->why, "%s", why);
    return 0;
}

/* "first:second", a missing score as null. */
static void score_text(char *out, size_t cap, const cr_side *side)
{
    char first[24] = "null", second[24] = "null";
    if (!(side->missing & CR_FIGURE_FIRST_SCORE))
        cr_error__format(first, sizeof first, "%lld", (long long)side->first_score);
    if (!(side->missing & CR_FIGURE_SECOND_SCORE))
        cr_error__format(second, sizeof second, "%lld", (long long)side->second_score);
    cr_error__format(out, cap, "%s:%s", first, second);
}

/* Why a side has no value: its error, or (a row edited by hand) none. */
static const char *failure(const cr_side *side) { return side->error ? side->error : "no value and no error"; }

int cr_compare_sides(cr_difference *out, const int64_t *coins, size_t n, cr_variant variant, const cr_side *a,
                     const cr_side *b, int strict_moves, cr_error *err)
{
    memset(out, 0, sizeof *out);
    out->parted_at = n;
    int a_fails = (a->missing & CR_FIGURE_VALUE) != 0, b_fails = (b->missing & CR_FIGURE_VALUE) != 0;
    if (a_fails || b_fails) {
        if (a_fails != b_fails) {
            out->category = CR_REGRESSION;
            cr_error__format(out->why, sizeof out->why, "%s fails: %s", a_fails ? "a" : "b", failure(a_fails ? a : b));
            return 0;
        }
        return strcmp(failure(a), failure(b)) == 0 ? verdict(out, CR_SAME, "")
                                                   : verdict(out, CR_EQUIVALENT, "both fail, for other reasons");
    }
    if (a->value != b->value) {
        out->category = CR_REGRESSION;
        cr_error__format(out->why, sizeof out->why, "value %lld against %lld", (long long)a->value,
                         (long long)b->value);
        return 0;
    }
    int a_wins = !(a->missing & CR_FIGURE_WINNER), b_wins = !(b->missing & CR_FIGURE_WINNER);
    if (a_wins != b_wins || (a_wins && a->winner != b->winner)) {
        out->category = CR_REGRESSION;
        cr_error__format(out->why, sizeof out->why, "winner %s against %s", a_wins ? cr_winner_name(a->winner) : "none",
                         b_wins ? cr_winner_name(b->winner) : "none");
        return 0;
    }
    /* the remaining game's scores follow the line; the others' are the value's */
    char scores[2][96];
    const cr_side *sides[2] = {a, b};
    for (int s = 0; s < 2; s++)
        score_text(scores[s], sizeof scores[s], sides[s]);
    int scores_differ = strcmp(scores[0], scores[1]) != 0;
    if (scores_differ && variant != CR_REMAINING) {
        out->category = CR_REGRESSION;
        cr_error__format(out->why, sizeof out->why, "scores %s against %s", scores[0], scores[1]);
        return 0;
    }
    if ((!a->moves && !b->moves) || (a->moves && b->moves && strcmp(a->moves, b->moves) == 0))
        return scores_differ ? verdict(out, CR_REGRESSION, "the same line scored differently") : verdict(out, CR_SAME, "");

    if (a->moves && b->moves) {
        size_t k = 0;
        while (a->moves[k] && a->moves[k] == b->moves[k])
            k++;
        out->parted_at = k;
    }
    for (int s = 0; s < 2; s++) {
        cr_verdict v;
        if (!sides[s]->moves)
            continue;
        int rc = cr_moves_verify(&v, coins, n, variant, sides[s]->moves, strlen(sides[s]->moves), err);
        if (rc)
            return rc;
        if (v.fault == CR_LINE_OK)
            continue;
        if (!out->wrong) {
            out->wrong_turn = v.turn;
            cr_error__format(out->why, sizeof out->why, "%s's line: %s", s ? "b" : "a", v.why);
        }
        out->wrong |= 1 << s;
    }
    if (out->wrong) {
        out->category = CR_REGRESSION;
        return 0;
    }
    if (a->moves && b->moves) {
        out->category = strict_moves ? CR_REGRESSION : CR_EQUIVALENT;
        cr_error__format(out->why, sizeof out->why, "lines part at turn %zu; both are optimal", out->parted_at + 1);
        return 0;
    }
    return verdict(out, strict_moves ? CR_REGRESSION : CR_EQUIVALENT,
                   a->moves ? "only a kept a line; it is optimal" : "only b kept a line; it is optimal");
}

/* Comparing two stored solutions of one instance and variant. */
#include "coinrow/compare.h"

#include <string.h>

#include "coinrow/moves.h"
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
    cr_format__(out->why, sizeof out->why, "%s", why);
    return 0;
}

int cr_compare_sides(cr_difference *out, const int64_t *coins, size_t n, cr_variant variant, const cr_side *a,
                     const cr_side *b, int strict_moves, cr_error *err)
{
    memset(out, 0, sizeof *out);
    out->parted_at = n;
    if (a->error || b->error) {
        if (!a->error || !b->error) {
            out->category = CR_REGRESSION;
            cr_format__(out->why, sizeof out->why, "%s fails: %s", a->error ? "a" : "b", a->error ? a->error : b->error);
            return 0;
        }
        return strcmp(a->error, b->error) == 0 ? verdict(out, CR_SAME, "")
                                                : verdict(out, CR_EQUIVALENT, "both fail, for other reasons");
    }
    if (a->value != b->value || a->winner != b->winner) {
        out->category = CR_REGRESSION;
        cr_format__(out->why, sizeof out->why, "value %lld against %lld", (long long)a->value, (long long)b->value);
        return 0;
    }
    /* the remaining game's scores follow the line; the others' are the value's */
    int scores_differ = a->first_score != b->first_score || a->second_score != b->second_score;
    if (scores_differ && variant != CR_REMAINING) {
        out->category = CR_REGRESSION;
        cr_format__(out->why, sizeof out->why, "scores %lld:%lld against %lld:%lld", (long long)a->first_score,
                    (long long)a->second_score, (long long)b->first_score, (long long)b->second_score);
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
    const cr_side *sides[2] = {a, b};
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
            cr_format__(out->why, sizeof out->why, "%s's line: %s", s ? "b" : "a", v.why);
        }
        out->wrong |= 1 << s;
    }
    if (out->wrong) {
        out->category = CR_REGRESSION;
        return 0;
    }
    if (a->moves && b->moves) {
        out->category = strict_moves ? CR_REGRESSION : CR_EQUIVALENT;
        cr_format__(out->why, sizeof out->why, "lines part at turn %zu; both are optimal", out->parted_at + 1);
        return 0;
    }
    return verdict(out, strict_moves ? CR_REGRESSION : CR_EQUIVALENT,
                   a->moves ? "only a kept a line; it is optimal" : "only b kept a line; it is optimal");
}

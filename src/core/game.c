/* Names of the game's enums, both ways. */
#include "coinrow/game.h"

#include <string.h>

#include "internal.h"

static const char *const variant_names[CR_VARIANT_COUNT] = {"total", "diff", "remaining", "winner"};
static const char *const algo_names[CR_ALGO_COUNT] = {"auto", "linear", "dp", "naive"};
static const char *const moves_names[CR_MOVES_COUNT] = {"none", "fast", "canonical"};

static const char *name_of(const char *const *names, int count, int v)
{
    return v >= 0 && v < count ? names[v] : NULL;
}

int cr_game__find_name(const char *const *names, int count, const char *text, size_t len)
{
    for (int i = 0; i < count; i++)
        if (strlen(names[i]) == len && memcmp(names[i], text, len) == 0)
            return i;
    return -1;
}

int cr_game__parse_name(int *out, const char *const *names, int count, const char *what, const char *expected,
                        const char *text, cr_error *err)
{
    int i = text ? cr_game__find_name(names, count, text, strlen(text)) : -1;
    if (i < 0)
        return cr_error_set(err, CR_EINVAL, "unknown %s '%s' (expected %s)", what, text ? text : "",
                            expected);
    *out = i;
    return 0;
}

const char *cr_variant_name(cr_variant v) { return name_of(variant_names, CR_VARIANT_COUNT, (int)v); }
const char *cr_algo_name(cr_algo a) { return name_of(algo_names, CR_ALGO_COUNT, (int)a); }
const char *cr_moves_name(cr_moves m) { return name_of(moves_names, CR_MOVES_COUNT, (int)m); }

const char *cr_winner_name(int winner)
{
    return winner > 0 ? "first" : winner < 0 ? "second" : "draw";
}

int cr_variant_parse(cr_variant *out, const char *name, cr_error *err)
{
    int i, rc = cr_game__parse_name(&i, variant_names, CR_VARIANT_COUNT, "variant", "total, diff, remaining or winner",
                                    name, err);
    if (rc == 0)
        *out = (cr_variant)i;
    return rc;
}

int cr_algo_parse(cr_algo *out, const char *name, cr_error *err)
{
    int i, rc = cr_game__parse_name(&i, algo_names, CR_ALGO_COUNT, "algorithm", "auto, linear, dp or naive", name, err);
    if (rc == 0)
        *out = (cr_algo)i;
    return rc;
}

int cr_moves_parse(cr_moves *out, const char *name, cr_error *err)
{
    int i, rc = cr_game__parse_name(&i, moves_names, CR_MOVES_COUNT, "moves policy", "fast, canonical or none", name,
                                    err);
    if (rc == 0)
        *out = (cr_moves)i;
    return rc;
}

int cr_variants_parse(unsigned *out, const char *list, cr_error *err)
{
    if (!list || !*list)
        return cr_error_set(err, CR_EINVAL, "empty variant list");
    if (strcmp(list, "all") == 0) {
        *out = CR_VARIANTS_ALL;
        return 0;
    }
    unsigned mask = 0;
    for (const char *p = list;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        int i = cr_game__find_name(variant_names, CR_VARIANT_COUNT, p, len);
        if (i < 0 && len == 3 && strncmp(p, "all", 3) == 0)
            return cr_error_set(err, CR_EINVAL, "'all' in '%s' stands alone, not in a list", list);
        if (i < 0)
            return cr_error_set(err, CR_EINVAL,
                                "unknown variant '%.*s' in '%s' (expected total, diff, remaining, winner or all)",
                                (int)len, p, list);
        mask |= CR_VARIANT_BIT(i);
        if (!comma)
            break;
        p = comma + 1;
    }
    *out = mask;
    return 0;
}

void cr_variants_format(char out[CR_VARIANTS_TEXT_MAX], unsigned mask)
{
    size_t len = 0;
    for (int v = 0; v < CR_VARIANT_COUNT; v++) {
        if (!(mask & CR_VARIANT_BIT(v)))
            continue;
        if (len)
            out[len++] = ',';
        size_t k = strlen(variant_names[v]);
        memcpy(out + len, variant_names[v], k);
        len += k;
    }
    out[len] = '\0';
}

/* Numbers on the command line: counts and seeds, ids, "MIN..MAX" ranges and
 * the problem's constraints built from them, and a shard's "K/N". */
#include <string.h>

#include "cli/cli.h"
#include "coinrow/number.h"
#include "util/util.h"

int cli_u64_parse(uint64_t *out, const char *text, const char *what, cr_error *err)
{
    uint64_t v = 0;
    if (!*text)
        return cr_errorf(err, CR_EINVAL, "%s is empty", what);
    for (const char *p = text; *p; p++) {
        if (*p < '0' || *p > '9')
            return cr_errorf(err, CR_EINVAL, "%s '%s' is not a whole number", what, text);
        unsigned digit = (unsigned)(*p - '0');
        if (v > (UINT64_MAX - digit) / 10)
            return cr_errorf(err, CR_EINVAL, "%s '%s' is larger than %llu", what, text,
                             (unsigned long long)UINT64_MAX);
        v = v * 10 + digit;
    }
    *out = v;
    return 0;
}

/* text[0..len) as a number in [min, max], without a sign. */
static int plain_parse(int64_t *out, const char *text, size_t len, int64_t min, int64_t max)
{
    int64_t v;
    if (len == 0 || text[0] < '0' || text[0] > '9' || cr_int64_parse(&v, text, len) != 0 || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

int cli_int_parse(int64_t *out, const char *text, int64_t min, int64_t max)
{
    int64_t v;
    if (!text)
        return -1;
    if (min >= 0) /* a count, a limit, points: written without a sign ('+5' and '-0' are typos) */
        return plain_parse(out, text, strlen(text), min, max);
    if (cr_int64_parse(&v, text, strlen(text)) != 0 || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

int cli_shard_parse(uint32_t *out_k, uint32_t *out_n, const char *text)
{
    const char *slash = strchr(text, '/');
    int64_t k, n;
    if (!slash || plain_parse(&n, slash + 1, strlen(slash + 1), 1, UINT32_MAX) != 0 ||
        plain_parse(&k, text, (size_t)(slash - text), 0, n - 1) != 0)
        return -1;
    *out_k = (uint32_t)k;
    *out_n = (uint32_t)n;
    return 0;
}

int cli_range_parse(int64_t *out_min, int64_t *out_max, const char *text, const char *what, cr_error *err)
{
    const char *dots = strstr(text, "..");
    size_t len = strlen(text), min_len = dots ? (size_t)(dots - text) : len;
    const char *max_text = dots ? dots + 2 : text;
    if (cr_int64_parse(out_min, text, min_len) != 0 || cr_int64_parse(out_max, max_text, strlen(max_text)) != 0)
        return cr_errorf(err, CR_EINVAL, "%s '%s' is not a range MIN..MAX of 64-bit integers", what, text);
    if (*out_min > *out_max)
        return cr_errorf(err, CR_EINVAL, "%s '%s' is an empty range (MIN > MAX)", what, text);
    return 0;
}

int cli_constraints_parse(cr_constraints *out, const char *n, const char *values, int even_n, int odd_sum,
                          cr_error *err)
{
    int64_t n_min, n_max;
    int rc = cli_range_parse(&n_min, &n_max, n, "--n", err);
    if (rc == 0 && (n_min < 1 || (uint64_t)n_max > CR_N_MAX))
        rc = cr_errorf(err, CR_EINVAL, "--n '%s' must lie within 1..%zu", n, CR_N_MAX);
    if (rc == 0)
        rc = cli_range_parse(&out->value_min, &out->value_max, values, "--values", err);
    if (rc)
        return rc;
    out->n_min = (size_t)n_min;
    out->n_max = (size_t)n_max;
    out->even_n = even_n;
    out->odd_sum = odd_sum;
    return 0;
}

/* Contest input files: n on the first line, then n integers. */
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "source/readers.h"

int cr_source__contest(FILE *f, const char *name, const char *ext_id, const cr_source_opts *opts, cr_row_fn fn,
                       void *ctx, cr_error *err)
{
    (void)opts;
    char *text = NULL, why[160];
    size_t len = 0;
    int rc = cr_read_all(&text, &len, f, name, err);
    if (rc)
        return rc;
    cr_coins coins = {0};
    cr_error bad = {0};
    const char *start = text + cr_utf8_bom(text, len), *end = text + len;
    const char *nl = memchr(start, '\n', (size_t)(end - start));
    const char *values = nl ? nl + 1 : end;
    cr_row row = {
        .source = name,
        .line = 1,
        .ext_id = ext_id,
        .ext_id_len = strlen(ext_id),
        .raw = start,
        .raw_len = (size_t)(end - start),
        .offset = len,
    };
    int64_t n = 0;
    size_t first_len = (size_t)(values - start);
    while (first_len > 0 && memchr(" \t\r\n", start[first_len - 1], 4))
        first_len--;
    const char *nul = memchr(start, '\0', (size_t)(end - start));
    if (nul) {
        /* a NUL is no white space: it would end a value early */
        const char *line_start = start;
        for (const char *p = start; p < nul; p++)
            if (*p == '\n')
                line_start = p + 1, row.line++;
        snprintf(why, sizeof why, "a NUL byte at character %zu", (size_t)(nul - line_start) + 1);
        row.reason = why;
    } else if (first_len == 0 && values == end) {
        row.reason = "the file is empty (expected n, then n integers)";
    } else if (cr_coin_parse(&n, start, first_len, 1, &bad) != 0 || n < 1) {
        char shown[44];
        snprintf(why, sizeof why, "the first line must be n, the number of values, not '%s'",
                 cr_text_shown_len(shown, sizeof shown, start, first_len));
        row.reason = why;
    } else if ((rc = cr_coins_parse(&coins, values, (size_t)(end - values), &bad)) != 0) {
        /* memory running out is the reading's failure, not the row's fault */
        if (rc == CR_ENOMEM) {
            rc = cr_errorf(err, CR_ENOMEM, "%s line 2: %s", name, bad.msg);
            goto done;
        }
        row.line = 2; /* the line of what was refused */
        for (const char *p = values; p < values + coins.failed_at; p++)
            row.line += *p == '\n';
        row.reason = bad.msg;
    } else if ((row.reason = cr_source__check_n(why, sizeof why, start, first_len, coins.n)) == NULL) {
        row.coins = coins.v;
        row.n = coins.n;
        row.coins_json = coins.json;
        row.coins_json_len = coins.json_len;
    }
    rc = fn(ctx, &row);
done:
    cr_coins_free(&coins);
    free(text);
    return rc;
}

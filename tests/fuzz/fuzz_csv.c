/* Fuzz target: the CSV, TSV and wide CSV reader (source/csv.c).  The
 * first byte picks the format (and an id column or none), the rest is the
 * file.
 *
 * Contract: every row is accepted or rejected, lines never go back and
 * offsets never pass the input; an accepted row has an id that is not
 * empty and holds no NUL, a value or more, and JSON that reads back to its
 * values; a rejected row says why; the reader returns 0 or CR_EINVAL (a
 * header it cannot use) with a message; every message is valid UTF-8
 * whenever the input is. */
#include "fuzz.h"
#include "source/readers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct seen {
    uint64_t line, offset, size;
    int utf8;
} seen;

static int check_row(void *ctx, const cr_row *row)
{
    seen *s = ctx;
    FUZZ_CHECK(row->line >= 1 && row->line >= s->line, "line %llu after %llu", (unsigned long long)row->line,
               (unsigned long long)s->line);
    FUZZ_CHECK(row->offset >= s->offset && row->offset <= s->size, "offset %llu", (unsigned long long)row->offset);
    s->line = row->line, s->offset = row->offset;
    if (row->ext_id)
        FUZZ_CHECK(row->ext_id_len > 0 && strlen(row->ext_id) == row->ext_id_len, "an id empty or with a NUL");
    if (row->reason) {
        FUZZ_CHECK(row->reason[0] != '\0', "a rejection without a reason");
        FUZZ_CHECK(!s->utf8 || fuzz_utf8_text(row->reason), "the reason '%s' is not UTF-8", row->reason);
        return 0;
    }
    FUZZ_CHECK(row->ext_id != NULL, "an accepted row without an id");
    FUZZ_CHECK(row->n >= 1 && row->coins, "an accepted row without values");
    fuzz_check_json(row->coins_json, row->coins_json_len, row->coins, row->n);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    static const cr_format formats[] = {CR_FORMAT_CSV, CR_FORMAT_TSV, CR_FORMAT_WIDE};
    cr_source_opts opts = {.format = formats[data[0] % 3], .id_col = data[0] & 4 ? "key" : NULL};
    size_t len = size - 1;
    char *text = malloc(len + 1);
    memcpy(text, data + 1, len);
    FILE *f = fuzz_file(text, len);
    seen s = {0, 0, len, fuzz_utf8(text, len)};
    cr_error err = {0};
    int rc = cr_source__csv(f, "fuzz.csv", opts.format, &opts, check_row, &s, &err);
    FUZZ_CHECK(rc == 0 || rc == CR_EINVAL || rc == CR_ENOMEM, "code %d", rc);
    if (rc)
        FUZZ_CHECK(err.msg[0] && (!s.utf8 || fuzz_utf8_text(err.msg)), "the message '%s'", err.msg);
    fclose(f);
    free(text);
    return 0;
}

/* Fuzz target: contest input files, read by ingest's lenient reader
 * (source/contest_files.c) and by the strict validator of validate and the
 * exported judges (cr_contest_input_parse).
 *
 * Contract: the reader hands over exactly one row, accepted with a value or
 * more and JSON that reads back to them, or rejected saying why; the
 * validator accepts only what the reader accepts, with the same values,
 * and what it accepts under constraints it accepts without them; its
 * refusals are CR_EINVAL (or CR_ENOMEM) naming the line; every message is
 * valid UTF-8 whenever the input is. */
#include "coinrow/contest.h"
#include "fuzz.h"
#include "source/readers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct seen {
    int rows, utf8;
    cr_coins coins; /* the accepted row's values */
    int accepted;
} seen;

static int keep_row(void *ctx, const cr_row *row)
{
    seen *s = ctx;
    s->rows++;
    FUZZ_CHECK(row->ext_id && strcmp(row->ext_id, "case") == 0 && row->line >= 1, "the row's id or line");
    if (row->reason) {
        FUZZ_CHECK(row->reason[0] && (!s->utf8 || fuzz_utf8_text(row->reason)), "the reason '%s'", row->reason);
        return 0;
    }
    FUZZ_CHECK(row->n >= 1, "an accepted row without values");
    fuzz_check_json(row->coins_json, row->coins_json_len, row->coins, row->n);
    s->accepted = 1;
    s->coins.n = 0;
    for (size_t i = 0; i < row->n; i++)
        if (cr_coins_push(&s->coins, row->coins[i], NULL))
            abort();
    return 0;
}

static void check_refusal(int rc, const cr_error *err, int utf8)
{
    FUZZ_CHECK(rc == CR_EINVAL || rc == CR_ENOMEM, "code %d", rc);
    FUZZ_CHECK(rc == CR_ENOMEM || strstr(err->msg, "line "), "the refusal '%s' names no line", err->msg);
    FUZZ_CHECK(!utf8 || fuzz_utf8_text(err->msg), "the message '%s' is not UTF-8", err->msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    seen s = {0, fuzz_utf8(text, size), {0}, 0};
    FILE *f = size ? fmemopen(text, size, "rb") : fopen("/dev/null", "rb");
    if (!f)
        abort();
    cr_source_opts opts = {.format = CR_FORMAT_CONTEST};
    cr_error err = {0};
    FUZZ_CHECK(cr_source__contest(f, "case.in", "case", &opts, keep_row, &s, &err) == 0, "%s", err.msg);
    fclose(f);
    FUZZ_CHECK(s.rows == 1, "%d rows from one file", s.rows);

    cr_contest_input in = {0}, limited = {0};
    cr_constraints limits = {1, 1000, -1000000000, 1000000000, 0, 0};
    int rc = cr_contest_input_parse(&in, text, size, NULL, &err);
    if (rc == 0) {
        FUZZ_CHECK(s.accepted && in.n == s.coins.n && memcmp(in.coins, s.coins.v, in.n * sizeof *in.coins) == 0,
                   "the validator accepts what the reader does not read the same");
    } else {
        check_refusal(rc, &err, s.utf8);
    }
    int limited_rc = cr_contest_input_parse(&limited, text, size, &limits, &err);
    if (limited_rc == 0)
        FUZZ_CHECK(rc == 0, "accepted under constraints, refused without");
    else
        check_refusal(limited_rc, &err, s.utf8);
    cr_contest_input_free(&in);
    cr_contest_input_free(&limited);
    cr_coins_free(&s.coins);
    free(text);
    return 0;
}

/* Fuzz target: the checker the exported judges run (judge/judge.c over
 * cr_contest_check), under each judging system's convention.  The first
 * byte picks the convention, the variant and whether lines are required;
 * the rest is the input file, the contestant's output and the jury's
 * answer, separated by 0xFF bytes.
 *
 * Contract: the exit status is one of the convention's (testlib 0 1 2 3,
 * Kattis 42 43 1, CMS 0 1); the message is one line on standard error,
 * valid UTF-8 whenever the three files are, and Kattis's judgemessage.txt
 * says the same; CMS prints 1.0 or 0.0 exactly when it judged, 1.0 with
 * translate:success; and the jury's answer given as the contestant's
 * output is accepted, unless the check itself fails or a line is required
 * and the jury gave only the value (a line is optional for the jury). */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <unistd.h>

#include "fuzz.h"
#include "judge/judge.h"
#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[4096], input_path[4200], output_path[4200], answer_path[4200], message_path[4200];

static void write_part(const char *path, const char *bytes, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(bytes, 1, len, f) != len || fclose(f) != 0)
        abort();
}

/* The judgement of the check of output[0..len): its exit status and what
 * it wrote. */
typedef struct judged {
    int status;
    fuzz_output io;
    char *message; /* Kattis's judgemessage.txt */
} judged;

static judged check(cr_convention conv, cr_variant variant, cr_check_moves moves, const char *output, size_t len)
{
    judged j = {0};
    write_part(output_path, output, len);
    remove(message_path);
    char *args[3] = {input_path, conv == CR_TESTLIB ? output_path : answer_path,
                     conv == CR_TESTLIB ? answer_path : conv == CR_CMS ? output_path : dir};
    FILE *in = conv == CR_KATTIS ? fopen(output_path, "rb") : NULL;
    fuzz_output_begin(&j.io, in);
    j.status = cr_judge_check(conv, variant, moves, 3, args);
    fuzz_output_end(&j.io);
    if (in)
        fclose(in);
    FILE *f = fopen(message_path, "rb");
    size_t message_len;
    cr_error ignored;
    if (f && cr_read_all(&j.message, &message_len, f, message_path, &ignored) != 0)
        abort();
    if (f)
        fclose(f);
    return j;
}

/* What every judgement must be. */
static void check_judged(const judged *j, cr_convention conv, int utf8)
{
    const char *err = j->io.err, *nl = strchr(err, '\n');
    FUZZ_CHECK(nl && nl[1] == '\0', "not one line on standard error: '%s'", err);
    FUZZ_CHECK(!utf8 || fuzz_utf8_text(err), "the message '%s' is not UTF-8", err);
    switch (conv) {
    case CR_TESTLIB:
        FUZZ_CHECK(j->status >= 0 && j->status <= 3 && !j->io.out[0], "testlib: status %d", j->status);
        break;
    case CR_KATTIS:
        FUZZ_CHECK(j->status == 42 || j->status == 43 || j->status == 1, "kattis: status %d", j->status);
        FUZZ_CHECK(j->message && strcmp(j->message, err) == 0, "judgemessage.txt says otherwise");
        break;
    default:
        FUZZ_CHECK(j->status == 0 || j->status == 1, "cms: status %d", j->status);
        FUZZ_CHECK(j->status == 0 ? strcmp(j->io.out, "1.0\n") == 0 || strcmp(j->io.out, "0.0\n") == 0
                                  : !j->io.out[0],
                   "cms: status %d with '%s' on standard output", j->status, j->io.out);
        FUZZ_CHECK((strcmp(j->io.out, "1.0\n") == 0) == (strcmp(err, "translate:success\n") == 0),
                   "cms: '%s' and '%s'", j->io.out, err);
        break;
    }
}

static int judge_error(const judged *j, cr_convention conv)
{
    return conv == CR_TESTLIB ? j->status == 3 : j->status == 1;
}

static int accepted(const judged *j, cr_convention conv)
{
    return conv == CR_TESTLIB ? j->status == 0 : conv == CR_KATTIS ? j->status == 42 : j->io.out[0] == '1';
}

static int is_space(char c) { return memchr(" \t\r\n\v\f", c, 6) != NULL; }

/* How many tokens (runs of bytes other than white space) text[0..len) has,
 * after a byte order mark (which the checker skips, as judges do). */
static int tokens(const char *text, size_t len)
{
    int count = 0;
    size_t start = len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    for (size_t i = start; i < len; i++)
        count += !is_space(text[i]) && (i == start || is_space(text[i - 1]));
    return count;
}

static void release(judged *j)
{
    fuzz_output_free(&j->io);
    free(j->message);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    if (!dir[0]) {
        const char *tmp = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
        snprintf(dir, sizeof dir, "%s/fuzz-checker-XXXXXX", tmp);
        if (!mkdtemp(dir))
            abort();
        snprintf(input_path, sizeof input_path, "%s/input", dir);
        snprintf(output_path, sizeof output_path, "%s/output", dir);
        snprintf(answer_path, sizeof answer_path, "%s/answer", dir);
        snprintf(message_path, sizeof message_path, "%s/judgemessage.txt", dir);
    }
    cr_convention conv = (cr_convention)(data[0] % 3);
    cr_variant variant = (cr_variant)(data[0] / 4 % 4);
    cr_check_moves moves = data[0] & 16 ? CR_CHECK_MOVES_REQUIRED : CR_CHECK_MOVES_IGNORED;
    const char *parts[3] = {""}, *p = (const char *)data + 1, *end = (const char *)data + size;
    size_t lens[3] = {0};
    for (int k = 0; k < 3; k++) {
        const char *cut = k < 2 ? memchr(p, 0xFF, (size_t)(end - p)) : NULL;
        parts[k] = p;
        lens[k] = (size_t)((cut ? cut : end) - p);
        p = cut ? cut + 1 : end;
    }
    int utf8 = fuzz_utf8(parts[0], lens[0]) && fuzz_utf8(parts[1], lens[1]) && fuzz_utf8(parts[2], lens[2]);
    write_part(input_path, parts[0], lens[0]);
    write_part(answer_path, parts[2], lens[2]);

    judged given = check(conv, variant, moves, parts[1], lens[1]);
    check_judged(&given, conv, utf8);
    judged jury = check(conv, variant, moves, parts[2], lens[2]);
    check_judged(&jury, conv, utf8);
    if (moves == CR_CHECK_MOVES_IGNORED || tokens(parts[2], lens[2]) > 1)
        FUZZ_CHECK(accepted(&jury, conv) || judge_error(&jury, conv), "the jury's own answer: '%s'", jury.io.err);
    release(&given);
    release(&jury);
    return 0;
}

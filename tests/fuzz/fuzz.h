/* What the fuzz targets share (make fuzz; docs/testing.md, "Fuzzing"): the
 * contract checks, and the output of code that prints, caught in memory. */
#ifndef CR_FUZZ_H
#define CR_FUZZ_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* A broken contract: says which, then aborts, so that libFuzzer keeps the
 * input as a crash. */
#define FUZZ_CHECK(cond, ...)                                                                                  \
    do {                                                                                                       \
        if (!(cond)) {                                                                                         \
            fprintf(stderr, "contract broken: %s (%s:%d): ", #cond, __FILE__, __LINE__);                    \
            fprintf(stderr, __VA_ARGS__);                                                                      \
            fputc('\n', stderr);                                                                               \
            abort();                                                                                           \
        }                                                                                                      \
    } while (0)

/* text[0..len) as a file that has a descriptor, as the CSV reader reads
 * through one (fmemopen gives none): a memory file read from its start;
 * aborts when none can be made. */
static inline FILE *fuzz_file(const char *text, size_t len)
{
    FILE *f = tmpfile();
    if (!f || fwrite(text, 1, len, f) != len || fflush(f) != 0 || fseek(f, 0, SEEK_SET) != 0)
        abort();
    return f;
}

/* Whether s[0..len) is well-formed UTF-8 (no overlong forms, no
 * surrogates, nothing past U+10FFFF). */
static inline int fuzz_utf8(const char *text, size_t len)
{
    const unsigned char *s = (const unsigned char *)text;
    for (size_t i = 0; i < len;) {
        unsigned c = s[i], lo = 0x80, hi = 0xBF;
        size_t more;
        if (c < 0x80) {
            i++;
            continue;
        } else if (c >= 0xC2 && c <= 0xDF) {
            more = 1;
        } else if (c >= 0xE0 && c <= 0xEF) {
            more = 2;
            lo = c == 0xE0 ? 0xA0 : lo;
            hi = c == 0xED ? 0x9F : hi;
        } else if (c >= 0xF0 && c <= 0xF4) {
            more = 3;
            lo = c == 0xF0 ? 0x90 : lo;
            hi = c == 0xF4 ? 0x8F : hi;
        } else {
            return 0;
        }
        if (len - i <= more)
            return 0;
        for (size_t k = 1; k <= more; k++, lo = 0x80, hi = 0xBF)
            if (s[i + k] < lo || s[i + k] > hi)
                return 0;
        i += more + 1;
    }
    return 1;
}

static inline int fuzz_utf8_text(const char *s) { return fuzz_utf8(s, strlen(s)); }

/* Whether s holds nothing a terminal would obey or that reorders a line:
 * no C0 control but the line end, no DEL, no C1 control (U+0080..U+009F),
 * no bidirectional embedding, override or isolate (U+202A..U+202E,
 * U+2066..U+2069).  Text from the arguments, a file or a database is
 * printed escaped (util/text.c); this is the contract's own reading. */
static inline int fuzz_terminal_safe(const char *text)
{
    const unsigned char *s = (const unsigned char *)text;
    for (size_t i = 0; s[i]; i++) {
        if ((s[i] < 0x20 && s[i] != '\n') || s[i] == 0x7f || (s[i] == 0xC2 && s[i + 1] >= 0x80 && s[i + 1] <= 0x9F))
            return 0;
        if (s[i] == 0xE2 && ((s[i + 1] == 0x80 && s[i + 2] >= 0xAA && s[i + 2] <= 0xAE) ||
                             (s[i + 1] == 0x81 && s[i + 2] >= 0xA6 && s[i + 2] <= 0xA9)))
            return 0;
    }
    return 1;
}

/* Checks that json[0..len) is how the coins parser writes v[0..n): the
 * parser reads it back to the same values and writes it the same. */
static inline void fuzz_check_json(const char *json, size_t len, const int64_t *v, size_t n)
{
    cr_coins back = {0};
    cr_error err = {0};
    FUZZ_CHECK(len == strlen(json), "the JSON holds a NUL");
    FUZZ_CHECK(cr_coins_parse(&back, json, len, &err) == 0, "the JSON '%s' does not parse: %s", json, err.msg);
    FUZZ_CHECK(back.n == n && memcmp(back.v, v, n * sizeof *v) == 0, "the JSON '%s' reads as other values", json);
    FUZZ_CHECK(back.json_len == len && memcmp(back.json, json, len) == 0, "the JSON '%s' is written again as '%s'",
               json, back.json);
    cr_coins_free(&back);
}

/* Output caught in memory: the FILE pointers stdout and stderr (and stdin)
 * are swapped for memory streams around a call, so that libFuzzer's own
 * output and the sanitizers' reports (written to the descriptors) still
 * reach the terminal.  glibc lets a program assign them. */
typedef struct fuzz_output {
    FILE *saved_in, *saved_out, *saved_err;
    char *out, *err;
    size_t out_len, err_len;
} fuzz_output;

static inline void fuzz_output_begin(fuzz_output *o, FILE *in)
{
    memset(o, 0, sizeof *o);
    o->saved_in = stdin, o->saved_out = stdout, o->saved_err = stderr;
    stdout = open_memstream(&o->out, &o->out_len);
    stderr = open_memstream(&o->err, &o->err_len);
    if (in)
        stdin = in;
    if (!stdout || !stderr)
        abort();
}

/* Restores the streams; o->out and o->err hold what was written (free
 * them with fuzz_output_free). */
static inline void fuzz_output_end(fuzz_output *o)
{
    fclose(stdout);
    fclose(stderr);
    stdin = o->saved_in, stdout = o->saved_out, stderr = o->saved_err;
}

static inline void fuzz_output_free(fuzz_output *o)
{
    free(o->out);
    free(o->err);
}

#endif

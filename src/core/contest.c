/* Contest files: strict reading of input files, token reading of answers,
 * and the checker's judgement. */
#include "coinrow/contest.h"

#include <stdlib.h>
#include <string.h>

#include "coinrow/moves.h"
#include "coinrow/number.h"
#include "coinrow/solve.h"
#include "internal.h"

/* --- numbers and how a message shows text -------------------------------- */

/* Reads a decimal integer with an optional sign from s[0..len).  Returns 0,
 * CR_EINVAL (not an integer) or CR_EOVERFLOW (outside int64).  *out_unplain
 * is NULL when it is written the one way an input file may write it, else
 * what is wrong: a '+', a leading zero, "-0". */
static int read_integer(int64_t *out, const char **out_unplain, const char *s, size_t len)
{
    int rc = cr_int64_parse(out, s, len);
    if (rc)
        return rc;
    size_t sign = s[0] == '-' || s[0] == '+';
    *out_unplain = s[0] == '+'                      ? "has a '+' sign"
                   : s[sign] == '0' && len - sign > 1 ? "has a leading zero"
                   : s[0] == '-' && *out == 0       ? "is minus zero"
                                                    : NULL;
    return 0;
}

/* A token as messages show it: escaped, at most 24 bytes. */
static void quote(char *out, size_t cap, const char *text, size_t len)
{
    cr_contest_escape(out, cap, text, len, 24);
}

/* --- reading text with a position ------------------------------------------ */

typedef struct cursor {
    const char *text;
    size_t len, at;
    size_t line, line_start; /* 1-based line of `at` and where that line starts */
} cursor;

static size_t column(const cursor *c) { return c->at - c->line_start + 1; }

/* testlib's blanks; any other byte belongs to a token */
static int is_blank(char ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r'; }

/* The character at the cursor, in words, for "expected ..., found %s". */
static void describe_here(char *out, size_t cap, const cursor *c)
{
    if (c->at == c->len) {
        cr_error__format(out, cap, "the end of the file");
        return;
    }
    switch (c->text[c->at]) {
    case ' ': cr_error__format(out, cap, "a space"); break;
    case '\t': cr_error__format(out, cap, "a tab"); break;
    case '\n': cr_error__format(out, cap, "the end of the line"); break;
    case '\r': cr_error__format(out, cap, "a carriage return (lines must end in LF alone)"); break;
    default: {
        char shown[16];
        quote(shown, sizeof shown, c->text + c->at, 1);
        cr_error__format(out, cap, "'%s'", shown);
    }
    }
}

/* Moves past the token at the cursor (bytes up to white space); its text is
 * text[start..c->at). */
static size_t take_token(cursor *c)
{
    size_t start = c->at;
    while (c->at < c->len && !is_blank(c->text[c->at]))
        c->at++;
    return start;
}

static void skip_blanks(cursor *c)
{
    for (; c->at < c->len && is_blank(c->text[c->at]); c->at++)
        if (c->text[c->at] == '\n') {
            c->line++;
            c->line_start = c->at + 1;
        }
}

/* --- input files --------------------------------------------------------- */

static int input_error(cr_error *err, const cursor *c, size_t col, const char *what)
{
    return cr_error_set(err, CR_EINVAL, "line %zu, column %zu: %s", c->line, col, what);
}

/* An error about the character at the cursor: "expected X, found Y". */
static int unexpected(cr_error *err, const cursor *c, const char *expected)
{
    char found[64], what[160];
    describe_here(found, sizeof found, c);
    cr_error__format(what, sizeof what, "expected %s, found %s", expected, found);
    return input_error(err, c, column(c), what);
}

/* Reads a canonical integer token at the cursor, naming it `what` in
 * errors, or "value k" when what is NULL: the name and the token's quote
 * are made only for an error (10^6 values would pay for them otherwise). */
static int input_integer(int64_t *out, cursor *c, const char *what, size_t k, cr_error *err)
{
    size_t col = column(c), start = c->at;
    const char *unplain = NULL;
    int rc = CR_EINVAL;
    if (c->at < c->len && !is_blank(c->text[c->at])) {
        start = take_token(c);
        rc = read_integer(out, &unplain, c->text + start, c->at - start);
        if (rc == 0 && !unplain)
            return 0;
    }
    char name[48], shown[128], msg[192];
    if (!what)
        cr_error__format(name, sizeof name, "value %zu", k);
    if (start == c->at)
        return unexpected(err, c, what ? what : name);
    quote(shown, sizeof shown, c->text + start, c->at - start);
    const char *why = rc == CR_EINVAL ? "is not an integer" : rc == CR_EOVERFLOW ? "is outside the 64-bit range" : unplain;
    cr_error__format(msg, sizeof msg, "%s ('%s') %s", what ? what : name, shown, why);
    return input_error(err, c, col, msg);
}

/* Expects the LF that ends the current line. */
static int end_line(cursor *c, const char *after, cr_error *err)
{
    if (c->at == c->len) {
        char msg[96];
        cr_error__format(msg, sizeof msg, "missing newline after %s at the end of the file", after);
        return input_error(err, c, column(c), msg);
    }
    if (c->text[c->at] != '\n') {
        char expected[96];
        cr_error__format(expected, sizeof expected, "the end of the line after %s", after);
        return unexpected(err, c, expected);
    }
    c->at++;
    c->line++;
    c->line_start = c->at;
    return 0;
}

static int read_n(size_t *out, cursor *c, const cr_constraints *limits, cr_error *err)
{
    size_t col = column(c);
    int64_t n;
    if (c->len >= 3 && memcmp(c->text, "\xEF\xBB\xBF", 3) == 0)
        return input_error(err, c, col, "the file starts with a byte order mark (UTF-8 BOM)");
    int rc = input_integer(&n, c, "n", 0, err);
    if (rc)
        return rc;
    size_t n_min = limits ? limits->n_min : 1, n_max = limits ? limits->n_max : CR_N_MAX;
    char msg[160];
    if (n < 0 || (uint64_t)n < n_min || (uint64_t)n > n_max) {
        cr_error__format(msg, sizeof msg, "n = %lld is out of range %zu..%zu", (long long)n, n_min, n_max);
        return input_error(err, c, col, msg);
    }
    if (limits && limits->even_n && n % 2 != 0) {
        cr_error__format(msg, sizeof msg, "n = %lld is odd, the problem wants an even n", (long long)n);
        return input_error(err, c, col, msg);
    }
    *out = (size_t)n;
    return end_line(c, "n", err);
}

/* Expects the single space before value k (1-based) of n. */
static int separator(cursor *c, size_t k, size_t n, cr_error *err)
{
    if (c->at < c->len && c->text[c->at] == ' ') {
        c->at++;
        if (c->at < c->len && c->text[c->at] == ' ')
            return input_error(err, c, column(c), "two spaces in a row (values are separated by single spaces)");
        return 0;
    }
    if (c->at == c->len || c->text[c->at] == '\n') {
        char msg[128];
        cr_error__format(msg, sizeof msg, "the line has %zu value%s, n = %zu says it should have %zu", k - 1,
                         k - 1 == 1 ? "" : "s", n, n);
        return input_error(err, c, column(c), msg);
    }
    return unexpected(err, c, "a single space between values");
}

/* After the n-th value: only the end of the line may come. */
static int after_values(cursor *c, size_t n, cr_error *err)
{
    if (c->at < c->len && c->text[c->at] == ' ') {
        cursor ahead = *c;
        while (ahead.at < ahead.len && ahead.text[ahead.at] == ' ')
            ahead.at++;
        char msg[128];
        if (ahead.at < ahead.len && !is_blank(ahead.text[ahead.at]))
            cr_error__format(msg, sizeof msg, "more values than n = %zu", n);
        else
            cr_error__format(msg, sizeof msg, "a space at the end of the line");
        return input_error(err, c, column(c), msg);
    }
    return end_line(c, "the last value", err);
}

static int read_values(int64_t *coins, cursor *c, size_t n, const cr_constraints *limits, cr_error *err)
{
    uint64_t sum = 0; /* modulo 2^64: enough for its parity */
    for (size_t k = 1; k <= n; k++) {
        int rc = k > 1 ? separator(c, k, n, err) : 0;
        if (rc == 0 && k == 1 && (c->at == c->len || c->text[c->at] == '\n')) {
            char msg[128];
            cr_error__format(msg, sizeof msg, "the line has no values, n = %zu says it should have %zu", n, n);
            rc = input_error(err, c, column(c), msg);
        }
        size_t col = column(c);
        int64_t v;
        if (rc == 0)
            rc = input_integer(&v, c, NULL, k, err);
        if (rc)
            return rc;
        if (limits && (v < limits->value_min || v > limits->value_max)) {
            char msg[160];
            cr_error__format(msg, sizeof msg, "value %zu (%lld) is out of range %lld..%lld", k, (long long)v,
                             (long long)limits->value_min, (long long)limits->value_max);
            return input_error(err, c, col, msg);
        }
        coins[k - 1] = v; /* k values read fill k <= cap slots (see the caller) */
        sum += (uint64_t)v;
    }
    int rc = after_values(c, n, err);
    if (rc == 0 && limits && limits->odd_sum && sum % 2 == 0)
        rc = cr_error_set(err, CR_EINVAL, "line 2: the values add up to an even number, the problem wants an odd sum");
    return rc;
}

int cr_contest_input_parse(cr_contest_input *out, const char *text, size_t len, const cr_constraints *limits,
                           cr_error *err)
{
    out->coins = NULL;
    out->n = 0;
    cursor c = {text, len, 0, 1, 0};
    size_t n = 0;
    int rc = read_n(&n, &c, limits, err);
    if (rc)
        return rc;
    /* k values take at least 2k - 1 bytes, so a short file cannot make us
     * allocate for a huge n: it fails on the count first. */
    size_t room = (len - c.at + 1) / 2, cap = n < room ? n : room;
    out->coins = (int64_t *)malloc((cap ? cap : 1) * sizeof *out->coins);
    if (!out->coins)
        return cr_error_set(err, CR_ENOMEM, "no memory for %zu coins", cap);
    rc = read_values(out->coins, &c, n, limits, err);
    if (rc == 0 && c.at < len) {
        rc = c.text[c.at] == '\n' ? input_error(err, &c, column(&c), "an empty line after the values")
                                  : unexpected(err, &c, "the end of the file after the values");
    }
    if (rc) {
        cr_contest_input_free(out);
        return rc;
    }
    out->n = n;
    return 0;
}

/* The seed's line: canonical decimal (no sign, no leading zero) within
 * 64 bits, then LF and the end of the file. */
static int read_seed(uint64_t *out, cursor *c, cr_error *err)
{
    size_t col = column(c), start = c->at;
    if (c->at == c->len || is_blank(c->text[c->at]))
        return unexpected(err, c, "the jury's seed");
    take_token(c);
    const char *s = c->text + start;
    size_t len = c->at - start, k = 0;
    uint64_t v = 0;
    while (k < len && s[k] >= '0' && s[k] <= '9' && v <= (UINT64_MAX - (uint64_t)(s[k] - '0')) / 10)
        v = v * 10 + (uint64_t)(s[k++] - '0');
    if (k < len || (s[0] == '0' && len > 1)) {
        char shown[128], msg[192];
        quote(shown, sizeof shown, s, len);
        cr_error__format(msg, sizeof msg, "the jury's seed ('%s') is not a decimal number from 0 to %llu", shown,
                         (unsigned long long)UINT64_MAX);
        return input_error(err, c, col, msg);
    }
    int rc = end_line(c, "the seed", err);
    if (rc == 0 && c->at < c->len)
        rc = unexpected(err, c, "the end of the file after the seed");
    if (rc == 0)
        *out = v;
    return rc;
}

int cr_contest_game_parse(cr_contest_input *out, uint64_t *out_seed, const char *text, size_t len,
                          const cr_constraints *limits, cr_error *err)
{
    /* the row is the first two lines: read as an input file, then the seed */
    const char *first = (const char *)memchr(text, '\n', len);
    const char *second = first ? (const char *)memchr(first + 1, '\n', len - (size_t)(first + 1 - text)) : NULL;
    size_t row = second ? (size_t)(second + 1 - text) : len;
    int rc = cr_contest_input_parse(out, text, row, limits, err);
    if (rc)
        return rc;
    cursor c = {text, len, row, 3, row};
    rc = read_seed(out_seed, &c, err);
    if (rc)
        cr_contest_input_free(out);
    return rc;
}

/* Solves `in` for the variants; 0 when every value is given. */
static int solve_values(cr_result out[CR_VARIANT_COUNT], const cr_contest_input *in, unsigned variants,
                        cr_error *err)
{
    cr_solver *solver = NULL;
    cr_solve_opts opts = {variants, CR_ALGO_AUTO, CR_MOVES_NONE};
    int rc = cr_solver_new(&solver, err);
    if (rc == 0)
        rc = cr_solve(out, solver, in->coins, in->n, &opts, err);
    cr_solver_free(solver);
    return rc;
}

int cr_contest_answerable(const cr_contest_input *in, unsigned variants, cr_error *err)
{
    cr_result results[CR_VARIANT_COUNT];
    cr_error why = {CR_OK, ""};
    int rc = solve_values(results, in, variants, &why);
    for (int v = 0; rc == CR_EOVERFLOW && v < CR_VARIANT_COUNT; v++)
        if ((variants & CR_VARIANT_BIT(v)) && (results[v].missing & CR_FIGURE_VALUE))
            return cr_error_set(err, rc, "line 2: no %s answer can be given: %s", cr_variant_name((cr_variant)v),
                                why.msg);
    if (rc && err)
        *err = why;
    return rc;
}

/* The first of coins[0..n) that differs from the first (0-based), or 0
 * when they are all equal. */
static size_t first_unequal(const int64_t *coins, size_t n)
{
    for (size_t k = 1; k < n; k++)
        if (coins[k] != coins[0])
            return k;
    return 0;
}

int cr_contest_all_equal(const cr_contest_input *in, cr_error *err)
{
    size_t k = first_unequal(in->coins, in->n);
    if (k)
        return cr_error_set(err, CR_EINVAL,
                            "line 2: coin %zu (value %lld) differs from coin 1 (value %lld), the group wants all its "
                            "coins equal",
                            k + 1, (long long)in->coins[k], (long long)in->coins[0]);
    return 0;
}

int cr_contest_meets(const int64_t *coins, size_t n, const cr_constraints *limits, int all_equal, cr_error *err)
{
    if (n < limits->n_min || n > limits->n_max)
        return cr_error_set(err, CR_EINVAL, "n = %zu is out of range %zu..%zu", n, limits->n_min, limits->n_max);
    if (limits->even_n && n % 2 != 0)
        return cr_error_set(err, CR_EINVAL, "n = %zu is odd, the group wants an even n", n);
    uint64_t sum = 0; /* modulo 2^64: enough for its parity */
    for (size_t k = 0; k < n; k++) {
        if (coins[k] < limits->value_min || coins[k] > limits->value_max)
            return cr_error_set(err, CR_EINVAL, "value %zu (%lld) is out of range %lld..%lld", k + 1,
                                (long long)coins[k], (long long)limits->value_min, (long long)limits->value_max);
        sum += (uint64_t)coins[k];
    }
    if (limits->odd_sum && sum % 2 == 0)
        return cr_error_set(err, CR_EINVAL, "the values add up to an even number, the group wants an odd sum");
    size_t k = all_equal ? first_unequal(coins, n) : 0;
    if (k)
        return cr_error_set(err, CR_EINVAL, "coin %zu (value %lld) differs from coin 1 (value %lld), the group wants "
                                            "all its coins equal",
                            k + 1, (long long)coins[k], (long long)coins[0]);
    return 0;
}

char *cr_contest_greedy_answer(char *out, const cr_contest_input *in, cr_variant variant, int lines)
{
    char *line = out + 44; /* after the value (at most 41 characters) and its newline */
    cr_moves_greedy(line, in->coins, in->n, variant);
    cr_i128 scores[2];
    (void)cr_moves__scores(scores, in->coins, in->n, variant, line, in->n, NULL); /* a legal, full line */
    cr_figures__format(out, 42, cr_moves__value(scores, variant));
    size_t len = strlen(out);
    out[len++] = '\n';
    if (lines) {
        memmove(out + len, line, in->n);
        len += in->n;
        out[len++] = '\n';
    }
    out[len] = '\0';
    return out;
}

void cr_contest_input_free(cr_contest_input *in)
{
    if (!in)
        return;
    free(in->coins);
    in->coins = NULL;
    in->n = 0;
}

/* --- answers --------------------------------------------------------------- */

static const char *const check_moves_names[CR_CHECK_MOVES_COUNT] = {"required", "ignored"};
static const char *const outcome_names[CR_OUTCOME_COUNT] = {"accepted", "wrong answer", "presentation error"};

const char *cr_check_moves_name(cr_check_moves m)
{
    return (unsigned)m < CR_CHECK_MOVES_COUNT ? check_moves_names[m] : NULL;
}

int cr_check_moves_parse(cr_check_moves *out, const char *name, cr_error *err)
{
    int i, rc = cr_game__parse_name(&i, check_moves_names, CR_CHECK_MOVES_COUNT, "moves requirement",
                                    "required or ignored", name, err);
    if (rc == 0)
        *out = (cr_check_moves)i;
    return rc;
}

const char *cr_outcome_name(cr_outcome o) { return (unsigned)o < CR_OUTCOME_COUNT ? outcome_names[o] : NULL; }

/* An answer split into tokens (contest.h, "Answer file"). */
typedef struct answer {
    const char *value_fault; /* NULL, or why the value token is not a plain int64 */
    int64_t value;
    char value_text[96]; /* the value token, quoted; "" when there is none */
    size_t value_line;
    const char *line;    /* the token after the value, or NULL */
    size_t line_len;
    size_t extra_line;   /* the line of the first token after those, or 0 */
    char extra[96];      /* that token, quoted */
} answer;

static void read_answer(answer *out, const char *text, size_t len)
{
    memset(out, 0, sizeof *out);
    cursor c = {text, len, 0, 1, 0};
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        c.at = c.line_start = 3; /* testlib skips a BOM at the start */
    skip_blanks(&c);
    if (c.at == len)
        return;
    out->value_line = c.line;
    size_t start = take_token(&c);
    quote(out->value_text, sizeof out->value_text, text + start, c.at - start);
    int rc = read_integer(&out->value, &out->value_fault, text + start, c.at - start);
    if (rc)
        out->value_fault = rc == CR_EOVERFLOW ? "is outside the 64-bit range" : "is not an integer";
    skip_blanks(&c);
    if (c.at < len) {
        start = take_token(&c);
        out->line = text + start;
        out->line_len = c.at - start;
        skip_blanks(&c);
    }
    if (c.at < len) {
        out->extra_line = c.line;
        start = take_token(&c);
        quote(out->extra, sizeof out->extra, text + start, c.at - start);
    }
}

static int judged(cr_judgement *out, cr_outcome outcome, const char *why)
{
    out->outcome = outcome;
    cr_error__format(out->why, sizeof out->why, "%s", why);
    return 0;
}

/* The jury's answer must be readable, hold the right value and, if it has a
 * line, a legal and optimal one. */
static int check_jury(const answer *jury, const cr_contest_input *in, cr_variant variant, int64_t value,
                      cr_error *err)
{
    if (!jury->value_text[0])
        return cr_error_set(err, CR_EINVAL, "the jury answer is empty");
    if (jury->value_fault)
        return cr_error_set(err, CR_EINVAL, "the jury answer's value '%s' %s", jury->value_text, jury->value_fault);
    if (jury->value != value)
        return cr_error_set(err, CR_EINVAL, "the jury answer's value %lld is wrong: the %s value is %lld",
                            (long long)jury->value, cr_variant_name(variant), (long long)value);
    if (jury->extra_line)
        return cr_error_set(err, CR_EINVAL, "the jury answer goes on after the line of play (line %zu: '%s')",
                            jury->extra_line, jury->extra);
    if (!jury->line)
        return 0;
    cr_verdict verdict;
    int rc = cr_moves_verify(&verdict, in->coins, in->n, variant, jury->line, jury->line_len, err);
    if (rc == 0 && verdict.fault != CR_LINE_OK)
        rc = cr_error_set(err, CR_EINVAL, "the jury answer's line of play is wrong: %s", verdict.why);
    return rc;
}

int cr_contest_check(cr_judgement *out, const cr_contest_input *in, cr_variant variant, cr_check_moves moves,
                     const char *jury, size_t jury_len, const char *output, size_t output_len, cr_error *err)
{
    if (!out || !in || !in->coins || in->n == 0 || (unsigned)variant >= CR_VARIANT_COUNT ||
        (unsigned)moves >= CR_CHECK_MOVES_COUNT || (!jury && jury_len) || (!output && output_len))
        return cr_error_set(err, CR_EINVAL, "check: bad arguments");
    cr_result results[CR_VARIANT_COUNT];
    int rc = solve_values(results, in, CR_VARIANT_BIT(variant), err);
    if (rc)
        return rc;
    int64_t value = results[variant].value;

    answer given;
    read_answer(&given, jury, jury_len);
    if ((rc = check_jury(&given, in, variant, value, err)) != 0)
        return rc;
    const char *jury_line = given.line;
    size_t jury_line_len = given.line_len;

    read_answer(&given, output, output_len);
    char why[CR_ERROR_MSG_MAX];
    if (!given.value_text[0])
        return judged(out, CR_PRESENTATION_ERROR, "the output is empty");
    if (given.value_fault) {
        cr_error__format(why, sizeof why, "line %zu: the value '%s' %s", given.value_line, given.value_text,
                    given.value_fault);
        return judged(out, CR_PRESENTATION_ERROR, why);
    }
    if (given.value != value) {
        cr_error__format(why, sizeof why, "line %zu: the value %s is wrong", given.value_line, given.value_text);
        return judged(out, CR_WRONG_ANSWER, why);
    }
    if (moves == CR_CHECK_MOVES_REQUIRED) {
        if (!given.line)
            return judged(out, CR_PRESENTATION_ERROR, "no line of play after the value");
        /* the jury's line is verified already: the same line needs no second pass */
        int same_as_jury = jury_line && jury_line_len == given.line_len &&
                           memcmp(jury_line, given.line, given.line_len) == 0;
        cr_verdict verdict = {CR_LINE_OK, in->n, ""};
        if (!same_as_jury &&
            (rc = cr_moves_verify(&verdict, in->coins, in->n, variant, given.line, given.line_len, err)) != 0)
            return rc;
        if (verdict.fault != CR_LINE_OK) {
            cr_error__format(why, sizeof why, "line of play: %s", verdict.why);
            return judged(out, CR_WRONG_ANSWER, why);
        }
    }
    if (given.extra_line) {
        cr_error__format(why, sizeof why, "line %zu: unexpected '%s' after the answer", given.extra_line, given.extra);
        return judged(out, CR_PRESENTATION_ERROR, why);
    }
    out->why[0] = '\0';
    out->outcome = CR_ACCEPTED;
    return 0;
}

int cr_contest_text(size_t *out, char **buf, size_t *cap, const int64_t *coins, size_t n, cr_error *err)
{
    size_t most = (n + 1) * (CR_INT64_CHARS + 1);
    if (most > *cap) {
        char *bigger = (char *)realloc(*buf, most);
        if (!bigger)
            return cr_error_set(err, CR_ENOMEM, "no memory for an input of %zu coins", n);
        *buf = bigger;
        *cap = most;
    }
    size_t len = cr_int64_format(*buf, (int64_t)n);
    (*buf)[len++] = '\n';
    for (size_t i = 0; i < n; i++) {
        len += cr_int64_format(*buf + len, coins[i]);
        (*buf)[len++] = i + 1 < n ? ' ' : '\n';
    }
    *out = len;
    return 0;
}

/* Contest files: the strict input reader (the validator) and the answer
 * checker, against hand-made files and a brute-force oracle. */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "coinrow.h"

static const cr_constraints limits = {1, 10, 1, 20, 0, 0};

/* Parses text as an input file; returns the code, err's message in *msg. */
static int parse(const char *text, const cr_constraints *l, char msg[CR_ERROR_MSG_MAX])
{
    cr_error err = {0};
    cr_contest_input in = {0};
    int rc = cr_contest_input_parse(&in, text, strlen(text), l, &err);
    cr_contest_input_free(&in);
    memcpy(msg, err.msg, CR_ERROR_MSG_MAX);
    return rc;
}

static void test_input__well_formed_files_are_read(void **state)
{
    (void)state;
    cr_contest_input in = {0};
    const char *text = "4\n8 15 3 7\n";
    assert_int_equal(cr_contest_input_parse(&in, text, strlen(text), &limits, NULL), 0);
    assert_int_equal(in.n, 4);
    assert_true(in.coins[0] == 8 && in.coins[1] == 15 && in.coins[2] == 3 && in.coins[3] == 7);
    cr_contest_input_free(&in);
    text = "2\n-9223372036854775808 9223372036854775807\n";
    assert_int_equal(cr_contest_input_parse(&in, text, strlen(text), NULL, NULL), 0);
    assert_true(in.coins[0] == INT64_MIN && in.coins[1] == INT64_MAX);
    cr_contest_input_free(&in);
    char msg[CR_ERROR_MSG_MAX];
    cr_constraints strict = {4, 4, -1, 0, 1, 1};
    assert_int_equal(parse("4\n0 -1 0 0\n", &strict, msg), 0);
}

static void test_input__each_malformed_variant_is_rejected_saying_where(void **state)
{
    (void)state;
    static const cr_constraints even_odd = {1, 10, 1, 20, 1, 1};
    struct {
        const char *text;
        const cr_constraints *limits;
        const char *message;
    } cases[] = {
        {"4\n8  15 3 7\n", &limits, "line 2, column 3: two spaces in a row"},
        {" 4\n8 15 3 7\n", &limits, "line 1, column 1: expected n, found a space"},
        {"4\n8 15 3 7", &limits, "line 2, column 9: missing newline after the last value at the end of the file"},
        {"4\n8 15 3 7 \n", &limits, "line 2, column 9: a space at the end of the line"},
        {"4\n8 15 3 7 1\n", &limits, "line 2, column 9: more values than n = 4"},
        {"4\n8 15 3\n", &limits, "line 2, column 7: the line has 3 values, n = 4 says it should have 4"},
        {"3\n8\n", &limits, "line 2, column 2: the line has 1 value, n = 3 says it should have 3"},
        {"4\n\n", &limits, "line 2, column 1: the line has no values"},
        {"4\n8 15 3 21\n", &limits, "line 2, column 8: value 4 (21) is out of range 1..20"},
        {"4\n0 15 3 7\n", &limits, "line 2, column 1: value 1 (0) is out of range 1..20"},
        {"11\n1 1 1 1 1 1 1 1 1 1 1\n", &limits, "line 1, column 1: n = 11 is out of range 1..10"},
        {"0\n\n", NULL, "line 1, column 1: n = 0 is out of range"},
        {"3\n1 2 2\n", &even_odd, "line 1, column 1: n = 3 is odd, the problem wants an even n"},
        {"2\n1 3\n", &even_odd, "line 2: the values add up to an even number"},
        {"4\r\n8 15 3 7\r\n", &limits, "line 1, column 2: expected the end of the line after n, found a carriage return"},
        {"4\n8 15 3 7\r\n", &limits, "line 2, column 9: expected the end of the line after the last value, found a "
                                     "carriage return"},
        {"4\n8 15\t3 7\n", &limits, "line 2, column 5: expected a single space between values, found a tab"},
        {"4\n8 15 3 7\n\n", &limits, "line 3, column 1: an empty line after the values"},
        {"4\n8 15 3 7\nextra\n", &limits, "line 3, column 1: expected the end of the file after the values, found 'e'"},
        {"x4\n8 15 3 7\n", &limits, "line 1, column 1: n ('x4') is not an integer"},
        {"04\n8 15 3 7\n", &limits, "line 1, column 1: n ('04') has a leading zero"},
        {"-1\n8\n", NULL, "line 1, column 1: n = -1 is out of range 1..4294967295"},
        {"\n4\n8 15 3 7\n", &limits, "line 1, column 1: expected n, found the end of the line"},
        {"1\n-05\n", NULL, "line 2, column 1: value 1 ('-05') has a leading zero"},
        {"2\n3 -00\n", NULL, "line 2, column 3: value 2 ('-00') has a leading zero"},
        {"4\n8 +15 3 7\n", &limits, "line 2, column 3: value 2 ('+15') has a '+' sign"},
        {"1\n-0\n", NULL, "line 2, column 1: value 1 ('-0') is minus zero"},
        {"1\n9223372036854775808\n", NULL, "value 1 ('9223372036854775808') is outside the 64-bit range"},
        {"4\n8 15 3 7x\n", &limits, "line 2, column 8: value 4 ('7x') is not an integer"},
        {"\xEF\xBB\xBF" "4\n8 15 3 7\n", &limits, "line 1, column 1: the file starts with a byte order mark"},
        {"4\n8 1\x01 3 7\n", &limits, "value 2 ('1\\x01') is not an integer"},
        {"", &limits, "line 1, column 1: expected n, found the end of the file"},
        {"4", &limits, "line 1, column 2: missing newline after n at the end of the file"},
        {"1000000\n1 2\n", NULL, "line 2, column 4: the line has 2 values, n = 1000000 says"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char msg[CR_ERROR_MSG_MAX];
        assert_int_equal(parse(cases[i].text, cases[i].limits, msg), CR_EINVAL);
        if (!strstr(msg, cases[i].message))
            fail_msg("case %zu: '%s' does not say '%s'", i, msg, cases[i].message);
    }
}

static void test_game__the_seed_is_the_third_line_and_each_fault_is_named_there(void **state)
{
    (void)state;
    cr_contest_input in = {0};
    uint64_t seed = 1;
    const char *text = "4\n8 15 3 7\n0\n";
    assert_int_equal(cr_contest_game_parse(&in, &seed, text, strlen(text), &limits, NULL), 0);
    assert_int_equal(in.n, 4);
    assert_true(seed == 0 && in.coins[3] == 7);
    cr_contest_input_free(&in);
    text = "1\n-3\n18446744073709551615\n";
    assert_int_equal(cr_contest_game_parse(&in, &seed, text, strlen(text), NULL, NULL), 0);
    assert_true(seed == UINT64_MAX && in.n == 1 && in.coins[0] == -3);
    cr_contest_input_free(&in);
    struct {
        const char *text, *message;
    } cases[] = {
        {"4\n8 15 3 7\n", "line 3, column 1: expected the jury's seed, found the end of the file"},
        {"4\n8 15 3 7\n\n", "line 3, column 1: expected the jury's seed, found the end of the line"},
        {"4\n8 15 3 7\n18446744073709551616\n", "line 3, column 1: the jury's seed ('18446744073709551616') is not"},
        {"4\n8 15 3 7\n-1\n", "line 3, column 1: the jury's seed ('-1') is not a decimal number from 0 to"},
        {"4\n8 15 3 7\n07\n", "the jury's seed ('07') is not"},
        {"4\n8 15 3 7\n7", "line 3, column 2: missing newline after the seed at the end of the file"},
        {"4\n8 15 3 7\n7 8\n", "line 3, column 2: expected the end of the line after the seed, found a space"},
        {"4\n8 15 3 7\n7\n\n", "line 4, column 1: expected the end of the file after the seed"},
        {"4\n8 15 3 21\n7\n", "line 2, column 8: value 4 (21) is out of range 1..20"},
        {"4\n8 15 3 7", "line 2, column 9: missing newline after the last value"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cr_error err = {0};
        assert_int_equal(cr_contest_game_parse(&in, &seed, cases[i].text, strlen(cases[i].text), &limits, &err),
                         CR_EINVAL);
        assert_null(in.coins);
        if (!strstr(err.msg, cases[i].message))
            fail_msg("case %zu: '%s' does not say '%s'", i, err.msg, cases[i].message);
    }
}

/* Writes coins as an input file, the way export writes them. */
static char *input_text(const int64_t *coins, size_t n)
{
    size_t cap = 24 * (n + 1);
    char *text = malloc(cap);
    assert_non_null(text);
    size_t len = (size_t)snprintf(text, cap, "%zu\n", n);
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(text + len, cap - len, i ? " %" PRId64 : "%" PRId64, coins[i]);
    snprintf(text + len, cap - len, "\n");
    return text;
}

static void test_input__every_generated_instance_passes_the_validator_with_the_same_constraints(void **state)
{
    (void)state;
    int64_t coins[40];
    for (int p = 0; p < CR_PROFILE_COUNT; p++)
        for (int flags = 0; flags < 4; flags++) {
            cr_gen_spec spec = {{1, 40, -1000000, 1000000000, flags & 1, flags >> 1}, 50, 99, (cr_profile)p};
            if (cr_gen_check(&spec, NULL) != 0) {
                assert_true(p == CR_PROFILE_EQUAL && flags == 3);
                continue;
            }
            for (uint64_t k = 0; k < spec.count; k++) {
                size_t n;
                char msg[CR_ERROR_MSG_MAX];
                assert_int_equal(cr_gen_instance(coins, &n, &spec, k, NULL), 0);
                char *text = input_text(coins, n);
                if (parse(text, &spec.limits, msg) != 0)
                    fail_msg("%s instance %llu: %s", cr_profile_name((cr_profile)p), (unsigned long long)k, msg);
                free(text);
            }
        }
}

/* --- the checker against a brute-force oracle ---------------------------- */

enum { SMALL_N = 8 };

/* best[i][j]: the mover's best lead on coins i..j in the variant's game:
 * a move scores the coin (standard) or the sum left after it (remaining). */
typedef struct oracle {
    int64_t best[SMALL_N][SMALL_N];
    const int64_t *coins;
    int remaining;
} oracle;

static int64_t range_sum(const int64_t *c, size_t i, size_t j)
{
    int64_t s = 0;
    for (size_t k = i; k <= j && j < SMALL_N; k++)
        s += c[k];
    return s;
}

/* The mover's lead from taking the left (or right) end of i..j and then
 * letting the other play optimally. */
static int64_t after_move(const oracle *o, size_t i, size_t j, int left)
{
    const int64_t *c = o->coins;
    if (i == j)
        return o->remaining ? 0 : c[i];
    size_t ni = left ? i + 1 : i, nj = left ? j : j - 1;
    int64_t gain = o->remaining ? range_sum(c, ni, nj) : left ? c[i] : c[j];
    return gain - o->best[ni][nj];
}

static void oracle_fill(oracle *o, const int64_t *coins, size_t n, int remaining)
{
    o->coins = coins;
    o->remaining = remaining;
    for (size_t len = 1; len <= n; len++)
        for (size_t i = 0; i + len <= n; i++) {
            size_t j = i + len - 1;
            int64_t l = after_move(o, i, j, 1), r = after_move(o, i, j, 0);
            o->best[i][j] = l >= r ? l : r;
        }
}

static int64_t variant_value(const oracle *o, size_t n, cr_variant v)
{
    int64_t lead = o->best[0][n - 1];
    switch (v) {
    case CR_TOTAL: return (range_sum(o->coins, 0, n - 1) + lead) / 2;
    case CR_WINNER: return (lead > 0) - (lead < 0);
    default: return lead;
    }
}

/* Whether every move of line (n letters) is optimal; *lead gets the first
 * player's final lead under the variant's scoring. */
static int line_optimal(const oracle *o, size_t n, const char *line, int64_t *lead)
{
    int all = 1;
    *lead = 0;
    for (size_t k = 0, i = 0, j = n - 1; k < n; k++) {
        int left = line[k] == 'L';
        all &= after_move(o, i, j, left) == o->best[i][j];
        int64_t gain = i == j ? (o->remaining ? 0 : o->coins[i])
                              : o->remaining ? range_sum(o->coins, left ? i + 1 : i, left ? j : j - 1)
                                             : o->coins[left ? i : j];
        *lead += k % 2 ? -gain : gain;
        if (left)
            i++;
        else
            j--;
    }
    return all;
}

static cr_outcome judge(const cr_contest_input *in, cr_variant v, cr_check_moves moves, const char *jury,
                        const char *output, char why[CR_ERROR_MSG_MAX])
{
    cr_judgement verdict;
    cr_error err = {0};
    int rc = cr_contest_check(&verdict, in, v, moves, jury, strlen(jury), output, strlen(output), &err);
    if (rc)
        fail_msg("check failed: %s", err.msg);
    if (why)
        memcpy(why, verdict.why, CR_ERROR_MSG_MAX);
    return verdict.outcome;
}

static void test_check__accepts_exactly_the_lines_whose_every_move_is_optimal(void **state)
{
    (void)state;
    cr_rng rng;
    cr_rng_seed(&rng, 2024, 0);
    size_t cancelling = 0;
    for (int trial = 0; trial < 120; trial++) {
        int64_t coins[SMALL_N];
        size_t n = 1 + (size_t)cr_rng_below(&rng, SMALL_N);
        for (size_t i = 0; i < n; i++)
            coins[i] = cr_rng_between(&rng, -4, 9);
        cr_contest_input in = {coins, n};
        for (int v = 0; v < CR_VARIANT_COUNT; v++) {
            oracle o;
            oracle_fill(&o, coins, n, v == CR_REMAINING);
            int64_t value = variant_value(&o, n, (cr_variant)v);
            char jury[64], output[64], line[SMALL_N + 1] = {0};
            snprintf(jury, sizeof jury, "%" PRId64 "\n", value);
            for (unsigned bits = 0; bits < 1u << n; bits++) {
                for (size_t k = 0; k < n; k++)
                    line[k] = bits >> k & 1 ? 'R' : 'L';
                snprintf(output, sizeof output, "%" PRId64 "\n%s\n", value, line);
                int64_t lead;
                int optimal = line_optimal(&o, n, line, &lead);
                char why[CR_ERROR_MSG_MAX];
                cr_outcome got = judge(&in, (cr_variant)v, CR_CHECK_MOVES_REQUIRED, jury, output, why);
                if (got != (optimal ? CR_ACCEPTED : CR_WRONG_ANSWER))
                    fail_msg("%s line %s on n=%zu: %s (%s)", cr_variant_name((cr_variant)v), line, n,
                             cr_outcome_name(got), why);
                if (!optimal) {
                    assert_non_null(strstr(why, "is not optimal"));
                    /* suboptimal moves that cancel out: the same final lead */
                    cancelling += lead == o.best[0][n - 1];
                }
            }
        }
    }
    assert_true(cancelling > 0); /* the search did meet such lines, and each was rejected */
}

static void test_check__a_cancelling_pair_of_mistakes_is_named_at_its_first_turn(void **state)
{
    (void)state;
    /* [1, 2, 3, 4]: the optimal RRRL gives the first player 4 + 2 = 6.  In
     * RLLL the second player wrongly takes 1, the first wrongly answers with
     * 2, and the first still ends with 6: the score alone would pass it. */
    int64_t coins[] = {1, 2, 3, 4};
    cr_contest_input in = {coins, 4};
    char why[CR_ERROR_MSG_MAX];
    cr_scores scores;
    assert_int_equal(cr_moves_replay(&scores, coins, 4, CR_TOTAL, "RLLL", 4, NULL), 0);
    assert_true(scores.first == 6);
    assert_int_equal(judge(&in, CR_TOTAL, CR_CHECK_MOVES_REQUIRED, "6\n", "6\nRRRL\n", why), CR_ACCEPTED);
    assert_int_equal(judge(&in, CR_TOTAL, CR_CHECK_MOVES_REQUIRED, "6\n", "6\nRLLL\n", why), CR_WRONG_ANSWER);
    assert_string_equal(why, "line of play: turn 2 (second player): L is not optimal, R is");
}

static void test_check__tolerates_white_space_but_not_missing_or_extra_tokens(void **state)
{
    (void)state;
    int64_t coins[] = {8, 15, 3, 7};
    cr_contest_input in = {coins, 4};
    const char *jury = "22\nRLLL\n";
    struct {
        const char *output;
        cr_check_moves moves;
        cr_outcome outcome;
        const char *why;
    } cases[] = {
        {"22\nRLLL\n", CR_CHECK_MOVES_REQUIRED, CR_ACCEPTED, ""},
        {"22\r\nRLLL\r\n", CR_CHECK_MOVES_REQUIRED, CR_ACCEPTED, ""},
        {"  22 RLLL", CR_CHECK_MOVES_REQUIRED, CR_ACCEPTED, ""},
        {"22\n", CR_CHECK_MOVES_IGNORED, CR_ACCEPTED, ""},
        {"22\nLLLL\n", CR_CHECK_MOVES_IGNORED, CR_ACCEPTED, ""},
        {"21\nRLLL\n", CR_CHECK_MOVES_REQUIRED, CR_WRONG_ANSWER, "line 1: the value 21 is wrong"},
        {"22\nRLL\n", CR_CHECK_MOVES_REQUIRED, CR_WRONG_ANSWER, "the line stops after 3 moves"},
        {"22\nRLLLL\n", CR_CHECK_MOVES_REQUIRED, CR_WRONG_ANSWER, "the line has 5 moves for 4 coins"},
        {"22\nRlLL\n", CR_CHECK_MOVES_REQUIRED, CR_WRONG_ANSWER, "turn 2 (second player): 'l' is not a move"},
        {"", CR_CHECK_MOVES_REQUIRED, CR_PRESENTATION_ERROR, "the output is empty"},
        {"\n\n", CR_CHECK_MOVES_REQUIRED, CR_PRESENTATION_ERROR, "the output is empty"},
        {"\x7f" "ELF\x01\x02", CR_CHECK_MOVES_REQUIRED, CR_PRESENTATION_ERROR, "the value '\\x7fELF\\x01\\x02' is not an integer"},
        {"22.0\nRLLL\n", CR_CHECK_MOVES_REQUIRED, CR_PRESENTATION_ERROR, "line 1: the value '22.0' is not an integer"},
        {"22\n", CR_CHECK_MOVES_REQUIRED, CR_PRESENTATION_ERROR, "no line of play after the value"},
        {"22\nRLLL\n22\n", CR_CHECK_MOVES_REQUIRED, CR_PRESENTATION_ERROR, "line 3: unexpected '22' after the answer"},
        {"22\nRLLL x\n", CR_CHECK_MOVES_IGNORED, CR_PRESENTATION_ERROR, "line 2: unexpected 'x' after the answer"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char why[CR_ERROR_MSG_MAX];
        cr_outcome got = judge(&in, CR_TOTAL, cases[i].moves, jury, cases[i].output, why);
        if (got != cases[i].outcome || !strstr(why, cases[i].why))
            fail_msg("case %zu: %s '%s', expected %s '%s'", i, cr_outcome_name(got), why,
                     cr_outcome_name(cases[i].outcome), cases[i].why);
    }
}

/* testlib's strict reading of a contestant's tokens (contest.h): blanks are
 * space, tab, CR and LF; a BOM at the start is skipped; a number is plain
 * decimal within int64, anything else is a presentation error. */
static void test_check__reads_tokens_the_way_testlib_does(void **state)
{
    (void)state;
    int64_t coins[] = {8, 15, 3, 7};
    cr_contest_input in = {coins, 4};
    struct {
        const char *output;
        cr_outcome outcome;
        const char *why;
    } cases[] = {
        {"\xEF\xBB\xBF" "22\nRLLL\n", CR_ACCEPTED, ""},
        {"22\t\r\nRLLL", CR_ACCEPTED, ""},
        {"+22\nRLLL\n", CR_PRESENTATION_ERROR, "line 1: the value '+22' has a '+' sign"},
        {"022\nRLLL\n", CR_PRESENTATION_ERROR, "line 1: the value '022' has a leading zero"},
        {"-0\nRLLL\n", CR_PRESENTATION_ERROR, "line 1: the value '-0' is minus zero"},
        {"-022\nRLLL\n", CR_PRESENTATION_ERROR, "line 1: the value '-022' has a leading zero"},
        {"99999999999999999999\nRLLL\n", CR_PRESENTATION_ERROR,
         "line 1: the value '99999999999999999999' is outside the 64-bit range"},
        {"-9223372036854775809\nRLLL\n", CR_PRESENTATION_ERROR, "is outside the 64-bit range"},
        {"22\vRLLL\n", CR_PRESENTATION_ERROR, "line 1: the value '22\\x0bRLLL' is not an integer"},
        {"22\fRLLL\n", CR_PRESENTATION_ERROR, "the value '22\\x0cRLLL' is not an integer"},
        {"22\n\xEF\xBB\xBFRLLL\n", CR_WRONG_ANSWER, "turn 1 (first player): '\\xef' is not a move"},
        {"\xEF\xBB\xBF\xEF\xBB\xBF" "22\nRLLL\n", CR_PRESENTATION_ERROR, "'\\xef\\xbb\\xbf22'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char why[CR_ERROR_MSG_MAX];
        cr_outcome got = judge(&in, CR_TOTAL, CR_CHECK_MOVES_REQUIRED, "22\nRLLL\n", cases[i].output, why);
        if (got != cases[i].outcome || !strstr(why, cases[i].why))
            fail_msg("case %zu: %s '%s', expected %s '%s'", i, cr_outcome_name(got), why,
                     cr_outcome_name(cases[i].outcome), cases[i].why);
    }
}

/* Golden: a message repeats the contestant's bytes escaped (printable ASCII
 * as it is, \xNN otherwise), cut to a bound, so it is always ASCII. */
static void test_check__messages_escape_every_hostile_byte(void **state)
{
    (void)state;
    int64_t coins[] = {8, 15, 3, 7};
    cr_contest_input in = {coins, 4};
    struct {
        const char *output;
        size_t len;
        const char *why;
    } cases[] = {
        {"\xc2\n", 2, "line 1: the value '\\xc2' is not an integer"},
        {"22\n\xc2\xa0LLL\n", 10, "line of play: turn 1 (first player): '\\xc2' is not a move (L or R)"},
        {"22\nR\x7fLL\n", 8, "line of play: turn 2 (second player): '\\x7f' is not a move (L or R)"},
        {"22\nRL\x00L\n", 8, "line of play: turn 3 (first player): '\\x00' is not a move (L or R)"},
        {"22\nRLLL\n\x1b[31m\xff\xfe\n", 15, "line 3: unexpected '\\x1b[31m\\xff\\xfe' after the answer"},
        {"'\"\\%s%n\n", 7, "line 1: the value ''\"\\%s%n' is not an integer"},
        {"0123456789abcdefghijklmnopqrstuvwxyz\n", 37,
         "line 1: the value '0123456789abcdefghijklmn...' is not an integer"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cr_judgement verdict;
        assert_int_equal(cr_contest_check(&verdict, &in, CR_TOTAL, CR_CHECK_MOVES_REQUIRED, "22\nRLLL\n", 8,
                                          cases[i].output, cases[i].len, NULL),
                         0);
        if (strcmp(verdict.why, cases[i].why) != 0)
            fail_msg("case %zu: '%s', expected '%s'", i, verdict.why, cases[i].why);
        for (const char *p = verdict.why; *p; p++)
            assert_true(*p >= 0x20 && *p < 0x7f);
    }
}

/* The greedy player's answer, as the wrong_answer submission prints it: the
 * checker rejects it where greedy play is not optimal. */
static void test_check__the_greedy_answer_is_judged_wrong_where_greedy_is_not_optimal(void **state)
{
    (void)state;
    int64_t coins[] = {8, 15, 3, 7};
    cr_contest_input in = {coins, 4};
    char out[4 + 48];
    /* 8, then the second takes 15; the first ends with 8 + 7 */
    assert_string_equal(cr_contest_greedy_answer(out, &in, CR_TOTAL, 1), "15\nLLRL\n");
    assert_int_equal(judge(&in, CR_TOTAL, CR_CHECK_MOVES_REQUIRED, "22\nRLLL\n", out, NULL), CR_WRONG_ANSWER);
    assert_string_equal(cr_contest_greedy_answer(out, &in, CR_DIFF, 0), "-3\n");
    assert_string_equal(cr_contest_greedy_answer(out, &in, CR_WINNER, 0), "-1\n");
    /* remaining: each removal scores what is left, so greedy removes the smaller end */
    assert_string_equal(cr_contest_greedy_answer(out, &in, CR_REMAINING, 1), "18\nRRLL\n");
    int64_t max3[] = {INT64_MAX, INT64_MAX, INT64_MAX};
    cr_contest_input big = {max3, 3};
    char wide[3 + 48];
    assert_string_equal(cr_contest_greedy_answer(wide, &big, CR_TOTAL, 0), "18446744073709551614\n");
    /* where greedy play is optimal, the checker accepts it */
    int64_t sorted[] = {1, 2, 3, 4};
    cr_contest_input easy = {sorted, 4};
    assert_int_equal(judge(&easy, CR_DIFF, CR_CHECK_MOVES_REQUIRED, "2\nRRRL\n",
                           cr_contest_greedy_answer(out, &easy, CR_DIFF, 1), NULL),
                     CR_ACCEPTED);
}

static void test_check__a_wrong_or_unreadable_jury_answer_fails_the_check(void **state)
{
    (void)state;
    int64_t coins[] = {8, 15, 3, 7};
    cr_contest_input in = {coins, 4};
    struct {
        const char *jury;
        const char *why;
    } cases[] = {
        {"", "the jury answer is empty"},
        {"abc\n", "the jury answer's value 'abc' is not an integer"},
        {"21\n", "the jury answer's value 21 is wrong: the total value is 22"},
        {"22\nLLLL\n", "the jury answer's line of play is wrong: turn 1"},
        {"22\nRLLL\nmore\n", "the jury answer goes on after the line of play"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cr_judgement verdict;
        cr_error err = {0};
        assert_int_equal(cr_contest_check(&verdict, &in, CR_TOTAL, CR_CHECK_MOVES_REQUIRED, cases[i].jury,
                                          strlen(cases[i].jury), "22\nRLLL\n", 9, &err),
                         CR_EINVAL);
        if (!strstr(err.msg, cases[i].why))
            fail_msg("case %zu: '%s' does not say '%s'", i, err.msg, cases[i].why);
    }
    int64_t huge[] = {INT64_MAX, INT64_MAX, INT64_MAX};
    cr_contest_input big = {huge, 3};
    cr_judgement verdict;
    assert_int_equal(cr_contest_check(&verdict, &big, CR_TOTAL, CR_CHECK_MOVES_IGNORED, "1\n", 2, "1\n", 2, NULL),
                     CR_EOVERFLOW);
}

static void test_check__bad_arguments_are_refused(void **state)
{
    (void)state;
    int64_t coins[] = {8, 15, 3, 7};
    cr_contest_input in = {coins, 4}, none = {NULL, 4}, empty = {coins, 0};
    cr_judgement v;
    struct {
        cr_judgement *out;
        const cr_contest_input *in;
        int variant, moves;
        const char *jury, *output;
    } cases[] = {
        {NULL, &in, CR_TOTAL, CR_CHECK_MOVES_REQUIRED, "22\n", "22\n"},
        {&v, NULL, CR_TOTAL, CR_CHECK_MOVES_REQUIRED, "22\n", "22\n"},
        {&v, &none, CR_TOTAL, CR_CHECK_MOVES_REQUIRED, "22\n", "22\n"},
        {&v, &empty, CR_TOTAL, CR_CHECK_MOVES_REQUIRED, "22\n", "22\n"},
        {&v, &in, CR_VARIANT_COUNT, CR_CHECK_MOVES_REQUIRED, "22\n", "22\n"},
        {&v, &in, CR_TOTAL, CR_CHECK_MOVES_COUNT, "22\n", "22\n"},
        {&v, &in, CR_TOTAL, CR_CHECK_MOVES_REQUIRED, NULL, "22\n"},
        {&v, &in, CR_TOTAL, CR_CHECK_MOVES_REQUIRED, "22\n", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cr_error err = {0};
        assert_int_equal(cr_contest_check(cases[i].out, cases[i].in, (cr_variant)cases[i].variant,
                                          (cr_check_moves)cases[i].moves, cases[i].jury, 3, cases[i].output, 3, &err),
                         CR_EINVAL);
        assert_string_equal(err.msg, "check: bad arguments");
    }
    /* no output at all is an empty one */
    assert_int_equal(cr_contest_check(&v, &in, CR_TOTAL, CR_CHECK_MOVES_IGNORED, "22\n", 3, NULL, 0, NULL), 0);
    assert_int_equal(v.outcome, CR_PRESENTATION_ERROR);
    cr_contest_input_free(NULL);
}

/* A message shows a token escaped and cut to the room it has. */
static void test_check__escaping_fits_the_room_it_is_given(void **state)
{
    (void)state;
    char out[16];
    cr_contest_escape(out, sizeof out, "abc\x01" "def", 7, 24);
    assert_string_equal(out, "abc\\x01def");
    cr_contest_escape(out, 8, "abcdefghij", 10, 24);
    assert_string_equal(out, "abc...");
    cr_contest_escape(out, 6, "abcdefghij", 10, 24);
    assert_string_equal(out, "a...");
    cr_contest_escape(out, 8, "a\x01" "bc", 4, 24); /* no room left for the dots */
    assert_string_equal(out, "a\\x01");
    cr_contest_escape(out, sizeof out, "abcdefghij", 10, 4);
    assert_string_equal(out, "abcd...");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_input__well_formed_files_are_read),
        cmocka_unit_test(test_input__each_malformed_variant_is_rejected_saying_where),
        cmocka_unit_test(test_input__every_generated_instance_passes_the_validator_with_the_same_constraints),
        cmocka_unit_test(test_game__the_seed_is_the_third_line_and_each_fault_is_named_there),
        cmocka_unit_test(test_check__accepts_exactly_the_lines_whose_every_move_is_optimal),
        cmocka_unit_test(test_check__a_cancelling_pair_of_mistakes_is_named_at_its_first_turn),
        cmocka_unit_test(test_check__tolerates_white_space_but_not_missing_or_extra_tokens),
        cmocka_unit_test(test_check__reads_tokens_the_way_testlib_does),
        cmocka_unit_test(test_check__messages_escape_every_hostile_byte),
        cmocka_unit_test(test_check__the_greedy_answer_is_judged_wrong_where_greedy_is_not_optimal),
        cmocka_unit_test(test_check__a_wrong_or_unreadable_jury_answer_fails_the_check),
        cmocka_unit_test(test_check__bad_arguments_are_refused),
        cmocka_unit_test(test_check__escaping_fits_the_room_it_is_given),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

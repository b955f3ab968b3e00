/* What the tests show: the reference solution's time, the greedy answer's
 * verdicts, the largest n, a digest and the samples. */
#include "export/findings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "coinrow/contest.h"
#include "coinrow/solve.h"
#include "export/package.h"
#include "util/util.h"

void cr_findings_init(cr_findings *s, cr_variant variant, int lines, uint64_t samples)
{
    memset(s, 0, sizeof *s);
    s->variant = variant;
    s->lines = lines;
    s->samples = samples;
    /* FNV-1a-128's offset basis, high and low halves */
    s->digest[0] = 0x6c62272e07bb0142u;
    s->digest[1] = 0x62b821756295c58du;
}

/* FNV-1a-128 over bytes: the prime is 2^88 + 0x13b. */
static void digest_add(uint64_t digest[2], const void *bytes, size_t len)
{
    __extension__ typedef unsigned __int128 u128;
    u128 h = (u128)digest[0] << 64 | digest[1];
    const unsigned char *p = bytes;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h = h * (((u128)1 << 88) + 0x13b);
    }
    digest[0] = (uint64_t)(h >> 64);
    digest[1] = (uint64_t)h;
}

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Reads a test's input file: the row, and in the interactive game the
 * jury's seed after it. */
static int parse_test(cr_contest_input *out, uint64_t *out_seed, const cr_findings *s, const char *input, size_t len,
                      cr_error *err)
{
    *out_seed = 0;
    return s->interactive ? cr_contest_game_parse(out, out_seed, input, len, NULL, err)
                          : cr_contest_input_parse(out, input, len, NULL, err);
}

/* The reference solution's work on one input: read it and solve it. */
static int time_reference(cr_findings *s, const char *input, size_t len, cr_error *err)
{
    double start = cpu_seconds();
    cr_contest_input in = {0};
    cr_solver *solver = NULL;
    cr_result results[CR_VARIANT_COUNT];
    cr_solve_opts opts = {CR_VARIANT_BIT(s->variant), CR_ALGO_AUTO, s->lines ? CR_MOVES_CANONICAL : CR_MOVES_NONE};
    uint64_t seed;
    int rc = parse_test(&in, &seed, s, input, len, err);
    if (rc == 0)
        rc = cr_solver_new(&solver, err);
    if (rc == 0)
        rc = cr_solve(results, solver, in.coins, in.n, &opts, err);
    cr_solver_free(solver);
    cr_contest_input_free(&in);
    double spent = cpu_seconds() - start;
    if (spent > s->slowest)
        s->slowest = spent;
    return rc;
}

/* Whether the checker rejects the greedy answer to this test. */
static int judge_greedy(cr_findings *s, const cr_contest_input *in, const char *answer, size_t answer_len,
                        cr_error *err)
{
    char *greedy = malloc(in->n + 48);
    if (!greedy)
        return cr_errorf(err, CR_ENOMEM, "no memory for a greedy answer of %zu moves", in->n);
    cr_contest_greedy_answer(greedy, in, s->variant, s->lines);
    cr_judgement verdict;
    int rc = cr_contest_check(&verdict, in, s->variant, s->lines ? CR_CHECK_MOVES_REQUIRED : CR_CHECK_MOVES_IGNORED,
                              answer, answer_len, greedy, strlen(greedy), err);
    s->greedy_caught_last = rc == 0 && verdict.outcome != CR_ACCEPTED;
    s->greedy_caught |= s->greedy_caught_last;
    free(greedy);
    return rc;
}

/* The greedy player and the player of the precomputed line against the
 * jury of the test, each until a test catches it. */
static int play_wrong(cr_findings *s, const cr_contest_input *in, uint64_t seed, cr_error *err)
{
    int accepted = 1, rc = 0;
    if (!s->greedy_caught && (rc = cr_export__play(&accepted, NULL, in->coins, in->n, s->variant, seed,
                                                    CR_PLAYER_GREEDY, err)) == 0)
        s->greedy_caught = !accepted;
    if (rc == 0 && !s->line_caught &&
        (rc = cr_export__play(&accepted, NULL, in->coins, in->n, s->variant, seed, CR_PLAYER_LINE, err)) == 0)
        s->line_caught = !accepted;
    return rc;
}

static char *copy_of(const char *text, size_t len)
{
    char *copy = malloc(len + 1);
    if (copy) {
        memcpy(copy, text, len);
        copy[len] = '\0';
    }
    return copy;
}

int cr_findings_add(cr_findings *s, const char *ext_id, const char *input, size_t input_len, const char *answer,
                  size_t answer_len, cr_error *err)
{
    digest_add(s->digest, ext_id, strlen(ext_id) + 1);
    digest_add(s->digest, input, input_len);
    digest_add(s->digest, answer, answer_len);
    cr_contest_input in = {0};
    uint64_t seed;
    int rc = parse_test(&in, &seed, s, input, input_len, err);
    if (rc)
        return rc;
    if (in.n > s->n_largest)
        s->n_largest = in.n;
    if (s->timed)
        rc = time_reference(s, input, input_len, err);
    s->greedy_caught_last = 0;
    if (rc == 0 && s->greedy && s->interactive)
        rc = play_wrong(s, &in, seed, err);
    else if (rc == 0 && s->greedy && (!s->greedy_caught || s->every_test))
        rc = judge_greedy(s, &in, answer, answer_len, err);
    cr_contest_input_free(&in);
    if (rc == 0 && s->tests < s->samples) {
        if (s->tests == 0 && (!(s->sample_in = calloc(s->samples, sizeof *s->sample_in)) ||
                              !(s->sample_ans = calloc(s->samples, sizeof *s->sample_ans))))
            return cr_errorf(err, CR_ENOMEM, "no memory for the samples");
        int shown = input_len <= CR_FINDINGS_SAMPLE_MAX && answer_len <= CR_FINDINGS_SAMPLE_MAX;
        if (shown && (!(s->sample_in[s->tests] = copy_of(input, input_len)) ||
                      !(s->sample_ans[s->tests] = copy_of(answer, answer_len))))
            return cr_errorf(err, CR_ENOMEM, "no memory for the samples");
    }
    s->tests += rc == 0;
    return rc;
}

void cr_findings_uuid(char out[37], const cr_findings *s)
{
    uint64_t h[2] = {s->digest[0], s->digest[1]};
    const char *variant = cr_variant_name(s->variant);
    digest_add(h, variant, strlen(variant) + 1);
    digest_add(h, s->lines ? "lines" : "value", 5);
    unsigned char b[16];
    for (int i = 0; i < 16; i++)
        b[i] = (unsigned char)(h[i / 8] >> (56 - 8 * (i % 8)));
    b[6] = (unsigned char)(0x80 | (b[6] & 0x0f)); /* version 8 */
    b[8] = (unsigned char)(0x80 | (b[8] & 0x3f)); /* variant 10 */
    snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2], b[3],
             b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

void cr_findings_free(cr_findings *s)
{
    for (uint64_t k = 0; k < s->samples && s->sample_in && s->sample_ans; k++) {
        free(s->sample_in[k]);
        free(s->sample_ans[k]);
    }
    free(s->sample_in);
    free(s->sample_ans);
    s->sample_in = s->sample_ans = NULL;
}

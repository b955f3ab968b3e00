/* The findings of a package's tests: what they show about the problem,
 * gathered as export writes them: the largest n, the slowest run of the
 * reference solution's work, whether a test catches the greedy answer, a
 * digest of the tests (for the package's uuid) and the samples (for the
 * statement). */
#ifndef CR_EXPORT_FINDINGS_H
#define CR_EXPORT_FINDINGS_H

#include <stddef.h>
#include <stdint.h>

#include "coinrow/error.h"
#include "coinrow/game.h"

/* Samples longer than this are not shown in a statement. */
#define CR_FINDINGS_SAMPLE_MAX 4096

typedef struct cr_findings {
    /* what to look at (set by the caller) */
    cr_variant variant;
    int lines;        /* answers carry the line of play */
    int timed;        /* time the reference solution's work on each test */
    int greedy;       /* judge the greedy answer on each test (until one catches it, but with every_test) */
    int every_test;   /* judge it on every test, greedy_caught_last telling */
    int interactive;  /* the interactive game: the inputs end in the jury's seeds, and the greedy player
                         and the player of the precomputed line are judged by playing against the jury */
    uint64_t samples; /* the first tests are samples */
    /* what was seen */
    uint64_t tests;
    size_t n_largest;
    double slowest;    /* seconds (CPU time) of the slowest test, when timed */
    int greedy_caught; /* some test's greedy answer is not accepted, when judged */
    int greedy_caught_last; /* the last test's was not (every_test) */
    int line_caught;   /* interactive: some test's jury catches the player of the precomputed line */
    uint64_t digest[2]; /* FNV-1a, 128 bits, of every test's id and files */
    char **sample_in, **sample_ans; /* the samples' files; NULL when longer than CR_FINDINGS_SAMPLE_MAX */
} cr_findings;

/* Starts the findings (zeroes what is seen; the caller fills what to look at). */
void cr_findings_init(cr_findings *s, cr_variant variant, int lines, uint64_t samples);

/* Takes in the next test: its id, its input file and its answer file (a
 * valid input; the jury's answer).  CR_ENOMEM; CR_EINVAL when the input
 * file is not one. */
int cr_findings_add(cr_findings *s, const char *ext_id, const char *input, size_t input_len, const char *answer,
                  size_t answer_len, cr_error *err);

/* The tests' uuid: version 8 (RFC 9562, custom), the digest with the
 * variant and the lines folded in; the same tests give the same uuid. */
void cr_findings_uuid(char out[37], const cr_findings *s);

void cr_findings_free(cr_findings *s);

#endif

/* Judging a program, or a built-in strategy, on every instance of a set
 * (coinrow invoke): `jobs` worker threads run it and check its answers
 * (io/verdict.h) while the caller's thread hands out the instances and
 * commits the verdicts to the invocation as they come. */
#ifndef CR_IO_INVOKE_H
#define CR_IO_INVOKE_H

#include <stdatomic.h>
#include <stdint.h>

#include "io/child.h"
#include "io/store.h"
#include "io/verdict.h"

/* What this session has judged so far. */
typedef struct cr_invoke_stats {
    uint64_t judged;                          /* verdicts committed */
    uint64_t counts[CR_INVOKE_VERDICT_COUNT]; /* of them, per verdict */
    uint64_t left;                            /* instances left to judge */
    uint64_t unanswered;                      /* instances the answers run has no answer for: not judged */
} cr_invoke_stats;

typedef struct cr_invoke_opts {
    /* The program to run: its path (cr_child_resolve's) and the arguments it
     * gets (argv[0] first, NULL-terminated); path NULL for the built-in
     * strategy of the invocation. */
    const char *path;
    char *const *argv;
    const atomic_int *stop; /* may be NULL; once set, running programs are killed and nothing new starts */
    /* Called on the caller's thread after each commit (may be NULL). */
    void (*progress)(void *ctx, const cr_invoke_stats *stats);
    void *ctx;
} cr_invoke_opts;

/* Judges every instance of the invocation's set that it has not judged yet,
 * against the answers of its answers run, with inv->jobs programs at once
 * (the store's own thread reads the instances and writes the verdicts; a
 * second connection to the same database reads).  Verdicts are committed in
 * batches at least twice a second, so that a stop or a kill loses only
 * those in hand; an instance is judged once.  Returns 0; CR_EINTERRUPTED
 * after a stop, with what was judged committed; or the first error (a
 * program that cannot be started, a check the jury's answer fails, the
 * database). */
int cr_invoke_run(cr_invoke_stats *out, cr_store *store, const cr_invocation *inv, const cr_invoke_opts *opts,
                  cr_error *err);

/* How strong a set's tests are: every built-in strategy judged on every
 * test (coinrow strength). */
typedef struct cr_strength_of {
    uint64_t broken;                        /* tests that break it: any verdict but AC */
    char first[128];                        /* the first of them (its ext_id) */
    cr_invoke_verdict first_verdict;
    char first_message[CR_VERDICT_MESSAGE_MAX];
} cr_strength_of;

typedef struct cr_strength {
    uint64_t tests;      /* judged */
    uint64_t weak;       /* of them, those that break no strategy */
    uint64_t unanswered; /* instances the answers run has no answer for: not judged */
    cr_strength_of of[CR_STRATEGY_COUNT];
} cr_strength;

/* Judges every built-in strategy on every instance of set set_id, in id
 * order, against the answers of run answers_run (cr_verdict_builtin),
 * calling weak (may be NULL) for each test that breaks none.  Returns 0;
 * CR_EINTERRUPTED once *stop (may be NULL) is set; or the first error. */
int cr_strength_run(cr_strength *out, cr_store *store, int64_t set_id, int64_t answers_run, cr_variant variant,
                    cr_check_moves moves, const atomic_int *stop, void (*weak)(void *ctx, const char *ext_id),
                    void *ctx, cr_error *err);

#endif

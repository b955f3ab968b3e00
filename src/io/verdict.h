/* Verdicts on a program's answer to one instance (coinrow invoke): how the
 * program ended and what the checker said of its output, in one row. */
#ifndef CR_IO_VERDICT_H
#define CR_IO_VERDICT_H

#include <stdint.h>

#include "coinrow/contest.h"
#include "coinrow/strategy.h"
#include "io/child.h"
#include "judge/judge.h"

typedef enum cr_invoke_verdict {
    CR_INVOKE_AC,  /* accepted */
    CR_INVOKE_WA,  /* wrong answer */
    CR_INVOKE_PE,  /* malformed output */
    CR_INVOKE_TLE, /* over the time limit: CPU time, or killed at the wall clock */
    CR_INVOKE_MLE, /* failed near the memory limit (see cr_verdict_decide) */
    CR_INVOKE_RE,  /* a non-zero exit or a signal */
    CR_INVOKE_OLE, /* over the output limit */
    CR_INVOKE_VERDICT_COUNT
} cr_invoke_verdict;

/* "AC", "WA", "PE", "TLE", "MLE", "RE", "OLE"; NULL when out of range. */
const char *cr_invoke_verdict_name(cr_invoke_verdict v);

/* Parses a verdict's name (upper case, as written above); CR_EINVAL naming
 * the text otherwise. */
int cr_invoke_verdict_parse(cr_invoke_verdict *out, const char *name, cr_error *err);

/* The message: the checker's (safe text), after what ended the program. */
#define CR_VERDICT_MESSAGE_MAX (CR_JUDGE_MESSAGE_MAX + 192)
/* The stderr excerpt as safe text (cr_contest_escape): every kept byte
 * shown as at most 4, with room for its NUL and the escape's margin. */
#define CR_VERDICT_STDERR_MAX (4 * CR_CHILD_STDERR_KEEP + 8)

/* One instance judged. */
typedef struct cr_verdict_row {
    int64_t instance_id;
    cr_invoke_verdict verdict;
    double cpu_seconds, wall_seconds;
    int64_t peak_rss_kib; /* < 0: not measured (a built-in runs in coinrow) */
    int64_t floor_kib;    /* what of it may be coinrow's own (cr_child_report); < 0: none */
    int exit_code;        /* < 0: none (a signal, a kill, a built-in) */
    char signal[16];      /* the signal that ended the program, "SIGSEGV"; "" for none */
    char message[CR_VERDICT_MESSAGE_MAX];
    char stderr_text[CR_VERDICT_STDERR_MAX]; /* the first bytes of standard error, as safe text */
} cr_verdict_row;

/* The signal's name ("SIGSEGV"), or "signal N" for one without a name here,
 * into out (16 bytes). */
void cr_verdict_signal_name(char out[16], int sig);

/* Judges a program's run on the instance whose input file is
 * input[0..input_len), against the jury's answer, in this order:
 *   OLE  killed for writing more than the output limit;
 *   TLE  its CPU time over the limit, SIGXCPU, or killed at the wall clock;
 *   MLE  a non-zero exit or a signal with a peak resident set of at least
 *        three quarters of the memory limit: under RLIMIT_AS an allocation
 *        beyond the limit fails inside the program, which then crashes or
 *        gives up, and only how much it held tells that apart from a bug;
 *   RE   any other non-zero exit or signal;
 *   then the checker's AC, WA or PE on its output (cr_judge_answer).
 * The message says what ended the program and what the checker said of
 * whatever it wrote (but for OLE: that is cut); stderr is kept as safe
 * text.  Returns 0 with the row in *out, or why the check itself failed
 * (the jury is at fault). */
int cr_verdict_program(cr_verdict_row *out, const cr_child_report *run, const cr_child_limits *limits,
                       const char *input, size_t input_len, const char *jury, size_t jury_len, cr_variant variant,
                       cr_check_moves moves, cr_error *err);

/* Judges a built-in strategy's answer the way a program's is: plays the
 * instance coins[0..n), whose input file is input[0..input_len), writes the
 * value and the line as a program would, and checks that against the jury's
 * answer.  A value beyond int64 is RE.  Times are the strategy's own (this
 * thread's CPU time).  Returns 0 with the row in *out, or why the check
 * itself failed. */
int cr_verdict_builtin(cr_verdict_row *out, cr_strategy strategy, const int64_t *coins, size_t n, const char *input,
                       size_t input_len, const char *jury, size_t jury_len, cr_variant variant, cr_check_moves moves,
                       cr_error *err);

#endif

/* Verdicts: how a program ended, then the checker (judge/judge.c, the code
 * of coinrow check) on what it wrote. */
#include "invoke/invoke.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/util.h"

void cr_verdict_signal_name(char out[16], int sig)
{
    static const struct {
        int sig;
        const char *name;
    } names[] = {
        {SIGABRT, "SIGABRT"}, {SIGALRM, "SIGALRM"}, {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},   {SIGHUP, "SIGHUP"},
        {SIGILL, "SIGILL"},   {SIGINT, "SIGINT"},   {SIGKILL, "SIGKILL"}, {SIGPIPE, "SIGPIPE"}, {SIGQUIT, "SIGQUIT"},
        {SIGSEGV, "SIGSEGV"}, {SIGSYS, "SIGSYS"},   {SIGTERM, "SIGTERM"}, {SIGTRAP, "SIGTRAP"}, {SIGUSR1, "SIGUSR1"},
        {SIGUSR2, "SIGUSR2"}, {SIGXCPU, "SIGXCPU"}, {SIGXFSZ, "SIGXFSZ"},
    };
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (names[k].sig == sig) {
            snprintf(out, 16, "%s", names[k].name);
            return;
        }
    snprintf(out, 16, "signal %d", sig);
}

static double mib(uint64_t bytes) { return (double)bytes / (1024.0 * 1024.0); }

/* What ended the program, in words, and its verdict before the checker:
 * AC when the checker decides. */
static cr_invoke_verdict how_it_ended(char *why, size_t cap, const cr_child_report *run,
                                      const cr_limits *limits, const char *signal)
{
    if (run->end == CR_CHILD_OUTPUT_KILLED) {
        snprintf(why, cap, "killed for writing more than the output limit of %g MiB", mib(limits->output_bytes));
        return CR_INVOKE_OLE;
    }
    if (run->end == CR_CHILD_CPU_KILLED) {
        snprintf(why, cap, "killed when its CPU time passed the limit of %g s (%.3f s)", limits->cpu_seconds,
                 run->cpu_seconds);
        return CR_INVOKE_TLE;
    }
    if (run->end == CR_CHILD_WALL_KILLED) {
        snprintf(why, cap, "killed at the wall clock limit of %g s (twice the time limit), after %.3f s of CPU",
                 2 * limits->cpu_seconds, run->cpu_seconds);
        return CR_INVOKE_TLE;
    }
    if (run->end == CR_CHILD_SIGNALED && run->signal == SIGXCPU) {
        /* the kernel's count of CPU time is not wait4's: at or under the limit, it did not say "over" */
        snprintf(why, cap, "stopped by RLIMIT_CPU at the limit of %g s in whole seconds (wait4 counted %.3f s of CPU)",
                 limits->cpu_seconds, run->cpu_seconds);
        return CR_INVOKE_TLE;
    }
    if (run->cpu_seconds > limits->cpu_seconds) {
        snprintf(why, cap, "CPU time %.3f s over the limit of %g s", run->cpu_seconds, limits->cpu_seconds);
        return CR_INVOKE_TLE;
    }
    if (run->end == CR_CHILD_EXITED && run->exit_code == 0)
        return CR_INVOKE_AC;
    if (run->end == CR_CHILD_SANDBOX_LOST) {
        snprintf(why, cap, "%s", run->sandbox_note);
        return CR_INVOKE_RE;
    }
    int len = run->end == CR_CHILD_SIGNALED ? snprintf(why, cap, "ended by %s", signal)
                                            : snprintf(why, cap, "exit status %d", run->exit_code);
    /* a limit of the sandbox's own it ran into comes before the memory
     * limit's guess */
    if (run->sandbox_note[0]) {
        snprintf(why + len, cap - (size_t)len, "; %s", run->sandbox_note);
        return CR_INVOKE_RE;
    }
    if (limits->memory_bytes && (uint64_t)run->peak_rss_kib * 1024 * 4 >= limits->memory_bytes * 3) {
        snprintf(why + len, cap - (size_t)len, " with %.1f MiB resident of the %g MiB limit (an allocation failed)",
                 mib((uint64_t)run->peak_rss_kib * 1024), mib(limits->memory_bytes));
        return CR_INVOKE_MLE;
    }
    return CR_INVOKE_RE;
}

/* What the run measured into the row: times, memory, exit, signal, stderr. */
/* The verdict of a checker's or the jury's outcome. */
static cr_invoke_verdict of_outcome(cr_outcome outcome)
{
    static const cr_invoke_verdict verdicts[CR_OUTCOME_COUNT] = {
        [CR_ACCEPTED] = CR_INVOKE_AC, [CR_WRONG_ANSWER] = CR_INVOKE_WA, [CR_PRESENTATION_ERROR] = CR_INVOKE_PE};
    return verdicts[outcome];
}

static void measured(cr_verdict_row *out, const cr_child_report *run)
{
    out->cpu_seconds = run->cpu_seconds;
    out->wall_seconds = run->wall_seconds;
    out->peak_rss_kib = run->peak_rss_kib;
    out->floor_kib = run->floor_kib;
    out->exit_code = run->end == CR_CHILD_EXITED ? run->exit_code : -1;
    out->signal[0] = '\0';
    if (run->end != CR_CHILD_EXITED)
        cr_verdict_signal_name(out->signal, run->signal);
    cr_contest_escape(out->stderr_text, sizeof out->stderr_text, run->err, run->err_len, CR_STDERR_KEEP);
}

int cr_verdict_program(cr_verdict_row *out, const cr_child_report *run, const cr_limits *limits,
                       const char *input, size_t input_len, const char *jury, size_t jury_len, cr_variant variant,
                       cr_check_moves moves, cr_error *err)
{
    char why[160] = "";
    measured(out, run);
    out->verdict = how_it_ended(why, sizeof why, run, limits, out->signal);
    if (out->verdict == CR_INVOKE_OLE) {
        snprintf(out->message, sizeof out->message, "%s", why);
        return 0;
    }
    cr_judgement judgement;
    char checked[CR_JUDGE_MESSAGE_MAX];
    int rc = cr_judge_answer(&judgement, input, input_len, "of the instance", jury, jury_len, run->out, run->out_len, variant,
                             moves, err);
    if (rc)
        return rc;
    cr_judge_message(checked, 0, &judgement, NULL);
    if (out->verdict == CR_INVOKE_AC) {
        out->verdict = of_outcome(judgement.outcome);
        snprintf(out->message, sizeof out->message, "%s", checked);
    } else {
        snprintf(out->message, sizeof out->message, "%s; its output: %s", why, checked);
    }
    return 0;
}

int cr_verdict_play(cr_verdict_row *out, const cr_child_report *run, const cr_limits *limits, cr_dialogue *d,
                    cr_error *err)
{
    char why[160] = "", where[128];
    measured(out, run);
    /* a fault in what it wrote is the verdict, whatever ended it then */
    out->verdict = cr_dialogue_faulted(d) ? CR_INVOKE_AC : how_it_ended(why, sizeof why, run, limits, out->signal);
    if (out->verdict == CR_INVOKE_AC) {
        cr_outcome outcome;
        int rc = cr_dialogue_judge(&outcome, out->message, sizeof out->message, d, err);
        out->verdict = of_outcome(outcome);
        return rc;
    }
    cr_dialogue_where(where, sizeof where, d, run->end == CR_CHILD_WALL_KILLED);
    snprintf(out->message, sizeof out->message, "%s; the game: %s", why, where);
    return 0;
}

static double thread_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* A built-in strategy's run, as a program's report: it exited 0 having
 * written out[0..out_len), in this thread's CPU time since start. */
static cr_child_report ran_inside(double start, char *out, size_t out_len)
{
    cr_child_report run = {.end = CR_CHILD_EXITED, .out = out, .out_len = out_len,
                           .cpu_seconds = thread_seconds() - start, .peak_rss_kib = -1, .floor_kib = -1};
    run.wall_seconds = run.cpu_seconds;
    return run;
}

/* No limit binds a strategy: it runs in coinrow. */
static const cr_limits unlimited = {.cpu_seconds = 1e9};

/* What a row of a strategy cannot say: it ran in coinrow, not on its own. */
static void inside(cr_verdict_row *out)
{
    out->peak_rss_kib = out->floor_kib = -1;
    out->exit_code = -1;
}

int cr_verdict_builtin(cr_verdict_row *out, cr_strategy strategy, const int64_t *coins, size_t n, const char *input,
                       size_t input_len, const char *jury, size_t jury_len, cr_variant variant, cr_check_moves moves,
                       cr_error *err)
{
    /* the line, then the answer a program would print: "value\nline\n" */
    char *line = malloc(2 * n + 24), *answer = line + n + 1;
    if (!line)
        return cr_errorf(err, CR_ENOMEM, "no memory for an answer of %zu moves", n);
    double start = thread_seconds();
    int64_t value;
    cr_error why = {0};
    int played = cr_strategy_play(&value, line, coins, n, variant, strategy, &why);
    cr_child_report run = ran_inside(start, answer, 0);
    int rc = 0;
    if (played == 0) {
        run.out_len = (size_t)snprintf(answer, 22, "%lld\n", (long long)value);
        memcpy(answer + run.out_len, line, n);
        answer[run.out_len + n] = '\n';
        run.out_len += n + 1;
        rc = cr_verdict_program(out, &run, &unlimited, input, input_len, jury, jury_len, variant, moves, err);
    } else if (played == CR_EOVERFLOW) { /* a program's figure would have wrapped: it has no answer */
        run.exit_code = 1;
        rc = cr_verdict_program(out, &run, &unlimited, input, input_len, jury, jury_len, variant, moves, err);
        snprintf(out->message, sizeof out->message, "%s: %s", cr_strategy_name(strategy), why.msg);
    } else {
        rc = cr_errorf(err, played, "%s", why.msg);
    }
    inside(out);
    free(line);
    return rc;
}

int cr_verdict_builtin_play(cr_verdict_row *out, cr_strategy strategy, const int64_t *coins, size_t n,
                            cr_variant variant, cr_dialogue *d, cr_error *err)
{
    cr_strategy_player *player = NULL;
    const char *said;
    double start = thread_seconds();
    int rc = cr_strategy_player_new(&player, coins, n, variant, strategy, err);
    cr_dialogue_sent(d, cr_dialogue_pending(d, &said)); /* the row, read */
    for (size_t turn = 0; rc == 0 && turn < n; turn++) {
        char move[2] = {'?', '\n'};
        if (turn % 2 == 0) { /* its move, written */
            move[0] = cr_strategy_player_move(player);
            rc = cr_dialogue_heard(d, move, sizeof move, 0, err);
        } else { /* the jury's, read */
            size_t len = cr_dialogue_pending(d, &said);
            move[0] = len ? said[0] : '?';
            cr_dialogue_sent(d, len);
        }
        if (rc == 0)
            rc = cr_strategy_player_take(player, move[0], err);
    }
    cr_strategy_player_free(player);
    if (rc)
        return rc;
    cr_child_report run = ran_inside(start, "", 0);
    rc = cr_verdict_play(out, &run, &unlimited, d, err);
    inside(out);
    return rc;
}

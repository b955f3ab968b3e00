/* The exported interactor of the interactive game (Kattis: the output
 * validator of `validation: custom interactive`; docs/judges.md,
 * "Interactive problems").  It runs as
 *   interactor INPUT JUDGE_ANSWER FEEDBACK_DIR [flags ignored]
 * with its standard input the contestant's output and its standard output
 * the contestant's input, plays the jury's side (judge.h's dialogue: the
 * same game as invoke --interactive's) with the seed on the input's third
 * line (cr_contest_game_parse), and exits 42 when every move of the
 * contestant was optimal, 43 otherwise, 1 when the test itself is at
 * fault; FEEDBACK_DIR/judgemessage.txt says why in one line.  The judge
 * answer is not read.
 *
 * The first message may fill the pipe (10^6 coins are megabytes), so it is
 * written without blocking (cr_dialogue_serve).  SIGPIPE is ignored: a
 * contestant that stops reading is seen as EPIPE.  The contestant's output
 * is read to its end before a verdict (a byte after the game is wrong), or
 * until a fault ends the game for it.  It is compiled only inside the amalgamation, above which the exporter writes
 *   #define CR_JUDGE_VARIANT CR_DIFF             (a cr_variant) */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "coinrow/contest.h"
#include "judge/judge.h"
#include "util/util.h"

#if !defined(CR_JUDGE_VARIANT)
#error "define CR_JUDGE_VARIANT above (coinrow writes it)"
#endif

enum { ACCEPTED = 42, WRONG = 43, JUDGE_ERROR = 1 };

/* A verdict's line: the outcome or "judge error", and why. */
enum { MESSAGE_MAX = CR_ERROR_MSG_MAX + 128 };

/* Writes the message to FEEDBACK_DIR/judgemessage.txt and returns status. */
static int report(const char *feedback_dir, int status, const char *message)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/judgemessage.txt", feedback_dir);
    FILE *f = fopen(path, "w");
    if (f) {
        fprintf(f, "%s\n", message);
        if (fclose(f) != 0)
            status = JUDGE_ERROR;
    } else {
        status = JUDGE_ERROR;
    }
    if (status == JUDGE_ERROR) /* what the judge's log then shows */
        fprintf(stderr, "%s\n", message);
    return status;
}

/* Plays the game over standard input and output until the contestant's
 * output ends or it faults: the exit status, with the message. */
static int play(cr_dialogue *d, char *message)
{
    cr_error err = {CR_OK, ""};
    cr_outcome outcome;
    char why[MESSAGE_MAX - 32];
    if (cr_dialogue_serve(d, STDIN_FILENO, STDOUT_FILENO, &err) || cr_dialogue_judge(&outcome, why, sizeof why, d, &err)) {
        snprintf(message, MESSAGE_MAX, "judge error: the jury: %s", err.msg);
        return JUDGE_ERROR;
    }
    snprintf(message, MESSAGE_MAX, "%s: %s", cr_outcome_name(outcome), why);
    return outcome == CR_ACCEPTED ? ACCEPTED : WRONG;
}

int main(int argc, char **argv)
{
    cr_error err = {CR_OK, ""};
    char *input = NULL, *first = NULL, message[MESSAGE_MAX] = "";
    size_t input_len = 0, first_len = 0, first_cap = 0;
    cr_contest_input in = {NULL, 0};
    uint64_t seed = 0;
    cr_dialogue *d = NULL;
    if (argc < 4) {
        fprintf(stderr, "usage: %s INPUT JUDGE_ANSWER FEEDBACK_DIR < contestant's output > contestant's input\n",
                argv[0]);
        return JUDGE_ERROR;
    }
    signal(SIGPIPE, SIG_IGN); /* a contestant that leaves is EPIPE, not the jury's death */
    int rc = cr_read_path(&input, &input_len, argv[1], &err);
    if (rc == 0)
        rc = cr_contest_game_parse(&in, &seed, input, input_len, NULL, &err);
    if (rc == 0)
        rc = cr_contest_text(&first_len, &first, &first_cap, in.coins, in.n, &err);
    if (rc == 0)
        rc = cr_dialogue_new(&d, in.coins, in.n, CR_JUDGE_VARIANT, seed, first, first_len, &err);
    int status;
    if (rc) {
        snprintf(message, sizeof message, "judge error: %s", err.msg);
        status = JUDGE_ERROR;
    } else {
        status = play(d, message);
    }
    status = report(argv[3], status, message);
    cr_dialogue_free(d);
    free(first);
    cr_contest_input_free(&in);
    free(input);
    return status;
}

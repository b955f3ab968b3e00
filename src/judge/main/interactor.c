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
 * until a fault ends the game for it.  It is compiled only inside the
 * amalgamation, above which the exporter writes
 *   #define CR_JUDGE_VARIANT CR_DIFF             (a cr_variant) */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "judge/judge.h"

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

int main(int argc, char **argv)
{
    cr_error err = {CR_OK, ""};
    cr_judgement verdict;
    char message[MESSAGE_MAX];
    if (argc < 4) {
        fprintf(stderr, "usage: %s INPUT JUDGE_ANSWER FEEDBACK_DIR < contestant's output > contestant's input\n",
                argv[0]);
        return JUDGE_ERROR;
    }
    signal(SIGPIPE, SIG_IGN); /* a contestant that leaves is EPIPE, not the jury's death */
    int status;
    if (cr_dialogue_play(&verdict, argv[1], CR_JUDGE_VARIANT, STDIN_FILENO, STDOUT_FILENO, &err)) {
        snprintf(message, sizeof message, "judge error: %s", err.msg);
        status = JUDGE_ERROR;
    } else {
        snprintf(message, sizeof message, "%s: %s", cr_outcome_name(verdict.outcome), verdict.why);
        status = verdict.outcome == CR_ACCEPTED ? ACCEPTED : WRONG;
    }
    return report(argv[3], status, message);
}

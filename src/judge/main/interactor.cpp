// The exported Polygon interactor (files/interactor.cpp), written against
// testlib: Polygon runs it as
//   interactor INPUT TOUT [ANSWER [RESULT [-appes]]]
// with its standard input the contestant's output and its standard output
// the contestant's input.  It plays the jury's side of the same game as the
// Kattis interactor (judge.h's dialogue, cr_dialogue_serve: the first
// message written without blocking, SIGPIPE ignored so that a contestant
// that stops reading is EPIPE, the contestant's output read to its end
// before it is accepted), with the seed on the input's third line, and
// ends with quitf: _ok, _wa, _pe, or _fail when the test is at fault.  The
// verdict's line also goes to TOUT, which Polygon's checker (check_game.cpp)
// then reads.  The contestant's output is read from the descriptor, never
// through testlib's ouf, so testlib neither checks its end (quitf looks for
// extra output only outside interaction) nor needs ENABLE_UNEXPECTED_EOF.
// Converted for DOMjudge (Polygon2DOMjudge's testlib.h), the same source
// runs as Kattis' interactor: TOUT is then never opened, and the verdict
// is the exit status alone.  The exporter writes above it
//   #define CR_JUDGE_VARIANT CR_DIFF
#include "testlib.h"

#include <signal.h>
#include <unistd.h>

#include "coinrow/contest.h"
#include "judge/judge.h"
#include "judge/testlib_text.h"

#if !defined(CR_JUDGE_VARIANT)
#error "define CR_JUDGE_VARIANT above (coinrow writes it)"
#endif

int main(int argc, char *argv[])
{
    registerInteraction(argc, argv);
    signal(SIGPIPE, SIG_IGN); /* a contestant that leaves is EPIPE, not the jury's death */
    std::string input = cr_testlib_text(inf);
    cr_error err = {CR_OK, ""};
    cr_contest_input in = {NULL, 0};
    uint64_t seed = 0;
    char *first = NULL, why[CR_JUDGE_TEXT_MAX] = "";
    size_t first_len = 0, first_cap = 0;
    cr_dialogue *d = NULL;
    cr_outcome outcome = CR_WRONG_ANSWER;
    int rc = cr_contest_game_parse(&in, &seed, input.data(), input.size(), NULL, &err);
    if (rc == 0)
        rc = cr_contest_text(&first_len, &first, &first_cap, in.coins, in.n, &err);
    if (rc == 0)
        rc = cr_dialogue_new(&d, in.coins, in.n, CR_JUDGE_VARIANT, seed, first, first_len, &err);
    if (rc == 0)
        rc = cr_dialogue_serve(d, STDIN_FILENO, STDOUT_FILENO, &err);
    if (rc == 0)
        rc = cr_dialogue_judge(&outcome, why, sizeof why, d, &err);
    cr_dialogue_free(d);
    free(first);
    cr_contest_input_free(&in);
    if (rc) {
        tout << "judge error: " << err.msg << std::endl;
        quitf(_fail, "%s", err.msg);
    }
    tout << cr_outcome_name(outcome) << ": " << why << std::endl;
    quitf(outcome == CR_ACCEPTED ? _ok : outcome == CR_PRESENTATION_ERROR ? _pe : _wa, "%s", why);
}

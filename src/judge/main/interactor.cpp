// The exported Polygon interactor (files/interactor.cpp), written against
// testlib: Polygon runs it as
//   interactor INPUT TOUT [ANSWER [RESULT [-appes]]]
// with its standard input the contestant's output and its standard output
// the contestant's input.  It plays the jury's side of the same game as the
// Kattis interactor (judge.h's cr_dialogue_play: the first
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

#include "judge/judge.h"

#if !defined(CR_JUDGE_VARIANT)
#error "define CR_JUDGE_VARIANT above (coinrow writes it)"
#endif

int main(int argc, char *argv[])
{
    registerInteraction(argc, argv);
    signal(SIGPIPE, SIG_IGN); /* a contestant that leaves is EPIPE, not the jury's death */
    cr_error err = {CR_OK, ""};
    cr_judgement verdict;
    if (cr_dialogue_play(&verdict, argv[1], CR_JUDGE_VARIANT, STDIN_FILENO, STDOUT_FILENO, &err)) {
        tout << "judge error: " << err.msg << std::endl;
        quitf(_fail, "%s", err.msg);
    }
    tout << cr_outcome_name(verdict.outcome) << ": " << verdict.why << std::endl;
    quitf(verdict.outcome == CR_ACCEPTED ? _ok : verdict.outcome == CR_PRESENTATION_ERROR ? _pe : _wa, "%s",
          verdict.why);
}

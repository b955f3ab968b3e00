// The exported Polygon checker of the interactive game (files/check.cpp of
// an interactive package), written against testlib.  Polygon runs a
// problem's checker after its interactor, as check INPUT TOUT ANSWER: the
// interactor has judged every move, and its TOUT holds its verdict's line
// ("accepted: ...", interactor.cpp), which this checker reports as testlib's
// verdict.  The answer file is not read: Polygon makes it the main
// solution's TOUT.  A TOUT without a verdict is the jury's failure.  The
// exporter writes above it
//   #define CR_JUDGE_VARIANT CR_DIFF   (not used: the interactor judged)
#include "testlib.h"

#include "coinrow/contest.h"
#include "judge/testlib_text.h"

int main(int argc, char *argv[])
{
    registerTestlibCmd(argc, argv);
    std::string record = cr_testlib_text(ouf);
    record = record.substr(0, record.find('\n'));
    static const TResult results[CR_OUTCOME_COUNT] = {_ok, _wa, _pe}; /* by cr_outcome */
    for (int o = 0; o < CR_OUTCOME_COUNT; o++) {
        std::string name = std::string(cr_outcome_name((cr_outcome)o)) + ": ";
        if (record.compare(0, name.size(), name) == 0)
            quitf(results[o], "%s", record.substr(name.size()).c_str());
    }
    char shown[4 * 64 + 4];
    cr_contest_escape(shown, sizeof shown, record.data(), record.size(), 64);
    quitf(_fail, "the interactor's output (tout) holds no verdict: '%s'", shown);
}

// The exported Polygon checker (files/check.cpp), written against testlib:
// testlib reads the three files, honours the result file and -appes, and
// reports the verdict with quitf; coinrow's core, compiled as C++ above
// this main in the amalgamation, judges.  The exporter writes above it
//   #define CR_JUDGE_VARIANT CR_DIFF
//   #define CR_JUDGE_MOVES CR_CHECK_MOVES_REQUIRED
#include "testlib.h"

#include "coinrow/contest.h"
#include "judge/testlib_text.h"

#if !defined(CR_JUDGE_VARIANT) || !defined(CR_JUDGE_MOVES)
#error "define CR_JUDGE_VARIANT and CR_JUDGE_MOVES above (coinrow writes them)"
#endif

int main(int argc, char *argv[])
{
    registerTestlibCmd(argc, argv);
    std::string input = cr_testlib_text(inf), output = cr_testlib_text(ouf), answer = cr_testlib_text(ans);
    cr_error err = {CR_OK, ""};
    cr_contest_input in = {NULL, 0};
    cr_judgement verdict;
    int rc = cr_contest_input_parse(&in, input.data(), input.size(), NULL, &err);
    if (rc)
        quitf(_fail, "the input file: %s", err.msg);
    rc = cr_contest_check(&verdict, &in, CR_JUDGE_VARIANT, CR_JUDGE_MOVES, answer.data(), answer.size(),
                          output.data(), output.size(), &err);
    cr_contest_input_free(&in);
    if (rc)
        quitf(_fail, "%s", err.msg);
    if (verdict.outcome == CR_WRONG_ANSWER)
        quitf(_wa, "%s", verdict.why);
    if (verdict.outcome == CR_PRESENTATION_ERROR)
        quitf(_pe, "%s", verdict.why);
    quitf(_ok, "the answer is right");
}

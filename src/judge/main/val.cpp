// The exported Polygon validator (files/val.cpp), written against testlib:
// registerValidation reads standard input strictly, coinrow's core (compiled
// as C++ above this main in the amalgamation) checks the format and the
// constraints, and an invalid file fails with quitf.  The exporter writes
// above it the constraints and the variant, as for the C validator:
//   #define CR_JUDGE_VARIANT CR_DIFF   (its value must fit in int64)
//   #define CR_JUDGE_N_MIN 1 ... #define CR_JUDGE_ODD_SUM 0
//   #define CR_JUDGE_INTERACTIVE 0     (1: a third line, the jury's seed)
#include "testlib.h"

#include "coinrow/contest.h"
#include "judge/testlib_text.h"

#if !defined(CR_JUDGE_VARIANT) || !defined(CR_JUDGE_N_MIN) || !defined(CR_JUDGE_N_MAX) ||                      \
    !defined(CR_JUDGE_VALUE_MIN) || !defined(CR_JUDGE_VALUE_MAX) || !defined(CR_JUDGE_EVEN_N) ||               \
    !defined(CR_JUDGE_ODD_SUM) || !defined(CR_JUDGE_INTERACTIVE)
#error "define CR_JUDGE_VARIANT and the constraints CR_JUDGE_* above (coinrow writes them)"
#endif

int main(int argc, char *argv[])
{
    registerValidation(argc, argv);
    const cr_constraints limits = {CR_JUDGE_N_MIN,     CR_JUDGE_N_MAX,  CR_JUDGE_VALUE_MIN,
                                   CR_JUDGE_VALUE_MAX, CR_JUDGE_EVEN_N, CR_JUDGE_ODD_SUM};
    std::string text = cr_testlib_text(inf);
    cr_error err = {CR_OK, ""};
    cr_contest_input in = {NULL, 0};
    uint64_t seed;
    int rc = CR_JUDGE_INTERACTIVE ? cr_contest_game_parse(&in, &seed, text.data(), text.size(), &limits, &err)
                                  : cr_contest_input_parse(&in, text.data(), text.size(), &limits, &err);
    if (rc == 0)
        rc = cr_contest_answerable(&in, CR_VARIANT_BIT(CR_JUDGE_VARIANT), &err);
    cr_contest_input_free(&in);
    if (rc)
        quitf(_fail, "%s", err.msg);
    inf.readEof();
}

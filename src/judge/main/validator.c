/* The exported validator's entry point: reads the input file on standard
 * input.  It is compiled only inside the amalgamation (scripts/amalgamate.sh),
 * above which the exporter writes the problem's settings, e.g.
 *   #define CR_JUDGE_CONVENTION CR_KATTIS        (CR_TESTLIB or CR_KATTIS)
 *   #define CR_JUDGE_N_MIN 1
 *   #define CR_JUDGE_N_MAX 3000
 *   #define CR_JUDGE_VALUE_MIN 1
 *   #define CR_JUDGE_VALUE_MAX 1000000000
 *   #define CR_JUDGE_EVEN_N 0
 *   #define CR_JUDGE_ODD_SUM 0
 *   #define CR_JUDGE_INTERACTIVE 0               (1: a third line, the jury's seed)
 *   #define CR_JUDGE_VARIANT CR_DIFF             (its value must fit in int64) */
#include "judge/judge.h"

#if !defined(CR_JUDGE_CONVENTION) || !defined(CR_JUDGE_N_MIN) || !defined(CR_JUDGE_N_MAX) ||                      \
    !defined(CR_JUDGE_VALUE_MIN) || !defined(CR_JUDGE_VALUE_MAX) || !defined(CR_JUDGE_EVEN_N) ||                  \
    !defined(CR_JUDGE_ODD_SUM) || !defined(CR_JUDGE_VARIANT) || !defined(CR_JUDGE_INTERACTIVE)
#error "define CR_JUDGE_CONVENTION, the constraints CR_JUDGE_* and CR_JUDGE_VARIANT above (coinrow writes them)"
#endif

int main(void)
{
    const cr_constraints limits = {CR_JUDGE_N_MIN,     CR_JUDGE_N_MAX,  CR_JUDGE_VALUE_MIN,
                                   CR_JUDGE_VALUE_MAX, CR_JUDGE_EVEN_N, CR_JUDGE_ODD_SUM};
    return cr_judge_validate(CR_JUDGE_CONVENTION, &limits, 0, CR_JUDGE_INTERACTIVE, CR_VARIANT_BIT(CR_JUDGE_VARIANT),
                             NULL);
}

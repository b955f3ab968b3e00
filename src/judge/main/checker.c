/* The exported checker's entry point.  It is compiled only inside the
 * amalgamation (scripts/amalgamate.sh), above which the exporter writes the
 * problem's settings, e.g.
 *   #define CR_JUDGE_CONVENTION CR_KATTIS        (CR_TESTLIB, CR_KATTIS, CR_CMS)
 *   #define CR_JUDGE_VARIANT CR_DIFF             (a cr_variant)
 *   #define CR_JUDGE_MOVES CR_CHECK_MOVES_REQUIRED */
#include "judge/judge.h"

#if !defined(CR_JUDGE_CONVENTION) || !defined(CR_JUDGE_VARIANT) || !defined(CR_JUDGE_MOVES)
#error "define CR_JUDGE_CONVENTION, CR_JUDGE_VARIANT and CR_JUDGE_MOVES above (coinrow writes them)"
#endif

int main(int argc, char **argv)
{
    return cr_judge_check(CR_JUDGE_CONVENTION, CR_JUDGE_VARIANT, CR_JUDGE_MOVES, argc - 1, argv + 1);
}

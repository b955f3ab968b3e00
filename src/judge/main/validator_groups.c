/* The exported validator of a problem scored by groups (issue 36): as
 * validator.c, and given `--group NAME` (Kattis passes a group's
 * input_validator_flags, which name it) it checks the input against that
 * group's constraints instead of the problem's.  Above it the exporter
 * writes the settings validator.c takes and the groups:
 *   #define CR_JUDGE_GROUP_COUNT 2
 *   #define CR_JUDGE_GROUPS {{"small", {1, 20, 1, 1000, 0, 0}, 0}, {"large", {1, 3000, 1, 1000, 0, 0}, 1}}
 * (the last figure: the group's coins are all equal). */
#include <stdio.h>
#include <string.h>

#include "judge/judge.h"

#if !defined(CR_JUDGE_CONVENTION) || !defined(CR_JUDGE_N_MIN) || !defined(CR_JUDGE_N_MAX) ||                      \
    !defined(CR_JUDGE_VALUE_MIN) || !defined(CR_JUDGE_VALUE_MAX) || !defined(CR_JUDGE_EVEN_N) ||                  \
    !defined(CR_JUDGE_ODD_SUM) || !defined(CR_JUDGE_VARIANT) || !defined(CR_JUDGE_GROUPS) ||                      \
    !defined(CR_JUDGE_GROUP_COUNT)
#error "define CR_JUDGE_CONVENTION, the constraints CR_JUDGE_*, CR_JUDGE_VARIANT and the groups above (coinrow writes them)"
#endif

struct judge_group {
    const char *name;
    cr_constraints limits;
    int all_equal; /* its coins are all equal */
};

int main(int argc, char **argv)
{
    static const struct judge_group groups[CR_JUDGE_GROUP_COUNT] = CR_JUDGE_GROUPS;
    cr_constraints limits = {CR_JUDGE_N_MIN,     CR_JUDGE_N_MAX,  CR_JUDGE_VALUE_MIN,
                             CR_JUDGE_VALUE_MAX, CR_JUDGE_EVEN_N, CR_JUDGE_ODD_SUM};
    int all_equal = 0; /* the problem's tests need not be */
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--group") != 0)
            continue;
        int k = 0;
        while (i + 1 < argc && k < CR_JUDGE_GROUP_COUNT && strcmp(groups[k].name, argv[i + 1]) != 0)
            k++;
        if (i + 1 == argc || k == CR_JUDGE_GROUP_COUNT) { /* the package's setup, not the test, is wrong */
            fprintf(stderr, "--group: the problem has no such group (its groups are named in the package)\n");
            return CR_JUDGE_CONVENTION == CR_KATTIS ? CR_JUDGE_ERROR : CR_JUDGE_TESTLIB_FAIL;
        }
        limits = groups[k].limits;
        all_equal = groups[k].all_equal;
        i++;
    }
    return cr_judge_validate(CR_JUDGE_CONVENTION, &limits, all_equal, 0, CR_VARIANT_BIT(CR_JUDGE_VARIANT), NULL);
}

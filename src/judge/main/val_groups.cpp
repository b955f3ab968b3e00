// The exported Polygon validator of a problem scored by groups (issue 36):
// as val.cpp, and for a test of a group (Polygon passes `--group NAME`,
// which testlib's registerValidation reads) the group's constraints instead
// of the problem's, its coins all equal when the group says so.  Above it
// the exporter writes val.cpp's settings and the groups:
//   #define CR_JUDGE_GROUP_COUNT 2
//   #define CR_JUDGE_GROUPS {{"small", {1, 20, 1, 1000, 0, 0}, 0}, {"eq", {2, 10, 1, 9, 1, 0}, 1}}
#include "testlib.h"

#include "coinrow/contest.h"
#include "judge/testlib_text.h"

#if !defined(CR_JUDGE_VARIANT) || !defined(CR_JUDGE_N_MIN) || !defined(CR_JUDGE_N_MAX) ||                      \
    !defined(CR_JUDGE_VALUE_MIN) || !defined(CR_JUDGE_VALUE_MAX) || !defined(CR_JUDGE_EVEN_N) ||               \
    !defined(CR_JUDGE_ODD_SUM) || !defined(CR_JUDGE_GROUPS) || !defined(CR_JUDGE_GROUP_COUNT)
#error "define CR_JUDGE_VARIANT, the constraints CR_JUDGE_* and the groups above (coinrow writes them)"
#endif

struct judge_group {
    const char *name;
    cr_constraints limits;
    int all_equal;
};

int main(int argc, char *argv[])
{
    registerValidation(argc, argv);
    static const judge_group groups[CR_JUDGE_GROUP_COUNT] = CR_JUDGE_GROUPS;
    judge_group problem = {"", {CR_JUDGE_N_MIN, CR_JUDGE_N_MAX, CR_JUDGE_VALUE_MIN, CR_JUDGE_VALUE_MAX,
                                CR_JUDGE_EVEN_N, CR_JUDGE_ODD_SUM}, 0};
    const judge_group *group = &problem;
    for (const judge_group &g : groups)
        if (validator.group() == g.name)
            group = &g;
    if (!validator.group().empty() && group == &problem)
        quitf(_fail, "--group %s: the problem has no such group", validator.group().c_str());
    std::string text = cr_testlib_text(inf);
    cr_error err = {CR_OK, ""};
    cr_contest_input in = {NULL, 0};
    int rc = cr_contest_input_parse(&in, text.data(), text.size(), &group->limits, &err);
    if (rc == 0 && group->all_equal)
        rc = cr_contest_all_equal(&in, &err);
    if (rc == 0)
        rc = cr_contest_answerable(&in, CR_VARIANT_BIT(CR_JUDGE_VARIANT), &err);
    cr_contest_input_free(&in);
    if (rc)
        quitf(_fail, "%s", err.msg);
    inf.readEof();
}

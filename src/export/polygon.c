/* The polygon format (Codeforces' Polygon, and DOMjudge through
 * Polygon2DOMjudge): problem.xml, tests/%02d and tests/%02d.a (Polygon's
 * own names, test 100 is "100"), the testlib checker and validator
 * files/check.cpp and files/val.cpp with files/testlib.h and its licence,
 * the statement (statements/english/problem.tex, and
 * statements/.pdf/english/problem.pdf, which converters carry over), and
 * solutions/ as for kattis, tagged in problem.xml.  A problem of groups
 * has each test's group and points, and the groups (points-policy
 * complete-group, their dependencies) in problem.xml; files/val.cpp then
 * takes the --group Polygon passes it.  A partially accepted solution is
 * tagged rejected: it fails some test.  An interactive problem
 * (--interactive) has the testlib interactor files/interactor.cpp among
 * the assets, which plays the jury with the seed on each input's third
 * line and writes its verdict's line to tout; files/check.cpp is then the
 * checker Polygon runs after it, which reports that line; the solutions
 * are the players, as for kattis (reference.c main, the wrong ones
 * wrong-answer, unflushed.c time-limit-exceeded, crash.c rejected). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/format.h"
#include "export/statement.h"
#include "util/util.h"

/* Polygon's tag for a solution: "main" for the reference one (the first),
 * else its folder's: run_time_error, the last of CR_SUBMISSION_FOLDERS, is
 * "rejected". */
static const char *tag_of(const cr_problem *pb, size_t i)
{
    static const char *const tags[][2] = {{"accepted", "accepted"},
                                          {"wrong_answer", "wrong-answer"},
                                          {"time_limit_exceeded", "time-limit-exceeded"}};
    if (i == 0)
        return "main";
    for (size_t t = 0; t < sizeof tags / sizeof tags[0]; t++)
        if (strcmp(pb->solutions[i].folder, tags[t][0]) == 0)
            return tags[t][1];
    return "rejected";
}

/* Polygon's name for a language's compiler; NULL for a program that is not
 * one source file. */
static const char *polygon_type(cr_language lang)
{
    static const char *const types[CR_LANG_COUNT] = {NULL, "c.gcc", "cpp.g++17", "python.3"};
    return (unsigned)lang < CR_LANG_COUNT ? types[lang] : NULL;
}

/* The tests, each in its group with the points of the group on its first
 * test (Polygon sums a complete group's tests' points), then the groups,
 * scored when all their tests pass, after the groups they depend on. */
static int write_tests(FILE *f, const cr_problem *pb, cr_error *err)
{
    unsigned char *pointed = pb->group_count ? calloc(pb->group_count, 1) : NULL;
    if (pb->group_count && !pointed)
        return cr_errorf(err, CR_ENOMEM, "no memory for the groups");
    for (uint64_t k = 0; k < pb->tests; k++) {
        fprintf(f, "                <test method=\"manual\"%s", k < pb->samples ? " sample=\"true\"" : "");
        if (pointed) {
            size_t g = pb->test_group[k];
            fprintf(f, " group=\"%s\" points=\"%" PRId64 "\"", pb->groups[g].name,
                    pointed[g] ? 0 : pb->groups[g].points);
            pointed[g] = 1;
        }
        fputs("/>\n", f);
    }
    free(pointed);
    fputs("            </tests>\n", f);
    if (pb->group_count)
        fputs("            <groups>\n", f);
    for (size_t g = 0; g < pb->group_count; g++) {
        const cr_problem_group *group = &pb->groups[g];
        fprintf(f, "                <group name=\"%s\" points=\"%" PRId64 "\" points-policy=\"complete-group\"%s\n",
                group->name, group->points, *group->depends ? ">" : "/>");
        if (!*group->depends)
            continue;
        fputs("                    <dependencies>\n", f);
        for (const char *at = group->depends; *at;) {
            size_t len = strcspn(at, ",");
            fprintf(f, "                        <dependency group=\"%.*s\"/>\n", (int)len, at);
            at += len + (at[len] == ',');
        }
        fputs("                    </dependencies>\n                </group>\n", f);
    }
    if (pb->group_count)
        fputs("            </groups>\n", f);
    return 0;
}

static int write_xml(FILE *f, const cr_problem *pb, cr_error *err)
{
    fputs("<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"no\"?>\n<problem revision=\"1\" short-name=\"", f);
    cr_export__put_xml(f, pb->name);
    fputs("\">\n    <names>\n        <name language=\"english\" value=\"", f);
    cr_export__put_xml(f, pb->title);
    fprintf(f,
            "\"/>\n    </names>\n    <statements>\n"
            "        <statement charset=\"UTF-8\" language=\"english\" mathjax=\"true\" "
            "path=\"statements/english/problem.tex\" type=\"application/x-tex\"/>\n"
            "        <statement language=\"english\" path=\"statements/.pdf/english/problem.pdf\" "
            "type=\"application/pdf\"/>\n    </statements>\n"
            "    <judging input-file=\"\" output-file=\"\">\n        <testset name=\"tests\">\n"
            "            <time-limit>%u</time-limit>\n            <memory-limit>%llu</memory-limit>\n"
            "            <test-count>%" PRIu64 "</test-count>\n"
            "            <input-path-pattern>tests/%%02d</input-path-pattern>\n"
            "            <answer-path-pattern>tests/%%02d.a</answer-path-pattern>\n            <tests>\n",
            pb->time_limit_ms, (unsigned long long)pb->memory_mib << 20, pb->tests);
    int rc = write_tests(f, pb, err);
    fputs("        </testset>\n    </judging>\n"
          "    <files>\n        <resources>\n            <file path=\"files/testlib.h\" type=\"h.g++\"/>\n"
          "        </resources>\n    </files>\n    <assets>\n"
          "        <checker name=\"check.cpp\" type=\"testlib\">\n"
          "            <source path=\"files/check.cpp\" type=\"cpp.g++17\"/>\n        </checker>\n",
          f);
    if (pb->interactive)
        fputs("        <interactor>\n            <source path=\"files/interactor.cpp\" type=\"cpp.g++17\"/>\n"
              "        </interactor>\n",
              f);
    fputs("        <validators>\n            <validator>\n"
          "                <source path=\"files/val.cpp\" type=\"cpp.g++17\"/>\n            </validator>\n"
          "        </validators>\n        <solutions>\n",
          f);
    for (size_t i = 0; i < pb->solution_count; i++) {
        fprintf(f, "            <solution tag=\"%s\">\n                <source path=\"solutions/", tag_of(pb, i));
        cr_export__put_xml(f, pb->solutions[i].name);
        fprintf(f, "\" type=\"%s\"/>\n            </solution>\n", polygon_type(pb->solutions[i].lang));
    }
    fputs("        </solutions>\n    </assets>\n</problem>\n", f);
    return rc;
}

static int write_files(cr_package *p, const cr_problem *pb, cr_error *err)
{
    static const char *const folders[] = {"files", "solutions", "statements", "statements/english",
                                          "statements/.pdf", "statements/.pdf/english"};
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < sizeof folders / sizeof folders[0]; i++)
        rc = cr_export__mkdir(p, folders[i], err);
    if (rc == 0)
        rc = cr_export__file(p, "problem.xml", write_xml, pb, err);
    if (rc == 0)
        rc = cr_statement_file(p, "statements/english/problem.tex", CR_STATEMENT_POLYGON, pb, err);
    if (rc == 0)
        rc = cr_export__file(p, "statements/.pdf/english/problem.pdf", cr_statement_write_pdf, pb, err);
    if (rc == 0)
        rc = cr_export__program(p, "files/check.cpp",
                                pb->interactive ? CR_JUDGE_TESTLIB_GAME_CHECKER : CR_JUDGE_TESTLIB_CHECKER, CR_TESTLIB,
                                pb, err);
    if (rc == 0 && pb->interactive)
        rc = cr_export__program(p, "files/interactor.cpp", CR_JUDGE_TESTLIB_INTERACTOR, CR_TESTLIB, pb, err);
    if (rc == 0)
        rc = cr_export__program(p, "files/val.cpp", CR_JUDGE_TESTLIB_VALIDATOR, CR_TESTLIB, pb, err);
    if (rc == 0)
        rc = cr_export__text(p, "files/testlib.h", cr_judge__testlib_h, err);
    if (rc == 0)
        rc = cr_export__text(p, "files/testlib-LICENSE.txt", cr_judge__testlib_license, err);
    for (size_t i = 0; rc == 0 && i < pb->solution_count; i++) {
        char rel[sizeof "solutions/" + CR_SUBMISSION_NAME_MAX];
        snprintf(rel, sizeof rel, "solutions/%s", pb->solutions[i].name);
        rc = cr_export__solution(p, rel, &pb->solutions[i], CR_TESTLIB, pb, err);
    }
    return rc;
}

static int test_paths(char in[CR_EXPORT_TEST_PATH_MAX], char ans[CR_EXPORT_TEST_PATH_MAX], cr_package *p,
                      const cr_export_test *t, cr_error *err)
{
    (void)p, (void)err;
    snprintf(in, CR_EXPORT_TEST_PATH_MAX, "tests/%02" PRIu64, t->k + 1);
    snprintf(ans, CR_EXPORT_TEST_PATH_MAX, "tests/%02" PRIu64 ".a", t->k + 1);
    return 0;
}

const cr_export_format cr_export__polygon = {
    .name = "polygon",
    .summary = "Polygon: problem.xml, tests/%02d, files/check.cpp and val.cpp with testlib.h, the statement (LaTeX "
               "and PDF), solutions/ tagged in problem.xml",
    .supports = CR_EXPORT_SAMPLES | CR_EXPORT_METADATA | CR_EXPORT_SUBMISSIONS | CR_EXPORT_GROUPS |
                CR_EXPORT_INTERACTION,
    .short_name_chars = CR_EXPORT_SHORT_NAME_CHARS,
    .short_name_rule = CR_EXPORT_SHORT_NAME_RULE,
    .folders = {"tests"},
    .test_paths = test_paths,
    .write = write_files,
    .entries = 20, /* interactive: the interactor, and five players for three solutions */
};

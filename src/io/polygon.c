/* A Polygon package's files besides the tests: problem.xml, the testlib
 * checker and validator with testlib.h, the statement (LaTeX and PDF, which
 * converters carry over) and the solutions with their tags. */
#include <inttypes.h>

#include "io/package.h"
#include "io/statement.h"

/* The solutions the package holds: the reference one, and the wrong and
 * slow ones when the tests catch them. */
typedef struct solution {
    const char *path, *tag;
    cr_judge_program program;
} solution;

static size_t solutions_of(solution out[3], const cr_problem *pb)
{
    size_t count = 0;
    out[count++] = (solution){"solutions/reference.c", "main", CR_JUDGE_SOLUTION};
    if (pb->greedy_caught)
        out[count++] = (solution){"solutions/greedy.c", "wrong-answer", CR_JUDGE_GREEDY};
    if (pb->n_largest >= CR_PROBLEM_BRUTE_FORCE_N)
        out[count++] = (solution){"solutions/brute_force.c", "time-limit-exceeded", CR_JUDGE_BRUTE_FORCE};
    return count;
}

static int write_xml(FILE *f, const cr_problem *pb, cr_error *err)
{
    (void)err;
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
    for (uint64_t k = 0; k < pb->tests; k++)
        fprintf(f, "                <test method=\"manual\"%s/>\n", k < pb->samples ? " sample=\"true\"" : "");
    fputs("            </tests>\n        </testset>\n    </judging>\n"
          "    <files>\n        <resources>\n            <file path=\"files/testlib.h\" type=\"h.g++\"/>\n"
          "        </resources>\n    </files>\n    <assets>\n"
          "        <checker name=\"check.cpp\" type=\"testlib\">\n"
          "            <source path=\"files/check.cpp\" type=\"cpp.g++17\"/>\n        </checker>\n"
          "        <validators>\n            <validator>\n"
          "                <source path=\"files/val.cpp\" type=\"cpp.g++17\"/>\n            </validator>\n"
          "        </validators>\n        <solutions>\n",
          f);
    solution solutions[3];
    for (size_t i = 0, count = solutions_of(solutions, pb); i < count; i++)
        fprintf(f,
                "            <solution tag=\"%s\">\n                <source path=\"%s\" type=\"c.gcc\"/>\n"
                "            </solution>\n",
                solutions[i].tag, solutions[i].path);
    fputs("        </solutions>\n    </assets>\n</problem>\n", f);
    return 0;
}

static int write_statement(FILE *f, const cr_problem *pb, cr_error *err)
{
    (void)err;
    cr_statement_write(f, pb, CR_STATEMENT_POLYGON);
    return 0;
}

int cr_export__polygon(cr_package *p, const cr_problem *pb, cr_error *err)
{
    static const char *const folders[] = {"files", "solutions", "statements", "statements/english",
                                          "statements/.pdf", "statements/.pdf/english"};
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < sizeof folders / sizeof folders[0]; i++)
        rc = cr_export__mkdir(p, folders[i], err);
    if (rc == 0)
        rc = cr_export__file(p, "problem.xml", write_xml, pb, err);
    if (rc == 0)
        rc = cr_export__file(p, "statements/english/problem.tex", write_statement, pb, err);
    if (rc == 0)
        rc = cr_export__file(p, "statements/.pdf/english/problem.pdf", cr_statement_write_pdf, pb, err);
    if (rc == 0)
        rc = cr_export__program(p, "files/check.cpp", CR_JUDGE_TESTLIB_CHECKER, CR_TESTLIB, err);
    if (rc == 0)
        rc = cr_export__program(p, "files/val.cpp", CR_JUDGE_TESTLIB_VALIDATOR, CR_TESTLIB, err);
    if (rc == 0)
        rc = cr_export__text(p, "files/testlib.h", cr_judge__testlib_h, err);
    if (rc == 0)
        rc = cr_export__text(p, "files/testlib-LICENSE.txt", cr_judge__testlib_license, err);
    solution solutions[3];
    for (size_t i = 0, count = solutions_of(solutions, pb); rc == 0 && i < count; i++)
        rc = cr_export__program(p, solutions[i].path, solutions[i].program, CR_TESTLIB, err);
    return rc;
}

/* A Kattis (and DOMjudge) package's files besides the tests: problem.yaml,
 * .timelimit, the statement, the validator and the checker, and the
 * submissions that show the tests are strong. */
#include <inttypes.h>
#include <string.h>

#include "export/package.h"
#include "export/statement.h"

/* A time limit in seconds, as judges read it: "1", "2.500". */
static void put_seconds(FILE *f, unsigned ms)
{
    if (ms % 1000)
        fprintf(f, "%u.%03u", ms / 1000, ms % 1000);
    else
        fprintf(f, "%u", ms / 1000);
}

static int write_yaml(FILE *f, const cr_problem *pb, cr_error *err)
{
    (void)err;
    fprintf(f, "# written by coinrow export: the %s value%s, answers of run %" PRId64 " of set ",
            cr_variant_name(pb->variant), pb->lines ? " and the line of play" : "", pb->run_id);
    cr_export__put_yaml(f, pb->set_name);
    fputs("\nname: ", f);
    cr_export__put_yaml(f, pb->title);
    fprintf(f, "\nuuid: %s\nlicense: %s\n", pb->uuid, pb->license ? pb->license : "unknown");
    if (pb->rights_owner) {
        fputs("rights_owner: ", f);
        cr_export__put_yaml(f, pb->rights_owner);
        fputc('\n', f);
    }
    fprintf(f,
            "validation: custom\n"
            "# Kattis sets the time limit to the slowest accepted submission's time times\n"
            "# time_multiplier; .timelimit holds the one coinrow set (DOMjudge reads it).\n"
            "limits:\n  time_multiplier: %d\n  memory: %u\n",
            CR_EXPORT_TIME_FACTOR, pb->memory_mib);
    return 0;
}

static int write_timelimit(FILE *f, const cr_problem *pb, cr_error *err)
{
    (void)err;
    put_seconds(f, pb->time_limit_ms);
    fputc('\n', f);
    return 0;
}

/* submissions/FOLDER/NAME for every solution, each folder made once. */
static int write_submissions(cr_package *p, const cr_problem *pb, cr_error *err)
{
    int rc = cr_export__mkdir(p, "submissions", err);
    for (size_t i = 0; rc == 0 && i < pb->solution_count; i++) {
        const cr_problem_solution *s = &pb->solutions[i];
        char rel[64 + CR_SUBMISSION_NAME_MAX];
        size_t made = 0;
        while (made < i && strcmp(pb->solutions[made].folder, s->folder) != 0)
            made++;
        snprintf(rel, sizeof rel, "submissions/%s", s->folder);
        if (made == i)
            rc = cr_export__mkdir(p, rel, err);
        snprintf(rel, sizeof rel, "submissions/%s/%s", s->folder, s->name);
        if (rc == 0)
            rc = cr_export__solution(p, rel, s, CR_KATTIS, pb, err);
    }
    return rc;
}

int cr_export__kattis(cr_package *p, const cr_problem *pb, cr_error *err)
{
    static const char *const folders[] = {"problem_statement", "input_validators", "input_validators/validator",
                                          "output_validators", "output_validators/checker"};
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < sizeof folders / sizeof folders[0]; i++)
        rc = cr_export__mkdir(p, folders[i], err);
    if (rc == 0)
        rc = cr_export__file(p, "problem.yaml", write_yaml, pb, err);
    if (rc == 0)
        rc = cr_export__file(p, ".timelimit", write_timelimit, pb, err);
    if (rc == 0)
        rc = cr_statement_file(p, "problem_statement/problem.en.tex", CR_STATEMENT_KATTIS, pb, err);
    if (rc == 0)
        rc = cr_export__program(p, "input_validators/validator/validator.c", CR_JUDGE_VALIDATOR, CR_KATTIS, pb, err);
    if (rc == 0)
        rc = cr_export__program(p, "output_validators/checker/checker.c", CR_JUDGE_CHECKER, CR_KATTIS, pb, err);
    if (rc == 0)
        rc = write_submissions(p, pb, err);
    return rc;
}

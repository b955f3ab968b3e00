/* The kattis format (Kattis problemtools, DOMjudge): problem.yaml,
 * .timelimit, problem_statement/problem.en.tex, data/sample/NN.{in,ans},
 * data/secret/NN.{in,ans}, input_validators/validator/validator.c,
 * output_validators/checker/checker.c, submissions/accepted/reference.c,
 * and when the tests catch them submissions/wrong_answer/greedy.c and
 * submissions/time_limit_exceeded/brute_force.c; with --submissions also
 * submissions/LABEL/invID-SOURCE.  An interactive problem (--interactive)
 * is `validation: custom interactive`: the inputs end in the jury's seeds
 * (the .ans files say so), the samples have their data/sample/NN.interaction, the output
 * validator is output_validators/interactor/interactor.c, and the
 * submissions are the players: reference.c (accepted), greedy.c and
 * precomputed.c (wrong_answer, when a test catches them), unflushed.c
 * (time_limit_exceeded) and crash.c (run_time_error).  A problem of groups is `type: scoring`:
 * each group's secret tests in data/secret/GROUP with its testdata.yaml
 * (its points, scored as the least of its tests', and the validator's
 * --group GROUP), and the testdata.yaml of data, data/sample and
 * data/secret that make the score the groups' sum.  NN is the test's number from 1,
 * zero-padded to the width of the count and to at least 2 digits (the ids
 * generate gives). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "coinrow/gen.h"
#include "export/format.h"
#include "export/statement.h"
#include "util/util.h"

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
    if (pb->interactive)
        fprintf(f, "# written by coinrow export: the interactive game under %s, the jury's seeds on the inputs' "
                   "third lines; set ",
                cr_variant_name(pb->variant));
    else
        fprintf(f, "# written by coinrow export: the %s value%s, answers of run %" PRId64 " of set ",
                cr_variant_name(pb->variant), pb->lines ? " and the line of play" : "", pb->run_id);
    cr_export__put_yaml(f, pb->set_name);
    fputs("\nname: ", f);
    cr_export__put_yaml(f, pb->title);
    fprintf(f, "\nuuid: %s\nlicense: %s\n", pb->uuid, pb->license ? pb->license : "unknown");
    if (pb->group_count > 0)
        fputs("type: scoring\n", f);
    if (pb->rights_owner) {
        fputs("rights_owner: ", f);
        cr_export__put_yaml(f, pb->rights_owner);
        fputc('\n', f);
    }
    fprintf(f,
            "validation: custom%s\n"
            "# Kattis sets the time limit to the slowest accepted submission's time times\n"
            "# time_multiplier; .timelimit holds the one coinrow set (DOMjudge reads it).\n"
            "limits:\n  time_multiplier: %d\n  memory: %u\n",
            pb->interactive ? " interactive" : "", CR_EXPORT_TIME_FACTOR, pb->memory_mib);
    if (pb->group_count > 0)
        fputs("# each group of data/secret scored on its own (its testdata.yaml)\n"
              "grading:\n  show_test_data_groups: true\n",
              f);
    return 0;
}

static int write_timelimit(FILE *f, const cr_problem *pb, cr_error *err)
{
    (void)err;
    put_seconds(f, pb->time_limit_ms);
    fputc('\n', f);
    return 0;
}

/* The points of all the groups. */
static int64_t total_points(const cr_problem *pb)
{
    int64_t total = 0;
    for (size_t g = 0; g < pb->group_count; g++)
        total += pb->groups[g].points;
    return total;
}

/* data/testdata.yaml of a problem of groups: the score is the secret
 * groups' sum, every group judged whatever the others give. */
static int write_root_testdata(FILE *f, const cr_problem *pb, cr_error *err)
{
    (void)err;
    fprintf(f, "# written by coinrow export: the score is the sum of data/secret's groups' points\n"
               "on_reject: continue\nrange: 0 %" PRId64 "\n",
            total_points(pb));
    return 0;
}

/* data/sample/testdata.yaml: the samples give no points. */
static int write_sample_testdata(FILE *f, const cr_problem *pb, cr_error *err)
{
    (void)pb, (void)err;
    fputs("accept_score: 0\nrange: 0 0\n", f);
    return 0;
}

/* data/secret/testdata.yaml: a submission that passes some group is
 * accepted with that group's points (partially accepted). */
static int write_secret_testdata(FILE *f, const cr_problem *pb, cr_error *err)
{
    (void)pb, (void)err;
    fputs("grader_flags: accept_if_any_accepted\n", f);
    return 0;
}

/* data/secret/GROUP/testdata.yaml of each group: its points when every
 * test passes (the least of its tests' scores), its validator flags, and
 * in a comment what it holds to and depends on, which Kattis does not
 * score by. */
static int write_group_testdata(cr_package *p, const cr_problem *pb, cr_error *err)
{
    int rc = 0;
    for (size_t g = 0; rc == 0 && g < pb->group_count; g++) {
        const cr_problem_group *group = &pb->groups[g];
        const cr_constraints *l = &group->limits;
        char rel[64 + CR_STORE_GROUP_NAME_MAX];
        snprintf(rel, sizeof rel, "data/secret/%s/testdata.yaml", group->name);
        FILE *f = cr_export__create(p, rel, err);
        if (!f)
            return CR_EIO;
        fprintf(f, "# group %s: n in %zu..%zu, values in %" PRId64 "..%" PRId64 "%s%s%s", group->name, l->n_min,
                l->n_max, l->value_min, l->value_max, l->even_n ? ", n even" : "", l->odd_sum ? ", an odd sum" : "",
                group->all_equal ? ", all coins equal" : "");
        if (*group->depends)
            fprintf(f, "; after %s (Kattis scores each group alone)", group->depends);
        fprintf(f, "\naccept_score: %" PRId64 "\nrange: 0 %" PRId64 "\ngrader_flags: min\non_reject: break\n"
                   "input_validator_flags: --group %s\n",
                group->points, group->points, group->name);
        rc = cr_export__finish(p, f, rel, err);
    }
    return rc;
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

static int write_files(cr_package *p, const cr_problem *pb, cr_error *err)
{
    static const char *const folders[] = {"problem_statement", "input_validators", "input_validators/validator",
                                          "output_validators"};
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < sizeof folders / sizeof folders[0]; i++)
        rc = cr_export__mkdir(p, folders[i], err);
    /* the output validator: the checker, or the interactor, which plays the jury */
    if (rc == 0)
        rc = cr_export__mkdir(p, pb->interactive ? "output_validators/interactor" : "output_validators/checker", err);
    if (rc == 0)
        rc = cr_export__file(p, "problem.yaml", write_yaml, pb, err);
    if (rc == 0)
        rc = cr_export__file(p, ".timelimit", write_timelimit, pb, err);
    if (rc == 0)
        rc = cr_statement_file(p, "problem_statement/problem.en.tex", CR_STATEMENT_KATTIS, pb, err);
    if (rc == 0)
        rc = cr_export__program(p, "input_validators/validator/validator.c", CR_JUDGE_VALIDATOR, CR_KATTIS, pb, err);
    if (rc == 0 && pb->interactive)
        rc = cr_export__program(p, "output_validators/interactor/interactor.c", CR_JUDGE_INTERACTOR, CR_KATTIS, pb,
                                err);
    else if (rc == 0)
        rc = cr_export__program(p, "output_validators/checker/checker.c", CR_JUDGE_CHECKER, CR_KATTIS, pb, err);
    if (rc == 0)
        rc = write_submissions(p, pb, err);
    if (rc == 0 && pb->group_count > 0)
        rc = cr_export__file(p, "data/testdata.yaml", write_root_testdata, pb, err);
    if (rc == 0 && pb->group_count > 0 && pb->samples > 0)
        rc = cr_export__file(p, "data/sample/testdata.yaml", write_sample_testdata, pb, err);
    if (rc == 0 && pb->group_count > 0)
        rc = cr_export__file(p, "data/secret/testdata.yaml", write_secret_testdata, pb, err);
    if (rc == 0)
        rc = write_group_testdata(p, pb, err);
    return rc;
}

/* A sample goes to data/sample, made with the first one (problemtools
 * warns of an empty one), a secret test to data/secret, or in a problem
 * of groups to its group's folder data/secret/GROUP, made with the
 * group's first test. */
static int test_paths(char in[CR_EXPORT_TEST_PATH_MAX], char ans[CR_EXPORT_TEST_PATH_MAX], cr_package *p,
                      const cr_export_test *t, cr_error *err)
{
    char num[CR_GEN_ID_MAX], folder[32 + CR_STORE_GROUP_NAME_MAX];
    cr_gen_id(num, t->count, t->k);
    if (t->k < t->samples)
        snprintf(folder, sizeof folder, "data/sample");
    else if (!t->group)
        snprintf(folder, sizeof folder, "data/secret");
    else
        snprintf(folder, sizeof folder, "data/secret/%s", t->group->name);
    snprintf(in, CR_EXPORT_TEST_PATH_MAX, "%s/%s.in", folder, num);
    snprintf(ans, CR_EXPORT_TEST_PATH_MAX, "%s/%s.ans", folder, num);
    if (t->k == 0 && t->samples > 0)
        return cr_export__mkdir(p, folder, err);
    if (!t->group || t->k < t->samples)
        return 0;
    const char *other = NULL;
    int rc = cr_export__claim(p, folder, folder, &other);
    if (rc < 0)
        return cr_errorf(err, CR_ENOMEM, "no memory for the groups' folders");
    return rc == 0 ? cr_export__mkdir(p, folder, err) : 0;
}

/* The license, one problem.yaml knows, with the rights owner (NULL: none)
 * as problemtools takes them. */
static int check_license(const cr_export_opts *opts, cr_error *err)
{
    static const char *const licenses[] = {"public domain", "cc0", "cc by", "cc by-sa", "educational", "permission"};
    const char *name = opts->license;
    size_t k = 0, count = sizeof licenses / sizeof licenses[0];
    if (!name)
        return 0;
    while (k < count && strcmp(name, licenses[k]) != 0)
        k++;
    if (k == count)
        return cr_errorf(err, CR_EINVAL, "unknown license '%s' (public domain, cc0, cc by, cc by-sa, educational or "
                                            "permission)",
                            name);
    /* problemtools' rule: nobody owns a public-domain problem, and every other
     * licence names who does (or an author or a source, which export does not
     * write) */
    if (k == 0 && opts->rights_owner)
        return cr_errorf(err, CR_EINVAL, "a problem in the public domain has no rights owner: leave out --rights-owner "
                                            "(Kattis refuses the package)");
    if (k > 0 && !opts->rights_owner)
        return cr_errorf(err, CR_EINVAL, "license '%s' needs --rights-owner TEXT, who holds the rights (Kattis refuses "
                                            "the package without one)",
                            name);
    return 0;
}

const cr_export_format cr_export__kattis = {
    .name = "kattis",
    .summary = "Kattis problemtools, DOMjudge: problem.yaml, .timelimit, the statement, data/sample, data/secret, "
               "the validator, the checker, submissions/LABEL/ (DIR's name: lowercase letters and digits)",
    .supports = CR_EXPORT_SAMPLES | CR_EXPORT_METADATA | CR_EXPORT_LICENSE | CR_EXPORT_SUBMISSIONS | CR_EXPORT_GROUPS |
                CR_EXPORT_INTERACTION,
    .short_name_chars = "abcdefghijklmnopqrstuvwxyz0123456789",
    .short_name_rule = "lowercase letters and digits (Kattis, DOMjudge)",
    .folders = {"data", "data/secret"},
    .test_paths = test_paths,
    .write = write_files,
    .entries = 20,
    .check_opts = check_license,
    .interaction_ext = ".interaction",
    .unlicensed = "problem.yaml says license: unknown (verifyproblem warns): give --license and --rights-owner",
    .groups_alone = 1,
};

/* The cms format (CMS's italy_yaml loader): task.yaml, input/inputK.txt
 * and output/outputK.txt (K counts from 0), the checker's source
 * check/checker.c and the checker built from it, check/checker (CMS's
 * loader uses a checker only when check/checker is there, and runs it in
 * its sandbox: statically linked where the toolchain allows), and the
 * statement, statement/statement.pdf.  A problem of groups is scored
 * GroupMin: each group's points when all its tests pass, its tests named
 * by a regex of their codenames; CMS has no dependencies between groups.
 * An interactive problem (--interactive) is a Communication task, which
 * the loader makes of a check/manager: check/manager.c and the manager
 * built from it in place of the checker, task.yaml's one process on
 * standard input and output (no stub), the inputs ending in the jury's
 * seeds (the outputs, which the loader requires, say so), and the players
 * in sol/ (the loader lists that folder for a Communication task's
 * headers, and refuses the task without it): reference.c, which scores
 * 1.0, then those that score 0.0: greedy.c and precomputed.c (when a
 * test catches them), unflushed.c (out of time) and crash.c. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "export/format.h"
#include "export/statement.h"
#include "util/util.h"

/* The program CMS runs on every test: the manager of an interactive
 * problem, else the checker. */
static const char *judge_program(int interactive) { return interactive ? "check/manager" : "check/checker"; }

/* Before anything is written: without opts->no_build, a C compiler ($CC,
 * else cc) must be there to build the checker or the manager; CR_EINVAL
 * saying so and what to do. */
static int check_compiler(const cr_export_opts *opts, const char *dir, cr_error *err)
{
    if (opts->no_build)
        return 0;
    char *none[] = {NULL}, **compiler = cr_submission_compiler(CR_LANG_C, none), *path = NULL;
    if (!compiler)
        return cr_errorf(err, CR_ENOMEM, "no memory to look for a C compiler");
    int found = cr_child_resolve(&path, compiler[0], NULL, NULL) == 0;
    const char *program = judge_program(opts->interactive);
    int rc = found ? 0
                   : cr_errorf(err, CR_EINVAL, "no C compiler (%s) to build %s, which CMS runs (%s): install gcc, or "
                                               "give --no-build and build it before importing: cd %s && cc -O2 "
                                               "-static -o %s %s.c",
                               compiler[0], program,
                               opts->interactive ? "the interactive task's jury" : "without it CMS compares bytes",
                               dir, program, program);
    free(path);
    free(compiler);
    return rc;
}

/* Builds the program at rel (check/checker, check/manager) from rel.c:
 * statically linked when the toolchain can, else as it can. */
static int build_program(cr_package *p, const char *rel, cr_error *err)
{
    char source[4096], binary[4096], rel_source[64];
    snprintf(rel_source, sizeof rel_source, "%s.c", rel);
    snprintf(source, sizeof source, "%s", cr_export__path(p, rel_source));
    snprintf(binary, sizeof binary, "%s", cr_export__path(p, rel));
    char *static_args[] = {"-O2", "-static", "-o", binary, source, NULL};
    char *dynamic_args[] = {"-O2", "-o", binary, source, NULL};
    char **static_argv = cr_submission_compiler(CR_LANG_C, static_args);
    char **dynamic_argv = cr_submission_compiler(CR_LANG_C, dynamic_args);
    cr_build_failure failed;
    int rc = !static_argv || !dynamic_argv ? cr_errorf(err, CR_ENOMEM, "no memory to build %s", rel)
                                           : cr_submission_compile(&failed, static_argv, NULL, NULL, err);
    if (rc == 1)
        rc = cr_submission_compile(&failed, dynamic_argv, NULL, NULL, err);
    if (rc == 1)
        rc = cr_errorf(err, CR_EIO, "%s could not build %s (%s %d): %.120s", static_argv[0], rel,
                       failed.signal ? "signal" : "exit status", failed.signal ? failed.signal : failed.exit_code,
                       failed.said);
    free(static_argv);
    free(dynamic_argv);
    return rc;
}

static int write_yaml(FILE *f, const cr_problem *pb, cr_error *err)
{
    (void)err;
    unsigned ms = pb->time_limit_ms;
    fputs("name: ", f);
    cr_export__put_yaml(f, pb->name);
    fputs("\ntitle: ", f);
    cr_export__put_yaml(f, pb->title);
    fprintf(f, "\nprimary_language: en\nn_input: %" PRIu64 "\ntime_limit: %u.%03u\nmemory_limit: %u\n", pb->tests,
            ms / 1000, ms % 1000, pb->memory_mib);
    fputs("public_testcases: \"", f);
    for (uint64_t k = 0; k < pb->samples; k++)
        fprintf(f, k ? ",%" PRIu64 : "%" PRIu64, k);
    fputs("\"\ninfile: \"\"\noutfile: \"\"\ntoken_mode: disabled\n", f);
    if (pb->interactive) /* the loader's Communication task: check/manager is there, sol/ has no stub */
        fprintf(f, "# the interactive game under %s: check/manager plays the jury, the contestant's program on\n"
                   "# standard input and output\nnum_processes: 1\nuser_io: std_io\n",
                cr_variant_name(pb->variant));
    if (pb->group_count == 0)
        return 0;
    /* each group: its points, and a regex its tests' codenames (CMS names
     * test k "%03d") match exactly, anchored */
    fputs("score_type: GroupMin\nscore_type_parameters: [", f);
    for (size_t g = 0; g < pb->group_count; g++) {
        fprintf(f, "%s[%" PRId64 ", \"^(", g ? ", " : "", pb->groups[g].points);
        int first = 1;
        for (uint64_t k = 0; k < pb->tests; k++) {
            if (pb->test_group[k] != g)
                continue;
            fprintf(f, first ? "%03" PRIu64 : "|%03" PRIu64, k);
            first = 0;
        }
        fputs(")$\"]", f);
    }
    fputs("]\n", f);
    return 0;
}

/* sol/NAME for every player of an interactive problem. */
static int write_players(cr_package *p, const cr_problem *pb, cr_error *err)
{
    int rc = cr_export__mkdir(p, "sol", err);
    for (size_t i = 0; rc == 0 && i < pb->solution_count; i++) {
        char rel[16 + CR_SUBMISSION_NAME_MAX];
        snprintf(rel, sizeof rel, "sol/%s", pb->solutions[i].name);
        rc = cr_export__solution(p, rel, &pb->solutions[i], CR_CMS, pb, err);
    }
    return rc;
}

static int write_files(cr_package *p, const cr_problem *pb, cr_error *err)
{
    const char *program = judge_program(pb->interactive);
    char source[32];
    snprintf(source, sizeof source, "%s.c", program);
    int rc = cr_export__mkdir(p, "check", err);
    if (rc == 0)
        rc = cr_export__mkdir(p, "statement", err);
    if (rc == 0)
        rc = cr_export__file(p, "task.yaml", write_yaml, pb, err);
    if (rc == 0)
        rc = cr_export__file(p, "statement/statement.pdf", cr_statement_write_pdf, pb, err);
    if (rc == 0)
        rc = cr_export__program(p, source, pb->interactive ? CR_JUDGE_MANAGER : CR_JUDGE_CHECKER, CR_CMS, pb, err);
    if (rc == 0 && !p->opts->no_build)
        rc = build_program(p, program, err);
    if (rc == 0 && pb->interactive)
        rc = write_players(p, pb, err);
    return rc;
}

static int test_paths(char in[CR_EXPORT_TEST_PATH_MAX], char ans[CR_EXPORT_TEST_PATH_MAX], cr_package *p,
                      const cr_export_test *t, cr_error *err)
{
    (void)p, (void)err;
    snprintf(in, CR_EXPORT_TEST_PATH_MAX, "input/input%" PRIu64 ".txt", t->k);
    snprintf(ans, CR_EXPORT_TEST_PATH_MAX, "output/output%" PRIu64 ".txt", t->k);
    return 0;
}

const cr_export_format cr_export__cms = {
    .name = "cms",
    .summary = "CMS (italy_yaml): task.yaml, input/, output/, check/checker.c and check/checker built from it "
               "(interactive: check/manager.c, check/manager, sol/), statement/statement.pdf",
    .supports = CR_EXPORT_SAMPLES | CR_EXPORT_METADATA | CR_EXPORT_BUILD | CR_EXPORT_GROUPS | CR_EXPORT_INTERACTION,
    .short_name_chars = CR_EXPORT_SHORT_NAME_CHARS,
    .short_name_rule = CR_EXPORT_SHORT_NAME_RULE,
    .folders = {"input", "output"},
    .test_paths = test_paths,
    .write = write_files,
    .entries = 14, /* interactive: 4 folders, task.yaml, the PDF, the manager's 2 files, sol/ and 5 players */
    .check_tools = check_compiler,
};

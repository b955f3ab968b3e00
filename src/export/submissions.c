/* The sources of labelled invocations, for a package's submissions
 * (export --submissions): which invocations qualify, and their names. */
#include "export/package.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/util.h"

void cr_submission_list_free(cr_submission_list *list)
{
    for (size_t k = 0; k < list->count; k++)
        free(list->v[k].path);
    free(list->v);
    memset(list, 0, sizeof *list);
}

/* name (a file's own name) as it goes into a package for invocation id:
 * "invID-NAME", safe bytes only, cut before its extension when long. */
static void package_name(char out[CR_SUBMISSION_NAME_MAX], int64_t id, const char *name)
{
    int len = snprintf(out, CR_SUBMISSION_NAME_MAX, "inv%lld-", (long long)id);
    const char *dot = strrchr(name, '.');
    size_t ext = dot ? strlen(dot) : 0, stem = strlen(name) - ext, room = CR_SUBMISSION_NAME_MAX - 1 - (size_t)len;
    if (stem + ext > room)
        stem = room - ext; /* an extension is a few bytes: cr_submission_language knows them all */
    snprintf(out + len, room + 1, "%.*s%s", (int)stem, name, dot ? dot : "");
    for (char *c = out + len; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '.' ||
              *c == '_' || *c == '-'))
            *c = '_';
}

/* Adds inv's source unless the folder has it already, or counts it refused
 * when it is not in the invocation's folder: 0, or an error for a source
 * that cannot be read. */
static int add_source(cr_submission_list *l, const cr_invocation *inv, const char *folder, cr_error *err)
{
    const char *command = inv->argv[0];
    size_t len = strlen(inv->directory) + strlen(command) + 2;
    char *path = malloc(len);
    if (!path)
        return cr_errorf(err, CR_ENOMEM, "no memory for a path");
    snprintf(path, len, "%s%s%s", command[0] == '/' ? "" : inv->directory, command[0] == '/' ? "" : "/", command);
    for (size_t k = 0; k < l->count; k++)
        if (strcmp(l->v[k].path, path) == 0 && strcmp(l->v[k].folder, folder) == 0) {
            free(path); /* the same source again */
            return 0;
        }
    if (access(path, R_OK) != 0) {
        int rc = cr_errorf(err, CR_EINVAL, "invocation %lld (label %s): cannot read its source %s",
                           (long long)inv->id, folder, path);
        free(path);
        return rc;
    }
    /* the database names both: what it names outside is not copied */
    if (!cr_export__lies_in(path, inv->directory)) {
        if (l->refused++ == 0)
            snprintf(l->refused_why, sizeof l->refused_why, "invocation %lld (label %s): %s is not in its folder %s",
                     (long long)inv->id, folder, path, inv->directory);
        free(path);
        return 0;
    }
    cr_submission_source *bigger = realloc(l->v, (l->count + 1) * sizeof *bigger);
    if (!bigger) {
        free(path);
        return cr_errorf(err, CR_ENOMEM, "no memory for the sources");
    }
    l->v = bigger;
    cr_submission_source *s = &l->v[l->count++];
    *s = (cr_submission_source){.folder = folder, .path = path, .lang = cr_submission_language(inv->argv)};
    package_name(s->name, inv->id, strrchr(path, '/') + 1);
    return 0;
}

/* Whether a verdict is the one a judge gives a submission of the folder
 * when it is the first test's that fails (a judge says run time error of a
 * program that ran out of memory). */
static int verdict_fits(const char *folder, cr_invoke_verdict v)
{
    if (strcmp(folder, "wrong_answer") == 0)
        return v == CR_INVOKE_WA || v == CR_INVOKE_PE;
    if (strcmp(folder, "time_limit_exceeded") == 0)
        return v == CR_INVOKE_TLE;
    if (strcmp(folder, "run_time_error") == 0)
        return v == CR_INVOKE_RE || v == CR_INVOKE_MLE;
    return 0;
}

/* cr_store_invocation_points_each's callback: the points there are and
 * those scored, summed into ctx[0] and ctx[1]. */
static int add_points(void *ctx, const cr_group_points *g)
{
    int64_t *sum = ctx;
    sum[0] += g->points;
    sum[1] += g->scored;
    return 0;
}

/* Why inv, labelled folder in a set of groups, cannot go into the
 * package, into why (cap bytes), "" when it can, by its points, when its
 * judge scores it as invoke did and reads a program that scores some
 * points as accepted with that score.  So a partially accepted one scores
 * some and not all, and one of a failing folder none (a wrong answer that
 * passes a group got "AC (20)" from verifyproblem, an error). */
static int points_left_out(char *why, size_t cap, cr_store *store, const cr_invocation *inv, const char *folder,
                           cr_error *err)
{
    int64_t sum[2] = {0, 0};
    size_t groups = 0;
    int rc = cr_store_invocation_points_each(&groups, store, inv->id, add_points, sum, err);
    int partial = strcmp(folder, "partially_accepted") == 0;
    if (rc == 0 && partial && (sum[1] == 0 || sum[1] == sum[0]))
        snprintf(why, cap, "invocation %lld (label partially_accepted): it scored %lld of %lld points, where a "
                 "partially accepted program scores some and not all", (long long)inv->id, (long long)sum[1],
                 (long long)sum[0]);
    else if (rc == 0 && !partial && strcmp(folder, "accepted") != 0 && sum[1] > 0)
        snprintf(why, cap, "invocation %lld (label %s): it scored %lld of %lld points, which a judge of groups "
                 "reads as accepted with a partial score (label it partially_accepted)", (long long)inv->id, folder,
                 (long long)sum[1], (long long)sum[0]);
    return rc;
}

/* Why inv, labelled folder in a set of groups, cannot go into a package
 * whose judge scores each group alone with the samples apart (Kattis), by
 * the verdict and points that judge gives it: it takes a program that
 * passes some group as accepted with their points, unless a sample fails,
 * and else the verdict of the first test that fails, the groups in name
 * order.  invoke's points, which follow the dependencies and count the
 * samples in their groups, put a program verifyproblem gave "AC (70)" in
 * wrong_answer. */
static int alone_left_out(char *why, size_t cap, cr_store *store, const cr_invocation *inv, const char *folder,
                          uint64_t samples, cr_error *err)
{
    cr_alone_points a;
    int rc = cr_store_invocation_points_alone(&a, store, inv->id, samples, err);
    int failed = a.sample_failed || (a.passed == 0 && a.group_failed);
    int fits = strcmp(folder, "accepted") == 0             ? !failed && a.scored == a.points
               : strcmp(folder, "partially_accepted") == 0 ? !failed && a.scored < a.points
                                                           : failed && verdict_fits(folder, a.failure_verdict);
    if (rc || fits)
        return rc;
    if (failed)
        snprintf(why, cap, "invocation %lld (label %s): a judge that scores each group alone gives it %s, at %s "
                 "test '%s'", (long long)inv->id, folder, cr_invoke_verdict_name(a.failure_verdict),
                 a.sample_failed ? "the sample" : "the secret", a.failure_ext_id);
    else
        snprintf(why, cap, "invocation %lld (label %s): a judge that scores each group alone gives it AC with %lld "
                 "of %lld points", (long long)inv->id, folder, (long long)a.scored, (long long)a.points);
    return 0;
}

/* Why inv, labelled folder, cannot go into the package, into why (cap
 * bytes); "" when it can. */
static int left_out(char *why, size_t cap, cr_store *store, const cr_invocation *inv, const char *folder,
                    cr_check_moves moves, int grouped, const cr_group_scoring *scoring, cr_error *err)
{
    why[0] = '\0';
    if (!grouped && strcmp(folder, "partially_accepted") == 0) {
        snprintf(why, cap, "invocation %lld (label %s): its set has no groups, so no partial score",
                 (long long)inv->id, folder);
        return 0;
    }
    if (cr_submission_language(inv->argv) == CR_LANG_NONE) {
        size_t len = (size_t)snprintf(why, cap, "invocation %lld (label %s): not one source file a judge builds: ",
                                      (long long)inv->id, folder);
        if (!inv->argv)
            snprintf(why + len, cap - len, "--builtin %s", cr_strategy_name(inv->strategy));
        for (char *const *a = inv->argv; a && *a && len < cap; a++)
            len += (size_t)snprintf(why + len, cap - len, "%s%s", a == inv->argv ? "" : " ", *a);
        return 0;
    }
    if (inv->interactive) { /* an interactive package takes no --submissions: this one is a batch problem */
        snprintf(why, cap, "invocation %lld (label %s): it played the game interactively, and the package's "
                           "programs print answers", (long long)inv->id, folder);
        return 0;
    }
    if (inv->moves != moves) {
        snprintf(why, cap, "invocation %lld (label %s): judged with --moves %s, the package's checker has %s",
                 (long long)inv->id, folder, cr_check_moves_name(inv->moves), cr_check_moves_name(moves));
        return 0;
    }
    /* tests added to the set since: a judge runs it on them too */
    uint64_t judged, left;
    int rc = cr_store_invocation_progress(&judged, &left, store, inv, err);
    if (rc)
        return rc;
    if (left > 0) {
        snprintf(why, cap, "invocation %lld (label %s): it judged %llu of the set's %llu tests (tests were added "
                 "since: invoke it again)", (long long)inv->id, folder, (unsigned long long)judged,
                 (unsigned long long)(judged + left));
        return 0;
    }
    if (grouped && scoring->alone)
        return alone_left_out(why, cap, store, inv, folder, scoring->samples, err);
    if (strcmp(folder, "partially_accepted") == 0 || grouped) {
        rc = points_left_out(why, cap, store, inv, folder, err);
        if (rc || why[0] || strcmp(folder, "partially_accepted") == 0)
            return rc;
    }
    cr_invocation_summary *sum = malloc(sizeof *sum);
    if (!sum)
        return cr_errorf(err, CR_ENOMEM, "no memory for a summary");
    rc = cr_store_invocation_summary(sum, store, inv->id, CR_INVOKE_AC, err);
    int fits = strcmp(folder, "accepted") == 0 ? !sum->has_failure
                                               : sum->has_failure && verdict_fits(folder, sum->failure_verdict);
    if (rc == 0 && !fits && sum->has_failure)
        snprintf(why, cap, "invocation %lld (label %s): its first failing test, '%s', got %s", (long long)inv->id,
                 folder, sum->failure_ext_id, cr_invoke_verdict_name(sum->failure_verdict));
    else if (rc == 0 && !fits)
        snprintf(why, cap, "invocation %lld (label %s): it passed every test", (long long)inv->id, folder);
    free(sum);
    return rc;
}

/* cr_store_groups_each's callback when only their count matters. */
static int count_only(void *ctx, const cr_store_group *group)
{
    (void)ctx, (void)group;
    return 0;
}

int cr_submission_list_new(cr_submission_list *out, cr_store *store, int64_t set_id, cr_variant variant,
                           cr_check_moves moves, const cr_group_scoring *scoring, cr_error *err)
{
    static const char *const folders[] = CR_SUBMISSION_FOLDERS;
    const size_t nfolders = sizeof folders / sizeof folders[0];
    memset(out, 0, sizeof *out);
    int64_t *ids = NULL;
    size_t count = 0;
    size_t groups = 0;
    int rc = cr_store_groups_each(&groups, store, set_id, count_only, NULL, err);
    if (rc == 0)
        rc = cr_store_labelled_invocations(&ids, &count, store, set_id, variant, folders, nfolders, err);
    for (size_t k = 0; rc == 0 && k < count; k++) {
        cr_invocation inv;
        if ((rc = cr_store_invocation_find(&inv, store, ids[k], CR_PICK_ANY, err)) != 0)
            break;
        const char *folder = NULL;
        for (size_t f = 0; f < nfolders; f++)
            if (strcmp(inv.label, folders[f]) == 0)
                folder = folders[f];
        char why[sizeof out->skipped_why];
        rc = left_out(why, sizeof why, store, &inv, folder, moves, groups > 0, scoring, err);
        if (rc == 0 && !why[0])
            rc = add_source(out, &inv, folder, err);
        else if (rc == 0 && out->skipped++ == 0)
            memcpy(out->skipped_why, why, sizeof why);
        cr_invocation_clear(&inv);
    }
    free(ids);
    if (rc)
        cr_submission_list_free(out);
    return rc;
}

/* The plain format: the tests alone, ID.in and ID.ans, the instance's id
 * made a safe file name; no folder, no metadata, no other file but, for a
 * set of groups, groups.json. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "export/format.h"
#include "util/util.h"

/* Longest instance id plain turns into a file name (NAME.ans stays far
 * below the usual 255-byte limit). */
#define PLAIN_NAME_MAX 200
_Static_assert(PLAIN_NAME_MAX + sizeof ".ans" <= CR_EXPORT_TEST_PATH_MAX, "a plain name fits a test's path");

/* Plain's names: the id with every byte but letters, digits, '.', '_' and
 * '-' turned into '_', and a leading '.' too; two ids whose names differ
 * only in letter case would clash on many file systems, so they clash here. */
static int plain_name(char *out, cr_package *p, const cr_export_test *t, cr_error *err)
{
    const cr_instance *in = t->instance;
    const char *ext_id = in->ext_id;
    size_t len = strlen(ext_id);
    if (len == 0)
        return cr_errorf(err, CR_EINVAL, "set '%s': instance %lld has an empty id, which names no file",
                         t->set_name, (long long)in->id);
    if (len > PLAIN_NAME_MAX) {
        char shown[44];
        return cr_errorf(err, CR_EINVAL, "set '%s': instance id '%s' is longer than %d bytes, too long for a file name",
                         t->set_name, cr_text_shown_len(shown, sizeof shown, ext_id, len), PLAIN_NAME_MAX);
    }
    char key[PLAIN_NAME_MAX + 1];
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)ext_id[i];
        int keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                   c == '-' || (c == '.' && i > 0);
        out[i] = keep ? (char)c : '_';
        key[i] = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : out[i]);
    }
    out[len] = key[len] = '\0';
    const char *other = NULL;
    int rc = cr_export__claim(p, key, ext_id, &other);
    if (rc < 0)
        return cr_errorf(err, CR_ENOMEM, "no memory for the file names");
    if (rc > 0)
        return cr_errorf(err, CR_EINVAL, "set '%s': the ids '%s' and '%s' both become the file %s.in (plain "
                                            "names keep letters, digits, '.', '_' and '-', and letter case does "
                                            "not tell files apart everywhere)",
                         t->set_name, other, ext_id, out);
    return 0;
}

static int test_paths(char in[CR_EXPORT_TEST_PATH_MAX], char ans[CR_EXPORT_TEST_PATH_MAX], cr_package *p,
                      const cr_export_test *t, cr_error *err)
{
    char name[PLAIN_NAME_MAX + 1];
    int rc = plain_name(name, p, t, err);
    if (rc)
        return rc;
    snprintf(in, CR_EXPORT_TEST_PATH_MAX, "%s.in", name);
    snprintf(ans, CR_EXPORT_TEST_PATH_MAX, "%s.ans", name);
    return 0;
}

/* groups.json: each group with its points, constraints (test_group_view's
 * columns), dependencies and tests (their files' names without .in).  The
 * names need no escaping: a group's is letters, digits and '_', a test's
 * what plain_name keeps. */
static int write_groups(FILE *f, const cr_problem *pb, cr_error *err)
{
    (void)err;
    fputs("{\"groups\": [", f);
    for (size_t g = 0; g < pb->group_count; g++) {
        const cr_problem_group *group = &pb->groups[g];
        const cr_constraints *l = &group->limits;
        fprintf(f,
                "%s\n  {\"name\": \"%s\", \"points\": %" PRId64 ", \"n_min\": %zu, \"n_max\": %zu, \"value_min\": %" PRId64
                ", \"value_max\": %" PRId64 ", \"all_equal\": %s, \"even_n\": %s, \"odd_sum\": %s,\n   \"depends\": [",
                g ? "," : "", group->name, group->points, l->n_min, l->n_max, l->value_min, l->value_max,
                group->all_equal ? "true" : "false", l->even_n ? "true" : "false", l->odd_sum ? "true" : "false");
        for (const char *at = group->depends; *at;) {
            size_t len = strcspn(at, ",");
            fprintf(f, "%s\"%.*s\"", at == group->depends ? "" : ", ", (int)len, at);
            at += len + (at[len] == ',');
        }
        fputs("],\n   \"tests\": [", f);
        const char *sep = "";
        for (uint64_t k = 0; k < pb->tests; k++) {
            if (pb->test_group[k] != g)
                continue;
            const char *in = pb->test_inputs[k];
            fprintf(f, "%s\"%.*s\"", sep, (int)(strlen(in) - strlen(".in")), in);
            sep = ", ";
        }
        fputs("]}", f);
    }
    fputs("\n]}\n", f);
    return 0;
}

/* A problem of groups has its groups file; the tests alone have none. */
static int write_files(cr_package *p, const cr_problem *pb, cr_error *err)
{
    return pb->group_count > 0 ? cr_export__file(p, "groups.json", write_groups, pb, err) : 0;
}

const cr_export_format cr_export__plain = {
    .name = "plain",
    .summary = "the tests alone: ID.in and ID.ans, the instance's id made a safe file name (and groups.json for a "
               "set of groups)",
    .supports = CR_EXPORT_GROUPS,
    .test_paths = test_paths,
    .write = write_files,
    .entries = 1,
};

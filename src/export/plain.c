/* The plain format: the tests alone, ID.in and ID.ans, the instance's id
 * made a safe file name; no folder, no metadata, no other file. */
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
    if (len > PLAIN_NAME_MAX)
        return cr_errorf(err, CR_EINVAL, "set '%s': instance id '%.*s...' is longer than %d bytes, too long "
                                            "for a file name",
                         t->set_name, (int)cr_utf8_cut(ext_id, 40), ext_id, PLAIN_NAME_MAX);
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

const cr_export_format cr_export__plain = {
    .name = "plain",
    .summary = "the tests alone: ID.in and ID.ans, the instance's id made a safe file name",
    .supports = 0,
    .test_paths = test_paths,
};

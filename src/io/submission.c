/* Commands that are one source file: built with the system's compilers in
 * a private folder, as a judge builds a submission. */
#include "io/submission.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/child.h"
#include "util/errorf.h"

struct cr_submission {
    char *path;      /* what is executed */
    char *const *args; /* its arguments: the command's own, or argv below */
    char *argv[3];     /* python3 and the source, or the program built */
    char *build_dir;   /* the private folder a source was built in, or NULL */
};

static const struct {
    const char *ext;
    cr_language lang;
} extensions[] = {{".c", CR_LANG_C}, {".cc", CR_LANG_CPP}, {".cpp", CR_LANG_CPP}, {".cxx", CR_LANG_CPP}, {".py", CR_LANG_PYTHON}};

cr_language cr_submission_language(char *const *argv)
{
    if (!argv || !argv[0] || argv[1])
        return CR_LANG_NONE;
    size_t len = strlen(argv[0]);
    for (size_t k = 0; k < sizeof extensions / sizeof extensions[0]; k++) {
        size_t ext = strlen(extensions[k].ext);
        if (len > ext && strcmp(argv[0] + len - ext, extensions[k].ext) == 0 && argv[0][len - ext - 1] != '/')
            return extensions[k].lang;
    }
    return CR_LANG_NONE;
}

const char *cr_submission_polygon_type(cr_language lang)
{
    static const char *const types[CR_LANG_COUNT] = {NULL, "c.gcc", "cpp.g++17", "python.3"};
    return (unsigned)lang < CR_LANG_COUNT ? types[lang] : NULL;
}

/* The compiler's arguments for a source, building `program`. */
static void compiler_argv(char *out[8], cr_language lang, char *source, char *program)
{
    static char *const c[] = {"cc", "-O2", "-std=gnu11", "-o", NULL, NULL, "-lm", NULL};
    static char *const cpp[] = {"c++", "-O2", "-std=gnu++17", "-o", NULL, NULL, NULL, NULL};
    memcpy(out, lang == CR_LANG_C ? c : cpp, sizeof c);
    out[4] = program;
    out[5] = source;
}

/* Builds the source argv[0] (in folder dir) into s->path. */
static int build(cr_submission *s, cr_language lang, char *const *argv, const char *dir, cr_error *err)
{
    const char *tmp = getenv("TMPDIR");
    size_t len = strlen(tmp && *tmp ? tmp : "/tmp") + sizeof "/coinrow-build-XXXXXX/program";
    char *compiler_path = NULL, *compiler[8];
    cr_child *child = NULL;
    cr_child_report report;
    if (!(s->build_dir = malloc(len)) || !(s->path = malloc(len)))
        return cr_errorf(err, CR_ENOMEM, "no memory to build %s", argv[0]);
    snprintf(s->build_dir, len, "%s/coinrow-build-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(s->build_dir)) {
        free(s->build_dir);
        s->build_dir = NULL;
        return cr_errorf(err, CR_EIO, "cannot make a folder to build %s in", argv[0]);
    }
    snprintf(s->path, len, "%s/program", s->build_dir);
    compiler_argv(compiler, lang, argv[0], s->path);
    /* a compiler is given time and no memory limit; it writes no answer */
    cr_child_limits limits = {.cpu_seconds = 120, .output_bytes = 1 << 20};
    int rc = cr_child_resolve(&compiler_path, compiler[0], NULL, err);
    if (rc == 0)
        rc = cr_child_new(&child, err);
    if (rc == 0)
        rc = cr_child_run(&report, child, compiler_path, compiler, dir, NULL, 0, &limits, NULL, err);
    if (rc == 0 && (report.end != CR_CHILD_EXITED || report.exit_code != 0)) {
        /* the compiler's first error, else its first line */
        const char *line = strstr(report.err, "error");
        while (line && line > report.err && line[-1] != '\n')
            line--;
        if (!line)
            line = report.err;
        rc = cr_errorf(err, CR_EINVAL, "cannot build %s with %s (%s %d): %.*s", argv[0], compiler[0],
                       report.end == CR_CHILD_EXITED ? "exit status" : "signal",
                       report.end == CR_CHILD_EXITED ? report.exit_code : report.signal, (int)strcspn(line, "\n"),
                       line);
    }
    cr_child_free(child);
    free(compiler_path);
    return rc;
}

/* access(R_OK) of name in folder dir (NULL: here). */
static int access_in(const char *dir, const char *name)
{
    if (!dir || name[0] == '/')
        return access(name, R_OK);
    size_t len = strlen(dir) + strlen(name) + 2;
    char *path = malloc(len);
    if (!path)
        return -1;
    snprintf(path, len, "%s/%s", dir, name);
    int rc = access(path, R_OK);
    free(path);
    return rc;
}

int cr_submission_new(cr_submission **out, char *const *argv, const char *dir, cr_error *err)
{
    *out = NULL;
    cr_submission *s = calloc(1, sizeof *s);
    if (!s)
        return cr_errorf(err, CR_ENOMEM, "no memory for a command");
    cr_language lang = cr_submission_language(argv);
    int rc = 0;
    s->args = s->argv;
    if (lang == CR_LANG_NONE) {
        rc = cr_child_resolve(&s->path, argv[0], dir, err);
        s->args = argv;
    } else if (access_in(dir, argv[0]) != 0) {
        rc = cr_errorf(err, CR_EINVAL, "cannot read the source %s", argv[0]);
    } else if (lang == CR_LANG_PYTHON) {
        rc = cr_child_resolve(&s->path, "python3", NULL, err);
        s->argv[0] = "python3";
        s->argv[1] = argv[0];
    } else {
        rc = build(s, lang, argv, dir, err);
        s->argv[0] = s->path;
    }
    if (rc) {
        cr_submission_free(s);
        return rc;
    }
    *out = s;
    return 0;
}

const char *cr_submission_path(const cr_submission *s) { return s->path; }

char *const *cr_submission_argv(const cr_submission *s) { return s->args; }

void cr_submission_free(cr_submission *s)
{
    if (!s)
        return;
    if (s->build_dir) {
        unlink(s->path);
        rmdir(s->build_dir);
    }
    free(s->build_dir);
    free(s->path);
    free(s);
}

/* ---- the sources of labelled invocations ---- */

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

/* Adds inv's source unless the folder has it already: 0, or an error for a
 * source that cannot be read. */
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

/* Why inv, labelled folder, cannot go into the package, into why (cap
 * bytes); "" when it can. */
static int left_out(char *why, size_t cap, cr_store *store, const cr_invocation *inv, const char *folder,
                    cr_check_moves moves, cr_error *err)
{
    why[0] = '\0';
    if (cr_submission_language(inv->argv) == CR_LANG_NONE) {
        size_t len = (size_t)snprintf(why, cap, "invocation %lld (label %s): not one source file a judge builds: ",
                                      (long long)inv->id, folder);
        if (!inv->argv)
            snprintf(why + len, cap - len, "--builtin %s", cr_strategy_name(inv->strategy));
        for (char *const *a = inv->argv; a && *a && len < cap; a++)
            len += (size_t)snprintf(why + len, cap - len, "%s%s", a == inv->argv ? "" : " ", *a);
        return 0;
    }
    if (inv->moves != moves) {
        snprintf(why, cap, "invocation %lld (label %s): judged with --moves %s, the package's checker has %s",
                 (long long)inv->id, folder, cr_check_moves_name(inv->moves), cr_check_moves_name(moves));
        return 0;
    }
    cr_invocation_summary *sum = malloc(sizeof *sum);
    if (!sum)
        return cr_errorf(err, CR_ENOMEM, "no memory for a summary");
    int rc = cr_store_invocation_summary(sum, store, inv->id, CR_INVOKE_AC, err);
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

int cr_submission_list_new(cr_submission_list *out, cr_store *store, int64_t set_id, cr_variant variant,
                           cr_check_moves moves, cr_error *err)
{
    static const char *const folders[] = CR_SUBMISSION_FOLDERS;
    const size_t nfolders = sizeof folders / sizeof folders[0];
    memset(out, 0, sizeof *out);
    int64_t *ids = NULL;
    size_t count = 0;
    int rc = cr_store_labelled_invocations(&ids, &count, store, set_id, variant, folders, nfolders, err);
    for (size_t k = 0; rc == 0 && k < count; k++) {
        cr_invocation inv;
        if ((rc = cr_store_invocation_find(&inv, store, ids[k], CR_PICK_ANY, err)) != 0)
            break;
        const char *folder = NULL;
        for (size_t f = 0; f < nfolders; f++)
            if (strcmp(inv.label, folders[f]) == 0)
                folder = folders[f];
        char why[sizeof out->skipped_why];
        rc = left_out(why, sizeof why, store, &inv, folder, moves, err);
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

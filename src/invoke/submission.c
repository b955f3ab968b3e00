/* Commands that are one source file: built with the system's compilers in
 * a private folder, as a judge builds a submission. */
#include "invoke/invoke.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "invoke/sandbox.h"
#include "util/util.h"

struct cr_submission {
    char *path;      /* what is executed */
    char *const *args; /* its arguments: the command's own, or argv below */
    char *argv[3];     /* python3 and the source, or the program built */
    char *build_dir;   /* the private folder a source was built in, or NULL */
    char *copy;        /* the copy of the source built in a sandbox, there, or NULL */
    int program;       /* the program built, held open once its folder is gone; or -1 */
    const char *script; /* the source python3 runs, or NULL */
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

char **cr_submission_compiler(cr_language lang, char *const args[])
{
    static const char blanks[] = " \t";
    if (lang != CR_LANG_C && lang != CR_LANG_CPP)
        return NULL;
    const char *set = getenv(lang == CR_LANG_C ? "CC" : "CXX");
    if (!set || !set[strspn(set, blanks)])
        set = lang == CR_LANG_C ? "cc" : "c++";
    size_t words = 0, count = 0, len = strlen(set) + 1;
    for (const char *w = set + strspn(set, blanks); *w; w += strcspn(w, blanks), w += strspn(w, blanks))
        words++;
    while (args[count])
        count++;
    char **argv = malloc((words + count + 1) * sizeof *argv + len);
    if (!argv)
        return NULL;
    char *text = memcpy((char *)(argv + words + count + 1), set, len), *w = text + strspn(text, blanks);
    for (size_t k = 0; k < words; k++) {
        argv[k] = w;
        w += strcspn(w, blanks);
        if (*w)
            *w++ = '\0';
        w += strspn(w, blanks);
    }
    memcpy(argv + words, args, (count + 1) * sizeof *argv);
    return argv;
}

int cr_submission_compile(cr_build_failure *out, char *const argv[], const char *dir, const char *sandbox_init,
                          cr_error *err)
{
    /* a compiler is given time and no memory limit; it writes no answer */
    cr_limits limits = {.cpu_seconds = 120, .output_bytes = 1 << 20};
    char *path = NULL;
    cr_child *child = NULL;
    cr_sandbox *sandbox = NULL;
    cr_child_report report;
    int rc = cr_child_resolve(&path, argv[0], dir, err);
    cr_sandbox_opts o = {.path = path, .argv = argv, .dir = dir, .work = dir,
                         .file_bytes = (uint64_t)CR_SANDBOX_BUILD_MIB << 20, .init = sandbox_init, .limits = &limits};
    if (rc == 0 && sandbox_init)
        rc = cr_sandbox_new(&sandbox, &o, err);
    if (rc == 0)
        rc = cr_child_new(&child, err);
    if (rc == 0)
        rc = cr_child_run(&report, child, sandbox ? NULL : path, sandbox ? NULL : argv, sandbox ? NULL : dir, sandbox,
                          NULL, 0, &limits, NULL, err);
    if (rc == 0 && (report.end != CR_CHILD_EXITED || report.exit_code != 0)) {
        /* the compiler's first error, else its first line */
        const char *line = strstr(report.err, "error");
        while (line && line > report.err && line[-1] != '\n')
            line--;
        if (!line)
            line = report.err;
        *out = (cr_build_failure){report.end == CR_CHILD_EXITED ? 0 : report.signal, report.exit_code, ""};
        snprintf(out->said, sizeof out->said, "%.*s", (int)strcspn(line, "\n"), line);
        rc = 1;
    }
    cr_child_free(child);
    cr_sandbox_free(sandbox);
    free(path);
    return rc;
}

/* Builds the source argv[0] (in folder dir) into s->path with the
 * language's compiler and a judge's flags; with sandbox_init, in a sandbox
 * whose working folder is the build's folder, from a copy of the source
 * there. */
static int build(cr_submission *s, cr_language lang, char *const *argv, const char *dir, const char *sandbox_init,
                 cr_error *err)
{
    const char *tmp = getenv("TMPDIR");
    const char *base = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    size_t len = strlen(tmp && *tmp ? tmp : "/tmp") + sizeof "/coinrow-build-XXXXXX/" + strlen(base) + 8;
    if (!(s->build_dir = malloc(len)) || !(s->path = malloc(len)) || (sandbox_init && !(s->copy = malloc(len))))
        return cr_errorf(err, CR_ENOMEM, "no memory to build %s", argv[0]);
    snprintf(s->build_dir, len, "%s/coinrow-build-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(s->build_dir)) {
        free(s->build_dir);
        s->build_dir = NULL;
        return cr_errorf(err, CR_EIO, "cannot make a folder to build %s in", argv[0]);
    }
    snprintf(s->path, len, "%s/program", s->build_dir);
    /* in the sandbox, the copy and the program in its working folder */
    char *source = sandbox_init ? (char *)base : argv[0], *program = sandbox_init ? "program" : s->path;
    char *c[] = {"-O2", "-std=gnu11", "-o", program, source, "-lm", NULL};
    char *cpp[] = {"-O2", "-std=gnu++17", "-o", program, source, NULL};
    char **command = cr_submission_compiler(lang, lang == CR_LANG_C ? c : cpp);
    if (!command)
        return cr_errorf(err, CR_ENOMEM, "no memory to build %s", argv[0]);
    int rc = 0;
    if (sandbox_init) {
        char given[8192];
        snprintf(given, sizeof given, "%s%s%s", dir && argv[0][0] != '/' ? dir : "",
                 dir && argv[0][0] != '/' ? "/" : "", argv[0]);
        snprintf(s->copy, len, "%s/%s", s->build_dir, base);
        int out = open(s->copy, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        rc = out < 0 ? cr_errorf(err, CR_EIO, "cannot copy %s to %s: %s", given, s->copy, strerror(errno))
                     : cr_sandbox__copy(given, out, s->copy, err);
        if (out >= 0 && close(out) != 0 && rc == 0)
            rc = cr_errorf(err, CR_EIO, "cannot copy %s to %s: %s", given, s->copy, strerror(errno));
        /* the compiler, as nobody when coinrow is root, writes there */
        if (rc == 0 && geteuid() == 0 && chown(s->build_dir, CR_SANDBOX__HOST_UID, CR_SANDBOX__HOST_UID) != 0)
            rc = cr_errorf(err, CR_EIO, "cannot give %s to the sandbox's user: %s", s->build_dir, strerror(errno));
    }
    cr_build_failure failed;
    if (rc == 0)
        rc = cr_submission_compile(&failed, command, sandbox_init ? s->build_dir : dir, sandbox_init, err);
    if (rc == 1)
        rc = cr_errorf(err, CR_EINVAL, "cannot build %s with %s (%s %d): %s", argv[0], command[0],
                       failed.signal ? "signal" : "exit status", failed.signal ? failed.signal : failed.exit_code,
                       failed.said);
    free(command);
    return rc;
}

/* Removes the folder a source was built in, and what it holds. */
static void remove_build(cr_submission *s)
{
    if (!s->build_dir)
        return;
    unlink(s->path);
    if (s->copy)
        unlink(s->copy);
    rmdir(s->build_dir);
    free(s->copy);
    free(s->build_dir);
    s->copy = s->build_dir = NULL;
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

int cr_submission_new(cr_submission **out, char *const *argv, const char *dir, const char *sandbox_init,
                      cr_error *err)
{
    *out = NULL;
    cr_submission *s = calloc(1, sizeof *s);
    if (!s)
        return cr_errorf(err, CR_ENOMEM, "no memory for a command");
    s->program = -1;
    cr_language lang = cr_submission_language(argv);
    int rc = 0;
    s->args = s->argv;
    if (lang == CR_LANG_NONE) {
        rc = cr_child_resolve(&s->path, argv[0], dir, err);
        s->args = argv;
    } else if (access_in(dir, argv[0]) != 0) {
        rc = cr_errorf(err, CR_EINVAL, "cannot read the source %s", argv[0]);
    } else if (lang == CR_LANG_PYTHON) {
        /* in a sandbox, one of the system folders it shows */
        rc = cr_child__resolve_in(&s->path, "python3", NULL, sandbox_init ? CR_SANDBOX_PATH : getenv("PATH"), err);
        s->argv[0] = "python3";
        s->argv[1] = argv[0];
        s->script = argv[0];
    } else {
        rc = build(s, lang, argv, dir, sandbox_init, err);
        s->argv[0] = s->path;
    }
    if (rc) {
        cr_submission_free(s);
        return rc;
    }
    *out = s;
    return 0;
}

int cr_submission_unlink(cr_submission *s, cr_error *err)
{
    if (!s->build_dir)
        return 0;
    char held[32];
    if ((s->program = open(s->path, O_RDONLY | O_CLOEXEC)) < 0)
        return cr_errorf(err, CR_EIO, "cannot open the program built, %s: %s", s->path, strerror(errno));
    snprintf(held, sizeof held, "/proc/self/fd/%d", s->program);
    char *path = strdup(held);
    if (!path)
        return cr_errorf(err, CR_ENOMEM, "no memory for a path");
    remove_build(s);
    free(s->path);
    s->argv[0] = s->path = path;
    return 0;
}

const char *cr_submission_path(const cr_submission *s) { return s->path; }

char *const *cr_submission_argv(const cr_submission *s) { return s->args; }

const char *cr_submission_script(const cr_submission *s) { return s->script; }

void cr_submission_free(cr_submission *s)
{
    if (!s)
        return;
    remove_build(s);
    if (s->program >= 0)
        close(s->program);
    free(s->path);
    free(s);
}

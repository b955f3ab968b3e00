/* The sandbox a program is judged in: bubblewrap's command line, the
 * program's read-only copies, and a first run that checks it all before
 * anything is judged (sandbox.h says how a run goes). */
#define _GNU_SOURCE /* O_PATH, memfd_create */
#include "invoke/invoke.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "invoke/sandbox.h"
#include "util/util.h"

/* Where the sandbox shows the program's copies, read-only. */
#define STAGE_INSIDE "/program"

/* The top-level system folders besides /usr: on a merged /usr they are
 * links into it, made again inside; otherwise folders, shown read-only. */
static const char *const system_tops[] = {"bin", "sbin", "lib", "lib32", "lib64", "libx32"};

/* A growing NULL-terminated list of strings it owns; failed once out of
 * memory (the list is then not to be used). */
typedef struct words {
    char **v;
    size_t n, cap;
    int failed;
} words;

static void add(words *w, const char *text)
{
    if (w->failed)
        return;
    if (cr_grow((void **)&w->v, &w->cap, w->n + 2, sizeof *w->v, 64)) {
        w->failed = 1;
        return;
    }
    if (!(w->v[w->n] = strdup(text))) {
        w->failed = 1;
        return;
    }
    w->v[++w->n] = NULL;
}

static void addf(words *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void addf(words *w, const char *fmt, ...)
{
    char text[PATH_MAX + 64];
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (len < 0 || (size_t)len >= sizeof text)
        w->failed = 1;
    add(w, text);
}

static void free_words(char **v)
{
    for (size_t k = 0; v && v[k]; k++)
        free(v[k]);
    free(v);
}

void cr_sandbox_free(cr_sandbox *sandbox)
{
    if (!sandbox)
        return;
    for (int k = 0; k < 2; k++) {
        if (sandbox->copies[k] >= 0)
            close(sandbox->copies[k]);
        free(sandbox->inside[k]);
    }
    if (sandbox->init_fd >= 0)
        close(sandbox->init_fd);
    free(sandbox->bwrap);
    free_words(sandbox->argv);
    free_words(sandbox->check_argv);
    free(sandbox);
}

/* ---- what the program sees ---- */

/* Whether the sandbox shows the file at the absolute, resolved path real
 * where it is: in /usr, or in a top-level system folder of its own. */
static int shown(const char *real)
{
    if (strncmp(real, "/usr/", 5) == 0)
        return 1;
    for (size_t k = 0; k < sizeof system_tops / sizeof system_tops[0]; k++) {
        size_t len = strlen(system_tops[k]);
        struct stat st;
        char top[16];
        snprintf(top, sizeof top, "/%s", system_tops[k]);
        if (real[0] == '/' && strncmp(real + 1, system_tops[k], len) == 0 && real[len + 1] == '/' &&
            lstat(top, &st) == 0 && S_ISDIR(st.st_mode))
            return 1;
    }
    return 0;
}

int cr_sandbox__copy(const char *from, int out, const char *what, cr_error *err)
{
    int in = open(from, O_RDONLY | O_CLOEXEC), rc = 0;
    if (in < 0)
        return cr_errorf(err, CR_EIO, "cannot read %s: %s", from, strerror(errno));
    char buf[65536];
    ssize_t n;
    while (rc == 0 && (n = read(in, buf, sizeof buf)) != 0) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 || write(out, buf, (size_t)n) != n)
            rc = cr_errorf(err, CR_EIO, "cannot copy %s to %s: %s", from, what, strerror(errno));
    }
    close(in);
    return rc;
}

/* Where the sandbox finds the file at path (relative to folder dir, NULL:
 * here): where it is when a system folder holds it, else as its copy in
 * sb->copies, which nothing can change and no folder holds: a coinrow
 * killed, even by SIGKILL, leaves nothing behind.  bwrap writes it into the
 * box at STAGE_INSIDE, read-only.  The path inside goes to *out (the
 * caller frees it). */
static int place(char **out, cr_sandbox *sb, const char *path, const char *dir, cr_error *err)
{
    *out = NULL;
    char given[PATH_MAX], real[PATH_MAX];
    if (snprintf(given, sizeof given, "%s%s%s", dir && path[0] != '/' ? dir : "", dir && path[0] != '/' ? "/" : "",
                 path) >= (int)sizeof given)
        return cr_errorf(err, CR_EINVAL, "the path of %s is too long", path);
    if (!realpath(given, real))
        return cr_errorf(err, CR_EIO, "cannot find %s for the sandbox: %s", given, strerror(errno));
    /* by the file itself: its links may pass through what the sandbox does
     * not show (/usr/bin/cc through /etc/alternatives) */
    if (shown(real)) {
        *out = strdup(real);
        return *out ? 0 : cr_errorf(err, CR_ENOMEM, "no memory for a path");
    }
    const char *base = strrchr(real, '/') + 1;
    int k = sb->copies[0] >= 0;
    char inside[PATH_MAX];
    snprintf(inside, sizeof inside, STAGE_INSIDE "/%s", base);
    if ((sb->copies[k] = memfd_create(base, MFD_CLOEXEC | MFD_ALLOW_SEALING)) < 0)
        return cr_errorf(err, CR_EIO, "cannot make a copy of %s for the sandbox: %s", real, strerror(errno));
    int rc = cr_sandbox__copy(real, sb->copies[k], "the sandbox's copy", err);
    if (rc == 0 && fcntl(sb->copies[k], F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) != 0)
        rc = cr_errorf(err, CR_EIO, "cannot seal the sandbox's copy of %s: %s", real, strerror(errno));
    if (rc == 0 && (!(*out = strdup(inside)) || !(sb->inside[k] = strdup(inside))))
        rc = cr_errorf(err, CR_ENOMEM, "no memory for a path");
    return rc;
}

/* bwrap's arguments into w, up to and with the init's: the sandbox itself,
 * then `mode` for the init, the limits and the program. */
static void command_line(words *w, const cr_sandbox *sb, const char *mode, const cr_sandbox_opts *o,
                         char *const *program)
{
    static const char *const unshare[] = {
        /* new namespaces; no network but a loopback of its own; no user
         * namespace of its own making (and none of the mounts that would
         * bring, over the size of its files) */
        "--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-net", "--disable-userns",
        /* bwrap's first process, coinrow's init, is pid 1, immune to the
         * program's signals, and dies with bwrap (SIGKILL), which dies with
         * coinrow */
        "--as-pid-1", "--die-with-parent", "--hostname", "coinrow",
    };
    add(w, sb->bwrap);
    for (size_t k = 0; k < sizeof unshare / sizeof unshare[0]; k++)
        add(w, unshare[k]);
    add(w, "--uid"), addf(w, "%d", CR_SANDBOX_UID), add(w, "--gid"), addf(w, "%d", CR_SANDBOX_UID);
    add(w, "--ro-bind"), add(w, "/usr"), add(w, "/usr");
    for (size_t k = 0; k < sizeof system_tops / sizeof system_tops[0]; k++) {
        char top[16], target[PATH_MAX];
        snprintf(top, sizeof top, "/%s", system_tops[k]);
        struct stat st;
        ssize_t len = readlink(top, target, sizeof target - 1);
        if (len > 0) {
            target[len] = '\0';
            add(w, "--symlink"), add(w, target), add(w, top);
        } else if (lstat(top, &st) == 0 && S_ISDIR(st.st_mode)) {
            add(w, "--ro-bind"), add(w, top), add(w, top);
        }
    }
    add(w, "--proc"), add(w, "/proc");
    static const char *const devices[] = {"/dev/null", "/dev/zero", "/dev/urandom"};
    for (size_t k = 0; k < sizeof devices / sizeof devices[0]; k++)
        add(w, "--dev-bind"), add(w, devices[k]), add(w, devices[k]);
    static const char *const writable[] = {"/tmp", "/box"};
    for (size_t k = 0; k < sizeof writable / sizeof writable[0] - (o->work != NULL); k++)
        add(w, "--size"), addf(w, "%llu", (unsigned long long)CR_SANDBOX_FILES_MIB << 20), add(w, "--tmpfs"),
            add(w, writable[k]);
    if (o->work)
        add(w, "--bind"), add(w, o->work), add(w, "/box");
    for (int k = 0; k < 2 && sb->copies[k] >= 0; k++)
        add(w, "--perms"), add(w, "0555"), add(w, "--ro-bind-data"), addf(w, "%d", CR_SANDBOX__COPY_FD + k),
            add(w, sb->inside[k]);
    /* the rest of / (bwrap's own tmpfs, which no size caps) read-only */
    add(w, "--chdir"), add(w, "/box"), add(w, "--remount-ro"), add(w, "/");
    add(w, "--clearenv"), add(w, "--setenv"), add(w, "PATH"), add(w, CR_SANDBOX_PATH), add(w, "--setenv"),
        add(w, "HOME"), add(w, "/box");
    add(w, "--"), addf(w, "/proc/self/fd/%d", CR_SANDBOX__INIT_FD), add(w, CR_SANDBOX_INIT), add(w, mode);
    addf(w, "%.17g", o->limits->cpu_seconds), addf(w, "%llu", (unsigned long long)o->limits->memory_bytes),
        addf(w, "%d", CR_SANDBOX_PROCESSES), addf(w, "%llu", (unsigned long long)o->file_bytes);
    for (; *program; program++)
        add(w, *program);
}

/* ---- checking it ---- */

/* err from the check's run (CR_EIO, "the sandbox did not start the
 * program (WHAT BWRAP SAID)") told as what to do about it; what bwrap said
 * comes last, where a message too long for err is cut. */
static int explain(const cr_sandbox *sb, cr_error *err)
{
    char said[sizeof err->msg];
    const char *open = strchr(err->msg, '(');
    snprintf(said, sizeof said, "%s", open ? open + 1 : err->msg);
    if (open && said[0] && said[strlen(said) - 1] == ')')
        said[strlen(said) - 1] = '\0';
    const char *as = sb->as_nobody ? " (run as nobody)" : "";
    if (strstr(said, "namespace") || strstr(said, "uid map") || strstr(said, "gid map") || strstr(said, "setgroups"))
        return cr_errorf(err, CR_EINVAL,
                         "--sandbox: bwrap%s cannot create namespaces: allow unprivileged user namespaces "
                         "(sysctl -w kernel.unprivileged_userns_clone=1; Ubuntu: "
                         "kernel.apparmor_restrict_unprivileged_userns=0) (%s)",
                         as, said);
    if (strstr(said, "Unknown option"))
        return cr_errorf(err, CR_EINVAL,
                         "--sandbox: this bubblewrap is too old: 0.8.0 or later is needed (apt-get install "
                         "bubblewrap, or make deps) (%s: %s)",
                         sb->bwrap, said);
    return cr_errorf(err, CR_EIO, "--sandbox: the sandbox does not start (%s)", said);
}

/* One run in the sandbox with the init checking the program is there, in
 * a box of its own that ends with it. */
static int check(const cr_sandbox *sb, cr_error *err)
{
    cr_sandbox trial = *sb;
    trial.argv = sb->check_argv;
    /* time enough for bwrap on a busy machine, whatever the program's limit */
    cr_limits limits = {.cpu_seconds = 30, .output_bytes = 1 << 20};
    cr_child *child = NULL;
    cr_child_report report;
    int rc = cr_child_new(&child, err);
    if (rc == 0)
        rc = cr_child_run(&report, child, NULL, NULL, NULL, &trial, NULL, 0, &limits, NULL, err);
    if (rc == CR_EIO)
        rc = explain(sb, err);
    else if (rc == 0 && (report.end != CR_CHILD_EXITED || report.exit_code != 0))
        rc = cr_errorf(err, CR_EIO, "--sandbox: its check ended badly (%s)", report.err);
    cr_child_free(child);
    return rc;
}

int cr_sandbox_new(cr_sandbox **out, const cr_sandbox_opts *o, cr_error *err)
{
    *out = NULL;
    cr_sandbox *sb = calloc(1, sizeof *sb);
    if (!sb)
        return cr_errorf(err, CR_ENOMEM, "no memory for a sandbox");
    static atomic_uint made;
    sb->serial = atomic_fetch_add(&made, 1) + 1;
    sb->init_fd = sb->copies[0] = sb->copies[1] = -1;
    /* bwrap as nobody: root would be root outside the user namespace */
    sb->as_nobody = geteuid() == 0;
    char *exe = NULL, *script = NULL;
    words run = {0}, checked = {0}, program = {0};
    int rc = 0;
    if (cr_child_resolve(&sb->bwrap, "bwrap", NULL, NULL) != 0) {
        rc = cr_errorf(err, CR_EINVAL,
                       "--sandbox needs bubblewrap, and there is no bwrap in PATH (install it: apt-get install "
                       "bubblewrap, as root; or make deps in coinrow's source)");
        goto done;
    }
    if ((sb->init_fd = open(o->init, O_PATH | O_CLOEXEC)) < 0) {
        rc = cr_errorf(err, CR_EIO, "--sandbox: cannot open coinrow itself, the sandbox's init (%s: %s)", o->init,
                       strerror(errno));
        goto done;
    }
    if ((rc = place(&exe, sb, o->path, o->dir, err)) != 0 ||
        (o->script && (rc = place(&script, sb, o->script, o->dir, err)) != 0))
        goto done;
    /* what runs inside: the file as the sandbox shows it, and the source
     * for the interpreter where the command has it */
    add(&program, exe);
    for (char *const *a = o->argv + 1; *a; a++)
        add(&program, o->script && *a == o->script ? script : *a);
    if (!program.failed) {
        command_line(&run, sb, o->work ? "build" : "run", o, program.v);
        command_line(&checked, sb, "check", o, program.v);
    }
    if (program.failed || run.failed || checked.failed) {
        rc = cr_errorf(err, CR_ENOMEM, "no memory for the sandbox's command line");
        goto done;
    }
    sb->argv = run.v, sb->check_argv = checked.v;
    run.v = checked.v = NULL;
    rc = check(sb, err);
done:
    free_words(program.v);
    free_words(run.v);
    free_words(checked.v);
    free(exe);
    free(script);
    if (rc)
        cr_sandbox_free(sb);
    else
        *out = sb;
    return rc;
}

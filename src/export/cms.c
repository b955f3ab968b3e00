/* A CMS (italy_yaml) package's files besides the tests: task.yaml, the
 * checker's source and the checker built from it (CMS's loader uses a
 * checker only when check/checker is there, and runs it in its sandbox:
 * statically linked where the toolchain allows), and the statement. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "export/package.h"
#include "export/statement.h"
#include "util/util.h"

extern char **environ;

/* The C compiler: $CC, else cc. */
static const char *compiler(void)
{
    const char *cc = getenv("CC");
    return cc && *cc ? cc : "cc";
}

/* Whether program can be run: a path that is executable, or a name found on $PATH. */
static int runnable(const char *program)
{
    if (strchr(program, '/'))
        return access(program, X_OK) == 0;
    const char *path = getenv("PATH");
    for (const char *dir = path ? path : "/usr/bin:/bin"; *dir;) {
        size_t len = strcspn(dir, ":");
        char candidate[4096];
        snprintf(candidate, sizeof candidate, "%.*s/%s", (int)len, len ? dir : ".", program);
        if (access(candidate, X_OK) == 0)
            return 1;
        dir += len + (dir[len] == ':');
    }
    return 0;
}

int cr_export__cms_check(const cr_export_opts *opts, const char *dir, cr_error *err)
{
    if (opts->no_build || runnable(compiler()))
        return 0;
    return cr_errorf(err, CR_EINVAL, "no C compiler (%s) to build %s/check/checker, which CMS runs (without it "
                                        "CMS compares bytes): install one (Debian: apt-get install gcc), or give "
                                        "--no-build and build it before importing: cc -O2 -static -o "
                                        "%s/check/checker %s/check/checker.c",
                        compiler(), dir, dir, dir);
}

/* Runs argv, its standard output and error into *out (NUL-terminated, for
 * the caller to free): the exit status, or -1 when it cannot be run. */
static int run(char *const argv[], char **out)
{
    int pipe_fds[2];
    *out = NULL;
    if (pipe(pipe_fds) != 0)
        return -1;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDERR_FILENO);
    posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
    pid_t pid;
    int spawned = posix_spawnp(&pid, argv[0], &actions, NULL, argv, environ) == 0;
    posix_spawn_file_actions_destroy(&actions);
    close(pipe_fds[1]);
    size_t len = 0, cap = 0;
    char chunk[4096];
    ssize_t got;
    while ((got = read(pipe_fds[0], chunk, sizeof chunk)) > 0 || (got < 0 && errno == EINTR)) {
        if (got < 0)
            continue;
        if (len + (size_t)got + 1 > cap) {
            char *bigger = realloc(*out, cap = 2 * (len + (size_t)got + 1));
            if (!bigger)
                break;
            *out = bigger;
        }
        memcpy(*out + len, chunk, (size_t)got);
        len += (size_t)got;
        (*out)[len] = '\0';
    }
    close(pipe_fds[0]);
    int status = -1;
    if (spawned && waitpid(pid, &status, 0) == pid)
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return -1;
}

/* Builds check/checker from check/checker.c: statically linked when the
 * toolchain can, else as it can. */
static int build_checker(cr_package *p, cr_error *err)
{
    char source[4096], binary[4096];
    snprintf(source, sizeof source, "%s", cr_export__path(p, "check/checker.c"));
    snprintf(binary, sizeof binary, "%s", cr_export__path(p, "check/checker"));
    char *cc = (char *)compiler(), *output = NULL;
    char *static_argv[] = {cc, "-O2", "-static", "-o", binary, source, NULL};
    char *dynamic_argv[] = {cc, "-O2", "-o", binary, source, NULL};
    int status = run(static_argv, &output);
    if (status != 0) {
        free(output);
        status = run(dynamic_argv, &output);
    }
    int rc = 0;
    if (status != 0)
        rc = cr_errorf(err, CR_EIO, "%s could not build check/checker (%s %d): %.120s", cc,
                          status < 0 ? "it cannot be run" : "exit status", status, output ? output : "");
    free(output);
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
    return 0;
}

int cr_export__cms(cr_package *p, const cr_problem *pb, cr_error *err)
{
    int rc = cr_export__mkdir(p, "check", err);
    if (rc == 0)
        rc = cr_export__mkdir(p, "statement", err);
    if (rc == 0)
        rc = cr_export__file(p, "task.yaml", write_yaml, pb, err);
    if (rc == 0)
        rc = cr_export__file(p, "statement/statement.pdf", cr_statement_write_pdf, pb, err);
    if (rc == 0)
        rc = cr_export__program(p, "check/checker.c", CR_JUDGE_CHECKER, CR_CMS, pb, err);
    if (rc == 0 && !p->opts->no_build)
        rc = build_checker(p, err);
    return rc;
}

/* Running a program once under limits: vfork, limits and exec in the child;
 * one poll loop in the parent that feeds its input, reads its output and
 * watches the clock and its exit (a pidfd); wait4 for its resources, then
 * the rest of its group reaped (coinrow is their subreaper). */
#define _GNU_SOURCE /* pipe2, close_range, pidfd_open, vfork */
#include "invoke/invoke.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/util.h"

extern char **environ;

/* Bytes moved per read or write. */
#define CHUNK 65536

struct cr_child {
    char *out;
    size_t cap;
};

int cr_child_new(cr_child **out, cr_error *err)
{
    *out = calloc(1, sizeof **out);
    return *out ? 0 : cr_errorf(err, CR_ENOMEM, "no memory for a program's output");
}

void cr_child_free(cr_child *child)
{
    if (!child)
        return;
    free(child->out);
    free(child);
}

/* ---- finding the program ---- */

static int executable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* dir/name, or name alone when it is absolute or dir is NULL; NULL when
 * out of memory. */
static char *join(const char *dir, const char *name)
{
    size_t len = (dir ? strlen(dir) : 0) + strlen(name) + 2;
    char *path = malloc(len);
    if (path)
        snprintf(path, len, "%s%s%s", dir && name[0] != '/' ? dir : "", dir && name[0] != '/' ? "/" : "", name);
    return path;
}

int cr_child_resolve(char **out, const char *name, const char *dir, cr_error *err)
{
    *out = NULL;
    if (!*name)
        return cr_errorf(err, CR_EINVAL, "the command is empty");
    if (strchr(name, '/')) {
        char *path = join(dir, name);
        int ok = path && executable(path), there = path && access(path, F_OK) == 0;
        free(path);
        if (!ok)
            return cr_errorf(err, CR_EINVAL, "cannot run '%s': %s", name,
                             there ? "not an executable file" : "no such file");
        *out = strdup(name); /* relative to dir, where the child starts */
        return *out ? 0 : cr_errorf(err, CR_ENOMEM, "no memory for a path");
    }
    const char *path_var = getenv("PATH");
    char cwd[4096];
    if (!path_var)
        path_var = "/usr/local/bin:/usr/bin:/bin";
    for (const char *p = path_var;; p++) {
        const char *end = strchr(p, ':');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char entry[4096];
        /* an empty entry is the current folder; a relative one is relative to it, not to dir */
        snprintf(entry, sizeof entry, "%.*s", (int)len, len ? p : ".");
        char *base = entry[0] == '/' ? strdup(entry) : getcwd(cwd, sizeof cwd) ? join(cwd, entry) : NULL;
        char *candidate = base ? join(base, name) : NULL;
        free(base);
        if (candidate && executable(candidate)) {
            *out = candidate;
            return 0;
        }
        free(candidate);
        if (!end)
            break;
        p = end;
    }
    return cr_errorf(err, CR_EINVAL, "cannot run '%s': no such program in PATH", name);
}

/* ---- running it ---- */

/* Buffers larger than this are given back after a run: coinrow's size is
 * part of every program's peak memory. */
#define KEEP_BUFFER (1 << 20)

/* Resets coinrow's peak resident size to its current one (what a started
 * program's ru_maxrss counts of coinrow) and returns that size, in KiB;
 * -1 when /proc cannot tell. */
static int64_t reset_peak(void)
{
    int fd = open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC);
    if (fd >= 0) {
        ssize_t ignored = write(fd, "5", 1);
        (void)ignored;
        close(fd);
    }
    char statm[128];
    long pages = -1, resident = -1;
    fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
    ssize_t len = fd >= 0 ? read(fd, statm, sizeof statm - 1) : -1;
    if (fd >= 0)
        close(fd);
    if (len > 0) {
        statm[len] = '\0';
        if (sscanf(statm, "%ld %ld", &pages, &resident) != 2)
            resident = -1;
    }
    return resident < 0 ? -1 : (int64_t)resident * (sysconf(_SC_PAGESIZE) / 1024);
}

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* In the child, between vfork and exec: only system calls, on this frame
 * and the arguments (the parent waits, its memory shared).  On failure
 * errno goes back through status_fd. */
static void start_program(const char *path, char *const argv[], const char *dir, const int fds[3], int status_fd,
                          const cr_limits *lim, pid_t parent)
{
    setpgid(0, 0);
    /* killed with coinrow, even by SIGKILL (if coinrow is gone already, at once) */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
        _exit(127);
    for (int k = 0; k < 3; k++) {
        if (fds[k] == k)
            fcntl(k, F_SETFD, 0); /* dup2 onto itself would keep close-on-exec */
        else
            dup2(fds[k], k);
    }
    /* whatever else is open (the database, other children's pipes) stays here */
    close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigaction(SIGPIPE, &dfl, NULL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    rlim_t cpu = (rlim_t)lim->cpu_seconds;
    if ((double)cpu < lim->cpu_seconds || cpu == 0)
        cpu++;
    struct rlimit core = {0, 0}, cpu_limit = {cpu, cpu + 1};
    struct rlimit as = {(rlim_t)lim->memory_bytes, (rlim_t)lim->memory_bytes};
    if (setrlimit(RLIMIT_CORE, &core) == 0 && setrlimit(RLIMIT_CPU, &cpu_limit) == 0 &&
        (lim->memory_bytes == 0 || setrlimit(RLIMIT_AS, &as) == 0) && (!dir || chdir(dir) == 0))
        execve(path, argv, environ);
    int e = errno;
    ssize_t ignored = write(status_fd, &e, sizeof e);
    (void)ignored;
    _exit(127);
}

/* The loop's state. */
typedef struct watch {
    cr_child *child;
    cr_child_report *r;
    const cr_limits *lim;
    pid_t pid;
    struct pollfd fds[4]; /* stdin (to write), stdout, stderr, the pidfd */
    const char *input;
    size_t input_len, written;
    int exited, killed, interrupted;
    clockid_t cpu_clock; /* the program's CPU time, while it runs */
    int has_cpu_clock;
} watch;

enum { IN, OUT, ERR, PID };

static void close_at(watch *w, int k)
{
    if (w->fds[k].fd >= 0)
        close(w->fds[k].fd);
    w->fds[k].fd = -1;
}

static void kill_group(watch *w, cr_child_end why)
{
    if (!w->killed && !w->exited)
        w->r->end = why;
    kill(-w->pid, SIGKILL);
    w->killed = 1;
}

static void feed(watch *w)
{
    size_t left = w->input_len - w->written;
    ssize_t n = write(w->fds[IN].fd, w->input + w->written, left < CHUNK ? left : CHUNK);
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
        return;
    if (n < 0) { /* EPIPE: it closed its end; SIGPIPE is ignored */
        w->r->stdin_closed = 1;
        close_at(w, IN);
        return;
    }
    w->written += (size_t)n;
    if (w->written == w->input_len)
        close_at(w, IN);
}

static int take_output(watch *w, cr_error *err)
{
    cr_child *c = w->child;
    size_t want = w->r->out_len + CHUNK + 1;
    if (want > c->cap) {
        size_t cap = c->cap ? c->cap : CHUNK + 1;
        while (cap < want)
            cap *= 2;
        char *bigger = realloc(c->out, cap);
        if (!bigger)
            return cr_errorf(err, CR_ENOMEM, "no memory for a program's output");
        c->out = bigger, c->cap = cap;
    }
    ssize_t n = read(w->fds[OUT].fd, c->out + w->r->out_len, CHUNK);
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
        return 0;
    if (n <= 0) {
        close_at(w, OUT);
        return 0;
    }
    w->r->out_len += (size_t)n;
    if (w->r->out_len > w->lim->output_bytes) {
        kill_group(w, CR_CHILD_OUTPUT_KILLED);
        close_at(w, OUT);
    }
    return 0;
}

static void take_errors(watch *w)
{
    char scratch[4096];
    ssize_t n = read(w->fds[ERR].fd, scratch, sizeof scratch);
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
        return;
    if (n <= 0) {
        close_at(w, ERR);
        return;
    }
    size_t keep = CR_STDERR_KEEP - w->r->err_len;
    if (keep > (size_t)n)
        keep = (size_t)n;
    memcpy(w->r->err + w->r->err_len, scratch, keep);
    w->r->err_len += keep;
}

/* Until the program has exited and its output is read (or, when something
 * it started holds the pipes, the wall clock runs out). */
static int watch_program(watch *w, double deadline, const atomic_int *stop, cr_error *err)
{
    int rc = 0;
    while (rc == 0 && (!w->exited || ((w->fds[OUT].fd >= 0 || w->fds[ERR].fd >= 0) && now_seconds() < deadline))) {
        double left = deadline - now_seconds();
        if (!w->killed && left <= 0)
            kill_group(w, CR_CHILD_WALL_KILLED);
        struct timespec cpu;
        if (!w->killed && w->has_cpu_clock && clock_gettime(w->cpu_clock, &cpu) == 0 &&
            (double)cpu.tv_sec + (double)cpu.tv_nsec / 1e9 > w->lim->cpu_seconds)
            kill_group(w, CR_CHILD_CPU_KILLED);
        if (!w->killed && stop && atomic_load(stop)) {
            kill_group(w, w->r->end);
            w->interrupted = 1;
        }
        int timeout = w->killed || left * 1000 > CR_CHILD_CHECK_MS ? CR_CHILD_CHECK_MS : (int)(left * 1000) + 1;
        if (poll(w->fds, 4, timeout) < 0) {
            if (errno == EINTR)
                continue;
            return cr_errorf(err, CR_EIO, "waiting for the program: %s", strerror(errno));
        }
        if (w->fds[IN].revents)
            feed(w);
        if (w->fds[OUT].revents)
            rc = take_output(w, err);
        if (w->fds[ERR].revents)
            take_errors(w);
        if (w->fds[PID].revents) {
            w->exited = 1;
            kill(-w->pid, SIGKILL); /* what it left behind */
            close_at(w, PID);
        }
    }
    return rc;
}

/* vfork and start_program, in a frame of their own: nothing of the caller's
 * lives across the vfork for it to clobber. */
static pid_t spawn(const char *path, char *const argv[], const char *dir, const int fds[3], int status_fd,
                   const cr_limits *lim, pid_t parent)
{
    pid_t pid = vfork();
    if (pid == 0)
        start_program(path, argv, dir, fds, status_fd, lim, parent);
    return pid;
}

/* Starts the program, its standard input, output and error on pipes and
 * its pidfd in w->fds: 0, or CR_EIO saying why (nothing left running). */
static int launch(watch *w, const char *path, char *const argv[], const char *dir, cr_error *err)
{
    int in[2] = {-1, -1}, outp[2] = {-1, -1}, errp[2] = {-1, -1}, status[2] = {-1, -1};
    int rc = 0;
    pid_t parent = getpid();
    if (pipe2(in, O_CLOEXEC) || pipe2(outp, O_CLOEXEC) || pipe2(errp, O_CLOEXEC) || pipe2(status, O_CLOEXEC)) {
        rc = cr_errorf(err, CR_EIO, "cannot make pipes for %s: %s", argv[0], strerror(errno));
        goto done;
    }
    /* vfork: the parent's memory is neither copied nor made copy-on-write
     * (with fork, those page faults made each instance 1.5 times as long).
     * The child only makes system calls until exec, as posix_spawn's child
     * does, which has no way to set limits. */
    if ((w->pid = spawn(path, argv, dir, (const int[3]){in[0], outp[1], errp[1]}, status[1], w->lim, parent)) < 0) {
        rc = cr_errorf(err, CR_EIO, "cannot start %s: %s", argv[0], strerror(errno));
        goto done;
    }
    setpgid(w->pid, w->pid); /* the child does it too: whoever comes first */
    close(in[0]), close(outp[1]), close(errp[1]), close(status[1]);
    in[0] = outp[1] = errp[1] = status[1] = -1;

    int failure = 0;
    ssize_t got;
    while ((got = read(status[0], &failure, sizeof failure)) < 0 && errno == EINTR)
        ;
    if (got == (ssize_t)sizeof failure) { /* exec failed */
        waitpid(w->pid, NULL, 0);
        rc = cr_errorf(err, CR_EIO, "cannot run %s: %s", argv[0], strerror(failure));
        goto done;
    }
    w->fds[IN] = (struct pollfd){in[1], POLLOUT, 0};
    w->fds[OUT] = (struct pollfd){outp[0], POLLIN, 0};
    w->fds[ERR] = (struct pollfd){errp[0], POLLIN, 0};
    w->fds[PID] = (struct pollfd){pidfd_open(w->pid, 0), POLLIN, 0};
    in[1] = outp[0] = errp[0] = -1;
    if (w->fds[PID].fd < 0) {
        rc = cr_errorf(err, CR_EIO, "cannot watch %s (pidfd_open: %s; Linux 5.3 or later is needed)", argv[0],
                       strerror(errno));
        kill(-w->pid, SIGKILL);
        waitpid(w->pid, NULL, 0);
        goto done;
    }
    for (int k = IN; k <= ERR; k++)
        fcntl(w->fds[k].fd, F_SETFL, fcntl(w->fds[k].fd, F_GETFL) | O_NONBLOCK);
    w->has_cpu_clock = clock_getcpuclockid(w->pid, &w->cpu_clock) == 0;
done:;
    int fds[] = {in[0], in[1], outp[0], outp[1], errp[0], errp[1], status[0], status[1]};
    for (size_t k = 0; k < sizeof fds / sizeof fds[0]; k++)
        if (fds[k] >= 0)
            close(fds[k]);
    return rc;
}

/* Reaps the program and what it left in its group (killed when it exited),
 * and fills the report from how it ended and what it used. */
static void collect(watch *w, double start)
{
    cr_child_report *out = w->r;
    int wstatus = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    while (wait4(w->pid, &wstatus, 0, &ru) < 0 && errno == EINTR)
        ;
    siginfo_t left;
    while (waitid(P_PGID, (id_t)w->pid, &left, WEXITED) == 0 || errno == EINTR)
        ;
    out->wall_seconds = now_seconds() - start;
    out->cpu_seconds = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
                       (double)ru.ru_stime.tv_usec / 1e6;
    out->peak_rss_kib = ru.ru_maxrss;
    if (WIFSIGNALED(wstatus)) {
        out->signal = WTERMSIG(wstatus);
        if (out->end == CR_CHILD_EXITED)
            out->end = CR_CHILD_SIGNALED;
    } else if (out->end == CR_CHILD_EXITED) {
        out->exit_code = WEXITSTATUS(wstatus);
    }
    if (w->child->out)
        w->child->out[out->out_len] = '\0';
    out->out = w->child->out ? w->child->out : "";
    out->err[out->err_len] = '\0';
}

int cr_child_run(cr_child_report *out, cr_child *child, const char *path, char *const argv[], const char *dir,
                 const char *input, size_t input_len, const cr_limits *limits, const atomic_int *stop,
                 cr_error *err)
{
    memset(out, 0, sizeof *out);
    if (child->cap > KEEP_BUFFER) {
        free(child->out);
        child->out = NULL;
        child->cap = 0;
    }
    out->floor_kib = reset_peak();
    watch w = {.child = child, .r = out, .lim = limits, .input = input, .input_len = input_len, .pid = -1};
    for (int k = 0; k < 4; k++)
        w.fds[k] = (struct pollfd){.fd = -1};
    double start = now_seconds();
    /* what the program leaves behind becomes ours when it exits, to reap */
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    int rc = launch(&w, path, argv, dir, err);
    if (rc == 0) {
        if (input_len == 0)
            close_at(&w, IN);
        rc = watch_program(&w, start + 2 * limits->cpu_seconds, stop, err);
        if (rc)
            kill_group(&w, out->end);
        collect(&w, start);
        if (rc == 0 && w.interrupted)
            rc = cr_errorf(err, CR_EINTERRUPTED, "interrupted");
    }
    for (int k = 0; k < 4; k++)
        close_at(&w, k);
    return rc;
}

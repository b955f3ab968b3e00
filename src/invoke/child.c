/* Running a program once under limits: vfork, limits and exec in the child;
 * one poll loop in the parent that feeds its input, reads its output and
 * watches the clock and its exit (a pidfd); wait4 for its resources, then
 * the rest of its group reaped (coinrow is their subreaper), and whatever
 * else it left, out of its group, killed.  In a sandbox
 * the program runs in the runner's box, started at its first run (bwrap
 * and coinrow's init, sandbox.h), and its end and resources come from the
 * init's records. */
#define _GNU_SOURCE /* pipe2, close_range, pidfd_open, vfork, struct dirent64 */
#include "invoke/invoke.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "invoke/sandbox.h"
#include "util/util.h"

extern char **environ;

/* Bytes moved per read or write. */
#define CHUNK 65536

/* How long the init has to end a program coinrow asked it to kill before
 * the whole box is killed instead. */
#define KILL_GRACE_SECONDS 1.0

/* A box: bwrap, and coinrow's init in it serving requests (sandbox.h). */
typedef struct box {
    unsigned serial;   /* whose: its cr_sandbox's serial and argv */
    char *const *argv;
    pid_t pid;         /* bwrap's; -1: none */
    int pidfd, socket; /* bwrap's exit; the requests and records */
    int said;          /* what bwrap and the init say on their standard error (read end, non-blocking) */
} box;

struct cr_child {
    char *out;
    size_t cap;
    box box;
};

/* ---- what coinrow started, and what it was left ---- */

/* The processes cr_child__start started and no one has reaped yet: any
 * other child of coinrow is one a program left behind (coinrow is the
 * subreaper), which may have left the program's group and session. */
static pthread_mutex_t started_mu = PTHREAD_MUTEX_INITIALIZER;
static pid_t *started;
static size_t started_count, started_cap;

static int is_started(pid_t pid)
{
    for (size_t k = 0; k < started_count; k++)
        if (started[k] == pid)
            return 1;
    return 0;
}

/* Reaps pid, one cr_child__start started (EINTR: again), with its status
 * and resources (either may be NULL); it is then no longer started. */
static void reap(pid_t pid, int *status, struct rusage *ru)
{
    while (wait4(pid, status, 0, ru) < 0 && errno == EINTR)
        ;
    pthread_mutex_lock(&started_mu);
    for (size_t k = 0; k < started_count; k++)
        if (started[k] == pid) {
            started[k] = started[--started_count];
            break;
        }
    pthread_mutex_unlock(&started_mu);
}

/* The children of coinrow, of all its threads, into *out (*count of them;
 * free *out); -1 when /proc cannot say. */
static int children(pid_t **out, size_t *count)
{
    *out = NULL;
    *count = 0;
    size_t cap = 0;
    DIR *tasks = opendir("/proc/self/task");
    if (!tasks)
        return -1;
    struct dirent *t;
    while ((t = readdir(tasks)) != NULL) {
        char path[64];
        if (t->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "/proc/self/task/%.16s/children", t->d_name);
        FILE *f = fopen(path, "r");
        long pid;
        while (f && fscanf(f, "%ld", &pid) == 1)
            if (cr_grow((void **)out, &cap, *count + 1, sizeof **out, 16) == 0)
                (*out)[(*count)++] = (pid_t)pid;
        if (f)
            fclose(f);
    }
    closedir(tasks);
    return 0;
}

/* Kills and reaps every child of coinrow that it did not start: what
 * programs left behind that left their group (setsid), which killing the
 * group missed.  Until none is left: what such a one started is left to
 * coinrow in turn when it dies. */
static void sweep_left(void)
{
    pthread_mutex_lock(&started_mu);
    for (int found = 1; found;) {
        pid_t *kids;
        size_t count;
        found = 0;
        if (children(&kids, &count) != 0)
            break;
        for (size_t k = 0; k < count; k++) {
            if (is_started(kids[k]))
                continue;
            kill(kids[k], SIGKILL);
            while (waitpid(kids[k], NULL, 0) < 0 && errno == EINTR)
                ;
            found = 1;
        }
        free(kids);
    }
    pthread_mutex_unlock(&started_mu);
}

/* Kills the box and what runs in it, and reaps them: bwrap's wait status
 * (0 when there was no box), and what bwrap and the init said on their
 * standard error into said (cap bytes; NULL: not kept). */
static int box_end(box *b, char *said, size_t cap)
{
    int status = 0;
    if (b->pid > 0) {
        kill(-b->pid, SIGKILL);
        reap(b->pid, &status, NULL);
        siginfo_t left;
        while (waitid(P_PGID, (id_t)b->pid, &left, WEXITED) == 0 || errno == EINTR)
            ;
    }
    ssize_t n = said && b->said >= 0 ? read(b->said, said, cap - 1) : -1;
    if (said)
        said[n > 0 ? n : 0] = '\0';
    int fds[] = {b->pidfd, b->socket, b->said};
    for (int k = 0; k < 3; k++)
        if (fds[k] >= 0)
            close(fds[k]);
    *b = (box){.pid = -1, .pidfd = -1, .socket = -1, .said = -1};
    return status;
}

int cr_child_new(cr_child **out, cr_error *err)
{
    if (!(*out = calloc(1, sizeof **out)))
        return cr_errorf(err, CR_ENOMEM, "no memory for a program's output");
    (*out)->box = (box){.pid = -1, .pidfd = -1, .socket = -1, .said = -1};
    return 0;
}

void cr_child_free(cr_child *child)
{
    if (!child)
        return;
    box_end(&child->box, NULL, 0);
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
    return cr_child__resolve_in(out, name, dir, getenv("PATH"), err);
}

int cr_child__resolve_in(char **out, const char *name, const char *dir, const char *path_var, cr_error *err)
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

int64_t cr_child__reset_peak(void)
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

/* Marks every descriptor from `first` on close-on-exec, in the child
 * between vfork and exec (system calls only): close_range does it in one
 * call from Linux 5.11; before, each descriptor /proc/self/fd lists, else
 * each one below the limit of open files.  0, or -1 with errno: the program
 * is then not run, rather than given coinrow's descriptors. */
static int close_on_exec_from(int first)
{
    if (close_range((unsigned)first, ~0U, CLOSE_RANGE_CLOEXEC) == 0)
        return 0;
    int listing = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (listing >= 0) {
        _Alignas(struct dirent64) char entries[4096];
        long got = 0;
        int failed = 0;
        while (!failed && (got = syscall(SYS_getdents64, listing, entries, sizeof entries)) > 0) {
            for (long at = 0; at < got;) {
                const struct dirent64 *d = (const struct dirent64 *)(entries + at);
                int fd = 0, digits = 0;
                for (const char *c = d->d_name; *c >= '0' && *c <= '9' && fd < 1 << 24; c++, digits++)
                    fd = fd * 10 + (*c - '0');
                if (digits && fd >= first && fd != listing && fcntl(fd, F_SETFD, FD_CLOEXEC) != 0 && errno != EBADF)
                    failed = 1;
                at += d->d_reclen;
            }
        }
        int e = errno;
        close(listing);
        errno = e;
        if (failed)
            return -1;
        if (got == 0)
            return 0;
    }
    struct rlimit open_files;
    if (getrlimit(RLIMIT_NOFILE, &open_files) != 0)
        return -1;
    for (rlim_t fd = (rlim_t)first; fd < open_files.rlim_cur && fd <= INT_MAX; fd++)
        if (fcntl((int)fd, F_SETFD, FD_CLOEXEC) != 0 && errno != EBADF)
            return -1;
    return 0;
}

/* In the child, between vfork and exec: only system calls, on this frame
 * and the spec (the parent waits, its memory shared).  On failure errno
 * goes back through status_fd. */
static void start_program(const cr_child__spec *s, int status_fd, pid_t parent)
{
    if (s->new_session)
        setsid();
    else
        setpgid(0, 0);
    /* the system calls themselves: glibc's setuid would change the user of
     * every thread of the parent, whose memory and thread list this child
     * shares */
    if (s->as_nobody &&
        (syscall(SYS_setgroups, 0, NULL) != 0 ||
         syscall(SYS_setresgid, CR_SANDBOX__HOST_UID, CR_SANDBOX__HOST_UID, CR_SANDBOX__HOST_UID) != 0 ||
         syscall(SYS_setresuid, CR_SANDBOX__HOST_UID, CR_SANDBOX__HOST_UID, CR_SANDBOX__HOST_UID) != 0))
        goto failed;
    /* killed with its parent, even by SIGKILL (if that is gone already, at
     * once); after the change of user, which clears it */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
        _exit(127);
    /* each descriptor moved out of the way first: one may be another's place */
    int moved[CR_CHILD__FDS];
    if ((status_fd = fcntl(status_fd, F_DUPFD_CLOEXEC, s->nfds)) < 0)
        _exit(127);
    for (int k = 0; k < s->nfds; k++)
        if ((moved[k] = fcntl(s->fds[k], F_DUPFD_CLOEXEC, s->nfds)) < 0)
            goto failed;
    for (int k = 0; k < s->nfds; k++)
        if (dup2(moved[k], k) != k)
            goto failed;
    /* whatever else is open (the database, other children's pipes) stays here */
    if (close_on_exec_from(s->nfds) != 0)
        goto failed;
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigaction(SIGPIPE, &dfl, NULL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    rlim_t cpu = (rlim_t)s->cpu_seconds;
    if ((double)cpu < s->cpu_seconds || cpu == 0)
        cpu++;
    struct rlimit core = {0, 0}, cpu_limit = {cpu, cpu + 1};
    struct rlimit as = {(rlim_t)s->memory_bytes, (rlim_t)s->memory_bytes};
    struct rlimit nproc = {(rlim_t)s->processes, (rlim_t)s->processes};
    struct rlimit fsize = {(rlim_t)s->file_bytes, (rlim_t)s->file_bytes}, queues = {0, 0};
    if (setrlimit(RLIMIT_CORE, &core) == 0 && (s->cpu_seconds <= 0 || setrlimit(RLIMIT_CPU, &cpu_limit) == 0) &&
        (s->memory_bytes == 0 || setrlimit(RLIMIT_AS, &as) == 0) &&
        (s->processes == 0 || setrlimit(RLIMIT_NPROC, &nproc) == 0) &&
        (s->file_bytes == 0 || setrlimit(RLIMIT_FSIZE, &fsize) == 0) &&
        (!s->no_queues || setrlimit(RLIMIT_MSGQUEUE, &queues) == 0) && (!s->dir || chdir(s->dir) == 0))
        execve(s->path, s->argv, environ);
failed:;
    int e = errno;
    ssize_t ignored = write(status_fd, &e, sizeof e);
    (void)ignored;
    _exit(127);
}

/* vfork and start_program, in a frame of their own: nothing of the caller's
 * lives across the vfork for it to clobber. */
static pid_t spawn(const cr_child__spec *s, int status_fd, pid_t parent)
{
    pid_t pid = vfork();
    if (pid == 0)
        start_program(s, status_fd, parent);
    return pid;
}

int cr_child__start(pid_t *out, const cr_child__spec *spec, cr_error *err)
{
    *out = -1;
    int status[2];
    if (pipe2(status, O_CLOEXEC) != 0)
        return cr_errorf(err, CR_EIO, "cannot make a pipe for %s: %s", spec->argv[0], strerror(errno));
    /* vfork: the parent's memory is neither copied nor made copy-on-write
     * (with fork, those page faults made each instance 1.5 times as long).
     * The child only makes system calls until exec, as posix_spawn's child
     * does, which has no way to set limits.  A sweep sees it started. */
    pthread_mutex_lock(&started_mu);
    if (cr_grow((void **)&started, &started_cap, started_count + 1, sizeof *started, 16) != 0) {
        pthread_mutex_unlock(&started_mu);
        close(status[0]);
        close(status[1]);
        return cr_errorf(err, CR_ENOMEM, "no memory to start %s", spec->argv[0]);
    }
    pid_t pid = spawn(spec, status[1], getpid());
    int e = errno;
    if (pid > 0)
        started[started_count++] = pid;
    pthread_mutex_unlock(&started_mu);
    close(status[1]);
    /* the child's change of user made the memory it shared with us (ours)
     * undumpable, as for a set-user-ID program: not what coinrow is */
    if (spec->as_nobody)
        prctl(PR_SET_DUMPABLE, 1);
    if (pid < 0) {
        close(status[0]);
        return cr_errorf(err, CR_EIO, "cannot start %s: %s", spec->argv[0], strerror(e));
    }
    if (!spec->new_session)
        setpgid(pid, pid); /* the child does it too: whoever comes first */
    int failure = 0;
    ssize_t got;
    while ((got = read(status[0], &failure, sizeof failure)) < 0 && errno == EINTR)
        ;
    close(status[0]);
    if (got == (ssize_t)sizeof failure) { /* exec failed */
        reap(pid, NULL, NULL);
        return cr_errorf(err, CR_EIO, "cannot run %s: %s", spec->argv[0], strerror(failure));
    }
    *out = pid;
    return 0;
}

/* ---- a box ---- */

/* pidfd_open, or CR_EIO naming what (nothing is then left running). */
static int watch_pid(int *out, pid_t pid, const char *what, cr_error *err)
{
    if ((*out = pidfd_open(pid, 0)) >= 0)
        return 0;
    int rc = cr_errorf(err, CR_EIO, "cannot watch %s (pidfd_open: %s; Linux 5.3 or later is needed)", what,
                       strerror(errno));
    kill(-pid, SIGKILL);
    reap(pid, NULL, NULL);
    return rc;
}

/* Starts sb's box in *b: bwrap, its standard error on a pipe, the socket
 * and coinrow's executable beside it.  bwrap and the init are not limited:
 * the init limits the program. */
static int box_start(box *b, const cr_sandbox *sb, cr_error *err)
{
    int pair[2] = {-1, -1}, said[2] = {-1, -1}, null = open("/dev/null", O_RDWR | O_CLOEXEC), rc = 0;
    int copies[2] = {-1, -1};
    if (null < 0 || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0 || pipe2(said, O_CLOEXEC) != 0) {
        rc = cr_errorf(err, CR_EIO, "cannot make a socket and a pipe for a sandbox: %s", strerror(errno));
        goto done;
    }
    cr_child__spec spec = {.path = sb->bwrap, .argv = sb->argv, .fds = {null, null, said[1], pair[1], sb->init_fd},
                           .nfds = CR_SANDBOX__COPY_FD, .as_nobody = sb->as_nobody};
    /* each copy opened anew: bwrap reads it to its end, and another box
     * may be reading it at once */
    for (int k = 0; k < 2 && sb->copies[k] >= 0; k++) {
        char at[32];
        snprintf(at, sizeof at, "/proc/self/fd/%d", sb->copies[k]);
        if ((copies[k] = open(at, O_RDONLY | O_CLOEXEC)) < 0) {
            rc = cr_errorf(err, CR_EIO, "cannot read the program's copy for a sandbox: %s", strerror(errno));
            goto done;
        }
        spec.fds[spec.nfds++] = copies[k];
    }
    if ((rc = cr_child__start(&b->pid, &spec, err)) != 0 || (rc = watch_pid(&b->pidfd, b->pid, sb->bwrap, err)) != 0) {
        b->pid = -1;
        goto done;
    }
    b->serial = sb->serial, b->argv = sb->argv;
    b->socket = pair[0], b->said = said[0];
    pair[0] = said[0] = -1;
    fcntl(b->socket, F_SETFL, O_NONBLOCK);
    fcntl(b->said, F_SETFL, O_NONBLOCK);
done:;
    int fds[] = {null, pair[0], pair[1], said[0], said[1], copies[0], copies[1]};
    for (size_t k = 0; k < sizeof fds / sizeof fds[0]; k++)
        if (fds[k] >= 0)
            close(fds[k]);
    return rc;
}

/* A request to b's init, with fds (NULL: none): 0, or -1 (errno) when the
 * box does not take it. */
static int box_ask(const box *b, int kind, const int fds[3])
{
    cr_sandbox__record asked = {.magic = CR_SANDBOX__MAGIC, .kind = (uint32_t)kind};
    union {
        char space[CMSG_SPACE(3 * sizeof(int))];
        struct cmsghdr align;
    } control;
    struct iovec part = {&asked, sizeof asked};
    struct msghdr m = {.msg_iov = &part, .msg_iovlen = 1};
    if (fds) {
        memset(&control, 0, sizeof control);
        m.msg_control = control.space, m.msg_controllen = sizeof control.space;
        struct cmsghdr *c = CMSG_FIRSTHDR(&m);
        *c = (struct cmsghdr){.cmsg_len = CMSG_LEN(3 * sizeof(int)), .cmsg_level = SOL_SOCKET,
                              .cmsg_type = SCM_RIGHTS};
        memcpy(CMSG_DATA(c), fds, 3 * sizeof(int));
    }
    ssize_t n;
    while ((n = sendmsg(b->socket, &m, MSG_NOSIGNAL)) < 0 && errno == EINTR)
        ;
    return n == (ssize_t)sizeof asked ? 0 : -1;
}

/* ---- one run ---- */

/* The loop's state. */
typedef struct watch {
    cr_child *child;
    cr_child_report *r;
    const cr_limits *lim;
    const cr_sandbox *sandbox;
    pid_t pid;            /* the program's, or its box's bwrap */
    struct pollfd fds[5]; /* stdin (to write), stdout, stderr, the pidfd, the init's records */
    const char *input;
    size_t input_len, written;
    cr_dialogue *talk;    /* a game instead of the input (cr_child_play), or NULL */
    int exited, killed, interrupted;
    clockid_t cpu_clock; /* the program's CPU time, while it runs */
    int has_cpu_clock;
    cr_sandbox__record progress, end; /* the init's last records of each kind */
    int started, ended;
    double killed_at;                 /* when the init was asked to kill it */
    char said[160];                   /* what the box said on its standard error, when it ended */
} watch;

enum { IN, OUT, ERR, PID, REPORT, WATCHED };

/* Closes w's descriptor k; a box's, lent, is only let go. */
static void close_at(watch *w, int k)
{
    if (w->fds[k].fd >= 0 && !(w->sandbox && (k == PID || k == REPORT)))
        close(w->fds[k].fd);
    w->fds[k].fd = -1;
}

/* Kills the program (in a sandbox, asks the init to, once) for why. */
static void kill_group(watch *w, cr_child_end why)
{
    if (!w->killed && !w->exited)
        w->r->end = why;
    if (!w->sandbox)
        kill(-w->pid, SIGKILL);
    else if (!w->killed && box_ask(&w->child->box, CR_SANDBOX__KILL, NULL) == 0)
        w->killed_at = cr_seconds_now();
    else if (!w->killed) /* the box cannot be asked: it goes */
        kill(-w->pid, SIGKILL);
    w->killed = 1;
}

/* What coinrow wrote to the program that it has not read yet. */
static size_t unread(const watch *w)
{
    int count = 0;
    return w->fds[IN].fd >= 0 && ioctl(w->fds[IN].fd, FIONREAD, &count) == 0 && count > 0 ? (size_t)count : 0;
}

/* The program closed its standard input (SIGPIPE is ignored). */
static void input_closed(watch *w)
{
    w->r->stdin_closed = 1;
    if (w->talk)
        cr_dialogue_closed(w->talk, unread(w));
}

/* Writes what there is to write, without blocking; in a game, what the
 * game has to send, until it has nothing more, and a poll for room only
 * while something waits. */
static void feed(watch *w)
{
    for (;;) {
        const char *from = w->input + w->written;
        size_t left = w->talk ? cr_dialogue_pending(w->talk, &from) : w->input_len - w->written;
        if (w->talk && left == 0 && cr_dialogue_done_writing(w->talk))
            break;
        w->fds[IN].events = left ? POLLOUT : 0;
        if (left == 0)
            return;
        ssize_t n = write(w->fds[IN].fd, from, left < CHUNK ? left : CHUNK);
        if (n < 0 && (errno == EAGAIN || errno == EINTR))
            return;
        if (n < 0) { /* EPIPE: it closed its end; SIGPIPE is ignored */
            input_closed(w);
            break;
        }
        if (w->talk) {
            cr_dialogue_sent(w->talk, (size_t)n);
            continue;
        }
        w->written += (size_t)n;
        if (w->written == w->input_len)
            break;
    }
    close_at(w, IN);
}

/* In a game: what the program wrote, read[0..len), to the game, then the
 * game's answer written at once; the program killed at a fault. */
static int hear(watch *w, const char *read, size_t len, cr_error *err)
{
    int rc = cr_dialogue_heard(w->talk, read, len, unread(w), err);
    if (rc == 0 && cr_dialogue_faulted(w->talk))
        kill_group(w, CR_CHILD_JURY_KILLED);
    if (rc == 0 && w->fds[IN].fd >= 0)
        feed(w);
    return rc;
}

static int take_output(watch *w, cr_error *err)
{
    cr_child *c = w->child;
    if (w->talk) { /* not kept: the game has what it needs of it */
        char got[4096];
        ssize_t n = read(w->fds[OUT].fd, got, sizeof got);
        if (n < 0 && (errno == EAGAIN || errno == EINTR))
            return 0;
        if (n <= 0) {
            close_at(w, OUT);
            return 0;
        }
        return hear(w, got, (size_t)n, err);
    }
    if (cr_grow((void **)&c->out, &c->cap, w->r->out_len + CHUNK + 1, 1, CHUNK + 1))
        return cr_errorf(err, CR_ENOMEM, "no memory for a program's output");
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

/* Reads the init's records that are there: 1 when it read some. */
static int take_records(watch *w)
{
    cr_sandbox__record got[16];
    ssize_t n = read(w->fds[REPORT].fd, got, sizeof got);
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
        return 0;
    if (n <= 0) {
        close_at(w, REPORT);
        return 0;
    }
    /* written whole, so read whole */
    for (size_t k = 0; k < (size_t)n / sizeof got[0]; k++) {
        if (got[k].magic == CR_SANDBOX__MAGIC && got[k].kind == CR_SANDBOX__PROGRESS)
            w->progress = got[k], w->started = 1;
        else if (got[k].magic == CR_SANDBOX__MAGIC && got[k].kind == CR_SANDBOX__ENDED)
            w->end = got[k], w->ended = w->exited = 1;
    }
    return 1;
}

/* Until the program has exited and its output is read (or, when something
 * it started holds the pipes, the wall clock runs out). */
static int watch_program(watch *w, double deadline, const atomic_int *stop, cr_error *err)
{
    int rc = 0;
    double cpu_due = 0; /* a game wakes the loop at every move: the CPU clock (a system call) is read every
                           CR_CHILD_CHECK_MS at most */
    while (rc == 0 && (!w->exited || ((w->fds[OUT].fd >= 0 || w->fds[ERR].fd >= 0) && cr_seconds_now() < deadline))) {
        double now = cr_seconds_now(), left = deadline - now;
        if (!w->killed && left <= 0)
            kill_group(w, CR_CHILD_WALL_KILLED);
        struct timespec cpu;
        int look = now >= cpu_due;
        cpu_due = look ? now + CR_CHILD_CHECK_MS / 1000.0 : cpu_due;
        if (look && !w->killed && w->has_cpu_clock && clock_gettime(w->cpu_clock, &cpu) == 0 &&
            (double)cpu.tv_sec + (double)cpu.tv_nsec / 1e9 > w->lim->cpu_seconds)
            kill_group(w, CR_CHILD_CPU_KILLED);
        if (!w->killed && stop && atomic_load(stop)) {
            kill_group(w, w->r->end);
            w->interrupted = 1;
        }
        if (w->sandbox && w->killed && !w->exited && w->killed_at > 0 &&
            cr_seconds_now() > w->killed_at + KILL_GRACE_SECONDS) { /* the init did not: the box goes */
            kill(-w->pid, SIGKILL);
            w->killed_at = 0;
        }
        int timeout = w->killed || left * 1000 > CR_CHILD_CHECK_MS ? CR_CHILD_CHECK_MS : (int)(left * 1000) + 1;
        if (poll(w->fds, WATCHED, timeout) < 0) {
            if (errno == EINTR)
                continue;
            return cr_errorf(err, CR_EIO, "waiting for the program: %s", strerror(errno));
        }
        if (w->fds[IN].revents & ~POLLOUT) { /* POLLERR: it closed its end, as EPIPE */
            input_closed(w);
            close_at(w, IN);
        } else if (w->fds[IN].revents) {
            feed(w);
        }
        if (w->fds[OUT].revents)
            rc = take_output(w, err);
        if (w->fds[ERR].revents)
            take_errors(w);
        if (w->fds[REPORT].revents)
            take_records(w);
        if (w->fds[PID].revents) { /* the program, or in a sandbox its box, ended */
            w->exited = 1;
            kill(-w->pid, SIGKILL); /* what it left behind */
            close_at(w, PID);
        }
    }
    return rc;
}

/* bwrap's end, in words, for a sandbox that ended before the program. */
static void describe(char *out, size_t cap, int wstatus)
{
    char sig[16];
    cr_verdict_signal_name(sig, WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0);
    if (WIFSIGNALED(wstatus))
        snprintf(out, cap, "bwrap ended by %s", sig);
    else
        snprintf(out, cap, "bwrap exit status %d", WEXITSTATUS(wstatus));
}

/* CR_EIO: the sandbox did not start the program, with the first line of
 * said (the init's without its "coinrow: "), or else how bwrap ended. */
static int not_started(cr_error *err, const char *said, int bwrap_status)
{
    const char *init = "coinrow: ";
    int len = (int)strcspn(said, "\n");
    int by_init = strncmp(said, init, strlen(init)) == 0;
    char bwrap[48];
    describe(bwrap, sizeof bwrap, bwrap_status);
    if (len == 0)
        return cr_errorf(err, CR_EIO, "the sandbox did not start the program (%s)", bwrap);
    return cr_errorf(err, CR_EIO, "the sandbox did not start the program (%s%.*s)", by_init ? "its init: " : "",
                     len - (by_init ? (int)strlen(init) : 0), said + (by_init ? strlen(init) : 0));
}

/* The program to run on fds (its ends of the pipes of its standard input,
 * output and error): started, or sent to the runner's box (started first,
 * or again when the last one has gone). */
static int start(watch *w, const char *path, char *const argv[], const char *dir, const int fds[3], cr_error *err)
{
    const cr_sandbox *sb = w->sandbox;
    if (!sb) {
        /* a session of its own: no terminal to write to or type into */
        cr_child__spec spec = {.path = path, .argv = argv, .dir = dir, .fds = {fds[0], fds[1], fds[2]}, .nfds = 3,
                               .new_session = 1, .cpu_seconds = w->lim->cpu_seconds,
                               .memory_bytes = w->lim->memory_bytes};
        int rc = cr_child__start(&w->pid, &spec, err);
        if (rc == 0)
            rc = watch_pid(&w->fds[PID].fd, w->pid, argv[0], err);
        /* (in a sandbox the init watches its CPU time) */
        w->has_cpu_clock = rc == 0 && clock_getcpuclockid(w->pid, &w->cpu_clock) == 0;
        return rc;
    }
    box *b = &w->child->box;
    if (b->pid > 0 && (b->serial != sb->serial || b->argv != sb->argv))
        box_end(b, NULL, 0);
    for (int fresh = b->pid < 0;; fresh = 1) {
        int rc = b->pid < 0 ? box_start(b, sb, err) : 0;
        if (rc)
            return rc;
        if (box_ask(b, CR_SANDBOX__RUN, fds) == 0)
            break;
        /* it ended between two programs, or (a new one) at its start */
        char said[160];
        int status = box_end(b, said, sizeof said);
        if (fresh)
            return not_started(err, said, status);
    }
    /* the box's, lent to the loop */
    w->pid = b->pid;
    w->fds[PID].fd = b->pidfd;
    w->fds[REPORT].fd = b->socket;
    return 0;
}

/* Starts the program, its standard input, output and error on pipes, its
 * pidfd (in a sandbox the box's) and the init's records in w->fds: 0, or
 * CR_EIO saying why (nothing left running). */
static int launch(watch *w, const char *path, char *const argv[], const char *dir, cr_error *err)
{
    int in[2] = {-1, -1}, outp[2] = {-1, -1}, errp[2] = {-1, -1};
    int rc = 0;
    if (pipe2(in, O_CLOEXEC) || pipe2(outp, O_CLOEXEC) || pipe2(errp, O_CLOEXEC)) {
        rc = cr_errorf(err, CR_EIO, "cannot make pipes for %s: %s", w->sandbox ? "a sandbox" : argv[0],
                       strerror(errno));
        goto done;
    }
    int theirs[3] = {in[0], outp[1], errp[1]};
    if ((rc = start(w, path, argv, dir, theirs, err)) != 0)
        goto done;
    w->fds[IN] = (struct pollfd){in[1], POLLOUT, 0};
    w->fds[OUT] = (struct pollfd){outp[0], POLLIN, 0};
    w->fds[ERR] = (struct pollfd){errp[0], POLLIN, 0};
    w->fds[PID].events = w->fds[REPORT].events = POLLIN;
    in[1] = outp[0] = errp[0] = -1;
    for (int k = IN; k <= ERR; k++)
        fcntl(w->fds[k].fd, F_SETFL, fcntl(w->fds[k].fd, F_GETFL) | O_NONBLOCK);
done:;
    int fds[] = {in[0], in[1], outp[0], outp[1], errp[0], errp[1]};
    for (size_t k = 0; k < sizeof fds / sizeof fds[0]; k++)
        if (fds[k] >= 0)
            close(fds[k]);
    return rc;
}

/* The signal or exit status of wait status wstatus into the report; a
 * kill of ours said why it ended already. */
static void ended(cr_child_report *out, int wstatus)
{
    if (WIFSIGNALED(wstatus)) {
        out->signal = WTERMSIG(wstatus);
        if (out->end == CR_CHILD_EXITED)
            out->end = CR_CHILD_SIGNALED;
    } else if (out->end == CR_CHILD_EXITED) {
        out->exit_code = WEXITSTATUS(wstatus);
    }
}

/* In a sandbox: the init's last records read, and the box ended unless
 * the init said the program ended and the box is as the next program is
 * to find it; bwrap's wait status, or 0. */
static int leave_box(watch *w)
{
    while (!w->ended && w->fds[REPORT].fd >= 0 && take_records(w))
        ;
    w->fds[PID].fd = w->fds[REPORT].fd = -1;
    if (w->ended && !(w->end.flags & CR_SANDBOX__BOX_ENDS))
        return 0;
    return box_end(&w->child->box, w->said, sizeof w->said);
}

/* Reaps the program and what it left in its group (killed when it exited),
 * or in a sandbox leaves the box, and fills the report from how it ended
 * and what it used, or for a sandbox the times; returns wait4's status (in
 * a sandbox bwrap's, or 0). */
static int collect(watch *w, double start)
{
    cr_child_report *out = w->r;
    int wstatus = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    if (w->sandbox) {
        wstatus = leave_box(w);
    } else {
        reap(w->pid, &wstatus, &ru);
        siginfo_t left;
        while (waitid(P_PGID, (id_t)w->pid, &left, WEXITED) == 0 || errno == EINTR)
            ;
        sweep_left();
    }
    out->wall_seconds = cr_seconds_now() - start;
    if (w->child->out)
        w->child->out[out->out_len] = '\0';
    out->out = w->child->out ? w->child->out : "";
    out->err[out->err_len] = '\0';
    if (w->sandbox)
        return wstatus;
    out->cpu_seconds = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
                       (double)ru.ru_stime.tv_usec / 1e6;
    out->peak_rss_kib = ru.ru_maxrss;
    ended(out, wstatus);
    return wstatus;
}

/* The report of a sandboxed run, from the init's records: what wait4 said
 * of the program inside, and what of the sandbox it ran into.  CR_EIO when
 * the program never started (the init said why on the program's standard
 * error, or bwrap or the init on the box's). */
static int sandboxed_end(watch *w, int bwrap_status, cr_error *err)
{
    cr_child_report *out = w->r;
    char bwrap[48];
    describe(bwrap, sizeof bwrap, bwrap_status);
    int refused = w->ended && (w->end.flags & CR_SANDBOX__NOT_STARTED);
    if (refused || (!w->ended && !w->started && !w->killed))
        return not_started(err, refused ? out->err : w->said, bwrap_status);
    const cr_sandbox__record *rec = w->ended ? &w->end : &w->progress;
    out->cpu_seconds = rec->cpu_seconds;
    out->peak_rss_kib = rec->peak_kib;
    out->floor_kib = rec->floor_kib;
    if (!w->ended) { /* killed with the sandbox, by us or not */
        out->signal = SIGKILL;
        if (!w->killed) {
            out->end = CR_CHILD_SANDBOX_LOST;
            snprintf(out->sandbox_note, sizeof out->sandbox_note, "its sandbox ended before it did (%s)", bwrap);
        }
        return 0;
    }
    if ((rec->flags & CR_SANDBOX__CPU_KILLED) && out->end == CR_CHILD_EXITED)
        out->end = CR_CHILD_CPU_KILLED;
    ended(out, rec->wait_status);
    const char *note = rec->flags & CR_SANDBOX__TMP_FULL   ? "its /tmp was full"
                       : rec->flags & CR_SANDBOX__BOX_FULL ? "its working folder was full"
                                                           : NULL;
    if (note)
        snprintf(out->sandbox_note, sizeof out->sandbox_note, "in the sandbox, %s (%d MiB)", note,
                 CR_SANDBOX_FILES_MIB);
    else if (rec->flags & CR_SANDBOX__PROCESSES)
        snprintf(out->sandbox_note, sizeof out->sandbox_note,
                 "in the sandbox, it reached the limit of %d processes and threads", CR_SANDBOX_PROCESSES);
    return 0;
}

/* cr_child_run, or with talk cr_child_play. */
static int run(cr_child_report *out, cr_child *child, const char *path, char *const argv[], const char *dir,
               const cr_sandbox *sandbox, const char *input, size_t input_len, cr_dialogue *talk,
               const cr_limits *limits, const atomic_int *stop, cr_error *err)
{
    memset(out, 0, sizeof *out);
    if (child->cap > KEEP_BUFFER) {
        free(child->out);
        child->out = NULL;
        child->cap = 0;
    }
    /* in a sandbox the init counts its own size instead */
    out->floor_kib = sandbox ? -1 : cr_child__reset_peak();
    watch w = {.child = child, .r = out, .lim = limits, .sandbox = sandbox, .input = input, .input_len = input_len,
               .talk = talk, .pid = -1};
    for (int k = 0; k < WATCHED; k++)
        w.fds[k] = (struct pollfd){.fd = -1};
    double start = cr_seconds_now();
    /* what the program leaves behind becomes ours when it exits, to reap */
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    int rc = launch(&w, path, argv, dir, err);
    if (rc == 0) {
        if (talk)
            feed(&w); /* the row, as much as the pipe takes now */
        else if (input_len == 0)
            close_at(&w, IN);
        rc = watch_program(&w, start + 2 * limits->cpu_seconds, stop, err);
        if (rc)
            kill_group(&w, out->end);
        int status = collect(&w, start);
        if (rc == 0 && sandbox)
            rc = sandboxed_end(&w, status, err);
        if (rc == 0 && w.interrupted)
            rc = cr_errorf(err, CR_EINTERRUPTED, "interrupted");
    }
    for (int k = 0; k < WATCHED; k++)
        close_at(&w, k);
    return rc;
}

int cr_child_run(cr_child_report *out, cr_child *child, const char *path, char *const argv[], const char *dir,
                 const cr_sandbox *sandbox, const char *input, size_t input_len, const cr_limits *limits,
                 const atomic_int *stop, cr_error *err)
{
    return run(out, child, path, argv, dir, sandbox, input, input_len, NULL, limits, stop, err);
}

int cr_child_play(cr_child_report *out, cr_child *child, const char *path, char *const argv[], const char *dir,
                  const cr_sandbox *sandbox, cr_dialogue *d, const cr_limits *limits, const atomic_int *stop,
                  cr_error *err)
{
    return run(out, child, path, argv, dir, sandbox, NULL, 0, d, limits, stop, err);
}

/* coinrow as the sandbox's init, pid 1 inside bwrap's namespaces
 * (sandbox.h): for each request the program started under its limits, its
 * CPU time watched, what wait4 says of it sent to coinrow, and the sandbox
 * left as the next program is to find it. */
#define _GNU_SOURCE /* pidfd_open */
#include "invoke/invoke.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/keyctl.h>

#include "invoke/sandbox.h"
#include "util/util.h"

/* What cr_sandbox_new wrote after CR_SANDBOX_INIT (sandbox.c's
 * command_line): the mode, the limits, the program and its arguments. */
typedef struct orders {
    int check;            /* check: a request is answered by checking the program is there to run */
    int keep;             /* the working folder is not emptied: a build's (build), or nothing ran (check) */
    double cpu_seconds;
    uint64_t memory_bytes;
    int processes;
    uint64_t file_bytes;
    char **argv; /* argv[0] is the path to execute */
} orders;

static int read_orders(orders *out, int argc, char **argv, cr_error *err)
{
    char *end_cpu = NULL, *end_memory = NULL, *end_processes = NULL, *end_files = NULL;
    if (argc < 7 || (strcmp(argv[1], "run") != 0 && strcmp(argv[1], "build") != 0 && strcmp(argv[1], "check") != 0))
        return cr_errorf(err, CR_EINVAL, "%s takes what invoke --sandbox gives it", CR_SANDBOX_INIT);
    errno = 0;
    out->check = strcmp(argv[1], "check") == 0;
    out->keep = strcmp(argv[1], "run") != 0;
    out->cpu_seconds = strtod(argv[2], &end_cpu);
    out->memory_bytes = strtoull(argv[3], &end_memory, 10);
    long processes = strtol(argv[4], &end_processes, 10);
    out->file_bytes = strtoull(argv[5], &end_files, 10);
    out->argv = argv + 6;
    if (errno || *end_cpu || *end_memory || *end_processes || *end_files || !(out->cpu_seconds > 0) ||
        processes < 1 || processes > 1 << 20)
        return cr_errorf(err, CR_EINVAL, "%s: limits '%s', '%s', '%s' and '%s' are not invoke's", CR_SANDBOX_INIT,
                         argv[2], argv[3], argv[4], argv[5]);
    out->processes = (int)processes;
    return 0;
}

/* One record to coinrow (no SIGPIPE once it is gone: the init ignores it anyway). */
static void tell(const cr_sandbox__record *r)
{
    while (send(CR_SANDBOX__SOCKET_FD, r, sizeof *r, MSG_NOSIGNAL) < 0 && errno == EINTR)
        ;
}

/* Whether the tmpfs at folder has no room left. */
static int full(const char *folder)
{
    struct statvfs v;
    return statvfs(folder, &v) == 0 && v.f_bavail == 0;
}

/* How many processes the sandbox holds (its /proc shows only them). */
static int processes(void)
{
    int count = 0;
    DIR *proc = opendir("/proc");
    for (struct dirent *e; proc && (e = readdir(proc)) != NULL;)
        count += isdigit((unsigned char)e->d_name[0]) != 0;
    if (proc)
        closedir(proc);
    return count;
}

/* The program's peak resident size so far, in KiB (VmHWM); 0 when not to
 * be read. */
static int64_t peak_of(pid_t pid)
{
    char path[64], status[4096];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t len = fd >= 0 ? read(fd, status, sizeof status - 1) : -1;
    if (fd >= 0)
        close(fd);
    if (len <= 0)
        return 0;
    status[len] = '\0';
    const char *hwm = strstr(status, "\nVmHWM:");
    return hwm ? strtoll(hwm + 7, NULL, 10) : 0;
}

/* Notes in end's flags what of the sandbox is full now, and in *most the
 * largest count of its processes seen. */
static void sandbox_full(cr_sandbox__record *end, int *most)
{
    int now = processes();
    *most = now > *most ? now : *most;
    end->flags |= (full("/tmp") ? CR_SANDBOX__TMP_FULL : 0) | (full("/box") ? CR_SANDBOX__BOX_FULL : 0);
}

static double seconds_of(clockid_t clock)
{
    struct timespec t;
    return clock_gettime(clock, &t) == 0 ? (double)t.tv_sec + (double)t.tv_nsec / 1e9 : 0;
}

/* Reads coinrow's next message into *got, and with a RUN the program's
 * standard input, output and error into fds: 1, or 0 when coinrow closed
 * the socket (or sent what is not a request: the box is then done). */
static int take_request(cr_sandbox__record *got, int fds[3])
{
    union {
        char space[CMSG_SPACE(3 * sizeof(int))];
        struct cmsghdr align;
    } control;
    struct iovec part = {got, sizeof *got};
    struct msghdr m = {.msg_iov = &part, .msg_iovlen = 1, .msg_control = control.space,
                       .msg_controllen = sizeof control.space};
    ssize_t n;
    while ((n = recvmsg(CR_SANDBOX__SOCKET_FD, &m, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR)
        ;
    int given = 0;
    for (struct cmsghdr *c = n > 0 ? CMSG_FIRSTHDR(&m) : NULL; c; c = CMSG_NXTHDR(&m, c))
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
            for (size_t k = 0; k < (c->cmsg_len - CMSG_LEN(0)) / sizeof(int); k++) {
                int fd;
                memcpy(&fd, CMSG_DATA(c) + k * sizeof(int), sizeof fd);
                if (given < 3)
                    fds[given++] = fd;
                else
                    close(fd);
            }
    int whole = n == (ssize_t)sizeof *got && got->magic == CR_SANDBOX__MAGIC && !(m.msg_flags & MSG_CTRUNC) &&
                (got->kind == CR_SANDBOX__KILL || (got->kind == CR_SANDBOX__RUN && given == 3));
    if (!whole || got->kind != CR_SANDBOX__RUN)
        for (int k = 0; k < given; k++)
            close(fds[k]);
    return whole;
}

/* Kills every process of the sandbox but the init and reaps them all (as
 * pid 1 it is the parent of every orphan): none is left on return.  A
 * process forked while kill runs is killed with its parent, or is killed
 * next time round. */
static void kill_all(void)
{
    do
        kill(-1, SIGKILL);
    while (waitpid(-1, NULL, 0) > 0 || errno == EINTR);
}

/* Waits for the program, killing everything in the sandbox (but the init)
 * once its CPU time passes the limit or coinrow asks, and sends a PROGRESS
 * record at each look; its wait status and rusage into the ENDED record
 * *end.  0, or -1 when coinrow closed the socket. */
static int watch(cr_sandbox__record *end, pid_t pid, int pidfd, const orders *o)
{
    clockid_t clock;
    int has_clock = clock_getcpuclockid(pid, &clock) == 0, most = 0, gone = 0;
    cr_sandbox__record progress = *end;
    progress.kind = CR_SANDBOX__PROGRESS;
    tell(&progress);
    for (;;) {
        struct pollfd p[2] = {{pidfd, POLLIN, 0}, {CR_SANDBOX__SOCKET_FD, POLLIN, 0}};
        int ready = poll(p, gone ? 1 : 2, CR_CHILD_CHECK_MS);
        if (ready > 0 && p[0].revents)
            break;
        if (ready > 0 && p[1].revents) {
            cr_sandbox__record asked;
            int fds[3];
            gone = !take_request(&asked, fds);
            if (!gone && asked.kind == CR_SANDBOX__RUN) /* one program at a time */
                for (int k = 0; k < 3; k++)
                    close(fds[k]);
            kill(-1, SIGKILL);
            continue;
        }
        progress.cpu_seconds = has_clock ? seconds_of(clock) : 0;
        if (!(end->flags & CR_SANDBOX__CPU_KILLED) && progress.cpu_seconds > o->cpu_seconds) {
            kill(-1, SIGKILL);
            end->flags |= CR_SANDBOX__CPU_KILLED;
        }
        sandbox_full(end, &most);
        progress.peak_kib = peak_of(pid);
        tell(&progress);
    }
    /* what it left is counted before it goes */
    sandbox_full(end, &most);
    int status = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR)
        ;
    end->kind = CR_SANDBOX__ENDED;
    end->wait_status = status;
    end->cpu_seconds = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
                       (double)ru.ru_stime.tv_usec / 1e6;
    end->peak_kib = ru.ru_maxrss;
    end->flags |= most >= o->processes ? CR_SANDBOX__PROCESSES : 0;
    return gone ? -1 : 0;
}

/* Removes what the folder open at dir holds, going depth folders down at
 * most, its folders made writable first (nothing else runs: no race).  0,
 * or -1 when something is left. */
static int empty(int dir, int depth)
{
    DIR *d = depth > 0 ? fdopendir(dup(dir)) : NULL;
    if (!d)
        return -1;
    int rc = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        struct stat st;
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 || unlinkat(dir, e->d_name, 0) == 0)
            continue;
        if (fstatat(dir, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode) ||
            fchmodat(dir, e->d_name, 0700, 0) != 0) {
            rc = -1;
            continue;
        }
        int sub = openat(dir, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub < 0 || empty(sub, depth - 1) != 0 || unlinkat(dir, e->d_name, AT_REMOVEDIR) != 0)
            rc = -1;
        if (sub >= 0)
            close(sub);
    }
    closedir(d);
    return rc;
}

/* The folder at path emptied and given its mode again. */
static int empty_folder(const char *path, mode_t mode)
{
    int dir = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0 && (chmod(path, 0700) != 0 || (dir = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0))
        return -1;
    int rc = fchmod(dir, 0700) == 0 && empty(dir, 64) == 0 && fchmod(dir, mode) == 0 ? 0 : -1;
    close(dir);
    return rc;
}

/* Removes the System V objects of the sandbox's IPC namespace (its /proc
 * lists them: a key, then the id), which outlive their makers. */
static void remove_ipc(void)
{
    static const char *const lists[] = {"/proc/sysvipc/shm", "/proc/sysvipc/sem", "/proc/sysvipc/msg"};
    for (int k = 0; k < 3; k++) {
        FILE *list = fopen(lists[k], "re");
        char line[512];
        for (int first = 1; list && fgets(line, sizeof line, list); first = 0) {
            long long key;
            int id;
            if (first || sscanf(line, "%lld %d", &key, &id) != 2)
                continue;
            if (k == 0)
                shmctl(id, IPC_RMID, NULL);
            else if (k == 1)
                semctl(id, 0, IPC_RMID);
            else
                msgctl(id, IPC_RMID, NULL);
        }
        if (list)
            fclose(list);
    }
}

/* Leaves the sandbox as the next program is to find it: no process, empty
 * folders, no IPC object, no key in the keyrings its user shares.  0, or
 * -1 when a folder cannot be emptied. */
static int clean(const orders *o, const mode_t modes[2])
{
    kill_all();
    remove_ipc();
    static const int keyrings[] = {KEY_SPEC_SESSION_KEYRING, KEY_SPEC_USER_KEYRING, KEY_SPEC_USER_SESSION_KEYRING};
    for (int k = 0; k < 3; k++)
        syscall(SYS_keyctl, KEYCTL_CLEAR, keyrings[k]);
    return empty_folder("/tmp", modes[0]) == 0 && (o->keep || empty_folder("/box", modes[1]) == 0) ? 0 : -1;
}

/* Tells coinrow, on the program's standard error (its own), why the
 * program was not run. */
static void refuse(cr_sandbox__record *end, int err_fd, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void refuse(cr_sandbox__record *end, int err_fd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dprintf(err_fd, "coinrow: ");
    vdprintf(err_fd, fmt, ap);
    dprintf(err_fd, "\n");
    va_end(ap);
    end->flags |= CR_SANDBOX__NOT_STARTED;
}

/* Runs the program once on the descriptors fds (closed here), or in check
 * mode checks it is there to run, cleans up after it and sends the ENDED
 * record.  0, or -1 when the box is to end: coinrow closed the socket
 * meanwhile, or the sandbox could not be cleaned (ENDED says so). */
static int serve(const orders *o, const mode_t modes[2], int fds[3])
{
    cr_sandbox__record end = {.magic = CR_SANDBOX__MAGIC, .kind = CR_SANDBOX__ENDED};
    pid_t pid = -1;
    int pidfd = -1, rc = 0;
    cr_error err = {0};
    if (o->check) {
        if (access(o->argv[0], X_OK) != 0)
            refuse(&end, fds[2], "cannot run %s: %s", o->argv[0], strerror(errno));
    } else {
        /* /proc/self is its own to write while it is dumpable, and no
         * program runs */
        prctl(PR_SET_DUMPABLE, 1);
        end.floor_kib = cr_child__reset_peak();
        prctl(PR_SET_DUMPABLE, 0);
        cr_child__spec spec = {.path = o->argv[0], .argv = o->argv, .fds = {fds[0], fds[1], fds[2]}, .nfds = 3,
                               .new_session = 1, .cpu_seconds = o->cpu_seconds, .memory_bytes = o->memory_bytes,
                               .processes = o->processes, .file_bytes = o->file_bytes, .no_queues = 1};
        if (cr_child__start(&pid, &spec, &err) != 0)
            refuse(&end, fds[2], "%s", err.msg);
        else if ((pidfd = pidfd_open(pid, 0)) < 0)
            refuse(&end, fds[2], "cannot watch %s (pidfd_open: %s)", o->argv[0], strerror(errno));
    }
    /* its standard input, output and error are the program's alone now:
     * it sees the end of its input, coinrow the end of its output */
    for (int k = 0; k < 3; k++)
        close(fds[k]);
    if (pidfd >= 0) {
        rc = watch(&end, pid, pidfd, o);
        close(pidfd);
    }
    if (clean(o, modes) != 0) {
        end.flags |= CR_SANDBOX__BOX_ENDS;
        rc = -1;
    }
    tell(&end);
    return rc;
}

int cr_sandbox_init(int argc, char **argv, cr_error *err)
{
    orders o = {0};
    struct stat socket, tmp, box;
    int rc = read_orders(&o, argc, argv, err);
    if (rc)
        return rc;
    if (getpid() != 1 || fstat(CR_SANDBOX__SOCKET_FD, &socket) != 0 || !S_ISSOCK(socket.st_mode))
        return cr_errorf(err, CR_EINVAL, "%s is coinrow's own, the init of invoke --sandbox's sandbox",
                         CR_SANDBOX_INIT);
    if (stat("/tmp", &tmp) != 0 || stat("/box", &box) != 0)
        return cr_errorf(err, CR_EIO, "%s: the sandbox has no /tmp or /box", CR_SANDBOX_INIT);
    const mode_t modes[2] = {tmp.st_mode & 07777, box.st_mode & 07777};
    close(CR_SANDBOX__INIT_FD);
    fcntl(CR_SANDBOX__SOCKET_FD, F_SETFD, FD_CLOEXEC);
    prctl(PR_SET_NAME, "coinrow-init"); /* executed as /proc/self/fd/4, it would be called "4" */
    /* the program runs as the same user: it may not read the init's memory
     * or descriptors (the socket to coinrow), nor trace it */
    prctl(PR_SET_DUMPABLE, 0);
    for (;;) {
        cr_sandbox__record asked;
        int fds[3];
        if (!take_request(&asked, fds))
            break;
        if (asked.kind != CR_SANDBOX__RUN) /* a kill that came after its program ended */
            continue;
        if (serve(&o, modes, fds) != 0)
            break;
    }
    kill_all();
    return 0;
}

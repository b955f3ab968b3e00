/* coinrow as the sandbox's init, pid 1 inside bwrap's namespaces
 * (sandbox.h): the program started under its limits, its CPU time watched,
 * what wait4 says of it sent to coinrow, and whatever it left killed. */
#define _GNU_SOURCE /* pidfd_open */
#include "invoke/invoke.h"

#include <ctype.h>
#include <dirent.h>
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
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "invoke/sandbox.h"
#include "util/util.h"

/* What cr_sandbox_new wrote after CR_SANDBOX_INIT (sandbox.c's
 * command_line): the mode, the limits, the program and its arguments. */
typedef struct orders {
    int check;
    double cpu_seconds;
    uint64_t memory_bytes;
    int processes;
    uint64_t file_bytes;
    char **argv; /* argv[0] is the path to execute */
} orders;

static int read_orders(orders *out, int argc, char **argv, cr_error *err)
{
    char *end_cpu = NULL, *end_memory = NULL, *end_processes = NULL, *end_files = NULL;
    if (argc < 7 || (strcmp(argv[1], "run") != 0 && strcmp(argv[1], "check") != 0))
        return cr_errorf(err, CR_EINVAL, "%s takes what invoke --sandbox gives it", CR_SANDBOX_INIT);
    errno = 0;
    out->check = strcmp(argv[1], "check") == 0;
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

static void send(const cr_sandbox__record *r)
{
    while (write(CR_SANDBOX__REPORT_FD, r, sizeof *r) < 0 && errno == EINTR)
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

/* Waits for the program, killing everything in the sandbox (but the init)
 * once its CPU time passes the limit, and sends a PROGRESS record at each
 * look; its wait status and rusage into the ENDED record *end. */
static void watch(cr_sandbox__record *end, pid_t pid, int pidfd, const orders *o)
{
    clockid_t clock;
    int has_clock = clock_getcpuclockid(pid, &clock) == 0, most = 0;
    cr_sandbox__record progress = *end;
    progress.kind = CR_SANDBOX__PROGRESS;
    send(&progress);
    for (;;) {
        struct pollfd p = {pidfd, POLLIN, 0};
        int ready = poll(&p, 1, CR_CHILD_CHECK_MS);
        if (ready > 0)
            break;
        progress.cpu_seconds = has_clock ? seconds_of(clock) : 0;
        if (!(end->flags & CR_SANDBOX__CPU_KILLED) && progress.cpu_seconds > o->cpu_seconds) {
            kill(-1, SIGKILL);
            end->flags |= CR_SANDBOX__CPU_KILLED;
        }
        sandbox_full(end, &most);
        progress.peak_kib = peak_of(pid);
        send(&progress);
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
}

int cr_sandbox_init(int argc, char **argv, cr_error *err)
{
    orders o = {0};
    struct stat report;
    int rc = read_orders(&o, argc, argv, err);
    if (rc)
        return rc;
    if (getpid() != 1 || fstat(CR_SANDBOX__REPORT_FD, &report) != 0 || !S_ISFIFO(report.st_mode))
        return cr_errorf(err, CR_EINVAL, "%s is coinrow's own, the init of invoke --sandbox's sandbox",
                         CR_SANDBOX_INIT);
    close(CR_SANDBOX__INIT_FD);
    fcntl(CR_SANDBOX__REPORT_FD, F_SETFD, FD_CLOEXEC);
    prctl(PR_SET_NAME, "coinrow-init"); /* executed as /proc/self/fd/4, it would be called "4" */
    cr_sandbox__record end = {.magic = CR_SANDBOX__MAGIC, .kind = CR_SANDBOX__ENDED};
    if (o.check) {
        if (access(o.argv[0], X_OK) != 0)
            return cr_errorf(err, CR_EIO, "cannot run %s: %s", o.argv[0], strerror(errno));
        send(&end);
        return 0;
    }
    /* (while /proc/self is still its own to write) */
    end.floor_kib = cr_child__reset_peak();
    /* the program runs as the same user: it may not read the init's memory
     * or descriptors (the pipe to coinrow), nor trace it */
    prctl(PR_SET_DUMPABLE, 0);
    cr_child__spec spec = {.path = o.argv[0], .argv = o.argv, .fds = {0, 1, 2}, .nfds = 3, .new_session = 1,
                           .cpu_seconds = o.cpu_seconds, .memory_bytes = o.memory_bytes, .processes = o.processes,
                           .file_bytes = o.file_bytes};
    pid_t pid;
    if ((rc = cr_child__start(&pid, &spec, err)) != 0)
        return rc;
    int pidfd = pidfd_open(pid, 0);
    if (pidfd < 0) {
        kill(-1, SIGKILL);
        return cr_errorf(err, CR_EIO, "cannot watch %s (pidfd_open: %s)", o.argv[0], strerror(errno));
    }
    /* its standard input, output and error are the program's alone now:
     * it sees the end of its input, coinrow the end of its output */
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    for (int k = 0; k < 3 && null >= 0; k++)
        dup2(null, k);
    watch(&end, pid, pidfd, &o);
    send(&end);
    kill(-1, SIGKILL); /* what it left: the rest of the sandbox */
    return 0;
}

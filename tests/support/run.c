#define _GNU_SOURCE /* syscall: tgkill, for run_signal */
#include "support/run.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "support/files.h"

const char *run_bin(void)
{
    const char *bin = getenv("CR_BIN");
    return bin && *bin ? bin : "build/coinrow";
}

typedef struct buffer {
    char *data;
    size_t len, cap;
} buffer;

static int append(buffer *b, const char *data, size_t len)
{
    if (b->len + len + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (b->len + len + 1 > cap)
            cap *= 2;
        char *p = realloc(b->data, cap);
        if (!p)
            return -1;
        b->data = p;
        b->cap = cap;
    }
    memcpy(b->data + b->len, data, len);
    b->len += len;
    b->data[b->len] = '\0';
    return 0;
}

int run_capture(run_result *out, char *const argv[], const char *input)
{
    return run_capture_in(out, NULL, argv, input);
}

int run_status(char *const argv[], const char *input_file)
{
    char *text = input_file ? read_text(input_file) : NULL;
    run_result r;
    int status = -1;
    if ((!input_file || text) && run_capture(&r, argv, text) == 0) {
        status = r.status;
        run_result_free(&r);
    }
    free(text);
    return status;
}

int run_capture_in(run_result *out, const char *dir, char *const argv[], const char *input)
{
    /* a program named relative to here, found from here */
    char program[8192], here[4096];
    int relative = dir && strchr(argv[0], '/') && argv[0][0] != '/';
    if (relative && (!getcwd(here, sizeof here) ||
                     (size_t)snprintf(program, sizeof program, "%s/%s", here, argv[0]) >= sizeof program))
        return -1;
    int in[2], o[2], e[2];
    if (pipe(in) || pipe(o) || pipe(e))
        return -1;
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        dup2(in[0], 0);
        dup2(o[1], 1);
        dup2(e[1], 2);
        close(in[0]), close(in[1]), close(o[0]), close(o[1]), close(e[0]), close(e[1]);
        if (dir && chdir(dir) != 0)
            _exit(127);
        execvp(relative ? program : argv[0], argv);
        _exit(127);
    }
    close(in[0]), close(o[1]), close(e[1]);
    signal(SIGPIPE, SIG_IGN);
    size_t in_len = input ? strlen(input) : 0, in_off = 0;
    if (in_len == 0)
        close(in[1]), in[1] = -1;
    buffer bo = {0}, be = {0};
    append(&bo, "", 0), append(&be, "", 0);
    struct pollfd fds[3] = {{o[0], POLLIN, 0}, {e[0], POLLIN, 0}, {in[1], POLLOUT, 0}};
    while (fds[0].fd >= 0 || fds[1].fd >= 0) {
        if (poll(fds, 3, -1) < 0 && errno != EINTR)
            break;
        for (int k = 0; k < 2; k++) {
            if (fds[k].fd < 0 || !fds[k].revents)
                continue;
            char chunk[65536];
            ssize_t got = read(fds[k].fd, chunk, sizeof chunk);
            if (got > 0)
                append(k == 0 ? &bo : &be, chunk, (size_t)got);
            else
                close(fds[k].fd), fds[k].fd = -1;
        }
        if (fds[2].fd >= 0 && fds[2].revents) {
            ssize_t put = write(fds[2].fd, input + in_off, in_len - in_off);
            if (put > 0)
                in_off += (size_t)put;
            if (put <= 0 || in_off == in_len)
                close(fds[2].fd), fds[2].fd = -1;
        }
    }
    if (fds[2].fd >= 0)
        close(fds[2].fd);
    out->status = run_wait(pid);
    out->out = bo.data;
    out->err = be.data;
    return 0;
}

int run_coinrow(run_result *out, const char *input, ...)
{
    char *argv[64];
    int argc = 0;
    argv[argc++] = (char *)run_bin();
    va_list ap;
    va_start(ap, input);
    for (char *a; argc < 63 && (a = va_arg(ap, char *)) != NULL;)
        argv[argc++] = a;
    va_end(ap);
    argv[argc] = NULL;
    return run_capture(out, argv, input);
}

int run_coinrow_args(run_result *out, const char *input, const char *const *args)
{
    char *argv[32] = {(char *)run_bin()};
    for (int k = 0; k < 30 && args[k]; k++)
        argv[k + 1] = (char *)args[k];
    return run_capture(out, argv, input);
}

void run_result_free(run_result *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

void run_signal(pid_t pid, int sig) { syscall(SYS_tgkill, pid, pid, sig); }

pid_t run_start(char *const argv[], const char *log)
{
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    int in = open("/dev/null", O_RDONLY), out = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);
    dup2(in, 0);
    dup2(out, 1);
    dup2(out, 2);
    execvp(argv[0], argv);
    _exit(127);
}

/* Starts argv with /dev/null for its input and output and the pipe e's
 * write end for its standard error; closes that end here. */
static pid_t start_into_stderr(char *const argv[], const int e[2])
{
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        dup2(null, 0);
        dup2(null, 1);
        dup2(e[1], 2);
        close(e[0]), close(e[1]), close(null);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(e[1]);
    return pid;
}

pid_t run_start_held(char *const argv[], size_t after, int *out_held)
{
    int e[2];
    if (pipe(e))
        return -1;
    /* fill the pipe without blocking, whole pages; then, when the child is
     * to write `after` bytes first, take a page back and put in what leaves
     * that room in the last one (writes join the last page while they fit
     * in it, else wait for a page of their own); then let writes block */
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    char *filler = calloc(1, page);
    if (!filler || after >= page) {
        free(filler);
        close(e[0]), close(e[1]);
        return -1;
    }
    fcntl(e[1], F_SETFL, O_NONBLOCK);
    while (write(e[1], filler, page) > 0)
        ;
    if (after && (read(e[0], filler, page) != (ssize_t)page || write(e[1], filler, page - after) != (ssize_t)(page - after))) {
        free(filler);
        close(e[0]), close(e[1]);
        return -1;
    }
    free(filler);
    fcntl(e[1], F_SETFL, 0);
    pid_t pid = start_into_stderr(argv, e);
    *out_held = e[0];
    return pid;
}

long run_preamble(char *const argv[])
{
    int e[2];
    if (pipe(e))
        return -1;
    pid_t pid = start_into_stderr(argv, e);
    long before = 0;
    char c;
    ssize_t got;
    while ((got = read(e[0], &c, 1)) == 1 && c != '\r')
        before++;
    if (pid > 0) {
        kill(pid, SIGKILL);
        run_wait(pid);
    }
    close(e[0]);
    return got == 1 ? before : -1;
}

char *run_release(int held)
{
    buffer b = {0};
    append(&b, "", 0);
    char chunk[65536];
    ssize_t got;
    while ((got = read(held, chunk, sizeof chunk)) != 0)
        if (got > 0)
            append(&b, chunk, (size_t)got);
        else if (errno != EINTR)
            break;
    close(held);
    /* the filler: NUL bytes, before anything the child wrote */
    size_t skip = 0;
    while (skip < b.len && b.data[skip] == '\0')
        skip++;
    memmove(b.data, b.data + skip, b.len - skip + 1);
    return b.data;
}

int run_wait(pid_t pid)
{
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int run_ended(pid_t pid)
{
    siginfo_t info = {0};
    return waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid == pid;
}

/* Whether one process of /proc matches, now. */
static int one_alive(pid_t group, const char *name)
{
    int found = 0;
    DIR *proc = opendir("/proc");
    for (struct dirent *e; proc && !found && (e = readdir(proc)) != NULL;) {
        if (!isdigit((unsigned char)e->d_name[0]))
            continue;
        char path[300], stat[512], state;
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        size_t len = f ? fread(stat, 1, sizeof stat - 1, f) : 0;
        if (f)
            fclose(f);
        stat[len] = '\0';
        int ppid, pgrp;
        const char *open = strchr(stat, '('), *close = strrchr(stat, ')');
        if (!open || !close || close < open || sscanf(close, ") %c %d %d", &state, &ppid, &pgrp) != 3)
            continue;
        found = state != 'Z' && (!group || pgrp == group) &&
                (!name || ((size_t)(close - open - 1) == strlen(name) && strncmp(open + 1, name, strlen(name)) == 0));
    }
    if (proc)
        closedir(proc);
    return found;
}

int run_alive(pid_t group, const char *name)
{
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    do {
        if (!one_alive(group, name))
            return 0;
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
        clock_gettime(CLOCK_MONOTONIC, &now);
    } while (now.tv_sec - start.tv_sec < RUN_ALIVE_SECONDS);
    return 1;
}

/* Whether process pid has the file `want` open, now. */
static int has_open(pid_t pid, const struct stat *want)
{
    char fds[64];
    snprintf(fds, sizeof fds, "/proc/%d/fd", (int)pid);
    DIR *d = opendir(fds);
    int found = 0;
    for (struct dirent *e; d && !found && (e = readdir(d)) != NULL;) {
        char link[384];
        struct stat st;
        snprintf(link, sizeof link, "%s/%s", fds, e->d_name);
        found = e->d_name[0] != '.' && stat(link, &st) == 0 && st.st_dev == want->st_dev && st.st_ino == want->st_ino;
    }
    if (d)
        closedir(d);
    return found;
}

int run_wait_open(pid_t pid, const char *path)
{
    struct stat want;
    if (stat(path, &want) != 0)
        return -1;
    const struct timespec pause = {0, 2000000};
    for (int tries = 0; tries < 30000; tries++) {
        if (has_open(pid, &want))
            return 0;
        if (waitpid(pid, NULL, WNOHANG) != 0)
            return -1; /* it ended (or is not our child) */
        nanosleep(&pause, NULL);
    }
    return -1;
}

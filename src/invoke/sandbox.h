/* Private to src/invoke/: what the runner (child.c), the sandbox's maker
 * (sandbox.c) and coinrow's init inside it (init.c) share.
 *
 * Under --sandbox each worker's runner (a cr_child) starts a box at its
 * first run and keeps it for the next: bwrap, started by child.c as any
 * program (as nobody when coinrow is root), which makes the namespaces and
 * the filesystem and executes coinrow itself, read through an inherited
 * file descriptor, as the box's pid 1 ("coinrow sandbox-init", init.c).
 * The init serves one request at a time on a socket: the program's
 * standard input, output and error come with a RUN request; it starts the
 * program under the limits, watches its CPU time, waits for it and sends
 * what wait4 said of it (its own exit status, signal and rusage, which
 * bwrap alone could only give as an exit status of 128 + N for signal N).
 * Before that it kills whatever the program left, empties the working
 * folder and /tmp and removes what else could outlive it; when it cannot,
 * it says so and the box ends, and the runner starts another.  bwrap and the namespaces are made once per worker, not once
 * per instance (about 17 ms on a small VM).  Calls go one way: init.c and
 * sandbox.c call child.c, which only reads what is declared here. */
#ifndef CR_INVOKE_SANDBOX_H
#define CR_INVOKE_SANDBOX_H

#include <stdint.h>
#include <sys/types.h>

#include "coinrow/error.h"

/* The descriptors bwrap, then the init, get beside 0, 1 and 2: the socket
 * of requests and records (AF_UNIX, SOCK_SEQPACKET: one message each),
 * coinrow's own executable, which bwrap executes as /proc/self/fd/4, and
 * the program's copies, which bwrap reads into the box (each opened anew
 * for each box, so that it is read from its start). */
#define CR_SANDBOX__SOCKET_FD 3
#define CR_SANDBOX__INIT_FD 4
#define CR_SANDBOX__COPY_FD 5

/* The user a root coinrow runs bwrap as: nobody. */
#define CR_SANDBOX__HOST_UID 65534

struct cr_sandbox {
    unsigned serial;      /* this process's count of sandboxes made: which box is whose */
    char *bwrap;          /* bwrap's path */
    char **argv;          /* bwrap's arguments: the sandbox, then the init's and the program's */
    char **check_argv;    /* the same, the init told to check the sandbox and exit */
    int init_fd;          /* coinrow's executable (O_PATH) */
    int as_nobody;        /* coinrow is root: bwrap runs as CR_SANDBOX__HOST_UID */
    int copies[2];        /* the program's and an interpreter's source's copies, sealed in memory (memfd),
                             or -1; bwrap gets them at CR_SANDBOX__COPY_FD and up */
    char *inside[2];      /* where the box shows each copy, read-only, or NULL */
};

/* One message on the socket.  From coinrow: RUN, with the program's
 * standard input, output and error (SCM_RIGHTS); KILL, to end the program
 * it runs (ignored between programs).  From the init: PROGRESS right after
 * the program started and every CR_CHILD_CHECK_MS after, ENDED once it is
 * done. */
enum { CR_SANDBOX__PROGRESS = 1, CR_SANDBOX__ENDED = 2, CR_SANDBOX__RUN = 3, CR_SANDBOX__KILL = 4 };
#define CR_SANDBOX__MAGIC 0x63727362u /* "crsb" */

/* Why the program may have failed, beyond its limits (ENDED's flags). */
enum {
    CR_SANDBOX__CPU_KILLED = 1,   /* the init killed it at the CPU limit */
    CR_SANDBOX__TMP_FULL = 2,     /* /tmp had no room left */
    CR_SANDBOX__BOX_FULL = 4,     /* nor the working folder */
    CR_SANDBOX__PROCESSES = 8,    /* the sandbox's processes reached their limit */
    CR_SANDBOX__NOT_STARTED = 16, /* it could not be run: the init said why on its standard error */
    CR_SANDBOX__BOX_ENDS = 32     /* what it left could not all be removed: the box ends */
};

typedef struct cr_sandbox__record {
    uint32_t magic, kind;
    int32_t wait_status;  /* ENDED: the program's, from wait4 */
    uint32_t flags;       /* ENDED: CR_SANDBOX__* */
    double cpu_seconds;   /* user + system so far (ENDED: wait4's) */
    int64_t peak_kib;     /* PROGRESS: its VmHWM; ENDED: wait4's ru_maxrss */
    int64_t floor_kib;    /* the init's own resident size, which ru_maxrss counts */
} cr_sandbox__record;

/* How child.c starts a process, between vfork and exec: for the program
 * itself, for bwrap, and for the init's program inside the sandbox. */
#define CR_CHILD__FDS 7
typedef struct cr_child__spec {
    const char *path;
    char *const *argv;
    const char *dir;        /* where it starts; NULL: here */
    int fds[CR_CHILD__FDS]; /* become its descriptors 0, 1, ...; the others are closed */
    int nfds;
    int new_session;        /* setsid (its own session and group, no terminal), else setpgid (its own group) */
    int as_nobody;          /* root gives up its user and groups for CR_SANDBOX__HOST_UID first */
    double cpu_seconds;     /* RLIMIT_CPU, rounded up to whole seconds; 0: none */
    uint64_t memory_bytes;  /* RLIMIT_AS; 0: none */
    int processes;          /* RLIMIT_NPROC; 0: none */
    uint64_t file_bytes;    /* RLIMIT_FSIZE; 0: none */
    int no_queues;          /* RLIMIT_MSGQUEUE 0: no POSIX message queue, which would outlive it */
} cr_child__spec;

/* Starts spec's process (vfork, then only system calls until exec; killed
 * if its parent thread ends): its pid in *out, or CR_EIO naming it when it
 * cannot be started or executed (nothing is then left running). */
int cr_child__start(pid_t *out, const cr_child__spec *spec, cr_error *err);

/* cr_child_resolve, looking along path_var (NULL: where POSIX shells look)
 * instead of $PATH: the sandbox's PATH for an interpreter. */
int cr_child__resolve_in(char **out, const char *name, const char *dir, const char *path_var, cr_error *err);

/* Resets this process's peak resident size to its current one and returns
 * that, in KiB (-1 when /proc cannot tell): what a program it starts next
 * has counted of it in its ru_maxrss. */
int64_t cr_child__reset_peak(void);

/* Copies the file at from into the open file out (what: its name in a
 * message): 0, or CR_EIO naming what failed (sandbox.c). */
int cr_sandbox__copy(const char *from, int out, const char *what, cr_error *err);

#endif

/* Running the coinrow binary from a test and capturing what it does. */
#ifndef CR_TEST_RUN_H
#define CR_TEST_RUN_H

#include <stddef.h>
#include <sys/types.h>

typedef struct run_result {
    int status;  /* exit status, or 128 + signal number */
    char *out;   /* standard output, NUL-terminated */
    char *err;   /* standard error, NUL-terminated */
} run_result;

/* The binary under test: $CR_BIN, else build/coinrow. */
const char *run_bin(void);

/* Runs argv (argv[0] is the program; NULL-terminated) with `input` on its
 * standard input (NULL: empty), waits, and fills *out.  Returns 0, or -1
 * when the program could not be started. */
int run_capture(run_result *out, char *const argv[], const char *input);

/* The exit status of argv run with the file at input_file (NULL: nothing)
 * on its standard input; -1 when the file cannot be read or argv run. */
int run_status(char *const argv[], const char *input_file);

/* run_capture, the program started in folder dir (a program named with
 * a relative path is found from here). */
int run_capture_in(run_result *out, const char *dir, char *const argv[], const char *input);

/* run_capture of `coinrow ARGS...` (NULL-terminated after input). */
int run_coinrow(run_result *out, const char *input, ...);

void run_result_free(run_result *r);

/* run_capture of `coinrow args...`, args ending at the first NULL (at most
 * 30 of them): for tables of command lines. */
int run_coinrow_args(run_result *out, const char *input, const char *const *args);

/* run_coinrow(r, input, ARGS...) in a cmocka test: fails the test when
 * coinrow cannot be started. */
#define COINROW(r, input, ...) assert_int_equal(run_coinrow(r, input, __VA_ARGS__, (char *)NULL), 0)

/* Starts argv without waiting: standard input from /dev/null, standard
 * output and error to the file `log` (appended to).  Returns the pid, or -1
 * when it could not be started. */
pid_t run_start(char *const argv[], const char *log);

/* Starts argv without waiting, held at its first write to standard error
 * once it has written `after` bytes there (less than a page): standard
 * input from /dev/null, standard output to /dev/null, standard error into
 * a pipe filled to the brim but for those bytes, so that the next write
 * blocks until run_release.  coinrow's first write there after what it
 * says first (run_preamble), with --progress, is the progress line drawn
 * after its first commit: the child is held right after that commit,
 * however fast the machine.  Returns the pid (-1 when it could not be
 * started) and the pipe in *out_held. */
pid_t run_start_held(char *const argv[], size_t after, int *out_held);

/* How many bytes argv writes to standard error before its first progress
 * line (its first '\r'), which it writes the same way every time: it runs
 * until then, and is killed.  -1 when it ended first. */
long run_preamble(char *const argv[]);

/* Lets a held child go on: reads its standard error to the end (its exit)
 * and returns what it wrote there, NUL-terminated, for the caller to free. */
char *run_release(int held);

/* Waits for a process run_start or run_start_held started: its exit status,
 * or 128 + signal. */
int run_wait(pid_t pid);

/* Sends sig to process pid's main thread (tgkill).  A signal sent to the
 * process goes to any of its threads, and all of coinrow's take it alike;
 * but under ThreadSanitizer the process has a thread of the runtime's own,
 * which takes one at times and never passes it on (a SIGINT of
 * test_cli_invoke's was lost about once in 150 runs). */
void run_signal(pid_t pid, int sig);

/* Whether child pid has ended (it stays there for run_wait). */
int run_ended(pid_t pid);

/* How long run_alive waits for the SIGKILLs sent to a process to land: a
 * process going away takes milliseconds, ten times slower too; one left
 * behind (the test programs sleep 60 s) outlives it. */
#define RUN_ALIVE_SECONDS 10

/* Waits until process pid (a child run_start started) has the file at
 * path open: an event, such as its opening of a --from-db input after its
 * signal handlers are in place.  Polls /proc for at most a minute; 0, or -1
 * when it never came or the child ended (it is then reaped). */
int run_wait_open(pid_t pid, const char *path);

/* Whether a process is alive (not a zombie) that is in process group
 * `group` (0: any) and called `name` (its comm; NULL: any), once
 * RUN_ALIVE_SECONDS have passed or none is: what a run left behind. */
int run_alive(pid_t group, const char *name);

#endif

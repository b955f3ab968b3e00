/* Running programs the way a judge does: a command made runnable
 * (submission.c: a program, or one source file built or interpreted as a
 * judge does), run once under limits (child.c), maybe inside a sandbox
 * (sandbox.c, and init.c inside it), its answer judged (verdict.c), and
 * every instance of a set judged on worker threads (invoke.c): coinrow
 * invoke and strength, and the CMS package's build.
 *
 * Without a sandbox a program runs as the user who runs coinrow, with the
 * same files and network; inside one (bubblewrap) it sees none of them
 * (docs/invoke.md, "The sandbox", says what it guarantees and what not).
 * Linux only (the child's exit is watched through a pidfd, Linux 5.3 or
 * later). */
#ifndef CR_INVOKE_H
#define CR_INVOKE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "coinrow/contest.h"
#include "coinrow/error.h"
#include "coinrow/game.h"
#include "coinrow/strategy.h"
#include "judge/judge.h"
#include "store/store.h"

/* ---- a program run once under limits (child.c): an input on its standard
 * input, its standard output read back, in its own process group that is
 * killed whole at the end ---- */

/* How often, at most, the CPU time and the stop flag are looked at. */
#define CR_CHILD_CHECK_MS 20

/* How the program ended. */
typedef enum cr_child_end {
    CR_CHILD_EXITED,        /* by itself: exit_code */
    CR_CHILD_SIGNALED,      /* by a signal (RLIMIT_CPU's SIGXCPU, SIGSEGV, ...): signal */
    CR_CHILD_CPU_KILLED,    /* killed when its CPU time passed the limit */
    CR_CHILD_WALL_KILLED,   /* killed at the wall clock limit */
    CR_CHILD_OUTPUT_KILLED, /* killed for writing more than the output limit */
    CR_CHILD_JURY_KILLED,   /* killed when the game's jury found a fault in its moves (cr_child_play) */
    CR_CHILD_SANDBOX_LOST   /* its sandbox ended before it did (sandbox_note says how) */
} cr_child_end;

typedef struct cr_child_report {
    cr_child_end end;
    int exit_code;          /* CR_CHILD_EXITED */
    int signal;             /* CR_CHILD_SIGNALED, and the SIGKILL of the kills */
    double cpu_seconds;     /* user + system time, from wait4's rusage */
    double wall_seconds;    /* from the start to the end of the program */
    /* The largest resident set, from wait4's rusage.  Linux counts in it
     * the process as it was before exec: coinrow itself, whose high-water
     * mark is reset to its current size before each start (so the figure
     * is at least floor_kib, and a program smaller than that reads as it). */
    int64_t peak_rss_kib;
    int64_t floor_kib;      /* coinrow's resident size when it started the program */
    const char *out;        /* standard output (out_len bytes, then a NUL), valid until the next run */
    size_t out_len;
    char err[CR_STDERR_KEEP + 1]; /* the first bytes of standard error, then a NUL */
    size_t err_len;
    int stdin_closed;       /* the program closed its standard input before reading it all (not an error) */
    /* In a sandbox: what of the sandbox it ran into ("its /tmp was full
     * (32 MiB)"), or why the sandbox ended under it; "" for nothing. */
    char sandbox_note[96];
} cr_child_report;

/* A sandbox to run a program in (sandbox.c, below). */
typedef struct cr_sandbox cr_sandbox;

/* What runs keep between them: the output buffer, and under a sandbox
 * the box its programs run in, one after another (bwrap and coinrow's
 * init: started at the first run, ended with the cr_child).  One per
 * thread, freed by the thread that ran it. */
typedef struct cr_child cr_child;

int cr_child_new(cr_child **out, cr_error *err);

/* Ends its box, if any; accepts NULL. */
void cr_child_free(cr_child *child);

/* Finds the program `name` as a shell would, for running in folder dir: a
 * name with a slash is taken as it is (relative to dir), any other is
 * looked up in PATH.  The path goes to *out (the caller frees it).
 * CR_EINVAL naming the program when there is none that can be run. */
int cr_child_resolve(char **out, const char *name, const char *dir, cr_error *err);

/* Runs the program at path (cr_child_resolve's) with arguments argv
 * (argv[0] first, NULL-terminated) in folder dir, input[0..input_len) on
 * its standard input, under the limits; SIGPIPE must be ignored by the
 * caller's process (a program that closes its standard input early is
 * not an error).  It runs in a new process group, which is killed when
 * the program ends, so that nothing it started is left.  With a sandbox
 * (not NULL) the sandbox's program runs in it instead, in child's box for
 * that sandbox (a new one when it has none, or the last has ended), and
 * path, argv and dir are not used (NULL).  Returns 0 with the report in *out;
 * CR_EINTERRUPTED, the program killed, once *stop (may be NULL) is set;
 * CR_EIO when it cannot be started, saying why (for a sandbox, what bwrap
 * or the sandbox's init said). */
int cr_child_run(cr_child_report *out, cr_child *child, const char *path, char *const argv[], const char *dir,
                 const cr_sandbox *sandbox, const char *input, size_t input_len, const cr_limits *limits,
                 const atomic_int *stop, cr_error *err);

/* cr_child_run of a program that plays the game d (an interactive one):
 * its standard input is what d has to send, written without blocking as
 * it comes, and what it writes goes to d as it comes, not kept (out is
 * ""); the output limit does not apply (the protocol bounds it: a line
 * too long, or anything after the game, is a fault).  It is killed
 * (CR_CHILD_JURY_KILLED) when d finds a fault in what it wrote, and its
 * standard input closed once the game is over. */
int cr_child_play(cr_child_report *out, cr_child *child, const char *path, char *const argv[], const char *dir,
                  const cr_sandbox *sandbox, cr_dialogue *d, const cr_limits *limits, const atomic_int *stop,
                  cr_error *err);

/* ---- invoke --interactive: a game played with the program
 * (judge/judge.h says how) ---- */

/* The jury's seed for the test named ext_id (cr_jury_policy): FNV-1a of
 * the name, or 0 (the optimal jury) when that is a multiple of 3, so that
 * about a third of the tests have the optimal jury and the others a
 * deviating one, the same on every machine and in every database. */
uint64_t cr_invoke_seed(const char *ext_id);

/* ---- verdicts (verdict.c): how a program ended, then the checker on what
 * it wrote ---- */

/* The signal's name ("SIGSEGV"), or "signal N" for one without a name here,
 * into out (16 bytes). */
void cr_verdict_signal_name(char out[16], int sig);

/* Judges a program's run on the instance whose input file is
 * input[0..input_len), against the jury's answer, in this order:
 *   OLE  killed for writing more than the output limit;
 *   TLE  its CPU time over the limit, SIGXCPU, or killed at the wall clock;
 *   RE   a non-zero exit or a signal after the program ran into a limit
 *        of its sandbox (the note says which), or its sandbox ended under it;
 *   MLE  a non-zero exit or a signal with a peak resident set of at least
 *        three quarters of the memory limit: under RLIMIT_AS an allocation
 *        beyond the limit fails inside the program, which then crashes or
 *        gives up, and only how much it held tells that apart from a bug;
 *   RE   any other non-zero exit or signal;
 *   then the checker's AC, WA or PE on its output (cr_judge_answer).
 * The message says what ended the program and what the checker said of
 * whatever it wrote (but for OLE: that is cut); stderr is kept as safe
 * text.  Returns 0 with the row in *out, or why the check itself failed
 * (the jury is at fault). */
int cr_verdict_program(cr_verdict_row *out, const cr_child_report *run, const cr_limits *limits,
                       const char *input, size_t input_len, const char *jury, size_t jury_len, cr_variant variant,
                       cr_check_moves moves, cr_error *err);

/* Judges a program's game d (cr_child_play's): OLE, TLE, RE and MLE as
 * cr_verdict_program when no fault in its moves came first (a fault is
 * the verdict, whatever ended the program after it), with where the game
 * stood (and, killed at the wall clock, whether it was idle on its move);
 * then for a program that exited 0, the game: PE for a line that is not L
 * or R, or one too long; WA for a move on the jury's turn, output after
 * the game, output that ends mid-game, or a move that is not optimal
 * (the jury's judgement, naming the first bad turn); else AC.  Returns 0
 * with the row in *out, or the jury's own failure. */
int cr_verdict_play(cr_verdict_row *out, const cr_child_report *run, const cr_limits *limits, cr_dialogue *d,
                    cr_error *err);

/* Judges a built-in strategy's answer the way a program's is: plays the
 * instance coins[0..n), whose input file is input[0..input_len), writes the
 * value and the line as a program would, and checks that against the jury's
 * answer.  A value beyond int64 is RE.  Times are the strategy's own (this
 * thread's CPU time).  Returns 0 with the row in *out, or why the check
 * itself failed. */
int cr_verdict_builtin(cr_verdict_row *out, cr_strategy strategy, const int64_t *coins, size_t n, const char *input,
                       size_t input_len, const char *jury, size_t jury_len, cr_variant variant, cr_check_moves moves,
                       cr_error *err);

/* Judges a built-in strategy playing the game d (an interactive one) on
 * coins[0..n): it reads the row, moves by its rule (cr_strategy_player)
 * on its turns and reads the jury's moves on the others, all in this
 * thread, then is judged as cr_verdict_play judges a program that exited
 * 0.  Times are the strategy's own and the jury's.  Returns 0 with the row
 * in *out, or the jury's own failure. */
int cr_verdict_builtin_play(cr_verdict_row *out, cr_strategy strategy, const int64_t *coins, size_t n,
                            cr_variant variant, cr_dialogue *d, cr_error *err);

/* ---- a command that is one source file (submission.c): built and run the
 * way a judge does ---- */

typedef enum cr_language {
    CR_LANG_NONE,   /* not one source file: a program run as it is */
    CR_LANG_C,      /* .c: $CC -O2 -std=gnu11 -o PROGRAM SOURCE -lm (DOMjudge's flags) */
    CR_LANG_CPP,    /* .cc, .cpp, .cxx: $CXX -O2 -std=gnu++17 -o PROGRAM SOURCE */
    CR_LANG_PYTHON, /* .py: python3 SOURCE */
    CR_LANG_COUNT
} cr_language;

/* The language of a command (NULL-terminated argv) that is one source file,
 * by its extension; CR_LANG_NONE for anything else. */
cr_language cr_submission_language(char *const *argv);

/* The command that builds a language's sources with args after it
 * (NULL-terminated), the one rule of every build coinrow starts (a
 * submission's, the CMS package's checker): the compiler is $CC for C and
 * $CXX for C++ when set and not blank, split at blanks as make splits it
 * ("gcc -m32", "ccache gcc"), else cc and c++; its first word is found on
 * PATH as cr_child_resolve finds a program.  One allocation, to free();
 * NULL for a language not compiled, or out of memory. */
char **cr_submission_compiler(cr_language lang, char *const args[]);

/* How a build that failed ended. */
typedef struct cr_build_failure {
    int signal;     /* the signal that ended the compiler, or 0 */
    int exit_code;  /* its exit status, when no signal */
    char said[256]; /* the first line of its standard error that has "error" in it, else its first line */
} cr_build_failure;

/* Runs the build command argv (argv[0] the compiler, resolved by
 * cr_child_resolve) in folder dir (NULL: here) under cr_child_run, with two
 * minutes of CPU time and no memory limit; with sandbox_init (a coinrow
 * executable, see cr_sandbox_opts) inside a sandbox whose working folder is
 * dir, where it may write files of up to CR_SANDBOX_BUILD_MIB, and sees
 * nothing else of the machine's but the system folders.  Returns 0 when it
 * exits 0; 1 when it fails, with how in *out; or CR_EINVAL when the
 * compiler cannot be run (err says why; for a sandbox, as cr_sandbox_new),
 * CR_EIO when it cannot be started. */
int cr_submission_compile(cr_build_failure *out, char *const argv[], const char *dir, const char *sandbox_init,
                          cr_error *err);

/* What to execute for a command given in folder dir. */
typedef struct cr_submission cr_submission;

/* Makes the command runnable: a program is looked up as a shell would
 * (cr_child_resolve); a C or C++ source is built into a private folder of
 * $TMPDIR (removed by cr_submission_unlink or cr_submission_free), its
 * compiler's complaint in err when it
 * does not build (CR_EINVAL); a Python source runs under python3, looked
 * up in PATH.  For a program to run in a sandbox, sandbox_init is the
 * sandbox's init (cr_sandbox_opts; NULL: no sandbox): a source is then
 * built in a sandbox too, from a copy of it (a hostile source could
 * otherwise have the compiler read the jury's files into the program),
 * and python3 is the one of the sandbox's PATH, CR_SANDBOX_PATH. */
int cr_submission_new(cr_submission **out, char *const *argv, const char *dir, const char *sandbox_init,
                      cr_error *err);

/* Removes the folder a source was built in at once, holding the program
 * open: it runs from then on as /proc/self/fd/N, and coinrow killed, even by
 * SIGKILL, leaves no build behind.  A sandbox copies the program by its
 * path, so this comes after cr_sandbox_new.  Nothing to do (0) for a
 * command that was not built; CR_EIO or CR_ENOMEM when the program cannot
 * be held, the folder then kept for cr_submission_free. */
int cr_submission_unlink(cr_submission *s, cr_error *err);

/* The file to execute, and the arguments it gets (argv[0] first; for a
 * program, the command's own argv, which must outlive s). */
const char *cr_submission_path(const cr_submission *s);
char *const *cr_submission_argv(const cr_submission *s);

/* The source an interpreter runs (one of the arguments, as given: relative
 * to the command's folder), or NULL for a program that is not one. */
const char *cr_submission_script(const cr_submission *s);

/* ---- the sandbox (sandbox.c; init.c inside it): bubblewrap's namespaces,
 * and coinrow as the sandbox's init ---- */

/* What a sandboxed program sees as PATH (the folders it is given). */
#define CR_SANDBOX_PATH "/usr/local/bin:/usr/bin:/bin"
/* Its user and group inside its user namespace. */
#define CR_SANDBOX_UID 60000
/* Its working folder and its /tmp: each a tmpfs of this many MiB. */
#define CR_SANDBOX_FILES_MIB 32
/* The largest file a build in a sandbox may write, in MiB (its program). */
#define CR_SANDBOX_BUILD_MIB 64
/* Processes and threads of its user in the sandbox (RLIMIT_NPROC), the
 * init's and its own included. */
#define CR_SANDBOX_PROCESSES 64
/* The first argument that makes coinrow the sandbox's init (cli/main.c). */
#define CR_SANDBOX_INIT "sandbox-init"

/* What a sandbox runs, and where. */
typedef struct cr_sandbox_opts {
    const char *path;    /* the file to execute (relative to dir when not absolute) */
    char *const *argv;   /* its arguments, argv[0] first */
    const char *script;  /* the one of argv that is an interpreter's source, shown to it read-only too; or NULL */
    const char *dir;     /* the folder path and script are relative to; NULL: here */
    const char *work;    /* a folder of this machine for its working folder, writable (a build's); NULL: an
                            empty tmpfs of CR_SANDBOX_FILES_MIB */
    uint64_t file_bytes; /* the largest file it may write (RLIMIT_FSIZE); 0: no limit but the tmpfs's */
    const char *init;    /* a coinrow executable, the sandbox's init (coinrow's own: /proc/self/exe) */
    const cr_limits *limits;
} cr_sandbox_opts;

/* Makes a sandbox for the program o describes: finds bwrap in PATH,
 * copies what is not in the system folders the sandbox shows (the program,
 * an interpreter's source) into sealed memory files, and runs the
 * sandbox once with the init checking it, so that one that cannot work is
 * refused before anything is judged.  CR_EINVAL when bwrap is missing, too
 * old or cannot create namespaces, saying which and how to install or
 * enable it; CR_EIO for anything else it cannot do.  Free with
 * cr_sandbox_free. */
int cr_sandbox_new(cr_sandbox **out, const cr_sandbox_opts *o, cr_error *err);

/* Frees the sandbox and its copies; accepts NULL. */
void cr_sandbox_free(cr_sandbox *sandbox);

/* coinrow as the sandbox's init (argv[0] is CR_SANDBOX_INIT, and what
 * cr_sandbox_new wrote follows): it must be pid 1 of its pid namespace.
 * For each request on the inherited socket it starts the program under its
 * limits, in a session of its own, on the descriptors that came with it,
 * kills it at its CPU limit or when asked, reports to coinrow, and leaves
 * the sandbox as the next program is to find it (sandbox.h); in check mode
 * it only checks that the program is there to run.  Returns 0 once coinrow
 * closes the socket or the sandbox cannot be cleaned (it said so);
 * CR_EINVAL (arguments not cr_sandbox_new's, or not pid 1) or CR_EIO (no
 * /tmp or /box), saying why, with nothing served. */
int cr_sandbox_init(int argc, char **argv, cr_error *err);

/* Removes what was built and closes the program; accepts NULL. */
void cr_submission_free(cr_submission *s);

/* ---- a whole set (invoke.c) ---- */

/* What this session has judged so far. */
typedef struct cr_invoke_stats {
    uint64_t judged;                          /* verdicts committed */
    uint64_t counts[CR_INVOKE_VERDICT_COUNT]; /* of them, per verdict */
    uint64_t left;                            /* instances left to judge */
    uint64_t unanswered;                      /* instances the answers run has no answer for: not judged */
} cr_invoke_stats;

typedef struct cr_invoke_opts {
    /* The program to run: its path (cr_child_resolve's) and the arguments it
     * gets (argv[0] first, NULL-terminated); path NULL for the built-in
     * strategy of the invocation. */
    const char *path;
    char *const *argv;
    const cr_sandbox *sandbox; /* the program runs in it (path and argv are then its), or NULL */
    const atomic_int *stop; /* may be NULL; once set, running programs are killed and nothing new starts */
    /* Called on the caller's thread after each commit (may be NULL). */
    void (*progress)(void *ctx, const cr_invoke_stats *stats);
    void *ctx;
} cr_invoke_opts;

/* The file descriptors cr_invoke_run opens beside its store's database:
 * the store's WAL and shared memory, the reader's connection (its database
 * and WAL); for programs (not a built-in) the runner's own four, and for
 * each of `jobs` programs running at once its pipes (input, output, error,
 * and the status pipe while it starts) and its pidfd: measured, at the
 * least limit (ulimit -n) that runs.  A command asks for them
 * (cr_files_spare) before it records the invocation, so that a limit too
 * low refuses it whole. */
#define CR_INVOKE_FILES(jobs, programs) (4 + ((programs) ? 4 + 8 * (jobs) : 0))

/* Judges every instance of the invocation's set that it has not judged yet,
 * against the answers of its answers run, with inv->jobs programs at once
 * (the store's own thread reads the instances and writes the verdicts; a
 * second connection to the same database reads).  Verdicts are committed in
 * batches at least twice a second, so that a stop or a kill loses only
 * those in hand; an instance is judged once.  Returns 0; CR_EINTERRUPTED
 * after a stop, with what was judged committed; or the first error (a
 * program that cannot be started, a check the jury's answer fails, the
 * database). */
int cr_invoke_run(cr_invoke_stats *out, cr_store *store, const cr_invocation *inv, const cr_invoke_opts *opts,
                  cr_error *err);

/* How strong a set's tests are: every built-in strategy judged on every
 * test (coinrow strength). */
typedef struct cr_strength_of {
    uint64_t broken;                        /* tests that break it: any verdict but AC */
    char first[128];                        /* the first of them (its ext_id) */
    cr_invoke_verdict first_verdict;
    char first_message[CR_VERDICT_MESSAGE_MAX];
} cr_strength_of;

typedef struct cr_strength {
    uint64_t tests;      /* judged */
    uint64_t weak;       /* of them, those that break no strategy */
    uint64_t unanswered; /* instances the answers run has no answer for: not judged */
    cr_strength_of of[CR_STRATEGY_COUNT];
} cr_strength;

/* Called once per test judged: the strategies it breaks, a bit per
 * strategy (1u << s; 0 for a weak test).  ext_id is valid during the call. */
typedef void (*cr_strength_test_fn)(void *ctx, int64_t instance_id, const char *ext_id, unsigned broken);

/* Judges every built-in strategy on every instance of set set_id, in id
 * order, against the answers of run answers_run (cr_verdict_builtin),
 * calling each (may be NULL) for each test.  Returns 0; CR_EINTERRUPTED
 * once *stop (may be NULL) is set; or the first error. */
int cr_strength_run(cr_strength *out, cr_store *store, int64_t set_id, int64_t answers_run, cr_variant variant,
                    cr_check_moves moves, const atomic_int *stop, cr_strength_test_fn each, void *ctx,
                    cr_error *err);

#endif

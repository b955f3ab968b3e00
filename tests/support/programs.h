/* Small contestant programs for judging tests, written here and built by
 * the suite with cc: correct ones, wrong ones, and ones that misbehave in
 * every way a judge must survive.  Each reads an instance in the contest
 * format and answers the diff variant (the value, then the line). */
#ifndef CR_TEST_PROGRAMS_H
#define CR_TEST_PROGRAMS_H

typedef enum program {
    PROGRAM_CORRECT,     /* the value and the canonical line (L whenever it is optimal) */
    PROGRAM_OTHER_LINE,  /* the value and R whenever it is optimal: another optimal line on ties */
    PROGRAM_GREEDY,      /* both players take the larger end */
    PROGRAM_OFF_BY_ONE,  /* the value plus one */
    PROGRAM_SLEEPER,     /* sleeps, using no CPU */
    PROGRAM_SPINNER,     /* an infinite loop */
    PROGRAM_HOG,         /* allocates and touches memory without end, and crashes when it gets none */
    PROGRAM_FLOOD,       /* writes without end */
    PROGRAM_SEGV,        /* writes to stderr, then dereferences NULL */
    PROGRAM_ABORT,       /* an assertion that fails (abort) */
    PROGRAM_CLOSER,      /* closes its standard input at once and prints 0 */
    PROGRAM_FORKER,      /* leaves a child that sleeps behind, and exits 0 */
    PROGRAM_SLOW,        /* correct, after sleeping 20 ms */
    PROGRAM_BUSY,        /* correct, after 30 ms of CPU */
    PROGRAM_EXIT_139,    /* exits with status 139, as a shell reports SIGSEGV */
    PROGRAM_CAPPED,      /* correct (the O(n^2) DP) when n <= argv[1], else an infinite loop: a reference
                            that surely times out on the tests above its cap, on any machine */
    /* Hostile ones, for the sandbox: each tries to reach beyond its own
     * files and, when it gets there, says "escaped: ..." on stderr and
     * exits 42; when it does not, it answers correctly and exits 0 (but
     * for the last two, which exit 1 when refused). */
    PROGRAM_PEEK,        /* reads the file argv[1] (the database, a file beside it) */
    PROGRAM_LITTER,      /* creates a file "littered-PID" in the folder argv[1] */
    PROGRAM_CALLER,      /* connects to 127.0.0.1, port argv[1] */
    PROGRAM_SNOOP,       /* lists its parent's /proc/PID/fd, naming argv[1] when it is there */
    PROGRAM_SIGNALLER,   /* sends SIGTERM to its parent (it cannot tell whether that worked) */
    PROGRAM_BOMB,        /* forks argv[1] children that wait for ever; exit 1 when a fork fails */
    PROGRAM_FILLER,      /* writes argv[1] MiB to a file in /tmp, removed when all is written; exit 1,
                            leaving it, when there is no room */
    PROGRAM_KEEPER,      /* with "plant" on its input adds a key "left" to its session and user keyrings;
                            otherwise prints which of them hold one */
    PROGRAM_COUNT
} program;

/* The program's name, also its source's base name (NAME.c). */
const char *program_name(program p);

/* Writes every program's source into dir (NAME.c) and builds it (NAME);
 * 0, or -1 when a build fails (its output is on stderr). */
int programs_build(const char *dir);

#endif

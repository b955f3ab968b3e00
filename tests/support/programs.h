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
    PROGRAM_COUNT
} program;

/* The program's name, also its source's base name (NAME.c). */
const char *program_name(program p);

/* Writes every program's source into dir (NAME.c) and builds it (NAME);
 * 0, or -1 when a build fails (its output is on stderr). */
int programs_build(const char *dir);

#endif

/* coinrow invoke's benchmark (make bench-invoke): the figures of
 * docs/invoke.md.
 *
 *   bench_invoke COINROW [--instances N] [--builtin-instances M] [--sandbox-instances K] [--reps R]
 *
 * In a fresh folder under $TMPDIR (or /tmp), removed at the end:
 *  1. overhead per instance: `coinrow invoke -- ./trivial` (a C program that
 *     prints 0 and exits) on a set of N instances, against the floor any
 *     harness pays: this program starting (posix_spawn) and reaping the same
 *     trivial program N times with an input and its output through pipes,
 *     alternately, R times; invoke with --jobs 2; and the CPU time of
 *     invoke itself: all that wait4 gives for it, less what its verdicts
 *     say the programs used;
 *  2. what --sandbox costs per instance: `coinrow invoke --sandbox --
 *     ./trivial` against the same without, alternately, R times, on a set
 *     of K instances (the sandbox's first check included, spread over
 *     them); wall time, and the CPU time of everything (bwrap, coinrow's
 *     init and the program); not measured, saying why, where the sandbox
 *     cannot run;
 *  3. --builtin throughput: invoke --builtin with every strategy on M
 *     instances of n = 8..16 (most answers are wrong: the value alone is
 *     checked), and greedy on 200 rows of n = 1000 equal coins, where every
 *     answer is right, with moves required (every move of the line verified,
 *     O(n^2)) and ignored (the value alone).
 * Medians of the repetitions, as Markdown tables. */
#define _DEFAULT_SOURCE /* wait4 */
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#include "bench.h"

extern char **environ;

/* The CPU seconds (user + system) of the last command timed() ran, its
 * children's included. */
static double last_cpu;

/* bench_timed, keeping the command's CPU seconds in last_cpu. */
static double timed(char *const argv[], unsigned ok) { return bench_timed(argv, ok, &last_cpu); }

/* The CPU seconds the programs of the latest invocation used, by its
 * verdicts; -1 on failure. */
static double programs_cpu(const char *db)
{
    sqlite3 *d = NULL;
    sqlite3_stmt *st = NULL;
    double sum = -1;
    if (sqlite3_open_v2(db, &d, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(d, "SELECT total(cpu_seconds) FROM verdict WHERE invocation_id = "
                              "(SELECT max(id) FROM invocation)", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        sum = sqlite3_column_double(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(d);
    return sum;
}

/* The floor: start `program` count times with posix_spawn (glibc's, a
 * vfork), its input through one pipe and its output read back through
 * another, and reap it, as a harness must at the least. */
static double bare_spawns(const char *program, int count, const char *input)
{
    fflush(NULL);
    double t0 = bench_now();
    for (int k = 0; k < count; k++) {
        int in[2], out[2];
        if (pipe(in) || pipe(out))
            return -1;
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_adddup2(&fa, in[0], 0);
        posix_spawn_file_actions_adddup2(&fa, out[1], 1);
        for (int fd = 0; fd < 2; fd++) {
            posix_spawn_file_actions_addclose(&fa, in[fd]);
            posix_spawn_file_actions_addclose(&fa, out[fd]);
        }
        char *argv[] = {(char *)program, NULL};
        pid_t pid;
        int spawned = posix_spawn(&pid, program, &fa, NULL, argv, environ);
        posix_spawn_file_actions_destroy(&fa);
        close(in[0]), close(out[1]);
        ssize_t ignored = write(in[1], input, strlen(input));
        (void)ignored;
        close(in[1]);
        char buf[256];
        while (read(out[0], buf, sizeof buf) > 0)
            ;
        close(out[0]);
        int status;
        struct rusage ru;
        if (spawned != 0 || wait4(pid, &status, 0, &ru) != pid)
            return -1;
    }
    return bench_now() - t0;
}

/* The positive number after option `name`, or fallback. */
static int opt(int argc, char **argv, const char *name, int fallback)
{
    for (int i = 2; i + 1 < argc; i++)
        if (strcmp(argv[i], name) == 0) {
            char *end;
            long v = strtol(argv[i + 1], &end, 10);
            return *end == '\0' && v > 0 && v < 100000000 ? (int)v : fallback;
        }
    return fallback;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_invoke COINROW [--instances N] [--builtin-instances M] [--sandbox-instances K] "
                        "[--reps R]\n");
        return 2;
    }
    char coinrow[4096];
    if (!realpath(argv[1], coinrow)) {
        fprintf(stderr, "bench_invoke: no %s\n", argv[1]);
        return 2;
    }
    int n = opt(argc, argv, "--instances", 2000), m = opt(argc, argv, "--builtin-instances", 20000);
    int reps = opt(argc, argv, "--reps", 5), boxed_n = opt(argc, argv, "--sandbox-instances", 300);
    signal(SIGPIPE, SIG_IGN); /* the trivial program does not read its input */
    bench_folder_make("coinrow-bench-invoke");
    int failed = 0;
    char count_n[32], count_m[32], count_k[32];
    snprintf(count_n, sizeof count_n, "%d", n);
    snprintf(count_m, sizeof count_m, "%d", m);
    snprintf(count_k, sizeof count_k, "%d", boxed_n);
    FILE *src = fopen(bench_in_folder("trivial.c").text, "w");
    if (src) {
        fputs("#include <stdio.h>\nint main(void) { puts(\"0\"); return 0; }\n", src);
        fclose(src);
    }
    char *build[] = {"cc", "-O2", "-o", "trivial", "trivial.c", NULL};
    char *sets[][18] = {
        {coinrow, "generate", "--db", "b.db", "--set", "small", "--count", count_n, "--n", "4..12", "--values",
         "1..100", "--seed", "1", "--quiet", NULL},
        {coinrow, "generate", "--db", "b.db", "--set", "builtin", "--count", count_m, "--n", "8..16", "--values",
         "1..1000000000", "--seed", "2", "--quiet", NULL},
        {coinrow, "generate", "--db", "b.db", "--set", "equal", "--count", "200", "--n", "1000", "--values",
         "1..1000000000", "--seed", "3", "--profile", "equal", "--quiet", NULL},
        {coinrow, "generate", "--db", "b.db", "--set", "boxed", "--count", count_k, "--n", "4..12", "--values",
         "1..100", "--seed", "4", "--quiet", NULL},
        {coinrow, "solve", "--db", "b.db", "--set", "small", "--variant", "diff", "--moves", "none", "--quiet", NULL},
        {coinrow, "solve", "--db", "b.db", "--set", "builtin", "--variant", "diff", "--moves", "none", "--quiet", NULL},
        {coinrow, "solve", "--db", "b.db", "--set", "equal", "--variant", "diff", "--moves", "none", "--quiet", NULL},
        {coinrow, "solve", "--db", "b.db", "--set", "boxed", "--variant", "diff", "--moves", "none", "--quiet", NULL},
    };
    failed |= timed(build, 1) < 0;
    for (size_t k = 0; k < sizeof sets / sizeof sets[0] && !failed; k++)
        failed |= timed(sets[k], 1) < 0;

    /* 1. overhead per instance */
    char *invoke[] = {coinrow, "invoke", "--db", "b.db", "--set", "small", "--variant", "diff", "--moves", "ignored",
                      "--quiet", "--jobs", "1", "--", "./trivial", NULL};
    double *mine = calloc((size_t)reps, sizeof *mine), *bare = calloc((size_t)reps, sizeof *bare),
           *two = calloc((size_t)reps, sizeof *two), *own = calloc((size_t)reps, sizeof *own),
           *theirs = calloc((size_t)reps, sizeof *theirs);
    for (int r = 0; r < reps && !failed; r++) {
        invoke[12] = "1";
        mine[r] = timed(invoke, 3); /* 1: the trivial answer is wrong on most instances */
        theirs[r] = programs_cpu(bench_in_folder("b.db").text);
        own[r] = last_cpu - theirs[r];
        bare[r] = bare_spawns(bench_in_folder("trivial").text, n, "8\n1 2 3 4 5 6 7 8\n");
        invoke[12] = "2";
        two[r] = timed(invoke, 3);
        failed |= mine[r] < 0 || bare[r] < 0 || two[r] < 0 || theirs[r] < 0;
    }
    if (!failed) {
        printf("| per instance: %d instances of n = 4..12, median of %d | |\n|---|---|\n", n, reps);
        printf("| coinrow invoke -- ./trivial, wall, --jobs 1 | %.3f ms |\n", bench_median(mine, reps) / n * 1e3);
        printf("| coinrow invoke -- ./trivial, wall, --jobs 2 | %.3f ms |\n", bench_median(two, reps) / n * 1e3);
        printf("| posix_spawn, pipes and wait4 of ./trivial alone, wall | %.3f ms |\n",
               bench_median(bare, reps) / n * 1e3);
        printf("| CPU of ./trivial itself (its verdicts' cpu_seconds) | %.3f ms |\n",
               bench_median(theirs, reps) / n * 1e3);
        printf("| CPU of coinrow invoke itself (all of it but the programs'), --jobs 1 | %.3f ms |\n\n",
               bench_median(own, reps) / n * 1e3);
    }

    /* 2. --sandbox's cost */
    char *plain[] = {coinrow, "invoke", "--db", "b.db", "--set", "boxed", "--variant", "diff", "--moves", "ignored",
                     "--quiet", "--", "./trivial", NULL};
    char *boxed[] = {coinrow, "invoke", "--db", "b.db", "--set", "boxed", "--variant", "diff", "--moves", "ignored",
                     "--quiet", "--sandbox", "--", "./trivial", NULL};
    char *probe[] = {coinrow, "invoke", "--db", "b.db", "--set", "boxed", "--variant", "diff", "--sandbox", "--",
                     "./trivial", NULL};
    fflush(NULL);
    if (!failed && timed(probe, 3) < 0) {
        fprintf(stderr, "bench_invoke: --sandbox not measured; what it says:\n");
        fflush(NULL);
        if (fork() == 0) { /* once more, to show why */
            execv(probe[0], probe);
            _exit(127);
        }
        wait(NULL);
    } else if (!failed) {
        /* [0] without, [1] with, [2] the differences of each pair run side by side */
        double *wall[3], *cpu[3];
        for (int w = 0; w < 3; w++) {
            wall[w] = calloc((size_t)reps, sizeof *wall[w]);
            cpu[w] = calloc((size_t)reps, sizeof *cpu[w]);
        }
        for (int r = 0; r < reps && !failed; r++) {
            for (int w = 0; w < 2; w++) {
                wall[w][r] = timed(w ? boxed : plain, 3);
                cpu[w][r] = last_cpu;
                failed |= wall[w][r] < 0;
            }
            wall[2][r] = wall[1][r] - wall[0][r];
            cpu[2][r] = cpu[1][r] - cpu[0][r];
        }
        if (!failed) {
            printf("| --sandbox: %d instances of n = 4..12, alternately, median of %d | without | with | cost |\n"
                   "|---|---|---|---|\n",
                   boxed_n, reps);
            printf("| coinrow invoke [--sandbox] -- ./trivial, wall, per instance | %.3f ms | %.3f ms | %.3f ms |\n",
                   bench_median(wall[0], reps) / boxed_n * 1e3, bench_median(wall[1], reps) / boxed_n * 1e3,
                   bench_median(wall[2], reps) / boxed_n * 1e3);
            printf("| the same, CPU of all it ran and of itself, per instance | %.3f ms | %.3f ms | %.3f ms |\n\n",
                   bench_median(cpu[0], reps) / boxed_n * 1e3, bench_median(cpu[1], reps) / boxed_n * 1e3,
                   bench_median(cpu[2], reps) / boxed_n * 1e3);
        }
        for (int w = 0; w < 3; w++) {
            free(wall[w]);
            free(cpu[w]);
        }
    }

    /* 3. --builtin throughput */
    static const struct {
        const char *set, *builtin, *moves, *n;
        int instances; /* 0: M */
    } runs[] = {
        {"builtin", "greedy", "required", "8..16", 0},     {"builtin", "left", "required", "8..16", 0},
        {"builtin", "parity", "required", "8..16", 0},     {"builtin", "lookahead2", "required", "8..16", 0},
        {"equal", "greedy", "required", "1000 (equal)", 200}, {"equal", "greedy", "ignored", "1000 (equal)", 200},
    };
    if (!failed)
        printf("| --builtin, diff (median of %d) | instances | n | moves | instances/s |\n|---|---|---|---|---|\n",
               reps);
    for (size_t k = 0; k < sizeof runs / sizeof runs[0] && !failed; k++) {
        char *argv_b[] = {coinrow, "invoke", "--db", "b.db", "--set", (char *)runs[k].set, "--variant", "diff",
                          "--moves", (char *)runs[k].moves, "--builtin", (char *)runs[k].builtin, "--quiet", NULL};
        for (int r = 0; r < reps && !failed; r++)
            failed |= (mine[r] = timed(argv_b, 3)) < 0;
        int count = runs[k].instances ? runs[k].instances : m;
        if (!failed)
            printf("| %s | %d | %s | %s | %.0f |\n", runs[k].builtin, count, runs[k].n, runs[k].moves,
                   count / bench_median(mine, reps));
    }
    free(mine);
    free(bare);
    free(two);
    free(own);
    free(theirs);
    char *clean[] = {"rm", "-rf", bench_folder(), NULL};
    timed(clean, 1);
    return failed;
}

#include "support/programs.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "support/files.h"

/* Reads n and the coins into a; the interval DP in d (n*n); ties: `tie`. */
#define READ_AND_SOLVE(tie)                                                                                       \
    "#include <stdio.h>\n#include <stdlib.h>\n"                                                                  \
    "static long long *a, *d; static int n;\n"                                                                   \
    "static void solve(void) {\n"                                                                                \
    "    if (scanf(\"%d\", &n) != 1) exit(3);\n"                                                                 \
    "    a = malloc(n * sizeof *a); d = malloc((size_t)n * n * sizeof *d);\n"                                    \
    "    for (int i = 0; i < n; i++) if (scanf(\"%lld\", &a[i]) != 1) exit(3);\n"                                \
    "    for (int len = 1; len <= n; len++) for (int i = 0; i + len <= n; i++) {\n"                              \
    "        int j = i + len - 1;\n"                                                                             \
    "        if (len == 1) { d[i * n + j] = a[i]; continue; }\n"                                                 \
    "        long long l = a[i] - d[(i + 1) * n + j], r = a[j] - d[i * n + j - 1];\n"                            \
    "        d[i * n + j] = l > r ? l : r;\n"                                                                    \
    "    }\n"                                                                                                    \
    "}\n"                                                                                                        \
    "static void print_line(void) {\n"                                                                           \
    "    for (int i = 0, j = n - 1; i <= j;) {\n"                                                                \
    "        long long l = i == j ? 0 : a[i] - d[(i + 1) * n + j], r = i == j ? 0 : a[j] - d[i * n + j - 1];\n"  \
    "        if (" tie ") { putchar('L'); i++; } else { putchar('R'); j--; }\n"                                  \
    "    }\n"                                                                                                    \
    "    putchar('\\n');\n"                                                                                      \
    "}\n"

static const struct {
    const char *name, *source;
} programs[PROGRAM_COUNT] = {
    [PROGRAM_CORRECT] = {"correct", READ_AND_SOLVE("i == j || l >= r")
                                    "int main(void) { solve(); printf(\"%lld\\n\", d[n - 1]); print_line(); return 0; }\n"},
    [PROGRAM_OTHER_LINE] = {"other_line", READ_AND_SOLVE("i != j && l > r")
                                          "int main(void) { solve(); printf(\"%lld\\n\", d[n - 1]); print_line(); "
                                          "return 0; }\n"},
    [PROGRAM_GREEDY] = {"greedy", READ_AND_SOLVE("1")
                                  "int main(void) {\n"
                                  "    solve();\n"
                                  "    long long lead = 0; char *line = malloc(n + 1);\n"
                                  "    for (int k = 0, i = 0, j = n - 1; k < n; k++) {\n"
                                  "        long long c = a[i] >= a[j] ? a[i] : a[j];\n"
                                  "        line[k] = a[i] >= a[j] ? 'L' : 'R';\n"
                                  "        if (line[k] == 'L') i++; else j--;\n"
                                  "        lead += k % 2 ? -c : c;\n"
                                  "    }\n"
                                  "    line[n] = 0; printf(\"%lld\\n%s\\n\", lead, line); return 0;\n"
                                  "}\n"},
    [PROGRAM_OFF_BY_ONE] = {"off_by_one", READ_AND_SOLVE("i == j || l >= r")
                                          "int main(void) { solve(); printf(\"%lld\\n\", d[n - 1] + 1); print_line(); "
                                          "return 0; }\n"},
    [PROGRAM_SLEEPER] = {"sleeper", "#include <unistd.h>\nint main(void) { sleep(60); return 0; }\n"},
    [PROGRAM_SPINNER] = {"spinner", "int main(void) { volatile unsigned long x = 0; for (;;) x++; }\n"},
    [PROGRAM_HOG] = {"hog", "#include <stdlib.h>\n#include <string.h>\n"
                            "int main(void) { for (;;) { char *p = malloc(1 << 20); memset(p, 1, 1 << 20); } }\n"},
    [PROGRAM_FLOOD] = {"flood", "#include <stdio.h>\n"
                                "int main(void) { for (;;) fputs(\"LRLRLRLRLRLRLRLRLRLRLRLRLRLRLRLR\\n\", stdout); }\n"},
    [PROGRAM_SEGV] = {"segv", "#include <stdio.h>\n"
                              "int main(void) { fprintf(stderr, \"about to crash\\n\"); fflush(stderr);\n"
                              "    volatile int *p = 0; return *p; }\n"},
    [PROGRAM_ABORT] = {"abort", "#include <assert.h>\n#include <stdlib.h>\n"
                                "int main(int argc, char **argv) { (void)argv; assert(argc == 0); abort(); }\n"},
    [PROGRAM_CLOSER] = {"closer", "#include <stdio.h>\n#include <unistd.h>\n"
                                  "int main(void) { close(0); printf(\"0\\n\"); return 0; }\n"},
    [PROGRAM_FORKER] = {"forker", "#include <unistd.h>\n"
                                  "int main(void) { if (fork() == 0) { sleep(60); return 0; } return 0; }\n"},
    [PROGRAM_SLOW] = {"slow", READ_AND_SOLVE("i == j || l >= r")
                              "#include <time.h>\n"
                              "int main(void) { struct timespec t = {0, 20000000}; nanosleep(&t, NULL);\n"
                              "    solve(); printf(\"%lld\\n\", d[n - 1]); print_line(); return 0; }\n"},
    [PROGRAM_BUSY] = {"busy", READ_AND_SOLVE("i == j || l >= r")
                              "#include <time.h>\n"
                              "int main(void) { volatile unsigned long x = 0;\n"
                              "    while (clock() < CLOCKS_PER_SEC * 3 / 100) x++;\n"
                              "    solve(); printf(\"%lld\\n\", d[n - 1]); print_line(); return 0; }\n"},
};

const char *program_name(program p) { return programs[p].name; }

int programs_build(const char *dir)
{
    for (int p = 0; p < PROGRAM_COUNT; p++) {
        char source[4096], binary[4096], command[8192 + 64];
        snprintf(source, sizeof source, "%s/%s.c", dir, programs[p].name);
        snprintf(binary, sizeof binary, "%s/%s", dir, programs[p].name);
        if (write_file(source, programs[p].source) != 0)
            return -1;
        snprintf(command, sizeof command, "cc -O2 -o '%s' '%s'", binary, source);
        int status = system(command);
        if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            fprintf(stderr, "cannot build %s\n", source);
            return -1;
        }
    }
    return 0;
}

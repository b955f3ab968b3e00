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

/* READ_AND_SOLVE's correct answer, for the hostile programs that fail to
 * escape. */
#define HOSTILE(includes)                                                                                         \
    "#include <errno.h>\n#include <string.h>\n#include <unistd.h>\n" includes                                    \
    READ_AND_SOLVE("i == j || l >= r")                                                                           \
    "static int answer(void) { printf(\"%lld\\n\", d[n - 1]); print_line(); return 0; }\n"

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
    [PROGRAM_EXIT_139] = {"exit_139", "int main(void) { return 139; }\n"},
    [PROGRAM_CAPPED] = {"capped", READ_AND_SOLVE("i == j || l >= r")
                                  "int main(int argc, char **argv) {\n"
                                  "    solve(); volatile unsigned long x = 0;\n"
                                  "    while (n > (argc > 1 ? strtol(argv[1], NULL, 10) : 0)) x++;\n"
                                  "    printf(\"%lld\\n\", d[n - 1]); print_line(); return 0;\n"
                                  "}\n"},
    [PROGRAM_PEEK] = {"peek", HOSTILE("#include <fcntl.h>\n")
                              "int main(int argc, char **argv) {\n"
                              "    solve(); char b[64]; int fd = argc > 1 ? open(argv[1], O_RDONLY) : -1;\n"
                              "    ssize_t got = fd >= 0 ? read(fd, b, sizeof b) : -1;\n"
                              "    if (got >= 0) { fprintf(stderr, \"escaped: read %s\\n\", argv[1]); return 42; }\n"
                              "    fprintf(stderr, \"cannot read it: %s\\n\", strerror(errno)); return answer();\n"
                              "}\n"},
    [PROGRAM_LITTER] = {"litter", HOSTILE("#include <fcntl.h>\n")
                                  "int main(int argc, char **argv) {\n"
                                  "    solve(); char p[4200];\n"
                                  "    snprintf(p, sizeof p, \"%s/littered-%d\", argc > 1 ? argv[1] : \".\", (int)getpid());\n"
                                  "    if (open(p, O_WRONLY | O_CREAT | O_EXCL, 0644) >= 0) {\n"
                                  "        fprintf(stderr, \"escaped: made %s\\n\", p); return 42; }\n"
                                  "    fprintf(stderr, \"cannot make it: %s\\n\", strerror(errno)); return answer();\n"
                                  "}\n"},
    [PROGRAM_CALLER] = {"caller", HOSTILE("#include <arpa/inet.h>\n#include <netinet/in.h>\n#include <sys/socket.h>\n")
                                  "int main(int argc, char **argv) {\n"
                                  "    solve(); struct sockaddr_in a = {.sin_family = AF_INET};\n"
                                  "    a.sin_port = htons((unsigned short)strtol(argc > 1 ? argv[1] : \"0\", NULL, 10));\n"
                                  "    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);\n"
                                  "    int s = socket(AF_INET, SOCK_STREAM, 0);\n"
                                  "    if (s >= 0 && connect(s, (struct sockaddr *)&a, sizeof a) == 0) {\n"
                                  "        fprintf(stderr, \"escaped: connected\\n\"); return 42; }\n"
                                  "    fprintf(stderr, \"cannot connect: %s\\n\", strerror(errno)); return answer();\n"
                                  "}\n"},
    [PROGRAM_SNOOP] = {"snoop", HOSTILE("#include <dirent.h>\n")
                                "int main(int argc, char **argv) {\n"
                                "    solve(); char p[64], link[4200], to[4200]; int seen = 0, found = 0;\n"
                                "    snprintf(p, sizeof p, \"/proc/%d/fd\", (int)getppid());\n"
                                "    DIR *fds = opendir(p);\n"
                                "    for (struct dirent *e; fds && (e = readdir(fds));) {\n"
                                "        snprintf(link, sizeof link, \"%s/%s\", p, e->d_name);\n"
                                "        ssize_t len = readlink(link, to, sizeof to - 1);\n"
                                "        if (len < 0) continue;\n"
                                "        to[len] = 0; seen++; found |= argc > 1 && strcmp(to, argv[1]) == 0;\n"
                                "    }\n"
                                "    if (seen) { fprintf(stderr, \"escaped: %d of %s%s\\n\", seen, p,\n"
                                "                        found ? \", the database among them\" : \"\"); return 42; }\n"
                                "    fprintf(stderr, \"cannot list %s: %s\\n\", p, strerror(errno)); return answer();\n"
                                "}\n"},
    [PROGRAM_SIGNALLER] = {"signaller", HOSTILE("#include <signal.h>\n")
                                        "int main(void) { solve(); kill(getppid(), SIGTERM); return answer(); }\n"},
    [PROGRAM_BOMB] = {"bomb", HOSTILE("")
                              "int main(int argc, char **argv) {\n"
                              "    solve(); long want = strtol(argc > 1 ? argv[1] : \"1\", NULL, 10), made = 0;\n"
                              "    for (; made < want; made++) {\n"
                              "        pid_t p = fork();\n"
                              "        if (p == 0) { pause(); _exit(0); }\n"
                              "        if (p < 0) break;\n"
                              "    }\n"
                              "    if (made == want) { fprintf(stderr, \"escaped: %ld processes\\n\", made); return 42; }\n"
                              "    fprintf(stderr, \"fork %ld: %s\\n\", made + 1, strerror(errno)); return 1;\n"
                              "}\n"},
    [PROGRAM_FILLER] = {"filler", HOSTILE("#include <fcntl.h>\n")
                                  "static char chunk[1 << 20];\n"
                                  "int main(int argc, char **argv) {\n"
                                  "    solve(); long want = strtol(argc > 1 ? argv[1] : \"1\", NULL, 10), k = 0;\n"
                                  "    char p[64]; snprintf(p, sizeof p, \"/tmp/filler-%d\", (int)getpid());\n"
                                  "    int fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0600);\n"
                                  "    for (; fd >= 0 && k < want; k++)\n"
                                  "        if (write(fd, chunk, sizeof chunk) != (ssize_t)sizeof chunk) break;\n"
                                  "    if (k == want) { unlink(p); fprintf(stderr, \"escaped: wrote %ld MiB\\n\", k); return 42; }\n"
                                  "    fprintf(stderr, \"after %ld MiB: %s\\n\", k, strerror(errno)); return 1;\n"
                                  "}\n"},
    [PROGRAM_KEEPER] = {"keeper", "#include <stdio.h>\n#include <string.h>\n#include <sys/syscall.h>\n"
                                  "#include <unistd.h>\n#include <linux/keyctl.h>\n"
                                  "int main(void) {\n"
                                  "    char what[16] = \"\"; int rings[] = {KEY_SPEC_SESSION_KEYRING, KEY_SPEC_USER_KEYRING};\n"
                                  "    if (scanf(\"%15s\", what) != 1) return 1;\n"
                                  "    for (int k = 0; k < 2; k++)\n"
                                  "        if (strcmp(what, \"plant\") == 0) {\n"
                                  "            if (syscall(SYS_add_key, \"user\", \"left\", \"x\", 1, rings[k]) < 0) return 1;\n"
                                  "        } else if (syscall(SYS_keyctl, KEYCTL_SEARCH, rings[k], \"user\", \"left\", 0) >= 0) {\n"
                                  "            printf(\"%s\\n\", k ? \"user\" : \"session\");\n"
                                  "        }\n"
                                  "    return 0;\n"
                                  "}\n"},
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

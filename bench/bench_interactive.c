/* invoke --interactive's benchmark (make bench-interactive): the figure of
 * docs/invoke.md, "Interactive", against issue 37's target (at most 1.5
 * times a bare relay).
 *
 *   bench_interactive COINROW [--n N] [--reps R]
 *
 * In a fresh folder under $TMPDIR (or /tmp), removed at the end, one game
 * of n = N (default 10^5) random coins, played by the same player (this
 * program, run as `bench_interactive --player`: it reads the row, then
 * writes L at each of its turns and reads the other side's move, flushing
 * every line), alternately R times (default 5):
 *  - through `coinrow invoke --interactive` (the jury, the checks, the
 *    verdict stored; the answers run solved beforehand), timed whole, and
 *    the game alone as its verdict's wall time says;
 *  - against a bare relay: this program writes the same row and answers L
 *    to every line over the same pipes, blocking, no jury, no checks:
 *    the round trips' floor.
 * Medians, as a Markdown table, with the ratio to the relay. */
#define _DEFAULT_SOURCE /* wait4 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#include "bench.h"

/* ---- the player ---- */

static int player(void)
{
    size_t n;
    long long coin;
    if (scanf("%zu", &n) != 1)
        return 1;
    for (size_t k = 0; k < n; k++)
        if (scanf("%lld", &coin) != 1)
            return 1;
    char move;
    for (size_t turn = 0; turn < n; turn++)
        if (turn % 2 == 0) {
            fputs("L\n", stdout);
            fflush(stdout);
        } else if (scanf(" %c", &move) != 1) { /* the other side's move, the newline before it skipped */
            return 1;
        }
    return 0;
}

/* ---- the harness ---- */

static char self[4096];

/* One game against the relay: its wall seconds, from the player's start to
 * its reaping; negative when something failed. */
static double relay(const char *row, size_t row_len, size_t n)
{
    int in[2], out[2];
    if (pipe(in) || pipe(out))
        return -1;
    double t0 = bench_now();
    pid_t pid = fork();
    if (pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        execl(self, self, "--player", (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    int ok = pid > 0;
    for (size_t done = 0; ok && done < row_len;) {
        ssize_t w = write(in[1], row + done, row_len - done);
        ok = w > 0;
        done += ok ? (size_t)w : 0;
    }
    char line[64];
    for (size_t turn = 0; ok && turn < n; turn++)
        if (turn % 2 == 0)
            ok = read(out[0], line, sizeof line) > 0; /* its line, "L\n": it waits for ours */
        else
            ok = write(in[1], "L\n", 2) == 2;
    close(in[1]);
    while (ok && read(out[0], line, sizeof line) > 0) /* to its end */
        ;
    close(out[0]);
    int status = 0;
    if (pid > 0)
        waitpid(pid, &status, 0);
    double t = bench_now() - t0;
    return ok && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? t : -1;
}

/* The row of the set's one instance as the contest format writes it. */
static char *row_text(const char *db, size_t *out_len, size_t *out_n)
{
    sqlite3 *conn = NULL;
    sqlite3_stmt *st = NULL;
    char *text = NULL;
    if (sqlite3_open_v2(db, &conn, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(conn, "SELECT n, coins FROM instance LIMIT 1", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW) {
        const char *json = (const char *)sqlite3_column_text(st, 1);
        size_t len = strlen(json);
        *out_n = (size_t)sqlite3_column_int64(st, 0);
        if ((text = malloc(len + 32))) {
            int head = snprintf(text, 32, "%zu\n", *out_n);
            memcpy(text + head, json + 1, len - 2); /* [a,b,c] -> a b c */
            for (size_t k = (size_t)head; k < (size_t)head + len - 2; k++)
                text[k] = text[k] == ',' ? ' ' : text[k];
            text[head + len - 2] = '\n';
            *out_len = (size_t)head + len - 1;
        }
    }
    sqlite3_finalize(st);
    sqlite3_close(conn);
    return text;
}

/* The latest verdict's wall seconds. */
static double game_seconds(const char *db)
{
    sqlite3 *conn = NULL;
    sqlite3_stmt *st = NULL;
    double t = -1;
    if (sqlite3_open_v2(db, &conn, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(conn, "SELECT wall_seconds FROM verdict ORDER BY invocation_id DESC LIMIT 1", -1, &st,
                           NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        t = sqlite3_column_double(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(conn);
    return t;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--player") == 0)
        return player();
    long n = 100000, reps = 5;
    if (argc < 2) {
        fprintf(stderr, "usage: bench_interactive COINROW [--n N] [--reps R]\n");
        return 2;
    }
    for (int k = 2; k + 1 < argc; k += 2)
        if (strcmp(argv[k], "--n") == 0)
            n = strtol(argv[k + 1], NULL, 10);
        else if (strcmp(argv[k], "--reps") == 0)
            reps = strtol(argv[k + 1], NULL, 10);
    if (n < 1 || reps < 1 || reps > 99) {
        fprintf(stderr, "bench_interactive: --n takes a number from 1, --reps one from 1 to 99\n");
        return 2;
    }
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0)
        return 1;
    self[len] = '\0';
    signal(SIGPIPE, SIG_IGN);
    bench_folder_make("bench_interactive");
    char *coinrow = realpath(argv[1], NULL);
    bench_path db = bench_in_folder("b.db");
    char count[24];
    snprintf(count, sizeof count, "%ld", n);
    char *gen[] = {coinrow, "generate", "--db", db.text, "--set", "game", "--count", "1", "--n", count, "--values",
                   "1..1000000000", "--seed", "1", "--quiet", NULL};
    char *solve[] = {coinrow, "solve", "--db", db.text, "--set", "game", "--variant", "diff", NULL};
    char *invoke[] = {coinrow, "invoke", "--db", db.text, "--set", "game", "--variant", "diff", "--interactive",
                      "--quiet", "--time-limit", "60", "--", self, "--player", NULL};
    size_t row_len = 0, rows = 0;
    char *row = NULL;
    int rc = 1;
    if (!coinrow || bench_timed(gen, 1, NULL) < 0 || bench_timed(solve, 1, NULL) < 0 ||
        !(row = row_text(db.text, &row_len, &rows))) {
        fprintf(stderr, "bench_interactive: cannot make the game (coinrow generate, solve)\n");
        goto done;
    }
    double whole[99], game[99], bare[99];
    for (long r = 0; r < reps; r++) {
        /* alternately, the relay first on odd repetitions */
        for (int k = 0; k < 2; k++) {
            if ((k == 0) == (r % 2 == 0)) {
                whole[r] = bench_timed(invoke, 2, NULL); /* the player's L is not optimal: WA, exit 1 */
                game[r] = game_seconds(db.text);
            } else {
                bare[r] = relay(row, row_len, rows);
            }
        }
        if (whole[r] < 0 || game[r] < 0 || bare[r] < 0) {
            fprintf(stderr, "bench_interactive: a game failed\n");
            goto done;
        }
    }
    double relay_s = bench_median(bare, (int)reps), whole_s = bench_median(whole, (int)reps),
           game_s = bench_median(game, (int)reps);
    printf("## invoke --interactive: one game of n = %ld (medians of %ld, alternated)\n\n", n, reps);
    printf("| | seconds | per round trip | against the relay |\n|---|---|---|---|\n");
    printf("| bare relay (no jury) | %.3f | %.2f us | 1.00 |\n", relay_s, relay_s / (double)((n + 1) / 2) * 1e6);
    printf("| invoke --interactive, the game (verdict's wall time) | %.3f | %.2f us | %.2f |\n", game_s,
           game_s / (double)((n + 1) / 2) * 1e6, game_s / relay_s);
    printf("| invoke --interactive, the whole command | %.3f | | %.2f |\n", whole_s, whole_s / relay_s);
    printf("\nissue 37's target: the game at most 1.5 times the relay: %s\n",
           game_s <= 1.5 * relay_s ? "met" : "NOT met");
    rc = 0;
done:
    free(row);
    free(coinrow);
    bench_remove_db(db.text);
    rmdir(bench_folder());
    return rc;
}

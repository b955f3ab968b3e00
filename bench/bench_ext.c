/* The SQL extension's benchmark (make bench-ext): the figures of
 * docs/sql.md, "Speed".
 *
 *   bench_ext EXTENSION [--rows N] [--reps R]
 *
 * An in-memory database gets a table instance(id, coins) of N distinct
 * random rows (default 10^6) of n = 32 coins in 1..10^9, written as the
 * store writes them ("[4,6,2,3]").  Then, alternately (which goes first
 * alternates too), R times (default 7):
 *   SELECT sum(coinrow_value(coins, 'diff')) FROM instance
 *   SELECT sum(j.value) FROM instance, json_each(instance.coins) AS j
 * that is, solving every row against SQLite merely walking its JSON.  Prints
 * the medians and their ratio. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "bench.h"
#include "coinrow.h"

enum { N = 32, MAX_REPS = 99 };

static const char *const queries[2] = {
    "SELECT sum(coinrow_value(coins, 'diff')) FROM instance",
    "SELECT sum(j.value) FROM instance, json_each(instance.coins) AS j",
};

static void die(sqlite3 *db, const char *what)
{
    fprintf(stderr, "bench_ext: %s: %s\n", what, db ? sqlite3_errmsg(db) : "no memory");
    exit(1);
}

static void fill(sqlite3 *db, long rows)
{
    sqlite3_stmt *insert;
    if (sqlite3_exec(db, "CREATE TABLE instance(id INTEGER PRIMARY KEY, coins TEXT NOT NULL); BEGIN", NULL, NULL,
                     NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "INSERT INTO instance(coins) VALUES (?1)", -1, &insert, NULL) != SQLITE_OK)
        die(db, "cannot make the table");
    cr_rng rng;
    cr_rng_seed(&rng, 20261201, 0);
    for (long r = 0; r < rows; r++) {
        char json[N * 12 + 3];
        size_t len = 0;
        for (int k = 0; k < N; k++)
            len += (size_t)snprintf(json + len, sizeof json - len, "%c%lld", k ? ',' : '[',
                                    (long long)cr_rng_between(&rng, 1, 1000000000));
        json[len++] = ']';
        sqlite3_bind_text(insert, 1, json, (int)len, SQLITE_STATIC);
        if (sqlite3_step(insert) != SQLITE_DONE)
            die(db, "cannot insert");
        sqlite3_reset(insert);
    }
    sqlite3_finalize(insert);
    if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        die(db, "cannot commit");
}

/* Runs the query; its seconds, and its one integer in *out. */
static double timed(sqlite3 *db, const char *sql, sqlite3_int64 *out)
{
    sqlite3_stmt *st;
    double t0 = bench_now();
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK || sqlite3_step(st) != SQLITE_ROW)
        die(db, sql);
    *out = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return bench_now() - t0;
}

int main(int argc, char **argv)
{
    long rows = 1000000;
    int reps = 7;
    for (int i = 2; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--rows") == 0)
            rows = strtol(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--reps") == 0)
            reps = (int)strtol(argv[i + 1], NULL, 10);
    }
    if (argc < 2 || argc % 2 || rows < 1 || reps < 1 || reps > MAX_REPS) {
        fprintf(stderr, "usage: bench_ext EXTENSION [--rows N] [--reps R (1..%d)]\n", MAX_REPS);
        return 2;
    }
    sqlite3 *db = NULL;
    char *error = NULL;
    if (sqlite3_open(":memory:", &db) != SQLITE_OK || sqlite3_enable_load_extension(db, 1) != SQLITE_OK)
        die(db, "cannot open a database");
    if (sqlite3_load_extension(db, argv[1], NULL, &error) != SQLITE_OK) {
        fprintf(stderr, "bench_ext: cannot load %s: %s\n", argv[1], error ? error : "?");
        return 1;
    }
    fprintf(stderr, "bench_ext: %ld rows of %d coins...\n", rows, N);
    fill(db, rows);

    double seconds[2][MAX_REPS];
    sqlite3_int64 sums[2] = {0, 0};
    for (int r = 0; r < reps; r++) {
        for (int k = 0; k < 2; k++) {
            int q = (r + k) % 2;
            sqlite3_int64 sum;
            seconds[q][r] = timed(db, queries[q], &sum);
            if (r > 0 && sum != sums[q]) {
                fprintf(stderr, "bench_ext: '%s' gave %lld, then %lld\n", queries[q], (long long)sums[q],
                        (long long)sum);
                return 1;
            }
            sums[q] = sum;
        }
        fprintf(stderr, "  rep %d: coinrow_value %.3f s, json_each %.3f s\n", r + 1, seconds[0][r], seconds[1][r]);
    }
    double coinrow = bench_median(seconds[0], reps), json = bench_median(seconds[1], reps);
    printf("%ld rows of n = %d, SQLite %s, medians of %d alternating repetitions:\n\n", rows, N, sqlite3_libversion(),
           reps);
    printf("| query | median | per row |\n|---|---|---|\n");
    for (int q = 0; q < 2; q++) {
        double t = q == 0 ? coinrow : json;
        printf("| `%s` | %.3f s | %.2f us |\n", queries[q], t, t / (double)rows * 1e6);
    }
    printf("\nratio coinrow_value / json_each: %.3f (target: at most 0.3)\n", coinrow / json);
    sqlite3_close(db);
    return 0;
}

/* Reading a run back: queries through coinrow's views against the same rows
 * in plain tables (read_back.h).  The queries are the kinds issue 34 names
 * (issue 22's among them) and the recipes of docs/batch.md and docs/sql.md,
 * each through result_view and again through `result`; $V stands for
 * result_view or its plain table, $R for result or its plain table, $ID for
 * the ext_id of an instance near the end of the run. */
#define _DEFAULT_SOURCE /* getrusage */
#include "read_back.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <sqlite3.h>

#include "bench.h"

static const struct query {
    const char *what, *sql;
} queries[] = {
    {"an aggregate over one variant", "SELECT winner, count(*) FROM $V WHERE variant = 'diff' GROUP BY winner"},
    {"an aggregate over one variant of a run",
     "SELECT avg(value), max(first_score) FROM $V WHERE run_id = 1 AND variant = 'total'"},
    {"the winners of each set",
     "SELECT set_name, winner, count(*) FROM $V WHERE variant = 'winner' GROUP BY set_name, winner"},
    {"what could not be solved", "SELECT ext_id, variant, error FROM $V WHERE error IS NOT NULL"},
    {"every row of a run", "SELECT * FROM $V WHERE run_id = 1"},
    {"every row", "SELECT * FROM $V"},
    {"every line of one variant", "SELECT ext_id, value, moves FROM $V WHERE run_id = 1 AND variant = 'diff'"},
    {"a pattern on lines", "SELECT count(*) FROM $V WHERE variant = 'remaining' AND moves LIKE 'LL%'"},
    {"two variants of one instance side by side",
     "SELECT a.ext_id, a.value, b.value FROM $V AS a JOIN $V AS b ON b.run_id = a.run_id "
     "AND b.instance_id = a.instance_id WHERE a.variant = 'total' AND b.variant = 'diff'"},
    {"two runs of the set side by side",
     "SELECT a.ext_id, a.value, b.value FROM $V AS a JOIN $V AS b ON b.ext_id = a.ext_id AND b.variant = a.variant "
     "WHERE a.run_id = 1 AND b.run_id = 2 AND a.variant = 'diff' AND a.value <> b.value"},
    {"the largest values",
     "SELECT ext_id, value FROM $V WHERE run_id = 1 AND variant = 'diff' ORDER BY value DESC LIMIT 100"},
    {"a range of n", "SELECT count(*), sum(value) FROM $V WHERE variant = 'total' AND n BETWEEN 16 AND 48"},
    {"one instance by ext_id", "SELECT run_id, variant, value, moves FROM $V WHERE ext_id = '$ID'"},
    {"with the instance's total",
     "SELECT v.ext_id, v.value, i.total FROM $V AS v JOIN instance AS i ON i.id = v.instance_id "
     "WHERE v.variant = 'total' AND 2 * v.value < i.total"},
    {"an aggregate over one variant", "SELECT winner, count(*) FROM $R WHERE variant = 'diff' GROUP BY winner"},
    {"the winners of each run",
     "SELECT run_id, winner, count(*) FROM $R WHERE variant = 'winner' GROUP BY run_id, winner"},
    {"what could not be solved", "SELECT instance_id, variant, error FROM $R WHERE error IS NOT NULL"},
    {"every row of a run", "SELECT * FROM $R WHERE run_id = 1"},
    {"every line of one variant", "SELECT instance_id, value, moves FROM $R WHERE run_id = 1 AND variant = 'diff'"},
    {"a pattern on lines", "SELECT count(*) FROM $R WHERE variant = 'remaining' AND moves LIKE 'LL%'"},
    {"two variants of one instance side by side",
     "SELECT a.instance_id, a.value, b.value FROM $R AS a JOIN $R AS b ON b.run_id = a.run_id "
     "AND b.instance_id = a.instance_id WHERE a.variant = 'total' AND b.variant = 'diff'"},
    {"two runs of the set side by side",
     "SELECT a.instance_id, a.value, b.value FROM $R AS a JOIN $R AS b ON b.instance_id = a.instance_id "
     "AND b.variant = a.variant WHERE a.run_id = 1 AND b.run_id = 2 AND a.variant = 'diff' AND a.value <> b.value"},
    {"the largest values",
     "SELECT instance_id, value FROM $R WHERE run_id = 1 AND variant = 'diff' ORDER BY value DESC LIMIT 100"},
    {"a range of n",
     "SELECT count(*), sum(r.value) FROM $R AS r JOIN instance AS i ON i.id = r.instance_id "
     "WHERE r.variant = 'total' AND i.n BETWEEN 16 AND 48"},
    {"one instance by ext_id",
     "SELECT r.run_id, r.variant, r.value, r.moves FROM $R AS r JOIN instance AS i ON i.id = r.instance_id "
     "WHERE i.ext_id = '$ID'"},
};
#define QUERIES (int)(sizeof queries / sizeof *queries)

/* The plain tables: every row of each view, in the order a run writes them
 * (instance by instance, its variants together), with the indexes a
 * reader would make. */
static const char build_sql[] =
    "PRAGMA cache_size = -262144;"
    "CREATE TABLE plain_view AS SELECT * FROM result_view ORDER BY run_id, instance_id, variant;"
    "CREATE INDEX plain_view_run_variant ON plain_view (run_id, variant);"
    "CREATE INDEX plain_view_run_instance ON plain_view (run_id, instance_id);"
    "CREATE INDEX plain_view_ext_id ON plain_view (ext_id);"
    "CREATE TABLE plain_result AS SELECT * FROM result ORDER BY run_id, instance_id, variant;"
    "CREATE INDEX plain_result_run_variant ON plain_result (run_id, variant);"
    "CREATE INDEX plain_result_run_instance ON plain_result (run_id, instance_id);";

enum { VIEWS, PLAIN, SIDES };

/* sql with $V, $R and $ID replaced: the views' or the plain tables' names,
 * and id. */
static void expand(char *out, size_t cap, const char *sql, int side, const char *id)
{
    const char *view = side == VIEWS ? "result_view" : "plain_view", *result = side == VIEWS ? "result" : "plain_result";
    size_t len = 0;
    for (const char *p = sql; *p && len + 1 < cap; p++) {
        const char *with = NULL;
        size_t skip = 0;
        if (strncmp(p, "$V", 2) == 0)
            with = view, skip = 2;
        else if (strncmp(p, "$R", 2) == 0)
            with = result, skip = 2;
        else if (strncmp(p, "$ID", 3) == 0)
            with = id, skip = 3;
        if (with) {
            len += (size_t)snprintf(out + len, cap - len, "%s", with);
            p += skip - 1;
        } else {
            out[len++] = *p;
        }
    }
    out[len < cap ? len : cap - 1] = '\0';
}

static double cpu_now(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/* What a query gave: its rows, and a digest of them that does not depend
 * on their order. */
typedef struct answer {
    long rows;
    uint64_t digest;
} answer;

/* Steps through every row of sql, each column read as text as the sqlite3
 * shell would print it, and again until 50 ms have gone (a lookup takes
 * microseconds): the wall and CPU seconds of one pass, and its answer. */
static void run_query(double *out_wall, double *out_cpu, answer *out, sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
        fprintf(stderr, "bench_pipeline: %s: %s\n", sql, sqlite3_errmsg(db));
        exit(1);
    }
    double t0 = bench_now(), c0 = cpu_now(), wall = 0;
    int passes = 0;
    do {
        *out = (answer){0, 0};
        int step;
        while ((step = sqlite3_step(st)) == SQLITE_ROW) {
            uint64_t h = 1469598103934665603u; /* FNV-1a over the row's columns */
            for (int c = 0; c < sqlite3_column_count(st); c++) {
                const unsigned char *text = sqlite3_column_text(st, c);
                for (; text && *text; text++)
                    h = (h ^ *text) * 1099511628211u;
                h = (h ^ 0xff) * 1099511628211u;
            }
            out->rows++;
            out->digest += h;
        }
        if (step != SQLITE_DONE) {
            fprintf(stderr, "bench_pipeline: %s: %s\n", sql, sqlite3_errmsg(db));
            exit(1);
        }
        sqlite3_reset(st);
        passes++;
        wall = bench_now() - t0;
    } while (wall < 0.05);
    *out_wall = wall / passes;
    *out_cpu = (cpu_now() - c0) / passes;
    sqlite3_finalize(st);
}

/* Seconds as the table shows them: milliseconds below a tenth of one. */
static const char *seconds_text(char *buf, size_t cap, double s)
{
    if (s < 0.1)
        snprintf(buf, cap, "%.3f ms", s * 1e3);
    else
        snprintf(buf, cap, "%.3f s", s);
    return buf;
}

void bench_read_back(const char *path, long rows, int reps)
{
    sqlite3 *db = NULL;
    char id[32], sql[2048];
    snprintf(id, sizeof id, "i%07ld", rows - rows / 4);
    fprintf(stderr, "reading back: the plain tables ...\n");
    if (sqlite3_open(path, &db) != SQLITE_OK || sqlite3_exec(db, build_sql, NULL, NULL, NULL) != SQLITE_OK) {
        fprintf(stderr, "bench_pipeline: %s: %s\n", path, sqlite3_errmsg(db));
        exit(1);
    }
    sqlite3_close(db);
    /* a reader as plain sqlite3 opens it: read-only, SQLite's default cache */
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        fprintf(stderr, "bench_pipeline: %s: %s\n", path, sqlite3_errmsg(db));
        exit(1);
    }
    static double wall[QUERIES][SIDES][16], cpu[QUERIES][SIDES][16];
    for (int r = 0; r < reps; r++) {
        fprintf(stderr, "reading back, turn %d of %d ...\n", r + 1, reps);
        for (int q = 0; q < QUERIES; q++) {
            answer got[SIDES];
            for (int k = 0; k < SIDES; k++) {
                int side = (r + q + k) % 2; /* who goes first alternates */
                expand(sql, sizeof sql, queries[q].sql, side, id);
                run_query(&wall[q][side][r], &cpu[q][side][r], &got[side], db, sql);
            }
            if (got[VIEWS].rows != got[PLAIN].rows || got[VIEWS].digest != got[PLAIN].digest) {
                expand(sql, sizeof sql, queries[q].sql, VIEWS, id);
                fprintf(stderr, "bench_pipeline: %s: %ld rows through the views, %ld in the plain tables, or "
                                "other rows\n", sql, got[VIEWS].rows, got[PLAIN].rows);
                exit(1);
            }
        }
    }
    sqlite3_close(db);

    printf("\n| reading back, %ld x n=32, every variant (median of %d) | through the views | plain tables | ratio "
           "| CPU ratio |\n|---|---|---|---|---|\n",
           rows, reps);
    double worst[2] = {0, 0};
    for (int q = 0; q < QUERIES; q++) {
        double w[SIDES], c[SIDES];
        for (int s = 0; s < SIDES; s++) {
            w[s] = bench_median(wall[q][s], reps);
            c[s] = bench_median(cpu[q][s], reps);
        }
        char t[4][32];
        expand(sql, sizeof sql, queries[q].sql, VIEWS, id);
        printf("| %s: `%s` | %s (CPU %s) | %s (CPU %s) | %.2f | %.2f |\n", queries[q].what, sql,
               seconds_text(t[0], sizeof t[0], w[VIEWS]), seconds_text(t[1], sizeof t[1], c[VIEWS]),
               seconds_text(t[2], sizeof t[2], w[PLAIN]), seconds_text(t[3], sizeof t[3], c[PLAIN]),
               w[VIEWS] / w[PLAIN], c[PLAIN] > 0 ? c[VIEWS] / c[PLAIN] : 0);
        int through_result = strstr(queries[q].sql, "$R") != NULL;
        if (w[VIEWS] / w[PLAIN] > worst[through_result])
            worst[through_result] = w[VIEWS] / w[PLAIN];
    }
    printf("\nlargest ratio: %.2f through result_view, %.2f through result\n", worst[0], worst[1]);
}

/* The SQLite extension loaded through sqlite3_load_extension into fresh
 * connections: every function against the brute-force oracle on random rows,
 * every error message, NULLs, schema uses (generated column, index, CHECK),
 * threads, and what the library exports. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "coinrow.h"
#include "support/ext.h"
#include "support/oracle.h"
#include "support/run.h"

#define ROWS 4000
#define MAX_N 16

static sqlite3 *db;

static int setup(void **state)
{
    (void)state;
    db = ext_open();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    return sqlite3_close(db);
}

/* What a query gives: its first row's first column as text (NULL for SQL
 * NULL), or "error: MESSAGE".  Parameters ?1.. are the texts (NULL binds
 * NULL) up to the count. */
static char answer[1 << 16];

static const char *ask_on(sqlite3 *conn, const char *sql, int count, ...)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(conn, sql, -1, &st, NULL) != SQLITE_OK) {
        snprintf(answer, sizeof answer, "error: %s", sqlite3_errmsg(conn));
        return answer;
    }
    va_list ap;
    va_start(ap, count);
    for (int i = 1; i <= count; i++) {
        const char *text = va_arg(ap, const char *);
        if (text)
            sqlite3_bind_text(st, i, text, -1, SQLITE_TRANSIENT);
    }
    va_end(ap);
    const char *out = answer;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) == SQLITE_NULL)
        out = NULL;
    else if (rc == SQLITE_ROW)
        snprintf(answer, sizeof answer, "%s", (const char *)sqlite3_column_text(st, 0));
    else if (rc == SQLITE_DONE)
        snprintf(answer, sizeof answer, "no row");
    else
        snprintf(answer, sizeof answer, "error: %s", sqlite3_errmsg(conn));
    sqlite3_finalize(st);
    return out;
}

#define ASK(sql, ...) ask_on(db, sql, sizeof((const char *[]){__VA_ARGS__}) / sizeof(const char *), __VA_ARGS__)
#define ASK0(sql) ask_on(db, sql, 0)

static void assert_answer(const char *got, const char *want)
{
    if (!want)
        assert_null(got);
    else {
        assert_non_null(got);
        assert_string_equal(got, want);
    }
}

static const char *decimal(i128 v)
{
    static char text[4][48];
    static int next;
    char *out = text[next++ % 4], digits[48];
    int k = 0, negative = v < 0;
    unsigned __int128 m = negative ? -(unsigned __int128)v : (unsigned __int128)v;
    do
        digits[k++] = (char)('0' + (int)(m % 10));
    while ((m /= 10) != 0);
    size_t len = 0;
    if (negative)
        out[len++] = '-';
    while (k)
        out[len++] = digits[--k];
    out[len] = '\0';
    return out;
}

/* The row as text the ingest parser reads into out: a JSON array, or plain
 * values separated by spaces, commas or semicolons, by `style`. */
#define ROW_TEXT_MAX (MAX_N * 24 + 8)
static const char *row_text(char out[ROW_TEXT_MAX], const int64_t *a, size_t n, int style)
{
    static const char *const separators[] = {",", " ", ", ", " ; "};
    size_t len = 0;
    if (style == 0)
        out[len++] = '[';
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(out + len, ROW_TEXT_MAX - len, "%s%lld", i ? separators[style % 4] : "",
                                (long long)a[i]);
    if (style == 0)
        out[len++] = ']';
    out[len] = '\0';
    return out;
}

static const char *error_of(const char *function, const cr_error *err)
{
    static char text[CR_ERROR_MSG_MAX + 64];
    snprintf(text, sizeof text, "error: %s: %s", function, err->msg);
    return text;
}

/* The core's answer for one variant and policy, with the line kept. */
typedef struct expected {
    cr_result r;
    char line[MAX_N + 1];
} expected;

static expected core_answer(cr_solver *solver, const int64_t *a, size_t n, cr_variant v, cr_moves moves)
{
    expected e;
    cr_result all[CR_VARIANT_COUNT];
    cr_solve_opts opts = {CR_VARIANT_BIT(v), CR_ALGO_AUTO, moves};
    (void)cr_solve(all, solver, a, n, &opts, NULL);
    e.r = all[v];
    e.line[0] = '\0';
    if (e.r.moves)
        memcpy(e.line, e.r.moves, n + 1);
    return e;
}

static void check_variant(const oracle *o, cr_solver *solver, const char *text, cr_variant v, uint64_t *rng)
{
    const char *name = cr_variant_name(v);
    size_t n = o->n;
    expected value = core_answer(solver, o->a, n, v, CR_MOVES_NONE);
    i128 want = oracle_value(o, v);
    if (want < INT64_MIN || want > INT64_MAX)
        assert_int_equal(value.r.error.code, CR_EOVERFLOW);
    if (value.r.missing & CR_FIGURE_VALUE) /* the figure is named, as the CLI names it */
        assert_string_equal(ASK("SELECT coinrow_value(?1, ?2)", text, name), error_of("coinrow_value", &value.r.error));
    else
        assert_string_equal(ASK("SELECT coinrow_value(?1, ?2)", text, name), decimal(want));
    /* the winner, the line and the scores that fit whatever the value */
    expected fast = core_answer(solver, o->a, n, v, CR_MOVES_FAST);
    i128 lead = v == CR_REMAINING ? want : oracle_value(o, CR_DIFF);
    assert_string_equal(ASK("SELECT coinrow_winner(?1, ?2)", text, name), cr_winner_name((lead > 0) - (lead < 0)));
    {
        char line[MAX_N + 1];
        snprintf(line, sizeof line, "%s", ASK("SELECT coinrow_moves(?1, ?2)", text, name));
        assert_int_equal(strlen(line), n);
        assert_int_equal(oracle_first_bad_turn(o, v, line), -1);
        i128 scores[2];
        oracle_replay(o, v, line, scores);
        char json[256];
        char first[48], second[48]; /* a score outside int64 is null */
        snprintf(first, sizeof first, "%s", scores[0] < INT64_MIN || scores[0] > INT64_MAX ? "null" : decimal(scores[0]));
        snprintf(second, sizeof second, "%s",
                 scores[1] < INT64_MIN || scores[1] > INT64_MAX ? "null" : decimal(scores[1]));
        snprintf(json, sizeof json, "{\"first_score\":%s,\"second_score\":%s,\"moves\":\"%s\"}", first, second,
                 line);
        assert_string_equal(ASK("SELECT coinrow_scores(?1, ?2)", text, name), json);
        assert_string_equal(ASK("SELECT json_extract(coinrow_scores(?1, ?2), '$.moves')", text, name), line);
    }

    expected canonical = core_answer(solver, o->a, n, v, CR_MOVES_CANONICAL);
    if (!(canonical.r.missing & CR_FIGURE_VALUE)) {
        char smallest[MAX_N + 1];
        oracle_smallest_line(o, v, smallest);
        assert_string_equal(canonical.line, smallest);
        assert_string_equal(ASK("SELECT coinrow_moves(?1, ?2, 'canonical')", text, name), canonical.line);
    }

    /* the optimal line passes; a random one is judged as the oracle judges it */
    char line[MAX_N + 1];
    oracle_smallest_line(o, v, line);
    assert_string_equal(ASK("SELECT coinrow_check(?1, ?2, ?3)", text, name, line), "1");
    assert_null(ASK("SELECT coinrow_check_message(?1, ?2, ?3)", text, name, line));
    for (size_t k = 0; k < n; k++)
        line[k] = test_rand(rng) & 1 ? 'L' : 'R';
    long bad = oracle_first_bad_turn(o, v, line);
    assert_string_equal(ASK("SELECT coinrow_check(?1, ?2, ?3)", text, name, line), bad < 0 ? "1" : "0");
    const char *message = ASK("SELECT coinrow_check_message(?1, ?2, ?3)", text, name, line);
    if (bad < 0) {
        assert_null(message);
    } else {
        char turn[128];
        snprintf(turn, sizeof turn, "turn %ld (%s player): %c is not optimal, %c is", bad + 1,
                 bad % 2 ? "second" : "first", line[bad], line[bad] == 'L' ? 'R' : 'L');
        assert_string_equal(message, turn);
    }

    /* the table-valued function's row says the same, a figure that does not fit NULL */
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db,
                                        "SELECT variant, value, first_score, second_score, winner, moves, error "
                                        "FROM coinrow_solve(?1, ?2)",
                                        -1, &st, NULL),
                     SQLITE_OK);
    sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(st, 0), name);
    const int64_t figures[3] = {fast.r.value, fast.r.first_score, fast.r.second_score};
    for (int f = 0; f < 3; f++) {
        if (fast.r.missing & 1u << f)
            assert_int_equal(sqlite3_column_type(st, 1 + f), SQLITE_NULL);
        else
            assert_true(sqlite3_column_int64(st, 1 + f) == figures[f]);
    }
    if (fast.r.missing & CR_FIGURE_WINNER)
        assert_int_equal(sqlite3_column_type(st, 4), SQLITE_NULL);
    else
        assert_string_equal((const char *)sqlite3_column_text(st, 4), cr_winner_name(fast.r.winner));
    if (fast.r.moves)
        assert_string_equal((const char *)sqlite3_column_text(st, 5), fast.line);
    else
        assert_int_equal(sqlite3_column_type(st, 5), SQLITE_NULL);
    if (fast.r.error.code)
        assert_string_equal((const char *)sqlite3_column_text(st, 6), fast.r.error.msg);
    else
        assert_int_equal(sqlite3_column_type(st, 6), SQLITE_NULL);
    assert_int_equal(sqlite3_step(st), SQLITE_DONE);
    sqlite3_finalize(st);
}

static void test_ext__every_function_agrees_with_the_oracle(void **state)
{
    (void)state;
    uint64_t rng = 20261201;
    cr_solver *solver;
    assert_int_equal(cr_solver_new(&solver, NULL), 0);
    static oracle o;
    for (int t = 0; t < ROWS; t++) {
        int64_t a[MAX_N];
        size_t n;
        oracle_random_row(a, &n, MAX_N, &rng);
        oracle_build(&o, a, n);
        char text[ROW_TEXT_MAX];
        row_text(text, a, n, t % 5);
        for (int v = 0; v < CR_VARIANT_COUNT; v++)
            check_variant(&o, solver, text, (cr_variant)v, &rng);
        /* all four variants by default, in the enum's order */
        assert_string_equal(ASK("SELECT group_concat(variant) FROM coinrow_solve(?1)", text),
                            "total,diff,remaining,winner");
    }
    cr_solver_free(solver);
}

/* Bad input is an SQL error naming the function, then what and where as the
 * CLI says it. */
static void test_ext__errors_name_the_token_and_its_position(void **state)
{
    (void)state;
    static const char *const functions[] = {"coinrow_value", "coinrow_winner", "coinrow_scores", "coinrow_moves"};
    static const struct {
        const char *coins, *message;
    } bad_rows[] = {
        {"4 x 2", "value 2 ('x') is not an integer"},
        {"[4,6,2.5]", "value 3 ('2.5') is not an integer"},
        {"1 99999999999999999999", "value 2 ('99999999999999999999') is out of the int64 range"},
        {"-9223372036854775809", "value 1 ('-9223372036854775809') is out of the int64 range"},
        {"", "no values"},
        {"[]", "no values"},
        {"4,,2", "value 2 is empty"},
        {"[4,6", "'[' without a closing ']'"},
    };
    char sql[128], want[256];
    for (size_t f = 0; f < sizeof functions / sizeof *functions; f++) {
        snprintf(sql, sizeof sql, "SELECT %s(?1, ?2)", functions[f]);
        for (size_t k = 0; k < sizeof bad_rows / sizeof *bad_rows; k++) {
            snprintf(want, sizeof want, "error: %s: %s", functions[f], bad_rows[k].message);
            assert_answer(ASK(sql, bad_rows[k].coins, "diff"), want);
        }
        snprintf(want, sizeof want, "error: %s: unknown variant 'dif' (expected total, diff, remaining or winner)",
                 functions[f]);
        assert_answer(ASK(sql, "4 6 2 3", "dif"), want);
    }
    assert_answer(ASK("SELECT coinrow_check(?1, 'diff', 'LL')", "4 x"),
                  "error: coinrow_check: value 2 ('x') is not an integer");
    assert_answer(ASK("SELECT coinrow_check_message(?1, 'diff', 'LL')", "4 x"),
                  "error: coinrow_check_message: value 2 ('x') is not an integer");

    /* policies */
    assert_answer(ASK0("SELECT coinrow_moves('4 6 2 3', 'diff', 'fastest')"),
                  "error: coinrow_moves: unknown moves policy 'fastest' (expected fast, canonical or none)");
    assert_answer(ASK0("SELECT coinrow_moves('4 6 2 3', 'diff', 'none')"),
                  "error: coinrow_moves: moves policy 'none' gives no line (expected fast or canonical)");

    /* lines that are not lines of this row, whatever their first bad move */
    static const struct {
        const char *line, *message;
    } bad_lines[] = {
        {"LLXL", "turn 3 (first player): 'X' is not a move (L or R)"},
        {"RLLl", "turn 4 (second player): 'l' is not a move (L or R)"},
        {"LLRx", "turn 4 (second player): 'x' is not a move (L or R)"}, /* after a suboptimal turn 1 */
        {"RLL", "the line has 3 moves for 4 coins"},
        {"RLLLL", "the line has 5 moves for 4 coins"},
        {"", "the line has 0 moves for 4 coins"},
        /* a letter no move is named before the length its bytes make (it said "5 moves") */
        {"RLL\xc3\xa9", "turn 4 (second player): '\\xc3' is not a move (L or R)"},
        {"RLLLX", "turn 5: 'X' is not a move (L or R)"},
        {"R", "the line has 1 move for 4 coins"},
    };
    for (size_t k = 0; k < sizeof bad_lines / sizeof *bad_lines; k++) {
        snprintf(want, sizeof want, "error: coinrow_check: %s", bad_lines[k].message);
        assert_answer(ASK("SELECT coinrow_check('[4,6,2,3]', 'diff', ?1)", bad_lines[k].line), want);
        snprintf(want, sizeof want, "error: coinrow_check_message: %s", bad_lines[k].message);
        assert_answer(ASK("SELECT coinrow_check_message('[4,6,2,3]', 'diff', ?1)", bad_lines[k].line), want);
    }

    /* the table-valued function */
    assert_answer(ASK0("SELECT count(*) FROM coinrow_solve('4 x')"),
                  "error: coinrow_solve: value 2 ('x') is not an integer");
    assert_answer(ASK0("SELECT count(*) FROM coinrow_solve('4 6', 'diff,dif')"),
                  "error: coinrow_solve: unknown variant 'dif' in 'diff,dif' (expected total, diff, remaining, winner "
                  "or all)");
    assert_answer(ASK0("SELECT count(*) FROM coinrow_solve('4 6', '')"), "error: coinrow_solve: empty variant list");
    assert_answer(ASK0("SELECT count(*) FROM coinrow_solve('4 6', 'all,diff')"),
                  "error: coinrow_solve: 'all' in 'all,diff' stands alone, not in a list");
    /* a NUL byte in a name: C read "diff" || char(0) || "xyz" as diff */
    assert_answer(ASK0("SELECT coinrow_value('4 6', 'diff' || char(0) || 'xyz')"),
                  "error: coinrow_value: the variant has a NUL byte");
    assert_answer(ASK0("SELECT coinrow_moves('4 6', 'diff', 'fast' || char(0))"),
                  "error: coinrow_moves: the moves policy has a NUL byte");
    assert_answer(ASK0("SELECT count(*) FROM coinrow_solve('4 6', 'diff' || char(0))"),
                  "error: coinrow_solve: the variant list has a NUL byte");
    assert_answer(ASK0("SELECT count(*) FROM coinrow_solve('4 6', 'all', 'fastest')"),
                  "error: coinrow_solve: unknown moves policy 'fastest' (expected fast, canonical or none)");
    assert_answer(ASK0("SELECT count(*) FROM coinrow_solve"),
                  "error: coinrow_solve needs the coins: coinrow_solve(coins [, variants [, policy]])");

    /* SQLite's own: a wrong number of arguments */
    assert_answer(ASK0("SELECT coinrow_value('4 6')"), "error: wrong number of arguments to function coinrow_value()");
    assert_answer(ASK0("SELECT coinrow_moves('4 6', 'diff', 'fast', 1)"),
                  "error: wrong number of arguments to function coinrow_moves()");
}

/* A figure outside int64 is an SQL error naming it in the scalar functions,
 * and the row's error with NULL figures in coinrow_solve, whose other rows
 * are still answered.  A value is given whenever it fits, a score that
 * does not is NULL, the winner and the line always are (they were the
 * value's error), and the error names each figure that does not fit with
 * its exact value. */
static void test_ext__overflow_names_the_figure(void **state)
{
    (void)state;
    const char *row = "[9223372036854775807, 9223372036854775807, 1]";
    assert_answer(ASK("SELECT coinrow_value(?1, 'total')", row),
                  "error: coinrow_value: the total value (9223372036854775808) and first_score (9223372036854775808) "
                  "do not fit in int64");
    assert_answer(ASK("SELECT coinrow_value(?1, 'diff')", row), "1");
    assert_answer(ASK("SELECT coinrow_moves(?1, 'remaining')", row), "RLL");
    assert_answer(ASK("SELECT coinrow_scores(?1, 'diff')", row),
                  "{\"first_score\":null,\"second_score\":9223372036854775807,\"moves\":\"LLL\"}");
    assert_answer(ASK("SELECT coinrow_winner(?1, 'total')", row), "first");
    const char *wide = "[-9223372036854775808, 5]"; /* its diff, 5 - INT64_MIN, does not fit */
    assert_answer(ASK("SELECT coinrow_winner(?1, 'diff')", wide), "first");
    assert_answer(ASK("SELECT coinrow_moves(?1, 'diff')", wide), "RL");
    assert_answer(ASK("SELECT coinrow_scores(?1, 'diff')", wide),
                  "{\"first_score\":5,\"second_score\":-9223372036854775808,\"moves\":\"RL\"}");
    assert_answer(ASK("SELECT group_concat(variant || ':' || ifnull(value, 'NULL') || ':' || ifnull(first_score, 'NULL') "
                      "|| ':' || ifnull(error, '-'), ' | ') FROM coinrow_solve(?1)",
                      row),
                  "total:NULL:NULL:the total value (9223372036854775808) and first_score (9223372036854775808) do not "
                  "fit in int64 | "
                  "diff:1:NULL:the diff first_score (9223372036854775808) does not fit in int64 | "
                  "remaining:9223372036854775807:NULL:the remaining first_score (18446744073709551614) does not fit in "
                  "int64 | "
                  "winner:1:NULL:the winner first_score (9223372036854775808) does not fit in int64");
    assert_answer(ASK0("SELECT group_concat(ifnull(value, 'NULL') || ':' || ifnull(error, '-'), ' | ') "
                       "FROM (SELECT '[4,6,2,3]' AS coins UNION ALL SELECT '[9223372036854775807,1,1]') AS t, "
                       "coinrow_solve(t.coins, 'diff')"),
                  "3:- | 9223372036854775807:the diff first_score (9223372036854775808) does not fit in int64");
}

/* The fast line takes the left end on a tie, and a row whose merging leaves
 * int64 is solved in 128 bits: in SQL as in C. */
static void test_ext__fast_lines_tie_left_and_wide_rows_are_exact(void **state)
{
    (void)state;
    assert_answer(ASK0("SELECT coinrow_moves('[5,1,5]', 'diff')"), "LRL");
    assert_answer(ASK0("SELECT coinrow_moves('[7,7]', 'total', 'fast')"), "LL");
    const char *row = "[-9000000000000000000, 9000000000000000000, 9000000000000000000]";
    assert_answer(ASK("SELECT coinrow_value(?1, 'diff')", row), "-9000000000000000000");
    assert_answer(ASK("SELECT coinrow_value(?1, 'remaining')", row), "9000000000000000000");
    assert_answer(ASK("SELECT coinrow_winner(?1, 'diff')", row), "second");
}

/* A canonical line takes about 66 bytes a coin (cr_moves_canonical_bytes):
 * more than SQLite may use is refused before anything is allocated, saying
 * what it needs. */
static void test_ext__canonical_beyond_the_heap_limit_says_what_it_needs(void **state)
{
    (void)state;
    char *row = malloc(20000 * 2 + 1);
    assert_non_null(row);
    for (int i = 0; i < 20000; i++) {
        row[2 * i] = (char)('0' + i % 7);
        row[2 * i + 1] = ' ';
    }
    row[2 * 20000 - 1] = '\0';
    assert_answer(ASK("SELECT length(coinrow_moves(?1, 'diff', 'canonical'))", row), "20000");
    sqlite3_hard_heap_limit64(1000000);
    const char *got = ASK("SELECT coinrow_moves(?1, 'diff', 'canonical')", row);
    char kept[512];
    snprintf(kept, sizeof kept, "%s", got ? got : "NULL");
    const char *solve = ASK("SELECT count(*) FROM coinrow_solve(?1, 'diff', 'canonical')", row);
    char kept_solve[512];
    snprintf(kept_solve, sizeof kept_solve, "%s", solve ? solve : "NULL");
    const char *fast = ASK("SELECT length(coinrow_moves(?1, 'diff'))", row);
    char kept_fast[64];
    snprintf(kept_fast, sizeof kept_fast, "%s", fast ? fast : "NULL");
    sqlite3_hard_heap_limit64(0);
    free(row);
    assert_string_equal(kept, "error: coinrow_moves: canonical line of 20000 coins needs 2 MiB, more than PRAGMA "
                              "hard_heap_limit = 1000000 allows");
    assert_string_equal(kept_solve, "error: coinrow_solve: canonical line of 20000 coins needs 2 MiB, more than "
                                    "PRAGMA hard_heap_limit = 1000000 allows");
    assert_string_equal(kept_fast, "20000"); /* the fast line needs no such memory */
}

static void test_ext__null_in_null_out(void **state)
{
    (void)state;
    static const struct {
        const char *call;
        int args;
    } calls[] = {
        {"coinrow_value(?1, ?2)", 2},     {"coinrow_winner(?1, ?2)", 2},    {"coinrow_scores(?1, ?2)", 2},
        {"coinrow_moves(?1, ?2)", 2},     {"coinrow_moves(?1, ?2, ?3)", 3}, {"coinrow_check(?1, ?2, ?3)", 3},
        {"coinrow_check_message(?1, ?2, ?3)", 3},
    };
    char sql[128];
    for (size_t k = 0; k < sizeof calls / sizeof *calls; k++) {
        snprintf(sql, sizeof sql, "SELECT %s", calls[k].call);
        int policy = strncmp(calls[k].call, "coinrow_moves", 13) == 0;
        for (int null_at = 0; null_at < calls[k].args; null_at++) {
            const char *a[3] = {"[4,6,2,3]", "diff", policy ? "fast" : "RLLL"};
            a[null_at] = NULL;
            assert_answer(ask_on(db, sql, calls[k].args, a[0], a[1], a[2]), NULL);
        }
        /* NULL comes before a bad argument is read */
        assert_answer(ask_on(db, sql, calls[k].args, NULL, "no such variant", "x"), NULL);
    }
    assert_answer(ASK0("SELECT count(*) FROM coinrow_solve(NULL)"), "0");
    assert_answer(ASK0("SELECT count(*) FROM coinrow_solve('[4,6]', NULL)"), "0");
    assert_answer(ASK0("SELECT count(*) FROM coinrow_solve('[4,6]', 'all', NULL)"), "0");
    assert_answer(ASK0("SELECT count(*) FROM coinrow_solve(NULL, 'no such variant')"), "0");
    assert_answer(ASK0("SELECT coinrow_version() IS NOT NULL"), "1");
}

/* The functions are deterministic and innocuous: a generated column, an
 * index on an expression and a CHECK constraint use them, with
 * trusted_schema off, and queries use the index. */
static void test_ext__schema_uses_with_an_untrusted_schema(void **state)
{
    (void)state;
    assert_int_equal(sqlite3_exec(db,
                                  "PRAGMA trusted_schema = OFF;"
                                  "CREATE TABLE game(id INTEGER PRIMARY KEY, coins TEXT NOT NULL,"
                                  "  diff INTEGER GENERATED ALWAYS AS (coinrow_value(coins, 'diff')) STORED,"
                                  "  line TEXT GENERATED ALWAYS AS (coinrow_moves(coins, 'diff')) VIRTUAL,"
                                  "  CHECK (coinrow_winner(coins, 'diff') <> 'second'));"
                                  "CREATE INDEX game_total ON game(coinrow_value(coins, 'total'));"
                                  "INSERT INTO game(coins) VALUES ('[4,6,2,3]'), ('8 15 3 7'), ('[5,5]');",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    assert_answer(ASK0("SELECT group_concat(id || ':' || diff || ':' || line, ' ') FROM game"),
                  "1:3:RLLL 2:11:RLLL 3:0:LL");
    sqlite3_stmt *plan;
    assert_int_equal(sqlite3_prepare_v2(db, "EXPLAIN QUERY PLAN SELECT id FROM game WHERE coinrow_value(coins, 'total') = 22",
                                        -1, &plan, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_step(plan), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(plan, 3), "SEARCH game USING INDEX game_total (<expr>=?)");
    sqlite3_finalize(plan);
    assert_answer(ASK0("SELECT id FROM game WHERE coinrow_value(coins, 'total') = 22"), "2");
    /* [1,5,1]: the second player takes the 5 */
    assert_answer(ASK0("INSERT INTO game(coins) VALUES ('[1,5,1]')"),
                  "error: CHECK constraint failed: coinrow_winner(coins, 'diff') <> 'second'");
    assert_int_equal(sqlite3_exec(db, "DROP TABLE game; PRAGMA trusted_schema = ON;", NULL, NULL, NULL), SQLITE_OK);
}

/* coinrow_solve in joins: each cursor has its own solver, so two cursors
 * and scalar calls between their rows keep their lines; the planner puts
 * the table first whichever way the query is written. */
static void test_ext__solve_joins_tables_and_itself(void **state)
{
    (void)state;
    assert_answer(ASK0("SELECT a.moves || ' ' || b.moves || ' ' || coinrow_moves('[1,2,3,4,5]', 'diff') || ' ' || "
                       "a.moves FROM coinrow_solve('[4,6,2,3]', 'diff') AS a, coinrow_solve('[2,7,3]', 'total') AS b"),
                  "RLLL LLL RRRRL RLLL");
    assert_int_equal(sqlite3_exec(db,
                                  "CREATE TABLE instance(id INTEGER PRIMARY KEY, coins TEXT);"
                                  "INSERT INTO instance(coins) VALUES ('[4,6,2,3]'), ('[8,15,3,7]'), ('[1,5,1]');",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    const char *want = "1 diff 3 first,1 winner 1 first,2 diff 11 first,2 winner 1 first,3 diff -3 second,"
                       "3 winner -1 second";
    assert_answer(ASK0("SELECT group_concat(i.id || ' ' || s.variant || ' ' || s.value || ' ' || s.winner) "
                       "FROM instance AS i, coinrow_solve(i.coins, 'diff,winner') AS s"),
                  want);
    assert_answer(ASK0("SELECT group_concat(i.id || ' ' || s.variant || ' ' || s.value || ' ' || s.winner) "
                       "FROM coinrow_solve(i.coins, 'winner,diff') AS s, instance AS i"),
                  want);
    assert_answer(ASK0("SELECT sum(coinrow_value(coins, 'diff')) FROM instance"), "11");
    assert_int_equal(sqlite3_exec(db, "DROP TABLE instance", NULL, NULL, NULL), SQLITE_OK);
}

static void test_ext__version_is_coinrows(void **state)
{
    (void)state;
    run_result r;
    COINROW(&r, NULL, "--version");
    char want[256];
    snprintf(want, sizeof want, "coinrow %s\n", ASK0("SELECT coinrow_version()"));
    assert_string_equal(r.out, want);
    run_result_free(&r);
}

static void replacement(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc, (void)argv;
    sqlite3_result_int(ctx, 42);
}

/* Loading again replaces the functions and frees the old workspace;
 * replacing one function leaves the others working; closing frees the
 * rest (the sanitizer build finds any leak). */
static void test_ext__workspace_lives_as_long_as_its_functions(void **state)
{
    (void)state;
    sqlite3 *conn = ext_open();
    char *error = NULL;
    assert_int_equal(sqlite3_load_extension(conn, ext_path(), NULL, &error), SQLITE_OK);
    assert_int_equal(sqlite3_create_function(conn, "coinrow_value", 2, SQLITE_UTF8, NULL, replacement, NULL, NULL),
                     SQLITE_OK);
    assert_answer(ask_on(conn, "SELECT coinrow_value('[4,6,2,3]', 'diff')", 0), "42");
    assert_answer(ask_on(conn, "SELECT coinrow_moves('[4,6,2,3]', 'diff')", 0), "RLLL");
    assert_answer(ask_on(conn, "SELECT value FROM coinrow_solve('[4,6,2,3]', 'diff')", 0), "3");
    assert_int_equal(sqlite3_close(conn), SQLITE_OK);
}

/* Two connections in two threads at once, each checking its answers
 * against the core (cmocka is not thread-safe: the threads count). */
typedef struct worker {
    uint64_t seed;
    int rows, wrong;
    pthread_barrier_t *start;
    const char *ext; /* the extension's path, made before the threads start: ext_path's buffer is shared */
    char why[256]; /* what stopped it before its first row */
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    sqlite3 *conn = NULL;
    sqlite3_stmt *st = NULL;
    cr_solver *solver = NULL;
    char *load_error = NULL;
    w->wrong = w->rows;
    int ready = sqlite3_open(":memory:", &conn) == SQLITE_OK && sqlite3_enable_load_extension(conn, 1) == SQLITE_OK &&
                sqlite3_load_extension(conn, w->ext, NULL, &load_error) == SQLITE_OK &&
                sqlite3_prepare_v2(conn,
                                   "SELECT coinrow_value(?1, 'diff'), coinrow_moves(?1, 'remaining', 'canonical'), "
                                   "(SELECT value FROM coinrow_solve(?1, 'total'))",
                                   -1, &st, NULL) == SQLITE_OK &&
                cr_solver_new(&solver, NULL) == 0;
    if (!ready)
        snprintf(w->why, sizeof w->why, "%s", load_error ? load_error : conn ? sqlite3_errmsg(conn) : "no connection");
    sqlite3_free(load_error);
    pthread_barrier_wait(w->start);
    for (int t = 0; ready && t < w->rows; t++) {
        int64_t a[MAX_N];
        size_t n = (size_t)test_rand_range(&w->seed, 1, MAX_N);
        for (size_t i = 0; i < n; i++)
            a[i] = test_rand_range(&w->seed, -1000, 1000);
        cr_result r[CR_VARIANT_COUNT];
        cr_solve_opts opts = {CR_VARIANTS_ALL, CR_ALGO_AUTO, CR_MOVES_CANONICAL};
        char text[ROW_TEXT_MAX];
        sqlite3_bind_text(st, 1, row_text(text, a, n, t % 4), -1, SQLITE_TRANSIENT);
        if (cr_solve(r, solver, a, n, &opts, NULL) == 0 && sqlite3_step(st) == SQLITE_ROW &&
            sqlite3_column_int64(st, 0) == r[CR_DIFF].value &&
            strcmp((const char *)sqlite3_column_text(st, 1), r[CR_REMAINING].moves) == 0 &&
            sqlite3_column_int64(st, 2) == r[CR_TOTAL].value)
            w->wrong--;
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    sqlite3_close(conn);
    cr_solver_free(solver);
    return NULL;
}

static void test_ext__two_threads_on_two_connections(void **state)
{
    (void)state;
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, 2);
    const char *ext = ext_path();
    worker w[2] = {{.seed = 1, .rows = 20000, .start = &start, .ext = ext},
                   {.seed = 2, .rows = 20000, .start = &start, .ext = ext}};
    pthread_t threads[2];
    for (int k = 0; k < 2; k++)
        assert_int_equal(pthread_create(&threads[k], NULL, work, &w[k]), 0);
    for (int k = 0; k < 2; k++)
        pthread_join(threads[k], NULL);
    pthread_barrier_destroy(&start);
    for (int k = 0; k < 2; k++)
        if (w[k].why[0] || w[k].wrong)
            fail_msg("thread %d: %d of %d rows wrong%s%s", k, w[k].wrong, w[k].rows, w[k].why[0] ? ": " : "",
                     w[k].why);
}

/* The library exports its entry point alone: a host that has functions of
 * the same names as ours (this test links the core itself) never calls
 * ours, nor we its. */
static void test_ext__only_the_entry_point_is_exported(void **state)
{
    (void)state;
    run_result r;
    char *argv[] = {"nm", "-D", "--defined-only", (char *)ext_path(), NULL};
    assert_int_equal(run_capture(&r, argv, NULL), 0);
    if (r.status == 127) {
        run_result_free(&r);
        skip(); /* no binutils */
    }
    assert_int_equal(r.status, 0);
    const char *after_address = strchr(r.out, ' ');
    assert_non_null(after_address);
    assert_string_equal(after_address, " T sqlite3_coinrow_init\n");
    run_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ext__every_function_agrees_with_the_oracle),
        cmocka_unit_test(test_ext__errors_name_the_token_and_its_position),
        cmocka_unit_test(test_ext__overflow_names_the_figure),
        cmocka_unit_test(test_ext__fast_lines_tie_left_and_wide_rows_are_exact),
        cmocka_unit_test(test_ext__canonical_beyond_the_heap_limit_says_what_it_needs),
        cmocka_unit_test(test_ext__null_in_null_out),
        cmocka_unit_test(test_ext__schema_uses_with_an_untrusted_schema),
        cmocka_unit_test(test_ext__solve_joins_tables_and_itself),
        cmocka_unit_test(test_ext__version_is_coinrows),
        cmocka_unit_test(test_ext__workspace_lives_as_long_as_its_functions),
        cmocka_unit_test(test_ext__two_threads_on_two_connections),
        cmocka_unit_test(test_ext__only_the_entry_point_is_exported),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

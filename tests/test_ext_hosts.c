/* The extension in the programs users load it into: the sqlite3 shell
 * (.load and load_extension()) and Debian's Python; and docs/sql.md's
 * examples, run in the shell as written. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/ext.h"
#include "support/files.h"
#include "support/run.h"

#define PYTHON "/usr/bin/python3"
#define DOCS "docs/sql.md"

static int shell_found;

static int setup(void **state)
{
    (void)state;
    ext_host_env();
    run_result r;
    char *argv[] = {"sqlite3", "-version", NULL};
    shell_found = run_capture(&r, argv, NULL) == 0 && r.status == 0;
    if (shell_found)
        run_result_free(&r);
    else
        fprintf(stderr, "notice: no sqlite3 shell, its tests are skipped (sudo apt-get install -y sqlite3)\n");
    return 0;
}

/* Runs the sqlite3 shell on db with the extension loaded by `load` (a
 * dot-command, before the input) and sql on its standard input. */
static void shell(run_result *out, const char *db, const char *load, const char *sql)
{
    if (!shell_found)
        skip();
    char *argv[] = {"sqlite3", "-cmd", (char *)load, (char *)db, NULL};
    assert_int_equal(run_capture(out, argv, sql), 0);
}

static void test_hosts__shell_loads_it_with_dot_load(void **state)
{
    (void)state;
    char load[4200];
    snprintf(load, sizeof load, ".load %s", ext_path());
    run_result r;
    shell(&r, ":memory:", load,
          "SELECT coinrow_value('[4,6,2,3]', 'diff'), coinrow_moves('4 6 2 3', 'total');\n"
          "SELECT variant, value FROM coinrow_solve('[8,15,3,7]', 'total,winner');\n");
    assert_string_equal(r.err, "");
    assert_string_equal(r.out, "3|RLLL\ntotal|22\nwinner|1\n");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
}

static void test_hosts__shell_loads_it_with_load_extension(void **state)
{
    (void)state;
    char sql[4200];
    snprintf(sql, sizeof sql,
             "SELECT load_extension('%s');\n"
             "SELECT coinrow_winner('1 5 1', 'diff');\n",
             ext_path());
    run_result r;
    shell(&r, ":memory:", ".headers off", sql);
    assert_string_equal(r.err, "");
    assert_string_equal(r.out, "\nsecond\n"); /* load_extension() itself returns NULL */
    run_result_free(&r);
}

static void test_hosts__python_loads_it(void **state)
{
    (void)state;
    static const char script[] =
        "import sqlite3, sys\n"
        "db = sqlite3.connect(':memory:')\n"
        "if not hasattr(db, 'enable_load_extension'):\n"
        "    print('this Python cannot load SQLite extensions'); sys.exit(77)\n"
        "db.enable_load_extension(True)\n"
        "db.load_extension(sys.argv[1])\n"
        "db.enable_load_extension(False)\n"
        "print(db.execute(\"SELECT coinrow_value(?, 'diff'), coinrow_check(?, 'diff', 'RLLL')\",\n"
        "                 ('[4,6,2,3]', '4 6 2 3')).fetchone())\n"
        "print(db.execute(\"SELECT variant, value, moves FROM coinrow_solve('[4,6,2,3]', 'diff,winner')\").fetchall())\n"
        "try:\n"
        "    db.execute(\"SELECT coinrow_value('4 x', 'diff')\").fetchone()\n"
        "except sqlite3.OperationalError as e:\n"
        "    print(e)\n";
    char *argv[] = {PYTHON, "-c", (char *)script, (char *)ext_path(), NULL};
    run_result r;
    assert_int_equal(run_capture(&r, argv, NULL), 0);
    if (r.status == 127 || r.status == 77) {
        fprintf(stderr, "notice: %s: %s, the Python test is skipped\n", PYTHON,
                r.status == 127 ? "not found" : r.out);
        run_result_free(&r);
        skip();
    }
    assert_string_equal(r.err, "");
    assert_string_equal(r.out, "(3, 1)\n"
                               "[('diff', 3, 'RLLL'), ('winner', 1, 'RLLL')]\n"
                               "coinrow_value: value 2 ('x') is not an integer\n");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
}

/* The database the docs' examples run on, made as the docs say. */
#define DOCS_GENERATE "coinrow generate --db demo.db --set demo --count 3 --n 4..6 --values 1..9 --seed 7\n"
#define DOCS_SOLVE "coinrow solve --db demo.db --set demo --variant diff,winner --quiet\n"

/* A fenced block of the docs. */
typedef struct block {
    char language[16];
    char *text;  /* its lines, each with its newline; the caller frees it */
    int follows; /* nothing but blank lines between it and the block before */
} block;

static int blank(const char *from, const char *to)
{
    while (from < to && (*from == '\n' || *from == ' '))
        from++;
    return from == to;
}

/* The next fenced block from *at on into *out, *at moved past it; 0 at the
 * end.  Fences start their lines. */
static int next_block(block *out, const char **at)
{
    const char *open = strstr(*at, "\n```");
    if (!open)
        return 0;
    out->follows = blank(*at, open);
    const char *language = open + 4, *language_end = strchr(language, '\n');
    assert_non_null(language_end);
    const char *close = strstr(language_end, "\n```");
    assert_non_null(close);
    snprintf(out->language, sizeof out->language, "%.*s", (int)(language_end - language), language);
    out->text = strndup(language_end + 1, (size_t)(close + 1 - (language_end + 1)));
    assert_non_null(out->text);
    const char *line_end = strchr(close + 1, '\n');
    *at = line_end ? line_end : close + strlen(close);
    return 1;
}

/* What the shell prints for the example: standard output, then standard
 * error; fails the test when it cannot run. */
static char *run_example(const char *db, const char *load, const char *sql, int *status)
{
    run_result r;
    shell(&r, db, load, sql);
    size_t out_len = strlen(r.out), err_len = strlen(r.err);
    char *printed = malloc(out_len + err_len + 1);
    assert_non_null(printed);
    memcpy(printed, r.out, out_len);
    memcpy(printed + out_len, r.err, err_len + 1);
    *status = err_len == 0 ? r.status : -1;
    run_result_free(&r);
    return printed;
}

/* Every ```sql block of the docs runs in the shell, in order, on the
 * database the docs make; a ```text block right after one is what the
 * shell prints for it (standard output, then standard error).  Without
 * one, the example must succeed silently on standard error. */
static void test_hosts__docs_examples_run_as_written(void **state)
{
    (void)state;
    if (!shell_found)
        skip();
    char *docs = read_text(DOCS);
    assert_non_null(docs);
    assert_non_null(strstr(docs, DOCS_GENERATE DOCS_SOLVE));
    char *dir = tmp_dir_new();
    assert_non_null(dir);
    char db[4200], load[4200];
    snprintf(db, sizeof db, "%s", tmp_path(dir, "demo.db"));
    snprintf(load, sizeof load, ".load %s", ext_path());
    run_result r;
    COINROW(&r, NULL, "generate", "--db", db, "--set", "demo", "--count", "3", "--n", "4..6", "--values", "1..9",
            "--seed", "7", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    COINROW(&r, NULL, "solve", "--db", db, "--set", "demo", "--variant", "diff,winner", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);

    const char *at = docs;
    block b, sql = {"", NULL, 0};
    int examples = 0, more;
    do {
        more = next_block(&b, &at);
        if (sql.text) {
            int status, shown = more && b.follows && strcmp(b.language, "text") == 0;
            char *printed = run_example(db, load, sql.text, &status);
            if (shown && strcmp(printed, b.text) != 0)
                fail_msg("docs example:\n%s\nprints:\n%s\nthe docs say:\n%s", sql.text, printed, b.text);
            if (!shown && status != 0)
                fail_msg("docs example:\n%s\nfails:\n%s", sql.text, printed);
            free(printed);
            free(sql.text);
            sql.text = NULL;
            examples++;
        }
        if (more && strcmp(b.language, "sql") == 0)
            sql = b;
        else if (more)
            free(b.text);
    } while (more);
    assert_true(examples >= 10);
    tmp_dir_free(dir);
    free(docs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hosts__shell_loads_it_with_dot_load),
        cmocka_unit_test(test_hosts__shell_loads_it_with_load_extension),
        cmocka_unit_test(test_hosts__python_loads_it),
        cmocka_unit_test(test_hosts__docs_examples_run_as_written),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}

/* The one way coinrow opens a database (util/db.c): the connection is
 * defensive, does not trust the file's schema and checks cell sizes,
 * whatever the file says. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "support/files.h"
#include "util/util.h"

/* A database at path with a table t of one row and a view v over it that
 * calls fts3_tokenizer, which hands out a pointer to code (and with two
 * arguments would take one): a function SQLite does not mark innocuous. */
static void plant_view(const char *path)
{
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "CREATE TABLE t (x); INSERT INTO t VALUES (1);"
                                      "CREATE VIEW v AS SELECT x, fts3_tokenizer('simple') AS p FROM t",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(db);
}

static void test_db__a_connection_is_defensive_and_trusts_no_schema(void **state)
{
    tmp_db *f = *state;
    plant_view(f->db);
    sqlite3 *db = NULL;
    assert_int_equal(cr_db_open(&db, f->db, SQLITE_OPEN_READWRITE), SQLITE_OK);
    int on = -1;
    assert_int_equal(sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, -1, &on), SQLITE_OK);
    assert_int_equal(on, 1);
    assert_int_equal(sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, -1, &on), SQLITE_OK);
    assert_int_equal(on, 0);
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA cell_size_check", -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(st, 0), 1);
    sqlite3_finalize(st);

    /* the view's unsafe function is refused, the table read */
    assert_int_equal(sqlite3_exec(db, "SELECT * FROM v", NULL, NULL, NULL), SQLITE_ERROR);
    assert_non_null(strstr(sqlite3_errmsg(db), "unsafe use of fts3_tokenizer()"));
    assert_int_equal(sqlite3_exec(db, "SELECT * FROM t", NULL, NULL, NULL), SQLITE_OK);
    /* nor can a statement rewrite the schema behind SQLite's back */
    sqlite3_exec(db, "PRAGMA writable_schema = ON", NULL, NULL, NULL);
    assert_int_not_equal(sqlite3_exec(db, "UPDATE sqlite_schema SET sql = 'CREATE TABLE t (y)' WHERE name = 't'",
                                      NULL, NULL, NULL),
                         SQLITE_OK);
    sqlite3_close(db);
}

/* What the file cannot be opened for is SQLite's code, the handle left to
 * close. */
static void test_db__a_file_that_cannot_be_opened_gives_sqlites_code(void **state)
{
    tmp_db *f = *state;
    sqlite3 *db = NULL;
    assert_int_equal(cr_db_open(&db, tmp_path(f->dir, "no/such/folder.db"), SQLITE_OPEN_READONLY), SQLITE_CANTOPEN);
    sqlite3_close(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_db__a_connection_is_defensive_and_trusts_no_schema, tmp_db_setup,
                                        tmp_db_teardown),
        cmocka_unit_test_setup_teardown(test_db__a_file_that_cannot_be_opened_gives_sqlites_code, tmp_db_setup,
                                        tmp_db_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

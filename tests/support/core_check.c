#include "support/core_check.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "coinrow.h"
#include "util/util.h"
#include "store/store.h"
#include "support/files.h"

int check_run_against_core(const char *db_path, int64_t run_id, const char *filter)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    cr_solver *solver = NULL;
    cr_coins coins = {0};
    cr_error err = {0};
    char sql[512];
    int rows = 0;
    snprintf(sql, sizeof sql,
             "SELECT i.coins, v.variant, v.value, v.first_score, v.second_score, v.winner, v.moves, v.error, v.algo, "
             "v.moves_policy, v.n FROM result_view AS v JOIN instance AS i ON i.id = v.instance_id "
             "WHERE v.run_id = ? AND (%s)",
             filter ? filter : "1");
    assert_int_equal(sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    sqlite3_bind_int64(st, 1, run_id);
    assert_int_equal(cr_solver_new(&solver, &err), 0);
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *text = (const char *)sqlite3_column_text(st, 0);
        cr_solve_opts opts = {0};
        cr_variant v;
        assert_int_equal(cr_coins_parse(&coins, text, strlen(text), &err), 0);
        assert_int_equal(sqlite3_column_int64(st, 10), (int64_t)coins.n);
        assert_int_equal(cr_variant_parse(&v, (const char *)sqlite3_column_text(st, 1), &err), 0);
        assert_int_equal(cr_algo_parse(&opts.algo, (const char *)sqlite3_column_text(st, 8), &err), 0);
        assert_int_equal(cr_moves_parse(&opts.moves, (const char *)sqlite3_column_text(st, 9), &err), 0);
        opts.variants = CR_VARIANT_BIT(v);
        cr_result want[CR_VARIANT_COUNT];
        cr_solve(want, solver, coins.v, coins.n, &opts, &err);
        if (want[v].error.code) {
            assert_string_equal((const char *)sqlite3_column_text(st, 7), want[v].error.msg);
        } else {
            assert_int_equal(sqlite3_column_type(st, 7), SQLITE_NULL);
            assert_int_equal(sqlite3_column_int64(st, 2), want[v].value);
            assert_int_equal(sqlite3_column_int64(st, 3), want[v].first_score);
            assert_int_equal(sqlite3_column_int64(st, 4), want[v].second_score);
            assert_string_equal((const char *)sqlite3_column_text(st, 5), cr_winner_name(want[v].winner));
            if (want[v].moves)
                assert_string_equal((const char *)sqlite3_column_text(st, 6), want[v].moves);
            else
                assert_int_equal(sqlite3_column_type(st, 6), SQLITE_NULL);
        }
        rows++;
    }
    cr_coins_free(&coins);
    cr_solver_free(solver);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return rows;
}

int store_fixture_setup(void **state)
{
    store_fixture *f = calloc(1, sizeof *f);
    cr_error err = {0};
    if (!f || !(f->dir = tmp_dir_new()))
        return -1;
    snprintf(f->path, sizeof f->path, "%s", tmp_path(f->dir, "store.db"));
    *state = f;
    /* in a transaction, as coinrow makes a set: the store is in WAL mode
     * from that first commit on */
    return cr_store_new(&f->store, f->path, CR_STORE_WRITE, &err) || cr_store_begin(f->store, &err) ||
                   cr_store_set_find(&f->set_id, f->store, "s", 1, "test", &err) ||
                   cr_store_commit(f->store, &err)
               ? -1
               : 0;
}

int store_fixture_teardown(void **state)
{
    store_fixture *f = *state;
    cr_store_free(f->store);
    tmp_dir_free(f->dir);
    free(f);
    return 0;
}

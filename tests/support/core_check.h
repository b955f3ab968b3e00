/* Checking what a run stored against the solver core. */
#ifndef CR_TEST_CORE_CHECK_H
#define CR_TEST_CORE_CHECK_H

#include <stdint.h>

/* Checks the rows of result_view for run run_id of the database at db_path
 * (only instances whose id satisfies `filter`, SQL on i.id, when not NULL)
 * against cr_solve with the run's algorithm and moves policy: value, scores,
 * winner, moves, error.  Fails the test at the first difference; returns how
 * many rows were checked. */
int check_run_against_core(const char *db_path, int64_t run_id, const char *filter);

/* A cmocka setup that opens a new store (CR_STORE_WRITE) in a temporary
 * folder, with one set 's'; *state is a store_fixture.  The teardown frees
 * it all. */
typedef struct store_fixture {
    char *dir;
    char path[4096];
    struct cr_store *store;
    int64_t set_id;
} store_fixture;

int store_fixture_setup(void **state);
int store_fixture_teardown(void **state);

#endif

/* Temporary folders, files and database queries for tests. */
#ifndef CR_TEST_FILES_H
#define CR_TEST_FILES_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* A new empty folder under $TMPDIR (or /tmp); remove it with tmp_dir_free,
 * which deletes everything in it. */
char *tmp_dir_new(void);
void tmp_dir_free(char *dir);

/* A cmocka fixture: a new temporary folder and the path of a database in
 * it (not created yet).  tmp_db_setup puts a tmp_db in *state;
 * tmp_db_teardown removes the folder and everything in it. */
typedef struct tmp_db {
    char *dir;
    char db[4096];
} tmp_db;

int tmp_db_setup(void **state);
int tmp_db_teardown(void **state);

/* dir/name in a static buffer (one of four, reused in turn). */
const char *tmp_path(const char *dir, const char *name);

/* dir/name in the caller's buffer out, which it returns. */
const char *path_in(char out[4400], const char *dir, const char *name);

/* Writes text to path; returns 0 or -1. */
int write_file(const char *path, const char *text);

/* Writes a CSV of `rows` instances (header "id,values", ids r0, r1, ...) of
 * `coins` coins each, values below 10^6 from an xorshift seeded with seed
 * (not 0): a set larger than a commit, the same for the same arguments.
 * Returns 0 or -1. */
int write_big_csv(const char *path, int rows, int coins, uint64_t seed);

/* Copies the file at from to to, byte for byte; returns 0 or -1. */
int copy_file(const char *from, const char *to);

/* The contents of the file at path, NUL-terminated, for the caller to
 * free; NULL when it cannot be read. */
char *read_text(const char *path);

/* The bytes of the file at path (*out_len of them, and a NUL after them),
 * for the caller to free; NULL when it cannot be read. */
char *read_bytes(const char *path, size_t *out_len);

/* A picture of a folder to compare before and after: every name in it and
 * in its folders, sorted, each file with its size and a hash of its bytes,
 * one per line.  For the caller to free. */
char *dir_snapshot(const char *dir);

/* Makes the file at path unwritable, even for root (chattr +i): 0, or -1
 * when this system cannot (the test should skip).  make_writable undoes it. */
int make_read_only(const char *path);
void make_writable(const char *path);

/* The path of a fixture: tests/fixtures/name. */
const char *fixture(const char *name);

/* The first column of the first row of sql on the database at path, as an
 * integer (INT64_MIN when there is no row or the query fails). */
int64_t db_int(const char *path, const char *sql);

/* Waits, however long it takes, until db_int(path, sql) is above 0 (an
 * event, such as the first commit of process pid, a child of the caller)
 * or pid has ended (it is left to run_wait).  Returns the value, or 0 when
 * pid ended without it. */
int64_t db_wait_for(const char *path, const char *sql, pid_t pid);

/* The first column of the first row of sql on the database at path, as
 * text the caller frees ("" when NULL; NULL when there is no row or the
 * query fails). */
char *db_text(const char *path, const char *sql);

/* Runs sql (several statements allowed) on the database at path; 0 or -1. */
int db_exec(const char *path, const char *sql);

#endif

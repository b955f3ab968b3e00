/* Runs whose writes fail in the middle of the input: a lock held by
 * another process, a full disk.  What was committed is whole; the set says
 * that its ingest did not finish (show, check-db, the run's status), solve
 * refuses to finish the run with part of the input, and the one command the
 * failure names stores every row and solves each exactly once. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "support/files.h"
#include "support/run.h"

/* More than a commit (10,000 instances), and more than a few MiB stored. */
enum { ROWS = 120000, COINS = 8 };

static char *dir;
static char csv[4096];

static int make_input(void **state)
{
    (void)state;
    dir = tmp_dir_new();
    if (!dir)
        return -1;
    snprintf(csv, sizeof csv, "%s", tmp_path(dir, "big.csv"));
    return write_big_csv(csv, ROWS, COINS, 11);
}

static int remove_input(void **state)
{
    (void)state;
    tmp_dir_free(dir);
    return 0;
}

/* A copy of db (unfinished) under another name names itself in the
 * command that finishes the job: the command kept the database it was first
 * given, and pasted, it went on with that one. */
static void check_a_copy_names_itself(const char *db)
{
    char moved[4200], vacuum[4300], finish[8800];
    snprintf(moved, sizeof moved, "%s", tmp_path(dir, "moved.db"));
    snprintf(vacuum, sizeof vacuum, "VACUUM INTO '%s'", moved);
    assert_int_equal(db_exec(db, vacuum), 0);
    run_result r;
    snprintf(finish, sizeof finish, "finish the job with:\n  coinrow run --resume %s --set big --db %s\n", csv, moved);
    COINROW(&r, NULL, "solve", "--resume", "--db", moved);
    assert_int_equal(r.status, 1);
    if (!strstr(r.err, finish))
        fail_msg("solve of the copy said:\n%s", r.err);
    run_result_free(&r);
    COINROW(&r, NULL, "show", "--db", moved, "--limit", "1");
    if (!strstr(r.out, finish))
        fail_msg("show of the copy said:\n%s", r.out);
    run_result_free(&r);
    COINROW(&r, NULL, "check-db", "--db", moved);
    snprintf(finish, sizeof finish, "finish the job with: coinrow run --resume %s --set big --db %s)", csv, moved);
    if (!strstr(r.out, finish))
        fail_msg("check-db of the copy said:\n%s", r.out);
    run_result_free(&r);
}

/* What the job left once its write failed, and the one command that
 * finishes it: `stderr_text` is what the failed run wrote; `copy`: check
 * a copy of it too (check_a_copy_names_itself). */
static void check_unfinished_then_finish(const char *db, const char *stderr_text, int copy)
{
    char finish[8192];
    snprintf(finish, sizeof finish, "finish the job with:\n  coinrow run --resume %s --set big --db %s\n", csv, db);
    if (!strstr(stderr_text, finish))
        fail_msg("the failure does not name the command that finishes the job:\n%s", stderr_text);
    int64_t stored = db_int(db, "SELECT count(*) FROM instance");
    assert_true(stored < ROWS);
    assert_int_equal(db_exec(db, "PRAGMA integrity_check"), 0);

    /* the set, its run and check-db say so */
    run_result r;
    COINROW(&r, NULL, "show", "--db", db, "--limit", "1");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, ", ingest unfinished): "));
    assert_non_null(strstr(r.out, "set 'big' lacks rows of its input: its ingest of "));
    run_result_free(&r);
    COINROW(&r, NULL, "check-db", "--db", db);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "ingests-are-finished"));
    run_result_free(&r);

    /* the obvious recovery is refused, naming the same command: it would
     * mark the run done with part of the input */
    COINROW(&r, NULL, "solve", "--resume", "--db", db);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, finish));
    run_result_free(&r);
    assert_int_equal(db_int(db, "SELECT count(*) FROM run WHERE status = 'done'"), 0);

    /* so is a run of another input into the set, resumed or new: either
     * would mark a run done without the rows of the input it lacks */
    const char *other = tmp_path(dir, "other.csv");
    assert_int_equal(write_file(other, "id,values\nzzz,1 2\n"), 0);
    size_t before_len, after_len;
    char *before = read_bytes(db, &before_len);
    assert_non_null(before);
    COINROW(&r, NULL, "run", "--resume", other, "--db", db, "--set", "big");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "set 'big' lacks rows of its input: its ingest of "));
    assert_non_null(strstr(r.err, finish));
    run_result_free(&r);
    COINROW(&r, NULL, "run", other, "--db", db, "--set", "big");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, finish));
    run_result_free(&r);
    char *after = read_bytes(db, &after_len);
    assert_non_null(after);
    assert_true(before_len == after_len && memcmp(before, after, before_len) == 0);
    free(before), free(after);

    if (copy) /* a disk too full for its journal cannot be read to copy it */
        check_a_copy_names_itself(db);

    /* the command named */
    COINROW(&r, NULL, "run", "--resume", csv, "--db", db, "--set", "big", "--jobs", "2");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    assert_int_equal(db_int(db, "SELECT count(*) FROM run"), 1);
    assert_int_equal(db_int(db, "SELECT status = 'done' FROM run WHERE id = 1"), 1);
    assert_int_equal(db_int(db, "SELECT count(*) FROM instance"), ROWS);
    assert_int_equal(db_int(db, "SELECT count(DISTINCT ext_id) FROM instance"), ROWS);
    assert_int_equal(db_int(db, "SELECT count(*) FROM solution WHERE run_id = 1"), ROWS);
    assert_int_equal(db_int(db, "SELECT count(*) FROM result WHERE run_id = 1"), 4 * (int64_t)ROWS);
    assert_int_equal(db_int(db, "SELECT count(*) FROM ingest_error"), 0);
    COINROW(&r, NULL, "check-db", "--db", db);
    assert_int_equal(r.status, 0);
    run_result_free(&r);
}

/* A process that holds the database's write lock from when the test says
 * until it says again: it writes 'L' once it holds it, and lets go at the
 * first byte (or the end) it reads.  Its pid; the pipes in *out_said and
 * *out_release. */
static pid_t start_locker(const char *db, int *out_said, int *out_release)
{
    int said[2], release[2];
    if (pipe(said) || pipe(release))
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        close(said[0]), close(release[1]);
        sqlite3 *conn = NULL;
        char c = 'L';
        if (sqlite3_open_v2(db, &conn, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK ||
            sqlite3_busy_timeout(conn, 600000) != SQLITE_OK ||
            sqlite3_exec(conn, "BEGIN EXCLUSIVE", NULL, NULL, NULL) != SQLITE_OK || write(said[1], &c, 1) != 1) {
            fprintf(stderr, "locker: %s\n", conn ? sqlite3_errmsg(conn) : "no memory");
            _exit(1);
        }
        ssize_t got = read(release[0], &c, 1);
        sqlite3_exec(conn, "ROLLBACK", NULL, NULL, NULL);
        sqlite3_close(conn);
        _exit(got < 0);
    }
    close(said[1]), close(release[0]);
    *out_said = said[0];
    *out_release = release[1];
    return pid;
}

static void test_failed_writes__a_lock_held_mid_run_leaves_the_set_unfinished_and_one_command_finishes_it(
    void **state)
{
    (void)state;
    const char *db = tmp_path(dir, "locked.db");
    char dbp[4096];
    snprintf(dbp, sizeof dbp, "%s", db);
    char *argv[] = {(char *)run_bin(), "run", csv, "--db", dbp, "--set", "big", "--jobs", "2", "--progress", NULL};
    int held;
    pid_t pid = run_start_held(argv, 0, &held); /* held at its progress line, after its first commit */
    assert_true(pid > 0);
    assert_true(db_wait_for(dbp, "SELECT count(*) FROM instance", pid) > 0);
    int said = -1, release = -1;
    pid_t locker = start_locker(dbp, &said, &release);
    assert_true(locker > 0);
    char c;
    assert_int_equal(read(said, &c, 1), 1); /* the lock is the locker's */
    char *err = run_release(held);            /* coinrow goes on, to its end */
    int status = run_wait(pid);
    assert_int_equal(write(release, "x", 1), 1);
    close(release), close(said);
    int locker_status;
    assert_int_equal(waitpid(locker, &locker_status, 0), locker);
    assert_true(WIFEXITED(locker_status) && WEXITSTATUS(locker_status) == 0);

    assert_int_equal(status, 1);
    assert_non_null(strstr(err, "locked by another connection"));
    check_unfinished_then_finish(dbp, err, 1);
    free(err);
}

/* A tmpfs of `size` (mount's option) mounted at dir/name, its path in
 * mnt; the test is skipped when it cannot be (root only). */
static void mount_small(char mnt[4096], const char *name, const char *size)
{
    if (geteuid() != 0) {
        print_message("skipped: mounting a small tmpfs needs root\n");
        skip();
    }
    snprintf(mnt, 4096, "%s", tmp_path(dir, name));
    assert_int_equal(mkdir(mnt, 0700), 0);
    if (mount("tmpfs", mnt, "tmpfs", 0, size) != 0) {
        print_message("skipped: cannot mount a tmpfs (%s)\n", strerror(errno));
        rmdir(mnt);
        skip();
    }
}

static void test_failed_writes__a_full_disk_mid_run_leaves_the_set_unfinished_and_one_command_finishes_it(
    void **state)
{
    (void)state;
    char mnt[4096];
    mount_small(mnt, "small", "size=2m");
    char db[4200];
    snprintf(db, sizeof db, "%s/full.db", mnt);
    run_result r;
    COINROW(&r, NULL, "run", csv, "--db", db, "--set", "big", "--jobs", "2", "--quiet");
    int status = r.status;
    char *err = strdup(r.err);
    run_result_free(&r);
    /* room again, as when the user frees some */
    int grown = mount(NULL, mnt, NULL, MS_REMOUNT, "size=256m");
    if (grown == 0) {
        assert_int_equal(status, 1);
        assert_non_null(strstr(err, "the disk is full"));
        check_unfinished_then_finish(db, err, 0);
    }
    free(err);
    umount2(mnt, MNT_DETACH);
    rmdir(mnt);
    assert_int_equal(grown, 0);
}

/* generate --out onto a full disk: the file that was there keeps its
 * bytes, nothing half-written is left beside it, and the error says why.
 * It used to write in place and remove the file on failure. */
static void test_failed_writes__generate_out_onto_a_full_disk_keeps_the_file_that_was_there(void **state)
{
    (void)state;
    char mnt[4096];
    mount_small(mnt, "small-csv", "size=256k");
    char out[4200];
    snprintf(out, sizeof out, "%s/g.csv", mnt);
    assert_int_equal(write_file(out, "id,values\nold,1 2 3\n"), 0);
    char *before = dir_snapshot(mnt);
    run_result r;
    COINROW(&r, NULL, "generate", "--set", "g", "--count", "20000", "--n", "20..30", "--values", "1..999", "--seed",
            "1", "--out", out);
    char *after = dir_snapshot(mnt);
    umount2(mnt, MNT_DETACH);
    rmdir(mnt);
    assert_int_equal(r.status, 1);
    char said[4400];
    snprintf(said, sizeof said, "cannot write %s: No space left on device", out);
    assert_non_null(strstr(r.err, said));
    run_result_free(&r);
    assert_string_equal(after, before);
    free(before), free(after);
}

/* Fills the file system of the folder mnt with the file `filler`, to its
 * last byte; returns the filler's size. */
static off_t fill_up(const char *filler)
{
    FILE *f = fopen(filler, "wb");
    assert_non_null(f);
    static const char block[4096];
    off_t size = 0;
    size_t wrote;
    while ((wrote = fwrite(block, 1, sizeof block, f)) > 0 && fflush(f) == 0)
        size += (off_t)wrote;
    fclose(f);
    struct stat sb;
    assert_int_equal(stat(filler, &sb), 0);
    return sb.st_size;
}

/* A run into a new database on a disk too full to make its schema leaves
 * nothing: not the empty file, nor its -wal and -shm, which the next
 * command took for a database of its own ("the disk is full while reading
 * its schema version").  It said "while upgrading the schema" and left
 * them.  With no room at all, with a page's room, and with a little more. */
static void test_failed_writes__a_new_database_on_a_full_disk_is_not_left_behind(void **state)
{
    (void)state;
    char mnt[4096];
    mount_small(mnt, "small-new", "size=512k");
    char filler[4200], db[4200], small[4200];
    snprintf(filler, sizeof filler, "%s/filler", mnt);
    snprintf(db, sizeof db, "%s/new.db", mnt);
    snprintf(small, sizeof small, "%s", tmp_path(dir, "small.csv"));
    assert_int_equal(write_file(small, "id,values\na,1 2 3\n"), 0);
    off_t full = fill_up(filler);
    const off_t room[] = {0, 16384, 40960};
    char wrong[8192] = "";
    size_t len = 0;
    for (size_t k = 0; k < sizeof room / sizeof *room; k++) {
        if (truncate(filler, full - room[k]) != 0) {
            snprintf(wrong, sizeof wrong, "cannot make room: %s", strerror(errno));
            break;
        }
        char *before = dir_snapshot(mnt);
        run_result r;
        COINROW(&r, NULL, "run", small, "--db", db, "--quiet");
        char *after = dir_snapshot(mnt);
        if (r.status != 1 || !strstr(r.err, "new.db: the disk is full while making its schema"))
            len += (size_t)snprintf(wrong + len, sizeof wrong - len, "room %lld: exit %d: %s\n", (long long)room[k],
                                    r.status, r.err);
        else if (strcmp(after, before) != 0)
            len += (size_t)snprintf(wrong + len, sizeof wrong - len, "room %lld: left behind:\n%s\n",
                                    (long long)room[k], after);
        len = len < sizeof wrong ? len : sizeof wrong - 1;
        run_result_free(&r);
        free(before), free(after);
    }
    /* unmounted first: a failure must not leave the tmpfs behind */
    umount2(mnt, MNT_DETACH);
    rmdir(mnt);
    if (wrong[0])
        fail_msg("%s", wrong);
}

/* An upgrade on a disk too full to copy its WAL back into the file, once
 * it committed, says so and fails: it said "upgraded", exit 0, and left
 * the -wal that the file alone lacks (a copy of it was "malformed").  Each
 * room from 300 to 700 KiB: exit 0 leaves no -wal; a -wal left is named. */
static void test_failed_writes__an_upgrade_that_cannot_put_the_file_at_rest_says_so(void **state)
{
    (void)state;
    char mnt[4096];
    mount_small(mnt, "small-upgrade", "size=4m");
    char db[4200], wal[4300], filler[4200];
    snprintf(db, sizeof db, "%s/u.db", mnt);
    snprintf(wal, sizeof wal, "%s-wal", db);
    snprintf(filler, sizeof filler, "%s/filler", mnt);
    int kept = 0;
    char bad[256] = ""; /* said once the tmpfs is gone */
    for (off_t room = 300 << 10; room <= 700 << 10 && !bad[0]; room += 25 << 10) {
        remove(db);
        remove(wal);
        remove(filler);
        assert_int_equal(copy_file(fixture("schema3/coinrow.db"), db), 0);
        off_t size = fill_up(filler);
        assert_int_equal(truncate(filler, size > room ? size - room : 0), 0);
        run_result r;
        COINROW(&r, NULL, "upgrade", "--db", db);
        int left = access(wal, F_OK) == 0;
        if (left && (r.status != 1 || !strstr(r.err, "u.db: its last changes are kept in ")))
            snprintf(bad, sizeof bad, "room %lld KiB: exit %d with u.db-wal left beside it: %.150s",
                     (long long)(room >> 10), r.status, r.status ? r.err : r.out);
        kept += left;
        run_result_free(&r);
    }
    umount2(mnt, MNT_DETACH);
    rmdir(mnt);
    if (bad[0])
        fail_msg("%s", bad);
    assert_true(kept > 0); /* some room lets the upgrade commit, and not copy its WAL back */
}

/* A journal beside the file while its writer is still at work is named
 * as that writer's lock, not as "what a stopped writer left": merge and
 * upgrade said they could not roll it back. */
static void test_failed_writes__a_live_writers_journal_is_named_as_its_lock(void **state)
{
    (void)state;
    char db[4200], journal[4300];
    snprintf(db, sizeof db, "%s", tmp_path(dir, "live.db"));
    snprintf(journal, sizeof journal, "%s-journal", db);
    run_result r;
    COINROW(&r, NULL, "run", csv, "--db", db, "--set", "big", "--variant", "diff", "--quiet");
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    sqlite3 *writer = NULL;
    assert_int_equal(sqlite3_open_v2(db, &writer, SQLITE_OPEN_READWRITE, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_exec(writer, "BEGIN EXCLUSIVE; CREATE TABLE mine (a); INSERT INTO mine VALUES (1)", NULL,
                                  NULL, NULL),
                     SQLITE_OK);
    assert_int_equal(access(journal, F_OK), 0);
    COINROW(&r, NULL, "upgrade", "--db", db);
    sqlite3_exec(writer, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close(writer);
    assert_int_equal(r.status, 1);
    if (!strstr(r.err, "live.db: the database is locked by another connection, which is writing to it (its journal "
                       "is "))
        fail_msg("upgrade said:\n%s", r.err);
    run_result_free(&r);
}

/* A database in WAL mode (an older coinrow's at rest, or another
 * program's) in a read-only folder is named as such: SQLite cannot make
 * the -shm file a reader of it needs, and coinrow said the file "cannot be
 * opened (missing, or no permission)", though it was there to read. */
static void test_failed_writes__a_wal_file_in_a_read_only_folder_is_named_as_such(void **state)
{
    (void)state;
    char mnt[4096];
    mount_small(mnt, "read-only", "size=1m");
    char db[4200];
    snprintf(db, sizeof db, "%s/w.db", mnt);
    assert_int_equal(copy_file(fixture("schema3/coinrow.db"), db), 0); /* an older coinrow's, in WAL mode */
    size_t len;
    unsigned char *header = (unsigned char *)read_bytes(db, &len); /* not opened: SQLite would leave a -shm */
    int wal = header && len > 20 && header[18] == 2 && header[19] == 2;
    free(header);
    int ro = mount(NULL, mnt, NULL, MS_REMOUNT | MS_RDONLY, NULL);
    run_result r = {0};
    if (ro == 0)
        COINROW(&r, NULL, "show", "--db", db);
    umount2(mnt, MNT_DETACH);
    rmdir(mnt);
    assert_true(wal);
    assert_int_equal(ro, 0);
    assert_int_equal(r.status, 1);
    if (!strstr(r.err, "w.db: the file is in WAL mode, and a reader of it must make its -shm file beside it, which "
                       "this folder does not let it"))
        fail_msg("show said:\n%s", r.err);
    run_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_failed_writes__a_lock_held_mid_run_leaves_the_set_unfinished_and_one_command_finishes_it),
        cmocka_unit_test(test_failed_writes__a_full_disk_mid_run_leaves_the_set_unfinished_and_one_command_finishes_it),
        cmocka_unit_test(test_failed_writes__generate_out_onto_a_full_disk_keeps_the_file_that_was_there),
        cmocka_unit_test(test_failed_writes__a_new_database_on_a_full_disk_is_not_left_behind),
        cmocka_unit_test(test_failed_writes__an_upgrade_that_cannot_put_the_file_at_rest_says_so),
        cmocka_unit_test(test_failed_writes__a_live_writers_journal_is_named_as_its_lock),
        cmocka_unit_test(test_failed_writes__a_wal_file_in_a_read_only_folder_is_named_as_such),
    };
    return cmocka_run_group_tests(tests, make_input, remove_input);
}

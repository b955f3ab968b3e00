/* Runs stopped by SIGINT, SIGTERM and SIGKILL in the middle, then resumed:
 * every instance ends up solved exactly once, with the core's answers; and
 * a run killed again and again, at ingest, solve and commit, ends with the
 * results of an uninterrupted one. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <fcntl.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "cli/cli.h"
#include "support/core_check.h"
#include "support/files.h"
#include "support/run.h"

/* More than a commit (10,000 instances) and the batches in flight with two
 * solver threads hold, so that a run stopped after its first commit has
 * rows left. */
enum { ROWS = 200000, COINS = 8 };

static char *dir;
static char csv[4096];

static int make_input(void **state)
{
    (void)state;
    dir = tmp_dir_new();
    if (!dir)
        return -1;
    snprintf(csv, sizeof csv, "%s", tmp_path(dir, "big.csv"));
    return write_big_csv(csv, ROWS, COINS, 7);
}

static int remove_input(void **state)
{
    (void)state;
    tmp_dir_free(dir);
    return 0;
}

/* Starts coinrow with args (NULL-terminated) and --progress, held right
 * after its first commit of results to run run_id (run_start_held), sends
 * sig while it is held, lets it go on and returns its exit status. */
static int stop_after_first_commit(const char *db, int64_t run_id, int sig, ...)
{
    char *argv[16] = {(char *)run_bin()};
    int argc = 1;
    va_list ap;
    va_start(ap, sig);
    for (char *a; argc < 14 && (a = va_arg(ap, char *)) != NULL;)
        argv[argc++] = a;
    va_end(ap);
    argv[argc++] = "--progress";
    int held;
    pid_t pid = run_start_held(argv, 0, &held);
    assert_true(pid > 0);
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM result WHERE run_id = %lld", (long long)run_id);
    assert_true(db_wait_for(db, sql, pid) > 0);
    run_signal(pid, sig);
    free(run_release(held));
    return run_wait(pid);
}

/* Every instance of the database solved exactly once in run run_id, for
 * `variants` variants; a sample checked against the core. */
static void check_complete(const char *db_path, int64_t run_id, int variants)
{
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM result WHERE run_id = %lld", (long long)run_id);
    assert_int_equal(db_int(db_path, sql), (int64_t)ROWS * variants);
    snprintf(sql, sizeof sql, "SELECT count(DISTINCT instance_id) FROM result WHERE run_id = %lld", (long long)run_id);
    assert_int_equal(db_int(db_path, sql), ROWS);
    snprintf(sql, sizeof sql, "SELECT status = 'done' FROM run WHERE id = %lld", (long long)run_id);
    assert_int_equal(db_int(db_path, sql), 1);
    assert_int_equal(db_int(db_path, "SELECT count(*) FROM instance"), ROWS);
    assert_int_equal(db_exec(db_path, "PRAGMA integrity_check"), 0);

    assert_true(check_run_against_core(db_path, run_id, "i.id % 997 = 1") >= ROWS / 997 * variants);
}

static void test_cli_interrupt__sigint_stops_a_run_cleanly_and_it_can_be_finished(void **state)
{
    (void)state;
    const char *db = tmp_path(dir, "int.db");
    int status = stop_after_first_commit(db, 1, SIGINT, "run", csv, "--db", db, "--set", "big", "--variant",
                                         "total,remaining", "--jobs", "2", (char *)NULL);
    assert_int_equal(status, 130);
    assert_int_equal(db_int(db, "SELECT status = 'interrupted' AND finished_at IS NOT NULL FROM run"), 1);
    int64_t instances = db_int(db, "SELECT count(*) FROM instance");
    assert_true(instances > 0 && instances < ROWS);
    /* what was committed is whole: both variants of every instance solved */
    assert_int_equal(db_int(db, "SELECT count(*) FROM result"),
                     2 * db_int(db, "SELECT count(DISTINCT instance_id) FROM result"));

    /* as the hint says: the same input again, finishing the run */
    run_result r;
    assert_int_equal(run_coinrow(&r, NULL, "run", "--resume", csv, "--db", db, "--set", "big", (char *)NULL), 0);
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    check_complete(db, 1, 2);
}

static void test_cli_interrupt__sigterm_and_sigkill_of_solve_are_resumed_exactly_once(void **state)
{
    (void)state;
    const char *db = tmp_path(dir, "kill.db");
    run_result r;
    assert_int_equal(run_coinrow(&r, NULL, "ingest", csv, "--db", db, "--quiet", (char *)NULL), 0);
    assert_int_equal(r.status, 0);
    run_result_free(&r);

    assert_int_equal(stop_after_first_commit(db, 1, SIGTERM, "solve", "--db", db, "--jobs", "2", (char *)NULL), 130);
    assert_int_equal(db_int(db, "SELECT status = 'interrupted' FROM run WHERE id = 1"), 1);
    assert_int_equal(run_coinrow(&r, NULL, "solve", "--resume", "1", "--db", db, (char *)NULL), 0);
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    check_complete(db, 1, 4);

    assert_int_equal(stop_after_first_commit(db, 2, SIGKILL, "solve", "--db", db, "--jobs", "1", (char *)NULL),
                     128 + SIGKILL);
    assert_int_equal(db_int(db, "SELECT status = 'running' FROM run WHERE id = 2"), 1);
    int64_t solved = db_int(db, "SELECT count(DISTINCT instance_id) FROM result WHERE run_id = 2");
    assert_true(solved > 0 && solved < ROWS);
    assert_int_equal(db_int(db, "SELECT count(*) FROM result WHERE run_id = 2"), 4 * solved);
    assert_int_equal(db_exec(db, "PRAGMA integrity_check"), 0);
    assert_int_equal(run_coinrow(&r, NULL, "solve", "--resume", "--db", db, (char *)NULL), 0);
    assert_int_equal(r.status, 0);
    char expect[128];
    snprintf(expect, sizeof expect, "solved %lld, failed 0, set 'big', run 2", (long long)(ROWS - solved));
    assert_non_null(strstr(r.out, expect));
    run_result_free(&r);
    check_complete(db, 2, 4);
}

/* ---- crash consistency: kills that land on commits, never on a timer ---- */

/* The kill test runs each command it kills in a child of its own, through
 * the command table as coinrow's main does, with every SQLite connection
 * traced (sqlite3_auto_extension): before and after each COMMIT the child
 * says so on a pipe and waits for the test, which reads the database and
 * lets it go on or kills it there.  So a kill lands on the commit it waits
 * for, whatever the machine's speed.  (The binary held by its progress
 * line, as above, stops only at its first commit: the line is redrawn at
 * most four times a second, not at every commit.) */

typedef enum kill_point { AT_INGEST, AT_SOLVE, AT_COMMIT } kill_point;

/* The child's ends of the pipes: the events it says, the test's answers. */
static int said_fd = -1, answer_fd = -1;

/* SQLite's trace callback: 'B' before a COMMIT, 'A' after it. */
static int on_statement(unsigned type, void *ctx, void *stmt, void *x)
{
    (void)ctx, (void)x;
    const char *sql = sqlite3_sql(stmt);
    if (!sql || strcmp(sql, "COMMIT") != 0)
        return 0;
    char event = type == SQLITE_TRACE_STMT ? 'B' : 'A', answer;
    if (write(said_fd, &event, 1) != 1 || read(answer_fd, &answer, 1) != 1)
        _exit(127); /* the test is gone */
    return 0;
}

static int trace_commits(sqlite3 *db, char **errmsg, const sqlite3_api_routines *api)
{
    (void)errmsg, (void)api;
    return sqlite3_trace_v2(db, SQLITE_TRACE_STMT | SQLITE_TRACE_PROFILE, on_statement, NULL);
}

/* Starts `coinrow args...` (args[0] the command, NULL-terminated) in a
 * child whose commits wait for the test: its events in *out_said, the
 * answers to *out_answer. */
static pid_t start_traced(char *const args[], int *out_said, int *out_answer)
{
    int said[2], answer[2];
    if (pipe(said) || pipe(answer))
        return -1;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_RDONLY),
            log = open(tmp_path(dir, "crash-log.txt"), O_WRONLY | O_CREAT | O_APPEND, 0644);
        dup2(null, 0), dup2(log, 1), dup2(log, 2);
        close(said[0]), close(answer[1]);
        said_fd = said[1], answer_fd = answer[0];
        sqlite3_auto_extension((void (*)(void))trace_commits);
        int argc = 0;
        while (args[argc])
            argc++;
        const cli_command *cmd = cli_command_find(args[0]);
        int status = cmd ? cmd->run(cmd, argc, (char **)args) : 127;
        fflush(stdout);
        fflush(stderr);
        _exit(status);
    }
    close(said[1]), close(answer[0]);
    *out_said = said[0], *out_answer = answer[1];
    return pid;
}

/* What a kill point counts: instances, or instances solved. */
static int64_t counted(const char *db, kill_point point)
{
    return db_int(db, point == AT_INGEST ? "SELECT count(*) FROM instance" : "SELECT count(*) FROM solution");
}

/* Runs `coinrow args...` and SIGKILLs it at a commit ('B' before it, 'A'
 * after it): after the one that brings what `point` counts to `threshold`
 * (AT_INGEST, AT_SOLVE), or before the first that comes once the instances
 * solved are there (AT_COMMIT: a transaction written, not committed).
 * Returns 1 and the count at the kill in *out_count, or 0 when the command
 * ended first (it must then have ended well). */
static int kill_on_commit(int64_t *out_count, char *const args[], const char *db, kill_point point,
                          int64_t threshold)
{
    int said = -1, answer = -1;
    pid_t pid = start_traced(args, &said, &answer);
    assert_true(pid > 0);
    int killed = 0;
    char event;
    while (!killed && read(said, &event, 1) == 1) {
        int64_t count = event == (point == AT_COMMIT ? 'B' : 'A') ? counted(db, point) : INT64_MIN;
        if (count != INT64_MIN && count >= threshold) {
            killed = kill(pid, SIGKILL) == 0;
            *out_count = count;
        } else {
            assert_int_equal(write(answer, "g", 1), 1);
        }
    }
    close(said), close(answer);
    assert_int_equal(run_wait(pid), killed ? 128 + SIGKILL : 0);
    return killed;
}

/* Ingests the input again until every row is in; how many times it took. */
static int finish_ingest(char *const args[], const char *db)
{
    int times = 0;
    for (; db_int(db, "SELECT count(*) FROM instance") < ROWS; times++) {
        run_result r;
        assert_int_equal(run_coinrow_args(&r, NULL, (const char *const *)args), 0);
        assert_int_equal(r.status, 0);
        run_result_free(&r);
    }
    return times;
}

/* What a killed run left holds every invariant: no result without its
 * instance, no instance with only some of its variants.  A set whose ingest
 * was killed says so (ingests-are-finished): that is the one finding. */
static void check_consistent(const char *db)
{
    run_result r;
    assert_int_equal(run_coinrow(&r, NULL, "check-db", "--db", db, (char *)NULL), 0);
    for (const char *line = r.out, *end; r.status != 0 && (end = strchr(line, '\n')) != NULL; line = end + 1)
        if (strncmp(end - 3, " ok", 3) != 0 && strncmp(line, "ingests-are-finished ", 21) != 0)
            fail_msg("check-db after a kill: %s%s", r.out, r.err);
    run_result_free(&r);
}

/* How many result rows (by ext_id, variant and every figure) one database
 * has and the other has not. */
static int64_t rows_not_in_both(const char *db, const char *other)
{
    static const char rows[] = "SELECT i.ext_id, r.variant, r.value, r.first_score, r.second_score, r.winner, "
                               "r.moves, r.error FROM %sresult r JOIN %sinstance i ON i.id = r.instance_id";
    char a[512], b[512], sql[2200];
    snprintf(a, sizeof a, rows, "", "");
    snprintf(b, sizeof b, rows, "other.", "other.");
    snprintf(sql, sizeof sql, "SELECT (SELECT count(*) FROM (%s EXCEPT %s)) + (SELECT count(*) FROM (%s EXCEPT %s))",
             a, b, b, a);
    sqlite3 *conn = NULL;
    sqlite3_stmt *st = NULL;
    int64_t differ = -1;
    char *attach = sqlite3_mprintf("ATTACH %Q AS other", other);
    if (sqlite3_open_v2(db, &conn, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_exec(conn, attach, NULL, NULL, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(conn, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        differ = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(conn);
    sqlite3_free(attach);
    return differ;
}

static void test_cli_interrupt__kills_at_ingest_solve_and_commit_end_as_one_run(void **state)
{
    (void)state;
    char db[4096], ref[4096];
    snprintf(db, sizeof db, "%s", tmp_path(dir, "crash.db"));
    snprintf(ref, sizeof ref, "%s", tmp_path(dir, "reference.db"));
    run_result r;
    assert_int_equal(run_coinrow(&r, NULL, "run", csv, "--db", ref, "--set", "big", "--quiet", (char *)NULL), 0);
    assert_int_equal(r.status, 0);
    run_result_free(&r);

    char *run[] = {"run", csv, "--db", db, "--set", "big", "--quiet", NULL};
    char *ingest[] = {"ingest", csv, "--db", db, "--set", "big", "--quiet", NULL};
    char *resume[] = {"solve", "--resume", "--db", db, "--quiet", NULL};
    /* the points in order, each with the instances (AT_INGEST) or instances
     * solved it waits for beyond those in */
    static const struct {
        kill_point point;
        int64_t more;
    } kills[] = {{AT_INGEST, ROWS / 5}, {AT_INGEST, ROWS / 5}, {AT_SOLVE, ROWS / 4},
                 {AT_COMMIT, ROWS / 10}, {AT_SOLVE, ROWS / 4},  {AT_COMMIT, ROWS / 10}};
    int killed[3] = {0}, resumes = 0;
    for (size_t k = 0; k < sizeof kills / sizeof kills[0]; k++) {
        kill_point point = kills[k].point;
        if (point != AT_INGEST)
            resumes += finish_ingest(ingest, db); /* as the hint says: the rest of the input first */
        char *const *args = k == 0 ? run : point == AT_INGEST ? ingest : resume;
        int64_t threshold = kills[k].more + (k > 0 ? counted(db, point) : 0), at_kill = 0;
        resumes += k > 0;
        if (!kill_on_commit(&at_kill, args, db, point, threshold))
            fail_msg("kill %zu: the command ended before its commit came", k + 1);
        /* nothing was committed after the kill's commit (before it, at commit) */
        assert_int_equal(counted(db, point), at_kill);
        killed[point]++;
        check_consistent(db);
    }
    resumes += finish_ingest(ingest, db);
    assert_int_equal(run_coinrow_args(&r, NULL, (const char *const *)resume), 0);
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    resumes++;
    check_complete(db, 1, 4);
    /* the same results as the run never killed, row for row */
    assert_int_equal(rows_not_in_both(db, ref), 0);
    assert_int_equal(db_int(ref, "SELECT count(*) FROM result"), (int64_t)ROWS * 4);
    print_message("crash consistency: %d kills (%d at ingest, %d at solve, %d at commit), %d resumes, "
                  "%lld result rows compared with an uninterrupted run's\n",
                  killed[0] + killed[1] + killed[2], killed[AT_INGEST], killed[AT_SOLVE], killed[AT_COMMIT], resumes,
                  (long long)ROWS * 4);
}

/* A lost terminal stops a run as SIGINT does: SIGHUP (ssh dropped) and a
 * reader of its output that is gone (`| head -1`: SIGPIPE, EPIPE) leave
 * what was committed, the run 'interrupted' and the hint to finish it. */
static void test_cli_interrupt__sighup_stops_a_run_cleanly(void **state)
{
    (void)state;
    const char *db = tmp_path(dir, "hup.db");
    int status = stop_after_first_commit(db, 1, SIGHUP, "run", csv, "--db", db, "--set", "big", "--variant", "total",
                                         "--jobs", "2", (char *)NULL);
    assert_int_equal(status, 130);
    assert_int_equal(db_int(db, "SELECT status = 'interrupted' AND finished_at IS NOT NULL FROM run"), 1);
    assert_true(db_int(db, "SELECT count(*) FROM result") > 0);
}

/* A job stopped before the end of its input is finished by its input
 * however it is spelled, and from any folder: `./big.csv` stopped, then
 * `big.csv` was refused as another ingest, and the command kept to finish
 * it named `./big.csv`, which is another file seen from another folder. */
static void test_cli_interrupt__a_stopped_ingest_is_finished_by_its_input_however_spelled(void **state)
{
    (void)state;
    const char *db = tmp_path(dir, "spelled.db");
    char spelled[4200], db_copy[4200], finish[8400];
    snprintf(spelled, sizeof spelled, "%s/./big.csv", dir);
    snprintf(db_copy, sizeof db_copy, "%s", db);
    int status = stop_after_first_commit(db_copy, 1, SIGINT, "run", spelled, "--db", db_copy, "--set", "big",
                                         "--variant", "total", (char *)NULL);
    assert_int_equal(status, 130);
    char *real = realpath(csv, NULL);
    assert_non_null(real);
    snprintf(finish, sizeof finish, "coinrow run --resume %s --set big", real);
    free(real);
    char *kept = db_text(db_copy, "SELECT raw FROM ingest_error WHERE line = 0");
    assert_string_equal(kept, finish);
    free(kept);

    /* from the input's folder, by its name alone */
    char *argv[] = {(char *)run_bin(), "run", "--resume", "big.csv", "--db", db_copy, "--set", "big", "--quiet",
                    NULL};
    run_result r;
    assert_int_equal(run_capture_in(&r, dir, argv, NULL), 0);
    if (r.status != 0)
        fail_msg("run --resume big.csv said:\n%s", r.err);
    run_result_free(&r);
    check_complete(db_copy, 1, 1);
    assert_int_equal(db_int(db_copy, "SELECT count(*) FROM ingest_error"), 0);
}

/* Rows that come slowly through a pipe that stays open are committed and
 * solved within a second of the input stopping, not kept until a batch is
 * full: they could not be read from the pipe again.  Ctrl-C then stops the
 * run at once, with them stored. */
static void test_cli_interrupt__rows_from_a_pipe_that_waits_are_committed_as_they_come(void **state)
{
    (void)state;
    const char *db = tmp_path(dir, "slow.db");
    char fifo[4096], log[4096];
    snprintf(fifo, sizeof fifo, "%s", tmp_path(dir, "slow.csv"));
    snprintf(log, sizeof log, "%s", tmp_path(dir, "slow.log"));
    assert_int_equal(mkfifo(fifo, 0600), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int in = open(fifo, O_RDONLY), out = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (in < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0)
            _exit(127);
        execl(run_bin(), run_bin(), "run", "-", "--db", db, "--set", "slow", "--variant", "diff", (char *)NULL);
        _exit(127);
    }
    int w = open(fifo, O_WRONLY); /* once coinrow reads it */
    assert_true(w >= 0);
    const char *rows = "id,values\na,1 2\nb,3 4 5\n";
    assert_int_equal(write(w, rows, strlen(rows)), (ssize_t)strlen(rows));
    assert_int_equal(db_wait_for(db, "SELECT count(*) = 2 FROM solution", pid), 1);
    run_signal(pid, SIGINT);
    assert_int_equal(run_wait(pid), 130);
    close(w);
    assert_int_equal(db_int(db, "SELECT count(*) FROM instance"), 2);
    assert_int_equal(db_int(db, "SELECT status = 'interrupted' FROM run"), 1);
    char *said = read_text(log);
    assert_non_null(strstr(said, "interrupted before the end of the input; finish the job with:\n"));
    free(said);
    unlink(fifo);
}

static void test_cli_interrupt__a_closed_output_pipe_stops_a_run_cleanly(void **state)
{
    (void)state;
    const char *db = tmp_path(dir, "pipe.db");
    char *argv[] = {(char *)run_bin(), "run", csv, "--db", (char *)db, "--set", "big", "--variant", "total",
                    "--jobs", "2", "--progress", NULL};
    int held;
    pid_t pid = run_start_held(argv, 0, &held);
    assert_true(pid > 0);
    assert_true(db_wait_for(db, "SELECT count(*) FROM result WHERE run_id = 1", pid) > 0);
    close(held); /* the reader is gone: the held write fails */
    assert_int_equal(run_wait(pid), 130);
    assert_int_equal(db_int(db, "SELECT status = 'interrupted' AND finished_at IS NOT NULL FROM run"), 1);
    int64_t solved = db_int(db, "SELECT count(*) FROM result");
    assert_true(solved > 0 && solved < ROWS);

    /* what the hint says finishes it */
    run_result r;
    assert_int_equal(run_coinrow(&r, NULL, "ingest", csv, "--db", db, "--set", "big", "--quiet", (char *)NULL), 0);
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    assert_int_equal(run_coinrow(&r, NULL, "solve", "--resume", "--db", db, "--quiet", (char *)NULL), 0);
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    check_complete(db, 1, 1);
}

/* A --from-db view that never yields a row: the first SIGINT stops the
 * statement under way (exit 130), and nothing is created. */
static void test_cli_interrupt__sigint_stops_a_from_db_view_that_yields_nothing(void **state)
{
    (void)state;
    const char *src = tmp_path(dir, "forever.db");
    assert_int_equal(db_exec(src, "CREATE VIEW forever AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 "
                                  "FROM c) SELECT x AS id, '1 2' AS \"values\" FROM c WHERE x < 0"),
                     0);
    char out[4096], log[4096];
    snprintf(out, sizeof out, "%s", tmp_path(dir, "forever-out.db"));
    snprintf(log, sizeof log, "%s", tmp_path(dir, "forever.log"));
    char *argv[] = {(char *)run_bin(), "ingest", "--from-db", (char *)src, "--table", "forever", "--db", out, NULL};
    pid_t pid = run_start(argv, log);
    assert_true(pid > 0);
    /* its handlers are in place before it opens the input */
    assert_int_equal(run_wait_open(pid, src), 0);
    run_signal(pid, SIGINT);
    assert_int_equal(run_wait(pid), 130);
    char *said = read_text(log);
    assert_non_null(said);
    assert_non_null(strstr(said, "interrupted"));
    free(said);
    assert_int_equal(access(out, F_OK), -1);
}

/* Waits until a file named like cr_file_beside's (".NAME.coinrow-XXXXXX")
 * is in folder: the event of generate --out having made the file it
 * writes, its signal handlers in place.  0, or -1 when the child ended. */
static int wait_for_temporary_file(pid_t pid, const char *folder)
{
    const struct timespec pause = {0, 2000000};
    for (int tries = 0; tries < 30000; tries++) {
        DIR *d = opendir(folder);
        int found = 0;
        for (struct dirent *e; d && !found && (e = readdir(d)) != NULL;)
            found = e->d_name[0] == '.' && strstr(e->d_name, ".coinrow-") != NULL;
        if (d)
            closedir(d);
        if (found)
            return 0;
        if (waitpid(pid, NULL, WNOHANG) != 0)
            return -1;
        nanosleep(&pause, NULL);
    }
    return -1;
}

/* Ctrl-C during generate --out: a clean stop (exit 130) that leaves
 * neither the file nor its temporary one beside it.  It had no handler:
 * the signal killed it, and the hidden file stayed. */
static void test_cli_interrupt__sigint_stops_generate_out_leaving_no_file(void **state)
{
    (void)state;
    char folder[4096], out[4200], log[4200];
    snprintf(folder, sizeof folder, "%s", tmp_path(dir, "gen"));
    assert_int_equal(mkdir(folder, 0700), 0);
    snprintf(out, sizeof out, "%s/g.csv", folder);
    snprintf(log, sizeof log, "%s", tmp_path(dir, "gen.log"));
    /* more than any machine writes before the signal comes */
    char *argv[] = {(char *)run_bin(), "generate", "--set", "g", "--count", "1000000000", "--n", "100",
                    "--values", "1..9", "--seed", "1", "--out", out, NULL};
    pid_t pid = run_start(argv, log);
    assert_true(pid > 0);
    assert_int_equal(wait_for_temporary_file(pid, folder), 0);
    run_signal(pid, SIGINT);
    assert_int_equal(run_wait(pid), 130);
    char *said = read_text(log), *left = dir_snapshot(folder);
    assert_non_null(strstr(said, "coinrow: interrupted: no file written"));
    assert_string_equal(left, "");
    free(said), free(left);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cli_interrupt__sigint_stops_a_run_cleanly_and_it_can_be_finished),
        cmocka_unit_test(test_cli_interrupt__sigint_stops_generate_out_leaving_no_file),
        cmocka_unit_test(test_cli_interrupt__sigterm_and_sigkill_of_solve_are_resumed_exactly_once),
        cmocka_unit_test(test_cli_interrupt__kills_at_ingest_solve_and_commit_end_as_one_run),
        cmocka_unit_test(test_cli_interrupt__sighup_stops_a_run_cleanly),
        cmocka_unit_test(test_cli_interrupt__a_stopped_ingest_is_finished_by_its_input_however_spelled),
        cmocka_unit_test(test_cli_interrupt__rows_from_a_pipe_that_waits_are_committed_as_they_come),
        cmocka_unit_test(test_cli_interrupt__a_closed_output_pipe_stops_a_run_cleanly),
        cmocka_unit_test(test_cli_interrupt__sigint_stops_a_from_db_view_that_yields_nothing),
    };
    return cmocka_run_group_tests(tests, make_input, remove_input);
}

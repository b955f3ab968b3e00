/* export --interactive --format cms (issue 37): the Communication task,
 * and its manager built from the exported source with cc alone and run as
 * CMS runs it: two FIFOs in a folder, the manager given their paths (from
 * the contestant, to the contestant) and the test on its standard input,
 * the player given them as its standard input and output, opened in the
 * order CMS's sandbox opens them (standard input first).  Every game ends
 * by what the processes do (a line, an exit, a closed FIFO), never by a
 * clock. */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "support/cc.h"
#include "support/files.h"
#include "support/run.h"

/* The package and its programs, built once for every test of this file. */
typedef struct built {
    tmp_db db; /* first: tmp_db_teardown frees the folder and the whole struct */
    char pkg[4200], manager[4300], reference[4300], greedy[4300];
} built;

/* What CMS reads of a game: the manager's exit status, its standard output
 * (the outcome) and the first line of its standard error (the message),
 * and the player's exit status (a signal's number + 128). */
typedef struct game_result {
    int manager, player;
    char outcome[64], message[1024];
} game_result;

/* The first line of the file at path into out (cap bytes). */
static void first_line(char *out, size_t cap, const char *path)
{
    char *text = read_text(path);
    assert_non_null(text);
    snprintf(out, cap, "%.*s", (int)strcspn(text, "\n"), text);
    free(text);
}

/* Runs the manager on the test at `in` against the player as CMS's
 * Communication task does (one process, std_io). */
static void play(game_result *out, const built *b, const char *in, char *const player[])
{
    char *dir = tmp_dir_new();
    char from_user[4300], to_user[4300], said[4300], why[4300];
    snprintf(from_user, sizeof from_user, "%s", tmp_path(dir, "u0_to_m"));
    snprintf(to_user, sizeof to_user, "%s", tmp_path(dir, "m_to_u0"));
    snprintf(said, sizeof said, "%s", tmp_path(dir, "manager.out"));
    snprintf(why, sizeof why, "%s", tmp_path(dir, "manager.err"));
    assert_int_equal(mkfifo(from_user, 0666), 0);
    assert_int_equal(mkfifo(to_user, 0666), 0);
    pid_t manager = fork();
    assert_true(manager >= 0);
    if (manager == 0) {
        int input = open(in, O_RDONLY), o = open(said, O_WRONLY | O_CREAT | O_TRUNC, 0644),
            e = open(why, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (input < 0 || o < 0 || e < 0 || dup2(input, 0) < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
            _exit(126);
        execl(b->manager, b->manager, from_user, to_user, (char *)NULL);
        _exit(127);
    }
    pid_t contestant = fork();
    assert_true(contestant >= 0);
    if (contestant == 0) { /* the sandbox's redirections: standard input first */
        int i = open(to_user, O_RDONLY);
        int o = i < 0 ? -1 : open(from_user, O_WRONLY);
        if (o < 0 || dup2(i, 0) < 0 || dup2(o, 1) < 0)
            _exit(126);
        close(i), close(o);
        execv(player[0], player);
        _exit(127);
    }
    out->manager = run_wait(manager);
    out->player = run_wait(contestant);
    assert_true(out->manager >= 0 && out->player >= 0);
    first_line(out->outcome, sizeof out->outcome, said);
    first_line(out->message, sizeof out->message, why);
    tmp_dir_free(dir);
}

/* The same against `sh -c script`. */
static void play_sh(game_result *out, const built *b, const char *in, const char *script)
{
    char *player[] = {"/bin/sh", "-c", (char *)script, NULL};
    play(out, b, in, player);
}

static int setup(void **state)
{
    built *b = calloc(1, sizeof *b);
    if (!b || !(b->db.dir = tmp_dir_new()))
        return -1;
    snprintf(b->db.db, sizeof b->db.db, "%s", tmp_path(b->db.dir, "t.db"));
    *state = b;
    snprintf(b->pkg, sizeof b->pkg, "%s", tmp_path(b->db.dir, "coins"));
    run_result r;
    /* antigreedy rows: taking the larger end loses */
    if (run_coinrow(&r, NULL, "generate", "--db", b->db.db, "--set", "play", "--count", "6", "--n", "4..12",
                    "--even-n", "--values", "1..100", "--seed", "3", "--profile", "antigreedy", "--quiet",
                    (char *)NULL) || r.status != 0)
        return -1;
    run_result_free(&r);
    if (run_coinrow(&r, NULL, "export", "--db", b->db.db, "--set", "play", "--variant", "diff", "--format", "cms",
                    "--out", b->pkg, "--interactive", (char *)NULL) || r.status != 0)
        return -1;
    run_result_free(&r);
    const package_program programs[] = {
        {b->manager, "check/manager.c"},
        {b->reference, "sol/reference.c"},
        {b->greedy, "sol/greedy.c"},
    };
    cc_build_package(b->pkg, b->db.dir, programs, sizeof programs / sizeof programs[0]);
    return 0;
}

static void test_export_interactive_cms__a_communication_task_with_the_manager_and_the_players(void **state)
{
    built *b = *state;
    static const char *const files[] = {"check/manager.c", "check/manager", "input/input0.txt", "input/input5.txt",
                                        "output/output5.txt", "sol/reference.c", "sol/greedy.c", "sol/crash.c",
                                        "statement/statement.pdf"};
    char path[4400];
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++)
        if (access(path_in(path, b->pkg, files[k]), R_OK) != 0)
            fail_msg("the package lacks %s", files[k]);
    /* a checker would be a Batch task's: none */
    assert_int_not_equal(access(path_in(path, b->pkg, "check/checker"), F_OK), 0);
    assert_int_not_equal(access(path_in(path, b->pkg, "check/checker.c"), F_OK), 0);
    char *yaml = read_text(path_in(path, b->pkg, "task.yaml"));
    assert_non_null(strstr(yaml, "\nnum_processes: 1\nuser_io: std_io\n"));
    free(yaml);
    char *in = read_text(path_in(path, b->pkg, "input/input2.txt"));
    assert_string_equal(strchr(strchr(in, '\n') + 1, '\n'), "\n3\n"); /* the third test's seed */
    free(in);
}

static void test_export_interactive_cms__the_manager_scores_the_reference_1_and_the_greedy_player_0(void **state)
{
    built *b = *state;
    char in[4400];
    game_result g;
    for (int k = 0; k < 6; k++) {
        char name[64];
        snprintf(name, sizeof name, "input/input%d.txt", k);
        path_in(in, b->pkg, name);
        char *reference[] = {b->reference, NULL}, *greedy[] = {b->greedy, NULL};
        play(&g, b, in, reference);
        assert_int_equal(g.player, 0);
        assert_int_equal(g.manager, 0);
        if (strcmp(g.outcome, "1.0") != 0)
            fail_msg("test %d: the reference scores %s: %s", k, g.outcome, g.message);
        assert_string_equal(g.message, "translate:success");
        play(&g, b, in, greedy); /* antigreedy rows: every test catches it */
        assert_int_equal(g.manager, 0);
        assert_string_equal(g.outcome, "0.0");
        if (strncmp(g.message, "wrong answer: turn ", 19) != 0 || !strstr(g.message, " is not optimal: it gives up "))
            fail_msg("test %d: the greedy player gets '%s'", k, g.message);
    }
}

/* A player that is not playing the game scores 0.0 with one line naming
 * what it did, and the manager neither hangs nor dies. */
static void test_export_interactive_cms__hostile_players_score_0_with_a_clear_message(void **state)
{
    built *b = *state;
    char in[4400];
    path_in(in, b->pkg, "input/input0.txt");
    static const struct {
        const char *script, *message;
    } hostile[] = {
        {"printf 'X\\n'; cat >/dev/null", "presentation error: turn 1: 'X' is not L or R"},
        {"printf '\\033[2J\\n'; cat >/dev/null", "presentation error: turn 1: '\\x1b[2J' is not L or R"},
        {"read n; read coins; printf 'L\\n'; read move", "wrong answer: its output ended mid-game, at turn 3 of 10"},
        /* it reads what the manager writes before it leaves: no write of the manager's meets a closed FIFO */
        {"read n; read coins; exit 0", "wrong answer: its output ended mid-game, at turn 1 of 10"},
    };
    game_result g;
    for (size_t k = 0; k < sizeof hostile / sizeof hostile[0]; k++) {
        play_sh(&g, b, in, hostile[k].script);
        if (g.manager != 0 || strcmp(g.outcome, "0.0") != 0 || strcmp(g.message, hostile[k].message) != 0)
            fail_msg("%s: manager exit %d, '%s', '%s'", hostile[k].script, g.manager, g.outcome, g.message);
    }
}

/* A test without the jury's seed is the jury's fault: exit 1, no outcome
 * (CMS then fails the evaluation instead of scoring it). */
static void test_export_interactive_cms__a_test_without_its_seed_is_a_judge_error(void **state)
{
    built *b = *state;
    const char *in = tmp_path(b->db.dir, "unseeded.txt");
    char bad[4400];
    snprintf(bad, sizeof bad, "%s", in);
    assert_int_equal(write_file(bad, "4\n8 15 3 7\n"), 0);
    game_result g;
    play_sh(&g, b, bad, "cat >/dev/null");
    assert_int_equal(g.manager, 1);
    assert_string_equal(g.outcome, "");
    assert_non_null(strstr(g.message, "judge error: "));
    assert_non_null(strstr(g.message, "expected the jury's seed"));
}

/* Without a compiler the export stops before writing, saying how to build
 * the manager; --no-build leaves it for the setter to build. */
static void test_export_interactive_cms__no_compiler_says_how_to_build_the_manager(void **state)
{
    built *b = *state;
    const char *out = tmp_path(b->db.dir, "unbuilt");
    char dir[4400];
    snprintf(dir, sizeof dir, "%s", out);
    run_result r;
    assert_int_equal(setenv("CC", "no-cc", 1), 0);
    COINROW(&r, NULL, "export", "--db", b->db.db, "--set", "play", "--variant", "diff", "--format", "cms", "--out",
            dir, "--interactive");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "no C compiler (no-cc) to build check/manager, which CMS runs (the interactive "
                                  "task's jury): "));
    assert_non_null(strstr(r.err, " && cc -O2 -static -o check/manager check/manager.c\n"));
    assert_int_not_equal(access(dir, F_OK), 0);
    run_result_free(&r);
    COINROW(&r, NULL, "export", "--db", b->db.db, "--set", "play", "--variant", "diff", "--format", "cms", "--out",
            dir, "--interactive", "--no-build");
    assert_int_equal(unsetenv("CC"), 0);
    assert_int_equal(r.status, 0);
    run_result_free(&r);
    char path[4400];
    snprintf(path, sizeof path, "%s", tmp_path(dir, "check/manager.c"));
    assert_int_equal(access(path, R_OK), 0);
    snprintf(path, sizeof path, "%s", tmp_path(dir, "check/manager"));
    assert_int_not_equal(access(path, F_OK), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_export_interactive_cms__a_communication_task_with_the_manager_and_the_players),
        cmocka_unit_test(test_export_interactive_cms__the_manager_scores_the_reference_1_and_the_greedy_player_0),
        cmocka_unit_test(test_export_interactive_cms__hostile_players_score_0_with_a_clear_message),
        cmocka_unit_test(test_export_interactive_cms__a_test_without_its_seed_is_a_judge_error),
        cmocka_unit_test(test_export_interactive_cms__no_compiler_says_how_to_build_the_manager),
    };
    return cmocka_run_group_tests(tests, setup, tmp_db_teardown);
}

/* export --interactive (issue 37): the Kattis and the Polygon packages of
 * the interactive game, and their interactors built from the exported
 * sources (Kattis': cc alone; Polygon's: g++ with testlib.h) and run
 * against players, each pair joined by two pipes as a judge's runner joins
 * them.  Every game ends by what the processes do (a line, an exit,
 * a closed pipe), never by a clock: a player that never flushes is left to
 * the judges' wall clock (make test-judges). */
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

/* The programs of one package, built once for every test of this file. */
typedef struct built {
    tmp_db db; /* first: tmp_db_teardown frees the folder and the whole struct */
    char pkg[4200], interactor[4300], reference[4300], greedy[4300], precomputed[4300], crash[4300];
    char feedback[4300];
    char polygon[4200], testlib_interactor[4300], testlib_check[4300], tout[4300]; /* Polygon's */
} built;

/* The exit status of the interactor (Kattis: 42, 43 or 1; testlib: 0, 1,
 * 2 or 3) and its message, after a game against the player. */
typedef struct game_result {
    int jury, player; /* exit statuses; a signal's number + 128 */
    char message[1024];
} game_result;

/* Runs the jury (its command) against the player, the jury's output the
 * player's input and the other way round, waits for both, and reads the
 * first line of the file the jury says its verdict in. */
static void play_with(game_result *out, char *const jury_argv[], const char *message_path, char *const player[])
{
    int to_player[2], to_jury[2];
    assert_int_equal(pipe(to_player), 0);
    assert_int_equal(pipe(to_jury), 0);
    pid_t jury = fork();
    assert_true(jury >= 0);
    if (jury == 0) {
        dup2(to_jury[0], 0);
        dup2(to_player[1], 1);
        int null = open("/dev/null", O_WRONLY); /* testlib tells its verdict there too */
        dup2(null, 2);
        close(null);
        close(to_jury[0]), close(to_jury[1]), close(to_player[0]), close(to_player[1]);
        execv(jury_argv[0], jury_argv);
        _exit(127);
    }
    pid_t contestant = fork();
    assert_true(contestant >= 0);
    if (contestant == 0) {
        dup2(to_player[0], 0);
        dup2(to_jury[1], 1);
        close(to_jury[0]), close(to_jury[1]), close(to_player[0]), close(to_player[1]);
        execv(player[0], player);
        _exit(127);
    }
    close(to_jury[0]), close(to_jury[1]), close(to_player[0]), close(to_player[1]);
    out->jury = run_wait(jury);
    out->player = run_wait(contestant);
    assert_true(out->jury >= 0 && out->player >= 0);
    char *message = read_text(message_path);
    assert_non_null(message);
    snprintf(out->message, sizeof out->message, "%.*s", (int)strcspn(message, "\n"), message); /* its one line */
    free(message);
}

/* Kattis' interactor on the test (input in, judge answer ans): its message
 * in FEEDBACK_DIR/judgemessage.txt. */
static void play(game_result *out, const built *b, const char *in, const char *ans, char *const player[])
{
    char *jury[] = {(char *)b->interactor, (char *)in, (char *)ans, (char *)b->feedback, NULL};
    play_with(out, jury, tmp_path(b->feedback, "judgemessage.txt"), player);
}

/* Polygon's, as Polygon runs it (interactor INPUT TOUT ANSWER): its
 * verdict's line in TOUT. */
static void play_polygon(game_result *out, const built *b, const char *in, char *const player[])
{
    char ans[4410];
    snprintf(ans, sizeof ans, "%s.a", in);
    char *jury[] = {(char *)b->testlib_interactor, (char *)in, (char *)b->tout, ans, NULL};
    play_with(out, jury, b->tout, player);
}

/* The same against `sh -c script`. */
static void play_sh(game_result *out, const built *b, const char *in, const char *ans, const char *script)
{
    char *player[] = {"/bin/sh", "-c", (char *)script, NULL};
    play(out, b, in, ans, player);
}

static int setup(void **state)
{
    built *b = calloc(1, sizeof *b);
    if (!b || !(b->db.dir = tmp_dir_new()))
        return -1;
    snprintf(b->db.db, sizeof b->db.db, "%s", tmp_path(b->db.dir, "t.db"));
    *state = b;
    snprintf(b->pkg, sizeof b->pkg, "%s", tmp_path(b->db.dir, "coins"));
    snprintf(b->feedback, sizeof b->feedback, "%s", tmp_path(b->db.dir, "feedback"));
    if (mkdir(b->feedback, 0755))
        return -1;
    run_result r;
    /* antigreedy rows: taking the larger end loses */
    if (run_coinrow(&r, NULL, "generate", "--db", b->db.db, "--set", "play", "--count", "6", "--n", "4..12",
                    "--even-n", "--values", "1..100", "--seed", "3", "--profile", "antigreedy", "--quiet",
                    (char *)NULL) || r.status != 0)
        return -1;
    run_result_free(&r);
    if (run_coinrow(&r, NULL, "export", "--db", b->db.db, "--set", "play", "--variant", "diff", "--format", "kattis",
                    "--out", b->pkg, "--interactive", (char *)NULL) || r.status != 0)
        return -1;
    run_result_free(&r);
    snprintf(b->polygon, sizeof b->polygon, "%s", tmp_path(b->db.dir, "pcoins"));
    snprintf(b->tout, sizeof b->tout, "%s", tmp_path(b->db.dir, "tout"));
    if (run_coinrow(&r, NULL, "export", "--db", b->db.db, "--set", "play", "--variant", "diff", "--format", "polygon",
                    "--out", b->polygon, "--interactive", (char *)NULL) || r.status != 0)
        return -1;
    run_result_free(&r);
    const package_program programs[] = {
        {b->interactor, "output_validators/interactor/interactor.c"},
        {b->reference, "submissions/accepted/reference.c"},
        {b->greedy, "submissions/wrong_answer/greedy.c"},
        {b->precomputed, "submissions/wrong_answer/precomputed.c"},
        {b->crash, "submissions/run_time_error/crash.c"},
    };
    cc_build_package(b->pkg, b->db.dir, programs, sizeof programs / sizeof programs[0]);
    /* testlib's, with the testlib.h beside them in files/ */
    char source[4400];
    snprintf(b->testlib_interactor, sizeof b->testlib_interactor, "%s", tmp_path(b->db.dir, "testlib_interactor"));
    snprintf(source, sizeof source, "%s", tmp_path(b->polygon, "files/interactor.cpp"));
    cxx_build(b->testlib_interactor, source);
    snprintf(b->testlib_check, sizeof b->testlib_check, "%s", tmp_path(b->db.dir, "testlib_check"));
    snprintf(source, sizeof source, "%s", tmp_path(b->polygon, "files/check.cpp"));
    cxx_build(b->testlib_check, source);
    return 0;
}

static void test_export_interactive__kattis_holds_the_interactor_the_players_and_the_seeds(void **state)
{
    built *b = *state;
    static const char *const files[] = {
        "data/sample/01.in", "data/sample/01.ans", "data/sample/01.interaction", "data/secret/02.in",
        "data/secret/06.ans", "output_validators/interactor/interactor.c", "submissions/accepted/reference.c",
        "submissions/wrong_answer/greedy.c", "submissions/wrong_answer/precomputed.c",
        "submissions/time_limit_exceeded/unflushed.c", "submissions/run_time_error/crash.c",
        "problem_statement/problem.en.tex", "input_validators/validator/validator.c"};
    char path[4400];
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++)
        if (access(path_in(path, b->pkg, files[k]), R_OK) != 0)
            fail_msg("the package lacks %s", files[k]);
    assert_int_not_equal(access(path_in(path, b->pkg, "output_validators/checker"), F_OK), 0);
    char *yaml = read_text(path_in(path, b->pkg, "problem.yaml"));
    assert_non_null(strstr(yaml, "\nvalidation: custom interactive\n"));
    free(yaml);
    /* the seeds, on the inputs' third lines: an optimal jury on the sample and the first secret test, the
     * test's number after; the answers only say so */
    static const char *const seeds[][2] = {{"data/sample/01.in", "\n0\n"}, {"data/secret/02.in", "\n0\n"},
                                           {"data/secret/03.in", "\n3\n"}, {"data/secret/06.in", "\n6\n"}};
    for (size_t k = 0; k < sizeof seeds / sizeof seeds[0]; k++) {
        char *in = read_text(path_in(path, b->pkg, seeds[k][0]));
        const char *third = strchr(strchr(in, '\n') + 1, '\n');
        assert_string_equal(third, seeds[k][1]);
        free(in);
    }
    char *ans = read_text(path_in(path, b->pkg, "data/secret/06.ans"));
    assert_string_equal(ans, "interactive: the jury plays the seed on the input's third line\n");
    free(ans);
    /* the sample's interaction: the input read, then the moves, the contestant's first */
    char *input = read_text(path_in(path, b->pkg, "data/sample/01.in")), *interaction =
        read_text(path_in(path, b->pkg, "data/sample/01.interaction"));
    size_t n = (size_t)strtoul(input, NULL, 10), first = strcspn(input, "\n");
    assert_memory_equal(interaction, "<", 1);
    assert_memory_equal(interaction + 1, input, first + 1);
    const char *move = strchr(strchr(interaction, '\n') + 1, '\n') + 1;
    for (size_t turn = 0; turn < n; turn++, move += 3) {
        assert_int_equal(move[0], turn % 2 == 0 ? '>' : '<');
        assert_true(move[1] == 'L' || move[1] == 'R');
        assert_int_equal(move[2], '\n');
    }
    assert_string_equal(move, "");
    free(input), free(interaction);
    char *tex = read_text(path_in(path, b->pkg, "problem_statement/problem.en.tex"));
    assert_non_null(strstr(tex, "\\section*{Interaction}"));
    assert_non_null(strstr(tex, "Flush standard output after every line you write"));
    free(tex);
}

static void test_export_interactive__the_interactor_accepts_the_reference_and_rejects_the_wrong_players(void **state)
{
    built *b = *state;
    char in[4400], ans[4400];
    game_result g;
    int caught_greedy = 0, caught_line = 0;
    for (int k = 1; k <= 6; k++) {
        char name[64];
        snprintf(name, sizeof name, "data/%s/%02d.in", k == 1 ? "sample" : "secret", k);
        path_in(in, b->pkg, name);
        snprintf(name, sizeof name, "data/%s/%02d.ans", k == 1 ? "sample" : "secret", k);
        path_in(ans, b->pkg, name);
        char *reference[] = {b->reference, NULL}, *greedy[] = {b->greedy, NULL}, *line[] = {b->precomputed, NULL};
        play(&g, b, in, ans, reference);
        assert_int_equal(g.player, 0);
        if (g.jury != 42)
            fail_msg("test %d: the reference is not accepted: %s", k, g.message);
        assert_memory_equal(g.message, "accepted: ", 10);
        play(&g, b, in, ans, greedy);
        caught_greedy += g.jury == 43;
        play(&g, b, in, ans, line);
        assert_int_equal(g.player, 0);
        caught_line += g.jury == 43;
        if (g.jury == 43)
            assert_non_null(strstr(g.message, " is not optimal: it gives up "));
        if (k <= 2) /* an optimal jury: the canonical line is right against it */
            assert_int_equal(g.jury, 42);
    }
    assert_int_equal(caught_greedy, 6); /* antigreedy rows */
    assert_true(caught_line > 0);
    char *crash[] = {b->crash, NULL};
    play(&g, b, in, ans, crash);
    assert_int_equal(g.jury, 43);
    assert_int_not_equal(g.player, 0);
}

/* A contestant that is not playing the game gets a wrong answer naming
 * what it did, and the jury neither hangs nor dies. */
static void test_export_interactive__hostile_contestants_each_get_a_clear_wrong_answer(void **state)
{
    built *b = *state;
    char in[4400], ans[4400];
    path_in(in, b->pkg, "data/sample/01.in");
    path_in(ans, b->pkg, "data/sample/01.ans");
    static const struct {
        const char *script, *message;
    } hostile[] = {
        {"printf 'X\\n'; cat >/dev/null", "presentation error: turn 1: 'X' is not L or R"},
        {"printf '\\033[2J\\n'; cat >/dev/null", "presentation error: turn 1: '\\x1b[2J' is not L or R"},
        {"printf 'LLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLL'; cat >/dev/null",
         "presentation error: turn 1: a line longer than 16 bytes: 'LLLLLLLLLLLLLLLL...'"},
        /* each reads what the jury writes before it exits, so that no write of the jury's meets a closed pipe */
        {"read n; read coins; printf 'L'", "presentation error: turn 1: its last line 'L' has no newline"},
        {"read n; read coins; printf 'L\\n'; read move", "wrong answer: its output ended mid-game, at turn 3 of 10"},
        /* it closes its input, then moves: the jury's answer meets EPIPE, not SIGPIPE */
    };
    game_result g;
    for (size_t k = 0; k < sizeof hostile / sizeof hostile[0]; k++) {
        play_sh(&g, b, in, ans, hostile[k].script);
        if (g.jury != 43 || strcmp(g.message, hostile[k].message) != 0)
            fail_msg("%s: jury exit %d, '%s'", hostile[k].script, g.jury, g.message);
    }
    /* it closes its input, then moves: the jury's answer meets EPIPE (its
     * first message may already), not SIGPIPE */
    play_sh(&g, b, in, ans, "exec 0<&-; printf 'L\\n'");
    assert_int_equal(g.jury, 43);
    assert_string_equal(g.message, "wrong answer: its output ended mid-game, at turn 3 of 10 (it had closed its "
                                   "standard input: EPIPE)");
    /* the reference's game, then a byte more */
    char script[9000];
    snprintf(script, sizeof script, "%s; printf 'L\\n'", b->reference);
    play_sh(&g, b, in, ans, script);
    assert_int_equal(g.jury, 43);
    assert_string_equal(g.message, "wrong answer: output after the game, which ended at turn 10: 'L\\x0a'");
}

/* A first message larger than a pipe holds, and a contestant that writes
 * more than a pipe holds before it reads anything: the jury reads while it
 * writes, so the game ends with a verdict instead of two processes each
 * waiting for the other. */
static void test_export_interactive__a_first_message_larger_than_a_pipe_does_not_block_the_jury(void **state)
{
    built *b = *state;
    const char *in = tmp_path(b->db.dir, "big.in");
    char ans[4400];
    snprintf(ans, sizeof ans, "%s", tmp_path(b->db.dir, "big.ans"));
    assert_int_equal(write_file(ans, ""), 0);
    size_t n = 200000;
    FILE *f = fopen(in, "w");
    assert_non_null(f);
    fprintf(f, "%zu\n", n);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%zu%c", 1000000 + i % 7, i + 1 < n ? ' ' : '\n'); /* 1.6 MB */
    fprintf(f, "0\n"); /* the jury's seed */
    assert_int_equal(fclose(f), 0);
    game_result g;
    /* 100,000 moves (200 kB) written first, then the jury's lines read to the end */
    play_sh(&g, b, in, ans, "yes L 2>/dev/null | head -n 100000; exec 1>&-; cat >/dev/null");
    assert_true(g.jury == 42 || g.jury == 43);
    assert_int_equal(g.player, 0);
    /* and the reference plays the whole game */
    char *reference[] = {b->reference, NULL};
    play(&g, b, in, ans, reference);
    assert_int_equal(g.jury, 42);
    assert_string_equal(g.message, "accepted: every one of its 100000 moves optimal (of 200000); jury seed 0 "
                                   "(optimal)");
}

/* The Polygon package: files/interactor.cpp among problem.xml's assets,
 * the checker that reports the interactor's tout, the validator of the
 * seeded inputs, the players as solutions, tagged; the answers are the
 * note (Polygon remakes them from the main solution's tout), and the
 * statement shows the sample's game, as Polygon's statements do. */
static void test_export_interactive__polygon_holds_the_interactor_the_checker_and_the_players(void **state)
{
    built *b = *state;
    static const char *const files[] = {"files/interactor.cpp", "files/check.cpp", "files/val.cpp", "files/testlib.h",
                                        "solutions/reference.c", "solutions/greedy.c", "solutions/precomputed.c",
                                        "solutions/unflushed.c", "solutions/crash.c", "tests/01", "tests/06.a",
                                        "statements/english/problem.tex", "statements/.pdf/english/problem.pdf"};
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++)
        if (access(tmp_path(b->polygon, files[k]), R_OK) != 0)
            fail_msg("the package lacks %s", files[k]);
    assert_int_not_equal(access(tmp_path(b->polygon, "tests/01.interaction"), F_OK), 0);
    char *xml = read_text(tmp_path(b->polygon, "problem.xml"));
    assert_non_null(strstr(xml, "        </checker>\n        <interactor>\n"
                                "            <source path=\"files/interactor.cpp\" type=\"cpp.g++17\"/>\n"
                                "        </interactor>\n        <validators>\n"));
    static const char *const tagged[] = {"main\">\n                <source path=\"solutions/reference.c\"",
                                         "wrong-answer\">\n                <source path=\"solutions/greedy.c\"",
                                         "wrong-answer\">\n                <source path=\"solutions/precomputed.c\"",
                                         "time-limit-exceeded\">\n                <source path=\"solutions/unflushed.c\"",
                                         "rejected\">\n                <source path=\"solutions/crash.c\""};
    for (size_t k = 0; k < sizeof tagged / sizeof tagged[0]; k++)
        if (!strstr(xml, tagged[k]))
            fail_msg("problem.xml lacks the solution tag=\"%s", tagged[k]);
    free(xml);
    char *val = read_text(tmp_path(b->polygon, "files/val.cpp"));
    assert_non_null(strstr(val, "\n#define CR_JUDGE_INTERACTIVE 1\n"));
    free(val);
    char *in = read_text(tmp_path(b->polygon, "tests/06")), *ans = read_text(tmp_path(b->polygon, "tests/06.a"));
    assert_string_equal(strchr(strchr(in, '\n') + 1, '\n'), "\n6\n"); /* the seed */
    assert_string_equal(ans, "interactive: the jury plays the seed on the input's third line\n");
    free(in), free(ans);
    char *tex = read_text(tmp_path(b->polygon, "statements/english/problem.tex")), *first = read_text(tmp_path(b->polygon, "tests/01"));
    char game[256];
    snprintf(game, sizeof game, "\\Examples\n\n\\begin{example}\n\\exmp{%.*s~\n", (int)(strchr(strchr(first, '\n') + 1, '\n') + 1 - first), first);
    assert_non_null(strstr(tex, "\\Interaction\n"));
    if (!strstr(tex, game))
        fail_msg("no '%s' in:\n%s", game, tex);
    free(tex), free(first);
}

/* Polygon's interactor, built with g++ and testlib.h, judges as Kattis'
 * does: it accepts the reference (exit 0) and rejects the greedy player on
 * every test, the precomputed line on a test whose jury deviates, and the
 * crashing player (exit 1, _wa); each time its tout holds the verdict's
 * line, which the checker, run as Polygon runs it after the interactor,
 * reports as its own verdict.  A tout without one is the jury's failure. */
static void test_export_interactive__polygon_s_interactor_and_checker_judge_the_players(void **state)
{
    built *b = *state;
    game_result g;
    int caught_greedy = 0, caught_line = 0;
    char in[4400], ans[4410];
    for (int k = 1; k <= 6; k++) {
        char name[16];
        snprintf(name, sizeof name, "tests/%02d", k);
        snprintf(in, sizeof in, "%s", tmp_path(b->polygon, name));
        snprintf(ans, sizeof ans, "%s.a", in);
        char *reference[] = {b->reference, NULL}, *greedy[] = {b->greedy, NULL}, *line[] = {b->precomputed, NULL};
        play_polygon(&g, b, in, reference);
        assert_int_equal(g.player, 0);
        if (g.jury != 0)
            fail_msg("test %d: the reference is not accepted: %s", k, g.message);
        assert_memory_equal(g.message, "accepted: every one of its ", 27);
        char *check[] = {b->testlib_check, in, b->tout, ans, NULL};
        run_result r;
        assert_int_equal(run_capture(&r, check, NULL), 0);
        assert_int_equal(r.status, 0);
        run_result_free(&r);
        play_polygon(&g, b, in, greedy);
        caught_greedy += g.jury == 1 && strncmp(g.message, "wrong answer: turn 1: ", 22) == 0;
        assert_int_equal(run_capture(&r, check, NULL), 0);
        assert_int_equal(r.status, 1);
        assert_non_null(strstr(r.err, "wrong answer turn 1: "));
        run_result_free(&r);
        play_polygon(&g, b, in, line);
        caught_line += g.jury == 1;
        if (k <= 2) /* an optimal jury: the canonical line is right against it */
            assert_int_equal(g.jury, 0);
    }
    assert_int_equal(caught_greedy, 6);
    assert_true(caught_line > 0);
    char *crash[] = {b->crash, NULL};
    play_polygon(&g, b, in, crash);
    assert_int_equal(g.jury, 1);
    assert_int_not_equal(g.player, 0);
    assert_memory_equal(g.message, "wrong answer: its output ended mid-game, at turn 1 of ", 54);
    assert_int_equal(write_file(b->tout, "\033[2J\n"), 0);
    char *check[] = {b->testlib_check, in, b->tout, ans, NULL};
    run_result r;
    assert_int_equal(run_capture(&r, check, NULL), 0);
    assert_int_equal(r.status, 3);
    assert_non_null(strstr(r.err, "the interactor's output (tout) holds no verdict: '\\x1b[2J'"));
    run_result_free(&r);
}

/* Contestants that stop early or break the protocol get testlib's verdict
 * for it, _pe (2) or _wa (1), the same message as Kattis' (the jury
 * neither hangs nor dies), and the reference's game with a byte more is
 * wrong: the interactor reads the contestant's output to its end, not
 * through testlib's ouf, whose end quitf would not check. */
static void test_export_interactive__polygon_s_interactor_ends_every_game_with_a_verdict(void **state)
{
    built *b = *state;
    char reference_then_more[9000];
    snprintf(reference_then_more, sizeof reference_then_more, "%s; printf 'L\\n'", b->reference);
    const struct {
        const char *script;
        int status;
        const char *message;
    } games[] = {
        /* it reads the jury's lines before it exits, so that no write of the jury's meets a closed pipe */
        {"read n; read coins", 1, "wrong answer: its output ended mid-game, at turn 1 of 10"},
        {"read n; read coins; printf 'L\\n'; read move", 1, "wrong answer: its output ended mid-game, at turn 3 of 10"},
        {"exec 0<&-; printf 'L\\n'", 1, "wrong answer: its output ended mid-game, at turn 3 of 10 (it had closed its "
                                       "standard input: EPIPE)"},
        {"printf 'X\\n'; cat >/dev/null", 2, "presentation error: turn 1: 'X' is not L or R"},
        {reference_then_more, 1, "wrong answer: output after the game, which ended at turn 10: 'L\\x0a'"},
    };
    const char *in = tmp_path(b->polygon, "tests/01");
    for (size_t k = 0; k < sizeof games / sizeof games[0]; k++) {
        game_result g;
        char *player[] = {"/bin/sh", "-c", (char *)games[k].script, NULL};
        play_polygon(&g, b, in, player);
        if (g.jury != games[k].status || strcmp(g.message, games[k].message) != 0)
            fail_msg("%s: interactor exit %d, '%s'", games[k].script, g.jury, g.message);
    }
}

/* Formats without interactive problems refuse --interactive, naming the
 * format and the ones that have them, and so do the options it has no use
 * for; nothing is written. */
static void test_export_interactive__refusals_name_the_format_and_the_option(void **state)
{
    built *b = *state;
    static const struct {
        const char *format, *option, *message;
    } refused[] = {
        {"plain", NULL, "--interactive has no meaning for --format plain, whose packages hold no interactive problem "
                        "(it is for --format kattis, polygon or cms)"},
        {"kattis", "--submissions", "--submissions has no meaning with --interactive"},
    };
    const char *out = tmp_path(b->db.dir, "refused");
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++) {
        run_result r;
        if (refused[k].option)
            COINROW(&r, NULL, "export", "--db", b->db.db, "--set", "play", "--variant", "diff", "--format",
                    refused[k].format, "--out", out, "--interactive", refused[k].option);
        else
            COINROW(&r, NULL, "export", "--db", b->db.db, "--set", "play", "--variant", "diff", "--format",
                    refused[k].format, "--out", out, "--interactive");
        assert_int_equal(r.status, 2);
        assert_non_null(strstr(r.err, refused[k].message));
        assert_int_not_equal(access(out, F_OK), 0);
        run_result_free(&r);
    }
    run_result r;
    COINROW(&r, NULL, "export", "--db", b->db.db, "--set", "play", "--variant", "diff", "--format", "kattis", "--out",
            out, "--interactive", "--moves", "canonical");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "--moves canonical has no meaning with --interactive"));
    run_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_export_interactive__kattis_holds_the_interactor_the_players_and_the_seeds),
        cmocka_unit_test(test_export_interactive__the_interactor_accepts_the_reference_and_rejects_the_wrong_players),
        cmocka_unit_test(test_export_interactive__hostile_contestants_each_get_a_clear_wrong_answer),
        cmocka_unit_test(test_export_interactive__a_first_message_larger_than_a_pipe_does_not_block_the_jury),
        cmocka_unit_test(test_export_interactive__polygon_holds_the_interactor_the_checker_and_the_players),
        cmocka_unit_test(test_export_interactive__polygon_s_interactor_and_checker_judge_the_players),
        cmocka_unit_test(test_export_interactive__polygon_s_interactor_ends_every_game_with_a_verdict),
        cmocka_unit_test(test_export_interactive__refusals_name_the_format_and_the_option),
    };
    return cmocka_run_group_tests(tests, setup, tmp_db_teardown);
}

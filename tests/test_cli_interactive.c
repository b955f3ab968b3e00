/* coinrow invoke --interactive (issue 37): coinrow is the jury and the
 * program plays its side move by move over the pipes.  An adaptive optimal
 * player passes every variant; greedy and a line computed in advance fail
 * (the latter only where the jury deviates); each hostile player gets its
 * verdict and message, and coinrow neither hangs nor dies of it; --resume
 * stays interactive; in the sandbox too.
 *
 * The players are one small C program built here with cc (tests/support/
 * programs.c's way): the adaptive one reads the O(n^2) table of the lead
 * on the row left at each of its turns (the remaining-sum game on negated
 * coins; a lead-optimal move keeps the best outcome for winner), a check
 * of the jury that shares no code with the core.  (The test program itself,
 * linked with the core, cannot be the player: a sanitized build does not
 * run under the memory limit.)  Every test waits on events only: the
 * program's exit and its pipes closing, coinrow's own exit.  The one
 * player that must time out
 * (it never flushes) blocks for ever reading its standard input, which
 * coinrow keeps open mid-game, so that only the wall clock ends it,
 * whatever the machine's speed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "support/cc.h"
#include "support/files.h"
#include "support/run.h"

/* ---- the players: one C program, built here with cc alone (not this
 * test's build, which may be sanitized and cannot run under the memory
 * limit), run as `player KIND VARIANT` ---- */

static const char player_source[] =
    "#include <stdio.h>\n"
    "#include <stdlib.h>\n"
    "#include <string.h>\n"
    "static long long *a, *lead; static size_t n, lo, hi; static int remaining;\n"
    "static void take(char m) { if (m == 'L') lo++; else hi--; }\n"
    "static int hear(void) { char m; if (scanf(\" %c\", &m) != 1) return -1; take(m); return 0; }\n"
    "static void say(char m) { printf(\"%c\\n\", m); fflush(stdout); take(m); }\n"
    /* the coin as the lead counts it: the remaining-sum game is the
     * standard game on negated coins (docs/design.md) */
    "static long long coin(size_t i) { return remaining ? -a[i] : a[i]; }\n"
    /* lead[i * n + j]: the most the player to move leads by on a[i..j] */
    "static long long best(size_t i, size_t j) { return i > j || j >= n ? 0 : lead[i * n + j]; }\n"
    "static void table(void) {\n"
    "    lead = malloc(n * n * sizeof *lead);\n"
    "    for (size_t i = n; i-- > 0;)\n"
    "        for (size_t j = i; j < n; j++) {\n"
    "            long long l = coin(i) - best(i + 1, j), r = coin(j) - (j ? best(i, j - 1) : 0);\n"
    "            lead[i * n + j] = i == j ? coin(i) : l > r ? l : r;\n"
    "        }\n"
    "}\n"
    /* the optimal move on the row left, L on a tie; greedy's, the end that
     * scores more at once (for remaining the smaller coin), L on a tie */
    "static char optimal(void) {\n"
    "    if (hi - lo == 1) return 'L';\n"
    "    return coin(lo) - best(lo + 1, hi - 1) >= coin(hi - 1) - best(lo, hi - 2) ? 'L' : 'R';\n"
    "}\n"
    "static char greedy(void) { return coin(lo) >= coin(hi - 1) ? 'L' : 'R'; }\n"
    "int main(int argc, char **argv) {\n"
    "    if (argc != 3) return 3;\n"
    "    const char *kind = argv[1];\n"
    "    remaining = strcmp(argv[2], \"remaining\") == 0;\n"
    "    if (!strcmp(kind, \"quit\")) return 0; /* at once, reading nothing */\n"
    "    if (scanf(\"%zu\", &n) != 1 || !(a = malloc(n * sizeof *a))) return 3;\n"
    "    for (size_t k = 0; k < n; k++) if (scanf(\"%lld\", &a[k]) != 1) return 3;\n"
    "    table(); lo = 0; hi = n;\n"
    "    if (!strcmp(kind, \"optimal\") || !strcmp(kind, \"greedy\") || !strcmp(kind, \"after\")) {\n"
    "        for (size_t turn = 0; turn < n; turn++)\n"
    "            if (turn % 2 == 0) say(strcmp(kind, \"greedy\") ? optimal() : greedy());\n"
    "            else if (hear()) return 1;\n"
    "        if (!strcmp(kind, \"after\")) say('L'); /* one move too many */\n"
    "        return 0;\n"
    "    }\n"
    /* the line of both players playing optimally, L on ties: what an
     * optimal jury plays against an optimal player */
    "    char *line = malloc(n + 1);\n"
    "    for (size_t turn = 0; turn < n; turn++) line[turn] = optimal(), take(line[turn]);\n"
    "    lo = 0; hi = n;\n"
    "    if (!strcmp(kind, \"precomputed\") || !strcmp(kind, \"blind\")) {\n"
    "        /* its own moves of that line; the precomputed player reads the\n"
    "         * jury's and ignores them, the blind one does not read them */\n"
    "        for (size_t turn = 0; turn < n; turn++)\n"
    "            if (turn % 2 == 0) say(line[turn]);\n"
    "            else if (!strcmp(kind, \"precomputed\") && hear()) return 1;\n"
    "    } else if (!strcmp(kind, \"garbage\")) {\n"
    "        printf(\"l\\x01 \\n\"); fflush(stdout);\n"
    "    } else if (!strcmp(kind, \"long\")) { /* L without a newline, as long as anyone reads */\n"
    "        for (;;) if (putchar('L') == EOF || fflush(stdout) == EOF) return 1;\n"
    "    } else if (!strcmp(kind, \"quitter\")) { /* its first move, then it goes */\n"
    "        say(line[0]);\n"
    "    } else if (!strcmp(kind, \"unflushed\")) { /* its move stays in its buffer while it waits */\n"
    "        printf(\"%c\\n\", line[0]);\n"
    "        while (getchar() != EOF) ;\n"
    "    } else if (!strcmp(kind, \"crash\")) {\n"
    "        say(line[0]); abort();\n"
    "    } else if (!strcmp(kind, \"unended\")) { /* the line, its last move without a newline */\n"
    "        for (size_t turn = 0; turn < n; turn++)\n"
    "            if (turn % 2) hear();\n"
    "            else if (turn + 2 >= n) { printf(\"%c\", line[turn]); return 0; }\n"
    "            else say(line[turn]);\n"
    "    }\n"
    "    return 0;\n"
    "}\n";

/* ---- the tests ---- */

static char *dir;
static char db[4200], self[4300]; /* self: the player program */

static const struct {
    const char *name, *count, *n, *values, *profile;
} sets[] = {
    {"mix", "9", "1..24", "-9..30", "random"},
    {"ag", "6", "6..16", "1..100", "antigreedy"}, /* greedy's first move loses */
    {"big", "1", "40000", "10..10", "equal"},     /* a row larger than a pipe holds */
};

static int setup(void **state)
{
    (void)state;
    if (!(dir = tmp_dir_new()))
        return -1;
    snprintf(db, sizeof db, "%s/t.db", dir);
    for (size_t k = 0; k < sizeof sets / sizeof sets[0]; k++) {
        run_result r;
        if (run_coinrow(&r, NULL, "generate", "--db", db, "--set", sets[k].name, "--count", sets[k].count, "--n",
                        sets[k].n, "--values", sets[k].values, "--seed", "5", "--profile", sets[k].profile, "--quiet",
                        (char *)NULL) != 0 ||
            r.status != 0)
            return -1;
        run_result_free(&r);
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    tmp_dir_free(dir);
    return 0;
}

/* The player, built at the first call (in a test: a build that fails
 * fails it). */
static const char *player(void)
{
    if (!self[0]) {
        snprintf(self, sizeof self, "%s/player", dir);
        const char *source = tmp_path(dir, "player.c");
        assert_int_equal(write_file(source, player_source), 0);
        cc_build(self, source);
    }
    return self;
}

/* coinrow invoke --interactive --db DB --set SET --variant V [OPTION...]
 * -- this program play KIND V; options end at a NULL. */
static void invoke(run_result *r, const char *set, const char *variant, const char *kind, ...)
{
    char *argv[32] = {(char *)run_bin(), "invoke", "--interactive", "--db", db, "--set", (char *)set, "--variant",
                      (char *)variant};
    int argc = 9;
    va_list ap;
    va_start(ap, kind);
    for (const char *o; (o = va_arg(ap, const char *));)
        argv[argc++] = (char *)o;
    va_end(ap);
    char *command[] = {"--", (char *)player(), (char *)kind, (char *)variant, NULL};
    for (char **c = command; *c; c++)
        argv[argc++] = *c;
    argv[argc] = NULL;
    assert_int_equal(run_capture_in(r, dir, argv, NULL), 0);
}

static int64_t latest(void) { return db_int(db, "SELECT max(id) FROM invocation"); }

/* How many verdicts of the latest invocation are `verdict` and have a
 * message with `part` in it. */
static int64_t verdicts(const char *verdict, const char *part)
{
    char sql[512], quoted[256];
    size_t len = 0;
    for (const char *c = part; *c && len + 2 < sizeof quoted; c++) /* as an SQL string */
        len += (size_t)snprintf(quoted + len, sizeof quoted - len, *c == '\'' ? "''" : "%c", *c);
    snprintf(sql, sizeof sql,
             "SELECT count(*) FROM verdict WHERE invocation_id = %lld AND verdict = '%s' AND instr(message, '%s') > 0",
             (long long)latest(), verdict, quoted);
    return db_int(db, sql);
}

static int64_t set_size(const char *set)
{
    char sql[256];
    snprintf(sql, sizeof sql,
             "SELECT count(*) FROM instance JOIN instance_set AS s ON s.id = set_id WHERE s.name = '%s'", set);
    return db_int(db, sql);
}

/* Fails showing what coinrow said. */
static void expect(int ok, const run_result *r, const char *what)
{
    if (!ok)
        fail_msg("%s: exit %d\n%s%s", what, r->status, r->out, r->err);
}

static void test_interactive__the_adaptive_optimal_player_passes_every_variant(void **state)
{
    (void)state;
    static const char *const variants[] = {"total", "diff", "remaining", "winner"};
    for (size_t v = 0; v < 4; v++) {
        run_result r;
        invoke(&r, "mix", variants[v], "optimal", "--jobs", "2", NULL);
        expect(r.status == 0 && verdicts("AC", "every one of its") == set_size("mix"), &r, variants[v]);
        /* both kinds of jury were met */
        expect(verdicts("AC", "(optimal)") > 0 && verdicts("AC", "(deviating)") > 0, &r, "the juries");
        run_result_free(&r);
    }
    char *policy = db_text(db, "SELECT moves_policy FROM invocation ORDER BY id DESC LIMIT 1");
    assert_string_equal(policy, "interactive");
    free(policy);
}

static void test_interactive__greedy_gets_wa_naming_the_turn_and_what_it_lost(void **state)
{
    (void)state;
    run_result r;
    invoke(&r, "ag", "diff", "greedy", NULL);
    expect(r.status == 1 && verdicts("WA", " is not optimal: it gives up ") == set_size("ag"), &r, "greedy");
    assert_non_null(strstr(r.out, "first test not AC: 01: WA: turn "));
    run_result_free(&r);
}

static void test_interactive__a_line_computed_in_advance_fails_where_the_jury_deviates(void **state)
{
    (void)state;
    run_result r;
    invoke(&r, "mix", "diff", "precomputed", NULL);
    /* against the optimal jury the line is optimal; a deviation leaves it
     * playing moves meant for another row */
    int64_t optimal = verdicts("AC", "(optimal)") + verdicts("WA", "(optimal)");
    expect(r.status == 1 && optimal > 0 && verdicts("AC", "(optimal)") == optimal, &r, "optimal jury");
    expect(verdicts("WA", "is not optimal") > 0 && verdicts("WA", "(deviating)") == verdicts("WA", ""), &r,
           "deviating jury");
    run_result_free(&r);
}

static void test_interactive__hostile_players_each_get_their_verdict(void **state)
{
    (void)state;
    static const struct {
        const char *kind, *set, *verdict, *message;
    } cases[] = {
        {"garbage", "mix", "PE", "turn 1: 'l\\x01 ' is not L or R"},
        {"long", "mix", "PE", "turn 1: a line longer than 16 bytes: 'LLLLLLLLLLLLLLLL...'"},
        {"blind", "ag", "WA", "turn 3: a move on the jury's turn: it came before the program read the jury's move of "
                              "turn 2"},
        {"quitter", "ag", "WA", "its output ended mid-game, at turn 3 of "},
        {"after", "mix", "WA", "output after the game, which ended at turn "},
        {"crash", "ag", "RE", "ended by SIGABRT; the game: at turn 3 of "},
        {"unended", "ag", "PE", "has no newline"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        run_result r;
        invoke(&r, cases[k].set, "diff", cases[k].kind, NULL);
        if (r.status != 1 || verdicts(cases[k].verdict, cases[k].message) != set_size(cases[k].set))
            fail_msg("%s: exit %d, %lld of %lld %s with '%s'\n%s%s", cases[k].kind, r.status,
                     (long long)verdicts(cases[k].verdict, cases[k].message), (long long)set_size(cases[k].set),
                     cases[k].verdict, cases[k].message, r.out, r.err);
        run_result_free(&r);
    }
}

static void test_interactive__exiting_at_once_on_a_row_larger_than_the_pipe_is_seen_as_epipe(void **state)
{
    (void)state;
    run_result r;
    invoke(&r, "big", "diff", "quit", NULL);
    expect(r.status == 1 &&
               verdicts("WA", "its output ended mid-game, at turn 1 of 40000 (it had closed its standard input: "
                              "EPIPE)") == 1,
           &r, "quit");
    run_result_free(&r);
}

static void test_interactive__a_player_that_never_flushes_is_idle_and_gets_tle(void **state)
{
    (void)state;
    run_result r;
    /* it waits for ever: only the wall clock (twice 0.5 s) ends it */
    invoke(&r, "ag", "diff", "unflushed", "--time-limit", "0.5", "--jobs", "3", NULL);
    expect(r.status == 1 && verdicts("TLE", "killed at the wall clock limit of 1 s") == set_size("ag") &&
               verdicts("TLE", "the game: at turn 1 of ") == set_size("ag") &&
               verdicts("TLE", "(idle: its move, none came: unflushed?)") == set_size("ag"),
           &r, "unflushed");
    run_result_free(&r);
}

static void test_interactive__resume_goes_on_interactively(void **state)
{
    (void)state;
    run_result r;
    invoke(&r, "mix", "diff", "blind", NULL);
    run_result_free(&r);
    long long id = (long long)latest();
    int64_t caught = verdicts("WA", "a move on the jury's turn");
    assert_true(caught > 0);
    /* as if it had been interrupted before judging them */
    char sql[256];
    snprintf(sql, sizeof sql,
             "UPDATE invocation SET status = 'interrupted' WHERE id = %lld; DELETE FROM verdict WHERE invocation_id = "
             "%lld;",
             id, id);
    assert_int_equal(db_exec(db, sql), 0);
    char ids[32];
    snprintf(ids, sizeof ids, "%lld", id);
    char *argv[] = {(char *)run_bin(), "invoke", "--resume", ids, "--db", db, "--", (char *)player(), "blind", "diff",
                    NULL};
    assert_int_equal(run_capture_in(&r, dir, argv, NULL), 0);
    /* judged as a batch program its output would be a presentation error */
    if (r.status != 1 || verdicts("WA", "a move on the jury's turn") != caught ||
        !strstr(r.out, "(diff, interactive; "))
        fail_msg("resume: exit %d, %lld of %lld\n%s%s", r.status, (long long)verdicts("WA", "a move on the jury's turn"),
                 (long long)caught, r.out, r.err);
    run_result_free(&r);
}

/* A program that played the game is no submission of a batch package: a
 * labelled interactive invocation is left out of export --submissions,
 * saying why, not filed as a program that prints answers. */
static void test_interactive__a_labelled_game_is_left_out_of_a_batch_packages_submissions(void **state)
{
    (void)state;
    static const char left_source[] = "#include <stdio.h>\n"
                                      "int main(void) {\n"
                                      "    long long n, c; char move[8];\n"
                                      "    if (scanf(\"%lld\", &n) != 1) return 1;\n"
                                      "    for (long long k = 0; k < n; k++) if (scanf(\"%lld\", &c) != 1) return 1;\n"
                                      "    for (long long k = 0; k < n; k++) {\n"
                                      "        if (k % 2 == 0) { puts(\"L\"); fflush(stdout); }\n"
                                      "        else if (scanf(\"%7s\", move) != 1) return 1;\n"
                                      "    }\n"
                                      "    return 0;\n"
                                      "}\n";
    assert_int_equal(write_file(tmp_path(dir, "left.c"), left_source), 0);
    run_result r;
    char *play[] = {(char *)run_bin(), "invoke", "--interactive", "--db", db, "--set", "ag", "--variant", "diff",
                    "--label", "wrong_answer", "--", "left.c", NULL};
    assert_int_equal(run_capture_in(&r, dir, play, NULL), 0);
    expect(r.status == 1 && verdicts("WA", " is not optimal: ") > 0, &r, "left.c");
    run_result_free(&r);
    const char *out = tmp_path(dir, "batch");
    char *export[] = {(char *)run_bin(), "export", "--db", db, "--set", "ag", "--variant", "diff", "--format",
                      "kattis", "--moves", "canonical", "--out", (char *)out, "--submissions", NULL};
    assert_int_equal(run_capture_in(&r, dir, export, NULL), 0);
    expect(strstr(r.err, "played the game interactively") != NULL, &r, "export");
    char path[4096];
    snprintf(path, sizeof path, "%s/submissions/wrong_answer/left.c", out);
    assert_int_equal(access(path, F_OK), -1);
    run_result_free(&r);
}

/* The verdicts and messages of the latest invocation, one line per test
 * in test order; the caller frees them. */
static char *latest_verdicts(void)
{
    char sql[256];
    snprintf(sql, sizeof sql,
             "SELECT group_concat(verdict || ' ' || message, char(10)) FROM (SELECT verdict, message FROM verdict "
             "WHERE invocation_id = %lld ORDER BY instance_id)",
             (long long)latest());
    return db_text(db, sql);
}

/* A built-in strategy plays the game inside coinrow against the same jury
 * as a program: --builtin greedy gets, test by test, the verdict and the
 * message of the player program that plays greedy over the pipes (which
 * shares no code with the core); and --resume goes on with it. */
static void test_interactive__a_builtin_strategy_plays_as_a_program_would(void **state)
{
    (void)state;
    static const char *const variants[] = {"total", "diff", "remaining", "winner"};
    for (size_t v = 0; v < 4; v++) {
        run_result r;
        invoke(&r, "mix", variants[v], "greedy", NULL);
        run_result_free(&r);
        char *played = latest_verdicts();
        const char *argv[] = {"invoke", "--interactive", "--builtin", "greedy", "--db", db, "--set", "mix",
                              "--variant", variants[v], NULL};
        assert_int_equal(run_coinrow_args(&r, NULL, argv), 0);
        char *builtin = latest_verdicts();
        if (strcmp(played, builtin) != 0)
            fail_msg("%s: the program's verdicts\n%s\nthe built-in's\n%s", variants[v], played, builtin);
        expect(strstr(r.out, "--builtin greedy (") != NULL && strstr(r.out, ", interactive") != NULL, &r,
               "the summary");
        run_result_free(&r);
        free(played), free(builtin);
    }
    /* interrupted before judging anything, it goes on interactively */
    char *before = latest_verdicts(), sql[256], ids[32];
    long long id = (long long)latest();
    snprintf(sql, sizeof sql,
             "UPDATE invocation SET status = 'interrupted' WHERE id = %lld; DELETE FROM verdict WHERE invocation_id = "
             "%lld;",
             id, id);
    assert_int_equal(db_exec(db, sql), 0);
    snprintf(ids, sizeof ids, "%lld", id);
    run_result r;
    const char *argv[] = {"invoke", "--resume", ids, "--db", db, NULL};
    assert_int_equal(run_coinrow_args(&r, NULL, argv), 0);
    char *after = latest_verdicts();
    expect(strcmp(before, after) == 0 && verdicts("WA", " is not optimal: ") > 0, &r, "resume");
    run_result_free(&r);
    free(before), free(after);
}

static void test_interactive__usage_errors_change_nothing(void **state)
{
    (void)state;
    static const char *const cases[][8] = {
        {"--output-limit", "2", NULL},
        {"--moves", "ignored", NULL},
    };
    int64_t before = latest();
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        run_result r;
        const char *argv[16] = {"invoke", "--interactive", "--db", db, "--set", "mix", "--variant", "diff"};
        int argc = 8;
        for (const char *const *o = cases[k]; *o; o++)
            argv[argc++] = *o;
        argv[argc++] = "--";
        argv[argc++] = player();
        argv[argc] = NULL;
        assert_int_equal(run_coinrow_args(&r, NULL, argv), 0);
        expect(r.status == 2 && strstr(r.err, "--interactive") != NULL, &r, cases[k][0]);
        run_result_free(&r);
    }
    assert_int_equal(latest(), before);
}

static void test_interactive__the_sandbox_plays_too(void **state)
{
    (void)state;
    run_result r;
    invoke(&r, "mix", "winner", "optimal", "--sandbox", NULL);
    if (r.status == 2 && (strstr(r.err, "needs bubblewrap") || strstr(r.err, " cannot create namespaces: "))) {
        fprintf(stderr, "notice: skipped: %s", r.err);
        run_result_free(&r);
        skip();
    }
    expect(r.status == 0 && verdicts("AC", "every one of its") == set_size("mix") &&
               strstr(r.out, "sandboxed") != NULL,
           &r, "sandbox");
    run_result_free(&r);
    invoke(&r, "ag", "diff", "blind", "--sandbox", NULL);
    expect(r.status == 1 && verdicts("WA", "a move on the jury's turn") == set_size("ag"), &r, "sandbox, blind");
    run_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_interactive__the_adaptive_optimal_player_passes_every_variant),
        cmocka_unit_test(test_interactive__greedy_gets_wa_naming_the_turn_and_what_it_lost),
        cmocka_unit_test(test_interactive__a_line_computed_in_advance_fails_where_the_jury_deviates),
        cmocka_unit_test(test_interactive__hostile_players_each_get_their_verdict),
        cmocka_unit_test(test_interactive__exiting_at_once_on_a_row_larger_than_the_pipe_is_seen_as_epipe),
        cmocka_unit_test(test_interactive__a_player_that_never_flushes_is_idle_and_gets_tle),
        cmocka_unit_test(test_interactive__resume_goes_on_interactively),
        cmocka_unit_test(test_interactive__a_labelled_game_is_left_out_of_a_batch_packages_submissions),
        cmocka_unit_test(test_interactive__a_builtin_strategy_plays_as_a_program_would),
        cmocka_unit_test(test_interactive__usage_errors_change_nothing),
        cmocka_unit_test(test_interactive__the_sandbox_plays_too),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

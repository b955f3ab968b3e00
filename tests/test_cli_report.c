/* coinrow report end to end: the page of a set with two runs and three
 * invocations (a correct program, the greedy built-in, one that spins to
 * its time limit) shows every part with the database's numbers; names of
 * HTML and script are escaped; a large set folds into a capped matrix; a
 * comparison finds what was changed by SQL; what cannot be shown is
 * refused, changing no file.  tests/report/browser.sh renders the page in
 * Chromium. */
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

#include "support/files.h"
#include "support/programs.h"
#include "support/run.h"

static char *dir;
static char db[4096];

/* Counts the times needle stands in text. */
static int occurrences(const char *text, const char *needle)
{
    int count = 0;
    for (const char *p = text; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        count++;
    return count;
}

static int ok(run_result *r)
{
    int good = r->status == 0;
    if (!good)
        fprintf(stderr, "exit %d: %s%s", r->status, r->out, r->err);
    run_result_free(r);
    return good;
}

/* Set "rows" (12 instances, two runs, three invocations), set "big" (1,000
 * instances, a run, greedy) and set "bare" (nothing but instances). */
static int setup(void **state)
{
    (void)state;
    if (!(dir = tmp_dir_new()) || programs_build(dir) != 0)
        return -1;
    snprintf(db, sizeof db, "%s", tmp_path(dir, "t.db"));
    char correct[4096], spinner[4096];
    snprintf(correct, sizeof correct, "%s/%s", dir, program_name(PROGRAM_CORRECT));
    snprintf(spinner, sizeof spinner, "%s/%s", dir, program_name(PROGRAM_SPINNER));
    run_result r;
    int good = 1;
    COINROW(&r, NULL, "generate", "--db", db, "--set", "rows", "--count", "12", "--n", "2..9", "--values", "-5..20",
            "--seed", "3", "--even-n", "--quiet");
    good &= ok(&r);
    COINROW(&r, NULL, "solve", "--db", db, "--set", "rows", "--quiet");
    good &= ok(&r);
    COINROW(&r, NULL, "solve", "--db", db, "--set", "rows", "--algo", "dp", "--moves", "canonical", "--label", "dp",
            "--quiet");
    good &= ok(&r);
    COINROW(&r, NULL, "invoke", "--db", db, "--set", "rows", "--variant", "diff", "--label", "accepted", "--quiet",
            "--", correct);
    good &= ok(&r);
    COINROW(&r, NULL, "invoke", "--db", db, "--set", "rows", "--variant", "diff", "--builtin", "greedy", "--quiet");
    good &= r.status <= 1;
    run_result_free(&r);
    COINROW(&r, NULL, "invoke", "--db", db, "--set", "rows", "--variant", "diff", "--time-limit", "0.05", "--label",
            "time_limit_exceeded", "--quiet", "--", spinner);
    good &= r.status == 1;
    run_result_free(&r);
    COINROW(&r, NULL, "generate", "--db", db, "--set", "big", "--count", "1000", "--n", "1..300", "--values", "1..50",
            "--seed", "4", "--quiet");
    good &= ok(&r);
    COINROW(&r, NULL, "solve", "--db", db, "--set", "big", "--variant", "diff", "--moves", "none", "--quiet");
    good &= ok(&r);
    COINROW(&r, NULL, "invoke", "--db", db, "--set", "big", "--variant", "diff", "--moves", "ignored", "--builtin",
            "greedy", "--quiet");
    good &= r.status <= 1;
    run_result_free(&r);
    COINROW(&r, NULL, "generate", "--db", db, "--set", "bare", "--count", "3", "--n", "3", "--values", "1..9", "--seed",
            "5", "--quiet");
    good &= ok(&r);
    return good ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    tmp_dir_free(dir);
    return 0;
}

/* coinrow report --db DB --set SET --out OUT plus up to four words; the
 * page's text (NULL unless it exited 0), for the caller to free. */
static char *report(const char *in_db, const char *set, const char *out, const char *a, const char *b, const char *c,
                    const char *d)
{
    const char *args[16] = {"report", "--db", in_db, "--set", set, "--out", out, a, b, c, d, NULL};
    run_result r;
    assert_int_equal(run_coinrow_args(&r, NULL, args), 0);
    if (r.status != 0)
        fprintf(stderr, "coinrow report: exit %d: %s", r.status, r.err);
    char *page = r.status == 0 ? read_text(out) : NULL;
    run_result_free(&r);
    return page;
}

/* A copy of the database, to change by SQL. */
static const char *copy_db(const char *name)
{
    static char path[4096];
    char sql[8300];
    snprintf(path, sizeof path, "%s", tmp_path(dir, name));
    remove(path);
    snprintf(sql, sizeof sql, "VACUUM INTO '%s'", path);
    assert_int_equal(db_exec(db, sql), 0);
    return path;
}

static void test_cli_report__shows_the_set_its_runs_their_comparison_and_the_invocations(void **state)
{
    (void)state;
    const char *out = tmp_path(dir, "rows.html");
    char *page = report(db, "rows", out, NULL, NULL, NULL, NULL);
    assert_non_null(page);
    /* one file that loads nothing and runs nothing, with a print stylesheet */
    assert_non_null(strstr(page, "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';"));
    assert_null(strstr(page, "<script"));
    assert_null(strstr(page, "http://"));
    assert_null(strstr(page, "https://"));
    assert_null(strstr(page, " src="));
    assert_non_null(strstr(page, "@media print{"));
    /* the set */
    assert_non_null(strstr(page, "<dt>instances</dt><dd>12</dd>"));
    assert_non_null(strstr(page, "<figure id=\"n-histogram\">"));
    assert_non_null(strstr(page, "<dt>rows rejected at ingest</dt><dd>0</dd>"));
    /* the run: the latest done one, every variant, the winner split as SQL counts it */
    assert_non_null(strstr(page, "<h2>Run 2</h2>"));
    assert_non_null(strstr(page, "<dt>algorithm</dt><dd>dp</dd>"));
    assert_non_null(strstr(page, "<dt>lines</dt><dd>canonical</dd>"));
    assert_int_equal(occurrences(page, "<div class=\"variant\" id=\"variant-"), 4);
    char split[96];
    snprintf(split, sizeof split, "first player wins: %lld (",
             (long long)db_int(db, "SELECT count(*) FROM result_view WHERE run_id = 2 AND variant = 'diff' AND "
                                   "winner = 'first'"));
    assert_non_null(strstr(strstr(page, "id=\"variant-diff\""), split));
    /* the comparison: with run 1, by default; the runs agree */
    assert_non_null(strstr(page, "<p>Run 2 against run 1,"));
    assert_non_null(strstr(page, "<td class=\"same\">the same answers</td><td class=\"num\">12</td>"));
    assert_non_null(strstr(page, "<td class=\"different\">different answers</td><td class=\"num\">0</td>"));
    assert_non_null(strstr(page, "<figure id=\"run-times\">"));
    /* the invocations: 12 tests by 3, every verdict shown by letters */
    assert_int_equal(occurrences(page, "<td class=\"cell "), 36);
    assert_int_equal(occurrences(page, "<td class=\"cell v-TLE\"><b>TLE</b>"), 12);
    assert_non_null(strstr(page, "<span class=\"v-AC\">AC&nbsp;12</span>"));
    assert_non_null(strstr(page, "<span class=\"v-TLE\">TLE&nbsp;12</span>"));
    assert_non_null(strstr(page, "<figure id=\"times-by-n\">"));
    char broken[64];
    snprintf(broken, sizeof broken, "<td class=\"num\">%lld of 12 (",
             (long long)db_int(db,
                               "SELECT count(*) FROM verdict_view WHERE set_name = 'rows' AND program = 'greedy' AND "
                               "verdict <> 'AC'"));
    assert_non_null(strstr(strstr(page, "<table id=\"builtins\">"), broken));
    free(page);
}

static void test_cli_report__shows_names_of_html_and_script_as_text(void **state)
{
    (void)state;
    const char *copy = copy_db("evil.db");
    static const char evil[] = "<script>alert(1)</script><img src=x onerror=alert(2)>&\"'";
    static const char shown[] =
        "&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;&amp;&quot;&#39;";
    char sql[2048];
    snprintf(sql, sizeof sql,
             "UPDATE instance_set SET name = '%1$s', source = '%1$s' WHERE name = 'rows';"
             "UPDATE run SET label = '%1$s', solver_version = '%1$s';"
             "UPDATE invocation SET label = '%1$s';"
             "UPDATE instance SET ext_id = '%1$s' WHERE id = (SELECT min(id) FROM instance);"
             "UPDATE verdict SET message = '%1$s', stderr = '%1$s';"
             "UPDATE result SET error = '%1$s' WHERE run_id = 2 AND variant = 'total' AND "
             "instance_id = (SELECT min(id) FROM instance);"
             "INSERT INTO ingest_error (set_id, source, line, ext_id, reason, raw) SELECT id, '%1$s', 7, '%1$s', "
             "'%1$s', '%1$s' FROM instance_set WHERE name = '%1$s'",
             "<script>alert(1)</script><img src=x onerror=alert(2)>&\"''");
    assert_int_equal(db_exec(copy, sql), 0);
    char *page = report(copy, evil, tmp_path(dir, "evil.html"), NULL, NULL, NULL, NULL);
    assert_non_null(page);
    assert_null(strstr(page, "<script"));
    assert_null(strstr(page, "<img"));
    assert_null(strstr(page, "alert(1)</"));
    /* the set, the source, the run's label and version, the labels, a test,
     * a verdict's message and stderr, an error, a rejected row */
    assert_true(occurrences(page, shown) >= 10);
    free(page);
}

/* Bytes that are not UTF-8, controls and bidirectional overrides in a
 * name reach the page as U+FFFD: an override would show the text after it
 * reordered (issue 33). */
static void test_cli_report__shows_bad_utf8_controls_and_bidi_overrides_as_replacements(void **state)
{
    (void)state;
    const char *copy = copy_db("bidi.db");
    assert_int_equal(db_exec(copy, "UPDATE instance SET ext_id = 'ab' || char(8238) || 'cd' || CAST(X'ff' AS TEXT) || "
                                   "char(27) || '[2J' WHERE id = (SELECT min(id) FROM instance);"
                                   "UPDATE run SET label = 'x' || char(8294) || 'y' || char(155) || 'z';"),
                     0);
    char *page = report(copy, "rows", tmp_path(dir, "bidi.html"), NULL, NULL, NULL, NULL);
    assert_non_null(page);
    assert_null(strchr(page, '\xff'));
    assert_null(strstr(page, "\xe2\x80\xae")); /* U+202E */
    assert_null(strstr(page, "\xe2\x81\xa6")); /* U+2066 */
    assert_null(strstr(page, "\xc2\x9b"));     /* C1 CSI */
    assert_null(strstr(page, "\x1b"));
    assert_non_null(strstr(page, "ab&#xFFFD;cd&#xFFFD;&#xFFFD;[2J"));
    assert_non_null(strstr(page, "x&#xFFFD;y&#xFFFD;z"));
    free(page);
    /* the summary line names the set as the terminal may show it: it
     * printed the name's bytes, which retitled the window */
    assert_int_equal(db_exec(copy, "UPDATE instance_set SET name = 'r' || char(27) || ']0;x' || char(7) WHERE name = 'rows'"), 0);
    run_result r;
    COINROW(&r, NULL, "report", "--db", copy, "--set", "r\x1b]0;x\x07", "--out", tmp_path(dir, "title.html"));
    assert_int_equal(r.status, 0);
    assert_null(strchr(r.out, '\x1b'));
    assert_non_null(strstr(r.out, ": set 'r\\x1b]0;x\\x07', "));
    run_result_free(&r);
}

static void test_cli_report__folds_a_large_set_into_a_capped_matrix(void **state)
{
    (void)state;
    char *page = report(db, "big", tmp_path(dir, "big.html"), NULL, NULL, NULL, NULL);
    assert_non_null(page);
    assert_non_null(strstr(page, "1,000 tests, folded into at most 100 rows"));
    const char *body = strstr(page, "<tbody>"), *end = strstr(page, "</tbody>");
    assert_true(body && end);
    int rows = 0;
    for (const char *p = body; (p = strstr(p, "<tr>")) != NULL && p < end; p++)
        rows++;
    assert_int_equal(rows, 100);
    assert_int_equal(occurrences(page, "<td class=\"cell "), 100);
    assert_int_equal(occurrences(page, "(10 tests)"), 100);
    /* no comparison without a second run */
    assert_non_null(strstr(page, "Nothing to compare"));
    free(page);
}

static void test_cli_report__compares_against_a_run_and_lists_what_differs(void **state)
{
    (void)state;
    const char *copy = copy_db("changed.db");
    assert_int_equal(db_exec(copy, "UPDATE result SET value = value + 1 WHERE run_id = 2 AND variant = 'diff' AND "
                                   "instance_id = (SELECT id FROM instance WHERE ext_id = '03');"
                                   "UPDATE result SET value = value + 1 WHERE run_id = 2 AND variant = 'total' AND "
                                   "instance_id = (SELECT id FROM instance WHERE ext_id = '03');"
                                   "DELETE FROM result WHERE run_id = 2 AND "
                                   "instance_id = (SELECT id FROM instance WHERE ext_id = '07')"),
                     0);
    char *page = report(copy, "rows", tmp_path(dir, "changed.html"), "--run", "2", "--against", "1");
    assert_non_null(page);
    assert_non_null(strstr(page, "<td class=\"different\">different answers</td><td class=\"num\">1</td>"));
    assert_non_null(strstr(page, "<td>of them, different in diff</td><td class=\"num\">1</td>"));
    assert_non_null(strstr(page, "<td>missing: solved by run 1 only</td><td class=\"num\">1</td>"));
    const char *listed = strstr(page, "<table id=\"differences\">");
    assert_non_null(listed);
    assert_non_null(strstr(listed, "<td>03</td>"));
    assert_non_null(strstr(strstr(page, "<table id=\"missing\">"), "<td>07</td>"));
    /* the other way round, named */
    free(page);
    page = report(copy, "rows", tmp_path(dir, "changed.html"), "--run", "1", "--against", "2");
    assert_non_null(page);
    assert_non_null(strstr(page, "<p>Run 1 against run 2,"));
    free(page);
}

static void test_cli_report__says_what_a_set_without_runs_or_invocations_lacks(void **state)
{
    (void)state;
    char *page = report(db, "bare", tmp_path(dir, "bare.html"), NULL, NULL, NULL, NULL);
    assert_non_null(page);
    assert_non_null(strstr(page, "The set has no done run"));
    assert_non_null(strstr(page, "Nothing to compare"));
    assert_non_null(strstr(page, "No program has been judged on this set"));
    free(page);
}

static void test_cli_report__refuses_what_it_cannot_show_and_changes_no_file(void **state)
{
    (void)state;
    const char *folder = tmp_path(dir, "out");
    assert_int_equal(mkdir(folder, 0755), 0);
    char out[4096], sub[4096];
    snprintf(out, sizeof out, "%s/page.html", folder);
    snprintf(sub, sizeof sub, "%s/sub", folder);
    assert_int_equal(mkdir(sub, 0755), 0);
    assert_int_equal(write_file(out, "an older page\n"), 0);
    size_t db_len = 0, db_len_after = 0;
    char *db_before = read_bytes(db, &db_len), *folder_before = dir_snapshot(folder);
    int64_t big_run = db_int(db, "SELECT id FROM run WHERE set_id = (SELECT id FROM instance_set WHERE name = 'big')");
    char big_run_text[24];
    snprintf(big_run_text, sizeof big_run_text, "%lld", (long long)big_run);
    static const struct {
        const char *args[12];
        int status;
        const char *says;
    } cases[] = {
        {{"report", "--db", "DB", "--set", "rows", "--out", "OUT", "--run", "99"}, 1, "has no run 99"},
        {{"report", "--db", "DB", "--set", "rows", "--out", "OUT", "--run", "BIG"}, 1, "a run of set 'big', not of"},
        {{"report", "--db", "DB", "--set", "rows", "--out", "OUT", "--run", "2", "--against", "2"},
         1,
         "the run itself"},
        {{"report", "--db", "DB", "--set", "bare", "--out", "OUT", "--against", "1"}, 1, "no done run to compare"},
        {{"report", "--db", "DB", "--set", "nope", "--out", "OUT"}, 1, "has no instance set 'nope'"},
        {{"report", "--db", "DB", "--set", "rows", "--out", "DB"}, 1, "it is the database"},
        {{"report", "--db", "DB", "--set", "rows", "--out", "SUB"}, 1, "it is a folder"},
        {{"report", "--db", "DB", "--set", "rows", "--out", "NOFOLDER"}, 1, "does not exist"},
        /* a rename over them replaced them with a page (as root, --out /dev/full a device) */
        {{"report", "--db", "DB", "--set", "rows", "--out", "FIFO"}, 1, "it is a FIFO, not a file"},
        {{"report", "--db", "DB", "--set", "rows", "--out", "DANGLING"}, 1, "it is a link to a missing file"},
        {{"report", "--db", "DB", "--set", "rows"}, 2, "--set and --out are required"},
        {{"report", "--db", "DB", "--set", "rows", "--out", "OUT", "--run", "two"}, 2, "--run takes a run id"},
        {{"report", "--db", "DB", "--set", "rows", "--out", "OUT", "--against", "-1"}, 2, "--against takes a run id"},
    };
    char nofolder[4096], fifo[4096], dangling[4096];
    snprintf(nofolder, sizeof nofolder, "%s/missing/page.html", folder);
    snprintf(fifo, sizeof fifo, "%s", tmp_path(dir, "pipe.html"));
    snprintf(dangling, sizeof dangling, "%s", tmp_path(dir, "dangling.html"));
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(symlink("missing.html", dangling), 0);
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const char *args[12] = {0};
        for (int w = 0; w < 12 && cases[k].args[w]; w++) {
            const char *word = cases[k].args[w];
            if (strcmp(word, "OUT") == 0)
                word = out;
            else if (strcmp(word, "DB") == 0)
                word = db;
            else if (strcmp(word, "SUB") == 0)
                word = sub;
            else if (strcmp(word, "NOFOLDER") == 0)
                word = nofolder;
            else if (strcmp(word, "FIFO") == 0)
                word = fifo;
            else if (strcmp(word, "DANGLING") == 0)
                word = dangling;
            else if (strcmp(word, "BIG") == 0)
                word = big_run_text;
            args[w] = word;
        }
        run_result r;
        assert_int_equal(run_coinrow_args(&r, NULL, args), 0);
        if (r.status != cases[k].status || !strstr(r.err, cases[k].says))
            fail_msg("case %zu: exit %d, wanted %d saying '%s': %s", k, r.status, cases[k].status, cases[k].says,
                     r.err);
        assert_string_equal(r.out, "");
        if (cases[k].status == 1)
            assert_true(strncmp(r.err, "coinrow: ", 9) == 0);
        run_result_free(&r);
    }
    /* the database, the older page and its folder are as they were: no
     * temporary file left */
    char *db_after = read_bytes(db, &db_len_after), *folder_after = dir_snapshot(folder);
    assert_true(db_before && db_after && db_len == db_len_after && memcmp(db_before, db_after, db_len) == 0);
    assert_string_equal(folder_after, folder_before);
    free(db_before);
    free(db_after);
    free(folder_before);
    free(folder_after);
    struct stat st;
    assert_int_equal(lstat(fifo, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    assert_int_equal(lstat(dangling, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
}

/* --out naming a link writes the page into the file it names, the link
 * kept: the rename put the page in the link's place.  The page replaced
 * keeps its permissions: a private one became readable by all (0644). */
static void test_cli_report__writes_through_a_link(void **state)
{
    (void)state;
    const char *target = tmp_path(dir, "target.html"), *link = tmp_path(dir, "link.html");
    assert_int_equal(write_file(target, "an older page\n"), 0);
    assert_int_equal(chmod(target, 0600), 0);
    assert_int_equal(symlink("target.html", link), 0);
    char *page = report(db, "rows", link, NULL, NULL, NULL, NULL);
    assert_non_null(page);
    free(page);
    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    char *written = read_text(target);
    assert_non_null(strstr(written, "<!DOCTYPE html>"));
    free(written);
    assert_int_equal(stat(target, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0600);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cli_report__shows_the_set_its_runs_their_comparison_and_the_invocations),
        cmocka_unit_test(test_cli_report__shows_names_of_html_and_script_as_text),
        cmocka_unit_test(test_cli_report__shows_bad_utf8_controls_and_bidi_overrides_as_replacements),
        cmocka_unit_test(test_cli_report__folds_a_large_set_into_a_capped_matrix),
        cmocka_unit_test(test_cli_report__writes_through_a_link),
        cmocka_unit_test(test_cli_report__compares_against_a_run_and_lists_what_differs),
        cmocka_unit_test(test_cli_report__says_what_a_set_without_runs_or_invocations_lacks),
        cmocka_unit_test(test_cli_report__refuses_what_it_cannot_show_and_changes_no_file),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

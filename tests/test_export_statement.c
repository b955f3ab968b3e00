/* The problem statement's text, in the three styles, for the corners the
 * exported packages of test_cli_export do not reach: LaTeX's special
 * characters in a title, the int64 limits and powers of ten as powers, a
 * range of one value, the promises an odd sum and a large answer add, a
 * sample too long to show, a time limit in milliseconds, and an
 * interactive problem's samples. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "export/pdf.h"
#include "export/statement.h"

/* The statement of pb in style, as a string to free. */
static char *statement(const cr_problem *pb, cr_statement_style style)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    cr_statement_write(f, pb, style);
    assert_int_equal(fclose(f), 0);
    return text;
}

static void assert_has(const char *text, const char *part)
{
    if (!strstr(text, part))
        fail_msg("no '%s' in:\n%s", part, text);
}

static void test_statement__latex_escapes_a_title_s_special_characters(void **state)
{
    (void)state;
    cr_problem pb = {.title = "a\\b^c~d&e%f$g#h_i{j}k", .variant = CR_DIFF, .limits = {1, 10, 1, 9, 0, 0},
                     .time_limit_ms = 1000};
    char *kattis = statement(&pb, CR_STATEMENT_KATTIS);
    /* the line problemtools reads the name from, then the LaTeX */
    assert_has(kattis, "%% plainproblemname: a\\b^c~d&e%f$g#h_i{j}k\n"
                       "\\problemname{a\\textbackslash{}b\\^{}c\\~{}d\\&e\\%f\\$g\\#h\\_i\\{j\\}k}\n");
    free(kattis);
    char *text = statement(&pb, CR_STATEMENT_TEXT);
    assert_null(strstr(text, "textbackslash"));
    free(text);
}

static void test_statement__the_int64_limits_and_powers_of_ten_are_written_as_powers(void **state)
{
    (void)state;
    cr_problem pb = {.title = "t", .variant = CR_WINNER, .limits = {1, 100000, INT64_MIN, INT64_MAX, 0, 0}};
    char *kattis = statement(&pb, CR_STATEMENT_KATTIS), *text = statement(&pb, CR_STATEMENT_TEXT);
    assert_has(kattis, "$1 \\le n \\le 10^{5}$");
    assert_has(kattis, "$-2^{63} \\le a_i \\le 2^{63}-1$");
    assert_has(text, "1 <= n <= 10^5");
    assert_has(text, "-2^63 <= a_i <= 2^63 - 1");
    free(kattis);
    free(text);

    pb.limits = (cr_constraints){1, 1000, -1000000000, 1000, 0, 0}; /* 1000 stays 1000: powers from 10^4 */
    kattis = statement(&pb, CR_STATEMENT_KATTIS);
    assert_has(kattis, "$1 \\le n \\le 1000$");
    assert_has(kattis, "$-10^{9} \\le a_i \\le 1000$");
    free(kattis);
}

static void test_statement__a_range_of_one_value_is_written_as_an_equation(void **state)
{
    (void)state;
    cr_problem pb = {.title = "t", .variant = CR_DIFF, .limits = {5, 5, 7, 7, 0, 0}};
    char *kattis = statement(&pb, CR_STATEMENT_KATTIS), *text = statement(&pb, CR_STATEMENT_TEXT);
    assert_has(kattis, "$n = 5$");
    assert_has(kattis, "$a_i = 7$");
    assert_has(text, "n = 5");
    assert_has(text, "a_i = 7");
    free(kattis);
    free(text);
}

/* An odd sum is promised; so is an answer that fits in int64 exactly when
 * the limits allow one that does not (never for winner). */
static void test_statement__an_odd_sum_and_an_answer_that_may_not_fit_are_promised(void **state)
{
    (void)state;
    static const char odd[] = "The values add up to an odd number.", fits[] = "The answer fits in a signed 64-bit";
    cr_problem pb = {.title = "t", .variant = CR_TOTAL, .limits = {1, 4, 1, 9, 0, 1}};
    char *text = statement(&pb, CR_STATEMENT_KATTIS);
    assert_has(text, odd);
    assert_null(strstr(text, fits));
    free(text);

    pb.limits = (cr_constraints){1, 4, 0, INT64_MAX / 4, 0, 0}; /* 4 coins of the largest value fit */
    text = statement(&pb, CR_STATEMENT_KATTIS);
    assert_null(strstr(text, odd));
    assert_null(strstr(text, fits));
    free(text);
    pb.limits.value_max = INT64_MAX / 4 + 1; /* and one more does not */
    text = statement(&pb, CR_STATEMENT_KATTIS);
    assert_has(text, fits);
    free(text);
    pb.variant = CR_WINNER; /* -1, 0 or 1 always fits */
    text = statement(&pb, CR_STATEMENT_KATTIS);
    assert_null(strstr(text, fits));
    free(text);
    /* remaining scores every removal: n_max^2 times the largest value */
    pb.variant = CR_REMAINING;
    pb.limits = (cr_constraints){1, 4, -(INT64_MAX / 16) - 1, 0, 0, 0};
    text = statement(&pb, CR_STATEMENT_KATTIS);
    assert_has(text, fits);
    free(text);
}

static void test_statement__a_sample_too_long_to_show_is_named_and_a_time_limit_keeps_its_milliseconds(void **state)
{
    (void)state;
    const char *in[] = {"2\n1 2\n", NULL}, *ans[] = {"2\n", "5\n"};
    cr_problem pb = {.title = "t", .variant = CR_TOTAL, .limits = {1, 4, 1, 9, 0, 0}, .samples = 2,
                     .sample_in = in, .sample_ans = ans, .time_limit_ms = 1500};
    char *text = statement(&pb, CR_STATEMENT_TEXT);
    assert_has(text, "Sample input 1\n    2\n    1 2\nSample output 1\n    2\n\n");
    assert_has(text, "Sample input 2\n    (too long to show: see the package's test files)\nSample output 2\n    5\n");
    free(text);
    char *polygon = statement(&pb, CR_STATEMENT_POLYGON);
    assert_has(polygon, "\\begin{problem}{t}{standard input}{standard output}{1.500 seconds}");
    /* the one too long says so, as the PDF does: it was left out */
    assert_has(polygon, "\\begin{example}\n\\exmp{2\n1 2\n}{2\n}%\n"
                        "\\exmp{(too long to show: see the package's test files)}{}%\n\\end{example}\n");
    assert_null(strstr(polygon, "\\exmp{5"));
    free(polygon);
}

/* An interactive problem's samples are their games, the jury's lines on
 * the left and the contestant's on the right: in olymp.sty's example
 * environment for Polygon, as indented text for the PDF (which CMS ships
 * too), and not at all for Kattis, whose tools show data/sample's
 * .interaction files themselves. */
static void test_statement__an_interactive_problem_shows_its_samples_games_but_for_kattis(void **state)
{
    (void)state;
    const char *game[] = {"<2\n<1 5\n>R\n<L\n", NULL};
    cr_problem pb = {.title = "t", .variant = CR_DIFF, .interactive = 1, .limits = {1, 4, 1, 9, 0, 0}, .samples = 2,
                     .sample_interaction = game, .time_limit_ms = 1000};
    char *polygon = statement(&pb, CR_STATEMENT_POLYGON);
    assert_has(polygon, "\\Examples\n\n\\begin{example}\n\\exmp{2\n1 5\n~\nL\n}{~\n~\nR\n~\n}%\n"
                        "\\exmp{(too long to show: see the package's test files)}{}%\n\\end{example}\n");
    free(polygon);
    char *text = statement(&pb, CR_STATEMENT_TEXT);
    assert_has(text, "Sample interaction 1 (left: the jury, right: your program)\n    2\n    1 5\n              R\n    L\n\n"
                     "Sample interaction 2 (left: the jury, right: your program)\n"
                     "    (too long to show: see the package's test files)\n");
    free(text);
    char *kattis = statement(&pb, CR_STATEMENT_KATTIS);
    assert_null(strstr(kattis, "1 5"));
    free(kattis);
}

/* The PDF of a text of 200 lines (escapes and a letter outside ASCII among
 * them): 57 lines under the title, then 60 a page, over 4 pages; every
 * object where the cross-reference table says, every stream as long as its
 * /Length says; the same text, the same bytes. */
static void test_pdf__a_long_text_runs_over_pages_and_every_offset_is_right(void **state)
{
    (void)state;
    char text[8192];
    size_t len = 0;
    for (int i = 0; i < 199; i++)
        len += (size_t)snprintf(text + len, sizeof text - len, "line %03d\n", i);
    snprintf(text + len, sizeof text - len, "(a) \\ \xc3\xa9");
    char *pdf = NULL, *again = NULL;
    size_t pdf_len = 0, again_len = 0;
    cr_error err = {0};
    FILE *f = open_memstream(&pdf, &pdf_len);
    assert_int_equal(cr_pdf_write(f, "Coins", text, &err), 0);
    fclose(f);
    f = open_memstream(&again, &again_len);
    assert_int_equal(cr_pdf_write(f, "Coins", text, &err), 0);
    fclose(f);
    assert_int_equal(again_len, pdf_len);
    assert_memory_equal(again, pdf, pdf_len);
    free(again);

    assert_has(pdf, "<< /Type /Pages /Count 4 /Kids [5 0 R 7 0 R 9 0 R 11 0 R] >>");
    /* page k's stream begins with its first line: 0, 57, 117, 177 */
    const int first_line[] = {0, 57, 117, 177};
    for (int k = 0; k < 4; k++) {
        char head[64];
        snprintf(head, sizeof head, "%d 0 obj\n<< /Length ", 6 + 2 * k);
        const char *obj = strstr(pdf, head);
        assert_non_null(obj);
        char *end;
        unsigned long length = strtoul(obj + strlen(head), &end, 10);
        assert_memory_equal(end, " >>\nstream\n", 11);
        const char *stream = end + 11;
        assert_memory_equal(stream + length, "endstream\n", 10);
        char line[64];
        snprintf(line, sizeof line, "(line %03d) Tj T*\n", first_line[k]);
        assert_has(stream, line);
        assert_true(strstr(stream, line) < stream + length);
    }
    assert_has(pdf, "(line 056) Tj T*\nET\n");
    assert_has(pdf, "(line 198) Tj T*\n(\\(a\\) \\\\ \\351) Tj T*\nET\n"); /* é, in WinAnsi */
    /* the cross-reference table: 12 objects and the free entry, each object at its offset */
    const char *xref = strstr(pdf, "xref\n0 13\n0000000000 65535 f \n");
    assert_non_null(xref);
    for (int i = 1; i <= 12; i++) {
        size_t at = strtoul(xref + strlen("xref\n0 13\n") + 20 * (size_t)i, NULL, 10);
        char obj[16];
        int n = snprintf(obj, sizeof obj, "%d 0 obj\n", i);
        assert_true(at < pdf_len);
        assert_memory_equal(pdf + at, obj, (size_t)n);
    }
    char tail[64];
    snprintf(tail, sizeof tail, "startxref\n%zu\n%%%%EOF\n", (size_t)(xref - pdf));
    assert_string_equal(pdf + pdf_len - strlen(tail), tail);
    free(pdf);

    /* a title's Latin-1 letters are the font's (each byte of them was a '?'),
     * another character is one '?' */
    f = open_memstream(&pdf, &pdf_len);
    assert_int_equal(cr_pdf_write(f, "Pi\xc3\xa8" "ces \xc3\xa9t\xc3\xa9 \xce\xa9mega", "x", &err), 0);
    fclose(f);
    assert_has(pdf, "(Pi\\350ces \\351t\\351 ?mega) Tj");
    free(pdf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_statement__latex_escapes_a_title_s_special_characters),
        cmocka_unit_test(test_statement__the_int64_limits_and_powers_of_ten_are_written_as_powers),
        cmocka_unit_test(test_statement__a_range_of_one_value_is_written_as_an_equation),
        cmocka_unit_test(test_statement__an_odd_sum_and_an_answer_that_may_not_fit_are_promised),
        cmocka_unit_test(test_statement__a_sample_too_long_to_show_is_named_and_a_time_limit_keeps_its_milliseconds),
        cmocka_unit_test(test_statement__an_interactive_problem_shows_its_samples_games_but_for_kattis),
        cmocka_unit_test(test_pdf__a_long_text_runs_over_pages_and_every_offset_is_right),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Text from files and databases on its way to people (util/text.c): what a
 * terminal would obey or a page reorder is escaped, plain UTF-8 is left as
 * it is, and a word quoted for the shell reads back as the same bytes, a
 * property checked through bash on random words. */
#define _GNU_SOURCE /* open_memstream */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/run.h"
#include "util/util.h"

static cr_text_kind kind(const char *text, size_t len, size_t expect_len)
{
    size_t n = 0;
    cr_text_kind k = cr_text_char(&n, text, len);
    assert_int_equal(n, expect_len);
    return k;
}

static void test_text__controls_bidi_and_bad_utf8_are_told_apart_from_plain_text(void **state)
{
    (void)state;
    assert_int_equal(kind("a", 1, 1), CR_TEXT_PLAIN);
    assert_int_equal(kind("~", 1, 1), CR_TEXT_PLAIN);
    assert_int_equal(kind("\x1b", 1, 1), CR_TEXT_CONTROL);
    assert_int_equal(kind("\t", 1, 1), CR_TEXT_CONTROL);
    assert_int_equal(kind("\n", 1, 1), CR_TEXT_CONTROL);
    assert_int_equal(kind("\x7f", 1, 1), CR_TEXT_CONTROL);
    assert_int_equal(kind("\xc2\x9b", 2, 2), CR_TEXT_CONTROL); /* C1: CSI */
    assert_int_equal(kind("\xc2\x80", 2, 2), CR_TEXT_CONTROL);
    assert_int_equal(kind("\xc2\xa0", 2, 2), CR_TEXT_PLAIN);   /* no-break space */
    assert_int_equal(kind("\xc3\xa9", 2, 2), CR_TEXT_PLAIN);   /* é */
    assert_int_equal(kind("\xe2\x80\xae", 3, 3), CR_TEXT_BIDI); /* RLO */
    assert_int_equal(kind("\xe2\x80\xaa", 3, 3), CR_TEXT_BIDI); /* LRE */
    assert_int_equal(kind("\xe2\x81\xa6", 3, 3), CR_TEXT_BIDI); /* LRI */
    assert_int_equal(kind("\xe2\x81\xa9", 3, 3), CR_TEXT_BIDI); /* PDI */
    assert_int_equal(kind("\xe2\x80\xa9", 3, 3), CR_TEXT_PLAIN); /* U+2029, next to them */
    assert_int_equal(kind("\xe2\x81\xaa", 3, 3), CR_TEXT_PLAIN); /* U+206A */
    assert_int_equal(kind("\xf0\x9f\x98\x80", 4, 4), CR_TEXT_PLAIN);
    /* what is not UTF-8: a byte at a time */
    assert_int_equal(kind("\xff", 1, 1), CR_TEXT_INVALID);
    assert_int_equal(kind("\x80", 1, 1), CR_TEXT_INVALID);
    assert_int_equal(kind("\xc0\xaf", 2, 1), CR_TEXT_INVALID);     /* overlong '/' */
    assert_int_equal(kind("\xed\xa0\x80", 3, 1), CR_TEXT_INVALID); /* a surrogate */
    assert_int_equal(kind("\xf4\x90\x80\x80", 4, 1), CR_TEXT_INVALID); /* past U+10FFFF */
    assert_int_equal(kind("\xe2\x80", 2, 1), CR_TEXT_INVALID);     /* cut short */
    assert_int_equal(kind("\xc3\xa9", 1, 1), CR_TEXT_INVALID);     /* cut by len */
}

static void test_text__shown_escapes_every_byte_of_what_a_terminal_would_obey(void **state)
{
    (void)state;
    char out[CR_TEXT_SHOWN_CAP(64)];
    assert_string_equal(cr_text_shown(out, sizeof out, "plain id-7"), "plain id-7");
    assert_string_equal(cr_text_shown(out, sizeof out, "caf\xc3\xa9"), "caf\xc3\xa9");
    assert_string_equal(cr_text_shown(out, sizeof out, "a\x1b[2Jb"), "a\\x1b[2Jb");
    assert_string_equal(cr_text_shown(out, sizeof out, "\x1b]0;owned\x07"), "\\x1b]0;owned\\x07");
    assert_string_equal(cr_text_shown(out, sizeof out, "two\nlines\r"), "two\\x0alines\\x0d");
    assert_string_equal(cr_text_shown(out, sizeof out, "\xc2\x9b" "2J"), "\\xc2\\x9b2J");
    assert_string_equal(cr_text_shown(out, sizeof out, "abc\xe2\x80\xae" "fed"), "abc\\xe2\\x80\\xaefed");
    assert_string_equal(cr_text_shown(out, sizeof out, "bad\xff\xc3"), "bad\\xff\\xc3");
    assert_string_equal(cr_text_shown(out, sizeof out, NULL), "");
    /* the widest text fits its room whole */
    char all[65];
    memset(all, '\x1b', 64);
    all[64] = '\0';
    assert_int_equal(strlen(cr_text_shown(out, sizeof out, all)), 4 * 64);
}

static void test_text__shown_is_cut_between_characters_with_dots(void **state)
{
    (void)state;
    char out[8];
    assert_string_equal(cr_text_shown(out, sizeof out, "1234567"), "1234567");
    assert_string_equal(cr_text_shown(out, sizeof out, "12345678"), "1234...");
    assert_string_equal(cr_text_shown(out, sizeof out, "1\x1b" "345678"), "1...");  /* not half an escape */
    assert_string_equal(cr_text_shown(out, sizeof out, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"), "\xc3\xa9\xc3\xa9...");
    /* a field with its length: NUL bytes and all, a bad byte at its end */
    char field[16];
    assert_string_equal(cr_text_shown_len(field, sizeof field, "a\0b\xff", 4), "a\\x00b\\xff");
    assert_string_equal(cr_text_shown_len(field, sizeof field, "ab\xff" "cd", 3), "ab\\xff");
    assert_string_equal(cr_text_shown_len(out, sizeof out, "a\0b\xff", 4), "a...");
    char tiny[3];
    assert_string_equal(cr_text_shown(tiny, sizeof tiny, "ab"), "ab");
    assert_string_equal(cr_text_shown(tiny, sizeof tiny, "abc"), "");
}

/* A table's column counts characters, not bytes (%-20s padded "café" to
 * 19 columns), an escaped byte as its four. */
static void test_text__a_column_is_as_wide_in_characters_whatever_the_bytes(void **state)
{
    (void)state;
    char out[CR_TEXT_COLUMN_CAP(6)];
    assert_string_equal(cr_text_column(out, sizeof out, "caf\xc3\xa9", 6), "caf\xc3\xa9  ");
    assert_string_equal(cr_text_column(out, sizeof out, "\xe6\x97\xa5\xe6\x9c\xac", 6), "\xe6\x97\xa5\xe6\x9c\xac    ");
    assert_string_equal(cr_text_column(out, sizeof out, "abcdef", 6), "abcdef");
    assert_string_equal(cr_text_column(out, sizeof out, "abcdefg", 6), "abc...");
    assert_string_equal(cr_text_column(out, sizeof out, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 6),
                        "\xc3\xa9\xc3\xa9\xc3\xa9...");
    assert_string_equal(cr_text_column(out, sizeof out, "a\x1b", 6), "a\\x1b ");
    assert_string_equal(cr_text_column(out, sizeof out, "ab\x1b", 6), "ab\\x1b");
    assert_string_equal(cr_text_column(out, sizeof out, "abcd\x1b", 6), "abc..."); /* not half an escape */
    assert_string_equal(cr_text_column(out, sizeof out, NULL, 6), "      ");
}

/* What cr_text_put_word writes for word. */
static char *word(const char *text)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    cr_text_put_word(f, text);
    fclose(f);
    return buf;
}

static void test_text__a_word_is_quoted_as_ls_quotes_a_file_name(void **state)
{
    (void)state;
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"demo", "demo"},
        {"./sol-2.c", "./sol-2.c"},
        {"a=b,c:d@e%f+g", "a=b,c:d@e%f+g"},
        {"=ls", "'=ls'"},
        {"", "''"},
        {"two words", "'two words'"},
        {"it's", "'it'\\''s'"},
        {"'", "\\'"},
        {"$(rm -rf ~)", "'$(rm -rf ~)'"},
        {"a;b", "'a;b'"},
        {"x\x1b[2Jy", "'x'$'\\x1b''[2Jy'"},
        {"\n", "$'\\x0a'"},
        {"caf\xc3\xa9", "'caf\xc3\xa9'"},
        {"\xe2\x80\xae" "cba", "$'\\xe2\\x80\\xae''cba'"},
        {"\xff'", "$'\\xff'\\'"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char *got = word(cases[k].in);
        assert_string_equal(got, cases[k].out);
        free(got);
    }
}

/* A command of words cr_text_put_word wrote is literal, and its words are
 * found again where they end (random words, quotes and controls often);
 * a command holding what a shell would run or expand is not. */
static void test_text__a_command_of_quoted_words_is_literal_and_others_are_not(void **state)
{
    (void)state;
    static const char often[] = "'\"\\$`!*?[]{}()<>|&; \t\n\x1b\x7f~#=%";
    uint64_t seed = 0x2545f4914f6cdd1du;
    for (int t = 0; t < 300; t++) {
        char *text = NULL;
        size_t len = 0, count = 1 + (size_t)t % 5;
        FILE *f = open_memstream(&text, &len);
        assert_non_null(f);
        fputs("coinrow", f);
        for (size_t w = 0; w < count; w++) {
            char in[16];
            size_t n = (size_t)(t + w) % 15;
            for (size_t i = 0; i < n; i++) {
                seed = seed * 6364136223846793005u + 1442695040888963407u;
                unsigned b = (unsigned)(seed >> 33);
                in[i] = b % 3 == 0 ? often[(b >> 2) % (sizeof often - 1)] : (char)(1 + (b >> 2) % 255);
            }
            in[n] = '\0';
            fputc(' ', f);
            cr_text_put_word(f, in);
        }
        fclose(f);
        if (!cr_text_command_literal(text))
            fail_msg("not literal: %s", text);
        size_t words = 0;
        for (const char *at = text;; at++) {
            at = cr_text_command_word_end(at);
            words++;
            if (!*at)
                break;
        }
        assert_int_equal(words, count + 1);
        free(text);
    }
    static const char *const not_literal[] = {
        "coinrow run x; touch y", "coinrow run $(touch y)", "coinrow run `y`", "coinrow run x | sh", "coinrow run x &",
        "coinrow run x > y", "coinrow run *", "coinrow run 'x", "coinrow run $'x", "coinrow  run", "coinrow run ",
        "coinrow run x\ny", "coinrow run 'a\x1b" "b'", "rm -rf x", "coinrowx run", "", NULL,
    };
    for (size_t k = 0; k < sizeof not_literal / sizeof *not_literal; k++)
        assert_false(cr_text_command_literal(not_literal[k]));
    assert_true(cr_text_command_literal("coinrow run 'a b'$'\\x1b''c' --set s"));
}

/* Random words (every byte but NUL, quotes and controls often), quoted and
 * read back by bash: the same bytes, and nothing a terminal obeys in the
 * quoted text. */
static void test_text__bash_reads_a_quoted_word_back_as_it_was(void **state)
{
    (void)state;
    run_result r;
    if (run_capture(&r, (char *const[]){"bash", "-c", "true", NULL}, NULL) != 0 || r.status != 0) {
        run_result_free(&r);
        skip(); /* no bash here */
    }
    run_result_free(&r);
    static const char often[] = "'\"\\$`!*?[]{}()<>|&; \t\n\x1b\x7f~#=%";
    uint64_t seed = 0x9e3779b97f4a7c15u;
    for (int t = 0; t < 200; t++) {
        char in[24];
        size_t len = (size_t)(t % 23);
        for (size_t i = 0; i < len; i++) {
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            unsigned b = (unsigned)(seed >> 33);
            in[i] = b % 3 == 0 ? often[(b >> 2) % (sizeof often - 1)] : (char)(1 + (b >> 2) % 255);
        }
        in[len] = '\0';
        char *quoted = word(in), script[512];
        for (const char *c = quoted; *c; c++)
            assert_true((unsigned char)*c >= 0x20 && (unsigned char)*c != 0x7f);
        snprintf(script, sizeof script, "printf %%s %s", quoted);
        assert_int_equal(run_capture(&r, (char *const[]){"bash", "-c", script, NULL}, NULL), 0);
        assert_int_equal(r.status, 0);
        assert_memory_equal(r.out, in, len + 1);
        run_result_free(&r);
        free(quoted);
    }
}

static void test_text__put_writes_the_whole_text_escaped(void **state)
{
    (void)state;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_text_put(f, "id\x1b\xc3\xa9\x9b");
    cr_text_put(f, NULL);
    fclose(f);
    assert_string_equal(buf, "id\\x1b\xc3\xa9\\x9b");
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text__controls_bidi_and_bad_utf8_are_told_apart_from_plain_text),
        cmocka_unit_test(test_text__shown_escapes_every_byte_of_what_a_terminal_would_obey),
        cmocka_unit_test(test_text__shown_is_cut_between_characters_with_dots),
        cmocka_unit_test(test_text__a_column_is_as_wide_in_characters_whatever_the_bytes),
        cmocka_unit_test(test_text__a_word_is_quoted_as_ls_quotes_a_file_name),
        cmocka_unit_test(test_text__bash_reads_a_quoted_word_back_as_it_was),
        cmocka_unit_test(test_text__a_command_of_quoted_words_is_literal_and_others_are_not),
        cmocka_unit_test(test_text__put_writes_the_whole_text_escaped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The input readers: every format, every rejection reason, the fatal errors. */
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <csv.h>
#include <sqlite3.h>

#include "util/util.h"
#include "source/source.h"
#include "source/readers.h"
#include "support/files.h"
#include "support/oracle.h"

/* Rows as text, one line each: "L3 id: [4,6,2,3]" or "L3 id: rejected: why". */
typedef struct seen {
    char text[8192];
    size_t len;
    uint64_t last_offset;
    size_t raw_len; /* of the last row */
} seen;

/* The JSON of coins[0..n), written value by value. */
static void json_of(cr_coins *out, const int64_t *coins, size_t n)
{
    out->n = 0;
    for (size_t i = 0; i < n; i++)
        assert_int_equal(cr_coins_push(out, coins[i], NULL), 0);
}

static int collect(void *ctx, const cr_row *row)
{
    seen *s = ctx;
    cr_coins all = {0}, shown = {0};
    if (!row->reason) {
        /* the reader's JSON, made from the text, says what the values say */
        json_of(&all, row->coins, row->n);
        assert_int_equal(row->coins_json_len, all.json_len);
        assert_memory_equal(row->coins_json, all.json, all.json_len);
        json_of(&shown, row->coins, row->n < 40 ? row->n : 40);
    }
    s->len += (size_t)snprintf(s->text + s->len, sizeof s->text - s->len, "L%llu %s: %s%s\n",
                               (unsigned long long)row->line, row->ext_id ? row->ext_id : "(none)",
                               row->reason ? "rejected: " : "", row->reason ? row->reason : shown.json);
    cr_coins_free(&all);
    cr_coins_free(&shown);
    s->last_offset = row->offset;
    s->raw_len = row->raw_len;
    return 0;
}

static int read_inputs(seen *s, cr_error *err, cr_format format, const char *id_col, const char *values_col,
                       const char *input)
{
    cr_source_opts opts = {.format = format, .id_col = id_col, .values_col = values_col};
    const char *inputs[] = {input};
    memset(s, 0, sizeof *s);
    return cr_source_read(inputs, 1, &opts, collect, s, err);
}

#define READ_OK(format, id_col, values_col, input, expected)                                                   \
    do {                                                                                                       \
        seen s;                                                                                                \
        cr_error err = {0};                                                                                    \
        assert_int_equal(read_inputs(&s, &err, format, id_col, values_col, input), 0);                         \
        assert_string_equal(s.text, expected);                                                                 \
    } while (0)

static void test_source__csv_takes_every_values_separator(void **state)
{
    (void)state;
    READ_OK(CR_FORMAT_AUTO, NULL, NULL, fixture("separators.csv"),
            "L2 spaces: [4,6,2,3]\n"
            "L3 commas: [4,6,2,3]\n"
            "L4 semicolons: [4,6,2,3]\n"
            "L5 json: [4,6,2,3]\n"
            "L6 negative: [-3,5,-1]\n");
}

static void test_source__csv_handles_bom_crlf_blank_lines_and_quotes(void **state)
{
    (void)state;
    /* header names in any case; a quoted field over two lines keeps the
     * line the row starts on; libcsv trims spaces around unquoted fields */
    READ_OK(CR_FORMAT_CSV, NULL, NULL, fixture("windows.csv"),
            "L3 p1: [5,3,7,10]\n"
            "L6 p2: [8,15,3,7]\n"
            "L8 p,3: [1,2,3]\n");
}

/* Lines that end in a CR alone, as old Mac programs write them: each row
 * is named by its own line (every one was "line 1"), counted as an editor
 * that takes CR for the line end counts them (a CR in quotes too); a file
 * with an LF in its first block is one of LF (or CRLF) ends, its quoted
 * CRs are no line ends. */
static void test_source__csv_lines_ended_by_a_cr_alone_are_counted(void **state)
{
    (void)state;
    char *dir = tmp_dir_new();
    const char *mac = tmp_path(dir, "mac.csv"), *crlf = tmp_path(dir, "crlf.csv");
    assert_int_equal(write_file(mac, "id,\"values\r\"\ra,1 2\r\rb,x\rc,\"3 4\"\rd,5"), 0);
    READ_OK(CR_FORMAT_AUTO, NULL, NULL, mac,
            "L3 a: [1,2]\n"
            "L5 b: rejected: value 1 ('x') is not an integer\n"
            "L6 c: [3,4]\n"
            "L7 d: [5]\n");
    assert_int_equal(write_file(crlf, "id,\"values\r\"\r\na,1 2\r\nb,x\r\n"), 0);
    READ_OK(CR_FORMAT_AUTO, NULL, NULL, crlf,
            "L2 a: [1,2]\n"
            "L3 b: rejected: value 1 ('x') is not an integer\n");
    tmp_dir_free(dir);
}

static void test_source__csv_rejects_each_bad_row_and_keeps_the_rest(void **state)
{
    (void)state;
    READ_OK(CR_FORMAT_AUTO, NULL, NULL, fixture("bad_rows.csv"),
            "L2 good-1: [4,6,2,3]\n"
            "L3 not-int: rejected: value 2 ('x') is not an integer\n"
            "L4 too-big: rejected: value 2 ('9223372036854775808') is out of the int64 range\n"
            "L5 empty-values: rejected: no values\n"
            "L6 (none): rejected: the id is empty\n"
            "L7 wrong-n: rejected: n is 3 but there are 2 values\n"
            "L8 fields: rejected: the row has 4 fields, the header 3 (values with commas must be quoted)\n"
            "L9 quote: rejected: malformed quote at character 11\n"
            "L10 good-2: [8,15,3,7]\n"
            "L11 good-1: [9,9]\n"
            "L12 good-1: [4,6,2,3]\n"
            "L13 small-n: rejected: n is 2 but there are 3 values\n");
}

static void test_source__csv_rejects_an_unclosed_quote_naming_its_lines(void **state)
{
    (void)state;
    READ_OK(CR_FORMAT_AUTO, NULL, NULL, fixture("unclosed.csv"),
            "L2 ok: [1,2,3]\n"
            "L3 open: rejected: a quote opened in this row is never closed (lines 3-4 were read as one row)\n");
    /* on its last line alone: no "lines 2-2" */
    char *dir = tmp_dir_new();
    const char *last = tmp_path(dir, "last.csv");
    assert_int_equal(write_file(last, "id,values\nz,\"1"), 0);
    READ_OK(CR_FORMAT_AUTO, NULL, NULL, last, "L2 z: rejected: a quote opened in this row is never closed\n");
    tmp_dir_free(dir);
}

/* A record may end inside what the file calls a line (a CR in a file of
 * LF ends, an LF in one of CR ends), and the next record open a quoted
 * field over several lines: its coins are read whole.  The plain splitter
 * used to take the quoted field's next lines for rows, storing b as [4]
 * (and a of the CR file as [2]) and rejecting rows that were not there. */
static void test_source__a_quoted_field_over_lines_after_a_stray_line_end_is_read_whole(void **state)
{
    (void)state;
    char *dir = tmp_dir_new();
    const char *stray = tmp_path(dir, "stray.csv"), *mac = tmp_path(dir, "mac.csv"),
               *first = tmp_path(dir, "first.csv");
    assert_int_equal(write_file(stray, "id,values\na,1\rb,\"3\n4\n5\"\nc,6\n"), 0);
    READ_OK(CR_FORMAT_AUTO, NULL, NULL, stray, "L2 a: [1]\nL2 b: [3,4,5]\nL5 c: [6]\n");
    /* CR ends, LFs in quotes in the first block: numbered by its LFs */
    assert_int_equal(write_file(mac, "id,values\ra,\"1\n2\n3\"\rb,5\r"), 0);
    READ_OK(CR_FORMAT_AUTO, NULL, NULL, mac, "L1 a: [1,2,3]\nL3 b: [5]\n");
    /* the quoted field first in its record */
    assert_int_equal(write_file(first, "values,id\n1,w\r\"2\n3\n4\",x\n5,y\n"), 0);
    READ_OK(CR_FORMAT_AUTO, NULL, NULL, first, "L2 w: [1]\nL2 x: [2,3,4]\nL5 y: [5]\n");
    tmp_dir_free(dir);
}

/* A row short of the header's fields is rejected like a long one; the
 * column n is found whatever its case; a CR at the end of a quoted name or
 * n (a Windows line end inside the quotes) is a blank like the others. */
static void test_source__csv_short_rows_an_upper_case_n_and_a_quoted_cr(void **state)
{
    (void)state;
    char *dir = tmp_dir_new();
    const char *path = tmp_path(dir, "rows.csv");
    assert_int_equal(write_file(path, "id,\"values\r\",N\r\nshort,1 2\r\nwrong-n,1 2,3\r\ncr,4 5,\"2\r\"\r\n"), 0);
    READ_OK(CR_FORMAT_AUTO, NULL, NULL, path,
            "L2 short: rejected: the row has 2 fields, the header 3\n"
            "L3 wrong-n: rejected: n is 3 but there are 2 values\n"
            "L4 cr: [4,5]\n");
    tmp_dir_free(dir);
}

/* .tab is a TSV file's other extension, read alone or in a folder. */
static void test_source__tab_files_are_tsv(void **state)
{
    (void)state;
    char *dir = tmp_dir_new();
    const char *path = tmp_path(dir, "rows.tab");
    assert_int_equal(write_file(path, "id\tvalues\nt1\t6,4 2\n"), 0);
    READ_OK(CR_FORMAT_AUTO, NULL, NULL, path, "L2 t1: [6,4,2]\n");
    READ_OK(CR_FORMAT_TSV, NULL, NULL, dir, "L2 t1: [6,4,2]\n");
    tmp_dir_free(dir);
}

/* A file without an id column numbers its rows; two such files read
 * together are refused before a row is passed on: each numbers from 1, and
 * the second one's rows were rejected as clashing with the first's. */
static void test_source__csv_without_id_numbers_the_data_rows(void **state)
{
    (void)state;
    READ_OK(CR_FORMAT_AUTO, NULL, NULL, fixture("no_id.csv"), "L2 1: [5,3,4,5]\nL3 2: [6,2,4,6]\n");
    char *dir = tmp_dir_new();
    assert_int_equal(write_file(tmp_path(dir, "a.csv"), "values\n1 2\n"), 0);
    assert_int_equal(write_file(tmp_path(dir, "b.csv"), "values\n3 4\n"), 0);
    assert_int_equal(write_file(tmp_path(dir, "c.csv"), "id,values\nc1,5\n"), 0);
    {
        seen s;
        cr_error err = {0};
        assert_int_equal(read_inputs(&s, &err, CR_FORMAT_AUTO, NULL, NULL, dir), CR_EINVAL);
        assert_non_null(strstr(err.msg, "a.csv and "));
        assert_non_null(strstr(err.msg, "b.csv have no id column: each numbers its rows from 1"));
        assert_string_equal(s.text, "");
    }
    assert_int_equal(remove(tmp_path(dir, "b.csv")), 0); /* one of them, with others that have ids: read */
    READ_OK(CR_FORMAT_AUTO, NULL, NULL, dir, "L2 1: [1,2]\nL2 c1: [5]\n");
    tmp_dir_free(dir);
}

static void test_source__csv_takes_named_columns(void **state)
{
    (void)state;
    READ_OK(CR_FORMAT_AUTO, "values", "id", fixture("separators.csv"),
            "L2 4 6 2 3: rejected: value 1 ('spaces') is not an integer\n"
            "L3 4,6,2,3: rejected: value 1 ('commas') is not an integer\n"
            "L4 4;6;2;3: rejected: value 1 ('semicolons') is not an integer\n"
            "L5 [4, 6, 2, 3]: rejected: value 1 ('json') is not an integer\n"
            "L6 -3 5 -1: rejected: value 1 ('negative') is not an integer\n");
}

static void test_source__csv_without_values_column_is_fatal(void **state)
{
    (void)state;
    seen s;
    cr_error err = {0};
    assert_int_equal(read_inputs(&s, &err, CR_FORMAT_AUTO, NULL, NULL, fixture("no_values_column.csv")), CR_EINVAL);
    assert_string_equal(err.msg, "tests/fixtures/no_values_column.csv line 1: no values column (values, coins, piles "
                                 "or stones) (the header has: id, weights)");
    assert_int_equal(read_inputs(&s, &err, CR_FORMAT_AUTO, "key", NULL, fixture("separators.csv")), CR_EINVAL);
    assert_string_equal(err.msg, "tests/fixtures/separators.csv line 1: no id column 'key' (the header has: id, values)");
    assert_string_equal(s.text, "");
}

/* Two columns that name the values (Coins and values, or one name twice)
 * refuse the read: the first was taken and the other's values dropped
 * without a word.  --values-col picks one; named twice, it is refused too;
 * and so are two id columns or two n columns. */
static void test_source__csv_with_two_values_columns_is_fatal(void **state)
{
    (void)state;
    char *dir = tmp_dir_new();
    const char *path = tmp_path(dir, "twins.csv"), *same = tmp_path(dir, "same.csv");
    assert_int_equal(write_file(path, "ID,Coins,values\na,1 2,3 4\n"), 0);
    assert_int_equal(write_file(same, "id,coins,coins\na,1 2,3 4\n"), 0);
    READ_OK(CR_FORMAT_AUTO, NULL, "values", path, "L2 a: [3,4]\n");
    seen s;
    cr_error err = {0};
    assert_int_equal(read_inputs(&s, &err, CR_FORMAT_AUTO, NULL, NULL, path), CR_EINVAL);
    assert_non_null(strstr(err.msg, "twins.csv line 1: columns 2 and 3 both name the values: give --values-col NAME "
                                    "(the header has: ID, Coins, values)"));
    assert_string_equal(s.text, "");
    assert_int_equal(read_inputs(&s, &err, CR_FORMAT_AUTO, NULL, "coins", same), CR_EINVAL);
    assert_non_null(strstr(err.msg, "same.csv line 1: columns 2 and 3 both name the values: rename one"));
    /* two id columns, two n columns (any case), one column for both roles:
     * refused too (the first was taken; the last was "no values column") */
    static const char *const headers[][4] = {
        {"id,ID,values\na,b,1\n", NULL, NULL, "columns 1 and 2 are both the id column: rename one"},
        {"n,values,N\n1,1,1\n", NULL, NULL, "columns 1 and 3 are both the n column: rename one"},
        {"name,values\na,1\n", "name", "name", "column 1 is named by both --id-col and --values-col"},
    };
    for (size_t k = 0; k < sizeof headers / sizeof headers[0]; k++) {
        assert_int_equal(write_file(same, headers[k][0]), 0);
        assert_int_equal(read_inputs(&s, &err, CR_FORMAT_AUTO, headers[k][1], headers[k][2], same), CR_EINVAL);
        if (!strstr(err.msg, headers[k][3]))
            fail_msg("%s: %s", headers[k][0], err.msg);
    }
    tmp_dir_free(dir);
}

/* A header that cannot be read is the file's trouble, not a row's: the
 * named columns missing, a stray quote, a quote never closed. */
static void test_source__csv_with_a_header_that_cannot_be_read_is_fatal(void **state)
{
    (void)state;
    static const struct {
        const char *text, *values_col, *message;
    } cases[] = {
        {"id,values\na,1 2\n", "coins", "line 1: no values column 'coins' (the header has: id, values)"},
        {"id,val\"ues\"\na,1 2\n", NULL, "line 1: malformed quote at character 7"},
        {"id,\"values\na,1 2\n", NULL,
         "line 1: a quote opened in this row is never closed (lines 1-2 were read as one row)"},
    };
    char *dir = tmp_dir_new();
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const char *path = tmp_path(dir, "header.csv");
        assert_int_equal(write_file(path, cases[k].text), 0);
        seen s;
        cr_error err = {0};
        assert_int_equal(read_inputs(&s, &err, CR_FORMAT_CSV, NULL, cases[k].values_col, path), CR_EINVAL);
        if (!strstr(err.msg, cases[k].message))
            fail_msg("case %zu: '%s' has no '%s'", k, err.msg, cases[k].message);
        assert_string_equal(s.text, "");
    }
    tmp_dir_free(dir);
}

/* A declared n that is not a number rejects its row, naming it. */
static void test_source__csv_rejects_an_n_that_is_not_an_integer(void **state)
{
    (void)state;
    char *dir = tmp_dir_new();
    const char *path = tmp_path(dir, "n.csv");
    assert_int_equal(write_file(path, "id,values,n\na,1 2,two\nb,1 2,2\n"), 0);
    READ_OK(CR_FORMAT_CSV, NULL, NULL, path, "L2 a: rejected: n ('two') is not an integer\nL3 b: [1,2]\n");
    tmp_dir_free(dir);
}

static void test_source__empty_and_missing_files_are_fatal(void **state)
{
    (void)state;
    char *dir = tmp_dir_new();
    assert_non_null(dir);
    assert_int_equal(write_file(tmp_path(dir, "empty.csv"), "\n\n"), 0);
    seen s;
    cr_error err = {0};
    assert_int_equal(read_inputs(&s, &err, CR_FORMAT_AUTO, NULL, NULL, tmp_path(dir, "empty.csv")), CR_EINVAL);
    assert_non_null(strstr(err.msg, "empty.csv: no header row (the file is empty)"));
    assert_int_equal(read_inputs(&s, &err, CR_FORMAT_AUTO, NULL, NULL, tmp_path(dir, "missing.csv")), CR_EIO);
    assert_non_null(strstr(err.msg, "cannot read"));
    assert_non_null(strstr(err.msg, "missing.csv: No such file or directory"));
    tmp_dir_free(dir);
}

static void test_source__missing_input_is_reported_before_any_row(void **state)
{
    (void)state;
    const char *inputs[] = {fixture("no_id.csv"), "no/such/file.csv"};
    cr_source_opts opts = {0};
    seen s = {0};
    cr_error err = {0};
    assert_int_equal(cr_source_read(inputs, 2, &opts, collect, &s, &err), CR_EIO);
    assert_string_equal(s.text, "");
}

/* A file with no header, or no values column, among others (in a folder,
 * or given after them) is reported before any row: the rows before it used
 * to be passed on (and stored), and the command to finish the job could
 * never read the broken file. */
static void test_source__a_file_without_a_header_is_reported_before_any_row(void **state)
{
    (void)state;
    char *dir = tmp_dir_new();
    assert_non_null(dir);
    char folder[4200], good[4200], blank[4200], headless[4200];
    snprintf(folder, sizeof folder, "%s", tmp_path(dir, "f"));
    assert_int_equal(mkdir(folder, 0700), 0);
    assert_int_equal(write_file(tmp_path(dir, "f/1.csv"), "id,values\na,1\n"), 0);
    assert_int_equal(write_file(tmp_path(dir, "f/2.csv"), ""), 0);
    assert_int_equal(write_file(tmp_path(dir, "f/3.csv"), "id,values\nb,2\n"), 0);
    snprintf(good, sizeof good, "%s", tmp_path(dir, "f/1.csv"));
    snprintf(blank, sizeof blank, "%s", tmp_path(dir, "f/2.csv"));
    snprintf(headless, sizeof headless, "%s", tmp_path(dir, "headless.csv"));
    assert_int_equal(write_file(headless, "a\n"), 0);
    const char *const cases[][2] = {{folder, NULL}, {good, blank}, {good, headless}};
    const char *const said[] = {"2.csv: no header row (the file is empty)", "2.csv: no header row (the file is empty)",
                                "headless.csv line 1: no values column"};
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        cr_source_opts opts = {0};
        seen s = {0};
        cr_error err = {0};
        assert_int_equal(cr_source_read(cases[k], cases[k][1] ? 2 : 1, &opts, collect, &s, &err), CR_EINVAL);
        assert_string_equal(s.text, "");
        assert_non_null(strstr(err.msg, said[k]));
    }
    tmp_dir_free(dir);
}

static void test_source__tsv_by_extension_with_quoted_tab(void **state)
{
    (void)state;
    READ_OK(CR_FORMAT_AUTO, NULL, NULL, fixture("rows.tsv"), "L2 t1: [6,4,2,5,3]\nL3 t2: [1,2]\n");
}

static void test_source__wide_takes_every_column_but_the_id(void **state)
{
    (void)state;
    READ_OK(CR_FORMAT_WIDE, NULL, NULL, fixture("wide.csv"),
            "L2 w-short: [1,2,3]\n"
            "L3 w-gap: rejected: value 2 is empty\n"
            "L4 w-full: [9,8,7,6,5]\n");
}

/* A wide row too short to reach the id column is rejected, and the rows
 * around it are read. */
static void test_source__wide_row_without_its_id_is_rejected_alone(void **state)
{
    (void)state;
    char *dir = tmp_dir_new();
    assert_int_equal(write_file(tmp_path(dir, "w.csv"), "c1,c2,id\n1,2,a\n5\n3,4,b\n"), 0);
    READ_OK(CR_FORMAT_WIDE, NULL, NULL, tmp_path(dir, "w.csv"),
            "L2 a: [1,2]\n"
            "L3 (none): rejected: the row has no id (1 field; the id is field 3)\n"
            "L4 b: [3,4]\n");
    tmp_dir_free(dir);
}

/* Writes len bytes (NULs too) to path. */
static void write_bytes(const char *path, const char *bytes, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* A UTF-16 file (Excel's "Unicode text") is named as such, before a row:
 * its NUL bytes made it "field 1 has a NUL byte at character 4 (the header
 * has: )". */
static void test_source__a_utf16_file_is_named_as_such(void **state)
{
    (void)state;
    char *dir = tmp_dir_new();
    static const char le[] = "\xff\xfei\0d\0,\0v\0\n\0", be[] = "\xfe\xff\0i\0d\0,\0v\0\n";
    const char *const texts[2] = {le, be};
    for (int k = 0; k < 2; k++) {
        const char *path = tmp_path(dir, k ? "be.csv" : "le.csv");
        write_bytes(path, texts[k], k ? sizeof be - 1 : sizeof le - 1);
        seen s;
        cr_error err = {0};
        assert_int_equal(read_inputs(&s, &err, CR_FORMAT_AUTO, NULL, NULL, path), CR_EINVAL);
        assert_non_null(strstr(err.msg, k ? "be.csv is UTF-16 text (it starts with the byte order mark FE FF"
                                          : "le.csv is UTF-16 text (it starts with the byte order mark FF FE"));
        assert_non_null(strstr(err.msg, "save it as \"CSV UTF-8\""));
        assert_string_equal(s.text, "");
    }
    tmp_dir_free(dir);
}

/* A NUL in an id or a value rejects its row, saying where it is; the id
 * is not named (it would display cut at the NUL), the other rows are read. */
static void test_source__a_nul_byte_rejects_its_row_in_every_format(void **state)
{
    (void)state;
    char *dir = tmp_dir_new();
    /* libcsv ends a record at a CR too: the second record of line 7 */
    static const char csv[] = "id,values\na,1 2\na\0b,1 2\nc,1\0 2\n\"d\n\0\",3\nf,1\r\0g,2\n";
    write_bytes(tmp_path(dir, "nul.csv"), csv, sizeof csv - 1);
    READ_OK(CR_FORMAT_AUTO, NULL, NULL, tmp_path(dir, "nul.csv"),
            "L2 a: [1,2]\n"
            "L3 (none): rejected: field 1 has a NUL byte at character 2\n"
            "L4 c: rejected: field 2 has a NUL byte at character 2\n"
            "L5 (none): rejected: field 1 has a NUL byte at character 3\n"
            "L7 f: [1]\n"
            "L7 (none): rejected: field 1 has a NUL byte at character 1\n");
    static const char tsv[] = "id\tvalues\nt\0\t1\nu\t2\n";
    write_bytes(tmp_path(dir, "nul.tsv"), tsv, sizeof tsv - 1);
    READ_OK(CR_FORMAT_AUTO, NULL, NULL, tmp_path(dir, "nul.tsv"),
            "L2 (none): rejected: field 1 has a NUL byte at character 2\nL3 u: [2]\n");
    static const char wide[] = "c1,c2,id\n1\0,2,w\n3,4,x\n";
    write_bytes(tmp_path(dir, "wide.csv"), wide, sizeof wide - 1);
    READ_OK(CR_FORMAT_WIDE, NULL, NULL, tmp_path(dir, "wide.csv"),
            "L2 w: rejected: field 1 has a NUL byte at character 2\nL3 x: [3,4]\n");
    /* NUL is no white space in a contest file */
    static const char values[] = "2\n1\0002\n", first[] = "2\0\n1 2\n";
    write_bytes(tmp_path(dir, "values.in"), values, sizeof values - 1);
    write_bytes(tmp_path(dir, "first.in"), first, sizeof first - 1);
    READ_OK(CR_FORMAT_AUTO, NULL, NULL, tmp_path(dir, "values.in"),
            "L2 values: rejected: a NUL byte at character 2\n");
    READ_OK(CR_FORMAT_AUTO, NULL, NULL, tmp_path(dir, "first.in"),
            "L1 first: rejected: a NUL byte at character 2\n");
    static const char header[] = "id,val\0ues\nx,1\n";
    write_bytes(tmp_path(dir, "header.csv"), header, sizeof header - 1);
    seen s;
    cr_error err = {0};
    assert_int_equal(read_inputs(&s, &err, CR_FORMAT_AUTO, NULL, NULL, tmp_path(dir, "header.csv")), CR_EINVAL);
    assert_non_null(strstr(err.msg, "header.csv line 1: field 2 has a NUL byte at character 4"));
    tmp_dir_free(dir);
}

static void test_source__contest_folder_reads_in_files_in_name_order(void **state)
{
    (void)state;
    READ_OK(CR_FORMAT_AUTO, NULL, NULL, fixture("contest"),
            "L1 01: [10,80,90,30]\n"
            "L1 02: [10,100,10]\n"
            "L1 03: rejected: n is 5 but there are 3 values\n"
            "L1 04: rejected: the first line must be n, the number of values, not 'x'\n");
    READ_OK(CR_FORMAT_CONTEST, NULL, NULL, fixture("contest/01.in"), "L1 01: [10,80,90,30]\n");
}

static void test_source__contest_file_names_a_bad_value_and_an_empty_file(void **state)
{
    (void)state;
    char *dir = tmp_dir_new();
    assert_int_equal(write_file(tmp_path(dir, "bad.in"), "3\n1 2 z\n"), 0);
    assert_int_equal(write_file(tmp_path(dir, "empty.in"), ""), 0);
    assert_int_equal(write_file(tmp_path(dir, "short.in"), "2\n1 2 3\n"), 0);
    assert_int_equal(write_file(tmp_path(dir, "zero.in"), "0\n5\n"), 0); /* n is at least 1 */
    /* a value a line: the line of the bad one (it was "line 2" for all) */
    assert_int_equal(write_file(tmp_path(dir, "lines.in"), "3\n1\n\n2\nq\n"), 0);
    assert_int_equal(write_file(tmp_path(dir, "none.in"), "3\n\n\n"), 0);
    /* and the extension in capitals, as older archives name them (skipped) */
    assert_int_equal(write_file(tmp_path(dir, "T01.IN"), "2\n5 6\n"), 0);
    READ_OK(CR_FORMAT_AUTO, NULL, NULL, dir,
            "L1 T01: [5,6]\n"
            "L2 bad: rejected: value 3 ('z') is not an integer\n"
            "L1 empty: rejected: the file is empty (expected n, then n integers)\n"
            "L5 lines: rejected: value 3 ('q') is not an integer\n"
            "L2 none: rejected: no values\n"
            "L1 short: rejected: n is 2 but there are 3 values\n"
            "L1 zero: rejected: the first line must be n, the number of values, not '0'\n");
    tmp_dir_free(dir);
}

static void test_source__folder_mixes_formats_and_an_empty_one_is_fatal(void **state)
{
    (void)state;
    char *dir = tmp_dir_new();
    assert_int_equal(write_file(tmp_path(dir, "b.csv"), "id,coins\nc1,1 2\n"), 0);
    assert_int_equal(write_file(tmp_path(dir, "a.in"), "1\n7\n"), 0);
    assert_int_equal(write_file(tmp_path(dir, ".hidden.csv"), "id,coins\nh,1\n"), 0);
    READ_OK(CR_FORMAT_AUTO, NULL, NULL, dir, "L1 a: [7]\nL2 c1: [1,2]\n");
    seen s;
    cr_error err = {0};
    assert_int_equal(read_inputs(&s, &err, CR_FORMAT_TSV, NULL, NULL, dir), CR_EINVAL);
    assert_non_null(strstr(err.msg, "has no .tsv files"));
    tmp_dir_free(dir);
}

/* An entry of a folder named as an input but not a file that can be read
 * (a dangling link, a FIFO, a folder) refuses the read before any row,
 * naming it: it used to be skipped without a word, its rows lost. */
static void test_source__a_folder_entry_that_is_not_a_file_is_fatal(void **state)
{
    (void)state;
    const char *const entries[] = {"2.csv", "2.in", "2.tsv"};
    const char *const said[] = {"No such file or directory", "2.in is not a regular file (a FIFO)",
                                "2.tsv is not a regular file (a folder)"};
    for (size_t k = 0; k < sizeof entries / sizeof *entries; k++) {
        char *dir = tmp_dir_new();
        assert_non_null(dir);
        assert_int_equal(write_file(tmp_path(dir, "1.csv"), "id,values\na,1\n"), 0);
        const char *entry = tmp_path(dir, entries[k]);
        assert_int_equal(k == 0   ? symlink("gone.csv", entry)
                         : k == 1 ? mkfifo(entry, 0600)
                                  : mkdir(entry, 0700),
                         0);
        seen s = {0};
        cr_error err = {0};
        assert_int_not_equal(read_inputs(&s, &err, CR_FORMAT_AUTO, NULL, NULL, dir), 0);
        assert_string_equal(s.text, "");
        assert_non_null(strstr(err.msg, entries[k]));
        assert_non_null(strstr(err.msg, said[k]));
        tmp_dir_free(dir);
    }
}

/* A format asked for reads only that format's files of a folder, and a
 * folder with none of them is fatal, naming the extension it looked for. */
static void test_source__a_forced_format_reads_only_its_files_of_a_folder(void **state)
{
    (void)state;
    char *dir = tmp_dir_new(), *only_in = tmp_dir_new();
    assert_int_equal(write_file(tmp_path(dir, "a.in"), "1\n7\n"), 0);
    assert_int_equal(write_file(tmp_path(dir, "b.csv"), "id,coins\nc1,1 2\n"), 0);
    assert_int_equal(write_file(tmp_path(dir, "c.tsv"), "id\tcoins\nt1\t3\n"), 0);
    READ_OK(CR_FORMAT_CONTEST, NULL, NULL, dir, "L1 a: [7]\n");
    READ_OK(CR_FORMAT_CSV, NULL, NULL, dir, "L2 c1: [1,2]\n");
    assert_int_equal(write_file(tmp_path(only_in, "a.in"), "1\n7\n"), 0);
    seen s;
    cr_error err = {0};
    assert_int_equal(read_inputs(&s, &err, CR_FORMAT_CSV, NULL, NULL, only_in), CR_EINVAL);
    assert_non_null(strstr(err.msg, only_in));
    assert_non_null(strstr(err.msg, "has no .csv files"));
    tmp_dir_free(only_in);
    tmp_dir_free(dir);
}

/* Blanks around a header's names do not count; a row without a value is
 * rejected in both layouts; a long header is listed by its first names,
 * whole, and the count of the others. */
static void test_source__blank_header_names_rows_without_values_and_a_long_header(void **state)
{
    (void)state;
    char *dir = tmp_dir_new();
    const char *csv = tmp_path(dir, "rows.csv");
    assert_int_equal(write_file(csv, " id ,\tvalues\na,1 2\nb,  \nc,\"[]\"\n"), 0);
    READ_OK(CR_FORMAT_AUTO, NULL, NULL, csv, "L2 a: [1,2]\nL3 b: rejected: no values\nL4 c: rejected: no values\n");
    assert_int_equal(write_file(csv, "id,c1,c2\nw1,1,2\nw2\n"), 0);
    READ_OK(CR_FORMAT_WIDE, NULL, NULL, csv, "L2 w1: [1,2]\nL3 w2: rejected: no values\n");

    char header[2048];
    size_t len = 0;
    for (int i = 0; i < 40; i++)
        len += (size_t)snprintf(header + len, sizeof header - len, "%scolumn_with_a_rather_long_name_%02d",
                                i ? "," : "", i);
    snprintf(header + len, sizeof header - len, "\n1\n");
    assert_int_equal(write_file(csv, header), 0);
    seen s;
    cr_error err = {0};
    /* a short name, so that the message's room is the header's */
    char here[4096];
    assert_non_null(getcwd(here, sizeof here));
    assert_int_equal(chdir(dir), 0);
    int rc = read_inputs(&s, &err, CR_FORMAT_AUTO, NULL, NULL, "rows.csv");
    assert_int_equal(chdir(here), 0);
    assert_int_equal(rc, CR_EINVAL);
    assert_string_equal(err.msg, "rows.csv line 1: no values column (values, coins, piles or stones) (the header "
                                 "has: column_with_a_rather_long_name_00, column_with_a_rather_long_name_01, "
                                 "column_with_a_rather_long_name_02, column_with_a_rather_long_name_03, ... and "
                                 "36 more columns)");
    tmp_dir_free(dir);
}

/* However long the path, the header's names are listed whole, as many as
 * the message has room for, then how many more there are: never a name cut
 * in the middle, never the list's end cut off. */
static void test_source__a_long_path_lists_fewer_header_names_each_whole(void **state)
{
    (void)state;
    char *dir = tmp_dir_new(), header[2048], folder[256];
    size_t len = 0;
    for (int i = 0; i < 40; i++)
        len += (size_t)snprintf(header + len, sizeof header - len, "%scolumn_with_a_rather_long_name_%02d",
                                i ? "," : "", i);
    snprintf(header + len, sizeof header - len, "\n1\n");
    for (size_t width = 10; width <= 190; width += 15) {
        memset(folder, 'f', width);
        folder[width] = '\0';
        char sub[4200], csv[4300];
        snprintf(sub, sizeof sub, "%s", tmp_path(dir, folder));
        assert_int_equal(mkdir(sub, 0755), 0);
        snprintf(csv, sizeof csv, "%s/rows.csv", sub);
        assert_int_equal(write_file(csv, header), 0);
        seen s;
        cr_error err = {0};
        assert_int_equal(read_inputs(&s, &err, CR_FORMAT_AUTO, NULL, NULL, csv), CR_EINVAL);
        const char *list = strstr(err.msg, " (the header has: ");
        if (!list) { /* a path too long to leave room for the list goes without it */
            assert_true(strlen(csv) + sizeof " line 1: no values column (values, coins, piles or stones) (the header "
                                               "has: 40 columns)" > CR_ERROR_MSG_MAX);
            continue;
        }
        list += strlen(" (the header has: ");
        int listed = 0;
        char name[48];
        while (snprintf(name, sizeof name, "column_with_a_rather_long_name_%02d", listed),
               strncmp(list, name, strlen(name)) == 0) {
            list += strlen(name);
            listed++;
            if (strncmp(list, ", ", 2) == 0)
                list += 2;
        }
        char rest[64];
        if (listed == 0)
            snprintf(rest, sizeof rest, "40 columns)");
        else
            snprintf(rest, sizeof rest, "... and %d more columns)", 40 - listed);
        if (strcmp(list, rest) != 0)
            fail_msg("path of %zu bytes: the list ends '%s', not '%s', in: %s", strlen(csv), list, rest, err.msg);
    }
    tmp_dir_free(dir);
}

/* libcsv drops the blanks around an unquoted field, not inside quotes:
 * there the reader trims them from names, n and wide cells itself.  The
 * last row needs no line end; a malformed quote on a later line of a
 * quoted row names that line. */
static void test_source__quoted_blanks_a_last_row_without_line_end_and_a_quote_on_a_later_line(void **state)
{
    (void)state;
    char *dir = tmp_dir_new();
    const char *csv = tmp_path(dir, "rows.csv");
    assert_int_equal(write_file(csv, "\" id \",\"\tvalues\",\" n\"\na,1 2,\" 2\"\nb,\"3\n4\"x,2\nc,5 6 7,3"), 0);
    READ_OK(CR_FORMAT_AUTO, NULL, NULL, csv,
            "L2 a: [1,2]\n"
            "L3 b: rejected: malformed quote at character 3 of line 4\n"
            "L5 c: [5,6,7]\n");
    assert_int_equal(write_file(csv, "id,c1,c2\nw,\" 3\",\"\t4 \"\n"), 0);
    READ_OK(CR_FORMAT_WIDE, NULL, NULL, csv, "L2 w: [3,4]\n");
    tmp_dir_free(dir);
}

/* ---- a read interrupted while it waits ---- */

static void on_signal(int sig) { (void)sig; }

typedef struct fifo_read {
    const char *path;
    atomic_int stop, done;
    seen s;
    cr_error err;
    int rc;
} fifo_read;

static void *read_fifo(void *arg)
{
    fifo_read *fr = arg;
    cr_source_opts opts = {.format = CR_FORMAT_CSV, .stop = &fr->stop};
    const char *inputs[] = {fr->path};
    fr->rc = cr_source_read(inputs, 1, &opts, collect, &fr->s, &fr->err);
    atomic_store(&fr->done, 1);
    return NULL;
}

/* A reader waiting on a pipe that has half a row gives up when a signal
 * comes with the stop flag set: the rows read so far are handed over, the
 * half row is not, and the error says it was interrupted and where. */
static void test_source__a_read_waiting_on_a_fifo_gives_up_when_stopped(void **state)
{
    (void)state;
    char *dir = tmp_dir_new();
    fifo_read fr = {.path = tmp_path(dir, "rows.csv")};
    assert_int_equal(mkfifo(fr.path, 0600), 0);
    int w = open(fr.path, O_RDWR); /* a writer, so that the reader's open does not wait */
    assert_true(w >= 0);
    const char *half = "id,values\na,1 2\nb,3";
    assert_int_equal(write(w, half, strlen(half)), (ssize_t)strlen(half));
    /* no SA_RESTART: the signal ends the read waiting for more */
    struct sigaction sa = {.sa_handler = on_signal}, old;
    sigemptyset(&sa.sa_mask);
    assert_int_equal(sigaction(SIGUSR1, &sa, &old), 0);
    pthread_t reader;
    assert_int_equal(pthread_create(&reader, NULL, read_fifo, &fr), 0);
    atomic_store(&fr.stop, 1);
    /* again and again: a signal before the read starts waiting ends nothing */
    while (!atomic_load(&fr.done)) {
        pthread_kill(reader, SIGUSR1);
        nanosleep(&(struct timespec){.tv_nsec = 5000000}, NULL);
    }
    pthread_join(reader, NULL);
    sigaction(SIGUSR1, &old, NULL);
    close(w);
    assert_int_equal(fr.rc, CR_EINTERRUPTED);
    char expect[4200];
    snprintf(expect, sizeof expect, "interrupted while reading %s", fr.path);
    assert_string_equal(fr.err.msg, expect);
    assert_string_equal(fr.s.text, "L2 a: [1,2]\n");
    tmp_dir_free(dir);
}

static void test_source__raw_text_and_offsets_follow_the_input(void **state)
{
    (void)state;
    char *dir = tmp_dir_new();
    char text[1200];
    int len = snprintf(text, sizeof text, "id,values\nlong,");
    for (int i = 0; i < 300; i++)
        len += snprintf(text + len, sizeof text - (size_t)len, "1 ");
    snprintf(text + len, sizeof text - (size_t)len, "x\n");
    assert_int_equal(write_file(tmp_path(dir, "long.csv"), text), 0);
    seen s;
    cr_error err = {0};
    assert_int_equal(read_inputs(&s, &err, CR_FORMAT_AUTO, NULL, NULL, tmp_path(dir, "long.csv")), 0);
    assert_string_equal(s.text, "L2 long: rejected: value 301 ('x') is not an integer\n");
    assert_true(s.raw_len > CR_RAW_MAX);
    assert_int_equal(s.last_offset, strlen(text));
    tmp_dir_free(dir);
}

static void test_source__stdin_reads_csv(void **state)
{
    (void)state;
    int ends[2];
    assert_int_equal(pipe(ends), 0);
    assert_int_equal(write(ends[1], "id,values\ns1,3 1\n", 17), 17);
    close(ends[1]);
    FILE *f = fdopen(ends[0], "r");
    assert_non_null(f);
    cr_source_opts opts = {0};
    seen s = {0};
    cr_error err = {0};
    assert_int_equal(cr_source__csv(f, "stdin", CR_FORMAT_CSV, &opts, collect, &s, &err), 0);
    fclose(f);
    assert_string_equal(s.text, "L2 s1: [3,1]\n");
}

static void test_source__default_set_names(void **state)
{
    (void)state;
    char name[64];
    cr_source_set_name(name, sizeof name, "data/big.csv");
    assert_string_equal(name, "big");
    cr_source_set_name(name, sizeof name, "sample-data/");
    assert_string_equal(name, "sample-data");
    cr_source_set_name(name, sizeof name, "-");
    assert_string_equal(name, "stdin");
    cr_source_set_name(name, sizeof name, ".hidden");
    assert_string_equal(name, ".hidden");
    cr_format format;
    cr_error err;
    assert_int_equal(cr_source_format_parse(&format, "wide", &err), 0);
    assert_int_equal(format, CR_FORMAT_WIDE);
    assert_int_equal(cr_source_format_parse(&format, "xml", &err), CR_EINVAL);
}

/* ---- tables of another database ---- */

static char *make_table_db(char *dir)
{
    const char *db = tmp_path(dir, "other.db");
    assert_int_equal(db_exec(db, "CREATE TABLE \"odd \"\"name\"\"; DROP TABLE keep; --\" (Id TEXT, \"my piles\" TEXT);"
                                 "INSERT INTO \"odd \"\"name\"\"; DROP TABLE keep; --\" VALUES "
                                 "('a', '4 6 2 3'), ('b', NULL), ('c', '[1, x]'), ('', '5');"
                                 "CREATE TABLE keep (coins);"
                                 "INSERT INTO keep VALUES ('1 2'), (7), ('3;4');"
                                 "CREATE VIEW kept AS SELECT coins AS stones FROM keep;"),
                     0);
    return strdup(db);
}

static int read_table(seen *s, cr_error *err, const char *db, const char *table, const char *id_col,
                      const char *values_col)
{
    cr_source_opts opts = {.format = CR_FORMAT_AUTO, .id_col = id_col, .values_col = values_col};
    memset(s, 0, sizeof *s);
    return cr_source_table_read(db, table, &opts, collect, s, err);
}

static void test_table__quotes_names_and_reads_rows(void **state)
{
    (void)state;
    char *dir = tmp_dir_new(), *db = make_table_db(dir);
    seen s;
    cr_error err = {0};
    /* names match in any case; the odd name is a name, not SQL */
    assert_int_equal(read_table(&s, &err, db, "ODD \"NAME\"; drop table keep; --", NULL, "MY PILES"), 0);
    assert_string_equal(s.text, "L1 a: [4,6,2,3]\n"
                                "L2 b: rejected: the values are NULL\n"
                                "L3 c: rejected: value 2 ('x') is not an integer\n"
                                "L4 (none): rejected: the id is empty\n");
    assert_int_equal(db_int(db, "SELECT count(*) FROM keep"), 3);
    /* no id column: row numbers; integers are one-coin rows; views work */
    assert_int_equal(read_table(&s, &err, db, "keep", NULL, NULL), 0);
    assert_string_equal(s.text, "L1 1: [1,2]\nL2 2: [7]\nL3 3: [3,4]\n");
    assert_int_equal(read_table(&s, &err, db, "kept", NULL, NULL), 0);
    assert_string_equal(s.text, "L1 1: [1,2]\nL2 2: [7]\nL3 3: [3,4]\n");
    free(db);
    tmp_dir_free(dir);
}

/* Blobs with NUL bytes in a table's ids or values reject their rows. */
static void test_table__a_nul_byte_in_a_blob_rejects_its_row(void **state)
{
    (void)state;
    char *dir = tmp_dir_new();
    const char *db = tmp_path(dir, "blobs.db");
    assert_int_equal(db_exec(db, "CREATE TABLE t (id, coins);"
                                 "INSERT INTO t VALUES ('a', '1 2'), (CAST(x'610062' AS TEXT), '1 2'), "
                                 "(x'610063', '3 4'), ('d', CAST(x'310032' AS TEXT)), ('e', '5')"),
                     0);
    seen s;
    cr_error err = {0};
    assert_int_equal(read_table(&s, &err, db, "t", NULL, NULL), 0);
    assert_string_equal(s.text, "L1 a: [1,2]\n"
                                "L2 (none): rejected: the id has a NUL byte at character 2\n"
                                "L3 (none): rejected: the id has a NUL byte at character 2\n"
                                "L4 d: rejected: the values have a NUL byte at character 2\n"
                                "L5 e: [5]\n");
    tmp_dir_free(dir);
}

static void test_table__unknown_names_list_what_there_is(void **state)
{
    (void)state;
    char *dir = tmp_dir_new(), *db = make_table_db(dir);
    seen s;
    cr_error err = {0};
    assert_int_equal(read_table(&s, &err, db, "keep; DROP TABLE keep", NULL, NULL), CR_EINVAL);
    assert_non_null(strstr(err.msg, "has no table 'keep; DROP TABLE keep' (tables: keep, kept, odd \"name\"; DROP"));
    assert_int_equal(read_table(&s, &err, db, "keep", "\"; DROP TABLE keep; --", NULL), CR_EINVAL);
    assert_non_null(strstr(err.msg, "table keep has no id column '\"; DROP TABLE keep; --' (columns: coins)"));
    assert_int_equal(read_table(&s, &err, db, "keep", NULL, "x\") FROM keep; DROP TABLE keep; --"), CR_EINVAL);
    assert_non_null(strstr(err.msg, "no values column"));
    assert_int_equal(db_int(db, "SELECT count(*) FROM keep"), 3);
    const char *empty = tmp_path(dir, "empty.db");
    assert_int_equal(db_exec(empty, "PRAGMA user_version = 1"), 0);
    assert_int_equal(read_table(&s, &err, empty, "keep", NULL, NULL), CR_EINVAL);
    assert_non_null(strstr(err.msg, "has no table 'keep' (tables: none)"));
    assert_int_equal(read_table(&s, &err, tmp_path(dir, "none.db"), "keep", NULL, NULL), CR_EIO);
    assert_string_equal(s.text, "");
    free(db);
    tmp_dir_free(dir);
}

/* A row SQLite cannot compute (a view's integer overflow) ends the read,
 * naming the row; the rows before it were handed over. */
static void test_table__a_row_sqlite_cannot_compute_ends_the_read_naming_it(void **state)
{
    (void)state;
    char *dir = tmp_dir_new(), *db = make_table_db(dir);
    assert_int_equal(db_exec(db, "CREATE VIEW overflowing AS SELECT CASE WHEN coins = 7 "
                                 "THEN abs(-9223372036854775808) ELSE coins END AS coins FROM keep"),
                     0);
    seen s;
    cr_error err = {0};
    assert_int_equal(read_table(&s, &err, db, "overflowing", NULL, NULL), CR_EIO);
    char expect[4200];
    snprintf(expect, sizeof expect, "cannot read %s:overflowing row 2: integer overflow", db);
    assert_string_equal(err.msg, expect);
    assert_string_equal(s.text, "L1 1: [1,2]\n");
    free(db);
    tmp_dir_free(dir);
}

/* What a parser called back with, as text: "[field]" per field and "<c>"
 * per record, c its last character. */
typedef struct calls {
    char text[512];
    size_t len;
} calls;

static void on_call_field(void *data, size_t len, void *ctx)
{
    calls *c = ctx;
    assert_true(c->len + len + 2 < sizeof c->text);
    c->text[c->len++] = '[';
    if (len)
        memcpy(c->text + c->len, data, len);
    c->len += len;
    c->text[c->len++] = ']';
}

static void on_call_record(int ch, void *ctx)
{
    calls *c = ctx;
    c->len += (size_t)snprintf(c->text + c->len, sizeof c->text - c->len, "<%d>", ch);
}

/* The lines split without libcsv give the very calls libcsv makes, on
 * random lines of blanks, delimiters, NULs, CRs and quotes (those last
 * two send the line to libcsv), for both delimiters. */
static void test_source__plain_lines_split_as_libcsv_splits_them(void **state)
{
    (void)state;
    static const char alphabet[] = {'a', '7', ' ', ' ', '\t', ',', ',', '\0'}, rare[] = {'\r', '"'};
    uint64_t rng = 42;
    size_t plain = 0;
    for (int t = 0; t < 200000; t++) {
        char line[24];
        size_t len = test_rand(&rng) % (sizeof line - 1);
        for (size_t i = 0; i < len; i++)
            line[i] = test_rand(&rng) % 64 ? alphabet[test_rand(&rng) % sizeof alphabet] : rare[test_rand(&rng) % 2];
        int end = (int)(test_rand(&rng) % 8);
        if (end > 0) /* else the input's last line, without its LF */
            line[len++] = end == 1 ? '\r' : '\n'; /* a CR alone ends the lines of some files */
        if (len >= 2 && test_rand(&rng) % 8 == 0) /* a CRLF end */
            line[len - 2] = '\r';
        char delim = t % 2 ? '\t' : ',';
        calls fast = {0}, lib = {0};
        if (cr_source__csv_plain_line(line, len, delim, on_call_field, on_call_record, &fast) != 0) {
            assert_int_equal(fast.len, 0);
            continue;
        }
        plain++;
        struct csv_parser p;
        assert_int_equal(csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_REPALL_NL), 0);
        csv_set_delim(&p, (unsigned char)delim);
        assert_int_equal(csv_parse(&p, line, len, on_call_field, on_call_record, &lib), len);
        assert_int_equal(csv_fini(&p, on_call_field, on_call_record, &lib), 0);
        csv_free(&p);
        if (fast.len != lib.len || memcmp(fast.text, lib.text, lib.len) != 0)
            fail_msg("line %d (%zu bytes): split as %.*s, libcsv: %.*s", t, len, (int)fast.len, fast.text,
                     (int)lib.len, lib.text);
    }
    assert_true(plain > 100000); /* the comparison ran on many lines */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_source__csv_takes_every_values_separator),
        cmocka_unit_test(test_source__plain_lines_split_as_libcsv_splits_them),
        cmocka_unit_test(test_source__csv_handles_bom_crlf_blank_lines_and_quotes),
        cmocka_unit_test(test_source__csv_lines_ended_by_a_cr_alone_are_counted),
        cmocka_unit_test(test_source__csv_rejects_each_bad_row_and_keeps_the_rest),
        cmocka_unit_test(test_source__csv_rejects_an_unclosed_quote_naming_its_lines),
        cmocka_unit_test(test_source__a_quoted_field_over_lines_after_a_stray_line_end_is_read_whole),
        cmocka_unit_test(test_source__csv_short_rows_an_upper_case_n_and_a_quoted_cr),
        cmocka_unit_test(test_source__csv_without_id_numbers_the_data_rows),
        cmocka_unit_test(test_source__csv_takes_named_columns),
        cmocka_unit_test(test_source__csv_without_values_column_is_fatal),
        cmocka_unit_test(test_source__csv_with_two_values_columns_is_fatal),
        cmocka_unit_test(test_source__a_utf16_file_is_named_as_such),
        cmocka_unit_test(test_source__csv_with_a_header_that_cannot_be_read_is_fatal),
        cmocka_unit_test(test_source__csv_rejects_an_n_that_is_not_an_integer),
        cmocka_unit_test(test_source__empty_and_missing_files_are_fatal),
        cmocka_unit_test(test_source__a_file_without_a_header_is_reported_before_any_row),
        cmocka_unit_test(test_source__missing_input_is_reported_before_any_row),
        cmocka_unit_test(test_source__tsv_by_extension_with_quoted_tab),
        cmocka_unit_test(test_source__tab_files_are_tsv),
        cmocka_unit_test(test_source__wide_takes_every_column_but_the_id),
        cmocka_unit_test(test_source__wide_row_without_its_id_is_rejected_alone),
        cmocka_unit_test(test_source__a_nul_byte_rejects_its_row_in_every_format),
        cmocka_unit_test(test_source__contest_folder_reads_in_files_in_name_order),
        cmocka_unit_test(test_source__contest_file_names_a_bad_value_and_an_empty_file),
        cmocka_unit_test(test_source__folder_mixes_formats_and_an_empty_one_is_fatal),
        cmocka_unit_test(test_source__a_forced_format_reads_only_its_files_of_a_folder),
        cmocka_unit_test(test_source__a_folder_entry_that_is_not_a_file_is_fatal),
        cmocka_unit_test(test_source__blank_header_names_rows_without_values_and_a_long_header),
        cmocka_unit_test(test_source__a_long_path_lists_fewer_header_names_each_whole),
        cmocka_unit_test(test_source__quoted_blanks_a_last_row_without_line_end_and_a_quote_on_a_later_line),
        cmocka_unit_test(test_source__a_read_waiting_on_a_fifo_gives_up_when_stopped),
        cmocka_unit_test(test_source__raw_text_and_offsets_follow_the_input),
        cmocka_unit_test(test_source__stdin_reads_csv),
        cmocka_unit_test(test_source__default_set_names),
        cmocka_unit_test(test_table__quotes_names_and_reads_rows),
        cmocka_unit_test(test_table__a_nul_byte_in_a_blob_rejects_its_row),
        cmocka_unit_test(test_table__unknown_names_list_what_there_is),
        cmocka_unit_test(test_table__a_row_sqlite_cannot_compute_ends_the_read_naming_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

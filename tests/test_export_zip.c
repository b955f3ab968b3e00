/* The zip writer: what it writes must be read back, entry for entry and
 * byte for byte, by the common unzip tools (Info-ZIP's unzip, Python's
 * zipfile), and be the same bytes every time. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "export/zip.h"
#include "support/files.h"
#include "support/run.h"

/* 1 when program is on PATH. */
static int have(const char *program)
{
    char *argv[] = {"sh", "-c", NULL, NULL};
    char cmd[256];
    snprintf(cmd, sizeof cmd, "command -v %s", program);
    argv[2] = cmd;
    run_result r;
    int found = run_capture(&r, argv, NULL) == 0 && r.status == 0;
    run_result_free(&r);
    return found;
}

/* Runs argv and expects exit 0, showing its output otherwise. */
static void expect_ok(char *const argv[])
{
    run_result r;
    assert_int_equal(run_capture(&r, argv, NULL), 0);
    if (r.status != 0)
        fail_msg("%s: status %d\n%s%s", argv[0], r.status, r.out, r.err);
    run_result_free(&r);
}

/* Zips made on several threads at once, the first zips of the process (the
 * CRC table was once filled on first use, unsynchronised: ThreadSanitizer,
 * make test SANITIZE=thread, saw the race). */
enum { ZIPPERS = 4 };

typedef struct zipper {
    pthread_barrier_t *start;
    const char *tree;
    char zip[4096];
    int rc;
} zipper;

static void *zip_one(void *arg)
{
    zipper *z = arg;
    cr_error err = {0};
    pthread_barrier_wait(z->start);
    z->rc = cr_zip_dir(z->zip, z->tree, &err);
    return NULL;
}

static void test_zip__threads_zipping_at_once_write_the_same_bytes(void **state)
{
    (void)state;
    char *dir = tmp_dir_new();
    char tree[4096];
    snprintf(tree, sizeof tree, "%s", tmp_path(dir, "tree"));
    assert_int_equal(mkdir(tree, 0755), 0);
    assert_int_equal(write_file(tmp_path(tree, "a.in"), "4\n4 6 2 3\n"), 0);
    assert_int_equal(write_file(tmp_path(tree, "a.ans"), "9\nRLLL\n"), 0);
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, ZIPPERS);
    zipper z[ZIPPERS];
    pthread_t threads[ZIPPERS];
    for (int i = 0; i < ZIPPERS; i++) {
        z[i] = (zipper){&start, tree, "", -1};
        snprintf(z[i].zip, sizeof z[i].zip, "%s/%d.zip", dir, i);
        assert_int_equal(pthread_create(&threads[i], NULL, zip_one, &z[i]), 0);
    }
    for (int i = 0; i < ZIPPERS; i++)
        pthread_join(threads[i], NULL);
    pthread_barrier_destroy(&start);
    for (int i = 0; i < ZIPPERS; i++) {
        assert_int_equal(z[i].rc, 0);
        char *cmp[] = {"cmp", z[0].zip, z[i].zip, NULL};
        expect_ok(cmp);
    }
    tmp_dir_free(dir);
}

static void test_zip__unzip_and_python_read_back_the_tree_and_the_bytes_are_stable(void **state)
{
    (void)state;
    if (!have("unzip") && !have("python3"))
        skip(); /* nothing here reads zips */
    char *dir = tmp_dir_new();
    char tree[4096], zip[4096], again[4096], out[4096];
    snprintf(tree, sizeof tree, "%s", tmp_path(dir, "tree"));
    snprintf(zip, sizeof zip, "%s", tmp_path(dir, "tree.zip"));
    snprintf(again, sizeof again, "%s", tmp_path(dir, "again.zip"));
    snprintf(out, sizeof out, "%s", tmp_path(dir, "out"));
    assert_int_equal(mkdir(tree, 0755), 0);
    assert_int_equal(mkdir(tmp_path(tree, "data"), 0755), 0);
    assert_int_equal(mkdir(tmp_path(tree, "data/secret"), 0755), 0);
    assert_int_equal(mkdir(tmp_path(tree, "empty"), 0755), 0);
    assert_int_equal(write_file(tmp_path(tree, "problem.yaml"), "name: \"x\"\n"), 0);
    assert_int_equal(write_file(tmp_path(tree, "data/secret/01.in"), "2\n1 2\n"), 0);
    assert_int_equal(write_file(tmp_path(tree, "data/secret/empty.ans"), ""), 0);
    FILE *f = fopen(tmp_path(tree, "data/all-bytes"), "wb"); /* every byte value, 70 KiB: more than one buffer */
    assert_non_null(f);
    for (int i = 0; i < 70 * 1024; i++)
        fputc(i * 7 % 256, f);
    assert_int_equal(fclose(f), 0);

    cr_error err = {0};
    assert_int_equal(cr_zip_dir(zip, tree, &err), 0);
    assert_int_equal(cr_zip_dir(again, tree, &err), 0);
    char *cmp[] = {"cmp", zip, again, NULL};
    expect_ok(cmp);
    if (have("unzip")) {
        char *test[] = {"unzip", "-t", "-q", zip, NULL}, *extract[] = {"unzip", "-q", zip, "-d", out, NULL};
        char *diff[] = {"diff", "-r", tree, out, NULL};
        expect_ok(test);
        expect_ok(extract);
        expect_ok(diff); /* every file and folder, the empty ones too */
        struct stat st;
        assert_int_equal(stat(tmp_path(out, "empty"), &st), 0);
        assert_true(S_ISDIR(st.st_mode));
    }
    if (have("python3")) {
        char *test[] = {"python3", "-m", "zipfile", "-t", zip, NULL};
        char *list[] = {"python3", "-c",
                        "import sys, zipfile; print(','.join(zipfile.ZipFile(sys.argv[1]).namelist()))", zip, NULL};
        expect_ok(test);
        run_result r;
        assert_int_equal(run_capture(&r, list, NULL), 0);
        assert_string_equal(r.out, "data/,data/all-bytes,data/secret/,data/secret/01.in,data/secret/empty.ans,"
                                   "empty/,problem.yaml\n");
        run_result_free(&r);
    }
    tmp_dir_free(dir);
}

static void test_zip__an_unreadable_tree_is_an_error_and_leaves_no_zip(void **state)
{
    (void)state;
    char *dir = tmp_dir_new();
    char zip[4096];
    snprintf(zip, sizeof zip, "%s", tmp_path(dir, "x.zip"));
    cr_error err = {0};
    assert_int_equal(cr_zip_dir(zip, tmp_path(dir, "missing"), &err), CR_EIO);
    assert_non_null(strstr(err.msg, "cannot read "));
    assert_non_null(strstr(err.msg, "/missing: No such file or directory"));
    FILE *f = fopen(zip, "rb");
    assert_null(f);
    assert_int_equal(cr_zip_dir(tmp_path(dir, "no/such/folder.zip"), dir, &err), CR_EIO);
    assert_non_null(strstr(err.msg, "cannot write "));
    tmp_dir_free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zip__threads_zipping_at_once_write_the_same_bytes), /* first: the first zips */
        cmocka_unit_test(test_zip__unzip_and_python_read_back_the_tree_and_the_bytes_are_stable),
        cmocka_unit_test(test_zip__an_unreadable_tree_is_an_error_and_leaves_no_zip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

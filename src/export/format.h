/* Inside export (export/export.h): a format as a backend that describes
 * itself, as curl's lib/vtls/ backends do: one file per format holds its
 * descriptor (kattis.c, polygon.c, cms.c, plain.c), and format.c's table
 * lists them.  export.c and the command ask a descriptor what the format
 * supports and where its files go, never which format it is: adding a
 * format, or a feature to one, touches its file and the table's row
 * (docs/design.md, "Export formats"). */
#ifndef CR_EXPORT_FORMAT_H
#define CR_EXPORT_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "coinrow/error.h"
#include "export/export.h"
#include "export/package.h"
#include "store/store.h"

/* One test as its paths are made: the k-th (from 0) of count, the first
 * `samples` of them samples. */
typedef struct cr_export_test {
    uint64_t k, count, samples;
    const cr_instance *instance;
    const char *set_name; /* for messages */
    const cr_problem_group *group; /* its group (NULL in a set without groups) */
} cr_export_test;

/* The bytes a test's path within the package takes at most, with its NUL. */
#define CR_EXPORT_TEST_PATH_MAX 264

struct cr_export_format {
    const char *name;    /* --format NAME */
    const char *summary; /* one line for --help: the system and what its package holds */
    unsigned supports;   /* cr_export_feature bits */
    /* the package folder's name is the problem's short name: the bytes it
     * may hold (NULL: any folder name), and the same in words */
    const char *short_name_chars, *short_name_rule;
    const char *folders[4]; /* the tests' folders, made first, in order (NULL ends) */
    /* The package paths of test t's input and answer, each at most
     * CR_EXPORT_TEST_PATH_MAX bytes; CR_EINVAL naming a test the format
     * cannot name. */
    int (*test_paths)(char in[CR_EXPORT_TEST_PATH_MAX], char ans[CR_EXPORT_TEST_PATH_MAX], cr_package *p,
                      const cr_export_test *t, cr_error *err);
    /* Its files besides the tests, for the problem the tests showed (NULL:
     * none, and nothing is gathered for them); how many files and folders
     * they add at most, for the zip's limit, besides the invocations'
     * sources and the folder they may add. */
    int (*write)(cr_package *p, const cr_problem *pb, cr_error *err);
    unsigned entries;
    /* What the format refuses of opts before the store is read (NULL:
     * nothing), and before anything is written, the tools it needs for a
     * package at dir (NULL: none); CR_EINVAL saying what and why. */
    int (*check_opts)(const cr_export_opts *opts, cr_error *err);
    int (*check_tools)(const cr_export_opts *opts, const char *dir, cr_error *err);
    /* CR_EXPORT_INTERACTION: a sample's interaction file goes beside its
     * input, this extension in place of the input's (NULL: none). */
    const char *interaction_ext;
    /* What to tell of a package made without a licence (NULL: nothing). */
    const char *unlicensed;
    /* CR_EXPORT_GROUPS: its judge scores each group alone, the samples
     * apart from the groups (cr_group_scoring) */
    int groups_alone;
};

/* The short names most systems take, and the rule in words. */
#define CR_EXPORT_SHORT_NAME_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"
#define CR_EXPORT_SHORT_NAME_RULE "letters, digits, '-' and '_'"

/* The formats that have feature, into out (cap bytes): "kattis, polygon or
 * cms". */
void cr_export__formats_with(char *out, size_t cap, unsigned feature);

/* The formats, each in its own file; format.c lists them. */
extern const cr_export_format cr_export__kattis, cr_export__polygon, cr_export__cms, cr_export__plain;

#endif

/* A command that is one source file (coinrow invoke -- sol.c): built and
 * run the way a judge does, and exportable as a judge's submission. */
#ifndef CR_IO_SUBMISSION_H
#define CR_IO_SUBMISSION_H

#include <stddef.h>
#include <stdint.h>

#include "coinrow/error.h"
#include "coinrow/game.h"
#include "io/store.h"

typedef enum cr_language {
    CR_LANG_NONE,   /* not one source file: a program run as it is */
    CR_LANG_C,      /* .c: cc -O2 -std=gnu11 -o PROGRAM SOURCE -lm (DOMjudge's flags) */
    CR_LANG_CPP,    /* .cc, .cpp, .cxx: c++ -O2 -std=gnu++17 -o PROGRAM SOURCE */
    CR_LANG_PYTHON, /* .py: python3 SOURCE */
    CR_LANG_COUNT
} cr_language;

/* The language of a command (NULL-terminated argv) that is one source file,
 * by its extension; CR_LANG_NONE for anything else. */
cr_language cr_submission_language(char *const *argv);

/* Polygon's name for the language's compiler ("c.gcc", "cpp.g++17",
 * "python.3"); NULL for CR_LANG_NONE. */
const char *cr_submission_polygon_type(cr_language lang);

/* What to execute for a command given in folder dir. */
typedef struct cr_submission cr_submission;

/* Makes the command runnable: a program is looked up as a shell would
 * (cr_child_resolve); a C or C++ source is built into a private folder
 * (removed by cr_submission_free), its compiler's complaint in err when it
 * does not build (CR_EINVAL); a Python source runs under python3. */
int cr_submission_new(cr_submission **out, char *const *argv, const char *dir, cr_error *err);

/* The file to execute, and the arguments it gets (argv[0] first; for a
 * program, the command's own argv, which must outlive s). */
const char *cr_submission_path(const cr_submission *s);
char *const *cr_submission_argv(const cr_submission *s);

/* Removes what was built; accepts NULL. */
void cr_submission_free(cr_submission *s);

/* The folders of a Kattis package's submissions/, which a setter gives an
 * invocation as its label to have its source exported. */
#define CR_SUBMISSION_FOLDERS {"accepted", "wrong_answer", "time_limit_exceeded", "run_time_error"}

/* A labelled invocation's source, for a package. */
typedef struct cr_submission_source {
    const char *folder; /* its label: one of CR_SUBMISSION_FOLDERS */
    char *path;         /* where it is: its invocation's folder and command */
    const char *name;   /* its file name, in path */
    cr_language lang;
} cr_submission_source;

typedef struct cr_submission_list {
    cr_submission_source *v;
    size_t count;
    uint64_t skipped;            /* labelled invocations whose command is not one source file */
    char skipped_example[160];   /* the first one's command */
} cr_submission_list;

/* The sources of the done invocations of set set_id for the variant that
 * are labelled with a submission folder and whose command is one source
 * file, in invocation order, each file once per folder.  CR_EINVAL naming
 * them when two sources of one name would share a folder (with
 * one_folder, as Polygon's solutions/: any two), or a source cannot be
 * read. */
int cr_submission_list_new(cr_submission_list *out, cr_store *store, int64_t set_id, cr_variant variant,
                           int one_folder, cr_error *err);

/* Frees the list; accepts a zeroed one. */
void cr_submission_list_free(cr_submission_list *list);

#endif

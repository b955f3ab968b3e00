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

/* The bytes a source's name in a package takes, with its NUL. */
#define CR_SUBMISSION_NAME_MAX 96

/* A labelled invocation's source, for a package. */
typedef struct cr_submission_source {
    const char *folder;                /* its label: one of CR_SUBMISSION_FOLDERS */
    char *path;                        /* where it is: its invocation's folder and command */
    char name[CR_SUBMISSION_NAME_MAX]; /* its file name in the package: "inv7-sol.c" */
    cr_language lang;
} cr_submission_source;

typedef struct cr_submission_list {
    cr_submission_source *v;
    size_t count;
    uint64_t skipped;      /* labelled invocations left out */
    char skipped_why[256]; /* why the first one was */
} cr_submission_list;

/* The sources of the done invocations of set set_id for the variant that
 * are labelled with a submission folder, in invocation order, each source
 * once per folder.  Each is named "invID-NAME", NAME its own file name
 * (bytes but letters, digits, '.', '_' and '-' as '_'; a long one cut
 * before its extension), so that no two clash, nor one with coinrow's own
 * programs.  Left out, counted in skipped: a command that is not one
 * source file; an invocation whose moves policy is not `moves` (the
 * package's checker would judge another answer); one whose verdicts do not
 * give its folder's, as a judge reads them (the first test that fails is
 * WA or PE for wrong_answer, TLE for time_limit_exceeded, RE or MLE for
 * run_time_error; none fails for accepted).  CR_EINVAL naming it when a
 * source cannot be read. */
int cr_submission_list_new(cr_submission_list *out, cr_store *store, int64_t set_id, cr_variant variant,
                           cr_check_moves moves, cr_error *err);

/* Frees the list; accepts a zeroed one. */
void cr_submission_list_free(cr_submission_list *list);

#endif

/* A command that is one source file (coinrow invoke -- sol.c): built and
 * run the way a judge does, and exportable as a judge's submission. */
#ifndef CR_IO_SUBMISSION_H
#define CR_IO_SUBMISSION_H

#include "coinrow/error.h"

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

#endif

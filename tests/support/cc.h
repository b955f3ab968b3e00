/* Building an exported source the way a judge does: a C one with cc alone,
 * a testlib one (C++) with g++ and the testlib.h beside it. */
#ifndef CR_TEST_CC_H
#define CR_TEST_CC_H

#include <stddef.h>

/* Builds the C file at source into the program at binary with `cc -O2` and
 * nothing else; the build must succeed silently, or the test fails showing
 * the compiler's output. */
void cc_build(const char *binary, const char *source);

/* The same for the C++ file at source, with `g++ -O2` (Polygon's g++17). */
void cxx_build(const char *binary, const char *source);

/* A C source of an exported package, and the program to build from it. */
typedef struct package_program {
    char *binary;       /* a buffer of PACKAGE_BINARY_MAX bytes for its path */
    const char *source; /* its path in the package */
} package_program;
#define PACKAGE_BINARY_MAX 4300

/* Builds each program's source in the package at pkg with cc_build, into
 * the folder dir, named as its file without ".c". */
void cc_build_package(const char *pkg, const char *dir, const package_program *programs, size_t count);

#endif

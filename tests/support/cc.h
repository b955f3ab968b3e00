/* Building an exported source the way a judge does: a C one with cc alone,
 * a testlib one (C++) with g++ and the testlib.h beside it. */
#ifndef CR_TEST_CC_H
#define CR_TEST_CC_H

/* Builds the C file at source into the program at binary with `cc -O2` and
 * nothing else; the build must succeed silently, or the test fails showing
 * the compiler's output. */
void cc_build(const char *binary, const char *source);

/* The same for the C++ file at source, with `g++ -O2` (Polygon's g++17). */
void cxx_build(const char *binary, const char *source);

#endif

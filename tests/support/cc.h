/* Building an exported C source the way a judge does: cc alone. */
#ifndef CR_TEST_CC_H
#define CR_TEST_CC_H

/* Builds the C file at source into the program at binary with `cc -O2` and
 * nothing else; the build must succeed silently, or the test fails showing
 * the compiler's output. */
void cc_build(const char *binary, const char *source);

#endif

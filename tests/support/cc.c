#include "support/cc.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "support/files.h"
#include "support/run.h"

static void build(char *const argv[], const char *source)
{
    run_result r;
    assert_int_equal(run_capture(&r, argv, NULL), 0);
    if (r.status != 0 || r.err[0])
        fail_msg("%s %s: status %d\n%s", argv[0], source, r.status, r.err);
    run_result_free(&r);
}

void cc_build(const char *binary, const char *source)
{
    char *argv[] = {"cc", "-O2", "-o", (char *)binary, (char *)source, NULL};
    build(argv, source);
}

void cxx_build(const char *binary, const char *source)
{
    char *argv[] = {"g++", "-std=gnu++17", "-O2", "-o", (char *)binary, (char *)source, NULL};
    build(argv, source);
}

void cc_build_package(const char *pkg, const char *dir, const package_program *programs, size_t count)
{
    for (size_t k = 0; k < count; k++) {
        char source[4400];
        const char *name = strrchr(programs[k].source, '/');
        snprintf(programs[k].binary, PACKAGE_BINARY_MAX, "%s", tmp_path(dir, name ? name + 1 : programs[k].source));
        *strrchr(programs[k].binary, '.') = '\0';
        snprintf(source, sizeof source, "%s", tmp_path(pkg, programs[k].source));
        cc_build(programs[k].binary, source);
    }
}

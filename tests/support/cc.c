#include "support/cc.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "support/run.h"

void cc_build(const char *binary, const char *source)
{
    char *argv[] = {"cc", "-O2", "-o", (char *)binary, (char *)source, NULL};
    run_result r;
    assert_int_equal(run_capture(&r, argv, NULL), 0);
    if (r.status != 0 || r.err[0])
        fail_msg("cc %s: status %d\n%s", source, r.status, r.err);
    run_result_free(&r);
}

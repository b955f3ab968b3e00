/* A time as people read it (util.h): for invoke's summary and the report. */
#include <stdio.h>

#include "util/util.h"

const char *cr_seconds_text(char out[32], double t)
{
    if (t >= 1)
        snprintf(out, 32, "%.2f s", t);
    else if (t >= 0.001)
        snprintf(out, 32, "%.1f ms", t * 1e3);
    else
        snprintf(out, 32, "%.0f us", t * 1e6);
    return out;
}

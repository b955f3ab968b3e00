/* An exported submission of the interactive game that fails at run time
 * (submissions/run_time_error): it reads the row, then aborts before its
 * first move.  It is compiled only inside the amalgamation. */
#include <stdlib.h>

#include "play.h"

static char choose(void *ctx, const int64_t *coins, size_t n, size_t i, size_t j, size_t turn, char heard)
{
    (void)ctx, (void)coins, (void)n, (void)i, (void)j, (void)turn, (void)heard;
    abort();
}

int main(void)
{
    return cr_play(choose, NULL, 1);
}

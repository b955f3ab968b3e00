/* Generated sets: rows from the generator. */
#include "source/source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

int cr_source_gen_read(const cr_gen_spec *spec, cr_row_fn fn, void *ctx, cr_error *err)
{
    int64_t *made = malloc(spec->limits.n_max * sizeof *made);
    if (!made)
        return cr_errorf(err, CR_ENOMEM, "no memory for %zu coins", spec->limits.n_max);
    cr_coins coins = {0}; /* the same values, with their JSON */
    int rc = 0;
    for (uint64_t k = 0; k < spec->count && rc == 0; k++) {
        char id[CR_GEN_ID_MAX];
        size_t n;
        if ((rc = cr_gen_instance(made, &n, spec, k, err)) != 0)
            break;
        coins.n = 0;
        for (size_t i = 0; i < n && rc == 0; i++)
            rc = cr_coins_push(&coins, made[i], err);
        if (rc)
            break;
        cr_gen_id(id, spec->count, k);
        cr_row row = {.source = "generate",
                      .line = k + 1,
                      .ext_id = id,
                      .ext_id_len = strlen(id),
                      .coins = coins.v,
                      .n = n,
                      .coins_json = coins.json,
                      .coins_json_len = coins.json_len};
        rc = fn(ctx, &row);
    }
    cr_coins_free(&coins);
    free(made);
    return rc;
}

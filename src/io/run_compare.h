/* Comparing two runs of one instance set, in one database or two, by
 * streaming both sides' results in external-id order (flat memory). */
#ifndef CR_IO_RUN_COMPARE_H
#define CR_IO_RUN_COMPARE_H

#include <stdint.h>

#include "coinrow/compare.h"
#include "io/store.h"

/* One compared (instance, variant) pair that is not the same or equivalent:
 * a regression, or a pair missing or changed on one side. */
typedef struct cr_run_finding {
    const char *ext_id;
    size_t n;
    cr_variant variant;
    const cr_stored_result *a, *b; /* NULL on the side that has no result */
    cr_difference diff;            /* category, and for regressions the detail */
} cr_run_finding;

/* Called for every finding, in external-id order; the finding is valid only
 * during the call. */
typedef void (*cr_run_finding_fn)(void *ctx, const cr_run_finding *f);

typedef struct cr_run_comparison {
    uint64_t counts[CR_VARIANT_COUNT][CR_CATEGORY_COUNT];
    unsigned variants; /* the variants both runs have: the ones compared */
} cr_run_comparison;

/* Compares run a (in store_a) with run b (in store_b, which may be store_a)
 * for the variants both runs have.  Instances are matched by external id
 * within the runs' sets, which must have the same name; an instance whose
 * coins differ is CR_CHANGED, not compared.  With strict_moves, lines that
 * differ are regressions even when both are optimal.  Returns 0 with the
 * counts in *out, or a code (CR_EINVAL for runs of differently named sets). */
int cr_run_compare(cr_run_comparison *out, cr_store *store_a, const cr_run *a, cr_store *store_b, const cr_run *b,
                   int strict_moves, cr_run_finding_fn on_finding, void *ctx, cr_error *err);

#endif

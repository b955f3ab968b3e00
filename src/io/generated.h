/* Generated sets: the generator as a source of rows (what a generated set
 * keeps in the store is in store.h). */
#ifndef CR_IO_GENERATED_H
#define CR_IO_GENERATED_H

#include <stddef.h>
#include <stdint.h>

#include "coinrow/contest.h"
#include "coinrow/gen.h"
#include "io/source.h"

/* Generates the instances of spec in order and calls fn for each, as the
 * readers of source.h do: rows named "generate", numbered from 1, whose ids
 * are cr_gen_id's.  Returns 0, fn's non-zero return, or the generator's
 * error (CR_ENOMEM when n_max coins do not fit in memory). */
int cr_gen_read(const cr_gen_spec *spec, cr_row_fn fn, void *ctx, cr_error *err);

#endif

/* Generated sets: the generator as a source of rows, and the arguments a
 * generated set keeps in the store (schema/002_judge.sql), so that it can be
 * made again, audited, and described to judges by its constraints. */
#ifndef CR_IO_GENERATED_H
#define CR_IO_GENERATED_H

#include <stddef.h>
#include <stdint.h>

#include "coinrow/contest.h"
#include "coinrow/gen.h"
#include "io/source.h"
#include "io/store.h"

/* Generates the instances of spec in order and calls fn for each, as the
 * readers of source.h do: rows named "generate", numbered from 1, whose ids
 * are cr_gen_id's.  Returns 0, fn's non-zero return, or the generator's
 * error (CR_ENOMEM when n_max coins do not fit in memory). */
int cr_gen_read(const cr_gen_spec *spec, cr_row_fn fn, void *ctx, cr_error *err);

/* Finds set `name` made by spec, or creates it, in one transaction; its id
 * in *out_id.  A new set keeps spec as its generator (JSON) and, as its
 * source, the command line that makes it again.  CR_EINVAL naming the set
 * when it exists but was generated with other arguments (quoting them) or
 * was not generated at all. */
int cr_store_set_generated(int64_t *out_id, cr_store *store, const char *name, const cr_gen_spec *spec,
                           cr_error *err);

/* What the generator of set set_id kept: its constraints (n and value
 * ranges, even n, odd sum) into *out and, when command is not NULL, the
 * command line that makes the set again into command (cap bytes, cut to
 * fit); *out_found = 1.  *out_found = 0 when the set was not generated.
 * CR_EDB when the stored arguments are unreadable. */
int cr_store_set_generator(cr_constraints *out, char *command, size_t cap, int *out_found, cr_store *store,
                           int64_t set_id, cr_error *err);

#endif

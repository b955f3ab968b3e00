/* coinrow — generating instance sets for judges and stress tests.
 *
 * A set is described by a cr_gen_spec.  Instance k (0-based) depends only on
 * the spec (its count aside) and k: its numbers come from stream k of the
 * spec's seed (rng.h), so any instance can be made again alone, a longer set
 * begins with the instances of a shorter one, and the same spec gives the
 * same bytes on every machine. */
#ifndef CR_GEN_H
#define CR_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "coinrow/contest.h"
#include "coinrow/error.h"

/* The shapes of instance a set can have (docs/judges.md, "Generate"). */
typedef enum cr_profile {
    CR_PROFILE_RANDOM,     /* every coin uniform in the value range */
    CR_PROFILE_SORTED,     /* random coins in non-decreasing order */
    CR_PROFILE_REVERSED,   /* random coins in non-increasing order */
    CR_PROFILE_EQUAL,      /* all coins the same: a draw */
    CR_PROFILE_ZIGZAG,     /* the larger half of the coins at even positions */
    CR_PROFILE_ANTIGREEDY, /* taking the larger end loses, optimal play wins */
    CR_PROFILE_PEAKS,      /* runs of 3 to 7 coins, each rising to an inner summit */
    CR_PROFILE_EXTREME,    /* every coin at a limit of the value range */
    CR_PROFILE_SMALL,      /* random coins, instance k has the k-th size in turn */
    CR_PROFILE_COUNT
} cr_profile;

/* Lower-case names ("random", "antigreedy", ...); NULL when out of range. */
const char *cr_profile_name(cr_profile p);

/* Parses a profile name; CR_EINVAL listing the names otherwise. */
int cr_profile_parse(cr_profile *out, const char *name, cr_error *err);

typedef struct cr_gen_spec {
    cr_constraints limits; /* every instance meets them (contest.h) */
    uint64_t count;        /* instances in the set, at least 1 */
    uint64_t seed;
    cr_profile profile;
} cr_gen_spec;

/* Checks that the spec can be met, before anything is generated: 0, or
 * CR_EINVAL saying why not (an empty range; constraints no instance of the
 * profile can meet, such as equal coins with an odd sum and an even n; a
 * small set whose count does not reach every size). */
int cr_gen_check(const cr_gen_spec *spec, cr_error *err);

/* Generates instance `index` (< spec->count) into out, which holds
 * spec->limits.n_max coins, and its size into *out_n.  Returns 0, or the
 * code of cr_gen_check, or CR_EINVAL for an index out of range. */
int cr_gen_instance(int64_t *out, size_t *out_n, const cr_gen_spec *spec, uint64_t index, cr_error *err);

/* Room for any instance id and its NUL. */
#define CR_GEN_ID_MAX 24

/* Writes the id of instance `index` of a set of `count`: index + 1 in
 * decimal, zero-padded to the width of count and to at least 2 digits
 * ("01".."12", "001".."100"), so that ids sort in instance order.  out holds
 * CR_GEN_ID_MAX bytes. */
void cr_gen_id(char out[CR_GEN_ID_MAX], uint64_t count, uint64_t index);

#endif

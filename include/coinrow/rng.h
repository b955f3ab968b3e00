/* coinrow — a seeded pseudo-random number generator of our own.
 *
 * xoshiro256** (Blackman and Vigna, 2018) whose state is filled by
 * splitmix64, so that a (seed, stream) pair gives the same numbers on every
 * machine and every run: only 64-bit unsigned arithmetic, no floating point,
 * no platform-dependent types, never rand().  Not for cryptography. */
#ifndef CR_RNG_H
#define CR_RNG_H

#include <stdint.h>

typedef struct cr_rng {
    uint64_t s[4]; /* xoshiro256** state, never all zero */
} cr_rng;

/* Seeds rng for stream `stream` of `seed`: the four state words are the
 * first four outputs of splitmix64 started at seed XOR mix(stream), where mix
 * is splitmix64's output function (mix(0) = 0, so stream 0 starts at seed).
 * Streams let each generated instance have numbers of its own. */
void cr_rng_seed(cr_rng *rng, uint64_t seed, uint64_t stream);

/* The next 64 random bits. */
uint64_t cr_rng_next(cr_rng *rng);

/* A uniform integer in [0, bound), bound > 0 (0 is treated as 1): rejection
 * of the 2^64 mod bound lowest outputs, then the remainder, so no value is
 * favoured. */
uint64_t cr_rng_below(cr_rng *rng, uint64_t bound);

/* A uniform integer in [lo, hi], lo <= hi; the full int64 range included. */
int64_t cr_rng_between(cr_rng *rng, int64_t lo, int64_t hi);

#endif

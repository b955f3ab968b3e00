/* The generator behind every generated instance: splitmix64 seeding
 * xoshiro256**, both as published by their authors. */
#include "coinrow/rng.h"

#define SPLITMIX_GAMMA 0x9E3779B97F4A7C15u

static uint64_t splitmix_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

void cr_rng_seed(cr_rng *rng, uint64_t seed, uint64_t stream)
{
    uint64_t x = seed ^ splitmix_mix(stream);
    /* splitmix_mix is a bijection and the four inputs differ, so at most one
     * word is zero: the state is never all zero. */
    for (int i = 0; i < 4; i++) {
        x += SPLITMIX_GAMMA;
        rng->s[i] = splitmix_mix(x);
    }
}

uint64_t cr_rng_next(cr_rng *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint64_t cr_rng_below(cr_rng *rng, uint64_t bound)
{
    if (bound <= 1)
        return 0;
    uint64_t threshold = (0 - bound) % bound; /* 2^64 mod bound */
    for (;;) {
        uint64_t r = cr_rng_next(rng);
        if (r >= threshold)
            return r % bound;
    }
}

/* Two's complement reading of u without relying on implementation-defined
 * conversions. */
static int64_t to_int64(uint64_t u)
{
    return u <= (uint64_t)INT64_MAX ? (int64_t)u : -(int64_t)(UINT64_MAX - u) - 1;
}

int64_t cr_rng_between(cr_rng *rng, int64_t lo, int64_t hi)
{
    uint64_t span = (uint64_t)hi - (uint64_t)lo; /* hi - lo, modulo 2^64 */
    uint64_t offset = span == UINT64_MAX ? cr_rng_next(rng) : cr_rng_below(rng, span + 1);
    return to_int64((uint64_t)lo + offset);
}

/* rng.c — the one random generator of the core: xoshiro256** seeded through splitmix64.
 *
 * Integer arithmetic only, so a seed gives the same numbers natively and in wasm; the state
 * lives in the caller's gd_rng (no global state). */
#include "gaddag_solver.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void gd_rng_seed(gd_rng *rng, uint64_t seed)
{
    for (int i = 0; i < 4; i++) rng->state[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t gd_rng_next(gd_rng *rng)
{
    uint64_t *s = rng->state;
    const uint64_t result = rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint32_t gd_rng_below(gd_rng *rng, uint32_t bound)
{
    if (bound <= 1) return 0;
    /* reject the top partial range so every value is equally likely */
    const uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
    uint64_t x;
    do x = gd_rng_next(rng);
    while (x >= limit);
    return (uint32_t)(x % bound);
}

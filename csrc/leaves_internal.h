/* Internal: what leaves.c shares with the generator (movegen.c). */
#ifndef LEAVES_INTERNAL_H
#define LEAVES_INTERNAL_H

#include <stdint.h>

/* A full rack's value from its sub-racks of one tile fewer (gd_leaves_keep_value): `sum` (the
 * sum of their values, each as often as the rack holds the tile left out) / (tiles - 1), to the
 * nearest hundredth, halves away from 0; 0 for fewer than 2 tiles. */
static inline int32_t gd_full_rack_value(int64_t sum, uint32_t tiles)
{
    if (tiles < 2) return 0;
    const int64_t d = (int64_t)tiles - 1;
    const int64_t magnitude = ((sum < 0 ? -sum : sum) * 2 + d) / (2 * d);
    return (int32_t)(sum < 0 ? -magnitude : magnitude);
}

#endif

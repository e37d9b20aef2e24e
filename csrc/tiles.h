/* Internal: what tiles are worth under the rules (a tile code as a board square holds it). */
#ifndef TILES_H
#define TILES_H

#include <stdint.h>

#include "gaddag_solver.h"

static inline int32_t gd_tile_value(const gd_rules *rules, uint8_t square)
{
    return (square & GD_BLANK_FLAG) ? rules->values[0] : rules->values[square & 63];
}

/* The face value of tiles counted by code (counts[0] the blanks, codes up to alphabet_size). */
static inline int32_t gd_rack_value(const gd_rules *rules, const uint8_t *counts, uint32_t alphabet_size)
{
    int32_t sum = 0;
    for (uint32_t c = 0; c <= alphabet_size; c++) sum += counts[c] * rules->values[c];
    return sum;
}

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

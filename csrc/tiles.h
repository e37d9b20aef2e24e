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

#endif

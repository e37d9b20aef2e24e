/* Internal: sim.c's static-equity term, for the searches that play moves forward as it does. */
#ifndef SIM_INTERNAL_H
#define SIM_INTERNAL_H

#include <stdint.h>

#include "gaddag_solver.h"

/* What a move keeps beside its score, in hundredths, for the player to move in `game` (the
 * leave's value while the bag holds tiles; with it empty, minus twice the tiles kept). */
int32_t gd_move_leave_term(const gd_rules *rules, const gd_leaves *leaves, const gd_game *game, const gd_move *move);

#endif

/* Internal: movegen.c's entry points for the endgame search (endgame.c). */
#ifndef MOVEGEN_INTERNAL_H
#define MOVEGEN_INTERNAL_H

#include <stdint.h>

#include "gaddag_solver.h"

/* Whether move a ranks before move b (by equity first when by_equity). */
int gd_move_better(const gd_move *a, const gd_move *b, int by_equity);
/* For the endgame search at its horizon (bag empty, the opponent's rack worth
 * opponent_rack_value): the best move of the rack, the pass included, where a play that goes out
 * is worth its score plus going_out_bonus + going_out_penalty times the opponent's rack value and
 * any other move its score plus the opponent's rack value, less the tiles it keeps and half the
 * bingo bonus (the tempo of the next play). Its equity is 100 times that. With going_out_first, the
 * best play that goes out when there is one. */
int gd_generate_horizon_best(const gd_lexicon *lex, const gd_rules *rules, const uint8_t *board, const void *workspace,
                             const uint8_t *rack_counts, int32_t opponent_rack_value, int going_out_first,
                             gd_move *best, gd_error *err);

#endif

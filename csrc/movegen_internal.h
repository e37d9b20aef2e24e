/* Internal: the workspace shared by crossset.c (which fills it) and movegen.c (which reads it). */
#ifndef MOVEGEN_INTERNAL_H
#define MOVEGEN_INTERNAL_H

#include <stdint.h>

#include "gaddag_format.h"
#include "gaddag_solver.h"

#define GD_WORKSPACE_MAGIC 0x47445753u /* "GDWS": the workspace was prepared */

/*
 * For a play in direction d, a new tile on square s also forms the perpendicular word
 * through s. cross_set[d][s] has bit c set when letter c may go there (all letters when
 * nothing is perpendicular); cross_score[d][s] is the value of the perpendicular tiles;
 * has_cross[d][s] says whether a perpendicular word is formed at all.
 */
typedef struct gd_workspace {
    uint32_t magic;
    uint32_t rows, cols;
    uint32_t alphabet_size;
    int empty_board;
    uint64_t cross_set[2][GD_MAX_SQUARES];
    int32_t cross_score[2][GD_MAX_SQUARES];
    uint8_t has_cross[2][GD_MAX_SQUARES];
    uint8_t anchor[GD_MAX_SQUARES];
    gd_rules checked_rules; /* the rules gd_prepare checked (see gd_check_prepared_rules) */
} gd_workspace;

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

int gd_check_rules(const gd_rules *rules, gd_error *err);
/* gd_check_rules, or nothing when `rules` equal the ones gd_prepare checked for the prepared
 * workspace `ws`: generation runs every turn, and the check reads every square. */
int gd_check_prepared_rules(const gd_workspace *ws, const gd_rules *rules, gd_error *err);
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
/* game.c: the move `player` makes in `game`, on a workspace already prepared for its board. */
int gd_choose_prepared(const gd_lexicon *lex, const gd_rules *rules, const gd_game *game, const void *workspace,
                       const gd_player *player, gd_move *out, gd_error *err);
/* game.c: play a whole new game (gd_game_new with `seed`) between players[0] and players[1],
 * keeping the workspace current; `before_move` (may be NULL) sees each chosen move before it
 * is made. gd_autoplay is this without a hook. */
typedef void (*gd_turn_hook)(void *context, const gd_game *game, const gd_move *chosen);
int gd_play_game(const gd_lexicon *lex, const gd_rules *rules, const gd_player *players, uint64_t seed,
                 gd_game *game, void *workspace, gd_turn_hook before_move, void *context, gd_error *err);
/* sim.c: what a move keeps beside its score, in hundredths, for the player to move in `game`
 * (the leave's value while the bag holds tiles; with it empty, minus twice the tiles kept). */
int32_t gd_move_leave_term(const gd_rules *rules, const gd_leaves *leaves, const gd_game *game, const gd_move *move);
/* anagram_filter.c: whether the letters hashed to `sum` plus one more letter (a blank's, any of
 * codes 1 to alphabet_size) may spell a word (gd_anagram_filter_may_spell for each letter). */
int gd_anagram_filter_may_spell_with_blank(const gd_anagram_filter *filter, uint64_t sum, uint32_t alphabet_size);

#endif

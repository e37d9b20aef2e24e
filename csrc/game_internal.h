/* Internal: game.c's entry points for the units above it (self-play training, simulation). */
#ifndef GAME_INTERNAL_H
#define GAME_INTERNAL_H

#include "gaddag_solver.h"

/* The move `player` makes in `game`, on a workspace already prepared for its board. */
int gd_choose_prepared(const gd_lexicon *lex, const gd_rules *rules, const gd_game *game, const void *workspace,
                       const gd_player *player, gd_move *out, gd_error *err);
/* gd_game_move without checking the rules again: for a caller that checked them when the game
 * began (a simulation makes thousands of moves a second, and the check is a per cent of them). */
int gd_game_move_checked(gd_game *game, const gd_rules *rules, const gd_move *move, gd_error *err);
/* Play a whole new game (gd_game_new with `seed`) between players[0] and players[1], keeping the
 * workspace current; `before_move` (may be NULL) sees each chosen move before it is made.
 * gd_autoplay is this without a hook. */
typedef void (*gd_turn_hook)(void *context, const gd_game *game, const gd_move *chosen);
int gd_play_game(const gd_lexicon *lex, const gd_rules *rules, const gd_player *players, uint64_t seed,
                 gd_game *game, void *workspace, gd_turn_hook before_move, void *context, gd_error *err);

#endif

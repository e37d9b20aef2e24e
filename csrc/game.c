/* game.c — placeholder until the game module lands. */
#include "gaddag_format.h"
#include "movegen_internal.h"

size_t gd_game_size(void) { return sizeof(gd_game); }
int gd_game_new(gd_game *game, const gd_rules *rules, uint64_t seed, gd_error *err)
{
    (void)game, (void)rules, (void)seed;
    return gd_set_error(err, GD_ERR_ARGUMENT, 0, "not yet");
}
int gd_game_from_position(gd_game *game, const gd_rules *rules, const uint8_t *board, const uint8_t *racks,
                          const int32_t *scores, uint32_t to_move, uint64_t seed, gd_error *err)
{
    (void)game, (void)rules, (void)board, (void)racks, (void)scores, (void)to_move, (void)seed;
    return gd_set_error(err, GD_ERR_ARGUMENT, 0, "not yet");
}
int gd_game_move(gd_game *game, const gd_rules *rules, const gd_move *move, gd_error *err)
{
    (void)game, (void)rules, (void)move;
    return gd_set_error(err, GD_ERR_ARGUMENT, 0, "not yet");
}
void gd_game_unseen(const gd_game *game, uint32_t player, uint32_t *counts) { (void)game, (void)player, (void)counts; }
int gd_choose_move(const gd_lexicon *lex, const gd_rules *rules, const gd_game *game, void *workspace,
                   const gd_player *player, gd_move *out, gd_error *err)
{
    (void)lex, (void)rules, (void)game, (void)workspace, (void)player, (void)out;
    return gd_set_error(err, GD_ERR_ARGUMENT, 0, "not yet");
}
int gd_autoplay(const gd_lexicon *lex, const gd_rules *rules, const gd_player *players, uint64_t seed, gd_game *game,
                void *workspace, gd_error *err)
{
    (void)lex, (void)rules, (void)players, (void)seed, (void)game, (void)workspace;
    return gd_set_error(err, GD_ERR_ARGUMENT, 0, "not yet");
}
int gd_generate_equity(const gd_lexicon *lex, const gd_rules *rules, const uint8_t *board, const void *workspace,
                       const uint8_t *rack_counts, const gd_equity_options *options, uint32_t top_n, gd_move *out,
                       size_t capacity, size_t *count, gd_error *err)
{
    (void)options;
    return gd_generate(lex, rules, board, workspace, rack_counts, top_n, out, capacity, count, err);
}
int gd_update_after_play(const gd_lexicon *lex, const gd_rules *rules, const uint8_t *board, void *workspace,
                         const gd_move *move, gd_error *err)
{
    (void)move;
    return gd_prepare(lex, rules, board, workspace, err);
}

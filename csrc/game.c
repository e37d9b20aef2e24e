/* game.c — a whole game in the core: the bag, two racks, turns, the end, and self-play.
 *
 * The game is one flat structure (gd_game) with no pointers, so a copy is a snapshot. Tiles
 * are codes (0 a blank). The bag is shuffled once with the game's own seeded generator and
 * drawn from its end; tiles put back by an exchange go to random places in it. The rules that
 * decide the end (scoreless turns, going out) are data in gd_rules.
 */
#include <string.h>

#include "gaddag_format.h"
#include "game_internal.h"
#include "rules_check.h"
#include "tiles.h"

size_t gd_game_size(void) { return sizeof(gd_game); }

static int check_game_rules(const gd_rules *rules, gd_error *err)
{
    int rc = gd_check_rules(rules, err);
    if (rc) return rc;
    if (rules->alphabet_size < 1 || rules->alphabet_size > GD_MAX_ALPHABET)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "alphabet of %u letters (1 to %d)", rules->alphabet_size,
                            GD_MAX_ALPHABET);
    uint64_t total = 0;
    for (uint32_t c = 0; c <= rules->alphabet_size; c++) total += rules->tile_counts[c];
    if (total > GD_MAX_TILES)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "a set of %llu tiles is more than %d",
                            (unsigned long long)total, GD_MAX_TILES);
    for (uint32_t c = 0; c <= rules->alphabet_size; c++)
        if (rules->tile_counts[c] > 255)
            return gd_set_error(err, GD_ERR_ARGUMENT, 0, "%u tiles of code %u: at most 255", rules->tile_counts[c], c);
    if (rules->scoreless_turns < 1)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "scoreless_turns must be at least 1");
    return GD_OK;
}

static uint32_t rack_tiles(const uint8_t *rack, uint32_t alphabet_size)
{
    uint32_t n = 0;
    for (uint32_t c = 0; c <= alphabet_size; c++) n += rack[c];
    return n;
}

static void shuffle_bag(gd_game *game)
{
    for (uint32_t i = game->bag_count; i > 1; i--) {
        uint32_t j = gd_rng_below(&game->rng, i);
        uint8_t t = game->bag[i - 1];
        game->bag[i - 1] = game->bag[j];
        game->bag[j] = t;
    }
}

/* Draw up to `wanted` tiles for `player`; returns how many were drawn. */
static uint32_t draw(gd_game *game, uint32_t player, uint32_t wanted)
{
    uint32_t n = 0;
    while (n < wanted && game->bag_count) {
        game->rack[player][game->bag[--game->bag_count]]++;
        n++;
    }
    return n;
}

static void init_game(gd_game *game, const gd_rules *rules, uint64_t seed)
{
    memset(game, 0, sizeof *game);
    game->magic = GD_GAME_MAGIC;
    game->squares = rules->rows * rules->cols;
    gd_rng_seed(&game->rng, seed);
}

int gd_game_new(gd_game *game, const gd_rules *rules, uint64_t seed, gd_error *err)
{
    if (!game) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "missing argument");
    int rc = check_game_rules(rules, err);
    if (rc) return rc;
    init_game(game, rules, seed);
    for (uint32_t c = 0; c <= rules->alphabet_size; c++)
        for (uint32_t k = 0; k < rules->tile_counts[c]; k++) game->bag[game->bag_count++] = (uint8_t)c;
    shuffle_bag(game);
    draw(game, 0, rules->rack_size);
    draw(game, 1, rules->rack_size);
    return GD_OK;
}

int gd_game_from_position(gd_game *game, const gd_rules *rules, const uint8_t *board, const uint8_t *racks,
                          const int32_t *scores, uint32_t to_move, uint64_t seed, gd_error *err)
{
    if (!game || !board || !racks || !scores) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "missing argument");
    int rc = check_game_rules(rules, err);
    if (rc) return rc;
    if (to_move > 1) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "player to move must be 0 or 1, not %u", to_move);
    init_game(game, rules, seed);
    int32_t left[64] = {0};
    for (uint32_t c = 0; c <= rules->alphabet_size; c++) left[c] = (int32_t)rules->tile_counts[c];
    for (uint32_t s = 0; s < game->squares; s++) {
        uint8_t sq = board[s];
        if (!sq) continue;
        uint32_t letter = sq & 63u;
        if (letter == 0 || letter > rules->alphabet_size || (sq & GD_ON_BOARD_FLAG))
            return gd_set_error(err, GD_ERR_ARGUMENT, 0, "square (%u, %u) holds an invalid tile code %u",
                                s / rules->cols, s % rules->cols, sq);
        game->board[s] = sq;
        left[(sq & GD_BLANK_FLAG) ? 0 : letter]--;
    }
    for (uint32_t p = 0; p < 2; p++) {
        if (rack_tiles(racks + 64 * p, rules->alphabet_size) > rules->rack_size)
            return gd_set_error(err, GD_ERR_ARGUMENT, 0, "player %u's rack holds more than %u tiles", p + 1,
                                rules->rack_size);
        for (uint32_t c = 0; c <= rules->alphabet_size; c++) {
            game->rack[p][c] = racks[64 * p + c];
            left[c] -= racks[64 * p + c];
        }
    }
    for (uint32_t c = 0; c <= rules->alphabet_size; c++) {
        if (left[c] < 0)
            return gd_set_error(err, GD_ERR_ARGUMENT, 0,
                                "the board and racks hold %d more tiles of code %u than the set has", -left[c], c);
        for (int32_t k = 0; k < left[c]; k++) game->bag[game->bag_count++] = (uint8_t)c;
    }
    shuffle_bag(game);
    game->score[0] = scores[0];
    game->score[1] = scores[1];
    game->to_move = to_move;
    return GD_OK;
}

static void end_game(gd_game *game, const gd_rules *rules, int went_out)
{
    const uint32_t p = game->to_move, q = 1 - p;
    if (went_out) {
        int32_t theirs = gd_rack_value(rules, game->rack[q], rules->alphabet_size);
        game->end_adjustment[p] = rules->going_out_bonus * theirs;
        game->end_adjustment[q] = -rules->going_out_penalty * theirs;
    } else {
        game->end_adjustment[0] = -gd_rack_value(rules, game->rack[0], rules->alphabet_size);
        game->end_adjustment[1] = -gd_rack_value(rules, game->rack[1], rules->alphabet_size);
    }
    game->score[0] += game->end_adjustment[0];
    game->score[1] += game->end_adjustment[1];
    game->over = 1;
}

/* Take the tiles of a play off the rack and put them on the board, after checking it all. */
static int place(gd_game *game, const gd_rules *rules, const gd_move *move, gd_error *err)
{
    const uint32_t cols = rules->cols, rows = rules->rows;
    const int across = move->direction == GD_ACROSS;
    if (move->direction > 1 || move->length < 1 || move->length > GD_MAX_DIM || move->row >= rows ||
        move->col >= cols || (across ? move->col + move->length > cols : move->row + move->length > rows))
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the play does not fit on the board");
    uint8_t need[64] = {0};
    unsigned placed = 0;
    for (unsigned k = 0; k < move->length; k++) {
        uint8_t code = move->word[k];
        uint32_t s = (move->row + (across ? 0 : k)) * cols + move->col + (across ? k : 0);
        uint32_t letter = code & 63u;
        if (letter == 0 || letter > rules->alphabet_size)
            return gd_set_error(err, GD_ERR_ARGUMENT, 0, "letter %u of the play has an invalid code %u", k + 1, code);
        if (code & GD_ON_BOARD_FLAG) {
            if (game->board[s] != (code & (uint8_t)~GD_ON_BOARD_FLAG))
                return gd_set_error(err, GD_ERR_ARGUMENT, 0, "letter %u of the play is not the tile on the board", k + 1);
            continue;
        }
        if (game->board[s])
            return gd_set_error(err, GD_ERR_ARGUMENT, 0, "letter %u of the play goes on an occupied square", k + 1);
        need[(code & GD_BLANK_FLAG) ? 0 : letter]++;
        placed++;
    }
    if (placed == 0 || placed != move->tiles_placed)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the play places %u tiles, its record says %u", placed,
                            move->tiles_placed);
    for (uint32_t c = 0; c <= rules->alphabet_size; c++)
        if (need[c] > game->rack[game->to_move][c])
            return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the play needs %u tiles of code %u, the rack has %u", need[c],
                                c, game->rack[game->to_move][c]);
    for (uint32_t c = 0; c <= rules->alphabet_size; c++) game->rack[game->to_move][c] -= need[c];
    for (unsigned k = 0; k < move->length; k++) {
        uint8_t code = move->word[k];
        if (code & GD_ON_BOARD_FLAG) continue;
        uint32_t s = (move->row + (across ? 0 : k)) * cols + move->col + (across ? k : 0);
        game->board[s] = code;
    }
    return GD_OK;
}

/* gd_game_move on rules already checked (check_game_rules) for this game. */
static int make_move(gd_game *game, const gd_rules *rules, const gd_move *move, gd_error *err)
{
    int rc;
    if (game->squares != rules->rows * rules->cols)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the game was made for another board size");
    if (game->over) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the game is over");
    if (game->turn_count >= GD_MAX_TURNS) /* never reached: the game ends at GD_MAX_TURNS */
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the game is longer than %d turns", GD_MAX_TURNS);
    const uint32_t p = game->to_move;
    gd_turn turn;
    memset(&turn, 0, sizeof turn);
    turn.move = *move;
    turn.player = (uint8_t)p;
    for (uint32_t c = 0; c <= rules->alphabet_size; c++)
        for (uint32_t k = 0; k < game->rack[p][c] && turn.rack_length < GD_MAX_DIM; k++)
            turn.rack[turn.rack_length++] = (uint8_t)c;

    int32_t score = 0;
    if (move->kind == GD_PLAY) {
        rc = place(game, rules, move, err);
        if (rc) return rc;
        score = move->score;
        turn.drawn = (uint8_t)draw(game, p, move->tiles_placed);
    } else if (move->kind == GD_EXCHANGE) {
        const uint32_t n = move->length;
        if (n == 0 || n > GD_MAX_DIM)
            return gd_set_error(err, GD_ERR_ARGUMENT, 0, "an exchange puts back 1 to %u tiles, not %u",
                                rules->rack_size, n);
        if (game->bag_count < rules->exchange_minimum)
            return gd_set_error(err, GD_ERR_ARGUMENT, 0,
                                "no exchange with %u tiles in the bag: the rules need at least %u", game->bag_count,
                                rules->exchange_minimum);
        if (n > game->bag_count)
            return gd_set_error(err, GD_ERR_ARGUMENT, 0, "an exchange of %u tiles needs as many in the bag, which has %u",
                                n, game->bag_count);
        uint8_t need[64] = {0};
        for (uint32_t k = 0; k < n; k++) {
            if (move->word[k] > rules->alphabet_size)
                return gd_set_error(err, GD_ERR_ARGUMENT, 0, "tile %u of the exchange has an invalid code %u", k + 1,
                                    move->word[k]);
            need[move->word[k]]++;
        }
        for (uint32_t c = 0; c <= rules->alphabet_size; c++)
            if (need[c] > game->rack[p][c])
                return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the exchange puts back %u tiles of code %u, the rack has %u",
                                    need[c], c, game->rack[p][c]);
        for (uint32_t c = 0; c <= rules->alphabet_size; c++) game->rack[p][c] -= need[c];
        turn.drawn = (uint8_t)draw(game, p, n);
        /* the tiles go back to random places; the rest of the bag keeps its order */
        for (uint32_t k = 0; k < n; k++) {
            uint32_t at = gd_rng_below(&game->rng, game->bag_count + 1);
            memmove(game->bag + at + 1, game->bag + at, game->bag_count - at);
            game->bag[at] = move->word[k];
            game->bag_count++;
        }
    } else if (move->kind != GD_PASS) {
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "unknown move kind %u", move->kind);
    }
    game->score[p] += score;
    game->scoreless = score == 0 ? game->scoreless + 1 : 0;
    turn.total = game->score[p];
    game->history[game->turn_count++] = turn;

    if (move->kind == GD_PLAY && game->bag_count == 0 && rack_tiles(game->rack[p], rules->alphabet_size) == 0)
        end_game(game, rules, 1);
    else if (game->scoreless >= rules->scoreless_turns || game->turn_count >= GD_MAX_TURNS)
        end_game(game, rules, 0);
    if (game->over) return GD_OK;
    game->to_move = 1 - p;
    return GD_OK;
}

int gd_game_move(gd_game *game, const gd_rules *rules, const gd_move *move, gd_error *err)
{
    if (!game || !move) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "missing argument");
    if (game->magic != GD_GAME_MAGIC) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "not a game (bad magic)");
    int rc = check_game_rules(rules, err);
    if (rc) return rc;
    return make_move(game, rules, move, err);
}

int gd_game_move_checked(gd_game *game, const gd_rules *rules, const gd_move *move, gd_error *err)
{
    return make_move(game, rules, move, err);
}

void gd_game_unseen(const gd_game *game, uint32_t player, uint32_t *counts)
{
    memset(counts, 0, 64 * sizeof *counts);
    if (!game || player > 1) return;
    for (uint32_t i = 0; i < game->bag_count; i++) counts[game->bag[i] & 63u]++;
    for (uint32_t c = 0; c < 64; c++) counts[c] += game->rack[1 - player][c];
}

/* The move for the player to move, on a workspace already prepared for the game's board. */
int gd_choose_prepared(const gd_lexicon *lex, const gd_rules *rules, const gd_game *game, const void *workspace,
                  const gd_player *player, gd_move *out, gd_error *err)
{
    const uint32_t p = game->to_move;
    const uint8_t *rack = game->rack[p];
    size_t count = 0;
    memset(out, 0, sizeof *out);
    if (game->over) {
        out->kind = GD_PASS;
        return GD_OK;
    }
    gd_equity_options options;
    memset(&options, 0, sizeof options);
    options.bag_count = game->bag_count;
    options.opponent_rack_value = gd_rack_value(rules, game->rack[1 - p], rules->alphabet_size);
    int rc;
    if (player->kind == GD_PLAYER_EQUITY || player->kind == GD_PLAYER_EQUITY_PASS_ZERO) {
        options.leaves = player->leaves;
        options.pass_as_zero = player->kind == GD_PLAYER_EQUITY_PASS_ZERO;
        options.exchanges = 1;
        options.pass = 1;
        options.by_equity = 1;
        options.prune = 1;
        rc = gd_generate_equity(lex, rules, game->board, workspace, rack, &options, 1, out, 1, &count, err);
        if (rc) return rc;
        if (count == 0) out->kind = GD_PASS;
        return GD_OK;
    }
    if (player->kind != GD_PLAYER_GREEDY)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "unknown player kind %u", player->kind);
    options.prune = 1; /* ranked by score: the bounds of the score alone */
    rc = gd_generate_equity(lex, rules, game->board, workspace, rack, &options, 1, out, 1, &count, err);
    if (rc) return rc;
    if (count) return GD_OK;
    /* no play: put the whole rack back if the bag allows, else pass */
    memset(out, 0, sizeof *out);
    uint32_t n = rack_tiles(rack, rules->alphabet_size);
    if (n && game->bag_count >= rules->exchange_minimum && game->bag_count >= n) {
        out->kind = GD_EXCHANGE;
        for (uint32_t c = 0; c <= rules->alphabet_size; c++)
            for (uint32_t k = 0; k < rack[c]; k++) out->word[out->length++] = (uint8_t)c;
    } else {
        out->kind = GD_PASS;
    }
    return GD_OK;
}

int gd_choose_move(const gd_lexicon *lex, const gd_rules *rules, const gd_game *game, void *workspace,
                   const gd_player *player, gd_move *out, gd_error *err)
{
    if (!game || !player || !out) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "missing argument");
    if (game->magic != GD_GAME_MAGIC) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "not a game (bad magic)");
    int rc = gd_prepare(lex, rules, game->board, workspace, err);
    if (rc) return rc;
    return gd_choose_prepared(lex, rules, game, workspace, player, out, err);
}

int gd_play_game(const gd_lexicon *lex, const gd_rules *rules, const gd_player *players, uint64_t seed,
                 gd_game *game, void *workspace, gd_turn_hook before_move, void *context, gd_error *err)
{
    if (!players) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "missing argument");
    int rc = gd_game_new(game, rules, seed, err);
    if (rc) return rc;
    rc = gd_prepare(lex, rules, game->board, workspace, err);
    if (rc) return rc;
    gd_move move;
    while (!game->over) {
        rc = gd_choose_prepared(lex, rules, game, workspace, &players[game->to_move], &move, err);
        if (rc) return rc;
        if (before_move) before_move(context, game, &move);
        rc = make_move(game, rules, &move, err); /* the rules were checked by gd_game_new */
        if (rc) return rc;
        if (move.kind == GD_PLAY) {
            rc = gd_update_after_play(lex, rules, game->board, workspace, &move, err);
            if (rc) return rc;
        }
    }
    return GD_OK;
}

int gd_autoplay(const gd_lexicon *lex, const gd_rules *rules, const gd_player *players, uint64_t seed, gd_game *game,
                void *workspace, gd_error *err)
{
    return gd_play_game(lex, rules, players, seed, game, workspace, NULL, NULL, err);
}

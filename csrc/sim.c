/* sim.c — Monte Carlo simulation of candidate moves (the method and the stopping rule:
 * docs/simulation.md).
 *
 * Each iteration deals the tiles the player to move cannot see: the opponent's rack, then the
 * order of the bag. Every candidate still in the running is then played from that same deal
 * (common random numbers: the differences between candidates are measured on identical
 * futures, which is what makes them separable in few iterations), followed by `plies` moves
 * of static-equity players. A playout is worth the spread it gained plus the difference of
 * the last leaves both sides kept. After each iteration a candidate is dropped when the
 * leader's mean beats its own by more than prune_z standard errors of their paired
 * difference (of the value, or of the estimated win when ranking by wins).
 *
 * The state is one flat caller-owned buffer (gd_sim_size bytes); it points at the lexicon,
 * the rules and the leave table given to gd_sim_start, which must outlive it unchanged (the rules
 * are checked there, not at every move).
 */
#include <math.h>
#include <string.h>

#include "gaddag_format.h"
#include "game_internal.h"
#include "sim_internal.h"
#include "tiles.h"
#include "workspace.h"

#define SIM_MAGIC 0x4753494du /* "GSIM" */

/* Where playouts are played: a workspace and a game (only the part before the history is copied).
 * The state has one (gd_sim_run's); each thread of a shared run has its own (gd_sim_play). */
typedef struct sim_scratch {
    gd_workspace workspace;
    gd_game game;
} sim_scratch;

typedef struct gd_sim_state {
    uint32_t magic;
    uint32_t count;       /* candidates */
    uint32_t live;        /* candidates not dropped */
    uint32_t plies;
    uint32_t min_iterations;
    uint32_t player;      /* the player to move in the position */
    uint32_t opponent_tiles; /* tiles dealt to the opponent each iteration */
    uint32_t pool_count;  /* tiles the player cannot see: the bag and the opponent's rack */
    const gd_inferred_leave *opponent_leaves; /* what the opponent kept, when inferred */
    uint32_t opponent_leave_count;
    double opponent_leave_weight;             /* their weights' sum */
    double prune_z;
    double spread_sigma;
    uint32_t rank_by_win;     /* the leader and the stopping rule go by the wins */
    uint32_t win_tiles;       /* 0: no fitted win model */
    double win_mean[GD_MAX_TILES + 1];
    double win_sigma[GD_MAX_TILES + 1];
    uint64_t iterations;
    const gd_lexicon *lex;
    const gd_rules *rules;
    const gd_leaves *leaves;
    gd_rng rng;
    uint8_t pool[GD_MAX_TILES];
    gd_sim_candidate candidate[GD_SIM_MAX_CANDIDATES];
    double cross[GD_SIM_MAX_CANDIDATES][GD_SIM_MAX_CANDIDATES]; /* sums of r_i * r_j, i < j, r the ranked number */
    gd_workspace base_workspace;   /* prepared for the position's board */
    gd_game base;                  /* the position */
    sim_scratch scratch;           /* gd_sim_run's playouts */
} gd_sim_state;

size_t gd_sim_size(void) { return sizeof(gd_sim_state); }
size_t gd_sim_scratch_size(void) { return sizeof(sim_scratch); }

static uint32_t count_tiles(const uint8_t *rack, uint32_t alphabet_size)
{
    uint32_t n = 0;
    for (uint32_t c = 0; c <= alphabet_size; c++) n += rack[c];
    return n;
}

/*
 * What a move keeps, in hundredths, as static equity counts it beside the score: while the bag
 * holds tiles, the leave table's value of the tiles kept (of a full rack kept by a pass,
 * gd_leaves_keep_value's); with the bag empty, 0 for a play that
 * goes out (the game's end adjustment is in the score) and otherwise minus twice the value of
 * the tiles kept, the cost of being stuck with them.
 */
int32_t gd_move_leave_term(const gd_rules *rules, const gd_leaves *leaves, const gd_game *game, const gd_move *move)
{
    const uint32_t p = game->to_move, n = rules->alphabet_size;
    uint8_t kept[64];
    memcpy(kept, game->rack[p], sizeof kept);
    if (move->kind == GD_PLAY) {
        for (unsigned k = 0; k < move->length; k++) {
            uint8_t code = move->word[k];
            if (code & GD_ON_BOARD_FLAG) continue;
            uint32_t c = (code & GD_BLANK_FLAG) ? 0 : (code & 63u);
            if (c <= n && kept[c]) kept[c]--;
        }
    } else if (move->kind == GD_EXCHANGE) {
        for (unsigned k = 0; k < move->length && k < GD_MAX_DIM; k++)
            if (move->word[k] <= n && kept[move->word[k]]) kept[move->word[k]]--;
    }
    if (game->bag_count > 0) return leaves ? gd_leaves_keep_value(leaves, kept) : 0;
    if (count_tiles(kept, n) == 0) return 0;
    return -200 * gd_rack_value(rules, kept, n);
}

static int check_state(const gd_sim_state *sim, gd_error *err)
{
    if (!sim) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "missing argument");
    if (sim->magic != SIM_MAGIC) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "not a started simulation");
    return GD_OK;
}

/* Take the inferred leaves of the options, when given: each must fit in what is unseen and on
 * the opponent's rack, with a weight that is a number from 0 up, and some weight above 0. */
static int check_opponent_leaves(gd_sim_state *sim, const gd_rules *rules, const gd_sim_options *options,
                                 gd_error *err)
{
    if (!options->opponent_leaves || options->opponent_leave_count == 0) return GD_OK;
    if (sim->pool_count <= sim->opponent_tiles)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the bag is empty: the opponent's rack is known");
    uint8_t pool[64] = {0};
    for (uint32_t i = 0; i < sim->pool_count; i++) pool[sim->pool[i]]++;
    double total = 0;
    for (uint32_t i = 0; i < options->opponent_leave_count; i++) {
        const gd_inferred_leave *e = &options->opponent_leaves[i];
        if (!(e->weight >= 0 && e->weight < 1e300))
            return gd_set_error(err, GD_ERR_ARGUMENT, 0, "inferred leave %u: its weight is not a number from 0 up",
                                i + 1);
        uint32_t n = 0;
        for (uint32_t c = 0; c < 64; c++) {
            if (e->counts[c] > pool[c])
                return gd_set_error(err, GD_ERR_ARGUMENT, 0,
                                    "inferred leave %u holds %u tiles of code %u, %u are unseen", i + 1,
                                    e->counts[c], c, pool[c]);
            n += e->counts[c];
        }
        if (n > sim->opponent_tiles || n >= rules->rack_size)
            return gd_set_error(err, GD_ERR_ARGUMENT, 0, "inferred leave %u holds %u tiles: more than a leave", i + 1,
                                n);
        total += e->weight;
    }
    if (!(total > 0)) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the inferred leaves all weigh 0");
    sim->opponent_leaves = options->opponent_leaves;
    sim->opponent_leave_count = options->opponent_leave_count;
    sim->opponent_leave_weight = total;
    return GD_OK;
}

/* Deal an iteration: the opponent's rack (an inferred leave drawn by weight, when there are
 * any, completed from the rest) first in deal[], then the order of the bag. */
static void deal_tiles(const gd_sim_state *sim, gd_rng *rng, uint8_t *deal)
{
    uint32_t fixed = 0, n = sim->pool_count;
    memcpy(deal, sim->pool, n);
    if (sim->opponent_leaves) {
        double u = (double)(gd_rng_next(rng) >> 11) * (1.0 / 9007199254740992.0) * sim->opponent_leave_weight;
        uint32_t pick = 0;
        while (pick + 1 < sim->opponent_leave_count && u >= sim->opponent_leaves[pick].weight)
            u -= sim->opponent_leaves[pick++].weight;
        while (sim->opponent_leaves[pick].weight <= 0) pick--; /* the last with weight, when u ran out */
        uint8_t want[64];
        memcpy(want, sim->opponent_leaves[pick].counts, sizeof want);
        /* move the leave's tiles to the front, in pool order */
        for (uint32_t i = 0; i < n; i++) {
            if (!want[deal[i]]) continue;
            want[deal[i]]--;
            uint8_t t = deal[fixed];
            deal[fixed++] = deal[i];
            deal[i] = t;
        }
    }
    for (uint32_t k = n - fixed; k > 1; k--) {
        uint32_t j = gd_rng_below(rng, k);
        uint8_t t = deal[fixed + k - 1];
        deal[fixed + k - 1] = deal[fixed + j];
        deal[fixed + j] = t;
    }
}

int gd_sim_start(void *state, const gd_lexicon *lex, const gd_rules *rules, const gd_game *position,
                 const gd_move *candidates, uint32_t count, const gd_sim_options *options, gd_error *err)
{
    gd_sim_state *sim = state;
    if (!sim || !lex || !rules || !position || !candidates || !options)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "missing argument");
    memset(sim, 0, offsetof(gd_sim_state, base_workspace));
    if (position->magic != GD_GAME_MAGIC) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "not a game (bad magic)");
    if (position->over) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the game is over: nothing to simulate");
    if (count == 0) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "no candidate moves to simulate");
    if (count > GD_SIM_MAX_CANDIDATES)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "%u candidates: at most %d", count, GD_SIM_MAX_CANDIDATES);
    if (options->plies > GD_SIM_MAX_PLIES)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "%u plies: at most %d", options->plies, GD_SIM_MAX_PLIES);
    if (!(options->prune_z >= 0 && options->prune_z < 1e6))
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "prune_z must be a number from 0 (never drop) up");
    if (!(options->spread_sigma >= 0 && options->spread_sigma < 1e6))
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "spread_sigma must be a number from 0 up");
    if (position->squares != rules->rows * rules->cols)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the game was made for another board size");
    if (options->leaves && (options->leaves->alphabet_size != rules->alphabet_size))
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the leave table has %u letters, the rules %u",
                            options->leaves->alphabet_size, rules->alphabet_size);

    sim->lex = lex;
    sim->rules = rules;
    sim->leaves = options->leaves;
    sim->plies = options->plies;
    sim->min_iterations = options->min_iterations < 2 ? 2 : options->min_iterations;
    sim->prune_z = options->prune_z;
    sim->spread_sigma = options->spread_sigma;
    sim->rank_by_win = options->rank_by_win != 0;
    if (options->win_mean || options->win_sigma) {
        if (!options->win_mean || !options->win_sigma)
            return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the win model needs both its means and its sigmas");
        uint32_t tiles = 0;
        for (uint32_t c = 0; c <= rules->alphabet_size; c++) tiles += rules->tile_counts[c];
        if (options->win_tiles < tiles || options->win_tiles > GD_MAX_TILES)
            return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the win model covers %u tiles unplayed, the set has %u",
                                options->win_tiles, tiles);
        for (uint32_t t = 0; t <= options->win_tiles; t++) {
            if (!(options->win_mean[t] > -1e6 && options->win_mean[t] < 1e6) ||
                !(options->win_sigma[t] >= 0 && options->win_sigma[t] < 1e6))
                return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the win model's entry for %u tiles is not a number", t);
        }
        sim->win_tiles = options->win_tiles;
        memcpy(sim->win_mean, options->win_mean, (options->win_tiles + 1) * sizeof(double));
        memcpy(sim->win_sigma, options->win_sigma, (options->win_tiles + 1) * sizeof(double));
    }
    gd_rng_seed(&sim->rng, options->seed);
    memcpy(&sim->base, position, offsetof(gd_game, history));
    sim->player = position->to_move;
    const uint32_t p = sim->player, q = 1 - p;

    /* the unseen pool: the bag, then the opponent's rack (order does not matter: it is shuffled) */
    for (uint32_t i = 0; i < position->bag_count; i++) sim->pool[sim->pool_count++] = position->bag[i];
    for (uint32_t c = 0; c <= rules->alphabet_size; c++)
        for (uint32_t k = 0; k < position->rack[q][c]; k++) sim->pool[sim->pool_count++] = (uint8_t)c;
    if (position->bag_count == 0) {
        sim->opponent_tiles = sim->pool_count; /* the opponent holds exactly what is unseen */
    } else {
        if (sim->pool_count < rules->rack_size)
            return gd_set_error(err, GD_ERR_ARGUMENT, 0,
                                "the %u unseen tiles cannot fill the opponent's rack of %u and leave a bag",
                                sim->pool_count, rules->rack_size);
        sim->opponent_tiles = rules->rack_size;
    }

    int rc = check_opponent_leaves(sim, rules, options, err);
    if (rc) return rc;
    rc = gd_prepare(lex, rules, position->board, &sim->base_workspace, err);
    if (rc) return rc;
    /* every candidate must be a move the player can make: try each on a copy */
    for (uint32_t i = 0; i < count; i++) {
        memcpy(&sim->scratch.game, &sim->base, offsetof(gd_game, history));
        rc = gd_game_move(&sim->scratch.game, rules, &candidates[i], err);
        if (rc) {
            if (!err) return rc;
            char why[sizeof err->message];
            memcpy(why, err->message, sizeof why);
            why[sizeof why - 1] = 0;
            return gd_set_error(err, GD_ERR_ARGUMENT, 0, "candidate %u: %s", i + 1, why);
        }
        sim->candidate[i].move = candidates[i];
    }
    sim->count = sim->live = count;
    sim->magic = SIM_MAGIC;
    return GD_OK;
}

/* The probability that a lead of `spread` holds when what is left moves it by a normal amount of
 * standard deviation sigma: the normal distribution function at spread/sigma (Abramowitz and
 * Stegun 7.1.26, within 1.5e-7; only exp and sqrt from the maths library, which every build of
 * the core has). */
static double lead_holds(double spread, double sigma)
{
    if (sigma <= 0) return spread > 0 ? 1.0 : spread < 0 ? 0.0 : 0.5;
    double x = spread / (sigma * 1.4142135623730951), a = x < 0 ? -x : x;
    double t = 1.0 / (1.0 + 0.3275911 * a);
    double erf_a = 1.0 - t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))) *
                             exp(-a * a);
    return 0.5 * (1.0 + (x < 0 ? -erf_a : erf_a));
}

/* Play candidate i from the deal in the scratch game's bag and the opponent's rack: its value
 * (hundredths), its estimated win probability and whether the opponent's reply was a bingo. */
static int playout(const gd_sim_state *sim, sim_scratch *s, uint32_t i, uint64_t seed, gd_sim_playout *out,
                   gd_error *err)
{
    const gd_rules *rules = sim->rules;
    const uint32_t p = sim->player, q = 1 - p;
    gd_game *g = &s->game;
    int32_t last_term[2] = {0, 0};
    gd_player player = {GD_PLAYER_EQUITY, sim->leaves};

    gd_workspace_copy(&s->workspace, &sim->base_workspace);
    gd_rng_seed(&g->rng, seed); /* exchanges put tiles back at the same places for every candidate */
    gd_move move = sim->candidate[i].move;
    out->bingo = 0;
    for (uint32_t ply = 0;; ply++) {
        last_term[g->to_move] = gd_move_leave_term(rules, sim->leaves, g, &move);
        if (ply == 1 && move.kind == GD_PLAY && move.tiles_placed >= rules->rack_size) out->bingo = 1;
        int rc = gd_game_move_checked(g, rules, &move, err); /* the rules were checked by gd_sim_start */
        if (rc) return rc;
        if (move.kind == GD_PLAY) {
            rc = gd_update_after_play(sim->lex, rules, g->board, &s->workspace, &move, err);
            if (rc) return rc;
        }
        if (g->over || ply >= sim->plies) break;
        rc = gd_choose_prepared(sim->lex, rules, g, &s->workspace, &player, &move, err);
        if (rc) return rc;
    }
    int64_t gained = (int64_t)(g->score[p] - g->score[q]) - (int64_t)(sim->base.score[p] - sim->base.score[q]);
    int64_t v = 100 * gained;
    if (!g->over) v += last_term[p] - last_term[q];
    out->value = v;
    double spread = (double)(g->score[p] - g->score[q]);
    if (g->over) {
        out->win = lead_holds(spread, 0);
    } else {
        spread += (double)(last_term[p] - last_term[q]) / 100.0;
        uint32_t left = g->bag_count + count_tiles(g->rack[0], rules->alphabet_size) +
                        count_tiles(g->rack[1], rules->alphabet_size);
        if (sim->win_tiles && left <= sim->win_tiles) /* the fitted model: being on turn is worth win_mean */
            out->win = lead_holds(spread + (g->to_move == p ? sim->win_mean[left] : -sim->win_mean[left]),
                                  sim->win_sigma[left]);
        else
            out->win = lead_holds(spread, sim->spread_sigma * sqrt((double)left));
    }
    out->played = 1;
    return GD_OK;
}

/* The number candidates are ranked by, per playout, and its sums: the value (hundredths), or
 * the estimated win (a probability) when ranking by wins. */
static double ranked(const gd_sim_state *sim, const gd_sim_playout *playout)
{
    return sim->rank_by_win ? playout->win : (double)playout->value;
}
static double ranked_sum(const gd_sim_state *sim, const gd_sim_candidate *c)
{
    return sim->rank_by_win ? c->wins : (double)c->value_sum;
}
static double ranked_squares(const gd_sim_state *sim, const gd_sim_candidate *c)
{
    return sim->rank_by_win ? c->win_squares : c->value_squares;
}

/* The stopping rule: drop every candidate the leader beats by more than prune_z standard errors
 * of their paired difference. */
static void drop_beaten(gd_sim_state *sim)
{
    if (sim->prune_z <= 0 || sim->live < 2 || sim->iterations < sim->min_iterations) return;
    const double n = (double)sim->iterations;
    uint32_t leader = 0;
    int found = 0;
    for (uint32_t i = 0; i < sim->count; i++) {
        if (sim->candidate[i].dropped) continue;
        if (!found || ranked_sum(sim, &sim->candidate[i]) > ranked_sum(sim, &sim->candidate[leader])) leader = i;
        found = 1;
    }
    const gd_sim_candidate *l = &sim->candidate[leader];
    for (uint32_t i = 0; i < sim->count; i++) {
        gd_sim_candidate *c = &sim->candidate[i];
        if (c->dropped || i == leader) continue;
        double d = (ranked_sum(sim, l) - ranked_sum(sim, c)) / n;
        double cross = leader < i ? sim->cross[leader][i] : sim->cross[i][leader];
        double var = (ranked_squares(sim, l) + ranked_squares(sim, c) - 2.0 * cross) / n - d * d;
        if (var < 0) var = 0;
        double se = sqrt(var / (n - 1.0));
        if (d > sim->prune_z * se) {
            c->dropped = 1;
            sim->live--;
        }
    }
}

int gd_sim_seeds(void *state, uint32_t iterations, uint64_t *seeds, gd_error *err)
{
    gd_sim_state *sim = state;
    int rc = check_state(sim, err);
    if (rc) return rc;
    if (!seeds && iterations) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "missing argument");
    for (uint32_t i = 0; i < iterations; i++) seeds[i] = gd_rng_next(&sim->rng);
    return GD_OK;
}

int gd_sim_play(const void *state, void *scratch, uint64_t seed, gd_sim_playout *out, gd_error *err)
{
    const gd_sim_state *sim = state;
    int rc = check_state(sim, err);
    if (rc) return rc;
    if (!scratch || !out) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "missing argument");
    sim_scratch *s = scratch;
    const uint32_t q = 1 - sim->player;
    uint8_t deal[GD_MAX_TILES];
    gd_rng deal_rng;
    gd_rng_seed(&deal_rng, seed ^ 0x9E3779B97F4A7C15ull);
    deal_tiles(sim, &deal_rng, deal);
    for (uint32_t i = 0; i < sim->count; i++) {
        memset(&out[i], 0, sizeof out[i]);
        if (sim->candidate[i].dropped) continue;
        gd_game *g = &s->game;
        memcpy(g, &sim->base, offsetof(gd_game, history));
        memset(g->rack[q], 0, sizeof g->rack[q]);
        for (uint32_t k = 0; k < sim->opponent_tiles; k++) g->rack[q][deal[k]]++;
        g->bag_count = sim->pool_count - sim->opponent_tiles;
        memcpy(g->bag, deal + sim->opponent_tiles, g->bag_count);
        rc = playout(sim, s, i, seed, &out[i], err);
        if (rc) return rc;
    }
    return GD_OK;
}

int gd_sim_merge(void *state, const gd_sim_playout *playouts, uint32_t iterations, gd_error *err)
{
    gd_sim_state *sim = state;
    int rc = check_state(sim, err);
    if (rc) return rc;
    if (!playouts && iterations) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "missing argument");
    for (uint32_t it = 0; it < iterations && sim->live > 1; it++) {
        const gd_sim_playout *row = playouts + (size_t)it * sim->count;
        for (uint32_t i = 0; i < sim->count; i++)
            if (!sim->candidate[i].dropped && !row[i].played)
                return gd_set_error(err, GD_ERR_ARGUMENT, 0, "iteration %u: candidate %u was not played", it + 1,
                                    i + 1);
        for (uint32_t i = 0; i < sim->count; i++) {
            gd_sim_candidate *c = &sim->candidate[i];
            if (c->dropped) continue;
            double v = (double)row[i].value, r = ranked(sim, &row[i]);
            c->iterations++;
            c->value_sum += row[i].value;
            c->value_squares += v * v;
            c->wins += row[i].win;
            c->win_squares += row[i].win * row[i].win;
            c->opponent_bingos += row[i].bingo;
            for (uint32_t j = i + 1; j < sim->count; j++)
                if (!sim->candidate[j].dropped) sim->cross[i][j] += r * ranked(sim, &row[j]);
        }
        sim->iterations++;
        drop_beaten(sim);
    }
    return GD_OK;
}

int gd_sim_drop(void *state, uint32_t index, gd_error *err)
{
    gd_sim_state *sim = state;
    int rc = check_state(sim, err);
    if (rc) return rc;
    if (index >= sim->count)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "candidate %u: there are %u", index + 1, sim->count);
    if (sim->candidate[index].dropped || sim->live < 2) return GD_OK;
    sim->candidate[index].dropped = 1;
    sim->live--;
    return GD_OK;
}

int gd_sim_run(void *state, uint32_t iterations, gd_error *err)
{
    gd_sim_state *sim = state;
    int rc = check_state(sim, err);
    if (rc) return rc;
    gd_sim_playout row[GD_SIM_MAX_CANDIDATES];
    for (uint32_t it = 0; it < iterations && sim->live > 1; it++) {
        uint64_t seed;
        rc = gd_sim_seeds(sim, 1, &seed, err);
        if (!rc) rc = gd_sim_play(sim, &sim->scratch, seed, row, err);
        if (!rc) rc = gd_sim_merge(sim, row, 1, err);
        if (rc) return rc;
    }
    return GD_OK;
}

int gd_sim_results(const void *state, gd_sim_candidate *out, uint32_t capacity, uint32_t *count, uint32_t *live,
                   uint64_t *iterations, gd_error *err)
{
    const gd_sim_state *sim = state;
    int rc = check_state(sim, err);
    if (rc) return rc;
    if (!out && capacity) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "missing argument");
    uint32_t n = sim->count < capacity ? sim->count : capacity;
    if (n) memcpy(out, sim->candidate, n * sizeof *out);
    if (count) *count = sim->count;
    if (live) *live = sim->live;
    if (iterations) *iterations = sim->iterations;
    return GD_OK;
}

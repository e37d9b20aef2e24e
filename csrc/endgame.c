/* endgame.c — exact endgame search (the method: docs/endgame.md).
 *
 * With the bag empty both racks are known, so the rest of the game is a two-player game of
 * perfect information. The search is negamax with alpha-beta over every play and the pass,
 * one depth at a time (the caller deepens), with a transposition table keyed by a Zobrist-style
 * hash of the board, both racks, the side to move and the scoreless turns so far. Values are
 * the spread the player to move gains from here to the end of the game. A line cut off by the
 * depth is valued by a guess (each side loses what it still holds), and every stored result
 * says whether it rests on such a guess: a result that does not is exact at every depth, so a
 * deeper search reuses it and the last depth finishes quickly.
 *
 * The state is one caller-owned buffer (gd_endgame_size bytes) plus a caller-owned table.
 */
#include <string.h>

#include "gaddag_format.h"
#include "movegen_internal.h"
#include "rules_check.h"
#include "tiles.h"
#include "workspace.h"

#define ENDGAME_MAGIC 0x47454e44u /* "GEND" */
#define EXACT_DEPTH 255           /* a stored depth meaning "searched to the end of the game" */
#define FLAG_EXACT 1
#define FLAG_LOWER 2
#define FLAG_UPPER 3
#define INFINITE_VALUE 0x3fffffff

/* One result; a bucket is two of them (bucket_of). The table may be shared by the states of one
 * search on several threads (gd_endgame_share): a bucket is read and written only while its first
 * entry's lock is held, so no thread sees half an entry. */
typedef struct eg_entry {
    uint64_t key;
    int32_t value;
    uint8_t depth;
    uint8_t flag;
    uint8_t has_move;
    uint8_t work; /* about log2 of the positions its search visited: what replacing it would lose */
    uint8_t lock; /* the bucket's lock, in its first entry (taken with atomic builtins) */
    /* the best move found (tried first, before the position's moves are generated): a gd_move
     * without its equity, so that an entry keeps to 64 bytes */
    uint8_t kind, row, col, direction, length, tiles_placed;
    int32_t score;
    uint8_t word[GD_MAX_DIM];
    /* a position being searched now by a thread of a shared search, marked in its bucket (either
     * entry's tag; 0: none), so that the other threads search something else first */
    uint32_t busy;
} eg_entry;
_Static_assert(sizeof(eg_entry) == 64, "a table entry is 64 bytes (gaddag_solver.h says so)");

typedef struct gd_endgame_state {
    uint32_t magic;
    uint32_t move_capacity;
    const gd_lexicon *lex;
    const gd_rules *rules;
    eg_entry *table;
    uint64_t table_mask;
    uint64_t hash;
    uint64_t nodes;    /* positions visited this call, the table's answers included */
    uint64_t searched; /* ... of them, those the table did not answer: what node_limit counts */
    uint64_t node_limit;
    int aborted;
    int failed;
    int shared; /* the table is shared with other states (gd_endgame_share): mark what is searched */
    int solo_skip; /* the sanitizer build's check of a solo bound: the next position searches without it */
    uint64_t visited; /* positions the table did not answer since the position was set (all calls) */
    uint32_t to_move, scoreless;
    uint8_t board[GD_MAX_SQUARES];
    uint8_t rack[2][64];
    gd_error error;
    /* per ply, the last two moves that cut there (in any position): tried before a position's
     * moves are generated, as siblings are often refuted by the same reply */
    gd_move killer[GD_ENDGAME_MAX_PLY + 1][2];
    gd_endgame_stats stats;
    /* the first moves searched (gd_endgame_root_moves): only these, or all but these */
    uint32_t root_count, root_exclude;
    gd_move root_moves[GD_ENDGAME_MAX_ROOT_MOVES];
    uint32_t pv_length[GD_ENDGAME_MAX_PLY + 1];
    gd_move pv[GD_ENDGAME_MAX_PLY + 1][GD_ENDGAME_MAX_PLY];
    /* the cross-sets of each ply's board; a ply's are brought up to date only when it needs them
     * (pending[i]: the play made on workspace[i - 1]'s board that workspace[i] still lacks) */
    const gd_move *pending[GD_ENDGAME_MAX_PLY + 1];
    gd_workspace workspace[GD_ENDGAME_MAX_PLY + 1];
    gd_move moves[]; /* move_capacity: the move lists of the plies being searched, as a stack */
} gd_endgame_state;

size_t gd_endgame_size(uint32_t move_capacity)
{
    return sizeof(gd_endgame_state) + (size_t)move_capacity * sizeof(gd_move);
}

static uint64_t mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}
static uint64_t square_key(uint32_t square, uint8_t code) { return mix(((uint64_t)1 << 40) | (square << 8) | code); }
static uint64_t rack_key(uint32_t player, uint32_t code, uint32_t n)
{
    return mix(((uint64_t)2 << 40) | (player << 16) | (code << 8) | n);
}
static uint64_t scoreless_key(uint32_t k) { return mix(((uint64_t)3 << 40) | k); }
#define SIDE_KEY 0x5bd1e9955bd1e995ull

static uint32_t tiles_of(const uint8_t *rack, uint32_t n)
{
    uint32_t t = 0;
    for (uint32_t c = 0; c <= n; c++) t += rack[c];
    return t;
}

/* Check that `position` can be searched with these rules. */
static int check_position(const gd_rules *rules, const gd_game *position, gd_error *err)
{
    if (position->magic != GD_GAME_MAGIC) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "not a game (bad magic)");
    if (position->over) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the game is over");
    if (position->bag_count)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0,
                            "an endgame needs an empty bag: %u tiles are in it (simulate instead)",
                            position->bag_count);
    if (position->squares != rules->rows * rules->cols)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the game was made for another board size");
    for (uint32_t p = 0; p < 2; p++)
        if (tiles_of(position->rack[p], rules->alphabet_size) == 0)
            return gd_set_error(err, GD_ERR_ARGUMENT, 0, "player %u has no tiles: the game is over", p + 1);
    return GD_OK;
}

/* Set the state to `position` (checked), its hash and the cross-sets of its board; the table,
 * the lexicon and the rules stay. */
static int set_position(gd_endgame_state *es, const gd_game *position, gd_error *err)
{
    const gd_rules *rules = es->rules;
    memset(es->pending, 0, sizeof es->pending);
    memset(es->killer, 0, sizeof es->killer);
    es->root_count = 0;
    es->root_exclude = 1;
    es->hash = 0;
    es->visited = 0;
    memcpy(es->board, position->board, sizeof es->board);
    memcpy(es->rack, position->rack, sizeof es->rack);
    es->to_move = position->to_move;
    es->scoreless = position->scoreless;
    const uint32_t squares = rules->rows * rules->cols;
    for (uint32_t s = 0; s < squares; s++)
        if (es->board[s]) es->hash ^= square_key(s, es->board[s]);
    for (uint32_t p = 0; p < 2; p++)
        for (uint32_t c = 0; c <= rules->alphabet_size; c++) es->hash ^= rack_key(p, c, es->rack[p][c]);
    if (es->to_move) es->hash ^= SIDE_KEY;
    /* the deeper levels are rebuilt from their parent's before use (pending is set for every
     * play that reaches one), so only the first is prepared here */
    return gd_prepare(es->lex, rules, es->board, &es->workspace[0], err);
}

int gd_endgame_start(void *state, size_t state_size, const gd_lexicon *lex, const gd_rules *rules,
                     const gd_game *position, void *table, size_t table_size, gd_error *err)
{
    gd_endgame_state *es = state;
    if (!es || !lex || !rules || !position || !table) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "missing argument");
    if (state_size < sizeof *es)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "an endgame state needs at least %zu bytes, not %zu", sizeof *es,
                            state_size);
    uint64_t entries = table_size / sizeof(eg_entry);
    if (entries < 1024) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "a table of %zu bytes is too small", table_size);
    uint64_t power = 1024;
    while (power * 2 <= entries) power *= 2;
    int rc = gd_check_rules(rules, err);
    if (rc) return rc;
    rc = check_position(rules, position, err);
    if (rc) return rc;
    memset(es, 0, offsetof(gd_endgame_state, workspace)); /* no workspace pending */
    es->move_capacity = (uint32_t)((state_size - sizeof *es) / sizeof(gd_move));
    es->lex = lex;
    es->rules = rules;
    es->table = table;
    es->table_mask = power - 1;
    memset(table, 0, power * sizeof(eg_entry));
    rc = set_position(es, position, err);
    if (rc) return rc;
    /* every level's fields that no play changes, set once for the lexicon and rules */
    for (uint32_t i = 1; i <= GD_ENDGAME_MAX_PLY; i++) es->workspace[i] = es->workspace[0];
    es->magic = ENDGAME_MAGIC;
    return GD_OK;
}

int gd_endgame_restart(void *state, const gd_game *position, gd_error *err)
{
    gd_endgame_state *es = state;
    if (!es || !position) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "missing argument");
    if (es->magic != ENDGAME_MAGIC) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "not a started endgame");
    int rc = check_position(es->rules, position, err);
    if (rc) return rc;
    es->magic = 0; /* until the new position is set */
    rc = set_position(es, position, err);
    if (rc) return rc;
    es->magic = ENDGAME_MAGIC;
    return GD_OK;
}

int gd_endgame_share(void *state, size_t state_size, void *started, gd_error *err)
{
    gd_endgame_state *es = state;
    gd_endgame_state *from = started;
    if (!es || !from) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "missing argument");
    if (from->magic != ENDGAME_MAGIC) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "not a started endgame");
    if (es == from) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "a state cannot share its own table");
    if (state_size < sizeof *es)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "an endgame state needs at least %zu bytes, not %zu", sizeof *es,
                            state_size);
    /* everything but the move stack: the lexicon, rules and table, the position with its prepared
     * cross-sets and the root moves; the killers and counters start afresh */
    memcpy(es, from, sizeof *es);
    es->move_capacity = (uint32_t)((state_size - sizeof *es) / sizeof(gd_move));
    memset(es->killer, 0, sizeof es->killer);
    memset(&es->stats, 0, sizeof es->stats);
    es->shared = from->shared = 1;
    return GD_OK;
}

/* Put a play's tiles on the board and take them off the rack (back = 0), or undo that (back = 1),
 * keeping the hash in step. */
static void move_tiles(gd_endgame_state *es, const gd_move *m, uint32_t p, int back)
{
    const uint32_t cols = es->rules->cols;
    const int across = m->direction == GD_ACROSS;
    for (unsigned k = 0; k < m->length; k++) {
        uint8_t code = m->word[k];
        if (code & GD_ON_BOARD_FLAG) continue;
        uint32_t s = (m->row + (across ? 0 : k)) * cols + m->col + (across ? k : 0);
        uint32_t c = (code & GD_BLANK_FLAG) ? 0 : (code & 63u);
        uint32_t had = es->rack[p][c], has = back ? had + 1u : had - 1u;
        es->board[s] = back ? 0 : code;
        es->hash ^= square_key(s, code) ^ rack_key(p, c, had) ^ rack_key(p, c, has);
        es->rack[p][c] = (uint8_t)has;
    }
}
static void put(gd_endgame_state *es, const gd_move *m, uint32_t p) { move_tiles(es, m, p, 0); }
static void take_back(gd_endgame_state *es, const gd_move *m, uint32_t p) { move_tiles(es, m, p, 1); }

static int32_t rack_value(const gd_endgame_state *es, uint32_t p)
{
    return gd_rack_value(es->rules, es->rack[p], es->rules->alphabet_size);
}

/* The guess for a position whose search the depth cuts off, for the player to move: both sides
 * are stuck with what they hold, but the player to move has the next play, worth something: half
 * the bingo bonus (25 points in English). The guess only orders the search, never its exact
 * values; with the tempo the deeper searches visit fewer positions (docs/endgame.md). */
static int32_t horizon_guess(const gd_endgame_state *es, uint32_t to_move)
{
    return rack_value(es, 1 - to_move) - rack_value(es, to_move) + es->rules->bingo_bonus / 2;
}

/* The best line from `ply`: move m, then the child's line when the child was searched. */
static void set_pv(gd_endgame_state *es, uint32_t ply, const gd_move *m, int searched)
{
    es->pv[ply][0] = *m;
    uint32_t n = searched ? es->pv_length[ply + 1] : 0;
    if (n > GD_ENDGAME_MAX_PLY - 1) n = GD_ENDGAME_MAX_PLY - 1;
    memcpy(&es->pv[ply][1], es->pv[ply + 1], n * sizeof(gd_move));
    es->pv_length[ply] = n + 1;
}

static int32_t search(gd_endgame_state *es, uint32_t ply, uint32_t depth, int32_t alpha, int32_t beta, uint32_t wsi,
                      size_t base, int *exact);
static int32_t search_moves(gd_endgame_state *es, uint32_t ply, uint32_t depth, int32_t alpha, int32_t beta,
                            uint32_t wsi, size_t base, int *exact, uint64_t key, uint64_t nodes_before, int restricted,
                            const gd_move *hint);

/* The table holds buckets of two entries: the first keeps the result that cost the most to find,
 * the second the latest, so a flood of cheap results deep in the tree does not wash out the
 * expensive ones near the root. */
static eg_entry *bucket_of(const gd_endgame_state *es, uint64_t key) { return &es->table[key & es->table_mask & ~1ull]; }

/* A bucket's lock, taken only when the table is shared: a search on one thread pays nothing. */
static void lock_bucket(const gd_endgame_state *es, eg_entry *bucket)
{
    if (!es->shared) return;
    while (__atomic_exchange_n(&bucket->lock, 1, __ATOMIC_ACQUIRE))
        while (__atomic_load_n(&bucket->lock, __ATOMIC_RELAXED)) {
        }
}
static void unlock_bucket(const gd_endgame_state *es, eg_entry *bucket)
{
    if (es->shared) __atomic_store_n(&bucket->lock, 0, __ATOMIC_RELEASE);
}

static void entry_move(const eg_entry *e, gd_move *m)
{
    memset(m, 0, sizeof *m);
    m->score = e->score;
    m->equity = 100 * e->score;
    m->kind = e->kind;
    m->row = e->row;
    m->col = e->col;
    m->direction = e->direction;
    m->length = e->length;
    m->tiles_placed = e->tiles_placed;
    memcpy(m->word, e->word, sizeof m->word);
}

/* A copy of the result stored for key, if any (1), taken whole under the bucket's lock. */
static int probe(const gd_endgame_state *es, uint64_t key, eg_entry *found)
{
    eg_entry *bucket = bucket_of(es, key);
    lock_bucket(es, bucket);
    const int at = bucket[0].key == key ? 0 : bucket[1].key == key ? 1 : -1;
    if (at >= 0) *found = bucket[at];
    unlock_bucket(es, bucket);
    return at >= 0;
}

/* Store a result for `key` that cost about 2^work positions (move NULL: none to remember). */
static void store(const gd_endgame_state *es, uint64_t key, uint8_t work, int32_t value, uint8_t depth, uint8_t flag,
                  const gd_move *move)
{
    eg_entry *bucket = bucket_of(es, key);
    lock_bucket(es, bucket);
    const uint32_t busy0 = bucket[0].busy, busy1 = bucket[1].busy; /* they stay where they are */
    eg_entry *slot = &bucket[1];
    if (bucket[0].key == key || work >= bucket[0].work) {
        if (bucket[0].key != key && bucket[0].key) { /* the displaced one stays a while */
            bucket[1] = bucket[0];
            bucket[1].lock = 0;
        }
        slot = &bucket[0];
    }
    slot->key = key;
    slot->value = value;
    slot->depth = depth;
    slot->flag = flag;
    slot->work = work;
    slot->has_move = move != NULL;
    if (move) {
        slot->kind = move->kind;
        slot->row = move->row;
        slot->col = move->col;
        slot->direction = move->direction;
        slot->length = move->length;
        slot->tiles_placed = move->tiles_placed;
        slot->score = move->score;
        memcpy(slot->word, move->word, sizeof slot->word);
    }
    bucket[0].busy = busy0;
    bucket[1].busy = busy1;
    unlock_bucket(es, bucket);
}

/* Threads of a shared search mark the positions they are searching (at DEFER_DEPTH and deeper),
 * and a thread puts off a move whose position another is searching until its other moves are
 * done (ABDADA, docs/endgame.md): by then the other's result is in the table. Shallower
 * positions are cheaper to search twice than to mark. */
#define DEFER_DEPTH 3
#define DEFER_MAX 64 /* moves put off at most, per position */
static uint32_t busy_tag(uint64_t key) { return (uint32_t)(key >> 32) | 1u; }

/* Mark key's position busy: the slot taken (1 or 2), 0 when both are taken. */
static int mark_busy(const gd_endgame_state *es, uint64_t key)
{
    eg_entry *bucket = bucket_of(es, key);
    int slot = 0;
    lock_bucket(es, bucket);
    if (!bucket[0].busy) {
        bucket[0].busy = busy_tag(key);
        slot = 1;
    } else if (!bucket[1].busy) {
        bucket[1].busy = busy_tag(key);
        slot = 2;
    }
    unlock_bucket(es, bucket);
    return slot;
}
static void clear_busy(const gd_endgame_state *es, uint64_t key, int slot)
{
    eg_entry *bucket = bucket_of(es, key);
    lock_bucket(es, bucket);
    bucket[slot - 1].busy = 0;
    unlock_bucket(es, bucket);
}
static int is_busy(const gd_endgame_state *es, uint64_t key)
{
    eg_entry *bucket = bucket_of(es, key);
    const uint32_t tag = busy_tag(key);
    lock_bucket(es, bucket);
    const int busy = bucket[0].busy == tag || bucket[1].busy == tag;
    unlock_bucket(es, bucket);
    return busy;
}

static uint8_t log2_work(uint64_t positions)
{
    uint8_t bits = 0;
    while (positions >>= 1) bits++;
    return bits;
}

static int same_move(const gd_move *a, const gd_move *b)
{
    return a->kind == b->kind && a->row == b->row && a->col == b->col && a->direction == b->direction &&
           a->length == b->length && memcmp(a->word, b->word, a->length) == 0;
}

/* Bring workspace[wsi] up to date with the board, if it waits for a play (0 when that fails). The
 * play was the last to go on the board, and the workspace before it is up to date. */
static int workspace_ready(gd_endgame_state *es, uint32_t wsi)
{
    const gd_move *m = wsi ? es->pending[wsi] : NULL; /* level 0, the position itself, never waits */
    if (!m) return 1;
    gd_workspace_copy_squares(&es->workspace[wsi], &es->workspace[wsi - 1]);
    int rc = gd_update_after_play(es->lex, es->rules, es->board, &es->workspace[wsi], m, &es->error);
    if (rc) {
        es->failed = rc;
        return 0;
    }
    es->pending[wsi] = NULL;
    return 1;
}

/* The value of move m for the player to move (p, holding `held` tiles): at once when it ends the
 * game or the depth, else by searching the position after it (its moves on the stack from `base`).
 * *exact: the value rests on no guess; *searched: the child was searched (its line is in pv). */
static int32_t try_move(gd_endgame_state *es, const gd_move *m, uint32_t ply, uint32_t depth, int32_t alpha,
                        int32_t beta, uint32_t wsi, size_t base, uint32_t held, int *exact, int *searched)
{
    const gd_rules *rules = es->rules;
    const uint32_t p = es->to_move, q = 1 - p;
    const int32_t score = m->kind == GD_PLAY ? m->score : 0;
    const int32_t opponent_value = rack_value(es, q);
    int32_t v;
    *exact = 1;
    *searched = 0;
    const int goes_out = m->kind == GD_PLAY && m->tiles_placed == held;
    const int ends_scoreless = score == 0 && es->scoreless + 1 >= rules->scoreless_turns;
    const int at_horizon = depth <= 1 || ply + 1 >= GD_ENDGAME_MAX_PLY;
    /* the child's cross-sets wait until it generates or plays on (most positions are answered by
     * the table first), but they are made from this position's */
    if (m->kind == GD_PLAY && !goes_out && !ends_scoreless && !at_horizon && !workspace_ready(es, wsi)) return 0;
    if (m->kind == GD_PLAY) put(es, m, p);
    if (goes_out) {
        v = score + (rules->going_out_bonus + rules->going_out_penalty) * opponent_value;
    } else if (ends_scoreless) {
        v = score - rack_value(es, p) + opponent_value;
    } else if (at_horizon) {
        v = score - horizon_guess(es, q);
        *exact = 0;
    } else {
        uint32_t child_wsi = wsi;
        if (m->kind == GD_PLAY) {
            child_wsi = wsi + 1;
            es->pending[child_wsi] = m;
        }
        const uint32_t scoreless = es->scoreless;
        es->scoreless = score == 0 ? scoreless + 1 : 0;
        es->to_move = q;
        es->hash ^= SIDE_KEY;
        *searched = 1;
        v = score - search(es, ply + 1, depth - 1, score - beta, score - alpha, child_wsi, base, exact);
        es->hash ^= SIDE_KEY;
        es->to_move = p;
        es->scoreless = scoreless;
    }
    if (m->kind == GD_PLAY) take_back(es, m, p);
    return v;
}

/* The score of tile `code` played alone on square s (which forms a word there). */
static int32_t one_tile_score(const gd_rules *rules, const gd_workspace *ws, uint32_t s, uint8_t code)
{
    const int across = ws->has_cross[GD_DOWN][s]; /* tiles left or right: an across word */
    const int32_t v = gd_tile_value(rules, code) * rules->letter_multiplier[s], wm = rules->word_multiplier[s];
    int32_t score = (ws->cross_score[across ? GD_DOWN : GD_ACROSS][s] + v) * wm;
    if (across && ws->has_cross[GD_ACROSS][s]) score += (ws->cross_score[GD_ACROSS][s] + v) * wm;
    if (rules->rack_size == 1) score += rules->bingo_bonus;
    return score;
}

/*
 * The plays of a one-tile rack, listed straight from the cross-sets (most positions deep in an
 * endgame have one tile to move, and the generator's set-up per call costs more than they need).
 * The tile goes on an empty square next to a tile; the cross-set of each direction says whether
 * the word it forms that way is one. As the generator lists it, the play is across when it forms
 * an across word (the down word, if any, its cross-word) and down otherwise; the same scores.
 * A blank is tried as every letter.
 */
static void one_tile_play(const gd_endgame_state *es, const gd_workspace *ws, uint32_t s, uint8_t code,
                          gd_move *out)
{
    const gd_rules *rules = es->rules;
    const uint32_t cols = rules->cols, r = s / cols, c = s % cols;
    const int across = ws->has_cross[GD_DOWN][s]; /* tiles left or right: an across word */
    const int32_t score = one_tile_score(rules, ws, s, code);
    const uint32_t step = across ? 1 : cols;
    uint32_t first = s, line_pos = across ? c : r;
    while (line_pos > 0 && es->board[first - step]) {
        first -= step;
        line_pos--;
    }
    memset(out, 0, sizeof *out);
    out->score = score;
    out->equity = 100 * score;
    out->row = (uint8_t)(first / cols);
    out->col = (uint8_t)(first % cols);
    out->direction = across ? GD_ACROSS : GD_DOWN;
    out->tiles_placed = 1;
    out->kind = GD_PLAY;
    const uint32_t limit = across ? cols : rules->rows;
    uint32_t length = 0;
    for (uint32_t t = first, q = line_pos; q < limit && (t == s || es->board[t]); t += step, q++)
        out->word[length++] = t == s ? code : (uint8_t)(es->board[t] | GD_ON_BOARD_FLAG);
    out->length = (uint8_t)length;
}

/* A position's moves do not fit: the move stack is sized once, when the search starts. */
static int stack_full(gd_endgame_state *es)
{
    return gd_set_error(&es->error, GD_ERR_NOMEM, 0, "the move stack of %u moves is full", es->move_capacity);
}

/* Squares base .. base + 7 (below `squares`) that are anchors, as one bit per square: bit 8k for
 * square base + k (an anchor byte is 0 or 1). */
static uint64_t next_anchors(const gd_workspace *ws, uint32_t base, uint32_t squares)
{
    uint64_t word = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(&word, ws->anchor + base, 8); /* the array has room for GD_MAX_SQUARES */
#else
    for (uint32_t k = 0; k < 8; k++) word |= (uint64_t)(ws->anchor[base + k] & 1u) << (8 * k);
#endif
    if (squares - base < 8) word &= ((uint64_t)1 << (8 * (squares - base))) - 1;
    return word & 0x0101010101010101ull;
}

static int one_tile_plays(gd_endgame_state *es, const gd_workspace *ws, const uint8_t *rack, gd_move *out,
                          size_t capacity, size_t *count)
{
    const gd_rules *rules = es->rules;
    const uint32_t squares = rules->rows * rules->cols, letters = rules->alphabet_size;
    uint32_t tile = 0;
    while (tile <= letters && !rack[tile]) tile++; /* 0: a blank */
    size_t n = 0;
    /* the anchors (empty squares next to a tile) eight at a time: most squares are not one, and a
     * branch per square was most of this function's time */
    for (uint32_t base = 0; base < squares; base += 8) {
        uint64_t anchors = next_anchors(ws, base, squares);
        while (anchors) {
            const uint32_t s = base + (uint32_t)__builtin_ctzll(anchors) / 8;
            anchors &= anchors - 1;
            if (es->board[s]) continue;
            if (!ws->has_cross[GD_ACROSS][s] && !ws->has_cross[GD_DOWN][s]) continue; /* no word of two letters */
            const uint64_t fits_both = ws->cross_set[GD_ACROSS][s] & ws->cross_set[GD_DOWN][s];
            for (uint32_t letter = tile ? tile : 1; letter <= (tile ? tile : letters); letter++) {
                if (!((fits_both >> letter) & 1u)) continue;
                if (n >= capacity) return stack_full(es);
                one_tile_play(es, ws, s, (uint8_t)(tile ? letter : letter | GD_BLANK_FLAG), &out[n++]);
            }
        }
    }
    *count = n;
    return GD_OK;
}

/*
 * The opponent's threat to go out. When the opponent can play all its tiles in one move, every
 * move of the player to move that leaves that play standing is worth at most its score less what
 * the opponent's going out then gains: the opponent may always make it. A play stands, with the
 * same score, as long as no tile goes on its squares or next to the words it forms (its main
 * word on its line, each new tile's cross-word on the other), whatever else is played. So a move
 * whose bound cannot reach alpha is refuted without being played: no cross-sets, no table probe,
 * no listing of the reply's plays. The bound rests on a line that ends the game, so it holds at
 * any depth; it is used only where the reply would be searched (not at the horizon), so every
 * depth's value stays the minimax value of that depth.
 */
#define OUT_THREATS 4 /* the opponent's best going-out plays kept (by score) */
static void placement(const gd_move *m, uint32_t cols, uint32_t *first, uint32_t *step);
typedef struct out_threat {
    int32_t score;
    uint8_t direction, line;  /* the main word's direction and row (across) or column (down) */
    uint8_t start, end;       /* its first and last square along the line */
    uint8_t tiles;            /* the new tiles */
    uint8_t at[GD_MAX_DIM];   /* each new tile's place along the line */
    uint8_t from[GD_MAX_DIM]; /* ... and the run of tiles across the line it joins: first */
    uint8_t to[GD_MAX_DIM];   /* ... and last square (its own square when it joins none) */
} out_threat;

/* The opponent's (q's) best plays that go out, best first (at most OUT_THREATS); how many. */
static uint32_t out_threats(gd_endgame_state *es, const gd_workspace *ws, uint32_t q, gd_move *scratch,
                            size_t capacity, out_threat *out)
{
    const gd_rules *rules = es->rules;
    const uint32_t held = tiles_of(es->rack[q], rules->alphabet_size);
    size_t n = 0;
    int rc;
    if (held == 1) {
        rc = one_tile_plays(es, ws, es->rack[q], scratch, capacity, &n);
    } else {
        /* the best one alone: listing every play of a full rack (with a blank, thousands) at each
         * position costs more than the bound saves */
        rc = capacity < 1 ? GD_ERR_NOMEM
                          : gd_generate_horizon_best(es->lex, rules, es->board, ws, es->rack[q],
                                                     rack_value(es, 1 - q), 1, scratch, &es->error);
        n = 1;
    }
    if (rc != GD_OK || n > capacity) {
        es->error.message[0] = '\0'; /* no room to list them: no bound, the search goes on as before */
        return 0;
    }
    const uint32_t cols = rules->cols, rows = rules->rows;
    uint32_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        const gd_move *m = &scratch[i];
        if (m->kind != GD_PLAY || m->tiles_placed != held) continue;
        uint32_t k = kept < OUT_THREATS ? kept : OUT_THREATS - 1;
        if (kept == OUT_THREATS && m->score <= out[k].score) continue;
        while (k > 0 && out[k - 1].score < m->score) {
            out[k] = out[k - 1];
            k--;
        }
        if (kept < OUT_THREATS) kept++;
        out_threat *t = &out[k];
        const int across = m->direction == GD_ACROSS;
        t->score = m->score;
        t->direction = m->direction;
        t->line = across ? m->row : m->col;
        t->start = across ? m->col : m->row;
        t->end = (uint8_t)(t->start + m->length - 1);
        t->tiles = 0;
        for (uint32_t j = 0; j < m->length; j++) {
            if (m->word[j] & GD_ON_BOARD_FLAG) continue;
            const uint32_t along = t->start + j, limit = across ? rows : cols;
            uint32_t lo = t->line, hi = t->line; /* the run across the line through the new tile */
            while (lo > 0 && es->board[across ? (lo - 1) * cols + along : along * cols + lo - 1]) lo--;
            while (hi + 1 < limit && es->board[across ? (hi + 1) * cols + along : along * cols + hi + 1]) hi++;
            t->at[t->tiles] = (uint8_t)along;
            t->from[t->tiles] = (uint8_t)lo;
            t->to[t->tiles] = (uint8_t)hi;
            t->tiles++;
        }
    }
    return kept;
}

/* Whether play m puts a tile on one of the threat's squares or next to one of its words. */
static int spoils(const gd_move *m, const out_threat *t)
{
    if (m->kind != GD_PLAY) return 0;
    for (uint32_t k = 0; k < m->length; k++) {
        if (m->word[k] & GD_ON_BOARD_FLAG) continue;
        const uint32_t r = m->row + (m->direction == GD_DOWN ? k : 0), c = m->col + (m->direction == GD_ACROSS ? k : 0);
        /* the place along the threat's line and across it */
        const uint32_t along = t->direction == GD_ACROSS ? c : r, across = t->direction == GD_ACROSS ? r : c;
        if (across == t->line && along + 1 >= t->start && along <= (uint32_t)t->end + 1) return 1;
        for (uint32_t i = 0; i < t->tiles; i++)
            if (along == t->at[i] && across + 1 >= t->from[i] && across <= (uint32_t)t->to[i] + 1) return 1;
    }
    return 0;
}

/* What move m (of p, not ending the game) is worth at most, given the opponent's going-out
 * plays; INFINITE_VALUE when m spoils every one kept. */
static int32_t out_bound(const gd_endgame_state *es, const gd_move *m, uint32_t p, const out_threat *threats,
                         uint32_t count)
{
    for (uint32_t i = 0; i < count; i++) {
        if (spoils(m, &threats[i])) continue;
        int32_t left = rack_value(es, p);
        if (m->kind == GD_PLAY)
            for (uint32_t k = 0; k < m->length; k++)
                if (!(m->word[k] & GD_ON_BOARD_FLAG)) left -= gd_tile_value(es->rules, m->word[k]);
        const int32_t gone = threats[i].score + (es->rules->going_out_bonus + es->rules->going_out_penalty) * left;
        return (m->kind == GD_PLAY ? m->score : 0) - gone;
    }
    return INFINITE_VALUE;
}

/*
 * The opponent may always pass, so a position is worth at most, to the player to move, the best it
 * could make of its tiles alone if the opponent passed to the end: its plays one after another,
 * then going out, or stopping (the game then ends on scoreless turns, each side losing what it
 * holds). Deep in a hard endgame one side is stuck with a tile it cannot play while the other
 * plays out its last tiles one at a time, and the search lists every order and square of those,
 * in every position of the rest of the board, to prove that none reaches alpha: most of its
 * positions were those (docs/endgame.md). With one or two tiles to play that best is found
 * without a search: with one, its best play; with two, the best of both at once, or of one and
 * then the other. The other's plays after the first are its plays now, but on the squares the
 * first changed: its own, and the first empty square past it in each of the four directions,
 * read again from the board with the first tile on it.
 */
#define SOLO_TILES 2
#ifndef GD_ENDGAME_SOLO_AFTER /* the sanitizer build asks them from the first position, to check them */
#define GD_ENDGAME_SOLO_AFTER 50000 /* positions searched before the bounds are asked (solo_cut) */
#endif
#define SOLO_TOP 6 /* a play changes 5 squares at most: the best 6 squares hold one it leaves */

/* The best score of tile `tile` (0: a blank, as any letter) played alone on square s, or -1. */
static int32_t one_tile_best_at(const gd_endgame_state *es, const gd_workspace *ws, uint32_t s, uint32_t tile)
{
    if (es->board[s] || !ws->anchor[s] || (!ws->has_cross[GD_ACROSS][s] && !ws->has_cross[GD_DOWN][s])) return -1;
    const uint64_t fits_both = ws->cross_set[GD_ACROSS][s] & ws->cross_set[GD_DOWN][s];
    /* a blank scores the same as any letter it stands for: it needs one that fits */
    const uint64_t wanted = tile ? 1ull << tile : ~1ull;
    if (!(fits_both & wanted)) return -1;
    return one_tile_score(es->rules, ws, s, (uint8_t)(tile ? tile : GD_BLANK_FLAG | 1u));
}

/* A tile's best squares alone, best first: its SOLO_TOP best scores, one per square. */
typedef struct solo_top {
    int32_t score[SOLO_TOP];
    uint32_t square[SOLO_TOP];
    uint32_t count;
} solo_top;

/* Square s's score v into the list at place k (a free or replaceable place), moved up past the
 * lower scores before it. */
static void top_place(solo_top *top, uint32_t k, uint32_t s, int32_t v)
{
    while (k > 0 && top->score[k - 1] < v) {
        top->score[k] = top->score[k - 1];
        top->square[k] = top->square[k - 1];
        k--;
    }
    top->score[k] = v;
    top->square[k] = s;
}

static void solo_top_of(const gd_endgame_state *es, const gd_workspace *ws, uint32_t tile, solo_top *top)
{
    top->count = 0;
    const uint32_t squares = es->rules->rows * es->rules->cols;
    for (uint32_t base = 0; base < squares; base += 8) {
        /* only an anchor can take a tile alone (one_tile_best_at): the others are skipped unread */
        for (uint64_t anchors = next_anchors(ws, base, squares); anchors; anchors &= anchors - 1) {
            const uint32_t s = base + (uint32_t)__builtin_ctzll(anchors) / 8;
            const int32_t v = one_tile_best_at(es, ws, s, tile);
            if (v < 0 || (top->count == SOLO_TOP && v <= top->score[SOLO_TOP - 1])) continue;
            top_place(top, top->count < SOLO_TOP ? top->count++ : SOLO_TOP - 1, s, v);
        }
    }
}

/* A tile's best squares, as solo_top_of finds them, read from its plays alone as one_tile_plays
 * lists them: the best score on each square (a blank has a play for each letter on a square), the
 * SOLO_TOP best squares kept. Ties may keep other squares than the scan does, at the same scores. */
static void solo_top_from(const gd_move *plays, size_t count, uint32_t cols, solo_top *top)
{
    top->count = 0;
    for (size_t i = 0; i < count; i++) {
        uint32_t s, step;
        placement(&plays[i], cols, &s, &step);
        const int32_t v = plays[i].score;
        uint32_t k = 0;
        while (k < top->count && top->square[k] != s) k++;
        if (k < top->count) {
            if (v <= top->score[k]) continue; /* the square's best is already kept */
        } else {
            if (top->count == SOLO_TOP && v <= top->score[SOLO_TOP - 1]) continue;
            k = top->count < SOLO_TOP ? top->count++ : SOLO_TOP - 1;
        }
        top_place(top, k, s, v);
    }
}

/* At most what tile `tile` scores played alone on empty square s: each word it would form counted
 * whole, whether or not the lexicon holds it (no lexicon walk: a bound for squares not worth one). */
static int32_t one_tile_most_at(const gd_endgame_state *es, uint32_t s, uint32_t tile)
{
    const gd_rules *rules = es->rules;
    const uint32_t rows = rules->rows, cols = rules->cols, r = s / cols, c = s % cols;
    const uint8_t *board = es->board;
    const int32_t v = (tile ? rules->values[tile] : rules->values[0]) * rules->letter_multiplier[s];
    int32_t most = rules->rack_size == 1 ? rules->bingo_bonus : 0;
    /* the runs of tiles either side of s: across (left, right), then down (above, below) */
    int32_t run = 0;
    int any = 0;
    for (uint32_t q = s, k = c; k > 0 && board[q - 1]; k--, q--, any = 1) run += gd_tile_value(rules, board[q - 1]);
    for (uint32_t q = s, k = c + 1; k < cols && board[q + 1]; k++, q++, any = 1) run += gd_tile_value(rules, board[q + 1]);
    if (any) most += (run + v) * rules->word_multiplier[s];
    run = 0;
    any = 0;
    for (uint32_t q = s, k = r; k > 0 && board[q - cols]; k--, q -= cols, any = 1)
        run += gd_tile_value(rules, board[q - cols]);
    for (uint32_t q = s, k = r + 1; k < rows && board[q + cols]; k++, q += cols, any = 1)
        run += gd_tile_value(rules, board[q + cols]);
    if (any) most += (run + v) * rules->word_multiplier[s];
    return most;
}

/* Adds to changed[0..*count) (no square twice) the first empty square past the run of tiles from
 * square `from` in each of the four directions: the squares whose words a tile on `from` joins. */
static void squares_past_runs(const gd_endgame_state *es, uint32_t from, uint32_t *changed, uint32_t *count)
{
    const uint32_t rows = es->rules->rows, cols = es->rules->cols;
    static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    for (int d = 0; d < 4; d++) {
        int r = (int)(from / cols) + dr[d], c = (int)(from % cols) + dc[d];
        while (r >= 0 && r < (int)rows && c >= 0 && c < (int)cols && es->board[(uint32_t)r * cols + (uint32_t)c]) {
            r += dr[d];
            c += dc[d];
        }
        if (r < 0 || r >= (int)rows || c < 0 || c >= (int)cols) continue;
        const uint32_t e = (uint32_t)r * cols + (uint32_t)c;
        int seen = 0;
        for (uint32_t i = 0; i < *count; i++) seen |= changed[i] == e;
        if (!seen) changed[(*count)++] = e;
    }
}

/* The best score in a tile's best squares (best first) on a square not among squares[0..n), -1
 * when there is none. */
static int32_t best_elsewhere(const solo_top *top, const uint32_t *squares, uint32_t n)
{
    for (uint32_t k = 0; k < top->count; k++) {
        int elsewhere = 1;
        for (uint32_t i = 0; i < n; i++) elsewhere &= top->square[k] != squares[i];
        if (elsewhere) return top->score[k];
    }
    return -1;
}

/* The best of a tile's plays alone after a one-tile play on square `at` with tile `code` (on the
 * board of workspace ws, which is left as it was): -1 when it has none. A changed square whose
 * bound (one_tile_most_at) is at most `enough` is not read again, and counts as its bound in
 * *most, the most the best can be (the result itself when every square was read). */
static int32_t one_tile_best_after(gd_endgame_state *es, gd_workspace *ws, const solo_top *top, uint32_t at,
                                   uint8_t code, uint32_t tile, int32_t enough, int32_t *most)
{
    const gd_rules *rules = es->rules;
    uint32_t changed[5] = {at}, count = 1;
    es->board[at] = code;
    squares_past_runs(es, at, changed, &count);
    int32_t best = best_elsewhere(top, changed, count);
    *most = best;
    for (uint32_t i = 1; i < count; i++) {
        const uint32_t e = changed[i];
        const int32_t bound = one_tile_most_at(es, e, tile);
        if (bound <= enough) {
            if (bound > *most) *most = bound;
            continue;
        }
        const uint64_t set0 = ws->cross_set[0][e], set1 = ws->cross_set[1][e];
        const int32_t score0 = ws->cross_score[0][e], score1 = ws->cross_score[1][e];
        const uint8_t has0 = ws->has_cross[0][e], has1 = ws->has_cross[1][e], anchor = ws->anchor[e];
        gd_recompute_square(es->lex, rules, es->board, ws, e);
        const int32_t v = one_tile_best_at(es, ws, e, tile);
        if (v > best) best = v;
        if (v > *most) *most = v;
        ws->cross_set[0][e] = set0;
        ws->cross_set[1][e] = set1;
        ws->cross_score[0][e] = score0;
        ws->cross_score[1][e] = score1;
        ws->has_cross[0][e] = has0;
        ws->has_cross[1][e] = has1;
        ws->anchor[e] = anchor;
    }
    es->board[at] = 0;
    return best;
}

/*
 * A play that leaves its player one tile, bounded without playing it: the opponent may pass to the
 * end, so the play is worth at most its score and then the most that last tile can make alone,
 * going out or kept to the end (what solo_value finds for one tile). Where the tile could go after
 * the play is read from its best squares now (top): a square the play changes (one of its own, or
 * the first empty square past a run of tiles through one of them, in each direction) is counted
 * at its bound (one_tile_most_at, with the play on the board), every other square is as it was.
 * The positions after such plays, each valued by its best alone, were the commonest of the
 * endgames that took longest (a side with three tiles against a side stuck with one:
 * docs/endgame.md); refuted here they cost neither a table probe nor their cross-sets. A result
 * above `limit` may be less than the bound: the squares left once a line passes it are not read.
 */
static int32_t last_tile_bound(gd_endgame_state *es, const gd_move *m, uint32_t tile, const solo_top *top,
                               int32_t opponent, int32_t out_bonus, int32_t limit)
{
    const gd_rules *rules = es->rules;
    const uint32_t cols = rules->cols, stride = m->direction == GD_ACROSS ? 1 : cols;
    /* the play's own squares first, then the squares past the runs through them */
    uint32_t changed[5 * GD_MAX_DIM], placed = 0;
    for (uint32_t k = 0, sq = m->row * cols + m->col; k < m->length; k++, sq += stride)
        if (!(m->word[k] & GD_ON_BOARD_FLAG)) {
            es->board[sq] = m->word[k];
            changed[placed++] = sq;
        }
    uint32_t count = placed;
    for (uint32_t i = 0; i < placed; i++) squares_past_runs(es, changed[i], changed, &count);
    /* the best square the play leaves as it was, or, when it touches all SOLO_TOP, at most the last */
    int32_t best = best_elsewhere(top, changed, count);
    if (best < 0 && top->count == SOLO_TOP) best = top->score[SOLO_TOP - 1];
    /* once a line passes the limit the bound cannot refute the play: the rest is not read (and
     * the result is only known to be above the limit) */
    for (uint32_t i = placed; i < count && !(best >= 0 && m->score + best + out_bonus > limit); i++) {
        const int32_t most = one_tile_most_at(es, changed[i], tile);
        if (most > best) best = most;
    }
    for (uint32_t i = 0; i < placed; i++) es->board[changed[i]] = 0;
    const int32_t kept_to_end = opponent - rules->values[tile]; /* (values[0]: a blank's) */
    return m->score + (best >= 0 && best + out_bonus > kept_to_end ? best + out_bonus : kept_to_end);
}

/* A tile's best squares now, kept for the plays of one position that leave that tile. */
#define LAST_TOPS 4
typedef struct last_top {
    uint32_t tile;
    solo_top top;
} last_top;

/* last_tile_bound for play m of player p (the player to move), which leaves it one tile. */
static int32_t last_tile_bound_of(gd_endgame_state *es, const gd_workspace *ws, const gd_move *m, uint32_t p,
                                  last_top *tops, uint32_t *top_count, int32_t limit)
{
    const gd_rules *rules = es->rules;
    uint8_t left[64];
    memcpy(left, es->rack[p], sizeof left);
    for (unsigned k = 0; k < m->length; k++)
        if (!(m->word[k] & GD_ON_BOARD_FLAG)) left[m->word[k] & GD_BLANK_FLAG ? 0 : m->word[k] & 63u]--;
    uint32_t tile = 0;
    while (tile < rules->alphabet_size && !left[tile]) tile++;
    const solo_top *top = NULL;
    for (uint32_t i = 0; i < *top_count && !top; i++)
        if (tops[i].tile == tile) top = &tops[i].top;
    solo_top own;
    if (!top) {
        solo_top *fresh = *top_count < LAST_TOPS ? &tops[*top_count].top : &own;
        solo_top_of(es, ws, tile, fresh);
        if (*top_count < LAST_TOPS) tops[(*top_count)++].tile = tile;
        top = fresh;
    }
    const int32_t opponent = rack_value(es, 1 - p);
    return last_tile_bound(es, m, tile, top, opponent, (rules->going_out_bonus + rules->going_out_penalty) * opponent,
                           limit);
}

/* The best the player to move (holding `held` tiles, at most SOLO_TILES) can make of its tiles if
 * the opponent passes to the end (see above), as far as `limit` asks: a value above the limit is
 * the value of a line (the best is at least that: the search goes on at once); one at most the
 * limit is at least the best. INFINITE_VALUE when its plays do not fit the move stack from `base`. */
static int32_t solo_value(gd_endgame_state *es, uint32_t wsi, size_t base, uint32_t held, int32_t limit)
{
    const gd_rules *rules = es->rules;
    const uint32_t p = es->to_move;
    gd_workspace *ws = &es->workspace[wsi];
    const int32_t opponent = rack_value(es, 1 - p), own = rack_value(es, p);
    const int32_t out_bonus = (rules->going_out_bonus + rules->going_out_penalty) * opponent;
    int32_t best = opponent - own; /* both pass to the end */
    if (best > limit) return best;
    uint32_t tiles[SOLO_TILES], n = 0;
    for (uint32_t c = 0; c <= rules->alphabet_size; c++)
        for (uint32_t k = 0; k < es->rack[p][c] && n < SOLO_TILES; k++) tiles[n++] = c;
    solo_top top[SOLO_TILES];
    if (held == 1) {
        solo_top_of(es, ws, tiles[0], &top[0]);
        return top[0].count && top[0].score[0] + out_bonus > best ? top[0].score[0] + out_bonus : best;
    }
    /* each tile's plays alone, listed once (as the one-tile lister lists them): its best squares
     * are read from them, and the lines of one tile then the other go through them */
    size_t room = es->move_capacity > base ? es->move_capacity - base : 0, counts[SOLO_TILES] = {0, 0};
    gd_move *plays[SOLO_TILES] = {es->moves + base, es->moves + base};
    for (uint32_t i = 0; i < SOLO_TILES && !(i == 1 && tiles[1] == tiles[0]); i++) {
        plays[i] += counts[0]; /* the second list after the first */
        uint8_t single[64] = {0};
        single[tiles[i]] = 1;
        if (one_tile_plays(es, ws, single, plays[i], room - counts[0], &counts[i]) != GD_OK) {
            es->error.message[0] = '\0';
            return INFINITE_VALUE;
        }
        solo_top_from(plays[i], counts[i], rules->cols, &top[i]);
    }
    if (tiles[1] == tiles[0]) top[1] = top[0]; /* the second tile's plays are the first's */
    /* one tile's best play, the other kept to the end: lines the lists hold, which often pass the
     * limit before anything costlier is asked */
    for (uint32_t i = 0; i < SOLO_TILES; i++) {
        const int32_t kept = tiles[1 - i] ? rules->values[tiles[1 - i]] : rules->values[0];
        if (top[i].count && top[i].score[0] + opponent - kept > best) best = top[i].score[0] + opponent - kept;
    }
    if (best > limit) return best;
    /* both tiles at once: the best play that goes out */
    gd_move both;
    if (gd_generate_horizon_best(es->lex, rules, es->board, ws, es->rack[p], opponent, 1, &both, &es->error) != GD_OK) {
        es->error.message[0] = '\0';
        return INFINITE_VALUE;
    }
    if (both.kind == GD_PLAY && both.tiles_placed == 2 && both.score + out_bonus > best) best = both.score + out_bonus;
    if (best > limit) return best;
    int32_t most = best; /* the most the lines not found exactly can be worth */
    /* one tile, then the other */
    for (uint32_t first_tile = 0; first_tile < SOLO_TILES; first_tile++) {
        if (first_tile == 1 && tiles[1] == tiles[0]) break;
        const uint32_t other = 1 - first_tile;
        for (size_t i = 0; i < counts[first_tile]; i++) {
            const gd_move *m = &plays[first_tile][i];
            uint32_t at, step;
            placement(m, rules->cols, &at, &step);
            uint8_t code = 0;
            for (unsigned k = 0; k < m->length; k++)
                if (!(m->word[k] & GD_ON_BOARD_FLAG)) code = m->word[k];
            int32_t after_most;
            const int32_t after = one_tile_best_after(es, ws, &top[other], at, code, tiles[other],
                                                      limit - m->score - out_bonus, &after_most);
            int32_t then = opponent - (own - gd_tile_value(rules, code)); /* the other kept to the end */
            int32_t then_most = then;
            if (after >= 0 && after + out_bonus > then) then = after + out_bonus;
            if (after_most >= 0 && after_most + out_bonus > then_most) then_most = after_most + out_bonus;
            if (m->score + then > best) best = m->score + then;
            if (best > limit) return best;
            if (m->score + then_most > most) most = m->score + then_most;
        }
    }
    return most > best ? most : best;
}

#ifdef GD_ENDGAME_CROSS_CHECK
/* Built for the sanitizer tests: the player's best alone found by playing every line out, each
 * play put on the board and the next plays generated after it (workspace[wsi] read, the ones
 * after it written: a child's workspace is made again from its parent's before it is used). */
static int32_t solo_brute(gd_endgame_state *es, uint32_t wsi, size_t base)
{
    const gd_rules *rules = es->rules;
    const uint32_t p = es->to_move, held = tiles_of(es->rack[p], rules->alphabet_size);
    const int32_t opponent = rack_value(es, 1 - p);
    int32_t best = opponent - rack_value(es, p);
    size_t room = es->move_capacity > base ? es->move_capacity - base : 0, count = 0;
    gd_move *moves = es->moves + base;
    if (wsi + 1 > GD_ENDGAME_MAX_PLY ||
        gd_generate(es->lex, rules, es->board, &es->workspace[wsi], es->rack[p], 0, moves, room, &count, &es->error) ||
        count > room) {
        es->failed = gd_set_error(&es->error, GD_ERR_NOMEM, 0, "no room to check the player's best alone");
        return INFINITE_VALUE;
    }
    for (size_t i = 0; i < count && !es->failed; i++) {
        const gd_move *m = &moves[i];
        int32_t v = m->score + (rules->going_out_bonus + rules->going_out_penalty) * opponent;
        put(es, m, p);
        if (m->tiles_placed < held) {
            gd_workspace_copy_squares(&es->workspace[wsi + 1], &es->workspace[wsi]);
            if (gd_update_after_play(es->lex, rules, es->board, &es->workspace[wsi + 1], m, &es->error))
                es->failed = GD_ERR_ARGUMENT;
            else
                v = m->score + solo_brute(es, wsi + 1, base + count);
        }
        take_back(es, m, p);
        if (v > best) best = v;
    }
    return best;
}

/* Built for the sanitizer tests: the one-tile plays against the generator's, move for move. */
static int cross_check_one_tile(gd_endgame_state *es, const gd_workspace *ws, const uint8_t *rack,
                                const gd_move *listed, size_t count, size_t base)
{
    size_t room = es->move_capacity > base ? es->move_capacity - base : 0, generated = 0;
    gd_move *theirs = es->moves + base;
    int rc = gd_generate(es->lex, es->rules, es->board, ws, rack, 0, theirs, room, &generated, &es->error);
    if (rc || generated > room) return rc ? rc : GD_OK;
    if (generated != count)
        return gd_set_error(&es->error, GD_ERR_ARGUMENT, 0, "one-tile plays: %zu listed, the generator %zu", count,
                            generated);
    for (size_t i = 0; i < count; i++) {
        int found = 0;
        for (size_t j = 0; j < generated && !found; j++)
            found = same_move(&listed[i], &theirs[j]) && listed[i].score == theirs[j].score &&
                    listed[i].tiles_placed == theirs[j].tiles_placed;
        if (!found)
            return gd_set_error(&es->error, GD_ERR_ARGUMENT, 0, "one-tile play %zu (%u,%u) is not the generator's", i,
                                listed[i].row, listed[i].col);
    }
    return GD_OK;
}
#endif

#ifdef GD_ENDGAME_CROSS_CHECK
/* Built for the sanitizer tests: the horizon's best move against the best of every move (with
 * going_out_first, the best that goes out when one does). */
static int cross_check_horizon(gd_endgame_state *es, const gd_move *found, int going_out_first, uint32_t ply,
                               uint32_t depth, uint32_t wsi, size_t base, uint32_t held)
{
    size_t room = es->move_capacity > base ? es->move_capacity - base : 0, generated = 0;
    gd_move *all = es->moves + base;
    int rc = gd_generate(es->lex, es->rules, es->board, &es->workspace[wsi], es->rack[es->to_move], 0, all, room,
                         &generated, &es->error);
    if (rc || generated + 1 > room) return rc;
    memset(&all[generated], 0, sizeof all[generated]);
    all[generated++].kind = GD_PASS;
    int exact, searched, any_out = 0;
    int32_t most = -INFINITE_VALUE, most_out = -INFINITE_VALUE;
    for (size_t i = 0; i < generated; i++) {
        int32_t v = try_move(es, &all[i], ply, depth, -INFINITE_VALUE, INFINITE_VALUE, wsi, base + generated, held,
                             &exact, &searched);
        if (v > most) most = v;
        if (all[i].kind == GD_PLAY && all[i].tiles_placed == held) {
            any_out = 1;
            if (v > most_out) most_out = v;
        }
    }
    const int32_t want = going_out_first && any_out ? most_out : most;
    const int32_t v = try_move(es, found, ply, depth, -INFINITE_VALUE, INFINITE_VALUE, wsi, base, held, &exact,
                               &searched);
    if (v != want || (going_out_first && any_out && found->tiles_placed != held))
        return gd_set_error(&es->error, GD_ERR_ARGUMENT, 0, "horizon: the move found is worth %d, the best %d",
                            (int)v, (int)want);
    return GD_OK;
}
#endif

/* Moves picked one by one before the rest are sorted. */
#define EAGER_PICKS 4
/* Order keys: going out first, then tiles played, then their worth (below GD_MAX_TILE_VALUE x 32). */
#define GOING_OUT_FIRST 0x20000000
#define TILE_ORDER 0x400000

/* Bring the best of moves[from..count) to moves[from], in the order gd_sort_moves gives. */
static void pick_best(gd_move *moves, size_t from, size_t count)
{
    size_t best = from;
    for (size_t j = from + 1; j < count; j++)
        if (gd_move_better(&moves[j], &moves[best], 1)) best = j;
    if (best != from) {
        gd_move t = moves[from];
        moves[from] = moves[best];
        moves[best] = t;
    }
}

/*
 * Move m, as it would be played in this position by the player to move p: its squares as they
 * were (on-board letters still there, the others empty, nothing just before or after the word),
 * its tiles on p's rack, each new tile's cross-word a word (the workspace's cross-sets), and the
 * play connected to the tiles on the board. The main word is m's own, a word of the lexicon. The
 * score is worked out again from the workspace, since cross-words may have grown. A one-tile play
 * is recorded as the one-tile lister records it. 0 when m cannot be played here.
 */
static int play_here(const gd_endgame_state *es, const gd_workspace *ws, const gd_move *m, uint32_t p, gd_move *out)
{
    if (m->kind == GD_PASS) {
        *out = *m;
        return 1;
    }
    if (m->kind != GD_PLAY || m->length < 1) return 0;
    const gd_rules *rules = es->rules;
    const uint32_t cols = rules->cols, d = m->direction;
    const uint32_t step = d == GD_ACROSS ? 1 : cols, limit = d == GD_ACROSS ? cols : rules->rows;
    const uint32_t first = m->row * cols + m->col, start = d == GD_ACROSS ? m->col : m->row;
    if (start + m->length > limit) return 0;
    if (start > 0 && es->board[first - step]) return 0;
    if (start + m->length < limit && es->board[first + m->length * step]) return 0;
    uint8_t need[64] = {0};
    int32_t main_sum = 0, word_multiplier = 1, cross = 0;
    uint32_t placed = 0, single = 0;
    uint8_t single_code = 0;
    int connected = 0;
    for (uint32_t k = 0; k < m->length; k++) {
        const uint32_t s = first + k * step;
        const uint8_t code = m->word[k];
        if (code & GD_ON_BOARD_FLAG) {
            if (es->board[s] != (uint8_t)(code & ~GD_ON_BOARD_FLAG)) return 0;
            main_sum += gd_tile_value(rules, es->board[s]);
            connected = 1;
            continue;
        }
        if (es->board[s]) return 0;
        const uint32_t c = (code & GD_BLANK_FLAG) ? 0 : (code & 63u);
        if (++need[c] > es->rack[p][c]) return 0;
        if (!((ws->cross_set[d][s] >> (code & 63u)) & 1u)) return 0;
        const int32_t v = gd_tile_value(rules, code) * rules->letter_multiplier[s];
        main_sum += v;
        word_multiplier *= rules->word_multiplier[s];
        if (ws->has_cross[d][s]) {
            cross += (ws->cross_score[d][s] + v) * rules->word_multiplier[s];
            connected = 1;
        }
        placed++;
        single = s;
        single_code = code;
    }
    if (!connected || placed == 0) return 0;
    if (placed == 1) {
        /* the one-tile lister's record of that tile on that square (across when it forms an across
         * word), which it lists when the letter fits both ways */
        const uint64_t fits_both = ws->cross_set[GD_ACROSS][single] & ws->cross_set[GD_DOWN][single];
        if (!((fits_both >> (single_code & 63u)) & 1u)) return 0;
        one_tile_play(es, ws, single, single_code, out);
        return 1;
    }
    *out = *m;
    out->score = main_sum * word_multiplier + cross + (placed == rules->rack_size ? rules->bingo_bonus : 0);
    out->equity = 100 * out->score;
    out->tiles_placed = (uint8_t)placed;
    return 1;
}

/* The first square a play puts a tile on, and how far apart its tiles are (0 for one tile). */
static void placement(const gd_move *m, uint32_t cols, uint32_t *first, uint32_t *step)
{
    const uint32_t stride = m->direction == GD_ACROSS ? 1 : cols;
    uint32_t s = m->row * cols + m->col, found = 0;
    *first = 0;
    *step = 0;
    for (unsigned k = 0; k < m->length; k++, s += stride) {
        if (m->word[k] & GD_ON_BOARD_FLAG) continue;
        if (found++ == 0) *first = s;
        else *step = stride;
    }
}

/* Whether two moves put the same tiles on the same squares: a play of one tile may be listed
 * across by one generator and down by another. */
static int same_placement(const gd_endgame_state *es, const gd_move *a, const gd_move *b)
{
    if (a->kind != b->kind || a->kind != GD_PLAY) return a->kind == b->kind;
    if (a->tiles_placed != b->tiles_placed) return 0;
    if (a->tiles_placed != 1) return same_move(a, b);
    uint32_t fa, sa, fb, sb;
    placement(a, es->rules->cols, &fa, &sa);
    placement(b, es->rules->cols, &fb, &sb);
    uint8_t ta = 0, tb = 0;
    for (unsigned k = 0; k < a->length; k++)
        if (!(a->word[k] & GD_ON_BOARD_FLAG)) ta = a->word[k];
    for (unsigned k = 0; k < b->length; k++)
        if (!(b->word[k] & GD_ON_BOARD_FLAG)) tb = b->word[k];
    return fa == fb && ta == tb;
}

/* Whether the root may try m (gd_endgame_root_moves). */
static int root_allows(const gd_endgame_state *es, const gd_move *m)
{
    int listed = 0;
    for (uint32_t i = 0; i < es->root_count && !listed; i++) listed = same_placement(es, m, &es->root_moves[i]);
    return es->root_exclude ? !listed : listed;
}

/* Remember m as a move that cut at this ply. */
static void add_killer(gd_endgame_state *es, uint32_t ply, const gd_move *m)
{
    if (same_move(m, &es->killer[ply][0])) return;
    es->killer[ply][1] = es->killer[ply][0];
    es->killer[ply][0] = *m;
}

static int32_t search(gd_endgame_state *es, uint32_t ply, uint32_t depth, int32_t alpha, int32_t beta, uint32_t wsi,
                      size_t base, int *exact)
{
    es->pv_length[ply] = 0;
    *exact = 0;
    es->nodes++;
    const uint64_t key = es->hash ^ scoreless_key(es->scoreless);
    const uint64_t nodes_before = es->nodes;
    /* at a root whose moves are restricted, the table's result (for every move) does not hold */
    const int restricted = ply == 0 && (es->root_count > 0 || !es->root_exclude);
    eg_entry stored;
    const eg_entry *entry = probe(es, key, &stored) ? &stored : NULL;
    gd_move hint;
    int hinted = 0;
    if (entry) {
        if (ply > 0 && entry->depth >= depth) {
            int usable = entry->flag == FLAG_EXACT || (entry->flag == FLAG_LOWER && entry->value >= beta) ||
                         (entry->flag == FLAG_UPPER && entry->value <= alpha);
            if (usable) {
                *exact = entry->depth == EXACT_DEPTH;
                return entry->value;
            }
        }
        if (entry->has_move) {
            entry_move(entry, &hint);
            hinted = !restricted || root_allows(es, &hint);
        }
    }
    /* the limit counts only positions the table did not answer: a search cut short and started
     * again finds its finished work there, so each call gets further, however the work falls */
    es->visited++;
    if (++es->searched > es->node_limit) {
        es->aborted = 1;
        return 0;
    }
    const int busy = es->shared && depth >= DEFER_DEPTH ? mark_busy(es, key) : 0;
    const int32_t value = search_moves(es, ply, depth, alpha, beta, wsi, base, exact, key, nodes_before, restricted,
                                       hinted ? &hint : NULL);
    if (busy) clear_busy(es, key, busy);
    return value;
}

/* Whether the position after move m (of the player to move) is being searched by another thread. */
static int child_busy(gd_endgame_state *es, const gd_move *m)
{
    const int32_t score = m->kind == GD_PLAY ? m->score : 0;
    const uint32_t scoreless = score == 0 ? es->scoreless + 1 : 0;
    if (m->kind == GD_PLAY) put(es, m, es->to_move);
    const uint64_t key = es->hash ^ SIDE_KEY ^ scoreless_key(scoreless);
    if (m->kind == GD_PLAY) take_back(es, m, es->to_move);
    return is_busy(es, key);
}

/* solo_value, and in the sanitizer build the best found by playing every line out, held to it:
 * at most a value within the limit, at least one beyond it. */
static int32_t solo_checked(gd_endgame_state *es, uint32_t wsi, size_t base, uint32_t held, int32_t limit)
{
    const int32_t solo = solo_value(es, wsi, base, held, limit);
#ifdef GD_ENDGAME_CROSS_CHECK
    if (solo != INFINITE_VALUE) {
        const int32_t brute = solo_brute(es, wsi, base);
        if (!es->failed && (solo <= limit ? brute > solo : brute < solo))
            es->failed = gd_set_error(&es->error, GD_ERR_ARGUMENT, 0,
                                      "the player's best alone: %d found (limit %d), %d by playing every line out",
                                      (int)solo, (int)limit, (int)brute);
    }
#endif
    return solo;
}

/* Whether bounds from a best alone may be used at this position: every line from it ends before
 * the depth does (they bound the value of the game, not a guess), it is not a root whose moves are
 * restricted, and its search has visited GD_ENDGAME_SOLO_AFTER positions. An endgame solved in a few
 * thousand positions (the pre-endgame's, most of the benchmark's) is settled sooner by its plays,
 * most of which go out, than by the bounds (measured: a fifth fewer pre-endgame win tests in the
 * same time when asked from the first); checked first, as every position comes here. */
static int solo_bounds_hold(const gd_endgame_state *es, uint32_t ply, uint32_t depth, int restricted)
{
    const gd_rules *rules = es->rules;
    const uint64_t asked_after = GD_ENDGAME_SOLO_AFTER; /* (a variable: 0 in the sanitizer build) */
    if (es->visited < asked_after || ply == 0 || restricted || rules->scoreless_turns == 0) return 0;
    const uint32_t letters = rules->alphabet_size;
    const uint32_t held = tiles_of(es->rack[es->to_move], letters), other = tiles_of(es->rack[1 - es->to_move], letters);
    const uint32_t lines = (held + other + 1) * rules->scoreless_turns;
    return depth > lines + 1 && ply + lines + 1 < GD_ENDGAME_MAX_PLY;
}

/*
 * The bounds the best alone (solo_value) sets, where every line from the position ends before the
 * depth does, so that they bound the value searched: the player to move, holding one or two tiles,
 * gains at most its best alone (the opponent may pass to the end), and gains at least what its
 * pass leaves when the opponent holds one or two: the opponent's best alone after it. A bound
 * beyond the window settles the position: 1 with *value set (and stored as a bound on the exact
 * value), 0 when none does, -1 when the search failed. Each is skipped when stopping at once
 * (both sides holding their tiles to the end, one of the lines alone) shows it cannot settle.
 */
static int solo_cut(gd_endgame_state *es, uint32_t ply, uint32_t depth, int32_t alpha, int32_t beta, uint32_t wsi,
                    size_t base, int *exact, uint64_t key, uint64_t nodes_before, int restricted, const gd_move *hint,
                    int32_t *value)
{
    const gd_rules *rules = es->rules;
    const uint32_t p = es->to_move, letters = rules->alphabet_size;
    const int allowed = !es->solo_skip;
    es->solo_skip = 0;
    if (!allowed || !solo_bounds_hold(es, ply, depth, restricted)) return 0;
    const uint32_t held = tiles_of(es->rack[p], letters), other = tiles_of(es->rack[1 - p], letters);
    const int32_t own_value = rack_value(es, p), other_value = rack_value(es, 1 - p);
    const int upper = held <= SOLO_TILES && other_value - own_value <= alpha;
    const int lower = other <= SOLO_TILES && es->scoreless + 1 < rules->scoreless_turns && other_value - own_value >= beta;
    if (!upper && !lower) return 0;
    if (!workspace_ready(es, wsi)) return -1;
    int32_t bound = INFINITE_VALUE;
    int fails_low = 0;
    if (upper) {
        bound = solo_checked(es, wsi, base, held, alpha);
        fails_low = bound <= alpha;
    }
    if (!fails_low && lower && !es->failed) {
        es->to_move = 1 - p; /* the opponent's best alone on this board, after the pass */
        const int32_t solo = solo_checked(es, wsi, base, other, -beta);
        es->to_move = p;
        bound = solo == INFINITE_VALUE ? INFINITE_VALUE : -solo;
        if (bound < beta) return es->failed ? -1 : 0;
    } else if (!fails_low) {
        return es->failed ? -1 : 0;
    }
    if (es->failed) return -1;
#ifdef GD_ENDGAME_CROSS_CHECK
    /* the sanitizer build searches the position anyway: it must not be worth more (or less) */
    es->solo_skip = 1;
    const int32_t v = search_moves(es, ply, depth, fails_low ? bound : bound - 1, fails_low ? bound + 1 : bound, wsi,
                                   base, exact, key, nodes_before, restricted, hint);
    if (es->aborted || es->failed) return -1;
    if (fails_low ? v > bound : v < bound) {
        es->failed = gd_set_error(&es->error, GD_ERR_ARGUMENT, 0, "a position bounded by a best alone at %d is worth %d",
                                  (int)bound, (int)v);
        return -1;
    }
#else
    (void)hint;
    (void)nodes_before;
#endif
    es->stats.solo_cuts++;
    *exact = 1;
    gd_move pass;
    memset(&pass, 0, sizeof pass);
    pass.kind = GD_PASS;
    if (!fails_low) set_pv(es, ply, &pass, 0);
    store(es, key, 0, bound, EXACT_DEPTH, fails_low ? FLAG_UPPER : FLAG_LOWER, fails_low ? NULL : &pass);
    *value = bound;
    return 1;
}

/* search() once the table has not answered: the hint (the table's move) first, then the killers,
 * then every move (or the horizon's best); the result stored. */
static int32_t search_moves(gd_endgame_state *es, uint32_t ply, uint32_t depth, int32_t alpha, int32_t beta,
                            uint32_t wsi, size_t base, int *exact, uint64_t key, uint64_t nodes_before, int restricted,
                            const gd_move *hint)
{
    const gd_rules *rules = es->rules;
    const uint32_t p = es->to_move;
    const int hinted = hint != NULL;
    const uint32_t held = tiles_of(es->rack[p], rules->alphabet_size);
    const int32_t alpha0 = alpha;
    int32_t best = -INFINITE_VALUE;
    gd_move best_move;
    memset(&best_move, 0, sizeof best_move);
    int all_exact = 1, cut = 0, horizon_best = 0;
    /* the moves tried before the position's moves are listed: the table's, then the killers */
    gd_move tried[3];
    uint32_t tried_count = 0;

    /* the remembered best move first: when it cuts, the position's moves are never generated */
    if (hinted) {
        int child_exact, searched;
        int32_t v = try_move(es, hint, ply, depth, alpha, beta, wsi, base, held, &child_exact, &searched);
        if (es->aborted || es->failed) return 0;
        if (!child_exact) all_exact = 0;
        best = v;
        best_move = *hint;
        set_pv(es, ply, hint, searched);
        if (v > alpha) alpha = v;
        cut = alpha >= beta;
        tried[tried_count++] = *hint;
        if (cut) es->stats.hint_cuts++;
    }

    /* one or two tiles on a side, and every line from here ends before the depth does: a bound
     * from that side's best alone may settle the position (solo_cut), once the table's move has
     * not (asking costs the position's cross-sets, which a cut by that move often spares) and has
     * not raised alpha */
    if (!cut && best <= alpha0) {
        int32_t settled;
        const int cut_here = solo_cut(es, ply, depth, alpha0, beta, wsi, base, exact, key, nodes_before, restricted,
                                      hint, &settled);
        if (cut_here) return cut_here < 0 ? 0 : settled;
    }

    /* then the moves that cut at this ply elsewhere, when they can be played here */
    for (int k = 0; k < 2 && !cut; k++) {
        const gd_move *killer = &es->killer[ply][k];
        if (killer->length == 0 && killer->kind != GD_PASS) continue; /* none yet */
        if (hinted && same_move(killer, hint)) continue;
        if (!workspace_ready(es, wsi)) return 0;
        gd_move m;
        if (!play_here(es, &es->workspace[wsi], killer, p, &m)) continue;
        /* only a killer that goes out: trying any other first cost up to ten times the positions */
        if (!(m.kind == GD_PLAY && m.tiles_placed == held)) continue;
        if (restricted && !root_allows(es, &m)) continue;
        int duplicate = 0;
        for (uint32_t i = 0; i < tried_count; i++) duplicate |= same_move(&m, &tried[i]);
        if (duplicate) continue;
        es->stats.killer_tries++;
        int child_exact, searched;
        int32_t v = try_move(es, &m, ply, depth, alpha, beta, wsi, base, held, &child_exact, &searched);
        if (es->aborted || es->failed) return 0;
        if (!child_exact) all_exact = 0;
        tried[tried_count++] = m;
        if (v > best) {
            best = v;
            best_move = m;
            set_pv(es, ply, &m, searched);
            if (v > alpha) alpha = v;
            cut = alpha >= beta;
            if (cut) es->stats.killer_cuts++;
        }
    }

    if (!cut && !restricted && held >= 2 && (depth <= 1 || ply + 1 >= GD_ENDGAME_MAX_PLY) &&
        es->scoreless + 1 < rules->scoreless_turns) {
        /* at the horizon every move is valued at once (by going out, or by the guess), so only the
         * best one counts: the generator finds it without listing the others (a play that scores
         * nothing cannot end the game here, so none is valued otherwise) */
        if (!workspace_ready(es, wsi)) return 0;
        es->stats.horizon_generations++;
        /* a play that goes out first, if there is one: when it cuts, its value is exact (as when
         * every move was tried, going out first); if not, the best move by the guess */
        gd_move m;
        int child_exact = 0, searched = 0, rc = GD_OK;
        int32_t v = -INFINITE_VALUE;
        for (int going_out_first = 1; going_out_first >= 0 && v < beta; going_out_first--) {
            rc = gd_generate_horizon_best(es->lex, rules, es->board, &es->workspace[wsi], es->rack[p],
                                          rack_value(es, 1 - p), going_out_first, &m, &es->error);
#ifdef GD_ENDGAME_CROSS_CHECK
            if (!rc) rc = cross_check_horizon(es, &m, going_out_first, ply, depth, wsi, base, held);
#endif
            if (rc) {
                es->failed = rc;
                return 0;
            }
            const int goes_out = m.kind == GD_PLAY && m.tiles_placed == held;
            v = try_move(es, &m, ply, depth, alpha, beta, wsi, base, held, &child_exact, &searched);
            if (es->aborted || es->failed) return 0;
            if (v > best) {
                best = v;
                best_move = m;
                set_pv(es, ply, &m, searched);
            }
            all_exact = child_exact && v >= beta; /* the others may be worth no more, but by the guess */
            if (!goes_out) break; /* none goes out: m is the best of all */
        }
        horizon_best = 1;
    }
    if (!cut && !horizon_best) {
        size_t count = 0;
        gd_move *moves = es->moves + base;
        size_t room = es->move_capacity > base ? es->move_capacity - base : 0;
        if (room < 1) {
            es->failed = stack_full(es);
            return 0;
        }
        if (!workspace_ready(es, wsi)) return 0;
        es->stats.generations++;
        int rc = held == 1 ? one_tile_plays(es, &es->workspace[wsi], es->rack[p], moves, room - 1, &count)
                           : gd_generate(es->lex, rules, es->board, &es->workspace[wsi], es->rack[p], 0, moves, room - 1,
                                         &count, &es->error);
#ifdef GD_ENDGAME_CROSS_CHECK
        if (!rc && held == 1) rc = cross_check_one_tile(es, &es->workspace[wsi], es->rack[p], moves, count, base + count);
#endif
        if (rc) {
            es->failed = rc;
            return 0;
        }
        if (count > room - 1) {
            es->failed = gd_set_error(&es->error, GD_ERR_NOMEM, 0,
                                      "a position has %zu plays, more than the %zu left in the move stack of %u",
                                      count, room - 1, es->move_capacity);
            return 0;
        }
        /* order: plays that go out, then by the tiles they play (how many, then what they are
         * worth: tiles left on a rack count against it at the end), then by score; the pass last */
        gd_move *pass = &moves[count];
        memset(pass, 0, sizeof *pass);
        pass->kind = GD_PASS;
        pass->equity = -INFINITE_VALUE;
        for (size_t i = 0; i < count; i++) {
            const gd_move *m = &moves[i];
            int32_t worth = 0;
            for (unsigned k = 0; k < m->length; k++)
                if (!(m->word[k] & GD_ON_BOARD_FLAG)) worth += gd_tile_value(rules, m->word[k]);
            moves[i].equity = (m->tiles_placed == held ? GOING_OUT_FIRST : 0) + (int32_t)m->tiles_placed * TILE_ORDER + worth;
        }
        count++;
        /* the opponent's going-out plays, where its reply would be searched, listed once a move
         * has failed to cut (most positions cut at once): the bound each sets on a move
         * (out_bound) refutes most of the moves left unplayed */
        out_threat threats[OUT_THREATS];
        uint32_t threat_count = 0;
        int threats_listed = !(ply > 0 && depth >= 2 && ply + 1 < GD_ENDGAME_MAX_PLY);
        /* in a shared search, a move whose position another thread is searching waits for a
         * second pass (ABDADA): when it comes, the other's result is usually in the table */
        size_t deferred[DEFER_MAX];
        size_t deferred_count = 0;
        const int defer = es->shared && depth > DEFER_DEPTH;
        /* plays that leave one tile: bounded by that tile's best alone after them (last_tile_bound),
         * its best squares now found once per position and tile */
        const int last_tile_bounds = held >= 2 && solo_bounds_hold(es, ply, depth, restricted);
        last_top last_tops[LAST_TOPS];
        uint32_t last_top_count = 0;
        for (size_t pass = 0; pass < 2 && !cut; pass++)
        for (size_t j = 0; j < (pass ? deferred_count : count); j++) {
            const size_t i = pass ? deferred[j] : j;
            if (pass == 0) {
                /* most positions cut after a move or two: pick those few first, sort the rest only
                 * when the search gets that far (the order is the full sort's either way; the
                 * deferred moves' places, before i, do not move) */
                if (i < EAGER_PICKS)
                    pick_best(moves, i, count);
                else if (i == EAGER_PICKS)
                    gd_sort_moves(moves + i, count - i, 1);
                const gd_move *m = &moves[i];
                int duplicate = 0;
                for (uint32_t t = 0; t < tried_count; t++) duplicate |= same_move(m, &tried[t]);
                if (duplicate) continue;
                if (restricted && !root_allows(es, m)) continue;
                if (defer && best != -INFINITE_VALUE && deferred_count < DEFER_MAX && child_busy(es, m)) {
                    deferred[deferred_count++] = i;
                    es->stats.deferred++;
                    continue;
                }
            }
            const gd_move *m = &moves[i];
            if (!threats_listed && (j > 0 || best != -INFINITE_VALUE)) {
                threats_listed = 1;
                threat_count = out_threats(es, &es->workspace[wsi], 1 - p, moves + count, room - count, threats);
            }
            /* refuted unplayed by a bound that cannot reach alpha: the opponent's going out
             * (out_bound), or, for a play that leaves one tile, that tile's best alone */
            int32_t bound = INFINITE_VALUE;
            const char *bounded_by = "the opponent's going out";
            if (threat_count && !(m->kind == GD_PLAY && m->tiles_placed == held) &&
                !(m->kind != GD_PLAY || m->score == 0 ? es->scoreless + 1 >= rules->scoreless_turns : 0)) {
                bound = out_bound(es, m, p, threats, threat_count);
                es->stats.out_bound_cuts += bound <= alpha;
            }
            if (bound > alpha && last_tile_bounds && m->kind == GD_PLAY && m->tiles_placed + 1u == held && m->score > 0) {
                bound = last_tile_bound_of(es, &es->workspace[wsi], m, p, last_tops, &last_top_count, alpha);
                bounded_by = "its last tile's best alone";
                es->stats.last_tile_cuts += bound <= alpha;
            }
            if (bound <= alpha) {
#ifdef GD_ENDGAME_CROSS_CHECK
                /* the sanitizer build searches the move anyway: it must not be worth more */
                int check_exact, check_searched;
                const int32_t v = try_move(es, m, ply, depth, bound, bound + 1, wsi, base + count, held, &check_exact,
                                           &check_searched);
                if (es->aborted || es->failed) return 0;
                if (v > bound) {
                    es->failed = gd_set_error(&es->error, GD_ERR_ARGUMENT, 0, "a move bounded by %s at %d is worth %d",
                                              bounded_by, (int)bound, (int)v);
                    return 0;
                }
#else
                (void)bounded_by;
#endif
                if (bound > best) {
                    best = bound;
                    best_move = *m;
                    set_pv(es, ply, m, 0);
                }
                continue;
            }
            int child_exact, searched;
            int32_t v;
            if (best == -INFINITE_VALUE || beta - alpha <= 1) {
                v = try_move(es, m, ply, depth, alpha, beta, wsi, base + count, held, &child_exact, &searched);
            } else {
                /* principal variation search: prove the move no better than the best so far with
                 * a null window, and search it fully only when it is */
                v = try_move(es, m, ply, depth, alpha, alpha + 1, wsi, base + count, held, &child_exact, &searched);
                if (!es->aborted && !es->failed && v > alpha && v < beta)
                    v = try_move(es, m, ply, depth, alpha, beta, wsi, base + count, held, &child_exact, &searched);
            }
            if (es->aborted || es->failed) return 0;
            if (!child_exact) all_exact = 0;
            if (v > best) {
                best = v;
                best_move = *m;
                set_pv(es, ply, m, searched);
                if (v > alpha) alpha = v;
                if (alpha >= beta) {
                    cut = 1;
                    break;
                }
            }
        }
    }
    if (best == -INFINITE_VALUE) {
        /* only at a restricted root: no move it may try */
        es->failed = gd_set_error(&es->error, GD_ERR_EMPTY, 0, "no first move is left to search");
        return 0;
    }
    if (best >= beta) add_killer(es, ply, &best_move);
    *exact = all_exact;
    if (restricted) return best;
    store(es, key, log2_work(es->nodes - nodes_before), best,
          (uint8_t)(all_exact ? EXACT_DEPTH : (depth < EXACT_DEPTH ? depth : EXACT_DEPTH - 1)),
          best <= alpha0 ? FLAG_UPPER : best >= beta ? FLAG_LOWER : FLAG_EXACT, horizon_best ? NULL : &best_move);
    return best;
}

/*
 * A line stops where the search took a position's value from the table. Go on from there by the
 * table's best moves: replay the line on the board, then, while the game goes on and the table
 * knows the position, find its stored move among the position's moves and play it. Everything
 * played is taken back afterwards.
 */
/* Whether play m of player p can go on the board: its squares empty, its tiles on the rack (a
 * stored move is checked before it is replayed, in case two positions share a key). */
static int fits(const gd_endgame_state *es, const gd_move *m, uint32_t p)
{
    if (m->kind != GD_PLAY) return m->kind == GD_PASS;
    const uint32_t cols = es->rules->cols;
    const int across = m->direction == GD_ACROSS;
    uint8_t need[64] = {0};
    for (unsigned k = 0; k < m->length && k < GD_MAX_DIM; k++) {
        uint8_t code = m->word[k];
        if (code & GD_ON_BOARD_FLAG) continue;
        uint32_t s = (m->row + (across ? 0 : k)) * cols + m->col + (across ? k : 0);
        uint32_t c = (code & GD_BLANK_FLAG) ? 0 : (code & 63u);
        if (es->board[s] || ++need[c] > es->rack[p][c]) return 0;
    }
    return 1;
}

static void extend_line(gd_endgame_state *es, gd_endgame_result *out)
{
    const gd_rules *rules = es->rules;
    uint32_t played = 0;
    uint32_t scoreless_before[GD_ENDGAME_MAX_PLY];
    for (;;) {
        const gd_move *m;
        if (played < out->line_length) {
            m = &out->line[played];
        } else {
            /* the line ends here: go on while the game does and the table knows the position */
            if (out->line_length >= GD_ENDGAME_MAX_PLY) break;
            const gd_move *last = played ? &out->line[played - 1] : NULL;
            if (last && last->kind == GD_PLAY && tiles_of(es->rack[1 - es->to_move], rules->alphabet_size) == 0) break;
            if (es->scoreless >= rules->scoreless_turns) break;
            const uint64_t key = es->hash ^ scoreless_key(es->scoreless);
            eg_entry entry;
            gd_move stored;
            if (!probe(es, key, &entry) || !entry.has_move) break;
            entry_move(&entry, &stored);
            if (!fits(es, &stored, es->to_move)) break;
            out->line[out->line_length] = stored;
            m = &out->line[out->line_length++];
        }
        const uint32_t p = es->to_move;
        scoreless_before[played++] = es->scoreless;
        if (m->kind == GD_PLAY) put(es, m, p);
        es->scoreless = (m->kind == GD_PLAY && m->score) ? 0 : es->scoreless + 1;
        es->to_move = 1 - p;
        es->hash ^= SIDE_KEY;
    }
    while (played > 0) {
        played--;
        const gd_move *m = &out->line[played];
        es->to_move = 1 - es->to_move;
        es->hash ^= SIDE_KEY;
        es->scoreless = scoreless_before[played];
        if (m->kind == GD_PLAY) take_back(es, m, es->to_move);
    }
}

int gd_endgame_root_moves(void *state, const gd_move *moves, uint32_t count, uint32_t exclude, gd_error *err)
{
    gd_endgame_state *es = state;
    if (!es || (count && !moves)) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "missing argument");
    if (es->magic != ENDGAME_MAGIC) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "not a started endgame");
    if (count > GD_ENDGAME_MAX_ROOT_MOVES)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "%u first moves: at most %d", count, GD_ENDGAME_MAX_ROOT_MOVES);
    if (!count && !exclude) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "no first move to search");
    for (uint32_t i = 0; i < count; i++) {
        gd_move m;
        if (!workspace_ready(es, 0) || !play_here(es, &es->workspace[0], &moves[i], es->to_move, &m) ||
            !same_move(&m, &moves[i]))
            return gd_set_error(err, GD_ERR_ARGUMENT, 0, "first move %u is not a move of the position", i + 1);
        es->root_moves[i] = m;
    }
    es->root_count = count;
    es->root_exclude = exclude ? 1 : 0;
    return GD_OK;
}

int gd_endgame_search_window(void *state, uint32_t depth, int32_t alpha, int32_t beta, uint64_t node_limit,
                             gd_endgame_result *out, gd_error *err)
{
    gd_endgame_state *es = state;
    if (!es || !out) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "missing argument");
    if (es->magic != ENDGAME_MAGIC) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "not a started endgame");
    if (depth < 1 || depth > GD_ENDGAME_MAX_PLY)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "depth %u: 1 to %d plies", depth, GD_ENDGAME_MAX_PLY);
    if (alpha >= beta || alpha < -INFINITE_VALUE || beta > INFINITE_VALUE)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "window (%d, %d): alpha must be below beta, both within %d",
                            (int)alpha, (int)beta, INFINITE_VALUE);
    es->nodes = 0;
    es->searched = 0;
    es->node_limit = node_limit ? node_limit : UINT64_MAX;
    es->aborted = 0;
    es->failed = 0;
    memset(&es->stats, 0, sizeof es->stats);
    int exact = 0;
    int32_t value = search(es, 0, depth, alpha, beta, 0, 0, &exact);
    out->nodes = es->nodes;
    out->depth = depth;
    out->stats = es->stats;
    if (es->failed) {
        if (err) *err = es->error;
        return es->failed;
    }
    if (es->aborted) {
        out->stopped = 1;
        return GD_OK;
    }
    out->stopped = 0;
    out->value = value;
    out->bound = value <= alpha ? GD_BOUND_UPPER : value >= beta ? GD_BOUND_LOWER : GD_BOUND_EXACT;
    out->complete = (uint32_t)exact;
    out->line_length = es->pv_length[0];
    memcpy(out->line, es->pv[0], es->pv_length[0] * sizeof(gd_move));
    for (uint32_t i = 0; i < out->line_length; i++) out->line[i].equity = 100 * out->line[i].score;
    extend_line(es, out);
    return GD_OK;
}

int gd_endgame_search(void *state, uint32_t depth, uint64_t node_limit, gd_endgame_result *out, gd_error *err)
{
    return gd_endgame_search_window(state, depth, -INFINITE_VALUE, INFINITE_VALUE, node_limit, out, err);
}

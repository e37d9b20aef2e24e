/* preendgame.c — the pre-endgame's model (docs/preendgame.md), exactly, for one move in one world.
 *
 * The player to move knows its rack and the unseen tiles, not how they split between the
 * opponent's rack and the bag. gd_peg_value values one move of the player to move in one world
 * (both racks and the bag given): the expectation over the tiles it draws of what follows. A bag
 * left empty leads to an endgame with both racks known, answered by one null-window endgame search
 * around the spread that ties; a bag still holding tiles leads to the opponent's decision, made
 * over the worlds *it* cannot tell apart: the move with the highest expected outcome over them
 * (weighted by the ways the tiles fall so), the first in equity order among equals. Neither side
 * is clairvoyant, and every line is played to its end. A decision values its candidates in the
 * order that rules them out soonest (the move decided last on the same board first, each one's
 * worlds where those before it lost most first), which changes no decision.
 *
 * Every value is exact: with at most 6 tiles in the bag each probability is a whole number of
 * 1/720ths (a run of draws from n tiles has a multinomial of n for denominator, which divides n!),
 * and an outcome is 0, 1/2 or 1, so values are whole numbers of GD_PEG_UNIT = 1/1440.
 *
 * What has been valued is kept in a table of the caller's (the move values, the decisions and the
 * endgames' outcomes, each by a 128-bit hash of everything it depends on), so a decision is made
 * once however many worlds reach it; an entry may be replaced, and is then recomputed when needed.
 * A call stops when its node limit is reached (GD_PEG_PAUSED: call again to go on, the endgame
 * searches' own table keeping their work) or its budget is spent (GD_PEG_OVER_BUDGET).
 */
#include <string.h>

#include "gaddag_format.h"
#include "tiles.h"
#include "workspace.h"

#define PEG_MAGIC 0x47504547u /* "GPEG" */
#define PEG_CODES 64
#define PEG_MAX_LEVELS 96        /* moves deep: the bag's tiles plus the scoreless turns between */
#define PEG_MULTISET_CAPACITY 16384 /* worlds and draws of the levels being valued, as a stack */
#define PEG_ENDGAME_DEPTH 64
#define PEG_BUCKET 4

enum { ENTRY_EMPTY, ENTRY_VALUE, ENTRY_DECISION, ENTRY_ENDGAME, ENTRY_KILLER };
enum { HALT_NONE, HALT_BUDGET, HALT_PAUSED, HALT_FAILED };

/* One result: a move's value in a world, a decision (the move chosen), or an endgame's outcome. */
typedef struct peg_entry {
    uint64_t k1, k2;
    int32_t value;
    int32_t score;
    uint8_t type;
    uint8_t row, col, direction, length, tiles_placed, kind;
    uint8_t lock; /* the bucket's lock, in its first entry (see locked_bucket) */
    uint8_t word[GD_MAX_DIM];
} peg_entry;
_Static_assert(sizeof(peg_entry) == 64, "a table entry is 64 bytes (gaddag_solver.h says so)");

/* Tiles by code and the number of ways to pick them (a world's or a draw's weight). */
typedef struct peg_multiset {
    uint8_t counts[PEG_CODES];
    uint64_t weight;
    /* a decision's world only: what the candidates valued so far lost in it (weighted), and its
     * place in the heavier-first order (which breaks ties between equal losses) */
    int64_t lost;
    uint32_t place;
} peg_multiset;

/* What a level's move value works with while the levels below it are valued. */
typedef struct peg_frame {
    uint8_t after[GD_MAX_SQUARES];
    uint8_t kept[PEG_CODES], rack[PEG_CODES], left[PEG_CODES], unseen[PEG_CODES];
    uint8_t bag[PEG_CODES]; /* the bag of the world a decision at this level is valuing */
} peg_frame;

typedef struct gd_peg_state {
    uint32_t magic;
    uint32_t move_capacity;
    const gd_lexicon *lex;
    const gd_rules *rules;
    const gd_leaves *leaves;
    void *endgame;
    peg_entry *table;
    uint64_t table_mask;
    uint32_t squares, alphabet;
    /* the call being made */
    uint64_t nodes, endgames, budget, limit;
    int halt;
    int rc; /* the error code when halted by a failure */
    gd_error *err;
    uint32_t move_top, multiset_top;
    gd_game position;
    gd_endgame_result found;
    gd_workspace workspace;
    peg_frame frame[PEG_MAX_LEVELS + 1];
    peg_multiset multisets[PEG_MULTISET_CAPACITY];
    gd_move moves[]; /* move_capacity: the candidates of the decisions being made, as a stack */
} gd_peg_state;

size_t gd_peg_size(uint32_t move_capacity)
{
    return sizeof(gd_peg_state) + (size_t)move_capacity * sizeof(gd_move);
}

/* Set a state up on a table (the checks on the table, the lexicon and the rules are the caller's). */
static int set_up(gd_peg_state *ps, size_t state_size, const gd_lexicon *lex, const gd_rules *rules,
                  const gd_leaves *leaves, void *endgame, peg_entry *table, uint64_t table_mask, gd_error *err)
{
    if (state_size < sizeof *ps + 64 * sizeof(gd_move))
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "a pre-endgame state needs at least %zu bytes, not %zu",
                            sizeof *ps + 64 * sizeof(gd_move), state_size);
    memset(ps, 0, offsetof(gd_peg_state, frame));
    ps->move_capacity = (uint32_t)((state_size - sizeof *ps) / sizeof(gd_move));
    ps->lex = lex;
    ps->rules = rules;
    ps->leaves = leaves;
    ps->endgame = endgame;
    ps->table = table;
    ps->table_mask = table_mask;
    ps->squares = rules->rows * rules->cols;
    ps->alphabet = rules->alphabet_size;
    ps->position.magic = GD_GAME_MAGIC;
    ps->position.squares = ps->squares;
    ps->magic = PEG_MAGIC;
    return GD_OK;
}

int gd_peg_start(void *state, size_t state_size, const gd_lexicon *lex, const gd_rules *rules, const gd_leaves *leaves,
                 void *endgame, void *table, size_t table_size, gd_error *err)
{
    gd_peg_state *ps = state;
    if (!ps || !lex || !rules || !endgame || !table) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "missing argument");
    uint64_t entries = table_size / sizeof(peg_entry);
    if (entries < 1024) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "a table of %zu bytes is too small", table_size);
    uint64_t power = 1024;
    while (power * 2 <= entries) power *= 2;
    if (rules->alphabet_size >= PEG_CODES || rules->rows * rules->cols > GD_MAX_SQUARES)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "rules out of bounds");
    int rc = set_up(ps, state_size, lex, rules, leaves, endgame, table, power - 1, err);
    if (rc) return rc;
    memset(table, 0, power * sizeof(peg_entry));
    return GD_OK;
}

int gd_peg_share(void *state, size_t state_size, void *started, void *endgame, gd_error *err)
{
    gd_peg_state *ps = state;
    const gd_peg_state *from = started;
    if (!ps || !from || !endgame) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "missing argument");
    if (from->magic != PEG_MAGIC) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "not a started pre-endgame");
    if (ps == from) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "a state cannot share its own table");
    return set_up(ps, state_size, from->lex, from->rules, from->leaves, endgame, from->table, from->table_mask, err);
}

/* ---- keys ------------------------------------------------------------------------------------- */

typedef struct peg_key {
    uint64_t h1, h2;
} peg_key;

static uint64_t mix1(uint64_t x)
{
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}
static uint64_t mix2(uint64_t x)
{
    x = (x ^ (x >> 33)) * 0xFF51AFD7ED558CCDull;
    x = (x ^ (x >> 33)) * 0xC4CEB9FE1A85EC53ull;
    return x ^ (x >> 33);
}

static void key_bytes(peg_key *k, const uint8_t *p, size_t n)
{
    while (n) {
        uint64_t w = 0;
        size_t take = n < 8 ? n : 8;
        memcpy(&w, p, take);
        w ^= (uint64_t)take << 59;
        k->h1 = mix1(k->h1 ^ w) + 0x9E3779B97F4A7C15ull;
        k->h2 = mix2(k->h2 + w) ^ 0x632BE59BD9B4E019ull;
        p += take;
        n -= take;
    }
}
static void key_int(peg_key *k, int64_t v)
{
    uint8_t b[8];
    memcpy(b, &v, 8);
    key_bytes(k, b, 8);
}

/* The key of a position: the board, two racks (or a rack and the unseen tiles), the spread and
 * the scoreless turns, after the entry's type. */
static peg_key position_key(const gd_peg_state *ps, int type, const uint8_t *board, const uint8_t *a,
                            const uint8_t *b, int32_t spread, uint32_t scoreless)
{
    peg_key k = {0x243F6A8885A308D3ull ^ (uint64_t)type, 0x13198A2E03707344ull ^ ((uint64_t)type << 32)};
    key_bytes(&k, board, ps->squares);
    key_bytes(&k, a, ps->alphabet + 1);
    key_bytes(&k, b, ps->alphabet + 1);
    key_int(&k, spread);
    key_int(&k, scoreless);
    return k;
}

static void key_move(peg_key *k, const gd_move *m)
{
    uint8_t head[6] = {m->kind, m->row, m->col, m->direction, m->length, m->tiles_placed};
    key_bytes(k, head, sizeof head);
    key_bytes(k, m->word, m->length);
}

/* A bucket's lock, in its first entry's `lock` byte: states that share a table (gd_peg_share)
 * read and write entries whole. Uncontended it costs an atomic exchange, little beside the work
 * an entry stands for, so a state alone takes it too. */
static peg_entry *locked_bucket(const gd_peg_state *ps, peg_key k)
{
    peg_entry *bucket = &ps->table[k.h1 & ps->table_mask & ~(uint64_t)(PEG_BUCKET - 1)];
    while (__atomic_exchange_n(&bucket->lock, 1, __ATOMIC_ACQUIRE))
        while (__atomic_load_n(&bucket->lock, __ATOMIC_RELAXED)) {
        }
    return bucket;
}
static void unlock(peg_entry *bucket) { __atomic_store_n(&bucket->lock, 0, __ATOMIC_RELEASE); }

/* The entry of key `k` and `type`, copied to `out`: 1 if the table has it. */
static int lookup(const gd_peg_state *ps, peg_key k, int type, peg_entry *out)
{
    peg_entry *bucket = locked_bucket(ps, k);
    int found = 0;
    for (int i = 0; i < PEG_BUCKET && !found; i++)
        if (bucket[i].type == type && bucket[i].k1 == k.h1 && bucket[i].k2 == k.h2) {
            *out = bucket[i];
            found = 1;
        }
    unlock(bucket);
    return found;
}

/* Store `e` under key `k`: in an empty slot of its bucket, else one picked by the key. */
static void store(const gd_peg_state *ps, peg_key k, peg_entry e)
{
    e.k1 = k.h1;
    e.k2 = k.h2;
    peg_entry *bucket = locked_bucket(ps, k);
    int slot = (int)(k.h2 % PEG_BUCKET);
    for (int i = 0; i < PEG_BUCKET; i++)
        if (bucket[i].type == ENTRY_EMPTY) {
            slot = i;
            break;
        }
    e.lock = bucket[slot].lock; /* held: it is bucket[0]'s, kept as it is until unlock */
    bucket[slot] = e;
    unlock(bucket);
}

static void store_value(const gd_peg_state *ps, peg_key k, int type, int32_t value)
{
    peg_entry e;
    memset(&e, 0, sizeof e);
    e.type = (uint8_t)type;
    e.value = value;
    store(ps, k, e);
}

/* ---- tiles ------------------------------------------------------------------------------------ */

static uint32_t tiles_in(const gd_peg_state *ps, const uint8_t *counts)
{
    uint32_t n = 0;
    for (uint32_t c = 0; c <= ps->alphabet; c++) n += counts[c];
    return n;
}

static uint64_t binomial(uint32_t n, uint32_t k)
{
    if (k > n) return 0;
    uint64_t r = 1;
    for (uint32_t i = 1; i <= k; i++) r = r * (n - k + i) / i;
    return r;
}

static int64_t fail(gd_peg_state *ps, const char *what)
{
    if (ps->halt != HALT_FAILED) ps->rc = gd_set_error(ps->err, GD_ERR_ARGUMENT, 0, "%s", what);
    ps->halt = HALT_FAILED;
    return -1;
}

/* A call into the core failed with `rc` (its message already in ps->err). */
static int64_t failed(gd_peg_state *ps, int rc)
{
    ps->rc = rc;
    ps->halt = HALT_FAILED;
    return -1;
}

/* Every way to take `left` tiles from the codes codes[i..] of `counts` (taken[] holding what the
 * codes before took, `ways` the number of ways they can be picked), pushed on the multiset stack. */
static int push_from(gd_peg_state *ps, const uint8_t *counts, const uint8_t *codes, uint32_t distinct, uint32_t i,
                     uint32_t left, uint64_t ways, uint8_t *taken, uint32_t *n)
{
    if (left == 0) {
        if (ps->multiset_top >= PEG_MULTISET_CAPACITY) return (int)fail(ps, "too many worlds and draws");
        peg_multiset *m = &ps->multisets[ps->multiset_top++];
        memcpy(m->counts, taken, PEG_CODES);
        m->weight = ways;
        (*n)++;
        return 0;
    }
    if (i == distinct) return 0;
    const uint8_t code = codes[i];
    const uint32_t most = counts[code] < left ? counts[code] : left;
    for (uint32_t k = most + 1; k-- > 0;) { /* the most first, as the Python model lists them */
        taken[code] = (uint8_t)k;
        if (push_from(ps, counts, codes, distinct, i + 1, left - k, ways * binomial(counts[code], k), taken, n))
            return -1;
    }
    taken[code] = 0;
    return 0;
}

/* Push every way to take `size` tiles from `counts` onto the multiset stack (tile counts and the
 * number of ways the tiles themselves can be picked); *n says how many. 0, or -1 when full. */
static int push_subsets(gd_peg_state *ps, const uint8_t *counts, uint32_t size, uint32_t *n)
{
    uint8_t codes[PEG_CODES], taken[PEG_CODES] = {0};
    uint32_t distinct = 0;
    for (uint32_t c = 0; c <= ps->alphabet; c++)
        if (counts[c]) codes[distinct++] = (uint8_t)c;
    *n = 0;
    return push_from(ps, counts, codes, distinct, 0, size, 1, taken, n);
}

static int heavier_first(const peg_multiset *a, const peg_multiset *b)
{
    if (a->weight != b->weight) return a->weight > b->weight ? -1 : 1;
    return memcmp(a->counts, b->counts, sizeof a->counts);
}

/* Insertion sort: a decision has at most a few hundred worlds, and qsort's order of equal
 * elements is not fixed (these are never equal, but the same code everywhere is simpler). */
static void sort_worlds(peg_multiset *w, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++) {
        peg_multiset x = w[i];
        uint32_t j = i;
        while (j > 0 && heavier_first(&x, &w[j - 1]) < 0) {
            w[j] = w[j - 1];
            j--;
        }
        w[j] = x;
    }
}

/* A decision's worlds where the candidates so far lost most first: a candidate is ruled out once
 * it has lost as much as the best did, and candidates tend to lose in the same worlds (a strong
 * opponent rack), so those are valued first. The order changes no decision, only how soon a
 * candidate is ruled out. Insertion sort: the order changes little from one candidate to the next. */
static int lost_more(const peg_multiset *a, const peg_multiset *b)
{
    return a->lost != b->lost ? a->lost > b->lost : a->place < b->place;
}

static void most_lost_first(peg_multiset *w, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++) {
        if (!lost_more(&w[i], &w[i - 1])) continue;
        peg_multiset x = w[i];
        uint32_t j = i;
        while (j > 0 && lost_more(&x, &w[j - 1])) {
            w[j] = w[j - 1];
            j--;
        }
        w[j] = x;
    }
}

/* The board and rack after a play (the pass changes nothing). */
static void place(const gd_peg_state *ps, uint8_t *board, uint8_t *rack, const gd_move *m)
{
    if (m->kind != GD_PLAY) return;
    const uint32_t cols = ps->rules->cols;
    for (uint32_t k = 0; k < m->length; k++) {
        uint8_t code = m->word[k];
        if (code & GD_ON_BOARD_FLAG) continue;
        uint32_t row = m->row + (m->direction == 0 ? 0 : k), col = m->col + (m->direction == 0 ? k : 0);
        board[row * cols + col] = code;
        rack[(code & GD_BLANK_FLAG) ? 0 : (code & 63)]--;
    }
}

static int32_t outcome_of(int32_t spread)
{
    return spread > 0 ? GD_PEG_UNIT : spread == 0 ? GD_PEG_UNIT / 2 : 0;
}

/* ---- the endgames ------------------------------------------------------------------------------ */

/* The outcome for the player to move (`mine`) of the endgame it enters `spread` points ahead. */
static int64_t endgame(gd_peg_state *ps, const uint8_t *board, const uint8_t *mine, const uint8_t *theirs,
                       int32_t spread, uint32_t scoreless)
{
    peg_key k = position_key(ps, ENTRY_ENDGAME, board, mine, theirs, spread, scoreless);
    peg_entry hit;
    if (lookup(ps, k, ENTRY_ENDGAME, &hit)) return hit.value;
    gd_game *p = &ps->position;
    memcpy(p->board, board, ps->squares);
    memset(p->rack, 0, sizeof p->rack);
    memcpy(p->rack[0], mine, ps->alphabet + 1);
    memcpy(p->rack[1], theirs, ps->alphabet + 1);
    p->bag_count = 0;
    p->to_move = 0;
    p->scoreless = scoreless;
    p->over = 0;
    int rc = gd_endgame_restart(ps->endgame, p, ps->err);
    if (rc) return failed(ps, rc);
    const int32_t tie = -spread; /* the endgame's value that would tie the game */
    gd_endgame_result *found = &ps->found;
    for (;;) {
        uint64_t limit = 0;
        if (ps->limit) {
            if (ps->nodes >= ps->limit) {
                ps->halt = HALT_PAUSED;
                return -1;
            }
            limit = ps->limit - ps->nodes;
        }
        if (ps->budget) {
            if (ps->nodes >= ps->budget) {
                ps->halt = HALT_BUDGET;
                return -1;
            }
            if (!limit || ps->budget - ps->nodes < limit) limit = ps->budget - ps->nodes;
        }
        rc = gd_endgame_search_window(ps->endgame, PEG_ENDGAME_DEPTH, tie - 1, tie + 1, limit, found, ps->err);
        if (rc) return failed(ps, rc);
        ps->nodes += found->nodes;
        if (!found->stopped) break;
    }
    if (!found->complete) return fail(ps, "an endgame did not reach the end of the game within 64 plies");
    ps->endgames++;
    int32_t outcome = found->bound == GD_BOUND_LOWER   ? GD_PEG_UNIT
                      : found->bound == GD_BOUND_UPPER ? 0
                                                       : GD_PEG_UNIT / 2;
    store_value(ps, k, ENTRY_ENDGAME, outcome);
    return outcome;
}

/* ---- the model --------------------------------------------------------------------------------- */

static int64_t move_value(gd_peg_state *ps, uint32_t level, const uint8_t *board, const uint8_t *mine,
                          const uint8_t *theirs, const uint8_t *bag, int32_t spread, uint32_t scoreless,
                          const gd_move *move);

/* Candidates best first in equity order (by score without a leave table), then by the move's own
 * bytes, so that the first among equals is the same everywhere. */
static int by_equity_order(const gd_move *a, const gd_move *b, int by_equity)
{
    int32_t x = by_equity ? a->equity : a->score, y = by_equity ? b->equity : b->score;
    if (x != y) return x > y ? -1 : 1;
    return memcmp(&a->row, &b->row, sizeof *a - offsetof(gd_move, row));
}

static void sort_candidates(gd_move *m, uint32_t n, int by_equity)
{
    /* a merge sort would do as well; candidate lists are a few hundred moves, and the positions a
     * pre-endgame meets are decided once each (the table), so insertion by binary search suffices */
    for (uint32_t i = 1; i < n; i++) {
        gd_move x = m[i];
        uint32_t lo = 0, hi = i;
        while (lo < hi) {
            uint32_t mid = (lo + hi) / 2;
            if (by_equity_order(&x, &m[mid], by_equity) < 0)
                hi = mid;
            else
                lo = mid + 1;
        }
        memmove(&m[lo + 1], &m[lo], (i - lo) * sizeof *m);
        m[lo] = x;
    }
}

/* The plays and the pass of `rack` on `board` with `bag` tiles in the bag, pushed on the move
 * stack in candidate order; *n says how many. */
static int push_candidates(gd_peg_state *ps, const uint8_t *board, const uint8_t *rack, uint32_t bag, uint32_t *n)
{
    int rc = gd_prepare(ps->lex, ps->rules, board, &ps->workspace, ps->err);
    if (rc) return (int)failed(ps, rc);
    gd_equity_options options;
    memset(&options, 0, sizeof options);
    options.leaves = ps->leaves;
    options.bag_count = bag;
    options.pass = 1;
    options.by_equity = ps->leaves != NULL;
    size_t room = ps->move_capacity - ps->move_top, count = 0;
    gd_move *out = &ps->moves[ps->move_top];
    rc = gd_generate_equity(ps->lex, ps->rules, board, &ps->workspace, rack, &options, 0, out, room, &count, ps->err);
    if (rc) return (int)failed(ps, rc);
    if (count > room) return (int)fail(ps, "a position of the pre-endgame has more moves than its move stack holds");
    uint32_t kept = 0;
    for (size_t i = 0; i < count; i++)
        if (out[i].kind != GD_EXCHANGE) out[kept++] = out[i];
    sort_candidates(out, kept, ps->leaves != NULL);
    ps->move_top += kept;
    *n = kept;
    return 0;
}

/* A decision kept in the table: the move without its equity (which orders nothing after). Its
 * placement bytes (row to kind) stand in the same order in both. */
#define PLACEMENT_BYTES (offsetof(gd_move, kind) + 1 - offsetof(gd_move, row))
_Static_assert(offsetof(peg_entry, kind) + 1 - offsetof(peg_entry, row) == PLACEMENT_BYTES,
               "a table entry keeps a move's placement as gd_move does");

static void remember_decision(peg_entry *e, const gd_move *m)
{
    e->score = m->score;
    memcpy(&e->row, &m->row, PLACEMENT_BYTES);
    memcpy(e->word, m->word, sizeof e->word);
}

static void decision_of(const peg_entry *e, gd_move *m)
{
    memset(m, 0, sizeof *m);
    m->score = e->score;
    memcpy(&m->row, &e->row, PLACEMENT_BYTES);
    memcpy(m->word, e->word, sizeof m->word);
}

/* The index among `candidates` of the move kept under `key` (the killer), or 0 (the first). */
static uint32_t killer_index(const gd_peg_state *ps, peg_key key, const gd_move *candidates, uint32_t n)
{
    peg_entry hit;
    if (!lookup(ps, key, ENTRY_KILLER, &hit)) return 0;
    gd_move m;
    decision_of(&hit, &m);
    for (uint32_t c = 0; c < n; c++)
        if (memcmp(&candidates[c].row, &m.row, PLACEMENT_BYTES) == 0 &&
            memcmp(candidates[c].word, m.word, m.length) == 0)
            return c;
    return 0;
}

/* The move the player to move makes, seeing `mine` and the `unseen` tiles with `bag` of them in
 * the bag: the highest expected outcome over the worlds it cannot tell apart, the first in
 * candidate order among equals. */
static int decide(gd_peg_state *ps, uint32_t level, const uint8_t *board, const uint8_t *mine,
                  const uint8_t *unseen, uint32_t bag, int32_t spread, uint32_t scoreless, gd_move *chosen)
{
    if (level > PEG_MAX_LEVELS) return (int)fail(ps, "the pre-endgame went deeper than it can follow");
    uint8_t bag_size[PEG_CODES] = {(uint8_t)bag};
    peg_key k = position_key(ps, ENTRY_DECISION, board, mine, unseen, spread, scoreless);
    key_bytes(&k, bag_size, 1);
    peg_entry hit;
    if (lookup(ps, k, ENTRY_DECISION, &hit)) {
        decision_of(&hit, chosen);
        return 0;
    }
    const uint32_t worlds_at = ps->multiset_top, moves_at = ps->move_top;
    uint32_t worlds = 0, candidates = 0;
    int rc = push_subsets(ps, unseen, tiles_in(ps, unseen) - bag, &worlds);
    if (!rc) rc = push_candidates(ps, board, mine, bag, &candidates);
    if (rc) {
        ps->multiset_top = worlds_at;
        ps->move_top = moves_at;
        return -1;
    }
    peg_multiset *world = &ps->multisets[worlds_at];
    sort_worlds(world, worlds);
    for (uint32_t w = 0; w < worlds; w++) {
        world[w].lost = 0;
        world[w].place = w;
    }
    int64_t total_weight = 0;
    for (uint32_t w = 0; w < worlds; w++) total_weight += (int64_t)world[w].weight;
    uint8_t *world_bag = ps->frame[level].bag;
    /* the move decided last on this board at this spread (the decider's rack and the unseen
     * tiles aside: those differ from one world of the decision above to the next), if it is a
     * candidate here: often the best here too, so valued first it rules the others out sooner.
     * The candidates' order still breaks ties (below), so the decision is the same. */
    static const uint8_t no_tiles[PEG_CODES];
    peg_key killer_key = position_key(ps, ENTRY_KILLER, board, no_tiles, bag_size, spread, scoreless);
    const uint32_t first = killer_index(ps, killer_key, &ps->moves[moves_at], candidates);
    int64_t best_total = -1;
    uint32_t best = 0;
    for (uint32_t n = 0; n < candidates; n++) {
        const uint32_t c = n == 0 ? first : n <= first ? n - 1 : n; /* the killer, then in order */
        if (n > 0 && best_total == total_weight * GD_PEG_UNIT && c > best)
            break; /* a certain win: none after it in the order can take its place */
        const gd_move *candidate = &ps->moves[moves_at + c];
        int64_t total = 0, left = total_weight;
        int complete = 1;
        if (n) most_lost_first(world, worlds);
        for (uint32_t w = 0; w < worlds; w++) {
            for (uint32_t code = 0; code <= ps->alphabet; code++)
                world_bag[code] = (uint8_t)(unseen[code] - world[w].counts[code]);
            int64_t v = move_value(ps, level, board, mine, world[w].counts, world_bag, spread, scoreless, candidate);
            if (v < 0) {
                ps->multiset_top = worlds_at;
                ps->move_top = moves_at;
                return -1;
            }
            total += (int64_t)world[w].weight * v;
            left -= (int64_t)world[w].weight;
            world[w].lost += (int64_t)world[w].weight * (GD_PEG_UNIT - v);
            const int64_t most = total + left * GD_PEG_UNIT;
            if (most < best_total || (most == best_total && c > best)) {
                complete = 0; /* it cannot beat the best (ties go to the first in the order) */
                break;
            }
        }
        if (complete && (total > best_total || (total == best_total && c < best))) {
            best_total = total;
            best = c;
        }
    }
    *chosen = ps->moves[moves_at + best];
    ps->multiset_top = worlds_at;
    ps->move_top = moves_at;
    peg_entry e;
    memset(&e, 0, sizeof e);
    e.type = ENTRY_DECISION;
    remember_decision(&e, chosen);
    store(ps, k, e);
    e.type = ENTRY_KILLER;
    store(ps, killer_key, e);
    return 0;
}

/* The expected outcome of `move` for the player to move in one world (its rack `mine`, the
 * opponent's `theirs`, the bag `bag`), over the tiles it draws; -1 when the call halts. */
static int64_t move_value(gd_peg_state *ps, uint32_t level, const uint8_t *board, const uint8_t *mine,
                          const uint8_t *theirs, const uint8_t *bag, int32_t spread, uint32_t scoreless,
                          const gd_move *move)
{
    if (level >= PEG_MAX_LEVELS) return fail(ps, "the pre-endgame went deeper than it can follow");
    peg_key k = position_key(ps, ENTRY_VALUE, board, mine, theirs, spread, scoreless);
    key_bytes(&k, bag, ps->alphabet + 1);
    key_move(&k, move);
    peg_entry hit;
    if (lookup(ps, k, ENTRY_VALUE, &hit)) return hit.value;
    peg_frame *f = &ps->frame[level];
    memcpy(f->after, board, ps->squares);
    memcpy(f->kept, mine, PEG_CODES);
    place(ps, f->after, f->kept, move);
    const int32_t after_spread = spread + move->score;
    const uint32_t after_scoreless = move->score == 0 ? scoreless + 1 : 0;
    const uint32_t in_bag = tiles_in(ps, bag);
    const uint32_t drawing = move->tiles_placed < in_bag ? move->tiles_placed : in_bag;
    const int64_t ways = (int64_t)binomial(in_bag, drawing);
    const uint32_t draws_at = ps->multiset_top;
    uint32_t draws = 0;
    if (push_subsets(ps, bag, drawing, &draws)) return -1;
    const int32_t theirs_value = gd_rack_value(ps->rules, theirs, ps->alphabet);
    int64_t sum = 0;
    for (uint32_t d = 0; d < draws; d++) {
        const peg_multiset *drawn = &ps->multisets[draws_at + d];
        for (uint32_t c = 0; c <= ps->alphabet; c++) {
            f->rack[c] = (uint8_t)(f->kept[c] + drawn->counts[c]);
            f->left[c] = (uint8_t)(bag[c] - drawn->counts[c]);
        }
        int64_t outcome;
        if (after_scoreless >= ps->rules->scoreless_turns) {
            outcome = outcome_of(after_spread - gd_rack_value(ps->rules, f->rack, ps->alphabet) + theirs_value);
        } else if (drawing == in_bag) {
            int64_t e = endgame(ps, f->after, theirs, f->rack, -after_spread, after_scoreless);
            outcome = e < 0 ? -1 : GD_PEG_UNIT - e;
        } else {
            for (uint32_t c = 0; c <= ps->alphabet; c++) f->unseen[c] = (uint8_t)(f->rack[c] + f->left[c]);
            gd_move reply;
            int64_t v = decide(ps, level + 1, f->after, theirs, f->unseen, in_bag - drawing, -after_spread,
                               after_scoreless, &reply);
            if (v >= 0)
                v = move_value(ps, level + 1, f->after, theirs, f->rack, f->left, -after_spread, after_scoreless,
                               &reply);
            outcome = v < 0 ? -1 : GD_PEG_UNIT - v;
        }
        if (outcome < 0) {
            ps->multiset_top = draws_at;
            return -1;
        }
        sum += (int64_t)drawn->weight * outcome;
    }
    ps->multiset_top = draws_at;
    if (sum % ways) return fail(ps, "a pre-endgame value is not a whole number of its unit");
    const int64_t value = sum / ways;
    store_value(ps, k, ENTRY_VALUE, (int32_t)value);
    return value;
}

/* The move must be the pass or a play of `mine` on empty squares of the board (exchanges are not
 * candidates of the model). */
static int check_move(const gd_peg_state *ps, const uint8_t *board, const uint8_t *mine, const gd_move *m,
                      gd_error *err)
{
    if (m->kind == GD_PASS) return GD_OK;
    if (m->kind != GD_PLAY) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "only plays and the pass are candidates");
    const gd_rules *r = ps->rules;
    const uint32_t rows = m->direction == 0 ? 1 : m->length, cols = m->direction == 0 ? m->length : 1;
    if (m->direction > 1 || m->length == 0 || m->length > GD_MAX_DIM || m->row + rows > r->rows ||
        m->col + cols > r->cols)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the move does not fit the board");
    uint8_t used[PEG_CODES] = {0};
    uint32_t placed = 0;
    for (uint32_t k = 0; k < m->length; k++) {
        const uint8_t code = m->word[k];
        const uint32_t square = (m->row + (m->direction ? k : 0)) * r->cols + m->col + (m->direction ? 0 : k);
        if (code & GD_ON_BOARD_FLAG) continue;
        const uint32_t tile = (code & GD_BLANK_FLAG) ? 0 : (code & 63);
        if (board[square] || (code & 63) == 0 || (code & 63) > ps->alphabet || ++used[tile] > mine[tile])
            return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the move is not a play of the rack on this board");
        placed++;
    }
    if (placed == 0 || placed != m->tiles_placed)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the move places %u tiles, not %u", placed, m->tiles_placed);
    return GD_OK;
}

int gd_peg_value(void *state, const uint8_t *board, const uint8_t *mine, const uint8_t *theirs, const uint8_t *bag,
                 int32_t spread, uint32_t scoreless, const gd_move *move, uint64_t budget, uint64_t node_limit,
                 gd_peg_result *out, gd_error *err)
{
    gd_peg_state *ps = state;
    if (!ps || !board || !mine || !theirs || !bag || !move || !out)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "missing argument");
    if (ps->magic != PEG_MAGIC) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "not a started pre-endgame");
    memset(out, 0, sizeof *out);
    const uint32_t in_bag = tiles_in(ps, bag);
    if (in_bag < 1 || in_bag > GD_PEG_MAX_BAG)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the pre-endgame takes 1 to %d tiles in the bag, not %u",
                            GD_PEG_MAX_BAG, in_bag);
    if (tiles_in(ps, mine) == 0 || tiles_in(ps, theirs) == 0)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "a player has no tiles: the game is over");
    int rc = check_move(ps, board, mine, move, err);
    if (rc) return rc;
    for (uint32_t c = ps->alphabet + 1; c < PEG_CODES; c++)
        if (mine[c] || theirs[c] || bag[c])
            return gd_set_error(err, GD_ERR_ARGUMENT, 0, "a tile of code %u is not in the alphabet", c);
    ps->nodes = ps->endgames = 0;
    ps->budget = budget;
    ps->limit = node_limit;
    ps->halt = HALT_NONE;
    ps->err = err;
    ps->move_top = ps->multiset_top = 0;
    int64_t value = move_value(ps, 0, board, mine, theirs, bag, spread, scoreless, move);
    out->nodes = ps->nodes;
    out->endgames = ps->endgames;
    ps->err = NULL;
    if (ps->halt == HALT_FAILED) return ps->rc ? ps->rc : GD_ERR_ARGUMENT;
    out->status = ps->halt == HALT_BUDGET ? GD_PEG_OVER_BUDGET : ps->halt == HALT_PAUSED ? GD_PEG_PAUSED : GD_PEG_DONE;
    out->value = value < 0 ? 0 : value;
    return GD_OK;
}

/* movegen.c — Gordon's GADDAG move generation with inline scoring.
 *
 * For every anchor (an empty square next to a tile, or the start square on an empty board)
 * and each direction, the walk reads leftward through the GADDAG (placing rack tiles or
 * following tiles already on the board), and at any point where the word may start crosses
 * the separator and reads rightward. It starts at the anchor's pivot: the anchor itself, or,
 * when tiles lie right of the anchor, the last of them. Reading those tiles first keeps the
 * walk to paths that fit them, where starting at the anchor would find out only after
 * crossing the separator. Leftward placement never covers another anchor square: a play
 * covering several anchors is found from its leftmost one only, so each play is generated
 * once.
 *
 * Scores are kept as the walk goes: the main word's letter sum (premiums only under new
 * tiles), its word multiplier, and the finished cross-words of the tiles placed.
 */
#include <stdlib.h>
#include <string.h>

#include "anagram_filter.h"
#include "gaddag_format.h"
#include "leaves_internal.h"
#include "movegen_internal.h"
#include "tiles.h"
#include "word_map.h"
#include "workspace.h"

#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(address) __builtin_prefetch(address)
#else
#define PREFETCH(address) ((void)(address))
#endif


typedef struct line_walk {
    const uint64_t *walk;      /* the lexicon's walk index */
    const uint32_t *walk_high; /* its high letter bits, or NULL */
    const gd_rules *rules;
    int direction;
    int line;    /* row for across plays, column for down plays */
    int length;  /* squares in the line */
    int anchor;
    int pivot; /* where the walk starts: the anchor, or the end of the tiles right of it */
    uint8_t square[GD_MAX_DIM];
    uint8_t is_anchor[GD_MAX_DIM];
    uint8_t has_cross[GD_MAX_DIM];
    uint8_t letter_multiplier[GD_MAX_DIM];
    uint8_t word_multiplier[GD_MAX_DIM];
    uint64_t cross_set[GD_MAX_DIM];
    int32_t cross_score[GD_MAX_DIM];
    int32_t values[64];
    uint8_t rack[64];      /* tiles of each letter on the rack (blanks not included) */
    uint8_t used[64];      /* tiles of each letter placed so far, blanks included */
    uint64_t unused_letters; /* bit c: a rack tile of letter c is still unused */
    unsigned blanks;       /* blanks on the rack */
    unsigned blanks_needed; /* placed letters beyond the rack's own tiles: blanks must cover them */
    unsigned tiles_left;
    unsigned placed_count;
    uint8_t placed_at[GD_MAX_DIM]; /* line positions of the tiles placed, in placement order */
    int32_t word_multiplier_total;
    unsigned rack_size;
    int32_t bingo_bonus;
    uint8_t word[GD_MAX_DIM]; /* the play's letters, by line position */
    /* best N's bounds: fit[p] is the highest value of a rack tile allowed on empty square p
     * (INT32_MIN: none), computed on first use after load_line */
    unsigned fit_count;
    uint8_t fit_order[64]; /* the rack's letters, highest value first (fit_count of them) */
    int32_t fit_blank;     /* a blank's value, or INT32_MIN without blanks */
    int32_t fit[GD_MAX_DIM];
    uint32_t fit_known; /* bit p: fit[p] is computed (the bounds read a few squares of a line) */
    /* equity: kept_value[sum of stride[code] over the tiles placed] is what the tiles kept are
     * worth (hundredths of a point); NULL when only scores are wanted */
    const int32_t *kept_value;
    uint32_t stride[64];
    uint32_t used_index; /* sum of stride[] over the tiles placed so far, kept as the walk goes */
    int by_equity;
    uint32_t directions; /* GD_DIRECTIONS_*: the directions walked */
    gd_work work;        /* counted with GD_COUNT_WORK */
    /* best N with bounds: a play with blanks is not split into its blank choices when
     * best_kept[tiles placed] cannot lift it to the moves kept (NULL: always split) */
    const int32_t *best_kept;
    /* best N with bounds: no play through the anchor walked that uses a blank can have a higher
     * equity than this, so once it is below the moves kept, the walk places rack letters only
     * (INT64_MAX: no such bound) */
    int64_t blank_bound;
    /* best N with blanks on the rack, in two passes: which plays this walk makes (BLANKS_*) */
    unsigned blank_use;
    /* output */
    gd_move *out;
    size_t capacity;
    size_t count;
    uint32_t top_n;
    /* streaming (gd_generate_stream): the buffer fills, the walk stops at the first move that does
     * not fit and keeps it in `target`; the next call walks again to that move (`replaying`),
     * following only the branches that lead to it, and goes on from there */
    int stream;
    int stopped;
    int replaying;
    gd_move target;
    int target_left, target_right;      /* the target play's first and last line positions */
    uint8_t target_square[GD_MAX_DIM];  /* its codes by line position (0 outside it) */
} line_walk;

#define BLANKS_ANY 0  /* every play */
#define BLANKS_NONE 1 /* the plays of the rack's letters alone, its blanks kept */
#define BLANKS_SOME 2 /* the plays that use a blank */

/* Gordon's measures of the walk's work (gd_work), counted only in a build with GD_COUNT_WORK
 * (bench/gaddag_vs_dawg.py makes one), so the shipped generator pays nothing for them: every arc
 * followed, and as a dead end each one from which no play was recorded and no arc followed. */
#ifdef GD_COUNT_WORK
#define COUNT_FOLLOW(call)                                                                                     \
    do {                                                                                                       \
        const size_t found_before = w->count;                                                                  \
        const uint64_t arcs_before = ++w->work.arcs;                                                           \
        call;                                                                                                  \
        if (w->count == found_before && w->work.arcs == arcs_before) w->work.dead_ends++;                      \
    } while (0)
#else
#define COUNT_FOLLOW(call) call
#endif

/* While replaying to a stream's target, whether a branch can lead to it (always, otherwise). */
#define LEADS_TO_TARGET(condition) (!w->replaying || (condition))

/* ---- output --------------------------------------------------------------------------- */

/* The order moves are ranked in: higher equity (when ranking by equity), higher score, then
 * plays before exchanges before the pass, row, column, across first, shorter, then the word's
 * bytes. Total on distinct moves, so "top N" never depends on generation order. */
static int compare_moves(const gd_move *a, const gd_move *b, int by_equity)
{
    if (by_equity && a->equity != b->equity) return a->equity > b->equity ? -1 : 1;
    if (a->score != b->score) return a->score > b->score ? -1 : 1;
    if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
    if (a->row != b->row) return a->row < b->row ? -1 : 1;
    if (a->col != b->col) return a->col < b->col ? -1 : 1;
    if (a->direction != b->direction) return a->direction < b->direction ? -1 : 1;
    if (a->length != b->length) return a->length < b->length ? -1 : 1;
    const int bytes = memcmp(a->word, b->word, a->length);
    return (bytes > 0) - (bytes < 0);
}

int gd_move_better(const gd_move *a, const gd_move *b, int by_equity) { return compare_moves(a, b, by_equity) < 0; }

/* out[0..n) is a heap whose root is the worst kept play. */
static void heap_sift_down(gd_move *heap, size_t n, size_t i, int by_equity)
{
    for (;;) {
        size_t worst = i, l = 2 * i + 1, r = l + 1;
        if (l < n && gd_move_better(&heap[worst], &heap[l], by_equity)) worst = l;
        if (r < n && gd_move_better(&heap[worst], &heap[r], by_equity)) worst = r;
        if (worst == i) return;
        gd_move t = heap[i];
        heap[i] = heap[worst];
        heap[worst] = t;
        i = worst;
    }
}

static void heap_sift_up(gd_move *heap, size_t i, int by_equity)
{
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!gd_move_better(&heap[parent], &heap[i], by_equity)) return;
        gd_move t = heap[i];
        heap[i] = heap[parent];
        heap[parent] = t;
        i = parent;
    }
}

/* Keep move m: in out[] in generation order, or in the top-N heap. */
static inline void keep(line_walk *w, const gd_move *m)
{
    if (w->stream) {
        if (w->stopped) return;
        if (w->replaying) {
            if (memcmp(m, &w->target, sizeof *m) != 0) return; /* written by an earlier call */
            w->replaying = 0;
        }
        if (w->count == w->capacity) {
            w->stopped = 1;
            w->target = *m;
            return;
        }
        w->out[w->count++] = *m;
        return;
    }
    if (w->top_n == 0) {
        if (w->count < w->capacity) w->out[w->count] = *m;
        w->count++;
        return;
    }
    size_t limit = w->top_n < w->capacity ? w->top_n : w->capacity;
    size_t kept = w->count < limit ? w->count : limit;
    w->count++;
    if (limit == 0) return;
    if (kept < limit) {
        w->out[kept] = *m;
        heap_sift_up(w->out, kept, w->by_equity);
    } else if (gd_move_better(m, &w->out[0], w->by_equity)) {
        w->out[0] = *m;
        heap_sift_down(w->out, limit, 0, w->by_equity);
    }
}

/* Whether best N's output is full, and what a move must reach to enter it (equity, or 100 * score
 * when ranking by score). */
static inline int64_t entry_threshold(const line_walk *w)
{
    const size_t limit = w->top_n < w->capacity ? w->top_n : w->capacity;
    if (!w->top_n || w->stream || limit == 0 || w->count < limit) return INT64_MIN; /* every move is written */
    return w->by_equity ? w->out[0].equity : 100 * (int64_t)w->out[0].score;
}

static void emit(line_walk *w, int left, int right, int32_t score, unsigned placed)
{
    gd_move m;
    int length = right - left + 1;
    m.score = score;
    m.equity = 100 * score;
    if (w->kept_value) m.equity += w->kept_value[w->used_index];
    /* a move that ranks below the worst kept one on its first key is only counted */
    if (w->top_n && w->capacity && w->count >= (w->top_n < w->capacity ? w->top_n : w->capacity)) {
        const gd_move *worst = &w->out[0];
        if (w->by_equity ? m.equity < worst->equity : score < worst->score) {
            w->count++;
            return;
        }
    }
    if (w->direction == GD_ACROSS) {
        m.row = (uint8_t)w->line;
        m.col = (uint8_t)left;
    } else {
        m.row = (uint8_t)left;
        m.col = (uint8_t)w->line;
    }
    m.direction = (uint8_t)w->direction;
    m.length = (uint8_t)length;
    m.tiles_placed = (uint8_t)placed;
    m.kind = GD_PLAY;
    m.reserved[0] = m.reserved[1] = 0;
    memcpy(m.word, w->word + left, (size_t)length);
    memset(m.word + length, 0, GD_MAX_DIM - (size_t)length);
    keep(w, &m);
}

/*
 * The walk places letters, not tiles: a letter beyond the rack's own tiles of it is a
 * blank. So one path stands for every way of choosing which placed tiles are blanks; each
 * choice is its own play. A blank on square p scores (value - blank value) * letter premium
 * less, once in the main word and once more in p's cross-word.
 */
static void choose_blanks(line_walk *w, int left, int right, int32_t score, unsigned index, unsigned blanks_left,
                          uint8_t *spare)
{
    if (index == w->placed_count) {
        if (w->blank_use != BLANKS_SOME || blanks_left < w->blanks) emit(w, left, right, score, w->placed_count);
        return;
    }
    int pos = w->placed_at[index];
    unsigned letter = w->word[pos] & 63u;
    /* as a rack tile, if one is spare */
    if (spare[letter] && LEADS_TO_TARGET(!(w->target_square[pos] & GD_BLANK_FLAG))) {
        spare[letter]--;
        choose_blanks(w, left, right, score, index + 1, blanks_left, spare);
        spare[letter]++;
    }
    /* as a blank */
    if (blanks_left && !w->stopped && LEADS_TO_TARGET(w->target_square[pos] & GD_BLANK_FLAG)) {
        int32_t delta = (w->values[letter] - w->values[0]) * w->letter_multiplier[pos];
        int32_t lost = delta * w->word_multiplier_total + (w->has_cross[pos] ? delta * w->word_multiplier[pos] : 0);
        const uint32_t as_blank = w->stride[0] - w->stride[letter];
        w->word[pos] |= GD_BLANK_FLAG;
        w->used_index += as_blank;
        choose_blanks(w, left, right, score - lost, index + 1, blanks_left - 1, spare);
        w->used_index -= as_blank;
        w->word[pos] &= (uint8_t)~GD_BLANK_FLAG;
    }
}

static void record(line_walk *w, int left, int right, int32_t main_sum, int32_t word_multiplier, int32_t cross_sum,
                   unsigned placed)
{
    int length = right - left + 1;
    if (length < 2) return;
    if (placed == 1 && w->direction == GD_DOWN && w->has_cross[w->placed_at[0]])
        return; /* a single tile that also forms an across word was recorded by the across pass */
    int32_t score = main_sum * word_multiplier + cross_sum + (placed == w->rack_size ? w->bingo_bonus : 0);
    if (!w->blanks || w->blank_use == BLANKS_NONE) {
        emit(w, left, right, score, placed);
        return;
    }
    if (w->best_kept && 100 * (int64_t)score + w->best_kept[placed] < entry_threshold(w)) {
        w->count++; /* counted, as emit counts a move it does not keep: one for all its blank choices */
        return;
    }
    uint8_t spare[64];
    memcpy(spare, w->rack, sizeof spare);
    w->word_multiplier_total = word_multiplier;
    w->placed_count = placed;
    choose_blanks(w, left, right, score, 0, w->blanks, spare);
}

/* ---- the walk ----------------------------------------------------------------------------- */
/*
 * The walk reads the lexicon's walk index, where the entry of an arc carries the letter set
 * of the list it leads to. So a step is taken only when the next square can be filled from
 * that list (the board's tile is in it, or a letter the rack can still cover), which keeps
 * the walk out of the dead ends a blank opens up, and a letter's arc is found by counting
 * the set's bits below it instead of scanning the list.
 */

static void go_right(line_walk *w, int pos, uint32_t list, uint64_t letters, int left, int32_t main_sum,
                     int32_t word_multiplier, int32_t cross_sum, unsigned placed);
static void go_left(line_walk *w, int pos, uint32_t list, uint64_t letters, int32_t main_sum,
                    int32_t word_multiplier, int32_t cross_sum, unsigned placed);

/* Continuations are inlined into the walk: they are small, called from one place each, and
 * a call per step is a measurable part of the walk's cost. */
#if defined(__GNUC__) || defined(__clang__)
#define WALK_INLINE static inline __attribute__((always_inline))
#else
#define WALK_INLINE static inline
#endif

/* The letter set of the list that entry `index` leads to (bit 0: the separator). */
WALK_INLINE uint64_t next_letters(const line_walk *w, uint32_t index)
{
    return gd_walk_letters(w->walk, w->walk_high, index);
}

/* Letters a new tile on empty square `pos` may be: the cross-set, narrowed to the rack's
 * unused letters once its blanks are all needed, or once no play using a blank can be kept. */
WALK_INLINE uint64_t placeable(const line_walk *w, int pos)
{
    const int blank_open =
        w->blank_use != BLANKS_NONE && w->blanks_needed < w->blanks && w->blank_bound >= entry_threshold(w);
    return w->cross_set[pos] & (blank_open ? ~0ull : w->unused_letters);
}

/* Whether a list with these letters lets the walk go on at `pos`. */
WALK_INLINE int can_continue(const line_walk *w, uint64_t letters, int pos)
{
    uint8_t here = w->square[pos];
    if (here) return (int)((letters >> (here & 63u)) & 1u);
    return w->tiles_left && (letters & placeable(w, pos));
}

/* After the letter at `pos` was read through arc `index`, going rightward. */
WALK_INLINE void right_next(line_walk *w, int pos, uint32_t index, int left, int32_t main_sum, int32_t word_multiplier,
                            int32_t cross_sum, unsigned placed)
{
    uint64_t entry = w->walk[index];
    int right_free = pos + 1 == w->length || !w->square[pos + 1];
    if (gd_walk_accepts(entry) && right_free && placed && LEADS_TO_TARGET(w->target_right == pos))
        record(w, left, pos, main_sum, word_multiplier, cross_sum, placed);
    uint32_t child = gd_walk_child(entry);
    if (!child || pos + 1 == w->length || w->stopped || !LEADS_TO_TARGET(w->target_right > pos)) return;
    uint64_t letters = next_letters(w, index);
    if (can_continue(w, letters, pos + 1))
        go_right(w, pos + 1, child, letters, left, main_sum, word_multiplier, cross_sum, placed);
}

/* After the letter at `pos` was read through arc `index`, going leftward: go on leftward
 * (onto another anchor only if it is this walk's own, reached from its pivot), and where the
 * word may start, cross the separator and go rightward from the pivot. The word may start
 * only once the anchor is covered: a play starting right of it belongs to another anchor. */
WALK_INLINE void left_next(line_walk *w, int pos, uint32_t index, int32_t main_sum, int32_t word_multiplier,
                           int32_t cross_sum, unsigned placed)
{
    uint64_t entry = w->walk[index];
    int left_free = pos == 0 || !w->square[pos - 1];
    if (gd_walk_accepts(entry) && left_free && placed &&
        LEADS_TO_TARGET(w->target_left == pos && w->target_right == w->pivot))
        record(w, pos, w->pivot, main_sum, word_multiplier, cross_sum, placed);
    uint32_t child = gd_walk_child(entry);
    if (!child || w->stopped) return;
    uint64_t letters = next_letters(w, index);
    if (pos > 0 && (w->square[pos - 1] || !w->is_anchor[pos - 1] || pos - 1 == w->anchor) &&
        LEADS_TO_TARGET(w->target_left < pos) && can_continue(w, letters, pos - 1))
        go_left(w, pos - 1, child, letters, main_sum, word_multiplier, cross_sum, placed);
    if (left_free && pos <= w->anchor && w->pivot + 1 < w->length && (letters & 1u) && !w->stopped &&
        LEADS_TO_TARGET(w->target_left == pos && w->target_right > w->pivot)) {
        /* the separator sorts first, so its arc is the list's first */
        uint64_t right_letters = next_letters(w, child);
        if (can_continue(w, right_letters, w->pivot + 1))
            COUNT_FOLLOW(go_right(w, w->pivot + 1, gd_walk_child(w->walk[child]), right_letters, pos, main_sum,
                                  word_multiplier, cross_sum, placed));
    }
}

/* Reads or places the letter at `pos`, then hands over to `next`. Written once as a macro
 * body for both directions so the hot loop stays free of an indirect call. */
#define PLACE_OR_FOLLOW(NEXT_CALL)                                                                          \
    do {                                                                                                    \
        uint8_t here = w->square[pos];                                                                      \
        if (here) {                                                                                         \
            const unsigned letter = here & 63u;                                                             \
            if (!((letters >> letter) & 1u)) return;                                                        \
            const uint32_t index = gd_walk_arc(list, letters, letter);                                      \
            w->word[pos] = (uint8_t)(here | GD_ON_BOARD_FLAG);                                              \
            int32_t letter_score = (here & GD_BLANK_FLAG) ? w->values[0] : w->values[letter];               \
            int32_t next_main = main_sum + letter_score, next_multiplier = word_multiplier;                 \
            int32_t next_cross = cross_sum;                                                                 \
            unsigned next_placed = placed;                                                                  \
            COUNT_FOLLOW(NEXT_CALL);                                                                        \
            return;                                                                                         \
        }                                                                                                   \
        if (!w->tiles_left) return;                                                                         \
        const int32_t lm = w->letter_multiplier[pos], wm = w->word_multiplier[pos];                         \
        const int crossing = w->has_cross[pos];                                                             \
        const int32_t cross_base = w->cross_score[pos];                                                     \
        uint64_t pending = letters & placeable(w, pos);                                                     \
        /* replaying: letters before the target's are done; after it, the walk goes on as usual */       \
        const unsigned aimed = w->target_square[pos] & 63u; /* 0 off the target */                        \
        if (w->replaying) pending = aimed ? pending & ~((1ull << aimed) - 1u) : 0;                          \
        /* the lists the candidates lead to are scattered: ask for them all before the first */            \
        if (pending & (pending - 1u))                                                                       \
            for (uint64_t ahead = pending; ahead; ahead &= ahead - 1u)                                      \
                PREFETCH(&w->walk[gd_walk_child(w->walk[gd_walk_arc(list, letters,                            \
                                                                     (unsigned)__builtin_ctzll(ahead))])]); \
        while (pending && !w->stopped) {                                                                    \
            const unsigned letter = (unsigned)__builtin_ctzll(pending);                                     \
            if (w->replaying && letter != aimed) return; /* the target was not on this path */             \
            pending &= pending - 1u;                                                                        \
            const uint32_t index = gd_walk_arc(list, letters, letter);                                      \
            /* placeable letters are ones a rack tile or a spare blank can cover */                         \
            const unsigned beyond = w->used[letter] >= w->rack[letter]; /* so a blank covers it */          \
            w->used[letter]++;                                                                              \
            w->used_index += w->stride[letter];                                                             \
            const uint64_t unused_before = w->unused_letters;                                               \
            if (w->used[letter] >= w->rack[letter]) w->unused_letters &= ~(1ull << letter);                 \
            w->blanks_needed += beyond;                                                                     \
            w->tiles_left--;                                                                                \
            w->placed_at[placed] = (uint8_t)pos;                                                            \
            w->word[pos] = (uint8_t)letter;                                                                 \
            int32_t letter_score = w->values[letter] * lm;                                                  \
            int32_t next_main = main_sum + letter_score;                                                    \
            int32_t next_multiplier = word_multiplier * wm;                                                 \
            int32_t next_cross = cross_sum + (crossing ? (cross_base + letter_score) * wm : 0);             \
            unsigned next_placed = placed + 1;                                                              \
            COUNT_FOLLOW(NEXT_CALL);                                                                        \
            w->tiles_left++;                                                                                \
            w->blanks_needed -= beyond;                                                                     \
            w->used[letter]--;                                                                              \
            w->used_index -= w->stride[letter];                                                             \
            w->unused_letters = unused_before;                                                              \
        }                                                                                                   \
    } while (0)

static void go_left(line_walk *w, int pos, uint32_t list, uint64_t letters, int32_t main_sum,
                    int32_t word_multiplier, int32_t cross_sum, unsigned placed)
{
    PLACE_OR_FOLLOW(left_next(w, pos, index, next_main, next_multiplier, next_cross, next_placed));
}

static void go_right(line_walk *w, int pos, uint32_t list, uint64_t letters, int left, int32_t main_sum,
                     int32_t word_multiplier, int32_t cross_sum, unsigned placed)
{
    PLACE_OR_FOLLOW(right_next(w, pos, index, left, next_main, next_multiplier, next_cross, next_placed));
}

/* ---- equity: what the tiles kept are worth ---------------------------------------------------- */

/* Entry index of a leave in a leave table, from the table's ways[][] counts (the order of
 * gd_leaves: by size, then the sorted codes as strings). `gap[c][r]` is what the codes below c
 * add when none of them is in the leave and r tiles remain to place: precomputed once per
 * call, it makes each lookup cost one step per distinct code in the leave. */
typedef struct leave_ranker {
    const gd_leaves *lv;
    uint32_t gap[65][GD_MAX_LEAVE + 1];
    uint32_t below[65][GD_MAX_LEAVE + 2]; /* below[x][m]: ways[x][0] + ... + ways[x][m - 1] */
} leave_ranker;

static void ranker_init(leave_ranker *rk, const gd_leaves *lv)
{
    rk->lv = lv;
    const uint32_t n = lv->alphabet_size, kmax = lv->max_leave;
    for (uint32_t x = 1; x <= n + 1; x++) {
        rk->below[x][0] = 0;
        for (uint32_t m = 0; m <= kmax; m++) rk->below[x][m + 1] = rk->below[x][m] + lv->ways[x][m];
    }
    for (uint32_t r = 0; r <= kmax; r++) rk->gap[0][r] = 0;
    for (uint32_t c = 0; c <= n; c++) {
        for (uint32_t r = 0; r <= kmax; r++) {
            /* leaves that hold more of code c than none, the codes below agreeing: the sum of
             * ways[c + 1][r - j] for j = 1 .. most */
            uint32_t most = lv->limit[c] < r ? lv->limit[c] : r;
            rk->gap[c + 1][r] = rk->gap[c][r] + rk->below[c + 1][r] - rk->below[c + 1][r - most];
        }
    }
}

/* The entry of the leave holding kept[j] tiles of code[j] (codes ascending, n of them, `size`
 * tiles in all), or UINT32_MAX when the table has no such leave (none, too many tiles). */
static uint32_t ranker_rank(const leave_ranker *rk, const uint8_t *code, const uint8_t *kept, uint32_t n,
                            uint32_t size)
{
    const gd_leaves *lv = rk->lv;
    if (size == 0 || size > lv->max_leave) return UINT32_MAX;
    uint32_t rank = lv->size_offset[size], r = size, next = 0;
    for (uint32_t j = 0; j < n && r; j++) {
        const uint32_t c = code[j], have = kept[j];
        if (!have) continue;
        if (have > lv->limit[c]) return UINT32_MAX;
        rank += rk->gap[c][r] - rk->gap[next][r];
        /* leaves holding more of code c: ways[c + 1][r - k] for k = have + 1 .. most */
        uint32_t most = lv->limit[c] < r ? lv->limit[c] : r;
        rank += rk->below[c + 1][r - have] - rk->below[c + 1][r - most];
        r -= have;
        next = c + 1;
    }
    return rank < lv->count ? rank : UINT32_MAX;
}

#define MAX_SUBRACKS 4096 /* the sub-multisets of a rack whose kept values are tabulated */

/* The rack's distinct tiles, as a mixed radix: a multiset of its tiles is numbered by
 * sum(used[code] * stride[code]). */
typedef struct subracks {
    uint32_t total;            /* how many sub-multisets (product of count + 1) */
    uint32_t distinct;
    uint8_t code[64];          /* the distinct codes, ascending (0: blank) */
    uint8_t have[64];          /* their counts */
    uint32_t stride[64];       /* by code */
    int32_t kept_value[MAX_SUBRACKS];
    uint8_t tiles_used[MAX_SUBRACKS]; /* how many tiles each sub-multiset holds */
} subracks;

/* From what sub-multiset `index` leaves on the rack (kept[j] tiles of code[j], `kept_tiles` in
 * all) to what index + 1 leaves: a mixed-radix count of the tiles used, the first code the lowest
 * digit. */
static void subrack_step(const subracks *sr, uint8_t *kept, uint32_t *kept_tiles)
{
    for (uint32_t j = 0; j < sr->distinct; j++) {
        if (kept[j]) {
            kept[j]--;
            --*kept_tiles;
            return;
        }
        kept[j] = sr->have[j];
        *kept_tiles += sr->have[j];
    }
}

/* How many blanks sub-multiset `index` holds (blanks, code 0, are its lowest digit). */
static inline uint32_t subrack_blanks(const subracks *sr, uint32_t index)
{
    return sr->distinct && sr->code[0] == 0 ? index % (sr->have[0] + 1u) : 0;
}

/* Decode sub-multiset `index` into used[] (by code). */
static void subrack_used(const subracks *sr, uint32_t index, uint8_t *used)
{
    for (uint32_t j = 0; j < sr->distinct; j++) {
        uint32_t radix = sr->have[j] + 1u;
        used[sr->code[j]] = (uint8_t)(index % radix);
        index /= radix;
    }
}

/* How gd_generate_horizon_best values moves (0: as gd_equity_options says). */
#define HORIZON_GUESS 1
#define HORIZON_GOING_OUT_FIRST 2
/* More than any play that keeps tiles can be worth (100 x GD_MAX_SCORE + 100 x GD_MAX_RACK_VALUE),
 * and with any play that goes out still within an int32_t */
#define GOING_OUT_FIRST_BONUS (1 << 28)

/* Tabulate what keeping rack − used is worth, for every used ⊆ rack (see gd_equity_options; with
 * `horizon`, the endgame search's guess: see gd_generate_horizon_best). */
static int subracks_init(subracks *sr, const gd_rules *rules, const uint8_t *rack, uint32_t alphabet_size,
                         const gd_equity_options *opt, int horizon, gd_error *err)
{
    memset(sr->stride, 0, sizeof sr->stride);
    sr->distinct = 0;
    uint64_t total = 1;
    for (uint32_t c = 0; c <= alphabet_size; c++) {
        if (!rack[c]) continue;
        sr->code[sr->distinct] = (uint8_t)c;
        sr->have[sr->distinct] = rack[c];
        sr->stride[c] = (uint32_t)total;
        sr->distinct++;
        total *= rack[c] + 1u;
        if (total > MAX_SUBRACKS)
            return gd_set_error(err, GD_ERR_ARGUMENT, 0,
                                "a rack with more than %d ways to split it is not supported for equity",
                                MAX_SUBRACKS);
    }
    sr->total = (uint32_t)total;
    leave_ranker rk;
    rk.lv = NULL;
    const int bag_empty = opt->bag_count == 0;
    const int lookup = opt->leaves && !bag_empty;
    if (lookup) ranker_init(&rk, opt->leaves);
    uint8_t kept_by_position[64];
    uint32_t rack_tiles = 0;
    for (uint32_t j = 0; j < sr->distinct; j++) {
        kept_by_position[j] = sr->have[j];
        rack_tiles += sr->have[j];
    }
    uint32_t kept_tiles = rack_tiles;
    for (uint32_t index = 0; index < sr->total; index++, subrack_step(sr, kept_by_position, &kept_tiles)) {
        int32_t value = 0;
        if (bag_empty) {
            if (kept_tiles == 0) {
                value = 100 * (rules->going_out_bonus + rules->going_out_penalty) * opt->opponent_rack_value;
                if (horizon == HORIZON_GOING_OUT_FIRST) value += GOING_OUT_FIRST_BONUS;
            } else {
                uint8_t kept[64] = {0};
                for (uint32_t j = 0; j < sr->distinct; j++) kept[sr->code[j]] = kept_by_position[j];
                const int32_t kept_value = gd_rack_value(rules, kept, alphabet_size);
                value = horizon ? 100 * (opt->opponent_rack_value - kept_value - rules->bingo_bonus / 2)
                                : -(200 * kept_value + 1000);
            }
        } else if (lookup) {
            /* the entry for now, its value below: the table is larger than the caches, so every
             * lookup is asked for before the first is read */
            uint32_t rank = ranker_rank(&rk, sr->code, kept_by_position, sr->distinct, kept_tiles);
            value = (int32_t)rank;
            if (rank != UINT32_MAX) PREFETCH(&opt->leaves->values[rank]);
        }
        sr->kept_value[index] = value;
        sr->tiles_used[index] = (uint8_t)(rack_tiles - kept_tiles);
    }
    if (lookup) {
        for (uint32_t index = 0; index < sr->total; index++) {
            uint32_t rank = (uint32_t)sr->kept_value[index];
            sr->kept_value[index] = rank == UINT32_MAX ? 0 : opt->leaves->values[rank];
        }
        /* The whole rack kept (a pass): a full rack, which no table holds, is valued from the
         * sub-racks of one tile fewer, as gd_leaves_keep_value does; [stride] keeps all but one
         * tile of that code */
        if (rack_tiles == opt->leaves->max_leave + 1 && !opt->pass_as_zero) {
            int64_t sum = 0;
            for (uint32_t j = 0; j < sr->distinct; j++)
                sum += (int64_t)sr->have[j] * sr->kept_value[sr->stride[sr->code[j]]];
            sr->kept_value[0] = gd_full_rack_value(sum, rack_tiles);
        }
    }
    return GD_OK;
}

/* Every distinct exchange (when the bag allows) and the pass, into the output. */
static void add_exchanges_and_pass(line_walk *w, const gd_rules *rules, const subracks *sr,
                                   const gd_equity_options *opt)
{
    gd_move m;
    memset(&m, 0, sizeof m);
    if (opt->exchanges && opt->bag_count >= rules->exchange_minimum && opt->bag_count > 0) {
        uint8_t used[64] = {0};
        m.kind = GD_EXCHANGE;
        for (uint32_t index = 1; index < sr->total; index++) {
            if (sr->tiles_used[index] > opt->bag_count) continue; /* the bag must refill the rack first */
            if (w->by_equity && sr->kept_value[index] < entry_threshold(w)) {
                w->count++; /* as keep() counts a move it does not keep */
                continue;
            }
            subrack_used(sr, index, used);
            uint32_t n = 0;
            for (uint32_t j = 0; j < sr->distinct; j++)
                for (uint32_t k = 0; k < used[sr->code[j]]; k++) m.word[n++] = sr->code[j];
            memset(m.word + n, 0, GD_MAX_DIM - n);
            m.length = (uint8_t)n;
            m.equity = sr->kept_value[index];
            keep(w, &m);
        }
    }
    if (opt->pass) {
        memset(&m, 0, sizeof m);
        m.kind = GD_PASS;
        m.equity = sr->kept_value[0];
        keep(w, &m);
    }
}

/* ---- the generator's entry points ------------------------------------------------------------ */

/* Copy line `line` of `direction` from the board and workspace into the walk. Returns whether
 * it has an anchor. */
static int load_line(line_walk *w, const gd_rules *rules, const uint8_t *board, const gd_workspace *ws,
                     int direction, int line)
{
    const int cols = (int)rules->cols;
    w->direction = direction;
    w->line = line;
    w->length = direction == GD_ACROSS ? (int)rules->cols : (int)rules->rows;
    int any_anchor = 0;
    const int step = direction == GD_ACROSS ? 1 : cols; /* from one square of the line to the next */
    const uint64_t *cross_set = ws->cross_set[direction];
    const int32_t *cross_score = ws->cross_score[direction];
    const uint8_t *has_cross = ws->has_cross[direction];
    for (int p = 0, s = direction == GD_ACROSS ? line * cols : line; p < w->length; p++, s += step) {
        w->square[p] = board[s];
        w->is_anchor[p] = ws->anchor[s];
        any_anchor |= ws->anchor[s];
        w->has_cross[p] = has_cross[s];
        w->cross_set[p] = cross_set[s];
        w->cross_score[p] = cross_score[s];
        w->letter_multiplier[p] = rules->letter_multiplier[s];
        w->word_multiplier[p] = rules->word_multiplier[s];
    }
    w->fit_known = 0;
    return any_anchor;
}

static void walk_anchor(line_walk *w, int anchor, uint32_t root, uint64_t root_letters)
{
    w->anchor = anchor;
    w->pivot = anchor;
    while (w->pivot + 1 < w->length && w->square[w->pivot + 1]) w->pivot++;
    go_left(w, w->pivot, root, root_letters, 0, 1, 0, 0);
}

/*
 * Bounds for best-N by equity ("shadow" plays: placements without the lexicon).
 *
 * A play through anchor p covers p, some empty squares left of it (never another anchor) and
 * some right of it, and every tile next to those. For a placement with a empties on the left
 * and b on the right (k = a + b + 1 tiles placed) the squares are fixed, and its score is at
 * most: the face value of the board tiles in it times its word premium, plus each crossing
 * square's cross-word at its most, plus the rack's k best values paired best with the letter
 * premiums (times the word premium) and with the cross-word premiums, plus the bonus; its
 * equity adds the best value a leave of rack_size - k... kept tiles can have. A square no rack
 * tile can fill (its cross-set) ends the placement. Taking the widest extent for each (a, b)
 * covers every narrower one, since adding squares never lowers this bound.
 */
#define BOUND_MAX_PREMIUM 4 /* letter and word premiums the bucket counts handle */
#define MAX_CHECKED 64      /* sub-racks listed for the lexicon checks of main words through tiles */

typedef struct shadow_side {
    int64_t board;         /* face value of the tiles */
    unsigned through;      /* how many tiles */
    uint64_t through_sum;  /* their letters' anagram-filter hash */
    int64_t word_multiplier;
    int64_t cross_const;   /* cross-words' tiles, times their word premium */
    uint8_t lm[BOUND_MAX_PREMIUM + 1];                           /* empties by letter premium */
    int64_t main_cap;      /* the letter sum if each empty got the best rack tile its cross-set allows */
    int64_t cross_cap;     /* the same for the cross-words' new tiles, times their premiums */
} shadow_side;

typedef struct shadow_rack {
    int32_t values[GD_MAX_DIM]; /* the rack's tile values, highest first */
    int64_t prefix[GD_MAX_DIM + 1]; /* prefix[i]: the sum of the i highest */
    unsigned tiles;
    uint64_t letters;           /* letters on the rack */
    unsigned blanks;
    int32_t best_kept[GD_MAX_DIM + 1]; /* best kept value when k tiles are placed */
    int32_t blank_used_kept[GD_MAX_DIM + 1]; /* the same when k tiles with a blank among them are */
    int32_t blank_value;        /* a blank's value, or INT32_MIN without blanks */
    /* The lexicon: the sub-racks of checked_from tiles or more with at most one blank are listed
     * by size, best kept value first, with the hashes of their letters. For a placement of
     * k >= checked_from tiles, the first whose letters, with the board tiles in the main word,
     * may spell a word gives the best kept value; a sub-rack with a blank may spell one if its
     * letters and some letter do (one probe per letter of the alphabet). Sub-racks with two
     * blanks or more are not checked (blank_kept). Only the largest placements are checked: they
     * carry the bingo bonus, and for smaller ones some word nearly always exists, so probing
     * would cost more than it saves. */
    gd_anagram_filter filter;
    uint32_t alphabet_size;
    unsigned checked_from;
    uint8_t list_start[GD_MAX_DIM + 2]; /* sizes k: entries list_start[k] .. list_start[k + 1] */
    uint64_t list_sum[MAX_CHECKED];
    int32_t list_kept[MAX_CHECKED];
    uint8_t list_blank[MAX_CHECKED]; /* the sub-rack holds a blank (not in list_sum) */
    int32_t blank_kept[GD_MAX_DIM + 1]; /* best kept value of the sub-racks not checked */
    int32_t letters_kept[GD_MAX_DIM + 1]; /* best kept value when k tiles without a blank are placed */
} shadow_rack;

/* Which sub-racks a bound is for (through_kept, anchor_bound) */
#define SUBRACKS_ANY 0
#define SUBRACKS_WITH_BLANK 1
#define SUBRACKS_LETTERS_ONLY 2

/* The best kept value when k rack tiles are placed in a main word whose board tiles hash to
 * `board_sum`: over the sub-racks (`which`: SUBRACKS_*) whose letters with those tiles may spell a
 * word. */
static int32_t through_kept(const shadow_rack *sr, uint64_t board_sum, unsigned k, int which)
{
    int32_t best = which == SUBRACKS_LETTERS_ONLY ? INT32_MIN : sr->blank_kept[k];
    const unsigned start = sr->list_start[k], end = sr->list_start[k + 1];
    for (unsigned i = start; i < end && sr->list_kept[i] > best; i++)
        if (!sr->list_blank[i] && which != SUBRACKS_WITH_BLANK)
            gd_anagram_filter_prefetch(&sr->filter, board_sum + sr->list_sum[i]);
    for (unsigned i = start; i < end && sr->list_kept[i] > best; i++) {
        if (sr->list_blank[i] ? which != SUBRACKS_LETTERS_ONLY &&
                                    gd_anagram_filter_may_spell_with_blank(&sr->filter, board_sum + sr->list_sum[i],
                                                                           sr->alphabet_size)
                              : which != SUBRACKS_WITH_BLANK &&
                                    gd_anagram_filter_may_spell(&sr->filter, board_sum + sr->list_sum[i]))
            return sr->list_kept[i];
    }
    return best;
}

static inline int fillable(const line_walk *w, const shadow_rack *sr, int q)
{
    return (w->cross_set[q] & sr->letters) || (sr->blanks && w->cross_set[q]);
}

/* The highest value of a rack tile allowed on empty square q (see line_walk.fit). */
static int32_t best_fit(line_walk *w, int q)
{
    if ((w->fit_known >> q) & 1u) return w->fit[q];
    const uint64_t allowed = w->cross_set[q];
    int32_t best = allowed ? w->fit_blank : INT32_MIN;
    for (unsigned i = 0; i < w->fit_count; i++) {
        const unsigned letter = w->fit_order[i];
        if ((allowed >> letter) & 1u) {
            if (w->values[letter] > best) best = w->values[letter];
            break;
        }
    }
    w->fit[q] = best;
    w->fit_known |= 1u << q;
    return best;
}

static void side_add_empty(shadow_side *side, line_walk *w, int q)
{
    const unsigned lm = w->letter_multiplier[q], wm = w->word_multiplier[q];
    const int64_t fit = best_fit(w, q);
    side->word_multiplier *= wm;
    side->lm[lm]++;
    side->main_cap += fit * lm;
    if (w->has_cross[q]) {
        side->cross_const += (int64_t)w->cross_score[q] * wm;
        side->cross_cap += fit * lm * wm;
    }
}

static inline int64_t tile_face(const line_walk *w, uint8_t here)
{
    return (here & GD_BLANK_FLAG) ? w->values[0] : w->values[here & 63u];
}

static inline void side_add_tile(shadow_side *side, const line_walk *w, const shadow_rack *sr, uint8_t here)
{
    side->board += tile_face(w, here);
    side->through++;
    if (sr->filter.letter_hash) side->through_sum += sr->filter.letter_hash[here & 63u];
}

/* The placements through anchor p: the center (p, the tiles right of it up to the pivot and the
 * tiles just left of it, which a play through p includes), and the sides grown one empty square
 * (and the tiles next to it) at a time: lefts[a] adds a empties on the left, never another anchor,
 * rights[b] b on the right. A square no rack tile fits ends a side. first[a] and last[b] are the
 * line positions where the main word then starts and ends. */
typedef struct shadow_placements {
    shadow_side center, lefts[GD_MAX_DIM], rights[GD_MAX_DIM];
    unsigned n_left, n_right;
    uint8_t first[GD_MAX_DIM], last[GD_MAX_DIM];
} shadow_placements;

static void shadow_sides(line_walk *w, int p, const shadow_rack *sr, shadow_placements *sp)
{
    const unsigned tiles = sr->tiles;
    shadow_side *center = &sp->center;
    memset(center, 0, sizeof *center);
    center->word_multiplier = 1;
    side_add_empty(center, w, p);
    int right = p;
    while (right + 1 < w->length && w->square[right + 1]) side_add_tile(center, w, sr, w->square[++right]);
    int left = p;
    while (left > 0 && w->square[left - 1]) side_add_tile(center, w, sr, w->square[--left]);

    shadow_side *lefts = sp->lefts, *rights = sp->rights;
    unsigned n_left = 1, n_right = 1;
    memset(&lefts[0], 0, sizeof lefts[0]);
    lefts[0].word_multiplier = 1;
    sp->first[0] = (uint8_t)left;
    while (n_left < tiles && left > 0 && !w->is_anchor[left - 1] && fillable(w, sr, left - 1)) {
        shadow_side *side = &lefts[n_left];
        *side = lefts[n_left - 1];
        side_add_empty(side, w, --left);
        while (left > 0 && w->square[left - 1]) side_add_tile(side, w, sr, w->square[--left]);
        sp->first[n_left++] = (uint8_t)left;
    }
    memset(&rights[0], 0, sizeof rights[0]);
    rights[0].word_multiplier = 1;
    sp->last[0] = (uint8_t)right;
    while (n_right < tiles && right + 1 < w->length && fillable(w, sr, right + 1)) {
        shadow_side *side = &rights[n_right];
        *side = rights[n_right - 1];
        side_add_empty(side, w, ++right);
        while (right + 1 < w->length && w->square[right + 1]) side_add_tile(side, w, sr, w->square[++right]);
        sp->last[n_right++] = (uint8_t)right;
    }
    sp->n_left = n_left;
    sp->n_right = n_right;
}

/* The terms of the highest score a play of k = a + b + 1 rack tiles on placement (a, b) can have:
 * with `main` the k tiles' values paired best with the letter premiums (the highest on the 4s,
 * then 3s, 2s, the rest 1), each empty square capped by the best tile its cross-set allows, it is
 * (board + min(main, main_cap)) * word_multiplier + rest (placement_score). */
typedef struct placement_terms {
    int64_t board, main_cap, word_multiplier, rest;
    unsigned n4, n3, n2; /* how many of the values count 4, 3, 2 times: prefix sums up to these */
} placement_terms;

static void placement_terms_of(const line_walk *w, const shadow_placements *sp, unsigned a, unsigned b,
                               placement_terms *t)
{
    const shadow_side *c = &sp->center, *l = &sp->lefts[a], *r = &sp->rights[b];
    const unsigned k = a + b + 1;
    t->n4 = c->lm[4] + l->lm[4] + r->lm[4];
    t->n3 = t->n4 + c->lm[3] + l->lm[3] + r->lm[3];
    t->n2 = t->n3 + c->lm[2] + l->lm[2] + r->lm[2];
    t->board = c->board + l->board + r->board;
    t->main_cap = c->main_cap + l->main_cap + r->main_cap;
    t->word_multiplier = c->word_multiplier * l->word_multiplier * r->word_multiplier;
    t->rest = c->cross_const + l->cross_const + r->cross_const + c->cross_cap + l->cross_cap + r->cross_cap +
              (k == w->rack_size ? w->bingo_bonus : 0);
}

/* The bound, given the prefix sums of the values placed (highest first) up to k, n4, n3 and n2. */
static inline int64_t placement_score(const placement_terms *t, int64_t main_k, int64_t main_n4, int64_t main_n3,
                                      int64_t main_n2)
{
    const int64_t main = main_k + main_n4 + main_n3 + main_n2; /* each prefix adds one premium level */
    return (t->board + (main < t->main_cap ? main : t->main_cap)) * t->word_multiplier + t->rest;
}

/* The bound of anchor p. With `refine`, placements through board tiles that could beat
 * `threshold` are also checked against the lexicon (the filter's probes cost more than the rest,
 * so this is done only for anchors about to be walked). `unchecked` (may be NULL) gets the best
 * bound of the placements no check applies to: no check can bring the anchor's bound below it.
 * `blank_used` (may be NULL; with `refine`) gets the bound of the plays that use a blank. With
 * `letters_only`, the bound returned is that of the plays of the rack's letters alone. */
static int64_t anchor_bound(line_walk *w, int p, const shadow_rack *sr, int refine, int64_t threshold,
                            int64_t *unchecked, int64_t *blank_used, int letters_only)
{
    if (!fillable(w, sr, p)) return INT64_MIN;
    const unsigned tiles = sr->tiles;
    shadow_placements sp;
    shadow_sides(w, p, sr, &sp);
    const shadow_side *center = &sp.center;
    const unsigned n_left = sp.n_left, n_right = sp.n_right;

    /* the checks' answers by the board tiles taken on each side (their counts name them: the
     * sides only grow) and the tiles placed */
    struct {
        uint8_t left_through, right_through;
        int32_t kept[3], blank_kept[3];
    } checked[16];
    unsigned n_checked = 0;
    int64_t best = INT64_MIN;
    for (unsigned a = 0; a < n_left; a++) {
        const shadow_side *l = &sp.lefts[a];
        for (unsigned b = 0; b < n_right && a + b + 1 <= tiles; b++) {
            const shadow_side *r = &sp.rights[b];
            const unsigned k = a + b + 1;
            const int32_t kept = letters_only ? sr->letters_kept[k] : sr->best_kept[k];
            placement_terms t;
            placement_terms_of(w, &sp, a, b, &t);
            const int64_t score =
                placement_score(&t, sr->prefix[k], sr->prefix[t.n4], sr->prefix[t.n3], sr->prefix[t.n2]);
            int64_t equity = kept == INT32_MIN ? INT64_MIN : 100 * score + kept; /* INT32_MIN: no such sub-rack */
            if (refine && k >= sr->checked_from && kept != INT32_MIN && equity >= threshold) {
                unsigned i = 0;
                while (i < n_checked && (checked[i].left_through != l->through || checked[i].right_through != r->through))
                    i++;
                if (i == n_checked && n_checked < 16) {
                    checked[n_checked].left_through = (uint8_t)l->through;
                    checked[n_checked].right_through = (uint8_t)r->through;
                    for (unsigned j = 0; j < 3; j++) /* not asked yet */
                        checked[n_checked].kept[j] = checked[n_checked].blank_kept[j] = INT32_MAX;
                    n_checked++;
                }
                int32_t *memo = i < n_checked ? &checked[i].kept[k - sr->checked_from] : NULL;
                int32_t kept_checked = memo ? *memo : INT32_MAX;
                if (kept_checked == INT32_MAX) {
                    kept_checked = through_kept(sr, center->through_sum + l->through_sum + r->through_sum, k,
                                                letters_only ? SUBRACKS_LETTERS_ONLY : SUBRACKS_ANY);
                    if (memo) *memo = kept_checked;
                }
                if (kept_checked == INT32_MIN && !letters_only) continue; /* nothing spells a word here */
                equity = kept_checked == INT32_MIN ? INT64_MIN : 100 * score + kept_checked;
                if (blank_used && 100 * score + sr->blank_used_kept[k] > *blank_used) {
                    int32_t *blank_memo = i < n_checked ? &checked[i].blank_kept[k - sr->checked_from] : NULL;
                    int32_t blank_checked = blank_memo ? *blank_memo : INT32_MAX;
                    if (blank_checked == INT32_MAX) {
                        blank_checked = through_kept(sr, center->through_sum + l->through_sum + r->through_sum, k,
                                                     SUBRACKS_WITH_BLANK);
                        if (blank_memo) *blank_memo = blank_checked;
                    }
                    if (blank_checked != INT32_MIN && 100 * score + blank_checked > *blank_used)
                        *blank_used = 100 * score + blank_checked;
                }
            } else if (blank_used && sr->blank_used_kept[k] != INT32_MIN &&
                       100 * score + sr->blank_used_kept[k] > *blank_used) {
                *blank_used = 100 * score + sr->blank_used_kept[k];
            }
            if (equity > best) best = equity;
            if (unchecked && k < sr->checked_from && equity > *unchecked) *unchecked = equity;
        }
    }
    return best;
}

/*
 * The plays that use a blank, from the word map (word_map.c), for racks with one blank. After the
 * plays of the rack's letters alone (the first pass), a play that gives up the blank can beat the
 * best move kept mostly only as a bingo, so few sub-racks reach it; walking an anchor tries every
 * letter for the blank along every path, where the map is asked for the words of each sub-rack
 * that can reach it, the blank standing for each letter in turn. Each placement through the anchor
 * (the bounds' (a, b)) is filled by the sub-racks of its size that hold the blank, best kept value
 * first; placements with the same number of tiles and board tiles share their lookups. A word is a
 * play where its letters match the board tiles and the cross-sets, the blank on any square that
 * holds its letter (each such square a play of its own).
 */
#define MAP_SUBRACKS 256 /* racks with more sub-racks are walked */
#define MAP_TILES 8        /* and racks of more tiles */

typedef struct map_subracks {
    uint16_t start[GD_MAX_DIM + 2]; /* sub-racks of k tiles with the blank: entries start[k] .. start[k + 1] */
    uint16_t index[MAP_SUBRACKS];   /* the sub-rack (subracks numbering) */
    int32_t kept[MAP_SUBRACKS];     /* what keeping the rest is worth; descending within a size */
    uint64_t key[MAP_SUBRACKS];     /* the word map's key of its letters, the blank not counted */
    int32_t prefix[MAP_SUBRACKS][MAP_TILES + 1]; /* prefix sums of its values (the blank's too), highest first */
} map_subracks;

static void map_subracks_init(map_subracks *ms, const line_walk *w, const subracks *sr, const uint64_t *letter_hash)
{
    memset(ms->start, 0, sizeof ms->start);
    for (uint32_t index = 0; index < sr->total; index++)
        if (subrack_blanks(sr, index)) ms->start[sr->tiles_used[index] + 1]++;
    for (unsigned k = 1; k < GD_MAX_DIM + 2; k++) ms->start[k] += ms->start[k - 1];
    uint16_t fill[GD_MAX_DIM + 1];
    memcpy(fill, ms->start, sizeof fill);
    uint8_t used[64] = {0};
    for (uint32_t index = 0; index < sr->total; index++) {
        if (!subrack_blanks(sr, index)) continue;
        const int32_t kept = sr->kept_value[index];
        const unsigned k = sr->tiles_used[index];
        unsigned j = fill[k]++;
        for (; j > ms->start[k] && ms->kept[j - 1] < kept; j--) { /* stable: the lower index first on ties */
            ms->index[j] = ms->index[j - 1];
            ms->kept[j] = ms->kept[j - 1];
            ms->key[j] = ms->key[j - 1];
            memcpy(ms->prefix[j], ms->prefix[j - 1], sizeof ms->prefix[j]);
        }
        subrack_used(sr, index, used);
        uint64_t key = 0;
        int32_t values[MAP_TILES];
        unsigned n = 0;
        for (uint32_t d = 0; d < sr->distinct; d++) {
            const unsigned code = sr->code[d];
            if (code) key += used[code] * letter_hash[code];
            for (unsigned u = 0; u < used[code]; u++) {
                unsigned i = n++;
                for (; i > 0 && values[i - 1] < w->values[code]; i--) values[i] = values[i - 1];
                values[i] = w->values[code];
            }
        }
        ms->index[j] = (uint16_t)index;
        ms->kept[j] = kept;
        ms->key[j] = key;
        ms->prefix[j][0] = 0;
        for (unsigned i = 0; i < MAP_TILES; i++) ms->prefix[j][i + 1] = ms->prefix[j][i] + (i < n ? values[i] : 0);
    }
}

/* Word `word` (whose letters are those of the sub-rack's with `letter` for the blank, and the
 * board tiles) on line positions first..last: kept, with the blank on each empty square that holds
 * `letter`, if its letters match the board tiles and the cross-sets. */
static void map_try_word(line_walk *w, const uint8_t *word, unsigned letter, int first, int last, int32_t board,
                         int32_t word_multiplier, int32_t cross_const, unsigned k, uint32_t used_index)
{
    int32_t main = board, cross = cross_const;
    for (int pos = first; pos <= last; pos++) {
        const unsigned here_letter = word[pos - first];
        const uint8_t here = w->square[pos];
        if (here) {
            if ((here & 63u) != here_letter) return;
            w->word[pos] = (uint8_t)(here | GD_ON_BOARD_FLAG);
            continue;
        }
        if (!((w->cross_set[pos] >> here_letter) & 1u)) return;
        const int32_t letter_score = w->values[here_letter] * w->letter_multiplier[pos];
        main += letter_score;
        if (w->has_cross[pos]) cross += letter_score * w->word_multiplier[pos];
        w->word[pos] = (uint8_t)here_letter;
    }
    const int32_t bonus = k == w->rack_size ? w->bingo_bonus : 0;
    w->used_index = used_index;
    for (int pos = first; pos <= last; pos++) {
        if (w->square[pos] || w->word[pos] != letter) continue;
        /* the blank here: its letter scores the blank's value instead, in both words */
        const int32_t delta = (w->values[letter] - w->values[0]) * w->letter_multiplier[pos];
        const int32_t lost = delta * word_multiplier + (w->has_cross[pos] ? delta * w->word_multiplier[pos] : 0);
        w->word[pos] = (uint8_t)(letter | GD_BLANK_FLAG);
        emit(w, first, last, main * word_multiplier + cross + bonus - lost, k);
        w->word[pos] = (uint8_t)letter;
    }
    w->used_index = 0;
}

typedef struct map_placement {
    placement_terms t;
    int64_t score; /* with the rack's best tiles */
    uint64_t through; /* the key of its board tiles */
    uint8_t a, b, k, done;
} map_placement;

/* The plays through anchor p that use the rack's one blank, from the word map. */
static void map_blank_anchor(line_walk *w, int p, const shadow_rack *sr, const map_subracks *ms,
                             const gd_word_map *map)
{
    if (!fillable(w, sr, p)) return;
    shadow_placements sp;
    shadow_sides(w, p, sr, &sp);
    map_placement placements[MAP_TILES * (MAP_TILES + 1) / 2]; /* a + b < tiles <= MAP_TILES */
    unsigned n = 0;
    const int64_t threshold = entry_threshold(w);
    for (unsigned a = 0; a < sp.n_left; a++) {
        for (unsigned b = 0; b < sp.n_right && a + b + 1 <= sr->tiles; b++) {
            const unsigned k = a + b + 1;
            if (sp.last[b] == sp.first[a]) continue; /* one letter is not a word */
            if (k == 1 && w->direction == GD_DOWN && w->has_cross[p])
                continue; /* a single tile that also forms an across word is the across pass's */
            map_placement *m = &placements[n];
            placement_terms_of(w, &sp, a, b, &m->t);
            const placement_terms *t = &m->t;
            m->score = placement_score(t, sr->prefix[k], sr->prefix[t->n4], sr->prefix[t->n3], sr->prefix[t->n2]);
            if (sr->blank_used_kept[k] == INT32_MIN || 100 * m->score + sr->blank_used_kept[k] < threshold) continue;
            m->through = sp.center.through_sum + sp.lefts[a].through_sum + sp.rights[b].through_sum;
            m->a = (uint8_t)a;
            m->b = (uint8_t)b;
            m->k = (uint8_t)k;
            m->done = 0;
            n++;
        }
    }
    const uint64_t *letter_hash = sr->filter.letter_hash;
    for (unsigned g = 0; g < n; g++) {
        if (placements[g].done) continue;
        /* the group: placements g.. with g's number of tiles and board tiles */
        const unsigned k = placements[g].k;
        const uint64_t through = placements[g].through;
        uint8_t members[MAP_TILES * (MAP_TILES + 1) / 2];
        unsigned n_members = 0;
        int64_t group_score = INT64_MIN;
        for (unsigned i = g; i < n; i++)
            if (placements[i].k == k && placements[i].through == through) {
                placements[i].done = 1;
                members[n_members++] = (uint8_t)i;
                if (placements[i].score > group_score) group_score = placements[i].score;
            }
        for (unsigned j = ms->start[k]; j < ms->start[k + 1]; j++) {
            if (100 * group_score + ms->kept[j] < entry_threshold(w)) break;
            const int32_t *own = ms->prefix[j];
            int64_t own_best = INT64_MIN;
            for (unsigned i = 0; i < n_members; i++) {
                const placement_terms *t = &placements[members[i]].t;
                const int64_t bound = placement_score(t, own[k], own[t->n4], own[t->n3], own[t->n2]);
                if (bound > own_best) own_best = bound;
            }
            if (100 * own_best + ms->kept[j] < entry_threshold(w)) continue; /* its own tiles score less */
            const uint64_t key = through + ms->key[j];
            for (unsigned letter = 1; letter <= sr->alphabet_size; letter++) {
                if (!gd_anagram_filter_may_spell(&sr->filter, key + letter_hash[letter])) continue;
                const uint32_t e = gd_word_map_find(map, key + letter_hash[letter]);
                if (e == GD_WORD_MAP_END) continue;
                for (unsigned i = 0; i < n_members; i++) {
                    const map_placement *m = &placements[members[i]];
                    const placement_terms *t = &m->t;
                    if (100 * placement_score(t, own[k], own[t->n4], own[t->n3], own[t->n2]) + ms->kept[j] <
                        entry_threshold(w))
                        continue;
                    const shadow_side *c = &sp.center, *l = &sp.lefts[m->a], *r = &sp.rights[m->b];
                    const int32_t board = (int32_t)(c->board + l->board + r->board);
                    const int32_t multiplier = (int32_t)(c->word_multiplier * l->word_multiplier * r->word_multiplier);
                    const int32_t cross_const = (int32_t)(c->cross_const + l->cross_const + r->cross_const);
                    for (uint32_t x = e; x != GD_WORD_MAP_END; x = map->next[x])
                        map_try_word(w, map->letters + map->words[x], letter, sp.first[m->a], sp.last[m->b], board,
                                     multiplier, cross_const, k, ms->index[j]);
                }
            }
        }
    }
}

typedef struct anchor_job {
    /* the bound and the job's place in generation order as one number, so that the heap compares
     * one integer: the higher bound first, then the lower direction, line and anchor (job_order) */
    uint64_t order;
    int32_t blank_bound; /* the bound of the plays using a blank (line_walk.blank_bound) */
    uint8_t line, direction, anchor; /* lines and squares are below GD_MAX_DIM */
    uint8_t refined; /* the bound includes the lexicon checks */
} anchor_job;

static uint64_t job_order(int32_t bound, unsigned direction, unsigned line, unsigned anchor)
{
    return (uint64_t)((uint32_t)bound ^ 0x80000000u) << 32 | (uint64_t)(255u - direction) << 16 |
           (uint64_t)(255u - line) << 8 | (uint64_t)(255u - anchor);
}

static int32_t job_bound(const anchor_job *job)
{
    return (int32_t)((uint32_t)(job->order >> 32) ^ 0x80000000u);
}

/* Whether job x is walked before job y: the higher bound, then generation order. */
static int job_before(const anchor_job *x, const anchor_job *y) { return x->order > y->order; }

/* jobs[0..n) is a heap whose root is the job to walk next. */
static void job_sift_down(anchor_job *jobs, size_t n, size_t i)
{
    for (;;) {
        size_t first = i, l = 2 * i + 1, r = l + 1;
        if (l < n && job_before(&jobs[l], &jobs[first])) first = l;
        if (r < n && job_before(&jobs[r], &jobs[first])) first = r;
        if (first == i) return;
        anchor_job t = jobs[i];
        jobs[i] = jobs[first];
        jobs[first] = t;
        i = first;
    }
}

static int32_t clamp_bound(int64_t bound)
{
    return bound > INT32_MAX ? INT32_MAX : bound < INT32_MIN ? INT32_MIN : (int32_t)bound;
}

/* What the bounds know of the rack: the best kept value for each number of tiles placed, and
 * (see shadow_rack) what the lexicon checks need. */
static void shadow_lexicon_init(shadow_rack *rack_info, const line_walk *w, const subracks *sr, const gd_lexicon *lex)
{
    const unsigned tiles = rack_info->tiles;
    rack_info->filter = gd_lexicon_anagram_filter(lex);
    rack_info->alphabet_size = lex->alphabet_size;
    for (unsigned k = 0; k <= tiles; k++)
        rack_info->best_kept[k] = rack_info->blank_kept[k] = rack_info->blank_used_kept[k] =
            rack_info->letters_kept[k] = INT32_MIN;
    /* the sub-racks of the rack's size and the one below it */
    rack_info->checked_from = tiles > 1 ? tiles - 1 : 1;
    if (!rack_info->filter.blocks) rack_info->checked_from = GD_MAX_DIM + 1; /* nothing to check with */
    uint32_t listed_index[MAX_CHECKED];
    unsigned listed_size[MAX_CHECKED], n_listed = 0;
    uint8_t used[64] = {0};
    for (uint32_t index = 0; index < sr->total; index++) {
        const unsigned k = sr->tiles_used[index];
        const int32_t kept = w->by_equity ? sr->kept_value[index] : 0; /* by score: only the score counts */
        if (kept > rack_info->best_kept[k]) rack_info->best_kept[k] = kept;
        if (!subrack_blanks(sr, index) && kept > rack_info->letters_kept[k]) rack_info->letters_kept[k] = kept;
        if (subrack_blanks(sr, index) && kept > rack_info->blank_used_kept[k]) rack_info->blank_used_kept[k] = kept;
        if (k < rack_info->checked_from) continue;
        if (subrack_blanks(sr, index) > 1) {
            if (kept > rack_info->blank_kept[k]) rack_info->blank_kept[k] = kept;
        } else if (n_listed < MAX_CHECKED) {
            listed_index[n_listed] = index;
            listed_size[n_listed++] = k;
        } else {
            rack_info->checked_from = GD_MAX_DIM + 1; /* too many to list: no checks */
        }
    }
    /* by size, then best kept value first (a stable insertion sort: few entries) */
    unsigned order[MAX_CHECKED];
    for (unsigned i = 0; i < n_listed; i++) {
        unsigned j = i;
        for (; j > 0; j--) {
            const unsigned o = order[j - 1];
            const int32_t kept_o = w->by_equity ? sr->kept_value[listed_index[o]] : 0;
            const int32_t kept_i = w->by_equity ? sr->kept_value[listed_index[i]] : 0;
            if (listed_size[o] < listed_size[i] || (listed_size[o] == listed_size[i] && kept_o >= kept_i)) break;
            order[j] = o;
        }
        order[j] = i;
    }
    memset(rack_info->list_start, 0, sizeof rack_info->list_start);
    for (unsigned i = 0; i < n_listed; i++) {
        const unsigned o = order[i];
        subrack_used(sr, listed_index[o], used);
        uint64_t sum = 0;
        for (uint32_t j = 0; j < sr->distinct; j++)
            if (sr->code[j]) sum += used[sr->code[j]] * rack_info->filter.letter_hash[sr->code[j]];
        rack_info->list_sum[i] = sum;
        rack_info->list_blank[i] = used[0] != 0;
        rack_info->list_kept[i] = w->by_equity ? sr->kept_value[listed_index[o]] : 0;
        rack_info->list_start[listed_size[o] + 1]++;
    }
    for (unsigned k = 1; k <= GD_MAX_DIM + 1; k++) rack_info->list_start[k] += rack_info->list_start[k - 1];
}

/* Whether plays in `direction` are asked for (GD_DIRECTIONS_*): the other direction is not walked. */
static inline int direction_wanted(const line_walk *w, int direction)
{
    return w->directions == GD_DIRECTIONS_BOTH ||
           w->directions == (direction == GD_ACROSS ? GD_DIRECTIONS_ACROSS : GD_DIRECTIONS_DOWN);
}

/* Walk every anchor in generation order (direction, line, square), from the anchor at `square` of
 * `line` in `direction` on, until the walk stops (a full stream buffer). */
static void walk_from(line_walk *w, const gd_rules *rules, const uint8_t *board, const gd_workspace *ws,
                      int direction0, int line0, int square0)
{
    const uint32_t root = gd_walk_child(w->walk[0]); /* arc 0 is the entry arc: its child is the root's list */
    const uint64_t root_letters = next_letters(w, 0);
    for (int direction = direction0; direction < 2 && !w->stopped; direction++) {
        if (!direction_wanted(w, direction)) continue;
        const int lines = direction == GD_ACROSS ? (int)rules->rows : (int)rules->cols;
        for (int line = direction == direction0 ? line0 : 0; line < lines && !w->stopped; line++) {
            if (!load_line(w, rules, board, ws, direction, line)) continue;
            const int first = direction == direction0 && line == line0 ? square0 : 0;
            for (int p = first; p < w->length && !w->stopped; p++)
                if (w->is_anchor[p]) walk_anchor(w, p, root, root_letters);
        }
    }
}

/* The checks and set-up both generators share: the walk `w` ready for the rack, and with options
 * the table of what each sub-rack keeps is worth (`sr`). */
static int start_walk(line_walk *w, subracks *sr, const gd_lexicon *lex, const gd_rules *rules, const uint8_t *board,
                      const void *workspace, const uint8_t *rack_counts, const gd_equity_options *options,
                      int horizon, uint32_t top_n, gd_move *out, size_t capacity, size_t *count, gd_error *err)
{
    if (!lex || !lex->arcs || !board || !workspace || !rack_counts || !count || (!out && capacity))
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "missing argument");
    *count = 0;
    if (!lex->walk)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the lexicon has no walk index (see gd_build_walk_index)");
    const gd_workspace *ws = workspace;
    int rc = gd_check_prepared_rules(ws, rules, err);
    if (rc) return rc;
    if (ws->magic != GD_WORKSPACE_MAGIC || ws->rows != rules->rows || ws->cols != rules->cols ||
        ws->alphabet_size != lex->alphabet_size)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the workspace was not prepared for this board and lexicon");
    if (options && options->leaves && options->leaves->alphabet_size != lex->alphabet_size)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the leave table has %u letters, the lexicon %u",
                            options->leaves->alphabet_size, lex->alphabet_size);

    w->walk = lex->walk;
    w->walk_high = lex->walk_high;
    w->rules = rules;
    w->out = out;
    w->capacity = capacity;
    w->count = 0;
    w->top_n = top_n;
    w->rack_size = rules->rack_size;
    w->bingo_bonus = rules->bingo_bonus;
    w->kept_value = NULL;
    memset(w->stride, 0, sizeof w->stride);
    w->used_index = 0;
    w->by_equity = options ? (int)options->by_equity : 0;
    w->directions = options ? options->directions : GD_DIRECTIONS_BOTH;
    memset(&w->work, 0, sizeof w->work);
    if (w->directions > GD_DIRECTIONS_DOWN)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "directions %u is not one of both (0), across (1), down (2)",
                            w->directions);
    if (lex->flags & GD_LEXICON_DAWG)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "a DAWG was given to the GADDAG generator (see gd_dawg_generate)");
    memcpy(w->values, rules->values, sizeof w->values);
    memset(w->rack, 0, sizeof w->rack);
    memset(w->used, 0, sizeof w->used);
    w->blanks = rack_counts[0];
    w->unused_letters = 0;
    w->blanks_needed = 0;
    w->placed_count = 0;
    w->tiles_left = rack_counts[0];
    for (unsigned c = 1; c <= lex->alphabet_size; c++) {
        w->rack[c] = rack_counts[c];
        w->tiles_left += rack_counts[c];
        if (rack_counts[c]) w->unused_letters |= 1ull << c;
    }
    if (w->tiles_left > GD_MAX_DIM)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "a rack of %u tiles is more than a line holds", w->tiles_left);
    for (unsigned c = lex->alphabet_size + 1; c < 64; c++)
        if (rack_counts[c])
            return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the rack holds %u tiles of code %u, not a letter (1 to %u)",
                                rack_counts[c], c, lex->alphabet_size);
    if (w->tiles_left > rules->rack_size)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "a rack of %u tiles is more than the rack size, %u",
                            w->tiles_left, rules->rack_size);
    if (options && (options->opponent_rack_value < 0 || options->opponent_rack_value > GD_MAX_RACK_VALUE))
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the opponent's rack value %d is out of range (0 to %d)",
                            (int)options->opponent_rack_value, GD_MAX_RACK_VALUE);
    if (options) {
        uint8_t rack[64] = {0};
        for (unsigned c = 0; c <= lex->alphabet_size; c++) rack[c] = rack_counts[c];
        rc = subracks_init(sr, rules, rack, lex->alphabet_size, options, horizon, err);
        if (rc) return rc;
        w->kept_value = sr->kept_value;
        memcpy(w->stride, sr->stride, sizeof w->stride);
    }
    w->stream = w->stopped = w->replaying = 0;
    w->best_kept = NULL;
    w->blank_bound = INT64_MAX;
    w->blank_use = BLANKS_ANY;
    w->direction = w->line = w->anchor = 0;
    memset(w->target_square, 0, sizeof w->target_square);
    w->target_left = w->target_right = -1;
    return GD_OK;
}

static int generate_equity(const gd_lexicon *lex, const gd_rules *rules, const uint8_t *board, const void *workspace,
                           const uint8_t *rack_counts, const gd_equity_options *options, int horizon, uint32_t top_n,
                           gd_move *out, size_t capacity, size_t *count, gd_error *err)
{
    line_walk w;
    subracks sr;
    int rc = start_walk(&w, &sr, lex, rules, board, workspace, rack_counts, options, horizon, top_n, out, capacity,
                        count, err);
    if (rc) return rc;
    const unsigned tiles = w.tiles_left;
    const gd_workspace *ws = workspace;
    if (options) add_exchanges_and_pass(&w, rules, &sr, options);

    /* arc 0 is the entry arc: its child is the root's list */
    const uint32_t root = gd_walk_child(w.walk[0]);
    const uint64_t root_letters = next_letters(&w, 0);
    const int rows = (int)rules->rows, cols = (int)rules->cols;
    const int prune = options && options->prune && top_n > 0 && capacity > 0 && tiles > 0;
    if (!prune) {
        /* the best move alone (the endgame's horizon): a play's blank choices are tried only if
         * the best kept value for its number of tiles could lift it to the move kept */
        int32_t best_kept[GD_MAX_DIM + 1];
        if (horizon && top_n == 1 && w.by_equity && rack_counts[0]) {
            for (unsigned k = 0; k <= tiles; k++) best_kept[k] = INT32_MIN;
            for (uint32_t index = 0; index < sr.total; index++)
                if (sr.kept_value[index] > best_kept[sr.tiles_used[index]])
                    best_kept[sr.tiles_used[index]] = sr.kept_value[index];
            w.best_kept = best_kept;
        }
        walk_from(&w, rules, board, ws, 0, 0, 0);
        *count = w.count;
        if (options && options->work) *options->work = w.work;
        return GD_OK;
    }

    /* Best N by equity: walk the anchors from the highest bound down, and stop once no
     * remaining anchor can beat the N-th move kept. Premiums beyond the bound's buckets (only
     * in hand-made rules) switch the bound off. */
    shadow_rack rack_info;
    int bounded = 1;
    for (uint32_t q = 0; q < rules->rows * rules->cols; q++)
        if (rules->letter_multiplier[q] > BOUND_MAX_PREMIUM || rules->word_multiplier[q] > BOUND_MAX_PREMIUM)
            bounded = 0;
    rack_info.tiles = tiles;
    rack_info.blanks = rack_counts[0];
    rack_info.letters = w.unused_letters;
    rack_info.blank_value = rack_counts[0] ? rules->values[0] : INT32_MIN;
    unsigned n_values = 0;
    for (unsigned c = 0; c <= lex->alphabet_size; c++)
        for (unsigned k = 0; k < rack_counts[c]; k++) rack_info.values[n_values++] = rules->values[c];
    for (unsigned i = 1; i < n_values; i++)
        for (unsigned j = i; j > 0 && rack_info.values[j] > rack_info.values[j - 1]; j--) {
            int32_t t = rack_info.values[j];
            rack_info.values[j] = rack_info.values[j - 1];
            rack_info.values[j - 1] = t;
        }
    rack_info.prefix[0] = 0;
    for (unsigned i = 0; i < n_values; i++) rack_info.prefix[i + 1] = rack_info.prefix[i] + rack_info.values[i];
    shadow_lexicon_init(&rack_info, &w, &sr, lex);
    w.fit_blank = rack_info.blank_value;
    w.fit_count = 0;
    for (unsigned c = 1; c <= lex->alphabet_size; c++) {
        if (!rack_counts[c]) continue;
        unsigned i = w.fit_count++;
        for (; i > 0 && w.values[w.fit_order[i - 1]] < w.values[c]; i--) w.fit_order[i] = w.fit_order[i - 1];
        w.fit_order[i] = (uint8_t)c;
    }
    w.best_kept = rack_info.best_kept;
    anchor_job jobs[2 * GD_MAX_SQUARES]; /* a heap */
    size_t n_jobs = 0;
    /* a separate bound for the plays that use a blank: keeping one is worth more than most
     * leaves, so it is often well below the anchor's, and the walk's blank branches are most of
     * its work */
    int64_t blank_used = INT64_MIN;
    int blank_bound_differs = 0; /* only if a play using a blank keeps less for some number of tiles */
    for (unsigned k = 1; k <= tiles; k++) blank_bound_differs |= rack_info.blank_used_kept[k] < rack_info.best_kept[k];
    int64_t *const blank_bound_wanted = rack_info.blanks && w.by_equity && blank_bound_differs ? &blank_used : NULL;
    /* With blanks on the rack, two passes: first the plays of the rack's letters alone, which keep
     * the blanks, each anchor in the order of its bound for those, then the plays that use one, in
     * the order of their bound. Keeping a blank is worth more than most leaves, so after the first
     * pass few anchors and few sub-racks can still beat the best move, mostly as bingos; with one
     * blank those plays come from the word map (map_blank_anchor) instead of a walk that tries
     * every letter for the blank along every path. Each play is made by one pass, so the moves
     * kept are those of one pass over all plays. */
    const int two_passes = blank_bound_wanted && bounded;
    for (int direction = 0; direction < 2; direction++) {
        if (!direction_wanted(&w, direction)) continue;
        int lines = direction == GD_ACROSS ? rows : cols;
        for (int line = 0; line < lines; line++) {
            if (!load_line(&w, rules, board, ws, direction, line)) continue;
            for (int p = 0; p < w.length; p++) {
                if (!w.is_anchor[p]) continue;
                int64_t unchecked = INT64_MIN;
                blank_used = INT64_MIN;
                int64_t bound =
                    bounded ? anchor_bound(&w, p, &rack_info, 0, 0, &unchecked, blank_bound_wanted, two_passes)
                            : INT32_MAX;
                if (bound == INT64_MIN && blank_used == INT64_MIN) continue; /* no rack tile fits the anchor */
                jobs[n_jobs].order = job_order(clamp_bound(bound), (unsigned)direction, (unsigned)line, (unsigned)p);
                jobs[n_jobs].blank_bound = blank_bound_wanted && bounded ? clamp_bound(blank_used) : INT32_MAX;
                jobs[n_jobs].refined = !bounded || unchecked == bound; /* the checks cannot lower it */
                jobs[n_jobs].line = (uint8_t)line;
                jobs[n_jobs].direction = (uint8_t)direction;
                jobs[n_jobs].anchor = (uint8_t)p;
                n_jobs++;
            }
        }
    }
    const gd_word_map *map = lex->word_map;
    map_subracks *by_size = NULL, by_size_storage;
    if (two_passes && map && rack_counts[0] == 1 && tiles <= MAP_TILES && sr.total <= MAP_SUBRACKS &&
        rack_info.filter.letter_hash) {
        by_size = &by_size_storage;
        map_subracks_init(by_size, &w, &sr, rack_info.filter.letter_hash);
    }
    const size_t all_jobs = n_jobs;
    const size_t limit = top_n < capacity ? top_n : capacity;
    int loaded_direction = -1, loaded_line = -1;
    for (int pass = 0; pass < 1 + two_passes; pass++) {
        if (pass == 1) {
            /* every job again (the first pass leaves those it took after its heap), by the bound
             * of the plays using a blank */
            n_jobs = all_jobs;
            for (size_t i = 0; i < n_jobs; i++)
                jobs[i].order = job_order(jobs[i].blank_bound, jobs[i].direction, jobs[i].line, jobs[i].anchor);
            w.best_kept = rack_info.blank_used_kept;
        }
        w.blank_use = !two_passes ? BLANKS_ANY : pass == 0 ? BLANKS_NONE : BLANKS_SOME;
        for (size_t i = n_jobs / 2; i-- > 0;) job_sift_down(jobs, n_jobs, i);
        while (n_jobs) {
            /* the root of out[] is the worst move kept: anchors that cannot reach it are skipped */
            const int full = w.count >= limit;
            const int64_t threshold = !full ? INT64_MIN : w.by_equity ? out[0].equity : 100 * (int64_t)out[0].score;
            anchor_job job = jobs[0];
            if (full && job_bound(&job) < threshold) break;
            if (job.direction != loaded_direction || job.line != loaded_line) {
                load_line(&w, rules, board, ws, job.direction, job.line);
                loaded_direction = job.direction;
                loaded_line = job.line;
            }
            if (!job.refined) {
                /* the lexicon checks, only now that the anchor is next: back into the heap with them */
                blank_used = INT64_MIN;
                const int letters_only = two_passes && pass == 0;
                const int64_t bound =
                    anchor_bound(&w, job.anchor, &rack_info, 1, threshold, NULL, blank_bound_wanted, letters_only);
                if (blank_bound_wanted) jobs[0].blank_bound = clamp_bound(blank_used);
                jobs[0].order = job_order(clamp_bound(pass == 0 ? bound : blank_used), job.direction, job.line,
                                          job.anchor);
                jobs[0].refined = 1;
                if (bound == INT64_MIN) { /* out of the heap, after it (with its blank bound, for the second pass) */
                    if (!letters_only) jobs[0].blank_bound = INT32_MIN; /* no play at all fits */
                    const anchor_job dropped = jobs[0];
                    jobs[0] = jobs[--n_jobs];
                    jobs[n_jobs] = dropped;
                }
                job_sift_down(jobs, n_jobs, 0);
                continue;
            }
            jobs[0] = jobs[--n_jobs];
            jobs[n_jobs] = job; /* kept after the heap for the second pass */
            job_sift_down(jobs, n_jobs, 0);
            w.blank_bound = job.blank_bound;
            if (pass == 1 && by_size)
                map_blank_anchor(&w, job.anchor, &rack_info, by_size, map);
            else
                walk_anchor(&w, job.anchor, root, root_letters);
        }
    }
    *count = w.count;
    if (options->work) *options->work = w.work;
    return GD_OK;
}

int gd_generate_equity(const gd_lexicon *lex, const gd_rules *rules, const uint8_t *board, const void *workspace,
                       const uint8_t *rack_counts, const gd_equity_options *options, uint32_t top_n, gd_move *out,
                       size_t capacity, size_t *count, gd_error *err)
{
    return generate_equity(lex, rules, board, workspace, rack_counts, options, 0, top_n, out, capacity, count, err);
}

/* From how many tiles the horizon's best move is found with the anchors' bounds: below, the bounds
 * cost more than the walk they save (callgrind on 7-vs-7 endgames: a tenth fewer instructions
 * from 5 tiles up, with blanks a sixth; from 3, more instructions without blanks) */
#define HORIZON_PRUNE_TILES 5

int gd_generate_horizon_best(const gd_lexicon *lex, const gd_rules *rules, const uint8_t *board, const void *workspace,
                             const uint8_t *rack_counts, int32_t opponent_rack_value, int going_out_first,
                             gd_move *best, gd_error *err)
{
    gd_equity_options options;
    memset(&options, 0, sizeof options);
    options.opponent_rack_value = opponent_rack_value;
    options.pass = 1;
    options.by_equity = 1;
    unsigned tiles = 0;
    for (unsigned c = 0; c < 64; c++) tiles += rack_counts[c];
    options.prune = tiles >= HORIZON_PRUNE_TILES;
    size_t count = 0;
    int rc = generate_equity(lex, rules, board, workspace, rack_counts, &options,
                             going_out_first ? HORIZON_GOING_OUT_FIRST : HORIZON_GUESS, 1, best, 1, &count, err);
    if (!rc && going_out_first && best->kind == GD_PLAY && best->equity >= GOING_OUT_FIRST_BONUS / 2)
        best->equity -= GOING_OUT_FIRST_BONUS;
    return rc;
}

int gd_generate(const gd_lexicon *lex, const gd_rules *rules, const uint8_t *board, const void *workspace,
                const uint8_t *rack_counts, uint32_t top_n, gd_move *out, size_t capacity, size_t *count,
                gd_error *err)
{
    return gd_generate_equity(lex, rules, board, workspace, rack_counts, NULL, top_n, out, capacity, count, err);
}

/* ---- streaming --------------------------------------------------------------------------------- */

/* Point the walk at a stream's target play: where it lies in its line and its codes there. */
static int aim_at_target(line_walk *w, const gd_rules *rules, const gd_stream *stream, gd_error *err)
{
    const gd_move *t = &stream->next;
    const uint32_t length = stream->direction == GD_ACROSS ? rules->cols : rules->rows;
    const uint32_t line = stream->direction == GD_ACROSS ? t->row : t->col;
    const uint32_t left = stream->direction == GD_ACROSS ? t->col : t->row;
    if (t->direction != stream->direction || line != stream->line || t->length < 2 || left + t->length > length ||
        stream->anchor < left || stream->anchor >= left + t->length)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the stream's position is damaged (a play that cannot be there)");
    memset(w->target_square, 0, sizeof w->target_square);
    memcpy(w->target_square + left, t->word, t->length);
    w->target_left = (int)left;
    w->target_right = (int)(left + t->length - 1);
    return GD_OK;
}

int gd_generate_stream(const gd_lexicon *lex, const gd_rules *rules, const uint8_t *board, const void *workspace,
                       const uint8_t *rack_counts, const gd_equity_options *options, gd_stream *stream, gd_move *out,
                       size_t capacity, size_t *count, gd_error *err)
{
    if (!stream || !out || !capacity || !count)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "a stream, a buffer of at least one move and a count are needed");
    *count = 0;
    if (stream->state == GD_STREAM_DONE) return GD_OK;
    if (stream->state != GD_STREAM_START && stream->state != GD_STREAM_RESUME)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the stream's state %u is unknown", stream->state);
    line_walk w;
    subracks sr;
    int rc = start_walk(&w, &sr, lex, rules, board, workspace, rack_counts, options, 0, 0, out, capacity, count, err);
    if (rc) return rc;
    w.stream = 1;
    int direction = 0, line = 0, square = 0;
    const int resume = stream->state == GD_STREAM_RESUME;
    if (resume) {
        w.replaying = 1;
        w.target = stream->next;
        if (stream->next.kind == GD_PLAY) {
            if (stream->direction > 1 || stream->line >= GD_MAX_DIM || stream->anchor >= GD_MAX_DIM)
                return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the stream's position is damaged (off the board)");
            rc = aim_at_target(&w, rules, stream, err);
            if (rc) return rc;
            direction = (int)stream->direction;
            line = (int)stream->line;
            square = (int)stream->anchor;
        }
    }
    /* exchanges and the pass come first: all written already when the target is a play */
    if (options && (!resume || stream->next.kind != GD_PLAY)) add_exchanges_and_pass(&w, rules, &sr, options);
    walk_from(&w, rules, board, workspace, direction, line, square);
    if (w.stopped) {
        stream->state = GD_STREAM_RESUME;
        stream->next = w.target;
        stream->direction = (uint32_t)w.direction;
        stream->line = (uint32_t)w.line;
        stream->anchor = (uint32_t)w.anchor;
    } else if (w.replaying) {
        return gd_set_error(err, GD_ERR_ARGUMENT, 0,
                            "the stream's next move is not a move of this position (was it changed between calls?)");
    } else {
        stream->state = GD_STREAM_DONE;
    }
    *count = w.count;
    return GD_OK;
}

/*
 * Sorting, best first. compare_moves is a total order (two moves it cannot tell apart are the same
 * move), so any correct sort gives the same array. The endgame sorts the plays of most positions
 * it searches through, and comparing two moves field by field (seven keys before the word) and
 * swapping 48-byte records was 7-9% of its time, through the library's qsort or a quicksort of
 * the records alike. So up to SORT_KEYED moves are sorted as 24-byte keys: the ranking's first
 * two fields in one word, the next five packed in another, the word's first eight letters, the
 * move's index; the rest of the word is read only when all of those are equal. The records are
 * then moved once, each to its place. Longer arrays (a rack with blanks can have thousands of
 * plays) are first split by the same quicksort on the records until each part is that short.
 */
#define SORT_KEYED 512
#define INSERTION_RUN 16

typedef struct sort_key {
    uint64_t rank;    /* higher first: the equity (when ranking by it) and the score, biased unsigned */
    uint64_t letters; /* lower first: the word's first eight letters, read as a big-endian number */
    uint32_t place;   /* lower first: kind, row, column, direction, length */
    uint32_t index;   /* the move's place in the array */
} sort_key;

static inline sort_key key_of(const gd_move *m, int by_equity, uint32_t index)
{
    const uint32_t score = (uint32_t)m->score ^ 0x80000000u, equity = (uint32_t)m->equity ^ 0x80000000u;
    sort_key k;
    k.rank = by_equity ? (uint64_t)equity << 32 | score : score;
    /* GD_MAX_DIM is 32: rows, columns and lengths fit in six bits each */
    k.place = (uint32_t)m->kind << 19 | (uint32_t)m->row << 13 | (uint32_t)m->col << 7 |
              (uint32_t)(m->direction & 1u) << 6 | m->length;
    /* the letters past the length are zeros, so equal lengths compare as memcmp does */
    uint64_t letters = 0;
    for (int i = 0; i < 8; i++) letters = letters << 8 | m->word[i];
    k.letters = letters;
    k.index = index;
    return k;
}

/* Whether key a sorts before key b (the word breaks the ties of everything else). */
static inline int key_before(const sort_key *a, const sort_key *b, const gd_move *moves)
{
    if (a->rank != b->rank) return a->rank > b->rank;
    if (a->place != b->place) return a->place < b->place;
    if (a->letters != b->letters) return a->letters < b->letters;
    const gd_move *m = &moves[a->index];
    return m->length > 8 && memcmp(m->word + 8, moves[b->index].word + 8, m->length - 8u) < 0;
}

#define SWAP(T, a, b)                                                                                      \
    do {                                                                                                   \
        T swap_t = *(a);                                                                                   \
        *(a) = *(b);                                                                                       \
        *(b) = swap_t;                                                                                     \
    } while (0)

/* A quicksort's partitions down to RUN elements (median of three, the smaller side recursed so the
 * stack stays shallow), handing over to HEAP_SORT when they have been too uneven for too long, so
 * no input takes quadratic time; the caller sorts the short parts left (INSERTION_SORT, or by
 * keys). Written once for the keys and for the records: BEFORE(x, y) is the order, T the element. */
#define QUICK_SORT_BODY(T, BEFORE, HEAP_SORT, RUN)                                                        \
    while (count > (RUN)) {                                                                                \
        if (uneven_left-- == 0) {                                                                          \
            HEAP_SORT;                                                                                     \
            return;                                                                                        \
        }                                                                                                  \
        T *a = &items[1], *b = &items[count / 2], *c = &items[count - 1];                                  \
        SWAP(T, a, b);                                                                                     \
        if (BEFORE(c, a)) SWAP(T, a, c);                                                                   \
        if (BEFORE(c, &items[0])) SWAP(T, &items[0], c);                                                   \
        if (BEFORE(&items[0], a)) SWAP(T, a, &items[0]);                                                   \
        /* items[1] <= items[0] <= items[count - 1]: each stops a scan */                                \
        size_t i = 1, j = count - 1;                                                                       \
        for (;;) {                                                                                         \
            do i++;                                                                                        \
            while (BEFORE(&items[i], &items[0]));                                                          \
            do j--;                                                                                        \
            while (BEFORE(&items[0], &items[j]));                                                          \
            if (i >= j) break;                                                                             \
            SWAP(T, &items[i], &items[j]);                                                                 \
        }                                                                                                  \
        SWAP(T, &items[0], &items[j]);                                                                     \
        /* items[0..j) <= items[j] <= items(j..count) */                                                 \
        if (j < count - j - 1) {                                                                           \
            RECURSE(items, j);                                                                             \
            items += j + 1;                                                                                \
            count -= j + 1;                                                                                \
        } else {                                                                                           \
            RECURSE(items + j + 1, count - j - 1);                                                         \
            count = j;                                                                                     \
        }                                                                                                  \
    }

#define INSERTION_SORT(T, BEFORE)                                                                          \
    for (size_t i = 1; i < count; i++) {                                                                   \
        if (!BEFORE(&items[i], &items[i - 1])) continue;                                                   \
        T item = items[i];                                                                                 \
        size_t j = i;                                                                                      \
        do {                                                                                               \
            items[j] = items[j - 1];                                                                       \
            j--;                                                                                           \
        } while (j > 0 && BEFORE(&item, &items[j - 1]));                                                   \
        items[j] = item;                                                                                   \
    }

/* The heap of heap_sift_down keeps its worst move at the root: moved to the end one by one, they
 * leave the array best first. */
static void heap_sort_moves(gd_move *moves, size_t count, int by_equity)
{
    for (size_t i = count / 2; i-- > 0;) heap_sift_down(moves, count, i, by_equity);
    for (size_t end = count - 1; end > 0; end--) {
        SWAP(gd_move, &moves[0], &moves[end]);
        heap_sift_down(moves, end, 0, by_equity);
    }
}

/* A heap with the key that sorts last at the root. */
static void sift_key(sort_key *keys, size_t end, size_t p, const gd_move *moves)
{
    for (;;) {
        size_t last = p, l = 2 * p + 1, r = l + 1;
        if (l < end && key_before(&keys[last], &keys[l], moves)) last = l;
        if (r < end && key_before(&keys[last], &keys[r], moves)) last = r;
        if (last == p) return;
        SWAP(sort_key, &keys[p], &keys[last]);
        p = last;
    }
}

static void heap_sort_keys(sort_key *keys, size_t count, const gd_move *moves)
{
    for (size_t i = count / 2; i-- > 0;) sift_key(keys, count, i, moves);
    for (size_t end = count - 1; end > 0; end--) {
        SWAP(sort_key, &keys[0], &keys[end]);
        sift_key(keys, end, 0, moves);
    }
}

static void sort_keys(sort_key *items, size_t count, const gd_move *moves, int uneven_left)
{
#define BEFORE(x, y) key_before((x), (y), moves)
#define RECURSE(from, n) sort_keys((from), (n), moves, uneven_left)
    QUICK_SORT_BODY(sort_key, BEFORE, heap_sort_keys(items, count, moves), INSERTION_RUN)
    INSERTION_SORT(sort_key, BEFORE)
#undef BEFORE
#undef RECURSE
}

/* At most SORT_KEYED moves, by their keys (its own frame, so the keys are not on the stack of
 * every partition of sort_records). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static void sort_by_keys(gd_move *moves, size_t count, int by_equity, int uneven_left)
{
    sort_key keys[SORT_KEYED];
    for (size_t i = 0; i < count; i++) keys[i] = key_of(&moves[i], by_equity, (uint32_t)i);
    sort_keys(keys, count, moves, uneven_left);
    /* each record to its place: follow each cycle of the permutation, one record held aside */
    for (size_t start = 0; start < count; start++) {
        if (keys[start].index == start) continue;
        gd_move held = moves[start];
        size_t to = start;
        for (;;) {
            const size_t from = keys[to].index;
            keys[to].index = (uint32_t)to;
            if (from == start) {
                moves[to] = held;
                break;
            }
            moves[to] = moves[from];
            to = from;
        }
    }
}

/* Partitions of more than SORT_KEYED moves split on the records themselves; each smaller one is
 * sorted by its keys. */
static void sort_records(gd_move *items, size_t count, int by_equity, int uneven_left)
{
#define BEFORE(x, y) (compare_moves((x), (y), by_equity) < 0)
#define RECURSE(from, n) sort_records((from), (n), by_equity, uneven_left)
    QUICK_SORT_BODY(gd_move, BEFORE, heap_sort_moves(items, count, by_equity), SORT_KEYED)
#undef BEFORE
#undef RECURSE
    if (count > 1) sort_by_keys(items, count, by_equity, uneven_left);
}

void gd_sort_moves(gd_move *moves, size_t count, int by_equity)
{
    if (!moves || count < 2) return;
#ifdef GD_SORT_PARTITIONS
    int uneven_allowed = GD_SORT_PARTITIONS; /* the sanitizer build: the heap sorts run too */
#else
    int uneven_allowed = 2; /* twice log2(count) partitions, then the heap sort */
    for (size_t n = count; n > 1; n >>= 1) uneven_allowed += 2;
#endif
    sort_records(moves, count, by_equity != 0, uneven_allowed);
}


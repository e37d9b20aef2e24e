/* movegen_dawg.c — Appel & Jacobson's move generator over a DAWG (CACM 31(5), 1988), the
 * baseline the GADDAG is measured against (docs/dawg.md, docs/gaddag-vs-dawg.md).
 *
 * A DAWG reads words from their first letter only, so a play is found from its leftmost anchor
 * (an empty square next to a tile, or the start square on an empty board): first its left part,
 * then the anchor and whatever lies right of it.
 *  - When tiles lie just left of the anchor, they are the left part: read from the board.
 *  - Otherwise the left part comes from the rack, on the empty squares left of the anchor that
 *    are not anchors themselves. Such squares touch no tile, so any letter may go there and no
 *    cross-word forms; their number bounds the left part. Every prefix the DAWG allows is tried.
 *  - From the anchor the walk extends rightward through board tiles and, on empty squares, the
 *    rack letters the cross-set allows, recording a play wherever a word ends before an empty
 *    square or the edge.
 * The left part never covers an anchor, so a play is found once, from its leftmost anchor.
 *
 * It shares the GADDAG generator's means, so the comparison is of the algorithms: the walk
 * index (a list's letter set in each arc's entry, found by counting bits), letters rather than
 * tiles on the walk (blanks chosen when a play is recorded), and scores kept as the walk goes.
 * Cross-sets are computed from the DAWG itself: the word above a square is read, and each
 * letter of the list reached is probed with the word below it.
 */
#include <string.h>

#include "gaddag_format.h"
#include "rules_check.h"
#include "tiles.h"

#define DAWG_WORKSPACE_MAGIC 0x47444457u /* "GDDW": a DAWG workspace was prepared */

typedef struct dawg_workspace {
    uint32_t magic;
    uint32_t rows, cols;
    uint32_t alphabet_size;
    uint64_t cross_set[2][GD_MAX_SQUARES]; /* [d][s]: letters a play in direction d may put on s */
    int32_t cross_score[2][GD_MAX_SQUARES]; /* face value of the perpendicular tiles */
    uint8_t has_cross[2][GD_MAX_SQUARES];   /* whether a perpendicular word forms at all */
    uint8_t anchor[GD_MAX_SQUARES];
} dawg_workspace;

size_t gd_dawg_workspace_size(void) { return sizeof(dawg_workspace); }

/* ---- cross-sets ----------------------------------------------------------------------------- */

/* Letters L for which before + L + after is a word: read `before` from the root, then probe
 * each letter of the list reached with `after`. Walk entry 0 leads to the root. */
static uint64_t dawg_cross_letters(const gd_lexicon *dawg, const uint8_t *before, int before_length,
                                   const uint8_t *after, int after_length)
{
    const uint64_t *walk = dawg->walk;
    const uint32_t *high = dawg->walk_high;
    uint32_t at = 0;
    for (int k = 0; k < before_length; k++) {
        at = gd_walk_step(walk, high, at, before[k] & 63u);
        if (!at) return 0;
    }
    const uint32_t list = gd_walk_child(walk[at]);
    const uint64_t letters = gd_walk_letters(walk, high, at);
    uint64_t allowed = 0;
    for (uint64_t pending = letters; pending; pending &= pending - 1u) {
        const unsigned letter = (unsigned)__builtin_ctzll(pending);
        uint32_t i = gd_walk_arc(list, letters, letter);
        for (int k = 0; k < after_length && i; k++) i = gd_walk_step(walk, high, i, after[k] & 63u);
        if (i && gd_walk_accepts(walk[i])) allowed |= 1ull << letter;
    }
    return allowed;
}

static int check_lexicon(const gd_lexicon *dawg, gd_error *err)
{
    if (!gd_is_dawg(dawg) || !dawg->arcs)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the DAWG generator needs a lexicon opened by gd_dawg_open");
    if (!dawg->walk)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the DAWG has no walk index (see gd_build_walk_index)");
    return GD_OK;
}

int gd_dawg_prepare(const gd_lexicon *dawg, const gd_rules *rules, const uint8_t *board, void *workspace,
                    gd_error *err)
{
    if (!board || !workspace) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "missing argument");
    int rc = check_lexicon(dawg, err);
    if (rc) return rc;
    rc = gd_check_rules(rules, err);
    if (rc) return rc;
    dawg_workspace *ws = workspace;
    ws->magic = 0;
    const uint32_t rows = rules->rows, cols = rules->cols;
    int empty = 1;
    for (uint32_t s = 0; s < rows * cols; s++) {
        const uint8_t sq = board[s];
        if (sq && ((sq & 63u) == 0 || (sq & 63u) > dawg->alphabet_size || (sq & GD_ON_BOARD_FLAG)))
            return gd_set_error(err, GD_ERR_ARGUMENT, 0, "square (%u, %u) holds an invalid tile code %u", s / cols,
                                s % cols, sq);
        if (sq) empty = 0;
    }
    const uint64_t all_letters =
        (dawg->alphabet_size >= 63 ? ~0ull : (1ull << (dawg->alphabet_size + 1)) - 1u) & ~1ull;
    for (uint32_t r = 0; r < rows; r++)
        for (uint32_t c = 0; c < cols; c++) {
            const uint32_t s = r * cols + c;
            const int up = r > 0 && board[s - cols], down = r + 1 < rows && board[s + cols];
            const int left = c > 0 && board[s - 1], right = c + 1 < cols && board[s + 1];
            ws->anchor[s] = !board[s] && (up || down || left || right || (empty && r == rules->start_row &&
                                                                          c == rules->start_col));
            for (int d = 0; d < 2; d++) {
                /* an across play meets the perpendicular word down the column, and vice versa */
                const uint32_t step = d == GD_ACROSS ? cols : 1;
                const uint32_t pos = d == GD_ACROSS ? r : c, limit = d == GD_ACROSS ? rows : cols;
                uint8_t before[GD_MAX_DIM], after[GD_MAX_DIM];
                int nb = 0, na = 0;
                int32_t score = 0;
                uint32_t first = pos;
                while (first > 0 && board[s - (pos - first + 1) * step]) first--;
                for (uint32_t p = first; p < pos; p++) before[nb++] = board[s - (pos - p) * step];
                for (uint32_t p = pos + 1; p < limit && board[s + (p - pos) * step]; p++)
                    after[na++] = board[s + (p - pos) * step];
                for (int k = 0; k < nb; k++) score += gd_tile_value(rules, before[k]);
                for (int k = 0; k < na; k++) score += gd_tile_value(rules, after[k]);
                const int crossing = !board[s] && (nb || na);
                ws->has_cross[d][s] = (uint8_t)crossing;
                ws->cross_score[d][s] = crossing ? score : 0;
                ws->cross_set[d][s] = board[s] ? 0 : crossing ? dawg_cross_letters(dawg, before, nb, after, na)
                                                               : all_letters;
            }
        }
    ws->rows = rows;
    ws->cols = cols;
    ws->alphabet_size = dawg->alphabet_size;
    ws->magic = DAWG_WORKSPACE_MAGIC;
    return GD_OK;
}

/* ---- the walk ------------------------------------------------------------------------------- */

typedef struct dawg_walk {
    const uint64_t *walk;      /* the DAWG's walk index */
    const uint32_t *walk_high; /* its high letter bits, or NULL */
    int direction, line, length, anchor;
    int left;                  /* where the play being walked starts */
    uint8_t square[GD_MAX_DIM];
    uint8_t is_anchor[GD_MAX_DIM];
    uint8_t has_cross[GD_MAX_DIM];
    uint8_t letter_multiplier[GD_MAX_DIM];
    uint8_t word_multiplier[GD_MAX_DIM];
    uint64_t cross_set[GD_MAX_DIM];
    int32_t cross_score[GD_MAX_DIM];
    int32_t values[64];
    uint8_t rack[64];          /* tiles of each letter on the rack (blanks not included) */
    uint8_t used[64];          /* letters placed so far, blanks included */
    uint64_t unused_letters;   /* bit c: a rack tile of letter c is still unused */
    unsigned blanks, blanks_needed, tiles_left, rack_size;
    int32_t bingo_bonus;
    uint8_t word[GD_MAX_DIM];  /* the play's codes by line position */
    uint8_t placed_at[GD_MAX_DIM];
    uint8_t part[GD_MAX_DIM];  /* the left part from the rack, left to right */
    int32_t word_multiplier_total;
    gd_move *out;
    size_t capacity, count;
    gd_work work;              /* counted with GD_COUNT_WORK */
} dawg_walk;

static inline int32_t tile_face(const dawg_walk *w, uint8_t code)
{
    return (code & GD_BLANK_FLAG) ? w->values[0] : w->values[code & 63u];
}

/* Letters a new tile on empty square `pos` may be: the cross-set (all letters on a square left
 * of the anchor), narrowed to the rack's unused letters once its blanks are all needed. */
static inline uint64_t rack_letters(const dawg_walk *w)
{
    return w->blanks_needed < w->blanks ? ~0ull : w->unused_letters;
}

static void emit(dawg_walk *w, int right, int32_t score, unsigned placed)
{
    if (w->count < w->capacity) {
        gd_move *m = &w->out[w->count];
        const int length = right - w->left + 1;
        memset(m, 0, sizeof *m);
        m->score = score;
        m->equity = 100 * score;
        m->row = (uint8_t)(w->direction == GD_ACROSS ? w->line : w->left);
        m->col = (uint8_t)(w->direction == GD_ACROSS ? w->left : w->line);
        m->direction = (uint8_t)w->direction;
        m->length = (uint8_t)length;
        m->tiles_placed = (uint8_t)placed;
        m->kind = GD_PLAY;
        memcpy(m->word, w->word + w->left, (size_t)length);
    }
    w->count++;
}

/* Each way of covering the placed letters with rack tiles and blanks is its own play; a blank on
 * square p scores (value - blank value) * letter premium less, in the main word and in p's
 * cross-word. */
static void choose_blanks(dawg_walk *w, int right, int32_t score, unsigned index, unsigned placed,
                          unsigned blanks_left, uint8_t *spare)
{
    if (index == placed) {
        emit(w, right, score, placed);
        return;
    }
    const int pos = w->placed_at[index];
    const unsigned letter = w->word[pos] & 63u;
    if (spare[letter]) {
        spare[letter]--;
        choose_blanks(w, right, score, index + 1, placed, blanks_left, spare);
        spare[letter]++;
    }
    if (blanks_left) {
        const int32_t delta = (w->values[letter] - w->values[0]) * w->letter_multiplier[pos];
        const int32_t lost =
            delta * w->word_multiplier_total + (w->has_cross[pos] ? delta * w->word_multiplier[pos] : 0);
        w->word[pos] |= GD_BLANK_FLAG;
        choose_blanks(w, right, score - lost, index + 1, placed, blanks_left - 1, spare);
        w->word[pos] &= (uint8_t)~GD_BLANK_FLAG;
    }
}

static void record(dawg_walk *w, int right, int32_t main_sum, int32_t word_multiplier, int32_t cross_sum,
                   unsigned placed)
{
    if (right - w->left + 1 < 2) return;
    if (placed == 1 && w->direction == GD_DOWN && w->has_cross[w->placed_at[0]])
        return; /* a single tile that also forms an across word is recorded across */
    const int32_t score = main_sum * word_multiplier + cross_sum + (placed == w->rack_size ? w->bingo_bonus : 0);
    if (!w->blanks) {
        emit(w, right, score, placed);
        return;
    }
    uint8_t spare[64];
    memcpy(spare, w->rack, sizeof spare);
    w->word_multiplier_total = word_multiplier;
    choose_blanks(w, right, score, 0, placed, w->blanks, spare);
}

/* Take rack letter `letter` for the play (a blank covers it when the rack's own tiles of it are
 * used up); undo_letter gives it back. */
static inline unsigned take_letter(dawg_walk *w, unsigned letter)
{
    const unsigned beyond = w->used[letter] >= w->rack[letter];
    w->used[letter]++;
    if (w->used[letter] >= w->rack[letter]) w->unused_letters &= ~(1ull << letter);
    w->blanks_needed += beyond;
    w->tiles_left--;
    return beyond;
}

static inline void undo_letter(dawg_walk *w, unsigned letter, unsigned beyond)
{
    w->tiles_left++;
    w->blanks_needed -= beyond;
    w->used[letter]--;
    if (w->used[letter] < w->rack[letter]) w->unused_letters |= 1ull << letter;
}

/* The walk has read the play up to square pos - 1, ending on walk entry `at`: record it if a
 * word ends there, and go on rightward through pos. */
/* Follow an arc: `step` walks on from it. In a build with GD_COUNT_WORK (as movegen.c) the arc
 * is counted, and as a dead end when no play was recorded and no further arc followed from it. */
#ifdef GD_COUNT_WORK
#define FOLLOW(w, step)                                                                                        \
    do {                                                                                                       \
        const size_t found_before = (w)->count;                                                                \
        const uint64_t arcs_before = ++(w)->work.arcs;                                                         \
        step;                                                                                                  \
        if ((w)->count == found_before && (w)->work.arcs == arcs_before) (w)->work.dead_ends++;                \
    } while (0)
#define COUNT_ARC(w) ((w)->work.arcs++)
#else
#define FOLLOW(w, step) step
#define COUNT_ARC(w) ((void)0)
#endif

static void extend_right(dawg_walk *w, int pos, uint32_t at, int32_t main_sum, int32_t word_multiplier,
                         int32_t cross_sum, unsigned placed)
{
    const uint64_t entry = w->walk[at];
    if (pos > w->anchor && (pos == w->length || !w->square[pos]) && gd_walk_accepts(entry))
        record(w, pos - 1, main_sum, word_multiplier, cross_sum, placed);
    if (pos < w->length) {
        const uint64_t letters = gd_walk_letters(w->walk, w->walk_high, at);
        const uint32_t list = gd_walk_child(entry);
        const uint8_t here = w->square[pos];
        if (here) {
            const unsigned letter = here & 63u;
            if ((letters >> letter) & 1u) {
                w->word[pos] = (uint8_t)(here | GD_ON_BOARD_FLAG);
                FOLLOW(w, extend_right(w, pos + 1, gd_walk_arc(list, letters, letter), main_sum + tile_face(w, here),
                                       word_multiplier, cross_sum, placed));
            }
        } else if (w->tiles_left) {
            const int32_t lm = w->letter_multiplier[pos], wm = w->word_multiplier[pos];
            const int crossing = w->has_cross[pos];
            const int32_t cross_base = w->cross_score[pos];
            w->placed_at[placed] = (uint8_t)pos;
            for (uint64_t pending = letters & w->cross_set[pos] & rack_letters(w); pending; pending &= pending - 1u) {
                const unsigned letter = (unsigned)__builtin_ctzll(pending);
                const unsigned beyond = take_letter(w, letter);
                w->word[pos] = (uint8_t)letter;
                const int32_t letter_score = w->values[letter] * lm;
                FOLLOW(w, extend_right(w, pos + 1, gd_walk_arc(list, letters, letter), main_sum + letter_score,
                                       word_multiplier * wm,
                                       cross_sum + (crossing ? (cross_base + letter_score) * wm : 0), placed + 1));
                undo_letter(w, letter, beyond);
            }
        }
    }
}

/* The left part part[0..length) from the rack, read to walk entry `at`, ends just left of the
 * anchor: place it, then extend right from the anchor. */
static void start_right(dawg_walk *w, uint32_t at, int length)
{
    int32_t main_sum = 0, word_multiplier = 1;
    w->left = w->anchor - length;
    for (int k = 0; k < length; k++) {
        const int pos = w->left + k;
        const unsigned letter = w->part[k];
        w->word[pos] = (uint8_t)letter;
        w->placed_at[k] = (uint8_t)pos;
        main_sum += w->values[letter] * w->letter_multiplier[pos];
        word_multiplier *= w->word_multiplier[pos];
    }
    extend_right(w, w->anchor, at, main_sum, word_multiplier, 0, (unsigned)length);
}

/* Every left part the DAWG allows from walk entry `at` on, up to `limit` more letters. */
static void left_part(dawg_walk *w, uint32_t at, int length, int limit)
{
    const uint64_t entry = w->walk[at];
    const uint64_t letters = gd_walk_letters(w->walk, w->walk_high, at);
    /* a left part whose list has no letter the anchor can take ends no play: not placed */
    if (letters & w->cross_set[w->anchor] & rack_letters(w)) start_right(w, at, length);
    if (!limit || w->tiles_left < 2) return; /* the anchor needs a tile too */
    const uint32_t list = gd_walk_child(entry);
    for (uint64_t pending = letters & rack_letters(w); pending; pending &= pending - 1u) {
        const unsigned letter = (unsigned)__builtin_ctzll(pending);
        const unsigned beyond = take_letter(w, letter);
        w->part[length] = (uint8_t)letter;
        FOLLOW(w, left_part(w, gd_walk_arc(list, letters, letter), length + 1, limit - 1));
        undo_letter(w, letter, beyond);
    }
}

static void walk_anchor(dawg_walk *w, int anchor)
{
    w->anchor = anchor;
    if (anchor > 0 && w->square[anchor - 1]) {
        /* the left part is on the board: read it */
        int start = anchor - 1;
        while (start > 0 && w->square[start - 1]) start--;
        uint32_t at = 0;
        int32_t main_sum = 0;
        for (int p = start; p < anchor - 1; p++) {
            at = gd_walk_step(w->walk, w->walk_high, at, w->square[p] & 63u);
            if (!at) return;
            COUNT_ARC(w);
            w->word[p] = (uint8_t)(w->square[p] | GD_ON_BOARD_FLAG);
            main_sum += tile_face(w, w->square[p]);
        }
        at = gd_walk_step(w->walk, w->walk_high, at, w->square[anchor - 1] & 63u);
        if (!at) return;
        w->word[anchor - 1] = (uint8_t)(w->square[anchor - 1] | GD_ON_BOARD_FLAG);
        w->left = start;
        FOLLOW(w, extend_right(w, anchor, at, main_sum + tile_face(w, w->square[anchor - 1]), 1, 0, 0));
        return;
    }
    int limit = 0;
    while (anchor - limit > 0 && !w->square[anchor - limit - 1] && !w->is_anchor[anchor - limit - 1]) limit++;
    left_part(w, 0, 0, limit);
}

static int load_line(dawg_walk *w, const gd_rules *rules, const uint8_t *board, const dawg_workspace *ws,
                     int direction, int line)
{
    const int cols = (int)rules->cols;
    int any_anchor = 0;
    w->direction = direction;
    w->line = line;
    w->length = direction == GD_ACROSS ? (int)rules->cols : (int)rules->rows;
    for (int p = 0; p < w->length; p++) {
        const int s = direction == GD_ACROSS ? line * cols + p : p * cols + line;
        w->square[p] = board[s];
        w->is_anchor[p] = ws->anchor[s];
        any_anchor |= ws->anchor[s];
        w->has_cross[p] = ws->has_cross[direction][s];
        w->cross_set[p] = ws->cross_set[direction][s];
        w->cross_score[p] = ws->cross_score[direction][s];
        w->letter_multiplier[p] = rules->letter_multiplier[s];
        w->word_multiplier[p] = rules->word_multiplier[s];
    }
    return any_anchor;
}

int gd_dawg_generate(const gd_lexicon *dawg, const gd_rules *rules, const uint8_t *board, const void *workspace,
                     const uint8_t *rack_counts, uint32_t directions, gd_move *out, size_t capacity, size_t *count,
                     gd_work *work, gd_error *err)
{
    if (!board || !workspace || !rack_counts || !count || (!out && capacity))
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "missing argument");
    *count = 0;
    int rc = check_lexicon(dawg, err);
    if (rc) return rc;
    rc = gd_check_rules(rules, err);
    if (rc) return rc;
    if (directions > GD_DIRECTIONS_DOWN)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "directions %u is not one of both (0), across (1), down (2)",
                            directions);
    const dawg_workspace *ws = workspace;
    if (ws->magic != DAWG_WORKSPACE_MAGIC || ws->rows != rules->rows || ws->cols != rules->cols ||
        ws->alphabet_size != dawg->alphabet_size)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the workspace was not prepared for this board and DAWG");
    dawg_walk w;
    w.walk = dawg->walk;
    w.walk_high = dawg->walk_high;
    memcpy(w.values, rules->values, sizeof w.values);
    memset(w.rack, 0, sizeof w.rack);
    memset(w.used, 0, sizeof w.used);
    w.blanks = rack_counts[0];
    w.tiles_left = rack_counts[0];
    w.blanks_needed = 0;
    w.unused_letters = 0;
    for (unsigned c = 1; c < 64; c++) {
        if (!rack_counts[c]) continue;
        if (c > dawg->alphabet_size)
            return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the rack holds %u tiles of code %u, not a letter (1 to %u)",
                                rack_counts[c], c, dawg->alphabet_size);
        w.rack[c] = rack_counts[c];
        w.tiles_left += rack_counts[c];
        w.unused_letters |= 1ull << c;
    }
    if (w.tiles_left > rules->rack_size)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "a rack of %u tiles is more than the rack size, %u", w.tiles_left,
                            rules->rack_size);
    w.rack_size = rules->rack_size;
    w.bingo_bonus = rules->bingo_bonus;
    w.out = out;
    w.capacity = capacity;
    w.count = 0;
    memset(&w.work, 0, sizeof w.work);
    for (int direction = 0; direction < 2 && w.tiles_left; direction++) {
        if (directions == (direction == GD_ACROSS ? GD_DIRECTIONS_DOWN : GD_DIRECTIONS_ACROSS)) continue;
        const int lines = direction == GD_ACROSS ? (int)rules->rows : (int)rules->cols;
        for (int line = 0; line < lines; line++) {
            if (!load_line(&w, rules, board, ws, direction, line)) continue;
            for (int p = 0; p < w.length; p++)
                if (w.is_anchor[p]) walk_anchor(&w, p);
        }
    }
    if (work) *work = w.work;
    *count = w.count;
    return GD_OK;
}

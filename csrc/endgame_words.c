/* endgame_words.c — the words an endgame can form (why: docs/endgame.md, "A lexicon of the
 * endgame's words").
 *
 * With the bag empty, every tile still to be played is on one of the two racks. A word formed
 * from here to the end of the game, as a play's main word or as a cross-word, lies along one
 * line; its squares hold tiles that are on the board now or tiles from the racks, and the
 * squares just before and after it are empty now (tiles are never taken off). So it either
 * passes through a tile on the board now, or is spelled with rack tiles alone. This file finds
 * the first kind: for each run of tiles on a line, read through the GADDAG from the run's first
 * tile leftward over empty squares with rack tiles, across the separator, then rightward over
 * the line's tiles and empty squares, as the move generator does but without cross-checks. Each
 * word placement is found once, from the leftmost tile of the board it passes through.
 */
#include <string.h>

#include "gaddag_format.h"

typedef struct line_walk {
    const uint32_t *arcs;
    const uint8_t *cells; /* the line: letter codes, 0 for an empty square */
    int length;
    int anchor;           /* the square of the leftmost board tile of the words being read */
    int start;            /* the word's first square, once the leftward part is read */
    uint8_t counts[64];   /* rack tiles left, [0] blanks */
    uint8_t word[GD_MAX_DIM];
    uint64_t steps, step_limit;
    gd_sink *sink;
} line_walk;

/* Whether a word may end just before square pos: the edge or an empty square. */
static int open_at(const line_walk *w, int pos) { return pos < 0 || pos >= w->length || w->cells[pos] == 0; }

/* Take a rack tile for `letter` (the letter's own tile before a blank); 0 if none is left. */
static int take(line_walk *w, unsigned letter, unsigned *source)
{
    if (w->counts[letter]) *source = letter;
    else if (w->counts[0]) *source = 0;
    else return 0;
    w->counts[*source]--;
    return 1;
}

static int over_budget(line_walk *w) { return ++w->steps > w->step_limit; }

/* The word holds squares [w->start, pos); `accepts`: the letters read so far spell a word. */
static void walk_right(line_walk *w, uint32_t list, int pos, unsigned placed, int accepts)
{
    if (over_budget(w)) return;
    if (accepts && placed && open_at(w, pos)) gd_sink_word(w->sink, w->word + w->start, (size_t)(pos - w->start), 0);
    if (pos >= w->length || !list) return;
    unsigned on_board = w->cells[pos];
    if (on_board) {
        uint32_t i = gd_find_arc(w->arcs, list, on_board);
        if (!i) return;
        w->word[pos] = (uint8_t)on_board;
        walk_right(w, gd_arc_child(w->arcs[i]), pos + 1, placed, gd_arc_accepts(w->arcs[i]));
        return;
    }
    for (uint32_t i = list;; i++) {
        uint32_t arc = w->arcs[i];
        unsigned letter = gd_arc_letter(arc), source;
        if (letter != GD_SEPARATOR && take(w, letter, &source)) {
            w->word[pos] = (uint8_t)letter;
            walk_right(w, gd_arc_child(arc), pos + 1, placed + 1, gd_arc_accepts(arc));
            w->counts[source]++;
        }
        if (gd_arc_last(arc)) break;
    }
}

/* The letters read so far fill squares (pos, anchor]; `list` follows the last of them. */
static void walk_left(line_walk *w, uint32_t list, int pos, unsigned placed, int accepts)
{
    if (over_budget(w)) return;
    if (open_at(w, pos)) {
        /* the word may start at pos + 1: it ends at the anchor's run... */
        w->start = pos + 1;
        if (accepts && placed && open_at(w, w->anchor + 1))
            gd_sink_word(w->sink, w->word + w->start, (size_t)(w->anchor + 1 - w->start), 0);
        /* ... or goes on rightward past the separator */
        if (list && gd_arc_letter(w->arcs[list]) == GD_SEPARATOR)
            walk_right(w, gd_arc_child(w->arcs[list]), w->anchor + 1, placed, 0);
    }
    /* a tile just left would make its own run the word's leftmost: those words are read from it */
    if (pos < 0 || w->cells[pos] || !list) return;
    for (uint32_t i = list;; i++) {
        uint32_t arc = w->arcs[i];
        unsigned letter = gd_arc_letter(arc), source;
        if (letter != GD_SEPARATOR && take(w, letter, &source)) {
            w->word[pos] = (uint8_t)letter;
            walk_left(w, gd_arc_child(arc), pos - 1, placed + 1, gd_arc_accepts(arc));
            w->counts[source]++;
        }
        if (gd_arc_last(arc)) break;
    }
}

int gd_endgame_words(const gd_lexicon *lex, const gd_rules *rules, const uint8_t *board, const uint8_t *tile_counts,
                     uint64_t step_limit, uint8_t *out, size_t capacity, size_t *needed, uint32_t *count,
                     uint32_t *finished)
{
    gd_sink sink = {out, out ? capacity : 0, 0, 0, 0};
    if (!lex || !lex->arcs || !rules || !board || !tile_counts || !finished) return GD_ERR_ARGUMENT;
    if (rules->rows < 1 || rules->cols < 1 || rules->rows > GD_MAX_DIM || rules->cols > GD_MAX_DIM)
        return GD_ERR_ARGUMENT;
    for (uint32_t c = lex->alphabet_size + 1; c < 64; c++)
        if (tile_counts[c]) return GD_ERR_ARGUMENT;
    line_walk w;
    memset(&w, 0, sizeof w);
    w.arcs = lex->arcs;
    w.sink = &sink;
    w.step_limit = step_limit ? step_limit : UINT64_MAX;
    memcpy(w.counts, tile_counts, sizeof w.counts);
    uint8_t cells[GD_MAX_DIM];
    w.cells = cells;
    for (int across = 1; across >= 0; across--) {
        const uint32_t lines = across ? rules->rows : rules->cols;
        w.length = (int)(across ? rules->cols : rules->rows);
        for (uint32_t line = 0; line < lines; line++) {
            for (int k = 0; k < w.length; k++) {
                uint8_t square = board[across ? line * rules->cols + (uint32_t)k : (uint32_t)k * rules->cols + line];
                cells[k] = square & GD_ARC_LETTER_MASK;
                if (cells[k] > lex->alphabet_size) return GD_ERR_ARGUMENT;
            }
            for (int t = 0; t < w.length; t++) {
                if (!cells[t] || (t > 0 && cells[t - 1])) continue; /* runs start here */
                uint32_t i = gd_find_arc(w.arcs, lex->root, cells[t]);
                if (!i) continue;
                w.anchor = t;
                w.word[t] = cells[t];
                walk_left(&w, gd_arc_child(w.arcs[i]), t - 1, 0, gd_arc_accepts(w.arcs[i]));
            }
        }
    }
    *finished = w.steps <= w.step_limit ? 1u : 0u;
    return gd_sink_finish(&sink, needed, count);
}

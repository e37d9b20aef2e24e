/* crossset.c — cross-sets, cross-scores and anchors of a board, computed from the GADDAG. */
#include <string.h>

#include "gaddag_format.h"
#include "tiles.h"
#include "workspace.h"

/* From walk entry `at` (0: the root) along letters[n - 1], ..., letters[0]: the entry reached,
 * or 0 when the lexicon has no such path. */
static inline uint32_t read_reversed(const uint64_t *walk, const uint32_t *high, uint32_t at, const uint8_t *letters,
                                     int n)
{
    for (int k = n; k-- > 0;) {
        at = gd_walk_step(walk, high, at, letters[k] & 63u);
        if (!at) return 0;
    }
    return at;
}

/*
 * The perpendicular word through an empty square s is U L D (U above/left of s, D
 * below/right, L the new letter). The GADDAG holds REV(U L D) = REV(D) L REV(U) without a
 * separator, so REV(D) is read once and then each arc L of the list reached is tried with
 * REV(U) after it. U L alone (tiles only before s, the commonest case) is also held as REV(U) +
 * separator + L: U is read once, and the letters L are the arcs past the separator that accept,
 * not one walk of U per letter. Reads the walk index (entry 0 leads to the root).
 */
static uint64_t cross_letters(const gd_lexicon *lex, const uint8_t *before, int before_length, const uint8_t *after,
                              int after_length)
{
    const uint64_t *walk = lex->walk;
    const uint32_t *high = lex->walk_high;
    const int one_side = after_length == 0 && before_length > 0;
    uint32_t at = read_reversed(walk, high, 0, one_side ? before : after, one_side ? before_length : after_length);
    if (one_side && at) at = gd_walk_step(walk, high, at, GD_SEPARATOR);
    if (!at && (one_side || after_length > 0)) return 0; /* (0 after no step at all is the root) */
    const uint32_t list = gd_walk_child(walk[at]);
    const uint64_t letters = gd_walk_letters(walk, high, at);
    uint64_t allowed = 0;
    if (one_side) { /* past the separator: the arcs that end the word */
        for (uint64_t pending = letters & ~1ull; pending; pending &= pending - 1u) {
            unsigned letter = (unsigned)__builtin_ctzll(pending);
            if (gd_walk_accepts(walk[gd_walk_arc(list, letters, letter)])) allowed |= 1ull << letter;
        }
        return allowed;
    }
    for (uint64_t pending = letters & ~1ull; pending; pending &= pending - 1u) {
        unsigned letter = (unsigned)__builtin_ctzll(pending);
        uint32_t i = read_reversed(walk, high, gd_walk_arc(list, letters, letter), before, before_length);
        if (i && gd_walk_accepts(walk[i])) allowed |= 1ull << letter;
    }
    return allowed;
}

static uint64_t all_letters_of(const gd_lexicon *lex)
{
    return ((lex->alphabet_size >= 63) ? ~0ull : ((1ull << (lex->alphabet_size + 1)) - 1)) & ~1ull;
}

/* Anchor, cross-sets and cross-scores of square (r, c) from its neighbours on `board`: the
 * cross-sets of the directions in `directions` (bit d for direction d), the others unchanged. */
static void compute_square(const gd_lexicon *lex, const gd_rules *rules, const uint8_t *board, gd_workspace *ws,
                           uint32_t r, uint32_t c, uint64_t all_letters, unsigned directions)
{
    const uint32_t rows = rules->rows, cols = rules->cols;
    uint32_t s = r * cols + c;
    if (board[s]) {
        ws->anchor[s] = 0;
        for (int d = 0; d < 2; d++) {
            ws->cross_set[d][s] = 0;
            ws->cross_score[d][s] = 0;
            ws->has_cross[d][s] = 0;
        }
        return;
    }
    int up = r > 0 && board[s - cols], down = r + 1 < rows && board[s + cols];
    int left = c > 0 && board[s - 1], right = c + 1 < cols && board[s + 1];
    ws->anchor[s] = (uint8_t)(up || down || left || right);
    if (ws->empty_board && r == rules->start_row && c == rules->start_col) ws->anchor[s] = 1;
    /* d = across plays: the perpendicular word runs down the column, and vice versa */
    for (int d = 0; d < 2; d++) {
        if (!((directions >> d) & 1u)) continue;
        int before_any = d == GD_ACROSS ? up : left;
        int after_any = d == GD_ACROSS ? down : right;
        if (!before_any && !after_any) {
            ws->cross_set[d][s] = all_letters;
            ws->cross_score[d][s] = 0;
            ws->has_cross[d][s] = 0;
            continue;
        }
        uint8_t before[GD_MAX_DIM], after[GD_MAX_DIM];
        int nb = 0, na = 0;
        int32_t score = 0;
        uint32_t step = d == GD_ACROSS ? cols : 1;
        uint32_t pos = d == GD_ACROSS ? r : c, limit = d == GD_ACROSS ? rows : cols;
        /* tiles before s, collected nearest first then reversed into reading order */
        uint8_t near_first[GD_MAX_DIM];
        for (uint32_t p = pos, t = s; p > 0 && board[t - step]; p--, t -= step) {
            near_first[nb++] = board[t - step];
            score += gd_tile_value(rules, board[t - step]);
        }
        for (int k = 0; k < nb; k++) before[k] = near_first[nb - 1 - k];
        for (uint32_t p = pos, t = s; p + 1 < limit && board[t + step]; p++, t += step) {
            after[na++] = board[t + step];
            score += gd_tile_value(rules, board[t + step]);
        }
        ws->cross_set[d][s] = cross_letters(lex, before, nb, after, na);
        ws->cross_score[d][s] = score;
        ws->has_cross[d][s] = 1;
    }
}

static int check_board(const gd_lexicon *lex, const gd_rules *rules, const uint8_t *board, int *empty, gd_error *err)
{
    const uint32_t cols = rules->cols;
    *empty = 1;
    for (uint32_t s = 0; s < rules->rows * cols; s++) {
        uint8_t sq = board[s];
        if (sq && ((sq & 63) == 0 || (sq & 63) > lex->alphabet_size || (sq & GD_ON_BOARD_FLAG)))
            return gd_set_error(err, GD_ERR_ARGUMENT, 0, "square (%u, %u) holds an invalid tile code %u", s / cols,
                                s % cols, sq);
        if (sq) *empty = 0;
    }
    return GD_OK;
}

static int check_inputs(const gd_lexicon *lex, const gd_rules *rules, const uint8_t *board, void *workspace,
                        gd_error *err)
{
    if (!lex || !lex->arcs || !board || !workspace) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "missing argument");
    if (!lex->walk)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the lexicon has no walk index (see gd_build_walk_index)");
    if (lex->flags & GD_LEXICON_DAWG)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "a DAWG was given to the GADDAG generator (see gd_dawg_prepare)");
    return gd_check_prepared_rules(workspace, rules, err);
}

int gd_prepare(const gd_lexicon *lex, const gd_rules *rules, const uint8_t *board, void *workspace, gd_error *err)
{
    gd_workspace *ws = workspace;
    if (ws) ws->magic = 0; /* the rules are checked afresh */
    int rc = check_inputs(lex, rules, board, workspace, err);
    if (rc) return rc;
    ws->rows = rules->rows;
    ws->cols = rules->cols;
    ws->alphabet_size = lex->alphabet_size;
    int empty;
    rc = check_board(lex, rules, board, &empty, err);
    if (rc) return rc;
    ws->empty_board = empty;
    const uint64_t all_letters = all_letters_of(lex);
    for (uint32_t r = 0; r < rules->rows; r++)
        for (uint32_t c = 0; c < rules->cols; c++) compute_square(lex, rules, board, ws, r, c, all_letters, 3);
    ws->checked_rules = *rules;
    ws->magic = GD_WORKSPACE_MAGIC;
    return GD_OK;
}

void gd_recompute_square(const gd_lexicon *lex, const gd_rules *rules, const uint8_t *board, gd_workspace *ws,
                         uint32_t square)
{
    compute_square(lex, rules, board, ws, square / rules->cols, square % rules->cols, all_letters_of(lex), 3);
}

/*
 * A square's cross-sets and anchor depend only on the runs of tiles next to it. A play changes
 * the runs through its new tiles, so the squares to recompute are the new tiles themselves and,
 * from each of them in each of the four directions, the first empty square past the tiles.
 */
int gd_update_after_play(const gd_lexicon *lex, const gd_rules *rules, const uint8_t *board, void *workspace,
                         const gd_move *move, gd_error *err)
{
    int rc = check_inputs(lex, rules, board, workspace, err);
    if (rc) return rc;
    if (!move) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "missing argument");
    gd_workspace *ws = workspace;
    if (ws->magic != GD_WORKSPACE_MAGIC || ws->rows != rules->rows || ws->cols != rules->cols ||
        ws->alphabet_size != lex->alphabet_size)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the workspace was not prepared for this board and lexicon");
    if (move->kind != GD_PLAY) return GD_OK;
    const int rows = (int)rules->rows, cols = (int)rules->cols;
    const int across = move->direction == GD_ACROSS;
    if (move->length > GD_MAX_DIM || move->row >= rows || move->col >= cols ||
        (across ? move->col + move->length > cols : move->row + move->length > rows))
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the play does not fit on the board");
    const uint64_t all_letters = all_letters_of(lex);
    if (ws->empty_board) {
        /* the first play: the start square stops being the only anchor */
        int empty;
        rc = check_board(lex, rules, board, &empty, err);
        if (rc) return rc;
        ws->empty_board = empty;
        compute_square(lex, rules, board, ws, rules->start_row, rules->start_col, all_letters, 3);
    }
    static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    int first_new = 1;
    for (int k = 0; k < move->length; k++) {
        if (move->word[k] & GD_ON_BOARD_FLAG) continue;
        int r = move->row + (across ? 0 : k), c = move->col + (across ? k : 0);
        if (!board[r * cols + c])
            return gd_set_error(err, GD_ERR_ARGUMENT, 0, "square (%d, %d) of the play is empty on the board", r, c);
        compute_square(lex, rules, board, ws, (uint32_t)r, (uint32_t)c, all_letters, 3);
        for (int d = 0; d < 4; d++) {
            /* along the play's own line every new tile leads to the same two squares, the ends
             * of the word it made */
            if (!first_new && (d < 2) != across) continue;
            int rr = r + dr[d], cc = c + dc[d];
            while (rr >= 0 && rr < rows && cc >= 0 && cc < cols && board[rr * cols + cc]) {
                rr += dr[d];
                cc += dc[d];
            }
            /* past a run up or down the column only the column's word changed, whose cross-set
             * across plays use; past a run along the row, only the row's */
            if (rr >= 0 && rr < rows && cc >= 0 && cc < cols)
                compute_square(lex, rules, board, ws, (uint32_t)rr, (uint32_t)cc, all_letters,
                               d < 2 ? 1u << GD_ACROSS : 1u << GD_DOWN);
        }
        first_new = 0;
    }
    return GD_OK;
}

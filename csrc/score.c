/* score.c — the words a play forms and what each scores, from first principles. */
#include <string.h>

#include "rules_check.h"
#include "tiles.h"

/* Score of the word through `squares[0..length)` (row-major indices), where `fresh` marks
 * tiles the play places: premiums count only under those. */
static int32_t word_score(const gd_rules *rules, const uint8_t *tiles, const uint32_t *squares, const uint8_t *fresh,
                          int length)
{
    int32_t sum = 0, multiplier = 1;
    for (int k = 0; k < length; k++) {
        int32_t value = gd_tile_value(rules, tiles[k]);
        if (fresh[k]) {
            value *= rules->letter_multiplier[squares[k]];
            multiplier *= rules->word_multiplier[squares[k]];
        }
        sum += value;
    }
    return sum * multiplier;
}

int gd_move_words(const gd_rules *rules, const uint8_t *board, const gd_move *move, gd_word *out, size_t capacity,
                  size_t *count)
{
    if (!rules || !board || !move || !count || (!out && capacity)) return GD_ERR_ARGUMENT;
    *count = 0;
    if (gd_check_rules(rules, NULL)) return GD_ERR_ARGUMENT;
    const uint32_t rows = rules->rows, cols = rules->cols;
    const int across = move->direction == GD_ACROSS;
    if (move->length < 1 || move->length > GD_MAX_DIM || move->row >= rows || move->col >= cols ||
        (across ? move->col + move->length > cols : move->row + move->length > rows))
        return GD_ERR_ARGUMENT;
    /* the board after the play, along the main line */
    uint8_t tiles[GD_MAX_DIM], fresh[GD_MAX_DIM];
    uint32_t squares[GD_MAX_DIM], placed = 0;
    for (int k = 0; k < move->length; k++) {
        uint32_t r = move->row + (across ? 0 : (uint32_t)k), c = move->col + (across ? (uint32_t)k : 0);
        squares[k] = r * cols + c;
        tiles[k] = move->word[k] & (uint8_t)~GD_ON_BOARD_FLAG;
        fresh[k] = !(move->word[k] & GD_ON_BOARD_FLAG);
        placed += fresh[k];
    }
    if (placed > rules->rack_size) return GD_ERR_ARGUMENT; /* no play places more: the score bound assumes it */
    size_t n = 0;
    if (n < capacity) {
        out[n].row = move->row;
        out[n].col = move->col;
        out[n].direction = move->direction;
        out[n].length = move->length;
        out[n].score = word_score(rules, tiles, squares, fresh, move->length);
    }
    n++;
    for (int k = 0; k < move->length; k++) {
        if (!fresh[k]) continue;
        /* the perpendicular run through the new tile */
        uint32_t step = across ? cols : 1;
        uint32_t s = squares[k];
        uint32_t pos = across ? s / cols : s % cols, limit = across ? rows : cols;
        uint32_t first = s, first_pos = pos;
        while (first_pos > 0 && board[first - step]) {
            first -= step;
            first_pos--;
        }
        uint8_t cross_tiles[GD_MAX_DIM], cross_fresh[GD_MAX_DIM];
        uint32_t cross_squares[GD_MAX_DIM];
        int length = 0;
        for (uint32_t t = first, p = first_pos; p < limit && (t == s || board[t]); t += step, p++) {
            cross_squares[length] = t;
            cross_tiles[length] = t == s ? tiles[k] : board[t];
            cross_fresh[length] = t == s;
            length++;
        }
        if (length < 2) continue;
        if (n < capacity) {
            out[n].row = (uint8_t)(first / cols);
            out[n].col = (uint8_t)(first % cols);
            out[n].direction = across ? GD_DOWN : GD_ACROSS;
            out[n].length = (uint8_t)length;
            out[n].score = word_score(rules, cross_tiles, cross_squares, cross_fresh, length);
        }
        n++;
    }
    *count = n;
    return GD_OK;
}

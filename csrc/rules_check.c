/* rules_check.c — whether the rules a caller gives are ones the core can play by: every bound of
 * csrc/gaddag_solver.h, and no play able to score past GD_MAX_SCORE. */
#include "gaddag_format.h"
#include "rules_check.h"

/*
 * The most a play can score under `rules` (see GD_MAX_SCORE), with the values already in bounds.
 * A play places k <= min(rack_size, longest line) tiles: its main word holds at most k new tiles
 * at the highest letter premium and the rest of a line at face value, times the product of the k
 * highest word premiums of some line; each new tile forms at most one cross-word, of at most a
 * line, times the highest word premium. Products are cut at GD_MAX_SCORE + 1, so nothing here
 * can overflow.
 */
static uint64_t score_ceiling(const gd_rules *rules)
{
    const uint32_t rows = rules->rows, cols = rules->cols;
    const uint64_t longest = rows > cols ? rows : cols;
    const uint64_t tiles = rules->rack_size < longest ? rules->rack_size : longest;
    uint64_t value = 0, letter_premium = 1, word_premium = 1, line_product = 1;
    for (unsigned c = 0; c < 64; c++)
        if ((uint64_t)rules->values[c] > value) value = (uint64_t)rules->values[c];
    for (uint32_t s = 0; s < rows * cols; s++) {
        if (rules->letter_multiplier[s] > letter_premium) letter_premium = rules->letter_multiplier[s];
        if (rules->word_multiplier[s] > word_premium) word_premium = rules->word_multiplier[s];
    }
    for (int direction = 0; direction < 2; direction++) {
        const uint32_t lines = direction == GD_ACROSS ? rows : cols, length = direction == GD_ACROSS ? cols : rows;
        const uint32_t step = direction == GD_ACROSS ? 1 : cols;
        for (uint32_t line = 0; line < lines; line++) {
            /* the line's word premiums above 1, highest first (the rest multiply by 1): this runs
             * on every generation call, and most squares have none */
            uint8_t premium[GD_MAX_DIM];
            uint32_t n = 0;
            for (uint32_t p = 0, s = direction == GD_ACROSS ? line * cols : line; p < length; p++, s += step) {
                const uint8_t m = rules->word_multiplier[s];
                if (m <= 1) continue;
                uint32_t q = n++;
                for (; q > 0 && premium[q - 1] < m; q--) premium[q] = premium[q - 1];
                premium[q] = m;
            }
            uint64_t product = 1;
            for (uint32_t p = 0; p < n && p < tiles; p++) {
                product *= premium[p];
                if (product > GD_MAX_SCORE) product = GD_MAX_SCORE + 1;
            }
            if (product > line_product) line_product = product;
        }
    }
    const uint64_t main_letters = tiles * letter_premium + (longest - tiles);
    const uint64_t cross_letters = tiles * (letter_premium + longest - 1) * word_premium;
    return value * (main_letters * line_product + cross_letters) + (uint64_t)rules->bingo_bonus;
}

int gd_check_rules(const gd_rules *rules, gd_error *err)
{
    if (!rules) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "no rules given");
    if (rules->rows < 1 || rules->cols < 1 || rules->rows > GD_MAX_DIM || rules->cols > GD_MAX_DIM ||
        rules->rows * rules->cols > GD_MAX_SQUARES)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "board of %u x %u squares is not supported (at most %d x %d)",
                            rules->rows, rules->cols, GD_MAX_DIM, GD_MAX_DIM);
    if (rules->start_row >= rules->rows || rules->start_col >= rules->cols)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "start square is off the board");
    if (rules->rack_size < 1 || rules->rack_size > GD_MAX_DIM)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "rack size %u is out of range (1 to %d)", rules->rack_size,
                            GD_MAX_DIM);
    for (unsigned c = 0; c < 64; c++)
        if (rules->values[c] < 0 || rules->values[c] > GD_MAX_TILE_VALUE)
            return gd_set_error(err, GD_ERR_ARGUMENT, 0, "value %d of tile code %u is out of range (0 to %d)",
                                (int)rules->values[c], c, GD_MAX_TILE_VALUE);
    if (rules->bingo_bonus < 0 || rules->bingo_bonus > GD_MAX_BINGO_BONUS)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "bingo bonus %d is out of range (0 to %d)",
                            (int)rules->bingo_bonus, GD_MAX_BINGO_BONUS);
    if (rules->going_out_bonus < 0 || rules->going_out_bonus > GD_MAX_GOING_OUT || rules->going_out_penalty < 0 ||
        rules->going_out_penalty > GD_MAX_GOING_OUT)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "going-out bonus %d or penalty %d is out of range (0 to %d)",
                            (int)rules->going_out_bonus, (int)rules->going_out_penalty, GD_MAX_GOING_OUT);
    const uint64_t ceiling = score_ceiling(rules);
    if (ceiling > GD_MAX_SCORE)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0,
                            "a play could score up to %llu under these rules, more than %d (lower the tile values, "
                            "premiums or bingo bonus)",
                            (unsigned long long)ceiling, GD_MAX_SCORE);
    return GD_OK;
}

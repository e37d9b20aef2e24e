/* Internal: the workspace a board is prepared into. crossset.c fills it (gd_prepare,
 * gd_update_after_play); the generators, the game and the searches read it. */
#ifndef WORKSPACE_H
#define WORKSPACE_H

#include <stdint.h>

#include "gaddag_solver.h"

#define GD_WORKSPACE_MAGIC 0x47445753u /* "GDWS": the workspace was prepared */

/*
 * For a play in direction d, a new tile on square s also forms the perpendicular word
 * through s. cross_set[d][s] has bit c set when letter c may go there (all letters when
 * nothing is perpendicular); cross_score[d][s] is the value of the perpendicular tiles;
 * has_cross[d][s] says whether a perpendicular word is formed at all.
 */
typedef struct gd_workspace {
    uint32_t magic;
    uint32_t rows, cols;
    uint32_t alphabet_size;
    int empty_board;
    uint64_t cross_set[2][GD_MAX_SQUARES];
    int32_t cross_score[2][GD_MAX_SQUARES];
    uint8_t has_cross[2][GD_MAX_SQUARES];
    uint8_t anchor[GD_MAX_SQUARES];
    gd_rules checked_rules; /* the rules gd_prepare checked (see gd_check_prepared_rules) */
} gd_workspace;

/* gd_check_rules, or nothing when `rules` equal the ones gd_prepare checked for the prepared
 * workspace `ws`: generation runs every turn, and the check reads every square. */
int gd_check_prepared_rules(const gd_workspace *ws, const gd_rules *rules, gd_error *err);

/* Recompute one square's anchor, cross-sets and cross-scores from `board` (an update of a few
 * squares, for a search that reads them after a play it does not make; the caller checked the
 * lexicon and rules when it prepared the workspace). */
void gd_recompute_square(const gd_lexicon *lex, const gd_rules *rules, const uint8_t *board, gd_workspace *ws,
                         uint32_t square);

/* Copy the board's squares of a prepared workspace (a whole one is sized for the largest board):
 * for a copy whose other fields are already those of `from`. */
void gd_workspace_copy_squares(gd_workspace *to, const gd_workspace *from);
/* Copy a prepared workspace: its fields and its board's squares only. */
void gd_workspace_copy(gd_workspace *to, const gd_workspace *from);

#endif

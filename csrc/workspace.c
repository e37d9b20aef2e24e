/* workspace.c — the workspace a board is prepared into (its layout: workspace.h). */
#include <string.h>

#include "rules_check.h"
#include "workspace.h"

size_t gd_workspace_size(void) { return sizeof(gd_workspace); }

int gd_check_prepared_rules(const gd_workspace *ws, const gd_rules *rules, gd_error *err)
{
    if (rules && ws->magic == GD_WORKSPACE_MAGIC && memcmp(rules, &ws->checked_rules, sizeof *rules) == 0)
        return GD_OK;
    return gd_check_rules(rules, err);
}

void gd_workspace_copy_squares(gd_workspace *to, const gd_workspace *from)
{
    const uint32_t squares = from->rows * from->cols;
    to->empty_board = from->empty_board;
    for (int d = 0; d < 2; d++) {
        memcpy(to->cross_set[d], from->cross_set[d], squares * sizeof from->cross_set[d][0]);
        memcpy(to->cross_score[d], from->cross_score[d], squares * sizeof from->cross_score[d][0]);
        memcpy(to->has_cross[d], from->has_cross[d], squares * sizeof from->has_cross[d][0]);
    }
    memcpy(to->anchor, from->anchor, squares * sizeof from->anchor[0]);
}

void gd_workspace_copy(gd_workspace *to, const gd_workspace *from)
{
    to->magic = from->magic;
    to->rows = from->rows;
    to->cols = from->cols;
    to->alphabet_size = from->alphabet_size;
    to->checked_rules = from->checked_rules;
    gd_workspace_copy_squares(to, from);
}

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

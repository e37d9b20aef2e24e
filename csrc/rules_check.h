/* Internal: whether rules are ones the core can play by (rules_check.c). Every entry point that
 * takes rules checks them first, so nothing past it meets a board, a rack or a score out of
 * bounds. */
#ifndef RULES_CHECK_H
#define RULES_CHECK_H

#include "gaddag_solver.h"

/* GD_OK, or GD_ERR_ARGUMENT with the reason in `err`: a board, rack, tile value, bonus or the
 * most a play could score past the bounds of gaddag_solver.h. */
int gd_check_rules(const gd_rules *rules, gd_error *err);

#endif

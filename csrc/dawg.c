/* dawg.c — the DAWG lexicon (docs/dawg.md): opened and validated like a .gaddag, queried by
 * reading a word from its first letter. Building is gaddag_build.c's pipeline on the words
 * themselves (gd_dawg_build). */
#include <string.h>

#include "gaddag_format.h"
#include "gaddag_solver.h"

int gd_dawg_open(gd_lexicon *dawg, const uint8_t *data, size_t size, void *scratch, gd_error *err)
{
    return gd_open_automaton(dawg, data, size, scratch, &gd_dawg_file, err);
}

int gd_is_dawg(const gd_lexicon *lex) { return lex && (lex->flags & GD_LEXICON_DAWG) != 0; }

int gd_dawg_contains(const gd_lexicon *dawg, const uint8_t *word, size_t length)
{
    if (!gd_is_dawg(dawg) || !dawg->arcs || !word || length == 0 || length > GD_MAX_WORD) return 0;
    uint32_t list = gd_arc_child(dawg->arcs[0]), arc = 0;
    for (size_t k = 0; k < length; k++) {
        if (!list || word[k] == GD_SEPARATOR || word[k] > dawg->alphabet_size) return 0;
        arc = gd_find_arc(dawg->arcs, list, word[k]);
        if (!arc) return 0;
        list = gd_arc_child(dawg->arcs[arc]);
    }
    return gd_arc_accepts(dawg->arcs[arc]);
}

/* Internal: the anagram filter (anagram_filter.c), built by gaddag.c with the walk index and
 * probed by the move generator. */
#ifndef ANAGRAM_FILTER_H
#define ANAGRAM_FILTER_H

#include <stddef.h>
#include <stdint.h>

#include "gaddag_solver.h"

/* The anagram filter (anagram_filter.c): whether a multiset of letters may spell a word. A
 * multiset's hash is the sum of letter_hash[c] over its letters. It may say yes wrongly (rarely),
 * never no wrongly. Built with the walk index, into the same buffer. */
typedef struct gd_anagram_filter {
    const uint64_t *letter_hash; /* 64 values, by letter code; NULL without a walk index */
    const uint64_t *blocks;      /* the Bloom filter's bits; NULL: no filter, anything may spell */
    uint32_t mask;
} gd_anagram_filter;

size_t gd_anagram_filter_size(const gd_lexicon *lex);
/* A word found while the filter is built: its hash, its letters reversed (the GADDAG's path). */
typedef void (*gd_word_visitor)(void *context, uint64_t sum, const uint8_t *reversed, unsigned length);
/* Fill `buffer` (gd_anagram_filter_size bytes, 8-byte aligned) from lex->walk and point the
 * lexicon at it, handing every word to `visit` (may be NULL) on the way; 0 when the buffer is too
 * small or the walk holds more words than the header says (the filter then lets anything pass, and
 * some words were not visited). */
int gd_build_anagram_filter(gd_lexicon *lex, void *buffer, size_t size, gd_word_visitor visit, void *context);
gd_anagram_filter gd_lexicon_anagram_filter(const gd_lexicon *lex);
int gd_anagram_filter_may_spell(const gd_anagram_filter *filter, uint64_t sum);
void gd_anagram_filter_prefetch(const gd_anagram_filter *filter, uint64_t sum);
/* Whether the letters hashed to `sum` plus one more letter (a blank's, any of codes 1 to
 * alphabet_size) may spell a word (gd_anagram_filter_may_spell for each letter). */
int gd_anagram_filter_may_spell_with_blank(const gd_anagram_filter *filter, uint64_t sum, uint32_t alphabet_size);

#endif

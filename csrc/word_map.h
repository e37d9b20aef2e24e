/* Internal: the word map (word_map.c), built by gaddag.c with the walk index and read by the
 * move generator's best-N search. */
#ifndef WORD_MAP_H
#define WORD_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "gaddag_solver.h"

/* Every word of the lexicon, found by the multiset of its letters. A multiset's key is the sum of
 * the anagram filter's letter_hash[c] over its letters (anagram_filter.h), so the key of a rack's
 * tiles plus board tiles is the sum of their keys. */
typedef struct gd_word_map {
    uint32_t slot_mask;  /* slots - 1 (a power of two) */
    uint32_t word_count;
    uint32_t *slots;     /* open addressing by key: 1 + the first entry of the key, or 0 */
    uint64_t *keys;      /* by entry (a word): its key */
    uint32_t *next;      /* by entry: the next entry with the same key, or GD_WORD_MAP_END */
    uint32_t *words;     /* by entry: the word's letters start at letters + words[i] */
    uint8_t *lengths;    /* by entry: its length */
    uint8_t *letters;    /* letter codes, in reading order */
} gd_word_map;

#define GD_WORD_MAP_END UINT32_MAX

/* The most words a lexicon's map holds: about 38 bytes a word (SOWPODS' 267,751 words take 10 MB),
 * so a lexicon of every inflected form (Polish: 3.3 million) would take more memory than its
 * generation gains (a page holds it); those lexicons walk, as a DAWG does. */
#define GD_WORD_MAP_MAX_WORDS 1000000u

/* Bytes the map of `lex` takes at most (8-byte multiple; 0 for a DAWG or a lexicon of more than
 * GD_WORD_MAP_MAX_WORDS words, which have no map). */
size_t gd_word_map_size(const gd_lexicon *lex);

/* Built while the anagram filter is (its walk visits every word, and its hashes are the keys):
 * gd_word_map_start on `buffer` (8-byte aligned, gd_word_map_size bytes), gd_word_map_add as the
 * filter's visitor, then gd_word_map_finish, which points lex->word_map at the map, or leaves it
 * as it was (the caller sets it NULL first) when the words cannot be mapped exactly (two multisets sharing a key, or a walk that holds
 * other than the header's number of words). */
typedef struct gd_word_map_builder {
    gd_word_map *map; /* laid out in the buffer; its word_count counts the words added */
    uint32_t capacity, max_length;
    size_t used; /* letters written */
    int ok;
} gd_word_map_builder;

int gd_word_map_start(gd_word_map_builder *builder, const gd_lexicon *lex, void *buffer, size_t size);
void gd_word_map_add(void *builder, uint64_t key, const uint8_t *reversed, unsigned length);
void gd_word_map_finish(gd_word_map_builder *builder, gd_lexicon *lex);

/* The first entry of `key`, or GD_WORD_MAP_END; the others follow through `next`. */
static inline uint32_t gd_word_map_find(const gd_word_map *map, uint64_t key)
{
    for (uint32_t slot = (uint32_t)(key >> 32) & map->slot_mask;; slot = (slot + 1) & map->slot_mask) {
        const uint32_t first = map->slots[slot];
        if (!first) return GD_WORD_MAP_END;
        if (map->keys[first - 1] == key) return first - 1;
    }
}

#endif

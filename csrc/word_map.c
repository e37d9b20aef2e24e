/* word_map.c — every word of the lexicon, found by the multiset of its letters.
 *
 * Best-N move generation (movegen.c) takes the plays that use a rack's blank from here: once the
 * plays of the rack's letters alone are known, few sub-racks holding the blank can still beat the
 * best of them, and for each a lookup of its letters, the board tiles of a placement and a letter
 * for the blank gives the words to try on the squares, where a walk of the GADDAG would try every
 * letter for the blank along every path. (For racks without a blank the walk is cheaper than the
 * lookups: docs/movegen.md.)
 *
 * The key of a multiset is the anagram filter's additive hash, so the key of rack tiles plus board
 * tiles is the sum of both. A table of slots, addressed by the key's high bits, holds each key's
 * first word, and each word the next with its key (in the order of the walk). Built in the
 * anagram filter's walk of the words, into the walk index's caller-owned buffer; never stored in a
 * file. Two multisets sharing a 64-bit key would make a lookup return words of other letters, so
 * the build checks every key's words and, should that ever happen, leaves the lexicon without a
 * map (generation then walks, as it always can).
 */
#include <string.h>

#include "word_map.h"

#define ALIGN8(n) (((n) + 7u) & ~(size_t)7u)

/* Slots for `words` words: a power of two, at least one and a half per word (fewer keys than
 * words: anagrams share one), so that the table stays small enough for the caches. */
static uint32_t map_slots(uint32_t words)
{
    uint64_t slots = 16;
    while (slots < (uint64_t)words + words / 2 && slots < (1ull << 31)) slots <<= 1;
    return (uint32_t)slots;
}

size_t gd_word_map_size(const gd_lexicon *lex)
{
    if (lex->flags & GD_LEXICON_DAWG) return 0; /* its paths read forward; its generator needs no map */
    if (lex->word_count > GD_WORD_MAP_MAX_WORDS) return 0;
    const size_t words = lex->word_count;
    return ALIGN8(sizeof(gd_word_map)) + ALIGN8(words * sizeof(uint64_t)) +
           ALIGN8((size_t)map_slots(lex->word_count) * sizeof(uint32_t)) + 2 * ALIGN8(words * sizeof(uint32_t)) +
           ALIGN8(words) + ALIGN8(words * lex->max_word_length);
}

/* Whether two words are anagrams of each other. */
static int same_letters(const uint8_t *a, const uint8_t *b, unsigned length)
{
    unsigned counts[64] = {0};
    for (unsigned i = 0; i < length; i++) counts[a[i] & 63u]++;
    for (unsigned i = 0; i < length; i++)
        if (!counts[b[i] & 63u]--) return 0;
    return 1;
}

int gd_word_map_start(gd_word_map_builder *b, const gd_lexicon *lex, void *buffer, size_t size)
{
    const size_t needed = gd_word_map_size(lex); /* 0: no map for this lexicon */
    b->ok = 0;
    if (!needed || !buffer || size < needed || lex->max_word_length > GD_MAX_WORD) return 0;
    const uint32_t capacity = lex->word_count, n_slots = map_slots(capacity);
    uint8_t *at = buffer;
    gd_word_map *map = (gd_word_map *)at;
    at += ALIGN8(sizeof *map);
    map->keys = (uint64_t *)at;
    at += ALIGN8((size_t)capacity * sizeof *map->keys);
    map->slots = (uint32_t *)at;
    at += ALIGN8((size_t)n_slots * sizeof *map->slots);
    map->next = (uint32_t *)at;
    at += ALIGN8((size_t)capacity * sizeof *map->next);
    map->words = (uint32_t *)at;
    at += ALIGN8((size_t)capacity * sizeof *map->words);
    map->lengths = at;
    at += ALIGN8(capacity);
    map->letters = at;
    map->slot_mask = n_slots - 1;
    map->word_count = 0;
    memset(map->slots, 0, (size_t)n_slots * sizeof *map->slots);
    b->map = map;
    b->capacity = capacity;
    b->max_length = lex->max_word_length;
    b->used = 0;
    b->ok = 1;
    return 1;
}

void gd_word_map_add(void *context, uint64_t key, const uint8_t *reversed, unsigned length)
{
    gd_word_map_builder *b = context;
    gd_word_map *map = b->map;
    if (!b->ok) return;
    if (map->word_count == b->capacity || length > b->max_length) {
        b->ok = 0;
        return;
    }
    const uint32_t n = map->word_count;
    uint8_t *word = map->letters + b->used;
    for (unsigned i = 0; i < length; i++) word[i] = reversed[length - 1 - i];
    map->keys[n] = key;
    map->words[n] = (uint32_t)b->used;
    map->lengths[n] = (uint8_t)length;
    map->next[n] = GD_WORD_MAP_END;
    /* into the table: the key's first word, or after the last with its key (the order of the walk) */
    for (uint32_t slot = (uint32_t)(key >> 32) & map->slot_mask;; slot = (slot + 1) & map->slot_mask) {
        if (!map->slots[slot]) {
            map->slots[slot] = n + 1;
            break;
        }
        const uint32_t first = map->slots[slot] - 1;
        if (map->keys[first] != key) continue;
        if (map->lengths[first] != length || !same_letters(map->letters + map->words[first], word, length)) {
            b->ok = 0; /* two multisets share a key */
            return;
        }
        uint32_t last = first;
        while (map->next[last] != GD_WORD_MAP_END) last = map->next[last];
        map->next[last] = n;
        break;
    }
    b->used += length;
    map->word_count++;
}

void gd_word_map_finish(gd_word_map_builder *b, gd_lexicon *lex)
{
    /* every word visited: the filter was built whole, and no more words than the header says */
    if (b->ok && lex->anagram_filter_mask && b->map->word_count == lex->word_count) lex->word_map = b->map;
}

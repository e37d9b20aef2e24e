/* anagram_filter.c — which multisets of letters spell some word of the lexicon.
 *
 * Best-N move generation bounds each anchor's equity before walking it; knowing that the tiles
 * a placement would use (with the board tiles in its main word) cannot spell any word lets the
 * bound drop that placement — above all the 50-point bingos that most racks cannot make. The
 * filter answers "may these letters spell a word?" in one probe.
 *
 * A multiset is hashed additively (the sum of a 64-bit value per letter), so the rack's hash
 * plus the board tiles' hash is the hash of both, with no sorting. The filter is a Bloom filter
 * of about 16 bits per word, each word setting two bits of one 64-bit block: small enough to
 * stay in the caches (the probes come in the middle of move generation, and a table of exact
 * fingerprints was slower for its misses than what it saved). It may answer yes for letters
 * that spell nothing (about one probe in fifty), never no for letters that spell a word: a bound
 * that trusts it stays an upper bound, so generation stays exact. It is derived from the
 * validated arcs when the walk index is built and never stored in a file.
 */
#include <string.h>

#include "anagram_filter.h"
#include "gaddag_format.h"

/* 64-bit blocks for a lexicon of `words` words: a power of two, at least 16 bits per word. */
static uint32_t filter_blocks(uint32_t words)
{
    uint64_t want = ((uint64_t)words * 16 + 63) / 64, blocks = 16;
    while (blocks < want && blocks < (1ull << 28)) blocks <<= 1;
    return (uint32_t)blocks;
}

size_t gd_anagram_filter_size(const gd_lexicon *lex)
{
    return (64 + (size_t)filter_blocks(lex->word_count)) * sizeof(uint64_t);
}

static uint64_t splitmix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* A multiset's two bits: in block (mixed & mask), at bits 40-45 and 46-51 of its mixed hash. */
static inline uint64_t filter_bits(uint64_t mixed)
{
    return 1ull << ((mixed >> 40) & 63u) | 1ull << ((mixed >> 46) & 63u);
}

gd_anagram_filter gd_lexicon_anagram_filter(const gd_lexicon *lex)
{
    gd_anagram_filter filter = {lex->anagram_filter, NULL, 0};
    if (lex->anagram_filter && lex->anagram_filter_mask) {
        filter.blocks = lex->anagram_filter + 64;
        filter.mask = lex->anagram_filter_mask;
    }
    return filter;
}

int gd_anagram_filter_may_spell(const gd_anagram_filter *filter, uint64_t sum)
{
    if (!filter->blocks) return 1; /* no filter: anything may */
    const uint64_t mixed = splitmix64(sum), bits = filter_bits(mixed);
    return (filter->blocks[mixed & filter->mask] & bits) == bits;
}

int gd_anagram_filter_may_spell_with_blank(const gd_anagram_filter *filter, uint64_t sum, uint32_t alphabet_size)
{
    if (!filter->blocks) return 1;
    for (uint32_t letter = 1; letter <= alphabet_size; letter++) {
        const uint64_t mixed = splitmix64(sum + filter->letter_hash[letter]), bits = filter_bits(mixed);
        if ((filter->blocks[mixed & filter->mask] & bits) == bits) return 1;
    }
    return 0;
}

void gd_anagram_filter_prefetch(const gd_anagram_filter *filter, uint64_t sum)
{
#if defined(__GNUC__) || defined(__clang__)
    if (filter->blocks) __builtin_prefetch(&filter->blocks[splitmix64(sum) & filter->mask]);
#else
    (void)filter;
    (void)sum;
#endif
}

/* Every word is a separator-free path from the root (its letters reversed): walk them all,
 * depth first with an explicit stack, adding each accepted path's hash, and handing each word to
 * `visit` when given (the word map is built in the same walk). */
int gd_build_anagram_filter(gd_lexicon *lex, void *buffer, size_t size, gd_word_visitor visit, void *context)
{
    if (size < gd_anagram_filter_size(lex)) return 0;
    uint64_t *letter_hash = buffer;
    uint64_t *blocks = letter_hash + 64;
    const uint32_t count = filter_blocks(lex->word_count), mask = count - 1;
    for (unsigned c = 0; c < 64; c++) letter_hash[c] = splitmix64(0x616E616772616D73ull + c);
    memset(blocks, 0, (size_t)count * sizeof *blocks);
    lex->anagram_filter = letter_hash; /* the visitor reads the letters' hashes */

    const uint64_t *walk = lex->walk;
    const uint32_t *high = lex->walk_high;
    struct frame {
        uint32_t list;   /* the list being read */
        uint64_t letters; /* its letters (for finding arcs) */
        uint64_t pending; /* its letters not yet taken */
        uint64_t sum;    /* hash of the letters before it */
    } stack[GD_MAX_WORD + 1];
    uint8_t path[GD_MAX_WORD + 1]; /* the letters taken, path[d] at depth d */
    /* the paths walked are substrings of words, reversed: a lexicon whose header was checked
     * against its arcs visits at most this many arcs here, and one opened without that check and
     * holding more gets no filter rather than a long build */
    const uint64_t longest = lex->max_word_length + 1u;
    uint64_t budget = ((uint64_t)lex->word_count + 1) * longest * (longest + 1) / 2, accepted = 0;
    int depth = 0;
    stack[0].letters = gd_walk_letters(walk, high, 0);
    stack[0].pending = stack[0].letters & ~1ull;
    stack[0].list = gd_walk_child(walk[0]);
    stack[0].sum = 0;
    int ok = 1;
    while (depth >= 0 && ok && budget) {
        struct frame *f = &stack[depth];
        if (!f->pending) {
            depth--;
            continue;
        }
        const unsigned letter = (unsigned)__builtin_ctzll(f->pending);
        f->pending &= f->pending - 1u;
        const uint32_t arc = gd_walk_arc(f->list, f->letters, letter);
        const uint64_t entry = walk[arc], sum = f->sum + letter_hash[letter];
        path[depth] = (uint8_t)letter;
        budget--;
        if (gd_walk_accepts(entry)) {
            const uint64_t mixed = splitmix64(sum);
            blocks[mixed & mask] |= filter_bits(mixed);
            ok = ++accepted <= lex->word_count;
            if (ok && visit) visit(context, sum, path, (unsigned)depth + 1);
        }
        /* the loader bounds every path by the longest word, so the stack cannot overflow */
        if (gd_walk_child(entry) && depth + 1 <= GD_MAX_WORD) {
            struct frame *next = &stack[++depth];
            next->letters = gd_walk_letters(walk, high, arc);
            next->pending = next->letters & ~1ull;
            next->list = gd_walk_child(entry);
            next->sum = sum;
        }
    }
    lex->anagram_filter_mask = ok && budget && depth < 0 ? mask : 0;
    return lex->anagram_filter_mask != 0;
}

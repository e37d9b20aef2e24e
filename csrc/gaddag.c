/* gaddag.c — open and validate a .gaddag file; word queries answered by the GADDAG. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "anagram_filter.h"
#include "word_map.h"
#include "gaddag_format.h"
#include "gaddag_solver.h"

/* ---- errors --------------------------------------------------------------------------- */

int gd_set_error(gd_error *err, int code, uint64_t offset, const char *fmt, ...)
{
    if (err) {
        va_list args;
        va_start(args, fmt);
        err->offset = offset;
        vsnprintf(err->message, sizeof err->message, fmt, args);
        va_end(args);
    }
    return code;
}

#define FORMAT_ERROR(offset, ...) gd_set_error(err, GD_ERR_FORMAT, (uint64_t)(offset), __VA_ARGS__)

/* ---- CRC-32 (slicing by 8; tables built on the stack, so no global state) ------------- */

uint32_t gd_crc32(const uint8_t *data, size_t size)
{
    uint32_t table[8][256];
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        table[0][i] = c;
    }
    for (uint32_t i = 0; i < 256; i++)
        for (int t = 1; t < 8; t++) table[t][i] = (table[t - 1][i] >> 8) ^ table[0][table[t - 1][i] & 0xFF];

    uint32_t crc = 0xFFFFFFFFu;
    while (size >= 8) {
        uint32_t lo = gd_get_u32(data) ^ crc;
        uint32_t hi = gd_get_u32(data + 4);
        crc = table[7][lo & 0xFF] ^ table[6][(lo >> 8) & 0xFF] ^ table[5][(lo >> 16) & 0xFF] ^
              table[4][lo >> 24] ^ table[3][hi & 0xFF] ^ table[2][(hi >> 8) & 0xFF] ^
              table[1][(hi >> 16) & 0xFF] ^ table[0][hi >> 24];
        data += 8;
        size -= 8;
    }
    while (size--) crc = table[0][(crc ^ *data++) & 0xFF] ^ (crc >> 8);
    return crc ^ 0xFFFFFFFFu;
}

/* ---- UTF-8 ------------------------------------------------------------------------------ */

/* Length of the well-formed UTF-8 prefix-free sequence, or 0 if `p[0..n)` is malformed. */
static int utf8_valid(const uint8_t *p, size_t n)
{
    size_t i = 0;
    while (i < n) {
        uint8_t b = p[i];
        size_t len;
        uint32_t cp;
        if (b < 0x80) {
            if (b == 0) return 0;
            i++;
            continue;
        } else if ((b & 0xE0) == 0xC0) {
            len = 2;
            cp = b & 0x1F;
        } else if ((b & 0xF0) == 0xE0) {
            len = 3;
            cp = b & 0x0F;
        } else if ((b & 0xF8) == 0xF0) {
            len = 4;
            cp = b & 0x07;
        } else {
            return 0;
        }
        if (i + len > n) return 0;
        for (size_t k = 1; k < len; k++) {
            if ((p[i + k] & 0xC0) != 0x80) return 0;
            cp = (cp << 6) | (p[i + k] & 0x3F);
        }
        if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
            cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return 0;
        i += len;
    }
    return 1;
}

/* ---- open + validate -------------------------------------------------------------------- */

size_t gd_validate_scratch_size(size_t size)
{
    size_t arcs = size / 4 + 1;
    return arcs * sizeof(uint64_t) + arcs / 8 + 16;
}

const gd_file_kind gd_gaddag_file = {GD_MAGIC, ".gaddag", GD_FORMAT_VERSION, GD_HEADER_FIXED_SIZE};
const gd_file_kind gd_dawg_file = {GD_DAWG_MAGIC, ".dawg", GD_FORMAT_VERSION, GD_HEADER_FIXED_SIZE};

/* Steps 1 and 2 of the validation: what the fixed header (its first GD_HEADER_FIXED_SIZE bytes,
 * in `head`) says, checked against the file's real size. */
static int check_fixed_header(const uint8_t *head, size_t head_size, uint64_t size, const gd_file_kind *kind,
                              uint32_t *header_size, gd_error *err)
{
    int rc = gd_check_prefix(head, head_size, size, kind, header_size, err);
    if (rc) return rc;
    if (*header_size < GD_HEADER_FIXED_SIZE || *header_size % 4 != 0 || *header_size > size)
        return FORMAT_ERROR(10, "header size %u is invalid (must be a multiple of 4, at least %d, inside the file)",
                            *header_size, GD_HEADER_FIXED_SIZE);
    uint32_t arc_count = gd_get_u32(head + 28);
    if (arc_count < 2 || arc_count > GD_MAX_ARCS)
        return FORMAT_ERROR(28, "arc count %u is out of range (2..%u)", arc_count, GD_MAX_ARCS);
    if ((uint64_t)*header_size + 4ull * arc_count + 4 != size)
        return FORMAT_ERROR(28, "arc count %u does not fit the file size %llu (header %u bytes + 4 per arc + 4-byte checksum)",
                            arc_count, (unsigned long long)size, *header_size);
    if (head[32] < 1 || head[32] > GD_MAX_ALPHABET)
        return FORMAT_ERROR(32, "alphabet size %u is out of range (1..%d)", head[32], GD_MAX_ALPHABET);
    if (head[33] < 1 || head[33] > GD_MAX_WORD)
        return FORMAT_ERROR(33, "longest word %u is out of range (1..%d)", head[33], GD_MAX_WORD);
    if (head[35] != 0) return FORMAT_ERROR(35, "reserved header byte is %u, not 0", head[35]);
    return GD_OK;
}

int gd_lexicon_check_header(const uint8_t *head, size_t head_size, uint64_t file_size, gd_error *err)
{
    if (!head && head_size) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "no data given");
    uint32_t header_size;
    return check_fixed_header(head, head_size, file_size, &gd_gaddag_file, &header_size, err);
}

int gd_dawg_check_header(const uint8_t *head, size_t head_size, uint64_t file_size, gd_error *err)
{
    if (!head && head_size) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "no data given");
    uint32_t header_size;
    return check_fixed_header(head, head_size, file_size, &gd_dawg_file, &header_size, err);
}

int gd_lexicon_open(gd_lexicon *lex, const uint8_t *data, size_t size, void *scratch, gd_error *err)
{
    return gd_open_automaton(lex, data, size, scratch, &gd_gaddag_file, err);
}

/* A DAWG (dawg.md) has the same layout; its automaton accepts the words themselves, so it has no
 * separator past the entry arc and accepts exactly its words. */
int gd_open_automaton(gd_lexicon *lex, const uint8_t *data, size_t size, void *scratch, const gd_file_kind *kind,
                      gd_error *err)
{
    if (!lex) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "no lexicon structure given");
    memset(lex, 0, sizeof *lex);
    const uint32_t is_dawg = kind == &gd_dawg_file;

    /* 1 + 2. fixed header and sizes */
    int rc = gd_check_in_place(data, size, kind, err);
    if (rc) return rc;
    uint32_t header_size;
    rc = check_fixed_header(data, size, size, kind, &header_size, err);
    if (rc) return rc;
    uint32_t word_count = gd_get_u32(data + 20);
    uint32_t state_count = gd_get_u32(data + 24);
    uint32_t arc_count = gd_get_u32(data + 28);
    uint32_t alphabet_size = data[32];
    uint32_t max_word_length = data[33];
    uint32_t name_length = data[34];

    /* 3. alphabet, name, padding */
    uint32_t pos = GD_HEADER_FIXED_SIZE;
    for (uint32_t c = 1; c <= alphabet_size; c++) {
        if (pos >= header_size) return FORMAT_ERROR(pos, "alphabet letter %u runs past the header", c);
        uint32_t len = data[pos];
        if (len < 1 || len > 8) return FORMAT_ERROR(pos, "alphabet letter %u has length %u (must be 1..8 bytes)", c, len);
        if (pos + 1 + len > header_size) return FORMAT_ERROR(pos, "alphabet letter %u runs past the header", c);
        if (!utf8_valid(data + pos + 1, len)) return FORMAT_ERROR(pos + 1, "alphabet letter %u is not valid UTF-8", c);
        for (uint32_t d = 1; d < c; d++)
            if (lex->alphabet_length[d] == len && memcmp(data + lex->alphabet_offset[d], data + pos + 1, len) == 0)
                return FORMAT_ERROR(pos + 1, "alphabet letter %u repeats letter %u", c, d);
        lex->alphabet_offset[c] = pos + 1;
        lex->alphabet_length[c] = len;
        pos += 1 + len;
    }
    if (pos + name_length > header_size) return FORMAT_ERROR(34, "source name runs past the header");
    if (!utf8_valid(data + pos, name_length)) return FORMAT_ERROR(pos, "source name is not valid UTF-8");
    lex->name_offset = pos;
    lex->name_length = name_length;
    for (pos += name_length; pos < header_size; pos++)
        if (data[pos] != 0) return FORMAT_ERROR(pos, "header padding byte is %u, not 0", data[pos]);

    /* 4. checksum */
    int checked = gd_check_checksum(data, size, err);
    if (checked) return checked;

    /* 5 + 6. arcs, in one backward pass: children always lie after their parent, so every
     * child's sums are known when its parent is reached. */
    const uint32_t *arcs = (const uint32_t *)(const void *)(data + header_size);
    uint64_t arcs_offset = header_size;
#define ARC_OFFSET(i) (arcs_offset + 4ull * (i))
    uint32_t entry = arcs[0];
    if (gd_arc_letter(entry) != GD_SEPARATOR || !gd_arc_last(entry) || gd_arc_accepts(entry) || gd_arc_child(entry) != 1)
        return FORMAT_ERROR(ARC_OFFSET(0), "arc 0 is not the entry arc (separator, last, not accepting, child 1)");
    if (!gd_arc_last(arcs[arc_count - 1]))
        return FORMAT_ERROR(ARC_OFFSET(arc_count - 1), "arc %u, the last one, does not end its sibling list", arc_count - 1);

    /* 5. structure, forward in blocks: a branch-free check of every arc, then a precise
     * diagnosis only for a block that failed. */
    enum { BLOCK = 4096 };
    for (uint32_t base = 1; base < arc_count; base += BLOCK) {
        uint32_t end = arc_count - base > BLOCK ? base + BLOCK : arc_count;
        uint32_t bad = 0;
        for (uint32_t i = base; i < end; i++) {
            uint32_t arc = arcs[i];
            uint32_t letter = arc & GD_ARC_LETTER_MASK, child = arc >> GD_ARC_CHILD_SHIFT;
            uint32_t last = (arc >> 6) & 1u, accepts = (arc >> 7) & 1u;
            /* arcs[arc_count] is the checksum word, so reading one past the last arc is safe */
            uint32_t next_letter = arcs[i + 1] & GD_ARC_LETTER_MASK;
            uint32_t no_child = child == 0, has_child = child != 0;
            uint32_t not_last = last ^ 1u, rejects = accepts ^ 1u;
            bad |= (letter > alphabet_size) | (has_child & ((child <= i) | (child >= arc_count))) |
                   (is_dawg & (letter == GD_SEPARATOR)) |
                   (no_child & rejects) | ((letter == GD_SEPARATOR) & (accepts | no_child)) |
                   (not_last & (next_letter <= letter));
        }
        if (!bad) continue;
        for (uint32_t i = base; i < end; i++) {
            uint32_t arc = arcs[i];
            unsigned letter = gd_arc_letter(arc);
            uint32_t child = gd_arc_child(arc);
            if (letter > alphabet_size)
                return FORMAT_ERROR(ARC_OFFSET(i), "arc %u: letter code %u is outside the alphabet (1..%u)", i, letter,
                                    alphabet_size);
            if (child != 0 && (child <= i || child >= arc_count))
                return FORMAT_ERROR(ARC_OFFSET(i),
                                    "arc %u: child index %u is out of range (must be above %u and below %u)", i, child,
                                    i, arc_count);
            if (is_dawg && letter == GD_SEPARATOR)
                return FORMAT_ERROR(ARC_OFFSET(i), "arc %u: a separator, which only a GADDAG has (a .dawg has none)", i);
            if (child == 0 && !gd_arc_accepts(arc))
                return FORMAT_ERROR(ARC_OFFSET(i), "arc %u leads nowhere (no child and not accepting)", i);
            if (letter == GD_SEPARATOR && (gd_arc_accepts(arc) || child == 0))
                return FORMAT_ERROR(ARC_OFFSET(i), "arc %u: a separator arc must have a child and cannot accept", i);
            if (!gd_arc_last(arc) && gd_arc_letter(arcs[i + 1]) <= letter)
                return FORMAT_ERROR(ARC_OFFSET(i + 1), "arc %u: sibling letters are not in increasing order", i + 1);
        }
    }

    /* 6. counts, backward: children lie after their parents, so a child's entry is ready
     * when a parent reads it. Entry i covers arc i and its later siblings: words spelled
     * without a separator (bits 0-23, saturating) and the longest (bits 24-31); every string
     * accepted (bits 32-57, saturating: 26 bits, as a 3-million-word list of inflected forms
     * spells some 33 million) and the longest (bits 58-63: at most GD_MAX_WORD + 1, clamped
     * at 63). Since no arc is dead,
     * bounding the strings bounds any walk over the automaton: a damaged or hostile file
     * cannot make a query run for ever. */
    if (scratch) {
        uint64_t *from = (uint64_t *)scratch;
        uint8_t *pointed_at = (uint8_t *)(from + arc_count); /* bitmap of list starts */
        memset(pointed_at, 0, arc_count / 8 + 1);
        pointed_at[0] = 2; /* the root, at 1 */
        const uint64_t saturated = 0xFFFFFFu, strings_saturated = 0x3FFFFFFu, deepest_most = 63;
        for (uint32_t i = arc_count - 1; i >= 1; i--) {
            uint32_t arc = arcs[i];
            uint32_t child = gd_arc_child(arc);
            int is_letter = gd_arc_letter(arc) != GD_SEPARATOR;
            uint64_t words = 0, longest = 0, strings = 0, deepest = 0;
            if (child) {
                pointed_at[child >> 3] |= (uint8_t)(1u << (child & 7));
                uint64_t below = from[child];
                strings = (below >> 32) & strings_saturated;
                deepest = (below >> 58) + 1;
                if (is_letter) {
                    words = below & saturated;
                    longest = (below >> 24) & 0xFF;
                    if (longest) longest++;
                }
            }
            if (gd_arc_accepts(arc)) {
                strings++;
                if (!deepest) deepest = 1;
                if (is_letter) {
                    words++;
                    if (!longest) longest = 1;
                }
            }
            if (!gd_arc_last(arc)) {
                uint64_t next = from[i + 1];
                words += next & saturated;
                strings += (next >> 32) & strings_saturated;
                if (((next >> 24) & 0xFF) > longest) longest = (next >> 24) & 0xFF;
                if ((next >> 58) > deepest) deepest = next >> 58;
            }
            if (words > saturated) words = saturated;
            if (strings > strings_saturated) strings = strings_saturated;
            if (longest > 255) longest = 255;
            if (deepest > deepest_most) deepest = deepest_most;
            from[i] = words | longest << 24 | strings << 32 | deepest << 58;
        }
        uint32_t states = 0;
        for (uint32_t k = 0; k <= arc_count / 8; k++) states += (uint32_t)__builtin_popcount(pointed_at[k]);
        uint64_t root = from[1];
        uint32_t words = (uint32_t)(root & saturated), longest = (uint32_t)((root >> 24) & 0xFF);
        uint64_t strings = (root >> 32) & strings_saturated, deepest = root >> 58;
        uint32_t expected_words = word_count > saturated ? (uint32_t)saturated : word_count;
        uint64_t most_strings = (uint64_t)word_count * max_word_length; /* one per letter of each word */
        if (states != state_count)
            return FORMAT_ERROR(24, "state count %u does not match the %u sibling lists found", state_count, states);
        if (words != expected_words)
            return FORMAT_ERROR(20, "word count %u does not match the %u words the arcs spell", word_count, words);
        if (longest != max_word_length)
            return FORMAT_ERROR(33, "longest word %u does not match the %u letters the arcs spell", max_word_length,
                                longest);
        if (deepest > max_word_length + 1u)
            return FORMAT_ERROR(arcs_offset, "the arcs spell strings of %u symbols, more than a %u-letter word needs",
                                (unsigned)deepest, max_word_length);
        if (is_dawg && strings != words)
            return FORMAT_ERROR(arcs_offset, "the arcs accept %llu strings, but a DAWG accepts exactly its %u words",
                                (unsigned long long)strings, words);
        if (strings > most_strings || strings == strings_saturated)
            return FORMAT_ERROR(arcs_offset, "the arcs spell %s%llu strings, more than %u words of up to %u letters have",
                                strings == strings_saturated ? "over " : "", (unsigned long long)strings, word_count,
                                max_word_length);
    }
#undef ARC_OFFSET

    lex->data = data;
    lex->size = size;
    lex->arcs = arcs;
    lex->arc_count = arc_count;
    lex->state_count = state_count;
    lex->word_count = word_count;
    lex->flags = gd_get_u32(data + 12) | (is_dawg ? GD_LEXICON_DAWG : 0); /* the file's: none defined */
    lex->alphabet_size = alphabet_size;
    lex->max_word_length = max_word_length;
    lex->header_size = header_size;
    lex->root = 1;
    return GD_OK;
}

/* ---- the walk index ---------------------------------------------------------------------- */

static int walk_needs_high(const gd_lexicon *lex) { return lex->alphabet_size >= GD_WALK_SET_BITS; }

/* The entries and their high letter bits (the anagram filter comes before them). */
static size_t walk_entries_size(const gd_lexicon *lex)
{
    size_t arcs = lex->arc_count;
    return arcs * sizeof(uint64_t) + (walk_needs_high(lex) ? arcs * sizeof(uint32_t) : 0);
}

size_t gd_walk_index_size(const gd_lexicon *lex)
{
    if (!lex || !lex->arcs) return 0;
    return walk_entries_size(lex) + gd_anagram_filter_size(lex) + gd_word_map_size(lex);
}

int gd_build_walk_index(gd_lexicon *lex, void *buffer, size_t size, gd_error *err)
{
    if (!lex || !lex->arcs) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the lexicon was not opened");
    if (!buffer || ((uintptr_t)buffer & 7u))
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the walk index buffer must be given and 8-byte aligned");
    size_t needed = gd_walk_index_size(lex);
    if (size < needed)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the walk index needs %zu bytes, the buffer has %zu", needed, size);
    const uint32_t *arcs = lex->arcs;
    const uint32_t count = lex->arc_count;
    /* the anagram filter and the word map first, so that the walk entries end the buffer: a read
     * past them is a read past the buffer, which the sanitizers report */
    const size_t filter_size = gd_anagram_filter_size(lex), map_size = gd_word_map_size(lex);
    uint64_t *walk = (uint64_t *)((uint8_t *)buffer + filter_size + map_size);
    uint32_t *high = walk_needs_high(lex) ? (uint32_t *)(walk + count) : NULL;

    /* Pass 1, backward: the letters from each arc to the end of its sibling list, parked in
     * the arc's own entry (a child may point into the middle of a shared list). */
    for (uint32_t i = count; i-- > 0;) {
        uint32_t arc = arcs[i];
        uint64_t rest = (gd_arc_last(arc) || i + 1 == count) ? 0 : walk[i + 1];
        walk[i] = rest | 1ull << gd_arc_letter(arc);
    }
    /* Pass 2, forward: a child always lies after its parent (the loader checked), so the
     * set parked at the child is still there when the parent's entry is written. */
    for (uint32_t i = 0; i < count; i++) {
        uint32_t arc = arcs[i];
        uint32_t child = gd_arc_child(arc);
        uint64_t set = child ? walk[child] : 0;
        walk[i] = child | (gd_arc_accepts(arc) ? GD_WALK_ACCEPTS : 0) | set << GD_WALK_SET_SHIFT;
        if (high) high[i] = (uint32_t)(set >> GD_WALK_SET_BITS);
    }
    lex->walk = walk;
    lex->walk_high = high;
    gd_word_map_builder words;
    const int mapping = gd_word_map_start(&words, lex, (uint8_t *)buffer + filter_size, map_size);
    gd_build_anagram_filter(lex, buffer, filter_size, mapping ? gd_word_map_add : NULL, &words);
    lex->word_map = NULL;
    if (mapping) gd_word_map_finish(&words, lex);
    return GD_OK;
}

/* ---- queries ----------------------------------------------------------------------------- */

int gd_contains(const gd_lexicon *lex, const uint8_t *word, size_t length)
{
    if (!lex || !lex->arcs || length == 0 || length > lex->max_word_length) return 0;
    uint32_t list = lex->root;
    /* REV(word) without a separator is the path that spells a whole word. */
    for (size_t k = length; k-- > 0;) {
        unsigned letter = word[k];
        if (letter < 1 || letter > lex->alphabet_size || list == 0) return 0;
        uint32_t i = gd_find_arc(lex->arcs, list, letter);
        if (!i) return 0;
        if (k == 0) return gd_arc_accepts(lex->arcs[i]);
        list = gd_arc_child(lex->arcs[i]);
    }
    return 0;
}

void gd_sink_word(gd_sink *s, const uint8_t *letters, size_t length, int reversed)
{
    size_t need = length + 1;
    if (!s->full && s->used + need <= s->capacity) {
        uint8_t *dst = s->out + s->used;
        for (size_t k = 0; k < length; k++) dst[k] = reversed ? letters[length - 1 - k] : letters[k];
        dst[length] = 0;
    } else {
        s->full = 1;
    }
    s->used += need;
    s->count++;
}

int gd_sink_finish(const gd_sink *s, size_t *needed, uint32_t *count)
{
    if (needed) *needed = s->used;
    if (count) *count = s->count;
    return GD_OK;
}

/* Anagrams walk the separator-free part of the GADDAG: reversed whole words. A rack tile is
 * preferred to a blank for the same letter; that never loses a word (a blank can stand in
 * for the tile later, not the other way round). */
static void anagram_walk(const uint32_t *arcs, uint32_t list, uint8_t *counts, unsigned tiles_left, int partial,
                         uint8_t *path, unsigned depth, gd_sink *s)
{
    for (uint32_t i = list;; i++) {
        uint32_t arc = arcs[i];
        unsigned letter = gd_arc_letter(arc);
        if (letter != GD_SEPARATOR) {
            unsigned source = counts[letter] ? letter : (counts[0] ? 0 : 64);
            if (source != 64) {
                counts[source]--;
                path[depth] = (uint8_t)(letter | (source == 0 ? GD_BLANK_FLAG : 0));
                if (gd_arc_accepts(arc) && (partial || tiles_left == 1)) gd_sink_word(s, path, depth + 1, 1);
                if (gd_arc_child(arc) && tiles_left > 1)
                    anagram_walk(arcs, gd_arc_child(arc), counts, tiles_left - 1, partial, path, depth + 1, s);
                counts[source]++;
            }
        }
        if (gd_arc_last(arc)) break;
    }
}

int gd_anagrams(const gd_lexicon *lex, const uint8_t *rack_counts, int partial, uint8_t *out, size_t capacity,
                size_t *needed, uint32_t *count)
{
    gd_sink s = {out, out ? capacity : 0, 0, 0, 0};
    if (!lex || !lex->arcs || !rack_counts) return GD_ERR_ARGUMENT;
    uint8_t counts[64] = {0};
    unsigned tiles = 0;
    for (unsigned c = 0; c <= lex->alphabet_size; c++) {
        counts[c] = rack_counts[c];
        tiles += rack_counts[c];
    }
    if (tiles > lex->max_word_length) {
        if (!partial) return gd_sink_finish(&s, needed, count); /* no word can use every tile */
        tiles = lex->max_word_length;
    }
    uint8_t path[GD_MAX_WORD];
    if (tiles > 0) anagram_walk(lex->arcs, lex->root, counts, tiles, partial, path, 0, &s);
    return gd_sink_finish(&s, needed, count);
}

/* Pattern search starts at the pattern's rightmost fixed letter: it reads leftward to the
 * word's start, crosses the separator and reads rightward — the GADDAG's own way in. */
typedef struct pattern_walk {
    const uint32_t *arcs;
    const uint8_t *pattern;
    size_t length;
    size_t anchor;
    uint8_t word[GD_MAX_WORD];
    gd_sink *s;
} pattern_walk;

static void pattern_right(pattern_walk *w, uint32_t list, size_t pos)
{
    unsigned want = w->pattern[pos];
    for (uint32_t i = want ? gd_find_arc(w->arcs, list, want) : list; i; i++) {
        uint32_t arc = w->arcs[i];
        unsigned letter = gd_arc_letter(arc);
        if (letter != GD_SEPARATOR) {
            w->word[pos] = (uint8_t)letter;
            if (pos + 1 == w->length) {
                if (gd_arc_accepts(arc)) gd_sink_word(w->s, w->word, w->length, 0);
            } else if (gd_arc_child(arc)) {
                pattern_right(w, gd_arc_child(arc), pos + 1);
            }
        }
        if (want || gd_arc_last(arc)) break;
    }
}

static void pattern_left(pattern_walk *w, uint32_t list, size_t pos)
{
    unsigned want = w->pattern[pos];
    for (uint32_t i = want ? gd_find_arc(w->arcs, list, want) : list; i; i++) {
        uint32_t arc = w->arcs[i];
        unsigned letter = gd_arc_letter(arc);
        if (letter != GD_SEPARATOR) {
            w->word[pos] = (uint8_t)letter;
            uint32_t child = gd_arc_child(arc);
            if (pos > 0) {
                if (child) pattern_left(w, child, pos - 1);
            } else if (w->anchor + 1 == w->length) {
                if (gd_arc_accepts(arc)) gd_sink_word(w->s, w->word, w->length, 0);
            } else if (child && gd_arc_letter(w->arcs[child]) == GD_SEPARATOR) {
                pattern_right(w, gd_arc_child(w->arcs[child]), w->anchor + 1);
            }
        }
        if (want || gd_arc_last(arc)) break;
    }
}

static int valid_codes(const gd_lexicon *lex, const uint8_t *codes, size_t length, int allow_zero)
{
    for (size_t k = 0; k < length; k++)
        if ((codes[k] == 0 && !allow_zero) || codes[k] > lex->alphabet_size) return 0;
    return 1;
}

int gd_pattern(const gd_lexicon *lex, const uint8_t *pattern, size_t length, uint8_t *out, size_t capacity,
               size_t *needed, uint32_t *count)
{
    gd_sink s = {out, out ? capacity : 0, 0, 0, 0};
    if (!lex || !lex->arcs || (!pattern && length)) return GD_ERR_ARGUMENT;
    if (!valid_codes(lex, pattern, length, 1)) return GD_ERR_ARGUMENT;
    if (length == 0 || length > lex->max_word_length) return gd_sink_finish(&s, needed, count);
    pattern_walk w = {lex->arcs, pattern, length, length - 1, {0}, &s};
    for (size_t k = length; k-- > 0;)
        if (pattern[k]) {
            w.anchor = k;
            break;
        }
    pattern_left(&w, lex->root, w.anchor);
    return gd_sink_finish(&s, needed, count);
}

/* Words containing a substring: read REV(sub) from the root, then any letters leftward,
 * then optionally the separator and any letters rightward. */
typedef struct containing_walk {
    const uint32_t *arcs;
    uint8_t left[GD_MAX_WORD];  /* letters before the substring, nearest first */
    uint8_t word[GD_MAX_WORD * 2];
    const uint8_t *sub;
    size_t sub_length;
    size_t left_length;
    gd_sink *s;
} containing_walk;

static void containing_emit(containing_walk *w, const uint8_t *right, size_t right_length)
{
    size_t n = 0;
    for (size_t k = w->left_length; k-- > 0;) w->word[n++] = w->left[k];
    for (size_t k = 0; k < w->sub_length; k++) w->word[n++] = w->sub[k];
    for (size_t k = 0; k < right_length; k++) w->word[n++] = right[k];
    gd_sink_word(w->s, w->word, n, 0);
}

static void containing_right(containing_walk *w, uint32_t list, uint8_t *right, size_t depth)
{
    for (uint32_t i = list;; i++) {
        uint32_t arc = w->arcs[i];
        right[depth] = (uint8_t)gd_arc_letter(arc);
        if (right[depth] != GD_SEPARATOR) {
            if (gd_arc_accepts(arc)) containing_emit(w, right, depth + 1);
            if (gd_arc_child(arc) && depth + 1 < GD_MAX_WORD) containing_right(w, gd_arc_child(arc), right, depth + 1);
        }
        if (gd_arc_last(arc)) break;
    }
}

static void containing_left(containing_walk *w, uint32_t list)
{
    for (uint32_t i = list;; i++) {
        uint32_t arc = w->arcs[i];
        unsigned letter = gd_arc_letter(arc);
        if (letter == GD_SEPARATOR) {
            uint8_t right[GD_MAX_WORD];
            containing_right(w, gd_arc_child(arc), right, 0);
        } else if (w->left_length + w->sub_length < GD_MAX_WORD) {
            w->left[w->left_length++] = (uint8_t)letter;
            if (gd_arc_accepts(arc)) containing_emit(w, NULL, 0);
            if (gd_arc_child(arc)) containing_left(w, gd_arc_child(arc));
            w->left_length--;
        }
        if (gd_arc_last(arc)) break;
    }
}

int gd_containing(const gd_lexicon *lex, const uint8_t *sub, size_t length, uint8_t *out, size_t capacity,
                  size_t *needed, uint32_t *count)
{
    gd_sink s = {out, out ? capacity : 0, 0, 0, 0};
    if (!lex || !lex->arcs || !sub || length == 0) return GD_ERR_ARGUMENT;
    if (!valid_codes(lex, sub, length, 0)) return GD_ERR_ARGUMENT;
    if (length > lex->max_word_length) return gd_sink_finish(&s, needed, count);
    containing_walk w;
    w.arcs = lex->arcs;
    w.sub = sub;
    w.sub_length = length;
    w.left_length = 0;
    w.s = &s;
    uint32_t list = lex->root;
    for (size_t k = length; k-- > 0;) {
        uint32_t i = list ? gd_find_arc(lex->arcs, list, sub[k]) : 0;
        if (!i) return gd_sink_finish(&s, needed, count);
        if (k == 0) {
            if (gd_arc_accepts(lex->arcs[i])) containing_emit(&w, NULL, 0);
        }
        list = gd_arc_child(lex->arcs[i]);
    }
    if (list) containing_left(&w, list);
    return gd_sink_finish(&s, needed, count);
}

int gd_check_checksum(const uint8_t *data, size_t size, gd_error *err)
{
    uint32_t stored = gd_get_u32(data + size - 4);
    uint32_t computed = gd_crc32(data, size - 4);
    if (stored != computed)
        return FORMAT_ERROR(size - 4, "checksum mismatch (stored 0x%08x, computed 0x%08x): the file is damaged",
                            stored, computed);
    return GD_OK;
}

static int host_is_little_endian(void)
{
    const uint32_t one = 1;
    uint8_t first;
    memcpy(&first, &one, 1);
    return first == 1;
}

int gd_check_in_place(const uint8_t *data, size_t size, const gd_file_kind *kind, gd_error *err)
{
    if (!data && size) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "no data given");
    if (!host_is_little_endian())
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "this build reads %s files in place and needs a little-endian host",
                            kind->name);
    if (((uintptr_t)data & 3u) != 0)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "%s bytes must be 4-byte aligned", kind->name);
    return GD_OK;
}

int gd_check_prefix(const uint8_t *head, size_t head_size, uint64_t size, const gd_file_kind *kind,
                    uint32_t *header_size, gd_error *err)
{
    if (head_size < kind->fixed_size && head_size < size)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the first %u bytes of the %s file are needed, %zu were given",
                            kind->fixed_size, kind->name, head_size);
    if (size < GD_MAGIC_SIZE && (size == 0 || memcmp(head, kind->magic, (size_t)size) == 0))
        return FORMAT_ERROR(size, "truncated: %llu bytes, shorter than the %u-byte header", (unsigned long long)size,
                            kind->fixed_size);
    if (size < GD_MAGIC_SIZE || memcmp(head, kind->magic, GD_MAGIC_SIZE) != 0) {
        /* the lexicon kinds share a layout: name the one given in place of the other */
        const gd_file_kind *other = kind == &gd_gaddag_file ? &gd_dawg_file : kind == &gd_dawg_file ? &gd_gaddag_file : NULL;
        if (other && size >= GD_MAGIC_SIZE && memcmp(head, other->magic, GD_MAGIC_SIZE) == 0)
            return FORMAT_ERROR(0, "this is a %s file, not a %s file (the %s engine reads %s files)", other->name,
                                kind->name, kind == &gd_dawg_file ? "DAWG" : "GADDAG", kind->name);
        return FORMAT_ERROR(0, "not a %s file (bad magic bytes)", kind->name);
    }
    if (size < kind->fixed_size)
        return FORMAT_ERROR(size, "truncated: %llu bytes, shorter than the %u-byte header", (unsigned long long)size,
                            kind->fixed_size);
    uint32_t version = gd_get_u16(head + 8);
    if (version != kind->version)
        return FORMAT_ERROR(8, "unsupported format version %u (this build reads version %u)", version, kind->version);
    *header_size = gd_get_u16(head + 10);
    uint32_t flags = gd_get_u32(head + 12);
    if (flags != 0) return FORMAT_ERROR(12, "unknown flags 0x%08x (version 1 defines none)", flags);
    uint32_t file_size = gd_get_u32(head + 16);
    if (file_size != size) {
        if (size < file_size)
            return FORMAT_ERROR(size, "truncated: the file has %llu bytes, its header says %u", (unsigned long long)size,
                                file_size);
        return FORMAT_ERROR(file_size, "%llu unexpected bytes after the end of the file (header says %u bytes)",
                            (unsigned long long)(size - file_size), file_size);
    }
    return GD_OK;
}

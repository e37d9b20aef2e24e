/* Internal: the arc word layout of the .gaddag format (docs/gaddag-format.md). */
#ifndef GADDAG_FORMAT_H
#define GADDAG_FORMAT_H

#include <stdint.h>

#include "gaddag_solver.h"

/* Fill `err` (when given) with a formatted message and offset; returns `code`. */
int gd_set_error(gd_error *err, int code, uint64_t offset, const char *fmt, ...);
/* Whether the CRC-32 in the last 4 bytes of a file (size >= 4) matches the rest; a format error
 * at that offset when it does not. */
int gd_check_checksum(const uint8_t *data, size_t size, gd_error *err);

/* What a file format of ours looks like from outside: its 8-byte magic, the name used in messages
 * (".gaddag"), the version this build reads and the size of the fixed part of its header. */
typedef struct gd_file_kind {
    const char *magic;
    const char *name;
    uint32_t version;
    uint32_t fixed_size;
} gd_file_kind;

/* What reading a file of ours in place needs: bytes given, aligned to 4, a little-endian host. */
int gd_check_in_place(const uint8_t *data, size_t size, const gd_file_kind *kind, gd_error *err);
/* The prefix every file of ours starts with, from its first bytes (`head`: at least kind->fixed_size
 * of them, or the whole file when it is shorter) and its real size: magic, u16 version at 8, u16
 * header size at 10 (stored in *header_size, checked by the caller), u32 flags at 12 (none
 * defined), u32 file size at 16, which must be `size`. */
int gd_check_prefix(const uint8_t *head, size_t head_size, uint64_t size, const gd_file_kind *kind,
                    uint32_t *header_size, gd_error *err);

/* Where a word query writes: whole words of letter codes, each followed by a 0 byte, while they
 * fit in `capacity`; `used` and `count` go on counting past it (the size a second call needs). */
typedef struct gd_sink {
    uint8_t *out;
    size_t capacity;
    size_t used;
    uint32_t count;
    int full;
} gd_sink;
void gd_sink_word(gd_sink *s, const uint8_t *letters, size_t length, int reversed);
int gd_sink_finish(const gd_sink *s, size_t *needed, uint32_t *count);

#define GD_MAGIC "\x89GADDAG\n"
#define GD_DAWG_MAGIC "\x89" "DAWG\r\n\n" /* split: D and A would extend the hex escape */
#define GD_MAGIC_SIZE 8

/* The two lexicon file kinds: one layout (gaddag-format.md), two automata (dawg.md). */
extern const gd_file_kind gd_gaddag_file;
extern const gd_file_kind gd_dawg_file;
/* gd_lexicon_open for either kind: the DAWG's arcs hold no separator and accept only words. */
int gd_open_automaton(gd_lexicon *lex, const uint8_t *data, size_t size, void *scratch, const gd_file_kind *kind,
                      gd_error *err);

#define GD_ARC_LETTER_MASK 63u
#define GD_ARC_LAST 64u
#define GD_ARC_ACCEPTS 128u
#define GD_ARC_CHILD_SHIFT 8
#define GD_MAX_ARCS 0xFFFFFFu
#define GD_SEPARATOR 0u

static inline unsigned gd_arc_letter(uint32_t arc) { return arc & GD_ARC_LETTER_MASK; }
static inline int gd_arc_last(uint32_t arc) { return (arc & GD_ARC_LAST) != 0; }
static inline int gd_arc_accepts(uint32_t arc) { return (arc & GD_ARC_ACCEPTS) != 0; }
static inline uint32_t gd_arc_child(uint32_t arc) { return arc >> GD_ARC_CHILD_SHIFT; }

/* Index of the arc for `letter` in the sibling list starting at `list`, or 0 if none.
 * Lists are sorted by letter, so the scan stops early. */
static inline uint32_t gd_find_arc(const uint32_t *arcs, uint32_t list, unsigned letter)
{
    for (uint32_t i = list;; i++) {
        uint32_t arc = arcs[i];
        unsigned l = gd_arc_letter(arc);
        if (l == letter) return i;
        if (l > letter || gd_arc_last(arc)) return 0;
    }
}

/* Walk index entries (see gd_build_walk_index): bits 0-23 the child list's first arc (0:
 * none), bit 24 accepts, bits 25-63 the child list's letters as a set (bit 0 the separator,
 * bit c letter c) for c < 39; bits 39-63 of the set live in walk_high when the alphabet
 * needs them. */
#define GD_WALK_CHILD_MASK 0xFFFFFFu
#define GD_WALK_ACCEPTS (1ull << 24)
#define GD_WALK_SET_SHIFT 25
#define GD_WALK_SET_BITS 39

static inline uint32_t gd_walk_child(uint64_t entry) { return (uint32_t)entry & GD_WALK_CHILD_MASK; }
static inline int gd_walk_accepts(uint64_t entry) { return (entry & GD_WALK_ACCEPTS) != 0; }

/* The letter set of the list that walk entry i leads to (bit 0: the separator). */
static inline uint64_t gd_walk_letters(const uint64_t *walk, const uint32_t *walk_high, uint32_t i)
{
    uint64_t set = walk[i] >> GD_WALK_SET_SHIFT;
    if (walk_high) set |= (uint64_t)walk_high[i] << GD_WALK_SET_BITS;
    return set;
}

/* Bits set in x, as one instruction where the target has one. */
static inline unsigned gd_count_bits(uint64_t x)
{
#if defined(__POPCNT__) || defined(__wasm__) || defined(__aarch64__)
    return (unsigned)__builtin_popcountll(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (unsigned)((x * 0x0101010101010101ull) >> 56);
#endif
}

/* The arc for `letter`, which must be in `letters`, in the list starting at `list` whose
 * letter set is `letters`: lists are sorted, so it comes after one arc per smaller letter. */
static inline uint32_t gd_walk_arc(uint32_t list, uint64_t letters, unsigned letter)
{
    return list + gd_count_bits(letters & ((1ull << letter) - 1u));
}

/* The arc for `letter` in the list walk entry i leads to, or 0 if the list has none. */
static inline uint32_t gd_walk_step(const uint64_t *walk, const uint32_t *walk_high, uint32_t i, unsigned letter)
{
    uint64_t set = gd_walk_letters(walk, walk_high, i);
    if (!((set >> letter) & 1u)) return 0;
    return gd_walk_arc(gd_walk_child(walk[i]), set, letter);
}

static inline void gd_put_u16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}
static inline void gd_put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}
static inline uint32_t gd_get_u16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static inline uint32_t gd_get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

#endif

/*
 * gaddag_solver.h — the one public header of the C core.
 *
 * Both bindings (cffi natively, ctypes inside Pyodide) see only what is declared here.
 * The header is kept free of preprocessor logic so that cffi's cdef can read it verbatim
 * (see pycore/gaddag_solver/_ffi_build.py).
 *
 * Conventions: letters are codes 1..alphabet_size (0 is the GADDAG separator, never a
 * letter); every buffer is owned by the caller; no function keeps global state.
 * Functions return GD_OK (0) or a GD_ERR_* code; a gd_error, when given, says what and where.
 */
#ifndef GADDAG_SOLVER_H
#define GADDAG_SOLVER_H

#include <stddef.h>
#include <stdint.h>

#define GD_FORMAT_VERSION 1
#define GD_MAX_ALPHABET 63
#define GD_MAX_WORD 32
#define GD_HEADER_FIXED_SIZE 36
#define GD_BLANK_FLAG 128

#define GD_OK 0
#define GD_ERR_FORMAT 1
#define GD_ERR_ARGUMENT 2
#define GD_ERR_NOMEM 3
#define GD_ERR_EMPTY 4

typedef struct gd_error {
    uint64_t offset;   /* byte offset in the file the message refers to (format errors) */
    char message[240]; /* NUL-terminated, human readable */
} gd_error;

/* A validated lexicon. It points into the caller's bytes, which must outlive it. */
typedef struct gd_lexicon {
    const uint8_t *data;
    size_t size;
    const uint32_t *arcs; /* arc_count little-endian words, 4-byte aligned (see gd_lexicon_open) */
    uint32_t arc_count;
    uint32_t state_count;
    uint32_t word_count;
    uint32_t flags;
    uint32_t alphabet_size;
    uint32_t max_word_length;
    uint32_t header_size;
    uint32_t root;                 /* arc index where the root's sibling list starts */
    uint32_t alphabet_offset[64];  /* alphabet_offset[c] = file offset of letter c's UTF-8 bytes */
    uint32_t alphabet_length[64];  /* their length */
    uint32_t name_offset;          /* the build's source name */
    uint32_t name_length;
    const uint64_t *walk;          /* the walk index (gd_build_walk_index), or NULL */
    const uint32_t *walk_high;     /* its letters 39..63, for alphabets of more than 38 letters */
} gd_lexicon;

/*
 * Validate `data` completely (one linear pass plus a checksum) and fill `lex`.
 * `data` must be 4-byte aligned. `scratch` must hold gd_validate_scratch_size(size) bytes,
 * 8-byte aligned
 * (used only during the call; NULL lets the call skip the word-count check, never memory
 * safety checks).
 */
size_t gd_validate_scratch_size(size_t size);
int gd_lexicon_open(gd_lexicon *lex, const uint8_t *data, size_t size, void *scratch,
                    gd_error *err);

/*
 * The walk index: what move generation reads instead of the arcs. Entry i describes arc i
 * (its child list, whether it accepts) together with the set of letters in that child list,
 * so the generator can tell whether a step leads anywhere before it visits the list, and
 * find a letter's arc in a list by counting bits instead of scanning. It is derived from
 * the validated arcs in one pass and never stored in a file.
 *
 * gd_walk_index_size says how many bytes it takes (8 per arc, 12 for alphabets of more than
 * 38 letters); gd_build_walk_index fills a caller-owned, 8-byte-aligned buffer of that size
 * and points lex->walk at it, so the buffer must outlive the lexicon's use. gd_prepare and
 * gd_generate need it; the word queries do not.
 */
size_t gd_walk_index_size(const gd_lexicon *lex);
int gd_build_walk_index(gd_lexicon *lex, void *buffer, size_t size, gd_error *err);

/* 1 if `word` (letter codes, `length` of them) is in the lexicon, else 0. */
int gd_contains(const gd_lexicon *lex, const uint8_t *word, size_t length);

/*
 * Word queries. Results go to `out` as words of letter codes each followed by a 0 byte; a
 * letter that a blank stands for carries GD_BLANK_FLAG. When `capacity` is too small the
 * query still runs to the end: `*needed` is the size required and `*count` the number of
 * words, and only whole words are written. Results are in lexicon order; duplicates (a word
 * containing the substring twice) may appear and are removed by the caller.
 *
 * rack_counts[c] for c in 1..alphabet_size is the number of tiles of letter c,
 * rack_counts[0] the number of blanks. partial=0 asks for words using every tile.
 */
int gd_anagrams(const gd_lexicon *lex, const uint8_t *rack_counts, int partial, uint8_t *out,
                size_t capacity, size_t *needed, uint32_t *count);
/* pattern: letter codes, 0 for "any letter". */
int gd_pattern(const gd_lexicon *lex, const uint8_t *pattern, size_t length, uint8_t *out,
               size_t capacity, size_t *needed, uint32_t *count);
/* Words that contain `sub` (length >= 1) somewhere. */
int gd_containing(const gd_lexicon *lex, const uint8_t *sub, size_t length, uint8_t *out,
                  size_t capacity, size_t *needed, uint32_t *count);

/* ---- Building (offline) ------------------------------------------------------------ */

typedef struct gd_build_stats {
    uint32_t word_count;   /* distinct words */
    uint32_t state_count;  /* distinct sibling lists in the minimized GADDAG */
    uint32_t arc_count;    /* arcs stored, after sibling-list tails are shared */
    uint32_t arc_count_unshared; /* arcs before tail sharing */
    uint32_t max_word_length;
    uint64_t file_size;
} gd_build_stats;

/* Written by the builder while it runs (through volatile stores), so another thread can
 * show progress. */
typedef struct gd_build_progress {
    uint32_t phase; /* 0 start, 1 expanding, 2 sorting, 3 minimizing, 4 laying out, 5 done */
    uint64_t done;
    uint64_t total;
} gd_build_progress;

/*
 * Build a .gaddag file.
 * words: letter codes, words separated by 0 bytes (any order, duplicates allowed, every
 *        word 1..GD_MAX_WORD letters, codes 1..alphabet_size).
 * alphabet: alphabet_size entries, each one length byte (1..8) then that many UTF-8 bytes.
 * name: the source's name, up to 255 bytes of UTF-8.
 * On success *out is a malloc'd file of *out_size bytes, to be released with gd_free.
 * progress may be NULL.
 */
int gd_build(const uint8_t *words, size_t words_size, uint32_t alphabet_size,
             const uint8_t *alphabet, size_t alphabet_size_bytes, const uint8_t *name,
             size_t name_size, uint8_t **out, size_t *out_size, gd_build_stats *stats,
             gd_build_progress *progress, gd_error *err);
void gd_free(void *p);

/* CRC-32 (IEEE 802.3, as zlib.crc32) of `size` bytes; exposed for tests and tools. */
uint32_t gd_crc32(const uint8_t *data, size_t size);

/* ---- Move generation ------------------------------------------------------------------ */

#define GD_MAX_DIM 32
#define GD_MAX_SQUARES 1024
#define GD_ON_BOARD_FLAG 64
#define GD_ACROSS 0
#define GD_DOWN 1

/* A ruleset as the generator needs it. Premiums are per square, row-major; a square whose
 * premium the rules switch off (a start square that does not double) simply holds 1. */
typedef struct gd_rules {
    uint32_t rows, cols;
    uint32_t rack_size;
    int32_t bingo_bonus;
    uint32_t start_row, start_col;
    int32_t values[64];                  /* values[c] for letter c; values[0] is a blank's */
    uint8_t letter_multiplier[GD_MAX_SQUARES];
    uint8_t word_multiplier[GD_MAX_SQUARES];
} gd_rules;

/*
 * A play. word[] spells the main word from (row, col) in `direction`: each entry is a
 * letter code, | GD_BLANK_FLAG if a blank stands for it, | GD_ON_BOARD_FLAG if the tile was
 * already on the board. A single tile forming words both ways is one play, recorded across.
 */
typedef struct gd_move {
    int32_t score;
    uint8_t row, col, direction, length;
    uint8_t tiles_placed;
    uint8_t reserved[3];
    uint8_t word[GD_MAX_DIM];
} gd_move;

/* One word a play forms: the main word or a cross-word, with its score. */
typedef struct gd_word {
    uint8_t row, col, direction, length;
    int32_t score;
} gd_word;

/* Scratch the generator works in (cross-sets, anchors); owned by the caller, reusable,
 * 8-byte aligned. */
size_t gd_workspace_size(void);

/*
 * Board squares are row-major, rows*cols bytes: 0 empty, else a letter code, | GD_BLANK_FLAG
 * for a blank. rack_counts as for gd_anagrams. The caller validates the position (letters in
 * the alphabet, no floating tiles); the generator only assumes memory safety of its inputs.
 *
 * gd_prepare computes cross-sets and anchors for a board into the workspace; gd_generate
 * then finds every play for a rack. *count is always the number of plays the position has.
 * top_n = 0 writes them all to out[0..capacity) (when *count exceeds capacity only the first
 * capacity are written: call again with more room); otherwise the best min(top_n, capacity)
 * are kept (ties broken deterministically) and min(*count, top_n, capacity) are written.
 * Plays are not sorted. The workspace must be 8-byte aligned.
 */
int gd_prepare(const gd_lexicon *lex, const gd_rules *rules, const uint8_t *board, void *workspace,
               gd_error *err);
int gd_generate(const gd_lexicon *lex, const gd_rules *rules, const uint8_t *board, const void *workspace,
                const uint8_t *rack_counts, uint32_t top_n, gd_move *out, size_t capacity, size_t *count,
                gd_error *err);

/* The words a play forms (main word first, then cross-words left to right / top to
 * bottom) with their scores; *count is how many (at most 1 + tiles placed, so
 * GD_MAX_DIM + 1 always suffices); at most capacity are written. */
int gd_move_words(const gd_rules *rules, const uint8_t *board, const gd_move *move, gd_word *out,
                  size_t capacity, size_t *count);

#endif

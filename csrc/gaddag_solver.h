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
    const uint64_t *anagram_filter; /* built with the walk index: which letter multisets spell a word */
    uint32_t anagram_filter_mask;
    const void *word_map;          /* built with the walk index: words by their letters, or NULL */
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
 * Check a file's fixed header before reading the rest: `head` holds its first
 * GD_HEADER_FIXED_SIZE bytes (or the whole file when it is shorter) and `file_size` is the file's
 * real size. These are steps 1 and 2 of gd_lexicon_open (magic, version, flags, the size field
 * equal to file_size, header size, the arc count filling the file exactly, alphabet size, longest
 * word), so a file that is not a lexicon, or is truncated or extended, is refused without being
 * read whole. gd_lexicon_open makes the same checks again.
 */
int gd_lexicon_check_header(const uint8_t *head, size_t head_size, uint64_t file_size, gd_error *err);

/*
 * The walk index: what move generation reads instead of the arcs. Entry i describes arc i
 * (its child list, whether it accepts) together with the set of letters in that child list,
 * so the generator can tell whether a step leads anywhere before it visits the list, and
 * find a letter's arc in a list by counting bits instead of scanning. It is derived from
 * the validated arcs in one pass and never stored in a file.
 *
 * gd_walk_index_size says how many bytes it takes (8 per arc, 12 for alphabets of more than
 * 38 letters, plus the anagram filter best-N generation bounds with: about 6 bytes per word, and
 * the word map best N finds the plays that use a blank with: about 38 bytes per word, none for a
 * DAWG or a lexicon of more than a million words);
 * gd_build_walk_index fills a caller-owned, 8-byte-aligned buffer of that size
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
/* The CPU features the core was compiled to use, space-separated as Linux's /proc/cpuinfo names
 * them ("" when none beyond the architecture's baseline): the native build targets x86-64-v3 on
 * a CPU that has it, and Python refuses to load a core built for features its CPU lacks. */
const char *gd_cpu_requires(void);

/* CRC-32 (IEEE 802.3, as zlib.crc32) of `size` bytes; exposed for tests and tools. */
uint32_t gd_crc32(const uint8_t *data, size_t size);

/* ---- Move generation ------------------------------------------------------------------ */

#define GD_MAX_DIM 32
#define GD_MAX_SQUARES 1024
#define GD_ON_BOARD_FLAG 64
#define GD_ACROSS 0
#define GD_DOWN 1

/*
 * Bounds of a ruleset (gd_check_rules refuses anything beyond them), chosen so that no score
 * can overflow the core's 32-bit integers: a play scores at most GD_MAX_SCORE, so its equity
 * (100 * score plus what the tiles kept are worth) and a game's total over GD_MAX_TURNS turns
 * stay far below 2^31. The ceiling of a ruleset's scores is derived from its fields: the highest
 * tile value x the highest letter premium x the longest line x (the largest product of word
 * premiums along a line + a cross-word for each of the rack's tiles at the highest word premium)
 * + the bingo bonus.
 */
#define GD_MAX_TILE_VALUE 10000
#define GD_MAX_BINGO_BONUS 100000
#define GD_MAX_SCORE 1000000
#define GD_MAX_GOING_OUT 10
#define GD_MAX_RACK_VALUE 500000 /* the opponent's rack value an equity call may give */

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
    /* What only the game needs (bag, exchanges, the end); move generation ignores these. */
    uint32_t alphabet_size;
    uint32_t tile_counts[64];            /* tiles of letter c in the full set; [0] the blanks */
    uint32_t exchange_minimum;           /* an exchange needs at least this many tiles in the bag */
    uint32_t scoreless_turns;            /* this many consecutive scoreless turns end the game */
    int32_t going_out_bonus;             /* going out earns this times the opponent's rack value */
    int32_t going_out_penalty;           /* ... and the opponent loses this times it */
} gd_rules;

/*
 * A play. word[] spells the main word from (row, col) in `direction`: each entry is a
 * letter code, | GD_BLANK_FLAG if a blank stands for it, | GD_ON_BOARD_FLAG if the tile was
 * already on the board. A single tile forming words both ways is one play, recorded across.
 */
#define GD_PLAY 0
#define GD_EXCHANGE 1
#define GD_PASS 2

/*
 * kind GD_PLAY: a tile play, as above. GD_EXCHANGE: word[0..length) are the tiles put back
 * (letter codes, 0 for a blank, ascending); row, col and direction are 0. GD_PASS: length 0.
 * equity is in hundredths of a point: 100 * score + the value of what the move keeps (see
 * gd_generate_equity); gd_generate sets it to 100 * score.
 */
typedef struct gd_move {
    int32_t score;
    int32_t equity;
    uint8_t row, col, direction, length;
    uint8_t tiles_placed;
    uint8_t kind;
    uint8_t reserved[2];
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
 * for a blank. rack_counts as for gd_anagrams. The board need not be connected: anchors are the
 * empty squares next to any tile, and the start square is one only on an empty board, so tiles
 * away from the start (floating tiles) are played through like any other. The core refuses
 * (GD_ERR_ARGUMENT) rules out of bounds (see GD_MAX_SCORE), a board square that is not a letter
 * (gd_prepare), and a rack of more tiles than rules->rack_size or holding tiles of a code above
 * the lexicon's alphabet (gd_generate).
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

/* ---- Leave tables (leaves.c; format: docs/leaves-format.md) ------------------------------- */

#define GD_LEAVES_VERSION 1
#define GD_MAX_LEAVE 15 /* the longest leave a table holds (rack size - 1) */

/*
 * A validated leave table: a value in hundredths of a point for every multiset of 1 to
 * max_leave tiles that the tile set allows (at most min(count, max_leave) of each letter; code
 * 0 is the blank). Entry order: by size, then by the tiles' codes written in ascending order,
 * compared as strings (so "??" < "?A" < "AA"). It points into the caller's bytes, which must
 * outlive it. A leave of no tiles, or one the table does not hold, is worth 0.
 */
typedef struct gd_leaves {
    const uint8_t *data;
    size_t size;
    const int16_t *values;      /* count values, in entry order */
    uint32_t count;
    uint32_t alphabet_size;
    uint32_t max_leave;
    uint32_t limit[64];         /* most tiles of code c a leave can hold */
    uint32_t size_offset[GD_MAX_LEAVE + 2]; /* [k]: index of the first leave of k tiles ([1] = 0) */
    uint32_t ways[65][GD_MAX_LEAVE + 1];    /* multisets of k tiles from codes c..alphabet_size */
    uint32_t ruleset_offset, ruleset_length; /* the ruleset name stamped in the file */
} gd_leaves;

/* How many leaves a tile set has: 1..max_leave tiles, tile_counts[0] blanks (0 if over 2^31). */
uint64_t gd_leaves_count(const uint32_t *tile_counts, uint32_t alphabet_size, uint32_t max_leave);
/* Validate a leave file completely (header, tile set, size, checksum, no reserved value) and
 * fill `lv`. `data` must be 4-byte aligned. Values are int16 hundredths of a point, -32767..32767
 * (-32768 is reserved). The file stamps its ruleset name (ruleset_offset/length) and tile set;
 * comparing them with the ruleset in use is the caller's job (Python's Leaves does it). */
int gd_leaves_open(gd_leaves *lv, const uint8_t *data, size_t size, gd_error *err);
/* The fixed-header checks of gd_leaves_open (magic, version, flags, the size field equal to
 * file_size, alphabet size, longest leave, name length, header size) on the file's first
 * GD_LEAVES_FIXED_SIZE bytes (or the whole file when shorter): check before reading the rest. */
#define GD_LEAVES_FIXED_SIZE 28
int gd_leaves_check_header(const uint8_t *head, size_t head_size, uint64_t file_size, gd_error *err);
/* Write a leave file: `values` holds gd_leaves_count(...) entries in entry order. *out is
 * malloc'd (release with gd_free). */
int gd_leaves_build(const uint32_t *tile_counts, uint32_t alphabet_size, uint32_t max_leave,
                    const uint8_t *ruleset, size_t ruleset_size, const int16_t *values, size_t count,
                    uint8_t **out, size_t *out_size, gd_error *err);
/* The entry index of the leave with counts[c] tiles of code c (c = 0..alphabet_size), or
 * GD_ERR_ARGUMENT when the table has no such leave (none, too many tiles, over the limits). */
int gd_leaves_index(const gd_leaves *lv, const uint8_t *counts, uint32_t *index);
/* The tiles of entry `index`: counts[0..alphabet_size] (inverse of gd_leaves_index). */
int gd_leaves_tiles(const gd_leaves *lv, uint32_t index, uint8_t *counts);
/* The value of a leave in hundredths of a point: 0 for no tiles or a leave not in the table. */
int32_t gd_leaves_value(const gd_leaves *lv, const uint8_t *counts);
/*
 * What keeping `counts` is worth to equity, in hundredths of a point (docs/equity.md, "The pass
 * and the full rack"): the table's value for a leave it holds; for a full rack of max_leave + 1
 * tiles, which no table holds (a pass keeps it), the sum over its tiles t, each as often as the
 * rack holds it, of the value of the rack without t, divided by max_leave, rounded to the
 * nearest hundredth (halves away from 0): exact when values add up tile by tile. 0 otherwise.
 */
int32_t gd_leaves_keep_value(const gd_leaves *lv, const uint8_t *counts);

/* ---- Equity ------------------------------------------------------------------------------ */

/* Which plays a generator finds: both directions (0, the default), across only, or down only.
 * A single tile forming words both ways is an across play. */
#define GD_DIRECTIONS_BOTH 0
#define GD_DIRECTIONS_ACROSS 1
#define GD_DIRECTIONS_DOWN 2

/* The work a generation did, in Gordon's measures: arcs followed, and dead ends (arcs followed
 * from which neither a play was recorded nor another arc followed). Counted only in a build with
 * GD_COUNT_WORK defined (bench/gaddag_vs_dawg.py makes one); the shipped generators pay nothing. */
typedef struct gd_work {
    uint64_t arcs;
    uint64_t dead_ends;
} gd_work;

/*
 * How gd_generate_equity values moves. While the bag holds tiles, equity = 100 * score + the
 * leave table's value of the tiles kept (0 without a table); a pass that keeps a full rack
 * (max_leave + 1 tiles, which no table holds) gets gd_leaves_keep_value's value of it. With the
 * bag empty there is no leave: a play that goes out gains going_out_bonus + going_out_penalty
 * times the opponent's rack value (what going out is worth in spread), and any other move loses
 * twice the value of the tiles it keeps (plus 10 points: the opponent will likely go out next).
 */
typedef struct gd_equity_options {
    const gd_leaves *leaves;      /* NULL: every leave is worth 0 */
    uint32_t bag_count;           /* tiles in the bag */
    int32_t opponent_rack_value;  /* face value of the opponent's rack (used when the bag is empty) */
    uint32_t exchanges;           /* 1: also list every distinct exchange, when the bag allows */
    uint32_t pass;                /* 1: also list the pass */
    uint32_t by_equity;           /* 1: top_n keeps the best by equity, else by score */
    uint32_t prune;               /* 1 (with top_n): skip anchors whose upper bound (of equity, or
                                     of score when not by_equity) cannot beat the moves kept;
                                     *count then counts only the moves generated, not every move
                                     of the position */
    uint32_t directions;          /* GD_DIRECTIONS_BOTH (0), _ACROSS or _DOWN: the plays generated */
    gd_work *work;                /* NULL, or receives the work done (counted only in a build with
                                     GD_COUNT_WORK defined; zero otherwise) */
    uint32_t pass_as_zero;        /* 1: a pass that keeps a full rack is worth 0, the rule before
                                     the full-rack value (for comparisons: GD_PLAYER_EQUITY_PASS_ZERO) */
} gd_equity_options;

/* gd_generate with equity, exchanges and pass (options may be NULL: as gd_generate). */
int gd_generate_equity(const gd_lexicon *lex, const gd_rules *rules, const uint8_t *board, const void *workspace,
                       const uint8_t *rack_counts, const gd_equity_options *options, uint32_t top_n,
                       gd_move *out, size_t capacity, size_t *count, gd_error *err);

/*
 * Streaming: every move of a position, a buffer at a time, in memory that does not grow with
 * their number. gd_generate_stream writes the next moves, up to `capacity` (at least 1), in
 * generation order (exchanges and the pass first, when options ask for them, then the plays by
 * direction, line and anchor), sets *count to how many it wrote, and records in `stream` where
 * to go on: call it again with the same arguments until stream->state is GD_STREAM_DONE. Start
 * with a stream whose state is GD_STREAM_START (a zeroed one). The moves, with their scores and
 * equities, are those gd_generate_equity gives with top_n = 0, in the same order, whatever the
 * capacity.
 *
 * How it resumes: the walk stops at the first move that does not fit and keeps it in `next`
 * with its anchor; the next call walks that anchor again following only the branches that lead
 * to that move (its squares, letters and blanks), so a resumed call costs one path, not the
 * moves already written. The caller owns the stream and may copy it; a stream whose fields do
 * not fit the position is refused with GD_ERR_ARGUMENT, never read past.
 */
#define GD_STREAM_START 0
#define GD_STREAM_RESUME 1
#define GD_STREAM_DONE 2
typedef struct gd_stream {
    uint32_t state;      /* GD_STREAM_START, GD_STREAM_RESUME or GD_STREAM_DONE */
    uint32_t direction;  /* the anchor `next` is found from (a play) */
    uint32_t line;
    uint32_t anchor;
    gd_move next;        /* the first move not yet written (GD_STREAM_RESUME) */
} gd_stream;

int gd_generate_stream(const gd_lexicon *lex, const gd_rules *rules, const uint8_t *board, const void *workspace,
                       const uint8_t *rack_counts, const gd_equity_options *options, gd_stream *stream,
                       gd_move *out, size_t capacity, size_t *count, gd_error *err);

/* Sort moves best first, in place: the order of top_n (by equity first when by_equity), so a
 * sorted stream equals the sorted gd_generate_equity. No allocation beyond qsort's. */
void gd_sort_moves(gd_move *moves, size_t count, int by_equity);

/*
 * After a play was put on `board` (the board now holds its tiles), bring the workspace's
 * cross-sets and anchors up to date by recomputing only the squares the play can change.
 * The result equals gd_prepare on the new board.
 */
int gd_update_after_play(const gd_lexicon *lex, const gd_rules *rules, const uint8_t *board, void *workspace,
                         const gd_move *move, gd_error *err);

/* ---- Random numbers: seeded, explicit, the same on every platform ---------------------------- */

typedef struct gd_rng {
    uint64_t state[4];
} gd_rng;

void gd_rng_seed(gd_rng *rng, uint64_t seed);
uint64_t gd_rng_next(gd_rng *rng);
/* Uniform in 0..bound-1 (bound >= 1), without modulo bias. */
uint32_t gd_rng_below(gd_rng *rng, uint32_t bound);

/* ---- The game (game.c) --------------------------------------------------------------------- */

#define GD_MAX_TILES 1024
#define GD_MAX_TURNS 512
#define GD_GAME_MAGIC 0x47444741u

/* One turn of a game's history. */
typedef struct gd_turn {
    gd_move move;               /* the play, exchange or pass (equity as its player valued it) */
    uint8_t player;
    uint8_t rack_length;
    uint8_t drawn;              /* tiles drawn after the turn */
    uint8_t reserved;
    uint8_t rack[GD_MAX_DIM];   /* the rack before the turn: codes ascending, 0 for a blank */
    int32_t total;              /* the player's score after the turn */
} gd_turn;

/*
 * A whole game: a flat structure with no pointers, so copying it is a snapshot (undo). The
 * bag is drawn from its end; tiles put back are inserted at random places.
 */
typedef struct gd_game {
    uint32_t magic;
    uint32_t squares;
    gd_rng rng;
    uint8_t board[GD_MAX_SQUARES];
    uint8_t rack[2][64];        /* tiles of each code per player; [p][0] blanks */
    uint8_t bag[GD_MAX_TILES];  /* codes, 0 for a blank */
    uint32_t bag_count;
    int32_t score[2];
    uint32_t to_move;           /* 0 or 1 */
    uint32_t scoreless;         /* consecutive scoreless turns so far */
    uint32_t over;              /* 1 once the game has ended */
    uint32_t turn_count;
    int32_t end_adjustment[2];  /* what the end added to each score (rack values) */
    gd_turn history[GD_MAX_TURNS];
} gd_game;

size_t gd_game_size(void);
/* A new game: the full tile set shuffled by `seed`, seven (rack_size) tiles to each player,
 * player 0 to move. */
int gd_game_new(gd_game *game, const gd_rules *rules, uint64_t seed, gd_error *err);
/*
 * A game from a position: the board, both racks (counts), the scores and who moves; the bag
 * is the rest of the tile set, shuffled by `seed`. Refused when the board and racks hold more
 * tiles of a letter than the set has.
 */
int gd_game_from_position(gd_game *game, const gd_rules *rules, const uint8_t *board, const uint8_t *racks,
                          const int32_t *scores, uint32_t to_move, uint64_t seed, gd_error *err);
/*
 * Make a move for the player to move: a play (its tiles must be on the rack and its squares
 * empty, as generated), an exchange (only with at least exchange_minimum tiles in the bag) or
 * a pass. Draws, counts scoreless turns, and ends the game when a player goes out with the bag
 * empty or after scoreless_turns scoreless turns. Words are not checked: play generated moves.
 */
int gd_game_move(gd_game *game, const gd_rules *rules, const gd_move *move, gd_error *err);
/* What the player to move cannot see: the bag and the opponent's rack together, by code. */
void gd_game_unseen(const gd_game *game, uint32_t player, uint32_t *counts);

/* A self-play player: kind GD_PLAYER_GREEDY (the best score; exchanges all tiles, or passes, when
 * it has no play), GD_PLAYER_EQUITY (the best equity, exchanges and pass included) or
 * GD_PLAYER_EQUITY_PASS_ZERO (the same with a pass that keeps a full rack worth 0, as before the
 * full-rack value: the baseline that rule is measured against). */
#define GD_PLAYER_GREEDY 0
#define GD_PLAYER_EQUITY 1
#define GD_PLAYER_EQUITY_PASS_ZERO 2
typedef struct gd_player {
    uint32_t kind;
    const gd_leaves *leaves;    /* for GD_PLAYER_EQUITY; NULL: every leave worth 0 */
} gd_player;

/* The move `player` makes for the player to move (a pass when the game is over). */
int gd_choose_move(const gd_lexicon *lex, const gd_rules *rules, const gd_game *game, void *workspace,
                   const gd_player *player, gd_move *out, gd_error *err);
/* Play a whole new game (gd_game_new with `seed`) between players[0] (moving first) and
 * players[1]; the workspace is kept current incrementally. */
int gd_autoplay(const gd_lexicon *lex, const gd_rules *rules, const gd_player *players, uint64_t seed,
                gd_game *game, void *workspace, gd_error *err);

/* ---- Learning leave values (train.c; the method: docs/leaves.md) ---------------------------- */

/*
 * What racks were worth, per leave: sum[i] adds the best move's equity (hundredths) of every
 * recorded rack holding leave i (entry order of the leave table), seen[i] counts those racks.
 * The buffers belong to the caller; entries must equal the table's count.
 */
typedef struct gd_rack_stats {
    int64_t *sum;
    uint32_t *seen;
    uint32_t entries;
    uint32_t reserved;
    int64_t rack_sum;       /* over every recorded rack */
    uint64_t rack_squares;  /* sum of the squared equities */
    uint64_t racks;         /* racks recorded */
} gd_rack_stats;

/* Zero the statistics (buffers and totals). */
void gd_rack_stats_clear(gd_rack_stats *stats);
/* Add `from` into `into` (the same entries); refused before a count would overflow. */
int gd_rack_stats_merge(gd_rack_stats *into, const gd_rack_stats *from, gd_error *err);
/*
 * Play one training game (gd_game_new with `seed`): both seats are equity players with
 * `leaves`. Before each turn where the player holds rack_size tiles and the bag is not empty,
 * the equity of the move chosen (the best) is added to `stats` for every leave of that rack.
 * The table must have max_leave = rack_size - 1 and the rules' alphabet.
 */
int gd_train_game(const gd_lexicon *lex, const gd_rules *rules, const gd_leaves *leaves, uint64_t seed,
                  gd_rack_stats *stats, gd_game *game, void *workspace, gd_error *err);

/* ---- Inference of the opponent's rack (infer.c; the method: docs/inference.md) ------------- */

/*
 * From the move the opponent just made and what was unseen before it, the racks they could have
 * held, each weighted by the chance of drawing it (the number of ways its tiles can be taken from
 * the unseen ones) if the move was within `tolerance` of that rack's best by static equity, 0
 * otherwise; the weights are summed by the leave each rack keeps after the move. A play keeps the
 * rack less the tiles it placed; an exchange of n tiles keeps the best leave of rack - n tiles by
 * the table (the exchange's own equity); a pass tells nothing here (the caller's business).
 *
 * Exhaustive when the racks to value are at most max_racks; otherwise max_racks racks drawn at
 * random with `seed` (a play's leave drawn uniformly from the tiles left, weighted back to the
 * racks' chances), and the sums are estimates.
 */
typedef struct gd_infer_options {
    const gd_leaves *leaves;   /* the table the opponent is taken to play by (NULL: score alone) */
    int32_t tolerance;         /* hundredths of a point */
    uint32_t max_racks;        /* at least 1 */
    uint64_t seed;
} gd_infer_options;

/* A leave the opponent may have kept, and its weight (not normalised). */
typedef struct gd_inferred_leave {
    double weight;
    uint8_t counts[64];        /* tiles of each code; [0] blanks */
} gd_inferred_leave;

typedef struct gd_infer_summary {
    uint64_t racks;            /* racks valued: distinct racks when exhaustive, draws when sampled */
    uint64_t consistent;       /* of them, those the move is within tolerance of the best for */
    uint32_t exhaustive;       /* 1: every rack was valued */
    uint32_t leaves;           /* distinct leaves written to out */
    uint32_t rack_tiles;       /* tiles the opponent held before the move */
    uint32_t bag_count;        /* tiles in the bag before the move */
    double prior_weight;       /* the weights of every rack valued, summed */
    double weight;             /* ... of the consistent racks */
    double weight_squares;     /* ... their squares (for the effective number of draws) */
} gd_infer_summary;

/*
 * board: the board before the move; unseen: what the inferring player could not see before it
 * (the bag and the opponent's rack, by code); move: a play (the tiles it placed are those of its
 * word[] without GD_ON_BOARD_FLAG, a blank being code 0; its score as played) or an exchange
 * (length = tiles put back; which ones is not read). The opponent held min(rack_size, unseen)
 * tiles. out receives the leaves with weight > 0, at most capacity (max_racks always suffices;
 * fewer: GD_ERR_ARGUMENT). workspace: gd_workspace_size() bytes, 8-byte aligned.
 */
int gd_infer(const gd_lexicon *lex, const gd_rules *rules, const uint8_t *board, void *workspace,
             const uint8_t *unseen, const gd_move *move, const gd_infer_options *options,
             gd_inferred_leave *out, size_t capacity, gd_infer_summary *summary, gd_error *err);

/* ---- Simulation (sim.c; the method and the stopping rule: docs/simulation.md) --------------- */

#define GD_SIM_MAX_CANDIDATES 64
#define GD_SIM_MAX_PLIES 16

typedef struct gd_sim_options {
    const gd_leaves *leaves;  /* the static players' table, and the leaves' value at the end (NULL: 0) */
    uint32_t plies;           /* moves played after the candidate (2: the reply and our next move) */
    uint32_t min_iterations;  /* no candidate is dropped before this many iterations (at least 2) */
    double prune_z;           /* drop a candidate the leader beats by more than prune_z standard
                                 errors of their paired difference; 0: never drop */
    double spread_sigma;      /* the spread's spread per sqrt(tile left), for the win estimate */
    uint64_t seed;
    /* What the opponent kept, when inferred (gd_infer): each iteration draws one of these leaves
     * by weight onto the opponent's rack and deals the rest of it from the unseen tiles. NULL or
     * 0: every unseen tile is equally likely to be on the rack. Must outlive the state. */
    const gd_inferred_leave *opponent_leaves;
    uint32_t opponent_leave_count;
    /* The win estimate of a playout that does not end the game: P(the player on turn wins) =
     * Phi((spread + win_mean[t]) / win_sigma[t]), t the tiles not yet played, spread in points
     * with the last leaves (docs/win-probability.md); win_tiles + 1 entries each, copied by
     * gd_sim_start. NULL: no edge for the turn and sigma = spread_sigma * sqrt(t). */
    const double *win_mean;
    const double *win_sigma;
    uint32_t win_tiles;
    /* 1: the leader and the stopping rule go by the estimated wins, not by the value */
    uint32_t rank_by_win;
} gd_sim_options;

/* A candidate's statistics. Values are in hundredths of a point: the spread the playout
 * gained plus the difference of the last leaves kept (see docs/simulation.md). */
typedef struct gd_sim_candidate {
    gd_move move;
    uint32_t dropped;          /* 1 once the stopping rule has ruled it out */
    uint32_t reserved;
    uint64_t iterations;
    int64_t value_sum;
    double value_squares;
    double wins;               /* estimated wins summed over the playouts (a tie counts 1/2) */
    double win_squares;        /* their squares */
    uint64_t opponent_bingos;  /* opponent replies that used a whole rack */
} gd_sim_candidate;

/* The simulation's state: one flat caller-owned buffer of gd_sim_size() bytes, 8-byte aligned. */
size_t gd_sim_size(void);
/* Start simulating `count` candidate moves (each a move the player to move in `position` can
 * make) from `position`: the tiles that player cannot see (the bag and the opponent's rack) are
 * dealt at random each iteration. lex, rules and options->leaves must outlive the state. */
int gd_sim_start(void *sim, const gd_lexicon *lex, const gd_rules *rules, const gd_game *position,
                 const gd_move *candidates, uint32_t count, const gd_sim_options *options, gd_error *err);
/* Run up to `iterations` more iterations (each plays every candidate not dropped once); stops
 * early when one candidate is left. */
int gd_sim_run(void *sim, uint32_t iterations, gd_error *err);
/* Copy the candidates' statistics (in the order given to gd_sim_start) to out[0..capacity);
 * *count: candidates, *live: those not dropped, *iterations: iterations run. */
int gd_sim_results(const void *sim, gd_sim_candidate *out, uint32_t capacity, uint32_t *count, uint32_t *live,
                   uint64_t *iterations, gd_error *err);

/*
 * A run shared out among threads, with the same statistics as gd_sim_run for the same seed and
 * iterations whatever the number of threads: gd_sim_seeds draws the next iterations' seeds (as
 * gd_sim_run would, one per iteration); any thread plays an iteration with gd_sim_play (every
 * candidate not dropped, from that seed's deal, into out[0..count) in the order given to
 * gd_sim_start) in its own scratch of gd_sim_scratch_size() bytes (8-byte aligned), reading the
 * state but not changing it; gd_sim_merge then adds the iterations in order (playouts[it * count +
 * i]), with the stopping rule after each, so a candidate dropped at an iteration ignores its later
 * playouts, and once one candidate is left the rest is ignored. Call gd_sim_merge with no thread
 * playing.
 */
typedef struct gd_sim_playout {
    int64_t value;     /* hundredths */
    double win;
    uint32_t bingo;    /* 1: the opponent's reply used a whole rack */
    uint32_t played;   /* 1: this candidate was played (it was not dropped) */
} gd_sim_playout;

size_t gd_sim_scratch_size(void);
int gd_sim_seeds(void *sim, uint32_t iterations, uint64_t *seeds, gd_error *err);
int gd_sim_play(const void *sim, void *scratch, uint64_t seed, gd_sim_playout *out, gd_error *err);
int gd_sim_merge(void *sim, const gd_sim_playout *playouts, uint32_t iterations, gd_error *err);
/* Mark candidate `index` dropped in a state that only plays (a helper of a run merged elsewhere,
 * e.g. another Web Worker started the same way): gd_sim_play then skips it, as the merging state's
 * stopping rule has. Dropping an already dropped candidate does nothing; the last one live stays. */
int gd_sim_drop(void *sim, uint32_t index, gd_error *err);

/* ---- Endgame search (endgame.c; the method: docs/endgame.md) ------------------------------- */

#define GD_ENDGAME_MAX_PLY 64

/* What a search did, counted as it ran (for benchmarks and tuning; no search reads them). */
typedef struct gd_endgame_stats {
    uint64_t generations;          /* positions whose moves were all listed */
    uint64_t horizon_generations;  /* positions at the horizon where the generator found the best move alone */
    uint64_t hint_cuts;            /* positions cut by the table's move, before any generation */
    uint64_t killer_tries;         /* moves that cut elsewhere at the same ply, tried before generating */
    uint64_t killer_cuts;          /* ... and that cut here, so the position's moves were never listed */
    uint64_t deferred;             /* moves put off: another thread was searching their position */
    uint64_t out_bound_cuts;       /* moves refuted unplayed by the opponent's going out (one tile left) */
    uint64_t solo_cuts;            /* positions refuted by the player's best alone, the opponent passing */
    uint64_t last_tile_cuts;       /* plays leaving one tile, refuted unplayed by that tile's best alone */
} gd_endgame_stats;

/* How a value compares with the truth: equal, or a bound because it fell outside the window. */
#define GD_BOUND_EXACT 0
#define GD_BOUND_LOWER 1 /* the true value is at least this (the value reached beta) */
#define GD_BOUND_UPPER 2 /* the true value is at most this (the value did not pass alpha) */

typedef struct gd_endgame_result {
    int32_t value;          /* the spread the player to move gains from here to the end, points */
    uint32_t depth;         /* plies searched */
    uint32_t complete;      /* 1: every line reached the end of the game, so value (or bound) and line are exact */
    uint32_t stopped;       /* 1: the node limit stopped this depth unfinished; nothing else is set */
    uint64_t nodes;         /* positions this call visited */
    uint32_t line_length;
    uint32_t bound;         /* GD_BOUND_EXACT, or with a window the value may be a bound */
    gd_move line[GD_ENDGAME_MAX_PLY]; /* the best line found, both sides' moves in turn */
    gd_endgame_stats stats; /* counted over this call */
} gd_endgame_result;

/* Bytes of an endgame state whose move stack holds `move_capacity` moves (the plays of every
 * position on the line being searched; a 7-tile rack rarely has more than a few thousand). */
size_t gd_endgame_size(uint32_t move_capacity);
/* Start an endgame from `position` (the bag empty, both racks known) in a state of state_size
 * bytes, with a transposition table of table_size bytes (64 bytes per entry, a power of two of them used),
 * both caller-owned and 8-byte aligned; lex and rules must outlive the state. */
int gd_endgame_start(void *state, size_t state_size, const gd_lexicon *lex, const gd_rules *rules,
                     const gd_game *position, void *table, size_t table_size, gd_error *err);
/*
 * The words an endgame can still form that pass through a tile on `board` (rows*cols squares as
 * for gd_prepare): every word of the lexicon that fits a line through at least one of its tiles,
 * its other squares filled from tile_counts (both racks together; [0] the blanks) and the
 * squares just before and after it empty or the edge. With the words tile_counts alone spell
 * (gd_anagrams, partial), these are every word the rest of the game can form, so a lexicon of
 * just them generates the same plays (docs/endgame.md). Output as for gd_anagrams, letters
 * without blank flags, a word possibly more than once. At most step_limit steps (0: no limit):
 * *finished is 0 when the limit stopped it, and the words are then not all there.
 */
int gd_endgame_words(const gd_lexicon *lex, const gd_rules *rules, const uint8_t *board, const uint8_t *tile_counts,
                     uint64_t step_limit, uint8_t *out, size_t capacity, size_t *needed, uint32_t *count,
                     uint32_t *finished);
/* Search `depth` plies deep, searching at most node_limit positions that the table does not
 * answer (0: no limit; out->nodes counts those it answers too). The table is kept between calls,
 * so searching depth 1, 2, 3, ... costs little more than the last, and a search stopped by the
 * limit and called again goes on from the results it stored. */
int gd_endgame_search(void *state, uint32_t depth, uint64_t node_limit, gd_endgame_result *out, gd_error *err);
/*
 * gd_endgame_search within the window (alpha, beta): a value strictly inside it is the search's
 * value (bound GD_BOUND_EXACT); otherwise it is a bound on it (GD_BOUND_LOWER when value >= beta,
 * GD_BOUND_UPPER when value <= alpha), found with far fewer positions. A null window
 * (beta = alpha + 1) asks only whether the value reaches beta.
 */
int gd_endgame_search_window(void *state, uint32_t depth, int32_t alpha, int32_t beta, uint64_t node_limit,
                             gd_endgame_result *out, gd_error *err);
/*
 * Which first moves the search considers: with exclude = 0 only moves[0..count), with exclude = 1
 * every move but those (count = 0, exclude = 1: every move, as at the start). Each must be a move
 * of the position (plays as generated, or the pass). The position's own result is then kept out
 * of the table, since it holds for these moves only. Used to value one given move exactly, or the
 * best K one after another.
 */
#define GD_ENDGAME_MAX_ROOT_MOVES 256
int gd_endgame_root_moves(void *state, const gd_move *moves, uint32_t count, uint32_t exclude, gd_error *err);
/*
 * Start another position in a started state, keeping its table: the results stored for positions
 * of the previous searches hold for the same positions reached from this one (values are spreads
 * from a position on, whatever the scores). Same lexicon and rules; the root moves are reset.
 */
int gd_endgame_restart(void *state, const gd_game *position, gd_error *err);
/*
 * Start `state` (state_size bytes, caller-owned) as a copy of the started state `started` that
 * shares its table: the same lexicon, rules, position and root moves, the table not cleared. The
 * states of one search on several threads (one each) then search together, each finding what the
 * others stored (docs/endgame.md, "Threads"); the table's buckets are locked while read or
 * written. `started` must not be searching while it is copied, and the table must outlive both.
 */
int gd_endgame_share(void *state, size_t state_size, void *started, gd_error *err);

/* ---- Pre-endgame (preendgame.c; the model: docs/preendgame.md) ---------------------------- */

#define GD_PEG_MAX_BAG 6
#define GD_PEG_UNIT 1440 /* values are whole numbers of 1/1440 of a win: exact with up to 6 in the bag */
#define GD_PEG_DONE 0
#define GD_PEG_OVER_BUDGET 1 /* the budget of endgame positions was spent before the value was found */
#define GD_PEG_PAUSED 2      /* the node limit was reached: call again to go on */

typedef struct gd_peg_result {
    int64_t value;     /* GD_PEG_DONE: the expected outcome in GD_PEG_UNITs (GD_PEG_UNIT: a sure win) */
    uint32_t status;   /* GD_PEG_DONE, GD_PEG_OVER_BUDGET or GD_PEG_PAUSED */
    uint32_t reserved;
    uint64_t nodes;    /* endgame positions this call visited */
    uint64_t endgames; /* endgames it searched (those its table answered not counted) */
} gd_peg_result;

/* Bytes of a pre-endgame state whose move stack holds `move_capacity` moves (the candidates of
 * the decisions being made, one list per level). */
size_t gd_peg_size(uint32_t move_capacity);
/*
 * Start a pre-endgame state (state_size bytes, caller-owned, 8-byte aligned) with a table of
 * table_size bytes (64 bytes per entry, a power of two of them used) for what it values. Its
 * endgames are searched in `endgame`, a started endgame state (gd_endgame_start) of the same
 * lexicon and rules, restarted at each. `leaves` (may be NULL: by score) orders the candidates.
 * All of them must outlive the state.
 */
int gd_peg_start(void *state, size_t state_size, const gd_lexicon *lex, const gd_rules *rules, const gd_leaves *leaves,
                 void *endgame, void *table, size_t table_size, gd_error *err);
/*
 * A second pre-endgame state for another thread: it shares `started`'s table (and its lexicon,
 * rules and leaves), searching its endgames in `endgame` (a started endgame state of its own,
 * e.g. gd_endgame_share of `started`'s). Each state is used by one thread at a time; the table's
 * entries are read and written under per-bucket locks, and an entry holds whatever thread stored
 * it, so values do not depend on the number of threads.
 */
int gd_peg_share(void *state, size_t state_size, void *started, void *endgame, gd_error *err);
/*
 * The expected outcome (a win 1, a tie 1/2) of `move` (a play of `mine` or the pass) for the player
 * to move in one world: its rack `mine`, the opponent's `theirs`, the bag `bag` (tile counts, 64
 * bytes each; 1 to GD_PEG_MAX_BAG tiles in the bag), `spread` points ahead, after `scoreless`
 * scoreless turns; both sides then play the model's decisions (docs/preendgame.md). At most
 * `budget` endgame positions (0: no limit; then GD_PEG_OVER_BUDGET) and `node_limit` in this call
 * (0: no limit; then GD_PEG_PAUSED: call again to go on, the work done kept in the tables).
 */
int gd_peg_value(void *state, const uint8_t *board, const uint8_t *mine, const uint8_t *theirs, const uint8_t *bag,
                 int32_t spread, uint32_t scoreless, const gd_move *move, uint64_t budget, uint64_t node_limit,
                 gd_peg_result *out, gd_error *err);

/* ---- The DAWG baseline (dawg.c, movegen_dawg.c; docs/dawg.md) ------------------------------ */

/*
 * A DAWG lexicon: the minimal automaton of the words themselves, read from their first letter,
 * for Appel & Jacobson's generator. Its file (.dawg) has the .gaddag layout with its own magic;
 * it opens into a gd_lexicon whose flags carry GD_LEXICON_DAWG, which the GADDAG functions
 * refuse and the gd_dawg_* functions require. gd_walk_index_size and gd_build_walk_index serve
 * it as they serve a GADDAG.
 */
#define GD_LEXICON_DAWG 0x80000000u
int gd_dawg_check_header(const uint8_t *head, size_t head_size, uint64_t file_size, gd_error *err);
int gd_dawg_open(gd_lexicon *dawg, const uint8_t *data, size_t size, void *scratch, gd_error *err);
int gd_is_dawg(const gd_lexicon *lex);
/* gd_build's arguments and results, for a .dawg file (stats count the DAWG's states and arcs). */
int gd_dawg_build(const uint8_t *words, size_t words_size, uint32_t alphabet_size, const uint8_t *alphabet,
                  size_t alphabet_size_bytes, const uint8_t *name, size_t name_size, uint8_t **out, size_t *out_size,
                  gd_build_stats *stats, gd_build_progress *progress, gd_error *err);
int gd_dawg_contains(const gd_lexicon *dawg, const uint8_t *word, size_t length);

/*
 * Appel & Jacobson's generator. gd_dawg_prepare computes the DAWG's cross-sets and anchors for
 * a board into a workspace of gd_dawg_workspace_size() bytes (8-byte aligned); gd_dawg_generate
 * then writes every play for a rack in `directions` to out[0..capacity) (unsorted; *count is how
 * many there are, as gd_generate with top_n = 0), with the same records and scores as
 * gd_generate. `work` (may be NULL) receives the work done (see gd_work). Inputs are checked as gd_prepare and
 * gd_generate check them.
 */
size_t gd_dawg_workspace_size(void);
int gd_dawg_prepare(const gd_lexicon *dawg, const gd_rules *rules, const uint8_t *board, void *workspace,
                    gd_error *err);
int gd_dawg_generate(const gd_lexicon *dawg, const gd_rules *rules, const uint8_t *board, const void *workspace,
                     const uint8_t *rack_counts, uint32_t directions, gd_move *out, size_t capacity, size_t *count,
                     gd_work *work, gd_error *err);

#endif


/*
 * test_core_sanitized.c — the C core under AddressSanitizer and UBSan: lexicons, queries and
 * move generation.
 *
 * Built and run by tests/test_c_sanitizers.py together with every .c file in csrc, with
 *   gcc -std=c11 -Wall -Wextra -Werror -g -fsanitize=address,undefined -fno-sanitize-recover=all
 *
 * 1. builds a lexicon from an embedded word list, opens it and runs every query, checking the
 *    answers against brute force over the list;
 * 2. builds many small random lexicons (fixed seed) and odd inputs the builder must refuse;
 * 3. re-opens thousands of damaged copies of the file — every byte flipped, every truncation,
 *    random multi-byte damage — with and without the CRC recomputed by gd_crc32 and with and
 *    without the scratch buffer (which turns the count checks off), and runs every query on each
 *    copy that opens. Each copy lives in a malloc'd block of exactly its size, so a read one byte
 *    past the end is an ASan report.
 *
 * Every lexicon that opens also gets its walk index built and move generation run on random
 * boards and racks (generate_on).
 * 5. builds the DAWG of the list (gd_dawg_build): its words, Appel & Jacobson's generator move for
 *    move against the GADDAG generator on random boards, both directions apart, each generator
 *    refusing the other's lexicon, and damaged DAWG copies opened and generated on.
 *
 * Exit status 0 and "OK ..." on stdout when everything passed; any check that fails prints
 * "FAIL: ..." and exits 1; a sanitizer report aborts.
 */
#include <pthread.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anagram_filter.h" /* the filter built with the walk index, its probe with a blank */
#include "word_map.h"      /* the word map built with it */
#include "gaddag_format.h"
#include "gaddag_solver.h"
#include "movegen_internal.h" /* how moves rank */
#include "tiles.h"            /* what a rack is worth */

static int failures;
/* 1 while the lexicons queried are built ones: their answers are words of at most the header's
 * longest-word length. A damaged copy that still validates can spell longer strings through a
 * separator (validation bounds only separator-free paths), up to the walkers' 2 * GD_MAX_WORD. */
static int pristine = 1;
static unsigned long plays_checked; /* plays of built lexicons checked against gd_contains */

#define CHECK(cond, ...)                                                                             \
    do {                                                                                             \
        if (!(cond)) {                                                                               \
            failures++;                                                                              \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                          \
            fprintf(stderr, __VA_ARGS__);                                                            \
            fputc('\n', stderr);                                                                     \
            if (failures > 20) exit(1);                                                              \
        }                                                                                            \
    } while (0)

/* ---- a deterministic generator ------------------------------------------------------------ */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

static uint32_t below(uint32_t n) { return n ? rnd() % n : 0; }

/* ---- the embedded word list ------------------------------------------------------------------ */

static const char *const WORDS[] = {
    "A",        "AA",        "AB",       "AT",        "TA",       "CAT",      "CATS",      "CATTLE",
    "ACT",      "TACT",      "TAT",      "SCAT",      "CASTLE",   "CASTLES",  "TIN",       "SIN",
    "WIN",      "TINS",      "QI",       "QIS",       "ZA",       "ZAS",      "XI",        "JO",
    "QUIZ",     "QUIZZES",   "BANANA",   "BANANAS",   "ANA",      "ANAS",     "NAAN",      "RETAINS",
    "STAINER",  "RETINAS",   "NASTIER",  "ANESTRI",   "RATINES",  "STEARIN",  "ZZZ",       "EXAMPLE",
    "OXYPHENBUTAZONE",       "ABCDEFGHIJKLMNO",      "ZYXWVUTSRQPONML",       "SESQUIPEDALIAN",
    "AARDVARK", "AARDVARKS", "ABACUS",    "ABACI",    "MISSISSIPPI",           "ASSESS",   "SASS",
    "TATTOO",   "TOOT",      "OTTO",      "MADAM",    "REFER",    "LEVEL",    "ROTOR",     "CAT",
    "ACT",      "JUKEBOX",   "QUARTZ",    "SPHINX",   "WALTZ",    "FJORD",    "GLYPH",     "RHYTHM",
};
#define WORD_COUNT (sizeof WORDS / sizeof WORDS[0])
#define MAX_LEN 32

static size_t encode(const char *word, uint8_t *out)
{
    size_t n = strlen(word);
    for (size_t k = 0; k < n; k++) out[k] = (uint8_t)(word[k] - 'A' + 1);
    return n;
}

/* distinct words, as codes */
static uint8_t dict[WORD_COUNT][MAX_LEN];
static size_t dict_len[WORD_COUNT];
static size_t dict_count;

static int in_dict(const uint8_t *w, size_t n)
{
    for (size_t i = 0; i < dict_count; i++)
        if (dict_len[i] == n && memcmp(dict[i], w, n) == 0) return 1;
    return 0;
}

static void make_dict(void)
{
    for (size_t i = 0; i < WORD_COUNT; i++) {
        uint8_t w[MAX_LEN];
        size_t n = encode(WORDS[i], w);
        if (in_dict(w, n)) continue;
        memcpy(dict[dict_count], w, n);
        dict_len[dict_count++] = n;
    }
}

static uint8_t *english_alphabet(size_t *size)
{
    static uint8_t bytes[26 * 2];
    for (int c = 0; c < 26; c++) {
        bytes[2 * c] = 1;
        bytes[2 * c + 1] = (uint8_t)('A' + c);
    }
    *size = sizeof bytes;
    return bytes;
}

/* ---- query helpers ------------------------------------------------------------------------------- */

typedef int (*query_fn)(const gd_lexicon *, const void *, uint8_t *, size_t, size_t *, uint32_t *);

/* Count the words in a query output and check their shape. */
static uint32_t count_words(const uint8_t *out, size_t size, unsigned alphabet_size, unsigned max_len,
                            int blanks_allowed)
{
    uint32_t words = 0;
    size_t start = 0;
    for (size_t i = 0; i < size; i++) {
        if (out[i] == 0) {
            CHECK(i > start, "empty word in output at %zu", i);
            CHECK(i - start <= (pristine ? max_len : 2 * GD_MAX_WORD), "word of %zu letters, longest is %u",
                  i - start, max_len);
            words++;
            start = i + 1;
        } else {
            unsigned code = out[i] & (blanks_allowed ? 0x7Fu : 0xFFu);
            CHECK(code >= 1 && code <= alphabet_size, "letter code %u in output", out[i]);
        }
    }
    CHECK(start == size, "output does not end with a 0 byte");
    return words;
}

typedef struct query {
    int kind; /* 0 anagram, 1 pattern, 2 containing */
    uint8_t counts[64];
    int partial;
    uint8_t codes[40];
    size_t length;
} query;

static int run_query(const gd_lexicon *lex, const query *q, uint8_t *out, size_t capacity, size_t *needed,
                     uint32_t *count)
{
    switch (q->kind) {
    case 0: return gd_anagrams(lex, q->counts, q->partial, out, capacity, needed, count);
    case 1: return gd_pattern(lex, q->codes, q->length, out, capacity, needed, count);
    default: return gd_containing(lex, q->codes, q->length, out, capacity, needed, count);
    }
}

/* Run one query with no buffer, a too-small buffer and an exact one; the three must agree.
 * Returns the output (malloc'd, *size bytes) or NULL when the query was refused. */
static uint8_t *query_all_ways(const gd_lexicon *lex, const query *q, size_t *size, uint32_t *words)
{
    size_t needed = 0, needed2 = 0, needed3 = 0;
    uint32_t count = 0, count2 = 0, count3 = 0;
    int rc = run_query(lex, q, NULL, 0, &needed, &count);
    if (rc != GD_OK) return NULL;
    CHECK((needed == 0) == (count == 0), "needed %zu for %u words", needed, count);

    size_t small = needed / 2;
    uint8_t *partial = malloc(small ? small : 1);
    CHECK(run_query(lex, q, partial, small, &needed2, &count2) == GD_OK, "second run failed");
    CHECK(needed2 == needed && count2 == count, "needed/count differ with a small buffer");
    free(partial);

    uint8_t *out = malloc(needed ? needed : 1);
    CHECK(run_query(lex, q, out, needed, &needed3, &count3) == GD_OK, "third run failed");
    CHECK(needed3 == needed && count3 == count, "needed/count differ with an exact buffer");
    uint32_t seen = count_words(out, needed, lex->alphabet_size, lex->max_word_length, q->kind == 0);
    CHECK(seen == count, "%u words written, %u counted", seen, count);
    *size = needed;
    *words = count;
    return out;
}

/* Every query on any lexicon that opened: must not crash, answers must be well-formed. */
/* Move generation on a 9×9 board: random (even invalid) boards and racks must be memory-safe
 * on any lexicon that opened; on built ones every play must spell a word of the lexicon, and
 * the count must not depend on the output mode. */
static unsigned long games_played, turns_played;

/* A training game with a table of zeros is the game two equity players without a table play;
 * its statistics merge into a copy as twice themselves. */
static void train_game_on(const gd_lexicon *lex, const gd_rules *rules, uint64_t seed, void *workspace)
{
    gd_error err;
    const uint32_t n = rules->alphabet_size, max_leave = rules->rack_size - 1;
    uint64_t count = gd_leaves_count(rules->tile_counts, n, max_leave);
    CHECK(count > 0, "no leaves for the small tile set");
    if (!count) return;
    int16_t *zeros = calloc(count, sizeof *zeros);
    uint8_t *file = NULL;
    size_t size = 0;
    CHECK(gd_leaves_build(rules->tile_counts, n, max_leave, (const uint8_t *)"small", 5, zeros, count, &file, &size,
                          &err) == GD_OK,
          "leaves build: %s", err.message);
    gd_leaves lv;
    CHECK(gd_leaves_open(&lv, file, size, &err) == GD_OK, "leaves open: %s", err.message);
    gd_rack_stats stats = {calloc(count, sizeof(int64_t)), calloc(count, sizeof(uint32_t)), (uint32_t)count, 0, 0, 0, 0};
    gd_rack_stats twice = {calloc(count, sizeof(int64_t)), calloc(count, sizeof(uint32_t)), (uint32_t)count, 0, 0, 0, 0};
    gd_game *trained = malloc(sizeof *trained), *played = malloc(sizeof *played);
    const gd_player equity[2] = {{GD_PLAYER_EQUITY, NULL}, {GD_PLAYER_EQUITY, NULL}};
    CHECK(gd_train_game(lex, rules, &lv, seed, &stats, trained, workspace, &err) == GD_OK, "train: %s", err.message);
    CHECK(gd_autoplay(lex, rules, equity, seed, played, workspace, &err) == GD_OK, "autoplay: %s", err.message);
    CHECK(trained->score[0] == played->score[0] && trained->score[1] == played->score[1] &&
              trained->turn_count == played->turn_count,
          "a training game with zeros is not the game of two equity players");
    CHECK(gd_rack_stats_merge(&twice, &stats, &err) == GD_OK && gd_rack_stats_merge(&twice, &stats, &err) == GD_OK,
          "merge: %s", err.message);
    CHECK(twice.racks == 2 * stats.racks && twice.rack_sum == 2 * stats.rack_sum, "merged totals");
    for (uint64_t i = 0; i < count && !failures; i++)
        CHECK(twice.sum[i] == 2 * stats.sum[i] && twice.seen[i] == 2 * stats.seen[i], "merged entry %llu",
              (unsigned long long)i);
    gd_rack_stats short_stats = stats;
    short_stats.entries = (uint32_t)count - 1;
    CHECK(gd_rack_stats_merge(&twice, &short_stats, &err) == GD_ERR_ARGUMENT, "merging unequal statistics");
    CHECK(gd_train_game(lex, rules, &lv, seed, &short_stats, trained, workspace, &err) == GD_ERR_ARGUMENT,
          "statistics of the wrong size");
    gd_rack_stats_clear(&twice);
    CHECK(twice.racks == 0 && twice.seen[0] == 0, "cleared");
    free(stats.sum);
    free(stats.seen);
    free(twice.sum);
    free(twice.seen);
    free(trained);
    free(played);
    gd_free(file);
    free(zeros);
}

/* Whole games on the small board: the equity player against the greedy one, move by move with
 * the cross-sets kept incrementally and compared with a fresh gd_prepare after every play, every
 * tile accounted for at the end; then the same game in one gd_autoplay call. */
static unsigned long simulations_run, endgames_solved;

/* Infer what the player to move would keep with `move`, as the opponent would (a few racks, sampled
 * or every one), the weights adding up; then simulate with the opponent's rack drawn from a leave
 * (theirs less a tile) and refuse a leave that is not unseen. */
static void infer_and_simulate(const gd_lexicon *lex, const gd_rules *rules, const gd_game *game, void *workspace,
                               void *sim, const gd_move *move)
{
    const uint32_t p = game->to_move, q = 1 - p;
    uint8_t unseen[64] = {0};
    for (uint32_t i = 0; i < game->bag_count; i++) unseen[game->bag[i]]++;
    for (unsigned c = 0; c < 64; c++) unseen[c] = (uint8_t)(unseen[c] + game->rack[p][c]);
    gd_error err;
    gd_infer_options io = {NULL, 0, 40, rnd()};
    gd_inferred_leave found[40];
    gd_infer_summary summary;
    if (move->kind == GD_PLAY && game->bag_count > 0) {
        CHECK(gd_infer(lex, rules, game->board, workspace, unseen, move, &io, found, 40, &summary, &err) == GD_OK,
              "infer: %s", err.message);
        double sum = 0;
        for (uint32_t i = 0; i < summary.leaves; i++) sum += found[i].weight;
        CHECK(summary.leaves <= 40 && summary.consistent <= summary.racks && summary.racks <= 40, "infer summary");
        CHECK(sum <= summary.weight * (1 + 1e-9) && sum >= summary.weight * (1 - 1e-9), "inferred weights add up");
        CHECK(gd_infer(lex, rules, game->board, workspace, unseen, move, &io, found, 0, &summary, &err) ==
                      GD_ERR_ARGUMENT || summary.consistent == 0,
              "no room for the leaves is refused");
    }
    uint32_t held = 0;
    for (unsigned c = 0; c < 64; c++) held += game->rack[q][c];
    if (game->bag_count == 0 || held < 2) return;
    gd_inferred_leave leaves[2];
    memset(leaves, 0, sizeof leaves);
    memcpy(leaves[0].counts, game->rack[q], 64);
    for (unsigned c = 0; c < 64; c++)
        if (leaves[0].counts[c]) {
            leaves[0].counts[c]--;
            break;
        }
    leaves[0].weight = 1;
    gd_sim_options so = {.plies = 1, .min_iterations = 2, .spread_sigma = 6.5, .seed = rnd(),
                         .opponent_leaves = leaves, .opponent_leave_count = 2};
    CHECK(gd_sim_start(sim, lex, rules, game, move, 1, &so, &err) == GD_OK, "sim with inferred leaves: %s",
          err.message);
    CHECK(gd_sim_run(sim, 4, &err) == GD_OK, "sim run: %s", err.message);
    leaves[1].weight = 1;
    leaves[1].counts[1] = 200; /* more than are unseen */
    CHECK(gd_sim_start(sim, lex, rules, game, move, 1, &so, &err) == GD_ERR_ARGUMENT, "a leave not unseen is refused");
}

/* Simulate the three best moves of a position for a few iterations: every candidate plays them
 * all (no stopping rule), and their statistics add up. */
static void simulate_on(const gd_lexicon *lex, const gd_rules *rules, const gd_game *game, void *workspace)
{
    gd_error err;
    gd_move best[3];
    size_t count = 0;
    gd_equity_options options;
    memset(&options, 0, sizeof options);
    options.bag_count = game->bag_count;
    options.exchanges = 1;
    options.by_equity = 1;
    CHECK(gd_prepare(lex, rules, game->board, workspace, &err) == GD_OK, "prepare: %s", err.message);
    CHECK(gd_generate_equity(lex, rules, game->board, workspace, game->rack[game->to_move], &options, 3, best, 3,
                             &count, &err) == GD_OK,
          "generate: %s", err.message);
    if (count == 0) return;
    const uint32_t n = count < 3 ? (uint32_t)count : 3;
    void *sim = malloc(gd_sim_size());
    gd_sim_options so = {.plies = 2, .min_iterations = 2, .spread_sigma = 6.5, .seed = rnd()};
    CHECK(gd_sim_start(sim, lex, rules, game, best, n, &so, &err) == GD_OK, "sim start: %s", err.message);
    CHECK(gd_sim_run(sim, 6, &err) == GD_OK, "sim run: %s", err.message);
    gd_sim_candidate out[3];
    uint32_t got = 0, live = 0;
    uint64_t iterations = 0;
    CHECK(gd_sim_results(sim, out, 3, &got, &live, &iterations, &err) == GD_OK, "sim results: %s", err.message);
    CHECK(got == n && live == n && iterations == 6, "sim: %u candidates, %u live, %llu iterations", got, live,
          (unsigned long long)iterations);
    for (uint32_t i = 0; i < got; i++)
        CHECK(out[i].iterations == 6 && out[i].wins >= 0 && out[i].wins <= 6, "candidate %u: %llu playouts", i,
              (unsigned long long)out[i].iterations);
    /* the same iterations played one at a time in a scratch of their own, then merged */
    void *shared = malloc(gd_sim_size());
    void *scratch = malloc(gd_sim_scratch_size());
    gd_sim_playout rows[6 * 3];
    uint64_t seeds[6];
    CHECK(gd_sim_start(shared, lex, rules, game, best, n, &so, &err) == GD_OK, "shared start: %s", err.message);
    CHECK(gd_sim_seeds(shared, 6, seeds, &err) == GD_OK, "seeds: %s", err.message);
    for (uint32_t it = 0; it < 6; it++)
        CHECK(gd_sim_play(shared, scratch, seeds[it], rows + it * n, &err) == GD_OK, "play: %s", err.message);
    CHECK(gd_sim_merge(shared, rows, 6, &err) == GD_OK, "merge: %s", err.message);
    gd_sim_candidate merged[3];
    CHECK(gd_sim_results(shared, merged, 3, &got, &live, &iterations, &err) == GD_OK && iterations == 6, "merged");
    for (uint32_t i = 0; i < n; i++)
        CHECK(merged[i].value_sum == out[i].value_sum && merged[i].wins == out[i].wins &&
                  merged[i].opponent_bingos == out[i].opponent_bingos,
              "candidate %u: the shared run differs", i);
    free(scratch);
    free(shared);
    /* a fitted win model (one entry per tile of the set and one more) and ranking by wins */
    double mean[GD_MAX_TILES + 1], sigma[GD_MAX_TILES + 1];
    uint32_t tiles = 0;
    for (uint32_t c = 0; c <= rules->alphabet_size; c++) tiles += rules->tile_counts[c];
    for (uint32_t t = 0; t <= tiles; t++) {
        mean[t] = 10.0;
        sigma[t] = 5.0 * sqrt((double)t);
    }
    gd_sim_options ranked = so;
    ranked.win_mean = mean;
    ranked.win_sigma = sigma;
    ranked.win_tiles = tiles;
    ranked.rank_by_win = 1;
    ranked.prune_z = 1.0;
    CHECK(gd_sim_start(sim, lex, rules, game, best, n, &ranked, &err) == GD_OK, "ranked start: %s", err.message);
    CHECK(gd_sim_run(sim, 8, &err) == GD_OK, "ranked run: %s", err.message);
    CHECK(gd_sim_results(sim, out, 3, &got, &live, &iterations, &err) == GD_OK && live >= 1, "ranked results");
    for (uint32_t i = 0; i < got; i++)
        CHECK(out[i].wins >= 0 && out[i].wins <= (double)out[i].iterations &&
                  out[i].win_squares <= out[i].wins + 1e-9,
              "ranked candidate %u: %g wins, %g squares in %llu", i, out[i].wins, out[i].win_squares,
              (unsigned long long)out[i].iterations);
    /* a helper's state: the dealer's dropped candidate is skipped when it plays */
    CHECK(gd_sim_start(sim, lex, rules, game, best, n, &so, &err) == GD_OK, "helper start: %s", err.message);
    CHECK(gd_sim_drop(sim, 0, &err) == GD_OK && gd_sim_drop(sim, 0, &err) == GD_OK, "drop: %s", err.message);
    CHECK(gd_sim_drop(sim, n, &err) == GD_ERR_ARGUMENT, "a candidate out of range is refused");
    void *helper_scratch = malloc(gd_sim_scratch_size());
    gd_sim_playout played[3];
    CHECK(gd_sim_play(sim, helper_scratch, 77, played, &err) == GD_OK, "helper play: %s", err.message);
    /* with one candidate it stays live: the last one is never dropped */
    CHECK(n < 2 ? played[0].played : !played[0].played && played[1].played, "the dropped candidate was played");
    free(helper_scratch);
    ranked.win_tiles = tiles - 1;
    CHECK(gd_sim_start(sim, lex, rules, game, best, n, &ranked, &err) == GD_ERR_ARGUMENT,
          "a win model shorter than the set is refused");
    gd_move bad = best[0];
    bad.kind = 9;
    CHECK(gd_sim_start(sim, lex, rules, game, &bad, 1, &so, &err) == GD_ERR_ARGUMENT, "a bad candidate is refused");
    infer_and_simulate(lex, rules, game, workspace, sim, &best[0]);
    free(sim);
    simulations_run++;
}

/* The endgame's words through the board: asked with no room, then with exactly the room they
 * need; each one a word of the lexicon; a step limit stops the walk and says so. */
static void endgame_words_on(const gd_lexicon *lex, const gd_rules *rules, const gd_game *game)
{
    uint8_t tiles[64];
    for (unsigned c = 0; c < 64; c++) tiles[c] = (uint8_t)(game->rack[0][c] + game->rack[1][c]);
    size_t needed = 0, again = 0;
    uint32_t count = 0, count_again = 0, finished = 0;
    CHECK(gd_endgame_words(lex, rules, game->board, tiles, 0, NULL, 0, &needed, &count, &finished) == GD_OK && finished,
          "endgame words, counted");
    uint8_t *words = malloc(needed + 1);
    CHECK(gd_endgame_words(lex, rules, game->board, tiles, 0, words, needed, &again, &count_again, &finished) == GD_OK,
          "endgame words");
    CHECK(again == needed && count_again == count, "the second call found %zu bytes, the first %zu", again, needed);
    uint32_t seen = 0;
    for (size_t at = 0; at < needed; seen++) {
        size_t length = strlen((const char *)words + at);
        CHECK(length > 0 && gd_contains(lex, words + at, length), "endgame word %u is not in the lexicon", seen);
        at += length + 1;
    }
    CHECK(seen == count, "%u words written, %u counted", seen, count);
    if (count > 0) {
        CHECK(gd_endgame_words(lex, rules, game->board, tiles, 1, NULL, 0, &needed, &count, &finished) == GD_OK &&
                  !finished,
              "a step limit of 1 stops the walk");
    }
    if (lex->alphabet_size < 63) {
        tiles[lex->alphabet_size + 1] = 1;
        CHECK(gd_endgame_words(lex, rules, game->board, tiles, 0, NULL, 0, &needed, &count, &finished) ==
                  GD_ERR_ARGUMENT,
              "a tile outside the alphabet is refused");
    }
    free(words);
}

/* One thread of a shared endgame search: depth after depth in small slices until one search is
 * complete or another thread's is (done). */
typedef struct shared_search {
    void *state;
    int *done;
    int rc, complete;
    int32_t value;
    gd_error err;
} shared_search;

static void *search_shared(void *arg)
{
    shared_search *s = arg;
    gd_endgame_result *result = malloc(sizeof *result);
    s->rc = GD_OK;
    s->complete = 0;
    for (uint32_t depth = 1; depth <= GD_ENDGAME_MAX_PLY && !__atomic_load_n(s->done, __ATOMIC_RELAXED);) {
        s->rc = gd_endgame_search(s->state, depth, 2000, result, &s->err);
        if (s->rc != GD_OK) break;
        if (result->stopped) continue;
        if (result->complete) {
            s->complete = 1;
            s->value = result->value;
            __atomic_store_n(s->done, 1, __ATOMIC_RELAXED);
            break;
        }
        depth++;
    }
    free(result);
    return NULL;
}

/* The same endgame searched by two threads sharing one table (gd_endgame_share): whichever
 * finishes first must find the value one thread found. */
static void endgame_shared_on(const gd_lexicon *lex, const gd_rules *rules, const gd_game *game, uint32_t capacity,
                              int32_t expected)
{
    gd_error err;
    const size_t size = gd_endgame_size(capacity), table_size = 1024 * 64;
    void *first = malloc(size), *second = malloc(size), *table = malloc(table_size);
    CHECK(gd_endgame_start(first, size, lex, rules, game, table, table_size, &err) == GD_OK, "shared start: %s",
          err.message);
    CHECK(gd_endgame_share(second, size, first, &err) == GD_OK, "share: %s", err.message);
    CHECK(gd_endgame_share(first, size, first, &err) == GD_ERR_ARGUMENT, "a state shared with itself");
    CHECK(gd_endgame_share(second, 16, first, &err) == GD_ERR_ARGUMENT, "a shared state of 16 bytes");
    int done = 0;
    shared_search searches[2] = {{.state = first, .done = &done}, {.state = second, .done = &done}};
    pthread_t helper;
    CHECK(pthread_create(&helper, NULL, search_shared, &searches[1]) == 0, "a helper thread");
    search_shared(&searches[0]);
    pthread_join(helper, NULL);
    int finished = 0;
    for (int k = 0; k < 2; k++) {
        if (searches[k].rc == GD_ERR_NOMEM) continue; /* the small stack, as alone */
        CHECK(searches[k].rc == GD_OK, "shared search %d: %s", k, searches[k].err.message);
        if (!searches[k].complete) continue;
        finished++;
        CHECK(searches[k].value == expected, "thread %d of a shared search found %d, one thread %d", k,
              searches[k].value, expected);
    }
    CHECK(finished > 0, "neither thread of a shared search finished");
    free(first);
    free(second);
    free(table);
}

/* Search an endgame to its end (a small table and move stack, so collisions and a full stack are
 * exercised), then replay the line: it must be worth the value found; then again on two threads. */
static void endgame_on(const gd_lexicon *lex, const gd_rules *rules, const gd_game *game)
{
    gd_error err;
    const uint32_t capacity = 4096;
    const size_t size = gd_endgame_size(capacity), table_size = 1024 * 64;
    void *state = malloc(size), *table = malloc(table_size);
    gd_endgame_result *result = malloc(sizeof *result);
    int rc = gd_endgame_start(state, size, lex, rules, game, table, table_size, &err);
    CHECK(rc == GD_OK, "endgame start: %s", err.message);
    int complete = 0;
    for (uint32_t depth = 1; rc == GD_OK && !complete && depth <= GD_ENDGAME_MAX_PLY; depth++) {
        rc = gd_endgame_search(state, depth, 300000, result, &err);
        if (rc == GD_ERR_NOMEM) break; /* a position with more plays than the small stack holds */
        CHECK(rc == GD_OK, "endgame search: %s", err.message);
        if (result->stopped) break;
        complete = (int)result->complete;
    }
    if (complete) {
        gd_game *copy = malloc(sizeof *copy);
        memcpy(copy, game, sizeof *copy);
        const uint32_t mover = game->to_move;
        for (uint32_t i = 0; i < result->line_length && !copy->over; i++)
            CHECK(gd_game_move(copy, rules, &result->line[i], &err) == GD_OK, "line move %u: %s", i, err.message);
        int32_t gained = (copy->score[mover] - game->score[mover]) - (copy->score[1 - mover] - game->score[1 - mover]);
        CHECK(copy->over && gained == result->value, "the line gains %d, the search says %d", gained, result->value);
        free(copy);
        endgames_solved++;
        endgame_shared_on(lex, rules, game, capacity, result->value);
    }
    free(result);
    free(state);
    free(table);
}

/* The endgame of a position: a tile set of exactly the tiles on the board and the racks, so the
 * bag is empty. */
static void endgame_of(const gd_lexicon *lex, const gd_rules *rules, const gd_game *game)
{
    gd_error err;
    gd_rules *exact = malloc(sizeof *exact);
    gd_game *position = malloc(sizeof *position);
    *exact = *rules;
    memset(exact->tile_counts, 0, sizeof exact->tile_counts);
    for (unsigned sq = 0; sq < rules->rows * rules->cols; sq++)
        if (game->board[sq]) exact->tile_counts[(game->board[sq] & GD_BLANK_FLAG) ? 0 : (game->board[sq] & 63u)]++;
    uint8_t racks[128];
    for (unsigned p = 0; p < 2; p++)
        for (unsigned c = 0; c < 64; c++) {
            racks[64 * p + c] = game->rack[p][c];
            exact->tile_counts[c] += game->rack[p][c];
        }
    CHECK(gd_game_from_position(position, exact, game->board, racks, game->score, game->to_move, 1, &err) == GD_OK,
          "endgame position: %s", err.message);
    CHECK(position->bag_count == 0, "%u tiles in the bag of an endgame", position->bag_count);
    endgame_words_on(lex, exact, position);
    endgame_on(lex, exact, position);
    free(position);
    free(exact);
}

/* Best 1 by equity with bounds (prune: anchors skipped, blank branches closed, blank choices and
 * exchanges cut by what the move kept can still be beaten by) is the best of every move. */
static unsigned long bounded_positions;

static void best_with_bounds_on(const gd_lexicon *lex, const gd_rules *rules, const gd_game *game, void *workspace,
                                const gd_leaves *lv)
{
    gd_error err;
    const uint32_t capacity = 4096;
    gd_move *all = malloc(capacity * sizeof *all), best;
    size_t count = 0, every = 0;
    gd_equity_options options;
    memset(&options, 0, sizeof options);
    options.leaves = lv;
    options.bag_count = game->bag_count;
    options.opponent_rack_value = gd_rack_value(rules, game->rack[1 - game->to_move], rules->alphabet_size);
    options.exchanges = 1;
    options.pass = 1;
    options.by_equity = 1;
    CHECK(gd_prepare(lex, rules, game->board, workspace, &err) == GD_OK, "prepare: %s", err.message);
    const uint8_t *rack = game->rack[game->to_move];
    CHECK(gd_generate_equity(lex, rules, game->board, workspace, rack, &options, 0, all, capacity, &every, &err) ==
              GD_OK,
          "every move: %s", err.message);
    options.prune = 1;
    CHECK(gd_generate_equity(lex, rules, game->board, workspace, rack, &options, 1, &best, 1, &count, &err) == GD_OK,
          "best with bounds: %s", err.message);
    if (every > 0 && every <= capacity) {
        size_t top = 0;
        for (size_t m = 1; m < every; m++)
            if (gd_move_better(&all[m], &all[top], 1)) top = m;
        CHECK(count > 0 && memcmp(&best, &all[top], sizeof best) == 0,
              "best with bounds (equity %d) is not the best of %zu moves (equity %d)", count ? best.equity : 0, every,
              all[top].equity);
        bounded_positions++;
    }
    free(all);
}

static void play_games_on(const gd_lexicon *lex, gd_rules *rules)
{
    gd_error err;
    const unsigned n = lex->alphabet_size;
    rules->alphabet_size = n;
    memset(rules->tile_counts, 0, sizeof rules->tile_counts);
    unsigned total = 2;
    rules->tile_counts[0] = 2;
    for (unsigned c = 1; c <= n; c++) {
        rules->tile_counts[c] = 1 + (c % 3 == 1);
        total += rules->tile_counts[c];
    }
    rules->exchange_minimum = 7;
    rules->scoreless_turns = 6;
    rules->going_out_bonus = 2;
    rules->going_out_penalty = 0;
    const size_t ws_size = gd_workspace_size();
    void *kept = calloc(1, ws_size), *fresh = calloc(1, ws_size);
    gd_game *game = malloc(sizeof *game), *whole = malloc(sizeof *whole);
    const gd_player players[2] = {{GD_PLAYER_EQUITY, NULL}, {GD_PLAYER_GREEDY, NULL}};
    const uint64_t seed = rnd();
    CHECK(gd_game_new(game, rules, seed, &err) == GD_OK, "new game: %s", err.message);
    CHECK(gd_prepare(lex, rules, game->board, kept, &err) == GD_OK, "prepare: %s", err.message);
    /* a table of random values (the small set's leaves) for the bounds with a table; each check
     * generates every move too, so the first games suffice */
    const int check_bounds = games_played < 150;
    int16_t *values = NULL;
    uint8_t *table = NULL;
    size_t table_size = 0;
    gd_leaves lv;
    if (check_bounds) {
        const uint32_t max_leave = rules->rack_size - 1;
        const uint64_t leave_count = gd_leaves_count(rules->tile_counts, n, max_leave);
        values = calloc(leave_count, sizeof *values);
        for (uint64_t i = 0; i < leave_count; i++) values[i] = (int16_t)((int)below(4001) - 2000);
        CHECK(gd_leaves_build(rules->tile_counts, n, max_leave, (const uint8_t *)"random", 6, values, leave_count,
                              &table, &table_size, &err) == GD_OK &&
                  gd_leaves_open(&lv, table, table_size, &err) == GD_OK,
              "random leaves: %s", err.message);
    }
    int simulated = 0, solved = 0;
    while (!failures && !game->over) {
        gd_move move;
        if (check_bounds && !failures) best_with_bounds_on(lex, rules, game, fresh, &lv);
        if (!simulated && game->turn_count == 4 && game->bag_count > rules->rack_size && games_played < 3) {
            simulate_on(lex, rules, game, fresh);
            simulated = 1;
        }
        if (!solved && game->turn_count == 6 && games_played < 4) {
            endgame_of(lex, rules, game);
            solved = 1;
        }
        CHECK(gd_choose_move(lex, rules, game, fresh, &players[game->to_move], &move, &err) == GD_OK, "choose: %s",
              err.message);
        CHECK(gd_game_move(game, rules, &move, &err) == GD_OK, "move: %s", err.message);
        if (move.kind == GD_PLAY) {
            CHECK(gd_update_after_play(lex, rules, game->board, kept, &move, &err) == GD_OK, "update: %s", err.message);
            CHECK(gd_prepare(lex, rules, game->board, fresh, &err) == GD_OK, "prepare: %s", err.message);
            CHECK(memcmp(kept, fresh, ws_size) == 0, "incremental cross-sets differ from a fresh prepare");
        }
        turns_played++;
    }
    unsigned held = game->bag_count;
    for (unsigned p = 0; p < 2; p++)
        for (unsigned c = 0; c <= n; c++) held += game->rack[p][c];
    for (unsigned sq = 0; sq < rules->rows * rules->cols; sq++) held += game->board[sq] != 0;
    CHECK(held == total, "%u tiles at the end of a game of %u", held, total);
    CHECK(gd_autoplay(lex, rules, players, seed, whole, kept, &err) == GD_OK, "autoplay: %s", err.message);
    CHECK(whole->score[0] == game->score[0] && whole->score[1] == game->score[1] &&
              whole->turn_count == game->turn_count,
          "gd_autoplay %d-%d in %u turns, move by move %d-%d in %u", whole->score[0], whole->score[1],
          whole->turn_count, game->score[0], game->score[1], game->turn_count);
    games_played++;
    if (games_played <= 2) train_game_on(lex, rules, seed, kept); /* its table is large: a few suffice */
    gd_free(table);
    free(values);
    free(kept);
    free(fresh);
    free(game);
    free(whole);
}

/* gd_generate_stream a few moves at a time (a buffer of exactly that many, so a write past it is
 * reported) gives the moves of gd_generate in the same order; sorted, its first ones are the top
 * N; a damaged stream is refused, never read past. */
static void check_stream(const gd_lexicon *lex, const gd_rules *rules, const uint8_t *board, const void *workspace,
                         const uint8_t *rack, const gd_move *moves, size_t all, gd_move *best, size_t kept)
{
    static gd_move streamed[4096];
    gd_error err;
    size_t capacity = 1 + below(4), total = 0, count = 0;
    gd_move *buffer = malloc(capacity * sizeof *buffer);
    gd_stream stream;
    memset(&stream, 0, sizeof stream);
    size_t calls = 0;
    while (stream.state != GD_STREAM_DONE && calls++ <= all / capacity + 1) {
        int rc = gd_generate_stream(lex, rules, board, workspace, rack, NULL, &stream, buffer, capacity, &count, &err);
        CHECK(rc == GD_OK, "stream: %s", err.message);
        if (rc != GD_OK) break;
        CHECK(count <= capacity && (count == capacity || stream.state == GD_STREAM_DONE), "stream wrote %zu of %zu",
              count, capacity);
        for (size_t m = 0; m < count && total < 4096; m++) streamed[total++] = buffer[m];
    }
    CHECK(stream.state == GD_STREAM_DONE, "the stream did not finish");
    CHECK(calls == (all ? (all + capacity - 1) / capacity : 1), "%zu calls for %zu moves, %zu at a time", calls, all,
          capacity);
    if (all <= 4096) {
        CHECK(total == all, "streamed %zu moves, generated %zu", total, all);
        CHECK(memcmp(streamed, moves, total * sizeof *moves) == 0, "streamed moves differ from generated ones");
    }
    gd_sort_moves(streamed, total, 0);
    gd_sort_moves(best, kept, 0);
    CHECK(all > 4096 || memcmp(streamed, best, kept * sizeof *best) == 0, "sorted stream does not start with the top");
    /* damaged streams */
    CHECK(gd_generate_stream(lex, rules, board, workspace, rack, NULL, &stream, NULL, 1, &count, &err) ==
              GD_ERR_ARGUMENT, "stream without a buffer");
    for (int t = 0; t < 50; t++) {
        uint8_t *bytes = (uint8_t *)&stream;
        for (size_t k = 0; k < sizeof stream; k++) bytes[k] = (uint8_t)rnd();
        stream.state = GD_STREAM_RESUME;
        if (t % 2) { /* plausible fields, a play that is not there */
            stream.next.kind = GD_PLAY;
            stream.direction = stream.next.direction = (uint8_t)below(2);
            stream.line = below(rules->rows);
            stream.next.length = (uint8_t)(2 + below(3));
            stream.next.row = (uint8_t)(stream.direction ? below(rules->rows - 4) : stream.line);
            stream.next.col = (uint8_t)(stream.direction ? stream.line : below(rules->cols - 4));
            stream.anchor = (stream.direction ? stream.next.row : stream.next.col) + below(stream.next.length);
        }
        int rc = gd_generate_stream(lex, rules, board, workspace, rack, NULL, &stream, buffer, capacity, &count, &err);
        CHECK(rc == GD_OK || rc == GD_ERR_ARGUMENT, "damaged stream: rc %d", rc);
        CHECK(count <= capacity, "damaged stream wrote %zu", count);
    }
    stream.state = 9;
    CHECK(gd_generate_stream(lex, rules, board, workspace, rack, NULL, &stream, buffer, capacity, &count, &err) ==
              GD_ERR_ARGUMENT, "unknown stream state");
    free(buffer);
}

/* Every word of `length` letters (at most 12), each followed by a separator byte, in a buffer of
 * *needed bytes (the caller frees it). */
static uint8_t *words_of_length(const gd_lexicon *lex, uint32_t length, size_t *needed)
{
    uint8_t any[12] = {0}; /* a pattern of wildcards: every word of this length */
    uint32_t count;
    gd_pattern(lex, any, length, NULL, 0, needed, &count);
    uint8_t *words = malloc(*needed + 1);
    gd_pattern(lex, any, length, words, *needed, needed, &count);
    return words;
}

/* The anagram filter never says no to the letters of a word of the lexicon (best-N's bounds trust
 * it), and says no to most letter sets that spell nothing (or it would not be worth its probes). */
static void check_anagram_filter(const gd_lexicon *lex)
{
    const gd_anagram_filter filter = gd_lexicon_anagram_filter(lex);
    CHECK(filter.letter_hash != NULL, "no anagram filter after the walk index");
    if (!pristine) {
        for (int t = 0; t < 32; t++) gd_anagram_filter_may_spell(&filter, (uint64_t)below(1u << 30) * 2654435761u);
        return;
    }
    CHECK(filter.blocks != NULL, "a lexicon opened with its counts checked has no anagram filter");
    unsigned refused = 0, tried = 0, n_sums = 0, blank_refused = 0, blank_tried = 0;
    static uint64_t sums[512];
    for (uint32_t length = 1; length <= lex->max_word_length && length <= 12; length++) {
        size_t needed;
        uint8_t *words = words_of_length(lex, length, &needed);
        for (size_t at = 0; at < needed; at += length + 1) {
            uint64_t sum = 0;
            for (uint32_t k = 0; k < length; k++) sum += filter.letter_hash[words[at + k] & 63u];
            CHECK(gd_anagram_filter_may_spell(&filter, sum), "the filter refuses the letters of a %u-letter word", length);
            /* a blank for any one of its letters: the other letters and some letter spell it */
            const unsigned blank_at = below(length);
            CHECK(gd_anagram_filter_may_spell_with_blank(&filter, sum - filter.letter_hash[words[at + blank_at] & 63u],
                                                         lex->alphabet_size),
                  "the filter refuses the letters of a %u-letter word with a blank", length);
        }
        for (int t = 0; t < 40; t++) {
            uint8_t have[64] = {0};
            uint64_t sum = 0;
            for (uint32_t k = 0; k < length; k++) {
                unsigned letter = 1 + below(lex->alphabet_size);
                have[letter]++;
                sum += filter.letter_hash[letter];
            }
            int spells = 0; /* brute force over the words of this length */
            for (size_t at = 0; at < needed && !spells; at += length + 1) {
                uint8_t left[64];
                memcpy(left, have, sizeof left);
                spells = 1;
                for (uint32_t k = 0; k < length; k++)
                    if (!left[words[at + k] & 63u]--) spells = 0;
            }
            int seen = 0; /* tiny alphabets repeat letter sets: count each once */
            for (unsigned i = 0; i < n_sums && !seen; i++) seen = sums[i] == sum;
            if (spells || seen || n_sums == 512) continue;
            sums[n_sums++] = sum;
            tried++;
            refused += !gd_anagram_filter_may_spell(&filter, sum);
        }
        /* letters and a blank that spell nothing, whatever the blank is (brute force): refused
         * mostly (each of the alphabet's letters is a probe that may pass wrongly) */
        for (int t = 0; t < 40 && length >= 2; t++) {
            uint8_t have[64] = {0};
            uint64_t sum = 0;
            for (uint32_t k = 0; k + 1 < length; k++) {
                unsigned letter = 1 + below(lex->alphabet_size);
                have[letter]++;
                sum += filter.letter_hash[letter];
            }
            int spells = 0;
            for (size_t at = 0; at < needed && !spells; at += length + 1) {
                uint8_t left[64];
                memcpy(left, have, sizeof left);
                uint32_t matched = 0;
                for (uint32_t k = 0; k < length; k++)
                    if (left[words[at + k] & 63u]) left[words[at + k] & 63u]--, matched++;
                spells = matched == length - 1;
            }
            if (spells) continue;
            blank_tried++;
            blank_refused += !gd_anagram_filter_may_spell_with_blank(&filter, sum, lex->alphabet_size);
        }
        free(words);
    }
    /* about one in fifty passes wrongly: refusing under four in five of 20 or more is no chance */
    CHECK(tried < 20 || refused * 5 >= tried * 4, "the filter refused only %u of %u letter sets that spell nothing",
          refused, tried);
    CHECK(blank_tried < 20 || blank_refused * 4 >= blank_tried,
          "the filter refused only %u of %u letter sets with a blank that spell nothing", blank_refused, blank_tried);
}

static unsigned long words_checked; /* words of the lexicons found in their maps */

/* The word map holds every word of the lexicon under the key of its letters, with its letters, and
 * under each key only anagrams of one another (best N trusts it to find a sub-rack's words). */
static void check_word_map(const gd_lexicon *lex)
{
    const gd_word_map *map = lex->word_map;
    if (!pristine || (lex->flags & GD_LEXICON_DAWG)) {
        if (map) /* a map from a lexicon opened without its checks is whole or absent */
            CHECK(map->word_count == lex->word_count, "a map of %u words for %u", map->word_count, lex->word_count);
        return;
    }
    CHECK(map != NULL, "a lexicon opened with its counts checked has no word map");
    CHECK(map->word_count == lex->word_count, "the word map holds %u words of %u", map->word_count, lex->word_count);
    const uint64_t *hash = lex->anagram_filter;
    uint32_t found_total = 0;
    for (uint32_t length = 1; length <= lex->max_word_length && length <= 12; length++) {
        size_t needed;
        uint8_t *words = words_of_length(lex, length, &needed);
        for (size_t at = 0; at < needed; at += length + 1) {
            uint64_t key = 0;
            for (uint32_t k = 0; k < length; k++) key += hash[words[at + k] & 63u];
            int found = 0;
            for (uint32_t e = gd_word_map_find(map, key); e != GD_WORD_MAP_END; e = map->next[e]) {
                CHECK(map->keys[e] == key && map->lengths[e] == length, "the map's entry %u is not under its key", e);
                const uint8_t *letters = map->letters + map->words[e];
                found |= memcmp(letters, words + at, length) == 0;
                uint8_t have[64] = {0};
                for (uint32_t k = 0; k < length; k++) have[words[at + k] & 63u]++;
                for (uint32_t k = 0; k < length; k++)
                    CHECK(have[letters[k] & 63u]--, "a word under a key holds other letters than its anagram's");
            }
            CHECK(found, "a %u-letter word is not in the word map under its letters", length);
            found_total += (uint32_t)found;
        }
        free(words);
    }
    words_checked += found_total;
    /* letters no word is spelled by: not found */
    for (int t = 0; t < 64; t++) {
        uint64_t key = 0;
        const uint32_t length = 1 + below(lex->max_word_length);
        for (uint32_t k = 0; k < length; k++) key += hash[1 + below(lex->alphabet_size)];
        for (uint32_t e = gd_word_map_find(map, key); e != GD_WORD_MAP_END; e = map->next[e])
            CHECK(map->keys[e] == key, "a lookup returned another key's word");
    }
}

static void generate_on(const gd_lexicon *opened)
{
    gd_lexicon lex = *opened;
    gd_error err;
    size_t index_size = gd_walk_index_size(&lex);
    CHECK(index_size >= (size_t)lex.arc_count * 8, "walk index size %zu for %u arcs", index_size, lex.arc_count);
    uint64_t *index = malloc(index_size); /* exactly its size: a read past the end is reported */
    CHECK(gd_build_walk_index(&lex, index, index_size - 1, &err) == GD_ERR_ARGUMENT, "short walk index buffer");
    CHECK(gd_build_walk_index(&lex, index, index_size, &err) == GD_OK, "walk index: %s", err.message);
    check_anagram_filter(&lex);
    check_word_map(&lex);

    static gd_rules rules;
    memset(&rules, 0, sizeof rules);
    rules.rows = rules.cols = 9;
    rules.rack_size = 7;
    rules.bingo_bonus = 50;
    rules.start_row = rules.start_col = 4;
    for (unsigned c = 0; c <= lex.alphabet_size; c++) rules.values[c] = (int32_t)(c % 11);
    for (unsigned sq = 0; sq < 81; sq++) {
        rules.letter_multiplier[sq] = (uint8_t)(1 + sq % 3 * (sq % 7 == 0));
        rules.word_multiplier[sq] = (uint8_t)(1 + (sq % 10 == 0));
    }
    void *workspace = malloc(gd_workspace_size());
    static gd_move moves[4096], best[5];
    uint8_t board[81];
    for (int round = 0; round < 4; round++) {
        memset(board, 0, sizeof board);
        if (round) { /* a random row and column through the middle, some squares blank tiles */
            for (int k = 0; k < 9; k++) {
                if (below(3)) board[4 * 9 + k] = (uint8_t)((1 + below(lex.alphabet_size)) | (below(5) ? 0 : GD_BLANK_FLAG));
                if (round > 1 && below(2)) board[k * 9 + 4] = (uint8_t)(1 + below(lex.alphabet_size));
            }
        }
        CHECK(gd_prepare(&lex, &rules, board, workspace, &err) == GD_OK, "prepare: %s", err.message);
        uint8_t rack[64] = {0};
        unsigned tiles = 1 + below(7);
        for (unsigned k = 0; k < tiles; k++) rack[below(4) == 0 ? 0 : 1 + below(lex.alphabet_size)]++;
        size_t all = 0, top = 0, counted = 0;
        CHECK(gd_generate(&lex, &rules, board, workspace, rack, 0, moves, 4096, &all, &err) == GD_OK, "%s", err.message);
        CHECK(gd_generate(&lex, &rules, board, workspace, rack, 5, best, 5, &top, &err) == GD_OK, "%s", err.message);
        CHECK(gd_generate(&lex, &rules, board, workspace, rack, 0, NULL, 0, &counted, &err) == GD_OK, "%s", err.message);
        CHECK(all == top && all == counted, "plays counted %zu / %zu / %zu by mode", all, top, counted);
        check_stream(&lex, &rules, board, workspace, rack, moves, all, best, top < 5 ? top : 5);
        for (size_t m = 0; pristine && m < all && m < 4096; m++) {
            uint8_t word[GD_MAX_DIM];
            for (unsigned k = 0; k < moves[m].length; k++) word[k] = moves[m].word[k] & 63u;
            CHECK(gd_contains(&lex, word, moves[m].length), "play %zu is not a word", m);
            plays_checked++;
            CHECK(moves[m].tiles_placed >= 1 && moves[m].length >= 2, "play %zu: %u tiles, %u letters", m,
                  moves[m].tiles_placed, moves[m].length);
        }
    }
    play_games_on(&lex, &rules);
    lex.walk = NULL;
    size_t none = 0;
    CHECK(gd_generate(&lex, &rules, board, workspace, (const uint8_t[64]){1}, 0, NULL, 0, &none, &err) == GD_ERR_ARGUMENT,
          "generation without a walk index");
    free(workspace);
    free(index);
}

static void exercise(const gd_lexicon *lex)
{
    generate_on(lex);
    unsigned n = lex->alphabet_size;
    uint8_t word[40];
    for (size_t i = 0; i < dict_count; i++) gd_contains(lex, dict[i], dict_len[i]);
    for (int t = 0; t < 8; t++) {
        size_t len = 1 + below(12);
        for (size_t k = 0; k < len; k++) word[k] = (uint8_t)(1 + below(n));
        gd_contains(lex, word, len);
    }
    word[0] = 0;
    CHECK(gd_contains(lex, word, 1) == 0, "separator is never a word");
    word[0] = 63;
    if (n < 63) CHECK(gd_contains(lex, word, 1) == 0, "letter beyond the alphabet is never a word");

    query q;
    for (int t = 0; t < 12; t++) {
        memset(&q, 0, sizeof q);
        q.kind = t % 3;
        if (q.kind == 0) {
            unsigned tiles = 1 + below(9);
            for (unsigned k = 0; k < tiles; k++) q.counts[below(4) == 0 ? 0 : 1 + below(n)]++;
            q.partial = t & 1;
        } else {
            q.length = 1 + below(q.kind == 1 ? 10 : 3);
            for (size_t k = 0; k < q.length; k++)
                q.codes[k] = (uint8_t)(q.kind == 1 && below(2) ? 0 : 1 + below(n));
        }
        size_t size;
        uint32_t words;
        uint8_t *out = query_all_ways(lex, &q, &size, &words);
        free(out);
    }
    /* every tile a blank: every word up to 7 letters */
    memset(&q, 0, sizeof q);
    q.counts[0] = 7;
    q.partial = 1;
    size_t size;
    uint32_t words;
    free(query_all_ways(lex, &q, &size, &words));
    /* a huge rack */
    for (unsigned c = 0; c <= n; c++) q.counts[c] = 255;
    free(query_all_ways(lex, &q, &size, &words));
    q.partial = 0;
    free(query_all_ways(lex, &q, &size, &words));
}

/* ---- 1. the embedded list, every query against brute force --------------------------------------- */

static int multiset_fits(const uint8_t *w, size_t n, const uint8_t *rack_counts)
{
    uint8_t have[64];
    memcpy(have, rack_counts, 64);
    for (size_t k = 0; k < n; k++) {
        if (have[w[k]]) have[w[k]]--;
        else if (have[0]) have[0]--;
        else return 0;
    }
    return 1;
}

static int contains_sub(const uint8_t *w, size_t n, const uint8_t *sub, size_t m)
{
    for (size_t i = 0; i + m <= n; i++)
        if (memcmp(w + i, sub, m) == 0) return 1;
    return 0;
}

static int matches(const uint8_t *w, size_t n, const uint8_t *pattern, size_t m)
{
    if (n != m) return 0;
    for (size_t k = 0; k < n; k++)
        if (pattern[k] && pattern[k] != w[k]) return 0;
    return 1;
}

/* The set of distinct words in an output (blank flags stripped) must be exactly the dict words
 * that `want` accepts. */
static void compare(const uint8_t *out, size_t size, const query *q)
{
    /* each output word is a dict word the oracle accepts */
    size_t start = 0;
    uint8_t found[WORD_COUNT] = {0};
    for (size_t i = 0; i < size; i++) {
        if (out[i] != 0) continue;
        uint8_t w[MAX_LEN];
        size_t n = i - start;
        for (size_t k = 0; k < n; k++) w[k] = out[start + k] & 0x7F;
        size_t index = dict_count;
        for (size_t d = 0; d < dict_count; d++)
            if (dict_len[d] == n && memcmp(dict[d], w, n) == 0) index = d;
        CHECK(index < dict_count, "query kind %d returned a non-word", q->kind);
        if (index < dict_count) found[index] = 1;
        start = i + 1;
    }
    for (size_t d = 0; d < dict_count; d++) {
        int want;
        if (q->kind == 0) {
            unsigned tiles = 0;
            for (int c = 0; c < 64; c++) tiles += q->counts[c];
            want = multiset_fits(dict[d], dict_len[d], q->counts) && (q->partial || dict_len[d] == tiles);
        } else if (q->kind == 1) {
            want = matches(dict[d], dict_len[d], q->codes, q->length);
        } else {
            want = contains_sub(dict[d], dict_len[d], q->codes, q->length);
        }
        CHECK(want == found[d], "query kind %d: dictionary word %zu: expected %d", q->kind, d, want);
    }
}

static void test_embedded(uint8_t **file_out, size_t *size_out)
{
    make_dict();
    /* words separated by 0 bytes, with empty words (double zeros) and no trailing zero */
    uint8_t words[4096];
    size_t used = 0;
    words[used++] = 0;
    for (size_t i = 0; i < WORD_COUNT; i++) {
        used += encode(WORDS[i], words + used);
        words[used++] = 0;
        if (i % 7 == 0) words[used++] = 0;
    }
    used--; /* drop the final separator */
    size_t alpha_size;
    uint8_t *alphabet = english_alphabet(&alpha_size);
    uint8_t *file = NULL;
    size_t size = 0;
    gd_build_stats stats;
    gd_build_progress progress;
    gd_error err;
    int rc = gd_build(words, used, 26, alphabet, alpha_size, (const uint8_t *)"sanitized", 9, &file, &size, &stats,
                      &progress, &err);
    CHECK(rc == GD_OK, "build: %s", err.message);
    if (rc != GD_OK) exit(1);
    CHECK(stats.word_count == dict_count, "word count %u, want %zu", stats.word_count, dict_count);
    CHECK(stats.file_size == size, "file size");
    CHECK(stats.arc_count <= stats.arc_count_unshared, "arcs %u > unshared %u", stats.arc_count,
          stats.arc_count_unshared);
    CHECK(stats.max_word_length == 15, "longest %u", stats.max_word_length);
    CHECK(progress.phase == 5, "progress phase %u at the end", progress.phase);
    CHECK(gd_crc32(file, size - 4) ==
              ((uint32_t)file[size - 4] | (uint32_t)file[size - 3] << 8 | (uint32_t)file[size - 2] << 16 |
               (uint32_t)file[size - 1] << 24),
          "stored CRC");
    CHECK(gd_crc32((const uint8_t *)"123456789", 9) == 0xCBF43926u, "CRC-32 check value");
    CHECK(gd_crc32(NULL, 0) == 0, "CRC of nothing");

    gd_lexicon lex;
    void *scratch = malloc(gd_validate_scratch_size(size));
    rc = gd_lexicon_open(&lex, file, size, scratch, &err);
    CHECK(rc == GD_OK, "open: %s at %llu", err.message, (unsigned long long)err.offset);
    if (rc != GD_OK) exit(1);
    CHECK(lex.word_count == dict_count && lex.arc_count == stats.arc_count && lex.state_count == stats.state_count,
          "opened counts");

    /* contains: every word, every word with one letter changed, every proper prefix */
    for (size_t d = 0; d < dict_count; d++) {
        CHECK(gd_contains(&lex, dict[d], dict_len[d]) == 1, "word %zu missing", d);
        uint8_t w[MAX_LEN + 1];
        memcpy(w, dict[d], dict_len[d]);
        for (size_t k = 0; k < dict_len[d]; k++) {
            uint8_t keep = w[k];
            for (uint8_t c = 1; c <= 26; c += 5) {
                w[k] = c;
                CHECK(gd_contains(&lex, w, dict_len[d]) == in_dict(w, dict_len[d]), "mutated word %zu", d);
            }
            w[k] = keep;
            CHECK(gd_contains(&lex, w, k) == (k > 0 && in_dict(w, k)), "prefix of word %zu", d);
        }
        w[dict_len[d]] = 19; /* + S */
        CHECK(gd_contains(&lex, w, dict_len[d] + 1) == in_dict(w, dict_len[d] + 1), "word %zu + S", d);
    }
    uint8_t bad[2] = {27, 1};
    CHECK(gd_contains(&lex, bad, 2) == 0, "code 27");
    CHECK(gd_contains(NULL, bad, 1) == 0, "NULL lexicon");

    /* anagrams, patterns, substrings against brute force */
    query q;
    size_t out_size;
    uint32_t out_words;
    for (int t = 0; t < 300; t++) {
        memset(&q, 0, sizeof q);
        q.kind = t % 3;
        size_t pick = below((uint32_t)dict_count);
        const uint8_t *w = dict[pick];
        size_t wn = dict_len[pick];
        if (q.kind == 0) {
            for (size_t k = 0; k < wn; k++) q.counts[below(5) == 0 ? 0 : w[k]]++;
            if (below(3) == 0) q.counts[1 + below(26)]++;
            q.partial = (t / 3) & 1;
        } else if (q.kind == 1) {
            q.length = wn;
            for (size_t k = 0; k < wn; k++) q.codes[k] = below(2) ? 0 : w[k];
            if (below(5) == 0) q.codes[below((uint32_t)wn)] = (uint8_t)(1 + below(26));
        } else {
            size_t from = below((uint32_t)wn);
            q.length = 1 + below((uint32_t)(wn - from));
            memcpy(q.codes, w + from, q.length);
            if (below(6) == 0) q.codes[0] = (uint8_t)(1 + below(26));
        }
        uint8_t *out = query_all_ways(&lex, &q, &out_size, &out_words);
        CHECK(out != NULL, "query kind %d refused", q.kind);
        if (out) compare(out, out_size, &q);
        free(out);
    }

    /* refused arguments */
    size_t needed;
    uint32_t count;
    uint8_t codes[3] = {1, 27, 2};
    CHECK(gd_pattern(&lex, codes, 3, NULL, 0, &needed, &count) == GD_ERR_ARGUMENT, "pattern with code 27");
    CHECK(gd_containing(&lex, codes, 3, NULL, 0, &needed, &count) == GD_ERR_ARGUMENT, "containing code 27");
    codes[1] = 0;
    CHECK(gd_containing(&lex, codes, 3, NULL, 0, &needed, &count) == GD_ERR_ARGUMENT, "containing a separator");
    CHECK(gd_containing(&lex, codes, 0, NULL, 0, &needed, &count) == GD_ERR_ARGUMENT, "containing nothing");
    CHECK(gd_pattern(&lex, codes, 0, NULL, 0, &needed, &count) == GD_OK && count == 0, "empty pattern");
    CHECK(gd_anagrams(NULL, q.counts, 1, NULL, 0, &needed, &count) == GD_ERR_ARGUMENT, "anagrams NULL lexicon");
    CHECK(gd_anagrams(&lex, NULL, 1, NULL, 0, &needed, &count) == GD_ERR_ARGUMENT, "anagrams NULL rack");

    /* open: bad arguments */
    gd_lexicon other;
    CHECK(gd_lexicon_open(NULL, file, size, scratch, &err) == GD_ERR_ARGUMENT, "NULL lexicon struct");
    CHECK(gd_lexicon_open(&other, NULL, 10, scratch, &err) == GD_ERR_ARGUMENT, "NULL data");
    uint8_t *shifted = malloc(size + 1);
    memcpy(shifted + 1, file, size);
    CHECK(gd_lexicon_open(&other, shifted + 1, size, scratch, NULL) == GD_ERR_ARGUMENT, "misaligned data");
    free(shifted);
    CHECK(gd_lexicon_open(&other, file, size, NULL, NULL) == GD_OK, "open without scratch or error");

    exercise(&lex);
    free(scratch);
    *file_out = file;
    *size_out = size;
}

/* ---- 2. the builder on random and odd inputs ------------------------------------------------------ */

static void open_and_exercise(const uint8_t *file, size_t size, int expect_ok)
{
    gd_lexicon lex;
    gd_error err;
    void *scratch = malloc(gd_validate_scratch_size(size));
    int rc = gd_lexicon_open(&lex, file, size, scratch, &err);
    if (expect_ok) CHECK(rc == GD_OK, "a built file does not open: %s", err.message);
    if (rc == GD_OK) exercise(&lex);
    free(scratch);
}

static void test_builder(void)
{
    size_t alpha_size;
    uint8_t *alphabet = english_alphabet(&alpha_size);
    uint8_t *file;
    size_t size;
    gd_error err;
    uint8_t words[2048];

    /* refused inputs */
    CHECK(gd_build(NULL, 0, 26, alphabet, alpha_size, NULL, 0, &file, &size, NULL, NULL, &err) == GD_ERR_EMPTY,
          "no words");
    words[0] = words[1] = 0;
    CHECK(gd_build(words, 2, 26, alphabet, alpha_size, NULL, 0, &file, &size, NULL, NULL, &err) == GD_ERR_EMPTY,
          "only empty words");
    words[0] = 27;
    CHECK(gd_build(words, 1, 26, alphabet, alpha_size, NULL, 0, &file, &size, NULL, NULL, &err) == GD_ERR_ARGUMENT,
          "code 27");
    memset(words, 1, 33);
    CHECK(gd_build(words, 33, 26, alphabet, alpha_size, NULL, 0, &file, &size, NULL, NULL, &err) == GD_ERR_ARGUMENT,
          "33 letters");
    CHECK(gd_build(words, 1, 0, alphabet, 0, NULL, 0, &file, &size, NULL, NULL, &err) == GD_ERR_ARGUMENT,
          "alphabet size 0");
    CHECK(gd_build(words, 1, 26, alphabet, alpha_size - 1, NULL, 0, &file, &size, NULL, NULL, &err) ==
              GD_ERR_ARGUMENT,
          "alphabet bytes short");
    CHECK(gd_build(words, 1, 27, alphabet, alpha_size, NULL, 0, &file, &size, NULL, NULL, &err) == GD_ERR_ARGUMENT,
          "alphabet entries short");
    uint8_t long_name[256];
    memset(long_name, 'n', sizeof long_name);
    CHECK(gd_build(words, 1, 26, alphabet, alpha_size, long_name, 256, &file, &size, NULL, NULL, &err) ==
              GD_ERR_ARGUMENT,
          "name of 256 bytes");
    CHECK(gd_build(words, 1, 26, alphabet, alpha_size, NULL, 0, NULL, &size, NULL, NULL, &err) == GD_ERR_ARGUMENT,
          "no output pointer");

    /* no name at all is allowed (NULL, 0) */
    words[0] = 1;
    CHECK(gd_build(words, 1, 26, alphabet, alpha_size, (const uint8_t *)"", 0, &file, &size, NULL, NULL, &err) ==
              GD_OK,
          "empty name: %s", err.message);
    open_and_exercise(file, size, 1);
    gd_free(file);

    /* 32 letters and a 255-byte name */
    memset(words, 2, 32);
    CHECK(gd_build(words, 32, 26, alphabet, alpha_size, long_name, 255, &file, &size, NULL, NULL, &err) == GD_OK,
          "32 letters: %s", err.message);
    open_and_exercise(file, size, 1);
    gd_free(file);

    /* 63 letters (63 distinct one-byte letters) */
    uint8_t big_alphabet[63 * 2];
    for (int c = 0; c < 63; c++) {
        big_alphabet[2 * c] = 1;
        big_alphabet[2 * c + 1] = (uint8_t)('!' + c);
    }
    size_t used = 0;
    for (int c = 1; c <= 63; c++) {
        words[used++] = (uint8_t)c;
        words[used++] = (uint8_t)(64 - c);
        words[used++] = 0;
    }
    CHECK(gd_build(words, used, 63, big_alphabet, sizeof big_alphabet, (const uint8_t *)"63", 2, &file, &size, NULL,
                   NULL, &err) ==
              GD_OK,
          "63 letters: %s", err.message);
    open_and_exercise(file, size, 1);
    gd_free(file);

    /* random lists on small alphabets */
    for (int t = 0; t < 300; t++) {
        uint32_t n = 1 + below(6);
        uint32_t count = 1 + below(60);
        used = 0;
        for (uint32_t w = 0; w < count; w++) {
            uint32_t len = 1 + below(t % 10 == 0 ? 32 : 9);
            for (uint32_t k = 0; k < len; k++) words[used++] = (uint8_t)(1 + below(n));
            words[used++] = 0;
        }
        gd_build_stats stats;
        int rc = gd_build(words, used, n, alphabet, 2 * n, (const uint8_t *)"r", 1, &file, &size, &stats, NULL, &err);
        CHECK(rc == GD_OK, "random build %d: %s", t, err.message);
        if (rc != GD_OK) continue;
        open_and_exercise(file, size, 1);
        gd_free(file);
    }
}

/* ---- 3. damaged copies -------------------------------------------------------------------------------- */

static unsigned long opened_count, attempts;

static void put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static void fix_crc(uint8_t *data, size_t size)
{
    if (size >= 4) put_u32(data + size - 4, gd_crc32(data, size - 4));
}

/* The header check on a file's first bytes alone (a block of exactly that many, so ASan sees any
 * read past them) must agree with the full open: it refuses what the open refuses in its first
 * steps, with the same message and offset, and passes whatever the open accepts. */
typedef int (*header_check)(const uint8_t *, size_t, uint64_t, gd_error *);

static void agree_with_header_check(header_check check, size_t fixed, const uint8_t *bytes, size_t size, int open_rc,
                                    const gd_error *open_err)
{
    size_t head_size = size < fixed ? size : fixed;
    uint8_t *head = malloc(head_size ? head_size : 1);
    if (head_size) memcpy(head, bytes, head_size);
    gd_error err;
    int rc = check(head, head_size, size, &err);
    if (open_rc == GD_OK) CHECK(rc == GD_OK, "the header check refused a file that opens: %s", err.message);
    if (rc != GD_OK)
        CHECK(rc == open_rc && err.offset == open_err->offset && strcmp(err.message, open_err->message) == 0,
              "header check %d '%s' at %llu, open %d '%s' at %llu", rc, err.message, (unsigned long long)err.offset,
              open_rc, open_err->message, (unsigned long long)open_err->offset);
    free(head);
}

/* Open a copy in a block of exactly `size` bytes, with and without scratch; query if it opens. */
static void try_open(const uint8_t *bytes, size_t size)
{
    uint8_t *copy = malloc(size ? size : 1);
    if (size) memcpy(copy, bytes, size);
    void *scratch = malloc(gd_validate_scratch_size(size));
    for (int with_scratch = 0; with_scratch < 2; with_scratch++) {
        gd_lexicon lex;
        gd_error err;
        memset(&err, 0x55, sizeof err);
        attempts++;
        int rc = gd_lexicon_open(&lex, copy, size, with_scratch ? scratch : NULL, &err);
        if (with_scratch) agree_with_header_check(gd_lexicon_check_header, GD_HEADER_FIXED_SIZE, copy, size, rc, &err);
        if (rc == GD_OK) {
            opened_count++;
            exercise(&lex);
        } else {
            CHECK(rc == GD_ERR_FORMAT, "rc %d", rc);
            CHECK(memchr(err.message, 0, sizeof err.message) != NULL && err.message[0] != 0, "error message");
            CHECK(err.offset <= size, "error offset %llu beyond %zu bytes", (unsigned long long)err.offset, size);
        }
    }
    free(scratch);
    free(copy);
}

/* The damage every file format gets: every byte flipped (all bits and one bit, the CRC as is and
 * recomputed), every truncation, and the file extended by 4 and 64 zero bytes. `work` holds
 * size + 64 bytes. */
static void damage_bytes_and_ends(const uint8_t *file, size_t size, uint8_t *work,
                                  void (*open)(const uint8_t *, size_t))
{
    for (size_t i = 0; i < size; i++) {
        for (int variant = 0; variant < 4; variant++) {
            memcpy(work, file, size);
            work[i] ^= (uint8_t)(variant < 2 ? 0xFF : 1u << below(8));
            if (variant & 1) fix_crc(work, size);
            open(work, size);
        }
    }
    for (size_t n = 0; n < size; n++) open(file, n);
    memcpy(work, file, size);
    memset(work + size, 0, 64);
    open(work, size + 4);
    open(work, size + 64);
}

static void test_damage(const uint8_t *file, size_t size)
{
    uint8_t *work = malloc(size + 64);
    pristine = 0;
    damage_bytes_and_ends(file, size, work, try_open);
    /* truncations with the size field, arc count and CRC made to fit */
    for (size_t n = 0; n < size; n++) {
        if (n >= 44 && n % 4 == 0) {
            uint32_t header = (uint32_t)file[10] | (uint32_t)file[11] << 8;
            if (n > header + 8) {
                memcpy(work, file, n);
                put_u32(work + 16, (uint32_t)n);
                put_u32(work + 28, (uint32_t)((n - header - 4) / 4));
                fix_crc(work, n);
                try_open(work, n);
            }
        }
    }
    /* random multi-byte damage, fixed seed */
    for (int t = 0; t < 6000; t++) {
        memcpy(work, file, size);
        int flips = 1 + (int)below(8);
        int arcs_only = t % 3 == 0;
        uint32_t header = (uint32_t)file[10] | (uint32_t)file[11] << 8;
        for (int f = 0; f < flips; f++) {
            size_t at = arcs_only ? header + below((uint32_t)(size - header - 4)) : below((uint32_t)size);
            if (below(2)) work[at] ^= (uint8_t)(1u << below(8));
            else work[at] = (uint8_t)rnd();
        }
        if (t % 4 != 0) fix_crc(work, size);
        try_open(work, size);
    }
    free(work);
}

/* ---- 4. leave tables ------------------------------------------------------------------------------ */

static unsigned long leaves_opened;

/* Entry order: by size, then the tiles' codes written ascending, compared as strings. */
static int leave_before(const uint8_t *a, const uint8_t *b, uint32_t n)
{
    uint8_t sa[GD_MAX_LEAVE + 1], sb[GD_MAX_LEAVE + 1];
    uint32_t la = 0, lb = 0;
    for (uint32_t c = 0; c <= n; c++) {
        for (uint32_t j = 0; j < a[c] && la <= GD_MAX_LEAVE; j++) sa[la++] = (uint8_t)c;
        for (uint32_t j = 0; j < b[c] && lb <= GD_MAX_LEAVE; j++) sb[lb++] = (uint8_t)c;
    }
    if (la != lb) return la < lb;
    return memcmp(sa, sb, la) < 0;
}

/* Every entry: tiles -> index round trip, strictly increasing order, the value it stores. */
static void exercise_leaves(const gd_leaves *lv, int check_order)
{
    uint8_t prev[64] = {0}, counts[64];
    for (uint32_t i = 0; i < lv->count; i++) {
        memset(counts, 0xAA, sizeof counts);
        int rc = gd_leaves_tiles(lv, i, counts);
        CHECK(rc == GD_OK, "tiles of entry %u", i);
        if (rc != GD_OK) return;
        uint32_t back = UINT32_MAX;
        CHECK(gd_leaves_index(lv, counts, &back) == GD_OK && back == i, "entry %u comes back as %u", i, back);
        CHECK(gd_leaves_value(lv, counts) == lv->values[i], "value of entry %u", i);
        if (check_order && i) CHECK(leave_before(prev, counts, lv->alphabet_size), "entry %u out of order", i);
        memcpy(prev, counts, sizeof prev);
    }
    uint32_t index;
    memset(counts, 0, sizeof counts);
    CHECK(gd_leaves_index(lv, counts, &index) == GD_ERR_ARGUMENT, "the empty leave has no entry");
    CHECK(gd_leaves_value(lv, counts) == 0, "the empty leave is worth 0");
    CHECK(gd_leaves_tiles(lv, lv->count, counts) == GD_ERR_ARGUMENT, "entry past the end");
    counts[0] = (uint8_t)(lv->limit[0] + 1);
    CHECK(gd_leaves_index(lv, counts, &index) == GD_ERR_ARGUMENT, "over the blank limit");
}

static void try_open_leaves(const uint8_t *bytes, size_t size)
{
    uint8_t *copy = malloc(size ? size : 1);
    if (size) memcpy(copy, bytes, size);
    gd_leaves lv;
    gd_error err;
    memset(&err, 0x55, sizeof err);
    int rc = gd_leaves_open(&lv, copy, size, &err);
    agree_with_header_check(gd_leaves_check_header, GD_LEAVES_FIXED_SIZE, copy, size, rc, &err);
    if (rc == GD_OK) {
        leaves_opened++;
        exercise_leaves(&lv, 1);
    } else {
        CHECK(rc == GD_ERR_FORMAT, "leaves rc %d", rc);
        CHECK(memchr(err.message, 0, sizeof err.message) != NULL && err.message[0] != 0, "leaves error message");
        CHECK(err.offset <= size, "leaves error offset %llu beyond %zu", (unsigned long long)err.offset, size);
    }
    free(copy);
}

static void test_leaves(void)
{
    const uint32_t tiles[6] = {2, 3, 1, 0, 4, 2}; /* 2 blanks, 5 letters (one with no tiles) */
    uint64_t count = gd_leaves_count(tiles, 5, 4);
    /* brute force: every counts vector within the limits, 1..4 tiles */
    uint64_t brute = 0;
    for (uint32_t a = 0; a <= 2; a++)
        for (uint32_t b = 0; b <= 3; b++)
            for (uint32_t c = 0; c <= 1; c++)
                for (uint32_t e = 0; e <= 4; e++)
                    for (uint32_t f = 0; f <= 2; f++) brute += a + b + c + e + f >= 1 && a + b + c + e + f <= 4;
    CHECK(count == brute, "gd_leaves_count %llu, brute force %llu", (unsigned long long)count, (unsigned long long)brute);
    int16_t *values = malloc(count * sizeof *values);
    for (uint64_t i = 0; i < count; i++) values[i] = (int16_t)((int)(i * 37 % 65535) - 32767);
    uint8_t *file = NULL;
    size_t size = 0;
    gd_error err;
    int rc = gd_leaves_build(tiles, 5, 4, (const uint8_t *)"tiny", 4, values, count, &file, &size, &err);
    CHECK(rc == GD_OK, "build leaves: %s", err.message);
    if (rc != GD_OK) return;
    gd_leaves lv;
    rc = gd_leaves_open(&lv, file, size, &err);
    CHECK(rc == GD_OK, "open leaves: %s", err.message);
    if (rc == GD_OK) {
        CHECK(lv.count == count, "count");
        for (uint64_t i = 0; i < count; i++) CHECK(lv.values[i] == values[i], "value %llu", (unsigned long long)i);
        exercise_leaves(&lv, 1);
    }
    /* the builder refuses what it cannot write */
    uint8_t *none = NULL;
    size_t none_size = 0;
    CHECK(gd_leaves_build(tiles, 5, 4, (const uint8_t *)"tiny", 4, values, count - 1, &none, &none_size, &err) ==
              GD_ERR_ARGUMENT, "short values");
    CHECK(gd_leaves_build(tiles, 5, 16, (const uint8_t *)"tiny", 4, values, count, &none, &none_size, &err) ==
              GD_ERR_ARGUMENT, "leave too long");
    CHECK(gd_leaves_build(tiles, 5, 4, (const uint8_t *)"", 0, values, count, &none, &none_size, &err) ==
              GD_ERR_ARGUMENT, "no ruleset name");
    values[3] = INT16_MIN;
    CHECK(gd_leaves_build(tiles, 5, 4, (const uint8_t *)"tiny", 4, values, count, &none, &none_size, &err) ==
              GD_ERR_ARGUMENT, "reserved value");
    CHECK(none == NULL, "no output on failure");
    const uint32_t huge[64] = {1024, 1024, 1024, 1024, 1024, 1024, 1024, 1024, 1024, 1024, 1024, 1024, 1024,
                               1024, 1024, 1024, 1024, 1024, 1024, 1024, 1024, 1024, 1024, 1024, 1024, 1024,
                               1024, 1024, 1024, 1024, 1024, 1024, 1024, 1024, 1024, 1024, 1024, 1024, 1024};
    CHECK(gd_leaves_count(huge, 38, 15) == 0, "over 2^31 leaves is reported as 0");
    free(values);

    /* damaged copies: every byte (all bits, one bit; CRC as is and recomputed), every truncation,
     * extensions, random multi-byte damage */
    uint8_t *work = malloc(size + 64);
    damage_bytes_and_ends(file, size, work, try_open_leaves);
    for (int t = 0; t < 3000; t++) {
        memcpy(work, file, size);
        for (int f = 1 + (int)below(6); f > 0; f--) work[below((uint32_t)size)] ^= (uint8_t)rnd();
        if (t % 2) fix_crc(work, size);
        try_open_leaves(work, size);
    }
    /* a hostile header: the largest tile set with its size field and CRC made to fit */
    memcpy(work, file, 28);
    work[24] = 63;
    work[25] = 15;
    work[26] = 4;
    try_open_leaves(work, 28);
    free(work);
    gd_free(file);
    CHECK(leaves_opened >= 1, "the pristine leave table never reopened");
}

/* ---- 5. the DAWG: its words, Appel & Jacobson's generator against the GADDAG's, damaged copies --- */

static unsigned long dawg_opened, dawg_positions;

static int move_order(const void *a, const void *b) { return memcmp(a, b, sizeof(gd_move)); }

/* Rules, a random board through the middle (some blank tiles) and a random rack for 9x9 play. */
static void random_position(gd_rules *rules, unsigned alphabet_size, uint8_t *board, uint8_t *rack, int round)
{
    memset(rules, 0, sizeof *rules);
    rules->rows = rules->cols = 9;
    rules->rack_size = 7;
    rules->bingo_bonus = 50;
    rules->start_row = rules->start_col = 4;
    for (unsigned c = 0; c <= alphabet_size; c++) rules->values[c] = (int32_t)(c % 11);
    for (unsigned sq = 0; sq < 81; sq++) {
        rules->letter_multiplier[sq] = (uint8_t)(1 + sq % 3 * (sq % 7 == 0));
        rules->word_multiplier[sq] = (uint8_t)(1 + (sq % 10 == 0));
    }
    memset(board, 0, 81);
    for (int k = 0; round && k < 9; k++) {
        if (below(3)) board[4 * 9 + k] = (uint8_t)((1 + below(alphabet_size)) | (below(5) ? 0 : GD_BLANK_FLAG));
        if (round > 1 && below(2)) board[k * 9 + 4] = (uint8_t)(1 + below(alphabet_size));
    }
    memset(rack, 0, 64);
    for (unsigned k = 1 + below(7); k > 0; k--) rack[below(4) == 0 ? 0 : 1 + below(alphabet_size)]++;
}

/* Generate on random boards with the DAWG (its walk index exactly its size, so a read past it is
 * reported); with `gaddag`, the plays must be the GADDAG generator's, move for move. */
static void dawg_generate_on(const gd_lexicon *opened, const gd_lexicon *gaddag, int rounds)
{
    gd_lexicon dawg = *opened;
    gd_error err;
    size_t index_size = gd_walk_index_size(&dawg);
    uint64_t *index = malloc(index_size);
    CHECK(gd_build_walk_index(&dawg, index, index_size, &err) == GD_OK, "DAWG walk index: %s", err.message);
    void *workspace = malloc(gd_dawg_workspace_size());
    void *gaddag_workspace = malloc(gd_workspace_size());
    static gd_move moves[8192], expected[8192];
    static gd_rules rules;
    uint8_t board[81], rack[64];
    for (int round = 0; round < rounds; round++) {
        random_position(&rules, dawg.alphabet_size, board, rack, round % 3);
        CHECK(gd_dawg_prepare(&dawg, &rules, board, workspace, &err) == GD_OK, "DAWG prepare: %s", err.message);
        size_t all = 0, across = 0, down = 0, counted = 0;
        gd_work work;
        CHECK(gd_dawg_generate(&dawg, &rules, board, workspace, rack, GD_DIRECTIONS_BOTH, moves, 8192, &all, &work,
                               &err) == GD_OK, "%s", err.message);
        CHECK(gd_dawg_generate(&dawg, &rules, board, workspace, rack, GD_DIRECTIONS_ACROSS, NULL, 0, &across, NULL,
                               &err) == GD_OK, "%s", err.message);
        CHECK(gd_dawg_generate(&dawg, &rules, board, workspace, rack, GD_DIRECTIONS_DOWN, NULL, 0, &down, NULL,
                               &err) == GD_OK, "%s", err.message);
        CHECK(across + down == all, "across %zu + down %zu != %zu", across, down, all);
        CHECK(work.dead_ends <= work.arcs, "work: %llu arcs, %llu dead ends, %zu plays",
              (unsigned long long)work.arcs, (unsigned long long)work.dead_ends, all);
        if (!gaddag || all > 8192) continue;
        CHECK(gd_prepare(gaddag, &rules, board, gaddag_workspace, &err) == GD_OK, "%s", err.message);
        CHECK(gd_generate(gaddag, &rules, board, gaddag_workspace, rack, 0, expected, 8192, &counted, &err) == GD_OK,
              "%s", err.message);
        CHECK(counted == all, "the DAWG generator found %zu plays, the GADDAG's %zu", all, counted);
        if (counted != all) continue;
        qsort(moves, all, sizeof *moves, move_order);
        qsort(expected, all, sizeof *expected, move_order);
        CHECK(memcmp(moves, expected, all * sizeof *moves) == 0, "the DAWG and GADDAG plays differ");
        dawg_positions++;
        /* each generator refuses the other's lexicon, and nonsense directions */
        CHECK(gd_prepare(&dawg, &rules, board, gaddag_workspace, &err) == GD_ERR_ARGUMENT, "GADDAG prepare on a DAWG");
        CHECK(gd_dawg_prepare(gaddag, &rules, board, workspace, &err) == GD_ERR_ARGUMENT, "DAWG prepare on a GADDAG");
        CHECK(gd_dawg_generate(&dawg, &rules, board, workspace, rack, 3, NULL, 0, &all, NULL, &err) == GD_ERR_ARGUMENT,
              "direction 3");
        CHECK(gd_dawg_generate(&dawg, &rules, board, gaddag_workspace, rack, 0, NULL, 0, &all, NULL, &err) ==
                  GD_ERR_ARGUMENT, "a GADDAG workspace given to the DAWG generator");
    }
    free(gaddag_workspace);
    free(workspace);
    free(index);
}

static void try_open_dawg(const uint8_t *bytes, size_t size)
{
    uint8_t *copy = malloc(size ? size : 1);
    if (size) memcpy(copy, bytes, size);
    void *scratch = malloc(gd_validate_scratch_size(size));
    gd_lexicon dawg;
    gd_error err;
    int rc = gd_dawg_open(&dawg, copy, size, scratch, &err);
    agree_with_header_check(gd_dawg_check_header, GD_HEADER_FIXED_SIZE, copy, size, rc, &err);
    if (rc == GD_OK) {
        dawg_opened++;
        uint8_t word[8];
        for (int t = 0; t < 8; t++) {
            size_t len = 1 + below(8);
            for (size_t k = 0; k < len; k++) word[k] = (uint8_t)(1 + below(dawg.alphabet_size));
            gd_dawg_contains(&dawg, word, len);
        }
        dawg_generate_on(&dawg, NULL, 1);
    } else {
        CHECK(rc == GD_ERR_FORMAT && err.message[0], "rc %d", rc);
    }
    free(scratch);
    free(copy);
}

static void test_dawg(const uint8_t *gaddag_file, size_t gaddag_size)
{
    uint8_t words[4096];
    size_t used = 0;
    for (size_t i = 0; i < dict_count; i++) {
        memcpy(words + used, dict[i], dict_len[i]);
        used += dict_len[i];
        words[used++] = 0;
    }
    size_t alpha_size;
    uint8_t *alphabet = english_alphabet(&alpha_size);
    uint8_t *file = NULL;
    size_t size = 0;
    gd_build_stats stats;
    gd_error err;
    int rc = gd_dawg_build(words, used, 26, alphabet, alpha_size, (const uint8_t *)"dawg", 4, &file, &size, &stats,
                           NULL, &err);
    CHECK(rc == GD_OK, "DAWG build: %s", err.message);
    if (rc != GD_OK) return;
    CHECK(stats.word_count == dict_count, "DAWG words %u, want %zu", stats.word_count, dict_count);
    gd_lexicon dawg, gaddag;
    void *scratch = malloc(gd_validate_scratch_size(size > gaddag_size ? size : gaddag_size));
    CHECK(gd_dawg_open(&dawg, file, size, scratch, &err) == GD_OK, "DAWG open: %s", err.message);
    CHECK(gd_lexicon_open(&gaddag, file, size, scratch, &err) == GD_ERR_FORMAT && err.offset == 0,
          "a .dawg file opened as a .gaddag");
    CHECK(gd_dawg_open(&gaddag, gaddag_file, gaddag_size, scratch, &err) == GD_ERR_FORMAT, "a .gaddag opened as a DAWG");
    CHECK(gd_lexicon_open(&gaddag, gaddag_file, gaddag_size, scratch, &err) == GD_OK, "%s", err.message);
    for (size_t i = 0; i < dict_count; i++) CHECK(gd_dawg_contains(&dawg, dict[i], dict_len[i]), "word %zu", i);
    for (int t = 0; t < 5000; t++) {
        uint8_t word[6];
        size_t len = 1 + below(6);
        for (size_t k = 0; k < len; k++) word[k] = (uint8_t)(1 + below(26));
        CHECK(gd_dawg_contains(&dawg, word, len) == in_dict(word, len), "membership of a random word");
    }
    size_t gaddag_index_size = gd_walk_index_size(&gaddag);
    uint64_t *gaddag_index = malloc(gaddag_index_size);
    CHECK(gd_build_walk_index(&gaddag, gaddag_index, gaddag_index_size, &err) == GD_OK, "%s", err.message);
    for (int round = 0; round < 20; round++) dawg_generate_on(&dawg, &gaddag, 6);
    CHECK(dawg_positions > 50, "only %lu positions compared", dawg_positions);
    free(gaddag_index);
    free(scratch);
    /* damaged copies */
    uint8_t *work = malloc(size + 64);
    damage_bytes_and_ends(file, size, work, try_open_dawg);
    for (int t = 0; t < 500; t++) {
        memcpy(work, file, size);
        for (int f = 1 + (int)below(6); f > 0; f--) work[below((uint32_t)size)] ^= (uint8_t)rnd();
        if (t % 2) fix_crc(work, size);
        try_open_dawg(work, size);
    }
    free(work);
    gd_free(file);
}

/* gd_build documents name = NULL with name_size = 0 as allowed (its argument check lets it
 * through); run alone so that a failure here is reported separately. */
static int test_null_name(void)
{
    size_t alpha_size;
    uint8_t *alphabet = english_alphabet(&alpha_size);
    uint8_t words[3] = {1, 0, 2};
    uint8_t *file = NULL;
    size_t size = 0;
    gd_error err;
    int rc = gd_build(words, sizeof words, 26, alphabet, alpha_size, NULL, 0, &file, &size, NULL, NULL, &err);
    CHECK(rc == GD_OK, "build without a name: %s", err.message);
    if (rc == GD_OK) open_and_exercise(file, size, 1);
    gd_free(file);
    if (failures) return 1;
    printf("OK: built without a name\n");
    return 0;
}

/* gd_lexicon_open lets data = NULL through when size is 0 (an empty file): it must say
 * "truncated" or "bad magic" without passing NULL to memcmp. */
static int test_null_data(void)
{
    gd_lexicon lex;
    gd_error err;
    int rc = gd_lexicon_open(&lex, NULL, 0, NULL, &err);
    CHECK(rc == GD_ERR_FORMAT, "empty input: rc %d", rc);
    if (failures) return 1;
    printf("OK: NULL, 0 rejected: %s\n", err.message);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "null-name") == 0) return test_null_name();
    if (argc > 1 && strcmp(argv[1], "null-data") == 0) return test_null_data();
    uint8_t *file;
    size_t size;
    test_embedded(&file, &size);
    test_builder();
    test_damage(file, size);
    test_dawg(file, size);
    gd_free(file);
    test_leaves();
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    CHECK(plays_checked > 1000, "only %lu generated plays checked", plays_checked);
    CHECK(simulations_run > 0 && endgames_solved > 0, "%lu simulations run, %lu endgames solved", simulations_run,
          endgames_solved);
    CHECK(bounded_positions > 50, "best with bounds checked on only %lu positions", bounded_positions);
    CHECK(words_checked > 100, "only %lu words looked up in the word maps", words_checked);
    if (failures) return 1;
    printf("OK: %zu-byte lexicon, %lu opens tried, %lu opened and queried, %lu plays checked, "
           "%lu damaged leave tables opened, %lu games (%lu turns, %lu best moves with bounds) played, %lu simulations, "
           "%lu endgames; DAWG: "
           "%lu positions agree with the GADDAG, %lu damaged copies opened\n", size, attempts, opened_count,
           plays_checked, leaves_opened, games_played, turns_played, bounded_positions, simulations_run, endgames_solved,
           dawg_positions, dawg_opened);
    return 0;
}

/*
 * libFuzzer target for the C loader and move generator, built with ASan and UBSan:
 *
 *   clang -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
 *       -Icsrc tests/fuzz/c/fuzz_lexicon.c $(find csrc -name '*.c') -o fuzz_lexicon
 *   ./fuzz_lexicon -max_total_time=60 WORK_CORPUS tests/fuzz/corpus/c_lexicon
 *
 * The first input byte picks whether the rest is opened as it is or forged first (the size field
 * and the CRC-32 made to match, as tests/fuzz/_common.py's forge does), so that mutations reach
 * the checks behind the checksum. A file gd_lexicon_open accepts is queried (contains, anagrams)
 * and handed to gd_prepare and gd_generate on a fixed 9x9 board with a few tiles and a rack with
 * both blanks. Any sanitizer report, a crash, a leak or a hang (-timeout) is a finding; an
 * opened file whose walk index or generation fails with anything but GD_OK is one too.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gaddag_solver.h"

static uint32_t crc32_of(const uint8_t *data, size_t size)
{
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < size; i++) {
        crc ^= data[i];
        for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

static void put_u32(uint8_t *at, uint32_t value)
{
    for (int k = 0; k < 4; k++) at[k] = (uint8_t)(value >> (8 * k));
}

static void generate(gd_lexicon *lex)
{
    gd_error err;
    size_t index_size = gd_walk_index_size(lex);
    uint64_t *index = malloc(index_size ? index_size : 8);
    if (gd_build_walk_index(lex, index, index_size, &err) != GD_OK) abort();

    static gd_rules rules;
    memset(&rules, 0, sizeof rules);
    rules.rows = rules.cols = 9;
    rules.rack_size = 7;
    rules.bingo_bonus = 50;
    rules.start_row = rules.start_col = 4;
    rules.alphabet_size = lex->alphabet_size;
    for (unsigned c = 0; c <= lex->alphabet_size; c++) rules.values[c] = (int32_t)(c % 11);
    for (unsigned sq = 0; sq < 81; sq++) {
        rules.letter_multiplier[sq] = (uint8_t)(1 + (sq % 7 == 0));
        rules.word_multiplier[sq] = (uint8_t)(1 + (sq % 10 == 0));
    }
    uint8_t board[81] = {0};
    unsigned n = lex->alphabet_size;
    for (unsigned k = 0; k < 3; k++) board[4 * 9 + 3 + k] = (uint8_t)(1 + (k * 5) % n); /* a row of tiles */
    board[2 * 9 + 4] = (uint8_t)(1 | GD_BLANK_FLAG);                                     /* and a floating blank */
    uint8_t rack[64] = {0};
    rack[0] = 2;
    for (unsigned k = 0; k < 5; k++) rack[1 + (k * 3) % n]++;

    void *workspace = malloc(gd_workspace_size());
    static gd_move moves[512];
    size_t count = 0;
    if (gd_prepare(lex, &rules, board, workspace, &err) != GD_OK) abort();
    if (gd_generate(lex, &rules, board, workspace, rack, 0, moves, 512, &count, &err) != GD_OK) abort();
    if (gd_generate(lex, &rules, board, workspace, rack, 5, moves, 5, &count, &err) != GD_OK) abort();
    free(workspace);
    free(index);
}

int LLVMFuzzerTestOneInput(const uint8_t *input, size_t size)
{
    if (size < 1) return 0;
    size_t length = size - 1;
    uint8_t *data = malloc(length ? length : 1); /* malloc: 4-byte aligned, as the loader needs */
    memcpy(data, input + 1, length);
    if ((input[0] & 1) && length >= 24) {
        put_u32(data + 16, (uint32_t)length);
        put_u32(data + length - 4, crc32_of(data, length - 4));
    }
    gd_lexicon lex;
    gd_error err;
    void *scratch = malloc(gd_validate_scratch_size(length) + 1);
    if (gd_lexicon_open(&lex, data, length, scratch, &err) == GD_OK) {
        uint8_t word[3] = {1, 2, 1};
        (void)gd_contains(&lex, word, 3);
        uint8_t counts[64] = {0};
        counts[0] = 1;
        counts[1] = 2;
        static uint8_t out[1 << 16];
        size_t needed = 0;
        uint32_t found = 0;
        (void)gd_anagrams(&lex, counts, 1, out, sizeof out, &needed, &found);
        generate(&lex);
    }
    free(scratch);
    free(data);
    return 0;
}

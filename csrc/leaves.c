/* leaves.c — leave tables: the .leaves file (read + validate, write) and the combinatorial
 * rank that maps a multiset of tiles to its entry. Format and rank: docs/leaves-format.md. */
#include <stdlib.h>
#include <string.h>

#include "gaddag_format.h"
#include "gaddag_solver.h"
#include "leaves_internal.h"

#define LV_MAGIC "\x89LEAVES\n"
#define LV_MAGIC_SIZE 8
#define LV_FIXED_SIZE GD_LEAVES_FIXED_SIZE /* the header up to the tile counts */
#define LV_MAX_COUNT (1u << 31) /* entries a table may hold */
#define LV_MAX_TILES_PER_CODE GD_MAX_TILES
#define LV_MAX_RULESET 64
#define LV_VALUE_MIN (-32767) /* -32768 is reserved: values are symmetric, ±327.67 */

#define FORMAT_ERROR(offset, ...) gd_set_error(err, GD_ERR_FORMAT, (uint64_t)(offset), __VA_ARGS__)
#define ARGUMENT_ERROR(...) gd_set_error(err, GD_ERR_ARGUMENT, 0, __VA_ARGS__)

/* ---- the rank ------------------------------------------------------------------------------- */

/*
 * ways[c][k]: how many multisets of exactly k tiles use only codes c..n, at most limit[c'] of
 * each code c'. ways[n+1][0] = 1; ways[c][k] = sum over j = 0..min(limit[c], k) of
 * ways[c+1][k-j]. Computed in 64 bits; returns the number of leaves of 1..max_leave tiles,
 * or 0 when a count passes LV_MAX_COUNT (then `ways` is only partly meaningful).
 */
static uint64_t fill_ways(const uint32_t *limit, uint32_t n, uint32_t max_leave,
                          uint64_t ways[GD_MAX_ALPHABET + 2][GD_MAX_LEAVE + 1])
{
    for (uint32_t k = 0; k <= max_leave; k++) ways[n + 1][k] = k == 0;
    for (uint32_t c = n + 1; c-- > 0;) {
        for (uint32_t k = 0; k <= max_leave; k++) {
            uint64_t sum = 0;
            for (uint32_t j = 0; j <= limit[c] && j <= k; j++) sum += ways[c + 1][k - j];
            /* every term is at most the count of size k, itself capped below */
            ways[c][k] = sum > LV_MAX_COUNT ? (uint64_t)LV_MAX_COUNT + 1 : sum;
        }
    }
    uint64_t total = 0;
    for (uint32_t k = 1; k <= max_leave; k++) total += ways[0][k];
    return total > LV_MAX_COUNT ? 0 : total;
}

static void limits_of(const uint32_t *tile_counts, uint32_t n, uint32_t max_leave, uint32_t *limit)
{
    for (uint32_t c = 0; c < 64; c++) limit[c] = c <= n ? (tile_counts[c] < max_leave ? tile_counts[c] : max_leave) : 0;
}

static int tile_set_ok(const uint32_t *tile_counts, uint32_t n, uint32_t max_leave)
{
    if (!tile_counts || n < 1 || n > GD_MAX_ALPHABET || max_leave < 1 || max_leave > GD_MAX_LEAVE) return 0;
    for (uint32_t c = 0; c <= n; c++)
        if (tile_counts[c] > LV_MAX_TILES_PER_CODE) return 0;
    return 1;
}

uint64_t gd_leaves_count(const uint32_t *tile_counts, uint32_t alphabet_size, uint32_t max_leave)
{
    if (!tile_set_ok(tile_counts, alphabet_size, max_leave)) return 0;
    uint32_t limit[64];
    uint64_t ways[GD_MAX_ALPHABET + 2][GD_MAX_LEAVE + 1];
    limits_of(tile_counts, alphabet_size, max_leave, limit);
    return fill_ways(limit, alphabet_size, max_leave, ways);
}

/* Fill the rank tables of `lv` from its tile set; returns the entry count (0: too many). */
static uint64_t prepare_rank(gd_leaves *lv, const uint32_t *tile_counts)
{
    uint64_t ways[GD_MAX_ALPHABET + 2][GD_MAX_LEAVE + 1];
    limits_of(tile_counts, lv->alphabet_size, lv->max_leave, lv->limit);
    uint64_t total = fill_ways(lv->limit, lv->alphabet_size, lv->max_leave, ways);
    if (total == 0) return 0;
    for (uint32_t c = 0; c <= lv->alphabet_size + 1; c++)
        for (uint32_t k = 0; k <= lv->max_leave; k++) lv->ways[c][k] = (uint32_t)ways[c][k];
    uint32_t offset = 0;
    lv->size_offset[0] = 0;
    for (uint32_t k = 1; k <= lv->max_leave + 1; k++) {
        lv->size_offset[k] = offset;
        if (k <= lv->max_leave) offset += lv->ways[0][k];
    }
    return total;
}

int gd_leaves_index(const gd_leaves *lv, const uint8_t *counts, uint32_t *index)
{
    if (!lv || !counts || !index || !lv->count) return GD_ERR_ARGUMENT;
    uint32_t n = lv->alphabet_size, size = 0;
    for (uint32_t c = 0; c <= n; c++) {
        if (counts[c] > lv->limit[c]) return GD_ERR_ARGUMENT;
        size += counts[c];
    }
    if (size < 1 || size > lv->max_leave) return GD_ERR_ARGUMENT;
    /* Leaves of one size are ordered as their sorted tile strings: at code c, a leave with
     * more copies of c comes first (its next tile is c, the other's is larger). So every
     * leave that agrees before c and has j > counts[c] copies of c precedes this one. */
    uint32_t rank = 0, left = size;
    for (uint32_t c = 0; c <= n && left; c++) {
        uint32_t top = lv->limit[c] < left ? lv->limit[c] : left;
        for (uint32_t j = counts[c] + 1u; j <= top; j++) rank += lv->ways[c + 1][left - j];
        left -= counts[c];
    }
    *index = lv->size_offset[size] + rank;
    return GD_OK;
}

int gd_leaves_tiles(const gd_leaves *lv, uint32_t index, uint8_t *counts)
{
    if (!lv || !counts || index >= lv->count) return GD_ERR_ARGUMENT;
    uint32_t n = lv->alphabet_size, size = 1;
    while (size < lv->max_leave && lv->size_offset[size + 1] <= index) size++;
    uint32_t rank = index - lv->size_offset[size], left = size;
    memset(counts, 0, n + 1);
    for (uint32_t c = 0; c <= n && left; c++) {
        uint32_t j = lv->limit[c] < left ? lv->limit[c] : left;
        for (;; j--) {
            uint32_t block = lv->ways[c + 1][left - j];
            if (rank < block) break;
            rank -= block;
            if (j == 0) return GD_ERR_ARGUMENT; /* unreachable for a validated table */
        }
        counts[c] = (uint8_t)j;
        left -= j;
    }
    return left == 0 && rank == 0 ? GD_OK : GD_ERR_ARGUMENT;
}

int32_t gd_leaves_value(const gd_leaves *lv, const uint8_t *counts)
{
    uint32_t index;
    if (!lv || !lv->values || gd_leaves_index(lv, counts, &index) != GD_OK) return 0;
    return lv->values[index];
}

int32_t gd_leaves_keep_value(const gd_leaves *lv, const uint8_t *counts)
{
    if (!lv || !lv->values || !counts) return 0;
    uint32_t tiles = 0;
    for (uint32_t c = 0; c <= lv->alphabet_size; c++) tiles += counts[c];
    if (tiles != lv->max_leave + 1) return gd_leaves_value(lv, counts);
    uint8_t less[64];
    memcpy(less, counts, lv->alphabet_size + 1u);
    int64_t sum = 0;
    for (uint32_t c = 0; c <= lv->alphabet_size; c++) {
        if (!counts[c]) continue;
        less[c]--;
        sum += (int64_t)counts[c] * gd_leaves_value(lv, less);
        less[c]++;
    }
    return gd_full_rack_value(sum, tiles);
}

/* ---- the file ---------------------------------------------------------------------------------- */

static uint32_t header_size_for(uint32_t n, uint32_t ruleset_length)
{
    uint32_t unpadded = LV_FIXED_SIZE + 2u * (n + 1u) + ruleset_length;
    return (unpadded + 3u) & ~3u;
}

static uint64_t file_size_for(uint32_t header_size, uint64_t count)
{
    return (uint64_t)header_size + ((2u * count + 3u) & ~3ull) + 4u;
}

static int ruleset_char_ok(uint8_t b) { return b > 0x20 && b < 0x7F; }

static const gd_file_kind leaves_file = {LV_MAGIC, ".leaves", GD_LEAVES_VERSION, LV_FIXED_SIZE};

/* Step 1 of the validation: what the fixed header (its first LV_FIXED_SIZE bytes, in `head`)
 * says, checked against the file's real size. */
static int check_fixed_header(const uint8_t *head, size_t head_size, uint64_t size, uint32_t *header_size,
                              gd_error *err)
{
    int rc = gd_check_prefix(head, head_size, size, &leaves_file, header_size, err);
    if (rc) return rc;
    uint32_t n = head[24], max_leave = head[25], ruleset_length = head[26];
    if (n < 1 || n > GD_MAX_ALPHABET)
        return FORMAT_ERROR(24, "alphabet size %u is out of range (1..%d)", n, GD_MAX_ALPHABET);
    if (max_leave < 1 || max_leave > GD_MAX_LEAVE)
        return FORMAT_ERROR(25, "longest leave %u is out of range (1..%d)", max_leave, GD_MAX_LEAVE);
    if (ruleset_length < 1 || ruleset_length > LV_MAX_RULESET)
        return FORMAT_ERROR(26, "ruleset name length %u is out of range (1..%d)", ruleset_length, LV_MAX_RULESET);
    if (head[27] != 0) return FORMAT_ERROR(27, "reserved header byte is %u, not 0", head[27]);
    if (*header_size != header_size_for(n, ruleset_length))
        return FORMAT_ERROR(10, "header size %u is wrong: %u letters and a %u-byte ruleset name need %u", *header_size,
                            n, ruleset_length, header_size_for(n, ruleset_length));
    if (*header_size > size)
        return FORMAT_ERROR(size, "truncated: %llu bytes, shorter than the %u-byte header", (unsigned long long)size,
                            *header_size);
    return GD_OK;
}

int gd_leaves_check_header(const uint8_t *head, size_t head_size, uint64_t file_size, gd_error *err)
{
    if (!head && head_size) return ARGUMENT_ERROR("no data given");
    uint32_t header_size;
    return check_fixed_header(head, head_size, file_size, &header_size, err);
}

int gd_leaves_open(gd_leaves *lv, const uint8_t *data, size_t size, gd_error *err)
{
    if (!lv) return ARGUMENT_ERROR("no leave-table structure given");
    memset(lv, 0, sizeof *lv);

    /* 1. fixed header */
    int rc = gd_check_in_place(data, size, &leaves_file, err);
    if (rc) return rc;
    uint32_t header_size;
    rc = check_fixed_header(data, size, size, &header_size, err);
    if (rc) return rc;
    uint32_t count = gd_get_u32(data + 20);
    uint32_t n = data[24], max_leave = data[25], ruleset_length = data[26];

    /* 2. tile set, ruleset name, padding */
    uint32_t tile_counts[64] = {0};
    for (uint32_t c = 0; c <= n; c++) {
        tile_counts[c] = gd_get_u16(data + LV_FIXED_SIZE + 2 * c);
        if (tile_counts[c] > LV_MAX_TILES_PER_CODE)
            return FORMAT_ERROR(LV_FIXED_SIZE + 2 * c, "tile count %u of code %u is over %d", tile_counts[c], c,
                                LV_MAX_TILES_PER_CODE);
    }
    uint32_t pos = LV_FIXED_SIZE + 2 * (n + 1);
    for (uint32_t i = 0; i < ruleset_length; i++)
        if (!ruleset_char_ok(data[pos + i]))
            return FORMAT_ERROR(pos + i, "ruleset name byte %u is 0x%02x, not printable ASCII", i, data[pos + i]);
    lv->ruleset_offset = pos;
    lv->ruleset_length = ruleset_length;
    for (pos += ruleset_length; pos < header_size; pos++)
        if (data[pos] != 0) return FORMAT_ERROR(pos, "header padding byte is %u, not 0", data[pos]);

    /* 3. the entry count is what the tile set implies, and fills the file exactly */
    lv->alphabet_size = n;
    lv->max_leave = max_leave;
    uint64_t expected = prepare_rank(lv, tile_counts);
    if (expected == 0)
        return FORMAT_ERROR(20, "the tile set has no leaves or more than %u of them", LV_MAX_COUNT);
    if (count != expected)
        return FORMAT_ERROR(20, "entry count %u is wrong: the tile set has %llu leaves of 1..%u tiles", count,
                            (unsigned long long)expected, max_leave);
    if (file_size_for(header_size, count) != size)
        return FORMAT_ERROR(20, "entry count %u does not fit the file size %zu (header %u bytes + 2 per entry, "
                                "padded to 4, + 4-byte checksum)",
                            count, size, header_size);
    uint64_t end = (uint64_t)header_size + 2ull * count;
    for (uint64_t p = end; p < size - 4; p++)
        if (data[p] != 0) return FORMAT_ERROR(p, "padding byte after the values is %u, not 0", data[p]);

    /* 4. checksum */
    int checked = gd_check_checksum(data, size, err);
    if (checked) return checked;

    /* 5. values: -32768 is reserved */
    const int16_t *values = (const int16_t *)(const void *)(data + header_size);
    for (uint32_t i = 0; i < count; i++)
        if (values[i] < LV_VALUE_MIN)
            return FORMAT_ERROR(header_size + 2ull * i, "value of entry %u is -32768, which is reserved", i);

    lv->data = data;
    lv->size = size;
    lv->values = values;
    lv->count = count;
    return GD_OK;
}

int gd_leaves_build(const uint32_t *tile_counts, uint32_t alphabet_size, uint32_t max_leave, const uint8_t *ruleset,
                    size_t ruleset_size, const int16_t *values, size_t count, uint8_t **out, size_t *out_size,
                    gd_error *err)
{
    if (!out || !out_size) return ARGUMENT_ERROR("no output given");
    *out = NULL;
    *out_size = 0;
    if (!tile_counts) return ARGUMENT_ERROR("no tile counts given");
    if (alphabet_size < 1 || alphabet_size > GD_MAX_ALPHABET)
        return ARGUMENT_ERROR("alphabet size %u is out of range (1..%d)", alphabet_size, GD_MAX_ALPHABET);
    if (max_leave < 1 || max_leave > GD_MAX_LEAVE)
        return ARGUMENT_ERROR("longest leave %u is out of range (1..%d)", max_leave, GD_MAX_LEAVE);
    for (uint32_t c = 0; c <= alphabet_size; c++)
        if (tile_counts[c] > LV_MAX_TILES_PER_CODE)
            return ARGUMENT_ERROR("tile count %u of code %u is over %d", tile_counts[c], c, LV_MAX_TILES_PER_CODE);
    if (!ruleset || ruleset_size < 1 || ruleset_size > LV_MAX_RULESET)
        return ARGUMENT_ERROR("the ruleset name must be 1..%d bytes", LV_MAX_RULESET);
    for (size_t i = 0; i < ruleset_size; i++)
        if (!ruleset_char_ok(ruleset[i]))
            return ARGUMENT_ERROR("ruleset name byte %zu is 0x%02x, not printable ASCII", i, ruleset[i]);
    uint64_t expected = gd_leaves_count(tile_counts, alphabet_size, max_leave);
    if (expected == 0) return ARGUMENT_ERROR("the tile set has no leaves or more than %u of them", LV_MAX_COUNT);
    if (count != expected)
        return ARGUMENT_ERROR("%zu values given; the tile set has %llu leaves of 1..%u tiles", count,
                              (unsigned long long)expected, max_leave);
    if (!values) return ARGUMENT_ERROR("no values given");
    for (size_t i = 0; i < count; i++)
        if (values[i] < LV_VALUE_MIN) return ARGUMENT_ERROR("value of entry %zu is -32768, which is reserved", i);

    uint32_t header_size = header_size_for(alphabet_size, (uint32_t)ruleset_size);
    uint64_t total = file_size_for(header_size, count);
    if (total > UINT32_MAX || total > SIZE_MAX) return ARGUMENT_ERROR("the table would be over 4 GB");
    uint8_t *file = calloc(1, (size_t)total);
    if (!file) return gd_set_error(err, GD_ERR_NOMEM, 0, "out of memory for a %llu-byte table", (unsigned long long)total);

    memcpy(file, LV_MAGIC, LV_MAGIC_SIZE);
    gd_put_u16(file + 8, GD_LEAVES_VERSION);
    gd_put_u16(file + 10, header_size);
    gd_put_u32(file + 12, 0);
    gd_put_u32(file + 16, (uint32_t)total);
    gd_put_u32(file + 20, (uint32_t)count);
    file[24] = (uint8_t)alphabet_size;
    file[25] = (uint8_t)max_leave;
    file[26] = (uint8_t)ruleset_size;
    for (uint32_t c = 0; c <= alphabet_size; c++) gd_put_u16(file + LV_FIXED_SIZE + 2 * c, tile_counts[c]);
    memcpy(file + LV_FIXED_SIZE + 2 * (alphabet_size + 1), ruleset, ruleset_size);
    for (size_t i = 0; i < count; i++) gd_put_u16(file + header_size + 2 * i, (uint16_t)values[i]);
    gd_put_u32(file + total - 4, gd_crc32(file, (size_t)total - 4));
    *out = file;
    *out_size = (size_t)total;
    return GD_OK;
}

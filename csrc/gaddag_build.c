/* gaddag_build.c — build a minimized GADDAG (or DAWG) and serialize it (docs/gaddag-format.md,
 * docs/dawg.md).
 *
 * 1. expand every word into its GADDAG strings (a DAWG: the word itself), as fixed-width keys;
 * 2. sort them (MSD radix sort) and drop duplicates;
 * 3. build the minimal automaton incrementally from the sorted strings (Daciuk et al.,
 *    2000): the path of the previous string is frozen bottom-up, each node either found in a
 *    register of equal nodes or added to it;
 * 4. lay sibling lists out, storing a list inside a longer one when it is its tail, in an
 *    order that keeps every child after its parent (the acyclicity invariant the loader checks);
 * 5. write header, arcs and CRC-32.
 */
#include <stdlib.h>
#include <string.h>

#include "gaddag_format.h"
#include "gaddag_solver.h"

#define KEY_END 0   /* key byte: string ended */
#define KEY_SEP 1   /* key byte: separator; letter c is stored as c + 1 */
#define MAX_SIBLINGS 64
#define NO_HEIGHT 255

static void report(gd_build_progress *progress, uint32_t phase, uint64_t done, uint64_t total)
{
    if (!progress) return;
    volatile gd_build_progress *p = progress;
    p->phase = phase;
    p->done = done;
    p->total = total;
}

void gd_free(void *p) { free(p); }

/* ---- sorting ------------------------------------------------------------------------------ */

static void insertion_sort(uint8_t *keys, size_t count, size_t stride, size_t depth, uint8_t *swap)
{
    for (size_t i = 1; i < count; i++) {
        uint8_t *key = keys + i * stride;
        size_t j = i;
        while (j > 0 && memcmp(keys + (j - 1) * stride + depth, key + depth, stride - depth) > 0) j--;
        if (j != i) {
            memcpy(swap, key, stride);
            memmove(keys + (j + 1) * stride, keys + j * stride, (i - j) * stride);
            memcpy(keys + j * stride, swap, stride);
        }
    }
}

/* MSD radix sort of fixed-width keys; `tmp` holds as many bytes as `keys`. */
static void radix_sort(uint8_t *keys, uint8_t *tmp, size_t count, size_t stride, size_t depth, unsigned radix)
{
    if (count < 2 || depth >= stride) return;
    if (count <= 32) {
        uint8_t swap[GD_MAX_WORD + 2];
        insertion_sort(keys, count, stride, depth, swap);
        return;
    }
    size_t histogram[MAX_SIBLINGS + 2] = {0};
    size_t start[MAX_SIBLINGS + 2];
    for (size_t i = 0; i < count; i++) histogram[keys[i * stride + depth]]++;
    size_t sum = 0;
    for (unsigned b = 0; b < radix; b++) {
        start[b] = sum;
        sum += histogram[b];
    }
    size_t next[MAX_SIBLINGS + 2];
    memcpy(next, start, sizeof start);
    for (size_t i = 0; i < count; i++) {
        const uint8_t *key = keys + i * stride;
        memcpy(tmp + next[key[depth]]++ * stride, key, stride);
    }
    memcpy(keys, tmp, count * stride);
    /* bucket 0 holds strings that ended: all equal from here on */
    for (unsigned b = 1; b < radix; b++)
        if (histogram[b] > 1) radix_sort(keys + start[b] * stride, tmp, histogram[b], stride, depth + 1, radix);
}

/* ---- the register of distinct nodes -------------------------------------------------------- */

typedef struct automaton {
    /* node i's arcs are labels[first[i] .. first[i] + count[i]) and children likewise;
     * label = letter code | GD_ARC_ACCEPTS. Node 0 is the end: no arcs. */
    uint32_t *first;
    uint8_t *count;
    uint32_t *hash;
    uint32_t nodes, node_capacity;
    uint8_t *labels;
    uint32_t *children;
    uint32_t arcs, arc_capacity;
    uint32_t *table; /* open addressing, node ids, 0 = empty */
    uint32_t table_mask;
} automaton;

static uint32_t hash_arcs(const uint8_t *labels, const uint32_t *children, unsigned n)
{
    uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
    for (unsigned k = 0; k < n; k++) {
        h ^= ((uint64_t)children[k] << 8) | labels[k];
        h *= 0xFF51AFD7ED558CCDull;
        h ^= h >> 29;
    }
    return (uint32_t)(h ^ (h >> 32));
}

static int grow(void **p, uint32_t *capacity, uint32_t needed, size_t item)
{
    if (needed <= *capacity) return 1;
    uint32_t cap = *capacity ? *capacity : 1024;
    while (cap < needed) {
        if (cap > UINT32_MAX / 2) return 0;
        cap *= 2;
    }
    void *q = realloc(*p, (size_t)cap * item);
    if (!q) return 0;
    *p = q;
    *capacity = cap;
    return 1;
}

static int table_rehash(automaton *a, uint32_t size)
{
    uint32_t *table = calloc(size, sizeof *table);
    if (!table) return 0;
    free(a->table);
    a->table = table;
    a->table_mask = size - 1;
    for (uint32_t id = 1; id < a->nodes; id++) {
        uint32_t slot = a->hash[id] & a->table_mask;
        while (table[slot]) slot = (slot + 1) & a->table_mask;
        table[slot] = id;
    }
    return 1;
}

/* The id of the node with exactly these arcs, added if new; UINT32_MAX when out of memory. */
static uint32_t register_node(automaton *a, const uint8_t *labels, const uint32_t *children, unsigned n)
{
    if (n == 0) return 0;
    uint32_t h = hash_arcs(labels, children, n);
    uint32_t slot = h & a->table_mask;
    for (uint32_t id; (id = a->table[slot]) != 0; slot = (slot + 1) & a->table_mask) {
        if (a->hash[id] == h && a->count[id] == n && memcmp(a->labels + a->first[id], labels, n) == 0 &&
            memcmp(a->children + a->first[id], children, n * sizeof *children) == 0)
            return id;
    }
    uint32_t id = a->nodes;
    uint32_t cap = a->node_capacity;
    if (!grow((void **)&a->first, &cap, id + 1, sizeof *a->first)) return UINT32_MAX;
    cap = a->node_capacity;
    if (!grow((void **)&a->count, &cap, id + 1, sizeof *a->count)) return UINT32_MAX;
    cap = a->node_capacity;
    if (!grow((void **)&a->hash, &cap, id + 1, sizeof *a->hash)) return UINT32_MAX;
    a->node_capacity = cap;
    cap = a->arc_capacity;
    if (!grow((void **)&a->labels, &cap, a->arcs + n, sizeof *a->labels)) return UINT32_MAX;
    cap = a->arc_capacity;
    if (!grow((void **)&a->children, &cap, a->arcs + n, sizeof *a->children)) return UINT32_MAX;
    a->arc_capacity = cap;
    a->first[id] = a->arcs;
    a->count[id] = (uint8_t)n;
    a->hash[id] = h;
    memcpy(a->labels + a->arcs, labels, n);
    memcpy(a->children + a->arcs, children, n * sizeof *children);
    a->arcs += n;
    a->nodes++;
    a->table[slot] = id;
    if ((uint64_t)a->nodes * 2 > a->table_mask && !table_rehash(a, (a->table_mask + 1) * 2)) return UINT32_MAX;
    return id;
}

static void automaton_free(automaton *a)
{
    free(a->first);
    free(a->count);
    free(a->hash);
    free(a->labels);
    free(a->children);
    free(a->table);
}

/* ---- tail sharing and layout ---------------------------------------------------------------- */

typedef struct suffix_entry {
    uint32_t hash;
    uint32_t host;   /* node whose list holds the suffix; 0 = empty slot */
    uint32_t offset; /* where in the host's list the suffix starts */
} suffix_entry;

static uint32_t mix_arc(uint32_t h, uint8_t label, uint32_t child)
{
    uint64_t x = ((uint64_t)h << 32) ^ ((uint64_t)child << 8) ^ label;
    x *= 0xD6E8FEB86659FD93ull;
    x ^= x >> 32;
    return (uint32_t)x;
}

static int suffix_equal(const automaton *a, uint32_t host, uint32_t offset, uint32_t node)
{
    uint32_t n = a->count[node];
    if (a->count[host] - offset != n) return 0;
    uint32_t h = a->first[host] + offset, m = a->first[node];
    return memcmp(a->labels + h, a->labels + m, n) == 0 &&
           memcmp(a->children + h, a->children + m, n * sizeof *a->children) == 0;
}

typedef struct layout {
    uint32_t *start;      /* arc index where each node's list begins */
    uint32_t *hosts;      /* nodes stored as whole lists, in file order */
    uint32_t host_count;
    uint32_t arc_count;   /* including the entry arc */
} layout;

/* 1 on success, 0 out of memory, -1 more arcs than the format can index. */
static int lay_out(const automaton *a, uint32_t root, layout *out, gd_build_progress *progress)
{
    uint32_t n = a->nodes;
    int ok = 0;
    uint8_t *height = malloc(n);
    uint8_t *min_parent_height = malloc(n);
    uint32_t *host = malloc((size_t)n * sizeof *host);
    uint32_t *offset = malloc((size_t)n * sizeof *offset);
    uint32_t *order = malloc((size_t)n * sizeof *order);
    uint32_t table_size = 1;
    while (table_size < a->arcs * 2u + 2) table_size *= 2;
    suffix_entry *table = calloc(table_size, sizeof *table);
    uint32_t *suffix_hash = malloc((MAX_SIBLINGS + 1) * sizeof *suffix_hash);
    out->start = malloc((size_t)n * sizeof *out->start);
    out->hosts = malloc((size_t)n * sizeof *out->hosts);
    if (!height || !min_parent_height || !host || !offset || !order || !table || !suffix_hash || !out->start ||
        !out->hosts)
        goto done;

    /* heights: children always have smaller ids (they were registered first) */
    height[0] = 0;
    for (uint32_t id = 1; id < n; id++) {
        unsigned h = 0;
        for (uint32_t k = a->first[id]; k < a->first[id] + a->count[id]; k++)
            if (height[a->children[k]] > h) h = height[a->children[k]];
        height[id] = (uint8_t)(h + 1);
    }
    /* min_parent_height[c]: the lowest host height among c's parents, filled in as parents
     * are decided. A list may live in a host lower than that: the parents' hosts then come
     * first in the file. */
    memset(min_parent_height, NO_HEIGHT, n);
    min_parent_height[root] = 0; /* the root is never stored inside another list: it starts at 1 */

    /* Tallest first, then longest lists first: a list's parents are decided before it (so the
     * height of their hosts is known), and so are the lists that could host it (at least as tall
     * and longer). */
    uint32_t *bucket = calloc((NO_HEIGHT + 1) * (MAX_SIBLINGS + 1), sizeof *bucket);
    if (!bucket) goto done;
#define ORDER_KEY(id) ((uint32_t)(NO_HEIGHT - height[id]) * (MAX_SIBLINGS + 1) + (MAX_SIBLINGS - a->count[id]))
    for (uint32_t id = 1; id < n; id++) bucket[ORDER_KEY(id)]++;
    uint32_t pos = 0;
    for (uint32_t key = 0; key < (NO_HEIGHT + 1) * (MAX_SIBLINGS + 1); key++) {
        uint32_t size = bucket[key];
        bucket[key] = pos;
        pos += size;
    }
    for (uint32_t id = 1; id < n; id++) order[bucket[ORDER_KEY(id)]++] = id;
#undef ORDER_KEY
    free(bucket);

    uint32_t mask = table_size - 1;
    out->host_count = 0;
    for (uint32_t k = 0; k + 1 < n; k++) {
        uint32_t id = order[k];
        uint32_t m = a->count[id], f = a->first[id];
        suffix_hash[m] = 0x2545F491u;
        for (uint32_t j = m; j-- > 0;) suffix_hash[j] = mix_arc(suffix_hash[j + 1], a->labels[f + j], a->children[f + j]);
        host[id] = id;
        offset[id] = 0;
        for (uint32_t slot = suffix_hash[0] & mask; table[slot].host; slot = (slot + 1) & mask) {
            suffix_entry *e = &table[slot];
            if (e->hash == suffix_hash[0] && suffix_equal(a, e->host, e->offset, id)) {
                if (height[e->host] < min_parent_height[id]) {
                    host[id] = e->host;
                    offset[id] = e->offset;
                }
                break;
            }
        }
        for (uint32_t j = 0; j < m; j++) {
            uint32_t c = a->children[f + j];
            if (height[host[id]] < min_parent_height[c]) min_parent_height[c] = height[host[id]];
        }
        if (host[id] != id) continue;
        out->hosts[out->host_count++] = id;
        for (uint32_t j = 1; j < m; j++) {
            uint32_t slot = suffix_hash[j] & mask;
            while (table[slot].host) {
                suffix_entry *e = &table[slot];
                if (e->hash == suffix_hash[j] && e->host != id && a->count[e->host] - e->offset == m - j &&
                    memcmp(a->labels + a->first[e->host] + e->offset, a->labels + f + j, m - j) == 0 &&
                    memcmp(a->children + a->first[e->host] + e->offset, a->children + f + j,
                           (m - j) * sizeof *a->children) == 0)
                    break;
                slot = (slot + 1) & mask;
            }
            suffix_entry *e = &table[slot];
            if (!e->host || height[id] < height[e->host]) { /* the lower host admits more lists */
                e->hash = suffix_hash[j];
                e->host = id;
                e->offset = j;
            }
        }
        if ((k & 0xFFFF) == 0) report(progress, 4, k, n);
    }

    /* hosts in decreasing height (ties by id): every parent lies in a higher host */
    uint32_t by_height[NO_HEIGHT + 2] = {0};
    for (uint32_t k = 0; k < out->host_count; k++) by_height[height[out->hosts[k]]]++;
    pos = 0;
    for (int h = NO_HEIGHT; h >= 0; h--) {
        uint32_t size = by_height[h];
        by_height[h] = pos;
        pos += size;
    }
    for (uint32_t id = 1; id < n; id++)
        if (host[id] == id) order[by_height[height[id]]++] = id;
    memcpy(out->hosts, order, out->host_count * sizeof *order);

    uint64_t next = 1; /* arc 0 is the entry */
    for (uint32_t k = 0; k < out->host_count; k++) {
        out->start[out->hosts[k]] = (uint32_t)next;
        next += a->count[out->hosts[k]];
    }
    if (next > GD_MAX_ARCS) {
        ok = -1;
        goto done;
    }
    out->arc_count = (uint32_t)next;
    out->start[0] = 0;
    for (uint32_t id = 1; id < n; id++) out->start[id] = out->start[host[id]] + offset[id];
    ok = 1;
done:
    free(height);
    free(min_parent_height);
    free(host);
    free(offset);
    free(order);
    free(table);
    free(suffix_hash);
    return ok;
}

/* ---- the whole build ------------------------------------------------------------------------ */

/* Build either lexicon kind: a GADDAG from every word's GADDAG strings, or (`dawg`) the DAWG
 * of the words themselves (dawg.md); the rest of the pipeline is the same. */
static int build_automaton(int dawg, const uint8_t *words, size_t words_size, uint32_t alphabet_size,
                           const uint8_t *alphabet, size_t alphabet_size_bytes, const uint8_t *name, size_t name_size,
                           uint8_t **out, size_t *out_size, gd_build_stats *stats, gd_build_progress *progress,
                           gd_error *err)
{
    if (!out || !out_size || (!words && words_size) || (!alphabet && alphabet_size_bytes) || (!name && name_size))
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "missing argument");
    *out = NULL;
    *out_size = 0;
    if (alphabet_size < 1 || alphabet_size > GD_MAX_ALPHABET)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "alphabet size %u is out of range (1..%d)", alphabet_size, GD_MAX_ALPHABET);
    if (name_size > 255) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "source name is longer than 255 bytes");
    /* the alphabet entries must be what the loader accepts */
    size_t apos = 0;
    for (uint32_t c = 0; c < alphabet_size; c++) {
        if (apos >= alphabet_size_bytes || alphabet[apos] < 1 || alphabet[apos] > 8)
            return gd_set_error(err, GD_ERR_ARGUMENT, 0, "alphabet entry %u is malformed", c + 1);
        apos += 1u + alphabet[apos];
    }
    if (apos != alphabet_size_bytes) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "alphabet bytes do not match its size");

    report(progress, 1, 0, words_size);
    /* 1. count and check words */
    uint64_t key_count = 0;
    size_t longest = 0, word_number = 0;
    for (size_t i = 0; i < words_size;) {
        size_t j = i;
        while (j < words_size && words[j] != 0) {
            if (words[j] > alphabet_size)
                return gd_set_error(err, GD_ERR_ARGUMENT, 0, "word %zu: letter code %u is outside the alphabet (1..%u)",
                                   word_number + 1, words[j], alphabet_size);
            j++;
        }
        size_t length = j - i;
        if (length > GD_MAX_WORD)
            return gd_set_error(err, GD_ERR_ARGUMENT, 0, "word %zu has %zu letters (at most %d)", word_number + 1, length,
                               GD_MAX_WORD);
        if (length) {
            key_count += dawg ? 1 : length;
            if (length > longest) longest = length;
            word_number++;
        }
        i = j + 1;
    }
    if (key_count == 0) return gd_set_error(err, GD_ERR_EMPTY, 0, "no words to build from");

    /* 2. expand into GADDAG strings and sort */
    size_t stride = longest + 1;
    if (key_count > SIZE_MAX / stride / 2) return gd_set_error(err, GD_ERR_NOMEM, 0, "word list too large");
    uint8_t *keys = calloc(key_count, stride);
    uint8_t *tmp = malloc(key_count * stride);
    if (!keys || !tmp) {
        free(keys);
        free(tmp);
        return gd_set_error(err, GD_ERR_NOMEM, 0, "out of memory for %llu strings", (unsigned long long)key_count);
    }
    uint8_t *key = keys;
    for (size_t i = 0; i < words_size;) {
        size_t j = i;
        while (j < words_size && words[j] != 0) j++;
        const uint8_t *w = words + i;
        size_t n = j - i;
        if (dawg && n) {
            for (size_t k = 0; k < n; k++) key[k] = (uint8_t)(w[k] + 1);
            key += stride;
        }
        for (size_t split = 1; split <= n && !dawg; split++, key += stride) {
            size_t p = 0;
            for (size_t k = split; k-- > 0;) key[p++] = (uint8_t)(w[k] + 1);
            if (split < n) {
                key[p++] = KEY_SEP;
                for (size_t k = split; k < n; k++) key[p++] = (uint8_t)(w[k] + 1);
            }
        }
        i = j + 1;
    }
    report(progress, 2, 0, key_count);
    radix_sort(keys, tmp, key_count, stride, 0, alphabet_size + 2);
    free(tmp);

    /* 3. incremental minimal automaton */
    automaton a;
    memset(&a, 0, sizeof a);
    a.nodes = 1; /* node 0: the end */
    int rc = GD_ERR_NOMEM;
    uint8_t (*path_labels)[MAX_SIBLINGS] = malloc((stride + 1) * sizeof *path_labels);
    uint32_t (*path_children)[MAX_SIBLINGS] = malloc((stride + 1) * sizeof *path_children);
    uint8_t *path_count = calloc(stride + 1, 1);
    uint8_t *file = NULL;
    layout lay = {0};
    if (!path_labels || !path_children || !path_count || !table_rehash(&a, 1u << 16)) goto fail;

    uint32_t word_count = 0;
    const uint8_t *previous = NULL;
    size_t previous_length = 0;
    for (uint64_t index = 0; index < key_count; index++) {
        const uint8_t *k = keys + index * stride;
        if (previous && memcmp(previous, k, stride) == 0) continue;
        size_t length = 0, common = 0;
        int has_separator = 0;
        while (length < stride && k[length] != KEY_END) has_separator |= k[length++] == KEY_SEP;
        if (previous)
            while (common < length && common < previous_length && previous[common] == k[common]) common++;
        for (size_t d = previous_length; d > common; d--) {
            uint32_t id = register_node(&a, path_labels[d], path_children[d], path_count[d]);
            if (id == UINT32_MAX) goto fail;
            path_children[d - 1][path_count[d - 1] - 1] = id;
            path_count[d] = 0;
        }
        for (size_t d = common; d < length; d++) {
            unsigned slot = path_count[d]++;
            path_labels[d][slot] = (uint8_t)((k[d] - 1) | (d + 1 == length ? GD_ARC_ACCEPTS : 0));
            path_children[d][slot] = 0;
        }
        word_count += !has_separator;
        previous = k;
        previous_length = length;
        if ((index & 0xFFFF) == 0) report(progress, 3, index, key_count);
    }
    for (size_t d = previous_length; d > 0; d--) {
        uint32_t id = register_node(&a, path_labels[d], path_children[d], path_count[d]);
        if (id == UINT32_MAX) goto fail;
        path_children[d - 1][path_count[d - 1] - 1] = id;
        path_count[d] = 0;
    }
    uint32_t root = register_node(&a, path_labels[0], path_children[0], path_count[0]);
    if (root == UINT32_MAX) goto fail;
    free(keys);
    keys = NULL;

    /* 4. layout */
    report(progress, 4, 0, a.nodes);
    int laid = lay_out(&a, root, &lay, progress);
    if (laid < 0) {
        rc = gd_set_error(err, GD_ERR_ARGUMENT, 0, "the %s needs more than %u arcs", dawg ? "DAWG" : "GADDAG",
                          GD_MAX_ARCS);
        goto cleanup;
    }
    if (laid == 0) goto fail;

    /* 5. serialize */
    size_t header_size = GD_HEADER_FIXED_SIZE + alphabet_size_bytes + name_size;
    header_size = (header_size + 3) & ~(size_t)3;
    if (header_size > 0xFFFF) {
        rc = gd_set_error(err, GD_ERR_ARGUMENT, 0, "header too large");
        goto cleanup;
    }
    size_t size = header_size + 4 * (size_t)lay.arc_count + 4;
    file = calloc(size, 1);
    if (!file) goto fail;
    memcpy(file, dawg ? GD_DAWG_MAGIC : GD_MAGIC, GD_MAGIC_SIZE);
    gd_put_u16(file + 8, GD_FORMAT_VERSION);
    gd_put_u16(file + 10, (uint32_t)header_size);
    gd_put_u32(file + 12, 0);
    gd_put_u32(file + 16, (uint32_t)size);
    gd_put_u32(file + 20, word_count);
    gd_put_u32(file + 24, a.nodes - 1);
    gd_put_u32(file + 28, lay.arc_count);
    file[32] = (uint8_t)alphabet_size;
    file[33] = (uint8_t)longest;
    file[34] = (uint8_t)name_size;
    memcpy(file + GD_HEADER_FIXED_SIZE, alphabet, alphabet_size_bytes);
    if (name_size) memcpy(file + GD_HEADER_FIXED_SIZE + alphabet_size_bytes, name, name_size);
    uint8_t *arcs = file + header_size;
    gd_put_u32(arcs, (1u << GD_ARC_CHILD_SHIFT) | GD_ARC_LAST | GD_SEPARATOR);
    for (uint32_t h = 0; h < lay.host_count; h++) {
        uint32_t id = lay.hosts[h];
        uint32_t at = lay.start[id];
        for (uint32_t j = 0; j < a.count[id]; j++) {
            uint32_t k = a.first[id] + j;
            uint32_t child = a.children[k] ? lay.start[a.children[k]] : 0;
            if (child && child <= at + j) { /* would break the acyclicity invariant: a bug, never a file */
                rc = gd_set_error(err, GD_ERR_ARGUMENT, 0, "internal error: layout puts a child before its parent");
                goto cleanup;
            }
            uint32_t word = (child << GD_ARC_CHILD_SHIFT) | a.labels[k];
            if (j + 1 == a.count[id]) word |= GD_ARC_LAST;
            gd_put_u32(arcs + 4 * (size_t)(at + j), word);
        }
    }
    gd_put_u32(file + size - 4, gd_crc32(file, size - 4));

    if (stats) {
        stats->word_count = word_count;
        stats->state_count = a.nodes - 1;
        stats->arc_count = lay.arc_count;
        stats->arc_count_unshared = a.arcs + 1;
        stats->max_word_length = (uint32_t)longest;
        stats->file_size = size;
    }
    *out = file;
    *out_size = size;
    file = NULL;
    rc = GD_OK;
    report(progress, 5, 1, 1);
    goto cleanup;
fail:
    rc = gd_set_error(err, GD_ERR_NOMEM, 0, "out of memory while building");
cleanup:
    free(keys);
    free(file);
    free(path_labels);
    free(path_children);
    free(path_count);
    free(lay.start);
    free(lay.hosts);
    automaton_free(&a);
    return rc;
}

int gd_build(const uint8_t *words, size_t words_size, uint32_t alphabet_size, const uint8_t *alphabet,
             size_t alphabet_size_bytes, const uint8_t *name, size_t name_size, uint8_t **out, size_t *out_size,
             gd_build_stats *stats, gd_build_progress *progress, gd_error *err)
{
    return build_automaton(0, words, words_size, alphabet_size, alphabet, alphabet_size_bytes, name, name_size, out,
                           out_size, stats, progress, err);
}

int gd_dawg_build(const uint8_t *words, size_t words_size, uint32_t alphabet_size, const uint8_t *alphabet,
                  size_t alphabet_size_bytes, const uint8_t *name, size_t name_size, uint8_t **out, size_t *out_size,
                  gd_build_stats *stats, gd_build_progress *progress, gd_error *err)
{
    return build_automaton(1, words, words_size, alphabet_size, alphabet, alphabet_size_bytes, name, name_size, out,
                           out_size, stats, progress, err);
}

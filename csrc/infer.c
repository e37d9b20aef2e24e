/* infer.c — what the opponent kept, from the move they made (the method: docs/inference.md).
 *
 * Every rack the opponent could have held is valued by the generator: its best move by static
 * equity, against the equity the move they made has for that rack. A rack whose best the move is
 * within the tolerance of is consistent, and adds its chance of being drawn (the ways its tiles
 * can be taken from the unseen ones) to the leave it keeps. When the racks are too many, a fixed
 * number of them is drawn instead, with weights that correct for how they were drawn.
 */
#include <stdlib.h>
#include <string.h>

#include "gaddag_format.h"
#include "gaddag_solver.h"

typedef struct infer_run {
    const gd_lexicon *lex;
    const gd_rules *rules;
    const uint8_t *board;
    const void *workspace;
    const gd_infer_options *opt;
    gd_equity_options equity;
    uint32_t alphabet;          /* the rules' alphabet size: codes 0..alphabet */
    const uint8_t *unseen;
    uint8_t available[64];      /* a play: unseen less the tiles it placed; an exchange: unseen */
    uint8_t placed[64];         /* a play's tiles */
    int32_t score;              /* a play's score */
    uint32_t kind;              /* GD_PLAY or GD_EXCHANGE */
    uint32_t keep;              /* tiles the move keeps */
    gd_inferred_leave *out;
    size_t capacity;
    size_t written;
    gd_infer_summary *summary;
    gd_error *err;
} infer_run;

static uint32_t tiles_of(const uint8_t *counts, uint32_t alphabet)
{
    uint32_t n = 0;
    for (uint32_t c = 0; c <= alphabet; c++) n += counts[c];
    return n;
}

static double choose(uint32_t n, uint32_t k)
{
    if (k > n) return 0;
    double r = 1;
    for (uint32_t i = 1; i <= k; i++) r = r * (double)(n - k + i) / (double)i;
    return r;
}

/* The ways to take the rack's tiles from `pool`: the product over codes of C(pool, rack). */
static double ways(const uint8_t *pool, const uint8_t *rack, uint32_t alphabet)
{
    double w = 1;
    for (uint32_t c = 0; c <= alphabet; c++)
        if (rack[c]) w *= choose(pool[c], rack[c]);
    return w;
}

/* How many multisets of `size` tiles `pool` holds (at most `cap` + 1: counting stops there). */
static uint64_t multisets(const uint8_t *pool, uint32_t alphabet, uint32_t size, uint64_t cap)
{
    uint64_t count[GD_MAX_DIM + 1] = {1};
    for (uint32_t c = 0; c <= alphabet; c++) {
        if (!pool[c]) continue;
        for (uint32_t s = size; s >= 1; s--) {
            uint64_t sum = count[s];
            for (uint32_t k = 1; k <= pool[c] && k <= s; k++) sum += count[s - k];
            count[s] = sum > cap ? cap + 1 : sum;
        }
    }
    return count[size];
}

static int32_t leave_value(const infer_run *run, const uint8_t *kept)
{
    return run->opt->leaves ? gd_leaves_value(run->opt->leaves, kept) : 0;
}

/* The best leave of `keep` tiles of the rack by the table, into best[]: the exchange of the rest
 * worth the most. Sub-multisets are tried code by code; `kept` is the one being built. */
static void best_kept(const infer_run *run, const uint8_t *rack, uint32_t code, uint32_t left, uint8_t *kept,
                      int32_t *best_value, uint8_t *best)
{
    if (left == 0) {
        int32_t v = leave_value(run, kept);
        if (v > *best_value) {
            *best_value = v;
            memcpy(best, kept, 64);
        }
        return;
    }
    if (code > run->alphabet) return;
    uint32_t most = rack[code] < left ? rack[code] : left;
    for (uint32_t k = most + 1; k-- > 0;) {
        kept[code] = (uint8_t)k;
        best_kept(run, rack, code + 1, left - k, kept, best_value, best);
    }
    kept[code] = 0;
}

static int add_leave(infer_run *run, const uint8_t *kept, double weight)
{
    if (run->written == run->capacity)
        return gd_set_error(run->err, GD_ERR_ARGUMENT, 0, "room for %zu inferred leaves only: give max_racks",
                            run->capacity);
    gd_inferred_leave *e = &run->out[run->written++];
    e->weight = weight;
    memcpy(e->counts, kept, sizeof e->counts);
    return GD_OK;
}

/* Value one rack the opponent may have held, of draw weight `weight`. */
static int value_rack(infer_run *run, const uint8_t *rack, double weight)
{
    gd_infer_summary *s = run->summary;
    s->racks++;
    s->prior_weight += weight;
    uint8_t kept[64] = {0};
    int consistent = 1;
    if (run->summary->bag_count > 0) {
        gd_move best;
        size_t count = 0;
        int rc = gd_generate_equity(run->lex, run->rules, run->board, run->workspace, rack, &run->equity, 1, &best,
                                    1, &count, run->err);
        if (rc) return rc;
        int64_t played;
        if (run->kind == GD_PLAY) {
            for (uint32_t c = 0; c <= run->alphabet; c++) kept[c] = (uint8_t)(rack[c] - run->placed[c]);
            played = 100 * (int64_t)run->score + leave_value(run, kept);
        } else {
            uint8_t trial[64] = {0};
            int32_t value = INT32_MIN;
            best_kept(run, rack, 0, run->keep, trial, &value, kept);
            played = value;
        }
        consistent = count == 0 || played >= (int64_t)best.equity - run->opt->tolerance;
    } else {
        /* the bag was empty: the opponent held every unseen tile, and that is the one rack */
        for (uint32_t c = 0; c <= run->alphabet; c++) kept[c] = (uint8_t)(rack[c] - run->placed[c]);
    }
    if (!consistent) return GD_OK;
    s->consistent++;
    s->weight += weight;
    s->weight_squares += weight * weight;
    return add_leave(run, kept, weight);
}

/* Every multiset of `left` more tiles from `pool` beyond `chosen` (codes from `code` on), each as
 * the rack base + chosen valued with its draw weight. */
static int each_multiset(infer_run *run, const uint8_t *pool, const uint8_t *base, uint32_t code, uint32_t left,
                         uint8_t *chosen)
{
    if (left == 0) {
        uint8_t rack[64];
        for (uint32_t c = 0; c < 64; c++) rack[c] = (uint8_t)(base[c] + chosen[c]);
        return value_rack(run, rack, ways(run->unseen, rack, run->alphabet));
    }
    if (code > run->alphabet) return GD_OK;
    uint32_t beyond = 0; /* tiles of the codes after this one: enough to finish? */
    for (uint32_t c = code + 1; c <= run->alphabet; c++) beyond += pool[c];
    uint32_t most = pool[code] < left ? pool[code] : left;
    for (uint32_t k = 0; k <= most; k++) {
        if (beyond + k < left) continue;
        chosen[code] = (uint8_t)k;
        int rc = each_multiset(run, pool, base, code + 1, left - k, chosen);
        if (rc) {
            chosen[code] = 0;
            return rc;
        }
    }
    chosen[code] = 0;
    return GD_OK;
}

/* max_racks racks drawn at random: `draw` tiles taken uniformly from `pool`, added to base; each
 * weighted by its chance as a rack over its chance as a draw. */
static int sample(infer_run *run, const uint8_t *pool, const uint8_t *base, uint32_t draw)
{
    uint8_t tiles[GD_MAX_TILES];
    uint32_t n = 0;
    for (uint32_t c = 0; c <= run->alphabet; c++)
        for (uint32_t k = 0; k < pool[c] && n < GD_MAX_TILES; k++) tiles[n++] = (uint8_t)c;
    gd_rng rng;
    gd_rng_seed(&rng, run->opt->seed);
    for (uint32_t i = 0; i < run->opt->max_racks; i++) {
        uint8_t drawn[64] = {0};
        for (uint32_t k = 0; k < draw; k++) {
            uint32_t j = k + gd_rng_below(&rng, n - k);
            uint8_t t = tiles[j];
            tiles[j] = tiles[k];
            tiles[k] = t;
            drawn[t]++;
        }
        uint8_t rack[64];
        for (uint32_t c = 0; c < 64; c++) rack[c] = (uint8_t)(base[c] + drawn[c]);
        double weight = ways(run->unseen, rack, run->alphabet) / ways(pool, drawn, run->alphabet);
        int rc = value_rack(run, rack, weight);
        if (rc) return rc;
    }
    return GD_OK;
}

/* By the tiles, then the weight: a total order on the entries' values, so whatever order qsort
 * leaves equal ones in, the weights of a leave are summed in the same order on every platform. */
static int by_counts(const void *a, const void *b)
{
    const gd_inferred_leave *x = a, *y = b;
    int order = memcmp(x->counts, y->counts, 64);
    if (order) return order;
    return x->weight < y->weight ? -1 : x->weight > y->weight;
}

/* Sort the leaves written and sum the weights of equal ones. */
static size_t merge_leaves(gd_inferred_leave *out, size_t n)
{
    if (n < 2) return n;
    qsort(out, n, sizeof *out, by_counts);
    size_t w = 0;
    for (size_t i = 1; i < n; i++) {
        if (memcmp(out[w].counts, out[i].counts, 64) == 0) out[w].weight += out[i].weight;
        else out[++w] = out[i];
    }
    return w + 1;
}

int gd_infer(const gd_lexicon *lex, const gd_rules *rules, const uint8_t *board, void *workspace,
             const uint8_t *unseen, const gd_move *move, const gd_infer_options *options,
             gd_inferred_leave *out, size_t capacity, gd_infer_summary *summary, gd_error *err)
{
    if (!lex || !rules || !board || !workspace || !unseen || !move || !options || !summary || (!out && capacity))
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "missing argument");
    if (options->max_racks == 0) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "max_racks must be at least 1");
    if (options->tolerance < 0) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the tolerance must be 0 or more");
    if (options->leaves && options->leaves->alphabet_size != rules->alphabet_size)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the leave table has %u letters, the rules %u",
                            options->leaves->alphabet_size, rules->alphabet_size);
    if (rules->alphabet_size > 63) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the rules' alphabet is too large");
    infer_run run;
    memset(&run, 0, sizeof run);
    memset(summary, 0, sizeof *summary);
    run.lex = lex;
    run.rules = rules;
    run.board = board;
    run.workspace = workspace;
    run.opt = options;
    run.alphabet = rules->alphabet_size;
    run.unseen = unseen;
    run.out = out;
    run.capacity = capacity;
    run.summary = summary;
    run.err = err;
    for (uint32_t c = rules->alphabet_size + 1; c < 64; c++)
        if (unseen[c]) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "unseen tiles of code %u: not a letter", c);
    const uint32_t total = tiles_of(unseen, run.alphabet);
    summary->rack_tiles = total < rules->rack_size ? total : rules->rack_size;
    summary->bag_count = total - summary->rack_tiles;
    memcpy(run.available, unseen, 64);

    uint32_t moved = 0; /* tiles the move took from the rack */
    if (move->kind == GD_PLAY) {
        for (uint32_t k = 0; k < move->length && k < GD_MAX_DIM; k++) {
            uint8_t b = move->word[k];
            if (b & GD_ON_BOARD_FLAG) continue;
            uint32_t c = (b & GD_BLANK_FLAG) ? 0 : (b & 63u);
            if (c > run.alphabet || run.available[c] == 0)
                return gd_set_error(err, GD_ERR_ARGUMENT, 0,
                                    "the play's tile %u (code %u) was not among the unseen tiles", k + 1, c);
            run.available[c]--;
            run.placed[c]++;
            moved++;
        }
        if (moved == 0) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the play places no tile");
        run.score = move->score;
    } else if (move->kind == GD_EXCHANGE) {
        moved = move->length;
        if (moved == 0) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "an exchange of no tile");
        if (summary->bag_count < rules->exchange_minimum || summary->bag_count < moved)
            return gd_set_error(err, GD_ERR_ARGUMENT, 0, "an exchange of %u tiles with %u in the bag is not allowed",
                                moved, summary->bag_count);
    } else {
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "only a play or an exchange can be inferred from");
    }
    if (moved > summary->rack_tiles)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the move takes %u tiles from a rack of %u", moved,
                            summary->rack_tiles);
    run.kind = move->kind;
    run.keep = summary->rack_tiles - moved;
    run.equity.leaves = options->leaves;
    run.equity.bag_count = summary->bag_count;
    run.equity.exchanges = 1;
    run.equity.pass = 1;
    run.equity.by_equity = 1;
    run.equity.prune = 1;
    int rc = gd_prepare(lex, rules, board, workspace, err);
    if (rc) return rc;

    /* a play fixes its tiles and leaves `keep` unknown; an exchange leaves the whole rack unknown */
    const uint32_t unknown = run.kind == GD_PLAY ? run.keep : summary->rack_tiles;
    const uint8_t *base = run.placed; /* zero for an exchange */
    uint8_t chosen[64] = {0};
    if (multisets(run.available, run.alphabet, unknown, options->max_racks) <= options->max_racks) {
        summary->exhaustive = 1;
        rc = each_multiset(&run, run.available, base, 0, unknown, chosen);
    } else {
        rc = sample(&run, run.available, base, unknown);
    }
    if (rc) return rc;
    summary->leaves = (uint32_t)merge_leaves(out, run.written);
    return GD_OK;
}

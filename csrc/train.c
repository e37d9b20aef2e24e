/* train.c — what racks are worth in self-play, gathered per leave, for learning leave values.
 *
 * A training game is self-play with one leave table in both seats. Whenever a player holds a
 * full rack with tiles left in the bag, the equity of the best move of that rack is recorded
 * for every leave the rack holds (every sub-multiset of 1..max_leave tiles): a leave's value is
 * then how much more the racks holding it are worth than racks in general (docs/leaves.md).
 * Sums are integers (hundredths of a point), so merging statistics in any order gives the same
 * totals.
 */
#include <string.h>

#include "gaddag_format.h"
#include "game_internal.h"

static int check_stats(const gd_rack_stats *stats, const gd_leaves *leaves, gd_error *err)
{
    if (!stats->sum || !stats->seen)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "the statistics have no buffers");
    if (stats->entries != leaves->count)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "statistics for %u leaves, the table has %u", stats->entries,
                            leaves->count);
    return GD_OK;
}

void gd_rack_stats_clear(gd_rack_stats *stats)
{
    if (!stats) return;
    if (stats->sum) memset(stats->sum, 0, (size_t)stats->entries * sizeof *stats->sum);
    if (stats->seen) memset(stats->seen, 0, (size_t)stats->entries * sizeof *stats->seen);
    stats->rack_sum = 0;
    stats->rack_squares = 0;
    stats->racks = 0;
}

int gd_rack_stats_merge(gd_rack_stats *into, const gd_rack_stats *from, gd_error *err)
{
    if (!into || !from || !into->sum || !into->seen || !from->sum || !from->seen)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "missing argument");
    if (into->entries != from->entries)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0, "statistics for %u and %u leaves cannot be merged",
                            into->entries, from->entries);
    for (uint32_t i = 0; i < into->entries; i++) {
        if (from->seen[i] > UINT32_MAX - into->seen[i])
            return gd_set_error(err, GD_ERR_ARGUMENT, 0, "leave %u was seen more than %u times", i, UINT32_MAX);
    }
    for (uint32_t i = 0; i < into->entries; i++) {
        into->sum[i] += from->sum[i];
        into->seen[i] += from->seen[i];
    }
    into->rack_sum += from->rack_sum;
    into->rack_squares += from->rack_squares;
    into->racks += from->racks;
    return GD_OK;
}

/* Add `equity` to every leave `rack` holds: an odometer over the counts of its distinct codes. */
static void record_rack(const gd_leaves *lv, const uint8_t *rack, int32_t equity, gd_rack_stats *stats)
{
    uint8_t code[GD_MAX_DIM], have[GD_MAX_DIM], sub[64] = {0};
    uint32_t distinct = 0, size = 0;
    for (uint32_t c = 0; c <= lv->alphabet_size && distinct < GD_MAX_DIM; c++)
        if (rack[c]) {
            code[distinct] = (uint8_t)c;
            have[distinct++] = rack[c];
        }
    for (;;) {
        uint32_t i = 0;
        while (i < distinct && sub[code[i]] == have[i]) {
            size -= sub[code[i]];
            sub[code[i++]] = 0;
        }
        if (i == distinct) break;
        sub[code[i]]++;
        size++;
        uint32_t index;
        if (size <= lv->max_leave && gd_leaves_index(lv, sub, &index) == GD_OK) {
            stats->sum[index] += equity;
            if (stats->seen[index] < UINT32_MAX) stats->seen[index]++;
        }
    }
    stats->rack_sum += equity;
    stats->rack_squares += (uint64_t)((int64_t)equity * equity);
    stats->racks++;
}

typedef struct training {
    const gd_rules *rules;
    const gd_leaves *leaves;
    gd_rack_stats *stats;
} training;

/* Before each move: a full rack with tiles left in the bag is worth the chosen (best) move. */
static void record_turn(void *context, const gd_game *game, const gd_move *chosen)
{
    const training *t = context;
    const uint8_t *rack = game->rack[game->to_move];
    uint32_t held = 0;
    for (uint32_t c = 0; c <= t->rules->alphabet_size; c++) held += rack[c];
    if (held == t->rules->rack_size && game->bag_count > 0) record_rack(t->leaves, rack, chosen->equity, t->stats);
}

int gd_train_game(const gd_lexicon *lex, const gd_rules *rules, const gd_leaves *leaves, uint64_t seed,
                  gd_rack_stats *stats, gd_game *game, void *workspace, gd_error *err)
{
    if (!leaves || !stats || !game || !rules) return gd_set_error(err, GD_ERR_ARGUMENT, 0, "missing argument");
    int rc = check_stats(stats, leaves, err);
    if (rc) return rc;
    if (leaves->alphabet_size != rules->alphabet_size || leaves->max_leave + 1 != rules->rack_size)
        return gd_set_error(err, GD_ERR_ARGUMENT, 0,
                            "the leave table holds leaves of up to %u tiles over %u letters; the rules need %u "
                            "tiles over %u letters",
                            leaves->max_leave, leaves->alphabet_size, rules->rack_size - 1, rules->alphabet_size);
    const gd_player both[2] = {{GD_PLAYER_EQUITY, leaves}, {GD_PLAYER_EQUITY, leaves}};
    training context = {rules, leaves, stats};
    return gd_play_game(lex, rules, both, seed, game, workspace, record_turn, &context, err);
}

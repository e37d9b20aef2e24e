/* leaves.c — leave tables (placeholder until the leave-table module lands). */
#include "gaddag_format.h"
#include "gaddag_solver.h"

uint64_t gd_leaves_count(const uint32_t *tile_counts, uint32_t alphabet_size, uint32_t max_leave)
{
    (void)tile_counts, (void)alphabet_size, (void)max_leave;
    return 0;
}
int gd_leaves_open(gd_leaves *lv, const uint8_t *data, size_t size, gd_error *err)
{
    (void)lv, (void)data, (void)size;
    return gd_set_error(err, GD_ERR_ARGUMENT, 0, "leave tables are not built in yet");
}
int gd_leaves_build(const uint32_t *tile_counts, uint32_t alphabet_size, uint32_t max_leave, const uint8_t *ruleset,
                    size_t ruleset_size, const int16_t *values, size_t count, uint8_t **out, size_t *out_size,
                    gd_error *err)
{
    (void)tile_counts, (void)alphabet_size, (void)max_leave, (void)ruleset, (void)ruleset_size, (void)values,
        (void)count, (void)out, (void)out_size;
    return gd_set_error(err, GD_ERR_ARGUMENT, 0, "leave tables are not built in yet");
}
int gd_leaves_index(const gd_leaves *lv, const uint8_t *counts, uint32_t *index)
{
    (void)lv, (void)counts, (void)index;
    return GD_ERR_ARGUMENT;
}
int gd_leaves_tiles(const gd_leaves *lv, uint32_t index, uint8_t *counts)
{
    (void)lv, (void)index, (void)counts;
    return GD_ERR_ARGUMENT;
}
int32_t gd_leaves_value(const gd_leaves *lv, const uint8_t *counts)
{
    (void)lv, (void)counts;
    return 0;
}

/* Time MAGPIE's move generator on the positions our movegen benchmark uses.

     magpie-movegen DATA_PATH LEXICON CGPFILE MIN_MS [LEAVES]

   Our own driver, linked against MAGPIE's release objects by bench/magpie/build.sh and run by
   bench/magpie_side.py. DATA_PATH is MAGPIE's data folder (build/data), LEXICON the name of a
   lexicon in DATA_PATH/lexica (CSW_SOWPODS), LEAVES a leave table there (default: the one
   named like the lexicon, MAGPIE's own default). Each CGP line is loaded with its first four
   fields (board, racks, scores, zero turns); options after them, such as "lex SOWPODS;", are
   ignored, so the lexicon is always LEXICON. Board set-up (cross-sets, anchors) happens on
   loading and is not timed, as in bench/movegen.py.

   Timed: generating every move of the player on turn. Each figure is a batch of repeats lasting
   at least MIN_MS milliseconds, divided by the repeats; the batch is run three times and the
   fastest kept (bench/movegen.py's method). Prints per position

     index moves_total plays_only microseconds_per_generation

   and last "RESULT median_us=... mean_us=... positions=... plays=...".

   Two ways of recording, MAGPIE_RECORD in the environment:
     small (default)  MOVE_RECORD_ALL_SMALL, MAGPIE's all-moves mode for its endgame: every
                      tile placement play with its score, appended unsorted, plus the pass; no
                      exchanges, no leave values, no word map. The closest to our gd_generate.
     all              MOVE_RECORD_ALL, MAGPIE's "generate" command: every play, exchange and
                      the pass with its equity (score + leave value), kept in a heap ordered by
                      equity, using the word map (.wmp) when present (MAGPIE_WMP=false: not).
   moves_total counts what MAGPIE recorded, plays_only the tile placement plays among them. On
   an empty board MAGPIE makes the across plays only (the down ones are the same plays turned),
   half of what gd_generate counts there; elsewhere the counts are the same. Repeating one
   position lets "all" reuse MAGPIE's per-rack caches of leave values after the first call. */

#include "src/def/game_history_defs.h"
#include "src/def/move_defs.h"
#include "src/ent/equity.h"
#include "src/ent/game.h"
#include "src/ent/move.h"
#include "src/ent/player.h"
#include "src/impl/cgp.h"
#include "src/impl/config.h"
#include "src/impl/move_gen.h"
#include "src/util/io_util.h"

#include "driver.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// Room for the moves of one position. A small list does not check its capacity, so this is
// generous: positions with two blanks on an open board have tens of thousands of plays.
enum { MOVE_CAPACITY = 1 << 19, MAX_POSITIONS = 100000, LINE_MAX_CHARS = 4096 };

static void generate(const MoveGenArgs *args, int repeats) {
  for (int i = 0; i < repeats; i++) {
    generate_moves(args);
  }
}

// Seconds per generation: batches lasting at least min_seconds, fastest of three.
static double time_generation(const MoveGenArgs *args, double min_seconds) {
  int repeats = 1;
  double elapsed;
  while (true) {
    const double started = now_seconds();
    generate(args, repeats);
    elapsed = now_seconds() - started;
    if (elapsed >= min_seconds) {
      break;
    }
    const int scaled = (int)(repeats * min_seconds / elapsed * 1.2);
    repeats = (elapsed <= 0 || scaled < repeats * 2) ? repeats * 2 : scaled;
  }
  double best = elapsed / repeats;
  for (int batch = 0; batch < 2; batch++) {
    const double started = now_seconds();
    generate(args, repeats);
    const double seconds = (now_seconds() - started) / repeats;
    if (seconds < best) {
      best = seconds;
    }
  }
  return best;
}

static int count_plays(const MoveList *move_list, bool small) {
  int plays = 0;
  for (int i = 0; i < move_list->count; i++) {
    if (small) {
      // Small lists hold plays and the pass only.
      plays += !small_move_is_pass(move_list->small_moves[i]);
    } else {
      plays += move_get_type(move_list->moves[i]) ==
               GAME_EVENT_TILE_PLACEMENT_MOVE;
    }
  }
  return plays;
}

static int compare_doubles(const void *a, const void *b) {
  const double x = *(const double *)a;
  const double y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char *argv[]) {
  if (argc < 5 || argc > 6) {
    fprintf(stderr, "usage: magpie-movegen DATA_PATH LEXICON CGPFILE MIN_MS "
                    "[LEAVES]\n");
    return 2;
  }
  const char *data_path = argv[1];
  const char *lexicon = argv[2];
  const char *cgp_filename = argv[3];
  const double min_seconds = atof(argv[4]) / 1000.0;
  const char *leaves = argc == 6 ? argv[5] : lexicon;
  const char *record = getenv("MAGPIE_RECORD");
  const bool small = record == NULL || strcmp(record, "all") != 0;
  if (record != NULL && strcmp(record, "all") != 0 &&
      strcmp(record, "small") != 0) {
    fprintf(stderr, "magpie-movegen: MAGPIE_RECORD is small or all, not %s\n",
            record);
    return 2;
  }
  const char *wmp = getenv("MAGPIE_WMP");
  const bool use_wmp = wmp == NULL || strcmp(wmp, "false") != 0;

  log_set_level(LOG_FATAL);
  ErrorStack *error_stack = error_stack_create();
  // A settings file that does not exist: nothing is read from or saved to the current folder.
  const ConfigArgs config_args = {.data_paths = data_path,
                                  .settings_filename = "/dev/null/none",
                                  .use_wmp = use_wmp};
  Config *config = config_create(&config_args, error_stack);
  die_on_error(error_stack, "loading MAGPIE's data");
  char command[1024];
  snprintf(command, sizeof(command),
           "set -lex %s -leaves %s -wmp %s -threads 1 -s1 equity -s2 equity "
           "-r1 all -r2 all -savesettings false",
           lexicon, leaves, use_wmp ? "true" : "false");
  run_command(config, command);
  Game *game = config_game_create(config);
  // The word map only serves MOVE_RECORD_ALL, and only when its file was found.
  const bool wmp_used =
      !small && player_get_wmp(game_get_player(game, 0)) != NULL;
  MoveList *move_list = small ? move_list_create_small(MOVE_CAPACITY)
                              : move_list_create(MOVE_CAPACITY);
  const MoveGenArgs args = {
      .game = game,
      .move_list = move_list,
      .move_record_type = small ? MOVE_RECORD_ALL_SMALL : MOVE_RECORD_ALL,
      .move_sort_type = small ? MOVE_SORT_SCORE : MOVE_SORT_EQUITY,
      .override_kwg = NULL,
      .eq_margin_movegen = 0,
      .target_equity = EQUITY_MAX_VALUE,
      .target_leave_size_for_exchange_cutoff = UNSET_LEAVE_SIZE,
  };

  FILE *cgp_file = fopen(cgp_filename, "r");
  if (cgp_file == NULL) {
    fprintf(stderr, "magpie-movegen: cannot read %s\n", cgp_filename);
    return 1;
  }
  static double micros[MAX_POSITIONS];
  int positions = 0;
  long total_plays = 0;
  char line[LINE_MAX_CHARS];
  while (fgets(line, sizeof(line), cgp_file) != NULL &&
         positions < MAX_POSITIONS) {
    line[strcspn(line, "\r\n")] = '\0';
    if (line[strspn(line, " \t")] == '\0') {
      continue;
    }
    game_load_cgp(game, line, error_stack); // reads the first four fields
    die_on_error(error_stack, line);
    generate_moves(&args);
    const int moves = move_list->count;
    if (moves >= MOVE_CAPACITY) {
      fprintf(stderr, "magpie-movegen: position %d has too many moves\n",
              positions + 1);
      return 1;
    }
    const int plays = count_plays(move_list, small);
    micros[positions] = time_generation(&args, min_seconds) * 1e6;
    total_plays += plays;
    printf("%d %d %d %.2f\n", positions + 1, moves, plays, micros[positions]);
    fflush(stdout);
    positions++;
  }
  fclose(cgp_file);
  if (positions == 0) {
    fprintf(stderr, "magpie-movegen: no positions in %s\n", cgp_filename);
    return 1;
  }
  double sum = 0;
  for (int i = 0; i < positions; i++) {
    sum += micros[i];
  }
  qsort(micros, positions, sizeof(double), compare_doubles);
  const double median = positions % 2
                            ? micros[positions / 2]
                            : (micros[positions / 2 - 1] + micros[positions / 2]) / 2;
  printf("RESULT median_us=%.1f mean_us=%.1f positions=%d plays=%ld record=%s "
         "wmp=%s\n",
         median, sum / positions, positions, total_plays,
         small ? "small" : "all", wmp_used ? "yes" : "no");

  if (small) {
    small_move_list_destroy(move_list);
  } else {
    move_list_destroy(move_list);
  }
  game_destroy(game);
  config_destroy(config);
  gen_destroy_cache();
  error_stack_destroy(error_stack);
  return 0;
}

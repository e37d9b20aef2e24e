/* Time MAGPIE's simulation on the positions our simulation benchmark uses.

     magpie-simulate DATA_PATH LEXICON CGPFILE ITERATIONS PLIES CANDIDATES THREADS [LEAVES]

   Our own driver, linked against MAGPIE's release objects by bench/magpie/build.sh and run by
   bench/magpie_side.py for `bench/simulate.py speed --magpie`. DATA_PATH is MAGPIE's data
   folder (build/data), LEXICON a lexicon in DATA_PATH/lexica (CSW_SOWPODS), LEAVES a leave table
   there (default: the one named like the lexicon). Each CGP line is loaded with MAGPIE's own
   "cgp" command (its first four fields; options after them are ignored), then timed:

     gsimulate -numplays CANDIDATES -plies PLIES -iterations CANDIDATES*ITERATIONS
               -sr rr -threshold none -threads THREADS -seed LINE_NUMBER

   i.e. the CANDIDATES best plays by static equity, each simulated ITERATIONS times in turn
   (round robin, no play dropped, no stopping rule), the opponent's rack drawn at random from
   the unseen tiles: the same work as our `Simulation(..., confidence=0).step(ITERATIONS)`.
   The time includes MAGPIE generating and choosing the candidates, as ours includes nothing
   of the kind (it is a few microseconds against seconds). Prints per position

     POSITION index playouts seconds

   where playouts is MAGPIE's own count of the playouts it finished (one candidate and its
   plies), and last "RESULT positions=... playouts=... seconds=...". */

#include "src/ent/sim_results.h"
#include "src/impl/config.h"
#include "src/util/io_util.h"

#include "driver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { LINE_MAX_CHARS = 4096, COMMAND_MAX_CHARS = 8192, CGP_FIELDS = 4 };

// The first four space-separated fields of a CGP line (board, racks, scores, zero turns),
// written to out; false when the line has fewer.
static int cgp_fields(const char *line, char *out, size_t size) {
  size_t used = 0;
  int fields = 0;
  const char *p = line;
  while (fields < CGP_FIELDS) {
    p += strspn(p, " \t");
    const size_t length = strcspn(p, " \t");
    if (length == 0 || used + length + 2 > size) {
      return 0;
    }
    if (fields > 0) {
      out[used++] = ' ';
    }
    memcpy(out + used, p, length);
    used += length;
    p += length;
    fields++;
  }
  out[used] = '\0';
  return 1;
}

int main(int argc, char *argv[]) {
  if (argc < 8 || argc > 9) {
    fprintf(stderr, "usage: magpie-simulate DATA_PATH LEXICON CGPFILE ITERATIONS PLIES "
                    "CANDIDATES THREADS [LEAVES]\n");
    return 2;
  }
  const char *data_path = argv[1];
  const char *lexicon = argv[2];
  const char *cgp_filename = argv[3];
  const long iterations = atol(argv[4]);
  const int plies = atoi(argv[5]);
  const int candidates = atoi(argv[6]);
  const int threads = atoi(argv[7]);
  const char *leaves = argc == 9 ? argv[8] : lexicon;
  if (iterations < 1 || plies < 1 || candidates < 1 || threads < 1) {
    fprintf(stderr, "magpie-simulate: ITERATIONS, PLIES, CANDIDATES and THREADS must be positive\n");
    return 2;
  }

  log_set_level(LOG_FATAL);
  ErrorStack *error_stack = error_stack_create();
  // A settings file that does not exist: nothing is read from or saved to the current folder.
  const ConfigArgs config_args = {.data_paths = data_path,
                                  .settings_filename = "/dev/null/none",
                                  .use_wmp = true};
  Config *config = config_create(&config_args, error_stack);
  die_on_error(error_stack, "loading MAGPIE's data");
  char command[COMMAND_MAX_CHARS];
  snprintf(command, sizeof(command),
           "set -lex %s -leaves %s -s1 equity -s2 equity -r1 all -r2 all "
           "-savesettings false -pfrequency 0 -printonfinish false",
           lexicon, leaves);
  run_command(config, command);

  FILE *cgp_file = fopen(cgp_filename, "r");
  if (cgp_file == NULL) {
    fprintf(stderr, "magpie-simulate: cannot read %s\n", cgp_filename);
    return 1;
  }
  int positions = 0;
  unsigned long long total_playouts = 0;
  double total_seconds = 0;
  char line[LINE_MAX_CHARS];
  char fields[LINE_MAX_CHARS];
  while (fgets(line, sizeof(line), cgp_file) != NULL) {
    line[strcspn(line, "\r\n")] = '\0';
    if (line[strspn(line, " \t")] == '\0') {
      continue;
    }
    if (!cgp_fields(line, fields, sizeof(fields))) {
      fprintf(stderr, "magpie-simulate: line %d is not a CGP position: %s\n", positions + 1,
              line);
      return 1;
    }
    snprintf(command, sizeof(command), "cgp %s", fields);
    run_command(config, command);
    snprintf(command, sizeof(command),
             "gsimulate -numplays %d -plies %d -iterations %ld -minplayiterations %ld -sr rr -threshold none "
             "-threads %d -seed %d",
             candidates, plies, iterations * candidates, iterations, threads, positions + 1);
    const double started = now_seconds();
    run_command(config, command);
    const double seconds = now_seconds() - started;
    const unsigned long long playouts =
        (unsigned long long)sim_results_get_iteration_count(config_get_sim_results(config));
    positions++;
    total_playouts += playouts;
    total_seconds += seconds;
    printf("POSITION %d %llu %.4f\n", positions, playouts, seconds);
    fflush(stdout);
  }
  fclose(cgp_file);
  if (positions == 0) {
    fprintf(stderr, "magpie-simulate: no positions in %s\n", cgp_filename);
    return 1;
  }
  printf("RESULT positions=%d playouts=%llu seconds=%.3f\n", positions, total_playouts,
         total_seconds);
  config_destroy(config);
  error_stack_destroy(error_stack);
  return 0;
}

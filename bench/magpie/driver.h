/* What our timing drivers for MAGPIE (movegen.c, simulate.c) share: a clock, and running one of
   MAGPIE's commands on its config, exiting with MAGPIE's message when it fails. Each driver is
   one translation unit, so these are static. */

#ifndef MAGPIE_DRIVER_H
#define MAGPIE_DRIVER_H

#include "src/impl/config.h"
#include "src/util/io_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die_on_error(ErrorStack *error_stack, const char *what) {
  if (!error_stack_is_empty(error_stack)) {
    fprintf(stderr, "magpie driver: %s failed:\n", what);
    error_stack_print_and_reset(error_stack);
    exit(1);
  }
}

// Runs a MAGPIE command ("set -lex ...") on the config, exiting on error.
static void run_command(Config *config, const char *command) {
  ErrorStack *error_stack = error_stack_create();
  config_load_command(config, command, error_stack);
  die_on_error(error_stack, command);
  config_execute_command(config, error_stack);
  die_on_error(error_stack, command);
  error_stack_destroy(error_stack);
}

#endif

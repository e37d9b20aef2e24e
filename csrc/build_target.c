/* build_target.c — what the compiled core asks of the CPU it runs on.
 *
 * The native build passes GD_CPU_REQUIRES (pycore/gaddag_solver/_ffi_build.py): the features its
 * compiler options let it use. A core moved to a CPU without them would stop at its first such
 * instruction; Python reads this list first and refuses with a message instead.
 */
#include "gaddag_solver.h"

#ifndef GD_CPU_REQUIRES
#define GD_CPU_REQUIRES ""
#endif

const char *gd_cpu_requires(void) { return GD_CPU_REQUIRES; }

/* wl_exec: the `exec:` step, which runs an external command in the cell.
 *
 * The command runs in its own process group with the target directory as
 * working directory and the cell's parameters in the environment
 * (BENCHGRID_<NAME> and NAME). stdout and stderr are captured (and written
 * to the cell folder); the step records the exit status, the duration, the
 * tails of both streams, and the metrics a parser reads from the output.
 * Failures are distinct: a non-zero exit, a timeout (the whole process group
 * is killed), and a program that does not exist.
 */
#ifndef BENCHGRID_WL_EXEC_H
#define BENCHGRID_WL_EXEC_H

#include "workload.h"

/* `parse:` functions defined in the scenario's hooks run in its Lua state
 * (step_ctx.lua); without one, shipped parsers run in a private state. */
extern const struct workload_ops wl_exec_ops;

#endif

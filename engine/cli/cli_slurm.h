/* cli_slurm: `benchgrid slurm`, the sbatch script of a sweep on a Slurm
 * cluster: an array job whose tasks each run one share of the cells
 * (`run --shard auto`) and a merge job that runs after them. Prints the
 * script, or submits it itself (--submit). docs/scale-out.md. */
#ifndef BENCHGRID_CLI_SLURM_H
#define BENCHGRID_CLI_SLURM_H

#include "cli.h"

extern const struct cli_command cli_slurm;

#endif

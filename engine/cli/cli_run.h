/* cli_run: `benchgrid run`. */
#ifndef BENCHGRID_CLI_RUN_H
#define BENCHGRID_CLI_RUN_H

#include "cli.h"

extern const struct cli_command cli_run;

#endif

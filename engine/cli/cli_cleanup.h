/* cli_cleanup: `benchgrid cleanup`: undo what a killed run left set up. */
#ifndef BENCHGRID_CLI_CLEANUP_H
#define BENCHGRID_CLI_CLEANUP_H

#include "cli.h"

extern const struct cli_command cli_cleanup;

#endif

/* cli_merge: `benchgrid merge DIR`: the shares of a sweep into one run. */
#ifndef BENCHGRID_CLI_MERGE_H
#define BENCHGRID_CLI_MERGE_H

#include "cli.h"

extern const struct cli_command cli_merge;

#endif

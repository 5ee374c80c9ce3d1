/* cli_history: `benchgrid history NAME`: a metric across the stored runs,
 * with the runs that fall outside the prediction interval of the runs
 * before them flagged. */
#ifndef BENCHGRID_CLI_HISTORY_H
#define BENCHGRID_CLI_HISTORY_H

#include "cli.h"

extern const struct cli_command cli_history;

#endif

/* cli_report: `benchgrid report` (rebuild a run's reports) and
 * `benchgrid compare` (two runs side by side). */
#ifndef BENCHGRID_CLI_REPORT_H
#define BENCHGRID_CLI_REPORT_H

#include "cli.h"

extern const struct cli_command cli_report, cli_compare;

#endif

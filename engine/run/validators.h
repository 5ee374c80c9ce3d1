/* validators: register with spec (spec_check.h) the checks of the sections
 * that run/ sets up or hands on: the workloads of the table (steps), the
 * targets, the managed server, the knobs, and the reporters' `report:` and
 * `expect:`; each workload's estimate with plan's (estimate_cell.h) and
 * its headline rule with model's (headline.h). Call once at start, before
 * a scenario is planned or a result is shown. */
#ifndef BENCHGRID_VALIDATORS_H
#define BENCHGRID_VALIDATORS_H

void validators_register(void);

#endif

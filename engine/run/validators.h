/* validators: register with spec (spec_check.h) the checks of the sections
 * that run/ sets up or hands on: the workloads of the table (steps), the
 * targets, the managed server, the knobs, and the reporters' `report:` and
 * `expect:`; and each workload's estimate with plan's (estimate_cell.h).
 * Call once at start, before a scenario is planned. */
#ifndef BENCHGRID_VALIDATORS_H
#define BENCHGRID_VALIDATORS_H

void validators_register(void);

#endif

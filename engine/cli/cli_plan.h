/* cli_plan: `benchgrid check` and `benchgrid plan`, and the loading of a
 * scenario with -D overrides that `run` shares. */
#ifndef BENCHGRID_CLI_PLAN_H
#define BENCHGRID_CLI_PLAN_H

#include "cli.h"
#include "spec.h"

extern const struct cli_command cli_check, cli_plan;

/* Shared option parsing: -D k=v into D; returns -1 (message printed) on a
 * bad -D. */
int cli_define(struct defines *D, const char *arg);

/* Open a scenario and plan it; print its diagnostics. -EINVAL (errors
 * printed) or 0 with *s, *cells and *n set and d empty. The caller frees
 * s, cells and d in both cases. */
int cli_load_plan(const char *path, const struct defines *D, struct spec **s, struct cell **cells, size_t *n,
                  struct diag *d);

/* Keep only the cells matching every --only name=value (run, slurm): the
 * new count; the others' parameters are freed. */
size_t cli_apply_only(struct cell *cells, size_t n, const struct defines *only);

#endif

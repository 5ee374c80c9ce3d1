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

/* One --only name=value into only: 0, or -1 said on stderr. */
int cli_only_add(struct defines *only, const char *arg, const char *cmd);

/* Keep only the cells matching the --only filters (run, slurm, plan) and
 * set *n to their count; the others' parameters are freed. Filters of one
 * name select any of their values (`fs=xfs,ext4`, or `fs=xfs` and `fs=ext4`);
 * filters of different names must all hold. A name no cell has is refused
 * with did-you-mean on stderr (cmd: the command's name): -EINVAL, cells
 * untouched. */
int cli_apply_only(struct cell *cells, size_t *n, const struct defines *only, const char *cmd);

#endif

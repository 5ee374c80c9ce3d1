/* cli: the commands of the benchgrid program, one struct each. */
#ifndef BENCHGRID_CLI_H
#define BENCHGRID_CLI_H

#include "spec.h"

enum { CLI_EXIT_OK = 0, CLI_EXIT_FAIL = 1, CLI_EXIT_USAGE = 2 };

struct cli_command {
	const char *name;
	const char *summary;
	int (*main)(int argc, char **argv); /* argv[0] is the command name */
};

extern const struct cli_command cli_check, cli_plan, cli_run, cli_report, cli_compare, cli_cleanup;

/* Shared option parsing: -D k=v into D; returns -EINVAL on a bad -D. */
int cli_define(struct defines *D, const char *arg);

/* Open a scenario and plan it; print its diagnostics. -EINVAL (errors
 * printed) or 0 with *s, *cells and *n set and d empty. The caller frees
 * s, cells and d in both cases. */
struct cell;
int cli_load_plan(const char *path, const struct defines *D, struct spec **s, struct cell **cells, size_t *n,
                  struct diag *d);

#endif

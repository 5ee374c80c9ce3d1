/* cli_store: `benchgrid store DIR...`, and recording a finished run in the
 * results history for `run` and `merge`. */
#ifndef BENCHGRID_CLI_STORE_H
#define BENCHGRID_CLI_STORE_H

#include <stdbool.h>

#include "cli.h"

/* --store SPEC and --no-store of run, merge, store and history. */
struct cli_store_opt {
	const char *spec; /* --store, or NULL */
	bool off;         /* --no-store */
};

/* Record the finished run of dir (its results.json) in the store. Never
 * fails the caller: a store that cannot be opened or written prints one
 * line "benchgrid: results not stored: WHY" on stderr. Returns 0 when
 * stored (or already there), -1 when not. */
int cli_store_record(const struct cli_store_opt *o, const char *dir, bool quiet);

/* The store's name for messages: the path, or "PostgreSQL" for a URL (it
 * may hold a password). */
const char *cli_store_shown(const char *spec);

extern const struct cli_command cli_store;

#endif

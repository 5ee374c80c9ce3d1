/* runner: run a planned scenario, cell by cell.
 *
 * For each cell in plan order: set up (or reuse) the target filesystem(s),
 * apply knobs, bring PostgreSQL to the cell's settings, run the steps
 * (warmup + repeat times), call the Lua hooks, then append the finished cell
 * to OUTDIR/journal.jsonl (fsync'd) and rewrite OUTDIR/results.json
 * atomically. A failing cell is recorded and the sweep goes on. SIGINT and
 * SIGTERM end the running step early, tear every fixture down and keep what
 * finished; `--resume DIR` runs only the cells the journal lacks. The output
 * directory is written only through its directory fd (outdir.h). A share
 * of a sweep (`--shard i/n`) runs only its cells that no journal of the
 * directory holds, into files of its own (share.h); `merge` joins them. */
#ifndef BENCHGRID_RUNNER_H
#define BENCHGRID_RUNNER_H

#include <stdbool.h>
#include "cell.h"
#include "shard.h"
#include "spec.h"

struct runner_opts {
	const char *outdir;   /* NULL: ./benchgrid-out/NAME-YYYYmmdd-HHMMSS */
	bool resume;          /* outdir holds an earlier run to complete */
	bool dry_run;         /* print what would run and stop */
	bool fail_fast;       /* stop at the first failed cell */
	bool yes;             /* --yes: allow destroying a named device */
	int quiet;            /* -q: no progress */
	const char *work_dir; /* where temporary targets go (default /var/tmp) */
	/* --shard i/n: run only share `share` of `shards` (share.h); NULL for
	 * a run of every cell. */
	const struct shard_plan *shards;
	size_t share;
	/* -D and --only as given, recorded for --resume (selection.h); NULL: none. */
	const struct defines *defines, *only;
};

/* Returns 0 when every cell succeeded and every result was written, 1 when
 * a cell failed or results could not be written, 130 when interrupted, or
 * -EINVAL for a failure before any cell ran (a bad output directory among
 * them: see outdir.h), with details in d. */
int runner_run(struct spec *s, struct cell *cells, size_t n, const struct runner_opts *o, struct diag *d);

#endif

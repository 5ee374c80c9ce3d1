/* rep_ops: the interface every reporter implements.
 *
 * A reporter is a row in the table of rep.c: begin() once, cell() for every
 * cell of the run in index order, end() once (also after an error, with
 * ok=false, so it can remove its temporary file). Each writes its file(s)
 * in the output directory through rep_file. */
#ifndef BENCHGRID_REP_OPS_H
#define BENCHGRID_REP_OPS_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "results.h"

struct rep_ctx {
	const struct run *run;
	struct cell_summary **sum; /* one per run->cells[i] */
	const char *outdir;
	struct diag *d;
	void *priv; /* the reporter's own state */
};

struct reporter_ops {
	const char *name;
	const char *file; /* main output file name */
	int (*begin)(struct rep_ctx *cx);
	int (*cell)(struct rep_ctx *cx, size_t i); /* run->cells[i] with sum[i] */
	int (*end)(struct rep_ctx *cx, bool ok);
};

#endif

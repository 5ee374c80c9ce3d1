/* run_env: what the cells and steps of one `benchgrid run` share. */
#ifndef BENCHGRID_RUN_ENV_H
#define BENCHGRID_RUN_ENV_H

#include <stdbool.h>
#include <stdint.h>

#include "fixture_set.h"
#include "monitor_devs.h"
#include "progress.h"
#include "run_order.h"
#include "spec.h"

struct run_env {
	const struct spec *s;
	char *outdir;
	int outfd;   /* the output directory, opened once (outdir.h) */
	int cellsfd; /* its cells/ folder */
	int cellfd;  /* the running cell's folder cells/ID, or -1 */
	char *work;  /* temporary targets live here */
	bool allow_destroy;
	int quiet;
	int64_t repeat, warmup; /* repeat: the most recorded runs of a cell (repeat.max) */
	struct repeat_spec rs;  /* `repeat:` as written: a count, or until converged */
	enum run_order order;   /* `run_order:` */
	uint64_t order_seed;    /* the shuffle of run_order: random */
	double default_timeout; /* `timeout:` of the scenario, 0 none */
	struct fixture_set fx;
	struct mon_devs devs; /* the running cell's devices for the monitor, found at set-up */
	struct progress prog;
	struct lb *lua; /* the scenario's Lua state, or NULL */
};

#endif

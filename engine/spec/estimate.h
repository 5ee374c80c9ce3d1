/* estimate: what a run will cost, from the scenario alone.
 *
 * The seconds a cell's steps declare (runtime:, duration:), for the ETA of
 * a run and the time limit of a Slurm task; steps that declare no duration
 * count 0 there: callers add their own margin.
 *
 * And `plan`'s estimate (estimate_plan): over the run order, how many
 * filesystems are made, clusters initialised and data sets loaded (fixtures
 * are reused as the runner reuses them: see docs/scenario.md), the seconds
 * of each step from its runtime, duration, transaction count or size, times
 * repeat + warmup, the seconds of the set-ups (from the last run of the
 * scenario when the caller has it, else the documented defaults below), and
 * the disk space the largest cell needs in the work directory. Nothing is
 * run, opened or written. */
#ifndef BENCHGRID_ESTIMATE_H
#define BENCHGRID_ESTIMATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cell.h"
#include "estimate_rates.h"
#include "run_order.h"
#include "node.h"
#include "spec.h"

/* The durations declared anywhere under n (a steps: list), summed. */
double estimate_declared_seconds(const struct node *steps);
/* One cell: its interpolated steps' declared seconds x (repeat + warmup). */
double estimate_cell_seconds(const struct spec *s, const struct cell *c, int64_t repeat, int64_t warmup);

/* Seconds one set-up took in the last run of the scenario (the results
 * history), NaN for a part it did not record: replaces the defaults. fs is
 * a cell's filesystems together, data one load whatever its scale. */
struct estimate_history {
	double fs_s, pg_s, data_s;
	/* The tps of pgbench steps in that run (the mean over its cells), by
	 * step name: transactions are priced at it (none: the default). */
	char **tps_step;
	double *tps;
	size_t ntps;
};

/* One step (by name) over all cells. */
struct estimate_step {
	char *name;
	const char *basis; /* "runtime", "duration", "transactions", "size", "not declared"; "mixed" */
	double seconds;    /* over all cells, x (repeat + warmup) */
	double tx_at;      /* with transactions: the rate used (tps) */
	bool tps_hist;     /* tx_at is the last run's tps */
};

struct estimate {
	size_t ncells;
	int64_t repeat, warmup; /* repeat: its max with `until` */
	bool repeat_until;      /* repeat: {until}: at most repeat */
	enum run_order order;
	bool order_seeded;     /* run_order_seed given (random: else shown with seed 0) */
	size_t fs_setups;      /* cells that set up their filesystems anew */
	size_t fs_setups_made; /* of those, cells that made filesystems (the history's unit) */
	size_t mkfs;           /* filesystems made (loop and device targets) */
	size_t initdb;         /* clusters initialised */
	size_t restarts;       /* servers restarted or reloaded for other settings */
	size_t loads;          /* pgbench data loads */
	double scale_loaded;   /* scale units loaded, summed */
	double fs_s, pg_s, data_s, restart_s, steps_s, total_s;
	bool fs_hist, pg_hist, data_hist; /* priced from the history */
	struct estimate_step *steps;
	size_t nsteps;
	double *slot_s; /* each slot's seconds (its steps, its warm-ups with its cell's first, its set-ups) */
	size_t *slot_loads; /* each slot's pgbench data loads (plan's "sets up" column) */
	size_t nslots;
	size_t undeclared;  /* steps (by name) that declare no duration */
	uint64_t disk_need; /* bytes the largest cell needs in the work directory */
	size_t disk_cell;   /* that cell's index (expansion position) */
	bool disk_outside;  /* some cell has a loop image or directory elsewhere */
};

/* The estimate of the cells in run order (as plan_build leaves them).
 * history may be NULL. Returns 0, or -ENOMEM. */
int estimate_plan(const struct spec *s, const struct cell *cells, size_t n,
                  const struct estimate_rates *rates, const struct estimate_history *history,
                  struct estimate *e);
void estimate_free(struct estimate *e);

/* Each slot's estimated seconds (estimate.slot_s at the default rates),
 * for run's ETA (run/progress.h); NULL when out of memory. The caller
 * frees it. */
double *estimate_slots_seconds(const struct spec *s, const struct cell *cells, size_t n,
                               const struct run_slot *seq, size_t ns);

/* Each cell's pgbench data loads when the cells run in this order, one
 * slot each (plan's table); NULL when out of memory. The caller frees it. */
size_t *estimate_cell_loads(const struct spec *s, const struct cell *cells, size_t n);

/* What run's ETA knows (run/progress.h): the slots run so far and left,
 * split by whether the plan priced them above 0 s (steps that declare no
 * duration and no workload are priced 0 s). */
struct estimate_progress {
	double priced_plan_s, priced_spent_s; /* priced slots run: planned, taken */
	double unpriced_spent_s;              /* slots priced 0 s run: taken */
	size_t unpriced_done;
	double left_plan_s;   /* the plan's seconds of the slots left */
	size_t unpriced_left; /* slots left priced 0 s */
};

/* Seconds left: the plan's seconds left x (taken / planned) of the priced
 * slots run, plus the mean seconds a slot priced 0 s took x those left.
 * < 0: unknown (slots priced 0 s are left and none of them ran yet). */
double estimate_eta(const struct estimate_progress *p);

/* Seconds as "45s", "3m10s", "1h02m", "2d03h" (the ETA's form too); "?"
 * below 0 (or NaN), "> 100 years" above a hundred years. */
void estimate_format_seconds(double s, char *buf, size_t len);

#endif

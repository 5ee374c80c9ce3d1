/* progress: what a long sweep shows on stderr.
 *
 * On a terminal: one line redrawn in place with cell k/N, the cell's
 * parameters, the running step, a live figure reported by the workload and
 * an ETA, and above it the line of each finished step with its figures.
 * Otherwise: plain lines, one when a cell starts and one when each step
 * ends. Quiet mode prints nothing. Rate-limited so that workloads may report
 * often without cost. */
#ifndef BENCHGRID_PROGRESS_H
#define BENCHGRID_PROGRESS_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "estimate.h"

struct progress {
	bool tty;
	int quiet;
	size_t k, n;     /* current cell (1-based) of n */
	char label[160]; /* cell parameters */
	char step[64];   /* running step */
	char unit[16];   /* live figure */
	double live;
	double last_draw; /* monotonic seconds */
	double eta;       /* seconds, < 0 unknown */
	/* The ETA against plan's estimate (progress_plan): the estimated
	 * seconds of each slot to run, how many have passed, the estimate of
	 * those that ran and the seconds they took. */
	double *plan_s;
	size_t plan_n, plan_done;
	struct estimate_progress sofar;
	double plan_left;  /* the plan's seconds for what is left, unscaled; < 0 none */
	double step_start; /* monotonic seconds */
	/* On a terminal, a thread redraws the line twice a second so the
	 * elapsed time and ETA move even when a workload reports nothing. */
	pthread_t ticker;
	pthread_mutex_t lock;
	bool ticking;
	volatile bool stop_ticker;
};

void progress_init(struct progress *p, int quiet);
/* eta: seconds left, including this cell (< 0 unknown); with a plan
 * (progress_plan) the ETA comes from the plan instead. */
void progress_cell(struct progress *p, size_t k, size_t n, const char *label, double eta);
/* Compare progress with plan's estimate: slot_s[j] the estimated seconds
 * of the j-th slot (a repetition of a cell) to run (spec/estimate.h's
 * estimate_slots_seconds, taken over; NULL: keep the caller's ETA). The
 * ETA is then the estimate of the slots left, scaled by the seconds the
 * slots run so far took over their estimate, and the line shows the
 * plan's own figure beside it. */
void progress_plan(struct progress *p, double *slot_s, size_t n);
/* The next slot took spent seconds; ran false: it was passed over (its
 * cell had ended: converged or failed), so its estimate drops out. */
void progress_slot_took(struct progress *p, double spent, bool ran);
void progress_step(struct progress *p, const char *step);
/* The workload's live figure (struct step_ctx.progress). */
void progress_live(void *p, const char *unit, double value);
/* The step's line ("  io: ok, iops=... lat_p99=..."), on a terminal as
 * in a log. */
void progress_step_done(struct progress *p, const char *step, bool failed, const char *summary);
/* "  rep 2/5" (or "  warmup 1/2") before a repetition's step lines, when a
 * cell runs more than one. */
void progress_rep(struct progress *p, bool warmup, size_t i, size_t n);
/* A message that must not be drawn over (warnings, cell results). */
void progress_note(struct progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void progress_clear(struct progress *p);
/* Stop the ticker thread (call once at the end). */
void progress_end(struct progress *p);

#endif

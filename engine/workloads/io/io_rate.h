/* io_rate: rate limits and thinktime of the io step (`rate`, `rate_iops`,
 * `rate_process`, `thinktime`, `thinktime_blocks`; docs/steps/io.md,
 * "Rate limits and pacing").
 *
 * A paced job has a struct io_pace (job->pace; NULL otherwise, so an
 * unpaced job pays one predictable branch). Each direction with a limit has
 * a planned schedule: the n-th I/O of that direction is due at
 * t0 + the sum of n inter-arrival steps, each 1/rate (linear) or drawn from
 * an exponential distribution of that mean (poisson), like fio's
 * rate_process. An I/O is not issued before it is due; an I/O issued late
 * (the device was slow) does not move the schedule, so the job catches up,
 * and its latency from the planned time (`sched_lat_*`) shows the queueing
 * that the latency from submission hides (coordinated omission). */
#ifndef BENCHGRID_IO_RATE_H
#define BENCHGRID_IO_RATE_H

#include <stdbool.h>
#include <stdint.h>

#include "hist.h"
#include "io_job.h"
#include "io_opts.h"

struct io_uring;
struct step_result;

struct io_pace {
	/* mean ns between I/Os of reads [0], writes [1], or per byte with a
	 * byte rate (by_bytes: an I/O of len bytes is due len x step later, so
	 * bssplit's mixed sizes keep the byte rate); 0 = no limit */
	double step[2];
	bool by_bytes[2];
	double due[2]; /* when the next I/O of each direction is due, ns after t0 */
	uint64_t t0;   /* the schedule's origin: the step's t0 */
	bool poisson;
	bool rated;   /* some direction has a limit: sched_lat is recorded */
	bool slack;   /* the thread's timer slack is lowered (first wait) */
	uint64_t rng; /* poisson draws (its own stream: the offsets do not change) */
	uint64_t think_ns, think_blocks, think_n, think_until;
	bool pend, pend_rd; /* the next I/O, chosen but not yet due */
	uint64_t pend_off, pend_len;
	uint64_t plan;       /* planned time of the I/O last let through */
	bool prev;           /* psync: that I/O's sched_lat is not yet recorded */
	uint64_t *slot_plan; /* queued engines: planned time of the I/O in each slot */
	struct hist *sched;  /* completion - planned time, measured I/Os only */
};

/* Allocate j->pace when o->rt.paced (nslots planned times); 0 or -ENOMEM. */
int io_pace_init(struct io_job *j, const struct io_opts *o, unsigned nslots);
void io_pace_free(struct io_job *j);

/* The gap in ns to the next I/O of direction `wr`, `len` bytes long (mean
 * step[wr], times len for a byte rate); poisson
 * draws it from an exponential distribution. Advances p->rng. */
double io_pace_step(struct io_pace *p, int wr, uint64_t len);

/* Sleep until `until` (or less: at most 50 ms, and not past the end of the
 * run), then return the clock. */
uint64_t io_pace_sleep(struct io_job *j, uint64_t until);

/* A queued engine's wait for a completion of the paced job at `now`: until
 * when to wait at most (`until`, capped as io_pace_sleep caps it; <= now:
 * do not wait). */
uint64_t io_pace_wait_until(struct io_job *j, uint64_t now, uint64_t until);

/* io_uring: submit, and wait for a completion or until `until` (UINT64_MAX:
 * a completion only). Returns what io_uring_submit_and_wait returns; a
 * timeout is 0. */
int io_pace_submit_wait(struct io_job *j, struct io_uring *ring, uint64_t now, uint64_t until);

/* After the join: sched_lat_* metrics (rated jobs) and the pacing infos. */
void io_rate_results(struct step_result *res, const struct io_opts *o, struct io_job *jobs);

/* May the next I/O go at `now`, with `inflight` I/Os in the device? 0: yes,
 * and *off, *len, *rd are set, p->plan is its planned time. Otherwise the time to
 * wait for: its due time, or UINT64_MAX to let the in-flight I/O finish
 * first (thinktime waits for an idle job, as fio's does). */
static inline uint64_t io_pace_gate(struct io_job *j, uint64_t now, unsigned inflight, uint64_t *off,
                                    uint64_t *len, bool *rd)
{
	struct io_pace *p = j->pace;
	if (p->think_ns && p->think_n >= p->think_blocks) {
		if (inflight)
			return UINT64_MAX;
		if (!p->think_until)
			p->think_until = now + p->think_ns;
		if (now < p->think_until)
			return p->think_until;
		p->think_until = 0;
		p->think_n = 0;
	}
	if (!p->pend) {
		p->pend_rd = io_next(j, &p->pend_off, &p->pend_len);
		p->pend = true;
	}
	int wr = !p->pend_rd;
	uint64_t plan = now;
	if (p->step[wr] > 0) {
		if (!p->t0)
			p->t0 = j->sh->t0;
		plan = p->t0 + (uint64_t)p->due[wr];
		if (now < plan)
			return plan;
		p->due[wr] += io_pace_step(p, wr, p->pend_len);
	}
	p->pend = false;
	p->prev = true;
	p->plan = plan;
	p->think_n++;
	*off = p->pend_off;
	*len = p->pend_len;
	*rd = p->pend_rd;
	return 0;
}

/* A completed I/O of a paced job, at `now`, planned for `plan`. */
static inline void io_pace_done(struct io_job *j, uint64_t plan, uint64_t now)
{
	if (j->pace->rated && now >= j->sh->measure_start)
		hist_record(j->pace->sched, now - plan);
}

/* psync: the I/O last let through completed at `now` (called before the
 * next gate, and after the loop), so a psync I/O costs one branch. */
static inline void io_pace_prev(struct io_job *j, uint64_t now)
{
	if (j->pace->prev) {
		j->pace->prev = false;
		io_pace_done(j, j->pace->plan, now);
	}
}

/* The next I/O of an engine with one I/O in flight (psync, mmap): false
 * when the job is over. A paced job first closes the last I/O's sched_lat,
 * then sleeps until the next one is due (*now moves on). */
static inline bool io_sync_next(struct io_job *j, uint64_t *now, uint64_t issued, uint64_t *off,
                                uint64_t *len, bool *rd)
{
	for (;;) {
		if (!io_may_issue(j, *now, issued))
			return false;
		*len = j->sh->o->bs;
		if (!j->pace) {
			*rd = io_next(j, off, len);
			return true;
		}
		io_pace_prev(j, *now);
		uint64_t wait = io_pace_gate(j, *now, 0, off, len, rd);
		if (!wait)
			return true;
		*now = io_pace_sleep(j, wait);
	}
}

/* After a completed I/O of such an engine: `sync: every N` writes, an
 * fdatasync (*t moves past it). -1 when it failed (the job stops). */
static inline int io_sync_every(struct io_job *j, bool rd, uint64_t *nw, uint64_t *t)
{
	const struct io_opts *o = j->sh->o;
	if (rd || o->sync != IO_SYNC_EVERY || ++*nw < o->sync_every)
		return 0;
	*nw = 0;
	if (io_sync_file(j))
		return -1;
	*t = io_now_ns();
	return 0;
}

#endif

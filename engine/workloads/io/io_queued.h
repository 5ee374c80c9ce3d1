/* io_queued: the loop of the engines that keep iodepth I/Os in flight
 * (io_uring, libaio), as io_sync_next/io_sync_every (io_rate.h) are the
 * steps of the engines with one.
 *
 * The loop (io_queued_run) decides everything the engines share: which I/O
 * goes next and when (io_next, pacing), when the job stops, `sync: every N`
 * (drain, fdatasync), which buffer slot each I/O uses, its verify pattern,
 * and the accounting of each completion (io_queued_done). An engine gives
 * four hooks: make an I/O, submit a batch, wait for completions, take
 * them. Its context starts with a struct io_queued (io_queued_init in its
 * set-up, io_queued_free in its clean-up), and its run is one call of
 * io_queued_run with its hooks.
 *
 * The loop is inline, and the hooks a static const table, so that each
 * engine's run is compiled with its hooks inlined and costs what a loop of
 * its own did (callgrind, 4k random I/O at depth 32: within 1% of the
 * instructions per I/O of the engines' former loops). An out-of-line loop
 * calling the hooks through pointers once per batch cost 4-5% more (a
 * submit call every 4 I/Os, and each I/O's decision stored, then read back
 * to make it). */
#ifndef BENCHGRID_IO_QUEUED_H
#define BENCHGRID_IO_QUEUED_H

#include <stdbool.h>
#include <stdint.h>

#include "io_job.h"
#include "io_rate.h"

struct io_queued;

/* What the I/O in a slot does: set by the loop as it is made, read back at
 * its completion. */
struct io_qslot {
	uint64_t off, len;
	uint64_t t; /* when it was issued */
	bool rd;
};

/* The loop's running state, which a reap changes (io_queued_done). It
 * lives in the loop's frame, apart from struct io_queued (which the engine
 * context's pointer makes visible to every call), so that the compiler can
 * keep it in registers. */
struct io_qrun {
	/* I/Os made and not yet completed. q->free[inflight..depth) are the
	 * free slots: an I/O takes free[inflight++], a completion gives its
	 * slot back at free[--inflight]. */
	unsigned inflight;
	bool draining; /* no new I/O: the job is over or an I/O failed */
};

struct io_queued_hooks {
	/* Make the I/O of `slot` (its buffer is the slot's in j->bufs), to be
	 * submitted with the rest of its batch. Inlined in the loop, as all the
	 * hooks are: it costs no call. */
	void (*prep)(struct io_queued *q, unsigned slot, bool rd, uint64_t off, uint64_t len);
	/* Submit the batch made; with `hold` the wait that follows may submit
	 * it instead. 0, or a negative errno after io_job_fail: the loop makes
	 * no new I/O and waits for the I/O in flight, so a buffer is never
	 * freed under the kernel. The I/Os of the batch that were not
	 * submitted and never will be give their slots back first
	 * (q->free[--run->inflight] = slot). */
	int (*submit)(struct io_queued *q, struct io_qrun *run, bool hold);
	/* Submit what is held and wait for at least one completion; paced
	 * (pwait != 0), until pwait at the most (io_pace_wait_until; UINT64_MAX:
	 * a completion only). 0 (a timeout or an interrupted wait too), or a
	 * negative errno after io_job_fail: the loop stops. */
	int (*wait)(struct io_queued *q, uint64_t now, uint64_t pwait);
	/* Every completion the wait found: io_queued_done(q, run, slot, res, now). */
	void (*reap)(struct io_queued *q, struct io_qrun *run, uint64_t now);
};

/* The engine's part of the loop's state: the first member of its context. */
struct io_queued {
	struct io_job *j;
	unsigned depth; /* j->nslots */
	unsigned *free; /* the slots in flight, then the free ones (io_qrun) */
	unsigned left;  /* after the run: I/Os still in flight (a failed wait) */
	struct io_qslot *slot;
};

/* In the engine's setup: q's arrays for j->nslots slots. 0, or -ENOMEM
 * after io_job_fail. */
int io_queued_init(struct io_queued *q, struct io_job *j);
/* In the engine's cleanup (also after a failed or no io_queued_init). */
void io_queued_free(struct io_queued *q);

/* The completion of the I/O in `slot` at `now`, with the kernel's result
 * `res` (bytes moved, or a negative errno): a short one is finished in
 * place, a failed one fails the job (run->draining), and the slot is free. */
static inline void io_queued_done(struct io_queued *q, struct io_qrun *run, unsigned slot, int64_t res,
                                  uint64_t now)
{
	struct io_job *j = q->j;
	const struct io_qslot *s = &q->slot[slot];
	/* in locals: the calls below could change *s, as far as the compiler knows */
	const uint64_t off = s->off, len = s->len, t = s->t;
	const bool rd = s->rd;
	unsigned char *buf = j->bufs + (uint64_t)slot * j->slot_sz;
	int err = 0;
	if (res < 0)
		err = (int)res;
	else if ((uint64_t)res < len) /* rare: finish it synchronously */
		err = io_full(j, rd, buf, len, off, (uint64_t)res);
	if (err) {
		io_short(j, rd, err, off);
		run->draining = true;
	} else {
		io_done(j, rd, buf, off, len, now - t, now);
		if (j->pace) /* sched_lat (io_rate.h) */
			io_pace_done(j, j->pace->slot_plan[slot], now);
	}
	q->free[--run->inflight] = slot;
}

/* The engine's run (ctx: its context, which starts with its struct
 * io_queued): I/O until the job is over, then io_finish(). Inline,
 * so that the engine's hooks (h: its static const table) are inlined in
 * it: the loop costs what a loop of the engine's own would. A failed
 * submit ends the job's new I/O and the loop drains what is in flight; a
 * failed wait stops the loop, q->left says how many I/Os may still be in
 * flight, and the engine's clean-up waits for them (io_uring: a bounded
 * wait before the ring goes; libaio: io_destroy waits). */
static inline __attribute__((always_inline)) void io_queued_run(struct io_job *j, void *ctx,
                                                                const struct io_queued_hooks *h)
{
	struct io_queued *q = ctx;
	const struct io_opts *o = j->sh->o;
	const uint64_t ms = j->sh->measure_start;
	const unsigned depth = q->depth;
	const bool sync_every = o->sync == IO_SYNC_EVERY;
	/* Submit as the I/Os are made, a few at a time, not the whole refill in
	 * one go: a burst of `depth` writes reaches the device together, finishes
	 * together, and the queue then runs empty while the next burst is made
	 * (io_uring, 4k random writes at depth 32 on a virtio disk: ~110k IOPS in
	 * bursts, ~155k in batches of 4, fio's ~150k submitting one by one; reads
	 * gain less). A quarter of the syscalls of one-by-one, so CPU per I/O
	 * stays below fio's. */
	const unsigned batch = depth >= 32 ? depth / 8 : depth >= 4 ? 4 : 1;
	uint64_t now = io_now_ns(), issued = 0, nw = 0;
	struct io_qrun run = {0, false};

	for (;;) {
		uint64_t pwait = 0; /* paced: the next I/O is not due before this */
		unsigned made = 0;  /* made, not yet given to submit */
		while (!run.draining && run.inflight < depth) {
			if (!io_may_issue(j, now, issued)) {
				run.draining = true;
				break;
			}
			if (sync_every && nw >= o->sync_every)
				break; /* drain, then fdatasync below */
			unsigned slot = q->free[run.inflight];
			uint64_t off, len;
			bool rd;
			if (j->pace) { /* rate, thinktime (io_rate.h) */
				if ((pwait = io_pace_gate(j, now, run.inflight, &off, &len, &rd)))
					break;
				j->pace->slot_plan[slot] = j->pace->plan;
			} else {
				rd = io_next(j, &off, &len);
			}
			struct io_qslot *s = &q->slot[slot];
			s->off = off;
			s->len = len;
			s->t = now;
			s->rd = rd;
			if (!rd && o->verify)
				io_pattern_fill(j->bufs + (uint64_t)slot * j->slot_sz, len, off, o->seed);
			h->prep(q, slot, rd, off, len);
			if (now >= ms)
				issued += len;
			if (!rd)
				nw++;
			run.inflight++;
			if (++made >= batch) {
				made = 0;
				if (h->submit(q, &run, false)) {
					run.draining = true; /* failed: drain what is in flight */
					break;
				}
			}
		}
		if (made && h->submit(q, &run, true))
			run.draining = true;
		if (pwait && !run.inflight) {
			now = io_pace_sleep(j, pwait);
			continue;
		}
		if (!run.inflight) {
			if (!run.draining && sync_every && nw >= o->sync_every) {
				nw = 0;
				if (io_sync_file(j))
					break;
				now = io_now_ns();
				continue;
			}
			break;
		}
		if (h->wait(q, now, pwait))
			break;
		now = io_now_ns();
		h->reap(q, &run, now);
		io_publish(j);
	}
	q->left = run.inflight;
	io_finish(j);
}

#endif

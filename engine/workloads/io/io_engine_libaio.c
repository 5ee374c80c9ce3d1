/* io_engine_libaio: Linux native AIO through libaio, iodepth I/Os in flight
 * per thread, as fio's libaio engine.
 *
 * One AIO context of iodepth events per thread, one iocb per buffer slot.
 * The iocbs are submitted as they are made, a few at a time (the batches of
 * io_engine_uring.c, for the same reason: a whole refill at once reaches
 * the device as a burst), and every completion present is taken with one
 * io_getevents() that waits for at least one. The clock is read once per
 * batch of completions. Without direct: true the kernel does buffered AIO
 * synchronously inside io_submit(), as it does for fio. */
#include <errno.h>
#include <libaio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "io_engine.h"
#include "io_job.h"
#include "io_rate.h"

struct io_aio {
	io_context_t ctx;
	bool inited;
	struct iocb *cbs;      /* one per slot */
	struct iocb **pending; /* made, not yet submitted */
	unsigned npending;
	uint64_t *slot_t; /* when each slot's I/O was issued */
	unsigned *free_slots;
	struct io_event *ev;
};

static int aio_setup(struct io_job *j, void **ctx)
{
	struct io_aio *a = calloc(1, sizeof(*a));
	if (!a) {
		io_job_fail(j, -ENOMEM, "libaio: out of memory");
		return -ENOMEM;
	}
	*ctx = a;
	int ret = io_setup((int)j->nslots, &a->ctx); /* libaio returns -errno */
	if (ret < 0) {
		io_job_fail(j, ret, "libaio: io_setup of %u events: %s%s", j->nslots, strerror(-ret),
		            ret == -EAGAIN ? " (all contexts together may have at most fs.aio-max-nr "
		                             "events: /proc/sys/fs/aio-nr, aio-max-nr)"
		                           : "");
		return ret;
	}
	a->inited = true;
	a->cbs = calloc(j->nslots, sizeof(*a->cbs));
	a->pending = calloc(j->nslots, sizeof(*a->pending));
	a->slot_t = calloc(j->nslots, sizeof(*a->slot_t));
	a->free_slots = calloc(j->nslots, sizeof(*a->free_slots));
	a->ev = calloc(j->nslots, sizeof(*a->ev));
	if (!a->cbs || !a->pending || !a->slot_t || !a->free_slots || !a->ev) {
		io_job_fail(j, -ENOMEM, "libaio: out of memory");
		return -ENOMEM;
	}
	snprintf(j->engine_setup, sizeof(j->engine_setup), "io_setup(%u)", j->nslots);
	return 0;
}

static void aio_cleanup(struct io_job *j, void *ctx)
{
	(void)j;
	struct io_aio *a = ctx;
	if (!a)
		return;
	if (a->inited) /* waits for I/O still in flight after a failure */
		io_destroy(a->ctx);
	free(a->cbs);
	free(a->pending);
	free(a->slot_t);
	free(a->free_slots);
	free(a->ev);
	free(a);
}

/* Make the iocb of one I/O in `slot` (its buffer), to be submitted. */
static void aio_prep(struct io_job *j, struct io_aio *a, unsigned slot, bool rd, uint64_t off, uint64_t len,
                     uint64_t now)
{
	const struct io_opts *o = j->sh->o;
	unsigned char *buf = j->bufs + (uint64_t)slot * j->slot_sz;
	struct iocb *cb = &a->cbs[slot];
	if (!rd && o->verify)
		io_pattern_fill(buf, len, off, o->seed);
	if (rd)
		io_prep_pread(cb, j->fd, buf, (size_t)len, (long long)off);
	else
		io_prep_pwrite(cb, j->fd, buf, (size_t)len, (long long)off);
	a->slot_t[slot] = now;
	a->pending[a->npending++] = cb;
}

/* Submit what aio_prep made. On failure the job fails, and the iocbs not
 * taken are no longer in flight (*inflight). 0 or a negative errno. */
static int aio_flush(struct io_job *j, struct io_aio *a, unsigned *inflight)
{
	unsigned done = 0;
	while (done < a->npending) {
		int r = io_submit(a->ctx, (long)(a->npending - done), a->pending + done);
		if (r == -EINTR)
			continue;
		if (r <= 0) {
			r = r ? r : -EIO;
			io_job_fail(j, r, "%s: io_submit failed: %s", j->path, strerror(-r));
			*inflight -= a->npending - done;
			a->npending = 0;
			return r;
		}
		done += (unsigned)r;
	}
	a->npending = 0;
	return 0;
}

/* Wait for at least one completion, or (paced) until `pwait` at most. */
static int aio_wait(struct io_job *j, struct io_aio *a, uint64_t now, uint64_t pwait)
{
	if (!pwait)
		return io_getevents(a->ctx, 1, (long)j->nslots, a->ev, NULL);
	uint64_t until = io_pace_wait_until(j, now, pwait);
	uint64_t rel = until > now ? until - now : 0;
	struct timespec ts = {(time_t)(rel / 1000000000ull), (long)(rel % 1000000000ull)};
	return io_getevents(a->ctx, rel ? 1 : 0, (long)j->nslots, a->ev, &ts);
}

/* Account the `got` completions of a->ev at `now`; false when one failed. */
static bool aio_reap(struct io_job *j, struct io_aio *a, int got, uint64_t now, unsigned *nfree)
{
	bool ok = true;
	for (int i = 0; i < got; i++) {
		struct iocb *cb = a->ev[i].obj;
		unsigned slot = (unsigned)(cb - a->cbs);
		bool rd = cb->aio_lio_opcode == IO_CMD_PREAD;
		uint64_t off = (uint64_t)cb->u.c.offset, len = cb->u.c.nbytes;
		unsigned char *buf = cb->u.c.buf;
		long res = (long)a->ev[i].res;
		int err = 0;
		if (res < 0)
			err = (int)res;
		else if ((uint64_t)res < len) /* rare: finish it synchronously */
			err = io_full(j, rd, buf, len, off, (uint64_t)res);
		if (err) {
			io_short(j, rd, err, off);
			ok = false;
		} else {
			io_done(j, rd, buf, off, len, now - a->slot_t[slot], now);
			if (j->pace) /* sched_lat (io_rate.h) */
				io_pace_done(j, j->pace->slot_plan[slot], now);
		}
		a->free_slots[(*nfree)++] = slot;
	}
	return ok;
}

static void aio_run(struct io_job *j, void *ctx)
{
	struct io_aio *a = ctx;
	const struct io_opts *o = j->sh->o;
	const uint64_t ms = j->sh->measure_start;
	const unsigned depth = j->nslots;
	const unsigned batch = depth >= 32 ? depth / 8 : depth >= 4 ? 4 : 1;
	uint64_t now = io_now_ns(), issued = 0, nw = 0;
	unsigned inflight = 0, nfree = depth;
	bool draining = false;

	for (unsigned i = 0; i < depth; i++)
		a->free_slots[i] = depth - 1 - i;
	for (;;) {
		uint64_t pwait = 0; /* paced: the next I/O is not due before this */
		while (!draining && inflight < depth) {
			if (!io_may_issue(j, now, issued)) {
				draining = true;
				break;
			}
			if (o->sync == IO_SYNC_EVERY && nw >= o->sync_every)
				break; /* drain, then fdatasync below */
			uint64_t off, len;
			bool rd;
			if (j->pace) { /* rate, thinktime (io_rate.h) */
				if ((pwait = io_pace_gate(j, now, inflight, &off, &len, &rd)))
					break;
				j->pace->slot_plan[a->free_slots[nfree - 1]] = j->pace->plan;
			} else {
				rd = io_next(j, &off, &len);
			}
			aio_prep(j, a, a->free_slots[--nfree], rd, off, len, now);
			if (now >= ms)
				issued += len;
			if (!rd)
				nw++;
			inflight++;
			if (a->npending >= batch && aio_flush(j, a, &inflight)) {
				draining = true;
				break;
			}
		}
		if (a->npending && aio_flush(j, a, &inflight))
			draining = true;
		if (pwait && !inflight) {
			now = io_pace_sleep(j, pwait);
			continue;
		}
		if (!inflight) {
			if (!draining && o->sync == IO_SYNC_EVERY && nw >= o->sync_every) {
				nw = 0;
				if (io_sync_file(j))
					break;
				now = io_now_ns();
				continue;
			}
			break;
		}
		int got = aio_wait(j, a, now, pwait);
		now = io_now_ns();
		if (got == -EINTR)
			continue;
		if (got < 0) {
			io_job_fail(j, got, "%s: io_getevents failed: %s", j->path, strerror(-got));
			break; /* io_destroy waits for the I/O still in flight */
		}
		if (!aio_reap(j, a, got, now, &nfree))
			draining = true;
		inflight -= (unsigned)got;
		io_publish(j);
	}
	io_finish(j);
}

/* Whether the kernel gives this process an AIO context (CONFIG_AIO, a
 * seccomp filter, fs.aio-max-nr). */
static int aio_probe(void)
{
	io_context_t c = 0;
	int ret = io_setup(1, &c);
	if (ret == 0)
		io_destroy(c);
	return ret;
}

const struct io_engine_ops io_engine_libaio = {
    .version = IO_ENGINE_OPS_VERSION,
    .name = "libaio",
    .queued = true,
    .probe = aio_probe,
    .setup = aio_setup,
    .run = aio_run,
    .cleanup = aio_cleanup,
};

/* io_engine_libaio: Linux native AIO through libaio, iodepth I/Os in flight
 * per thread, as fio's libaio engine.
 *
 * One AIO context of iodepth events per thread, one iocb per buffer slot.
 * The loop is io_queued.h's; here are its hooks: an iocb per I/O, each
 * batch (a few iocbs: they are submitted as they are made) given to
 * io_submit(), and every completion present taken with one io_getevents()
 * that waits for at least one. Without direct: true the kernel does
 * buffered AIO synchronously inside io_submit(), as it does for fio. */
#include <errno.h>
#include <libaio.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "io_engine.h"
#include "io_job.h"
#include "io_queued.h"
#include "io_rate.h"

struct io_aio {
	struct io_queued q; /* first: io_queued_run's ctx and the hooks' q are this */
	io_context_t ctx;
	bool inited;
	struct iocb *cbs;      /* one per slot */
	struct iocb **pending; /* made, not yet submitted */
	unsigned npending;
	struct io_event *ev;
	int got; /* completions in ev, from the last wait */
};
_Static_assert(offsetof(struct io_aio, q) == 0, "io_queued_run takes the context for its io_queued");

/* Make the iocb of one I/O (io_queued.h), to be submitted with its batch. */
static void aio_prep(struct io_queued *q, unsigned slot, bool rd, uint64_t off, uint64_t len)
{
	struct io_aio *a = (struct io_aio *)q;
	unsigned char *buf = q->j->bufs + (uint64_t)slot * q->j->slot_sz;
	struct iocb *cb = &a->cbs[slot];
	if (rd)
		io_prep_pread(cb, q->j->fd, buf, (size_t)len, (long long)off);
	else
		io_prep_pwrite(cb, q->j->fd, buf, (size_t)len, (long long)off);
	a->pending[a->npending++] = cb;
}

/* Submit the batch made, all of it; io_submit has no way to wait, so
 * `hold` changes nothing. */
static int aio_submit(struct io_queued *q, struct io_qrun *run, bool hold)
{
	(void)hold;
	struct io_aio *a = (struct io_aio *)q;
	unsigned done = 0, n = a->npending;
	a->npending = 0;
	while (done < n) {
		int r = io_submit(a->ctx, (long)(n - done), a->pending + done);
		if (r == -EINTR)
			continue;
		if (r <= 0) {
			r = r ? r : -EIO;
			io_job_fail(q->j, r, "%s: io_submit failed: %s", q->j->path, strerror(-r));
			for (unsigned k = done; k < n; k++) /* never submitted: their slots back */
				q->free[--run->inflight] = (unsigned)(a->pending[k] - a->cbs);
			return r;
		}
		done += (unsigned)r;
	}
	return 0;
}

/* Wait for at least one completion, or (paced) until `pwait` at most. */
static int aio_wait(struct io_queued *q, uint64_t now, uint64_t pwait)
{
	struct io_aio *a = (struct io_aio *)q;
	struct io_job *j = q->j;
	int got;
	if (!pwait) {
		got = io_getevents(a->ctx, 1, (long)q->depth, a->ev, NULL);
	} else {
		uint64_t until = io_pace_wait_until(j, now, pwait);
		uint64_t rel = until > now ? until - now : 0;
		struct timespec ts = {(time_t)(rel / 1000000000ull), (long)(rel % 1000000000ull)};
		got = io_getevents(a->ctx, rel ? 1 : 0, (long)q->depth, a->ev, &ts);
	}
	a->got = got > 0 ? got : 0;
	if (got < 0 && got != -EINTR) {
		io_job_fail(j, got, "%s: io_getevents failed: %s", j->path, strerror(-got));
		return got; /* io_destroy waits for the I/O still in flight */
	}
	return 0;
}

/* The completions the wait found. */
static void aio_reap(struct io_queued *q, struct io_qrun *run, uint64_t now)
{
	struct io_aio *a = (struct io_aio *)q;
	for (int i = 0; i < a->got; i++)
		io_queued_done(q, run, (unsigned)(a->ev[i].obj - a->cbs), (long)a->ev[i].res, now);
}

/* The loop of io_queued.h with this engine's hooks inlined in it. */
static void aio_run(struct io_job *j, void *ctx)
{
	static const struct io_queued_hooks hooks = {
	    .prep = aio_prep, .submit = aio_submit, .wait = aio_wait, .reap = aio_reap};
	io_queued_run(j, ctx, &hooks);
}

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
	a->ev = calloc(j->nslots, sizeof(*a->ev));
	if (!a->cbs || !a->pending || !a->ev) {
		io_job_fail(j, -ENOMEM, "libaio: out of memory");
		return -ENOMEM;
	}
	snprintf(j->engine_setup, sizeof(j->engine_setup), "io_setup(%u)", j->nslots);
	return io_queued_init(&a->q, j);
}

static void aio_cleanup(struct io_job *j, void *ctx)
{
	(void)j;
	struct io_aio *a = ctx;
	if (!a)
		return;
	if (a->inited) /* waits for I/O still in flight after a failure */
		io_destroy(a->ctx);
	io_queued_free(&a->q);
	free(a->cbs);
	free(a->pending);
	free(a->ev);
	free(a);
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

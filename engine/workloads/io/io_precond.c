/* io_precond: the fill before the measured part (see io_precond.h). */
#include "io_precond.h"

#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io_job.h"

#define PRECOND_CHUNK (1u << 20)
#define PRECOND_DEPTH 32 /* SNIA's preconditioning runs at queue depth 32 */
#define PRECOND_BATCH 4  /* submitted as made, a few at a time (io_engine_uring.c) */

/* Where the fill is: its file, its buffer, its series. */
struct precond {
	const struct io_opts *o;
	const struct step_ctx *cx;
	struct step_result *res;
	int fd;
	const char *path;
	unsigned char *buf;
	uint64_t t0, last_t, bytes, last_b, total, planned;
	/* the writes go through a ring of PRECOND_DEPTH (pwrite when there is
	 * none): a random pass over a large device at depth 1 takes hours */
	struct io_uring ring;
	bool ring_ok;
	unsigned inflight, unsubmitted;
};

/* A sample of the series and the progress line, once per interval. */
static void precond_tick(struct precond *p, bool last)
{
	uint64_t now = io_now_ns();
	double dt = (double)(now - p->last_t) / 1e9;
	if (!last && dt < p->o->interval)
		return;
	if (dt <= 0)
		return;
	double mb_s = (double)(p->bytes - p->last_b) / dt / 1e6;
	result_sample(p->res, "precondition.mb_s", "MB/s", (double)(now - p->t0) / 1e9, mb_s);
	if (p->cx->progress)
		p->cx->progress(p->cx->progress_ud, "MB/s", mb_s);
	if (p->cx->verbose && !last)
		fprintf(stderr, "  precondition %s: %.0f%% (%.0f MB/s)\n", p->path,
		        100.0 * (double)p->total / (double)p->planned, mb_s);
	p->last_t = now;
	p->last_b = p->bytes;
}

/* Account len written bytes; the stop flag and the series. */
static int precond_done(struct precond *p, uint64_t len)
{
	p->bytes += len;
	p->total += len;
	if (p->cx->stop && __atomic_load_n(p->cx->stop, __ATOMIC_ACQUIRE)) { /* set by another thread */
		result_fail(p->res, "io: interrupted during precondition");
		return -EINTR;
	}
	precond_tick(p, false);
	return 0;
}

static int precond_fail(struct precond *p, uint64_t off, int e)
{
	result_fail(p->res, "io: precondition: %s: write at offset %llu: %s", p->path,
	            (unsigned long long)off, strerror(e));
	return -e;
}

static int precond_pwrite(struct precond *p, uint64_t off, uint64_t len)
{
	uint64_t done = 0;
	while (done < len) {
		ssize_t w = pwrite(p->fd, p->buf + done, len - done, (off_t)(off + done));
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return precond_fail(p, off + done, w < 0 ? errno : ENOSPC);
		done += (uint64_t)w;
	}
	return precond_done(p, len);
}

/* Wait for one write of the ring; a short one is finished with pwrite. */
static int precond_reap(struct precond *p)
{
	struct io_uring_cqe *cqe;
	int ret = io_uring_submit_and_wait(&p->ring, 1);
	p->unsubmitted = 0;
	if (ret >= 0)
		ret = io_uring_wait_cqe(&p->ring, &cqe);
	if (ret < 0)
		return precond_fail(p, 0, -ret);
	uint64_t off = cqe->user_data >> 24 << 12, len = (cqe->user_data & 0xffffff) << 9;
	int res = cqe->res;
	io_uring_cqe_seen(&p->ring, cqe);
	p->inflight--;
	if (res < 0)
		return precond_fail(p, off, -res);
	if ((uint64_t)res < len) {
		p->bytes += (uint64_t)res;
		p->total += (uint64_t)res;
		return precond_pwrite(p, off + (uint64_t)res, len - (uint64_t)res);
	}
	return precond_done(p, len);
}

static int precond_drain(struct precond *p)
{
	int r = 0;
	while (p->ring_ok && p->inflight)
		if ((r = precond_reap(p)))
			break;
	return r;
}

/* One write of len bytes (at most 1 MiB, a multiple of 512) at off (a
 * multiple of 4 KiB): both fit the completion's user data. */
static int precond_write(struct precond *p, uint64_t off, uint64_t len)
{
	if (!p->ring_ok)
		return precond_pwrite(p, off, len);
	int r = 0;
	if (p->inflight == PRECOND_DEPTH && (r = precond_reap(p)))
		return r;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&p->ring);
	io_uring_prep_write(sqe, p->fd, p->buf, (unsigned)len, off);
	io_uring_sqe_set_data64(sqe, off >> 12 << 24 | len >> 9);
	p->inflight++;
	if (++p->unsubmitted >= PRECOND_BATCH) {
		int ret = io_uring_submit(&p->ring);
		if (ret < 0 && ret != -EAGAIN && ret != -EBUSY && ret != -EINTR)
			return precond_fail(p, off, -ret);
		p->unsubmitted = 0;
	}
	return 0;
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* One file: the sequential fill, then the random passes (block k of a pass
 * is (k * step + start) mod nblocks, a permutation as step is coprime). */
static int precond_file(struct precond *p, uint64_t fsize)
{
	const struct io_opts *o = p->o;
	int r = 0;
	for (uint64_t off = 0; off < fsize && !r; off += PRECOND_CHUNK)
		r = precond_write(p, off, fsize - off < PRECOND_CHUNK ? fsize - off : PRECOND_CHUNK);
	uint64_t nb = fsize / o->bs, rng = io_mix64_seed(o->seed, 77);
	for (unsigned pass = 0; pass < o->dev.precond_passes && !r && nb; pass++) {
		uint64_t step = io_xorshift(&rng) % nb | 1, start = io_xorshift(&rng) % nb;
		while (gcd64(step, nb) != 1)
			step = (step + 2) % nb ? (step + 2) % nb : 1;
		uint64_t b = start;
		for (uint64_t k = 0; k < nb && !r; k++) {
			r = precond_write(p, b * o->bs, o->bs);
			b = (b + step) % nb;
		}
	}
	int d = precond_drain(p); /* also after an error: nothing in flight when the file closes */
	r = r ? r : d;
	if (!r && fdatasync(p->fd) < 0) {
		r = -errno;
		result_fail(p->res, "io: precondition: %s: fdatasync: %s", p->path, strerror(-r));
	}
	return r;
}

int io_precondition(const struct io_opts *o, const struct step_ctx *cx, struct step_result *res,
                    struct io_job *jobs)
{
	if (!o->dev.precondition)
		return 0;
	struct precond p = {.o = o, .cx = cx, .res = res, .fd = -1};
	unsigned nfiles = o->dev.device ? 1 : o->jobs; /* the jobs share a device */
	p.planned = (uint64_t)nfiles * jobs[0].fsize * (1 + o->dev.precond_passes);
	if (posix_memalign((void **)&p.buf, 4096, PRECOND_CHUNK > o->bs ? PRECOND_CHUNK : o->bs)) {
		result_fail(res, "io: precondition: out of memory");
		return -ENOMEM;
	}
	uint64_t s = o->seed * 0x9e3779b97f4a7c15ull + 7;
	for (size_t i = 0; i + 8 <= (PRECOND_CHUNK > o->bs ? PRECOND_CHUNK : o->bs); i += 8) {
		uint64_t w = io_xorshift(&s);
		memcpy(p.buf + i, &w, 8);
	}
	p.t0 = p.last_t = io_now_ns();
	/* offsets of the ring's writes are multiples of 4 KiB (the bs of a
	 * random pass, 1 MiB chunks of the fill); otherwise pwrite */
	p.ring_ok = o->bs % 4096 == 0 && io_uring_queue_init(PRECOND_DEPTH, &p.ring, 0) == 0;
	int r = 0;
	for (unsigned i = 0; i < nfiles && !r; i++) {
		p.path = jobs[i].path;
		p.fd = open(p.path, O_WRONLY | O_CLOEXEC | (o->direct ? O_DIRECT : 0));
		if (p.fd < 0) {
			r = -errno;
			result_fail(res, "io: precondition: cannot open %s: %s", p.path, strerror(-r));
			break;
		}
		r = precond_file(&p, jobs[i].fsize);
		close(p.fd);
	}
	precond_tick(&p, true);
	if (p.ring_ok)
		io_uring_queue_exit(&p.ring);
	free(p.buf);
	result_metric(res, "precondition_bytes", (double)p.total, "bytes");
	result_metric(res, "precondition_s", (double)(io_now_ns() - p.t0) / 1e9, "s");
	result_info(res, "precondition",
	            "sequential fill, then %u random overwrite pass(es) of bs %llu, at queue depth %d",
	            o->dev.precond_passes, (unsigned long long)o->bs, p.ring_ok ? PRECOND_DEPTH : 1);
	return r;
}

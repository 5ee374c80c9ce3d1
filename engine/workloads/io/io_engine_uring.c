/* io_engine_uring: io_uring, iodepth I/Os in flight per thread.
 *
 * One ring per thread, created by that thread (so it can be SINGLE_ISSUER
 * with COOP_TASKRUN, falling back to COOP_TASKRUN alone or a plain ring on
 * older kernels), the file and the buffers registered, every free slot
 * refilled and submitted with one io_uring_submit_and_wait(), and all
 * completions present taken with io_uring_peek_batch_cqe(), which reads the
 * ring without a system call. The clock is read once per batch: the batch
 * submitted is stamped, and so is the batch of completions reaped. */
#include <errno.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "io_engine.h"
#include "io_job.h"
#include "io_rate.h"

struct io_ring {
	struct io_uring ring;
	bool inited;
	bool fixed_file, fixed_buf;
	uint64_t *slot_off, *slot_t;
	unsigned char *slot_rd;
	unsigned *free_slots;
	struct io_uring_cqe **cqes;
};

static const struct {
	unsigned flags;
	const char *name;
} io_ring_tries[] = {
    /* DEFER_TASKRUN was tried first and measured: on 4k direct random I/O at
	 * depth 32 it cost ~25% more CPU per I/O than COOP_TASKRUN, and gave no
	 * more IOPS (kernel 6.18, virtio disk), since each loop enters the kernel
	 * to submit anyway. */
    {IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN, "single_issuer,coop_taskrun"},
    {IORING_SETUP_COOP_TASKRUN, "coop_taskrun"},
    {0, "plain"},
};

static int uring_setup(struct io_job *j, void **ctx)
{
	struct io_ring *r = calloc(1, sizeof(*r));
	if (!r) {
		io_job_fail(j, -ENOMEM, "io_uring: out of memory");
		return -ENOMEM;
	}
	*ctx = r;
	int ret = -EINVAL;
	const char *name = "";
	for (size_t i = 0; i < sizeof(io_ring_tries) / sizeof(io_ring_tries[0]); i++) {
		struct io_uring_params p;
		memset(&p, 0, sizeof(p));
		p.flags = io_ring_tries[i].flags;
		ret = io_uring_queue_init_params(j->nslots, &r->ring, &p);
		name = io_ring_tries[i].name;
		if (ret != -EINVAL)
			break;
	}
	if (ret < 0) {
		io_job_fail(j, ret, "io_uring: cannot set up a ring of %u entries: %s", j->nslots,
		            strerror(-ret));
		return ret;
	}
	r->inited = true;
	r->fixed_file = !j->mf && io_uring_register_files(&r->ring, &j->fd, 1) == 0;
	struct iovec *iov = calloc(j->nslots, sizeof(*iov));
	if (!iov)
		return -ENOMEM;
	for (unsigned i = 0; i < j->nslots; i++) {
		iov[i].iov_base = j->bufs + (uint64_t)i * j->slot_sz;
		iov[i].iov_len = j->slot_sz;
	}
	r->fixed_buf = io_uring_register_buffers(&r->ring, iov, j->nslots) == 0;
	free(iov);
	snprintf(j->engine_setup, sizeof(j->engine_setup), "%s%s%s", name,
	         r->fixed_file ? ",registered_file" : "", r->fixed_buf ? ",registered_buffers" : "");
	r->slot_off = calloc(j->nslots, sizeof(uint64_t));
	r->slot_t = calloc(j->nslots, sizeof(uint64_t));
	r->slot_rd = calloc(j->nslots, 1);
	r->free_slots = calloc(j->nslots, sizeof(unsigned));
	r->cqes = calloc(j->nslots, sizeof(*r->cqes));
	if (!r->slot_off || !r->slot_t || !r->slot_rd || !r->free_slots || !r->cqes) {
		io_job_fail(j, -ENOMEM, "io_uring: out of memory");
		return -ENOMEM;
	}
	return 0;
}

static void uring_cleanup(struct io_job *j, void *ctx)
{
	(void)j;
	struct io_ring *r = ctx;
	if (!r)
		return;
	if (r->inited) {
		/* the ring goes away asynchronously; drop the file reference now
		 * so that unlinking the file frees its space at once */
		if (r->fixed_file)
			io_uring_unregister_files(&r->ring);
		if (r->fixed_buf)
			io_uring_unregister_buffers(&r->ring);
		io_uring_queue_exit(&r->ring);
	}
	free(r->slot_off);
	free(r->slot_t);
	free(r->slot_rd);
	free(r->free_slots);
	free(r->cqes);
	free(r);
}

/* Make the SQE of one I/O in `slot` (its buffer), and remember it. */
static void uring_prep(struct io_job *j, struct io_ring *r, unsigned slot, bool rd, uint64_t off,
                       uint64_t len, uint64_t now)
{
	const struct io_opts *o = j->sh->o;
	unsigned char *buf = j->bufs + (uint64_t)slot * j->slot_sz;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&r->ring);
	int fd = r->fixed_file ? 0 : j->fd;
	if (!rd && o->verify)
		io_pattern_fill(buf, len, off, o->seed);
	if (r->fixed_buf) {
		if (rd)
			io_uring_prep_read_fixed(sqe, fd, buf, (unsigned)len, off, (int)slot);
		else
			io_uring_prep_write_fixed(sqe, fd, buf, (unsigned)len, off, (int)slot);
	} else {
		if (rd)
			io_uring_prep_read(sqe, fd, buf, (unsigned)len, off);
		else
			io_uring_prep_write(sqe, fd, buf, (unsigned)len, off);
	}
	if (r->fixed_file)
		sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data64(sqe, slot | len << 32); /* len <= 1 GiB */
	r->slot_off[slot] = off;
	r->slot_t[slot] = now;
	r->slot_rd[slot] = rd;
}

static void uring_run(struct io_job *j, void *ctx)
{
	struct io_ring *r = ctx;
	const struct io_opts *o = j->sh->o;
	const uint64_t ms = j->sh->measure_start;
	const unsigned depth = j->nslots;
	uint64_t now = io_now_ns(), issued = 0, nw = 0;
	unsigned inflight = 0, nfree = depth;
	bool draining = false;
	/* Submit as the SQEs are made, a few at a time, not the whole refill in
	 * one go: a burst of `depth` writes reaches the device together, finishes
	 * together, and the queue then runs empty while the next burst is made
	 * (4k random writes at depth 32 on a virtio disk: ~110k IOPS in bursts,
	 * ~155k in batches of 4, fio's ~150k submitting one by one; reads gain
	 * less). A quarter of the syscalls of one-by-one, so CPU per I/O stays
	 * below fio's. */
	const unsigned batch = depth >= 32 ? depth / 8 : depth >= 4 ? 4 : 1;
	unsigned unsubmitted = 0;

	for (unsigned i = 0; i < depth; i++)
		r->free_slots[i] = depth - 1 - i;
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
				j->pace->slot_plan[r->free_slots[nfree - 1]] = j->pace->plan;
			} else {
				rd = io_next(j, &off, &len);
			}
			unsigned slot = r->free_slots[--nfree];
			uring_prep(j, r, slot, rd, off, len, now);
			if (now >= ms)
				issued += len;
			if (!rd)
				nw++;
			inflight++;
			if (++unsubmitted >= batch) {
				int ret = io_uring_submit(&r->ring);
				if (ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY) {
					io_job_fail(j, ret, "io_uring_enter failed: %s", strerror(-ret));
					draining = true;
					break;
				}
				unsubmitted = 0;
			}
		}
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
		unsubmitted = 0;
		int ret = pwait ? io_pace_submit_wait(j, &r->ring, now, pwait)
		                : io_uring_submit_and_wait(&r->ring, 1);
		if (ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY) {
			io_job_fail(j, ret, "io_uring_enter failed: %s", strerror(-ret));
			break; /* the ring is torn down with the I/O still in it */
		}
		now = io_now_ns();
		unsigned got = io_uring_peek_batch_cqe(&r->ring, r->cqes, depth);
		for (unsigned i = 0; i < got; i++) {
			struct io_uring_cqe *cqe = r->cqes[i];
			unsigned slot = (unsigned)cqe->user_data;
			uint64_t len = cqe->user_data >> 32;
			bool rd = r->slot_rd[slot];
			uint64_t off = r->slot_off[slot];
			unsigned char *buf = j->bufs + (uint64_t)slot * j->slot_sz;
			int err = 0;
			if (cqe->res < 0)
				err = cqe->res;
			else if ((uint64_t)cqe->res < len) /* rare: finish it synchronously */
				err = io_full(j, rd, buf, len, off, (uint64_t)cqe->res);
			if (err) {
				io_short(j, rd, err, off);
				draining = true;
			} else {
				io_done(j, rd, buf, off, len, now - r->slot_t[slot], now);
			}
			r->free_slots[nfree++] = slot;
			inflight--;
		}
		if (j->pace) /* sched_lat of the batch (io_rate.h) */
			io_pace_reaped(j, r->cqes, got, now);
		io_uring_cq_advance(&r->ring, got);
		io_publish(j);
	}
	io_finish(j);
}

/* Whether the kernel gives this process a ring at all (io_uring may be
 * missing, disabled by sysctl, or refused by a seccomp filter). */
static int uring_probe(void)
{
	struct io_uring ring;
	int ret = io_uring_queue_init(2, &ring, 0);
	if (ret == 0)
		io_uring_queue_exit(&ring);
	return ret;
}

const struct io_engine_ops io_engine_io_uring = {
    .version = IO_ENGINE_OPS_VERSION,
    .name = "io_uring",
    .queued = true,
    .probe = uring_probe,
    .setup = uring_setup,
    .run = uring_run,
    .cleanup = uring_cleanup,
};

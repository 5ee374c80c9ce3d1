/* io_engine_uring: io_uring, iodepth I/Os in flight per thread.
 *
 * One ring per thread, created by that thread (so it can be SINGLE_ISSUER
 * with COOP_TASKRUN, falling back to COOP_TASKRUN alone or a plain ring on
 * older kernels), the file and the buffers registered. The loop is
 * io_queued.h's; here are its hooks: an SQE per I/O, each batch submitted
 * with io_uring_submit() but the last before a wait, which goes with the
 * wait (io_uring_submit_and_wait(): one system call), and all completions
 * present taken with io_uring_peek_batch_cqe(), which reads the ring
 * without a system call. */
#include <errno.h>
#include <liburing.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "io_engine.h"
#include "io_job.h"
#include "io_queued.h"
#include "io_rate.h"

struct io_ring {
	struct io_queued q; /* first: io_queued_run's ctx and the hooks' q are this */
	struct io_uring ring;
	bool inited;
	bool fixed_file, fixed_buf;
	struct io_uring_cqe **cqes;
};
_Static_assert(offsetof(struct io_ring, q) == 0, "io_queued_run takes the context for its io_queued");

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

/* Make the SQE of one I/O (io_queued.h). */
static void uring_prep(struct io_queued *q, unsigned slot, bool rd, uint64_t off, uint64_t len)
{
	struct io_ring *r = (struct io_ring *)q;
	unsigned char *buf = q->j->bufs + (uint64_t)slot * q->j->slot_sz;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&r->ring); /* never NULL: depth entries */
	int fd = r->fixed_file ? 0 : q->j->fd;
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
	io_uring_sqe_set_data64(sqe, slot);
}

/* A batch of the loop; the last before a wait is submitted with it. */
static int uring_submit(struct io_queued *q, struct io_qrun *run, bool hold)
{
	(void)run; /* what io_uring_submit did not take stays in the SQ: the wait submits it */
	struct io_ring *r = (struct io_ring *)q;
	if (hold)
		return 0;
	int ret = io_uring_submit(&r->ring);
	if (ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY) {
		io_job_fail(q->j, ret, "io_uring_enter failed: %s", strerror(-ret));
		return ret;
	}
	return 0;
}

/* Submit and wait, with one io_uring_enter. */
static int uring_wait(struct io_queued *q, uint64_t now, uint64_t pwait)
{
	struct io_ring *r = (struct io_ring *)q;
	int ret =
	    pwait ? io_pace_submit_wait(q->j, &r->ring, now, pwait) : io_uring_submit_and_wait(&r->ring, 1);
	if (ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY) {
		io_job_fail(q->j, ret, "io_uring_enter failed: %s", strerror(-ret));
		return ret; /* q->left: uring_cleanup waits for what is in flight */
	}
	return 0;
}

/* Every completion present, read from the ring without a system call. */
static void uring_reap(struct io_queued *q, struct io_qrun *run, uint64_t now)
{
	struct io_ring *r = (struct io_ring *)q;
	unsigned got = io_uring_peek_batch_cqe(&r->ring, r->cqes, q->depth);
	for (unsigned i = 0; i < got; i++)
		io_queued_done(q, run, (unsigned)r->cqes[i]->user_data, r->cqes[i]->res, now);
	io_uring_cq_advance(&r->ring, got);
}

/* The loop of io_queued.h with this engine's hooks inlined in it. */
static void uring_run(struct io_job *j, void *ctx)
{
	static const struct io_queued_hooks hooks = {
	    .prep = uring_prep, .submit = uring_submit, .wait = uring_wait, .reap = uring_reap};
	io_queued_run(j, ctx, &hooks);
}

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
	r->cqes = calloc(j->nslots, sizeof(*r->cqes));
	if (!r->cqes) {
		io_job_fail(j, -ENOMEM, "io_uring: out of memory");
		return -ENOMEM;
	}
	return io_queued_init(&r->q, j);
}

static void uring_cleanup(struct io_job *j, void *ctx)
{
	(void)j;
	struct io_ring *r = ctx;
	if (!r)
		return;
	if (r->inited) {
		/* a failed wait left I/O in flight into j->bufs, which the caller
		 * frees next: wait for it (bounded: a ring that fails every wait
		 * gives up after 10 s) */
		struct io_uring_cqe *cqe;
		struct __kernel_timespec ts = {.tv_sec = 1};
		for (int tries = 0; r->q.left > 0 && tries < 10;) {
			int ret = io_uring_wait_cqe_timeout(&r->ring, &cqe, &ts);
			if (ret == 0) {
				io_uring_cqe_seen(&r->ring, cqe);
				r->q.left--;
			} else if (ret != -EINTR) {
				tries++;
			}
		}
		/* the ring goes away asynchronously; drop the file reference now
		 * so that unlinking the file frees its space at once */
		if (r->fixed_file)
			io_uring_unregister_files(&r->ring);
		if (r->fixed_buf)
			io_uring_unregister_buffers(&r->ring);
		io_uring_queue_exit(&r->ring);
	}
	io_queued_free(&r->q);
	free(r->cqes);
	free(r);
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

/* io_engine: the per-thread I/O loops of the io step, io_uring and psync.
 *
 * Both loops share the same decisions (which operation, which offset, when
 * to stop) and the same accounting: one latency sample per I/O into the
 * job's own histogram, counters published to the monitor with relaxed
 * stores. Time is read once per loop iteration: psync reads the clock after
 * each call (that stamp also starts the next I/O); io_uring stamps the batch
 * it submits and the batch of completions it reaps.
 *
 * io_uring: one ring per thread, created by that thread (so it can be
 * SINGLE_ISSUER with COOP_TASKRUN, falling back to COOP_TASKRUN alone or a plain
 * ring on older kernels), the file and the buffers registered, every free
 * slot refilled and submitted with one io_uring_submit_and_wait(), and all
 * completions present taken with io_uring_peek_batch_cqe(), which reads the
 * ring without a system call. */
#include "io_internal.h"

#include <errno.h>
#include <liburing.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

void io_job_fail(struct io_job *j, int err, const char *fmt, ...)
{
	if (j->err)
		return;
	j->err = err < 0 ? err : -EIO;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(j->errmsg, sizeof(j->errmsg), fmt, ap);
	va_end(ap);
	__atomic_store_n(&j->sh->abort, 1, __ATOMIC_RELAXED);
}

static void io_fail_errno(struct io_job *j, int err, bool is_write, uint64_t off)
{
	if (err == -ENOSPC || err == -EDQUOT)
		io_job_fail(j, err, "%s: %s after %llu bytes written to the file", j->path, strerror(-err),
		            (unsigned long long)j->written_total);
	else
		io_job_fail(j, err, "%s: %s at offset %llu: %s (%llu bytes written)", j->path,
		            is_write ? "write" : "read", (unsigned long long)off, strerror(-err),
		            (unsigned long long)j->written_total);
}

static inline uint64_t perm_next(struct io_job *j)
{
	for (;;) {
		uint64_t c = j->perm_ctr++;
		uint64_t x = (c ^ j->perm_key) & j->perm_mask;
		x = (x * 0x9e3779b97f4a7c15ull) & j->perm_mask;
		x ^= x >> j->perm_shift;
		x = (x * 0xc2b2ae3d27d4eb4full) & j->perm_mask;
		x ^= x >> j->perm_shift;
		if (((c + 1) & j->perm_mask) == 0) /* a new pass: a new order */
			j->perm_key = io_xorshift(&j->rng);
		if (x < j->nblocks)
			return x;
	}
}

/* Pick the next operation; returns true for a read. */
static inline bool io_next(struct io_job *j, uint64_t *off)
{
	const struct io_opts *o = j->sh->o;
	bool rd;
	switch (o->rw) {
	case IO_RW_READ:
	case IO_RW_WRITE:
		*off = j->seq_off;
		j->seq_off += o->bs;
		if (j->seq_off >= j->fsize)
			j->seq_off = 0;
		return o->rw == IO_RW_READ;
	case IO_RW_RANDREAD: rd = true; break;
	case IO_RW_RANDWRITE: rd = false; break;
	default: rd = io_xorshift(&j->rng) % 100 < o->mix; break;
	}
	*off = perm_next(j) * o->bs;
	return rd;
}

/* May another I/O be issued at `now`, with `issued` measured bytes so far? */
static inline bool io_may_issue(struct io_job *j, uint64_t now, uint64_t issued)
{
	struct io_shared *sh = j->sh;
	if (__atomic_load_n(&sh->abort, __ATOMIC_RELAXED))
		return false;
	if (sh->stop && *sh->stop) {
		__atomic_store_n(&sh->interrupted, 1, __ATOMIC_RELAXED);
		return false;
	}
	if (now >= sh->timeout_at) {
		__atomic_store_n(&sh->timed_out, 1, __ATOMIC_RELAXED);
		return false;
	}
	if (now >= sh->run_end)
		return false;
	if (!sh->o->time_based && issued >= sh->o->io_size)
		return false;
	return true;
}

/* Accounting for one completed I/O. */
static inline void io_done(struct io_job *j, bool rd, void *buf, uint64_t off, uint64_t len, uint64_t lat,
                           uint64_t now)
{
	const struct io_opts *o = j->sh->o;
	if (now >= j->sh->measure_start) {
		hist_record(j->lat, lat);
		j->bytes += len;
		j->ios++;
	}
	j->tot_ios++;
	j->tot_bytes += len; /* published by io_publish */
	if (rd) {
		if (o->verify && io_pattern_check(buf, len, off, o->seed)) {
			if (!j->verify_errors)
				j->verify_first = off;
			j->verify_errors++;
		}
	} else {
		j->written_total += len;
		if (j->written) {
			uint64_t b = off / o->bs;
			j->written[b / 64] |= 1ull << (b % 64);
		}
	}
}

/* Finish a short transfer (done of len bytes moved) with pread/pwrite.
 * Returns 0 or a negative errno; -ENODATA when a read hits the end of the file. */
static int io_full(struct io_job *j, bool rd, unsigned char *buf, uint64_t len, uint64_t off, uint64_t done)
{
	int err = 0;
	while (done < len && !err) {
		ssize_t r = rd ? pread(j->fd, buf + done, len - done, (off_t)(off + done))
		               : pwrite(j->fd, buf + done, len - done, (off_t)(off + done));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			err = -errno;
		else if (r == 0)
			err = rd ? -ENODATA : -ENOSPC;
		else
			done += (uint64_t)r;
	}
	/* a complete I/O is counted by io_done; a failed one by what it wrote */
	if (err && !rd)
		j->written_total += done;
	return err;
}

static void io_short(struct io_job *j, bool rd, int err, uint64_t off)
{
	if (err == -ENODATA)
		io_job_fail(j, -EIO,
		            "%s: read at offset %llu hit the end of the file (shorter than size %llu)",
		            j->path, (unsigned long long)off, (unsigned long long)j->fsize);
	else
		io_fail_errno(j, err, !rd, off);
}

static inline void io_publish(struct io_job *j)
{
	__atomic_store_n(&j->mon_bytes, j->tot_bytes, __ATOMIC_RELAXED);
	__atomic_store_n(&j->mon_ios, j->tot_ios, __ATOMIC_RELAXED);
}

static int io_sync_file(struct io_job *j)
{
	if (fdatasync(j->fd) == 0)
		return 0;
	int e = -errno;
	if (e == -ENOSPC || e == -EDQUOT)
		io_fail_errno(j, e, true, 0);
	else
		io_job_fail(j, e, "%s: fdatasync failed: %s", j->path, strerror(-e));
	return e;
}

/* The tail shared by both engines: fdatasync for sync: end (timed), then the
 * job's end time. */
static void io_finish(struct io_job *j)
{
	const struct io_opts *o = j->sh->o;
	if (o->sync == IO_SYNC_END && j->written_total && !j->err &&
	    !__atomic_load_n(&j->sh->interrupted, __ATOMIC_RELAXED)) {
		uint64_t t = io_now_ns();
		io_sync_file(j);
		j->sync_s = (double)(io_now_ns() - t) / 1e9;
	}
	j->t_end = io_now_ns();
}

static void io_psync_loop(struct io_job *j)
{
	const struct io_opts *o = j->sh->o;
	uint64_t now = io_now_ns(), issued = 0, nw = 0, ms = j->sh->measure_start;
	unsigned slot = 0;

	for (;;) {
		if (!io_may_issue(j, now, issued))
			break;
		uint64_t off, len = o->bs;
		bool rd = io_next(j, &off);
		unsigned char *buf = j->bufs + (uint64_t)slot * j->slot_sz;
		if (++slot == j->nslots)
			slot = 0;
		if (!rd && o->verify)
			io_pattern_fill(buf, len, off, o->seed);
		ssize_t r = rd ? pread(j->fd, buf, len, (off_t)off) : pwrite(j->fd, buf, len, (off_t)off);
		int err = 0;
		if (r < 0)
			err = -errno;
		else if ((uint64_t)r < len)
			err = io_full(j, rd, buf, len, off, (uint64_t)r);
		uint64_t t = io_now_ns();
		if (err == -EINTR) {
			now = t;
			continue;
		}
		if (err) {
			io_short(j, rd, err, off);
			break;
		}
		if (now >= ms)
			issued += len;
		io_done(j, rd, buf, off, len, t - now, t);
		if (!rd && o->sync == IO_SYNC_EVERY && ++nw >= o->sync_every) {
			nw = 0;
			if (io_sync_file(j))
				break;
			t = io_now_ns();
		}
		now = t;
		io_publish(j);
	}
	io_finish(j);
}

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

static int io_ring_setup(struct io_job *j, struct io_ring *r)
{
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
	r->fixed_file = io_uring_register_files(&r->ring, &j->fd, 1) == 0;
	struct iovec *iov = calloc(j->nslots, sizeof(*iov));
	if (!iov)
		return -ENOMEM;
	for (unsigned i = 0; i < j->nslots; i++) {
		iov[i].iov_base = j->bufs + (uint64_t)i * j->slot_sz;
		iov[i].iov_len = j->slot_sz;
	}
	r->fixed_buf = io_uring_register_buffers(&r->ring, iov, j->nslots) == 0;
	free(iov);
	snprintf(j->uring_setup, sizeof(j->uring_setup), "%s%s%s", name,
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

static void io_ring_free(struct io_ring *r)
{
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
}

static void io_uring_loop(struct io_job *j, struct io_ring *r)
{
	const struct io_opts *o = j->sh->o;
	const uint64_t ms = j->sh->measure_start, len = o->bs;
	const unsigned depth = j->nslots;
	uint64_t now = io_now_ns(), issued = 0, nw = 0;
	unsigned inflight = 0, nfree = depth;
	bool draining = false;

	for (unsigned i = 0; i < depth; i++)
		r->free_slots[i] = depth - 1 - i;
	for (;;) {
		while (!draining && inflight < depth) {
			if (!io_may_issue(j, now, issued)) {
				draining = true;
				break;
			}
			if (o->sync == IO_SYNC_EVERY && nw >= o->sync_every)
				break; /* drain, then fdatasync below */
			uint64_t off;
			bool rd = io_next(j, &off);
			unsigned slot = r->free_slots[--nfree];
			unsigned char *buf = j->bufs + (uint64_t)slot * j->slot_sz;
			struct io_uring_sqe *sqe = io_uring_get_sqe(&r->ring);
			int fd = r->fixed_file ? 0 : j->fd;
			if (!rd && o->verify)
				io_pattern_fill(buf, len, off, o->seed);
			if (r->fixed_buf) {
				if (rd)
					io_uring_prep_read_fixed(sqe, fd, buf, (unsigned)len, off, (int)slot);
				else
					io_uring_prep_write_fixed(sqe, fd, buf, (unsigned)len, off,
					                          (int)slot);
			} else {
				if (rd)
					io_uring_prep_read(sqe, fd, buf, (unsigned)len, off);
				else
					io_uring_prep_write(sqe, fd, buf, (unsigned)len, off);
			}
			if (r->fixed_file)
				sqe->flags |= IOSQE_FIXED_FILE;
			io_uring_sqe_set_data64(sqe, slot);
			r->slot_off[slot] = off;
			r->slot_t[slot] = now;
			r->slot_rd[slot] = rd;
			if (now >= ms)
				issued += len;
			if (!rd)
				nw++;
			inflight++;
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
		int ret = io_uring_submit_and_wait(&r->ring, 1);
		if (ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY) {
			io_job_fail(j, ret, "io_uring_enter failed: %s", strerror(-ret));
			break; /* the ring is torn down with the I/O still in it */
		}
		now = io_now_ns();
		unsigned got = io_uring_peek_batch_cqe(&r->ring, r->cqes, depth);
		for (unsigned i = 0; i < got; i++) {
			struct io_uring_cqe *cqe = r->cqes[i];
			unsigned slot = (unsigned)cqe->user_data;
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
		io_uring_cq_advance(&r->ring, got);
		io_publish(j);
	}
	io_finish(j);
}

void *io_worker(void *arg)
{
	struct io_job *j = arg;
	struct io_shared *sh = j->sh;
	struct io_ring r;
	memset(&r, 0, sizeof(r));
	if (sh->use_io_uring) {
		int ret = io_ring_setup(j, &r);
		if (ret < 0 && !j->err)
			io_job_fail(j, ret, "io_uring set-up failed: %s", strerror(-ret));
	}
	/* every thread passes the gate, also after a failed set-up */
	pthread_mutex_lock(&sh->gate_mu);
	sh->ready++;
	pthread_cond_broadcast(&sh->gate_cv);
	while (!sh->go)
		pthread_cond_wait(&sh->gate_cv, &sh->gate_mu);
	pthread_mutex_unlock(&sh->gate_mu);
	if (!j->err && !__atomic_load_n(&sh->abort, __ATOMIC_RELAXED)) {
		if (sh->use_io_uring)
			io_uring_loop(j, &r);
		else
			io_psync_loop(j);
	} else {
		j->t_end = io_now_ns();
	}
	if (sh->use_io_uring)
		io_ring_free(&r);
	return NULL;
}

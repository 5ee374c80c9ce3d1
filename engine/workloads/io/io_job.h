/* io_job: what every worker of the io step shares, whatever its engine.
 *
 * Each job (thread) owns one struct io_job: its file, its buffers, its
 * histogram and counters. Workers write only their own job; the monitor
 * thread reads mon_bytes/mon_ios, which each worker publishes with relaxed
 * atomic stores (single writer, so no read-modify-write and no lock).
 *
 * The per-I/O decisions (which operation, which offset, whether to go on)
 * and the accounting of a completed I/O are inline here, so that every
 * engine's loop makes them the same way at no call cost. Time is read once
 * per loop iteration by the engine and passed in. */
#ifndef BENCHGRID_IO_JOB_H
#define BENCHGRID_IO_JOB_H

#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "clock.h"
#include "hist.h"
#include "io_lat_rec.h"
#include "io_opts.h"
#include "io_pattern.h"

struct io_engine_ops;
struct io_job;
/* many files per job (io_files.c): its file table, and these hooks */
struct io_files;
struct io_files_hooks {
	bool (*next)(struct io_job *j, uint64_t *off,
	             uint64_t *len);     /* pick a file (j->fd), then io_next_one */
	void (*flush)(struct io_job *j); /* close the files openfiles evicted */
	void (*sync)(struct io_job *j);  /* fdatasync every file written */
};
struct io_pace;
struct io_dist_state;

struct io_shared {
	const struct io_opts *o;
	/* start gate: workers set up their rings, count themselves ready and
	 * wait for `go`, which is given once t0 is stamped */
	pthread_mutex_t gate_mu;
	pthread_cond_t gate_cv;
	unsigned ready;
	bool go;
	uint64_t t0;            /* CLOCK_MONOTONIC ns when the workers start */
	uint64_t measure_start; /* t0 + ramp */
	uint64_t run_end;       /* measure_start + runtime, or UINT64_MAX */
	uint64_t timeout_at;    /* from the step's timeout, or UINT64_MAX */
	volatile sig_atomic_t *stop;
	int abort;                          /* a job failed: the others stop (atomic) */
	int timed_out;                      /* atomic */
	int interrupted;                    /* atomic */
	const struct io_engine_ops *engine; /* in use: psync after a fallback */
};

struct io_job {
	unsigned idx;
	struct io_shared *sh;
	int fd;
	char path[PATH_MAX];
	uint64_t fsize;  /* the file (region) this job works on */
	unsigned nslots; /* buffers: iodepth of them, bs each, 4 KiB aligned */
	unsigned char *bufs;
	uint64_t slot_sz;
	uint64_t rng;       /* xorshift state for mix and permutation keys */
	uint64_t perm_ctr;  /* random offsets: counter through a bijection */
	uint64_t perm_mask; /* next power of two of nblocks, minus 1 */
	uint64_t perm_key;
	unsigned perm_shift;
	uint64_t nblocks;
	uint64_t seq_off;    /* next sequential offset */
	uint64_t *written;   /* verify: bitmap of blocks written, or NULL */
	struct io_files *mf; /* many files (io_files.c): NULL with one file */
	const struct io_files_hooks *mf_hooks;
	/* random_distribution / bssplit (io_shape.c): shaped is io_shape_next
	 * when either is set, else NULL */
	bool (*shaped)(struct io_job *j, uint64_t *off, uint64_t *len);
	struct io_dist_state *dist; /* or NULL: the permutation */
	const uint64_t *bs_table;   /* 100 sizes drawn uniformly, or NULL: bs */

	/* results, written by the worker, read after join */
	struct hist *lat;
	uint64_t bytes, ios; /* measured (after the ramp) */
	/* randrw: the same per direction [0 write, 1 read], as fio's read and
	 * write sections (io_metrics_dirs); lat_dir NULL for other patterns */
	struct hist *lat_dir[2];
	uint64_t bytes_dir[2], ios_dir[2];
	uint64_t written_total; /* all bytes written to the file, for errors */
	uint64_t verify_errors, verify_first;
	uint64_t t_end;  /* when the job's last I/O (and sync) finished */
	double sync_s;   /* time in the final fdatasync */
	int64_t runq_ns; /* ns the worker waited for a CPU while running, -1 unknown */
	bool runq_own;   /* runq_ns is the engine's (a job in its own process: io_child) */
	/* a job in its own process (io_child.c): its CPU seconds in the measured
	 * part, which the step's own getrusage does not see */
	double child_usr, child_sys;
	int err; /* negative errno */
	char errmsg[PATH_MAX + 256];
	char engine_setup[96]; /* the engine's features in use (io_uring: its flags) */

	/* latency over time (io_lat.c): cumulative bucket counts of the measured
	 * I/Os per direction [0 write, 1 read], read by the monitor; the lat_log */
	uint64_t *lat_ivl[2];
	struct io_lat_log *lat_log;

	uint64_t tot_bytes, tot_ios; /* everything, ramp included */
	/* rate, thinktime (io_rate.c): NULL when the job is not paced */
	struct io_pace *pace;
	char sched_got[160]; /* io_sched.c: affinity, nice, ioprio read back in the thread */
	/* published for the monitor */
	_Alignas(64) uint64_t mon_bytes;
	uint64_t mon_ios;
	/* while the job runs in its own process (io_child.c): its copy, whose
	 * mon_bytes, mon_ios and lat_ivl the monitor reads instead; else NULL */
	const struct io_job *live;
};

/* Monotonic nanoseconds (util/clock). */
static inline uint64_t io_now_ns(void)
{
	return (uint64_t)clock_mono_ns();
}

static inline uint64_t io_xorshift(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 2685821657736338717ull;
}

static inline uint64_t io_mix64_seed(uint64_t seed, uint64_t i)
{
	uint64_t x = seed * 0x9e3779b97f4a7c15ull + i * 0xbf58476d1ce4e5b9ull + 0x94d049bb133111ebull;
	x ^= x >> 31;
	x *= 0xd6e8feb86659fd93ull;
	x ^= x >> 32;
	return x ? x : 1; /* xorshift must not start at 0 */
}

static inline uint64_t io_perm_next(struct io_job *j)
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

/* Pick the next operation in the job's (current) file and its length
 * (*len: bs unless bssplit); returns true for a read. */
static inline bool io_next_one(struct io_job *j, uint64_t *off, uint64_t *len)
{
	const struct io_opts *o = j->sh->o;
	bool rd;
	if (__builtin_expect(j->shaped != NULL, 0))
		return j->shaped(j, off, len);
	*len = o->bs;
	switch (o->rw) {
	case IO_RW_READ:
	case IO_RW_WRITE:
	case IO_RW_TRIM:
		*off = j->seq_off;
		j->seq_off += o->bs;
		if (j->seq_off >= j->fsize)
			j->seq_off = 0;
		return o->rw == IO_RW_READ;
	case IO_RW_RANDREAD: rd = true; break;
	case IO_RW_RANDWRITE:
	case IO_RW_RANDTRIM: rd = false; break;
	default: rd = io_xorshift(&j->rng) % 100 < o->mix; break;
	}
	*off = io_perm_next(j) * o->bs;
	return rd;
}

/* Pick the next operation and its length; returns true for a read. */
static inline bool io_next(struct io_job *j, uint64_t *off, uint64_t *len)
{
	if (j->mf)
		return j->mf_hooks->next(j, off, len);
	return io_next_one(j, off, len);
}

/* May another I/O be issued at `now`, with `issued` measured bytes so far? */
static inline bool io_may_issue(struct io_job *j, uint64_t now, uint64_t issued)
{
	struct io_shared *sh = j->sh;
	if (__atomic_load_n(&sh->abort, __ATOMIC_RELAXED))
		return false;
	if (sh->stop && __atomic_load_n(sh->stop, __ATOMIC_ACQUIRE)) {
		__atomic_store_n(&sh->interrupted, 1, __ATOMIC_RELAXED);
		return false;
	}
	if (now >= sh->timeout_at) {
		__atomic_store_n(&sh->timed_out, 1, __ATOMIC_RELAXED);
		return false;
	}
	if (now >= __atomic_load_n(&sh->run_end, __ATOMIC_RELAXED)) /* steady_state may move it */
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
		io_lat_count(j->lat_ivl[rd], j->lat_log, rd, lat, off, len, now);
		j->bytes += len;
		j->ios++;
		if (j->lat_dir[rd]) {
			hist_record(j->lat_dir[rd], lat);
			j->bytes_dir[rd] += len;
			j->ios_dir[rd]++;
		}
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

static inline void io_publish(struct io_job *j)
{
	__atomic_store_n(&j->mon_bytes, j->tot_bytes, __ATOMIC_RELAXED);
	__atomic_store_n(&j->mon_ios, j->tot_ios, __ATOMIC_RELAXED);
	if (j->mf) /* close the files evicted by openfiles, now their I/O is submitted */
		j->mf_hooks->flush(j);
}

/* The job whose counters the monitor reads: j, or while j runs in its own
 * process (io_child.c) its copy there, j->live. */
static inline const struct io_job *io_job_published(const struct io_job *j)
{
	const struct io_job *live = __atomic_load_n(&j->live, __ATOMIC_ACQUIRE);
	return live ? live : j;
}

/* This process's user and system CPU seconds (getrusage). */
void io_rusage(double *usr, double *sys);

/* The ns this thread has waited on a run queue (ready, but another task had
 * the CPU): the second field of /proc/thread-self/schedstat; -1 without it.
 * The step's cpu_wait_s: what a busy machine took from it. */
int64_t io_runq_wait_ns(void);

/* The worker thread body: the engine's set-up, the start gate, the engine's
 * timed run, its clean-up. */
void *io_worker(void *arg);

/* Set job->err and a message naming the file (first error wins); the other
 * jobs stop at their next I/O. */
void io_job_fail(struct io_job *j, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Finish a short transfer (done of len bytes moved) with pread/pwrite.
 * Returns 0 or a negative errno; -ENODATA when a read hits the end of the file. */
int io_full(struct io_job *j, bool rd, unsigned char *buf, uint64_t len, uint64_t off, uint64_t done);

/* Fail the job for an I/O that io_full or the kernel could not complete. */
void io_short(struct io_job *j, bool rd, int err, uint64_t off);

/* fdatasync the job's file; 0, or a negative errno after io_job_fail. */
int io_sync_file(struct io_job *j);

/* The tail every engine runs: fdatasync for sync: end (timed), then the
 * job's end time. */
void io_finish(struct io_job *j);

#endif

/* io_internal: what wl_io.c (set-up, threads, metrics) shares with
 * io_engine.c (the per-thread I/O loops). Not part of the public API.
 *
 * Each job (thread) owns one struct io_job: its file, its buffers, its
 * histogram and counters. Workers write only their own job; the monitor
 * thread reads mon_bytes/mon_ios, which each worker publishes with relaxed
 * atomic stores (single writer, so no read-modify-write and no lock). */
#ifndef BENCHGRID_IO_INTERNAL_H
#define BENCHGRID_IO_INTERNAL_H

#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "hist.h"
#include "wl_io.h"

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
	int abort;         /* a job failed: the others stop (atomic) */
	int timed_out;     /* atomic */
	int interrupted;   /* atomic */
	bool use_io_uring; /* otherwise psync */
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
	uint64_t seq_off;  /* next sequential offset */
	uint64_t *written; /* verify: bitmap of blocks written, or NULL */

	/* results, written by the worker, read after join */
	struct hist *lat;
	uint64_t bytes, ios;    /* measured (after the ramp) */
	uint64_t written_total; /* all bytes written to the file, for errors */
	uint64_t verify_errors, verify_first;
	uint64_t t_end; /* when the job's last I/O (and sync) finished */
	double sync_s;  /* time in the final fdatasync */
	int err;        /* negative errno */
	char errmsg[PATH_MAX + 256];
	char uring_setup[96]; /* the io_uring features used */

	uint64_t tot_bytes, tot_ios; /* everything, ramp included */
	/* published for the monitor */
	_Alignas(64) uint64_t mon_bytes;
	uint64_t mon_ios;
};

static inline uint64_t io_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
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

/* The worker thread body (io_engine.c). */
void *io_worker(void *arg);

/* Set job->err and a message naming the file (first error wins). */
void io_job_fail(struct io_job *j, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif

/* io_engine_mmap: reads and writes through a shared mapping of the job's
 * file, one at a time, as fio's mmap engine.
 *
 * Each job maps its whole file (or the size of its raw device) once in its
 * set-up, with the advice of its pattern (sequential or random, as fio
 * gives it); a read copies from the mapping into the job's buffer, a write
 * from the buffer into the mapping, so the I/O is page faults and the page
 * cache's writeback, not read(2)/write(2). A file shorter than size is
 * extended first (fallocate, else a sparse ftruncate), untimed: a store
 * past the end of a file cannot extend it. sync: every N and end are
 * fdatasync(2), which writes back the pages dirtied through the mapping as
 * msync(MS_SYNC) does.
 *
 * A page the kernel cannot back (the file was truncated under the job, or
 * a sparse page found the file system full) raises SIGBUS on the copy; it
 * fails the job with the offset instead of killing the process. What the
 * engine cannot do is refused at check time (mmap_check).
 *
 * Each job's timed part runs in a process of its own (io_child.h: why,
 * and which jobs stay threads); mmap_work is that part either way.
 *
 * The clock: an I/O here is a copy of a few hundred ns that misses the TLB
 * on every page, and the vDSO's clock_gettime after it (a pvclock read in a
 * VM: an ordered TSC read plus two more pages to walk to) cost 10-20 % of
 * the I/O. So between reads of CLOCK_MONOTONIC every MAP_ANCHOR I/Os, the
 * stamps are the TSC (when it is invariant) scaled to CLOCK_MONOTONIC's ns,
 * at the rate measured from the job's set-up to the latest anchor: the
 * same stamps, comparable with every other io_now_ns(), within ns. fio's
 * mmap engine stamps with the TSC too (its clocksource=cpu). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#if defined(__x86_64__)
#include <cpuid.h>
#include <x86intrin.h>
#endif

#include "diag.h"
#include "io_child.h"
#include "io_engine.h"
#include "io_job.h"
#include "io_rate.h"
#include "node.h"

/* MAP_ANCHOR I/Os between two reads of CLOCK_MONOTONIC (the TSC between) */
#define MAP_ANCHOR 64

/* CLOCK_MONOTONIC ns from the TSC, re-anchored every MAP_ANCHOR stamps. */
struct map_clock {
	bool tsc;           /* an invariant TSC: else every stamp is io_now_ns() */
	unsigned left;      /* stamps until the next anchor */
	uint64_t tsc0, ns0; /* the first anchor (set-up): the rate's baseline */
	uint64_t tsca, nsa; /* the latest anchor */
	double ns_per_tick; /* (nsa - ns0) / (tsca - tsc0) */
	uint64_t last;      /* the last stamp: stamps never go back */
};

struct io_map {
	unsigned char *base;
	uint64_t len;
	sigjmp_buf jump; /* where a SIGBUS of this job's copy lands */
	uint64_t off;    /* the copy under way, for the message */
	bool rd;
	struct map_clock clk;
	struct io_child *child; /* the job's own process (io_child.h), or NULL: this thread */
};

/* The SIGBUS handler is the process's while any mmap job runs. */
static pthread_mutex_t bus_mu = PTHREAD_MUTEX_INITIALIZER;
static unsigned bus_users;
static struct sigaction bus_old;
static _Thread_local sigjmp_buf *bus_jump; /* set while this thread copies */

static void mmap_sigbus(int sig, siginfo_t *si, void *uc)
{
	(void)si;
	(void)uc;
	if (bus_jump)
		siglongjmp(*bus_jump, 1);
	/* not a copy of ours: the default action when the access is retried */
	signal(sig, SIG_DFL);
}

static int bus_hold(void)
{
	int ret = 0;
	pthread_mutex_lock(&bus_mu);
	if (!bus_users) {
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = mmap_sigbus;
		sa.sa_flags = SA_SIGINFO;
		sigemptyset(&sa.sa_mask);
		ret = sigaction(SIGBUS, &sa, &bus_old) ? -errno : 0;
	}
	if (!ret)
		bus_users++;
	pthread_mutex_unlock(&bus_mu);
	return ret;
}

static void bus_release(void)
{
	pthread_mutex_lock(&bus_mu);
	if (bus_users && !--bus_users)
		sigaction(SIGBUS, &bus_old, NULL);
	pthread_mutex_unlock(&bus_mu);
}

#if defined(__x86_64__)
static bool tsc_invariant(void)
{
	unsigned a, b, c, d;
	return __get_cpuid(0x80000007, &a, &b, &c, &d) && (d & (1u << 8));
}

/* A TSC read and CLOCK_MONOTONIC together: the one of `tries` whose two
 * TSC reads around the clock are closest. */
static void clk_pair(uint64_t *tsc, uint64_t *ns, int tries)
{
	uint64_t best = UINT64_MAX;
	for (int i = 0; i < tries; i++) {
		uint64_t a = __rdtsc(), n = io_now_ns(), b = __rdtsc();
		if (b - a < best) {
			best = b - a;
			*tsc = a + (b - a) / 2;
			*ns = n;
		}
	}
}

static void clk_init(struct map_clock *c)
{
	memset(c, 0, sizeof(*c));
	if (!tsc_invariant())
		return;
	clk_pair(&c->tsc0, &c->ns0, 5);
	struct timespec d = {0, 2000000}; /* the rate's first baseline: 2 ms, untimed */
	nanosleep(&d, NULL);
	clk_pair(&c->tsca, &c->nsa, 5);
	if (c->tsca <= c->tsc0 || c->nsa <= c->ns0)
		return; /* a TSC that does not move with the clock: io_now_ns() */
	c->ns_per_tick = (double)(c->nsa - c->ns0) / (double)(c->tsca - c->tsc0);
	c->tsc = true;
}

/* The time now, as io_now_ns(), at least `after`. */
static inline uint64_t clk_now(struct map_clock *c, uint64_t after)
{
	uint64_t t;
	if (!c->tsc) {
		t = io_now_ns();
	} else if (c->left--) {
		t = c->nsa + (uint64_t)((double)(__rdtsc() - c->tsca) * c->ns_per_tick);
	} else {
		c->left = MAP_ANCHOR - 1;
		clk_pair(&c->tsca, &c->nsa, 1);
		c->ns_per_tick = (double)(c->nsa - c->ns0) / (double)(c->tsca - c->tsc0);
		t = c->nsa;
	}
	if (t < after)
		t = after;
	if (t < c->last)
		t = c->last;
	return c->last = t;
}
#else
static void clk_init(struct map_clock *c)
{
	memset(c, 0, sizeof(*c));
}

static inline uint64_t clk_now(struct map_clock *c, uint64_t after)
{
	(void)c;
	uint64_t t = io_now_ns();
	return t < after ? after : t;
}
#endif

/* A file shorter than the job's size is extended, as fio's mmap engine
 * needs its files laid out: fallocate, else a sparse ftruncate. */
static int mmap_extend(struct io_job *j)
{
	struct stat st;
	if (fstat(j->fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size >= j->fsize)
		return 0;
	int e = posix_fallocate(j->fd, 0, (off_t)j->fsize);
	if (e == EOPNOTSUPP || e == EINVAL)
		e = ftruncate(j->fd, (off_t)j->fsize) ? errno : 0;
	if (e)
		io_job_fail(j, -e, "%s: cannot extend the file to %llu bytes for mmap: %s", j->path,
		            (unsigned long long)j->fsize, strerror(e));
	return -e;
}

static void mmap_work(struct io_job *j, void *ctx);

static int mmap_setup(struct io_job *j, void **ctx)
{
	const struct io_opts *o = j->sh->o;
	struct io_map *m = calloc(1, sizeof(*m));
	if (!m) {
		io_job_fail(j, -ENOMEM, "mmap: out of memory");
		return -ENOMEM;
	}
	*ctx = m;
	int ret = io_rw_writes(o->rw) ? mmap_extend(j) : 0;
	if (ret)
		return ret;
	int prot = PROT_READ | (io_rw_writes(o->rw) ? PROT_WRITE : 0);
	void *p = mmap(NULL, (size_t)j->fsize, prot, MAP_SHARED, j->fd, 0);
	if (p == MAP_FAILED) {
		ret = -errno;
		io_job_fail(j, ret, "%s: mmap of %llu bytes: %s", j->path, (unsigned long long)j->fsize,
		            strerror(-ret));
		return ret;
	}
	m->base = p;
	m->len = j->fsize;
	bool random = io_rw_random(o->rw);
	posix_madvise(p, (size_t)m->len, random ? POSIX_MADV_RANDOM : POSIX_MADV_SEQUENTIAL);
	if ((ret = bus_hold())) {
		io_job_fail(j, ret, "mmap: cannot handle SIGBUS: %s", strerror(-ret));
		return ret;
	}
	clk_init(&m->clk);
	char why[48] = "";
	if (io_child_fits(j))
		m->child = io_child_start(j, mmap_work, m, why, sizeof(why));
	snprintf(j->engine_setup, sizeof(j->engine_setup), "MAP_SHARED of %llu bytes, madvise %s%s, %s%s%s",
	         (unsigned long long)m->len, random ? "random" : "sequential",
	         m->clk.tsc ? ", TSC stamps" : "", m->child ? "own process" : "thread", why[0] ? ": " : "",
	         why);
	return 0;
}

static void mmap_cleanup(struct io_job *j, void *ctx)
{
	(void)j;
	struct io_map *m = ctx;
	if (!m)
		return;
	io_child_free(m->child);
	if (m->base) {
		munmap(m->base, (size_t)m->len);
		bus_release();
	}
	free(m);
}

/* The I/O of one job until io_may_issue says no: psync's loop with a copy
 * in place of pread/pwrite. */
static void mmap_loop(struct io_job *j, struct io_map *m)
{
	const struct io_opts *o = j->sh->o;
	uint64_t now = io_now_ns(), issued = 0, nw = 0, ms = j->sh->measure_start;
	unsigned char *buf = j->bufs;

	uint64_t off, len;
	bool rd;
	while (io_sync_next(j, &now, issued, &off, &len, &rd)) {
		if (!rd && o->verify)
			io_pattern_fill(buf, len, off, o->seed);
		m->off = off;
		m->rd = rd;
		__atomic_signal_fence(__ATOMIC_SEQ_CST); /* stored before a SIGBUS can come */
		if (rd)
			memcpy(buf, m->base + off, (size_t)len);
		else
			memcpy(m->base + off, buf, (size_t)len);
		uint64_t t = clk_now(&m->clk, now);
		if (now >= ms)
			issued += len;
		io_done(j, rd, buf, off, len, t - now, t);
		if (io_sync_every(j, rd, &nw, &t))
			break;
		now = t;
		io_publish(j);
	}
	if (j->pace)
		io_pace_prev(j, now);
}

/* The timed part, in this thread or in the job's own process. */
static void mmap_work(struct io_job *j, void *ctx)
{
	struct io_map *m = ctx;
	if (sigsetjmp(m->jump, 1) == 0) {
		bus_jump = &m->jump;
		mmap_loop(j, m);
	} else {
		io_job_fail(j, -EIO,
		            "%s: SIGBUS on the %s at offset %llu through the mapping: the page has no "
		            "backing (the file was truncated under the step, or the file system is full)",
		            j->path, m->rd ? "read" : "write", (unsigned long long)m->off);
	}
	bus_jump = NULL;
	io_finish(j);
}

static void mmap_run(struct io_job *j, void *ctx)
{
	struct io_map *m = ctx;
	if (m->child)
		io_child_run(m->child, j);
	else
		mmap_work(j, m);
}

/* What a copy through a mapping cannot be, at check time. */
static void mmap_check(const struct node *opts, const struct io_opts *o, struct diag *d)
{
	const struct node *n;
	if (o->direct && (n = node_get(opts, "direct")))
		diag_error(d, &n->pos,
		           "io.direct: engine: mmap copies through the page cache and cannot do direct I/O "
		           "(use engine: psync, libaio or io_uring)");
	if ((o->sync == IO_SYNC_DSYNC || o->sync == IO_SYNC_SYNC) && (n = node_get(opts, "sync")))
		diag_error(d, &n->pos,
		           "io.sync: %s opens the file O_%s, which acts on write calls; engine: mmap "
		           "writes by storing into the mapping (use sync: every N or sync: end)",
		           o->sync == IO_SYNC_DSYNC ? "dsync" : "sync",
		           o->sync == IO_SYNC_DSYNC ? "DSYNC" : "SYNC");
	if (o->many_files) {
		n = node_get(opts, "nrfiles");
		n = n ? n : node_get(opts, "filesize");
		diag_error(d, n ? &n->pos : &o->pos, "io.%s: engine: mmap maps one file per job (nrfiles: 1)",
		           n == node_get(opts, "nrfiles") ? "nrfiles" : "filesize");
	}
}

const struct io_engine_ops io_engine_mmap = {
    .version = IO_ENGINE_OPS_VERSION,
    .name = "mmap",
    .queued = false,
    .check = mmap_check,
    .setup = mmap_setup,
    .run = mmap_run,
    .cleanup = mmap_cleanup,
};

/* test_io: the io step on real files, real io_uring and real filesystems.
 *
 * Every test works in a fresh mkdtemp directory under /tmp (a disk
 * filesystem, so page-cache state means something). Root-only parts mount
 * small tmpfs filesystems and are skipped for other users. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test_cases.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <math.h>
#include <time.h>
#include <unistd.h>

#include "result.h"
#include "spec.h"
#include "io_engine.h"
#include "io_opts.h"
#include "io_pattern.h"
#include "wl_io.h"

struct t {
	char dir[64];
	char mnt[128]; /* a tmpfs mounted by the test, or "" */
};

static int rm_cb(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	return remove(p);
}

static int setup(void **state)
{
	struct t *t = calloc(1, sizeof(*t));
	snprintf(t->dir, sizeof(t->dir), "/tmp/bg-test-io-XXXXXX");
	if (!mkdtemp(t->dir))
		return -1;
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct t *t = *state;
	if (t->mnt[0])
		umount2(t->mnt, MNT_DETACH);
	nftw(t->dir, rm_cb, 16, FTW_DEPTH | FTW_PHYS);
	free(t);
	return 0;
}

static volatile sig_atomic_t no_stop;

/* Load `yaml` as the options map, check and run it in dir. */
static int run_io(const char *yaml, const char *dir, struct step_result *res, struct diag *d,
                  volatile sig_atomic_t *stop, double timeout)
{
	struct node *n = spec_load_string("opts.yaml", yaml, d);
	if (!n)
		return -EINVAL;
	result_init(res, "io", "io");
	struct step_ctx cx = {
	    .target_dir = dir, .step_name = "io", .stop = stop ? stop : &no_stop, .timeout = timeout};
	int ret = wl_io_ops.check(n, d);
	if (!ret)
		ret = wl_io_ops.run(n, &cx, res, d);
	node_free(n);
	return ret;
}

static double metric(const struct step_result *r, const char *name)
{
	const struct metric *m = result_get(r, name);
	if (!m)
		fail_msg("metric %s missing", name);
	return m->value;
}

/* Run and require success; prints the failure when there is one. */
static void run_ok(const char *yaml, const char *dir, struct step_result *res)
{
	struct diag d;
	diag_init(&d);
	int ret = run_io(yaml, dir, res, &d, NULL, 0);
	if (ret || res->failed) {
		diag_print(&d, stderr);
		fail_msg("io step failed (%d): %s", ret, res->error ? res->error : "");
	}
	diag_free(&d);
}

static unsigned char *read_all(const char *path, size_t *len)
{
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	unsigned char *p = malloc((size_t)st.st_size + 1);
	int fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	size_t got = 0;
	while (got < (size_t)st.st_size) {
		ssize_t r = read(fd, p + got, (size_t)st.st_size - got);
		assert_true(r > 0);
		got += (size_t)r;
	}
	close(fd);
	*len = got;
	return p;
}

/* A write step leaves exactly `size` bytes with the expected content. */
static void test_write_exact(void **state)
{
	struct t *t = *state;
	char path[128], yaml[256];
	snprintf(path, sizeof(path), "%s/w.dat", t->dir);
	static const char *const engines[] = {"io_uring", "psync"};
	for (int e = 0; e < 2; e++) {
		struct step_result res;
		size_t len;
		/* zeros */
		snprintf(yaml, sizeof(yaml),
		         "{rw: write, size: 4MiB, bs: 64k, data: zero, keep: true, file: w.dat, engine: %s, "
		         "iodepth: 4}",
		         engines[e]);
		run_ok(yaml, t->dir, &res);
		assert_int_equal((uint64_t)metric(&res, "bytes"), 4u << 20);
		assert_string_equal(result_info_get(&res, "engine"), engines[e]);
		assert_true(metric(&res, "iops") > 0 && metric(&res, "seconds") > 0);
		assert_true(fabs(metric(&res, "mb_s") - 4194304 / metric(&res, "seconds") / 1e6) <
		            1e-6 * metric(&res, "mb_s"));
		result_free(&res);
		unsigned char *p = read_all(path, &len);
		assert_int_equal(len, 4u << 20);
		for (size_t i = 0; i < len; i++)
			if (p[i])
				fail_msg("byte %zu is %u, want 0", i, p[i]);
		free(p);

		/* the verify pattern: every block carries its offset and checksum */
		snprintf(yaml, sizeof(yaml),
		         "{rw: write, size: 2MiB, bs: 16k, verify: true, keep: true, file: w.dat, engine: "
		         "%s, iodepth: 8}",
		         engines[e]);
		run_ok(yaml, t->dir, &res);
		assert_int_equal((int)metric(&res, "verify_errors"), 0);
		result_free(&res);
		p = read_all(path, &len);
		assert_int_equal(len, 2u << 20);
		for (size_t off = 0; off < len; off += 16384)
			assert_int_equal(io_pattern_check(p + off, 16384, off, 1), 0);
		free(p);

		/* random data: incompressible, not zeros; the file is removed without keep */
		snprintf(yaml, sizeof(yaml),
		         "{rw: write, size: 1MiB, bs: 4k, data: random, keep: true, file: w.dat, engine: %s}",
		         engines[e]);
		run_ok(yaml, t->dir, &res);
		result_free(&res);
		p = read_all(path, &len);
		assert_int_equal(len, 1u << 20);
		size_t zeros = 0;
		for (size_t i = 0; i < len; i++)
			zeros += !p[i];
		assert_true(zeros < len / 128); /* ~1/256 expected for random bytes */
		free(p);
		snprintf(yaml, sizeof(yaml), "{rw: write, size: 1MiB, file: w.dat, engine: %s}", engines[e]);
		run_ok(yaml, t->dir, &res);
		result_free(&res);
		assert_int_equal(access(path, F_OK), -1);
	}
	/* io_size smaller than size: exactly io_size bytes, dd-like */
	struct step_result res;
	run_ok("{rw: write, size: 1MiB, io_size: 256k, bs: 64k, keep: true, file: w.dat}", t->dir, &res);
	result_free(&res);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 256 * 1024);
	/* jobs: one file each */
	run_ok("{rw: write, size: 512k, bs: 64k, jobs: 3, keep: true, file: j.dat}", t->dir, &res);
	assert_int_equal((uint64_t)metric(&res, "bytes"), 3 * 512 * 1024);
	result_free(&res);
	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/j.dat.%d", t->dir, i);
		assert_int_equal(stat(path, &st), 0);
		assert_int_equal(st.st_size, 512 * 1024);
	}
}

static double now_s(clockid_t c)
{
	struct timespec ts;
	clock_gettime(c, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* time_based stops on time (within 10%), with a ramp excluded and a series. */
static void test_time_based(void **state)
{
	struct t *t = *state;
	static const char *const yamls[] = {
	    "{rw: randread, size: 8MiB, bs: 4k, runtime: 1s, time_based: true, iodepth: 16, interval: 250ms}",
	    ("{rw: randrw, mix: 70, size: 8MiB, bs: 4k, runtime: 800ms, ramp: 300ms, time_based: true, "
	     "engine: psync, interval: 200ms}"),
	    ("{rw: write, size: 4MiB, bs: 64k, runtime: 700ms, time_based: true, iodepth: 4, jobs: 2, "
	     "interval: 100ms}"),
	};
	static const double want[] = {1.0, 0.8, 0.7}, ramp[] = {0, 0.3, 0};
	for (int i = 0; i < 3; i++) {
		struct step_result res;
		run_ok(yamls[i], t->dir, &res);
		double s = metric(&res, "seconds");
		if (fabs(s - want[i]) > 0.1 * want[i])
			fail_msg("%s: ran %.3f s, wanted %.3f s", yamls[i], s, want[i]);
		const struct series *mb = result_series(&res, "mb_s"), *io = result_series(&res, "iops");
		assert_non_null(mb);
		assert_non_null(io);
		double iv = i == 0 ? 0.25 : i == 1 ? 0.2 : 0.1;
		size_t expect = (size_t)((want[i] + ramp[i]) / iv + 0.5);
		if (mb->n + 1 < expect || mb->n > expect + 1)
			fail_msg("%zu samples, expected about %zu", mb->n, expect);
		assert_int_equal(io->n, mb->n);
		for (size_t k = 1; k < mb->n; k++)
			assert_true(mb->t[k] > mb->t[k - 1] && mb->v[k] >= 0);
		assert_true(metric(&res, "iops") > 0);
		assert_true(metric(&res, "lat_p50_us") <= metric(&res, "lat_p99_us"));
		assert_true(metric(&res, "lat_min_us") <= metric(&res, "lat_mean_us"));
		assert_true(metric(&res, "lat_p999_us") <= metric(&res, "lat_max_us"));
		assert_true(metric(&res, "cpu_usr") + metric(&res, "cpu_sys") > 0);
		result_free(&res);
	}
}

/* Two ways to count a file's dirty and writeback pages, to check where
 * `sync: end` flushes them. The engine itself only calls fdatasync, on any
 * kernel; these observers are for the tests.
 *
 * cachestat(2) (Linux 6.5): page-cache state of a file, dirty pages included. */
struct bg_cachestat_range {
	uint64_t off, len;
};
struct bg_cachestat {
	uint64_t nr_cache, nr_dirty, nr_writeback, nr_evicted, nr_recently_evicted;
};
#ifndef __NR_cachestat
#define __NR_cachestat 451
#endif

static long unflushed_cachestat(int fd)
{
	struct bg_cachestat_range r = {0, 0};
	struct bg_cachestat cs;
	if (syscall(__NR_cachestat, fd, &r, &cs, 0) < 0)
		return -errno;
	return (long)(cs.nr_dirty + cs.nr_writeback);
}

/* The fallback for kernels before 6.5 (Debian 12's own is 6.1): map the file
 * read-only with its page-cache pages populated, find each page's frame in
 * /proc/self/pagemap and its PG_dirty and PG_writeback flags in
 * /proc/kpageflags (root only: frame numbers read as 0 for other users).
 * Mapping a page read-only neither dirties nor flushes it. */
#define BG_KPF_DIRTY     4
#define BG_KPF_WRITEBACK 8

static long unflushed_kpageflags(int fd)
{
	struct stat st;
	if (fstat(fd, &st) < 0)
		return -errno;
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), n = ((size_t)st.st_size + pg - 1) / pg;
	if (n == 0)
		return 0;
	void *m = mmap(NULL, n * pg, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
	if (m == MAP_FAILED)
		return -errno;
	uint64_t *ent = calloc(n, sizeof(*ent));
	int pm = open("/proc/self/pagemap", O_RDONLY), kf = open("/proc/kpageflags", O_RDONLY);
	long ret = 0;
	if (pm < 0 || kf < 0 || !ent) {
		ret = -errno;
		goto out;
	}
	off_t at = (off_t)((uintptr_t)m / pg * sizeof(uint64_t));
	if (pread(pm, ent, n * sizeof(*ent), at) != (ssize_t)(n * sizeof(*ent))) {
		ret = -EIO;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t pfn = ent[i] & ((1ull << 55) - 1), flags;
		if (!(ent[i] >> 63))
			continue; /* not in the page cache: neither dirty nor under writeback */
		if (pfn == 0) {
			ret = -EPERM;
			break;
		}
		if (pread(kf, &flags, sizeof(flags), (off_t)(pfn * sizeof(flags))) != sizeof(flags)) {
			ret = -EIO;
			break;
		}
		if (flags & ((1ull << BG_KPF_DIRTY) | (1ull << BG_KPF_WRITEBACK))) {
			ret = 1; /* one is enough: the poller only asks whether any is left */
			break;
		}
	}
out:
	if (pm >= 0)
		close(pm);
	if (kf >= 0)
		close(kf);
	free(ent);
	munmap(m, n * pg);
	return ret;
}

typedef long (*unflushed_fn)(int fd);

struct poller {
	const char *path;
	unflushed_fn unflushed;
	volatile int done;
	double last_dirty; /* realtime when the last poll that saw unflushed pages began */
	long polls, dirty_polls;
};

static void *poll_dirty(void *arg)
{
	struct poller *p = arg;
	int fd = -1;
	while (!p->done) {
		if (fd < 0)
			fd = open(p->path, O_RDONLY);
		if (fd >= 0) {
			/* stamped before the call: the pages were dirty at or after this
			 * time, whatever the scheduler does to this thread afterwards */
			double t = now_s(CLOCK_REALTIME);
			long u = p->unflushed(fd);
			p->polls++;
			if (u > 0) {
				p->dirty_polls++;
				p->last_dirty = t;
			}
		}
		struct timespec ts = {0, 100000};
		nanosleep(&ts, NULL);
	}
	if (fd >= 0)
		close(fd);
	return NULL;
}

/* Can `unflushed` be used here? 0, or a negative errno (then the case skips).
 * It must see a written page dirty and none after fdatasync: an observer
 * that always says 0 would make the checks below pass for nothing. */
static int observer_works(const char *dir, unflushed_fn unflushed)
{
	char path[128], page[4096];
	snprintf(path, sizeof(path), "%s/probe.dat", dir);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	memset(page, 'p', sizeof(page));
	/* A neighbour's sync() (stress-ng --io calls it in a loop) can write
	 * the page back between the write and the look: write it again until
	 * it is seen dirty; an observer that never sees it fails below. */
	long r = 0;
	for (int tries = 0; tries < 50 && r == 0; tries++) {
		assert_int_equal(pwrite(fd, page, sizeof(page), 0), (ssize_t)sizeof(page));
		r = unflushed(fd);
	}
	if (r == -ENOSYS || r == -EPERM || r == -ENOENT || r == -EACCES) {
		close(fd);
		unlink(path);
		return (int)r;
	}
	assert_true(r > 0);
	assert_int_equal(fdatasync(fd), 0);
	assert_int_equal(unflushed(fd), 0);
	close(fd);
	unlink(path);
	return 0;
}

/* sync: end calls fdatasync, and inside the timed region: a poller watches the
 * file's dirty and writeback pages; they must all be gone by the reported end
 * of the measurement. Skipping the fdatasync leaves them dirty (writeback
 * waits 30 s); doing it after the timed region has them seen after
 * measure_end. */
static void check_sync_end(struct t *t, unflushed_fn unflushed)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/s.dat", t->dir);
	int r = observer_works(t->dir, unflushed);
	if (r < 0) {
		print_message("skipped: the dirty-page observer is unavailable here: %s\n", strerror(-r));
		skip();
	}
	static const char *const yamls[] = {
	    "{rw: write, size: 64MiB, bs: 1MiB, sync: end, keep: true, file: s.dat, engine: psync}",
	    "{rw: write, size: 64MiB, bs: 1MiB, sync: end, keep: true, file: s.dat, iodepth: 4}",
	};
	for (int i = 0; i < 2; i++) {
		unlink(path);
		struct poller p = {.path = path, .unflushed = unflushed};
		pthread_t th;
		pthread_create(&th, NULL, poll_dirty, &p);
		struct step_result res;
		run_ok(yamls[i], t->dir, &res);
		int fd = open(path, O_RDONLY);
		long after = unflushed(fd);
		close(fd);
		p.done = 1;
		pthread_join(th, NULL);
		double end = atof(result_info_get(&res, "measure_end"));
		double start = atof(result_info_get(&res, "measure_start"));
		double sync_s = metric(&res, "sync_s"), secs = metric(&res, "seconds");
		fprintf(
		    stderr,
		    "# %s: %ld polls, %ld dirty, last dirty %.4f s before the end, sync %.4f s of %.4f s\n",
		    yamls[i], p.polls, p.dirty_polls, end - p.last_dirty, sync_s, secs);
		assert_int_equal(after, 0);                /* flushed by the step */
		assert_true(p.dirty_polls > 0);            /* the writes went through the page cache */
		assert_true(p.last_dirty > start - 0.001); /* seen dirty while measuring */
		assert_true(p.last_dirty <= end + 0.001);  /* and clean before the end */
		assert_true(sync_s > 0 && sync_s < secs);
		assert_true(fabs(secs - (end - start)) < 0.01);
		result_free(&res);
	}
}

/* Observed with cachestat (Linux 6.5+; skipped before). */
static void test_sync_end(void **state)
{
	check_sync_end(*state, unflushed_cachestat);
}

/* The same with the fallback observer, whatever the kernel (root only). */
static void test_sync_end_kpageflags(void **state)
{
	check_sync_end(*state, unflushed_kpageflags);
}

/* verify passes on io_uring and psync, direct and buffered; and it can fail. */
static void test_verify(void **state)
{
	struct t *t = *state;
	static const char *const engines[] = {"io_uring", "psync"};
	static const char *const rws[] = {"write", "randwrite", "randread", "randrw", "read"};
	char yaml[256];
	for (int e = 0; e < 2; e++)
		for (int direct = 0; direct < 2; direct++)
			for (int r = 0; r < 5; r++) {
				snprintf(yaml, sizeof(yaml),
				         "{rw: %s, size: 4MiB, bs: 16k, verify: true, engine: %s, direct: "
				         "%s, iodepth: 8, file: v.dat}",
				         rws[r], engines[e], direct ? "true" : "false");
				struct step_result res;
				run_ok(yaml, t->dir, &res);
				assert_int_equal((int)metric(&res, "verify_errors"), 0);
				assert_true(metric(&res, "bytes") > 0);
				result_free(&res);
			}
	/* a corrupted block is found, named and fails the step */
	struct step_result res;
	run_ok("{rw: write, size: 1MiB, bs: 4k, verify: true, keep: true, file: c.dat}", t->dir, &res);
	result_free(&res);
	char path[128];
	snprintf(path, sizeof(path), "%s/c.dat", t->dir);
	int fd = open(path, O_WRONLY);
	assert_int_equal(pwrite(fd, "X", 1, 3 * 4096 + 100), 1);
	close(fd);
	struct diag d;
	diag_init(&d);
	int ret = run_io("{rw: read, size: 1MiB, bs: 4k, verify: true, prepare: none, file: c.dat}", t->dir,
	                 &res, &d, NULL, 0);
	assert_int_equal(ret, -EILSEQ);
	assert_true(res.failed);
	assert_int_equal((int)metric(&res, "verify_errors"), 1);
	assert_non_null(strstr(res.error, "offset 12288"));
	assert_non_null(strstr(res.error, "c.dat"));
	result_free(&res);
	diag_free(&d);
}

static bool is_root(void)
{
	return geteuid() == 0;
}

/* A full filesystem: a clear error naming the file and the bytes written. */
static void test_enospc(void **state)
{
	struct t *t = *state;
	if (!is_root())
		skip();
	snprintf(t->mnt, sizeof(t->mnt), "%s/small", t->dir);
	assert_int_equal(mkdir(t->mnt, 0755), 0);
	if (mount("tmpfs", t->mnt, "tmpfs", 0, "size=1m") < 0) {
		t->mnt[0] = 0;
		skip();
	}
	static const char *const yamls[] = {
	    "{rw: write, size: 4MiB, bs: 64k, keep: true, engine: psync}",
	    "{rw: write, size: 4MiB, bs: 64k, keep: true, engine: io_uring, iodepth: 1}",
	    "{rw: write, size: 4MiB, bs: 4k, keep: true, engine: io_uring, iodepth: 16}",
	};
	char path[160], want[64];
	snprintf(path, sizeof(path), "%s/benchgrid-io.dat", t->mnt);
	for (int i = 0; i < 3; i++) {
		unlink(path);
		struct step_result res;
		struct diag d;
		diag_init(&d);
		int ret = run_io(yamls[i], t->mnt, &res, &d, NULL, 0);
		assert_int_equal(ret, -ENOSPC);
		assert_true(res.failed);
		fprintf(stderr, "# %s\n", res.error);
		assert_non_null(strstr(res.error, path));
		assert_non_null(strstr(res.error, "No space left on device"));
		struct stat st;
		assert_int_equal(stat(path, &st), 0);
		assert_true(st.st_size > 0 && st.st_size <= 1 << 20);
		if (i < 2) { /* one I/O at a time: the count is exact */
			snprintf(want, sizeof(want), "after %lld bytes written", (long long)st.st_size);
			assert_non_null(strstr(res.error, want));
		} else {
			assert_non_null(strstr(res.error, " bytes written"));
		}
		result_free(&res);
		diag_free(&d);
	}
	/* a random write needs the whole file up front */
	unlink(path);
	struct step_result res;
	struct diag d;
	diag_init(&d);
	int ret = run_io("{rw: randwrite, size: 4MiB, bs: 4k}", t->mnt, &res, &d, NULL, 0);
	assert_int_equal(ret, -ENOSPC);
	assert_non_null(strstr(res.error, path));
	result_free(&res);
	diag_free(&d);
}

/* An unwritable or missing target is a clear error. */
static void test_unwritable(void **state)
{
	struct t *t = *state;
	struct step_result res;
	struct diag d;
	diag_init(&d);
	char dir[128];
	snprintf(dir, sizeof(dir), "%s/missing", t->dir);
	int ret = run_io("{rw: write, size: 64k}", dir, &res, &d, NULL, 0);
	assert_true(ret < 0);
	assert_true(res.failed);
	assert_non_null(strstr(res.error, dir));
	assert_non_null(strstr(res.error, "does not exist"));
	result_free(&res);

	snprintf(dir, sizeof(dir), "%s/ro", t->dir);
	assert_int_equal(mkdir(dir, 0555), 0);
	if (is_root()) {
		snprintf(t->mnt, sizeof(t->mnt), "%s", dir);
		if (mount("tmpfs", dir, "tmpfs", MS_RDONLY, "size=1m") < 0) {
			t->mnt[0] = 0;
			skip();
		}
	}
	ret = run_io("{rw: write, size: 64k}", dir, &res, &d, NULL, 0);
	assert_true(ret < 0);
	assert_true(res.failed);
	fprintf(stderr, "# %s\n", res.error);
	assert_non_null(strstr(res.error, dir));
	assert_non_null(strstr(res.error, "not writable"));
	result_free(&res);
	diag_free(&d);
}

/* direct: on a filesystem without O_DIRECT (ramfs) is a clear error naming it,
 * at the position of `direct`. */
static void test_direct_refused(void **state)
{
	struct t *t = *state;
	if (!is_root())
		skip();
	snprintf(t->mnt, sizeof(t->mnt), "%s/ram", t->dir);
	assert_int_equal(mkdir(t->mnt, 0755), 0);
	if (mount("ramfs", t->mnt, "ramfs", 0, NULL) < 0) {
		t->mnt[0] = 0;
		skip();
	}
	static const char *const yamls[] = {
	    "{rw: write, size: 64k,\n direct: true}",
	    "{rw: randread, size: 64k,\n direct: true, engine: psync}",
	};
	for (int i = 0; i < 2; i++) {
		struct step_result res;
		struct diag d;
		diag_init(&d);
		int ret = run_io(yamls[i], t->mnt, &res, &d, NULL, 0);
		assert_int_equal(ret, -EINVAL);
		assert_true(res.failed);
		fprintf(stderr, "# %s\n", res.error);
		assert_non_null(strstr(res.error, "opts.yaml:2:10: direct: the ramfs filesystem"));
		assert_non_null(strstr(res.error, "refuses O_DIRECT"));
		assert_non_null(strstr(res.error, t->mnt));
		result_free(&res);
		diag_free(&d);
	}
}

/* cache: drop needs root: a clear error at the option, not a silent no-op. */
static void test_drop_needs_root(void **state)
{
	struct t *t = *state;
	if (!is_root())
		skip(); /* the child below drops root; without root there is nothing to drop */
	assert_int_equal(chmod(t->dir, 0777), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (setgid(65534) || setuid(65534))
			_exit(3);
		struct step_result res;
		struct diag d;
		diag_init(&d);
		int ret = run_io("{rw: read, size: 64k,\n cache: drop}", t->dir, &res, &d, NULL, 0);
		int ok = ret < 0 && res.failed && strstr(res.error, "opts.yaml:2:9: cache: drop needs root");
		if (!ok)
			fprintf(stderr, "# %d %s\n", ret, res.error ? res.error : "");
		result_free(&res);
		diag_free(&d);
		_exit(ok ? 0 : 4);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

static const struct diag_entry *find_diag(const struct diag *d, const char *needle)
{
	for (size_t i = 0; i < d->n; i++)
		if (strstr(d->v[i].msg, needle))
			return &d->v[i];
	return NULL;
}

static void expect_at(const struct diag *d, const char *needle, int line, int col)
{
	const struct diag_entry *e = find_diag(d, needle);
	if (!e) {
		diag_print(d, stderr);
		fail_msg("no diagnostic containing '%s'", needle);
	}
	if (e->pos.line != line || e->pos.col != col)
		fail_msg("'%s' at %d:%d, expected %d:%d", e->msg, e->pos.line, e->pos.col, line, col);
	assert_string_equal(e->pos.file, "opts.yaml");
}

/* Every bad option is reported at once, each at its value's position. */
static void test_options(void **state)
{
	(void)state;
	struct diag d;
	diag_init(&d);
	const char *yaml = "rw: wrte\n"
	                   "bs: 3k\n"
	                   "size: 10k\n"
	                   "iodepth: 0\n"
	                   "sync: every x\n"
	                   "cache: flush\n"
	                   "engine: aio\n"
	                   "bogus: 1\n"
	                   "interval: 1ms\n"
	                   "jobs: lots\n"
	                   "file: ../etc/passwd\n"
	                   "direct: maybe\n"
	                   "runtime: -3\n"
	                   "prepare: yes\n";
	struct node *n = spec_load_string("opts.yaml", yaml, &d);
	assert_non_null(n);
	assert_int_equal(wl_io_ops.check(n, &d), -EINVAL);
	node_free(n);
	/* unknown keys are reported first (and stop the checks there) */
	expect_at(&d, "unknown key 'bogus'", 8, 1);
	diag_free(&d);

	diag_init(&d);
	n = spec_load_string("opts.yaml", yaml + 0, &d);
	/* drop the bogus key to see the value errors */
	for (size_t i = 0; i < n->n; i++)
		if (!strcmp(n->keys[i], "bogus"))
			strcpy(n->keys[i], "seed"); /* a valid key with a valid value */
	assert_int_equal(wl_io_ops.check(n, &d), -EINVAL);
	node_free(n);
	expect_at(&d, "io.rw: unknown value 'wrte'; did you mean 'write'?", 1, 5);
	expect_at(&d, "io.size: 10240 bytes is not a multiple of io.bs", 3, 7);
	expect_at(&d, "io.iodepth: 0 is out of range", 4, 10);
	expect_at(&d, "io.sync: expected 'every N'", 5, 7);
	expect_at(&d, "io.cache: unknown value 'flush'", 6, 8);
	expect_at(&d, "io.engine: unknown value 'aio'", 7, 9);
	expect_at(&d, "io.interval", 9, 11);
	expect_at(&d, "io.jobs", 10, 7);
	expect_at(&d, "io.file", 11, 7);
	expect_at(&d, "io.direct", 12, 9);
	expect_at(&d, "io.runtime", 13, 10);
	expect_at(&d, "io.prepare", 14, 10);
	diag_free(&d);

	/* rules between options */
	diag_init(&d);
	n = spec_load_string(
	    "opts.yaml",
	    "rw: read\nmix: 30\nbs: 1000\ndirect: true\nsize: 1000k\ntime_based: true\nio_size: 10\n", &d);
	assert_int_equal(wl_io_ops.check(n, &d), -EINVAL);
	node_free(n);
	expect_at(&d, "io.mix: only applies to rw: randrw", 2, 6);
	expect_at(&d, "not a multiple of 512", 3, 5);
	expect_at(&d, "io.time_based: needs a runtime", 6, 13);
	expect_at(&d, "io.io_size: 10 bytes is less than one block", 7, 10);
	diag_free(&d);

	/* a non-map and bs larger than size */
	diag_init(&d);
	n = spec_load_string("opts.yaml", "[1, 2]\n", &d);
	assert_int_equal(wl_io_ops.check(n, &d), -EINVAL);
	expect_at(&d, "io: expected a map of options", 1, 1);
	node_free(n);
	diag_free(&d);
	diag_init(&d);
	n = spec_load_string("opts.yaml", "size: 4k\nbs: 8k\nsync: every 0\n", &d);
	assert_int_equal(wl_io_ops.check(n, &d), -EINVAL);
	expect_at(&d, "io.bs: 8192 bytes is larger than io.size", 2, 5);
	expect_at(&d, "io.sync", 3, 7);
	node_free(n);
	diag_free(&d);

	/* defaults, and the accepted spellings */
	struct io_opts o;
	diag_init(&d);
	assert_int_equal(io_opts_parse(NULL, &o, &d), 0);
	assert_int_equal(o.rw, IO_RW_READ);
	assert_int_equal(o.bs, 4096);
	assert_int_equal(o.size, 1ull << 30);
	assert_int_equal(o.io_size, 1ull << 30);
	assert_ptr_equal(o.engine, &io_engine_io_uring);
	assert_int_equal(o.iodepth, 1);
	assert_int_equal(o.jobs, 1);
	assert_string_equal(o.file, "benchgrid-io.dat");
	assert_true(o.interval == 1.0 && !o.keep && !o.direct && !o.verify);
	n = spec_load_string(
	    "opts.yaml",
	    "{rw: randrw, mix: 70, sync: every 16, io_size: 10000, bs: 4k, size: 1GiB, cache: invalidate,"
	    " engine: psync, iodepth: 8, ramp: 2s, runtime: 1min, time_based: yes}",
	    &d);
	assert_int_equal(io_opts_parse(n, &o, &d), 0);
	assert_int_equal(o.sync, IO_SYNC_EVERY);
	assert_int_equal(o.sync_every, 16);
	assert_int_equal(o.io_size, 8192); /* rounded down to whole blocks */
	assert_int_equal(o.mix, 70);
	assert_true(o.runtime == 60 && o.ramp == 2 && o.time_based);
	assert_non_null(find_diag(&d, "iodepth 8 is ignored")); /* a warning */
	assert_int_equal(d.nerrors, 0);
	node_free(n);
	n = spec_load_string("opts.yaml", "{sync: 32}", &d);
	assert_int_equal(io_opts_parse(n, &o, &d), 0);
	assert_int_equal(o.sync_every, 32);
	node_free(n);
	diag_free(&d);
}

/* Without io_uring (a seccomp filter makes io_uring_setup fail with ENOSYS as
 * on kernels that lack it), the step falls back to psync and says so. */
static void test_fallback(void **state)
{
	struct t *t = *state;
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct sock_filter f[] = {
		    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
		    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA)),
		    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		};
		struct sock_fprog prog = {sizeof(f) / sizeof(f[0]), f};
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
		    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
			_exit(3);
		struct step_result res;
		struct diag d;
		diag_init(&d);
		int ret = run_io("{rw: randread, size: 1MiB, iodepth: 8, runtime: 200ms}", t->dir, &res, &d,
		                 NULL, 0);
		const char *eng = result_info_get(&res, "engine"), *w = result_info_get(&res, "warning");
		int ok = ret == 0 && eng && !strcmp(eng, "psync") && w &&
		         strstr(w, "io_uring is unavailable") && metric(&res, "iops") > 0;
		result_free(&res);
		diag_free(&d);
		_exit(ok ? 0 : 4);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

struct stopper {
	volatile sig_atomic_t *flag;
	double after;
};

static void *stop_later(void *arg)
{
	struct stopper *s = arg;
	struct timespec ts = {0, (long)(s->after * 1e9)};
	nanosleep(&ts, NULL);
	*s->flag = 1;
	return NULL;
}

/* SIGINT (the stop flag) and the step timeout end a long step early. */
static void test_stop_timeout(void **state)
{
	struct t *t = *state;
	static volatile sig_atomic_t flag;
	for (int e = 0; e < 2; e++) {
		flag = 0;
		struct stopper s = {&flag, 0.2};
		pthread_t th;
		pthread_create(&th, NULL, stop_later, &s);
		struct step_result res;
		struct diag d;
		diag_init(&d);
		char yaml[160];
		snprintf(yaml, sizeof(yaml),
		         "{rw: randread, size: 4MiB, runtime: 30s, time_based: true, engine: %s}",
		         e ? "psync" : "io_uring");
		double t0 = now_s(CLOCK_MONOTONIC);
		int ret = run_io(yaml, t->dir, &res, &d, &flag, 0);
		double took = now_s(CLOCK_MONOTONIC) - t0;
		pthread_join(th, NULL);
		assert_int_equal(ret, -EINTR);
		assert_true(res.failed);
		assert_true(took < 2.0);
		assert_true(metric(&res, "bytes") > 0);
		result_free(&res);

		t0 = now_s(CLOCK_MONOTONIC);
		ret = run_io(yaml, t->dir, &res, &d, NULL, 0.3);
		took = now_s(CLOCK_MONOTONIC) - t0;
		assert_int_equal(ret, -ETIMEDOUT);
		assert_non_null(strstr(res.error, "timed out"));
		assert_true(took < 2.0);
		result_free(&res);
		diag_free(&d);
	}
}

/* sync every N, dsync, sync, cache invalidate and prepare: layout all run. */
static void test_modes(void **state)
{
	struct t *t = *state;
	static const char *const yamls[] = {
	    "{rw: randwrite, size: 1MiB, bs: 4k, sync: every 16, iodepth: 8}",
	    "{rw: randwrite, size: 1MiB, bs: 4k, sync: every 16, engine: psync}",
	    "{rw: write, size: 256k, bs: 4k, sync: dsync}",
	    "{rw: write, size: 256k, bs: 4k, sync: sync, engine: psync}",
	    "{rw: read, size: 2MiB, bs: 128k, cache: invalidate, prepare: layout, keep: true}",
	    "{rw: read, size: 2MiB, bs: 128k, prepare: none, direct: true}",
	};
	for (size_t i = 0; i < sizeof(yamls) / sizeof(yamls[0]); i++) {
		struct step_result res;
		run_ok(yamls[i], t->dir, &res);
		assert_true(metric(&res, "bytes") > 0);
		result_free(&res);
	}
	/* prepare: none on a missing file */
	struct step_result res;
	struct diag d;
	diag_init(&d);
	assert_true(
	    run_io("{rw: read, size: 1MiB, prepare: none, file: nope.dat}", t->dir, &res, &d, NULL, 0) < 0);
	assert_non_null(strstr(res.error, "nope.dat is missing"));
	result_free(&res);
	diag_free(&d);
}

/* randrw gives read.* and write.* as fio does: they add up to the step's
 * figures, split as mix says; other patterns give none. */
static void test_rw_split(void **state)
{
	struct t *t = *state;
	static const char *const engines[] = {"psync", "io_uring"};
	for (int e = 0; e < 2; e++) {
		char yaml[256];
		snprintf(yaml, sizeof(yaml),
		         "{rw: randrw, mix: 70, size: 8MiB, io_size: 8MiB, bs: 4k, engine: %s}", engines[e]);
		struct step_result res;
		run_ok(yaml, t->dir, &res);
		double rb = metric(&res, "read.bytes"), wb = metric(&res, "write.bytes");
		assert_true(rb + wb == metric(&res, "bytes"));
		double ri = metric(&res, "read.iops"), wi = metric(&res, "write.iops"),
		       all = metric(&res, "iops");
		assert_true(fabs(ri + wi - all) <= 1e-9 * all);
		assert_true(fabs(metric(&res, "read.mb_s") + metric(&res, "write.mb_s") -
		                 metric(&res, "mb_s")) <= 1e-9 * metric(&res, "mb_s"));
		/* 2048 I/Os drawn 70/30: the read share within 5 points */
		double share = ri / all;
		if (share < 0.65 || share > 0.75)
			fail_msg("%s: read share %.3f, mix 70", engines[e], share);
		static const char *const dirs[] = {"read", "write"};
		for (int d = 0; d < 2; d++) {
			char a[64], b[64], c[64], m[64];
			snprintf(a, sizeof(a), "%s.lat_min_us", dirs[d]);
			snprintf(b, sizeof(b), "%s.lat_p50_us", dirs[d]);
			snprintf(c, sizeof(c), "%s.lat_p99_us", dirs[d]);
			snprintf(m, sizeof(m), "%s.lat_max_us", dirs[d]);
			assert_true(metric(&res, a) <= metric(&res, b));
			assert_true(metric(&res, b) <= metric(&res, c));
			assert_true(metric(&res, c) <= metric(&res, m));
			assert_true(metric(&res, m) <= metric(&res, "lat_max_us"));
		}
		result_free(&res);
	}
	struct step_result res;
	run_ok("{rw: randread, size: 1MiB, bs: 4k}", t->dir, &res);
	assert_null(result_get(&res, "read.iops"));
	assert_null(result_get(&res, "write.iops"));
	result_free(&res);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_options),
	    cmocka_unit_test_setup_teardown(test_write_exact, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_time_based, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_rw_split, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_sync_end, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_sync_end_kpageflags, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_verify, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_enospc, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_unwritable, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_direct_refused, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_drop_needs_root, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_fallback, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_stop_timeout, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_modes, setup, teardown),
	};
	return bg_run_cases("test_io", tests, sizeof(tests) / sizeof(tests[0]), NULL, NULL, argc, argv);
}

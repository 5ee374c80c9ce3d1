/* Unit tests: the system monitor (engine/monitor.c) against the real
 * kernel: O_DIRECT writes and reads on a real loop device must show up in
 * its /proc/diskstats figures with the right volume, a spinning thread in
 * the CPU figures; CPU shares sum to 100; bad devices are refused. The loop
 * tests need root and /dev/loop-control and are skipped otherwise (each is
 * its own CTest test, shown as skipped). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "test_cases.h"

#include "monitor.h"
#include "result.h"

#define DEV_BYTES (32u << 20)
#define IO_BYTES  (1u << 20)

static char img[64];
static char loopdev[64];

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int setup_loop(void **state)
{
	(void)state;
	loopdev[0] = 0;
	if (geteuid() != 0 || access("/dev/loop-control", F_OK) != 0)
		return 0;
	snprintf(img, sizeof(img), "/var/tmp/test_monitor.XXXXXX");
	int fd = mkstemp(img);
	if (fd < 0)
		return -1;
	int rc = ftruncate(fd, DEV_BYTES);
	close(fd);
	if (rc != 0)
		return -1;
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "losetup -f --show '%s'", img);
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	if (!fgets(loopdev, sizeof(loopdev), p))
		loopdev[0] = 0;
	pclose(p);
	loopdev[strcspn(loopdev, "\n")] = 0;
	if (!loopdev[0]) {
		unlink(img);
		return -1;
	}
	return 0;
}

static int teardown_loop(void **state)
{
	(void)state;
	if (loopdev[0]) {
		char cmd[128];
		snprintf(cmd, sizeof(cmd), "losetup -d %s", loopdev);
		if (system(cmd) != 0)
			return -1;
		unlink(img);
	}
	return 0;
}

static double metric(const struct step_result *r, const char *name)
{
	const struct metric *m = result_get(r, name);
	if (!m)
		fail_msg("metric %s missing", name);
	return m->value;
}

static void check_cpu_sum(const struct step_result *r)
{
	double sum = metric(r, "sys_usr_pct") + metric(r, "sys_sys_pct") + metric(r, "sys_iowait_pct") +
	             metric(r, "sys_idle_pct") + metric(r, "sys_steal_pct");
	assert_true(fabs(sum - 100.0) < 0.01);
	double busy = metric(r, "sys_busy_pct");
	assert_true(fabs(busy - (100.0 - metric(r, "sys_idle_pct") - metric(r, "sys_iowait_pct"))) < 0.01);
	for (const char *const *n = (const char *const[]){"sys_usr_pct", "sys_sys_pct", "sys_iowait_pct",
	                                                  "sys_idle_pct", "sys_busy_pct", NULL};
	     *n; n++) {
		double v = metric(r, *n);
		assert_true(v >= 0.0 && v <= 100.0);
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Write (or read) the device with O_DIRECT for `secs`, wrapping around. */
static uint64_t direct_io(bool write, double secs, unsigned *ios)
{
	int fd = open(loopdev, (write ? O_WRONLY : O_RDONLY) | O_DIRECT);
	assert_true(fd >= 0);
	void *buf;
	assert_int_equal(posix_memalign(&buf, 4096, IO_BYTES), 0);
	memset(buf, 0x5a, IO_BYTES);
	uint64_t done = 0;
	off_t off = 0;
	*ios = 0;
	double end = now() + secs;
	while (now() < end) {
		ssize_t n = write ? pwrite(fd, buf, IO_BYTES, off) : pread(fd, buf, IO_BYTES, off);
		assert_int_equal(n, IO_BYTES);
		done += IO_BYTES;
		(*ios)++;
		off = (off + IO_BYTES) % DEV_BYTES;
	}
	free(buf);
	close(fd);
	return done;
}

static void test_direct_writes_and_reads(void **state)
{
	(void)state;
	if (!loopdev[0])
		skip();
	struct step_result r;
	unsigned ios;

	/* writes: every byte written must be counted. The monitor's window
	 * (its first to its last snapshot) lies between the stamps taken
	 * around monitor_start and monitor_stop, and holds all the writes:
	 * its MB/s lies between bytes / the outer and bytes / the inner span,
	 * however late a loaded machine runs either call. */
	result_init(&r, "w", "io");
	double t0 = now();
	struct monitor *m = monitor_start(loopdev, 0.1);
	assert_non_null(m);
	double t1 = now();
	uint64_t bytes = direct_io(true, 1.0, &ios);
	double t2 = now();
	monitor_stop(m, &r);
	double el = now() - t0;

	double wmb = metric(&r, "disk_write_mb_s");
	double lo = (double)bytes / el / 1e6, hi = (double)bytes / (t2 - t1) / 1e6;
	print_message("write: %.2f MB/s measured, %.2f..%.2f MB/s by the writer; util %.1f%% await %.3f ms "
	              "iops %.0f\n",
	              wmb, lo, hi, metric(&r, "disk_util_pct"), metric(&r, "disk_await_ms"),
	              metric(&r, "disk_w_iops"));
	assert_true(wmb >= 0.999 * lo && wmb <= 1.001 * hi);
	assert_true(metric(&r, "disk_read_mb_s") < 0.01 * wmb);
	/* the loop driver may split a 1 MiB request; never merges beyond it */
	double wiops = metric(&r, "disk_w_iops");
	assert_true(wiops >= 0.9 * ios / el);
	/* The writer keeps a request in flight except while it waits for a CPU
	 * (the machine may be loaded), so util is well above 0; while busy at
	 * least one request is queued (aqu-sz >= util), and Little's law ties
	 * the queue to rate x time in queue: aqu-sz = IOPS x await. */
	double util = metric(&r, "disk_util_pct");
	double aqu = metric(&r, "disk_aqu_sz");
	double await = metric(&r, "disk_await_ms");
	assert_true(util > 1.0 && util <= 100.0);
	assert_true(await > 0.0);
	assert_true(metric(&r, "disk_w_await_ms") == await);
	assert_true(aqu >= 0.9 * util / 100.0);
	assert_true(fabs(aqu - wiops * await / 1000.0) <= 0.2 * aqu + 0.01);
	check_cpu_sum(&r);

	/* series: one sample per 0.1 s interval, and they add up to the total.
	 * Each sample is due at the next multiple of the interval after the
	 * one before (a sampler late past a multiple skips it): never early,
	 * and late by less than half an interval in the median (a sampler
	 * that slept twice the interval is late by one every time; a loaded
	 * machine delays some wake-ups, not most of them by 50 ms). The last
	 * point is the stop's, not a due one. */
	const struct series *s = result_series(&r, "disk_write_mb_s");
	assert_non_null(s);
	assert_true(s->n >= 2 && (double)s->n <= el / 0.1 + 1);
	double vol = 0, prev = 0, late[64];
	size_t nlate = 0;
	for (size_t i = 0; i < s->n; i++) {
		assert_true(s->t[i] > prev);
		double due = (floor(prev / 0.1 + 1e-9) + 1) * 0.1;
		if (i + 1 < s->n && nlate < 64) {
			assert_true(s->t[i] >= due - 1e-6);
			late[nlate++] = s->t[i] - due;
		}
		vol += s->v[i] * (s->t[i] - prev) * 1e6;
		prev = s->t[i];
	}
	qsort(late, nlate, sizeof(late[0]), cmp_double);
	print_message("series: %zu samples in %.2f s, median lateness %.1f ms\n", s->n, el,
	              nlate ? late[nlate / 2] * 1e3 : 0.0);
	assert_true(nlate > 0 && late[nlate / 2] < 0.05);
	assert_true(vol > 0.95 * (double)bytes && vol < 1.05 * (double)bytes);
	for (int i = 0; i < 15; i++) {
		static const char *names[] = {
		    "sys_usr_pct",  "sys_sys_pct",    "sys_iowait_pct",  "sys_idle_pct",    "sys_steal_pct",
		    "sys_busy_pct", "disk_util_pct",  "disk_await_ms",   "disk_r_await_ms", "disk_w_await_ms",
		    "disk_aqu_sz",  "disk_read_mb_s", "disk_write_mb_s", "disk_r_iops",     "disk_w_iops"};
		const struct series *x = result_series(&r, names[i]);
		assert_non_null(x);
		assert_int_equal(x->n, s->n);
	}
	assert_non_null(result_info_get(&r, "monitor.device"));
	assert_non_null(strstr(result_info_get(&r, "monitor.device"), "loop"));
	result_free(&r);

	/* reads, monitored by kernel name instead of path */
	result_init(&r, "r", "io");
	t0 = now();
	m = monitor_start(strrchr(loopdev, '/') + 1, 0.1);
	assert_non_null(m);
	t1 = now();
	bytes = direct_io(false, 0.5, &ios);
	t2 = now();
	monitor_stop(m, &r);
	el = now() - t0;
	double rmb = metric(&r, "disk_read_mb_s");
	lo = (double)bytes / el / 1e6;
	hi = (double)bytes / (t2 - t1) / 1e6;
	print_message("read: %.2f MB/s measured, %.2f..%.2f MB/s by the reader\n", rmb, lo, hi);
	assert_true(rmb >= 0.999 * lo && rmb <= 1.001 * hi);
	assert_true(metric(&r, "disk_write_mb_s") < 0.01 * rmb);
	assert_true(metric(&r, "disk_r_iops") > 0);
	assert_true(metric(&r, "disk_r_await_ms") > 0);
	result_free(&r);
}

/* An idle device: zero throughput, await 0 (not NaN), util near 0. */
static void test_idle_device(void **state)
{
	(void)state;
	if (!loopdev[0])
		skip();
	struct step_result r;
	result_init(&r, "idle", "io");
	struct monitor *m = monitor_start(loopdev, 0.05);
	assert_non_null(m);
	usleep(200000);
	monitor_stop(m, &r);
	assert_true(metric(&r, "disk_write_mb_s") == 0.0);
	assert_true(metric(&r, "disk_await_ms") == 0.0);
	assert_true(metric(&r, "disk_util_pct") < 5.0);
	check_cpu_sum(&r);
	result_free(&r);
}

static atomic_bool spin_stop;

static void *spin(void *arg)
{
	(void)arg;
	volatile uint64_t x = 0;
	while (!atomic_load(&spin_stop))
		x++;
	return NULL;
}

/* CPU only: a spinning thread shows up as user time; no disk figures. */
static void test_cpu_only(void **state)
{
	(void)state;
	struct step_result r;
	pthread_t th;

	result_init(&r, "cpu", "exec");
	struct monitor *m = monitor_start(NULL, 0.1);
	assert_non_null(m);
	atomic_store(&spin_stop, false);
	assert_int_equal(pthread_create(&th, NULL, spin, NULL), 0);
	usleep(600000);
	atomic_store(&spin_stop, true);
	pthread_join(th, NULL);
	monitor_stop(m, &r);
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	double usr = metric(&r, "sys_usr_pct");
	print_message("cpu: usr %.1f%% sys %.1f%% busy %.1f%% on %ld CPUs\n", usr, metric(&r, "sys_sys_pct"),
	              metric(&r, "sys_busy_pct"), ncpu);
	/* one CPU of ncpu spun (others' load only adds to it) */
	assert_true(usr >= 0.6 * 100.0 / (double)ncpu);
	check_cpu_sum(&r);
	assert_null(result_get(&r, "disk_util_pct"));
	assert_null(result_series(&r, "disk_write_mb_s"));
	assert_non_null(result_series(&r, "sys_usr_pct"));
	assert_null(result_info_get(&r, "monitor.device"));
	result_free(&r);
}

/* Stop right after start: no sample, no division by zero, no NaN. */
static void test_immediate_stop(void **state)
{
	(void)state;
	struct step_result r;
	result_init(&r, "x", "exec");
	struct monitor *m = monitor_start(loopdev[0] ? loopdev : NULL, 1.0);
	assert_non_null(m);
	monitor_stop(m, &r);
	for (size_t i = 0; i < r.nm; i++)
		assert_false(isnan(r.m[i].value));
	assert_int_equal(r.ns, 0);
	result_free(&r);
	/* NULL result: only frees; NULL monitor: nothing */
	m = monitor_start(NULL, 0.01);
	assert_non_null(m);
	usleep(30000);
	monitor_stop(m, NULL);
	monitor_stop(NULL, NULL);
}

static void test_bad_arguments(void **state)
{
	(void)state;
	errno = 0;
	assert_null(monitor_start("/dev/null", 1.0));
	assert_int_equal(errno, ENOTBLK);
	assert_null(monitor_start("/dev/no-such-device", 1.0));
	assert_int_equal(errno, ENOENT);
	assert_null(monitor_start("no-such-disk", 1.0));
	assert_int_equal(errno, ENODEV);
	assert_null(monitor_start("", 1.0));
	assert_null(monitor_start(NULL, 0));
	assert_int_equal(errno, EINVAL);
	assert_null(monitor_start(NULL, -1));
	assert_null(monitor_start(NULL, NAN));
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_direct_writes_and_reads),
	    cmocka_unit_test(test_idle_device),
	    cmocka_unit_test(test_cpu_only),
	    cmocka_unit_test(test_immediate_stop),
	    cmocka_unit_test(test_bad_arguments),
	};
	return bg_run_cases("test_monitor", tests, sizeof(tests) / sizeof(tests[0]), setup_loop,
	                    teardown_loop, argc, argv);
}

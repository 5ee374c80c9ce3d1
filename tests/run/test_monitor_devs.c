/* Unit tests: the devices the system monitor samples (engine/run/
 * monitor_devs.c) and their columns: /proc/diskstats lines parsed, column
 * names (disk_util_pct for the main target, disk.wal.util_pct, ...), device
 * nodes and kernel names resolved, bad ones refused; on two real loop
 * devices (root and /dev/loop-control, else skipped): the disk under their
 * images found once, from st_dev of the image files, with both targets in
 * its description, and O_DIRECT writes to one loop device counted in its
 * own columns only, the disk under it sampled too. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <cmocka.h>

#include "test_cases.h"

#include "monitor.h"
#include "monitor_devs.h"
#include "result.h"

#define DEV_BYTES (16u << 20)

static char img[2][64];
static char loopdev[2][64];

static int attach(int i)
{
	snprintf(img[i], sizeof(img[i]), "/var/tmp/test_monitor_devs.XXXXXX");
	int fd = mkstemp(img[i]);
	if (fd < 0)
		return -1;
	int rc = ftruncate(fd, DEV_BYTES);
	close(fd);
	if (rc != 0)
		return -1;
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "losetup -f --show '%s'", img[i]);
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	if (!fgets(loopdev[i], sizeof(loopdev[i]), p))
		loopdev[i][0] = 0;
	pclose(p);
	loopdev[i][strcspn(loopdev[i], "\n")] = 0;
	if (!loopdev[i][0]) {
		unlink(img[i]);
		img[i][0] = 0;
		return -1;
	}
	return 0;
}

static int teardown_loops(void **state)
{
	(void)state;
	int rc = 0;
	for (int i = 0; i < 2; i++) {
		if (loopdev[i][0]) {
			char cmd[160];
			snprintf(cmd, sizeof(cmd), "losetup -d %s", loopdev[i]);
			if (system(cmd) != 0)
				rc = -1;
			loopdev[i][0] = 0;
		}
		if (img[i][0])
			unlink(img[i]);
		img[i][0] = 0;
	}
	return rc;
}

static int setup_loops(void **state)
{
	if (geteuid() != 0 || access("/dev/loop-control", F_OK) != 0)
		return 0;
	if (attach(0) < 0 || attach(1) < 0) {
		teardown_loops(state);
		return -1;
	}
	return 0;
}

static void test_parse_diskstats(void **state)
{
	(void)state;
	struct monitor_diskstat d;
	/* a 6.x line: 20 fields (discards and flushes after the 11 of 2.6) */
	assert_true(
	    monitor_parse_diskstats(" 254       0 vda 1000 5 80000 300 2000 7 160000 900 0 1100 1200 0 0 0 0 "
	                            "40 60\n",
	                            &d));
	assert_int_equal(d.major, 254);
	assert_int_equal(d.minor, 0);
	assert_string_equal(d.name, "vda");
	assert_true(d.rd == 1000 && d.rsec == 80000 && d.rticks == 300);
	assert_true(d.wr == 2000 && d.wsec == 160000 && d.wticks == 900);
	assert_true(d.io_ticks == 1100 && d.weighted == 1200);
	/* the 14 fields of older kernels */
	assert_true(monitor_parse_diskstats("   7       3 loop3 1 0 8 0 2 0 16 1 0 3 4\n", &d));
	assert_string_equal(d.name, "loop3");
	assert_true(d.wsec == 16 && d.weighted == 4);
	assert_false(monitor_parse_diskstats("   7       3 loop3 1 0 8\n", &d));
	assert_false(monitor_parse_diskstats("", &d));
	assert_false(monitor_parse_diskstats("major minor name\n", &d));
}

static void test_columns(void **state)
{
	(void)state;
	struct mon_dev d;
	char col[256];
	memset(&d, 0, sizeof(d));
	snprintf(d.prefix, sizeof(d.prefix), "disk");
	mon_devs_column(&d, "util_pct", col, sizeof(col));
	assert_string_equal(col, "disk_util_pct");
	snprintf(d.prefix, sizeof(d.prefix), "disk.wal");
	mon_devs_column(&d, "write_mb_s", col, sizeof(col));
	assert_string_equal(col, "disk.wal.write_mb_s");
	snprintf(d.prefix, sizeof(d.prefix), "disk.under.vda");
	mon_devs_column(&d, "util_pct", col, sizeof(col));
	assert_string_equal(col, "disk.under.vda.util_pct");
}

/* The first whole device /proc/diskstats lists with a /sys/block entry that
 * is no loop device (the machine's disk). */
static int some_disk(char *name, size_t len, unsigned *ma, unsigned *mi)
{
	FILE *f = fopen("/proc/diskstats", "re");
	char line[512];
	struct monitor_diskstat d;
	int rc = -1;
	while (f && rc < 0 && fgets(line, sizeof(line), f)) {
		char p[128];
		if (!monitor_parse_diskstats(line, &d) || !strncmp(d.name, "loop", 4))
			continue;
		snprintf(p, sizeof(p), "/sys/block/%s", d.name);
		if (access(p, F_OK) == 0) {
			snprintf(name, len, "%s", d.name);
			*ma = d.major;
			*mi = d.minor;
			rc = 0;
		}
	}
	if (f)
		fclose(f);
	return rc;
}

static void test_resolve(void **state)
{
	(void)state;
	struct mon_devs L = {0};
	char name[64];
	unsigned ma = 0, mi = 0;
	if (some_disk(name, sizeof(name), &ma, &mi) < 0)
		skip();
	/* a kernel name: the main target and a named one on the same device */
	assert_int_equal(mon_devs_add_target(&L, NULL, name, "directory /x on ext4"), 0);
	assert_int_equal(mon_devs_add_target(&L, "wal", name, NULL), 0);
	assert_int_equal(L.n, 2);
	assert_string_equal(L.v[0].prefix, "disk");
	assert_string_equal(L.v[0].target, "main");
	assert_string_equal(L.v[0].kname, name);
	assert_true(L.v[0].major == ma && L.v[0].minor == mi);
	char want[256];
	snprintf(want, sizeof(want), "/dev/%s (target main: directory /x on ext4)", name);
	assert_string_equal(L.v[0].desc, want);
	assert_string_equal(L.v[1].prefix, "disk.wal");
	snprintf(want, sizeof(want), "/dev/%s (target wal)", name);
	assert_string_equal(L.v[1].desc, want);
	/* facts, one per prefix */
	struct step_result f;
	result_init(&f, NULL, NULL);
	mon_devs_facts(&L, &f);
	assert_non_null(result_info_get(&f, "devices.disk"));
	assert_string_equal(result_info_get(&f, "devices.disk.wal"), want);
	result_free(&f);
	/* refused: no block device, no such node, no such name */
	assert_int_equal(mon_devs_add_target(&L, "x", "/dev/null", NULL), -ENOTBLK);
	assert_int_equal(mon_devs_add_target(&L, "x", "/dev/no-such-device", NULL), -ENOENT);
	assert_int_equal(mon_devs_add_target(&L, "x", "no-such-disk", NULL), -ENODEV);
	assert_int_equal(mon_devs_add_target(&L, "x", "", NULL), -EINVAL);
	assert_int_equal(mon_devs_add_target(&L, "x", NULL, NULL), -EINVAL);
	assert_int_equal(L.n, 2);
	/* not a loop device: nothing under it */
	mon_devs_add_under(&L);
	assert_int_equal(L.n, 2);
	mon_devs_free(&L);
	assert_int_equal(L.n, 0);
}

static double metric(const struct step_result *r, const char *name)
{
	const struct metric *m = result_get(r, name);
	if (!m)
		fail_msg("metric %s missing", name);
	return m->value;
}

static void direct_write(const char *dev, size_t bytes)
{
	int fd = open(dev, O_WRONLY | O_DIRECT);
	assert_true(fd >= 0);
	void *buf;
	assert_int_equal(posix_memalign(&buf, 4096, 1u << 20), 0);
	memset(buf, 0x5a, 1u << 20);
	for (size_t off = 0; off < bytes; off += 1u << 20)
		assert_int_equal(pwrite(fd, buf, 1u << 20, (off_t)off), 1u << 20);
	assert_int_equal(fsync(fd), 0);
	free(buf);
	close(fd);
}

static void test_two_loops(void **state)
{
	(void)state;
	if (!loopdev[0][0])
		skip();
	struct stat st;
	assert_int_equal(stat(img[0], &st), 0);
	if (major(st.st_dev) == 0)
		skip(); /* /var/tmp on tmpfs or btrfs: no device number to compare with */
	struct mon_devs L = {0};
	assert_int_equal(mon_devs_add_target(&L, NULL, loopdev[0], "ext4 on loop image x"), 0);
	assert_int_equal(mon_devs_add_target(&L, "wal", loopdev[1], NULL), 0);
	mon_devs_add_under(&L);
	/* both images are in /var/tmp: one disk under them */
	assert_int_equal(L.n, 3);
	const struct mon_dev *u = &L.v[2];
	assert_true(u->major == major(st.st_dev) && u->minor == minor(st.st_dev));
	char want[256];
	snprintf(want, sizeof(want), "disk.under.%s", u->kname);
	assert_string_equal(u->prefix, want);
	snprintf(want, sizeof(want), "/dev/%s (under the loop images of main, wal)", u->kname);
	assert_string_equal(u->desc, want);
	assert_string_equal(u->target, "");
	print_message("%s\n%s\n%s\n", L.v[0].desc, L.v[1].desc, u->desc);

	/* writes to the wal device: in its columns, not the main device's */
	struct step_result r;
	result_init(&r, "w", "io");
	struct monitor *m = monitor_start_devs(&L, 0.1);
	assert_non_null(m);
	direct_write(loopdev[1], DEV_BYTES);
	usleep(250000);
	monitor_stop(m, &r);
	char col[256];
	snprintf(col, sizeof(col), "%s.write_mb_s", u->prefix);
	print_message("disk_write_mb_s %.2f disk.wal.write_mb_s %.2f %s %.2f\n",
	              metric(&r, "disk_write_mb_s"), metric(&r, "disk.wal.write_mb_s"), col, metric(&r, col));
	assert_true(metric(&r, "disk.wal.write_mb_s") > 0);
	assert_true(metric(&r, "disk_write_mb_s") == 0.0);
	assert_non_null(result_series(&r, "disk.wal.write_mb_s"));
	assert_non_null(result_series(&r, "disk_util_pct"));
	assert_non_null(result_series(&r, col));
	assert_non_null(result_get(&r, "sys_busy_pct"));
	assert_non_null(strstr(result_info_get(&r, "monitor.device"), "loop"));
	assert_non_null(result_info_get(&r, "monitor.disk.wal"));
	assert_null(result_info_get(&r, "warning"));
	result_free(&r);

	/* one device under two names: the same figures in both */
	struct mon_devs S = {0};
	assert_int_equal(mon_devs_add_target(&S, "a", loopdev[0], NULL), 0);
	assert_int_equal(mon_devs_add_target(&S, "b", loopdev[0], NULL), 0);
	result_init(&r, "s", "io");
	m = monitor_start_devs(&S, 0.1);
	assert_non_null(m);
	direct_write(loopdev[0], DEV_BYTES / 2);
	monitor_stop(m, &r);
	assert_true(metric(&r, "disk.a.write_mb_s") > 0);
	assert_true(metric(&r, "disk.a.write_mb_s") == metric(&r, "disk.b.write_mb_s"));
	assert_null(result_get(&r, "disk_write_mb_s"));
	result_free(&r);
	mon_devs_free(&S);
	mon_devs_free(&L);
}

/* A device gone (or never listed) is left out with a warning; the rest
 * and the CPU are still sampled. */
static void test_missing_device(void **state)
{
	(void)state;
	struct mon_devs L = {0};
	struct mon_dev d;
	memset(&d, 0, sizeof(d));
	snprintf(d.prefix, sizeof(d.prefix), "disk.gone");
	snprintf(d.kname, sizeof(d.kname), "gone0");
	d.major = 4095;
	d.minor = 1048575;
	L.v = &d;
	L.n = 1;
	struct step_result r;
	result_init(&r, "x", "exec");
	struct monitor *m = monitor_start_devs(&L, 0.05);
	assert_non_null(m);
	usleep(120000);
	monitor_stop(m, &r);
	assert_non_null(result_get(&r, "sys_busy_pct"));
	assert_null(result_get(&r, "disk.gone.util_pct"));
	assert_null(result_series(&r, "disk.gone.util_pct"));
	assert_non_null(
	    strstr(result_info_get(&r, "warning"), "disk.gone (gone0) is not in /proc/diskstats"));
	result_free(&r);
	/* no devices at all: CPU only */
	result_init(&r, "y", "exec");
	m = monitor_start_devs(NULL, 0.05);
	assert_non_null(m);
	monitor_stop(m, &r);
	assert_null(result_info_get(&r, "warning"));
	result_free(&r);
	assert_null(monitor_start_devs(NULL, 0));
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse_diskstats), cmocka_unit_test(test_columns),
	    cmocka_unit_test(test_resolve),         cmocka_unit_test(test_two_loops),
	    cmocka_unit_test(test_missing_device),
	};
	return bg_run_cases("test_monitor_devs", tests, sizeof(tests) / sizeof(tests[0]), setup_loops,
	                    teardown_loops, argc, argv);
}

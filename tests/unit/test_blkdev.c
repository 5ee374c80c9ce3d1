/* The device-safety rules (blkdev_check_safe) against a FAKE sysfs.
 *
 * This kernel has neither md (software RAID) nor device-mapper (LVM,
 * dm-crypt), so those rules cannot be shown with real devices here. These
 * tests build a fake /sys, mountinfo, /proc/swaps and /proc/mdstat in a
 * temporary directory and point the rules at it through
 * blkdev_check_safe_at (a function parameter: nothing a scenario can set).
 * The fake disk is "fsdb" with partitions "fsdb1" and "fsdb2"; the device
 * checked is a block device node made with mknod (major 240, reserved for
 * local use: opening it gives ENXIO, it touches no real disk), or, without
 * root, an existing block device node (whose exclusive open then fails with
 * EACCES, not EBUSY). The real rules (block device, root file system,
 * mounted, partition mounted, swap) are also tested with loop devices in
 * tests/integration/fs_safety.sh.
 *
 *   test_blkdev        the fake-sysfs cases (never skipped)
 *   test_blkdev real   with real loop devices (root): a loop device backed
 *                      by another one; exits 77 (skipped) without root or
 *                      /dev/loop-control. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "blkdev.h"
#include "rmtree.h"

struct fake {
	char root[64];
	char sys[PATH_MAX], dev[PATH_MAX], mountinfo[PATH_MAX], swaps[PATH_MAX], mdstat[PATH_MAX];
	char node[PATH_MAX]; /* the block device node checked */
	struct blkdev_roots rt;
	dev_t node_rdev;
};

static void putf(struct fake *f, const char *rel, const char *fmt, ...)
{
	char path[PATH_MAX * 2], *p;
	snprintf(path, sizeof(path), "%s/%s", f->root, rel);
	for (p = path + strlen(f->root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	FILE *o = fopen(path, "w");
	assert_non_null(o);
	va_list ap;
	va_start(ap, fmt);
	vfprintf(o, fmt, ap);
	va_end(ap);
	fclose(o);
}

static void mkdirs(struct fake *f, const char *rel)
{
	char path[PATH_MAX * 2];
	snprintf(path, sizeof(path), "%s/%s/x", f->root, rel);
	for (char *p = path + strlen(f->root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
}

static void link_rel(struct fake *f, const char *target, const char *rel)
{
	char path[PATH_MAX * 2];
	snprintf(path, sizeof(path), "%s/%s", f->root, rel);
	assert_int_equal(symlink(target, path), 0);
}

/* A fake block device `name` (a disk, or a partition of `disk`) with device
 * number ma:mi, as sysfs lays it out: the directory under devices/, a link
 * in class/block and in dev/block. */
static void fake_blk(struct fake *f, const char *name, const char *disk, unsigned ma, unsigned mi)
{
	char dir[512], rel[600], target[700];
	if (disk)
		snprintf(dir, sizeof(dir), "sys/devices/virtual/block/%s/%s", disk, name);
	else
		snprintf(dir, sizeof(dir), "sys/devices/virtual/block/%s", name);
	snprintf(rel, sizeof(rel), "%s/dev", dir);
	putf(f, rel, "%u:%u\n", ma, mi);
	snprintf(rel, sizeof(rel), "%s/holders", dir);
	mkdirs(f, rel);
	if (disk) {
		snprintf(rel, sizeof(rel), "%s/partition", dir);
		putf(f, rel, "%s\n", name + strlen(disk));
	}
	mkdirs(f, "sys/class/block");
	mkdirs(f, "sys/dev/block");
	snprintf(target, sizeof(target), "%s/%s", f->root, dir);
	snprintf(rel, sizeof(rel), "sys/class/block/%s", name);
	link_rel(f, target, rel);
	snprintf(rel, sizeof(rel), "sys/dev/block/%u:%u", ma, mi);
	link_rel(f, target, rel);
}

/* Any existing block device node, for a run without root (no mknod). */
static int any_block_node(char *out, size_t len, dev_t *rdev)
{
	static const char *const cands[] = {"/dev/loop0",   "/dev/loop1", "/dev/sda",  "/dev/vda",
	                                    "/dev/nvme0n1", "/dev/xvda",  "/dev/ram0", NULL};
	struct stat sb;
	for (int i = 0; cands[i]; i++) {
		if (stat(cands[i], &sb) == 0 && S_ISBLK(sb.st_mode)) {
			snprintf(out, len, "%s", cands[i]);
			*rdev = sb.st_rdev;
			return 0;
		}
	}
	return -1;
}

/* The fake system: disk fsdb with fsdb1 and fsdb2; `checked` ("fsdb" or
 * "fsdb1") gets the device number of the node that is checked. */
static struct fake *fake_new(const char *checked)
{
	struct fake *f = calloc(1, sizeof(*f));
	assert_non_null(f);
	snprintf(f->root, sizeof(f->root), "/tmp/bg-fake-sysfs.XXXXXX");
	assert_non_null(mkdtemp(f->root));
	snprintf(f->sys, sizeof(f->sys), "%s/sys", f->root);
	snprintf(f->dev, sizeof(f->dev), "%s/dev", f->root);
	snprintf(f->mountinfo, sizeof(f->mountinfo), "%s/mountinfo", f->root);
	snprintf(f->swaps, sizeof(f->swaps), "%s/swaps", f->root);
	snprintf(f->mdstat, sizeof(f->mdstat), "%s/mdstat", f->root);
	mkdirs(f, "dev");
	snprintf(f->node, sizeof(f->node), "%s/dev/%s", f->root, checked);
	if (mknod(f->node, S_IFBLK | 0600, makedev(240, 77)) == 0) {
		f->node_rdev = makedev(240, 77);
	} else {
		assert_int_equal(any_block_node(f->node, sizeof(f->node), &f->node_rdev), 0);
	}
	unsigned nma = major(f->node_rdev), nmi = minor(f->node_rdev);
	bool disk_checked = !strcmp(checked, "fsdb");
	fake_blk(f, "fsdb", NULL, disk_checked ? nma : 240, disk_checked ? nmi : 0);
	fake_blk(f, "fsdb1", "fsdb", disk_checked ? 240 : nma, disk_checked ? 1 : nmi);
	fake_blk(f, "fsdb2", "fsdb", 240, 2);
	fake_blk(f, "other", NULL, 240, 9);
	putf(f, "mountinfo", "22 1 240:9 / / rw,relatime shared:1 - ext4 %s/dev/other rw\n", f->root);
	putf(f, "swaps", "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n");
	putf(f, "mdstat", "Personalities : [raid1]\nunused devices: <none>\n");
	f->rt = (struct blkdev_roots){f->sys, f->dev, f->mountinfo, f->swaps, f->mdstat};
	return f;
}

static void fake_free(struct fake *f)
{
	assert_int_equal(rmtree(f->root, NULL), 0);
	free(f);
}

/* A holder `holder` of `of` (e.g. holders/md0), and, for dm-N, its dm/uuid
 * and dm/name. */
static void fake_holder(struct fake *f, const char *of, const char *holder, const char *uuid,
                        const char *name)
{
	char rel[600];
	fake_blk(f, holder, NULL, 241, (unsigned)(strlen(holder) + strlen(of)));
	snprintf(rel, sizeof(rel), "sys/class/block/%s/holders/%s", of, holder);
	putf(f, rel, "");
	if (uuid) {
		snprintf(rel, sizeof(rel), "sys/devices/virtual/block/%s/dm/uuid", holder);
		putf(f, rel, "%s\n", uuid);
		snprintf(rel, sizeof(rel), "sys/devices/virtual/block/%s/dm/name", holder);
		putf(f, rel, "%s\n", name);
	}
}

/* Check f->node; expect refusal with `want` in the message, or safe (NULL). */
static void expect(struct fake *f, const char *want)
{
	char why[1024] = "";
	int r = blkdev_check_safe_at(&f->rt, f->node, why, sizeof(why));
	if (!want) {
		if (r != 0)
			fail_msg("expected safe, got %d: %s", r, why);
		return;
	}
	if (r != -EBUSY || !strstr(why, want))
		fail_msg("expected refusal with \"%s\", got %d: \"%s\"", want, r, why);
}

static void test_unused_disk_is_safe(void **state)
{
	(void)state;
	struct fake *f = fake_new("fsdb");
	expect(f, NULL);
	fake_free(f);
	f = fake_new("fsdb1");
	expect(f, NULL);
	fake_free(f);
}

static void test_md_holder(void **state)
{
	(void)state;
	struct fake *f = fake_new("fsdb");
	fake_holder(f, "fsdb", "md0", NULL, NULL);
	expect(f, "rule 'RAID': /dev/fsdb is used by a software RAID array (/dev/md0)");
	fake_free(f);
	/* a partition of the disk is the member */
	f = fake_new("fsdb");
	fake_holder(f, "fsdb2", "md127", NULL, NULL);
	expect(f, "rule 'RAID': /dev/fsdb2 is used by a software RAID array (/dev/md127)");
	fake_free(f);
}

static void test_mdstat_member(void **state)
{
	(void)state;
	struct fake *f = fake_new("fsdb");
	putf(f, "mdstat",
	     "Personalities : [raid1]\nmd127 : active raid1 fsdb1[1] other[0]\n      1046528 blocks super "
	     "1.2 [2/2] [UU]\n\nunused devices: <none>\n");
	expect(f, "rule 'RAID': /dev/fsdb1 is a member of md127 (/proc/mdstat)");
	fake_free(f);
}

static void test_dm_holders(void **state)
{
	(void)state;
	struct fake *f = fake_new("fsdb");
	fake_holder(f, "fsdb1", "dm-0", "CRYPT-LUKS2-0123456789abcdef-cryptdata", "cryptdata");
	expect(f, "rule 'dm-crypt': /dev/fsdb1 is used by an encrypted volume 'cryptdata' (/dev/dm-0)");
	fake_free(f);
	f = fake_new("fsdb");
	fake_holder(f, "fsdb", "dm-3", "LVM-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", "vg0-data");
	expect(f, "rule 'LVM': /dev/fsdb is used by an LVM logical volume 'vg0-data' (/dev/dm-3)");
	fake_free(f);
	f = fake_new("fsdb");
	fake_holder(f, "fsdb2", "dm-1", "", "mpatha");
	expect(f, "rule 'device-mapper': /dev/fsdb2 is used by a device-mapper device 'mpatha' (/dev/dm-1)");
	fake_free(f);
	f = fake_new("fsdb");
	fake_holder(f, "fsdb", "bcache0", NULL, NULL);
	expect(f, "rule 'holder': /dev/fsdb is used by a holder device (/dev/bcache0)");
	fake_free(f);
}

static void test_mounted_root_swap(void **state)
{
	(void)state;
	struct fake *f = fake_new("fsdb");
	putf(f, "mountinfo",
	     "22 1 240:9 / / rw - ext4 /dev/other rw\n30 22 240:2 / /mnt/data rw - ext4 %s/dev/fsdb2 rw\n",
	     f->root);
	expect(f, "rule 'mounted': /dev/fsdb2 is mounted on /mnt/data (ext4)");
	fake_free(f);
	f = fake_new("fsdb");
	putf(f, "mountinfo", "22 1 240:1 / / rw - ext4 rootfs-fake rw\n");
	expect(f, "rule 'root filesystem': /dev/fsdb1 holds the root file system (/)");
	fake_free(f);
	f = fake_new("fsdb");
	putf(f, "swaps", "Filename\tType\tSize\tUsed\tPriority\n%s/dev/fsdb2 partition 1048572 0 -2\n",
	     f->root);
	expect(f, "rule 'swap': /dev/fsdb2 is active swap");
	fake_free(f);
}

/* Formatting a partition: its disk counts (a rule added with this test). A
 * mounted sibling partition does not. */
static void test_partition_of_a_disk_in_use(void **state)
{
	(void)state;
	struct fake *f = fake_new("fsdb1");
	fake_holder(f, "fsdb", "md0", NULL, NULL);
	expect(f,
	       "rule 'RAID': /dev/fsdb (the disk of /dev/fsdb1) is used by a software RAID array (/dev/md0)");
	fake_free(f);
	f = fake_new("fsdb1");
	putf(f, "mdstat", "md1 : active raid1 fsdb[0] other[1]\n");
	expect(f, "rule 'RAID': /dev/fsdb (the disk of /dev/fsdb1) is a member of md1 (/proc/mdstat)");
	fake_free(f);
	f = fake_new("fsdb1");
	putf(f, "mountinfo",
	     "22 1 240:9 / / rw - ext4 /dev/other rw\n31 22 240:0 / /mnt/whole rw - xfs /dev/fsdb rw\n");
	expect(f, "rule 'mounted': /dev/fsdb (the disk of /dev/fsdb1) is mounted on /mnt/whole (xfs)");
	fake_free(f);
	f = fake_new("fsdb1");
	putf(f, "mountinfo",
	     "22 1 240:9 / / rw - ext4 /dev/other rw\n31 22 240:2 / /mnt/two rw - ext4 /dev/fsdb2 rw\n");
	expect(f, NULL);
	fake_holder(f, "fsdb2", "md5", NULL, NULL);
	expect(f, NULL);
	fake_free(f);
}

/* A loop device backed by the device itself (a rule added with this test). */
static void test_loop_backing(void **state)
{
	(void)state;
	struct fake *f = fake_new("fsdb");
	fake_blk(f, "loop5", NULL, 7, 5);
	putf(f, "sys/devices/virtual/block/loop5/loop/backing_file", "%s/dev/fsdb2\n", f->root);
	expect(f, "rule 'loop backing': /dev/fsdb2 is the backing device of /dev/loop5");
	fake_free(f);
	f = fake_new("fsdb");
	fake_blk(f, "loop5", NULL, 7, 5);
	putf(f, "sys/devices/virtual/block/loop5/loop/backing_file", "/var/tmp/some.img\n");
	expect(f, NULL);
	fake_free(f);
}

/* ---- real loop devices ---- */

static int sh(const char *cmd, char *out, size_t len)
{
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	if (!out || !fgets(out, (int)len, p)) {
		if (out)
			out[0] = '\0';
	}
	int st = pclose(p);
	if (out)
		out[strcspn(out, "\n")] = '\0';
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* losetup a loop device on another loop device: the kernel neither lists a
 * holder nor refuses an exclusive open of the lower one. */
static void test_real_loop_backing(void **state)
{
	(void)state;
	char dir[] = "/var/tmp/bg-blkdev.XXXXXX", cmd[512], lower[64], upper[64], why[1024];
	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "truncate -s 16M %s/disk.img && losetup -f --show %s/disk.img", dir, dir);
	assert_int_equal(sh(cmd, lower, sizeof(lower)), 0);
	assert_int_equal(blkdev_check_safe(lower, why, sizeof(why)), 0);
	snprintf(cmd, sizeof(cmd), "losetup -f --show %s", lower);
	int r = sh(cmd, upper, sizeof(upper));
	int safe = blkdev_check_safe(lower, why, sizeof(why));
	if (r == 0) {
		snprintf(cmd, sizeof(cmd), "losetup -d %s", upper);
		sh(cmd, NULL, 0);
	}
	snprintf(cmd, sizeof(cmd), "losetup -d %s", lower);
	sh(cmd, NULL, 0);
	rmtree(dir, NULL);
	assert_int_equal(r, 0);
	char want[256];
	snprintf(want, sizeof(want), "rule 'loop backing': %s is the backing device of %s", lower, upper);
	if (safe != -EBUSY || !strstr(why, want))
		fail_msg("expected \"%s\", got %d: \"%s\"", want, safe, why);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "real")) {
		if (geteuid() != 0 || access("/dev/loop-control", F_OK) < 0) {
			printf("SKIP: needs root and /dev/loop-control\n");
			return 77;
		}
		const struct CMUnitTest real[] = {cmocka_unit_test(test_real_loop_backing)};
		return cmocka_run_group_tests(real, NULL, NULL);
	}
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_unused_disk_is_safe), cmocka_unit_test(test_md_holder),
	    cmocka_unit_test(test_mdstat_member),       cmocka_unit_test(test_dm_holders),
	    cmocka_unit_test(test_mounted_root_swap),   cmocka_unit_test(test_partition_of_a_disk_in_use),
	    cmocka_unit_test(test_loop_backing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

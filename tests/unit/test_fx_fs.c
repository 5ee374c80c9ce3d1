/* Unit tests: target validation with positions, fx_fs_same, dir targets
 * (real directories, no root needed), knob validation and machine facts.
 * Loop and device targets are tested as root in tests/integration/fs_*.sh. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "diag.h"
#include "facts.h"
#include "fs_spec.h"
#include "fx_fs.h"
#include "knobs.h"
#include "node.h"
#include "result.h"
#include "spec.h"
#include "state.h"
#include "target_ops.h"

static struct node *load(const char *yaml)
{
	struct diag d;
	diag_init(&d);
	struct node *n = spec_load_string("t.yaml", yaml, &d);
	assert_non_null(n);
	assert_int_equal(d.nerrors, 0);
	diag_free(&d);
	return n;
}

/* Check `target:` of yaml; expect one error at line:col containing msg. */
static void expect_target_error(const char *yaml, int line, int col, const char *msg)
{
	struct node *root = load(yaml);
	struct diag d;
	diag_init(&d);
	assert_int_equal(fx_fs_check(node_get(root, "target"), &d), -EINVAL);
	assert_true(d.nerrors >= 1);
	if (!strstr(d.v[0].msg, msg) || d.v[0].pos.line != line || d.v[0].pos.col != col)
		fail_msg("expected %d:%d '%s', got %d:%d '%s'", line, col, msg, d.v[0].pos.line,
		         d.v[0].pos.col, d.v[0].msg);
	diag_free(&d);
	node_free(root);
}

static void expect_target_ok(const char *yaml)
{
	struct node *root = load(yaml);
	struct diag d;
	diag_init(&d);
	int r = fx_fs_check(node_get(root, "target"), &d);
	if (r != 0)
		fail_msg("unexpected error: %s", d.n ? d.v[0].msg : "?");
	diag_free(&d);
	node_free(root);
}

static void test_check_valid(void **state)
{
	(void)state;
	expect_target_ok(
	    "target: {kind: loop, size: 300MiB, fs: xfs, block_size: 1KiB, mount_options: [noatime]}\n");
	expect_target_ok("target: {kind: loop, size: 200MiB, fs: btrfs, block_size: 4k}\n");
	expect_target_ok(
	    "target: {kind: loop, size: 64MiB, fs: ext4, mkfs_options: [-O, ^has_journal],\n"
	    "         mount_options: 'noatime,data=writeback', direct_io: true, image_dir: /var/tmp}\n");
	expect_target_ok("target: {kind: device, device: /dev/sdz1, destroy: true, fs: ext4}\n");
	expect_target_ok("target: {path: /tmp}\n");
	expect_target_ok("target: {kind: dir, fs: ext4}\n");
	expect_target_ok("target: {kind: loop, size: '${size}', fs: '${fs}', block_size: '${bs}'}\n");
	struct diag d;
	diag_init(&d);
	assert_int_equal(fx_fs_check(NULL, &d), 0);
	diag_free(&d);
}

static void test_check_errors(void **state)
{
	(void)state;
	expect_target_error("target: {kind: loop, size: 200MiB, fs: btrfs, block_size: 1KiB}\n", 1, 59,
	                    "btrfs supports block sizes from 4 KiB");
	expect_target_error("target: {kind: loop, size: 100MiB, fs: xfs}\n", 1, 28,
	                    "xfs needs at least 300 MiB");
	expect_target_error("target: {kind: loop, fs: ext4}\n", 1, 9, "needs `size:`");
	expect_target_error("target:\n  kind: dir\n  size: 1GiB\n", 3, 3,
	                    "target.size only applies to kind: loop");
	expect_target_error("target: {kind: loop, size: 1GiB, block_size: 3k}\n", 1, 46,
	                    "not a power of two");
	expect_target_error("target: {kind: loop, size: 1GiB, mount_option: [noatime]}\n", 1, 34,
	                    "did you mean 'mount_options'");
	expect_target_error("target: {kind: lop}\n", 1, 16, "did you mean 'loop'");
	expect_target_error("target: {kind: loop, size: 1GiB, fs: ext5}\n", 1, 38, "unknown value 'ext5'");
	expect_target_error("target: {kind: loop, size: 1GiB, mkfs_options: '-O ^has_journal'}\n", 1, 48,
	                    "list of separate arguments");
	expect_target_error("target: {kind: device, destroy: true}\n", 1, 9, "needs `device:`");
	expect_target_error("target: {kind: loop, size: 1GiB, fs: f2fs, block_size: 1k}\n", 1, 56,
	                    "f2fs supports only 4 KiB blocks");
	expect_target_error("target: {kind: loop, size: 1GiB, fs: jfs, block_size: 64k}\n", 1, 55,
	                    "jfs supports only 4 KiB");
	expect_target_error("target: {path: /tmp, mount_options: [noatime]}\n", 1, 22,
	                    "only applies to kind: loop, device or zram");
	expect_target_error("target: [loop]\n", 1, 9, "expected a map");
	/* kind: zram takes the keys its row says (target_ops.h), no others */
	expect_target_ok("target: {kind: zram, size: 320MiB, fs: xfs, mkfs_options: [-m, crc=1]}\n");
	expect_target_error("target: {kind: zram, fs: ext4}\n", 1, 9,
	                    "kind: zram needs `size:` (the device size");
	expect_target_error("target: {kind: zram, size: 1GiB, image_dir: /tmp}\n", 1, 34,
	                    "target.image_dir only applies to kind: loop");
	expect_target_error("target: {kind: zram, size: 1GiB, direct_io: true}\n", 1, 34,
	                    "target.direct_io only applies to kind: loop");
	expect_target_error("target: {kind: zram, size: 1GiB, device: /dev/zram0}\n", 1, 34,
	                    "target.device only applies to kind: device");
	expect_target_error("target: {kind: zram, size: 1GiB, tune_disk: true}\n", 1, 34,
	                    "a zram device benchgrid makes is its own");
	expect_target_error("target: {kind: zram, size: 100MiB, fs: xfs}\n", 1, 28,
	                    "xfs needs at least 300 MiB");
	expect_target_error("target: {kind: dir, size: 1GiB}\n", 1, 21,
	                    "target.size only applies to kind: loop or zram");
	/* comp_algorithm: zram's only, a plain name (which ones exist: setup) */
	expect_target_ok("target: {kind: zram, size: 64MiB, comp_algorithm: lzo-rle}\n");
	expect_target_ok("target: {kind: zram, size: 64MiB, comp_algorithm: 842}\n");
	expect_target_ok("target: {kind: zram, size: 64MiB, comp_algorithm: '${alg}'}\n");
	expect_target_error("target: {kind: loop, size: 1GiB, comp_algorithm: lz4}\n", 1, 34,
	                    "target.comp_algorithm only applies to kind: zram");
	expect_target_error("target: {kind: zram, size: 64MiB, comp_algorithm: 'zstd level=3'}\n", 1, 51,
	                    "'zstd level=3' is not an algorithm's name");
	expect_target_error("target: {kind: zram, size: 64MiB, comp_algorithm: LZ4}\n", 1, 51,
	                    "is not an algorithm's name (lower-case letters");
	expect_target_error("target: {kind: zram, size: 64MiB, comp_algorithm: -lz4}\n", 1, 51,
	                    "is not an algorithm's name");
	expect_target_error("target: {kind: zram, size: 64MiB, comp_algorithm: ''}\n", 1, 51,
	                    "is not an algorithm's name");
	expect_target_error("target: {kind: zram, size: 64MiB, comp_algorithm: [lz4]}\n", 1, 51,
	                    "target.comp_algorithm");
}

/* mkfs_options against the allow-list of fs's mkfs: one error at the word
 * `at` (its first occurrence in the line) containing msg. */
static void expect_mkfs_error(const char *fs, const char *opts, const char *at, const char *msg)
{
	char yaml[512];
	snprintf(yaml, sizeof(yaml), "target: {kind: loop, size: 1GiB, fs: %s, mkfs_options: [%s]}\n", fs,
	         opts);
	const char *list = strstr(yaml, "mkfs_options: [") + 15;
	const char *p = strstr(list, at);
	assert_non_null(p);
	expect_target_error(yaml, 1, (int)(p - yaml) + 1, msg);
}

static void expect_mkfs_ok(const char *fs, const char *opts)
{
	char yaml[512];
	snprintf(yaml, sizeof(yaml), "target: {kind: loop, size: 1GiB, fs: %s, mkfs_options: [%s]}\n", fs,
	         opts);
	expect_target_ok(yaml);
}

static void test_mkfs_allow_list(void **state)
{
	(void)state;
	/* what the docs and tests use */
	expect_mkfs_ok("ext4", "-O, ^has_journal");
	expect_mkfs_ok("ext4", "-E, lazy_itable_init=1");
	expect_mkfs_ok("xfs", "-m, reflink=0");
	expect_mkfs_ok("btrfs", "--mixed");
	expect_mkfs_ok("ext4", "-E, 'stride=16,stripe_width=64,nodiscard', -I, 256, -m, 0.5, -L, my data");
	expect_mkfs_ok("ext3", "-J, size=64, -e, remount-ro, -U, clear, -T, 'news,small'");
	expect_mkfs_ok("xfs", "-d, 'agcount=4,su=64k,sw=2', -l, 'size=64m,lazy-count=1', -i, size=512, -K");
	expect_mkfs_ok("btrfs", "-d, raid0, -m, DUP, -n, 32k, --csum, xxhash, '--label=x', -O, '^no-holes'");
	expect_mkfs_ok("f2fs", "-O, 'extra_attr,compression', -o, 5");
	expect_mkfs_ok("nilfs2", "-B, 4096, -L, n");
	expect_mkfs_ok("jfs", "-L, j, -s, 32");
	expect_mkfs_ok("ext4", "-L, '${label}'"); /* known at run time: checked before mkfs */
	expect_target_ok("target: {kind: loop, size: 1GiB, fs: '${fs}', mkfs_options: [/dev/sda]}\n");

	/* the reproducer: a bare word is one more device to format */
	expect_mkfs_error("btrfs", "/dev/loop0", "/dev/loop0", "'/dev/loop0' is not an option");
	expect_mkfs_error("ext4", "-F, /dev/sda", "/dev/sda", "a bare word would be one more device");
	expect_mkfs_error("xfs", "-f, --, /dev/sda", "--", "'--' is not an option of mkfs.xfs");
	/* option values that name devices */
	expect_mkfs_error("ext4", "-J, device=/dev/sdb1", "device=", "'-J device=/dev/sdb1' is not allowed");
	expect_mkfs_error("ext4", "-J, 'size=32,device=/dev/sdb1'", "'size=", "external journal device");
	expect_mkfs_error("xfs", "-l, logdev=/dev/sdb", "logdev", "names an external log device");
	expect_mkfs_error("xfs", "-r, 'extsize=4k,rtdev=/dev/sdb'", "'extsize", "names a realtime device");
	expect_mkfs_error("xfs", "-d, name=/dev/sdb", "name", "names the data device");
	expect_mkfs_error("f2fs", "-c, /dev/sdb", "-c", "adds another device to the file system");
	expect_mkfs_error("jfs", "-j, /dev/sdb", "-j", "external journal device");
	/* host files, dry runs, benchgrid's own */
	expect_mkfs_error("ext4", "-d, /etc", "-d", "copies files from a host directory");
	expect_mkfs_error("ext4", "-z, /tmp/undo", "-z", "writes an undo file");
	expect_mkfs_error("btrfs", "--rootdir, /etc", "--rootdir", "copies files from a host directory");
	expect_mkfs_error("btrfs", "-O, list-all", "list-all", "only lists the features");
	expect_mkfs_error("xfs", "-N", "-N", "makes no file system");
	expect_mkfs_error("ext4", "-t, ext2", "-t", "set by benchgrid from `fs:`");
	/* unknown flags, value forms, a flag without its value */
	expect_mkfs_error("xfs", "-Z, bogus", "-Z",
	                  "'-Z' is not an option of mkfs.xfs that benchgrid allows");
	expect_mkfs_error("ext4", "-Lmylabel", "-L",
	                  "give each option and its value as separate words ([-L, mylabel])");
	expect_mkfs_error("ext4", "-Fq", "-Fq", "'-Fq' is not an option of mke2fs that benchgrid allows");
	expect_mkfs_error("ext4", "-I, x256", "x256", "'-I' of mke2fs expects an unsigned integer");
	expect_mkfs_error("ext4", "-L", "-L", "'-L' needs a value");
	expect_mkfs_error("ext4", "-L, -F", "-F", "expects a label");
	expect_mkfs_error("btrfs", "-d, raid7", "raid7", "expects one of single, dup");
	expect_mkfs_error("btrfs", "--mixed=1", "--mixed", "takes no value");
	expect_mkfs_error("xfs", "-m, reflink=yes", "reflink",
	                  "'reflink=' of mkfs.xfs -m expects an unsigned");
	expect_mkfs_error("xfs", "-m, bogus=1", "bogus", "'bogus' is not an option of mkfs.xfs -m");
	expect_mkfs_error("ext4", "-E, 'stride=1;reboot'", "'stride", "expects an unsigned integer");
	expect_mkfs_error("ext4", "-O, 'has_journal,a b'", "'has_journal", "comma-separated list of feature");
}

static bool same(const char *a, const char *b)
{
	struct node *x = load(a), *y = load(b);
	bool r = fx_fs_same(node_get(x, "target"), node_get(y, "target"));
	node_free(x);
	node_free(y);
	return r;
}

static void test_same(void **state)
{
	(void)state;
	assert_true(same("target: {kind: loop, size: 1GiB, fs: xfs, block_size: 4k}\n",
	                 "target: {kind: loop, size: 1024MiB, fs: xfs, block_size: 4096}\n"));
	assert_false(same("target: {kind: loop, size: 1GiB, fs: xfs}\n",
	                  "target: {kind: loop, size: 1GiB, fs: ext4}\n"));
	assert_false(same("target: {kind: loop, size: 1GiB, fs: xfs, block_size: 1k}\n",
	                  "target: {kind: loop, size: 1GiB, fs: xfs, block_size: 4k}\n"));
	assert_false(same("target: {kind: loop, size: 1GiB, mount_options: [noatime]}\n",
	                  "target: {kind: loop, size: 1GiB}\n"));
	/* the default fs of a loop target is ext4 */
	assert_true(
	    same("target: {kind: loop, size: 1GiB}\n", "target: {kind: loop, size: 1GiB, fs: ext4}\n"));
	/* another compression is another device */
	assert_false(same("target: {kind: zram, size: 64MiB, comp_algorithm: lz4}\n",
	                  "target: {kind: zram, size: 64MiB}\n"));
	assert_true(same("target: {kind: zram, size: 64MiB, comp_algorithm: lz4}\n",
	                 "target: {kind: zram, size: 64MiB, comp_algorithm: lz4}\n"));
	assert_true(same("a: 1\n", "b: 1\n")); /* no target at all: the default dir on both sides */
	assert_false(same("target: {kind: loop, size: 1GiB, fs: btrfs, block_size: 1k}\n",
	                  "target: {kind: loop, size: 1GiB, fs: btrfs, block_size: 1k}\n")); /* invalid */
}

static char work[64];

static int mkwork(void **state)
{
	(void)state;
	snprintf(work, sizeof(work), "/tmp/test_fx_fs.XXXXXX");
	return mkdtemp(work) ? 0 : -1;
}

static int rmwork(void **state)
{
	(void)state;
	return rmdir(work); /* fails when a test left something behind */
}

static void test_dir_default(void **state)
{
	(void)state;
	struct diag d;
	diag_init(&d);
	assert_int_equal(state_open(NULL), 0);
	struct fx_fs *fs = fx_fs_setup(NULL, work, false, &d);
	assert_non_null(fs);
	assert_int_equal(d.nerrors, 0);
	const char *p = fx_fs_path(fs);
	assert_non_null(p);
	assert_memory_equal(p, work, strlen(work));
	struct stat sb;
	assert_int_equal(stat(p, &sb), 0);
	assert_true(S_ISDIR(sb.st_mode));
	assert_int_equal(sb.st_mode & 0777, 0755);
	/* the cell leaves files behind: teardown removes them */
	char sub[512];
	snprintf(sub, sizeof(sub), "%s/pgdata", p);
	assert_int_equal(mkdir(sub, 0700), 0);
	snprintf(sub, sizeof(sub), "%s/pgdata/file", p);
	FILE *f = fopen(sub, "w");
	assert_non_null(f);
	fclose(f);
	struct step_result r;
	result_init(&r, "facts", "facts");
	fx_fs_facts(fs, &r);
	assert_string_equal(result_info_get(&r, "fs.kind"), "dir");
	assert_non_null(result_info_get(&r, "fs.type"));
	assert_non_null(result_info_get(&r, "fs.block_size"));
	assert_string_equal(result_info_get(&r, "fs.path"), p);
	result_free(&r);
	assert_int_equal(fx_fs_teardown(fs, &d), 0);
	assert_int_equal(d.nerrors, 0);
	diag_free(&d);
}

/* A dir target on the wrong file system fails and leaves nothing behind. */
static void test_dir_fs_mismatch(void **state)
{
	(void)state;
	char yaml[256];
	/* whatever /tmp is, it is not nilfs2 */
	snprintf(yaml, sizeof(yaml), "target: {path: %s, fs: nilfs2}\n", work);
	struct node *root = load(yaml);
	struct diag d;
	diag_init(&d);
	struct fx_fs *fs = fx_fs_setup(node_get(root, "target"), "/nonexistent", false, &d);
	assert_null(fs);
	assert_int_equal(d.nerrors, 1);
	assert_non_null(strstr(d.v[0].msg, "not nilfs2"));
	assert_int_equal(d.v[0].pos.line, 1);
	assert_int_equal(d.v[0].pos.col, 22 + (int)strlen(work));
	diag_free(&d);
	node_free(root);
}

static void test_dir_missing_path(void **state)
{
	(void)state;
	struct node *root = load("target: {path: /nonexistent/dir}\n");
	struct diag d;
	diag_init(&d);
	assert_null(fx_fs_setup(node_get(root, "target"), work, false, &d));
	assert_non_null(strstr(d.v[0].msg, "is not an existing directory"));
	assert_int_equal(d.v[0].pos.col, 16);
	diag_free(&d);
	node_free(root);
}

static void expect_knob_error(const char *yaml, int line, int col, const char *msg)
{
	struct node *root = load(yaml);
	struct diag d;
	diag_init(&d);
	assert_int_equal(knobs_check(node_get(root, "sysctl"), node_get(root, "queue"), &d), -EINVAL);
	if (!d.n || !strstr(d.v[0].msg, msg) || d.v[0].pos.line != line || d.v[0].pos.col != col)
		fail_msg("expected %d:%d '%s', got %d:%d '%s'", line, col, msg, d.n ? d.v[0].pos.line : 0,
		         d.n ? d.v[0].pos.col : 0, d.n ? d.v[0].msg : "(none)");
	diag_free(&d);
	node_free(root);
}

static void test_knobs_check(void **state)
{
	(void)state;
	struct node *root =
	    load("sysctl: {vm.dirty_ratio: 10, vm.dirty_background_ratio: 1}\n"
	         "queue: {scheduler: mq-deadline, read_ahead_kb: 128, nr_requests: 64,\n"
	         "        max_sectors_kb: 256, write_cache: write through, rotational: false}\n");
	struct diag d;
	diag_init(&d);
	assert_int_equal(knobs_check(node_get(root, "sysctl"), node_get(root, "queue"), &d), 0);
	diag_free(&d);
	node_free(root);
	expect_knob_error("queue: {scheduler: noop}\n", 1, 20, "use none");
	expect_knob_error("queue: {write_cache: off}\n", 1, 22, "'write back' or 'write through'");
	expect_knob_error("queue: {read_ahed_kb: 128}\n", 1, 9, "did you mean 'read_ahead_kb'");
	expect_knob_error("queue: {nr_requests: many}\n", 1, 22, "queue.nr_requests");
	expect_knob_error("sysctl: {../../etc/passwd: 1}\n", 1, 10, "not a sysctl name");
	expect_knob_error("sysctl: {vm.dirty_ratio: [1, 2]}\n", 1, 26, "expected a value");
}

/* Nothing to do is fine; queue settings without a block device are not. */
static void test_knobs_apply_without_device(void **state)
{
	(void)state;
	struct diag d;
	diag_init(&d);
	struct knobs *k = knobs_apply(NULL, NULL, NULL, &d);
	assert_non_null(k);
	assert_int_equal(knobs_restore(k, &d), 0);
	struct node *root = load("queue: {read_ahead_kb: 128}\n");
	assert_null(knobs_apply(NULL, node_get(root, "queue"), NULL, &d));
	assert_int_equal(d.nerrors, 1);
	assert_non_null(strstr(d.v[0].msg, "no block device"));
	node_free(root);
	root = load("sysctl: {vm.no_such_setting_here: 1}\n");
	diag_free(&d);
	diag_init(&d);
	assert_null(knobs_apply(node_get(root, "sysctl"), NULL, NULL, &d));
	assert_non_null(strstr(d.v[0].msg, "no such setting"));
	assert_int_equal(d.v[0].pos.col, 10);
	node_free(root);
	diag_free(&d);
}

static void test_facts_machine(void **state)
{
	(void)state;
	struct step_result r;
	result_init(&r, "facts", "facts");
	facts_machine(&r);
	assert_non_null(result_info_get(&r, "machine.kernel"));
	assert_non_null(result_info_get(&r, "machine.cpus"));
	assert_true(atoi(result_info_get(&r, "machine.cpus")) >= 1);
	assert_true(strtoull(result_info_get(&r, "machine.memory"), NULL, 10) > (1ULL << 20));
	assert_non_null(result_info_get(&r, "machine.distro"));
	result_free(&r);
}

/* The kinds' table (target_ops.h) is the one list: `kind:`'s names, the
 * enum and the rows agree, every row can set up, describe and price
 * itself, and a kind's own undo kind reaches the journal only once
 * registered (cleanup needs it after a kill -9). */
static void test_kind_table(void **state)
{
	(void)state;
	for (int k = 0; k < FX_NKINDS; k++) {
		const struct target_ops *o = target_kind(k);
		assert_non_null(o);
		assert_string_equal(fs_kind_names[k], o->name);
		assert_ptr_equal(target_kind_find(o->name), o);
		assert_non_null(o->setup);
		assert_non_null(o->describe);
		assert_non_null(o->estimate);
	}
	assert_null(fs_kind_names[FX_NKINDS]);
	assert_null(target_kind_find("lop"));
	char kinds[128];
	target_kinds_taking(TK_MKFS, kinds, sizeof(kinds));
	assert_string_equal(kinds, "loop, device or zram");
	target_kinds_taking(TK_SIZE, kinds, sizeof(kinds));
	assert_string_equal(kinds, "loop or zram");
	assert_true(target_kind_has_block("loop", kinds, sizeof(kinds)));
	assert_false(target_kind_has_block(NULL, kinds, sizeof(kinds)));
	assert_false(target_kind_has_block("zram", kinds, sizeof(kinds)));
	assert_string_equal(kinds, "loop or device");

	struct diag d;
	diag_init(&d);
	assert_int_equal(state_undo_action("zram-remove", "/dev/zram999999", "1", &d), -EINVAL);
	assert_int_equal(d.nerrors, 1); /* unknown undo action */
	target_kinds_register();
	target_kinds_register(); /* idempotent */
	/* a device that does not exist is gone already: done */
	assert_int_equal(state_undo_action("zram-remove", "/dev/zram999999", "1", &d), 0);
	/* a name that is no zram device is never acted on */
	assert_int_equal(state_undo_action("zram-remove", "/dev/sda", "1", &d), -EINVAL);
	diag_free(&d);

	struct target_cost c = {0};
	struct node *root = load("target: {kind: loop, size: 64MiB}\n");
	target_kind_cost(node_get(root, "target"), false, &c);
	assert_true(c.mkfs);
	assert_int_equal(c.bytes, 64 << 20);
	node_free(root);
	memset(&c, 0, sizeof(c));
	root = load("target: {kind: zram, size: 64MiB}\n");
	target_kind_cost(node_get(root, "target"), false, &c);
	assert_true(c.mkfs);
	assert_int_equal(c.bytes, 0); /* in memory, not in the work directory */
	node_free(root);
	memset(&c, 0, sizeof(c));
	target_kind_cost(NULL, false, &c); /* the default: a directory */
	assert_false(c.mkfs);
	assert_true(c.holds_files);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_kind_table),
	    cmocka_unit_test(test_check_valid),
	    cmocka_unit_test(test_check_errors),
	    cmocka_unit_test(test_mkfs_allow_list),
	    cmocka_unit_test(test_same),
	    cmocka_unit_test_setup_teardown(test_dir_default, mkwork, rmwork),
	    cmocka_unit_test_setup_teardown(test_dir_fs_mismatch, mkwork, rmwork),
	    cmocka_unit_test_setup_teardown(test_dir_missing_path, mkwork, rmwork),
	    cmocka_unit_test(test_knobs_check),
	    cmocka_unit_test(test_knobs_apply_without_device),
	    cmocka_unit_test(test_facts_machine),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

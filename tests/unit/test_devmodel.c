/* Unit tests of fixtures/devmodel without the kernel: the model's keys and
 * units (dm_spec), the io.max line the cgroup-v2 path writes, and the
 * backend against fake cgroup directories (the v1 throttle files and a v2
 * cgroup with and without the io controller), with the undo journal. The
 * real throttling is tested in tests/integration/devmodel.sh. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "devmodel.h"
#include "diag.h"
#include "dm_backend.h"
#include "dm_spec.h"
#include "node.h"
#include "spec.h"
#include "state.h"

#define MiB (1024ULL * 1024)

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

static void test_spec_full(void **st)
{
	(void)st;
	struct node *root =
	    load("target: {kind: loop, size: 1GiB, model_during: all,\n"
	         "  model: {read_bps: 150MB/s, write_bps: 120MB, read_iops: 300, write_iops: 200,\n"
	         "    cache: {size: 8.5GB, then: {write_bps: 130MB}, refill_bps: 50MB, keep_state: "
	         "true}}}\n");
	struct dm_spec s;
	struct diag d;
	diag_init(&d);
	assert_int_equal(dm_spec_parse(node_get(root, "target"), "target", true, &s, &d), 0);
	assert_true(s.present);
	assert_int_equal(s.during, DM_DURING_ALL);
	assert_int_equal(s.base.v[DM_READ_BPS], 150 * MiB);
	assert_int_equal(s.base.v[DM_WRITE_BPS], 120 * MiB);
	assert_int_equal(s.base.v[DM_READ_IOPS], 300);
	assert_int_equal(s.base.v[DM_WRITE_IOPS], 200);
	assert_true(s.has_cache && s.keep_state);
	assert_int_equal(s.cache_size, (uint64_t)(8.5 * 1024 * MiB));
	assert_int_equal(s.refill_bps, 50 * MiB);
	/* then: the base overlaid with cache.then */
	assert_int_equal(s.then.v[DM_WRITE_BPS], 130 * MiB);
	assert_int_equal(s.then.v[DM_READ_BPS], 150 * MiB);
	assert_int_equal(s.then.v[DM_WRITE_IOPS], 200);
	diag_free(&d);
	node_free(root);
}

/* model_scale multiplies every rate (cache.then's and refill_bps too), not
 * the cache's size; models: and model_scale: of a cell, and their errors. */
static void test_cell_scale(void **st)
{
	(void)st;
	struct node *root = load("models: off\nmodel_scale: 0.25\n"
	                         "target: {kind: loop, size: 1GiB, model: {write_bps: 120MB, read_iops: 3,\n"
	                         "  cache: {size: 8GB, then: {write_bps: 40MB}, refill_bps: 50MB}}}\n");
	struct dm_spec s;
	struct dm_cell c;
	struct diag d;
	diag_init(&d);
	assert_int_equal(dm_cell_parse(root, true, &c, &d), 0);
	assert_false(c.on);
	assert_true(c.scale == 0.25);
	assert_int_equal(dm_spec_parse(node_get(root, "target"), "target", true, &s, &d), 0);
	dm_spec_scale(&s, c.scale);
	assert_int_equal(s.base.v[DM_WRITE_BPS], 30 * MiB);
	assert_int_equal(s.base.v[DM_READ_IOPS], 1); /* 0.75 rounds to 1: a limit stays a limit */
	assert_int_equal(s.then.v[DM_WRITE_BPS], 10 * MiB);
	assert_int_equal(s.then.v[DM_READ_IOPS], 1);
	assert_int_equal(s.refill_bps, (uint64_t)(12.5 * MiB));
	assert_int_equal(s.cache_size, 8 * 1024 * MiB);
	assert_int_equal(s.base.v[DM_READ_BPS], 0); /* no limit stays none */
	node_free(root);

	root = load("name: x\n"); /* the defaults */
	assert_int_equal(dm_cell_parse(root, true, &c, &d), 0);
	assert_true(c.on && c.scale == 1);
	node_free(root);
	root = load("models: ${arm}\nmodel_scale: ${k}\n"); /* left for run time */
	assert_int_equal(dm_cell_parse(root, false, &c, &d), 0);
	assert_int_equal(d.nerrors, 0);
	assert_int_equal(dm_cell_parse(root, true, &c, &d), -EINVAL);
	assert_int_equal(d.nerrors, 2);
	node_free(root);
	static const char *const bad[] = {"model_scale: 0\n", "model_scale: -2\n", "model_scale: fast\n",
	                                  "model_scale: .nan\n", "models: maybe\n"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct diag e;
		diag_init(&e);
		root = load(bad[i]);
		if (dm_cell_parse(root, false, &c, &e) != -EINVAL || e.nerrors != 1)
			fail_msg("%s: not refused once", bad[i]);
		node_free(root);
		diag_free(&e);
	}
	diag_free(&d);
}

static void test_spec_errors(void **st)
{
	(void)st;
	static const struct {
		const char *yaml, *msg;
	} cases[] = {
	    {"target: {kind: dir, model: {write_bps: 1MB}}\n", "needs a block device"},
	    {"target: {kind: loop, size: 1GiB, model: {write_bps: 1XB}}\n", "unknown size unit"},
	    {"target: {kind: loop, size: 1GiB, model: {write_iops: -3}}\n", "write_iops"},
	    {"target: {kind: loop, size: 1GiB, model: {latency: 1ms}}\n", "latency: expected a map"},
	    {"target: {kind: loop, size: 1GiB, model: {latency: {write_us: 1XB}}}\n",
	     "unknown duration unit"},
	    {"target: {kind: loop, size: 1GiB, model: {latency: {write_us: 11s}}}\n", "out of range"},
	    {"target: {kind: loop, size: 1GiB, model: {latency: {queue_depth: 0}}}\n", "queue_depth"},
	    {"target: {kind: loop, size: 1GiB, model: {latency: {rotate_us: 1}}}\n",
	     "unknown key 'rotate_us'"},
	    {"target: {kind: device, device: /dev/sdz, model: {latency: {write_us: 1ms}}}\n",
	     "needs kind: loop"},
	    {"target: {kind: loop, size: 1GiB, model: {cache: {size: 1GB}}}\n", "needs `then:`"},
	    {"target: {kind: loop, size: 1GiB, model: {cache: {size: 1GB, then: {}}}}\n",
	     "at least one limit"},
	    {"target: {kind: loop, size: 1GiB, model: {cache: {size: 1GB, then: [1]}}}\n", "map of limits"},
	    {"target: {kind: loop, size: 1GiB, model_during: steps}\n", "without `model:`"},
	    {"target: {kind: loop, size: 1GiB, model: 10MB}\n", "expected a map"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct node *root = load(cases[i].yaml);
		struct dm_spec s;
		struct diag d;
		diag_init(&d);
		assert_int_equal(devmodel_check(node_get(root, "target"), "target", &d), -EINVAL);
		assert_true(d.nerrors >= 1);
		if (!strstr(d.v[0].msg, cases[i].msg))
			fail_msg("case %zu: expected '%s', got '%s'", i, cases[i].msg, d.v[0].msg);
		assert_true(d.v[0].pos.line == 1);
		diag_free(&d);
		(void)s;
		node_free(root);
	}
}

/* ${...} waits for run time at check time, and is an error at run time. */
static void test_spec_deferred(void **st)
{
	(void)st;
	struct node *root = load("target: {kind: loop, size: 1GiB, model: {write_bps: \"${bw}\"}}\n");
	struct dm_spec s;
	struct diag d;
	diag_init(&d);
	assert_int_equal(dm_spec_parse(node_get(root, "target"), "target", false, &s, &d), 0);
	assert_int_equal(dm_spec_parse(node_get(root, "target"), "target", true, &s, &d), -EINVAL);
	assert_non_null(strstr(d.v[0].msg, "unresolved"));
	diag_free(&d);
	node_free(root);
}

static void test_iomax_line(void **st)
{
	(void)st;
	char buf[256];
	struct dm_limits l = {{0}};
	l.v[DM_WRITE_BPS] = 10 * MiB;
	l.v[DM_READ_IOPS] = 300;
	dm_backend_iomax_line(7, 3, &l, buf, sizeof(buf));
	assert_string_equal(buf, "7:3 rbps=max wbps=10485760 riops=300 wiops=max");
	struct dm_limits none = {{0}};
	dm_backend_iomax_line(259, 0, &none, buf, sizeof(buf));
	assert_string_equal(buf, "259:0 rbps=max wbps=max riops=max wiops=max");
}

static char tmp[64];

static void put(const char *rel, const char *text)
{
	char p[256];
	snprintf(p, sizeof(p), "%s/%s", tmp, rel);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void get(const char *rel, char *buf, size_t len)
{
	char p[256];
	snprintf(p, sizeof(p), "%s/%s", tmp, rel);
	FILE *f = fopen(p, "r");
	assert_non_null(f);
	size_t n = fread(buf, 1, len - 1, f);
	buf[n] = 0;
	fclose(f);
}

/* A fake v1 root: the files are plain files, so each write replaces the
 * content, which is enough to see the last line written. */
static void test_backend_v1(void **st)
{
	(void)st;
	snprintf(tmp, sizeof(tmp), "/tmp/test_devmodel.XXXXXX");
	assert_non_null(mkdtemp(tmp));
	char jpath[128], v1[96], buf[512];
	snprintf(jpath, sizeof(jpath), "%s/state", tmp);
	snprintf(v1, sizeof(v1), "%s/blkio", tmp);
	mkdir(v1, 0755);
	const char *files[] = {"blkio.throttle.read_bps_device", "blkio.throttle.write_bps_device",
	                       "blkio.throttle.read_iops_device", "blkio.throttle.write_iops_device"};
	for (int i = 0; i < 4; i++) {
		char rel[128];
		snprintf(rel, sizeof(rel), "blkio/%s", files[i]);
		put(rel, "");
	}
	assert_int_equal(state_open(jpath), 0);
	struct dm_backend b;
	char why[512];
	assert_int_equal(dm_backend_detect(&b, v1, NULL, why, sizeof(why)), 0);
	assert_int_equal(b.kind, DM_BACKEND_V1);
	struct dm_target_dev dev = {.maj = 7, .min = 5};
	assert_false(dm_backend_busy(&b, 7, 5));
	struct dm_limits l = {{0}};
	l.v[DM_WRITE_BPS] = 10 * MiB;
	l.v[DM_WRITE_IOPS] = 300;
	struct diag d;
	diag_init(&d);
	assert_int_equal(dm_backend_set(&b, &dev, &l, &d), 0);
	get("blkio/blkio.throttle.write_bps_device", buf, sizeof(buf));
	assert_string_equal(buf, "7:5 10485760");
	get("blkio/blkio.throttle.write_iops_device", buf, sizeof(buf));
	assert_string_equal(buf, "7:5 300");
	get("blkio/blkio.throttle.read_bps_device", buf, sizeof(buf));
	assert_string_equal(buf, ""); /* no limit: untouched */
	assert_true(dm_backend_busy(&b, 7, 5));
	/* journalled before being set */
	get("state", buf, sizeof(buf));
	assert_non_null(strstr(buf, "blkio-throttle"));
	assert_non_null(strstr(buf, "write_bps_device 7:5"));
	assert_non_null(strstr(buf, "write_iops_device 7:5"));
	/* cleanup after a "crash" removes them */
	state_close();
	assert_int_equal(state_cleanup(jpath, &d), 2);
	get("blkio/blkio.throttle.write_bps_device", buf, sizeof(buf));
	assert_string_equal(buf, "7:5 0");
	get("blkio/blkio.throttle.write_iops_device", buf, sizeof(buf));
	assert_string_equal(buf, "7:5 0");
	/* set + clear by the run itself marks them done */
	assert_int_equal(state_open(jpath), 0);
	struct dm_target_dev dev2 = {.maj = 7, .min = 6};
	assert_int_equal(dm_backend_set(&b, &dev2, &l, &d), 0);
	assert_int_equal(dm_backend_clear(&b, &dev2, &d), 0);
	get("blkio/blkio.throttle.write_bps_device", buf, sizeof(buf));
	assert_string_equal(buf, "7:6 0");
	state_close();
	assert_int_equal(state_cleanup(jpath, &d), 0);
	assert_int_equal(d.nerrors, 0);
	diag_free(&d);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	assert_int_equal(system(cmd), 0);
}

/* v2: io.max in the run's cgroup, only when the parent enables io. */
static void test_backend_v2(void **st)
{
	(void)st;
	snprintf(tmp, sizeof(tmp), "/tmp/test_devmodel.XXXXXX");
	assert_non_null(mkdtemp(tmp));
	char cg[128], why[1024], buf[512];
	snprintf(cg, sizeof(cg), "%s/benchgrid-1", tmp);
	mkdir(cg, 0755);
	put("cgroup.controllers", "cpu memory pids\n");
	put("cgroup.subtree_control", "memory pids\n");
	put("benchgrid-1/io.max", "");
	struct dm_backend b;
	assert_int_equal(dm_backend_detect(&b, NULL, cg, why, sizeof(why)), -ENOTSUP);
	assert_non_null(strstr(why, "io controller is not enabled"));
	assert_non_null(strstr(why, "not available there at all"));
	put("cgroup.controllers", "cpu io memory pids\n");
	assert_int_equal(dm_backend_detect(&b, NULL, cg, why, sizeof(why)), -ENOTSUP);
	assert_non_null(strstr(why, "echo +io"));
	assert_int_equal(dm_backend_detect(&b, NULL, NULL, why, sizeof(why)), -ENOTSUP);
	assert_non_null(strstr(why, "no cgroup v2"));
	put("cgroup.subtree_control", "io memory pids\n");
	assert_int_equal(dm_backend_detect(&b, "/nonexistent", cg, why, sizeof(why)), 0);
	assert_int_equal(b.kind, DM_BACKEND_V2);
	struct dm_target_dev dev = {.maj = 7, .min = 1};
	struct dm_limits l = {{0}};
	l.v[DM_READ_BPS] = 150 * MiB;
	struct diag d;
	diag_init(&d);
	assert_int_equal(state_open(NULL), 0);
	assert_int_equal(dm_backend_set(&b, &dev, &l, &d), 0);
	get("benchgrid-1/io.max", buf, sizeof(buf));
	assert_string_equal(buf, "7:1 rbps=157286400 wbps=max riops=max wiops=max");
	assert_int_equal(dm_backend_clear(&b, &dev, &d), 0);
	get("benchgrid-1/io.max", buf, sizeof(buf));
	assert_string_equal(buf, "7:1 rbps=max wbps=max riops=max wiops=max");
	/* the undo action writes the same "no limit" line, and a cgroup that
	 * is gone is done */
	put("benchgrid-1/io.max", "");
	char f[160];
	snprintf(f, sizeof(f), "%s/io.max", cg);
	assert_int_equal(state_undo_action("blkio-throttle", f, "7:1", &d), 0);
	get("benchgrid-1/io.max", buf, sizeof(buf));
	assert_string_equal(buf, "7:1 rbps=max wbps=max riops=max wiops=max");
	snprintf(f, sizeof(f), "%s/gone/io.max", tmp);
	assert_int_equal(state_undo_action("blkio-throttle", f, "7:1", &d), 0);
	assert_int_equal(d.nerrors, 0);
	diag_free(&d);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_spec_full),   cmocka_unit_test(test_cell_scale),
	    cmocka_unit_test(test_spec_errors), cmocka_unit_test(test_spec_deferred),
	    cmocka_unit_test(test_iomax_line),  cmocka_unit_test(test_backend_v1),
	    cmocka_unit_test(test_backend_v2),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

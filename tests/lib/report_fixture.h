/* report_fixture: a crafted run for the report tests (no runner needed).
 *
 * 4 cells: fs in {ext4, xfs} x fs_block in {1KiB, 4KiB}, plus a constant
 * parameter `note` holding a comma, quotes and a newline (CSV quoting).
 * repeat 3; steps seqwrite (io: mb_s, iops; series mb_s) and ro (pgbench:
 * tps, lat_avg; series tps, lat_ms). Cell 3 (xfs, 4KiB) fails in `ro` of its
 * first repetition. Cell 0's ro.tps has a cold first run, cell 1's an
 * outlier. The scenario's notes:, report: and expect: sections come from
 * YAML; expect: ends with a ratio (seqwrite.mb_s 4KiB / 1KiB: pairs 201/101
 * and 400/301, median 1.66, PASS) and an order (ro.tps xfs > ext4: 1110 vs
 * 1000 at 1KiB, the 4KiB pair not measured, PASS), and a ratio of two
 * metrics of each ext4 cell (ro.tps / seqwrite.mb_s: 1000/101 and 2000/201,
 * median 9.926, PASS). */
#ifndef REPORT_FIXTURE_H
#define REPORT_FIXTURE_H

#include <stdio.h>
#include <string.h>

#include "results.h"
#include "spec.h"

#define FIXTURE_NOTE "a, \"quoted\"\nsecond line"

static const char fixture_yaml[] =
    "notes:\n"
    "  - \"Approximated: the disks are *models* | not the hardware.\"\n"
    "  - \"Second note.\"\n"
    "report:\n"
    "  pivot:\n"
    "    - {rows: fs, cols: fs_block, value: ro.tps}\n"
    "    - {rows: fs_block, value: seqwrite.mb_s, stat: median}\n"
    "  charts:\n"
    "    - {x: time, y: ro.tps, series: fs}\n"
    "    - {x: fs_block, y: seqwrite.mb_s, series: fs}\n"
    "    - {x: fs, y: ro.tps, kind: bar}\n"
    "expect:\n"
    "  - where: {fs: ext4, fs_block: 4KiB}\n"
    "    ro.tps: [2000, -10%, +10%]\n"
    "  - where: {fs: ext4, fs_block: 1k}\n"
    "    ro.tps: [2000, -20%, +20%]\n"
    "  - where: {fs: xfs, fs_block: 1KiB}\n"
    "    ro.tps: [5000, -10%, null]\n"
    "    xfail: published on a faster SSD\n"
    "  - where: {fs: xfs, fs_block: 1KiB}\n"
    "    seqwrite.mb_s: [300, -50, 50]\n"
    "    xfail: true\n"
    "  - where: {fs: xfs, fs_block: 4KiB}\n"
    "    ro.tps: [2200, 10%]\n"
    "  - where: {fs: btrfs}\n"
    "    ro.tps: [1, 1%]\n"
    "  - where: {fs: ext4, fs_block: 4KiB}\n"
    "    ro.nosuch: [1, 1%]\n"
    "    strict: true\n"
    "  - ratio: {of: seqwrite.mb_s, where: {fs_block: 4KiB}, to: {fs_block: 1k}}\n"
    "    published: 1.5\n"
    "    tolerance: 20%\n"
    "    note: \"4 KiB blocks write 1.5x faster\"\n"
    "  - order: [{fs: xfs}, \">\", {fs: ext4}]\n"
    "    metric: ro.tps\n"
    "    note: xfs is faster\n"
    "  - ratio: {of: ro.tps, to: seqwrite.mb_s, where: {fs: ext4}}\n"
    "    published: 10\n"
    "    tolerance: 5%\n"
    "    note: about 10 tps per MB/s\n";

static struct node *fixture_params(const char *fs, const char *blk)
{
	struct node *p = node_new(NODE_MAP, NULL);
	node_map_put(p, "fs", NULL, node_new_scalar(fs, NULL));
	node_map_put(p, "fs_block", NULL, node_new_scalar(blk, NULL));
	struct node *note = node_new_scalar(FIXTURE_NOTE, NULL);
	note->quoted = true;
	node_map_put(p, "note", NULL, note);
	return p;
}

/* ro.tps samples per cell and repetition. */
static const double fixture_tps[4][3] = {
    {500, 1000, 1002},  /* cold first run */
    {1100, 1110, 3000}, /* outlier */
    {2000, 2010, 1990},
    {2200, 2200, 2200}, /* cell 3 fails in rep 0 */
};

static void fixture_build(struct run *r)
{
	static const char *fs[] = {"ext4", "ext4", "xfs", "xfs"};
	static const char *blk[] = {"1KiB", "4KiB", "1KiB", "4KiB"};
	/* cells in matrix order: ext4/1KiB, ext4/4KiB, xfs/1KiB, xfs/4KiB */
	static const int tps_row[] = {0, 2, 1, 3};
	struct diag d;

	diag_init(&d);
	run_init(r);
	run_set(&r->scenario_file, "specs/fixture.yaml");
	run_set(&r->name, "fs-blocksize");
	run_set(&r->description, "Filesystem x fs block size, crafted for tests.");
	run_set(&r->scenario_hash, "0123456789abcdef");
	run_set(&r->tool_version, "benchgrid test");
	r->started = 1700000000.25;
	r->finished = 1700000600.5;
	r->nplanned = 4;
	r->repeat = 3;
	r->warmup = 1;
	result_info(&r->env, "kernel", "6.1.0-test");
	result_info(&r->env, "cpu", "Test CPU | 2 cores");
	result_metric(&r->env, "mem_total", 8589934592.0, "bytes");

	struct node *root = spec_load_string("fixture.yaml", fixture_yaml, &d);
	if (root) {
		r->report_cfg = node_clone(node_get(root, "report"));
		r->expect_cfg = node_clone(node_get(root, "expect"));
		r->notes_cfg = node_clone(node_get(root, "notes"));
		node_free(root);
	}
	if (d.nerrors)
		diag_print(&d, stderr);
	diag_free(&d);

	for (int i = 0; i < 4; i++) {
		struct cell c = {.index = (size_t)i};
		snprintf(c.id, sizeof(c.id), "a1b2c3d4e5f%d", i);
		c.params = fixture_params(fs[i], blk[i]);
		struct run_cell *rc = run_add_cell(r, &c);
		node_free(c.params);
		rc->started = 1700000000.0 + 100 * i;
		rc->elapsed = 90.5;
		result_info(&rc->facts, "fs.type", "%s", fs[i]);
		result_info(&rc->facts, "dev.name", "loop0");
		result_metric(&rc->facts, "fs.block_size", i % 2 ? 4096 : 1024, "bytes");
		for (int rep = 0; rep < 3; rep++) {
			struct step_result s;
			result_init(&s, "seqwrite", "io");
			s.started = rc->started + rep * 30;
			s.elapsed = 5.0 + rep * 0.01;
			double mb = 100.0 * (i + 1) + rep;
			result_metric(&s, "mb_s", mb, "MB/s");
			result_metric(&s, "iops", mb * 16, "");
			for (int k = 1; k <= 5; k++)
				result_sample(&s, "mb_s", "MB/s", k, mb + k);
			result_info(&s, "engine", "io_uring");
			run_cell_take_step(rc, (size_t)rep, &s);

			result_init(&s, "ro", "pgbench");
			s.started = rc->started + rep * 30 + 5;
			s.elapsed = 10;
			if (i == 3) {
				result_fail(
				    &s, "pgbench: connection to server lost\nserver log: FATAL: terminating");
				for (int k = 1; k <= 3; k++)
					result_sample(&s, "tps", "tps", k, 2200);
				run_cell_take_step(rc, (size_t)rep, &s);
				break;
			}
			double tps = fixture_tps[tps_row[i]][rep];
			result_metric(&s, "tps", tps, "tps");
			result_metric(&s, "lat_avg", 10000.0 / tps, "ms");
			for (int k = 1; k <= 10; k++) {
				result_sample(&s, "tps", "tps", k, tps + k);
				result_sample(&s, "lat_ms", "ms", k, 10000.0 / (tps + k));
			}
			result_info(&s, "warning", "first warning, rep %d", rep);
			result_info(&s, "warning", "second warning");
			run_cell_take_step(rc, (size_t)rep, &s);
		}
		if (i == 3)
			run_cell_set_status(rc, RUN_FAILED, "step ro: pgbench: connection to server lost");
		else
			run_cell_set_status(rc, RUN_OK, NULL);
	}
}

#endif

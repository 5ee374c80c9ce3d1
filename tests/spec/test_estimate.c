/* Unit tests: plan's estimate (spec/estimate.h) over real scenarios planned
 * as `plan` plans them: filesystems made, clusters initialised and data
 * loads under the run order with fixture reuse and `reinit:`, each step's
 * seconds from runtime, duration, transactions or size, repeat and warmup,
 * the history's seconds, the disk of the largest cell; and run's ETA
 * against the plan (run/progress.h). What a step's estimate says decides,
 * not its kind's name: a raw device (no file system made), a tps metric
 * from the history (estimate_step_read, issue 30). */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "estimate.h"
#include "estimate_cell.h"
#include "matrix.h"
#include "plan.h"
#include "progress.h"
#include "spec_load.h"
#include "validators.h"

/* cmocka 1.1 has no assert_double_equal */
#define assert_near(a, b)                                                                                    \
	do {                                                                                                 \
		double a_ = (a), b_ = (b);                                                                   \
		if (fabs(a_ - b_) > 1e-9)                                                                    \
			fail_msg("%s = %g, want %g", #a, a_, b_);                                            \
	} while (0)

struct planned {
	struct spec *s;
	struct cell *cells;
	size_t n;
	struct estimate e;
};

static const struct estimate_rates rates = ESTIMATE_DEFAULTS;

/* Plan the scenario yaml as `plan` does, then estimate it. */
static void plan_yaml(struct planned *p, const char *yaml, const struct estimate_history *h)
{
	char path[] = "/tmp/test_estimate_XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs(yaml, f);
	fclose(f);
	struct defines D = {0};
	struct diag d;
	diag_init(&d);
	p->s = spec_open(path, &D, &d);
	unlink(path);
	assert_non_null(p->s);
	assert_int_equal(plan_build(p->s, &p->cells, &p->n, &d), 0);
	if (d.nerrors)
		diag_print(&d, stderr);
	assert_int_equal(d.nerrors, 0);
	diag_free(&d);
	assert_int_equal(estimate_plan(p->s, p->cells, p->n, &rates, h, &p->e), 0);
}

static void planned_free(struct planned *p)
{
	estimate_free(&p->e);
	matrix_free(p->cells, p->n);
	spec_free(p->s);
}

static const struct estimate_step *step(const struct estimate *e, const char *name)
{
	for (size_t i = 0; i < e->nsteps; i++)
		if (!strcmp(e->steps[i].name, name))
			return &e->steps[i];
	fail_msg("no step %s", name);
	return NULL;
}

/* Two filesystems x two scales: the run order keeps each filesystem's cells
 * together, so 2 mkfs and 2 initdb; the scale changes init, so every cell
 * loads. 10 s x (repeat 2 + warmup 1) per cell. */
static void test_fs_by_scale(void **state)
{
	(void)state;
	struct planned p;
	plan_yaml(&p,
	          "name: t\nrepeat: 2\nwarmup: 1\nmatrix:\n  scale: [1, 10]\n  fs: [ext4, xfs]\n"
	          "target: {kind: loop, size: 1GiB, fs: \"${fs}\"}\n"
	          "postgres: {init: {scale: \"${scale}\"}}\n"
	          "steps:\n  - name: ro\n    pgbench: {builtin: select-only, duration: 10s}\n",
	          NULL);
	assert_int_equal(p.e.ncells, 4);
	assert_int_equal(p.e.fs_setups, 2);
	assert_int_equal(p.e.mkfs, 2);
	assert_int_equal(p.e.initdb, 2);
	assert_int_equal(p.e.loads, 4);
	assert_int_equal(p.e.restarts, 0);
	assert_near(p.e.scale_loaded, 22);
	assert_near(step(&p.e, "ro")->seconds, 4 * 10 * 3);
	assert_string_equal(step(&p.e, "ro")->basis, "duration");
	/* defaults: 2 x 1 s + 2 x 3 s + 22 x 0.5 s + 4 x 0.3 s */
	assert_near(p.e.fs_s, 2);
	assert_near(p.e.pg_s, 6);
	assert_near(p.e.data_s, 11 + 1.2);
	assert_near(p.e.total_s, 120 + 2 + 6 + 12.2);
	double sum = 0;
	assert_int_equal(p.e.nslots, 4 * 2);
	for (size_t i = 0; i < p.e.nslots; i++)
		sum += p.e.slot_s[i];
	assert_near(sum, p.e.total_s);
	assert_int_equal(p.e.disk_need, 1073741824);
	planned_free(&p);
}

/* One filesystem and server for three cells: how often the data is loaded
 * again depends on whether the steps write and on reinit: / fresh:. */
static size_t loads_of(const char *pg, const char *builtin)
{
	char yaml[1024];
	snprintf(yaml, sizeof(yaml),
	         "name: t\nmatrix:\n  clients: [1, 2, 4]\ntarget: {kind: loop, size: 1GiB}\n"
	         "postgres: {init: {scale: 2}%s}\n"
	         "steps:\n  - name: b\n    pgbench: {builtin: %s, clients: \"${clients}\", duration: 1s}\n",
	         pg, builtin);
	struct planned p;
	plan_yaml(&p, yaml, NULL);
	assert_int_equal(p.e.mkfs, 1);
	assert_int_equal(p.e.initdb, 1);
	size_t loads = p.e.loads;
	planned_free(&p);
	return loads;
}

static void test_reinit(void **state)
{
	(void)state;
	assert_int_equal(loads_of("", "select-only"), 1);              /* nothing written: reused */
	assert_int_equal(loads_of("", "tpcb-like"), 3);                /* when-written: every cell */
	assert_int_equal(loads_of(", reinit: never", "tpcb-like"), 1); /* kept though written */
	assert_int_equal(loads_of(", reinit: per-cell", "select-only"), 3);
	assert_int_equal(loads_of(", fresh: true", "select-only"), 3);
}

/* Other settings on the same cluster: a restart (or reload), no initdb;
 * a dir target makes no filesystem. */
static void test_settings_restart(void **state)
{
	(void)state;
	struct planned p;
	plan_yaml(
	    &p,
	    "name: t\nmatrix:\n  sb: [16MB, 128MB]\n  c: [1, 2]\n"
	    "postgres: {settings: {shared_buffers: \"${sb}\"}}\n"
	    "steps:\n  - name: b\n    pgbench: {builtin: select-only, clients: \"${c}\", duration: 2s}\n",
	    NULL);
	assert_int_equal(p.e.mkfs, 0);
	assert_int_equal(p.e.fs_setups, 1);
	assert_int_equal(p.e.initdb, 1);
	assert_int_equal(p.e.restarts, 1);
	assert_int_equal(p.e.loads, 0);
	planned_free(&p);
}

/* Step seconds: runtime (+ ramp), duration, transactions x clients at the
 * default rate or a lower rate:, io bytes at the default rate (a read lays
 * its file out first), exec declares nothing. */
static void test_step_seconds(void **state)
{
	(void)state;
	struct planned p;
	plan_yaml(&p,
	          "name: t\nrepeat: 3\npostgres: {}\nsteps:\n"
	          "  - name: rt\n    io: {rw: randread, size: 64MiB, runtime: 5s, ramp: 1s}\n"
	          "  - name: w\n    io: {rw: write, size: 400MiB}\n"
	          "  - name: r\n    io: {rw: read, size: 400MiB}\n"
	          "  - name: tx\n    pgbench: {transactions: 100, clients: 4}\n"
	          "  - name: slow\n    pgbench: {transactions: 100, clients: 2, rate: 50}\n"
	          "  - name: ld\n    pgbench: {init: {scale: 4}}\n"
	          "  - name: x\n    exec: {command: \"true\"}\n",
	          NULL);
	assert_near(step(&p.e, "rt")->seconds, 3 * 6);
	assert_string_equal(step(&p.e, "rt")->basis, "runtime");
	assert_near(step(&p.e, "w")->seconds, 3 * 2);
	assert_string_equal(step(&p.e, "w")->basis, "size");
	assert_near(step(&p.e, "r")->seconds, 3 * 4);
	assert_near(step(&p.e, "tx")->seconds, 3 * 0.4);
	assert_string_equal(step(&p.e, "tx")->basis, "transactions");
	assert_near(step(&p.e, "slow")->seconds, 3 * 4);
	assert_near(step(&p.e, "slow")->tx_at, 50);
	assert_near(step(&p.e, "ld")->seconds, 3 * (4 * 0.5 + 0.3));
	assert_near(step(&p.e, "x")->seconds, 0);
	assert_string_equal(step(&p.e, "x")->basis, "not declared");
	assert_int_equal(p.e.undeclared, 1);
	/* a dir target: the cluster, the data (scale 4: tables and WAL) and
	 * the largest io file */
	double want = rates.cluster_bytes + 4 * (rates.scale_bytes + rates.wal_bytes) + 400.0 * 1048576;
	assert_int_equal(p.e.disk_need, (uint64_t)want);
	planned_free(&p);
}

/* Named targets are made too; the history prices the set-ups it has (per
 * cell that made filesystems, per cluster), the defaults the others. */
static void test_targets_and_history(void **state)
{
	(void)state;
	char *names[] = {"tx", "ro"};
	double tps[] = {250, 99};
	struct estimate_history h = {
	    .fs_s = 2.5, .pg_s = 6, .data_s = NAN, .tps_step = names, .tps = tps, .ntps = 2};
	struct planned p;
	plan_yaml(&p,
	          "name: t\nmatrix:\n  fs: [ext4, xfs, btrfs]\n"
	          "target: {kind: loop, size: 2GiB, fs: \"${fs}\"}\n"
	          "targets: {wal: {kind: loop, size: 1GiB, fs: ext4}, img: {kind: loop, size: 1GiB, "
	          "image_dir: /srv}}\n"
	          "postgres: {wal_dir: wal, init: {scale: 1}}\n"
	          "steps:\n  - name: ro\n    pgbench: {builtin: select-only, duration: 1s}\n"
	          "  - name: tx\n    pgbench: {builtin: select-only, transactions: 100, clients: 5}\n"
	          "  - name: capped\n    pgbench: {transactions: 100, rate: 10}\n",
	          &h);
	/* transactions at the last run's tps; a duration stays a duration */
	assert_near(step(&p.e, "tx")->seconds, 3 * 500 / 250.0);
	assert_true(step(&p.e, "tx")->tps_hist);
	assert_near(step(&p.e, "ro")->seconds, 3 * 1);
	assert_near(step(&p.e, "capped")->tx_at, 10);
	assert_int_equal(p.e.fs_setups, 3);
	assert_int_equal(p.e.mkfs, 9);
	assert_int_equal(p.e.fs_setups_made, 3);
	assert_true(p.e.fs_hist && p.e.pg_hist && !p.e.data_hist);
	assert_near(p.e.fs_s, 3 * 2.5);
	assert_near(p.e.pg_s, 3 * 6);
	assert_near(p.e.data_s, 3 * (0.5 + 0.3));
	/* the image in image_dir is elsewhere */
	assert_int_equal(p.e.disk_need, 3ULL << 30);
	assert_true(p.e.disk_outside);
	planned_free(&p);
}

/* Other run orders: interleave opens another cell at every slot, so each
 * slot sets its filesystem and cluster up again; `reinit: per-cell` loads
 * at every cell set-up. repeat: {until} counts its max. */
static void test_run_orders(void **state)
{
	(void)state;
	struct planned p;
	plan_yaml(&p,
	          "name: t\nrepeat: 3\nwarmup: 1\nrun_order: interleave\nmatrix:\n  fs: [ext4, xfs]\n"
	          "target: {kind: loop, size: 1GiB, fs: \"${fs}\"}\npostgres: {init: {scale: 1}}\n"
	          "steps:\n  - name: ro\n    pgbench: {builtin: select-only, duration: 10s}\n",
	          NULL);
	assert_int_equal(p.e.order, RUN_ORDER_INTERLEAVE);
	assert_int_equal(p.e.nslots, 6);
	assert_int_equal(p.e.mkfs, 6);
	assert_int_equal(p.e.initdb, 6);
	assert_int_equal(p.e.loads, 6);
	/* 2 cells x (3 + 1 warm-up) x 10 s, the warm-up with the cell's first slot */
	assert_near(p.e.steps_s, 80);
	assert_near(p.e.slot_s[0], 20 + 1 + 3 + 0.8);
	assert_near(p.e.slot_s[2], 10 + 1 + 3 + 0.8);
	planned_free(&p);
	plan_yaml(
	    &p,
	    "name: t\nrepeat: {min: 2, max: 5, until: 3%}\nrun_order: interleave\nmatrix:\n  c: [1, 2]\n"
	    "target: {kind: loop, size: 1GiB}\npostgres: {init: {scale: 1}, reinit: per-cell}\n"
	    "steps:\n  - name: ro\n    pgbench: {builtin: select-only, clients: \"${c}\", duration: 1s}\n",
	    NULL);
	assert_int_equal(p.e.repeat, 5);
	assert_true(p.e.repeat_until);
	assert_int_equal(p.e.nslots, 10);
	assert_int_equal(p.e.mkfs, 1);   /* one filesystem for both cells */
	assert_int_equal(p.e.initdb, 1); /* and one cluster */
	assert_int_equal(p.e.loads, 10); /* per-cell: at every cell set-up */
	planned_free(&p);
}

/* run's ETA: the plan's seconds of the cells left, scaled by measured over
 * estimated seconds of the cells finished. */
static void test_progress_eta(void **state)
{
	(void)state;
	struct progress pr;
	progress_init(&pr, 1);
	double *plan = malloc(3 * sizeof(*plan));
	plan[0] = 10;
	plan[1] = 10;
	plan[2] = 20;
	progress_plan(&pr, plan, 3);
	progress_cell(&pr, 1, 3, "a", 999);
	assert_near(pr.eta, 40);
	assert_near(pr.plan_left, 40);
	progress_slot_took(&pr, 20, true); /* twice as slow as planned */
	progress_cell(&pr, 2, 3, "b", 999);
	assert_near(pr.plan_left, 30);
	assert_near(pr.eta, 60);
	progress_slot_took(&pr, 5, true);
	progress_cell(&pr, 3, 3, "c", 999);
	assert_near(pr.eta, 20 * 25.0 / 20);
	progress_slot_took(&pr, 0, false); /* passed over: no change to the ratio */
	assert_near(pr.sofar.priced_spent_s, 25);
	assert_near(pr.sofar.priced_plan_s, 20);
	progress_end(&pr);
	/* without a plan, the caller's ETA */
	progress_init(&pr, 1);
	progress_cell(&pr, 1, 3, "a", 42);
	assert_near(pr.eta, 42);
	progress_end(&pr);
}

/* Steps that declare no duration: the plan prices their slots at 0 s, and
 * the ETA is the mean seconds such a slot took x those left (not "?"). */
static void test_progress_eta_undeclared(void **state)
{
	(void)state;
	struct progress pr;
	progress_init(&pr, 1);
	double *plan = calloc(3, sizeof(*plan));
	progress_plan(&pr, plan, 3);
	progress_cell(&pr, 1, 3, "a", 7); /* nothing measured: the caller's */
	assert_near(pr.eta, 7);
	progress_slot_took(&pr, 2, true);
	progress_cell(&pr, 2, 3, "b", 999);
	assert_near(pr.eta, 4); /* 2 s a slot x 2 left */
	progress_slot_took(&pr, 4, true);
	progress_cell(&pr, 3, 3, "c", 999);
	assert_near(pr.eta, 3);
	progress_end(&pr);
	/* priced and unpriced slots mixed: each part by its own measure */
	struct estimate_progress e = {.priced_plan_s = 10,
	                              .priced_spent_s = 20,
	                              .unpriced_spent_s = 9,
	                              .unpriced_done = 3,
	                              .left_plan_s = 5,
	                              .unpriced_left = 2};
	assert_near(estimate_eta(&e), 5 * 2 + 3 * 2);
	e.unpriced_done = 0; /* unpriced slots left, none measured */
	assert_true(estimate_eta(&e) < 0);
	e.unpriced_left = 0;
	assert_near(estimate_eta(&e), 10);
}

static void test_format(void **state)
{
	(void)state;
	char b[32];
	estimate_format_seconds(45, b, sizeof(b));
	assert_string_equal(b, "45s");
	estimate_format_seconds(190, b, sizeof(b));
	assert_string_equal(b, "3m10s");
	estimate_format_seconds(3720, b, sizeof(b));
	assert_string_equal(b, "1h02m");
	estimate_format_seconds(-1, b, sizeof(b));
	assert_string_equal(b, "?");
	estimate_format_seconds(NAN, b, sizeof(b));
	assert_string_equal(b, "?");
	estimate_format_seconds(2 * 86400 + 3 * 3600 + 59, b, sizeof(b));
	assert_string_equal(b, "2d03h");
	/* beyond int's seconds: never a negative time */
	estimate_format_seconds(1e10, b, sizeof(b));
	assert_string_equal(b, "> 100 years");
	estimate_format_seconds(1e300, b, sizeof(b));
	assert_string_equal(b, "> 100 years");
	estimate_format_seconds(INFINITY, b, sizeof(b));
	assert_string_equal(b, "> 100 years");
	estimate_format_seconds(50 * 365.25 * 86400, b, sizeof(b)); /* past 2^31 s */
	assert_string_equal(b, "18262d12h");
}

static struct node *yaml(const char *text)
{
	struct diag d;
	diag_init(&d);
	struct node *n = spec_load_string("t.yaml", text, &d);
	assert_int_equal(d.nerrors, 0);
	diag_free(&d);
	assert_non_null(n);
	return n;
}

/* The cell's filesystems made, from its tree (cell_cost_read). */
static size_t mkfs_of(const char *text)
{
	const struct estimate_rates r = ESTIMATE_DEFAULTS;
	struct node *tree = yaml(text);
	struct cell_cost cc;
	cell_cost_read(tree, NULL, &r, &cc);
	size_t n = cc.nmkfs;
	cell_cost_free(&cc);
	node_free(tree);
	return n;
}

/* A step kind only this test knows that opens the target's device raw. */
static void raw_kind_estimate(const struct node *opts, struct step_estimate *e)
{
	(void)opts;
	e->raw_device = true;
}

/* A device target with no fs: is used raw when a step's estimate says it
 * opens the device (io's file: "@device", or any kind's), so no file system
 * is made; skipped or not, as run sets it up. */
static void test_raw_device(void **state)
{
	(void)state;
	const char *dev = "target: {kind: device, path: /dev/nosuch}\n";
	char text[512];
	snprintf(text, sizeof(text), "%ssteps:\n  - io: {file: \"@device\", rw: randread}\n", dev);
	assert_int_equal(mkfs_of(text), 0);
	snprintf(text, sizeof(text), "%ssteps:\n  - io: {file: data.bin, rw: randread}\n", dev);
	assert_int_equal(mkfs_of(text), 1);
	snprintf(text, sizeof(text), "%ssteps:\n  - exec: {command: \"true\"}\n", dev);
	assert_int_equal(mkfs_of(text), 1);
	assert_int_equal(estimate_add_step_kind("rawkind", raw_kind_estimate), 0);
	snprintf(text, sizeof(text), "%ssteps:\n  - exec: \"true\"\n  - rawkind: {}\n", dev);
	assert_int_equal(mkfs_of(text), 0);
	/* fs: wins over what the steps say */
	assert_int_equal(mkfs_of("target: {kind: device, path: /dev/nosuch, fs: ext4}\n"
	                         "steps:\n  - io: {file: \"@device\"}\n"),
	                 1);
}

/* estimate_step_read: the kind's name and its estimate; the tps metric
 * (cli's history) only for a step priced by transactions. */
static void test_step_read(void **state)
{
	(void)state;
	struct node *steps = yaml("- pgbench: {transactions: 10}\n"
	                          "- pgbench: {duration: 5s}\n"
	                          "- pgbench: {init: {scale: 2}}\n"
	                          "- pgbench: \"${opts}\"\n"
	                          "- io: {file: \"@device\", size: 1M}\n"
	                          "- io: {size: 1M}\n"
	                          "- nosuch: {}\n"
	                          "- just text\n");
	struct step_estimate e;
	assert_string_equal(estimate_step_read(steps->items[0], &e), "pgbench");
	assert_string_equal(e.basis, "transactions");
	assert_string_equal(e.tps_metric, "tps");
	estimate_step_read(steps->items[1], &e);
	assert_null(e.tps_metric);
	estimate_step_read(steps->items[2], &e);
	assert_null(e.tps_metric);
	estimate_step_read(steps->items[3], &e); /* a run-time value: the defaults */
	assert_string_equal(e.tps_metric, "tps");
	assert_string_equal(estimate_step_read(steps->items[4], &e), "io");
	assert_true(e.raw_device);
	assert_null(e.tps_metric);
	estimate_step_read(steps->items[5], &e);
	assert_false(e.raw_device);
	assert_null(estimate_step_read(steps->items[6], &e));
	assert_true(e.writes_db && !e.raw_device && !e.tps_metric && !e.basis);
	assert_null(estimate_step_read(steps->items[7], &e));
	node_free(steps);
}

int main(void)
{
	validators_register();
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fs_by_scale),
	    cmocka_unit_test(test_reinit),
	    cmocka_unit_test(test_settings_restart),
	    cmocka_unit_test(test_step_seconds),
	    cmocka_unit_test(test_targets_and_history),
	    cmocka_unit_test(test_progress_eta),
	    cmocka_unit_test(test_run_orders),
	    cmocka_unit_test(test_format),
	    cmocka_unit_test(test_progress_eta_undeclared),
	    cmocka_unit_test(test_raw_device),
	    cmocka_unit_test(test_step_read),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

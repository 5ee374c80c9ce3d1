/* Unit tests: the seam of a workload (workloads/workload.h, issue 30). Each
 * workload of the table carries everything it owns in its workload_ops:
 * its key in a step and its option tables (for `benchgrid schema`), its
 * metrics (for ref_check), whether the server's activity is sampled during
 * it and how often, its estimate, its headline rule, whether a step opens
 * the target's device raw (run/raw_device.c asks the workload, not its
 * name); a step kind registered with spec's estimate is priced with no
 * edit of spec (a kind only this test knows); and a step reads the cell's
 * fixtures by name from its step_ctx. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "estimate_cell.h"
#include "raw_device.h"
#include "spec_load.h"
#include "test_util.h"
#include "validators.h"
#include "workload_table.h"

static struct node *yaml(const char *text)
{
	struct diag d;
	diag_init(&d);
	struct node *n = spec_load_string("t.yaml", text, &d);
	if (d.nerrors)
		diag_print(&d, stderr);
	assert_int_equal(d.nerrors, 0);
	diag_free(&d);
	assert_non_null(n);
	return n;
}

/* Every row is complete and consistent: the schema links a step's key to
 * the first of its tables by name, ref_check finds its metrics by name. */
static void test_ops_complete(void **state)
{
	(void)state;
	const struct workload_ops *const *all = workload_all();
	size_t n = 0;
	for (; all[n]; n++) {
		const struct workload_ops *w = all[n];
		assert_int_equal(w->version, WORKLOAD_OPS_VERSION);
		assert_ptr_equal(workload_find(w->name), w);
		assert_non_null(w->step_row);
		assert_string_equal(w->step_row->name, w->name);
		assert_non_null(w->tables);
		assert_non_null(w->tables[0]);
		assert_non_null(w->step_row->ref);
		assert_string_equal(w->step_row->ref, w->tables[0]->name);
		assert_non_null(w->metrics);
		assert_ptr_equal(workload_metrics_of(w->name), w->metrics);
		assert_non_null(w->check);
		assert_non_null(w->run);
		assert_non_null(w->estimate);
		assert_non_null(w->metrics->headline); /* model/headline.c names no kind */
		if (w->opens_device)                   /* its messages need it */
			assert_non_null(w->device_how);
	}
	assert_int_equal(n, 3);
	assert_null(workload_find("nosuch"));
	assert_null(workload_metrics_of("nosuch"));
}

/* The server's activity: sampled during pgbench and exec steps, not io;
 * pgbench's every `progress`, else every second. */
static void test_server_activity(void **state)
{
	(void)state;
	assert_false(workload_find("io")->metrics->server_activity);
	assert_true(workload_find("pgbench")->metrics->server_activity);
	assert_true(workload_find("exec")->metrics->server_activity);
	const struct workload_ops *pgb = workload_find("pgbench");
	assert_non_null(pgb->sample_every);
	struct node *o = yaml("{progress: 5s}");
	assert_true(pgb->sample_every(o) == 5.0);
	node_free(o);
	o = yaml("{progress: 0}");
	assert_true(pgb->sample_every(o) == 1.0);
	node_free(o);
	o = yaml("{builtin: select-only}");
	assert_true(pgb->sample_every(o) == 1.0);
	node_free(o);
	assert_true(pgb->sample_every(NULL) == 1.0);
	assert_null(workload_find("exec")->sample_every);
}

/* A step kind only this test knows: 3 s a round, files of 1 MiB. */
static void rounds_estimate(const struct node *opts, struct step_estimate *e)
{
	e->basis = "rounds";
	e->seconds = 3 * est_number(node_get(opts, "rounds"), 1);
	e->file_bytes = 1048576;
}

/* Registered with spec's estimate, a kind is priced without an edit of
 * spec: its name, basis, seconds and the files on the cell's target. */
static void test_estimate_new_kind(void **state)
{
	(void)state;
	assert_int_equal(estimate_add_step_kind("rounds", rounds_estimate), 0);
	const struct estimate_rates r = ESTIMATE_DEFAULTS;
	struct node *tree = yaml("steps:\n"
	                         "  - rounds: {rounds: 4}\n"
	                         "  - name: more\n"
	                         "    rounds: {rounds: 2}\n"
	                         "  - io: {rw: write, size: 2m, runtime: 10s, ramp: 1s}\n");
	struct cell_cost cc;
	cell_cost_read(tree, NULL, &r, &cc);
	assert_int_equal(cc.nsteps, 3);
	assert_string_equal(cc.steps[0].name, "rounds#1");
	assert_string_equal(cc.steps[0].basis, "rounds");
	assert_true(cc.steps[0].seconds == 12.0);
	assert_string_equal(cc.steps[1].name, "more");
	assert_true(cc.steps[1].seconds == 6.0);
	/* io's own estimate, registered by validators_register */
	assert_string_equal(cc.steps[2].name, "io#3");
	assert_string_equal(cc.steps[2].basis, "runtime");
	assert_true(cc.steps[2].seconds == 11.0);
	assert_false(cc.writes);
	/* a dir target holds the largest step's files: io's 2 MiB */
	assert_int_equal(cc.disk, 2 * 1048576);
	cell_cost_free(&cc);
	node_free(tree);
}

/* workload_of_step: the first key that names a workload, and its value. */
static void test_of_step(void **state)
{
	(void)state;
	struct node *st = yaml("{name: s, record: false, pgbench: {clients: 2}}");
	const struct node *opts = NULL;
	assert_ptr_equal(workload_of_step(st, &opts), workload_find("pgbench"));
	assert_ptr_equal(opts, node_get(st, "pgbench"));
	node_free(st);
	st = yaml("{name: s}");
	assert_null(workload_of_step(st, &opts));
	assert_null(opts);
	node_free(st);
	assert_null(workload_of_step(NULL, &opts));
}

/* Whether a step opens the target's device: io's file: "@device" (its
 * option, for positions); io's other steps open files; pgbench's and
 * exec's open neither. */
static void test_opens_device(void **state)
{
	(void)state;
	const struct workload_ops *io = workload_find("io");
	assert_non_null(io->opens_device);
	assert_string_equal(io->device_how, "file: \"@device\"");
	struct node *o = yaml("{file: \"@device\", rw: randread}");
	assert_ptr_equal(io->opens_device(o), node_get(o, "file"));
	node_free(o);
	o = yaml("{file: data.bin}");
	assert_null(io->opens_device(o));
	node_free(o);
	o = yaml("{rw: read}");
	assert_null(io->opens_device(o));
	node_free(o);
	assert_null(workload_find("pgbench")->opens_device);
	assert_null(workload_find("exec")->opens_device);
}

/* raw_device.c over cell trees: a device target with no fs: is used raw
 * when a step opens the device; its messages name the workload and how it
 * asks (as tests/golden/bad_io_device_*.err). */
static char errs[2048];
static int raw_check(const char *text)
{
	struct node *cell = yaml(text);
	struct diag d;
	diag_init(&d);
	int rc = raw_device_check(cell, cell, &d);
	snprintf(errs, sizeof(errs), "%s", diag_text(&d));
	diag_free(&d);
	node_free(cell);
	return rc;
}

static bool wanted(const char *text)
{
	struct node *cell = yaml(text);
	bool w = raw_device_wanted(cell, node_get(cell, "target"));
	node_free(cell);
	return w;
}

static void test_raw_device(void **state)
{
	(void)state;
	assert_true(wanted("target: {kind: device, path: /dev/nosuch}\n"
	                   "steps:\n  - exec: \"true\"\n  - io: {file: \"@device\"}\n"));
	assert_false(wanted("target: {kind: device, path: /dev/nosuch}\n"
	                    "steps:\n  - exec: {command: \"true\"}\n  - pgbench: {}\n  - io: {file: f}\n"));
	assert_false(wanted("target: {kind: dir}\nsteps:\n  - io: {file: \"@device\"}\n"));

	assert_int_equal(raw_check("target: {kind: device, path: /dev/nosuch}\n"
	                           "steps:\n  - exec: \"true\"\n  - io: {file: \"@device\"}\n"),
	                 0);
	assert_int_equal(raw_check("target: {kind: dir}\nsteps:\n  - io: {file: \"@device\"}\n"), -EINVAL);
	assert_non_null(strstr(errs, "t.yaml:3:16: error: io.file: \"@device\" needs a raw device target: "
	                             "target: {kind: device, path: /dev/...} without fs: (or fs: none)\n"));
	assert_int_equal(raw_check("target: {kind: device, path: /dev/nosuch, fs: ext4}\n"
	                           "steps:\n  - io: {file: \"@device\"}\n"),
	                 -EINVAL);
	assert_non_null(strstr(errs, "(or fs: none); this one is formatted"));
	/* a raw target has no file system: io's other steps are refused at
	 * their options; pgbench's and exec's are not its concern */
	assert_int_equal(raw_check("target: {kind: device, path: /dev/nosuch, fs: none}\n"
	                           "steps:\n  - exec: \"true\"\n  - pgbench: {}\n  - io: {file: f}\n"),
	                 -EINVAL);
	assert_non_null(strstr(errs, "t.yaml:5:9: error: io: the target is a raw device (no file system): "
	                             "this step needs file: \"@device\""));
	assert_int_equal(raw_check("target: {kind: device, path: /dev/nosuch, fs: none}\n"
	                           "steps:\n  - exec: \"true\"\n  - pgbench: {}\n"),
	                 0);
}

/* The fixtures' names a step reads (step_ctx_name), none without a map. */
static void test_step_ctx_name(void **state)
{
	(void)state;
	struct step_ctx cx = {.step_name = "t"};
	assert_null(step_ctx_name(&cx, "pg.conninfo"));
	struct node *names = yaml("{pg.conninfo: 'host=/tmp port=5432', pg.log: /tmp/pg.log}");
	cx.names = names;
	assert_string_equal(step_ctx_name(&cx, "pg.conninfo"), "host=/tmp port=5432");
	assert_string_equal(step_ctx_name(&cx, "pg.log"), "/tmp/pg.log");
	assert_null(step_ctx_name(&cx, "target.path"));
	node_free(names);
}

int main(void)
{
	validators_register();
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_ops_complete),      cmocka_unit_test(test_server_activity),
	    cmocka_unit_test(test_estimate_new_kind), cmocka_unit_test(test_step_ctx_name),
	    cmocka_unit_test(test_of_step),           cmocka_unit_test(test_opens_device),
	    cmocka_unit_test(test_raw_device),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

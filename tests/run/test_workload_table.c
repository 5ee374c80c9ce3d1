/* Unit tests: the seam of a workload (workloads/workload.h, issue 30). Each
 * workload of the table carries everything it owns in its workload_ops:
 * its key in a step and its option tables (for `benchgrid schema`), its
 * metrics (for ref_check), whether the server's activity is sampled during
 * it and how often, its estimate; a step kind registered with spec's
 * estimate is priced with no edit of spec (a kind only this test knows);
 * and a step reads the cell's fixtures by name from its step_ctx. */
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
#include "spec_load.h"
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
	    cmocka_unit_test(test_ops_complete),
	    cmocka_unit_test(test_server_activity),
	    cmocka_unit_test(test_estimate_new_kind),
	    cmocka_unit_test(test_step_ctx_name),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

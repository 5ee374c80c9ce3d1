/* test_cell_run: one cell and its steps (engine/run/cell_run.h, step_run.h)
 * called directly, as runner.c calls them, on a dir target with exec steps
 * (real processes: /bin/true, /bin/false, sleep): a failing step is
 * recorded with its error and ends the repetition (the steps after it do
 * not run); a step's timeout ends it with "timed out"; warm-up runs run but
 * are not recorded, and each repetition is recorded apart; the cell's
 * folder and its ${cell.dir}; a warm-up run (rep < 0) of step_run_rep
 * records nothing; a `when:` that skips a step records it as skipped. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <dirent.h>
#include <cmocka.h>

#include "cell_run.h"
#include "interrupt.h"
#include "run_fixture.h"
#include "test_cases.h"
#include "step_run.h"
#include "test_util.h"

static char dir[256];

struct one {
	struct rf_plan p;
	struct run_env E;
	struct run_cell rc;
	struct cell_session S;
};

static void one_open(struct one *o, const char *yaml)
{
	rf_plan(&o->p, dir, yaml);
	rf_env(&o->E, o->p.s, dir);
	run_cell_init(&o->rc);
	o->rc.index = o->p.cells[0].index;
	memcpy(o->rc.id, o->p.cells[0].id, sizeof(o->rc.id));
	assert_int_equal(cell_open(&o->E, &o->p.cells[0], &o->rc, true, &o->S), STEPS_OK);
	assert_true(o->S.open);
	assert_non_null(o->S.tree);
}

static void one_free(struct one *o)
{
	run_cell_free(&o->rc);
	rf_env_free(&o->E);
	rf_plan_free(&o->p);
}

static int setup(void **state)
{
	(void)state;
	rf_tmpdir(dir, sizeof(dir));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	/* The cell's temporary target went with fixture_set_down. */
	char work[512], left[512] = "";
	snprintf(work, sizeof(work), "%s/work", dir);
	DIR *w = opendir(work);
	if (w) {
		struct dirent *e;
		while ((e = readdir(w)))
			if (e->d_name[0] != '.')
				snprintf(left, sizeof(left), "%s", e->d_name);
		closedir(w);
	}
	rf_rmtree(dir);
	if (left[0])
		fail_msg("left in the work folder: %s", left);
	return 0;
}

static void test_failing_step_recorded(void **state)
{
	(void)state;
	struct one o;
	one_open(&o, "name: cell-fail\n"
	             "steps:\n"
	             "  - {name: first, exec: {command: [/bin/true]}}\n"
	             "  - {name: bad, exec: {command: [/bin/false]}}\n"
	             "  - {name: never, exec: {command: [/bin/true]}}\n");
	assert_int_equal(cell_rep(&o.E, &o.S, &o.rc, 0, false), STEPS_FAILED);
	assert_int_equal(o.rc.status, RUN_FAILED);
	assert_non_null(o.rc.error);
	if (!strstr(o.rc.error, "step bad"))
		fail_msg("error: %s", o.rc.error);
	/* Recorded: the step that passed, and the failed one with its error;
	 * the step after the failure did not run. */
	assert_int_equal(o.rc.nreps, 1);
	assert_int_equal(o.rc.reps[0].nsteps, 2);
	assert_string_equal(o.rc.reps[0].steps[0].step, "first");
	assert_false(o.rc.reps[0].steps[0].failed);
	assert_string_equal(o.rc.reps[0].steps[1].step, "bad");
	assert_true(o.rc.reps[0].steps[1].failed);
	assert_non_null(o.rc.reps[0].steps[1].error);
	assert_int_equal(cell_close(&o.E, &o.S, &o.rc, STEPS_FAILED, true), STEPS_FAILED);
	assert_false(o.S.open);
	one_free(&o);
}

static void test_step_timeout(void **state)
{
	(void)state;
	struct one o;
	one_open(&o, "name: cell-timeout\n"
	             "steps:\n"
	             "  - {name: slow, timeout: 1s, exec: {command: [sleep, '30']}}\n");
	double t0 = now();
	assert_int_equal(cell_rep(&o.E, &o.S, &o.rc, 0, false), STEPS_FAILED);
	double took = now() - t0;
	/* Ended by its timeout (1 s, then SIGTERM), not by sleep's own end at
	 * 30 s; no upper bound nearer than that: a busy machine is slow to
	 * start and to reap (the error below names the cause). */
	if (took < 0.9 || took >= 30)
		fail_msg("the step took %.2f s", took);
	assert_int_equal(o.rc.nreps, 1);
	const struct step_result *r = &o.rc.reps[0].steps[0];
	assert_true(r->failed);
	if (!strstr(r->error, "step 'slow' timed out after"))
		fail_msg("error: %s", r->error);
	assert_false(interrupt_requested()); /* only the step ended */
	cell_close(&o.E, &o.S, &o.rc, STEPS_FAILED, true);
	one_free(&o);
}

static size_t lines_of(const char *path)
{
	char *t = rf_read(path);
	size_t n = t ? rf_count(t, "\n") : 0;
	free(t);
	return n;
}

static void test_repeat_and_warmup(void **state)
{
	(void)state;
	struct one o;
	one_open(&o, "name: cell-repeat\n"
	             "repeat: 3\n"
	             "warmup: 2\n"
	             "steps:\n"
	             "  - {name: count, exec: 'echo run >> ${cell.dir}/count'}\n");
	assert_int_equal(o.E.repeat, 3);
	assert_int_equal(o.E.warmup, 2);
	char count[4400], cdir[4200];
	snprintf(cdir, sizeof(cdir), "%s/cells/%s", o.E.outdir, o.p.cells[0].id);
	snprintf(count, sizeof(count), "%s/count", cdir);
	assert_string_equal(o.S.dir, cdir);
	struct stat st;
	assert_int_equal(lstat(cdir, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	/* The first repetition runs the two warm-ups before it... */
	assert_int_equal(cell_rep(&o.E, &o.S, &o.rc, 0, false), STEPS_OK);
	assert_int_equal(lines_of(count), 3);
	assert_int_equal(o.rc.nreps, 1);
	/* ...the next ones (warm) only themselves. */
	assert_int_equal(cell_rep(&o.E, &o.S, &o.rc, 1, true), STEPS_OK);
	assert_int_equal(cell_rep(&o.E, &o.S, &o.rc, 2, true), STEPS_OK);
	assert_int_equal(lines_of(count), 5);
	assert_int_equal(o.rc.nreps, 3);
	for (size_t r = 0; r < 3; r++) {
		assert_int_equal(o.rc.reps[r].nsteps, 1);
		assert_false(o.rc.reps[r].steps[0].failed);
	}
	assert_int_equal(o.rc.status, RUN_OK);
	/* A warm-up run of step_run_rep itself records nothing. */
	assert_int_equal(step_run_rep(&o.E, o.S.c, o.S.tree, &o.rc, -1, o.S.dir), STEPS_OK);
	assert_int_equal(lines_of(count), 6);
	assert_int_equal(o.rc.nreps, 3);
	assert_int_equal(cell_close(&o.E, &o.S, &o.rc, STEPS_OK, true), STEPS_OK);
	one_free(&o);
}

static void test_when_skips_a_step(void **state)
{
	(void)state;
	struct one o;
	one_open(&o, "name: cell-when\n"
	             "matrix: {b: [x]}\n"
	             "steps:\n"
	             "  - name: skipped\n"
	             "    when: !lua \"b == 'y'\"\n"
	             "    exec: {command: [/bin/false]}\n"
	             "  - {name: ran, exec: {command: [/bin/true]}}\n");
	assert_int_equal(cell_rep(&o.E, &o.S, &o.rc, 0, false), STEPS_OK);
	assert_int_equal(o.rc.status, RUN_OK);
	assert_int_equal(o.rc.reps[0].nsteps, 2);
	assert_true(o.rc.reps[0].steps[0].skipped);
	assert_false(o.rc.reps[0].steps[0].failed);
	assert_false(o.rc.reps[0].steps[1].skipped);
	cell_close(&o.E, &o.S, &o.rc, STEPS_OK, true);
	one_free(&o);
}

int main(int argc, char **argv)
{
	/* A step's timeout is SIGALRM's (interrupt.h), as in a run. */
	interrupt_install();
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_failing_step_recorded, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_step_timeout, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_repeat_and_warmup, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_when_skips_a_step, setup, teardown),
	};
	return bg_run_cases("test_cell_run", tests, sizeof(tests) / sizeof(tests[0]), NULL, NULL, argc, argv);
}

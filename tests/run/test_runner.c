/* test_runner: runner_run (engine/run/runner.h) end to end on a 2x2 matrix
 * of exec steps (real processes) with dir targets in a scratch folder, its
 * files read back through the model's readers: results.json and
 * journal.jsonl hold every cell once with its repetitions; a failing cell
 * is recorded and the sweep goes on (exit 1); --resume of a folder whose
 * journal lost its last cells (and ends in a torn line) runs only those; a
 * run killed with SIGKILL in its last cell keeps every finished cell in
 * its journal, its undo actions let `cleanup` (state_cleanup) end what it
 * left, and --resume completes it; a folder that holds a run is refused
 * without --resume. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <dirent.h>
#include <sys/wait.h>
#include <cmocka.h>

#include "run_fixture.h"
#include "test_cases.h"
#include "state.h"
#include "test_util.h"

static char dir[256], out[512], work_log[512];

static int setup(void **state)
{
	(void)state;
	rf_tmpdir(dir, sizeof(dir));
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(work_log, sizeof(work_log), "%s/ran.log", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	/* A case that failed midway (a killed run) may have left its command
	 * running: undone from the state journal, as `benchgrid cleanup` does. */
	struct diag d;
	diag_init(&d);
	state_cleanup(getenv("BENCHGRID_STATE"), &d);
	diag_free(&d);
	rf_rmtree(dir);
	return 0;
}

/* The 2x2 sweep; each step run appends its cell's id to DIR/ran.log, and
 * `extra` is one more step (or ""). */
static void plan_sweep(struct rf_plan *p, const char *extra)
{
	char yaml[4096];
	snprintf(yaml, sizeof(yaml),
	         "name: runner-test\n"
	         "matrix: {a: [1, 2], b: [x, y]}\n"
	         "target: {kind: dir}\n"
	         "repeat: 2\n"
	         "steps:\n"
	         "  - name: mark\n"
	         "    exec: 'echo ${cell.id} >> %s && echo ${a}${b} > ${cell.dir}/ab.txt'\n"
	         "%s",
	         work_log, extra);
	rf_plan(p, dir, yaml);
	assert_int_equal(p->n, 4);
}

/* How many times cell id ran a step, from DIR/ran.log. */
static size_t runs_of(const char *id)
{
	char *t = rf_read(work_log);
	size_t n = t ? rf_count(t, id) : 0;
	free(t);
	return n;
}

static int pending_undo(void)
{
	struct state_cleanup_opts o = {.dry_run = true};
	struct diag d;
	diag_init(&d);
	int n = state_cleanup_opts(getenv("BENCHGRID_STATE"), &o, &d);
	diag_free(&d);
	return n;
}

/* Only the state journal and what the test wrote stay in DIR: the run's
 * work folder (benchgrid-XXXXXX) is gone. */
static void expect_no_work_left(void)
{
	DIR *w = opendir(dir);
	assert_non_null(w);
	struct dirent *e;
	while ((e = readdir(w)))
		if (!strncmp(e->d_name, "benchgrid-", 10))
			fail_msg("left behind: %s/%s", dir, e->d_name);
	closedir(w);
	assert_int_equal(pending_undo(), 0);
}

static void test_matrix_end_to_end(void **state)
{
	(void)state;
	struct rf_plan p;
	plan_sweep(&p, "");
	assert_int_equal(rf_runner(&p, dir, out, false, NULL, 0), 0);
	struct run r;
	rf_read_results(&r, out);
	assert_string_equal(r.name, "runner-test");
	assert_int_equal(r.nplanned, 4);
	assert_int_equal(r.ncells, 4);
	assert_int_equal(r.repeat, 2);
	assert_true(r.finished >= r.started && r.started > 0);
	for (size_t i = 0; i < p.n; i++) {
		const struct cell *c = &p.cells[i];
		const struct run_cell *rc = run_find_cell(&r, c->id);
		assert_non_null(rc);
		assert_int_equal(rc->index, c->index);
		assert_int_equal(rc->status, RUN_OK);
		assert_null(rc->error);
		assert_int_equal(rc->nreps, 2);
		for (size_t k = 0; k < 2; k++) {
			assert_int_equal(rc->reps[k].nsteps, 1);
			assert_string_equal(rc->reps[k].steps[0].step, "mark");
			assert_string_equal(rc->reps[k].steps[0].workload, "exec");
			assert_false(rc->reps[k].steps[0].failed);
		}
		assert_int_equal(runs_of(c->id), 2);
		/* ${a}${b} in the cell's own folder */
		char path[4400], want[16];
		snprintf(path, sizeof(path), "%s/cells/%s/ab.txt", out, c->id);
		snprintf(want, sizeof(want), "%s%s\n", rf_param(rc, "a"), rf_param(rc, "b"));
		char *ab = rf_read(path);
		assert_non_null(ab);
		assert_string_equal(ab, want);
		free(ab);
		assert_non_null(result_info_get(&rc->facts, "fingerprint"));
	}
	/* The journal: one line per finished cell, the same cells. */
	char jpath[700];
	snprintf(jpath, sizeof(jpath), "%s/journal.jsonl", out);
	struct run j;
	assert_int_equal(rf_read_journal(&j, jpath), 4);
	for (size_t i = 0; i < j.ncells; i++) {
		const struct run_cell *rc = run_find_cell(&r, j.cells[i].id);
		assert_non_null(rc);
		assert_int_equal(j.cells[i].nreps, 2);
		assert_int_equal(j.cells[i].status, RUN_OK);
		for (size_t k = 0; k < i; k++)
			assert_string_not_equal(j.cells[i].id, j.cells[k].id);
	}
	run_free(&j);
	run_free(&r);
	/* The plan, the scenario's copy and the reports beside them. */
	const char *files[] = {"plan.tsv", "scenario.yaml", "report.md", "results.csv"};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char path[700];
		snprintf(path, sizeof(path), "%s/%s", out, files[i]);
		if (access(path, F_OK) < 0)
			fail_msg("no %s", path);
	}
	expect_no_work_left();
	/* The folder holds a run now: a new run into it is refused. */
	struct runner_opts o = {.outdir = out, .quiet = 1, .work_dir = dir};
	struct diag d;
	diag_init(&d);
	assert_int_equal(runner_run(p.s, p.cells, p.n, &o, &d), -EINVAL);
	assert_non_null(strstr(diag_text(&d), "already holds a run; use --resume"));
	diag_free(&d);
	rf_plan_free(&p);
}

static void test_failing_cells_sweep_goes_on(void **state)
{
	(void)state;
	struct rf_plan p;
	plan_sweep(&p, "  - name: check\n"
	               "    exec: {command: 'test ${b} = y'}\n");
	assert_int_equal(rf_runner(&p, dir, out, false, NULL, 0), 1);
	struct run r;
	rf_read_results(&r, out);
	assert_int_equal(r.ncells, 4);
	size_t failed = 0;
	for (size_t i = 0; i < r.ncells; i++) {
		const struct run_cell *c = &r.cells[i];
		bool bad = !strcmp(rf_param(c, "b"), "x");
		assert_int_equal(c->status, bad ? RUN_FAILED : RUN_OK);
		if (bad) {
			failed++;
			assert_non_null(c->error);
			if (!strstr(c->error, "step check"))
				fail_msg("error: %s", c->error);
			/* the failed repetition ends the cell: no second one */
			assert_int_equal(c->nreps, 1);
			assert_true(c->reps[0].steps[1].failed);
			assert_int_equal(runs_of(c->id), 1);
		} else {
			assert_int_equal(c->nreps, 2);
			assert_int_equal(runs_of(c->id), 2);
		}
	}
	assert_int_equal(failed, 2);
	run_free(&r);
	expect_no_work_left();
	rf_plan_free(&p);
}

/* Keep the journal's first `keep` lines, then half of the next one (a
 * write killed midway). */
static void cut_journal(size_t keep)
{
	char path[700];
	snprintf(path, sizeof(path), "%s/journal.jsonl", out);
	char *t = rf_read(path);
	assert_non_null(t);
	char *p = t;
	for (size_t i = 0; i < keep; i++)
		p = strchr(p, '\n') + 1;
	char *nl = strchr(p, '\n');
	assert_non_null(nl);
	p[(nl - p) / 2] = 0;
	rf_write(path, t);
	free(t);
}

static void test_resume_runs_only_what_is_missing(void **state)
{
	(void)state;
	struct rf_plan p;
	plan_sweep(&p, "");
	assert_int_equal(rf_runner(&p, dir, out, false, NULL, 0), 0);
	cut_journal(2);
	assert_int_equal(rf_runner(&p, dir, out, true, NULL, 0), 0);
	/* The two cells of the journal ran once (2 repetitions), the others
	 * (the torn line's among them) twice. */
	char jpath[700];
	snprintf(jpath, sizeof(jpath), "%s/journal.jsonl", out);
	struct run j;
	assert_int_equal(rf_read_journal(&j, jpath), 4);
	for (size_t i = 0; i < p.n; i++) {
		const struct cell *c = &p.cells[i];
		assert_int_equal(runs_of(c->id), i < 2 ? 2 : 4);
		assert_non_null(run_find_cell(&j, c->id));
	}
	run_free(&j);
	/* The torn line was cut, not left in the middle of the file. */
	char *t = rf_read(jpath);
	assert_int_equal(rf_count(t, "\n"), 4);
	assert_int_equal(t[strlen(t) - 1], '\n');
	free(t);
	struct run r;
	rf_read_results(&r, out);
	assert_int_equal(r.ncells, 4);
	for (size_t i = 0; i < r.ncells; i++)
		assert_int_equal(r.cells[i].status, RUN_OK);
	run_free(&r);
	expect_no_work_left();
	rf_plan_free(&p);
}

static void test_killed_run_loses_no_finished_cell(void **state)
{
	(void)state;
	char sleeping[600], killed[600], extra[2048];
	snprintf(sleeping, sizeof(sleeping), "%s/sleeping", dir);
	snprintf(killed, sizeof(killed), "%s/killed", dir);
	/* The last cell of the run order sleeps until killed (once). */
	struct rf_plan p;
	plan_sweep(&p, "");
	char last[16];
	snprintf(last, sizeof(last), "%s", p.cells[p.n - 1].id);
	rf_plan_free(&p);
	snprintf(extra, sizeof(extra),
	         "  - name: hang\n"
	         "    exec: 'if [ ${cell.id} = %s ] && [ ! -e %s ]; then touch %s; sleep 60; fi'\n",
	         last, killed, sleeping);
	plan_sweep(&p, extra);
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(rf_runner(&p, dir, out, false, NULL, 0));
	/* No deadline of its own (ctest's TIMEOUT ends a hang): until the last
	 * cell sleeps, or the run ends without having reached it. */
	while (access(sleeping, F_OK) < 0) {
		if (waitpid(pid, NULL, WNOHANG) == pid)
			fail_msg("the run ended before its last cell");
		usleep(20 * 1000);
	}
	assert_int_equal(kill(pid, SIGKILL), 0);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFSIGNALED(st));
	/* Every cell finished before the kill is in the journal, whole. */
	char jpath[700];
	snprintf(jpath, sizeof(jpath), "%s/journal.jsonl", out);
	struct run j;
	assert_int_equal(rf_read_journal(&j, jpath), 3);
	for (size_t i = 0; i + 1 < p.n; i++) {
		const struct run_cell *c = run_find_cell(&j, p.cells[i].id);
		assert_non_null(c);
		assert_int_equal(c->status, RUN_OK);
		assert_int_equal(c->nreps, 2);
	}
	assert_null(run_find_cell(&j, last));
	run_free(&j);
	/* What it left set up (the sleeping command, its work folder) is in
	 * the state journal: cleanup undoes it. */
	assert_true(pending_undo() > 0);
	struct diag d;
	diag_init(&d);
	assert_true(state_cleanup(getenv("BENCHGRID_STATE"), &d) > 0);
	diag_free(&d);
	expect_no_work_left();
	/* --resume completes the run with the last cell only. */
	rf_write(killed, "");
	assert_int_equal(rf_runner(&p, dir, out, true, NULL, 0), 0);
	/* (the last cell's first repetition had begun: its mark ran once more) */
	for (size_t i = 0; i < p.n; i++)
		assert_int_equal(runs_of(p.cells[i].id), i + 1 < p.n ? 2 : 3);
	struct run r;
	rf_read_results(&r, out);
	assert_int_equal(r.ncells, 4);
	assert_int_equal(run_find_cell(&r, last)->status, RUN_OK);
	run_free(&r);
	expect_no_work_left();
	rf_plan_free(&p);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_matrix_end_to_end, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_failing_cells_sweep_goes_on, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_resume_runs_only_what_is_missing, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_killed_run_loses_no_finished_cell, setup, teardown),
	};
	return bg_run_cases("test_runner", tests, sizeof(tests) / sizeof(tests[0]), NULL, NULL, argc, argv);
}

/* test_merge: `benchgrid merge DIR` (engine/run/merge.h) on the folders of
 * real shares: a 2x2 sweep of exec steps (/bin/true) run as two shares into
 * one folder (runner_run with --shard i/2), then merge_run: every cell once
 * in results.json; a share that never ran leaves its cells missing (exit 1,
 * each named); a cell finished twice (a second run's journal beside the
 * shares') is kept once, the run that started last; a folder that is no
 * run's is refused with nothing written. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "merge.h"
#include "run_fixture.h"
#include "test_cases.h"
#include "test_util.h"

static char dir[256], out[512];
static struct rf_plan P;
static struct shard_plan SP;

static const char *scenario = "name: merge-test\n"
                              "matrix: {a: [1, 2], b: [x, y]}\n"
                              "target: {kind: dir}\n"
                              "steps:\n"
                              "  - name: t\n"
                              "    exec: {command: [/bin/true]}\n";

static int setup(void **state)
{
	(void)state;
	rf_tmpdir(dir, sizeof(dir));
	snprintf(out, sizeof(out), "%s/out", dir);
	rf_plan(&P, dir, scenario);
	assert_int_equal(P.n, 4);
	assert_int_equal(shard_plan_build(P.s, P.cells, P.n, 2, false, &SP), 0);
	/* dir targets cost nothing to set up: two cells per share */
	assert_int_equal(SP.ncells[0], 2);
	assert_int_equal(SP.ncells[1], 2);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	shard_plan_free(&SP);
	rf_plan_free(&P);
	rf_rmtree(dir);
	return 0;
}

static int merge_loud(void *arg)
{
	struct diag d;
	diag_init(&d);
	int rc = merge_run(arg, false, &d);
	diag_free(&d);
	return rc;
}

static void test_two_shares_merge(void **state)
{
	(void)state;
	assert_int_equal(rf_runner(&P, dir, out, false, &SP, 0), 0);
	assert_int_equal(rf_runner(&P, dir, out, false, &SP, 1), 0);
	/* A share writes no results.json of the sweep: merge does. */
	char path[700];
	snprintf(path, sizeof(path), "%s/results.json", out);
	assert_int_equal(access(path, F_OK), -1);
	int rc;
	char *err = rf_stderr_of(dir, merge_loud, out, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(err, "merged 4 of 4 planned cells from 2 shares: 0 missing or failed"));
	free(err);
	struct run r;
	rf_read_results(&r, out);
	assert_int_equal(r.nplanned, 4);
	assert_int_equal(r.ncells, 4);
	for (size_t i = 0; i < P.n; i++) {
		const struct run_cell *c = run_find_cell(&r, P.cells[i].id);
		assert_non_null(c);
		assert_int_equal(c->status, RUN_OK);
		assert_int_equal(c->nreps, 1);
		assert_int_equal(c->reps[0].nsteps, 1);
		/* the cell of its share, with the parameters of the plan */
		char want[16];
		snprintf(want, sizeof(want), "%zu/2", SP.share_of[i]);
		assert_string_equal(result_info_get(&c->facts, "share"), want);
		assert_string_equal(rf_param(c, "a"), node_get(P.cells[i].params, "a")->text);
	}
	run_free(&r);
	/* and the reports, as a local run writes them */
	snprintf(path, sizeof(path), "%s/report.md", out);
	assert_int_equal(access(path, F_OK), 0);
}

static void test_missing_share(void **state)
{
	(void)state;
	assert_int_equal(rf_runner(&P, dir, out, false, &SP, 0), 0);
	int rc;
	char *err = rf_stderr_of(dir, merge_loud, out, &rc);
	assert_int_equal(rc, 1);
	/* each cell of share 1 named as missing, none of share 0 */
	for (size_t i = 0; i < P.n; i++) {
		char want[64];
		snprintf(want, sizeof(want), "missing: %s (", P.cells[i].id);
		if ((strstr(err, want) != NULL) != (SP.share_of[i] == 1))
			fail_msg("cell %s of share %zu: %s", P.cells[i].id, SP.share_of[i], err);
	}
	assert_int_equal(rf_count(err, "no share has run it yet"), 2);
	assert_non_null(strstr(err, "merged 2 of 4 planned cells from 1 share: 2 missing or failed"));
	free(err);
	/* What is there is written all the same. */
	struct run r;
	rf_read_results(&r, out);
	assert_int_equal(r.nplanned, 4);
	assert_int_equal(r.ncells, 2);
	run_free(&r);
}

static void test_duplicate_cell_kept_once(void **state)
{
	(void)state;
	assert_int_equal(rf_runner(&P, dir, out, false, &SP, 0), 0);
	assert_int_equal(rf_runner(&P, dir, out, false, &SP, 1), 0);
	/* The same sweep run again whole elsewhere, later: its journal beside
	 * the shares' holds every cell a second time. */
	char other[512], from[700], to[700];
	snprintf(other, sizeof(other), "%s/again", dir);
	assert_int_equal(rf_runner(&P, dir, other, false, NULL, 0), 0);
	snprintf(from, sizeof(from), "%s/journal.jsonl", other);
	snprintf(to, sizeof(to), "%s/journal.jsonl", out);
	char *text = rf_read(from);
	assert_non_null(text);
	rf_write(to, text);
	free(text);
	struct run again;
	assert_int_equal(rf_read_journal(&again, from), 4);
	struct diag d;
	diag_init(&d);
	assert_int_equal(merge_run(out, true, &d), 0);
	diag_free(&d);
	struct run r;
	rf_read_results(&r, out);
	assert_int_equal(r.ncells, 4);
	for (size_t i = 0; i < r.ncells; i++) {
		for (size_t k = 0; k < i; k++)
			assert_string_not_equal(r.cells[i].id, r.cells[k].id);
		/* the run that started last: the second one, without a share */
		const struct run_cell *later = run_find_cell(&again, r.cells[i].id);
		assert_non_null(later);
		assert_true(r.cells[i].started == later->started);
		assert_null(result_info_get(&r.cells[i].facts, "share"));
	}
	run_free(&r);
	run_free(&again);
}

static void test_not_a_run(void **state)
{
	(void)state;
	assert_int_equal(mkdir(out, 0755), 0);
	struct diag d;
	diag_init(&d);
	assert_int_equal(merge_run(out, true, &d), -EINVAL);
	assert_non_null(strstr(diag_text(&d), "plan.tsv: missing"));
	diag_free(&d);
	char path[700];
	snprintf(path, sizeof(path), "%s/results.json", out);
	assert_int_equal(access(path, F_OK), -1);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_two_shares_merge, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_missing_share, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_duplicate_cell_kept_once, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_not_a_run, setup, teardown),
	};
	return bg_run_cases("test_merge", tests, sizeof(tests) / sizeof(tests[0]), NULL, NULL, argc, argv);
}

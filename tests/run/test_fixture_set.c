/* test_fixture_set: the fixtures that stay up from cell to cell
 * (engine/run/fixture_set.h) with dir targets on real folders: a cell
 * without `target:` gets a fresh folder in the work directory, one with
 * `path:` a fresh folder there; each is recorded in the state journal
 * (an undo action) while up, named ${target.path}, and gone with its undo
 * action marked done after fixture_set_down (`benchgrid cleanup` would find
 * nothing to undo); the same target is reused by the next cell and another
 * replaces it; a bad path fails with the reason and leaves nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <dirent.h>
#include <cmocka.h>

#include "run_fixture.h"
#include "test_cases.h"
#include "state.h"
#include "test_util.h"

static char dir[256], work[512], state_file[512];

static int setup(void **state)
{
	(void)state;
	rf_tmpdir(dir, sizeof(dir));
	snprintf(work, sizeof(work), "%s/work", dir);
	snprintf(state_file, sizeof(state_file), "%s/state", dir);
	assert_int_equal(mkdir(work, 0755), 0);
	/* The undo actions go to a journal of the test's own (as a run's go to
	 * state_default_path()). */
	assert_int_equal(state_open(state_file), 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	state_close();
	rf_rmtree(dir);
	return 0;
}

/* The undo actions of the state journal not marked done: what `benchgrid
 * cleanup` would undo now (a dry run: nothing is undone). */
static int pending(void)
{
	struct state_cleanup_opts o = {.dry_run = true};
	struct diag d;
	diag_init(&d);
	int n = state_cleanup_opts(state_file, &o, &d);
	assert_int_equal(d.nerrors, 0);
	diag_free(&d);
	return n;
}

static size_t entries(const char *path)
{
	size_t n = 0;
	DIR *w = opendir(path);
	assert_non_null(w);
	struct dirent *e;
	while ((e = readdir(w)))
		n += e->d_name[0] != '.';
	closedir(w);
	return n;
}

static struct node *tree_of(const char *yaml)
{
	struct diag d;
	diag_init(&d);
	struct node *t = spec_load_string("cell.yaml", yaml, &d);
	assert_non_null(t);
	diag_free(&d);
	return t;
}

/* Set up tree's target; its folder (a directory in parent, named in
 * target.path) is returned (malloc'd). */
static char *up(struct fixture_set *fx, const struct node *tree, const char *parent)
{
	struct diag d;
	diag_init(&d);
	if (fixture_set_fs(fx, tree, work, false, &d) < 0)
		fail_msg("set-up failed: %s", diag_text(&d));
	diag_free(&d);
	const char *p = fixture_set_dir(fx, "none");
	assert_string_not_equal(p, "none");
	assert_int_equal(strncmp(p, parent, strlen(parent)), 0);
	assert_int_equal(p[strlen(parent)], '/');
	struct stat st;
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	/* ${target.path} names it */
	struct node *m = node_new(NODE_MAP, NULL);
	fixture_set_names(fx, m);
	const struct node *tp = node_get(m, "target.path");
	assert_non_null(tp);
	assert_string_equal(tp->text, p);
	node_free(m);
	return strdup(p);
}

static void down(struct fixture_set *fx)
{
	struct diag d;
	diag_init(&d);
	fixture_set_down(fx, &d);
	if (d.nerrors || fx->down_failures)
		fail_msg("teardown: %s", diag_text(&d));
	diag_free(&d);
	assert_null(fx->fs);
	assert_null(fx->target);
}

static void test_default_dir_up_and_down(void **state)
{
	(void)state;
	struct fixture_set fx = {0};
	struct node *tree = tree_of("steps: []\n");
	assert_int_equal(pending(), 0);
	char *p = up(&fx, tree, work);
	/* A folder of the run's: its removal is in the journal while it is up. */
	assert_int_equal(pending(), 1);
	char probe[4200];
	snprintf(probe, sizeof(probe), "%s/file", p);
	rf_write(probe, "data"); /* what a step leaves goes with it */
	/* A directory takes no time to make: no set-up time is recorded. */
	assert_true(fx.setup_fs_s < 0);
	down(&fx);
	assert_int_equal(access(p, F_OK), -1);
	assert_int_equal(entries(work), 0);
	assert_int_equal(pending(), 0);
	/* Down again: nothing left to do, nothing fails. */
	down(&fx);
	free(p);
	node_free(tree);
}

static void test_path_target_reused_then_replaced(void **state)
{
	(void)state;
	char here[600], there[600], yaml_here[800], yaml_there[800];
	snprintf(here, sizeof(here), "%s/here", dir);
	snprintf(there, sizeof(there), "%s/there", dir);
	assert_int_equal(mkdir(here, 0755), 0);
	assert_int_equal(mkdir(there, 0755), 0);
	snprintf(yaml_here, sizeof(yaml_here), "target: {kind: dir, path: %s}\n", here);
	snprintf(yaml_there, sizeof(yaml_there), "target: {kind: dir, path: %s}\n", there);
	struct node *a = tree_of(yaml_here), *a2 = tree_of(yaml_here), *b = tree_of(yaml_there);
	struct fixture_set fx = {0};
	char *p1 = up(&fx, a, here);
	const struct fx_fs *fs1 = fx.fs;
	/* The next cell asks for the same target: kept as it is. */
	char *p2 = up(&fx, a2, here);
	assert_ptr_equal(fx.fs, fs1);
	assert_string_equal(p1, p2);
	assert_int_equal(pending(), 1);
	/* Another target: the first one goes before the new one comes. */
	char *p3 = up(&fx, b, there);
	assert_int_equal(access(p1, F_OK), -1);
	assert_int_equal(entries(here), 0);
	assert_int_equal(pending(), 1);
	down(&fx);
	assert_int_equal(access(p3, F_OK), -1);
	assert_int_equal(entries(there), 0);
	assert_int_equal(pending(), 0);
	/* The folders given in path: stay (only what benchgrid made goes). */
	assert_int_equal(access(here, F_OK), 0);
	assert_int_equal(access(there, F_OK), 0);
	free(p1);
	free(p2);
	free(p3);
	node_free(a);
	node_free(a2);
	node_free(b);
}

static void test_bad_path_leaves_nothing(void **state)
{
	(void)state;
	char yaml[800];
	snprintf(yaml, sizeof(yaml), "target: {kind: dir, path: %s/absent}\n", dir);
	struct node *t = tree_of(yaml);
	struct fixture_set fx = {0};
	struct diag d;
	diag_init(&d);
	assert_true(fixture_set_fs(&fx, t, work, false, &d) < 0);
	if (!strstr(diag_text(&d), "absent is not an existing directory"))
		fail_msg("diag: %s", diag_text(&d));
	diag_free(&d);
	assert_null(fx.fs);
	assert_int_equal(pending(), 0);
	down(&fx);
	assert_int_equal(entries(work), 0);
	node_free(t);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_default_dir_up_and_down, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_path_target_reused_then_replaced, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_bad_path_leaves_nothing, setup, teardown),
	};
	return bg_run_cases("test_fixture_set", tests, sizeof(tests) / sizeof(tests[0]), NULL, NULL, argc,
	                    argv);
}

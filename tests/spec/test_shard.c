/* Unit tests: shares of a plan (`run --shard i/n`): whole run-order groups
 * per share, balance, set-up counts, --split-groups, and --shard's parsing
 * (i/n, auto from Slurm's or a Kubernetes Indexed Job's environment). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "shard.h"
#include "spec_load.h"
#include "spec_types.h"

struct fixture {
	struct spec s;
	struct cell cells[16];
	size_t n;
	struct diag d;
};

/* A spec of the given YAML and cells whose filesystem keys are the letters
 * of fs ("AAAB" = three cells on one filesystem, one on another). */
static void setup(struct fixture *f, const char *yaml, const char *fs)
{
	memset(f, 0, sizeof(*f));
	diag_init(&f->d);
	f->s.root = spec_load_string("t.yaml", yaml, &f->d);
	assert_non_null(f->s.root);
	f->n = strlen(fs);
	for (size_t i = 0; i < f->n; i++) {
		f->cells[i].index = i;
		snprintf(f->cells[i].id, sizeof(f->cells[i].id), "%012x", (unsigned)(i & 0xfff));
		f->cells[i].fs_key = (uint64_t)fs[i];
		f->cells[i].pg_key = 1;
	}
}

static void teardown(struct fixture *f)
{
	node_free(f->s.root);
	diag_free(&f->d);
}

static const char *loop_pg = "target: {kind: loop, size: 1G, fs: ext4}\npostgres: {}\n";

static void test_groups_stay_whole_and_balance(void **state)
{
	(void)state;
	struct fixture f;
	setup(&f, loop_pg, "AAABBCD");
	struct shard_plan sp;
	assert_int_equal(shard_plan_build(&f.s, f.cells, f.n, 3, false, &sp), 0);
	assert_int_equal(sp.ngroups, 4);
	/* Largest group first, each to the emptiest share: A(3)->0, B(2)->1,
	 * C(1)->2, D(1)->2. */
	size_t want[] = {0, 0, 0, 1, 1, 2, 2};
	for (size_t i = 0; i < f.n; i++)
		assert_int_equal(sp.share_of[i], want[i]);
	assert_int_equal(sp.ncells[0], 3);
	assert_int_equal(sp.ncells[1], 2);
	assert_int_equal(sp.ncells[2], 2);
	assert_int_equal(sp.setups[0], 1);
	assert_int_equal(sp.setups[1], 1);
	assert_int_equal(sp.setups[2], 2);
	assert_int_equal(sp.setups_whole, 4);
	assert_false(sp.cheap);
	/* The same plan gives the same shares on every host. */
	struct shard_plan again;
	assert_int_equal(shard_plan_build(&f.s, f.cells, f.n, 3, false, &again), 0);
	assert_memory_equal(sp.share_of, again.share_of, f.n * sizeof(size_t));
	shard_plan_free(&again);
	shard_plan_free(&sp);
	teardown(&f);
}

static void test_split_groups_repeats_setups(void **state)
{
	(void)state;
	struct fixture f;
	setup(&f, loop_pg, "AAAA");
	struct shard_plan sp;
	assert_int_equal(shard_plan_build(&f.s, f.cells, f.n, 2, false, &sp), 0);
	assert_int_equal(sp.ngroups, 1);
	assert_int_equal(sp.ncells[0], 4);
	assert_int_equal(sp.ncells[1], 0); /* nothing to do */
	shard_plan_free(&sp);
	assert_int_equal(shard_plan_build(&f.s, f.cells, f.n, 2, true, &sp), 0);
	assert_int_equal(sp.ngroups, 4);
	assert_int_equal(sp.ncells[0], 2);
	assert_int_equal(sp.ncells[1], 2);
	assert_int_equal(sp.setups[0] + sp.setups[1], 2);
	assert_int_equal(sp.setups_whole, 1);
	shard_plan_free(&sp);
	teardown(&f);
}

static void test_dir_target_cells_are_their_own_groups(void **state)
{
	(void)state;
	struct fixture f;
	setup(&f, "target: {kind: dir, path: /tmp}\n", "AAAAA");
	struct shard_plan sp;
	assert_int_equal(shard_plan_build(&f.s, f.cells, f.n, 2, false, &sp), 0);
	assert_true(sp.cheap);
	assert_int_equal(sp.ngroups, 5);
	assert_int_equal(sp.ncells[0], 3);
	assert_int_equal(sp.ncells[1], 2);
	shard_plan_free(&sp);
	/* One share: everything in it. */
	assert_int_equal(shard_plan_build(&f.s, f.cells, f.n, 1, false, &sp), 0);
	assert_int_equal(sp.ncells[0], 5);
	shard_plan_free(&sp);
	teardown(&f);
}

static void test_parse_explicit(void **state)
{
	(void)state;
	size_t i, n;
	char err[512];
	assert_int_equal(shard_parse("1/3", 0, &i, &n, err, sizeof(err)), 0);
	assert_int_equal(i, 1);
	assert_int_equal(n, 3);
	assert_int_equal(shard_parse("3/3", 0, &i, &n, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "must be 0 to 2"));
	assert_int_equal(shard_parse("0/0", 0, &i, &n, err, sizeof(err)), -EINVAL);
	assert_int_equal(shard_parse("x/3", 0, &i, &n, err, sizeof(err)), -EINVAL);
	assert_int_equal(shard_parse("-1/3", 0, &i, &n, err, sizeof(err)), -EINVAL);
	assert_int_equal(shard_parse("2", 0, &i, &n, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "i/n"));
	assert_int_equal(shard_parse("1/3", 4, &i, &n, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "disagree"));
}

static void test_parse_auto(void **state)
{
	(void)state;
	size_t i, n;
	char err[512];
	unsetenv("SLURM_ARRAY_TASK_ID");
	unsetenv("SLURM_ARRAY_TASK_COUNT");
	unsetenv("JOB_COMPLETION_INDEX");
	assert_int_equal(shard_parse("auto", 0, &i, &n, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "SLURM_ARRAY_TASK_ID"));
	setenv("SLURM_ARRAY_TASK_ID", "2", 1);
	setenv("SLURM_ARRAY_TASK_COUNT", "4", 1);
	assert_int_equal(shard_parse("auto", 0, &i, &n, err, sizeof(err)), 0);
	assert_int_equal(i, 2);
	assert_int_equal(n, 4);
	/* --shards wins: resubmitting some tasks only counts fewer of them */
	assert_int_equal(shard_parse("auto", 6, &i, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 6);
	setenv("SLURM_ARRAY_TASK_COUNT", "1", 1);
	assert_int_equal(shard_parse("auto", 6, &i, &n, err, sizeof(err)), 0);
	assert_int_equal(i, 2);
	assert_int_equal(n, 6);
	setenv("SLURM_ARRAY_TASK_COUNT", "4", 1);
	setenv("SLURM_ARRAY_TASK_ID", "4", 1); /* --array=1-4 counts from 1 */
	assert_int_equal(shard_parse("auto", 0, &i, &n, err, sizeof(err)), -EINVAL);
	unsetenv("SLURM_ARRAY_TASK_ID");
	unsetenv("SLURM_ARRAY_TASK_COUNT");
	setenv("JOB_COMPLETION_INDEX", "1", 1);
	assert_int_equal(shard_parse("auto", 0, &i, &n, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--shards"));
	assert_int_equal(shard_parse("auto", 2, &i, &n, err, sizeof(err)), 0);
	assert_int_equal(i, 1);
	assert_int_equal(n, 2);
	unsetenv("JOB_COMPLETION_INDEX");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_groups_stay_whole_and_balance),
	    cmocka_unit_test(test_split_groups_repeats_setups),
	    cmocka_unit_test(test_dir_target_cells_are_their_own_groups),
	    cmocka_unit_test(test_parse_explicit),
	    cmocka_unit_test(test_parse_auto),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Unit tests: run_order: the slot sequences of grouped, interleave and
 * random (reproducible from the seed, every slot once, each cell's
 * repetitions numbered in order), their set-up counts, and the `repeat:`
 * and `run_order:` keys with their errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <errno.h>

#include "run_order.h"
#include "spec_load.h"

static const size_t which3[] = {0, 1, 2};

static void test_grouped_and_interleave(void **state)
{
	(void)state;
	size_t n;
	struct run_slot *g = run_order_build(which3, 3, 2, RUN_ORDER_GROUPED, 0, &n);
	assert_int_equal(n, 6);
	static const size_t gc[] = {0, 0, 1, 1, 2, 2}, gr[] = {0, 1, 0, 1, 0, 1};
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(g[i].cell, gc[i]);
		assert_int_equal(g[i].rep, gr[i]);
	}
	free(g);
	struct run_slot *v = run_order_build(which3, 3, 3, RUN_ORDER_INTERLEAVE, 0, &n);
	assert_int_equal(n, 9);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(v[i].cell, i % 3);
		assert_int_equal(v[i].rep, i / 3);
	}
	free(v);
	/* a share's cells: indices of the whole plan */
	static const size_t some[] = {4, 7};
	v = run_order_build(some, 2, 2, RUN_ORDER_INTERLEAVE, 0, &n);
	assert_int_equal(n, 4);
	assert_int_equal(v[0].cell, 4);
	assert_int_equal(v[1].cell, 7);
	assert_int_equal(v[2].cell, 4);
	assert_int_equal(v[2].rep, 1);
	free(v);
	assert_null(run_order_build(which3, 0, 2, RUN_ORDER_GROUPED, 0, &n));
	assert_int_equal(n, 0);
}

static void test_random_reproducible(void **state)
{
	(void)state;
	size_t n1, n2, n3;
	static const size_t which[] = {0, 1, 2, 3, 4};
	struct run_slot *a = run_order_build(which, 5, 4, RUN_ORDER_RANDOM, 42, &n1);
	struct run_slot *b = run_order_build(which, 5, 4, RUN_ORDER_RANDOM, 42, &n2);
	struct run_slot *c = run_order_build(which, 5, 4, RUN_ORDER_RANDOM, 43, &n3);
	assert_int_equal(n1, 20);
	assert_int_equal(n2, 20);
	assert_memory_equal(a, b, n1 * sizeof(*a));
	bool differ = false, grouped = true;
	size_t seen[5] = {0};
	for (size_t i = 0; i < n1; i++) {
		differ |= a[i].cell != c[i].cell;
		/* each cell's repetitions come in order 0, 1, 2, 3 */
		assert_int_equal(a[i].rep, seen[a[i].cell]);
		seen[a[i].cell]++;
		if (i && a[i].cell != a[i - 1].cell && a[i].rep != 0)
			grouped = false;
	}
	for (size_t k = 0; k < 5; k++)
		assert_int_equal(seen[k], 4);
	assert_true(differ);
	assert_false(grouped);
	/* the same seed gives the same order on every machine: pinned */
	static const size_t pinned[] = {4, 1, 3, 0, 2};
	struct run_slot *p = run_order_build(which, 5, 1, RUN_ORDER_RANDOM, 7, &n1);
	for (size_t i = 0; i < 5; i++)
		assert_int_equal(p[i].cell, pinned[i]);
	free(p);
	free(a);
	free(b);
	free(c);
}

static void test_setups(void **state)
{
	(void)state;
	struct cell cells[3] = {
	    {.fs_key = 1, .pg_key = 1}, {.fs_key = 1, .pg_key = 2}, {.fs_key = 2, .pg_key = 2}};
	struct run_order_cost cost;
	size_t n;
	struct run_slot *g = run_order_build(which3, 3, 3, RUN_ORDER_GROUPED, 0, &n);
	run_order_cost(cells, g, n, false, &cost);
	assert_int_equal(cost.setups, 2); /* fs 1, fs 2 */
	assert_int_equal(cost.switches, 3);
	run_order_cost(cells, g, n, true, &cost);
	assert_int_equal(cost.setups, 3); /* pg settings change at cell 1 */
	free(g);
	struct run_slot *v = run_order_build(which3, 3, 3, RUN_ORDER_INTERLEAVE, 0, &n);
	run_order_cost(cells, v, n, false, &cost);
	assert_int_equal(cost.setups, 6); /* 1 1 2 | 1 1 2 | 1 1 2 */
	assert_int_equal(cost.switches, 9);
	run_order_cost(cells, v, n, true, &cost);
	assert_int_equal(cost.setups, 9);
	free(v);
}

static int read_repeat(const char *yaml, struct repeat_spec *r, char *err, size_t len)
{
	struct diag d;
	diag_init(&d);
	struct node *root = spec_load_string("t.yaml", yaml, &d);
	int rc = root ? repeat_spec_read(root, r, &d) : -1;
	err[0] = 0;
	if (d.n)
		diag_format_one(&d.v[0], err, len);
	node_free(root);
	diag_free(&d);
	return rc;
}

static void test_repeat_forms(void **state)
{
	(void)state;
	struct repeat_spec r;
	char err[512];
	assert_int_equal(read_repeat("repeat: 4\n", &r, err, sizeof(err)), 0);
	assert_int_equal(r.min, 4);
	assert_int_equal(r.max, 4);
	assert_true(r.until_pct == 0);
	assert_int_equal(r.fingerprint, 4); /* journals of older runs stay valid */
	repeat_spec_free(&r);
	assert_int_equal(
	    read_repeat("repeat: {min: 3, max: 15, until: 2%, metrics: [ro.tps]}\n", &r, err, sizeof(err)),
	    0);
	assert_int_equal(r.min, 3);
	assert_int_equal(r.max, 15);
	assert_true(r.until_pct == 2);
	assert_int_equal(r.nmetrics, 1);
	assert_string_equal(r.metrics[0], "ro.tps");
	uint64_t fp = r.fingerprint;
	repeat_spec_free(&r);
	assert_int_equal(
	    read_repeat("repeat: {min: 3, max: 15, until: 3%, metrics: [ro.tps]}\n", &r, err, sizeof(err)),
	    0);
	assert_true(r.fingerprint != fp);
	repeat_spec_free(&r);
	assert_int_equal(read_repeat("repeat: {min: 5, max: 3, until: 2%}\n", &r, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "t.yaml:1:"));
	assert_non_null(strstr(err, "above repeat.max"));
	repeat_spec_free(&r);
	assert_int_equal(read_repeat("repeat: {max: 3, until: 0%}\n", &r, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "repeat.until"));
	repeat_spec_free(&r);
	assert_int_equal(read_repeat("repeat: {max: 3}\n", &r, err, sizeof(err)), -EINVAL);
	repeat_spec_free(&r);
	assert_int_equal(read_repeat("repeat: {max: 3, until: 1%, metrics: [tps]}\n", &r, err, sizeof(err)),
	                 -EINVAL);
	assert_non_null(strstr(err, "STEP.METRIC"));
	repeat_spec_free(&r);
	assert_int_equal(read_repeat("repeat: {max: 3, until: 1%, untill: 2}\n", &r, err, sizeof(err)),
	                 -EINVAL);
	repeat_spec_free(&r);
}

static void test_run_order_key(void **state)
{
	(void)state;
	struct diag d;
	diag_init(&d);
	struct node *root = spec_load_string("t.yaml", "run_order: random\nrun_order_seed: 9\n", &d);
	enum run_order o;
	bool has;
	uint64_t seed = 0;
	assert_int_equal(run_order_read(root, &o, &has, &seed, &d), 0);
	assert_int_equal(o, RUN_ORDER_RANDOM);
	assert_true(has);
	assert_int_equal(seed, 9);
	node_free(root);
	root = spec_load_string("t.yaml", "run_order: shuffled\n", &d);
	assert_int_equal(run_order_read(root, &o, &has, &seed, &d), -EINVAL);
	char err[512];
	diag_format_one(&d.v[0], err, sizeof(err));
	assert_non_null(strstr(err, "interleave"));
	node_free(root);
	diag_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_grouped_and_interleave),
	    cmocka_unit_test(test_random_reproducible),
	    cmocka_unit_test(test_setups),
	    cmocka_unit_test(test_repeat_forms),
	    cmocka_unit_test(test_run_order_key),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_grow: util/grow, the doubling arrays: capacities from first and
 * doubled, need beyond the double, nothing done when it fits, the
 * elements kept across growth, a size that would overflow refused with
 * the array untouched. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

struct point {
	double t, v;
	char name[20];
};

static void test_doubling(void **state)
{
	(void)state;
	struct point *v = NULL;
	size_t n = 0, cap = 0;
	size_t caps[5], ncaps = 0, last = 0;
	for (int i = 0; i < 100; i++) {
		assert_int_equal(GROW(v, cap, n + 1, 8), 0);
		assert_non_null(v);
		assert_true(cap >= n + 1);
		if (cap != last && ncaps < 5)
			caps[ncaps++] = cap;
		last = cap;
		v[n++] = (struct point){.t = i, .v = i * 2.0};
		snprintf(v[n - 1].name, sizeof(v[n - 1].name), "p%d", i);
	}
	/* 8, then doubled: 16, 32, 64, 128 */
	assert_int_equal(ncaps, 5);
	assert_int_equal(caps[0], 8);
	for (size_t i = 1; i < ncaps; i++)
		assert_int_equal(caps[i], caps[i - 1] * 2);
	for (int i = 0; i < 100; i++) {
		char want[20];
		snprintf(want, sizeof(want), "p%d", i);
		assert_true(v[i].t == i && v[i].v == i * 2.0);
		assert_string_equal(v[i].name, want);
	}
	/* fits: the same memory */
	struct point *same = v;
	assert_int_equal(GROW(v, cap, 50, 8), 0);
	assert_ptr_equal(v, same);
	assert_int_equal(cap, 128);
	/* a need beyond the double: doubled until it fits */
	assert_int_equal(GROW(v, cap, 1000, 8), 0);
	assert_int_equal(cap, 1024);
	assert_string_equal(v[99].name, "p99");
	free(v);
}

static void test_first(void **state)
{
	(void)state;
	int *v = NULL;
	size_t cap = 0;
	assert_int_equal(GROW(v, cap, 1, 0), 0); /* no first: 1 */
	assert_int_equal(cap, 1);
	v[0] = 7;
	assert_int_equal(GROW(v, cap, 2, 0), 0);
	assert_int_equal(cap, 2);
	assert_int_equal(v[0], 7);
	free(v);
	v = NULL;
	cap = 0;
	assert_int_equal(GROW(v, cap, 20, 16), 0); /* first 16 < need 20: 32 */
	assert_int_equal(cap, 32);
	free(v);
	/* need 0: nothing to do, nothing allocated */
	v = NULL;
	cap = 0;
	assert_int_equal(GROW(v, cap, 0, 16), 0);
	assert_null(v);
	assert_int_equal(cap, 0);
}

static void test_overflow(void **state)
{
	(void)state;
	struct point *v = NULL;
	size_t cap = 0;
	assert_int_equal(GROW(v, cap, 4, 4), 0);
	struct point *was = v;
	v[3].t = 42;
	/* more elements than a size_t of bytes can hold */
	assert_int_equal(GROW(v, cap, SIZE_MAX / sizeof(*v) + 1, 4), -ENOMEM);
	assert_ptr_equal(v, was);
	assert_int_equal(cap, 4);
	assert_true(v[3].t == 42);
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_doubling),
	    cmocka_unit_test(test_first),
	    cmocka_unit_test(test_overflow),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

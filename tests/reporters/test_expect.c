/* test_expect: published-vs-measured statuses on crafted results. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
/* cmocka has a mocking macro of the same name; this test does not mock. */
#undef expect_check

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "rep.h"
#include "report_fixture.h"

#define assert_near(a, b, eps) assert_near_(a, b, eps, #a, __LINE__)
static void assert_near_(double a, double b, double eps, const char *what, int line)
{
	if (!(fabs(a - b) <= eps))
		fail_msg("line %d: %s = %.17g, expected %.17g", line, what, a, b);
}

static void test_fixture_statuses(void **state)
{
	struct run r;
	struct diag d;
	struct expect_result res;

	fixture_build(&r);
	diag_init(&d);
	assert_int_equal(expect_check(r.expect_cfg, &d), 0);
	assert_int_equal(expect_evaluate(r.expect_cfg, &r, NULL, &res, &d), 0);
	assert_int_equal(d.nerrors, 0);
	assert_int_equal(res.n, 10);
	static const struct {
		size_t entry;
		long cell;
		const char *ref;
		enum expect_status st;
	} want[] = {
	    {0, 1, "ro.tps", EXPECT_PASS},    {1, 0, "ro.tps", EXPECT_FAIL},
	    {2, 2, "ro.tps", EXPECT_XFAIL},   {3, 2, "seqwrite.mb_s", EXPECT_XPASS},
	    {4, 3, "ro.tps", EXPECT_FAIL},    {5, -1, "ro.tps", EXPECT_SKIP},
	    {6, 1, "ro.nosuch", EXPECT_FAIL}, {7, -1, "seqwrite.mb_s", EXPECT_PASS},
	    {8, -1, "ro.tps", EXPECT_PASS},   {9, -1, "ro.tps", EXPECT_PASS},
	};
	for (size_t i = 0; i < res.n; i++) {
		const struct expect_row *row = &res.rows[i];
		if (row->entry != want[i].entry || row->cell != want[i].cell ||
		    strcmp(row->ref, want[i].ref) || row->status != want[i].st)
			fail_msg("row %zu: entry %zu cell %ld %s %s", i, row->entry, row->cell, row->ref,
			         expect_status_name(row->status));
	}
	/* PASS: 2000 against [1800, 2200] */
	assert_near(res.rows[0].measured, 2000, 1e-9);
	assert_near(res.rows[0].lower, 1800, 1e-9);
	assert_near(res.rows[0].upper, 2200, 1e-9);
	assert_near(res.rows[0].diff_pct, 0, 1e-9);
	assert_string_equal(res.rows[0].unit, "tps");
	/* FAIL: mean 834 of 2000 is -58.3% */
	assert_near(res.rows[1].diff_pct, (834.0 - 2000) / 2000 * 100, 1e-9);
	/* XFAIL keeps its reason; the upper bound is open */
	assert_string_equal(res.rows[2].note, "published on a faster SSD");
	assert_true(isinf(res.rows[2].upper) && res.rows[2].upper > 0);
	/* XPASS with absolute bounds: 301 within [250, 350] */
	assert_near(res.rows[3].lower, 250, 0);
	assert_near(res.rows[3].upper, 350, 0);
	/* the failed step: FAIL with its error, no measurement */
	assert_true(isnan(res.rows[4].measured));
	assert_non_null(strstr(res.rows[4].note, "step failed"));
	assert_string_equal(res.rows[5].note, "no cell of this run matches where {fs: btrfs}");
	/* missing metric in a strict entry */
	assert_true(res.rows[6].strict);
	assert_non_null(strstr(res.rows[6].note, "not measured"));
	/* the ratio: medians 201/101 and 400/301 */
	assert_int_equal(res.rows[7].kind, EXPECT_RATIO);
	assert_int_equal(res.rows[7].npairs, 2);
	assert_near(res.rows[7].measured, (201.0 / 101 + 400.0 / 301) / 2, 1e-9);
	assert_string_equal(res.rows[7].claim, "4 KiB blocks write 1.5x faster");
	/* the order: the 4KiB pair failed in ro, the 1KiB pair decides */
	assert_int_equal(res.rows[8].kind, EXPECT_ORDER);
	assert_int_equal(res.rows[8].npairs, 2);
	assert_near(res.rows[8].measured, 1110.0 / 1000, 1e-9);
	assert_string_equal(res.rows[8].note, "1 of 2 pairs not measured");
	/* two metrics of each ext4 cell: 1000/101 and 2000/201 */
	assert_int_equal(res.rows[9].kind, EXPECT_RATIO);
	assert_int_equal(res.rows[9].npairs, 2);
	assert_string_equal(res.rows[9].to_ref, "seqwrite.mb_s");
	assert_near(res.rows[9].measured, (1000.0 / 101 + 2000.0 / 201) / 2, 1e-9);
	assert_int_equal(res.count[EXPECT_PASS], 4);
	assert_int_equal(res.count[EXPECT_FAIL], 3);
	assert_int_equal(res.count[EXPECT_XFAIL], 1);
	assert_int_equal(res.count[EXPECT_XPASS], 1);
	assert_int_equal(res.count[EXPECT_SKIP], 1);
	assert_int_equal(res.nstrict, 1);
	expect_result_free(&res);
	assert_int_equal(expect_strict_failures(&r, &d), 1);
	node_free(r.expect_cfg);
	r.expect_cfg = NULL;
	assert_int_equal(expect_strict_failures(&r, &d), 0);
	run_free(&r);
	diag_free(&d);
}

/* A one-cell run with step s and the given metric values. */
static void one_cell_run(struct run *r, const char *const *names, const double *vals, size_t n)
{
	run_init(r);
	struct cell c = {.index = 0, .id = "000000000000"};
	c.params = node_new(NODE_MAP, NULL);
	node_map_put(c.params, "bs", NULL, node_new_scalar("4096", NULL));
	struct run_cell *rc = run_add_cell(r, &c);
	node_free(c.params);
	struct step_result s;
	result_init(&s, "s", "exec");
	for (size_t i = 0; i < n; i++)
		result_metric(&s, names[i], vals[i], "ms");
	run_cell_take_step(rc, 0, &s);
}

static enum expect_status eval_one(const char *yaml, struct expect_result *res)
{
	static const char *const names[] = {"lat", "neg", "zero"};
	static const double vals[] = {10, -5, 0};
	struct run r;
	struct diag d;
	diag_init(&d);
	one_cell_run(&r, names, vals, 3);
	struct node *n = spec_load_string("e.yaml", yaml, &d);
	assert_non_null(n);
	int rc = expect_evaluate(node_get(n, "expect"), &r, NULL, res, &d);
	if (rc != 0 || d.nerrors) {
		diag_print(&d, stderr);
		fail_msg("expect_evaluate failed on:\n%s", yaml);
	}
	assert_int_equal(res->n, 1);
	enum expect_status st = res->rows[0].status;
	node_free(n);
	run_free(&r);
	diag_free(&d);
	return st;
}

static void test_tolerances(void **state)
{
	struct expect_result res;
	static const struct {
		const char *yaml;
		enum expect_status st;
	} cases[] = {
	    /* percent, both sides; edges are inclusive */
	    {"expect: [{s.lat: [12, -20%, +20%]}]", EXPECT_PASS},
	    {"expect: [{s.lat: [12, -10%, +10%]}]", EXPECT_FAIL},
	    {"expect: [{s.lat: [12.5, -20%, +20%]}]", EXPECT_PASS}, /* 10 == 12.5 - 2.5 */
	    {"expect: [{s.lat: [8, -20%, +25%]}]", EXPECT_PASS},    /* 10 == 8 + 2 */
	    /* absolute */
	    {"expect: [{s.lat: [12, -2, 0]}]", EXPECT_PASS},
	    {"expect: [{s.lat: [12, -1.5, 0]}]", EXPECT_FAIL},
	    {"expect: [{s.lat: [9, 0, 1]}]", EXPECT_PASS},
	    /* unbounded sides */
	    {"expect: [{s.lat: [1000, null, 0]}]", EXPECT_PASS},
	    {"expect: [{s.lat: [1, ~, 0]}]", EXPECT_FAIL},
	    {"expect: [{s.lat: [1, 0, null]}]", EXPECT_PASS},
	    /* symmetric */
	    {"expect: [{s.lat: [11, 10%]}]", EXPECT_PASS},
	    {"expect: [{s.lat: [11, 5%]}]", EXPECT_FAIL},
	    {"expect: [{s.lat: [11, 1]}]", EXPECT_PASS},
	    /* negative reference: percent of |value| */
	    {"expect: [{s.neg: [-4, -30%, +0%]}]", EXPECT_PASS},
	    {"expect: [{s.neg: [-4, -20%, +0%]}]", EXPECT_FAIL},
	    /* zero reference: only absolute tolerances make sense */
	    {"expect: [{s.zero: [0, -1, 1]}]", EXPECT_PASS},
	    {"expect: [{s.zero: [0, -10%, 10%]}]", EXPECT_PASS},
	    /* xfail */
	    {"expect: [{s.lat: [12, -1%, 1%], xfail: true}]", EXPECT_XFAIL},
	    {"expect: [{s.lat: [10, -1%, 1%], xfail: true}]", EXPECT_XPASS},
	    {"expect: [{s.lat: [10, -1%, 1%], xfail: false}]", EXPECT_PASS},
	    /* missing metric stays FAIL, even with xfail */
	    {"expect: [{s.nope: [10, -1%, 1%], xfail: true}]", EXPECT_FAIL},
	    {"expect: [{t.lat: [10, -1%, 1%]}]", EXPECT_FAIL},
	    /* where: sizes compare by value, lists are any-of */
	    {"expect: [{where: {bs: 4k}, s.lat: [10, 0, 0]}]", EXPECT_PASS},
	    {"expect: [{where: {bs: [1k, 4KiB]}, s.lat: [10, 0, 0]}]", EXPECT_PASS},
	    {"expect: [{where: {bs: 8k}, s.lat: [10, 0, 0]}]", EXPECT_SKIP},
	    {"expect: [{where: {other: 1}, s.lat: [10, 0, 0]}]", EXPECT_SKIP},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum expect_status st = eval_one(cases[i].yaml, &res);
		if (st != cases[i].st)
			fail_msg("case %zu %s: got %s, want %s", i, cases[i].yaml, expect_status_name(st),
			         expect_status_name(cases[i].st));
		expect_result_free(&res);
	}

	/* diff in percent and no percentage for a zero reference */
	eval_one("expect: [{s.lat: [8, -50%, 50%]}]", &res);
	assert_near(res.rows[0].diff_pct, 25, 1e-9);
	expect_result_free(&res);
	eval_one("expect: [{s.zero: [0, -1, 1]}]", &res);
	assert_true(isnan(res.rows[0].diff_pct));
	expect_result_free(&res);

	/* strict: FAIL and XPASS count, XFAIL does not */
	eval_one("expect: [{s.lat: [12, -1%, 1%], strict: true}]", &res);
	assert_int_equal(res.nstrict, 1);
	expect_result_free(&res);
	eval_one("expect: [{s.lat: [10, -1%, 1%], strict: true, xfail: true}]", &res);
	assert_int_equal(res.nstrict, 1);
	expect_result_free(&res);
	eval_one("expect: [{s.lat: [12, -1%, 1%], strict: true, xfail: true}]", &res);
	assert_int_equal(res.nstrict, 0);
	expect_result_free(&res);
}

static void test_check_errors(void **state)
{
	static const struct {
		const char *yaml, *msg;
		int line, col;
	} cases[] = {
	    {"expect:\n  - s.lat: [10, +20%, +20%]\n", "lower tolerance '+20%' must be <= 0", 2, 17},
	    {"expect:\n  - s.lat: [10, -20%, -20%]\n", "upper tolerance '-20%' must be >= 0", 2, 23},
	    {"expect:\n  - s.lat: [10, -abc%, 1]\n", "not a number or a percentage", 2, 17},
	    {"expect:\n  - s.lat: 10\n", "[value, lower, upper]", 2, 12},
	    {"expect:\n  - s.lat: [ten, 1, 1]\n", "s.lat", 2, 13},
	    {"expect:\n  - s.lat: [10, -5%, 5%]\n    wher: {a: 1}\n", "did you mean 'where'", 3, 5},
	    {"expect:\n  - tps: [10, 1]\n", "step.metric", 2, 5},
	    {"expect:\n  - where: {a: 1}\n", "no step.metric", 2, 5},
	    {"expect:\n  - where: [a]\n    s.x: [1, 1]\n", "where must be a map", 2, 12},
	    {"expect:\n  - s.x: [1, 1]\n    strict: maybe\n", "strict", 3, 13},
	    {"expect:\n  - s.x: [1, -1]\n", "symmetric tolerance must be positive", 2, 14},
	    {"expect: {s.x: 1}\n", "must be a list", 1, 9},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct diag d;
		diag_init(&d);
		struct node *n = spec_load_string("c.yaml", cases[i].yaml, &d);
		assert_non_null(n);
		assert_int_equal(expect_check(node_get(n, "expect"), &d), -EINVAL);
		assert_true(d.nerrors >= 1);
		if (!strstr(d.v[0].msg, cases[i].msg) || d.v[0].pos.line != cases[i].line ||
		    d.v[0].pos.col != cases[i].col)
			fail_msg("case %zu: got %d:%d %s; want %d:%d %s", i, d.v[0].pos.line, d.v[0].pos.col,
			         d.v[0].msg, cases[i].line, cases[i].col, cases[i].msg);
		/* evaluate reports the same and skips the entry */
		struct run r;
		struct expect_result res;
		run_init(&r);
		struct diag d2;
		diag_init(&d2);
		assert_int_equal(expect_evaluate(node_get(n, "expect"), &r, NULL, &res, &d2), -EINVAL);
		assert_int_equal(res.n, 0);
		expect_result_free(&res);
		run_free(&r);
		diag_free(&d2);
		node_free(n);
		diag_free(&d);
	}
	/* a valid section passes the check */
	struct diag d;
	diag_init(&d);
	struct node *n =
	    spec_load_string("ok.yaml",
	                     "expect:\n  - where: {fs: [ext4, xfs]}\n    ro.tps: [7000, -20%, +20%]\n"
	                     "    xfail: slow disk\n    strict: true\n    note: Vondra 2012\n",
	                     &d);
	assert_int_equal(expect_check(node_get(n, "expect"), &d), 0);
	assert_int_equal(d.nerrors, 0);
	assert_int_equal(expect_check(NULL, &d), 0);
	node_free(n);
	diag_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fixture_statuses),
	    cmocka_unit_test(test_tolerances),
	    cmocka_unit_test(test_check_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

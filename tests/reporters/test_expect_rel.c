/* test_expect_rel: ratio and order expectations on crafted runs: pairing by
 * the other parameters, medians over repeats, verdicts, tolerances, SKIP
 * with why, and the scenario check of parameter and step names; the same
 * between two metrics of each cell (`to: step.metric`). */
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
#include "expect_rel.h"
#include "results.h"
#include "spec.h"

#define assert_near(a, b, eps) assert_near_(a, b, eps, #a, __LINE__)
static void assert_near_(double a, double b, double eps, const char *what, int line)
{
	if (!(fabs(a - b) <= eps))
		fail_msg("line %d: %s = %.17g, expected %.17g", line, what, a, b);
}

struct tcell {
	const char *wal, *fs; /* fs NULL: the cell lacks the parameter */
	double tps[3];        /* NaN: no value in that repetition */
	int status;           /* 0 ok, 1 the step failed, 2 the cell was skipped */
};

/* Cells 0..3: {separate, data} x {ext4, xfs}; 4: separate/btrfs, no
 * partner; values over 3 repeats (medians 110, 200, 60, 100, 50). */
static const struct tcell base[] = {
    {"separate", "ext4", {100, 300, 110}, 0}, {"data", "ext4", {200, 190, 210}, 0},
    {"separate", "xfs", {60, 60, 61}, 0},     {"data", "xfs", {100, 99, 101}, 0},
    {"separate", "btrfs", {50, 50, 50}, 0},
};

static void build(struct run *r, const struct tcell *t, size_t n)
{
	run_init(r);
	r->repeat = 3;
	for (size_t i = 0; i < n; i++) {
		struct cell c = {.index = i};
		snprintf(c.id, sizeof(c.id), "%012x", (unsigned)(i & 0xffffffu));
		c.params = node_new(NODE_MAP, NULL);
		node_map_put(c.params, "wal", NULL, node_new_scalar(t[i].wal, NULL));
		if (t[i].fs)
			node_map_put(c.params, "fs", NULL, node_new_scalar(t[i].fs, NULL));
		struct run_cell *rc = run_add_cell(r, &c);
		node_free(c.params);
		if (t[i].status == 2) {
			run_cell_set_status(rc, RUN_SKIPPED, "skipped by a hook");
			continue;
		}
		for (size_t k = 0; k < 3; k++) {
			struct step_result s;
			result_init(&s, "rw", "pgbench");
			if (isfinite(t[i].tps[k]))
				result_metric(&s, "tps", t[i].tps[k], "tps");
			if (t[i].status == 1)
				result_fail(&s, "server crashed");
			run_cell_take_step(rc, k, &s);
		}
		run_cell_set_status(rc, t[i].status ? RUN_FAILED : RUN_OK, t[i].status ? "failed" : NULL);
	}
}

/* Evaluate one entry on run r: its single row's status (row kept in res). */
static enum expect_status eval(const struct run *r, const char *yaml, struct expect_result *res)
{
	struct diag d;
	diag_init(&d);
	struct node *n = spec_load_string("e.yaml", yaml, &d);
	assert_non_null(n);
	assert_int_equal(expect_check(node_get(n, "expect"), &d), 0);
	int rc = expect_evaluate(node_get(n, "expect"), r, NULL, res, &d);
	if (rc != 0 || d.nerrors) {
		diag_print(&d, stderr);
		fail_msg("expect_evaluate failed on:\n%s", yaml);
	}
	assert_int_equal(res->n, 1);
	node_free(n);
	diag_free(&d);
	return res->rows[0].status;
}

/* One expectation per case, each with the verdict it must get. */
struct verdict_case {
	const char *yaml; /* the entry, in flow style */
	enum expect_status st;
};

static void eval_cases(const struct run *r, const struct verdict_case *cases, size_t n)
{
	struct expect_result res;
	for (size_t i = 0; i < n; i++) {
		char yaml[512];
		snprintf(yaml, sizeof(yaml), "expect:\n  - %s\n", cases[i].yaml);
		enum expect_status st = eval(r, yaml, &res);
		if (st != cases[i].st)
			fail_msg("case %zu %s: got %s (%s), want %s", i, cases[i].yaml,
			         expect_status_name(st), res.rows[0].note ? res.rows[0].note : "",
			         expect_status_name(cases[i].st));
		expect_result_free(&res);
	}
}

static void test_pairs(void **state)
{
	struct run r;
	struct expect_result res;
	build(&r, base, 5);
	eval(&r,
	     "expect:\n  - ratio: {of: rw.tps, where: {wal: separate}, to: {wal: data}}\n"
	     "    published: 0.6\n    tolerance: 25%\n    note: \"1407 / 2131\"\n",
	     &res);
	const struct expect_row *row = &res.rows[0];
	assert_int_equal(row->kind, EXPECT_RATIO);
	assert_int_equal(row->cell, -1);
	/* btrfs has no partner; ext4 and xfs pair with their own fs */
	assert_int_equal(row->npairs, 2);
	assert_int_equal(row->pairs[0].a, 0);
	assert_int_equal(row->pairs[0].b, 1);
	assert_int_equal(row->pairs[1].a, 2);
	assert_int_equal(row->pairs[1].b, 3);
	/* medians over the repeats, not means */
	assert_near(row->pairs[0].va, 110, 1e-9);
	assert_near(row->pairs[0].vb, 200, 1e-9);
	assert_near(row->pairs[0].ratio, 0.55, 1e-9);
	assert_near(row->pairs[1].ratio, 0.6, 1e-9);
	/* the median of the pairs' ratios is what the tolerance judges */
	assert_near(row->measured, 0.575, 1e-9);
	assert_near(row->expected, 0.6, 1e-12);
	assert_near(row->lower, 0.45, 1e-12);
	assert_near(row->upper, 0.75, 1e-12);
	assert_near(row->diff_pct, (0.575 - 0.6) / 0.6 * 100, 1e-9);
	assert_int_equal(row->status, EXPECT_PASS);
	assert_string_equal(row->claim, "1407 / 2131");
	assert_string_equal(row->check, "{wal: separate} / {wal: data}");
	assert_string_equal(row->unit, "tps");
	assert_string_equal(row->ref, "rw.tps");
	expect_result_free(&res);

	/* a parameter named only in where holds on both sides */
	eval(&r,
	     "expect:\n  - ratio: {of: rw.tps, where: {wal: separate, fs: xfs}, to: {wal: data}}\n"
	     "    published: 0.6\n    tolerance: 0.01\n",
	     &res);
	assert_int_equal(res.rows[0].npairs, 1);
	assert_int_equal(res.rows[0].pairs[0].a, 2);
	assert_int_equal(res.rows[0].pairs[0].b, 3);
	assert_int_equal(res.rows[0].status, EXPECT_PASS);
	expect_result_free(&res);

	/* `to` may name what else changes: every xfs cell against ext4/data */
	struct expect_pair *p;
	size_t n;
	struct diag d;
	diag_init(&d);
	struct node *w = spec_load_string("w.yaml", "{fs: xfs}", &d),
	            *t = spec_load_string("t.yaml", "{fs: ext4, wal: data}", &d);
	assert_int_equal(expect_rel_pairs(&r, w, t, &p, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(p[0].a, 2);
	assert_int_equal(p[0].b, 1);
	assert_int_equal(p[1].a, 3);
	assert_int_equal(p[1].b, 1);
	free(p);
	node_free(w);
	node_free(t);
	diag_free(&d);
	run_free(&r);
}

static void test_missing_params_and_skipped(void **state)
{
	/* a cell without fs pairs only with a cell without fs; a skipped
	 * cell is no partner */
	static const struct tcell t[] = {
	    {"separate", NULL, {10, 10, 10}, 0}, {"data", NULL, {20, 20, 20}, 0},
	    {"data", "ext4", {40, 40, 40}, 0},   {"separate", "xfs", {10, 10, 10}, 0},
	    {"data", "xfs", {0, 0, 0}, 2},
	};
	struct run r;
	struct expect_result res;
	build(&r, t, 5);
	eval(&r,
	     "expect:\n  - ratio: {of: rw.tps, where: {wal: separate}, to: {wal: data}}\n"
	     "    published: 0.5\n    tolerance: [-1%, +1%]\n",
	     &res);
	assert_int_equal(res.rows[0].npairs, 1);
	assert_int_equal(res.rows[0].pairs[0].a, 0);
	assert_int_equal(res.rows[0].pairs[0].b, 1);
	assert_int_equal(res.rows[0].status, EXPECT_PASS);
	expect_result_free(&res);
	run_free(&r);
}

static void test_verdicts(void **state)
{
	struct run r;
	struct expect_result res;
	build(&r, base, 5);
	static const struct verdict_case cases[] = {
	    /* tolerance: percent of published, absolute, [lower, upper] */
	    {"{ratio: {of: rw.tps, where: {wal: separate}, to: {wal: data}}, published: 0.66, tolerance: "
	     "10%}",
	     EXPECT_FAIL}, /* 0.575 < 0.594 */
	    {"{ratio: {of: rw.tps, where: {wal: separate}, to: {wal: data}}, published: 0.66, tolerance: "
	     "15%}",
	     EXPECT_PASS}, /* 0.561 <= 0.575 */
	    {"{ratio: {of: rw.tps, where: {wal: separate}, to: {wal: data}}, published: 0.66, tolerance: "
	     "0.08}",
	     EXPECT_FAIL},
	    {"{ratio: {of: rw.tps, where: {wal: separate}, to: {wal: data}}, published: 0.66, tolerance: "
	     "0.09}",
	     EXPECT_PASS},
	    {"{ratio: {of: rw.tps, where: {wal: separate}, to: {wal: data}}, published: 0.5, "
	     "tolerance: [-1%, +20%]}",
	     EXPECT_PASS},
	    {"{ratio: {of: rw.tps, where: {wal: separate}, to: {wal: data}}, published: 0.5, "
	     "tolerance: [-1%, +10%]}",
	     EXPECT_FAIL},
	    {"{ratio: {of: rw.tps, where: {wal: separate}, to: {wal: data}}, published: 0.5, "
	     "tolerance: [null, 0]}",
	     EXPECT_FAIL},
	    /* xfail */
	    {"{ratio: {of: rw.tps, where: {wal: separate}, to: {wal: data}}, published: 2, tolerance: 10%, "
	     "xfail: other hardware}",
	     EXPECT_XFAIL},
	    {"{ratio: {of: rw.tps, where: {wal: separate}, to: {wal: data}}, published: 0.6, tolerance: 10%, "
	     "xfail: true}",
	     EXPECT_XPASS},
	    /* order: the median of the pairs' differences */
	    {"{order: [{wal: separate}, \"<\", {wal: data}], metric: rw.tps}", EXPECT_PASS},
	    {"{order: [{wal: separate}, \">\", {wal: data}], metric: rw.tps}", EXPECT_FAIL},
	    {"{order: [{wal: data}, \">\", {wal: separate}], metric: rw.tps}", EXPECT_PASS},
	    {"{order: [{wal: separate}, \">\", {wal: data}], metric: rw.tps, xfail: x}", EXPECT_XFAIL},
	    {"{order: [{fs: ext4}, \">\", {fs: xfs}], metric: rw.tps}", EXPECT_PASS},
	    /* no pair: SKIP */
	    {"{order: [{wal: other}, \"<\", {wal: data}], metric: rw.tps}", EXPECT_SKIP},
	    {"{order: [{wal: separate}, \"<\", {wal: other}], metric: rw.tps}", EXPECT_SKIP},
	    {"{order: [{fs: btrfs}, \"<\", {wal: data}], metric: rw.tps}", EXPECT_SKIP},
	    /* pairs but nothing measured: FAIL, even with xfail */
	    {"{order: [{wal: separate}, \"<\", {wal: data}], metric: rw.nope, xfail: true}", EXPECT_FAIL},
	    {"{ratio: {of: ro.tps, where: {wal: separate}, to: {wal: data}}, published: 1, tolerance: 1}",
	     EXPECT_FAIL},
	};
	eval_cases(&r, cases, sizeof(cases) / sizeof(cases[0]));

	/* order shows the median ratio and which pairs hold */
	eval(&r, "expect:\n  - {order: [{fs: ext4}, \">\", {fs: xfs}], metric: rw.tps}\n", &res);
	const struct expect_row *row = &res.rows[0];
	assert_int_equal(row->kind, EXPECT_ORDER);
	assert_int_equal(row->rel, '>');
	assert_true(isnan(row->expected));
	assert_int_equal(row->npairs, 2);
	assert_true(row->pairs[0].holds);
	assert_true(row->pairs[1].holds);
	assert_near(row->measured, (110.0 / 60 + 2.0) / 2, 1e-9);
	assert_string_equal(row->check, "{fs: ext4} > {fs: xfs}");
	expect_result_free(&res);

	/* the reasons of a SKIP */
	eval(&r, "expect:\n  - {order: [{wal: other}, \"<\", {wal: data}], metric: rw.tps}\n", &res);
	assert_string_equal(res.rows[0].note, "no cell of this run matches {wal: other}");
	expect_result_free(&res);
	eval(&r, "expect:\n  - {order: [{fs: btrfs}, \"<\", {wal: data}], metric: rw.tps}\n", &res);
	assert_non_null(strstr(res.rows[0].note, "has the other parameters"));
	expect_result_free(&res);

	/* strict counts a FAIL */
	eval(&r,
	     "expect:\n  - {order: [{wal: separate}, \">\", {wal: data}], metric: rw.tps, strict: true}\n",
	     &res);
	assert_int_equal(res.nstrict, 1);
	expect_result_free(&res);
	run_free(&r);
}

/* Three pairs whose ratios (0.5, 0.5, 2.0) have their median (0.5) and their
 * mean (1.0) on opposite sides of the bounds: the median decides. */
static void test_ratio_median_of_three(void **state)
{
	static const struct tcell three[] = {
	    {"separate", "ext4", {50, 50, 50}, 0},   {"data", "ext4", {100, 100, 100}, 0},
	    {"separate", "xfs", {40, 40, 40}, 0},    {"data", "xfs", {80, 80, 80}, 0},
	    {"separate", "zfs", {200, 200, 200}, 0}, {"data", "zfs", {100, 100, 100}, 0},
	};
	struct run r;
	struct expect_result res;
	(void)state;
	build(&r, three, 6);
	assert_int_equal(eval(&r,
	                      "expect:\n  - ratio: {of: rw.tps, where: {wal: separate}, to: {wal: data}}\n"
	                      "    published: 0.5\n    tolerance: 10%\n",
	                      &res),
	                 EXPECT_PASS);
	assert_int_equal(res.rows[0].npairs, 3);
	assert_float_equal(res.rows[0].measured, 0.5, 1e-12);
	expect_result_free(&res);
	run_free(&r);
}

static void test_order_median(void **state)
{
	/* two of three pairs hold: the median difference decides */
	static const struct tcell t[] = {
	    {"a", "1", {1, 1, 1}, 0}, {"b", "1", {2, 2, 2}, 0}, {"a", "2", {1, 1, 1}, 0},
	    {"b", "2", {2, 2, 2}, 0}, {"a", "3", {5, 5, 5}, 0}, {"b", "3", {2, 2, 2}, 0},
	};
	struct run r;
	struct expect_result res;
	build(&r, t, 6);
	assert_int_equal(
	    eval(&r, "expect:\n  - {order: [{wal: a}, \"<\", {wal: b}], metric: rw.tps}\n", &res),
	    EXPECT_PASS);
	assert_int_equal(res.rows[0].npairs, 3);
	assert_true(res.rows[0].pairs[0].holds);
	assert_false(res.rows[0].pairs[2].holds);
	expect_result_free(&res);
	run_free(&r);
}

static void test_failed_step(void **state)
{
	/* a failed step gives no value: that pair is not measured, the rest
	 * decides; the note counts it */
	static const struct tcell t[] = {
	    {"separate", "ext4", {100, 100, 100}, 1},
	    {"data", "ext4", {200, 200, 200}, 0},
	    {"separate", "xfs", {50, 50, 50}, 0},
	    {"data", "xfs", {100, 100, 100}, 0},
	};
	struct run r;
	struct expect_result res;
	build(&r, t, 4);
	assert_int_equal(eval(&r,
	                      "expect:\n  - ratio: {of: rw.tps, where: {wal: separate}, to: {wal: data}}\n"
	                      "    published: 0.5\n    tolerance: 1%\n",
	                      &res),
	                 EXPECT_PASS);
	assert_int_equal(res.rows[0].npairs, 2);
	assert_true(isnan(res.rows[0].pairs[0].va));
	assert_non_null(strstr(res.rows[0].pairs[0].note, "step failed: server crashed"));
	assert_string_equal(res.rows[0].note, "1 of 2 pairs not measured");
	expect_result_free(&res);
	run_free(&r);
}

/* ---- between two metrics of each cell ---- */

struct scell {
	const char *drive, *fs;
	double sync[3], cached[3]; /* MB/s; NaN: missing in that repetition */
	int status;                /* 0 ok, 2 skipped */
};

/* medians: external/ext4 233 / 134, external/xfs 200 / 100, internal/ext4
 * 50 / 100, internal/xfs no sync figure; external/btrfs skipped. */
static const struct scell sbase[] = {
    {"external", "ext4", {230, 233, 300}, {134, 120, 140}, 0},
    {"external", "xfs", {200, 200, 200}, {100, 100, 100}, 0},
    {"internal", "ext4", {50, 50, 50}, {100, 100, 100}, 0},
    {"internal", "xfs", {NAN, NAN, NAN}, {100, 100, 100}, 0},
    {"external", "btrfs", {1, 1, 1}, {1, 1, 1}, 2},
};

static void build_steps(struct run *r, const struct scell *t, size_t n)
{
	run_init(r);
	r->repeat = 3;
	for (size_t i = 0; i < n; i++) {
		struct cell c = {.index = i};
		snprintf(c.id, sizeof(c.id), "%012x", (unsigned)(i & 0xffffffu));
		c.params = node_new(NODE_MAP, NULL);
		node_map_put(c.params, "drive", NULL, node_new_scalar(t[i].drive, NULL));
		node_map_put(c.params, "fs", NULL, node_new_scalar(t[i].fs, NULL));
		struct run_cell *rc = run_add_cell(r, &c);
		node_free(c.params);
		if (t[i].status == 2) {
			run_cell_set_status(rc, RUN_SKIPPED, "skipped by a hook");
			continue;
		}
		for (size_t k = 0; k < 3; k++) {
			struct step_result s, u;
			result_init(&s, "ws", "exec");
			if (isfinite(t[i].sync[k]))
				result_metric(&s, "mb_s", t[i].sync[k], "MB/s");
			result_metric(&s, "lat", 2, "ms");
			run_cell_take_step(rc, k, &s);
			result_init(&u, "wc", "exec");
			if (isfinite(t[i].cached[k]))
				result_metric(&u, "mb_s", t[i].cached[k], "MB/s");
			run_cell_take_step(rc, k, &u);
		}
		run_cell_set_status(rc, RUN_OK, NULL);
	}
}

static void test_steps_ratio(void **state)
{
	struct run r;
	struct expect_result res;
	build_steps(&r, sbase, 5);
	eval(&r,
	     "expect:\n  - ratio: {of: ws.mb_s, to: wc.mb_s, where: {drive: external}}\n"
	     "    published: 1.74\n    tolerance: 30%\n    note: \"233 / 134\"\n",
	     &res);
	const struct expect_row *row = &res.rows[0];
	assert_int_equal(row->kind, EXPECT_RATIO);
	/* each matching cell once, with itself; the skipped cell is left out */
	assert_int_equal(row->npairs, 2);
	assert_int_equal(row->pairs[0].a, 0);
	assert_int_equal(row->pairs[0].b, 0);
	assert_int_equal(row->pairs[1].a, 1);
	assert_int_equal(row->pairs[1].b, 1);
	/* medians over the repeats (the means would be 254.3 / 131.3) */
	assert_near(row->pairs[0].va, 233, 1e-9);
	assert_near(row->pairs[0].vb, 134, 1e-9);
	assert_near(row->pairs[0].ratio, 233.0 / 134, 1e-9);
	assert_near(row->pairs[1].ratio, 2, 1e-9);
	assert_near(row->measured, (233.0 / 134 + 2) / 2, 1e-9);
	assert_int_equal(row->status, EXPECT_PASS);
	assert_string_equal(row->ref, "ws.mb_s");
	assert_string_equal(row->to_ref, "wc.mb_s");
	assert_string_equal(row->unit, "MB/s");
	assert_string_equal(row->unit_to, "MB/s");
	assert_string_equal(row->check, "`ws.mb_s` / `wc.mb_s` in {drive: external}");
	assert_string_equal(row->claim, "233 / 134");
	assert_null(row->note);
	expect_result_free(&res);

	/* all cells without where: the cell missing its sync figure is not
	 * measured, the other three decide (median 233/134) */
	eval(&r, "expect:\n  - {ratio: {of: ws.mb_s, to: wc.mb_s}, published: 1.74, tolerance: 1%}\n", &res);
	row = &res.rows[0];
	assert_int_equal(row->npairs, 4);
	assert_true(isnan(row->pairs[3].va));
	assert_string_equal(row->pairs[3].note, "cell 3: 'mb_s' not measured");
	assert_near(row->measured, 233.0 / 134, 1e-9);
	assert_int_equal(row->status, EXPECT_PASS);
	assert_string_equal(row->note, "1 of 4 pairs not measured");
	assert_string_equal(row->check, "`ws.mb_s` / `wc.mb_s` in all cells");
	expect_result_free(&res);

	/* the missing metric on the `to` side; units of each side */
	eval(&r,
	     "expect:\n  - {ratio: {of: ws.lat, to: ws.mb_s, where: {fs: xfs}}, published: 0.01, "
	     "tolerance: 1%}\n",
	     &res);
	row = &res.rows[0];
	assert_int_equal(row->npairs, 2);
	assert_near(row->pairs[0].ratio, 0.01, 1e-12);
	assert_true(isnan(row->pairs[1].vb));
	assert_non_null(row->pairs[1].note);
	assert_string_equal(row->unit, "ms");
	assert_string_equal(row->unit_to, "MB/s");
	assert_int_equal(row->status, EXPECT_PASS);
	expect_result_free(&res);

	/* no cell matches where: SKIP with why; nothing measured: FAIL */
	assert_int_equal(eval(&r,
	                      "expect:\n  - {ratio: {of: ws.mb_s, to: wc.mb_s, where: {drive: usb}}, "
	                      "published: 1, tolerance: 1}\n",
	                      &res),
	                 EXPECT_SKIP);
	assert_string_equal(res.rows[0].note, "no cell of this run matches {drive: usb}");
	expect_result_free(&res);
	assert_int_equal(eval(&r,
	                      "expect:\n  - {ratio: {of: ws.mb_s, to: wc.mb_s, where: {fs: xfs, drive: "
	                      "internal}}, published: 1, tolerance: 1, xfail: true}\n",
	                      &res),
	                 EXPECT_FAIL);
	expect_result_free(&res);
	run_free(&r);
}

static void test_steps_order(void **state)
{
	struct run r;
	struct expect_result res;
	build_steps(&r, sbase, 5);
	static const struct verdict_case cases[] = {
	    {"{order: [ws.mb_s, \">\", wc.mb_s], where: {drive: external}}", EXPECT_PASS},
	    {"{order: [ws.mb_s, \"<\", wc.mb_s], where: {drive: external}}", EXPECT_FAIL},
	    {"{order: [wc.mb_s, \"<\", ws.mb_s], where: {drive: external}}", EXPECT_PASS},
	    /* internal: 50 < 100, the xfs cell not measured */
	    {"{order: [ws.mb_s, \"<\", wc.mb_s], where: {drive: internal}}", EXPECT_PASS},
	    {"{order: [ws.mb_s, \">\", wc.mb_s], where: {drive: internal}}", EXPECT_FAIL},
	    /* all cells: differences 99, 100, -50: the median decides */
	    {"{order: [ws.mb_s, \">\", wc.mb_s]}", EXPECT_PASS},
	    {"{order: [ws.mb_s, \"<\", wc.mb_s], xfail: other disk}", EXPECT_XFAIL},
	    {"{order: [ws.mb_s, \">\", wc.mb_s], where: {fs: zfs}}", EXPECT_SKIP},
	};
	eval_cases(&r, cases, sizeof(cases) / sizeof(cases[0]));
	eval(&r, "expect:\n  - {order: [ws.mb_s, \">\", wc.mb_s], where: {drive: external}}\n", &res);
	const struct expect_row *row = &res.rows[0];
	assert_int_equal(row->kind, EXPECT_ORDER);
	assert_int_equal(row->rel, '>');
	assert_int_equal(row->npairs, 2);
	assert_true(row->pairs[0].holds && row->pairs[1].holds);
	assert_near(row->measured, (233.0 / 134 + 2) / 2, 1e-9);
	assert_string_equal(row->check, "`ws.mb_s` > `wc.mb_s` in {drive: external}");
	expect_result_free(&res);
	run_free(&r);
}

/* expect_check_scenario: names checked against the matrix and the steps. */
static void test_scenario_names(void **state)
{
	static const struct {
		const char *yaml, *msg;
		int line, col;
	} cases[] = {
	    {"matrix: {wal: [a, b]}\nsteps: [{name: rw}]\nexpect:\n"
	     "  - {ratio: {of: rw.tps, where: {wal: a}, to: {wall: b}}, published: 1, tolerance: 1}\n",
	     "ratio.to names 'wall', which is not a parameter of the matrix (parameters: wal); did you mean "
	     "'wal'?",
	     4, 48},
	    {"matrix: {wal: [a, b]}\nsteps: [{name: rw}]\nexpect:\n"
	     "  - {order: [{wal: a}, \"<\", {wal: b}], metric: ro.tps}\n",
	     "metric 'ro.tps' names no step of the scenario (steps: rw)", 4, 48},
	    {"steps: [{name: rw}]\nexpect:\n  - {order: [{wal: a}, \"<\", {wal: b}], metric: rw.tps}\n",
	     "it has none", 3, 15},
	    {"matrix: {wal: [a, b]}\nsteps: [{exec: x}]\nexpect:\n"
	     "  - {order: [{wal: a}, \"<\", {wal: b}], metric: rw.tps}\n",
	     "(steps: step1)", 4, 48},
	    /* between two metrics of each cell */
	    {"matrix: {wal: [a, b]}\nsteps: [{name: rw}]\nexpect:\n"
	     "  - {ratio: {of: rw.tps, to: tps}, published: 1, tolerance: 1}\n",
	     "ratio.to 'tps' is not step.metric (e.g. rw.tps) nor a map of parameters", 4, 30},
	    {"matrix: {wal: [a, b]}\nsteps: [{name: rw}]\nexpect:\n"
	     "  - {ratio: {of: rw.tps, to: ro.tps}, published: 1, tolerance: 1}\n",
	     "ratio.to 'ro.tps' names no step of the scenario (steps: rw)", 4, 30},
	    {"matrix: {wal: [a, b]}\nsteps: [{name: rw}]\nexpect:\n"
	     "  - {order: [{wal: a}, \"<\", rw.tps], metric: rw.tps}\n",
	     "order mixes a metric ('rw.tps') with a map of parameters", 4, 29},
	    {"matrix: {wal: [a, b]}\nsteps: [{name: rw}]\nexpect:\n"
	     "  - {order: [rw.tps, \"<\", rw.lat], metric: rw.tps}\n",
	     "an order of two metrics names them in its sides; it takes no metric:", 4, 36},
	    {"matrix: {wal: [a, b]}\nsteps: [{name: rw}]\nexpect:\n"
	     "  - {order: [rw.tps, \"<\", rw.lat], where: {wall: a}}\n",
	     "where names 'wall'", 4, 44},
	    {"matrix: {wal: [a, b]}\nsteps: [{name: rw}]\nexpect:\n"
	     "  - {order: [{wal: a}, \"<\", {wal: b}], metric: rw.tps, where: {wal: a}}\n",
	     "where: goes with an order of two metrics", 4, 56},
	    {"matrix: {wal: [a, b]}\nsteps: [{name: rw}]\nexpect:\n"
	     "  - {ratio: {of: rw.tps, to: {wal: b}}, published: 1, tolerance: 1}\n",
	     "ratio has no 'where'", 4, 13},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct diag d;
		diag_init(&d);
		struct node *n = spec_load_string("c.yaml", cases[i].yaml, &d);
		assert_non_null(n);
		assert_int_equal(expect_check_scenario(n, n, &d), -EINVAL);
		if (d.nerrors < 1 || !strstr(d.v[0].msg, cases[i].msg) || d.v[0].pos.line != cases[i].line ||
		    d.v[0].pos.col != cases[i].col)
			fail_msg("case %zu: got %d:%d %s; want %d:%d %s", i, d.nerrors ? d.v[0].pos.line : 0,
			         d.nerrors ? d.v[0].pos.col : 0, d.nerrors ? d.v[0].msg : "", cases[i].line,
			         cases[i].col, cases[i].msg);
		node_free(n);
		diag_free(&d);
	}
	/* zip and include keys are parameters; unnamed steps are stepN */
	struct diag d;
	diag_init(&d);
	struct node *n = spec_load_string(
	    "ok.yaml",
	    "matrix:\n  wal: [a, b]\n  zip: {fs: [x, y], blk: [1, 2]}\n  include: [{wal: a, fs: x, blk: 1, "
	    "c: 8}]\n"
	    "steps: [{name: rw}, {exec: x}]\nexpect:\n"
	    "  - {ratio: {of: step2.tps, where: {blk: 1, c: 8}, to: {fs: y}}, published: 1, tolerance: 1}\n"
	    "  - {order: [{wal: a}, \"<\", {wal: b}], metric: rw.tps}\n"
	    "  - {where: {nosuch: 1}, other.tps: [1, 1]}\n"
	    "  - {ratio: {of: rw.tps, to: step2.lat}, published: 1, tolerance: 1}\n"
	    "  - {ratio: {of: rw.tps, to: step2.lat, where: {blk: 1}}, published: 1, tolerance: 1}\n"
	    "  - {order: [rw.tps, \">\", step2.tps], where: {wal: a}}\n"
	    "  - {order: [rw.tps, \"<\", step2.tps]}\n",
	    &d);
	assert_int_equal(expect_check_scenario(n, n, &d), 0);
	assert_int_equal(d.nerrors, 0);
	node_free(n);
	diag_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_pairs),          cmocka_unit_test(test_missing_params_and_skipped),
	    cmocka_unit_test(test_verdicts),       cmocka_unit_test(test_ratio_median_of_three),
	    cmocka_unit_test(test_order_median),   cmocka_unit_test(test_failed_step),
	    cmocka_unit_test(test_steps_ratio),    cmocka_unit_test(test_steps_order),
	    cmocka_unit_test(test_scenario_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

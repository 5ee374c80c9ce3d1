/* test_expect_bind: the verdict logic of issue 28 on crafted runs: a ratio
 * whose compared cells' models did not bind (below bind:, default 80 %) or
 * whose cell was CPU-bound on a busy machine (or a control cell CPU-bound
 * where other processes' share is unknown) is INCONCLUSIVE with the
 * reason; a bound model or a control CPU-bound by its own work is
 * conclusive; bind: none and results
 * without the models fact are not judged; INCONCLUSIVE is no strict
 * failure; min:/max: bounds, roles, and the rows of expect.json. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
/* cmocka has a mocking macro of the same name; this test does not mock. */
#undef expect_check

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "expect_bind.h"
#include "expect_json.h"
#include "results.h"
#include "spec.h"

/* One cell: wal separate or data, its models fact (NULL: none recorded),
 * tps, its WAL model's utilisation of write_iops (NaN: none) and the CPU's
 * idle and iowait shares during the step, and other processes' share. */
struct tcell {
	const char *wal, *models;
	double tps, util, idle, iowait;
	double other; /* noise.foreign_cpu_pct; NaN: not recorded (0 if not given) */
};

static void build(struct run *r, const struct tcell *t, size_t n)
{
	run_init(r);
	r->repeat = 1;
	for (size_t i = 0; i < n; i++) {
		struct cell c = {.index = i};
		snprintf(c.id, sizeof(c.id), "%012x", (unsigned)i);
		c.params = node_new(NODE_MAP, NULL);
		node_map_put(c.params, "wal", NULL, node_new_scalar(t[i].wal, NULL));
		struct run_cell *rc = run_add_cell(r, &c);
		node_free(c.params);
		if (t[i].models)
			result_info(&rc->facts, "models", "%s", t[i].models);
		struct step_result s;
		result_init(&s, "load", "pgbench");
		result_metric(&s, "tps", t[i].tps, "tps");
		result_metric(&s, "sys_idle_pct", t[i].idle, "%");
		result_metric(&s, "sys_iowait_pct", t[i].iowait, "%");
		if (isfinite(t[i].other))
			result_info(&s, "noise.foreign_cpu_pct", "%.1f", t[i].other);
		if (isfinite(t[i].util)) {
			/* a second, idle model: the busiest one names the reason */
			result_metric(&s, "model.data.read_bps_util", t[i].util / 4, "");
			result_metric(&s, "model.data.utilisation", t[i].util / 4, "");
			result_metric(&s, "model.walfs.write_bps_util", t[i].util / 2, "");
			result_metric(&s, "model.walfs.write_iops_util", t[i].util, "");
			result_metric(&s, "model.walfs.utilisation", t[i].util, "");
		}
		run_cell_take_step(rc, 0, &s);
		run_cell_set_status(rc, RUN_OK, NULL);
	}
}

/* Evaluate one expect: list; its first row (the rest kept in res). */
static const struct expect_row *eval(const struct run *r, const char *yaml, struct expect_result *res)
{
	struct diag d;
	diag_init(&d);
	struct node *n = spec_load_string("e.yaml", yaml, &d);
	assert_non_null(n);
	if (expect_check(node_get(n, "expect"), &d) != 0 ||
	    expect_evaluate(node_get(n, "expect"), r, NULL, res, &d) != 0) {
		diag_print(&d, stderr);
		fail_msg("expect failed on:\n%s", yaml);
	}
	node_free(n);
	diag_free(&d);
	assert_true(res->n >= 1);
	return &res->rows[0];
}

#define RATIO                                                                                                \
	"expect: [{ratio: {of: load.tps, where: {wal: separate}, to: {wal: data}}, published: 0.66, "        \
	"tolerance: 25%"

struct bind_case {
	struct tcell cells[2]; /* separate, data */
	const char *extra;     /* more keys of the entry */
	enum expect_status st;
	const char *reason; /* the start of the row's note, or NULL: none */
};

static void test_verdicts(void **state)
{
	(void)state;
	static const struct bind_case cases[] = {
	    /* both bound: the shape's verdict stands */
	    {{{"separate", "on", 66, 0.93, 30, 10, 0}, {"data", "on", 100, 0.95, 30, 10, 0}},
	     "",
	     EXPECT_PASS,
	     NULL},
	    {{{"separate", "on", 90, 0.93, 30, 10, 0}, {"data", "on", 100, 0.95, 30, 10, 0}},
	     "",
	     EXPECT_FAIL,
	     NULL},
	    /* one side below 80 %: the busiest model and limit named */
	    {{{"separate", "on", 66, 0.42, 30, 10, 0}, {"data", "on", 100, 0.95, 30, 10, 0}},
	     "",
	     EXPECT_INCONCLUSIVE,
	     "models did not bind: walfs at 42 % of write_iops (cell 0, step load; bind: 80 %); the shape "
	     "alone: PASS"},
	    {{{"separate", "on", 90, 0.95, 30, 10, 0}, {"data", "on", 100, 0.79, 30, 10, 0}},
	     "",
	     EXPECT_INCONCLUSIVE,
	     "models did not bind: walfs at 79 % of write_iops (cell 1, step load; bind: 80 %); the shape "
	     "alone: FAIL"},
	    /* the threshold: at it binds; a lower bind: passes it; none: off */
	    {{{"separate", "on", 66, 0.80, 30, 10, 0}, {"data", "on", 100, 0.95, 30, 10, 0}},
	     "",
	     EXPECT_PASS,
	     NULL},
	    {{{"separate", "on", 66, 0.42, 30, 10, 0}, {"data", "on", 100, 0.95, 30, 10, 0}},
	     ", bind: 40%",
	     EXPECT_PASS,
	     NULL},
	    {{{"separate", "on", 66, 0.42, 30, 10, 0}, {"data", "on", 100, 0.95, 30, 10, 0}},
	     ", bind: 0.5",
	     EXPECT_INCONCLUSIVE,
	     "models did not bind: walfs at 42 % of write_iops (cell 0, step load; bind: 50 %)"},
	    {{{"separate", "on", 66, 0.10, 30, 10, 0}, {"data", "on", 100, 0.10, 30, 10, 0}},
	     ", bind: none",
	     EXPECT_PASS,
	     NULL},
	    /* models on but nothing measured of them */
	    {{{"separate", "on", 66, NAN, 30, 10, 0}, {"data", "on", 100, 0.95, 30, 10, 0}},
	     "",
	     EXPECT_INCONCLUSIVE,
	     "models did not bind: no model utilisation measured (cell 0, step load)"},
	    /* a bound model is conclusive when the CPUs are busy with the run's own work */
	    {{{"separate", "on", 66, 0.93, 0, 0, 0}, {"data", "on", 100, 0.95, 1, 0, 0}},
	     "",
	     EXPECT_PASS,
	     NULL},
	    /* ... but not on a busy machine: other processes took 40 % */
	    {{{"separate", "on", 66, 0.93, 0, 0, 40}, {"data", "on", 100, 0.95, 1, 0, 0}},
	     "",
	     EXPECT_INCONCLUSIVE,
	     "a busy machine: idle + iowait 0 %, other processes 40 % (cell 0, step load); the shape "
	     "alone: PASS"},
	    /* the control arm: CPU-bound by its own work is what a control is */
	    {{{"separate", "off", 66, NAN, 1, 0.5, 0}, {"data", "off", 100, NAN, 30, 10, 0}},
	     "",
	     EXPECT_PASS,
	     NULL},
	    /* CPU-bound (below 5 % idle + iowait) while others took 40 %: busy */
	    {{{"separate", "off", 66, NAN, 1, 0.5, 40}, {"data", "off", 100, NAN, 30, 10, 0}},
	     "",
	     EXPECT_INCONCLUSIVE,
	     "a busy machine: idle + iowait 2 %, other processes 40 % (cell 0, step load); the shape "
	     "alone: PASS"},
	    /* others' share not recorded: a CPU-bound control cannot be trusted */
	    {{{"separate", "off", 66, NAN, 1, 0.5, NAN}, {"data", "off", 100, NAN, 30, 10, 0}},
	     "",
	     EXPECT_INCONCLUSIVE,
	     "CPU-bound: idle + iowait 2 % (cell 0, step load); the shape alone: PASS"},
	    /* at 5 % idle + iowait it is not CPU-bound, busy neighbours or not */
	    {{{"separate", "off", 66, NAN, 3, 2, 40}, {"data", "off", 100, NAN, 30, 10, 0}},
	     "",
	     EXPECT_PASS,
	     NULL},
	    /* bind: none turns off the binding rule, not the busy machine's */
	    {{{"separate", "off", 66, NAN, 1, 0.5, 40}, {"data", "off", 100, NAN, 30, 10, 0}},
	     ", bind: none",
	     EXPECT_INCONCLUSIVE,
	     "a busy machine: idle + iowait 2 %, other processes 40 % (cell 0, step load); the shape "
	     "alone: PASS"},
	    /* results without the models fact (no model:, or older results): not judged */
	    {{{"separate", NULL, 66, NAN, 0, 0, 0}, {"data", NULL, 100, NAN, 0, 0, 0}},
	     "",
	     EXPECT_PASS,
	     NULL},
	    /* INCONCLUSIVE replaces XFAIL and XPASS too */
	    {{{"separate", "on", 90, 0.42, 30, 10, 0}, {"data", "on", 100, 0.95, 30, 10, 0}},
	     ", xfail: true",
	     EXPECT_INCONCLUSIVE,
	     "models did not bind: walfs at 42 % of write_iops (cell 0, step load; bind: 80 %); the shape "
	     "alone: XFAIL"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct run r;
		build(&r, cases[i].cells, 2);
		char yaml[512];
		snprintf(yaml, sizeof(yaml), "%s%s}]", RATIO, cases[i].extra);
		struct expect_result res;
		const struct expect_row *row = eval(&r, yaml, &res);
		const char *note = row->note ? row->note : "";
		if (row->status != cases[i].st ||
		    (cases[i].reason ? strncmp(note, cases[i].reason, strlen(cases[i].reason)) != 0
		                     : row->note != NULL))
			fail_msg("case %zu: got %s \"%s\", want %s \"%s\"", i,
			         expect_status_name(row->status), note, expect_status_name(cases[i].st),
			         cases[i].reason ? cases[i].reason : "");
		assert_int_equal(res.count[cases[i].st], 1);
		expect_result_free(&res);
		run_free(&r);
	}
}

/* An order and a ratio between two metrics of each cell are judged the same. */
static void test_order_and_metrics(void **state)
{
	(void)state;
	const struct tcell cells[] = {{"separate", "on", 66, 0.42, 30, 10, 0},
	                              {"data", "on", 100, 0.95, 30, 10, 0}};
	struct run r;
	build(&r, cells, 2);
	struct expect_result res;
	const struct expect_row *row =
	    eval(&r, "expect: [{order: [{wal: separate}, \"<\", {wal: data}], metric: load.tps}]", &res);
	assert_int_equal(row->status, EXPECT_INCONCLUSIVE);
	expect_result_free(&res);
	row = eval(&r, "expect: [{ratio: {of: load.tps, to: load.sys_idle_pct, where: {wal: data}}, min: 1}]",
	           &res);
	assert_int_equal(row->status, EXPECT_PASS);
	expect_result_free(&res);
	row = eval(&r,
	           "expect: [{ratio: {of: load.tps, to: load.sys_idle_pct, where: {wal: separate}}, min: 1}]",
	           &res);
	assert_int_equal(row->status, EXPECT_INCONCLUSIVE);
	expect_result_free(&res);
	run_free(&r);
}

/* min:/max: instead of published and tolerance; INCONCLUSIVE is no strict
 * failure; roles and expect.json's rows. */
static void test_bounds_roles_json(void **state)
{
	(void)state;
	const struct tcell cells[] = {{"separate", "off", 95, NAN, 30, 10, 0},
	                              {"data", "on", 100, 0.30, 30, 10, 0}};
	struct run r;
	build(&r, cells, 2);
	struct expect_result res;
	/* the control: without the model separate/data stays >= 0.9 */
	const struct expect_row *row =
	    eval(&r,
	         "expect:\n"
	         "  - {ratio: {of: load.tps, where: {wal: separate}, to: {wal: data}}, min: "
	         "0.9, role: control, bind: none, note: c}\n"
	         "  - {ratio: {of: load.tps, where: {wal: separate}, to: {wal: data}}, max: "
	         "0.9, strict: true, bind: none}\n"
	         "  - {ratio: {of: load.tps, where: {wal: separate}, to: {wal: data}}, min: "
	         "0.5, max: 0.9, bind: none}\n"
	         "  - {ratio: {of: load.tps, where: {wal: separate}, to: {wal: data}}, min: "
	         "0.9, strict: true}\n"
	         "  - {where: {wal: data}, load.tps: {min: 90}, role: self-test}\n"
	         "  - {where: {wal: data}, load.tps: {max: 90}}\n",
	         &res);
	assert_int_equal(res.n, 6);
	assert_int_equal(row->status, EXPECT_PASS);
	assert_int_equal(row->role, EXPECT_CONTROL);
	assert_true(isnan(row->expected));
	assert_true(row->lower == 0.9 && isinf(row->upper));
	assert_int_equal(res.rows[1].status, EXPECT_FAIL);         /* 0.95 > max 0.9, bind: none */
	assert_int_equal(res.rows[1].role, EXPECT_HEADLINE);       /* the default of a shape check */
	assert_int_equal(res.rows[2].status, EXPECT_FAIL);         /* within neither */
	assert_int_equal(res.rows[3].status, EXPECT_INCONCLUSIVE); /* data's model at 30 % */
	assert_true(res.rows[3].strict && !expect_row_strict_fail(&res.rows[3]));
	assert_int_equal(res.nstrict, 1); /* row 1 only */
	assert_int_equal(res.rows[4].status, EXPECT_PASS);
	assert_int_equal(res.rows[4].role, EXPECT_SELF_TEST);
	assert_int_equal(res.rows[5].status, EXPECT_FAIL);
	assert_int_equal(res.rows[5].role, EXPECT_INFO); /* the default of an absolute check */

	json_t *arr = expect_json_rows(&r, &res);
	assert_int_equal(json_array_size(arr), 6);
	json_t *o = json_array_get(arr, 0);
	assert_int_equal(json_integer_value(json_object_get(o, "n")), 1);
	assert_string_equal(json_string_value(json_object_get(o, "role")), "control");
	assert_string_equal(json_string_value(json_object_get(o, "kind")), "shape");
	assert_string_equal(json_string_value(json_object_get(o, "status")), "PASS");
	assert_true(json_is_null(json_object_get(o, "published")) && json_is_null(json_object_get(o, "hi")));
	assert_true(json_real_value(json_object_get(o, "lo")) == 0.9);
	assert_true(json_is_null(json_object_get(o, "reason")) && json_is_null(json_object_get(o, "cell")));
	assert_string_equal(json_string_value(json_object_get(o, "note")), "c");
	o = json_array_get(arr, 3);
	assert_string_equal(json_string_value(json_object_get(o, "status")), "INCONCLUSIVE");
	assert_true(strncmp(json_string_value(json_object_get(o, "reason")),
	                    "models did not bind: walfs at 30 %", 34) == 0);
	o = json_array_get(arr, 4);
	assert_string_equal(json_string_value(json_object_get(o, "kind")), "absolute");
	assert_int_equal(json_integer_value(json_object_get(o, "cell")), 1);
	assert_int_equal(json_integer_value(json_object_get(o, "lo")), 90);
	json_decref(arr);
	expect_result_free(&res);
	run_free(&r);
}

static void test_bind_parse(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		double thr; /* NaN: refused */
	} cases[] = {{"80%", 0.8}, {"0.5", 0.5},  {"100%", 1},  {"none", 0},   {"1", 1},
	             {"0", NAN},   {"120%", NAN}, {"-5%", NAN}, {"lots", NAN}, {"80 %", NAN}};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct diag d;
		diag_init(&d);
		struct node *n = node_new_scalar(cases[i].text, NULL);
		double thr = -1;
		int rc = expect_bind_parse(n, &thr, &d);
		if (isnan(cases[i].thr) ? rc == 0 : rc != 0 || fabs(thr - cases[i].thr) > 1e-12)
			fail_msg("bind: %s: rc %d thr %g", cases[i].text, rc, thr);
		node_free(n);
		diag_free(&d);
	}
	double thr = 0;
	assert_int_equal(expect_bind_parse(NULL, &thr, NULL), 0);
	assert_true(thr == EXPECT_BIND_DEFAULT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_verdicts),
	    cmocka_unit_test(test_order_and_metrics),
	    cmocka_unit_test(test_bounds_roles_json),
	    cmocka_unit_test(test_bind_parse),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

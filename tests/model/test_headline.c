/* test_headline: the one rule of a step's headline metrics (model/headline.h,
 * issue 27): io by pattern and block size, pgbench, exec, the step's own
 * `headline:`, results from before the rule, and the names `check` knows
 * for `headline:` (run/ref_check.c, the workloads' tables of metrics).
 * Each workload's rule is its own (workload_metrics.headline), registered
 * by validators_register as at start (issue 30); a results.json written by
 * the version before that keeps its headlines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cell_summary.h"
#include "diag.h"
#include "headline.h"
#include "io_metrics.h"
#include "ref_check.h"
#include "result.h"
#include "results_read.h"
#include "spec_load.h"
#include "test_util.h"
#include "validators.h"
#include "workload_table.h"

/* An io result with the usual figures, and its rw and bs infos when given. */
static void io_result(struct step_result *r, const char *rw, const char *bs)
{
	result_init(r, "s", "io");
	static const char *const names[] = {"bytes",   "seconds",      "mb_s",
	                                    "iops",    "lat_p50_us",   "lat_p99_us",
	                                    "cpu_usr", "sys_busy_pct", "disk_util_pct"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		result_metric(r, names[i], 1, "");
	if (rw)
		result_info(r, "rw", "%s", rw);
	if (bs)
		result_info(r, "bs", "%s", bs);
}

/* The names, space-separated. */
static const char *names_of(const struct step_result *r)
{
	static char buf[512];
	const char *h[HEADLINE_MAX];
	size_t n = headline_names(r, h, HEADLINE_MAX), used = 0;
	buf[0] = 0;
	for (size_t i = 0; i < n; i++)
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%s", i ? " " : "", h[i]);
	return buf;
}

static void test_io(void **state)
{
	(void)state;
	static const struct {
		const char *rw, *bs, *want;
	} cases[] = {
	    {"randread", "4096", "iops lat_p99_us"}, {"randwrite", "65536", "iops lat_p99_us"},
	    {"randrw", "8192", "iops lat_p99_us"},   {"randread", "131072", "mb_s lat_p99_us"},
	    {"read", "4096", "mb_s lat_p99_us"},     {"write", "1048576", "mb_s lat_p99_us"},
	    {"randtrim", "4096", "iops lat_p99_us"}, {NULL, NULL, "mb_s lat_p99_us"}, /* before the rule */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct step_result r;
		io_result(&r, cases[i].rw, cases[i].bs);
		assert_string_equal(names_of(&r), cases[i].want);
		result_free(&r);
	}
	assert_true(io_headline_by_iops(true, 65536));
	assert_false(io_headline_by_iops(true, 65537));
	assert_false(io_headline_by_iops(false, 4096));
}

static void test_other_kinds(void **state)
{
	(void)state;
	struct step_result r;
	result_init(&r, "ro", "pgbench");
	result_metric(&r, "transactions", 1, "");
	result_metric(&r, "tps", 1, "tps");
	result_metric(&r, "lat_p50_ms", 1, "ms");
	result_metric(&r, "lat_p99_ms", 1, "ms");
	assert_string_equal(names_of(&r), "tps lat_p99_ms");
	result_free(&r);

	result_init(&r, "x", "exec");
	result_metric(&r, "exit_status", 0, "");
	result_metric(&r, "elapsed_s", 1, "s");
	result_metric(&r, "sys_busy_pct", 1, "%");
	assert_string_equal(names_of(&r), "elapsed_s"); /* exec without a parser: its duration */
	result_metric(&r, "bytes", 1, "");
	assert_string_equal(names_of(&r), "bytes"); /* its parser's first metric */
	result_metric(&r, "mb_s", 1, "MB/s");
	assert_string_equal(names_of(&r), "mb_s"); /* ... unless its parser gave a rate */
	result_metric(&r, "tps", 1, "tps");
	assert_string_equal(names_of(&r), "tps");
	result_free(&r);

	result_init(&r, "m", "io"); /* metadata operations */
	result_metric(&r, "ops", 1, "");
	result_metric(&r, "ops_s", 1, "ops/s");
	result_metric(&r, "lat_p99_us", 1, "us");
	assert_string_equal(names_of(&r), "ops_s lat_p99_us");
	result_free(&r);
	assert_int_equal(headline_names(NULL, NULL, 0), 0);
}

static void test_step_option(void **state)
{
	(void)state;
	struct step_result r;
	io_result(&r, "randread", "4096");
	result_info(&r, "headline", "lat_p99_us mb_s");
	assert_string_equal(names_of(&r), "lat_p99_us mb_s");
	/* a name the step did not give is left out; none given: the rule */
	result_info(&r, "headline", "nosuch lat_p50_us");
	assert_string_equal(names_of(&r), "lat_p50_us");
	result_info(&r, "headline", "nosuch");
	assert_string_equal(names_of(&r), "iops lat_p99_us");
	const char *h[1];
	result_info(&r, "headline", "lat_p99_us mb_s");
	assert_int_equal(headline_names(&r, h, 1), 1); /* max is kept */
	assert_string_equal(h[0], "lat_p99_us");
	result_free(&r);
}

/* step_headlines (cell_summary.h) is the same rule over a summary. */
static void test_summary(void **state)
{
	(void)state;
	struct step_result first;
	io_result(&first, "randread", "4096");
	struct metric_summary m[3] = {{.name = "mb_s"}, {.name = "iops"}, {.name = "lat_p99_us"}};
	struct step_summary ss = {.step = "rr", .workload = "io", .first = &first, .m = m, .nm = 3};
	const struct metric_summary *h[HEADLINE_MAX];
	assert_int_equal(step_headlines(&ss, h), 2);
	assert_string_equal(h[0]->name, "iops");
	assert_string_equal(h[1]->name, "lat_p99_us");
	assert_true(step_is_headline(&ss, "iops"));
	assert_false(step_is_headline(&ss, "mb_s"));
	result_free(&first);
}

/* A kind nobody registered gets the generic rule; a registered rule is
 * the kind's, whatever the generic one would say; the first of two
 * registrations of a name stays. */
static size_t lat_first(const struct step_result *r, const char **out, size_t max)
{
	size_t n = 0;
	headline_add(r, "lat_p50_us", out, &n, max);
	headline_add(r, "nosuch", out, &n, max);     /* left out: r has none */
	headline_add(r, "lat_p50_us", out, &n, max); /* once */
	return n;
}

static size_t nothing(const struct step_result *r, const char **out, size_t max)
{
	(void)r, (void)out, (void)max;
	return 0;
}

static void test_rules(void **state)
{
	(void)state;
	struct step_result r;
	result_init(&r, "s", "newkind");
	result_metric(&r, "iops", 1, "");
	result_metric(&r, "mb_s", 1, "");
	result_metric(&r, "lat_p50_us", 1, "");
	result_metric(&r, "lat_p99_us", 1, "");
	result_metric(&r, "seconds", 1, "s");
	assert_string_equal(names_of(&r), "mb_s lat_p99_us"); /* generic */
	assert_int_equal(headline_add_rule("newkind", lat_first), 0);
	assert_int_equal(headline_add_rule("newkind", nothing), 0); /* kept: the first */
	assert_string_equal(names_of(&r), "lat_p50_us");
	result_info(&r, "headline", "iops");
	assert_string_equal(names_of(&r), "iops"); /* the step's own still wins */
	result_free(&r);
	assert_int_equal(headline_add_rule("nothing", nothing), 0);
	result_init(&r, "s", "nothing");
	result_metric(&r, "mb_s", 1, "");
	result_metric(&r, "seconds", 1, "s");
	assert_string_equal(names_of(&r), "seconds"); /* a rule that gives none: a time */
	result_free(&r);
	assert_int_equal(headline_add_rule(NULL, nothing), -EINVAL);
	assert_int_equal(headline_add_rule("x", NULL), -EINVAL);
}

/* Every workload of the table states its rule (the io, exec and pgbench
 * branches above are theirs: model/headline.c names no workload). */
static void test_every_workload_has_a_rule(void **state)
{
	(void)state;
	const struct workload_ops *const *all = workload_all();
	for (size_t i = 0; all[i]; i++) {
		assert_non_null(all[i]->metrics);
		assert_non_null(all[i]->metrics->headline);
	}
}

/* results.json written by 46f7082, before the rules moved into the
 * workloads (tests/model/headline-before): the same headlines as that
 * version gave it, by the step results and by their summaries. */
static void test_results_before(void **state)
{
	(void)state;
	static const struct {
		const char *step, *want;
	} cases[] = {
	    {"rr", "iops lat_p99_us"},
	    {"big", "mb_s lat_p99_us"},
	    {"seq", "mb_s lat_p99_us"},
	    {"meta", "ops_s lat_p99_us"},
	    {"mine", "lat_p99_us iops"},
	    {"x", "elapsed_s"},
	    {"xr", "iops"},
	    {"xf", "files lat_p99_ms"},
	    {"ro", "tps lat_p99_ms"},
	};
	char path[4096];
	snprintf(path, sizeof(path), "%s/tests/model/headline-before/results.json",
	         getenv("BENCHGRID_SRC") ? getenv("BENCHGRID_SRC") : ".");
	struct run run;
	struct diag d;
	diag_init(&d);
	assert_int_equal(results_read_json(&run, path, &d), 0);
	assert_int_equal(run.ncells, 1);
	const struct run_cell *c = &run.cells[0];
	assert_int_equal(c->nreps, 1);
	assert_int_equal(c->reps[0].nsteps, sizeof(cases) / sizeof(cases[0]));
	struct cell_summary *sum = run_cell_summarize(c);
	assert_non_null(sum);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct step_result *r = &c->reps[0].steps[i];
		assert_string_equal(r->step, cases[i].step);
		assert_string_equal(names_of(r), cases[i].want);
		const struct step_summary *ss = cell_summary_step(sum, cases[i].step);
		assert_non_null(ss);
		const struct metric_summary *h[HEADLINE_MAX];
		size_t n = step_headlines(ss, h);
		char got[256] = "";
		for (size_t k = 0, used = 0; k < n; k++)
			used += (size_t)snprintf(got + used, sizeof(got) - used, "%s%s", k ? " " : "",
			                         h[k]->name);
		assert_string_equal(got, cases[i].want);
	}
	cell_summary_free(sum);
	run_free(&run);
	diag_free(&d);
}

/* `check` of a step's `headline:` names (run/ref_check.c): errors of the
 * scenario yaml, "" when it has none. */
static char errs[4096];
static const char *check_errors(const char *yaml)
{
	struct diag d;
	diag_init(&d);
	struct node *root = spec_load_string("h.yaml", yaml, &d);
	assert_non_null(root);
	int rc = ref_check(root, root, &d);
	snprintf(errs, sizeof(errs), "%s", diag_text(&d));
	assert_true(rc == 0 ? errs[0] == 0 : errs[0] != 0);
	node_free(root);
	diag_free(&d);
	return errs;
}

/* The names each kind's table gives (workloads' *_metrics.c), those every
 * step carries (monitor, device models), the server activity's with
 * pgbench and exec steps, exec's parser's, and the hooks'. */
static void test_check_known(void **state)
{
	(void)state;
	assert_string_equal(check_errors("steps:\n"
	                                 "  - name: rr\n"
	                                 "    headline: [iops, lat_p999_us, read.iops, write.lat_p99_us,\n"
	                                 "               sched_lat_p99_us, disk_util_pct, sys_busy_pct,\n"
	                                 "               disk.data.util_pct, model.m.utilisation]\n"
	                                 "    io: {rw: randrw, bs: 4k, size: 1M}\n"
	                                 "  - name: ro\n"
	                                 "    headline: [stmt3_ms, pg_tps, init_s, tps]\n"
	                                 "    pgbench: {clients: 1}\n"
	                                 "  - name: dd\n"
	                                 "    headline: [whatever_the_tool_prints, pg_tps]\n"
	                                 "    exec: {command: \"true\", parse: dd}\n"
	                                 "  - name: x\n"
	                                 "    headline: [elapsed_s, exit_status]\n"
	                                 "    exec: {command: \"true\"}\n"),
	                    "");
	/* a hook's metric, by its literal name, on any step */
	assert_string_equal(
	    check_errors("steps:\n"
	                 "  - name: x\n"
	                 "    headline: [files_per_s]\n"
	                 "    exec: {command: \"true\"}\n"
	                 "hooks: |\n"
	                 "  function after_step(s, r) r:metric(\"files_per_s\", 1, \"\") end\n"),
	    "");
	/* a hook naming metrics at run time, or in a file: any name */
	assert_string_equal(check_errors("steps:\n"
	                                 "  - name: rr\n"
	                                 "    headline: [anything]\n"
	                                 "    io: {rw: read, bs: 4k, size: 1M}\n"
	                                 "hooks: |\n"
	                                 "  function after_step(s, r) r:metric(s .. \"_x\", 1, \"\") end\n"),
	                    "");
}

/* What no table gives is an error at the name, with a close name. */
static void test_check_unknown(void **state)
{
	(void)state;
	const char *e = check_errors("steps:\n"
	                             "  - name: rr\n"
	                             "    headline: [IOPS, lat_p99_ms, read.tps, pg_tps]\n"
	                             "    io: {rw: randrw, bs: 4k, size: 1M}\n"
	                             "  - name: ro\n"
	                             "    headline: [lat_p99_us]\n"
	                             "    pgbench: {clients: 1}\n"
	                             "  - name: x\n"
	                             "    headline: [anything, files_per_s]\n"
	                             "    exec: {command: \"true\"}\n"
	                             "hooks: |\n"
	                             "  function after_step(s, r) r:metric(\"files_per_s\", 1, \"\") end\n");
	assert_non_null(strstr(e, "h.yaml:3:16: error: step.headline: 'IOPS' is not a metric of io steps "
	                          "(did you mean iops?)"));
	assert_non_null(
	    strstr(e, "h.yaml:3:22: error: step.headline: 'lat_p99_ms' is not a metric of io steps"));
	assert_non_null(
	    strstr(e, "h.yaml:3:34: error: step.headline: 'read.tps' is not a metric of io steps"));
	/* the server activity comes with pgbench and exec steps only */
	assert_non_null(strstr(e, "h.yaml:3:44: error: step.headline: 'pg_tps' is not a metric of io steps"));
	assert_non_null(
	    strstr(e, "h.yaml:6:16: error: step.headline: 'lat_p99_us' is not a metric of pgbench steps"));
	/* exec without parse: writes exit_status and elapsed_s */
	assert_non_null(
	    strstr(e, "h.yaml:9:16: error: step.headline: 'anything' is not a metric of exec steps"));
	assert_null(strstr(e, "files_per_s"));
}

/* The workloads' rules, as at start (cli/main.c). */
static int setup(void **state)
{
	(void)state;
	validators_register();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_io),
	    cmocka_unit_test(test_other_kinds),
	    cmocka_unit_test(test_step_option),
	    cmocka_unit_test(test_summary),
	    cmocka_unit_test(test_rules),
	    cmocka_unit_test(test_every_workload_has_a_rule),
	    cmocka_unit_test(test_results_before),
	    cmocka_unit_test(test_check_known),
	    cmocka_unit_test(test_check_unknown),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}

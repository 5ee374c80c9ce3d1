/* Unit tests: the noise watch's report reasons and thresholds
 * (rep_md_noise), the noise.* info a real sample of /proc gives (noise),
 * and when repeat: {until} has run a cell enough (repeat_until): headline
 * metrics, a constant metric, a noisy one, a metric missing. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "noise.h"
#include "rep_md_noise.h"
#include "repeat_until.h"
#include "validators.h"

static void test_reasons(void **state)
{
	(void)state;
	struct step_result r;
	char why[1024];
	result_init(&r, "s", "exec");
	rep_md_noise_reasons(&r, why, sizeof(why));
	assert_string_equal(why, ""); /* nothing recorded: nothing said */
	result_info(&r, "noise.cpus", "4");
	result_info(&r, "noise.load1_start", "3.9");
	result_info(&r, "noise.steal_pct", "5.0");
	result_info(&r, "noise.foreign_cpu_pct", "10.0");
	result_info(&r, "noise.psi_mem_some_avg10", "unavailable");
	rep_md_noise_reasons(&r, why, sizeof(why));
	assert_string_equal(why, ""); /* at the thresholds: quiet */
	result_info(&r, "noise.load1_start", "4.5");
	result_info(&r, "noise.foreign_cpu_pct", "31.5");
	result_info(&r, "noise.foreign_top", "%s", "yes (42) 25.0%");
	result_info(&r, "noise.steal_pct", "7.25");
	result_info(&r, "noise.psi_mem_some_avg10", "12.5");
	rep_md_noise_reasons(&r, why, sizeof(why));
	assert_non_null(strstr(why, "other processes used 32% of the CPUs, most yes (42) 25.0%"));
	assert_non_null(strstr(why, "CPU steal 7.2%"));
	assert_non_null(strstr(why, "memory pressure (PSI some avg10) 12.5%"));
	assert_non_null(strstr(why, "load average 4.50 on 4 CPUs"));
	result_free(&r);
}

static void test_noise_sample(void **state)
{
	(void)state;
	struct noise *n = noise_start();
	assert_non_null(n);
	noise_sample(n);
	struct step_result r;
	result_init(&r, "s", "exec");
	noise_stop(n, &r);
	static const char *const keys[] = {
	    "noise.cpus",      "noise.load1_start",     "noise.load1_max",
	    "noise.steal_pct", "noise.foreign_cpu_pct", "noise.psi_mem_some_avg10"};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		assert_non_null(result_info_get(&r, keys[i]));
	double load = strtod(result_info_get(&r, "noise.load1_start"), NULL);
	assert_true(load >= 0);
	result_free(&r);
}

/* A cell with one step "s.x" (workload w) per value of v; NaN: the metric
 * is missing from that repetition. */
static void make_cell(struct run_cell *c, const char *step, const char *workload, const char *metric,
                      const double *v, size_t n)
{
	run_cell_init(c);
	for (size_t k = 0; k < n; k++) {
		struct step_result r;
		result_init(&r, step, workload);
		result_metric(&r, "exit_status", 0, "");
		result_metric(&r, "elapsed_s", 1, "s");
		if (!isnan(v[k]))
			result_metric(&r, metric, v[k], "");
		result_metric(&r, "sys_busy_pct", 50 + (double)k, "%");
		run_cell_take_step(c, k, &r);
	}
}

static void test_converged(void **state)
{
	(void)state;
	struct repeat_spec rs = {.min = 3, .max = 10, .until_pct = 2};
	struct run_cell c;
	double worst;
	char name[128];
	static const double same[] = {100, 100, 100};
	make_cell(&c, "ro", "pgbench", "tps", same, 3);
	assert_true(repeat_converged(&rs, &c, &worst, name, sizeof(name)));
	assert_true(worst == 0);
	assert_string_equal(name, "ro.tps");
	run_cell_free(&c);
	/* within 2%: mean 100, s = 0.1, t(0.975, 4) = 2.776: half = 0.124 */
	static const double close[] = {100, 100.1, 99.9, 100.1, 99.9};
	make_cell(&c, "ro", "pgbench", "tps", close, 5);
	assert_true(repeat_converged(&rs, &c, &worst, name, sizeof(name)));
	assert_true(worst > 0.1 && worst < 0.2);
	run_cell_free(&c);
	static const double noisy[] = {50, 150, 100, 70};
	make_cell(&c, "ro", "pgbench", "tps", noisy, 4);
	assert_false(repeat_converged(&rs, &c, &worst, name, sizeof(name)));
	assert_true(worst > 2);
	run_cell_free(&c);
	/* the parser's metric of an exec step, not exit_status (constant) */
	static const double parsed[] = {5, 9, 1};
	make_cell(&c, "probe", "exec", "v", parsed, 3);
	assert_false(repeat_converged(&rs, &c, &worst, name, sizeof(name)));
	assert_string_equal(name, "probe.v");
	run_cell_free(&c);
	/* one sample of the metric: no interval, not converged */
	static const double missing[] = {5, NAN, NAN};
	make_cell(&c, "probe", "exec", "v", missing, 3);
	assert_false(repeat_converged(&rs, &c, &worst, name, sizeof(name)));
	assert_true(isnan(worst));
	run_cell_free(&c);
	/* metrics: named, a step name with a dot */
	char *m[] = {"a.b.mb_s"};
	struct repeat_spec named = {.min = 2, .max = 5, .until_pct = 3, .metrics = m, .nmetrics = 1};
	static const double io[] = {200, 201};
	make_cell(&c, "a.b", "io", "mb_s", io, 2);
	assert_false(repeat_converged(&named, &c, &worst, name, sizeof(name))); /* t(1) = 12.7: 3.2% */
	assert_string_equal(name, "a.b.mb_s");
	assert_true(worst > 3.1 && worst < 3.2);
	named.until_pct = 3.5;
	assert_true(repeat_converged(&named, &c, &worst, name, sizeof(name)));
	run_cell_free(&c);
}

static void test_headline(void **state)
{
	(void)state;
	struct step_result r;
	result_init(&r, "s", "exec");
	result_metric(&r, "exit_status", 0, "");
	result_metric(&r, "elapsed_s", 1, "s");
	assert_string_equal(repeat_headline_metric(&r), "elapsed_s");
	result_metric(&r, "sys_busy_pct", 1, "%");
	/* the headline rule (headline.h): an exec step's parsed rate (tps,
	 * then iops, then mb_s), else its parser's first metric */
	result_metric(&r, "bytes", 1, "");
	assert_string_equal(repeat_headline_metric(&r), "bytes");
	result_metric(&r, "mb_s", 1, "MB/s");
	assert_string_equal(repeat_headline_metric(&r), "mb_s");
	result_metric(&r, "iops", 1, "");
	assert_string_equal(repeat_headline_metric(&r), "iops");
	result_free(&r);
}

int main(void)
{
	validators_register(); /* the workloads' headline rules, as at start */
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_reasons),
	    cmocka_unit_test(test_noise_sample),
	    cmocka_unit_test(test_converged),
	    cmocka_unit_test(test_headline),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_compare_metric: one metric of a cell compared between two runs:
 * which test, which verdict, which direction, the --fail-above rule. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_metric.h"
#include "compare_render.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_rate_slower(void **state)
{
	/* tps fell from ~1000 to ~900, no overlap: U = 25 for A, exact p = 2/252 */
	const double a[] = {1000, 1004, 998, 1002, 1001}, b[] = {900, 903, 899, 902, 901};
	struct cmp_metric m;
	cmp_metric_compute(a, N(a), b, N(b), "tps", 0.05, &m);
	assert_int_equal(m.test, CMP_TEST_MW);
	assert_true(fabs(m.p - 2.0 / 252) < 1e-12);
	assert_int_equal(m.dir, 1);
	assert_int_equal(m.verdict, CMP_SLOWER);
	assert_true(fabs(m.ratio - 901.0 / 1001) < 1e-12);
	assert_true(m.lo <= m.ratio && m.ratio <= m.hi && m.hi < 1);
	assert_true(fabs(m.worse - (1 - 901.0 / 1001)) < 1e-12); /* ~10% worse */
	assert_true(cmp_metric_fails(&m, 0.05));
	assert_false(cmp_metric_fails(&m, 0.15));
	/* the other way round: faster, never a failure */
	cmp_metric_compute(b, N(b), a, N(a), "tps", 0.05, &m);
	assert_int_equal(m.verdict, CMP_FASTER);
	assert_false(cmp_metric_fails(&m, 0));
	/* alpha below the smallest possible p: no significant difference */
	cmp_metric_compute(a, N(a), b, N(b), "tps", 0.005, &m);
	assert_int_equal(m.verdict, CMP_SAME);
	assert_false(cmp_metric_fails(&m, 0));
	(void)state;
}

static void test_latency_direction(void **state)
{
	/* a latency that grew is slower; a duration that shrank is faster */
	const double a[] = {10, 11, 10.5, 10.2, 10.8}, b[] = {20, 21, 20.5, 20.2, 20.8};
	struct cmp_metric m;
	cmp_metric_compute(a, N(a), b, N(b), "us", 0.05, &m);
	assert_int_equal(m.dir, -1);
	assert_int_equal(m.verdict, CMP_SLOWER);
	assert_true(fabs(m.worse - (20.5 / 10.5 - 1)) < 1e-12);
	cmp_metric_compute(b, N(b), a, N(a), "s", 0.05, &m);
	assert_int_equal(m.verdict, CMP_FASTER);
	/* no direction (%, counts): higher / lower, never a failure */
	cmp_metric_compute(a, N(a), b, N(b), "%", 0.05, &m);
	assert_int_equal(m.dir, 0);
	assert_int_equal(m.verdict, CMP_HIGHER);
	assert_false(cmp_metric_fails(&m, 0));
	cmp_metric_compute(b, N(b), a, N(a), "", 0.05, &m);
	assert_int_equal(m.verdict, CMP_LOWER);
	(void)state;
}

static void test_slower_from_zero(void **state)
{
	/* A latency of 0 that grew: no ratio, but significantly slower, and
	 * worse than any threshold. */
	const double a[] = {0, 0, 0, 0, 0}, b[] = {5, 5, 5, 6, 7};
	struct cmp_metric m;
	cmp_metric_compute(a, N(a), b, N(b), "ms", 0.05, &m);
	assert_int_equal(m.verdict, CMP_SLOWER);
	assert_true(m.p < 0.05);
	assert_false(isfinite(m.ratio));
	assert_true(isinf(m.worse) && m.worse > 0);
	assert_true(cmp_metric_fails(&m, 0.05));
	assert_true(cmp_metric_fails(&m, 1000));
	/* the other way round: faster, not a failure */
	cmp_metric_compute(b, N(b), a, N(a), "ms", 0.05, &m);
	assert_int_equal(m.verdict, CMP_FASTER);
	assert_false(cmp_metric_fails(&m, 0));
	(void)state;
}

/* A cell of 5 repetitions of the step "nap" with the metrics tps (unit
 * "", no direction) and lat_p99_ms (ms). */
struct fake_cell {
	struct metric m[5][2];
	struct step_result sr[5];
	struct run_rep reps[5];
	struct run_cell c;
};

static void fake_cell(struct fake_cell *f, const char *id, const double *tps, const double *lat)
{
	memset(f, 0, sizeof(*f));
	for (int i = 0; i < 5; i++) {
		f->m[i][0] = (struct metric){.name = (char *)"tps", .unit = (char *)"", .value = tps[i]};
		f->m[i][1] =
		    (struct metric){.name = (char *)"lat_p99_ms", .unit = (char *)"ms", .value = lat[i]};
		f->sr[i].step = (char *)"nap";
		f->sr[i].m = f->m[i];
		f->sr[i].nm = 2;
		f->reps[i].steps = &f->sr[i];
		f->reps[i].nsteps = 1;
	}
	snprintf(f->c.id, sizeof(f->c.id), "%s", id);
	f->c.reps = f->reps;
	f->c.nreps = 5;
}

/* cmp_render's output for one pair into *text (malloc'd). */
static void render(const struct run_cell *a, const struct run_cell *b, const char *label, const char *head,
                   char **text)
{
	struct cmp_pair p = {.a = a, .b = b, .label = (char *)label, .row_head = (char *)head};
	struct compare_opts o;
	compare_opts_init(&o);
	size_t len = 0;
	FILE *f = open_memstream(text, &len);
	assert_non_null(f);
	assert_int_equal(cmp_render(f, &p, 1, &o, "# | id | cell", 3, NULL), 0);
	fclose(f);
}

static void test_verdict_line_names(void **state)
{
	/* slower latency and a higher tps (no direction): the verdict line
	 * says slower, and names the tps change "higher" as the table does */
	const double ta[] = {100, 101, 102, 103, 104}, la[] = {10, 10, 10, 10, 10};
	const double tb[] = {200, 201, 202, 203, 204}, lb[] = {20, 21, 22, 23, 24};
	struct fake_cell *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	assert_true(a && b);
	fake_cell(a, "c1", ta, la);
	fake_cell(b, "c1", tb, lb);
	char *t = NULL;
	render(&a->c, &b->c, "0 `c1` k=x", "0 | c1 | k=x", &t);
	const char *line = strstr(t, "- 0 `c1` k=x: **slower**: ");
	assert_non_null(line);
	const char *eol = strchr(line, '\n');
	const char *lat = strstr(line, "nap.lat_p99_ms +120.0%"),
	           *tps = strstr(line, "; higher nap.tps +98.0%");
	assert_true(lat && lat < eol);
	if (!tps || tps > eol)
		fail_msg("verdict line: %.*s", (int)(eol - line), line);
	free(t);
	/* a latency from 0: no percentage, "from 0 to" B's median */
	const double z[] = {0, 0, 0, 0, 0}, l5[] = {5, 5, 5, 6, 7};
	fake_cell(a, "c1", ta, z);
	fake_cell(b, "c1", ta, l5);
	t = NULL;
	render(&a->c, &b->c, "0 `c1` k=x", "0 | c1 | k=x", &t);
	if (!strstr(t, "- 0 `c1` k=x: **slower**: nap.lat_p99_ms from 0 to 5 (p = 0.0"))
		fail_msg("from 0: %s", t);
	free(t);
	free(a);
	free(b);
	(void)state;
}

static void test_small_samples(void **state)
{
	struct cmp_metric m;
	/* 3 against 3: Welch's t, no ratio interval */
	const double a[] = {100, 101, 99}, b[] = {80, 81, 79};
	cmp_metric_compute(a, N(a), b, N(b), "MB/s", 0.05, &m);
	assert_int_equal(m.test, CMP_TEST_WELCH);
	assert_int_equal(m.verdict, CMP_SLOWER);
	assert_true(isfinite(m.ratio) && isnan(m.lo) && isnan(m.hi));
	assert_true(cmp_metric_fails(&m, 0.1) && !cmp_metric_fails(&m, 0.25));
	/* NaN samples (a repetition without the metric) do not count: 5 vs 4 */
	const double c[] = {100, NAN, 101, 99, 100.5, 99.5}, d[] = {100, 101, 99, 100.2};
	cmp_metric_compute(c, N(c), d, N(d), "tps", 0.05, &m);
	assert_int_equal(m.na, 5);
	assert_int_equal(m.nb, 4);
	assert_int_equal(m.test, CMP_TEST_WELCH);
	assert_int_equal(m.verdict, CMP_SAME);
	/* one sample on a side: no test */
	cmp_metric_compute(a, 1, b, N(b), "tps", 0.05, &m);
	assert_int_equal(m.test, CMP_TEST_NONE);
	assert_int_equal(m.verdict, CMP_UNTESTED);
	assert_true(isnan(m.p));
	assert_string_equal(cmp_verdict_name(m.verdict), "too few repetitions");
	(void)state;
}

static void test_identical(void **state)
{
	/* the same samples: p = 1, ratio 1 */
	const double a[] = {5, 6, 7, 8, 9, 10};
	struct cmp_metric m;
	cmp_metric_compute(a, N(a), a, N(a), "tps", 0.05, &m);
	assert_int_equal(m.verdict, CMP_SAME);
	assert_true(fabs(m.p - 1) < 1e-12);
	assert_true(m.ratio == 1);
	assert_string_equal(cmp_verdict_name(m.verdict), "no significant difference");
	(void)state;
}

static void test_parse_percent(void **state)
{
	double f;
	assert_true(cmp_parse_percent("5%", &f) && fabs(f - 0.05) < 1e-15);
	assert_true(cmp_parse_percent("12.5", &f) && fabs(f - 0.125) < 1e-15);
	assert_true(cmp_parse_percent("0%", &f) && f == 0);
	assert_false(cmp_parse_percent("", &f));
	assert_false(cmp_parse_percent("x", &f));
	assert_false(cmp_parse_percent("5%%", &f));
	assert_false(cmp_parse_percent("-3%", &f));
	assert_false(cmp_parse_percent("nan", &f));
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_rate_slower),        cmocka_unit_test(test_latency_direction),
	    cmocka_unit_test(test_small_samples),      cmocka_unit_test(test_identical),
	    cmocka_unit_test(test_parse_percent),      cmocka_unit_test(test_slower_from_zero),
	    cmocka_unit_test(test_verdict_line_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

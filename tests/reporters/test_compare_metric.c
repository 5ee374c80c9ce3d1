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

#include <sys/stat.h>
#include <unistd.h>

#include "compare.h"
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
	const char *line = strstr(t, "- 0 `c1` k=x: **slower** (within-run noise only): ");
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
	if (!strstr(t,
	            "- 0 `c1` k=x: **slower** (within-run noise only): nap.lat_p99_ms from 0 to 5 (p = 0.0"))
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

static void test_between_runs(void **state)
{
	/* Within one run the repetitions barely move (1%), so 10% between two
	 * runs is "significant" (p = 0.0079); the store's earlier runs vary by
	 * about 10% (log sd 0.0794), so against them it is not. */
	const double a[] = {1000, 1004, 998, 1002, 1001}, b[] = {900, 903, 899, 902, 901};
	const double ra[] = {1001}, rb[] = {901}, h[] = {1000, 1150, 950, 1080, 1010};
	struct stats_group g = {h, N(h)};
	struct cmp_metric m;
	cmp_metric_compute(a, N(a), b, N(b), "tps", 0.05, &m);
	assert_int_equal(m.noise, CMP_NOISE_WITHIN);
	assert_int_equal(m.verdict, CMP_SLOWER);
	/* within-run only: over the threshold, but the gate holds it unless trusted */
	assert_true(cmp_metric_fails(&m, 0.05));
	assert_false(cmp_metric_gates(&m, 0.05, false));
	assert_true(cmp_metric_gates(&m, 0.05, true));
	/* fewer than CMP_HIST_MIN earlier runs and one run per side: unchanged */
	struct stats_group g2 = {h, 2};
	cmp_metric_between(&m, ra, 1, rb, 1, &g2, 1, 0.05);
	assert_int_equal(m.noise, CMP_NOISE_WITHIN);
	assert_int_equal(m.test, CMP_TEST_MW);
	/* the store's 5 runs: t(runs), df 4, not significant */
	cmp_metric_between(&m, ra, 1, rb, 1, &g, 1, 0.05);
	assert_int_equal(m.noise, CMP_NOISE_STORE);
	assert_int_equal(m.test, CMP_TEST_RUNS);
	assert_int_equal(m.nhist, 5);
	assert_true(m.df == 4);
	assert_true(fabs(m.ratio - 901.0 / 1001) < 1e-12);
	assert_true(m.lo < 0.9 && m.hi > 1 && m.p > 0.05);
	assert_int_equal(m.verdict, CMP_SAME);
	assert_false(cmp_metric_gates(&m, 0.05, false));
	assert_string_equal(cmp_test_name(m.test), "t");
	/* a 2.5x slowdown against the same spread: slower, and it gates */
	const double slow[] = {400};
	cmp_metric_compute(a, N(a), b, N(b), "tps", 0.05, &m);
	cmp_metric_between(&m, ra, 1, slow, 1, &g, 1, 0.05);
	assert_int_equal(m.verdict, CMP_SLOWER);
	assert_true(m.p < 0.01);
	assert_true(fabs(m.worse - (1 - 400.0 / 1001)) < 1e-12);
	assert_true(cmp_metric_gates(&m, 0.5, false));
	/* several runs per side, no store: their own spread; the medians are
	 * the geometric means of the runs' */
	const double r3a[] = {1000, 1100, 950}, r3b[] = {980, 1050, 1010};
	cmp_metric_compute(a, N(a), b, N(b), "tps", 0.05, &m);
	cmp_metric_between(&m, r3a, 3, r3b, 3, NULL, 0, 0.05);
	assert_int_equal(m.noise, CMP_NOISE_RUNS);
	assert_true(m.runs_a == 3 && m.runs_b == 3 && m.df == 4);
	assert_true(fabs(m.med_a - cbrt(1000.0 * 1100 * 950)) < 1e-9);
	assert_true(fabs(m.ratio - m.med_b / m.med_a) < 1e-12);
	assert_int_equal(m.verdict, CMP_SAME);
	/* a latency: lower is better, a rise is slower */
	const double la[] = {10}, lb[] = {30}, lh[] = {10, 11, 9.5};
	struct stats_group lg = {lh, N(lh)};
	cmp_metric_compute(a, N(a), b, N(b), "us", 0.05, &m);
	cmp_metric_between(&m, la, 1, lb, 1, &lg, 1, 0.05);
	assert_int_equal(m.verdict, CMP_SLOWER);
	assert_true(fabs(m.worse - 2) < 1e-12);
	/* a value <= 0: no log scale, the within-run judgement stays */
	const double z[] = {0};
	cmp_metric_compute(a, N(a), b, N(b), "tps", 0.05, &m);
	cmp_metric_between(&m, z, 1, rb, 1, &g, 1, 0.05);
	assert_int_equal(m.noise, CMP_NOISE_WITHIN);
	(void)state;
}

/* A store with 5 earlier runs of every cell, for cmp_render. */
static int fake_history(void *ctx, const struct cmp_hist_key *k, double **v, size_t *n)
{
	const double *h = ctx;
	assert_string_equal(k->scenario, "scn");
	assert_string_equal(k->host, "h1");
	assert_int_equal(k->max, 5);
	*v = malloc(5 * sizeof(double));
	for (size_t i = 0; i < 5; i++)
		(*v)[i] = strcmp(k->metric, "tps") == 0 ? h[i] : h[i] / 100; /* the latency's */
	*n = 5;
	return 0;
}

static void test_render_noise(void **state)
{
	/* A latency 10% higher with repetitions that barely move: slower
	 * against within-run noise, held by the gate; with the store's 5
	 * earlier runs (10% apart), no significant difference, and the text
	 * says which. */
	const double ta[] = {1000, 1004, 998, 1002, 1001}, la[] = {10, 10.02, 9.98, 10.01, 9.99};
	const double lb[] = {11, 11.02, 10.98, 11.01, 10.99};
	const double h[] = {1000, 1150, 950, 1080, 1010};
	struct fake_cell *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	assert_true(a && b);
	fake_cell(a, "c1", ta, la);
	fake_cell(b, "c1", ta, lb);
	struct cmp_pair p = {
	    .a = &a->c, .b = &b->c, .label = (char *)"0 `c1` k=x", .row_head = (char *)"0 | c1 | k=x"};
	struct compare_opts o;
	compare_opts_init(&o);
	o.fail_above = 0.05;
	struct cmp_outcome res;
	char *t = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&t, &len);
	assert_int_equal(cmp_render(f, &p, 1, &o, "# | id | cell", 3, &res), 0);
	fclose(f);
	assert_false(res.failed);
	assert_int_equal(res.held, 1);
	if (!strstr(t, "- Noise: **within-run only** for 2 of 2 metrics") ||
	    !strstr(t,
	            "- 0 `c1` k=x: **slower** (within-run noise only): nap.lat_p99_ms +10.0% (p = 0.0079)") ||
	    !strstr(t, "| 0.0079 | U (within run) | slower |") || !strstr(t, "- Pass: ") ||
	    !strstr(t,
	            "- **Not failed:** 1 metric got worse by more than 5% with p < 0.05 against within-run "))
		fail_msg("within-run: %s", t);
	free(t);
	/* trusted: the same metric fails */
	o.trust_within = true;
	t = NULL;
	f = open_memstream(&t, &len);
	assert_int_equal(cmp_render(f, &p, 1, &o, "# | id | cell", 3, &res), 0);
	fclose(f);
	assert_true(res.failed);
	assert_int_equal(res.held, 0);
	if (!strstr(t, "- **Fail:** 1 metric got worse") || !strstr(t, "(noise: within run)\n"))
		fail_msg("trusted: %s", t);
	free(t);
	/* the store: between runs, not significant, nothing held */
	o.trust_within = false;
	struct cmp_history hist = {.values = fake_history, .ctx = (void *)h, .where = "test.db"};
	const char *skip[] = {"r1", "r2"};
	struct cmp_hist_ctx hc = {.scenario = "scn", .before = 1e9, .skip = skip, .nskip = 2};
	o.history = &hist;
	p.hist = &hc;
	p.host_a = p.host_b = "h1";
	t = NULL;
	f = open_memstream(&t, &len);
	assert_int_equal(cmp_render(f, &p, 1, &o, "# | id | cell", 3, &res), 0);
	fclose(f);
	assert_false(res.failed);
	assert_int_equal(res.held, 0);
	if (!strstr(t, "- Noise: 2 of 2 metrics judged against the spread between runs: the same cell's "
	               "earlier runs on the same host in the results store (test.db)") ||
	    !strstr(t,
	            "- 0 `c1` k=x: no significant difference (between runs: 5 earlier runs in the store)") ||
	    !strstr(t, "| t (store: 5 runs) | no significant difference |") || strstr(t, "within") ||
	    !strstr(t, "- Pass: "))
		fail_msg("store: %s", t);
	free(t);
	free(a);
	free(b);
	(void)state;
}

/* A run of scenario "scn" on host h1 started at `started`: one cell c1,
 * one step ro with tps (reps values v0, v1), in DIR/results.json. */
static void write_run(const char *dir, double started, double v0, double v1)
{
	assert_int_equal(mkdir(dir, 0700), 0);
	char path[512];
	snprintf(path, sizeof(path), "%s/results.json", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f,
	        "{\"format\": \"benchgrid-results\", \"version\": 1, \"tool\": \"0.1.0\","
	        " \"scenario\": {\"file\": \"s.yaml\", \"name\": \"scn\", \"description\": null, \"hash\": "
	        "\"abc\"},"
	        " \"started\": %.17g, \"finished\": %.17g, \"planned_cells\": 1, \"repeat\": 2,"
	        " \"warmup\": 0, \"environment\": {\"metrics\": {}, \"info\": {\"machine.host\": \"h1\"}},"
	        " \"report\": null, \"expect\": null, \"cells\": ["
	        "{\"index\": 0, \"id\": \"c1\", \"params\": {}, \"status\": \"ok\", \"error\": null,"
	        " \"started\": %.17g, \"elapsed\": 10, \"facts\": {\"metrics\": {}, \"info\": {}},"
	        " \"reps\": [[{\"name\": \"ro\", \"workload\": \"exec\", \"failed\": false, \"error\": null,"
	        " \"started\": %.17g, \"elapsed\": 1, \"metrics\": {\"tps\": {\"value\": %.17g, \"unit\": "
	        "\"tps\"}}}],"
	        " [{\"name\": \"ro\", \"workload\": \"exec\", \"failed\": false, \"error\": null,"
	        " \"started\": %.17g, \"elapsed\": 1, \"metrics\": {\"tps\": {\"value\": %.17g, \"unit\": "
	        "\"tps\"}}}]]}]}",
	        started, started + 100, started + 1, started + 2, v0, started + 3, v1);
	assert_int_equal(fclose(f), 0);
}

/* The store lookup's key: the latest `before` asked for, and how often. */
struct seen_before {
	double before;
	int calls;
};

static int before_history(void *ctx, const struct cmp_hist_key *k, double **v, size_t *n)
{
	struct seen_before *s = ctx;
	s->before = k->before;
	s->calls++;
	assert_string_equal(k->scenario, "scn");
	assert_string_equal(k->cell_id, "c1");
	*v = NULL;
	*n = 0;
	return 0;
}

static void test_history_before_baseline(void **state)
{
	/* The baseline's noise comes from runs started before the baseline
	 * (A), not before the later of A and B: runs of B's code made between
	 * them must not widen A's spread. Either order of start times. */
	char tmp[] = "/tmp/test_compare_metric.XXXXXX";
	assert_non_null(mkdtemp(tmp));
	char a1[600], a2[600], b1[600], b2[600];
	snprintf(a1, sizeof(a1), "%s/a1", tmp);
	snprintf(a2, sizeof(a2), "%s/a2", tmp);
	snprintf(b1, sizeof(b1), "%s/b1", tmp);
	snprintf(b2, sizeof(b2), "%s/b2", tmp);
	write_run(a1, 1700001000, 100, 101);
	write_run(a2, 1700000500, 100, 102);
	write_run(b1, 1700005000, 90, 91);
	write_run(b2, 1700006000, 90, 92);
	struct seen_before seen = {0};
	struct cmp_history hist = {.values = before_history, .ctx = &seen, .where = "test.db"};
	struct compare_opts o;
	compare_opts_init(&o);
	o.all = true;
	o.history = &hist;
	struct diag d;
	diag_init(&d);
	char *t = NULL;
	size_t len = 0;
	/* one run per side: A's start */
	FILE *f = open_memstream(&t, &len);
	const char *pa[] = {a1, a2}, *pb[] = {b1, b2};
	assert_int_equal(rep_compare_sides(pa, 1, pb, 1, &o, f, &d, NULL), 0);
	fclose(f);
	free(t);
	assert_true(seen.calls > 0);
	if (seen.before != 1700001000)
		fail_msg("one run per side: before %.17g, want A's start 1700001000", seen.before);
	/* several runs of A: the first of them to start */
	seen = (struct seen_before){0};
	t = NULL;
	f = open_memstream(&t, &len);
	assert_int_equal(rep_compare_sides(pa, 2, pb, 2, &o, f, &d, NULL), 0);
	fclose(f);
	free(t);
	assert_true(seen.calls > 0);
	if (seen.before != 1700000500)
		fail_msg("two runs per side: before %.17g, want A's first start 1700000500", seen.before);
	diag_free(&d);
	const char *rm[] = {a1, a2, b1, b2};
	for (size_t i = 0; i < N(rm); i++) {
		char p[700];
		snprintf(p, sizeof(p), "%s/results.json", rm[i]);
		unlink(p);
		rmdir(rm[i]);
	}
	rmdir(tmp);
	(void)state;
}

static void test_holm(void **state)
{
	/* Holm-Bonferroni: the i-th smallest p against alpha / (n - i),
	 * stopping at the first that is not below it */
	const double p1[] = {0.01, 0.04, 0.03, 0.005};
	bool rej[4];
	/* 0.005 < 0.0125, 0.01 < 0.0167, 0.03 >= 0.025: stop */
	assert_int_equal(cmp_holm(p1, 4, 0.05, rej), 2);
	assert_true(rej[0] && !rej[1] && !rej[2] && rej[3]);
	/* each below alpha alone, none after the correction */
	const double p2[] = {0.03, 0.04};
	assert_int_equal(cmp_holm(p2, 2, 0.05, rej), 0);
	assert_false(rej[0] || rej[1]);
	/* one metric: alpha itself, strictly below it as the verdicts */
	const double p3[] = {0.049}, p4[] = {0.05};
	assert_int_equal(cmp_holm(p3, 1, 0.05, rej), 1);
	assert_int_equal(cmp_holm(p4, 1, 0.05, rej), 0);
	assert_int_equal(cmp_holm(NULL, 0, 0.05, rej), 0);
	(void)state;
}

static void test_render_holm(void **state)
{
	/* Two cells whose latency is 10% higher, each p = 0.0079 (exact U, no
	 * overlap) against within-run noise, trusted: at alpha 0.01 each row
	 * is slower on its own, but Holm over the 2 metrics the gate judges
	 * needs 0.005 for the first: not failed. At alpha 0.02 both fail. */
	const double ta[] = {1000, 1004, 998, 1002, 1001}, la[] = {10, 10.02, 9.98, 10.01, 9.99};
	const double lb[] = {11, 11.02, 10.98, 11.01, 10.99};
	struct fake_cell *c = malloc(4 * sizeof(*c));
	assert_non_null(c);
	fake_cell(&c[0], "c1", ta, la);
	fake_cell(&c[1], "c1", ta, lb);
	fake_cell(&c[2], "c2", ta, la);
	fake_cell(&c[3], "c2", ta, lb);
	struct cmp_pair p[2] = {
	    {.a = &c[0].c, .b = &c[1].c, .label = (char *)"0 `c1`", .row_head = (char *)"0 | c1 | k=x"},
	    {.a = &c[2].c, .b = &c[3].c, .label = (char *)"1 `c2`", .row_head = (char *)"1 | c2 | k=y"}};
	struct compare_opts o;
	compare_opts_init(&o);
	o.fail_above = 0.05;
	o.trust_within = true;
	o.alpha = 0.01;
	struct cmp_outcome res;
	char *t = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&t, &len);
	assert_int_equal(cmp_render(f, p, 2, &o, "# | id | cell", 3, &res), 0);
	fclose(f);
	assert_false(res.failed);
	if (!strstr(t, "- Multiple tests: the gate judges 2 metrics; Holm-Bonferroni across them") ||
	    !strstr(t, "| 0.0079 | U (within run) | slower |") ||
	    !strstr(t, "- Pass: no metric got worse by more than 5% with p < 0.01 (Holm-Bonferroni)\n") ||
	    !strstr(t, "- **Not failed (multiple tests):** 2 metrics got worse by more than 5% with p < 0.01 "
	               "on their own, but not after Holm-Bonferroni across the 2 metrics judged:\n") ||
	    !strstr(t, "  - 1 `c2`: nap.lat_p99_ms +10.0%"))
		fail_msg("alpha 0.01: %s", t);
	free(t);
	o.alpha = 0.02;
	t = NULL;
	f = open_memstream(&t, &len);
	assert_int_equal(cmp_render(f, p, 2, &o, "# | id | cell", 3, &res), 0);
	fclose(f);
	assert_true(res.failed);
	if (!strstr(t,
	            "- **Fail:** 2 metrics got worse by more than 5% with p < 0.02 (Holm-Bonferroni):\n") ||
	    strstr(t, "multiple tests):**"))
		fail_msg("alpha 0.02: %s", t);
	free(t);
	free(c);
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
	    cmocka_unit_test(test_rate_slower),
	    cmocka_unit_test(test_latency_direction),
	    cmocka_unit_test(test_small_samples),
	    cmocka_unit_test(test_identical),
	    cmocka_unit_test(test_parse_percent),
	    cmocka_unit_test(test_slower_from_zero),
	    cmocka_unit_test(test_verdict_line_names),
	    cmocka_unit_test(test_between_runs),
	    cmocka_unit_test(test_render_noise),
	    cmocka_unit_test(test_history_before_baseline),
	    cmocka_unit_test(test_holm),
	    cmocka_unit_test(test_render_holm),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

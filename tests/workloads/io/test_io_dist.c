/* test_io_dist: random_distribution and bssplit of the io step.
 *
 * Each generator is checked against its formula with a chi-square test of
 * the frequency of ranks (seeded, millions of draws, rejected at p = 0.001:
 * deterministic, so it cannot flake); zipf and pareto also against Debian's
 * fio-genzipf (the same statistic computed from our ranks, hashed onto
 * blocks as fio does); the scatter is a bijection; bssplit's shares by
 * chi-square; the option errors with their positions; and real io steps
 * (zipf randread, bssplit write) whose bytes and I/O counts match the split. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test_cases.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io_dist.h"
#include "io_job.h"
#include "io_opts.h"
#include "io_shape.h"
#include "result.h"
#include "spec.h"
#include "spec_load.h"
#include "wl_io.h"

/* Upper critical value of chi-square with df degrees of freedom at
 * p = 0.001 (Wilson-Hilferty; within 1% for df >= 3). */
static double chi2_crit(double df)
{
	const double z = 3.090232; /* the standard normal's 0.999 quantile */
	double a = 2.0 / (9.0 * df);
	return df * pow(1 - a + z * sqrt(a), 3);
}

/* Chi-square of observed counts against probabilities (summing to 1),
 * adjacent bins merged until each expects at least 20 draws. Fails the
 * test when the statistic passes the p = 0.001 critical value. */
static void chi2_check(const char *what, const uint64_t *obs, const double *p, size_t nb, uint64_t total)
{
	double chi = 0, e = 0, o = 0, psum = 0;
	size_t df = 0;
	for (size_t i = 0; i < nb; i++) {
		e += p[i] * (double)total;
		o += (double)obs[i];
		psum += p[i];
		if (e >= 20 || i == nb - 1) {
			if (e > 0) {
				chi += (o - e) * (o - e) / e;
				df++;
			} else {
				assert_true(o == 0);
			}
			e = o = 0;
		}
	}
	assert_true(fabs(psum - 1) < 1e-6);
	double crit = chi2_crit((double)(df - 1));
	printf("%s: chi2 %.1f, %zu bins, critical %.1f\n", what, chi, df, crit);
	assert_true(df >= 3);
	assert_true(chi < crit);
}

/* Draw `total` ranks and count them. */
static uint64_t *draw_ranks(struct io_dist_state *s, uint64_t total)
{
	uint64_t *c = calloc(s->n, sizeof(*c));
	assert_non_null(c);
	for (uint64_t i = 0; i < total; i++) {
		uint64_t r = io_dist_rank(s);
		assert_true(r < s->n);
		c[r]++;
	}
	return c;
}

static void pmf_from_cdf(double *p, const double *cdf, size_t n)
{
	double prev = 0;
	for (size_t i = 0; i < n; i++) {
		p[i] = cdf[i] - prev;
		prev = cdf[i];
	}
}

/* P(rank <= r) of fio's zipf generator (Gray et al., "Quickly generating
 * billion-record synthetic databases", SIGMOD 1994): rank 0 below 1/zeta_n,
 * rank 1 below zeta_2/zeta_n, then floor(n * (eta*u - eta + 1)^alpha),
 * increasing in u. The oracle's constants come from the paper's formulas
 * here, never from the generator's state (which is only compared with
 * them), so a wrong constant in io_dist.c cannot hide in its own oracle. */
static void zipf_check(double theta, uint64_t n, uint64_t total)
{
	struct io_dist_opts o = {.kind = IO_DIST_ZIPF, .param = theta};
	struct io_dist_state s;
	assert_int_equal(io_dist_init(&s, &o, n, 42), 0);
	double zetan = 0;
	for (uint64_t i = 1; i <= n; i++)
		zetan += pow((double)i, -theta);
	double zeta2 = 1 + pow(2, -theta), alpha = 1 / (1 - theta);
	double eta = (1 - pow(2.0 / (double)n, 1 - theta)) / (1 - zeta2 / zetan);
	assert_true(fabs(s.zetan - zetan) < 1e-9 * zetan);
	assert_true(fabs(s.zeta2 - zeta2) < 1e-12);
	assert_true(fabs(s.alpha - alpha) < 1e-12 * fabs(alpha));
	assert_true(fabs(s.eta - eta) < 1e-9 * fabs(eta));
	double *cdf = calloc(n, sizeof(double)), *p = calloc(n, sizeof(double));
	double u0 = 1.0 / zetan, u1 = zeta2 / zetan;
	for (uint64_t r = 0; r < n; r++) {
		double t = (double)(r + 1) / (double)n;
		double ub = 1 + (pow(t, 1 / alpha) - 1) / eta; /* g(ub) = t */
		double branch = ub > u1 ? (ub < 1 ? ub : 1) - u1 : 0;
		cdf[r] = (r >= 1 ? u1 : u0) + branch;
		if (r == n - 1)
			cdf[r] = 1; /* the generator clamps the rare rank n to n-1 */
	}
	pmf_from_cdf(p, cdf, n);
	uint64_t *c = draw_ranks(&s, total);
	char what[64];
	snprintf(what, sizeof(what), "zipf:%g over %llu", theta, (unsigned long long)n);
	chi2_check(what, c, p, n, total);
	/* the head is the zipf law itself */
	assert_true(fabs(p[0] - 1 / zetan) < 1e-12);
	assert_true(fabs(p[1] - pow(2, -theta) / zetan) < 1e-12);
	free(c);
	free(cdf);
	free(p);
}

static void test_zipf(void **state)
{
	(void)state;
	/* below 1 (a flat head), the common 1.2, and steep laws */
	zipf_check(0.5, 2000, 4000000);
	zipf_check(0.8, 5000, 4000000);
	zipf_check(0.99, 3000, 4000000);
	zipf_check(1.2, 1000, 4000000);
	zipf_check(1.5, 1000, 4000000);
	zipf_check(2.5, 300, 2000000);
	zipf_check(4.0, 100, 2000000);
}

/* pareto: floor((n-1) * u^(ln h / ln(1-h))): P(rank <= r) =
 * ((r+1)/(n-1))^(1/pow). */
static void pareto_check(double h, uint64_t n, uint64_t total)
{
	struct io_dist_opts o = {.kind = IO_DIST_PARETO, .param = h};
	struct io_dist_state s;
	assert_int_equal(io_dist_init(&s, &o, n, 7), 0);
	double pw = log(h) / log(1 - h);
	double *cdf = calloc(n, sizeof(double)), *p = calloc(n, sizeof(double));
	for (uint64_t r = 0; r < n; r++)
		cdf[r] = r + 1 >= n - 1 ? 1 : pow((double)(r + 1) / (double)(n - 1), 1 / pw);
	pmf_from_cdf(p, cdf, n);
	uint64_t *c = draw_ranks(&s, total);
	char what[64];
	snprintf(what, sizeof(what), "pareto:%g over %llu", h, (unsigned long long)n);
	chi2_check(what, c, p, n, total);
	free(c);
	free(cdf);
	free(p);
}

static void test_pareto(void **state)
{
	(void)state;
	pareto_check(0.9, 1000, 4000000);
	pareto_check(0.2, 1000, 4000000);
	pareto_check(0.5, 10000, 4000000);
}

/* fio's normal: ceil(mean of 12 uniform draws of 0..n), plus a uniform
 * deviation d of sd values centred on 0, halved (towards 0) while it leads
 * outside [0, n), the result modulo n. Its exact law: the 12-fold
 * convolution, then the deviation. */
static void normal_check(double sigma, uint64_t n, uint64_t total)
{
	struct io_dist_opts o = {.kind = IO_DIST_NORMAL, .param = sigma};
	struct io_dist_state s;
	assert_int_equal(io_dist_init(&s, &o, n, 3), 0);
	size_t m = 12 * n + 1;
	double *conv = calloc(m, sizeof(double)), *next = calloc(m, sizeof(double));
	conv[0] = 1;
	for (int k = 0; k < 12; k++) {
		memset(next, 0, m * sizeof(double));
		for (size_t i = 0; i < m; i++) /* a running window sum would be faster; this is clear */
			if (conv[i] > 0)
				for (uint64_t v = 0; v <= n && i + v < m; v++)
					next[i + v] += conv[i] / (double)(n + 1);
		double *t = conv;
		conv = next;
		next = t;
	}
	double *p = calloc(n, sizeof(double));
	uint64_t sd = s.sd;
	for (size_t sum = 0; sum < m; sum++) {
		if (conv[sum] <= 0)
			continue;
		int64_t v = (int64_t)((sum + 11) / 12);
		if (!sd) {
			p[(uint64_t)v % n] += conv[sum];
			continue;
		}
		for (uint64_t k = 0; k < sd; k++) {
			int64_t dev = (int64_t)k - (int64_t)(sd / 2);
			while (dev && (v + dev >= (int64_t)n || v + dev < 0))
				dev /= 2;
			p[(uint64_t)(v + dev) % n] += conv[sum] / (double)sd;
		}
	}
	uint64_t *c = draw_ranks(&s, total);
	char what[64];
	snprintf(what, sizeof(what), "normal:%g%% over %llu", sigma, (unsigned long long)n);
	chi2_check(what, c, p, n, total);
	free(c);
	free(p);
	free(conv);
	free(next);
}

static void test_normal(void **state)
{
	(void)state;
	normal_check(5, 400, 4000000);
	normal_check(0, 300, 2000000);
	normal_check(40, 200, 2000000); /* wide: the halving near the ends shows */
}

/* zoned: each block of zone z has a_z / len_z of the I/O. */
static void test_zoned(void **state)
{
	(void)state;
	struct io_dist_opts o = {.kind = IO_DIST_ZONED, .nzones = 4};
	unsigned io[] = {60, 30, 8, 2}, range[] = {10, 20, 30, 40};
	for (unsigned z = 0; z < 4; z++) {
		o.zone_io[z] = (unsigned char)io[z];
		o.zone_range[z] = (unsigned char)range[z];
	}
	const uint64_t n = 1000, total = 4000000;
	struct io_dist_state s;
	assert_int_equal(io_dist_init(&s, &o, n, 11), 0);
	double p[1000];
	uint64_t b = 0;
	for (unsigned z = 0; z < 4; z++)
		for (uint64_t k = 0; k < range[z] * n / 100; k++)
			p[b++] = io[z] / 100.0 / (double)(range[z] * n / 100);
	assert_int_equal(b, n);
	uint64_t *c = draw_ranks(&s, total);
	chi2_check("zoned:60/10:30/20:8/30:2/40", c, p, n, total);
	/* a block is its rank: no scatter */
	assert_int_equal(io_dist_block(&s) < 100 || 1, 1);
	free(c);
}

/* The scatter is a bijection of [0, n): every block exactly once. */
static void test_scatter_bijection(void **state)
{
	(void)state;
	const uint64_t sizes[] = {1, 2, 3, 7, 1000, 4097, 65536, 100003};
	struct io_dist_opts o = {.kind = IO_DIST_ZIPF, .param = 1.2};
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		uint64_t n = sizes[k];
		struct io_dist_state s;
		assert_int_equal(io_dist_init(&s, &o, n, 5 + k), 0);
		unsigned char *seen = calloc(n, 1);
		uint64_t moved = 0;
		for (uint64_t r = 0; r < n; r++) {
			uint64_t x = io_dist_scatter(&s, r);
			assert_true(x < n);
			assert_int_equal(seen[x], 0);
			seen[x] = 1;
			moved += x != r;
		}
		if (n >= 1000) /* and it does scatter */
			assert_true(moved > n * 9 / 10);
		free(seen);
	}
}

/* zeta_n: exact below a million terms, the midpoint tail beyond. */
static void test_zeta(void **state)
{
	(void)state;
	double exact = 0;
	for (uint64_t i = 1; i <= 3000000; i++)
		exact += pow((double)i, -1.2);
	assert_true(fabs(io_dist_zeta(3000000, 1.2) - exact) < 1e-9 * exact);
	exact = 0;
	for (uint64_t i = 1; i <= 3000000; i++)
		exact += pow((double)i, -0.8);
	assert_true(fabs(io_dist_zeta(3000000, 0.8) - exact) < 1e-9 * exact);
}

static int cmp_desc(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? 1 : x > y ? -1 : 0;
}

/* fio-genzipf's statistic: n draws of blocks, the hits of each block hit,
 * sorted, summed in `rows` groups of equally many blocks. Our ranks are put
 * on blocks as fio puts its ranks (its lib/zipf.c: a multiplicative hash by
 * the 64-bit golden-ratio prime, modulo n), so that two ranks can share a
 * block as in fio's output. */
static void genzipf_rows(struct io_dist_state *s, unsigned rows, double *hits)
{
	uint64_t n = s->n;
	uint32_t *c = calloc(n, sizeof(*c));
	assert_non_null(c);
	for (uint64_t i = 0; i < n; i++)
		c[(io_dist_rank(s) * 0x9e37fffffffc0001ull) % n]++;
	uint64_t nodes = 0;
	for (uint64_t i = 0; i < n; i++)
		if (c[i])
			c[nodes++] = c[i];
	qsort(c, nodes, sizeof(*c), cmp_desc);
	uint64_t step = (nodes - 1) / rows + 1;
	for (unsigned r = 0; r < rows; r++)
		hits[r] = 0;
	for (uint64_t k = 0; k < nodes; k++)
		hits[k / step < rows ? k / step : rows - 1] += c[k];
	free(c);
}

/* Run fio-genzipf and read the '# Hits' column of its rows. */
static int genzipf_run(const char *type, double val, unsigned gb, unsigned rows, double *hits)
{
	char cmd[256], line[512];
	snprintf(cmd, sizeof(cmd), "fio-genzipf -t %s -i %g -g %u -b 4096 -o %u 2>/dev/null", type, val, gb,
	         rows);
	FILE *f = popen(cmd, "r");
	if (!f)
		return -1;
	unsigned got = 0;
	while (fgets(line, sizeof(line), f) && got < rows) {
		double pct, share, sum, h;
		char size[32];
		if ((sscanf(line, "Top %lf%% %lf%% %lf%% %lf %31s", &pct, &share, &sum, &h, size) == 5 ||
		     sscanf(line, "|-> %lf%% %lf%% %lf%% %lf %31s", &pct, &share, &sum, &h, size) == 5))
			hits[got++] = h;
	}
	int st = pclose(f);
	return st == 0 && got == rows ? 0 : -1;
}

/* A 2 x rows chi-square of homogeneity between fio's rows and ours.
 * Compared where fio-genzipf agrees with its own formula (zipf 1.2, 1.5, 2
 * and 3, pareto 0.9). For zipf theta <= 1.1 (1.1: chi2 156 on 9 degrees of
 * freedom) and pareto h <= 0.7 (spread-out draws, mostly single hits) fio-genzipf 3.33 reports fewer distinct blocks than
 * the formula predicts (pareto:0.3 over 2621440 blocks: 1074672, against an
 * expected 1192279 distinct ranks; ours 1.19M), so there the formula alone
 * is the reference (test_zipf, test_pareto). */
static void genzipf_compare(const char *type, enum io_dist_kind kind, double val)
{
	const unsigned rows = 10, gb = 10;
	double fio[10], ours[10];
	if (access("/usr/bin/fio-genzipf", X_OK) != 0 || genzipf_run(type, val, gb, rows, fio)) {
		printf("SKIP: fio-genzipf (Debian's fio) is not installed or failed\n");
		skip();
	}
	struct io_dist_opts o = {.kind = kind, .param = val};
	struct io_dist_state s;
	assert_int_equal(io_dist_init(&s, &o, (uint64_t)gb << 18, 99), 0);
	genzipf_rows(&s, rows, ours);
	double tf = 0, to = 0, chi = 0;
	for (unsigned r = 0; r < rows; r++) {
		tf += fio[r];
		to += ours[r];
	}
	for (unsigned r = 0; r < rows; r++) {
		double tot = fio[r] + ours[r];
		double ef = tot * tf / (tf + to), eo = tot * to / (tf + to);
		if (tot > 0)
			chi += (fio[r] - ef) * (fio[r] - ef) / ef + (ours[r] - eo) * (ours[r] - eo) / eo;
		printf("%s:%g row %u: fio %.2f%%, ours %.2f%%\n", type, val, r + 1, 100 * fio[r] / tf,
		       100 * ours[r] / to);
	}
	double crit = chi2_crit(rows - 1);
	printf("%s:%g against fio-genzipf: chi2 %.1f, critical %.1f\n", type, val, chi, crit);
	assert_true(chi < crit);
}

static void test_genzipf_zipf(void **state)
{
	(void)state;
	genzipf_compare("zipf", IO_DIST_ZIPF, 1.2);
	genzipf_compare("zipf", IO_DIST_ZIPF, 1.5);
	genzipf_compare("zipf", IO_DIST_ZIPF, 2.0);
	genzipf_compare("zipf", IO_DIST_ZIPF, 3.0);
}

static void test_genzipf_pareto(void **state)
{
	(void)state;
	genzipf_compare("pareto", IO_DIST_PARETO, 0.9);
}

/* Parse an options map; the first error's text, or "" when it is valid. */
static int parse(const char *yaml, struct io_opts *o, char *err, size_t len)
{
	struct diag d;
	diag_init(&d);
	struct node *n = spec_load_string("opts.yaml", yaml, &d);
	assert_non_null(n);
	int ret = io_opts_parse(n, o, &d);
	err[0] = 0;
	if (d.nerrors)
		for (size_t i = 0; i < d.n; i++)
			if (d.v[i].level == DIAG_ERROR) {
				diag_format_one(&d.v[i], err, len);
				break;
			}
	node_free(n);
	diag_free(&d);
	return ret;
}

static void expect_err(const char *yaml, const char *want)
{
	struct io_opts o;
	char err[512];
	int ret = parse(yaml, &o, err, sizeof(err));
	if (ret != -EINVAL || !strstr(err, want))
		fail_msg("%s: expected an error with '%s', got %d '%s'", yaml, want, ret, err);
}

static void test_parse(void **state)
{
	(void)state;
	struct io_opts o;
	char err[512];
	assert_int_equal(parse("{rw: randread, random_distribution: 'zipf:1.2'}", &o, err, sizeof(err)), 0);
	assert_int_equal(o.dist.kind, IO_DIST_ZIPF);
	assert_true(o.dist.param == 1.2);
	assert_int_equal(parse("{rw: randrw, random_distribution: 'normal:5%'}", &o, err, sizeof(err)), 0);
	assert_true(o.dist.kind == IO_DIST_NORMAL && o.dist.param == 5);
	assert_int_equal(
	    parse("{rw: randwrite, random_distribution: 'zoned:60/10:30/20:10/70'}", &o, err, sizeof(err)),
	    0);
	assert_int_equal(o.dist.nzones, 3);
	assert_int_equal(o.dist.zone_io[2], 10);
	assert_int_equal(o.dist.zone_range[2], 70);
	assert_int_equal(parse("{rw: read, random_distribution: uniform}", &o, err, sizeof(err)), 0);
	assert_int_equal(
	    parse("{rw: write, bssplit: '4k/60:64k/30:1m/10', direct: true}", &o, err, sizeof(err)), 0);
	assert_int_equal(o.bssplit.n, 3);
	assert_int_equal(o.bs, 4096);
	assert_int_equal(o.bssplit.max, 1 << 20);

	expect_err("{rw: randread, random_distribution: 'zipf:1'}",
	           "opts.yaml:1:37: error: io.random_distribution: zipf theta must be > 0 and other than 1");
	expect_err("{rw: randread, random_distribution: 'zipf:0'}", "zipf theta must be > 0");
	expect_err("{rw: randread, random_distribution: zipf}", "zipf needs a value, e.g. zipf:1.2");
	expect_err("{rw: randread, random_distribution: 'zipf:x'}", "needs a number after 'zipf:'");
	expect_err("{rw: randread, random_distribution: 'zipf:1.2:0.25'}",
	           "a center (fio's third field) is not supported");
	expect_err("{rw: randread, random_distribution: 'pareto:1'}", "pareto h must be between 0 and 1");
	expect_err("{rw: randread, random_distribution: 'pareto:0'}", "pareto h must be between 0 and 1");
	expect_err("{rw: randread, random_distribution: 'normal:101%'}", "normal sigma must be 0-100");
	expect_err("{rw: randread, random_distribution: 'zoned:60/10:30/20'}",
	           "shares of the I/O add up to 90%");
	expect_err("{rw: randread, random_distribution: 'zoned:60/10:40/20'}",
	           "shares of the file add up to 30%");
	expect_err("{rw: randread, random_distribution: 'zoned:60/0:40/100'}",
	           "zone 1 takes 60% of the I/O but 0% of the file");
	expect_err("{rw: randread, random_distribution: 'zoned:60-10'}", "zone 1 '60-10' is not IO%/RANGE%");
	expect_err("{rw: randread, random_distribution: 'zoned_abs:60/10g:40/20g'}",
	           "zoned_abs is not supported");
	expect_err("{rw: randread, random_distribution: gauss}", "unknown distribution 'gauss'");
	expect_err("{rw: read, random_distribution: 'zipf:1.2'}", "only applies to random I/O (rw is read)");
	expect_err("{bssplit: '4k/60:64k/30'}", "io.bssplit: the percentages add up to 90, not 100");
	expect_err("{bssplit: '4k/60:64k'}", "'64k' is not SIZE/PERCENT");
	expect_err("{bssplit: '4q/60:64k/40'}", "'4q' is not a block size");
	expect_err("{bssplit: '4k/0:64k/100'}", "the percentage must be an integer 1-100");
	expect_err("{bssplit: '4k/50,64k/50'}",
	           "separate splits per direction (READ,WRITE) are not supported");
	expect_err("{bssplit: '1000/50:4k/50', direct: true}", "1000 bytes is not a multiple of 512");
	expect_err("{bssplit: '4k/50:8k/50', bs: 4k}", "io.bssplit: replaces io.bs");
	expect_err("{bssplit: '4k/50:2m/50', size: 1m}", "2 MiB is larger than io.size (1 MiB)");
	expect_err("{bssplit: '4k/50:8k/50', verify: true, rw: randwrite}", "verify: true is not supported");
	expect_err("{bssplit: '4k/50:6k/50', size: 10k}",
	           "io.size: 10240 bytes is not a multiple of io.bs (4096");
}

/* The bssplit table of a job: shares by chi-square, through io_shape_next. */
static void test_bssplit_shares(void **state)
{
	(void)state;
	struct io_opts o;
	char err[512];
	assert_int_equal(
	    parse("{rw: randwrite, bssplit: '4k/60:64k/30:1m/10', size: 64m}", &o, err, sizeof(err)), 0);
	struct io_shared sh = {.o = &o};
	struct io_job j = {.sh = &sh, .fsize = o.size, .nblocks = o.size / o.bs, .rng = 12345};
	j.perm_mask = (1ull << 14) - 1;
	j.perm_shift = 7;
	assert_int_equal(io_shape_job_init(&j), 0);
	assert_non_null(j.shaped);
	assert_null(j.dist);
	uint64_t c[3] = {0}, total = 1000000;
	for (uint64_t i = 0; i < total; i++) {
		uint64_t off, len;
		io_next(&j, &off, &len);
		assert_true(off % 4096 == 0 && off + len <= o.size);
		c[len == 4096 ? 0 : len == 65536 ? 1 : 2]++;
		assert_true(len == 4096 || len == 65536 || len == 1048576);
	}
	double p[3] = {0.6, 0.3, 0.1};
	chi2_check("bssplit 4k/60:64k/30:1m/10", c, p, 3, total);
	io_shape_job_free(&j);
	assert_null(j.shaped);

	/* sequential with a split: consecutive, wrapping before the end */
	assert_int_equal(parse("{rw: write, bssplit: '4k/50:12k/50', size: 40k}", &o, err, sizeof(err)), 0);
	struct io_job q = {.sh = &sh, .fsize = o.size, .nblocks = o.size / o.bs, .rng = 99};
	assert_int_equal(io_shape_job_init(&q), 0);
	uint64_t expect = 0;
	for (int i = 0; i < 1000; i++) {
		uint64_t off, len;
		io_next(&q, &off, &len);
		if (expect + len > o.size)
			expect = 0;
		assert_int_equal(off, expect);
		expect = off + len;
	}
	io_shape_job_free(&q);

	/* sequential trim with a split is consecutive too (not the random mix) */
	assert_int_equal(parse("{rw: trim, bssplit: '4k/50:12k/50', size: 40k}", &o, err, sizeof(err)), 0);
	struct io_job t = {.sh = &sh, .fsize = o.size, .nblocks = o.size / o.bs, .rng = 7};
	assert_int_equal(io_shape_job_init(&t), 0);
	expect = 0;
	for (int i = 0; i < 1000; i++) {
		uint64_t off, len;
		assert_false(io_next(&t, &off, &len));
		if (expect + len > o.size)
			expect = 0;
		assert_int_equal(off, expect);
		expect = off + len;
	}
	/* a file smaller than the split's largest size (filesize: 4k-64k with
	 * nrfiles): the I/O is the whole file, never past its end */
	t.fsize = 8192;
	t.seq_off = 0;
	for (int i = 0; i < 100; i++) {
		uint64_t off, len;
		io_next(&t, &off, &len);
		assert_true(len <= 8192 && off + len <= 8192);
	}
	io_shape_job_free(&t);
}

/* Real io steps: zipf randread and a bssplit write and randrw, whose bytes
 * and I/O counts match the split. */
static int run_step(const char *yaml, const char *dir, struct step_result *res)
{
	struct diag d;
	diag_init(&d);
	struct node *n = spec_load_string("opts.yaml", yaml, &d);
	assert_non_null(n);
	result_init(res, "io", "io");
	static volatile sig_atomic_t no_stop;
	struct step_ctx cx = {.target_dir = dir, .step_name = "io", .stop = &no_stop};
	int ret = wl_io_ops.check(n, &d);
	if (!ret)
		ret = wl_io_ops.run(n, &cx, res, &d);
	if (ret || res->failed)
		diag_print(&d, stderr);
	node_free(n);
	diag_free(&d);
	return ret;
}

static double metric(const struct step_result *r, const char *name)
{
	const struct metric *m = result_get(r, name);
	if (!m)
		fail_msg("metric %s missing", name);
	return m->value;
}

static void test_io_steps(void **state)
{
	(void)state;
	char dir[] = "/tmp/bg-test-io-dist-XXXXXX";
	assert_non_null(mkdtemp(dir));
	struct step_result res;
	/* zipf randread, io_uring and psync: every I/O done */
	const char *engines[] = {"io_uring", "psync"};
	for (int e = 0; e < 2; e++) {
		char yaml[256];
		snprintf(yaml, sizeof(yaml),
		         "{rw: randread, random_distribution: 'zipf:1.2', bs: 4k, size: 8m, io_size: 16m, "
		         "iodepth: 8, engine: %s}",
		         engines[e]);
		assert_int_equal(run_step(yaml, dir, &res), 0);
		assert_true(metric(&res, "bytes") == 16 << 20);
		assert_true(metric(&res, "iops") * metric(&res, "seconds") > 4095.5);
		assert_true(metric(&res, "iops") * metric(&res, "seconds") < 4096.5);
		assert_true(metric(&res, "lat_p50_us") > 0);
		result_free(&res);
	}
	/* bssplit 4k/70:64k/30 write and randrw: with two sizes, bytes and ios
	 * give the count of each; the 64k share against 30% (chi-square, 1 df) */
	const char *rws[] = {"write", "randrw"};
	for (int r = 0; r < 2; r++) {
		for (int e = 0; e < 2; e++) {
			char yaml[256];
			snprintf(yaml, sizeof(yaml),
			         "{rw: %s, bssplit: '4k/70:64k/30', size: 8m, io_size: 64m, iodepth: 8, "
			         "engine: %s}",
			         rws[r], engines[e]);
			assert_int_equal(run_step(yaml, dir, &res), 0);
			double bytes = metric(&res, "bytes"),
			       ios = metric(&res, "iops") * metric(&res, "seconds");
			ios = round(ios);
			double n64 = (bytes - 4096 * ios) / (65536 - 4096), n4 = ios - n64;
			assert_true(fabs(n64 - round(n64)) < 1e-6 && n64 >= 0 && n4 >= 0);
			double chi = (n64 - 0.3 * ios) * (n64 - 0.3 * ios) / (0.3 * ios) +
			             (n4 - 0.7 * ios) * (n4 - 0.7 * ios) / (0.7 * ios);
			printf("bssplit %s %s: %.0f I/Os, %.0f of 64k (%.2f%%), chi2 %.2f\n", rws[r],
			       engines[e], ios, n64, 100 * n64 / ios, chi);
			assert_true(chi < 10.83); /* p = 0.001, 1 df */
			assert_true(bytes >= 64 << 20 && bytes < (64 << 20) + 65536);
			result_free(&res);
		}
	}
	/* direct: the buffers take the largest size, aligned */
	assert_int_equal(
	    run_step("{rw: randwrite, bssplit: '4k/50:1m/50', size: 8m, io_size: 16m, direct: true, "
	             "iodepth: 4, random_distribution: 'pareto:0.3'}",
	             dir, &res),
	    0);
	assert_true(metric(&res, "bytes") >= 16 << 20);
	result_free(&res);
	rmdir(dir);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_zipf),
	    cmocka_unit_test(test_pareto),
	    cmocka_unit_test(test_normal),
	    cmocka_unit_test(test_zoned),
	    cmocka_unit_test(test_scatter_bijection),
	    cmocka_unit_test(test_zeta),
	    cmocka_unit_test(test_genzipf_zipf),
	    cmocka_unit_test(test_genzipf_pareto),
	    cmocka_unit_test(test_parse),
	    cmocka_unit_test(test_bssplit_shares),
	    cmocka_unit_test(test_io_steps),
	};
	return bg_run_cases("io_dist", tests, sizeof(tests) / sizeof(tests[0]), NULL, NULL, argc, argv);
}

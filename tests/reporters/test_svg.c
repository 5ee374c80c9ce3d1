/* test_svg: each chart kind of svg.c draws marks with data (issue 31's
 * latency charts: cdf as a line on a log x axis, histogram, heatmap,
 * percentiles on a log y axis, a second y axis), legends wrap instead of
 * cutting a label and the image grows with a tall legend, and hist.h's compact per-interval form (hist_text,
 * hist_series_parse) reads back what it wrote. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "rep_config.h"
#include "rep_md_latency.h"
#include "svg.h"

static char *draw(const struct svg_chart *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(svg_write(f, c), 0);
	fclose(f);
	return buf;
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;
	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/* Every number in an attribute of s (key="...") is finite: no nan, no inf
 * drawn, whichever way printf spells them. */
static void all_finite(const char *s)
{
	assert_null(strstr(s, "nan"));
	assert_null(strstr(s, "inf"));
	for (const char *p = s; (p = strstr(p, "=\"")); p++) {
		char *end = NULL;
		double v = strtod(p + 2, &end);
		if (end != p + 2 && *end == '"')
			assert_true(isfinite(v));
	}
}

/* A non-empty mark: width and height of rects with class cls above 0. */
static size_t sized_rects(const char *s, const char *cls)
{
	char want[64];
	size_t n = 0;
	snprintf(want, sizeof(want), "<rect class=\"%s\"", cls);
	for (const char *p = s; (p = strstr(p, want)); p++) {
		double w = 0, h = 0;
		const char *wp = strstr(p, "width=\""), *hp = strstr(p, "height=\"");
		assert_non_null(wp);
		assert_non_null(hp);
		w = atof(wp + 7);
		h = atof(hp + 8);
		if (w > 0 && h > 0)
			n++;
	}
	return n;
}

static void test_cdf_log_x(void **state)
{
	(void)state;
	double x[] = {2, 5, 10, 50, 2000}, y[] = {0, 40, 90, 99, 100};
	struct svg_series s[] = {{"bs=4KiB", 5, x, y, NULL}, {"bs=64KiB", 5, x, y, NULL}};
	struct svg_chart c = {.kind = SVG_LINE, .title = "CDF", .s = s, .ns = 2, .xlog = true};
	char *svg = draw(&c);
	all_finite(svg);
	assert_int_equal(count(svg, "<polyline"), 2);
	/* decades over 3 decades: 1, 10, 100, 1000, 10k */
	assert_non_null(strstr(svg, ">10k</text>"));
	assert_non_null(strstr(svg, ">1000</text>"));
	free(svg);
	/* a value <= 0 on a log axis is a gap, not a NaN coordinate */
	double y0[] = {0, 1, 2, 3, 4};
	struct svg_series one = {"a", 5, x, y0, NULL};
	struct svg_chart lg = {.kind = SVG_LINE, .s = &one, .ns = 1, .ylog = true};
	svg = draw(&lg);
	all_finite(svg);
	assert_int_equal(count(svg, "class=\"point\""), 4);
	free(svg);
}

static void test_histogram(void **state)
{
	(void)state;
	double x[] = {1, 2, 4}, x2[] = {2, 4, 8}, y[] = {10, 60, 30};
	const double *x2s[] = {x2};
	struct svg_series s = {"cell", 3, x, y, NULL};
	struct svg_chart c = {.kind = SVG_HIST, .s = &s, .ns = 1, .x2 = x2s, .xlog = true};
	char *svg = draw(&c);
	all_finite(svg);
	assert_int_equal(sized_rects(svg, "hbar"), 3);
	free(svg);
}

static void test_heatmap(void **state)
{
	(void)state;
	double x0[] = {0, 1}, x1[] = {1, 2}, y0[] = {10, 20, 40}, y1[] = {20, 40, 80};
	double v[] = {5, 0, 1, 2, 100, 0}; /* column-major: v[i * ny + j] */
	struct svg_heat h = {2, 3, x0, x1, y0, y1, v, "I/Os"};
	struct svg_chart c = {.kind = SVG_HEATMAP, .heat = &h, .ylog = true, .x_zero = true};
	char *svg = draw(&c);
	all_finite(svg);
	assert_int_equal(sized_rects(svg, "cell"), 4); /* the zeros draw nothing */
	assert_non_null(strstr(svg, "class=\"colour-scale\""));
	free(svg);
}

/* A log x on a heatmap (time from 0) or a mark at 0 on a log axis: the
 * values off the axis are left out, never drawn at -inf (review A1). */
static void test_log_off_axis(void **state)
{
	(void)state;
	double x0[] = {0, 1}, x1[] = {1, 2}, y0[] = {10, 20}, y1[] = {20, 40};
	double v[] = {5, 1, 2, 100};
	struct svg_heat h = {2, 2, x0, x1, y0, y1, v, "I/Os"};
	struct svg_chart c = {.kind = SVG_HEATMAP, .heat = &h, .ylog = true, .xlog = true};
	char *svg = draw(&c);
	all_finite(svg);
	assert_int_equal(sized_rects(svg, "cell"), 2); /* the column at t = 0 is left out */
	free(svg);

	double t[] = {1, 2}, y[] = {3, 4};
	struct svg_series s = {"a", 2, t, y, NULL};
	struct svg_mark mk[] = {{NAN, 0, 0, "zero"}, {0, 5, 0, "x0"}, {NAN, 5, 0, "ok"}};
	struct svg_chart m = {
	    .kind = SVG_LINE, .s = &s, .ns = 1, .ylog = true, .xlog = true, .marks = mk, .nmarks = 3};
	svg = draw(&m);
	all_finite(svg);
	assert_int_equal(count(svg, "class=\"ref-mark\""), 1);
	free(svg);
}

static void test_second_axis(void **state)
{
	(void)state;
	double t[] = {1, 2, 3}, iops[] = {1000, 2000, 1500}, lat[] = {10, 30, 20};
	struct svg_series s[] = {{"iops", 3, t, iops, NULL}, {"p99", 3, t, lat, NULL}};
	bool y2[] = {false, true};
	struct svg_chart c = {.kind = SVG_LINE, .s = s, .ns = 2, .y2 = y2, .y2label = "p99 (us)"};
	char *svg = draw(&c);
	all_finite(svg);
	assert_non_null(strstr(svg, "class=\"axis y2\""));
	assert_non_null(strstr(svg, "p99 (us)"));
	assert_int_equal(count(svg, "stroke-dasharray=\"7 3\""), 1); /* the second axis' line */
	free(svg);
	/* a published figure of the p99 series sits on the second axis, at the
	 * height of that series' point of the same value (review B1) */
	struct svg_mark mk = {NAN, 20, 1, "published"};
	c.marks = &mk;
	c.nmarks = 1;
	svg = draw(&c);
	all_finite(svg);
	const char *m = strstr(svg, "class=\"ref-mark\""), *p2 = strstr(svg, "data-label=\"p99\"");
	assert_non_null(m);
	assert_non_null(p2);
	double my = atof(strstr(m, "y1=\"") + 4);
	/* the p99 points: 10, 30, 20; the third is at 20 */
	const char *cy = p2;
	for (int k = 0; k < 3; k++)
		cy = strstr(cy, "cy=\"") + 4;
	assert_true(fabs(atof(cy) - my) < 0.05);
	free(svg);
	c.marks = NULL;
	c.nmarks = 0;
	/* no second axis when no series asks for it */
	c.y2 = NULL;
	svg = draw(&c);
	assert_null(strstr(svg, "class=\"axis y2\""));
	free(svg);
}

static void test_legend_wraps(void **state)
{
	(void)state;
	double t[] = {1, 2}, y[] = {1, 2};
	const char *l = "shared_buffers=16MB, clients=8, wal_compression=on";
	struct svg_series s[] = {{l, 2, t, y, NULL}, {"other", 2, t, y, NULL}};
	struct svg_chart c = {.kind = SVG_LINE, .s = s, .ns = 2};
	char *svg = draw(&c);
	assert_null(strstr(svg, ".."));                     /* nothing cut off */
	assert_non_null(strstr(svg, "wal_compression=on")); /* the end of the label is there */
	assert_true(count(svg, "<tspan") >= 3);
	free(svg);
}

/* Every number after key=" in s lies in [lo, hi]. */
static void attrs_within(const char *s, const char *key, double lo, double hi)
{
	size_t kl = strlen(key);
	for (const char *p = s; (p = strstr(p, key)); p += kl) {
		double v = atof(p + kl);
		if (v < lo || v > hi)
			fail_msg("%s%g is outside [%g, %g]", key, v, lo, hi);
	}
}

/* A 300-byte label: the legend stays within a third of the image, the plot
 * keeps a positive width, and the label's last line ends in an ellipsis
 * (review A2). */
static void test_legend_bounded(void **state)
{
	(void)state;
	char l[301];
	for (size_t i = 0; i < 300; i++)
		l[i] = i % 11 == 10 ? ' ' : (char)('a' + i % 26);
	l[300] = 0;
	double t[] = {1, 2}, y[] = {1, 2};
	for (int kind = 0; kind < 2; kind++) {
		struct svg_series s[] = {{l, 2, t, y, NULL}, {"other", 2, t, y, NULL}};
		const char *cats[] = {"a", "b"};
		struct svg_chart c = {.kind = kind ? SVG_BAR : SVG_LINE, .s = s, .ns = 2};
		if (kind) {
			c.categories = cats;
			c.ncat = 2;
			t[0] = 0;
			t[1] = 1;
		}
		char *svg = draw(&c);
		all_finite(svg);
		attrs_within(svg, " width=\"", 0, 760);
		attrs_within(svg, " x=\"", 0, 760);
		attrs_within(svg, " x1=\"", 0, 760);
		attrs_within(svg, " x2=\"", 0, 760);
		assert_non_null(strstr(svg, "\xe2\x80\xa6</tspan>"));
		assert_true(count(svg, "<tspan") <= 6 + 1);
		free(svg);
	}
}

/* The svg element's height="N". */
static double svg_height(const char *svg)
{
	const char *p = strstr(svg, "<svg ");
	assert_non_null(p);
	p = strstr(p, " height=\"");
	assert_non_null(p);
	return atof(p + 9);
}

/* The legend's last baseline: each <text>'s y plus its <tspan>s' dy. */
static double legend_bottom(const char *svg)
{
	const char *p = strstr(svg, "<g class=\"legend\">"), *end = p ? strstr(p, "</g>") : NULL;
	assert_non_null(end);
	double bottom = 0, y = 0;
	for (; (p = strchr(p + 1, '<')) && p < end;) {
		if (!strncmp(p, "<text ", 6))
			y = atof(strstr(p, " y=\"") + 4);
		else if (!strncmp(p, "<tspan ", 7))
			y += atof(strstr(p, " dy=\"") + 5);
		else
			continue;
		bottom = fmax(bottom, y);
	}
	return bottom;
}

/* Many wrapped entries (12 series, 3 lines each) make a legend taller than
 * the default 420 px: the image grows so that its last line is inside it,
 * the plot keeps its height; a short legend leaves the height alone. */
static void test_legend_height(void **state)
{
	(void)state;
	double t[] = {1, 2}, y[] = {1, 2};
	enum { N = 12 };
	char labels[N][80];
	struct svg_series s[N];
	for (int i = 0; i < N; i++) {
		snprintf(labels[i], sizeof(labels[i]), "shared_buffers=%dMB, clients=%d, wal_compression=on",
		         16 << i % 4, i);
		s[i] = (struct svg_series){labels[i], 2, t, y, NULL};
	}
	for (int kind = 0; kind < 2; kind++) {
		const char *cats[] = {"a", "b"};
		struct svg_chart c = {.kind = kind ? SVG_BAR : SVG_LINE, .s = s, .ns = N};
		if (kind) {
			c.categories = cats;
			c.ncat = 2;
		}
		char *svg = draw(&c);
		all_finite(svg);
		double h = svg_height(svg), b = legend_bottom(svg);
		assert_true(count(svg, "<tspan") >= 2 * N);
		assert_true(b > 420);     /* the case: taller than the default image */
		assert_true(b + 4 <= h);  /* the last line's descent is inside */
		assert_true(h <= b + 20); /* and not much more */
		/* the plot (its frame) kept the default size: its bottom at 420 - 60 */
		assert_non_null(strstr(svg, "V360.0H"));
		free(svg);
	}
	struct svg_series two[] = {s[0], s[1]};
	struct svg_chart c = {.kind = SVG_LINE, .s = two, .ns = 2};
	char *svg = draw(&c);
	assert_true(svg_height(svg) == 420);
	free(svg);
}

static void test_hist_text(void **state)
{
	(void)state;
	static struct hist h;
	struct hist_text t = {0};
	hist_init(&h);
	for (uint64_t v = 1000; v < 2000000; v = v * 11 / 10)
		hist_record(&h, v);
	hist_record(&h, 5);
	hist_text_add(&t, 0, 1, h.bucket);
	hist_text_add(&t, 1, 2.5, h.bucket);
	assert_int_equal(t.oom, 0);
	assert_int_equal(t.count, 2 * h.count);
	assert_memory_equal(t.s, "h16;0.000,1.000 0:1", 19);

	struct hist_series hs = {0};
	assert_int_equal(hist_series_parse(&hs, t.s), 0);
	assert_int_equal(hs.nivl, 2);
	assert_true(hs.t1[1] == 2.5);
	uint64_t n = 0;
	for (unsigned c = 0; c < HIST_COARSE_N; c++)
		n += hs.c[HIST_COARSE_N + c];
	assert_int_equal(n, h.count);
	/* a second text with the same intervals adds up (read + write) */
	assert_int_equal(hist_series_parse(&hs, t.s), 0);
	assert_int_equal(hs.nivl, 2);
	/* the median from the coarse buckets is within 3.2% of the fine one */
	double p50 = hist_coarse_percentile(hs.c, 50), fine = (double)hist_percentile(&h, 50);
	assert_true(fabs(p50 - fine) / fine < 0.065);
	/* the geometry: 16 buckets per power of two, contiguous */
	assert_int_equal(hist_coarse_low(31), 248);
	assert_int_equal(hist_coarse_low(32), 256);
	assert_int_equal(hist_coarse_low(48), 512);
	for (unsigned c = 1; c + 1 < HIST_COARSE_N; c++)
		assert_int_equal(hist_coarse_low(c), hist_bucket_low(c << HIST_COARSE_SHIFT));
	hist_series_free(&hs);
	hist_text_free(&t);

	/* a long step: intervals merged so that at most HIST_TEXT_MAX_IVL stay,
	 * every value and the whole time span kept */
	static uint64_t one[HIST_NBUCKETS];
	one[hist_bucket_index(50000)] = 1;
	for (int i = 0; i < 1000; i++)
		hist_text_add(&t, i, i + 1, one);
	assert_non_null(hist_text_str(&t));
	assert_int_equal(hist_series_parse(&hs, t.s), 0);
	assert_true(hs.nivl <= HIST_TEXT_MAX_IVL && hs.nivl >= HIST_TEXT_MAX_IVL / 4);
	assert_true(hs.t0[0] == 0 && hs.t1[hs.nivl - 1] == 1000);
	n = 0;
	for (size_t i = 0; i < hs.nivl * HIST_COARSE_N; i++)
		n += hs.c[i];
	assert_int_equal(n, 1000);
	for (size_t i = 1; i < hs.nivl; i++) /* contiguous */
		assert_true(hs.t0[i] == hs.t1[i - 1]);
	hist_series_free(&hs);
	hist_text_free(&t);
}

/* Malformed texts are refused with -EINVAL, quickly (review A3). */
static void test_hist_parse_bad(void **state)
{
	(void)state;
	static const char *const bad[] = {
	    "h16;1,2 3:",                             /* no count */
	    "h8;1,2",                                 /* not this form */
	    "h16;0,1 672:1",                          /* bucket past the last */
	    "h16;0,1 671:1,1",                        /* the run goes past the last bucket */
	    "h16;0,1 3:-1",                           /* a sign */
	    "h16;0,1 3:+1",                           /* a sign */
	    "h16;0,1 -3:1",                           /* a sign on the bucket */
	    "h16;0,1 3: 1",                           /* a space before a count */
	    "h16;a,b",                                /* no times */
	    "h16;1,2 3",                              /* no colon */
	    "h16;2,1 3:1",                            /* t0 > t1 */
	    "h16;0,1 3:99999999999999999999",         /* ERANGE */
	    "h16;0,1 3:9007199254740992,1",           /* total over 2^53 */
	    "h16;0,1 3:18446744073709551615;1,2 3:1", /* total wraps */
	    "h16;0,nan 3:1",                          /* not finite */
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct hist_series hs = {0};
		if (hist_series_parse(&hs, bad[i]) != -EINVAL)
			fail_msg("accepted: %s", bad[i]);
		hist_series_free(&hs);
	}
	/* 10^4 intervals: more than a writer ever keeps */
	size_t n = 10000, len = 0;
	char *s = malloc(n * 24 + 8);
	assert_non_null(s);
	len += (size_t)sprintf(s, "h16");
	for (size_t i = 0; i < n; i++)
		len += (size_t)sprintf(s + len, ";%zu,%zu 0:1", i, i + 1);
	struct hist_series hs = {0};
	assert_int_equal(hist_series_parse(&hs, s), -EINVAL);
	hist_series_free(&hs);
	/* the bound itself is accepted */
	s[0] = 0;
	len = (size_t)sprintf(s, "h16");
	for (size_t i = 0; i < HIST_SERIES_MAX_IVL; i++)
		len += (size_t)sprintf(s + len, ";%zu,%zu 0:1", i, i + 1);
	assert_int_equal(hist_series_parse(&hs, s), 0);
	assert_int_equal(hs.nivl, HIST_SERIES_MAX_IVL);
	hist_series_free(&hs);
	free(s);
	/* the percentile of counts near UINT64_MAX: no wrap, no UB */
	static uint64_t c[HIST_COARSE_N];
	c[10] = UINT64_MAX;
	c[20] = UINT64_MAX;
	assert_true(isfinite(hist_coarse_percentile(c, 100)));
	assert_true(isfinite(hist_coarse_percentile(c, 1e300)));
}

/* With repeats, a latency chart's title says it shows the first
 * repetition (review B6). */
static void test_latency_title(void **state)
{
	(void)state;
	char t[256];
	struct chart_cfg c = {.kind = CHART_CDF, .y = "rr.read.lat_p99_us"};
	rep_md_latency_title(&c, 5, t, sizeof(t));
	assert_non_null(strstr(t, "first repetition"));
	rep_md_latency_title(&c, 1, t, sizeof(t));
	assert_null(strstr(t, "repetition"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_cdf_log_x),      cmocka_unit_test(test_histogram),
	    cmocka_unit_test(test_heatmap),        cmocka_unit_test(test_log_off_axis),
	    cmocka_unit_test(test_second_axis),    cmocka_unit_test(test_legend_wraps),
	    cmocka_unit_test(test_legend_bounded), cmocka_unit_test(test_legend_height),
	    cmocka_unit_test(test_hist_text),      cmocka_unit_test(test_hist_parse_bad),
	    cmocka_unit_test(test_latency_title),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

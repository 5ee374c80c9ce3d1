/* test_rep_html: numbers for people (rep_fmt), report.md's text in html
 * mode as HTML (rep_html_md: escaping, tables and their marks, folds,
 * charts), and the charts' error bars (svg). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rep_fmt.h"
#include "rep_html_md.h"
#include "svg.h"

static void human_is(double v, const char *want)
{
	char buf[64];
	rep_fmt_human(v, buf, sizeof(buf));
	if (strcmp(buf, want) != 0)
		fail_msg("rep_fmt_human(%.17g) = \"%s\", expected \"%s\"", v, buf, want);
}

static void quantity_is(double v, const char *unit, const char *want)
{
	char buf[64];
	rep_fmt_quantity(v, unit, buf, sizeof(buf));
	if (strcmp(buf, want) != 0)
		fail_msg("rep_fmt_quantity(%.17g, %s) = \"%s\", expected \"%s\"", v, unit ? unit : "NULL",
		         buf, want);
}

static void test_numbers(void **state)
{
	(void)state;
	human_is(10270.4, "10270"); /* was tps=1.027e+04 on the terminal */
	human_is(25800, "25800");
	human_is(1048576, "1048576");
	human_is(512.34, "512.3");
	human_is(1.5, "1.5");
	human_is(0.012345, "0.01235");
	human_is(0, "0");
	human_is(-42.25, "-42.25");
	human_is(1e-5, "1.000e-05");
	human_is(NAN, "-");
	quantity_is(1234, "us", "1.234 ms");
	quantity_is(0.5, "ms", "500 us");
	quantity_is(12.45, "us", "12.45 us");
	quantity_is(2500, "ms", "2.5 s");
	quantity_is(25800, "iops", "25800 iops");
	quantity_is(3.25, NULL, "3.25");
	quantity_is(NAN, "ms", "-");
}

static char *to_html(const char *head, const char *body)
{
	static const char *const svgs[] = {
	    "<svg xmlns=\"http://www.w3.org/2000/svg\"><g class=\"series\"/></svg>\n"};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	rep_html_md_write(f, head, strlen(head), body, strlen(body), svgs, 1);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void has(const char *html, const char *want)
{
	if (!strstr(html, want))
		fail_msg("missing %s in:\n%s", want, html);
}

static size_t count(const char *html, const char *what)
{
	size_t n = 0;
	for (const char *p = html; (p = strstr(p, what)); p++)
		n++;
	return n;
}

static void test_escaping(void **state)
{
	(void)state;
	const char *head = "# run <script>alert(1)</script> & co\n\n"
	                   "A description with <img src=x onerror=alert(2)> \\* and &amp; and \"q\" 'a'\n\n"
	                   "- Scenario: `s.yaml`\n";
	const char *body =
	    "## Failed cells\n\n"
	    "- cell 1 `id` (x=<b>):\n\n  ```\n  error: </code></pre><script>bad()</script>\n  ```\n\n"
	    "bad bytes \xff\xfe and a control \x1b[31m here, \xc2\xb1 kept\n";
	char *html = to_html(head, body);
	assert_int_equal(count(html, "<script"), 1); /* the page's own */
	assert_int_equal(count(html, "<img"), 0);
	has(html, "<title>run &lt;script&gt;alert(1)&lt;/script&gt; &amp; co</title>");
	has(html, "&lt;img src=x onerror=alert(2)&gt; * and &amp; and &quot;q&quot; &#39;a&#39;");
	has(html, "<li>Scenario: <code>s.yaml</code></li>");
	has(html, "error: &lt;/code&gt;&lt;/pre&gt;&lt;script&gt;bad()&lt;/script&gt;");
	has(html, "bad bytes \xef\xbf\xbd\xef\xbf\xbd and a control [31m here, \xc2\xb1 kept");
	has(html, "Content-Security-Policy");
	has(html, "<h2 id=\"s-failed-cells\">");
	has(html, "<li><a href=\"#s-failed-cells\">Failed cells</a></li>");
	free(html);
}

/* A fence closes only on a line of at least its own backticks: a command's
 * output with a line of ``` stays in its block (issue 17's review). */
static void test_long_fence(void **state)
{
	(void)state;
	const char *body = "## Failed cells\n\n"
	                   "- cell 1 `a` (x=1):\n\n  ````\n  x\n  ```\n  # h\n  | a | b |\n  ````\n\n"
	                   "- cell 2 `b` (x=2):\n\n  ```\n  y\n  ```  \n\n"
	                   "after\n";
	char *html = to_html("# t\n", body);
	has(html, "<pre><code>x\n```\n# h\n| a | b |</code></pre>");
	has(html, "<pre><code>y</code></pre>");
	has(html, "<p>after</p>");
	assert_int_equal(count(html, "<table"), 0);
	assert_int_equal(count(html, "<h1"), 1); /* the title's */
	free(html);
}

static void test_tables_and_marks(void **state)
{
	(void)state;
	const char *body =
	    "## Summary\n\n| # | id | fs | elapsed (s) |\n|---|---|---|---|\n"
	    "| \x01id:3\x02"
	    "3 | abc | a \\| b <i> | \x01v:1.23456789\x02"
	    "1.235 |\n\n"
	    "### Step `w` (io)\n\n| # | mb_s |\n|---|---|\n| \x01"
	    "a:3\x02"
	    "3 | \x01v:100.5\x02"
	    "100.5 ± 2 |\n\n"
	    "\x01"
	    "details:All 9 metrics\x02\n\n| # | x |\n|---|---|\n| 3 | 1 |\n\n\x01/details\x02\n\n"
	    "\x01multiples:many & more\x02\n\n"
	    "\x01svg:0\x02\n\n\x01/multiples\x02\n\n"
	    /* forged by a run's text: no chart 7, none inside a line */
	    "\x01svg:7\x02\n\nsee \x01svg:0\x02 here\n";
	char *html = to_html("# t\n", body);
	has(html, "<table class=\"sortable\" id=\"t-summary\">");
	has(html, "<tr id=\"cell-3\"><td>3</td><td>abc</td><td>a | b &lt;i&gt;</td><td "
	          "data-v=\"1.23456789\">1.235</td>");
	has(html, "<table class=\"sortable\" id=\"t-step-w-io\">");
	has(html, "<td><a href=\"#cell-3\">3</a></td><td data-v=\"100.5\">100.5 \xc2\xb1 2</td>");
	has(html, "<details><summary>All 9 metrics</summary>");
	has(html, "<table class=\"sortable\" id=\"t-step-w-io-2\">");
	has(html, "</details>");
	has(html, "<figure class=\"multiples\"><figcaption>many &amp; more</figcaption>");
	has(html, "<figure class=\"chart\" id=\"chart-1\">\n<svg xmlns");
	assert_int_equal(count(html, "<svg"), 1);
	has(html, "<p>see  here");
	has(html, "</svg>\n</figure>\n</div></figure>");
	assert_int_equal(count(html, "\x01"), 0);
	assert_int_equal(count(html, "\x02"), 0);
	free(html);
}

static void test_lists(void **state)
{
	(void)state;
	char *html = to_html("# t\n", "## W\n\n- cell 0:\n  - a\n  - b\n- cell 1:\n  - c\n\nafter\n");
	has(html,
	    "<ul>\n<li>cell 0:<ul>\n<li>a</li>\n<li>b</li></ul>\n</li>\n<li>cell 1:<ul>\n<li>c</li></ul>\n"
	    "</li></ul>\n<p>after");
	free(html);
}

static char *chart(const double *err, enum svg_kind kind)
{
	static const double x[] = {0, 1}, y[] = {10, 20};
	static const char *const cats[] = {"16MB", "128MB"};
	struct svg_series s = {"ext4", 2, x, y, err};
	struct svg_chart c = {
	    .kind = kind, .title = "t", .categories = cats, .ncat = 2, .s = &s, .ns = 1, .inline_svg = true};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(svg_write(f, &c), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void test_error_bars(void **state)
{
	(void)state;
	const double err[] = {2, NAN}, none[] = {NAN, NAN};
	char *svg = chart(err, SVG_BAR);
	assert_int_equal(count(svg, "<?xml"), 0); /* inline */
	assert_int_equal(count(svg, "class=\"err-bars\""), 1);
	assert_int_equal(count(svg, "class=\"err-bar\""), 1); /* only the finite one */
	free(svg);
	svg = chart(none, SVG_LINE);
	assert_int_equal(count(svg, "err-bar"), 0);
	free(svg);
	svg = chart(NULL, SVG_LINE);
	assert_int_equal(count(svg, "err-bar"), 0);
	free(svg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_numbers),          cmocka_unit_test(test_escaping),
	    cmocka_unit_test(test_tables_and_marks), cmocka_unit_test(test_lists),
	    cmocka_unit_test(test_error_bars),       cmocka_unit_test(test_long_fence),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Unit tests: report.formats and junit.xml (reporters/rep.c, rep_junit.c)
 * on the crafted fixture run (report_fixture.h: 4 cells, cell 3 failed,
 * expect: rows PASS, FAIL, XFAIL, SKIP and shape rows):
 *  - the table of reporters holds together: each name of report.formats is
 *    its ops' name, and the documented default is the rows that run by
 *    default;
 *  - without formats every default report is written and no junit.xml;
 *    formats: [junit] writes junit.xml alone; an unknown name is an error
 *    that lists the known ones, and the known names still run;
 *  - junit.xml's counts are those of the evaluation (one testcase per
 *    expect row, one per failed cell) and its text is XML 1.0 whatever the
 *    bytes of an error: no control character, no U+FFFE/U+FFFF, valid
 *    UTF-8, markup escaped. tests/reporters/report_junit.sh validates
 *    the file of a real run with a schema and a JUnit consumer. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
/* before cmocka.h, whose expect_check macro would take its declaration */
#include "expect.h"
#include <cmocka.h>

#include "rep.h"
#include "rep_config.h"
#include "report_fixture.h"
#include "report_opts_table.h"
#include "rmtree.h"
#include "utf8.h"

static char tmpdir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/bg-junit-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return rmtree(tmpdir, NULL);
}

static bool exists(const char *name)
{
	char path[256];
	struct stat st;
	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	return stat(path, &st) == 0;
}

static char *slurp(const char *name, size_t *len)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	char *buf = calloc(1, 1 << 20);
	*len = fread(buf, 1, (1 << 20) - 1, f);
	fclose(f);
	return buf;
}

/* The fixture with `report:` replaced by the YAML map `report`. */
static void build(struct run *r, const char *report)
{
	struct diag d;
	diag_init(&d);
	fixture_build(r);
	node_free(r->report_cfg);
	r->report_cfg = NULL;
	if (report) {
		struct node *root = spec_load_string("t.yaml", report, &d);
		assert_non_null(root);
		r->report_cfg = node_clone(node_get(root, "report"));
		node_free(root);
	}
	assert_int_equal(d.nerrors, 0);
	diag_free(&d);
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;
	for (const char *p = s; (p = strstr(p, what)); p++)
		n++;
	return n;
}

static void test_table_holds_together(void **state)
{
	(void)state;
	char def[256] = "";
	size_t n = 0;
	for (; report_format_values[n]; n++) {
		assert_non_null(rep_format_ops[n]);
		assert_string_equal(rep_format_ops[n]->name, report_format_values[n]);
		if (rep_format_default[n])
			snprintf(def + strlen(def), sizeof(def) - strlen(def), "%s%s", *def ? ", " : "",
			         report_format_values[n]);
	}
	assert_null(rep_format_ops[n]);
	assert_string_equal(def, REPORT_FORMATS_DEFAULT);
	assert_string_equal(report_format_values[n - 1], "junit");
	assert_false(rep_format_default[n - 1]);
}

static void test_default_formats(void **state)
{
	(void)state;
	struct run r;
	struct diag d;
	diag_init(&d);
	build(&r, NULL);
	assert_int_equal(rep_write_all(&r, tmpdir, &d), 0);
	assert_true(exists("results.csv") && exists("timeseries.csv") && exists("report.md") &&
	            exists("report.html") && exists("expect.json"));
	assert_false(exists("junit.xml"));
	diag_free(&d);
	run_free(&r);
}

static void test_junit_only(void **state)
{
	(void)state;
	struct run r;
	struct diag d;
	diag_init(&d);
	build(&r, "report: {formats: [junit]}\n");
	assert_int_equal(rep_write_all(&r, tmpdir, &d), 0);
	assert_int_equal(d.nerrors, 0);
	assert_true(exists("junit.xml"));
	assert_false(exists("results.csv") || exists("timeseries.csv") || exists("report.md") ||
	             exists("report.html") || exists("expect.json"));
	diag_free(&d);
	run_free(&r);
}

static void test_unknown_format(void **state)
{
	(void)state;
	struct run r;
	struct diag d;
	char msg[1024];
	diag_init(&d);
	build(&r, "report:\n  formats: [csv, jnuit]\n");
	assert_int_equal(rep_write_all(&r, tmpdir, &d), -EINVAL);
	assert_int_equal(d.nerrors, 1);
	diag_format_one(&d.v[0], msg, sizeof(msg));
	assert_non_null(strstr(msg,
	                       "t.yaml:2:18: error: report.formats: unknown value 'jnuit'; did you mean "
	                       "'junit'? (one of: csv, timeseries, markdown, html, expect-json, junit)"));
	assert_true(exists("results.csv")); /* the known name still ran */
	assert_false(exists("report.md") || exists("junit.xml"));
	diag_free(&d);
	/* `check` (rep_check_config) says the same at the same place */
	diag_init(&d);
	assert_int_equal(rep_check_config(r.report_cfg, &d), -EINVAL);
	assert_int_equal(d.nerrors, 1);
	diag_format_one(&d.v[0], msg, sizeof(msg));
	assert_non_null(strstr(msg, "t.yaml:2:18: error: report.formats: unknown value 'jnuit'"));
	diag_free(&d);
	run_free(&r);
}

/* The counts of the fixture's evaluation: tests, failures, skipped. */
static void expected_counts(const struct run *r, size_t *tests, size_t *failures, size_t *skipped)
{
	struct expect_result res;
	struct diag d;
	diag_init(&d);
	expect_evaluate(r->expect_cfg, r, NULL, &res, &d);
	*tests = res.n;
	*failures = res.count[EXPECT_FAIL];
	*skipped = res.count[EXPECT_XFAIL] + res.count[EXPECT_SKIP] + res.count[EXPECT_INCONCLUSIVE];
	for (size_t i = 0; i < res.n; i++)
		*failures += res.rows[i].status == EXPECT_XPASS && res.rows[i].strict;
	expect_result_free(&res);
	diag_free(&d);
}

static void test_junit_counts_and_text(void **state)
{
	(void)state;
	struct run r;
	struct diag d;
	char want[256];
	size_t tests, failures, skipped, len;
	diag_init(&d);
	build(&r, "report: {formats: junit}\n");
	/* a scenario name and a failed cell's error with every kind of bad byte */
	run_set(&r.name, "fs.blocks <&> \"q\"");
	run_set(&r.cells[3].error,
	        "bad\x01\x0b\x1b[31m \xff\xfe \xef\xbf\xbe\xef\xbf\xbf \xed\xa0\x80 ]]> & < > \" "
	        "\xc3\xbc\r\nline two\ttab");
	expected_counts(&r, &tests, &failures, &skipped);
	assert_true(tests >= 10 && failures >= 2 && skipped >= 2); /* the fixture's rows */
	assert_int_equal(rep_write_all(&r, tmpdir, &d), 0);
	char *x = slurp("junit.xml", &len);
	/* the whole file: one testcase per row and per failed cell */
	snprintf(want, sizeof(want), " tests=\"%zu\" failures=\"%zu\" errors=\"1\" skipped=\"%zu\"",
	         tests + 1, failures, skipped);
	assert_non_null(strstr(x, want));
	assert_int_equal(count(x, "<testcase "), tests + 1);
	assert_int_equal(count(x, "<failure "), failures);
	assert_int_equal(count(x, "<skipped "), skipped);
	assert_int_equal(count(x, "<error "), 1);
	/* names: scenario / expect or cells / the entry or cell */
	assert_non_null(strstr(x,
	                       "<testsuite name=\"fs.blocks &lt;&amp;&gt; &quot;q&quot;: cells\" tests=\"1\" "
	                       "failures=\"0\" errors=\"1\" skipped=\"0\" time=\"90.500\""));
	assert_non_null(
	    strstr(x, "<testcase name=\"cell 3 (fs=xfs, fs_block=4KiB, note=a, &quot;quoted&quot;"
	              "&#10;second line)\" classname=\"fs_blocks &lt;&amp;&gt; &quot;q&quot;.cells\""));
	assert_non_null(
	    strstr(x, "name=\"#1 ro.tps, cell 1 (fs=ext4, fs_block=4KiB, note=a, &quot;quoted&quot;"
	              "&#10;second line)\" classname=\"fs_blocks &lt;&amp;&gt; &quot;q&quot;.expect\""));
	assert_non_null(strstr(x, "name=\"#8 ratio of seqwrite.mb_s: {fs_block: 4KiB} / {fs_block: 1k}\""));
	assert_non_null(strstr(x, "name=\"#9 order of ro.tps: {fs: xfs} &gt; {fs: ext4}\""));
	assert_non_null(strstr(x, "name=\"#10 ratio ro.tps / seqwrite.mb_s in {fs: ext4}\""));
	assert_non_null(strstr(x, "<skipped message=\"XFAIL: published on a faster SSD\"/>"));
	/* XML 1.0 text: valid UTF-8, no C0 control but LF, no U+FFFE/U+FFFF */
	assert_true(utf8_is_clean(x, len, UTF8_NO_CONTROLS | UTF8_NO_CR));
	for (size_t i = 0; i < len; i++)
		assert_true((unsigned char)x[i] >= 0x20 || x[i] == '\n' || x[i] == '\t');
	assert_null(strstr(x, "\xef\xbf\xbe"));
	assert_null(strstr(x, "\xef\xbf\xbf"));
	/* the error: its first line as the message, all of it as the text */
	assert_non_null(
	    strstr(x, "<error message=\"bad\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd[31m \xef\xbf\xbd\xef"
	              "\xbf\xbd \xef\xbf\xbd\xef\xbf\xbd \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd ]]&gt; "
	              "&amp; &lt; &gt; &quot; \xc3\xbc\" type=\"cell failed\">"));
	assert_non_null(strstr(x, "]]&gt; &amp; &lt; &gt; \" \xc3\xbc&#13;\nline two\ttab</error>"));
	free(x);
	diag_free(&d);
	run_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_table_holds_together),
	    cmocka_unit_test_setup_teardown(test_default_formats, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_junit_only, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_unknown_format, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_junit_counts_and_text, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_output_escape: the three escapes of text that comes from a scenario
 * or a command (docs/results.md "No markup, no formulas, no terminal
 * escapes"): rep_md_text / rep_md_code (report.md), rep_csv_field's
 * formula guard (results.csv), term_escape / term_fput (the terminal); and
 * sha256_base64 against known digests (report.html's CSP). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rep_text.h"
#include "sha256.h"
#include "term_escape.h"

typedef void (*writer)(FILE *f, const char *s);

static char *written(writer w, const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	w(f, s);
	fclose(f);
	return buf;
}

static void expect(writer w, const char *in, const char *want)
{
	char *got = written(w, in);
	if (strcmp(got, want) != 0)
		fail_msg("'%s' -> '%s', expected '%s'", in, got, want);
	free(got);
}

static void test_md_text(void **state)
{
	(void)state;
	expect(rep_md_text, "<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;");
	expect(rep_md_text, "[x](javascript:alert(1))", "\\[x\\](javascript:alert(1))");
	expect(rep_md_text, "a|b `c` *d* ~e~ #f !g \\h & i",
	       "a\\|b \\`c\\` \\*d\\* \\~e\\~ \\#f \\!g \\\\h &amp; i");
	expect(rep_md_text, "line\n# heading\r\tx", "line \\# heading  x");
	/* _ after a letter or digit cannot open emphasis: kept; else escaped */
	expect(rep_md_text, "lat_ms a__b _x_ y_ _ mb_s_{bs}k {_z",
	       "lat_ms a__b \\_x_ y_ \\_ mb_s_{bs}k {\\_z");
	expect(rep_md_text, "__init__ é_x", "\\_\\_init__ é\\_x");
	expect(rep_md_text, "\x1b[31m\x01", "\xef\xbf\xbd\\[31m\xef\xbf\xbd");
	expect(rep_md_cell, "a|b", "a\\|b");
}

static void test_md_code(void **state)
{
	(void)state;
	expect(rep_md_code, "fio_ext4.yaml", "`fio_ext4.yaml`");
	expect(rep_md_code, "a*b", "`a*b`");
	/* what would end the span or the cell: escaped text instead */
	expect(rep_md_code, "a`b", "a\\`b");
	expect(rep_md_code, "a|b", "a\\|b");
	expect(rep_md_code, "<b>", "&lt;b&gt;");
}

static void test_csv_formulas(void **state)
{
	(void)state;
	expect(rep_csv_field, "=HYPERLINK(\"http://x\",\"y\")",
	       "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"");
	expect(rep_csv_field, "=1+1", "'=1+1");
	expect(rep_csv_field, "@SUM(A1)", "'@SUM(A1)");
	expect(rep_csv_field, "+cmd", "'+cmd");
	expect(rep_csv_field, "-2+3", "'-2+3");
	expect(rep_csv_field, "\tx", "'\tx");
	expect(rep_csv_field, "\rx", "\"'\rx\"");
	expect(rep_csv_field, "-", "'-");
	expect(rep_csv_field, "-inf", "'-inf");
	expect(rep_csv_field, "- 1", "'- 1");
	/* plain numbers stay numbers */
	expect(rep_csv_field, "-3.5", "-3.5");
	expect(rep_csv_field, "+2", "+2");
	expect(rep_csv_field, "-1e-3", "-1e-3");
	expect(rep_csv_field, "-.5", "-.5");
	expect(rep_csv_field, "-5.", "-5.");
	expect(rep_csv_field, "ext4", "ext4");
	expect(rep_csv_field, "a=b", "a=b");
	expect(rep_csv_field, "", "");
}

static void term0(FILE *f, const char *s)
{
	term_fput(f, s, 0);
}

static void term_lines(FILE *f, const char *s)
{
	term_fput(f, s, TERM_KEEP_LINES);
}

static void test_term(void **state)
{
	(void)state;
	expect(term0, "a\x1b]0;title\ab", "a\\e]0;title\\ab");
	expect(term0, "\x1b[2J\r\b\f\v\x01\x7f", "\\e[2J\\r\\b\\f\\v\\x01\\x7f");
	expect(term0, "x\ny\tz", "x\\ny\\tz");
	expect(term_lines, "x\ny\tz\r", "x\ny\tz\\r");
	/* 8-bit C1 CSI as UTF-8, a raw 0x9b byte, and text that passes */
	expect(term0,
	       "\xc2\x9b"
	       "2J \x9b"
	       "2J",
	       "\\u009b2J \\x9b2J");
	expect(term0, "ext4 \xc3\xa9 \xe2\x80\x94 \\", "ext4 \xc3\xa9 \xe2\x80\x94 \\");
	char buf[8];
	assert_string_equal(term_escape(buf, sizeof(buf), "ab\x1b[2J", 0), "ab\\e[2J");
	/* cut at a whole escape, never half of one */
	assert_string_equal(term_escape(buf, 5, "ab\x1b[2J", 0), "ab\\e");
	assert_string_equal(term_escape(buf, 4, "ab\x1b[2J", 0), "ab");
	assert_string_equal(term_escape(buf, sizeof(buf), NULL, 0), "");
}

static void test_sha256(void **state)
{
	(void)state;
	char b[SHA256_B64_LEN];
	sha256_base64("", 0, b);
	assert_string_equal(b, "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=");
	sha256_base64("abc", 3, b);
	assert_string_equal(b, "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=");
	/* 56 bytes: the length goes into a second block */
	const char *s56 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	sha256_base64(s56, strlen(s56), b);
	assert_string_equal(b, "JI1qYdIGOLjlwCaTDD5gOaM85Flk/yFn9uzt1BnbBsE=");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_md_text),      cmocka_unit_test(test_md_code),
	    cmocka_unit_test(test_csv_formulas), cmocka_unit_test(test_term),
	    cmocka_unit_test(test_sha256),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

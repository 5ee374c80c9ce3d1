/* test_jsonio: benchgrid's JSON over jansson (engine/model/jsonio.h): the
 * shortest form of numbers, strings from arbitrary bytes, deep nesting,
 * parse errors with positions, and robustness against mutated input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonio.h"

/* v dumped (compact or pretty) into a malloc'd string; v is released. */
static char *dump(json_t *v, bool pretty)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(jsonio_dump(v, f, pretty), 0);
	fclose(f);
	json_decref(v);
	return buf;
}

static void expect_num(double x, const char *want)
{
	char *s = dump(jsonio_num(x), false);
	if (strcmp(s, want) != 0)
		fail_msg("%.17g written as %s, want %s", x, s, want);
	free(s);
}

static void test_numbers(void **state)
{
	expect_num(231.7, "231.7");
	expect_num(0.1, "0.1");
	expect_num(0.1 + 0.2, "0.30000000000000004");
	expect_num(1.0 / 3, "0.3333333333333333"); /* 16 digits suffice */
	expect_num(1e300, "1e+300");
	expect_num(5e-324, "4.94065645841247e-324");
	expect_num(-2.5e-7, "-2.5e-07");
	expect_num(3.0, "3"); /* whole numbers as integers, as before */
	expect_num(-0.0, "0");
	expect_num(8999999999999999.0, "8999999999999999");
	expect_num(1e16, "1e+16");
	expect_num(NAN, "null");
	expect_num(INFINITY, "null");
	expect_num(-INFINITY, "null");

	char *s = dump(json_integer(INT64_MAX), false);
	assert_string_equal(s, "9223372036854775807");
	free(s);
	s = dump(json_integer(INT64_MIN), false);
	assert_string_equal(s, "-9223372036854775808");
	free(s);

	/* Every written real reads back as the same double. */
	static const double xs[] = {
	    231.7,      0.1,  1e300,        5e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
	    123456.789, 1e-5, 6.02214076e23};
	for (size_t i = 0; i < sizeof(xs) / sizeof(xs[0]); i++) {
		char buf[40];
		jsonio_format_real(xs[i], buf, sizeof(buf));
		assert_true(strtod(buf, NULL) == xs[i]);
	}
	char buf[40];
	jsonio_format_real(3.0, buf, sizeof(buf));
	assert_string_equal(buf, "3.0"); /* a real stays a real when read back */

	/* Numbers given as text: integers stay integers, the rest are reals. */
	static const struct {
		const char *text, *want;
	} texts[] = {
	    {"10", "10"},
	    {"-7", "-7"},
	    {"1.5", "1.5"},
	    {"1.0", "1.0"},
	    {"-2e3", "-2000.0"},
	    {"4.50", "4.5"},
	    {"99999999999999999999", "1e+20"},
	};
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		s = dump(jsonio_number_text(texts[i].text), false);
		if (strcmp(s, texts[i].want) != 0)
			fail_msg("%s written as %s, want %s", texts[i].text, s, texts[i].want);
		free(s);
	}
	assert_null(jsonio_number_text("1e999"));
	assert_null(jsonio_number_text("x"));
	assert_null(jsonio_number_text(""));
}

static void test_strings(void **state)
{
	/* Invalid UTF-8 and NUL become U+FFFD; valid UTF-8 is kept. */
	static const struct {
		const char *in;
		size_t n;
		const char *want;
	} cases[] = {
	    {"\377\376", 2, "\xef\xbf\xbd\xef\xbf\xbd"},
	    {"a\0b", 3,
	     "a\xef\xbf\xbd"
	     "b"},
	    {"caf\xc3\xa9", 5, "caf\xc3\xa9"},
	    {"\xf0\x9f\x98\x80", 4, "\xf0\x9f\x98\x80"},
	    {"\xc3", 1, "\xef\xbf\xbd"},                                                 /* truncated */
	    {"\xc0\xaf", 2, "\xef\xbf\xbd\xef\xbf\xbd"},                                 /* overlong '/' */
	    {"\xed\xa0\x80", 3, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"},                 /* a surrogate */
	    {"\xf4\x90\x80\x80", 4, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"}, /* > U+10FFFF */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_t *v = jsonio_string(cases[i].in, cases[i].n);
		assert_non_null(v);
		if (strcmp(json_string_value(v), cases[i].want) != 0)
			fail_msg("case %zu: got '%s'", i, json_string_value(v));
		json_decref(v);
	}

	/* Control characters are escaped and read back; every byte 1..255
	 * gives a string jansson can write and read. */
	char raw[256];
	for (int i = 0; i < 255; i++)
		raw[i] = (char)(i + 1);
	raw[255] = '\0';
	json_t *o = json_object();
	jsonio_set(o, "ctl", jsonio_str("a\tb\nc\x01\x1f\"\\"));
	jsonio_set(o, "raw", jsonio_str(raw));
	jsonio_set(o, "none", jsonio_str(NULL));
	char *s = dump(o, false);
	assert_non_null(strstr(s, "\"a\\tb\\nc\\u0001\\u001F\\\"\\\\\""));
	struct diag d;
	diag_init(&d);
	json_t *back = jsonio_parse(s, strlen(s), "s", &d);
	assert_non_null(back);
	assert_string_equal(jsonio_get_str(back, "ctl", NULL), "a\tb\nc\x01\x1f\"\\");
	assert_int_equal(strlen(jsonio_get_str(back, "raw", "")), 127 + 128 * 3); /* 0x80.. replaced */
	assert_true(json_is_null(json_object_get(back, "none")));
	json_decref(back);
	free(s);
	diag_free(&d);
}

static void test_values(void **state)
{
	struct diag d;
	diag_init(&d);
	const char *text =
	    " {\"a\": [1, -2.5e3, 0, -0, 1E+2], \"b\": {\"c\": null, \"d\": true, \"e\": false},"
	    " \"s\": \"x\", \"empty\": {}, \"none\": []}\n";
	json_t *v = jsonio_parse(text, strlen(text), "t.json", &d);
	assert_non_null(v);
	const json_t *b = json_object_get(v, "b");
	assert_true(jsonio_get_bool(b, "d", false));
	assert_false(jsonio_get_bool(b, "e", true));
	assert_true(isnan(jsonio_get_num(b, "c", 7))); /* null reads as NaN */
	assert_true(jsonio_get_num(b, "zz", 7) == 7);
	assert_string_equal(jsonio_get_str(v, "s", NULL), "x");
	assert_null(jsonio_get_str(v, "a", NULL)); /* wrong kind: default */
	assert_true(isnan(jsonio_num_value(json_object_get(v, "s"))));

	/* Pretty: two-space indent, arrays of plain numbers on one line,
	 * keys in insertion order, a final newline. */
	char *s = dump(v, true);
	assert_string_equal(s, "{\n  \"a\": [1,-2500.0,0,0,100.0],\n  \"b\": {\n    \"c\": null,\n"
	                       "    \"d\": true,\n    \"e\": false\n  },\n  \"s\": \"x\",\n"
	                       "  \"empty\": {},\n  \"none\": []\n}\n");
	free(s);
	diag_free(&d);
}

/* Nesting is not clamped: 100 levels written and read back. */
static void test_deep(void **state)
{
	json_t *root = json_array(), *cur = root;
	for (int i = 1; i < 100; i++) {
		json_t *next = i % 2 ? json_object() : json_array();
		if (json_is_array(cur))
			jsonio_push(cur, next);
		else
			jsonio_set(cur, "k", next);
		cur = next;
	}
	jsonio_set(cur, "leaf", jsonio_num(1.5));
	char *s = dump(root, false);
	struct diag d;
	diag_init(&d);
	json_t *v = jsonio_parse(s, strlen(s), "deep", &d);
	assert_non_null(v);
	int depth = 0;
	for (const json_t *p = v; p; depth++)
		p = json_is_array(p) ? json_array_get(p, 0) : json_object_get(p, "k");
	assert_int_equal(depth, 100);
	json_decref(v);
	/* Both ways pretty too */
	v = jsonio_parse(s, strlen(s), "deep", &d);
	free(s);
	s = dump(v, true);
	assert_non_null(strstr(s, "\"leaf\": 1.5"));
	free(s);
	assert_int_equal(d.nerrors, 0);
	diag_free(&d);
}

static void test_errors(void **state)
{
	static const struct {
		const char *text, *msg;
		int line, col;
	} cases[] = {
	    {"", "invalid JSON", 1, 1},
	    {"[1, 2,]", "unexpected token", 1, 7},
	    {"[01]", "invalid token", 1, 2},
	    {"[\"\\u0000\"]", "\\u0000 is not allowed", 1, 9},
	    {"{\"a\": 1,\n \"a\": 2}", "duplicate object key", 2, 4},
	    {"{\"a\" 1}", "':' expected", 1, 6},
	    {"{} x", "end of file expected", 1, 4},
	    {"{\"a\":\n\n   ]}", "unexpected token", 3, 4},
	    {"[1e999]", "overflow", 1, 6},
	    {"[99999999999999999999]", "too big", 1, 21},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct diag d;
		diag_init(&d);
		json_t *v = jsonio_parse(cases[i].text, strlen(cases[i].text), "t.json", &d);
		if (v)
			fail_msg("case %zu parsed: %s", i, cases[i].text);
		assert_int_equal(d.nerrors, 1);
		if (!strstr(d.v[0].msg, cases[i].msg) || d.v[0].pos.line != cases[i].line ||
		    d.v[0].pos.col != cases[i].col)
			fail_msg("case %zu (%s): got %d:%d %s; want %d:%d %s", i, cases[i].text,
			         d.v[0].pos.line, d.v[0].pos.col, d.v[0].msg, cases[i].line, cases[i].col,
			         cases[i].msg);
		assert_string_equal(d.v[0].pos.file, "t.json");
		diag_free(&d);
	}

	/* Too deep for jansson's parser: refused, not a stack overflow. */
	static char deep[5000];
	memset(deep, '[', 4000);
	struct diag d;
	diag_init(&d);
	assert_null(jsonio_parse(deep, strlen(deep), "t", &d));
	assert_int_equal(d.nerrors, 1);
	diag_free(&d);

	/* Not NUL-terminated: only len bytes are read. */
	diag_init(&d);
	json_t *v = jsonio_parse("[1]xyz", 3, "t", &d);
	assert_non_null(v);
	json_decref(v);
	assert_null(jsonio_parse_file("/nonexistent/x.json", &d));
	assert_int_equal(d.nerrors, 1);
	diag_free(&d);
}

/* Mutated and truncated documents: every result is a tree or one error,
 * never a crash (run under ASan in CI). */
static void test_mutations(void **state)
{
	static const char doc[] = "{\"a\": [1, -2.5e3, true, null, \"s\\u00e9\\n\"], \"b\": {\"c\": {}}, "
	                          "\"d\": \"\\ud83d\\ude00\", \"e\": [[[]]], \"f\": 0.5}";
	static const char alphabet[] = "{}[]\",:\\u0123456789eE+-.tfn \n\x01\xff";
	char buf[sizeof(doc)];
	unsigned seed = 7;
	size_t ok = 0;
	for (int round = 0; round < 5000; round++) {
		memcpy(buf, doc, sizeof(doc));
		int nmut = 1 + (int)(rand_r(&seed) % 3);
		for (int k = 0; k < nmut; k++)
			buf[rand_r(&seed) % (sizeof(doc) - 1)] =
			    alphabet[rand_r(&seed) % (sizeof(alphabet) - 1)];
		size_t len = rand_r(&seed) % 4 ? sizeof(doc) - 1 : rand_r(&seed) % sizeof(doc);
		struct diag d;
		diag_init(&d);
		json_t *v = jsonio_parse(buf, len, "m", &d);
		assert_int_equal(v ? 0 : 1, d.nerrors);
		if (v) /* what was read can be written again */
			free(dump(v, ok % 2));
		ok += v != NULL;
		diag_free(&d);
	}
	/* some mutations keep the document valid, most do not */
	assert_true(ok > 0 && ok < 5000);
}

/* Keys are made valid too: jansson refuses a key that is not UTF-8, and
 * json_object_set_new() would drop the member without a word. */
static void test_keys(void **state)
{
	json_t *o = json_object();
	jsonio_set(o, "m_\377\376x", jsonio_str("v"));
	jsonio_set(o, "plain", jsonio_num(1));
	jsonio_set(o, "ctl\x01\x1b[31m", jsonio_str("c"));
	jsonio_set(o, NULL, jsonio_str("dropped")); /* no key: dropped, no leak */
	assert_int_equal(json_object_size(o), 3);
	assert_string_equal(jsonio_get_str(o, "m_\xef\xbf\xbd\xef\xbf\xbdx", ""), "v");
	char *s = dump(o, true);
	assert_non_null(strstr(s, "\"m_\xef\xbf\xbd\xef\xbf\xbdx\": \"v\""));
	assert_non_null(strstr(s, "\"ctl\\u0001\\u001B[31m\": \"c\""));
	struct diag d;
	diag_init(&d);
	json_t *back = jsonio_parse(s, strlen(s), "s", &d);
	assert_non_null(back);
	assert_int_equal(json_object_size(back), 3);
	assert_string_equal(jsonio_get_str(back, "ctl\x01\x1b[31m", ""), "c");
	json_decref(back);
	diag_free(&d);
	free(s);
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_numbers), cmocka_unit_test(test_strings), cmocka_unit_test(test_values),
	    cmocka_unit_test(test_deep),    cmocka_unit_test(test_errors),  cmocka_unit_test(test_mutations),
	    cmocka_unit_test(test_keys),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

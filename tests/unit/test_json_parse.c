/* test_json_parse: the strict JSON parser, and a round trip through the
 * JSON writer (engine/json.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "json_parse.h"

static struct jv *parse(const char *s, struct diag *d)
{
	return jv_parse(s, strlen(s), "t.json", d);
}

static void test_values(void **state)
{
	struct diag d;
	diag_init(&d);
	struct jv *v =
	    parse(" {\"a\": [1, -2.5e3, 0, -0, 1E+2], \"b\": {\"c\": null, \"d\": true, \"e\": false},"
	          " \"s\": \"x\", \"empty\": {}, \"none\": []}\n",
	          &d);
	assert_non_null(v);
	assert_int_equal(d.nerrors, 0);
	assert_int_equal(v->kind, JV_OBJ);
	assert_int_equal(v->n, 5);
	const struct jv *a = jv_get(v, "a");
	assert_int_equal(a->kind, JV_ARR);
	assert_int_equal(a->n, 5);
	assert_true(a->items[1]->num == -2500);
	assert_string_equal(a->items[1]->str, "-2.5e3"); /* text kept as written */
	assert_string_equal(a->items[4]->str, "1E+2");
	assert_true(a->items[4]->num == 100);
	const struct jv *b = jv_get(v, "b");
	assert_int_equal(jv_get(b, "c")->kind, JV_NULL);
	assert_true(jv_get_bool(b, "d", false));
	assert_false(jv_get_bool(b, "e", true));
	assert_true(isnan(jv_get_num(b, "c", 7))); /* null reads as NaN */
	assert_true(jv_get_num(b, "zz", 7) == 7);
	assert_string_equal(jv_get_str(v, "s", NULL), "x");
	assert_null(jv_get_str(v, "a", NULL)); /* wrong kind: default */
	assert_int_equal(jv_get(v, "empty")->n, 0);
	assert_int_equal(jv_get(v, "none")->kind, JV_ARR);
	assert_null(jv_get(a, "x")); /* not an object */
	/* positions */
	assert_int_equal(v->line, 1);
	assert_int_equal(v->col, 2);
	assert_string_equal(jv_kind_name(JV_OBJ), "object");
	jv_free(v);

	/* many members (growth) */
	char big[20000];
	size_t k = 0;
	k += (size_t)sprintf(big + k, "[");
	for (int i = 0; i < 1000; i++)
		k += (size_t)sprintf(big + k, "%s%d", i ? "," : "", i);
	sprintf(big + k, "]");
	v = parse(big, &d);
	assert_int_equal(v->n, 1000);
	assert_true(v->items[999]->num == 999);
	jv_free(v);
	diag_free(&d);
}

static void test_strings(void **state)
{
	struct diag d;
	diag_init(&d);
	struct jv *v =
	    parse("\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t \\u00e9 \\u20ac \\ud83d\\ude00 h\xc3\xa9\"", &d);
	assert_non_null(v);
	assert_string_equal(v->str, "a\"b\\c/d\b\f\n\r\t \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 h\xc3\xa9");
	jv_free(v);

	/* Whatever the writer escapes, the parser reads back. */
	char raw[256];
	for (int i = 0; i < 255; i++)
		raw[i] = (char)(i + 1);
	raw[255] = '\0';
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json_w w;
	json_init(&w, f, true);
	json_obj_begin(&w);
	json_key(&w, raw);
	json_str(&w, raw);
	json_key(&w, "n");
	json_num(&w, 0.1);
	json_key(&w, "big");
	json_num(&w, 1e300);
	json_key(&w, "nan");
	json_num(&w, NAN);
	json_obj_end(&w);
	fclose(f);
	v = jv_parse(buf, len, "w", &d);
	assert_non_null(v);
	assert_string_equal(v->keys[0], raw);
	assert_string_equal(v->items[0]->str, raw);
	assert_true(jv_get_num(v, "n", 0) == 0.1);
	assert_true(jv_get_num(v, "big", 0) == 1e300);
	assert_true(isnan(jv_get_num(v, "nan", 0)));
	jv_free(v);
	free(buf);
	diag_free(&d);
}

static void test_errors(void **state)
{
	static const struct {
		const char *text, *msg;
		int line, col;
	} cases[] = {
	    {"", "unexpected end", 1, 1},
	    {"[1, 2,]", "unexpected character", 1, 7},
	    {"{\"a\": 1,}", "string key", 1, 9},
	    {"[01]", "leading zeros", 1, 3},
	    {"[1.]", "digit after '.'", 1, 4},
	    {"[1e]", "exponent", 1, 4},
	    {"[-]", "expected a digit", 1, 3},
	    {"\"abc", "unterminated string", 1, 5},
	    {"\"a\tb\"", "control character", 1, 3},
	    {"\"\\x\"", "unknown escape", 1, 2},
	    {"\"\\u12G4\"", "4 hex digits", 1, 4},
	    {"\"\\ud800\"", "lone high surrogate", 1, 8},
	    {"\"\\udc00\"", "lone low surrogate", 1, 8},
	    {"\"\\u0000\"", "\\u0000", 1, 8},
	    {"{\"a\": 1,\n \"a\": 2}", "duplicate key", 2, 2},
	    {"{\"a\" 1}", "expected ':'", 1, 6},
	    {"[1 2]", "expected ',' or ']'", 1, 4},
	    {"{} x", "after the value", 1, 4},
	    {"NaN", "unexpected character", 1, 1},
	    {"tru", "true, false or null", 1, 1},
	    {"{\"a\":\n\n   ]}", "unexpected character", 3, 4},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct diag d;
		diag_init(&d);
		struct jv *v = parse(cases[i].text, &d);
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

	/* Too deep: refused, not a stack overflow. */
	char deep[2000];
	memset(deep, '[', 1000);
	deep[1000] = '\0';
	struct diag d;
	diag_init(&d);
	assert_null(parse(deep, &d));
	assert_non_null(strstr(d.v[0].msg, "too deep"));
	diag_free(&d);

	/* Not NUL-terminated: only len bytes are read. */
	diag_init(&d);
	struct jv *v = jv_parse("[1]xyz", 3, "t", &d);
	assert_non_null(v);
	jv_free(v);
	assert_null(jv_parse_file("/nonexistent/x.json", &d));
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
		struct jv *v = jv_parse(buf, len, "m", &d);
		assert_int_equal(v ? 0 : 1, d.nerrors);
		ok += v != NULL;
		jv_free(v);
		diag_free(&d);
	}
	/* some mutations keep the document valid, most do not */
	assert_true(ok > 0 && ok < 5000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_values),
	    cmocka_unit_test(test_strings),
	    cmocka_unit_test(test_errors),
	    cmocka_unit_test(test_mutations),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Tests of pgbench expressions without a server (pgb_expr, pgb_eval,
 * pgb_val): every operator, function and value type of pgbench 15, its
 * coercions and null rules, its run-time errors and its parse errors. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pgb_eval.h"
#include "pgb_hash.h"
#include "pgb_permute.h"

static const struct src_pos test_pos = {"t.sql", 3, 10};

/* the variables: x=10, d=2.5, t (text, set by tests), n=null, b=true,
 * default_seed (unset unless a test sets it) */
static char *names[32] = {"x", "d", "t", "n", "b", "default_seed"};
static int nnames = 6;
static struct pgb_val vars[32];
static struct pgb_rng rng;
static char err[256];
static char debug_out[1024];

static int slot(void *ctx, const char *name, size_t len)
{
	(void)ctx;
	for (int i = 0; i < nnames; i++)
		if (strlen(names[i]) == len && !strncmp(names[i], name, len))
			return i;
	names[nnames] = strndup(name, len);
	return nnames++;
}

static void debug_line(void *arg, const char *line)
{
	(void)arg;
	strncat(debug_out, line, sizeof(debug_out) - strlen(debug_out) - 1);
}

static int setup(void **state)
{
	(void)state;
	for (int i = 0; i < 32; i++)
		pgb_val_clear(&vars[i]);
	vars[0] = (struct pgb_val){.type = PGB_V_INT, .i = 10};
	vars[1] = (struct pgb_val){.type = PGB_V_DOUBLE, .d = 2.5};
	vars[3] = (struct pgb_val){.type = PGB_V_NULL};
	vars[4] = (struct pgb_val){.type = PGB_V_BOOL, .b = true};
	pgb_rng_seed(&rng, 7);
	debug_out[0] = '\0';
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	for (int i = 0; i < 32; i++)
		pgb_val_clear(&vars[i]);
	return 0;
}

static int ev(const char *expr, struct pgb_val *out)
{
	struct diag d;

	diag_init(&d);
	struct pgb_expr *e = pgb_expr_parse(expr, &test_pos, slot, NULL, &d);

	if (!e) {
		char buf[512] = "";

		if (d.nerrors)
			diag_format_one(&d.v[0], buf, sizeof(buf));
		fail_msg("%s does not parse: %s", expr, buf);
	}
	struct pgb_eval_ctx c = {
	    .vars = vars, .rng = &rng, .script = 1, .command = 4, .default_seed = 42, .debug = debug_line};

	err[0] = '\0';
	int rc = pgb_eval(e, &c, out, err, sizeof(err));

	pgb_expr_free(e);
	diag_free(&d);
	return rc;
}

static struct pgb_val ok(const char *expr, enum pgb_vtype type)
{
	struct pgb_val v;

	if (ev(expr, &v))
		fail_msg("%s: %s", expr, err);
	if (v.type != type)
		fail_msg("%s: type %d, want %d", expr, v.type, type);
	return v;
}

#define IV(expr, want) assert_int_equal(ok(expr, PGB_V_INT).i, (want))
#define DV(expr, want) assert_true(ok(expr, PGB_V_DOUBLE).d == (want))
#define BV(expr, want) assert_int_equal(ok(expr, PGB_V_BOOL).b, (want))
#define NV(expr)       (void)ok(expr, PGB_V_NULL)

static void everr(const char *expr, const char *msg)
{
	struct pgb_val v;

	if (ev(expr, &v) != -1 || !strstr(err, msg))
		fail_msg("%s: want error \"%s\", got rc 0 or \"%s\"", expr, msg, err);
}

/* A parse error at column col of the expression (1-based; 0: any)
 * naming msg. */
static void perr(const char *expr, int col, const char *msg)
{
	struct diag d;
	char buf[512] = "";

	diag_init(&d);
	struct pgb_expr *e = pgb_expr_parse(expr, &test_pos, slot, NULL, &d);

	if (d.nerrors)
		diag_format_one(&d.v[0], buf, sizeof(buf));
	if (e || !d.nerrors || !strstr(buf, msg) || d.v[0].pos.line != 3 ||
	    (col && d.v[0].pos.col != 9 + col))
		fail_msg("%s: want \"%s\" at col %d, got \"%s\" at %d", expr, msg, col, buf,
		         d.nerrors ? d.v[0].pos.col - 9 : 0);
	diag_free(&d);
}

static void test_arith(void **state)
{
	(void)state;
	IV("1 + 2 * 3", 7);
	IV("(1 + 2) * 3", 9);
	IV("-7 / 2", -3);
	IV("-7 % 3", -1);
	IV("mod(-7, 3)", -1);
	IV(":x * 3 - 1", 29);
	IV("- - 4", 4);
	IV("+5", 5);
	IV("9223372036854775807", INT64_MAX);
	IV("-9223372036854775808", INT64_MIN);
	IV("-9223372036854775808 / 2", INT64_MIN / 2);
	IV("-9223372036854775808 % -1", 0);
	IV("5 / -1", -5);
	DV("1 / 2.0", 0.5);
	DV(":d * 2", 5.0);
	DV("1.", 1.0);
	DV(".5e1", 5.0);
	DV("1e2", 100.0);
	DV("1 / 0.0", INFINITY);
	DV("-(0.0)", 0.0);
	IV("7.5 % 2", 0); /* % rounds doubles to ints */
	everr("9223372036854775807 + 1", "bigint add out of range");
	everr("-9223372036854775807 - 2", "bigint sub out of range");
	everr("4611686018427387904 * 2", "bigint mul out of range");
	everr("-9223372036854775808 / -1", "bigint div out of range");
	everr("-(-9223372036854775808)", "bigint sub out of range");
	everr("1 / 0", "division by zero");
	everr("1 % 0", "division by zero");
	everr("mod(1, 0)", "division by zero");
	everr("1 + true", "cannot coerce boolean to int");
	everr("1.5 + true", "cannot coerce boolean to double");
	everr(":nosuch + 1", "undefined variable \"nosuch\"");
	everr("1e300 * 1e300 % 2", "double to int overflow");
}

static void test_compare_logic(void **state)
{
	(void)state;
	BV("1 < 2", true);
	BV("2 > 1", true);
	BV("1 >= 1.0", true);
	BV("1 <= 0", false);
	BV("1 = 1", true);
	BV("1 <> 1", false);
	BV("1 != 2", true);
	BV("0.1 + 0.2 = 0.3", false);
	BV("true AND false", false);
	BV("true OR false", true);
	BV("NOT true", false);
	BV("not false and false", false); /* (NOT false) AND false */
	BV("1 < 2 and 2 < 3 or false", true);
	BV(":b", true);
	BV("false AND 1 / 0 = 1", false); /* short circuit */
	BV("true OR 1 / 0 = 1", true);
	NV("null AND true");
	NV("null OR true"); /* pgbench: a null left operand gives null */
	NV("true AND null");
	NV("NOT null");
	everr("1 AND true", "cannot coerce int to boolean");
	everr("true AND 2.5", "cannot coerce double to boolean");
	everr("NOT 0", "cannot coerce int to boolean");
	everr("true = true", "cannot coerce boolean to int");
	perr("1 < 2 < 3", 7, "comparisons do not chain");
	perr("1 = 2 <> 3", 7, "comparisons do not chain");
}

static void test_bits(void **state)
{
	(void)state;
	IV("12 & 10", 8);
	IV("12 | 3", 15);
	IV("12 # 10", 6);
	IV("~0", -1);
	IV("~5", -6);
	IV("1 << 4", 16);
	IV("-16 >> 2", -4);
	IV("1 << 64", 1);   /* the count modulo 64, as x86 */
	IV("1 + 2 & 3", 3); /* + binds tighter than & */
	IV("1 & 2 | 3", 3); /* one level, left to right */
	IV("6 | 1 & 3", 3); /* (6 | 1) & 3 */
	IV("~1 + 2", -4);   /* ~(1 + 2) */
	IV("2 * ~1", -4);
	IV("5.4 & 7", 5);
	everr("true & 1", "cannot coerce boolean to int");
	NV("null | 1");
}

static void test_null_is_case(void **state)
{
	(void)state;
	NV("null");
	NV(":n");
	NV("1 + null");
	NV("abs(null)");
	NV("greatest(1, null)");
	BV("null IS NULL", true);
	BV("1 IS NULL", false);
	BV("1 IS NOT NULL", true);
	BV(":n ISNULL", true);
	BV(":x NOTNULL", true);
	BV("true IS TRUE", true);
	BV("false IS TRUE", false);
	BV("false IS NOT TRUE", true);
	BV("1 IS TRUE", false);
	BV("null IS FALSE", false);
	BV("1 + 1 IS NULL", false);
	BV("NOT 1 IS NULL", true); /* NOT (1 IS NULL) */
	BV("1 ISNULL ISNULL", false);
	IV("CASE WHEN true THEN 1 ELSE 2 END", 1);
	IV("case when false then 1 when 3 then 7 else 2 end", 7);
	IV("CASE WHEN 0 THEN 1 WHEN 0.0 THEN 2 WHEN null THEN 3 ELSE 4 END", 4);
	NV("CASE WHEN false THEN 1 END");
	IV("CASE WHEN :x > 5 THEN :x * 2 ELSE 1 / 0 END", 20); /* lazy */
	perr("CASE END", 6, "expected WHEN");
	perr("CASE WHEN 1 THEN 2", 19, "expected END");
	perr("1 IS 2", 6, "NULL, TRUE or FALSE");
}

static void test_functions(void **state)
{
	(void)state;
	IV("abs(-4)", 4);
	DV("abs(-2.5)", 2.5);
	IV("abs(-9223372036854775808)", INT64_MIN); /* wraps, as pgbench */
	DV("double(3)", 3.0);
	DV("exp(0)", 1.0);
	DV("ln(1)", 0.0);
	DV("sqrt(16)", 4.0);
	DV("pow(2, 10)", 1024.0);
	DV("power(2.0, -1)", 0.5);
	DV("pi()", M_PI);
	IV("int(2.5)", 2); /* rint: to even */
	IV("int(3.5)", 4);
	IV("int(-2.7)", -3);
	IV("int(7)", 7);
	IV("greatest(1, 5, 3)", 5);
	IV("least(4, -2, 3)", -2);
	DV("greatest(1, 2.5)", 2.5);
	DV("least(1, 2.5)", 1.0); /* a double among the arguments: double */
	IV("GREATEST(1)", 1);
	IV("greatest(, 4, 2)", 4); /* a leading comma, as pgbench's grammar allows */
	everr("int(1e300)", "double to int overflow");
	everr("sqrt(true)", "cannot coerce boolean to double");
	everr("greatest(1, true)", "cannot coerce boolean to int");
	everr("greatest(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17)",
	      "too many function arguments, maximum is 16");
	IV("greatest(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16)", 16);
	IV("random(5, 5)", 5);
	for (int i = 0; i < 50; i++) {
		int64_t r = ok("random(-3, 3)", PGB_V_INT).i;

		assert_true(r >= -3 && r <= 3);
		r = ok("random_gaussian(1, 10, 2.5)", PGB_V_INT).i;
		assert_true(r >= 1 && r <= 10);
		r = ok("random_exponential(1, 10, 1.5)", PGB_V_INT).i;
		assert_true(r >= 1 && r <= 10);
		r = ok("random_zipfian(1, 10, 1.5)", PGB_V_INT).i;
		assert_true(r >= 1 && r <= 10);
	}
	everr("random(5, 4)", "empty range given to random");
	everr("random(-9223372036854775808, 9223372036854775807)", "random range is too large");
	everr("random_gaussian(1, 10, 1.5)", "gaussian parameter must be at least 2.000000 (not 1.500000)");
	everr("random_zipfian(1, 10, 1.0)",
	      "zipfian parameter must be in range [1.001, 1000] (not 1.000000)");
	everr("random_zipfian(1, 10, 1001)", "zipfian parameter");
	everr("random_exponential(1, 10, 0)", "exponential parameter must be greater than zero");
	everr("random(1, true)", "cannot coerce boolean to int");
}

static void test_hash_permute(void **state)
{
	(void)state;
	/* without a seed argument: :default_seed, else the run's seed */
	IV("hash(5)", pgb_hash_murmur2(5, 42));
	IV("hash_murmur2(5, 3)", pgb_hash_murmur2(5, 3));
	IV("hash_fnv1a(5)", pgb_hash_fnv1a(5, 42));
	IV("hash_fnv1a(5, 3)", pgb_hash_fnv1a(5, 3));
	IV("permute(3, 10)", pgb_permute(3, 10, 42));
	IV("permute(3, 10, 9)", pgb_permute(3, 10, 9));
	vars[5] = (struct pgb_val){.type = PGB_V_INT, .i = 77};
	IV("hash(5)", pgb_hash_murmur2(5, 77));
	IV("permute(3, 10)", pgb_permute(3, 10, 77));
	everr("permute(1, 0)", "permute size parameter must be greater than zero");
	everr("hash(true)", "cannot coerce boolean to int");
	NV("hash(null)");
}

static void test_debug(void **state)
{
	(void)state;
	IV("debug(17)", 17);
	DV("debug(2.5)", 2.5);
	BV("debug(1 < 2)", true);
	NV("debug(null)");
	DV("debug(1.0 / 3)", 1.0 / 3);
	assert_string_equal(debug_out, "debug(script=1,command=5): int 17\n"
	                               "debug(script=1,command=5): double 2.5\n"
	                               "debug(script=1,command=5): boolean true\n"
	                               "debug(script=1,command=5): null\n"
	                               "debug(script=1,command=5): double 0.333333333333333\n");
	/* debug() is evaluated before a division error, and > evaluates right first */
	debug_out[0] = '\0';
	BV("debug(1) > debug(2)", false);
	assert_string_equal(debug_out,
	                    "debug(script=1,command=5): int 2\ndebug(script=1,command=5): int 1\n");
}

/* The text read as pgbench's makeVariableValue reads it. */
static struct pgb_val text(const char *s)
{
	assert_int_equal(pgb_val_set_text(&vars[2], s, strlen(s)), 0);
	struct pgb_val v;

	if (ev(":t", &v))
		v.type = PGB_V_UNSET;
	return v;
}

static void test_text(void **state)
{
	(void)state;
	struct pgb_val v;

	assert_int_equal(text("42").i, 42);
	assert_int_equal(text(" -7").i, -7);
	assert_int_equal(text("+3").type, PGB_V_INT);
	assert_int_equal(text("-9223372036854775808").i, INT64_MIN);
	assert_int_equal(text("NULL").type, PGB_V_NULL);
	v = text("t");
	assert_true(v.type == PGB_V_BOOL && v.b);
	v = text("Yes");
	assert_true(v.type == PGB_V_BOOL && v.b);
	v = text("on");
	assert_true(v.type == PGB_V_BOOL && v.b);
	v = text("of");
	assert_true(v.type == PGB_V_BOOL && !v.b);
	v = text("n");
	assert_true(v.type == PGB_V_BOOL && !v.b);
	v = text("FALSE");
	assert_true(v.type == PGB_V_BOOL && !v.b);
	v = text("1.5");
	assert_true(v.type == PGB_V_DOUBLE && v.d == 1.5);
	v = text("0x10");
	assert_true(v.type == PGB_V_DOUBLE && v.d == 16.0);
	v = text("1e3");
	assert_true(v.type == PGB_V_DOUBLE && v.d == 1000.0);
	assert_int_equal(text("9223372036854775808").type, PGB_V_UNSET);
	assert_non_null(strstr(err, "out of range for type bigint"));
	assert_int_equal(text("12 ").type, PGB_V_UNSET);
	assert_string_equal(err, "malformed variable \"t\" value: \"12 \"");
	assert_int_equal(text("o").type, PGB_V_UNSET);
	assert_int_equal(text("").type, PGB_V_UNSET);
	assert_non_null(strstr(err, "malformed variable"));
	assert_int_equal(text("1e400").type, PGB_V_UNSET);
	text("20");
	IV(":t + 1", 21);
	/* set_text reuses the buffer; pgb_val_set keeps it over a number */
	char *buf = vars[2].buf;

	assert_int_equal(pgb_val_set_text(&vars[2], "7", 1), 0);
	assert_ptr_equal(vars[2].buf, buf);
	struct pgb_val n = {.type = PGB_V_INT, .i = 3};

	assert_int_equal(pgb_val_set(&vars[2], &n), 0);
	assert_ptr_equal(vars[2].buf, buf);
	IV(":t", 3);
	assert_int_equal(pgb_val_set_text(&vars[2], "abc", 3), 0);
	assert_ptr_equal(vars[2].buf, buf);
	struct pgb_val copy = {0};

	assert_int_equal(pgb_val_set(&copy, &vars[2]), 0);
	assert_string_equal(copy.buf, "abc");
	assert_ptr_not_equal(copy.buf, buf);
	pgb_val_clear(&copy);
	assert_null(copy.buf);
	assert_int_equal(copy.type, PGB_V_UNSET);
}

static void test_format(void **state)
{
	(void)state;
	char buf[64];
	size_t n;
	struct pgb_val v = {.type = PGB_V_INT, .i = INT64_MIN};

	assert_int_equal(pgb_val_format(&v, buf, sizeof(buf)), 20);
	assert_string_equal(buf, "-9223372036854775808");
	v = (struct pgb_val){.type = PGB_V_DOUBLE, .d = 1.0 / 3};
	pgb_val_format(&v, buf, sizeof(buf));
	assert_string_equal(buf, "0.333333333333333");
	v.d = 1e20;
	pgb_val_format(&v, buf, sizeof(buf));
	assert_string_equal(buf, "1e+20");
	v.d = -INFINITY;
	pgb_val_format(&v, buf, sizeof(buf));
	assert_string_equal(buf, "-Infinity"); /* as PostgreSQL's snprintf */
	v.d = NAN;
	pgb_val_format(&v, buf, sizeof(buf));
	assert_string_equal(buf, "NaN");
	v = (struct pgb_val){.type = PGB_V_BOOL, .b = false};
	pgb_val_format(&v, buf, sizeof(buf));
	assert_string_equal(buf, "false");
	v = (struct pgb_val){.type = PGB_V_NULL};
	pgb_val_format(&v, buf, sizeof(buf));
	assert_string_equal(buf, "NULL");
	assert_int_equal(pgb_val_set_text(&v, "hello world", 11), 0);
	assert_int_equal(pgb_val_format(&v, buf, 6), 5);
	assert_string_equal(buf, "hello");
	assert_ptr_equal(pgb_val_str(&v, buf, sizeof(buf), &n), v.buf);
	assert_int_equal(n, 11);
	pgb_val_clear(&v);
	v = (struct pgb_val){.type = PGB_V_INT, .i = 12};
	assert_string_equal(pgb_val_str(&v, buf, sizeof(buf), &n), "12");
	assert_true(pgb_val_truth(&v));
	v.i = 0;
	assert_false(pgb_val_truth(&v));
	v = (struct pgb_val){.type = PGB_V_NULL};
	assert_false(pgb_val_truth(&v));
}

static void test_parse_errors(void **state)
{
	(void)state;
	perr("foo(1)", 1, "unknown function 'foo'");
	perr("random_uniform(1, 2)", 1, "unknown function 'random_uniform'");
	perr("x", 1, "unknown function 'x'");
	perr("abs()", 1, "function abs takes 1 argument, got 0");
	perr("random(1)", 1, "function random takes 2 arguments, got 1");
	perr("least()", 1, "takes at least 1 argument");
	perr("hash(1, 2, 3)", 1, "function hash takes 1 or 2 arguments, got 3");
	perr("permute(1)", 1, "function permute takes 2 or 3 arguments, got 1");
	perr("99999999999999999999", 1, "bigint constant overflow (99999999999999999999)");
	perr("9223372036854775808", 1, "only valid after a unary minus");
	perr("1 - 9223372036854775808", 5, "bigint constant overflow");
	perr("1e400", 1, "double constant overflow");
	perr("1 @ 2", 3, "unexpected character (@)");
	perr("1 +", 4, "expression expected");
	perr("", 1, "expression expected");
	perr("(1 + 2", 7, "expected ')'");
	perr("random(1, 2", 12, "expected ',' or ')'");
	perr("1 2", 3, "syntax error");
	perr("1e", 2, "syntax error");
	perr("null(1)", 5, "syntax error");
	perr("not", 4, "expression expected");
	perr("abs(, , 1)", 7, "syntax error");
	perr("hash(1,)", 8, "syntax error");

	/* nesting is bounded (the parser recurses), generously */
	char deep[6000];
	int k = 0;

	for (int i = 0; i < 1000; i++)
		k += sprintf(deep + k, "abs(");
	k += sprintf(deep + k, "1");
	for (int i = 0; i < 1000; i++)
		deep[k++] = ')';
	deep[k] = '\0';
	perr(deep, 0, "nested too deeply");
	memset(deep, '(', 200);
	strcpy(deep + 200, "-1");
	memset(deep + 202, ')', 200);
	deep[402] = '\0';
	IV(deep, -1);

	/* a long chain is a tree as deep as it is long: bounded too */
	static char chain[20000];
	k = sprintf(chain, "1");
	for (int i = 0; i < 3000; i++)
		k += sprintf(chain + k, "+1");
	IV(chain, 3001);
	for (int i = 0; i < 1500; i++)
		k += sprintf(chain + k, "+1");
	perr(chain, 0, "expression too long");
}

/* pgbench 15.18's own values: `pgbench -n -t 1 -c 2 --random-seed=7` on
 * tests/workloads/pgbench/pgbench_expr/rand.sql printed these debug() lines (per
 * command, the two clients' values); the evaluator over pgb_rand's seeding
 * of the run draws the same, client by client. */
static void test_pgbench_vectors(void **state)
{
	(void)state;
	static const char *const ex[] = {"random(1, 100)",
	                                 "random(-1000000000000, 1000000000000)",
	                                 "random_exponential(1, 100, 2.5)",
	                                 "random_gaussian(1, 100, 2.5)",
	                                 "random_zipfian(1, 100, 1.5)",
	                                 "random_zipfian(1, 1000, 0.999 + 0.5)",
	                                 "hash(5)",
	                                 "hash_fnv1a(5)",
	                                 "permute(3, 100)"};
	static const int64_t want[2][9] = {
	    {46, -950610837509, 74, 56, 6, 18, 8972802115495292598, 6159765915198690875, 65},
	    {58, 197816854302, 3, 43, 7, 6, 8972802115495292598, 6159765915198690875, 65}};
	struct pgb_rng cl[2];
	struct pgb_thread_rngs th[1];
	int64_t seed;

	pgb_rand_seed_run(7, 2, 1, false, cl, th, &seed);
	for (int k = 0; k < 2; k++) {
		struct pgb_eval_ctx c = {.vars = vars, .rng = &cl[k], .default_seed = seed};

		for (int i = 0; i < 9; i++) {
			struct diag d;
			struct pgb_val v;

			diag_init(&d);
			struct pgb_expr *e = pgb_expr_parse(ex[i], &test_pos, slot, NULL, &d);

			assert_non_null(e);
			assert_int_equal(pgb_eval(e, &c, &v, err, sizeof(err)), 0);
			if (v.type != PGB_V_INT || v.i != want[k][i])
				fail_msg("client %d, %s: %lld, pgbench drew %lld", k, ex[i], (long long)v.i,
				         (long long)want[k][i]);
			pgb_expr_free(e);
			diag_free(&d);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_arith, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_compare_logic, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_bits, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_null_is_case, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_functions, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_hash_permute, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_debug, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_text, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_format, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_parse_errors, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_pgbench_vectors, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Unit tests: sizes, durations and interpolation. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "interp.h"
#include "spec_load.h"
#include "spec.h"
#include "units.h"

static uint64_t size_of(const char *s)
{
	uint64_t v = 0;
	assert_int_equal(units_parse_size(s, &v, NULL, 0), 0);
	return v;
}

static void test_sizes_binary(void **state)
{
	(void)state;
	assert_int_equal(size_of("4096"), 4096);
	const char *four_k[] = {"4k", "4K", "4kB", "4KB", "4KiB", "4kib", "4 KiB"};
	for (size_t i = 0; i < sizeof(four_k) / sizeof(four_k[0]); i++)
		assert_int_equal(size_of(four_k[i]), 4096);
	assert_int_equal(size_of("1M"), 1048576);
	assert_int_equal(size_of("1MB"), 1048576);
	assert_int_equal(size_of("1MiB"), 1048576);
	assert_int_equal(size_of("4GB"), 4ULL << 30);
	assert_int_equal(size_of("2GiB"), 2ULL << 30);
	assert_int_equal(size_of("1T"), 1ULL << 40);
	assert_int_equal(size_of("3TiB"), 3ULL << 40);
	assert_int_equal(size_of("1.5k"), 1536);
	assert_int_equal(size_of("512B"), 512);
	assert_int_equal(size_of("18446744073709551615"), UINT64_MAX);
}

static void test_sizes_garbage(void **state)
{
	(void)state;
	const char *bad[] = {"4XB", "-1k", "1.5.3G", "", "k", "abc", "4 k b", "1e3", "0x10"};
	uint64_t v;
	char err[128];
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		assert_int_equal(units_parse_size(bad[i], &v, err, sizeof(err)), -EINVAL);
		assert_true(strlen(err) > 0);
	}
	assert_int_equal(units_parse_size("99999999999999T", &v, NULL, 0), -ERANGE);
	assert_int_equal(units_parse_size("18446744073709551616", &v, NULL, 0), -ERANGE);
	assert_int_equal(units_parse_size("0.3", &v, NULL, 0), -EINVAL); /* not whole bytes */
}

static void test_durations(void **state)
{
	(void)state;
	double s;
	assert_int_equal(units_parse_duration("500us", &s, NULL, 0), 0);
	assert_true(s > 0.000499 && s < 0.000501);
	assert_int_equal(units_parse_duration("10ms", &s, NULL, 0), 0);
	assert_true(s > 0.00999 && s < 0.01001);
	assert_int_equal(units_parse_duration("30s", &s, NULL, 0), 0);
	assert_true(s == 30);
	assert_int_equal(units_parse_duration("5min", &s, NULL, 0), 0);
	assert_true(s == 300);
	assert_int_equal(units_parse_duration("2h", &s, NULL, 0), 0);
	assert_true(s == 7200);
	assert_int_equal(units_parse_duration("42", &s, NULL, 0), 0);
	assert_true(s == 42);
	assert_int_equal(units_parse_duration("1.5s", &s, NULL, 0), 0);
	assert_true(s == 1.5);
	assert_int_equal(units_parse_duration("-3s", &s, NULL, 0), -EINVAL);
	assert_int_equal(units_parse_duration("3 parsecs", &s, NULL, 0), -EINVAL);
	assert_int_equal(units_parse_duration("1e999", &s, NULL, 0), -EINVAL);
	assert_true(units_has_duration_suffix("30s"));
	assert_false(units_has_duration_suffix("1m")); /* 1m is 1 MiB in fio's reading */
	assert_true(units_has_size_suffix("1m"));
	assert_false(units_has_size_suffix("30"));
}

/* ---- interpolation ---- */

static const struct node *lookup(void *ud, const char *name, bool *defer)
{
	const struct node *vars = ud;
	if (!strcmp(name, "target.path")) {
		*defer = true;
		return NULL;
	}
	return node_get(vars, name);
}

static struct node *load(const char *yaml, struct diag *d)
{
	struct node *n = spec_load_string("t.yaml", yaml, d);
	assert_non_null(n);
	return n;
}

static void test_interp(void **state)
{
	(void)state;
	struct diag d;
	diag_init(&d);
	struct node *vars = load("n: 10\ns: \"10\"\nname: ext4\n", &d);
	struct node *t = load("a: \"${n}\"\nb: x-${name}-y\nc: $${n}\nd: ${target.path}/f\ne: ${s}\n", &d);
	assert_int_equal(d.nerrors, 0);
	struct spec_budget b;
	interp_budget_for(&b, t);
	struct node *o = interp_tree(t, lookup, vars, &b, &d);
	assert_non_null(o);
	assert_string_equal(node_get(o, "a")->text, "10");
	assert_false(node_get(o, "a")->quoted); /* keeps n's type: a number */
	assert_string_equal(node_get(o, "b")->text, "x-ext4-y");
	assert_string_equal(node_get(o, "c")->text, "${n}");
	assert_string_equal(node_get(o, "d")->text, "${target.path}/f");
	assert_true(node_get(o, "e")->quoted); /* s was a quoted string */
	node_free(o);
	node_free(t);

	t = load("a: x\nb:\n  - ${nope}\n", &d);
	o = interp_tree(t, lookup, vars, &b, &d);
	assert_null(o);
	assert_int_equal(d.nerrors, 1);
	assert_int_equal(d.v[0].pos.line, 3);
	assert_int_equal(d.v[0].pos.col, 5);
	assert_non_null(strstr(d.v[0].msg, "undefined variable 'nope'"));
	node_free(t);
	t = load("a: ${unterminated\n", &d);
	assert_null(interp_tree(t, lookup, vars, &b, &d));
	assert_int_equal(d.nerrors, 2);
	node_free(t);
	node_free(vars);
	diag_free(&d);

	/* What references copy is bounded: a 1 MiB value referenced 400 times
	 * in one expansion would cost 400 MiB; it stops at the reference that
	 * goes over the budget (10 x the scenario, at least 1 MiB), with one
	 * error at its position. */
	diag_init(&d);
	size_t big = 1 << 20;
	char *yaml = malloc(big + 16);
	memcpy(yaml, "v: ", 3);
	memset(yaml + 3, 'x', big);
	strcpy(yaml + 3 + big, "\n");
	vars = load(yaml, &d);
	free(yaml);
	struct node *many = node_new(NODE_SEQ, NULL);
	for (int i = 0; i < 400; i++) {
		struct src_pos p = {diag_intern("t.yaml"), i + 1, 3};
		node_seq_push(many, node_new_scalar("a ${v} b", &p));
	}
	interp_budget_for(&b, vars); /* the scenario: about 1 MiB, so 10 MiB */
	assert_true(b.allowed >= 10 * big && b.allowed < 11 * big);
	assert_null(interp_tree(many, lookup, vars, &b, &d));
	assert_int_equal(d.nerrors, 1);
	assert_int_equal(d.v[0].pos.line, 11); /* ten copies fit, the eleventh does not */
	assert_non_null(strstr(d.v[0].msg, "goes over the limit of what interpolation may copy"));
	/* the same references, few enough, pass */
	interp_budget_for(&b, vars);
	struct node *few = node_new(NODE_SEQ, NULL);
	for (int i = 0; i < 9; i++)
		node_seq_push(few, node_new_scalar("${v}", NULL));
	o = interp_tree(few, lookup, vars, &b, &d);
	assert_non_null(o);
	assert_int_equal(d.nerrors, 1);
	node_free(o);
	node_free(few);
	node_free(many);
	node_free(vars);
	diag_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sizes_binary),
	    cmocka_unit_test(test_sizes_garbage),
	    cmocka_unit_test(test_durations),
	    cmocka_unit_test(test_interp),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

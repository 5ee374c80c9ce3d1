/* Unit tests: the YAML loader's positions and diagnostics. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "spec.h"

static void test_positions(void **state)
{
	(void)state;
	struct diag d;
	diag_init(&d);
	struct node *r = spec_load_string("p.yaml", "name: x\nsteps:\n  - name: a\n    io: {bs: 4k}\n", &d);
	assert_int_equal(d.nerrors, 0);
	const struct node *st = node_get(r, "steps");
	assert_int_equal(st->kind, NODE_SEQ);
	const struct node *io = node_get(st->items[0], "io");
	assert_int_equal(io->pos.line, 4);
	assert_int_equal(io->pos.col, 9);
	const struct node *bs = node_get(io, "bs");
	assert_int_equal(bs->pos.line, 4);
	assert_int_equal(bs->pos.col, 14);
	assert_int_equal(node_key_pos(io, "bs")->col, 10);
	node_free(r);
	diag_free(&d);
}

static void test_duplicate_and_tabs(void **state)
{
	(void)state;
	struct diag d;
	diag_init(&d);
	struct node *r = spec_load_string("dup.yaml", "a: 1\nb: 2\na: 3\n", &d);
	assert_int_equal(d.nerrors, 1);
	assert_int_equal(d.v[0].pos.line, 3);
	assert_non_null(strstr(d.v[0].msg, "duplicate key 'a'"));
	node_free(r);
	diag_free(&d);
	diag_init(&d);
	r = spec_load_string("tab.yaml", "a:\n\tb: 1\n", &d);
	assert_null(r);
	assert_int_equal(d.v[0].pos.line, 2);
	assert_int_equal(d.v[0].pos.col, 1);
	diag_free(&d);
}

static void test_typed_reads(void **state)
{
	(void)state;
	struct diag d;
	diag_init(&d);
	struct node *r = spec_load_string("t.yaml", "clients: ten\nbs: 0\nrw: raed\nsize: 4XB\n", &d);
	int64_t i;
	uint64_t u;
	int e;
	static const char *const rw[] = {"read", "write", "randread", NULL};
	assert_int_equal(node_as_int(node_get(r, "clients"), "clients", 1, 100, &i, &d), -22);
	assert_int_equal(node_as_size(node_get(r, "bs"), "bs", false, &u, &d), -22);
	assert_int_equal(node_as_enum(node_get(r, "rw"), "rw", rw, &e, &d), -22);
	assert_int_equal(node_as_size(node_get(r, "size"), "size", false, &u, &d), -22);
	assert_int_equal(d.nerrors, 4);
	assert_non_null(strstr(d.v[0].msg, "expected an integer, found 'ten'"));
	assert_non_null(strstr(d.v[1].msg, "greater than zero"));
	assert_non_null(strstr(d.v[2].msg, "did you mean 'read'"));
	assert_non_null(strstr(d.v[3].msg, "unknown size unit 'XB'"));
	char buf[256];
	diag_format_one(&d.v[0], buf, sizeof(buf));
	assert_string_equal(buf, "t.yaml:1:10: error: clients: expected an integer, found 'ten'");
	node_free(r);
	diag_free(&d);
}

static void test_non_utf8(void **state)
{
	(void)state;
	struct diag d;
	diag_init(&d);
	assert_null(spec_load_string("u.yaml", "a: 1\nb: caf\xe9\n", &d));
	assert_int_equal(d.nerrors, 1);
	assert_int_equal(d.v[0].pos.line, 2);
	assert_int_equal(d.v[0].pos.col, 7);
	diag_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_positions),
	    cmocka_unit_test(test_duplicate_and_tabs),
	    cmocka_unit_test(test_typed_reads),
	    cmocka_unit_test(test_non_utf8),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

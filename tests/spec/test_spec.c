/* Unit tests: the YAML loader's positions and diagnostics. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
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

/* Aliases copy their anchor within limits: a "billion laughs" is refused
 * at the alias that goes over, fast and small; nesting is limited (30,000
 * levels overflowed the stack), aliases included; an anchor whose node was
 * dropped (a duplicate key) still copies. */
static const char brackets[] = "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
                  closers[] = "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]";

static void test_alias_and_depth_limits(void **state)
{
	(void)state;
	struct diag d;
	diag_init(&d);
	char lol[2048] = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
	for (char c = 'b'; c <= 'j'; c++) {
		size_t o = strlen(lol);
		o += (size_t)snprintf(lol + o, sizeof(lol) - o, "%c: &%c [", c, c);
		for (int i = 0; i < 9; i++)
			o += (size_t)snprintf(lol + o, sizeof(lol) - o, "%s*%c", i ? ", " : "", c - 1);
		snprintf(lol + o, sizeof(lol) - o, "]\n");
	}
	assert_null(spec_load_string("lol.yaml", lol, &d));
	assert_int_equal(d.nerrors, 1);
	assert_int_equal(d.v[0].pos.line, 5); /* e: 9^5 strings, over 1 MiB */
	assert_non_null(strstr(d.v[0].msg, "alias '*d' goes over the limit"));
	diag_free(&d);

	/* Within the limit, aliases work. */
	diag_init(&d);
	struct node *r = spec_load_string("ok.yaml", "a: &a [x, y]\nb: [*a, *a]\n", &d);
	assert_int_equal(d.nerrors, 0);
	assert_int_equal(node_get(r, "b")->items[1]->n, 2);
	node_free(r);
	diag_free(&d);

	/* A dropped duplicate's anchor. */
	diag_init(&d);
	r = spec_load_string("dup.yaml", "a: 1\na: &x [1, 2]\nb: *x\n", &d);
	assert_int_equal(d.nerrors, 1);
	assert_int_equal(node_get(r, "b")->n, 2);
	node_free(r);
	diag_free(&d);

	/* Depth: 100 levels load, 101 do not; 30,000 fail cleanly. */
	static const int levels[] = {100, 101, 30000};
	for (int k = 0; k < 3; k++) {
		int n = levels[k];
		char *t = malloc((size_t)n * 2 + 8);
		memcpy(t, "x: ", 3);
		memset(t + 3, '[', (size_t)n - 1);
		memset(t + 3 + n - 1, ']', (size_t)n - 1);
		strcpy(t + 3 + 2 * (n - 1), "\n");
		diag_init(&d);
		r = spec_load_string("deep.yaml", t, &d);
		if (n <= 100) {
			assert_int_equal(d.nerrors, 0);
			node_free(r);
		} else {
			assert_null(r);
			assert_int_equal(d.v[0].pos.col, 3 + 100); /* the root map and 100 lists */
			assert_non_null(strstr(d.v[0].msg, "nested deeper than 100 levels"));
		}
		diag_free(&d);
		free(t);
	}
	/* 1 (root) + 40 lists + an alias of 60 lists */
	char deep[512];
	snprintf(deep, sizeof(deep), "a: &a %.60s%.60s\nb: %.40s*a%.40s\n", brackets, closers, brackets,
	         closers);
	diag_init(&d);
	assert_null(spec_load_string("adeep.yaml", deep, &d));
	assert_int_equal(d.v[0].pos.line, 2);
	assert_non_null(strstr(d.v[0].msg, "alias '*a' nests the scenario deeper than 100 levels"));
	diag_free(&d);
}

/* `${var}` in name: is replaced by the variables (after -D); an undefined
 * one is an error at its position. */
static void test_name_interpolated(void **state)
{
	(void)state;
	char path[] = "/tmp/test_spec_nameXXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs("name: \"sync on ${fs}, $${literal}\"\nvars: {fs: ext4}\nsteps:\n  - name: s\n    exec: "
	      "{command: "
	      "\"true\"}\n",
	      f);
	fclose(f);
	struct defines D = {0};
	struct diag d;
	diag_init(&d);
	struct spec *s = spec_open(path, &D, &d);
	assert_int_equal(d.nerrors, 0);
	assert_string_equal(s->name, "sync on ext4, ${literal}");
	spec_free(s);
	defines_add(&D, "fs=xfs");
	s = spec_open(path, &D, &d);
	assert_string_equal(s->name, "sync on xfs, ${literal}");
	spec_free(s);
	defines_free(&D);
	f = fopen(path, "w");
	fputs("name: x ${nope}\nsteps: []\n", f);
	fclose(f);
	s = spec_open(path, &D, &d);
	assert_int_equal(d.nerrors, 1);
	assert_int_equal(d.v[0].pos.line, 1);
	assert_int_equal(d.v[0].pos.col, 9);
	assert_non_null(strstr(d.v[0].msg, "undefined variable 'nope'"));
	spec_free(s);
	diag_free(&d);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_positions),
	    cmocka_unit_test(test_duplicate_and_tabs),
	    cmocka_unit_test(test_typed_reads),
	    cmocka_unit_test(test_non_utf8),
	    cmocka_unit_test(test_alias_and_depth_limits),
	    cmocka_unit_test(test_name_interpolated),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

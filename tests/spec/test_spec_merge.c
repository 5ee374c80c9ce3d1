/* Unit tests: YAML merge keys and x- keys in the loader, the deep merge of
 * include:, and the "included from" lines of diagnostics. */
#include <errno.h>
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
#include "spec_merge.h"

static struct node *load(const char *name, const char *yaml, struct diag *d)
{
	struct node *n = spec_load_string(name, yaml, d);
	assert_non_null(n);
	return n;
}

/* Explicit keys win over merged ones wherever they stand; earlier maps of
 * a list win over later ones; merged values keep where they were written. */
static void test_merge_key_rules(void **state)
{
	(void)state;
	struct diag d;
	diag_init(&d);
	struct node *r = load("m.yaml",
	                      "a: &a {x: 1, y: 1}\n"
	                      "b: &b {y: 2, z: 2}\n"
	                      "c:\n"
	                      "  x: 0\n"
	                      "  <<: [*a, *b]\n"
	                      "  w: 3\n",
	                      &d);
	assert_int_equal(d.nerrors, 0);
	const struct node *c = node_get(r, "c");
	assert_int_equal(c->n, 4);
	assert_string_equal(node_get(c, "x")->text, "0"); /* explicit before << */
	assert_string_equal(node_get(c, "y")->text, "1"); /* a before b */
	assert_string_equal(node_get(c, "z")->text, "2");
	assert_string_equal(node_get(c, "w")->text, "3");
	/* y was written on line 1, column 17 (in the anchor a). */
	assert_int_equal(node_get(c, "y")->pos.line, 1);
	assert_int_equal(node_get(c, "y")->pos.col, 17);
	assert_int_equal(node_key_pos(c, "y")->line, 1);
	assert_int_equal(node_get(c, "z")->pos.line, 2);
	node_free(r);
	diag_free(&d);
}

/* A merge key in a list item, an inline map, and an anchor of a merged map
 * used again: it holds the merged keys. */
static void test_merge_key_in_lists(void **state)
{
	(void)state;
	struct diag d;
	diag_init(&d);
	struct node *r = load("l.yaml",
	                      "base: &base {record: false, timeout: 5s}\n"
	                      "steps:\n"
	                      "  - &one\n"
	                      "    <<: *base\n"
	                      "    name: one\n"
	                      "  - <<: [*one, {name: two}]\n"
	                      "    timeout: 1s\n",
	                      &d);
	assert_int_equal(d.nerrors, 0);
	const struct node *steps = node_get(r, "steps");
	assert_int_equal(steps->n, 2);
	const struct node *one = steps->items[0], *two = steps->items[1];
	assert_string_equal(node_get(one, "record")->text, "false");
	assert_string_equal(node_get(two, "name")->text, "one"); /* *one comes first */
	assert_string_equal(node_get(two, "timeout")->text, "1s");
	assert_string_equal(node_get(two, "record")->text, "false");
	assert_null(node_get(two, "<<"));
	node_free(r);
	diag_free(&d);
}

/* Quoted "<<" is a plain key; x- keys are dropped at every level, their
 * anchors stay usable. */
static void test_quoted_merge_and_x_keys(void **state)
{
	(void)state;
	struct diag d;
	diag_init(&d);
	struct node *r = load("x.yaml",
	                      "x-anchors:\n"
	                      "  io: &io {bs: 4k, x-note: hi}\n"
	                      "m: {\"<<\": 1, x-y: 2, k: *io}\n",
	                      &d);
	assert_int_equal(d.nerrors, 0);
	assert_null(node_get(r, "x-anchors"));
	assert_int_equal(r->n, 1);
	const struct node *m = node_get(r, "m");
	assert_non_null(node_get(m, "<<"));
	assert_null(node_get(m, "x-y"));
	assert_int_equal(node_get(m, "k")->n, 1);
	node_free(r);
	diag_free(&d);
}

static void test_merge_key_errors(void **state)
{
	(void)state;
	struct diag d;
	diag_init(&d);
	struct node *r =
	    load("e.yaml", "a: {<<: 3}\nb: {<<: [{x: 1}, [1]]}\nc: {<<: {x: 1}, <<: {y: 1}}\n", &d);
	assert_int_equal(d.nerrors, 3);
	assert_non_null(strstr(d.v[0].msg, "expects a map or a list of maps"));
	assert_int_equal(d.v[0].pos.line, 1);
	assert_int_equal(d.v[1].pos.line, 2);
	assert_non_null(strstr(d.v[2].msg, "duplicate merge key"));
	node_free(r);
	diag_free(&d);
}

/* Maps merge deeply; lists and scalars of the including file win; new
 * keys come after the included ones; positions are where each was written. */
static void test_deep_merge(void **state)
{
	(void)state;
	struct diag d;
	diag_init(&d);
	struct node *base = load("inc.yaml",
	                         "vars: {a: 1, b: 1}\n"
	                         "postgres: {settings: {shared_buffers: 128MB, fsync: off}}\n"
	                         "steps: [{name: s1}, {name: s2}]\n"
	                         "notes: included\n",
	                         &d);
	struct node *over = load("main.yaml",
	                         "vars: {b: 2, c: 2}\n"
	                         "postgres: {settings: {fsync: on}}\n"
	                         "steps: [{name: mine}]\n"
	                         "name: main\n",
	                         &d);
	assert_int_equal(spec_merge(base, over, &d), 0);
	assert_int_equal(d.nerrors, 0);
	const struct node *vars = node_get(base, "vars");
	assert_int_equal(vars->n, 3);
	assert_string_equal(vars->keys[0], "a");
	assert_string_equal(node_get(vars, "b")->text, "2");
	assert_string_equal(node_get(vars, "b")->pos.file, "main.yaml");
	assert_string_equal(node_get(vars, "a")->pos.file, "inc.yaml");
	const struct node *set = node_get(node_get(base, "postgres"), "settings");
	assert_string_equal(node_get(set, "shared_buffers")->text, "128MB");
	assert_string_equal(node_get(set, "fsync")->text, "on");
	assert_int_equal(node_get(base, "steps")->n, 1);
	assert_string_equal(node_get(base, "notes")->text, "included");
	assert_string_equal(node_get(base, "name")->text, "main");
	node_free(base);
	diag_free(&d);
}

/* matrix: axes may be added, an identical one is fine, a different one is
 * an error (with a note at the other), and so are zip/exclude/filter. */
static void test_matrix_axes(void **state)
{
	(void)state;
	struct diag d;
	diag_init(&d);
	struct node *base = load("inc.yaml", "matrix: {fs: [ext4, xfs], bs: [4k]}\n", &d);
	struct node *over = load("main.yaml", "matrix: {fs: [ext4, xfs], clients: [1, 2]}\n", &d);
	assert_int_equal(spec_merge(base, over, &d), 0);
	const struct node *m = node_get(base, "matrix");
	assert_int_equal(m->n, 3);
	assert_string_equal(m->keys[0], "fs");
	assert_string_equal(m->keys[2], "clients");
	over = load("main.yaml", "matrix: {bs: [8k], exclude: [{fs: xfs}]}\n", &d);
	assert_int_equal(spec_merge(base, over, &d), -EINVAL);
	assert_int_equal(d.nerrors, 1);
	assert_non_null(strstr(d.v[0].msg, "'bs' is defined in inc.yaml:1:27 too"));
	assert_int_equal(d.v[1].level, DIAG_NOTE);
	assert_string_equal(node_get(m, "bs")->items[0]->text, "4k");
	assert_non_null(node_get(m, "exclude")); /* new: added */
	over = load("main.yaml", "matrix: [1]\n", &d);
	assert_int_equal(spec_merge(base, over, &d), -EINVAL);
	node_free(base);
	diag_free(&d);
}

/* Each inclusion has a name of its own, which remembers where from. */
static void test_included_from(void **state)
{
	(void)state;
	struct src_pos main_at = {diag_intern("main.yaml"), 1, 10};
	const char *a = diag_intern_included("inc/a.yaml", &main_at);
	struct src_pos a_at = {a, 2, 3};
	const char *b = diag_intern_included("inc/b.yaml", &a_at);
	const char *b2 = diag_intern_included("inc/b.yaml", &main_at);
	assert_ptr_not_equal(b, b2);
	assert_int_equal(diag_included_from(b)->line, 2);
	assert_ptr_equal(diag_included_from(b)->file, a);
	assert_ptr_equal(diag_included_from(b2)->file, main_at.file);
	assert_null(diag_included_from(main_at.file));
	struct diag d;
	diag_init(&d);
	struct src_pos at = {b, 4, 1};
	diag_error(&d, &at, "bad");
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	diag_print(&d, f);
	fclose(f);
	assert_string_equal(out, "inc/b.yaml:4:1: error: bad\n"
	                         "  included from inc/a.yaml:2:3\n"
	                         "  included from main.yaml:1:10\n");
	free(out);
	diag_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_merge_key_rules),
	    cmocka_unit_test(test_merge_key_in_lists),
	    cmocka_unit_test(test_quoted_merge_and_x_keys),
	    cmocka_unit_test(test_merge_key_errors),
	    cmocka_unit_test(test_deep_merge),
	    cmocka_unit_test(test_matrix_axes),
	    cmocka_unit_test(test_included_from),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

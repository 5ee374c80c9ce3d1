/* Unit tests: the generic checks of an option table (base/opt_table). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "opt_table.h"
#include "spec_load.h"

static const char *const colours[] = {"red", "green", NULL};
static const struct opt_desc rows[] = {
    {"bs", OPT_SIZE, "bytes", "4k", NULL, "block size", 0, NULL, NULL, NULL},
    {"n", OPT_INT, NULL, "1", NULL, "a count", 0, NULL, NULL, NULL},
    {"on", OPT_BOOL, NULL, "false", NULL, "a switch", 0, NULL, NULL, NULL},
    {"t", OPT_DURATION, "s", NULL, NULL, "a time", 0, NULL, NULL, NULL},
    {"colour", OPT_ENUM, NULL, "red", colours, "a colour", 0, NULL, NULL, NULL},
    {"tags", OPT_STRING, NULL, NULL, NULL, "names", OPT_OR_LIST, NULL, NULL, NULL},
    {"later", OPT_INT, NULL, NULL, NULL, "not read yet", OPT_PENDING, NULL, NULL, NULL},
};
static const struct opt_table table = {"t", "T", "", rows, sizeof(rows) / sizeof(rows[0]), false};

static struct node *load(const char *yaml, struct diag *d)
{
	struct node *n = spec_load_string("t.yaml", yaml, d);
	assert_non_null(n);
	return n;
}

static bool has(const struct diag *d, const char *text)
{
	for (size_t i = 0; i < d->n; i++)
		if (strstr(d->v[i].msg, text))
			return true;
	return false;
}

static void test_keys(void **state)
{
	(void)state;
	struct diag d;
	diag_init(&d);
	struct node *m = load("bs: 4k\ncolur: red\nlater: 3\n", &d);
	assert_int_not_equal(opt_check_keys(m, "t", &table, &d), 0);
	assert_int_equal(d.nerrors, 2);
	assert_true(has(&d, "t: unknown key 'colur'; did you mean 'colour'?"));
	/* a pending row is in the table (schema, docs) but not read yet */
	assert_true(has(&d, "t: unknown key 'later'"));
	assert_non_null(opt_find(&table, "later"));
	assert_false(opt_known(&table, "later"));
	assert_int_equal(d.v[0].pos.line, 2);
	assert_int_equal(d.v[0].pos.col, 1);
	node_free(m);
	diag_free(&d);
}

static void test_values(void **state)
{
	(void)state;
	struct diag d;
	diag_init(&d);
	struct node *m =
	    load("bs: 4XB\nn: many\non: maybe\nt: 3 weeks\ncolour: gren\ntags: [a, {b: 1}]\n", &d);
	assert_int_not_equal(opt_check_values(m, "t", &table, &d), 0);
	assert_int_equal(d.nerrors, 6);
	assert_true(has(&d, "t.bs: unknown size unit"));
	assert_true(has(&d, "t.n: expected an integer, found 'many'"));
	assert_true(has(&d, "t.on: expected true or false, found 'maybe'"));
	assert_true(has(&d, "t.t: unknown duration unit"));
	assert_true(has(&d, "t.colour: unknown value 'gren'; did you mean 'green'?"));
	assert_true(has(&d, "t.tags: expected a string, found"));
	assert_int_equal(d.v[1].pos.line, 2);
	assert_int_equal(d.v[1].pos.col, 4);
	node_free(m);
	diag_free(&d);
}

static void test_values_clean_deferred_and_reported(void **state)
{
	(void)state;
	struct diag d;
	diag_init(&d);
	struct node *m =
	    load("bs: 1GiB\nn: '${n}'\non: !lua \"x > 1\"\nt: 500ms\ncolour: green\ntags: a\n", &d);
	assert_int_equal(opt_check_values(m, "t", &table, &d), 0);
	assert_int_equal(d.n, 0);
	node_free(m);
	/* A value its section's parser already reported is not reported again. */
	m = load("n: many\n", &d);
	diag_error(&d, &m->items[0]->pos, "t.n: the parser's own words");
	assert_int_equal(opt_check_values(m, "t", &table, &d), 0);
	assert_int_equal(d.nerrors, 1);
	node_free(m);
	diag_free(&d);
}

/* One key's check, as a rule "KEY does not apply here" calls it first: a
 * wrong value is reported once (then diag_error_at sees it, and the later
 * opt_check_values does not repeat it); a good, absent or deferred one
 * passes. */
static void test_one_value(void **state)
{
	(void)state;
	struct diag d;
	diag_init(&d);
	struct node *m = load("n: many\nbs: 4k\nt: '${t}'\n", &d);
	assert_int_equal(opt_check_value(m, "bs", "t", &table, &d), 0);
	assert_int_equal(opt_check_value(m, "t", "t", &table, &d), 0);
	assert_int_equal(opt_check_value(m, "colour", "t", &table, &d), 0);
	assert_int_equal(d.n, 0);
	assert_false(diag_error_at(&d, &m->items[0]->pos));
	assert_int_not_equal(opt_check_value(m, "n", "t", &table, &d), 0);
	assert_true(has(&d, "t.n: expected an integer, found 'many'"));
	assert_true(diag_error_at(&d, &m->items[0]->pos));
	assert_false(diag_error_at(&d, &m->items[1]->pos));
	assert_int_equal(opt_check_values(m, "t", &table, &d), 0);
	assert_int_equal(d.nerrors, 1);
	node_free(m);
	diag_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_keys),
	    cmocka_unit_test(test_values),
	    cmocka_unit_test(test_values_clean_deferred_and_reported),
	    cmocka_unit_test(test_one_value),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

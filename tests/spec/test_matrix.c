/* Unit tests: matrix expansion, zip, exclude, include (GitHub's rules), ids. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "matrix.h"
#include "spec.h"

struct expanded {
	struct node *root;
	struct cell *cells;
	size_t n;
	struct diag d;
	int rc;
};

static void expand(struct expanded *e, const char *yaml)
{
	memset(e, 0, sizeof(*e));
	diag_init(&e->d);
	e->root = spec_load_string("m.yaml", yaml, &e->d);
	assert_non_null(e->root);
	struct matrix_opts o = {0};
	e->rc = matrix_expand(node_get(e->root, "matrix"), &o, &e->cells, &e->n, &e->d);
}

static void done(struct expanded *e)
{
	matrix_free(e->cells, e->n);
	node_free(e->root);
	diag_free(&e->d);
}

/* "k=v,k=v" of one cell, in the cell's key order. */
static const char *cell_str(const struct cell *c)
{
	static char buf[512];
	buf[0] = 0;
	for (size_t i = 0; i < c->params->n; i++) {
		char one[128];
		snprintf(one, sizeof(one), "%s%s=%s", i ? "," : "", c->params->keys[i],
		         c->params->items[i]->text);
		strcat(buf, one);
	}
	return buf;
}

static void test_cross_product_order(void **state)
{
	(void)state;
	struct expanded e;
	expand(&e, "matrix:\n  fs: [ext4, xfs]\n  bs: [1k, 4k, 8k]\n");
	assert_int_equal(e.rc, 0);
	assert_int_equal(e.n, 6);
	assert_string_equal(cell_str(&e.cells[0]), "fs=ext4,bs=1k");
	assert_string_equal(cell_str(&e.cells[1]), "fs=ext4,bs=4k");
	assert_string_equal(cell_str(&e.cells[3]), "fs=xfs,bs=1k");
	assert_int_equal(e.cells[5].index, 5);
	done(&e);
}

static void test_github_include_example(void **state)
{
	(void)state;
	struct expanded e;
	expand(&e, "matrix:\n"
	           "  fruit: [apple, pear]\n"
	           "  animal: [cat, dog]\n"
	           "  include:\n"
	           "    - color: green\n"
	           "    - color: pink\n"
	           "      animal: cat\n"
	           "    - fruit: apple\n"
	           "      shape: circle\n"
	           "    - fruit: banana\n"
	           "    - fruit: banana\n"
	           "      animal: cat\n");
	assert_int_equal(e.rc, 0);
	assert_int_equal(e.n, 6);
	assert_string_equal(cell_str(&e.cells[0]), "fruit=apple,animal=cat,color=pink,shape=circle");
	assert_string_equal(cell_str(&e.cells[1]), "fruit=apple,animal=dog,color=green,shape=circle");
	assert_string_equal(cell_str(&e.cells[2]), "fruit=pear,animal=cat,color=pink");
	assert_string_equal(cell_str(&e.cells[3]), "fruit=pear,animal=dog,color=green");
	assert_string_equal(cell_str(&e.cells[4]), "fruit=banana");
	assert_string_equal(cell_str(&e.cells[5]), "fruit=banana,animal=cat");
	done(&e);
}

static void test_exclude_partial_then_include(void **state)
{
	(void)state;
	struct expanded e;
	expand(&e, "matrix:\n  fs: [ext4, xfs, btrfs]\n  bs: [1KiB, 4KiB]\n"
	           "  exclude: [{fs: btrfs, bs: 1k}, {fs: xfs}]\n"
	           "  include: [{fs: ext2, bs: 4k}]\n");
	assert_int_equal(e.rc, 0);
	/* 6 - 1 (btrfs 1k; 1k == 1KiB) - 2 (xfs) + 1 (ext2) */
	assert_int_equal(e.n, 4);
	assert_string_equal(cell_str(&e.cells[0]), "fs=ext4,bs=1KiB");
	assert_string_equal(cell_str(&e.cells[2]), "fs=btrfs,bs=4KiB");
	assert_string_equal(cell_str(&e.cells[3]), "fs=ext2,bs=4k");
	done(&e);
}

static void test_zip(void **state)
{
	(void)state;
	struct expanded e;
	expand(&e, "matrix:\n  clients: [10, 20]\n  zip: {sb: [2MB, 4GB], label: [small, large]}\n");
	assert_int_equal(e.rc, 0);
	assert_int_equal(e.n, 4);
	assert_string_equal(cell_str(&e.cells[0]), "clients=10,sb=2MB,label=small");
	assert_string_equal(cell_str(&e.cells[1]), "clients=10,sb=4GB,label=large");
	done(&e);

	expand(&e, "matrix:\n  zip:\n    sb: [2MB, 4GB, 8GB]\n    label: [small, large]\n");
	assert_int_equal(e.rc, -22);
	assert_int_equal(e.d.nerrors, 1);
	assert_non_null(strstr(e.d.v[0].msg, "'label' has 2 values but 'sb' has 3"));
	assert_int_equal(e.d.v[0].pos.line, 4);
	done(&e);
}

static void test_errors(void **state)
{
	(void)state;
	struct expanded e;
	expand(&e, "matrix:\n  fs: []\n  bs: 4k\n  exclude: [{fss: ext4}]\n");
	assert_int_equal(e.rc, -22);
	assert_int_equal(e.d.nerrors, 3);
	assert_non_null(strstr(e.d.v[0].msg, "empty list"));
	assert_non_null(strstr(e.d.v[1].msg, "must be a list"));
	assert_non_null(strstr(e.d.v[2].msg, "did you mean 'fs'"));
	done(&e);
}

static void test_ids_stable(void **state)
{
	(void)state;
	struct expanded a, b;
	expand(&a, "matrix:\n  fs: [ext4, xfs]\n  bs: [4k]\n");
	expand(&b, "matrix:\n  bs: [4096, 8k]\n  fs: [btrfs, xfs, ext4]\n");
	/* fs=ext4,bs=4k is cell 0 in a and cell 2 in b (bs 4096 == 4k). */
	assert_string_equal(a.cells[0].id, b.cells[2].id);
	assert_string_equal(a.cells[1].id, b.cells[1].id);
	assert_string_not_equal(a.cells[0].id, a.cells[1].id);
	assert_int_equal(strlen(a.cells[0].id), 12);
	done(&a);
	done(&b);
}

static void test_no_matrix(void **state)
{
	(void)state;
	struct expanded e;
	expand(&e, "name: x\n");
	assert_int_equal(e.rc, 0);
	assert_int_equal(e.n, 1);
	assert_int_equal(e.cells[0].params->n, 0);
	done(&e);
}

static void test_param_json(void **state)
{
	(void)state;
	struct diag d;
	diag_init(&d);
	struct node *r = spec_load_string(
	    "p.yaml", "a: 4KiB\nb: 30s\nc: ext4\nd: \"10\"\ne: 10\nf: true\ng: 2.5\nh: 5min\n", &d);
	char buf[64];
	param_json(node_get(r, "a"), buf, sizeof(buf));
	assert_string_equal(buf, "4096");
	param_json(node_get(r, "b"), buf, sizeof(buf));
	assert_string_equal(buf, "30");
	param_json(node_get(r, "c"), buf, sizeof(buf));
	assert_string_equal(buf, "\"ext4\"");
	param_json(node_get(r, "d"), buf, sizeof(buf));
	assert_string_equal(buf, "\"10\"");
	param_json(node_get(r, "e"), buf, sizeof(buf));
	assert_string_equal(buf, "10");
	param_json(node_get(r, "f"), buf, sizeof(buf));
	assert_string_equal(buf, "true");
	param_json(node_get(r, "g"), buf, sizeof(buf));
	assert_string_equal(buf, "2.5");
	param_json(node_get(r, "h"), buf, sizeof(buf));
	assert_string_equal(buf, "300");
	node_free(r);
	diag_free(&d);
}

/* Too many combinations are refused from the axes' lengths, before any
 * cell is made: 10^7 (once 15 GB before a refusal) fails at once; exactly
 * the limit expands. */
static void test_too_many_cells(void **state)
{
	(void)state;
	char yaml[1024] = "matrix:\n";
	for (int a = 0; a < 7; a++) {
		size_t o = strlen(yaml);
		snprintf(yaml + o, sizeof(yaml) - o, "  a%d: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]\n", a);
	}
	struct expanded e;
	expand(&e, yaml);
	assert_int_equal(e.rc, -EINVAL);
	assert_int_equal(e.n, 0);
	assert_int_equal(e.d.nerrors, 1);
	assert_int_equal(e.d.v[0].pos.line, 2);
	assert_non_null(
	    strstr(e.d.v[0].msg, "(10 x 10 x 10 x 10 x 10 x 10 x 10 values) make more than 100000"));
	done(&e);
	/* 10^5 is the limit itself. */
	yaml[strlen("matrix:\n") + 5 * strlen("  a0: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]\n")] = 0;
	expand(&e, yaml);
	assert_int_equal(e.rc, 0);
	assert_int_equal(e.n, MATRIX_MAX_CELLS);
	done(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_cross_product_order),
	    cmocka_unit_test(test_github_include_example),
	    cmocka_unit_test(test_exclude_partial_then_include),
	    cmocka_unit_test(test_zip),
	    cmocka_unit_test(test_errors),
	    cmocka_unit_test(test_ids_stable),
	    cmocka_unit_test(test_no_matrix),
	    cmocka_unit_test(test_param_json),
	    cmocka_unit_test(test_too_many_cells),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

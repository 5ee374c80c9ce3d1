/* Unit tests: the host of each cell in the reports (reporters/rep_hosts.c).
 * The crafted fixture run (report_fixture.h: fs x fs_block, 4 cells) gets
 * the cell fact `host` per cell: report.md warns above each pivot table and
 * chart whose cells ran on more than one host, unless a parameter is the
 * host; one host (or none recorded) changes nothing but the Cell facts;
 * `compare` flags shared cells that ran on different hosts, or says in one
 * line that two machines are compared. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "compare.h"
#include "rep.h"
#include "rep_hosts.h"
#include "report_fixture.h"
#include "rmtree.h"

static char tmpdir[] = "/tmp/bg-hosts-XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return rmtree(tmpdir, NULL);
}

/* The fixture with hosts[i] as cell i's host (NULL: no host fact). */
static void build(struct run *r, const char *const hosts[4])
{
	fixture_build(r);
	for (size_t i = 0; i < 4 && hosts; i++)
		if (hosts[i])
			result_info(&r->cells[i].facts, "host", "%s", hosts[i]);
}

/* Add parameter p = values[i] to cell i. */
static void add_param(struct run *r, const char *p, const char *const values[4])
{
	for (size_t i = 0; i < 4; i++)
		node_map_put(r->cells[i].params, p, NULL, node_new_scalar(values[i], NULL));
}

/* report.md of r, as a string (free it). */
static char *report(const struct run *r)
{
	struct diag d;
	char path[512];
	diag_init(&d);
	rep_write_all(r, tmpdir, &d);
	diag_free(&d);
	snprintf(path, sizeof(path), "%s/report.md", tmpdir);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char *buf = calloc(1, 1 << 20);
	size_t n = fread(buf, 1, (1 << 20) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;
	for (const char *p = s; (p = strstr(p, what)); p++)
		n++;
	return n;
}

/* The warning text above a table or chart, from the whole cell list. */
static char *warning(const struct run *r)
{
	static const size_t all[] = {0, 1, 2, 3};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	rep_hosts_warn(f, r, all, 4, "table");
	fclose(f);
	return buf;
}

static void test_two_hosts_warn(void **state)
{
	(void)state;
	struct run r;
	static const char *const h[] = {"node-a", "node-a", "node-a", "node-b"};
	build(&r, h);
	char *md = report(&r);
	assert_non_null(strstr(md, "- Hosts: node-a (3 cells), node-b (1 cell); pivot tables and charts "
	                           "whose cells ran on more than one host say so\n"));
	/* pivot 1 (fs x fs_block: all cells) and pivot 2's group fs=xfs (cells 2, 3) */
	assert_non_null(strstr(md, "### ro.tps (tps)\n\n**Warning:** cells of this table ran on 2 hosts: "
	                           "node-a (3 cells), node-b (1 cell); differences between them may be "
	                           "the hardware's.\n\n| fs \\ fs_block |"));
	assert_non_null(strstr(md, "— fs=xfs\n\n**Warning:** cells of this table ran on 2 hosts: node-a "
	                           "(1 cell), node-b (1 cell);"));
	assert_null(strstr(md, "— fs=ext4\n\n**Warning:**"));
	assert_int_equal(count(md, "cells of this table ran on"), 2);
	/* charts: the time chart's group fs_block=4KiB (cells 1, 3), the
	 * fs_block chart (all cells), the bar chart's group fs_block=4KiB */
	assert_int_equal(count(md, "cells of this chart ran on 2 hosts"), 3);
	assert_non_null(strstr(md, "| # | fs.type | host | fs.block_size |\n"));
	assert_non_null(strstr(md, "| 3 | xfs | node-b | 4096 bytes |\n"));
	free(md);
	run_free(&r);
}

static void test_one_host_unchanged(void **state)
{
	(void)state;
	struct run r;
	static const char *const h[] = {"node-a", "node-a", "node-a", "node-a"};
	build(&r, NULL);
	char *plain = report(&r);
	run_free(&r);
	build(&r, h);
	char *md = report(&r);
	run_free(&r);
	/* only the Cell facts row "host" is new */
	const char *row = "| host | node-a |\n";
	char *at = strstr(md, row);
	assert_non_null(at);
	memmove(at, at + strlen(row), strlen(at + strlen(row)) + 1);
	assert_string_equal(md, plain);
	free(md);
	free(plain);
}

static void test_unknown_hosts(void **state)
{
	(void)state;
	struct run r;
	/* one known host and cells without the fact: no warning */
	static const char *const h1[] = {"node-a", "node-a", NULL, NULL};
	build(&r, h1);
	char *w = warning(&r);
	assert_string_equal(w, "");
	free(w);
	char *md = report(&r);
	assert_null(strstr(md, "Warning:** cells of this"));
	assert_null(strstr(md, "- Hosts:"));
	free(md);
	run_free(&r);
	/* two known hosts: the unknown ones are counted too */
	static const char *const h2[] = {"node-a", "node-b", NULL, NULL};
	build(&r, h2);
	w = warning(&r);
	assert_string_equal(w, "**Warning:** cells of this table ran on 2 hosts: node-a (1 cell), node-b "
	                       "(1 cell), 2 cells without a host fact; differences between them may be "
	                       "the hardware's.\n\n");
	free(w);
	run_free(&r);
}

static void test_host_axis(void **state)
{
	(void)state;
	struct run r;
	static const char *const h[] = {"n1.cluster", "n1.cluster", "n2.cluster", "n2"};
	/* fs maps one to one onto the hosts (as when shares keep a file system
	 * together): that is the confounded case, it warns */
	build(&r, h);
	char *w = warning(&r);
	assert_non_null(strstr(w, "ran on 3 hosts: n1.cluster (2 cells), n2.cluster (1 cell), n2 (1 cell)"));
	free(w);
	/* a parameter whose values name the hosts is the host axis */
	static const char *const machine[] = {"n1", "N1.cluster", "n2", "n2"};
	add_param(&r, "machine", machine);
	w = warning(&r);
	assert_string_equal(w, "");
	free(w);
	run_free(&r);
	/* a parameter named host (or hostname) is the axis, whatever its values */
	build(&r, h);
	static const char *const node[] = {"1", "1", "2", "2"};
	add_param(&r, "hostname", node);
	w = warning(&r);
	assert_string_equal(w, "");
	free(w);
	run_free(&r);
	/* one named node is not (a NUMA node is no host) */
	build(&r, h);
	add_param(&r, "node", node);
	w = warning(&r);
	assert_non_null(strstr(w, "**Warning:**"));
	free(w);
	run_free(&r);
	/* ... but only when it varies among the cells */
	build(&r, h);
	static const char *const same[] = {"1", "1", "1", "1"};
	add_param(&r, "host", same);
	w = warning(&r);
	assert_non_null(strstr(w, "**Warning:**"));
	free(w);
	run_free(&r);
	/* values that name some hosts but not all are no axis */
	build(&r, h);
	static const char *const part[] = {"n1", "n1", "n2", "n3"};
	add_param(&r, "machine", part);
	w = warning(&r);
	assert_non_null(strstr(w, "**Warning:**"));
	free(w);
	run_free(&r);
}

/* compare of two fixture runs with hosts ha and hb, as a string. */
static char *compare(const char *const ha[4], const char *const hb[4])
{
	char a[600], b[600];
	struct run r;
	struct diag d;
	diag_init(&d);
	snprintf(a, sizeof(a), "%s/a.json", tmpdir);
	snprintf(b, sizeof(b), "%s/b.json", tmpdir);
	build(&r, ha);
	assert_int_equal(results_write_json(&r, a, &d), 0);
	run_free(&r);
	build(&r, hb);
	assert_int_equal(results_write_json(&r, b, &d), 0);
	run_free(&r);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(rep_compare(a, b, f, &d), 0);
	fclose(f);
	diag_free(&d);
	return buf;
}

static void test_compare_hosts(void **state)
{
	(void)state;
	static const char *const a4[] = {"a", "a", "a", "a"}, *const b4[] = {"b", "b", "b", "b"},
	                         *const mixed[] = {"a", "a", "b", "b"}, *const one_b[] = {"a", "a", "a", "b"};
	char *plain = compare(NULL, NULL);
	char *same = compare(a4, a4);
	assert_string_equal(same, plain); /* one host: nothing new */
	free(same);
	same = compare(a4, NULL); /* B without host facts: nothing to compare */
	assert_string_equal(same, plain);
	free(same);

	char *two = compare(a4, b4);
	const char *line =
	    "- Cells: 4 shared, 0 only in A, 0 only in B\n- Hosts: every cell of A ran on a, "
	    "every cell of B on b: this compares two machines as well as the runs\n- Statistics: ";
	assert_non_null(strstr(two, line));
	assert_null(strstr(two, "(A on"));
	assert_null(strstr(two, "Warning"));
	free(two);

	char *m = compare(a4, one_b);
	assert_non_null(strstr(m, "- Hosts of B: a (3 cells), b (1 cell); comparisons between cells of B may "
	                          "be the hardware's\n"));
	assert_non_null(strstr(m,
	                       "- **Warning:** 1 of 4 shared cells ran on a different host in B than in A "
	                       "(marked in the table); their ratios may be the hardware's\n- Statistics: "));
	assert_null(strstr(m, "Hosts of A"));
	assert_non_null(strstr(m, "| 3 | a1b2c3d4e5f3 | fs=xfs, fs_block=4KiB"));
	assert_non_null(strstr(m, "(A on a, B on b) | seqwrite.mb_s"));
	/* flagged in each table row of cell 3 and in its verdict line */
	assert_int_equal(count(m, "(A on"), count(m, "| 3 | a1b2c3d4e5f3 |") + 1);
	const char *v3 = strstr(m, "- 3 `a1b2c3d4e5f3` fs=xfs, fs_block=4KiB");
	assert_non_null(v3);
	const char *f3 = strstr(v3, "(A on a, B on b): ");
	assert_true(f3 && f3 < strchr(v3, '\n'));
	const char *row0 = strstr(m, "| 0 | a1b2c3d4e5f0 |"); /* same host: not flagged */
	assert_non_null(row0);
	assert_true(strstr(row0, "(A on") > strchr(row0, '\n'));
	free(m);

	/* both mixed, the same way: notes on each, no cell differs */
	m = compare(mixed, mixed);
	assert_non_null(strstr(m, "- Hosts of A: a (2 cells), b (2 cells);"));
	assert_non_null(strstr(m, "- Hosts of B: a (2 cells), b (2 cells);"));
	assert_null(strstr(m, "Warning"));
	assert_null(strstr(m, "(A on"));
	free(m);
	free(plain);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_two_hosts_warn), cmocka_unit_test(test_one_host_unchanged),
	    cmocka_unit_test(test_unknown_hosts),  cmocka_unit_test(test_host_axis),
	    cmocka_unit_test(test_compare_hosts),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}

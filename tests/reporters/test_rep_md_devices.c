/* Unit tests: report.md's Devices legend (reporters/rep_md_devices.c), from
 * crafted cells' devices.* facts: one row per prefix and value, the device
 * and what it is split apart, a cells column only when a device holds for
 * some cells only, nothing at all without devices.* facts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "rep_md_devices.h"
#include "run_cells.h"

/* The legend for cells whose facts are given as "key=value" lists. */
static char *legend(size_t ncells, const char *const *facts[])
{
	struct run r;
	run_init(&r);
	r.cells = calloc(ncells, sizeof(*r.cells));
	r.ncells = r.cap = ncells;
	for (size_t i = 0; i < ncells; i++) {
		r.cells[i].index = i;
		result_init(&r.cells[i].facts, NULL, NULL);
		for (const char *const *f = facts[i]; *f; f++) {
			const char *eq = strchr(*f, '=');
			char key[128];
			snprintf(key, sizeof(key), "%.*s", (int)(eq - *f), *f);
			result_info(&r.cells[i].facts, key, "%s", eq + 1);
		}
	}
	struct md m;
	memset(&m, 0, sizeof(m));
	char *buf = NULL;
	size_t len = 0;
	m.rf.f = open_memstream(&buf, &len);
	struct rep_ctx cx = {.run = &r};
	rep_md_devices(&cx, &m);
	fclose(m.rf.f);
	for (size_t i = 0; i < ncells; i++)
		result_free(&r.cells[i].facts);
	free(r.cells);
	r.cells = NULL;
	r.ncells = 0;
	run_free(&r);
	return buf;
}

static void test_same_devices(void **state)
{
	(void)state;
	static const char *const a[] = {
	    "fs.type=ext4", "devices.disk=/dev/loop3 (target main: ext4 on loop image /i)",
	    "devices.disk.wal=/dev/loop4 (target wal: ext4 on loop image /j)",
	    "devices.disk.under.vda=/dev/vda (under the loop images of main, wal)", NULL};
	const char *const *facts[] = {a, a};
	char *md = legend(2, facts);
	assert_non_null(strstr(md, "## Devices\n"));
	assert_non_null(strstr(md,
	                       "| columns | device | what it is |\n|---|---|---|\n"
	                       "| `disk_*` | /dev/loop3 | target main: ext4 on loop image /i |\n"
	                       "| `disk.wal.*` | /dev/loop4 | target wal: ext4 on loop image /j |\n"
	                       "| `disk.under.vda.*` | /dev/vda | under the loop images of main, wal |\n\n"));
	assert_null(strstr(md, "fs.type"));
	assert_null(strstr(md, "cells |"));
	free(md);
}

static void test_per_cell(void **state)
{
	(void)state;
	static const char *const a[] = {"devices.disk=/dev/loop0 (target main: ext4 on loop image /i)", NULL};
	static const char *const b[] = {"devices.disk=/dev/loop0 (target main: xfs on loop image /k)",
	                                "devices.disk.wal=/dev/sdb1", NULL};
	const char *const *facts[] = {a, b, a};
	char *md = legend(3, facts);
	assert_non_null(strstr(md, "| columns | device | what it is | cells |\n"));
	assert_non_null(
	    strstr(md, "| `disk_*` | /dev/loop0 | target main: ext4 on loop image /i | 0, 2 |\n"));
	assert_non_null(strstr(md, "| `disk_*` | /dev/loop0 | target main: xfs on loop image /k | 1 |\n"));
	/* a fact without "(what)": all of it is the device */
	assert_non_null(strstr(md, "| `disk.wal.*` | /dev/sdb1 |  | 1 |\n"));
	free(md);
}

static void test_no_devices(void **state)
{
	(void)state;
	static const char *const a[] = {"fs.type=ext4", NULL};
	const char *const *facts[] = {a};
	char *md = legend(1, facts);
	assert_true(md == NULL || md[0] == '\0');
	free(md);
	/* a | in a path is escaped */
	static const char *const p[] = {"devices.disk=/dev/loop1 (target main: ext4 on loop image /a|b)",
	                                NULL};
	const char *const *pf[] = {p};
	md = legend(1, pf);
	assert_non_null(strstr(md, "/a\\|b |"));
	free(md);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_same_devices),
	    cmocka_unit_test(test_per_cell),
	    cmocka_unit_test(test_no_devices),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_store: the store's schema and migrations on a real SQLite file,
 * a run written and read back, storing twice, and the read-only query for
 * plan's estimate (no file created, -ENOENT). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store.h"
#include "store_db.h"
#include "store_query.h"
#include "store_schema.h"

static char dir[256];

static int make_dir(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/test_store.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
	(void)state;
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static int first_number(void *arg, int ncol, const char *const *v)
{
	*(long *)arg = ncol && v[0] ? atol(v[0]) : 0;
	return 1;
}

static long count(struct store *s, const char *sql)
{
	long n = -1;
	assert_true(sdb_exec(s, sql, 0, NULL, first_number, &n) >= 0);
	return n;
}

static void path_of(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
}

/* A fresh store is at the latest version with every table; opening it
 * again migrates nothing. */
static void test_create_and_reopen(void **state)
{
	(void)state;
	char path[512], err[512];
	path_of(path, sizeof(path), "sub/dir/a.db");
	struct store *s;
	assert_int_equal(store_open(path, false, &s, err, sizeof(err)), 0);
	assert_int_equal(store_schema_version(s), store_schema_latest());
	assert_int_equal(store_schema_latest(), 1);
	static const char *const tables[] = {"runs",    "cells", "params",      "steps",         "metrics",
	                                     "samples", "facts", "environment", "schema_version"};
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		assert_int_equal(sdb_has_table(s, tables[i]), 1);
	store_close(s);
	struct stat st;
	char parent[512];
	path_of(parent, sizeof(parent), "sub/dir");
	assert_int_equal(stat(parent, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0077, 0);
	assert_int_equal(store_open(path, false, &s, err, sizeof(err)), 0);
	assert_int_equal(count(s, "SELECT count(*) FROM schema_version"), 1);
	store_close(s);
}

/* Step by step: version 0 (nothing), then the migration to 1, recorded
 * once; migrating again to the same target changes nothing. */
static void test_migrate_steps(void **state)
{
	(void)state;
	char path[512];
	path_of(path, sizeof(path), "steps.db");
	struct store s = {0};
	assert_int_equal(sdb_open_sqlite(&s, path, false), 0);
	assert_int_equal(store_schema_version(&s), 0);
	assert_int_equal(store_schema_migrate(&s, 0), 0);
	assert_int_equal(store_schema_version(&s), 0);
	assert_int_equal(sdb_has_table(&s, "runs"), 0);
	assert_int_equal(store_schema_migrate(&s, 1), 0);
	assert_int_equal(store_schema_version(&s), 1);
	assert_int_equal(sdb_has_table(&s, "runs"), 1);
	assert_int_equal(store_schema_migrate(&s, 1), 0);
	assert_int_equal(count(&s, "SELECT count(*) FROM schema_version"), 1);
	sdb_close(&s);
}

/* A store written by a newer benchgrid is refused, not written. */
static void test_newer_store_refused(void **state)
{
	(void)state;
	char path[512], err[512];
	path_of(path, sizeof(path), "newer.db");
	struct store *s;
	assert_int_equal(store_open(path, false, &s, err, sizeof(err)), 0);
	assert_true(sdb_exec(s, "INSERT INTO schema_version (version, applied) VALUES (99, 0)", 0, NULL, NULL,
	                     NULL) >= 0);
	store_close(s);
	assert_true(store_open(path, false, &s, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "version 99, newer than this benchgrid"));
}

static const char results_json[] =
    "{\"format\": \"benchgrid-results\", \"version\": 1, \"tool\": \"0.1.0\","
    " \"scenario\": {\"file\": \"s.yaml\", \"name\": \"unit\", \"description\": null, \"hash\": \"abc\"},"
    " \"started\": 1700000000.25, \"finished\": 1700000100.5, \"planned_cells\": 2, \"repeat\": 2,"
    " \"warmup\": 0, \"environment\": {\"metrics\": {}, \"info\": {\"machine.host\": \"h1\","
    " \"machine.kernel\": \"6.1\"}}, \"report\": null, \"expect\": null, \"cells\": ["
    "{\"index\": 0, \"id\": \"c0\", \"params\": {\"fs\": \"xfs\"}, \"status\": \"ok\", \"error\": null,"
    " \"started\": 1700000001, \"elapsed\": 10, \"facts\": {\"metrics\": {}, \"info\": {\"fs.type\": "
    "\"xfs\"}},"
    " \"setup_seconds\": {\"fs\": 2.5, \"pg\": 4},"
    " \"reps\": [[{\"name\": \"ro\", \"workload\": \"exec\", \"failed\": false, \"error\": null,"
    " \"started\": 1700000002, \"elapsed\": 1, \"metrics\": {\"tps\": {\"value\": 100, \"unit\": \"tps\"}}}],"
    " [{\"name\": \"ro\", \"workload\": \"exec\", \"failed\": false, \"error\": null,"
    " \"started\": 1700000003, \"elapsed\": 1, \"metrics\": {\"tps\": {\"value\": 110, \"unit\": "
    "\"tps\"}}}]]},"
    "{\"index\": 1, \"id\": \"c1\", \"params\": {\"fs\": \"ext4\"}, \"status\": \"ok\", \"error\": null,"
    " \"started\": 1700000011, \"elapsed\": 10, \"facts\": {\"metrics\": {}, \"info\": {}},"
    " \"setup_seconds\": {\"fs\": 3.5}, \"reps\": []}]}";

static void write_run(const char *sub)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	mkdir(path, 0700);
	strcat(path, "/results.json");
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(results_json, f);
	assert_int_equal(fclose(f), 0);
}

/* store_last_setup_seconds opens read-only: a missing store stays missing. */
static void test_setup_seconds(void **state)
{
	(void)state;
	char path[512], run[512], err[512];
	double fs, pg, data;
	path_of(path, sizeof(path), "setup.db");
	assert_int_equal(store_last_setup_seconds(path, "unit", &fs, &pg, &data), -ENOENT);
	assert_int_equal(access(path, F_OK), -1);
	write_run("run1");
	path_of(run, sizeof(run), "run1");
	struct store *s;
	assert_int_equal(store_open(path, false, &s, err, sizeof(err)), 0);
	assert_int_equal(store_last_setup_seconds(path, "unit", &fs, &pg, &data), -ENOENT);
	assert_int_equal(store_put_dir(s, run, err, sizeof(err)), 0);
	assert_int_equal(store_put_dir(s, run, err, sizeof(err)), 1);
	assert_int_equal(count(s, "SELECT count(*) FROM runs"), 1);
	assert_int_equal(count(s, "SELECT count(*) FROM cells"), 2);
	assert_int_equal(count(s, "SELECT count(*) FROM samples"), 2);
	assert_int_equal(count(s, "SELECT value FROM metrics WHERE metric = 'tps'"), 105);
	store_close(s);
	assert_int_equal(store_last_setup_seconds(path, "unit", &fs, &pg, &data), 0);
	assert_true(fabs(fs - 3.0) < 1e-9); /* the mean of 2.5 and 3.5 */
	assert_true(fabs(pg - 4.0) < 1e-9); /* cell c1 reused the server: no value */
	assert_true(isnan(data));
	assert_int_equal(store_last_setup_seconds(path, "other", &fs, &pg, &data), -ENOENT);
	/* Read-only opens leave no file beside the store. */
	char side[600];
	static const char *const sides[] = {"-wal", "-shm", "-journal"};
	for (size_t i = 0; i < 3; i++) {
		snprintf(side, sizeof(side), "%s%s", path, sides[i]);
		assert_int_equal(access(side, F_OK), -1);
	}
}

/* The history of a metric, filtered by a parameter. */
static void test_history(void **state)
{
	(void)state;
	char path[512], run[512], err[512];
	path_of(path, sizeof(path), "hist.db");
	write_run("run2");
	path_of(run, sizeof(run), "run2");
	struct store *s;
	assert_int_equal(store_open(path, false, &s, err, sizeof(err)), 0);
	assert_int_equal(store_put_dir(s, run, err, sizeof(err)), 0);
	store_close(s);
	assert_int_equal(store_open(path, true, &s, err, sizeof(err)), 0);
	struct store_point *p;
	size_t n;
	struct store_where w = {"fs", "xfs"};
	assert_int_equal(store_history(s, "unit", "ro", "tps", &w, 1, &p, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_string_equal(p[0].host, "h1");
	assert_string_equal(p[0].label, "fs=xfs");
	assert_true(fabs(p[0].value - 105) < 1e-9);
	store_points_free(p, n);
	char step[64], metric[64];
	assert_int_equal(
	    store_default_metric(s, "unit", step, sizeof(step), metric, sizeof(metric), err, sizeof(err)), 0);
	assert_string_equal(metric, "tps");
	store_close(s);
}

/* Version 2 as it will come: one more entry in the list. A version 1
 * store with a run in it gets the new column, keeps its rows, and records
 * version 2; a list that knows only version 1 then refuses the store. */
static void test_migrate_to_v2(void **state)
{
	(void)state;
	char path[512], run[512], err[512];
	path_of(path, sizeof(path), "v2.db");
	write_run("runv2");
	path_of(run, sizeof(run), "runv2");
	struct store *s;
	assert_int_equal(store_open(path, false, &s, err, sizeof(err)), 0);
	assert_int_equal(store_put_dir(s, run, err, sizeof(err)), 0);
	size_t n;
	const store_migration *real = store_schema_migrations(&n);
	assert_int_equal(n, 1);
	static const char *const v2[] = {"ALTER TABLE runs ADD COLUMN note TEXT",
	                                 "UPDATE runs SET note = 'migrated'", NULL};
	const store_migration list[] = {real[0], v2};
	assert_int_equal(store_schema_migrate_list(s, list, 2, 2), 0);
	assert_int_equal(store_schema_version(s), 2);
	assert_int_equal(count(s, "SELECT count(*) FROM runs WHERE note = 'migrated'"), 1);
	assert_int_equal(count(s, "SELECT count(*) FROM samples"), 2);
	assert_int_equal(store_schema_migrate_list(s, list, 2, 2), 0); /* nothing left to do */
	assert_int_equal(count(s, "SELECT count(*) FROM schema_version"), 2);
	assert_int_equal(store_schema_migrate_list(s, real, 1, 1), -1);
	assert_non_null(strstr(s->err, "version 2, newer than this benchgrid's 1"));
	store_close(s);
}

/* A failed migration leaves the store as it was: the version and the
 * tables of the statements before the failing one are rolled back. */
static void test_migration_rolls_back(void **state)
{
	(void)state;
	char path[512], err[512];
	path_of(path, sizeof(path), "rollback.db");
	struct store *s;
	assert_int_equal(store_open(path, false, &s, err, sizeof(err)), 0);
	size_t n;
	const store_migration *real = store_schema_migrations(&n);
	static const char *const bad[] = {"CREATE TABLE added (x TEXT)", "THIS IS NOT SQL", NULL};
	const store_migration list[] = {real[0], bad};
	assert_int_equal(store_schema_migrate_list(s, list, 2, 2), -1);
	assert_int_equal(store_schema_version(s), 1);
	assert_int_equal(sdb_has_table(s, "added"), 0);
	store_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_create_and_reopen),
	    cmocka_unit_test(test_migrate_steps),
	    cmocka_unit_test(test_newer_store_refused),
	    cmocka_unit_test(test_setup_seconds),
	    cmocka_unit_test(test_history),
	    cmocka_unit_test(test_migrate_to_v2),
	    cmocka_unit_test(test_migration_rolls_back),
	};
	return cmocka_run_group_tests(tests, make_dir, remove_dir);
}

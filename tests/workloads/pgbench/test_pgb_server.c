/* Tests of the pgbench step against a real PostgreSQL server.
 *
 * Run by tests/workloads/pgbench/pgbench_server.sh, which starts a throwaway
 * cluster (pg_server.sh) and passes PG_CONNINFO and PG_SERVER_LOG. Each test
 * runs the step through wl_pgbench_ops with options written in YAML, as a
 * scenario would, and checks the database with its own connection. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <libpq-fe.h>

#include "diag.h"
#include "result.h"
#include "spec.h"
#include "wl_pgbench.h"

static const char *conninfo;
static PGconn *db;

static char *q1(const char *sql)
{
	static char buf[4][256];
	static int k;
	PGresult *r = PQexec(db, sql);

	if (PQresultStatus(r) != PGRES_TUPLES_OK && PQresultStatus(r) != PGRES_COMMAND_OK)
		fail_msg("%s: %s", sql, PQerrorMessage(db));
	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s", PQntuples(r) ? PQgetvalue(r, 0, 0) : "");
	PQclear(r);
	return buf[k];
}

static double metric(const struct step_result *r, const char *name)
{
	const struct metric *m = result_get(r, name);

	if (!m)
		fail_msg("metric %s missing", name);
	return m->value;
}

/* The names the fixtures give a step (step_ctx.names): the server's
 * conninfo and log file, each when not NULL. */
static struct node *server_names(const char *conninfo, const char *log)
{
	struct node *m = node_new(NODE_MAP, NULL);

	assert_non_null(m);
	if (conninfo)
		node_map_put(m, "pg.conninfo", NULL, node_new_scalar(conninfo, NULL));
	if (log)
		node_map_put(m, "pg.log", NULL, node_new_scalar(log, NULL));
	return m;
}

/* Run the step with YAML options; returns the run's return code; errors of
 * the options land in d. */
static int run_step(const char *yaml, struct step_result *r, struct diag *d, const char *pg_log)
{
	struct node *opts = spec_load_string("test.yaml", yaml, d);
	char dir[256];

	assert_non_null(opts);
	snprintf(dir, sizeof(dir), "%s/tests/workloads/pgbench",
	         getenv("BENCHGRID_SRC") ? getenv("BENCHGRID_SRC") : ".");
	struct node *names = server_names(conninfo, pg_log);
	struct step_ctx cx = {.names = names, .step_name = "t", .scenario_dir = dir, .timeout = 60};

	result_init(r, "t", "pgbench");
	int rc = wl_pgbench_ops.check(opts, d);

	if (!rc)
		rc = wl_pgbench_ops.run(opts, &cx, r, d);
	node_free(opts);
	node_free(names);
	return rc;
}

static void run_ok(const char *yaml, struct step_result *r)
{
	struct diag d;

	diag_init(&d);
	int rc = run_step(yaml, r, &d, NULL);

	if (rc || d.nerrors || r->failed) {
		if (d.nerrors)
			diag_print(&d, stderr);
		fail_msg("step %s failed: rc %d: %s", yaml, rc, r->error ? r->error : "");
	}
	diag_free(&d);
}

static int group_setup(void **state)
{
	(void)state;
	conninfo = getenv("PG_CONNINFO");
	if (!conninfo) {
		fprintf(stderr, "PG_CONNINFO not set: run tests/workloads/pgbench/pgbench_server.sh\n");
		return -1;
	}
	db = PQconnectdb(conninfo);
	return PQstatus(db) == CONNECTION_OK ? 0 : -1;
}

static int group_teardown(void **state)
{
	(void)state;
	PQfinish(db);
	return 0;
}

static void test_init(void **state)
{
	(void)state;
	struct step_result r;

	run_ok("{init: {scale: 1}}", &r);
	assert_string_equal(q1("select count(*) from pgbench_accounts"), "100000");
	assert_string_equal(q1("select count(*) from pgbench_tellers"), "10");
	assert_string_equal(q1("select count(*) from pgbench_branches"), "1");
	assert_string_equal(q1("select count(*) from pgbench_history"), "0");
	assert_string_equal(
	    q1("select count(distinct bid) || ',' || max(bid) || ',' || sum(abalance) from pgbench_accounts"),
	    "1,1,0");
	assert_string_equal(q1("select count(*) from pg_indexes where indexname like 'pgbench_%_pkey'"), "3");
	assert_string_equal(
	    q1("select length(filler) || ',' || octet_length(filler::text) from pgbench_accounts limit 1"),
	    "0,0");
	assert_true(metric(&r, "init_s") > 0);
	assert_true(metric(&r, "init_load_s") > 0 && metric(&r, "init_load_s") <= metric(&r, "init_s"));
	metric(&r, "init_vacuum_s");
	metric(&r, "init_pkeys_s");
	result_free(&r);
}

static void test_init_options(void **state)
{
	(void)state;
	struct step_result r;

	/* server-side generation, partitions, fillfactor, foreign keys, unlogged */
	run_ok("{init: {scale: 2, server_side: true, partitions: 3, fillfactor: 90, foreign_keys: true, "
	       "unlogged: true}}",
	       &r);
	assert_string_equal(q1("select count(*) from pgbench_accounts"), "200000");
	assert_string_equal(q1("select count(*) from pgbench_tellers"), "20");
	assert_string_equal(
	    q1("select count(*) from pg_inherits where inhparent = 'pgbench_accounts'::regclass"), "3");
	assert_string_equal(q1("select reloptions[1] from pg_class where relname = 'pgbench_tellers'"),
	                    "fillfactor=90");
	assert_string_equal(q1("select relpersistence from pg_class where relname = 'pgbench_branches'"),
	                    "u");
	assert_string_equal(q1("select count(*) from pg_constraint where contype = 'f' and conparentid = 0 "
	                       "and conname like 'pgbench_%'"),
	                    "5");
	metric(&r, "init_fkeys_s");
	result_free(&r);
	/* back to the plain data set for the other tests */
	run_ok("{init: {scale: 1}}", &r);
	result_free(&r);
}

static void check_balanced(int64_t n)
{
	char want[32];

	snprintf(want, sizeof(want), "%" PRId64, n);
	char *a = q1("select sum(abalance) from pgbench_accounts"),
	     *t = q1("select sum(tbalance) from pgbench_tellers");
	char *b = q1("select sum(bbalance) from pgbench_branches"),
	     *h = q1("select sum(delta) from pgbench_history");

	if (strcmp(a, t) || strcmp(a, b) || strcmp(a, h))
		fail_msg("sums differ: accounts %s tellers %s branches %s history %s", a, t, b, h);
	assert_string_equal(q1("select count(*) from pgbench_history"), want);
}

static void test_tpcb(void **state)
{
	(void)state;
	struct step_result r;
	const char *proto[] = {"simple", "extended", "prepared"};
	char yaml[256];

	q1("truncate pgbench_history");
	q1("update pgbench_accounts set abalance = 0 where abalance <> 0");
	q1("update pgbench_tellers set tbalance = 0");
	q1("update pgbench_branches set bbalance = 0");
	/* vacuum: false (pgbench -n) keeps the history of every run, which the
	 * balance check sums */
	for (int i = 0; i < 3; i++) {
		snprintf(yaml, sizeof(yaml),
		         "{builtin: tpcb-like, clients: 4, threads: 2, transactions: 50, protocol: %s, "
		         "vacuum: false}",
		         proto[i]);
		run_ok(yaml, &r);
		assert_int_equal((int64_t)metric(&r, "transactions"), 200);
		assert_int_equal((int64_t)metric(&r, "failed"), 0);
		assert_true(metric(&r, "tps") > 0);
		assert_true(metric(&r, "lat_p50_ms") <= metric(&r, "lat_p99_ms"));
		assert_true(metric(&r, "lat_p99_ms") <= metric(&r, "lat_max_ms"));
		assert_true(metric(&r, "xact_commit") >= 200);
		assert_true(metric(&r, "wal_bytes") > 0);
		check_balanced(200 * (i + 1));
		result_free(&r);
	}
	/* builtins by name with pgbench's @weight */
	run_ok("{scripts: [select-only@3, simple-update@1], clients: 2, transactions: 20}", &r);
	assert_int_equal((int64_t)metric(&r, "transactions"), 40);
	result_free(&r);
	/* the scale is read from pgbench_branches unless given */
	run_ok("{builtin: simple-update, transactions: 5}", &r);
	assert_string_equal(result_info_get(&r, "pgbench.scale"), "1");
	result_free(&r);
}

static void test_select_only(void **state)
{
	(void)state;
	struct step_result r;
	const char *sum =
	    "select md5(string_agg(aid || ':' || abalance, ',' order by aid)) from pgbench_accounts";
	char before[64], hist[32];

	snprintf(before, sizeof(before), "%s", q1(sum));
	snprintf(hist, sizeof(hist), "%s", q1("select count(*) from pgbench_history"));
	/* vacuum: false, or pgbench_history is truncated first (as pgbench does) */
	run_ok("{builtin: select-only, clients: 3, threads: 1, transactions: 300, protocol: prepared, "
	       "vacuum: false}",
	       &r);
	assert_int_equal((int64_t)metric(&r, "transactions"), 900);
	assert_string_equal(q1(sum), before);
	assert_string_equal(q1("select count(*) from pgbench_history"), hist);
	assert_true(metric(&r, "cache_hit_ratio") > 0.5 && metric(&r, "cache_hit_ratio") <= 1.0);
	result_free(&r);
}

static void test_rate(void **state)
{
	(void)state;
	struct step_result r;

	run_ok("{builtin: select-only, clients: 4, threads: 2, duration: 2s, rate: 1000, seed: 5, progress: "
	       "0.5s}",
	       &r);
	double tps = metric(&r, "tps");

	if (fabs(tps - 1000) > 50)
		fail_msg("rate 1000: got %.1f tps", tps);
	const struct series *s = result_series(&r, "tps");

	assert_non_null(s);
	assert_true(s->n >= 3);
	assert_non_null(result_series(&r, "lat_ms"));
	result_free(&r);
}

static void test_custom_scripts(void **state)
{
	(void)state;
	struct step_result r;

	q1("drop table if exists pgb_t");
	q1("create table pgb_t (s int, v bigint)");
	run_ok("scripts:\n"
	       "  - text: |\n"
	       "      \\set v random_zipfian(1, 100, 1.2) * 2\n"
	       "      INSERT INTO pgb_t VALUES (1, :v);\n"
	       "  - {text: \"\\\\set v random_gaussian(1, 100, 3)\\nINSERT INTO pgb_t VALUES (2, :v);\", "
	       "weight: 3}\n"
	       "clients: 2\n"
	       "transactions: 400\n"
	       "seed: 3\n"
	       "protocol: extended\n"
	       "report_statements: true\n",
	       &r);
	double share = atof(q1("select avg((s = 2)::int) from pgb_t"));

	if (fabs(share - 0.75) > 0.06)
		fail_msg("weight 3 of 4: share %.3f", share);
	assert_string_equal(q1("select count(*) from pgb_t"), "800");
	assert_string_equal(q1("select bool_and(v between 2 and 200 and v % 2 = 0) from pgb_t where s = 1"),
	                    "t");
	assert_string_equal(q1("select bool_and(v between 1 and 100) from pgb_t where s = 2"), "t");
	assert_string_equal(result_info_get(&r, "stmt2"), "INSERT INTO pgb_t VALUES (1, :v)");
	assert_true(metric(&r, "stmt2_ms") > 0);
	result_free(&r);

	/* a script file relative to the scenario directory, and \sleep */
	run_ok("{script: pgbench_sleep.sql, transactions: 3, connect: per_transaction}", &r);
	assert_true(metric(&r, "lat_mean_ms") >= 20.0);
	assert_true(metric(&r, "conn_mean_ms") > 0);
	result_free(&r);
	q1("drop table pgb_t");
}

static void test_bad_statement(void **state)
{
	(void)state;
	struct step_result r;
	struct diag d;

	diag_init(&d);
	int rc =
	    run_step("{script: \"SELECT nosuchcol FROM pgbench_accounts;\", clients: 2, transactions: 5}", &r,
	             &d, getenv("PG_SERVER_LOG"));
	assert_int_not_equal(rc, 0);
	assert_true(r.failed);
	assert_non_null(r.error);
	if (!strstr(r.error, "column \"nosuchcol\" does not exist") || !strstr(r.error, "script1 line 1") ||
	    !strstr(r.error, "server log"))
		fail_msg("unclear error: %s", r.error);
	result_free(&r);
	diag_free(&d);

	/* an undefined variable at run time */
	diag_init(&d);
	rc = run_step("{script: \"\\\\set a :b + 1\\n\\\\set b 1\\nSELECT :a;\", transactions: 1}", &r, &d,
	              NULL);
	assert_int_not_equal(rc, 0);
	assert_non_null(strstr(r.error, "undefined variable \"b\""));
	result_free(&r);
	diag_free(&d);
}

/* Two clients that lock two rows in opposite orders deadlock: the victim's
 * transaction is rolled back and counted in `failed`, and the step goes on. */
static void test_deadlock_counts_failed(void **state)
{
	(void)state;
	struct step_result r;

	q1("drop table if exists pgb_d");
	q1("create table pgb_d (id int primary key, v int)");
	q1("insert into pgb_d values (1, 0), (2, 0)");
	run_ok("script: |\n"
	       "  \\set first :client_id % 2 + 1\n"
	       "  \\set second 2 - :client_id % 2\n"
	       "  BEGIN;\n"
	       "  UPDATE pgb_d SET v = v + 1 WHERE id = :first;\n"
	       "  \\sleep 200 ms\n"
	       "  UPDATE pgb_d SET v = v + 1 WHERE id = :second;\n"
	       "  END;\n"
	       "clients: 2\n"
	       "threads: 2\n"
	       "transactions: 1\n",
	       &r);
	assert_int_equal((int64_t)metric(&r, "failed"), 1);
	assert_int_equal((int64_t)metric(&r, "transactions"), 1);
	assert_true(metric(&r, "deadlocks") >= 1);
	/* the winner's two updates are in, the victim's are not */
	assert_string_equal(q1("select sum(v) from pgb_d"), "2");
	result_free(&r);
	q1("drop table pgb_d");
}

/* No server, an unreachable server, a step over its timeout: clear errors. */
static void test_no_server(void **state)
{
	(void)state;
	struct diag d;
	struct step_result r;
	struct node *opts;
	struct step_ctx cx = {.step_name = "t"};

	diag_init(&d);
	opts = spec_load_string("t.yaml", "{builtin: select-only, transactions: 1}", &d);
	result_init(&r, "t", "pgbench");
	assert_int_not_equal(wl_pgbench_ops.run(opts, &cx, &r, &d), 0);
	assert_non_null(strstr(r.error, "no PostgreSQL server"));
	result_free(&r);

	struct node *nowhere = server_names("host=/nonexistent-dir port=1 connect_timeout=2", NULL),
	            *names = server_names(conninfo, NULL);
	cx.names = nowhere;
	result_init(&r, "t", "pgbench");
	assert_int_not_equal(wl_pgbench_ops.run(opts, &cx, &r, &d), 0);
	assert_non_null(strstr(r.error, "cannot connect"));
	result_free(&r);
	node_free(opts);

	opts = spec_load_string("t.yaml", "{builtin: select-only, duration: 20s}", &d);
	cx.names = names;
	cx.timeout = 0.5;
	result_init(&r, "t", "pgbench");
	assert_int_not_equal(wl_pgbench_ops.run(opts, &cx, &r, &d), 0);
	assert_non_null(strstr(r.error, "timed out"));
	assert_true(r.elapsed < 5);
	result_free(&r);
	node_free(opts);

	/* an init over its timeout is cancelled in the server */
	opts = spec_load_string("t.yaml", "{init: {scale: 20}}", &d);
	cx.timeout = 0.3;
	result_init(&r, "t", "pgbench");
	assert_int_not_equal(wl_pgbench_ops.run(opts, &cx, &r, &d), 0);
	if (!strstr(r.error, "pgbench init: timed out after 0.3 s"))
		fail_msg("init timeout: %s", r.error);
	assert_true(r.elapsed < 5);
	result_free(&r);
	node_free(opts);
	node_free(nowhere);
	node_free(names);
	diag_free(&d);
}

static void expect_check_error(const char *yaml, const char *msg, int line, int col)
{
	struct diag d;
	struct step_result r;
	char buf[512];

	diag_init(&d);
	int rc = run_step(yaml, &r, &d, NULL);

	assert_int_equal(rc, -EINVAL);
	assert_true(d.nerrors >= 1);
	diag_format_one(&d.v[0], buf, sizeof(buf));
	if (!strstr(buf, msg) || d.v[0].pos.line != line || d.v[0].pos.col != col)
		fail_msg("for %s: got \"%s\" at %d:%d, want \"%s\" at %d:%d", yaml, buf, d.v[0].pos.line,
		         d.v[0].pos.col, msg, line, col);
	result_free(&r);
	diag_free(&d);
}

static void test_bad_options(void **state)
{
	(void)state;
	expect_check_error("clients: 2\nthread: 2\n", "did you mean", 2, 1);
	expect_check_error("clients: 2\nthreads: 3\n", "at most one thread per client", 2, 10);
	expect_check_error("builtin: tpcc\n", "tpcb-like", 1, 10);
	expect_check_error("protocol: fast\n", "prepared", 1, 11);
	expect_check_error("duration: 1s\ntransactions: 5\n", "not both", 2, 15);
	expect_check_error("init: {scale: 0}\n", "pgbench.init.scale", 1, 15);
	/* pgbench 15's own limits (pgbench -i -s/-F/--partitions/--partition-method) */
	expect_check_error("init: {scale: 2147483648}\n", "pgbench.init.scale", 1, 15);
	expect_check_error("init: {fillfactor: 9}\n", "pgbench.init.fillfactor", 1, 20);
	expect_check_error("init: {partitions: -1}\n", "pgbench.init.partitions", 1, 20);
	expect_check_error("init: {partition_method: hash}\n", "needs partitions greater than 0", 1, 26);
	expect_check_error("init: {tablespace: ''}\n", "pgbench.init.tablespace: the name is empty", 1, 20);
	struct diag dok;
	diag_init(&dok);
	struct node *big = spec_load_string(
	    "t.yaml", "{init: {scale: 2147483647, partitions: 2000000, partition_method: hash}}", &dok);
	assert_int_equal(wl_pgbench_ops.check(big, &dok), 0);
	node_free(big);
	diag_free(&dok);
	expect_check_error("init: {scale: 1}\nclients: 4\n", "cannot be combined with init", 2, 1);
	/* a string source is held by diag like a file: its block's indentation counts */
	expect_check_error("script: |\n  SELECT 1;\n  \\set x random(1, 2\n", "expected ',' or ')'", 3, 21);
	expect_check_error("script: no_such_file.sql\n", "cannot open", 1, 9);

	/* in a scenario file, columns of a block scalar count its indentation */
	char path[] = "/tmp/bg-pgb-XXXXXX";
	int fd = mkstemp(path);
	const char *yaml = "script: |\n    SELECT 1;\n    \\set x random(1, 2\n";
	struct diag d;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, yaml, strlen(yaml)), (ssize_t)strlen(yaml));
	close(fd);
	diag_init(&d);
	struct node *opts = spec_load_file(path, &d);

	assert_non_null(opts);
	assert_int_equal(wl_pgbench_ops.check(opts, &d), -EINVAL);
	assert_int_equal(d.v[0].pos.line, 3);
	assert_int_equal(d.v[0].pos.col, 23);
	node_free(opts);
	diag_free(&d);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_init),
	    cmocka_unit_test(test_init_options),
	    cmocka_unit_test(test_tpcb),
	    cmocka_unit_test(test_select_only),
	    cmocka_unit_test(test_rate),
	    cmocka_unit_test(test_custom_scripts),
	    cmocka_unit_test(test_bad_statement),
	    cmocka_unit_test(test_bad_options),
	    cmocka_unit_test(test_deadlock_counts_failed),
	    cmocka_unit_test(test_no_server),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}

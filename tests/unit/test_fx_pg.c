/* Tests of the managed PostgreSQL server (fx_pg) against real servers:
 * initdb + start + SHOW read-back, reuse (reload / restart / reused),
 * wal_dir and tablespaces on other directories, bad settings with the log
 * tail and nothing left running, a killed postmaster, the state journal,
 * external servers and the pgbench data load. Every test works in its own
 * mkdtemp directory; teardown stops every server, also when a test fails. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "test_cases.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#include <libpq-fe.h>

#include "fx_pg.h"
#include "fx_pg_sql.h"
#include "result.h"
#include "spec.h"
#include "state.h"

struct t {
	char dir[64];   /* the test's directory */
	char data[96];  /* data parent (the "target") */
	char other[96]; /* a second "target" */
	char cell[96];  /* cell dir */
	struct fx_pg *pg[2];
	struct node *root;
	struct diag d;
	struct step_result r;
};

static const char *resolve(void *ud, const char *name)
{
	struct t *t = ud;
	return strcmp(name, "other") == 0 ? t->other : NULL;
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)f;
	return flag == FTW_DP ? rmdir(p) : unlink(p);
}

static int setup(void **state)
{
	struct t *t = calloc(1, sizeof(*t));
	strcpy(t->dir, "/tmp/bg-fxpg-XXXXXX");
	if (!mkdtemp(t->dir))
		return -1;
	chmod(t->dir, 0755); /* the server user must reach its directories */
	snprintf(t->data, sizeof(t->data), "%s/data", t->dir);
	snprintf(t->other, sizeof(t->other), "%s/other", t->dir);
	snprintf(t->cell, sizeof(t->cell), "%s/cell", t->dir);
	mkdir(t->data, 0755);
	mkdir(t->other, 0755);
	mkdir(t->cell, 0755);
	diag_init(&t->d);
	result_init(&t->r, "pg", "postgres");
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct t *t = *state;
	for (int i = 0; i < 2; i++)
		fx_pg_stop(t->pg[i]);
	node_free(t->root);
	diag_free(&t->d);
	result_free(&t->r);
	nftw(t->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(t);
	return 0;
}

/* Number of processes whose working directory is under dir. */
static int procs_under(const char *dir)
{
	DIR *p = opendir("/proc");
	struct dirent *e;
	int n = 0;
	while ((e = readdir(p))) {
		char link[300], cwd[PATH_MAX];
		snprintf(link, sizeof(link), "/proc/%s/cwd", e->d_name);
		ssize_t l = readlink(link, cwd, sizeof(cwd) - 1);
		if (l <= 0)
			continue;
		cwd[l] = 0;
		if (strncmp(cwd, dir, strlen(dir)) == 0)
			n++;
	}
	closedir(p);
	return n;
}

/* Does the kernel refuse a `gb` GiB mapping? Heuristic overcommit (mode 0)
 * refuses more than RAM + swap; mode 2 refuses beyond the commit limit. */
static bool memory_refuses(long gb)
{
	FILE *f = fopen("/proc/sys/vm/overcommit_memory", "r");
	int mode = 1;
	if (f) {
		if (fscanf(f, "%d", &mode) != 1)
			mode = 1;
		fclose(f);
	}
	long total = 0, v;
	char key[64];
	f = fopen("/proc/meminfo", "r");
	while (f && fscanf(f, "%63s %ld kB\n", key, &v) == 2)
		if (!strcmp(key, "MemTotal:") || !strcmp(key, "SwapTotal:"))
			total += v;
	if (f)
		fclose(f);
	return mode != 1 && total > 0 && total < gb * 1024 * 1024 * 9 / 10;
}

/* Load a scenario text and return its postgres section. */
static const struct node *section(struct t *t, const char *yaml)
{
	node_free(t->root);
	t->root = spec_load_string("t.yaml", yaml, &t->d);
	assert_non_null(t->root);
	assert_int_equal(t->d.nerrors, 0);
	return node_get(t->root, "postgres");
}

static void reset(struct t *t)
{
	diag_free(&t->d);
	diag_init(&t->d);
	result_free(&t->r);
	result_init(&t->r, "pg", "postgres");
}

/* Tests need no durable initdb: --no-sync saves seconds per cluster. */
static int prepare(struct t *t, int i, const char *yaml)
{
	reset(t);
	char y[1024];
	snprintf(y, sizeof(y), "%s%s", yaml,
	         strstr(yaml, "external") || strstr(yaml, "initdb_options")
	             ? ""
	             : "  initdb_options: [--no-sync]\n");
	const struct node *s = section(t, y);
	int rc = fx_pg_prepare(&t->pg[i], s, t->data, t->cell, resolve, t, &t->r, &t->d);
	if (rc) {
		for (size_t k = 0; k < t->d.n; k++)
			fprintf(stderr, "  diag: %s\n", t->d.v[k].msg);
	}
	return rc;
}

static const char *info(struct t *t, const char *key)
{
	const char *v = result_info_get(&t->r, key);
	return v ? v : "(none)";
}

static char *sql1(struct t *t, int i, const char *sql)
{
	PGconn *c = PQconnectdb(fx_pg_conninfo(t->pg[i]));
	assert_int_equal(PQstatus(c), CONNECTION_OK);
	PGresult *r = PQexec(c, sql);
	assert_int_equal(PQresultStatus(r), PGRES_TUPLES_OK);
	char *v = strdup(PQgetvalue(r, 0, 0));
	PQclear(r);
	PQfinish(c);
	return v;
}

static long postmaster_pid(struct t *t)
{
	char p[200];
	snprintf(p, sizeof(p), "%s/pgdata/postmaster.pid", t->data);
	FILE *f = fopen(p, "r");
	long pid = 0;
	if (f) {
		if (fscanf(f, "%ld", &pid) != 1)
			pid = 0;
		fclose(f);
	}
	return pid;
}

/* ---- no server needed ------------------------------------------------- */

static void test_check(void **state)
{
	struct t *t = *state;
	static const struct {
		const char *yaml;
		int line, col;
		const char *msg;
	} cases[] = {
	    {"postgres:\n  setings: {}\n", 2, 3, "did you mean 'settings'"},
	    {"postgres:\n  init: {scale: 0}\n", 2, 17, "postgres.init.scale"},
	    {"postgres:\n  settings: {port: 5433}\n", 2, 14, "use postgres.port"},
	    {"postgres:\n  settings:\n    shared_buffers: {a: 1}\n", 3, 21, "found a map"},
	    {"postgres:\n  tablespaces: {a: /x}\n  init: {tablespace: b}\n", 3, 22, "not one of"},
	    {"postgres:\n  external: \"host=/tmp\"\n  wal_dir: /x\n", 3, 3, "not allowed with external"},
	    {"postgres:\n  external: \"host=/tmp bogus=1\"\n", 2, 13, "not a libpq connection string"},
	    {"postgres:\n  initdb_options: [-X, /w]\n", 2, 20, "use wal_dir"},
	    {"postgres:\n  tablespaces: {Pg_x: /x}\n", 2, 17, "lower-case identifier"},
	    {"postgres:\n  settings: {\"bad name\": 1}\n", 2, 14, "not a PostgreSQL setting name"},
	    {"postgres:\n  bin_dir: relative/bin\n", 2, 12, "absolute path"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		reset(t);
		const struct node *s = section(t, cases[i].yaml);
		assert_int_equal(fx_pg_check(s, &t->d), -EINVAL);
		assert_true(t->d.nerrors >= 1);
		if (!strstr(t->d.v[0].msg, cases[i].msg) || t->d.v[0].pos.line != cases[i].line ||
		    t->d.v[0].pos.col != cases[i].col)
			fail_msg("case %zu: %d:%d %s", i, t->d.v[0].pos.line, t->d.v[0].pos.col,
			         t->d.v[0].msg);
	}
	reset(t);
	const struct node *s =
	    section(t, "postgres:\n  settings: {shared_buffers: 128MB, fsync: off, search_path: [a, b]}\n"
	               "  init: {scale: 2, fillfactor: 90, unlogged: true, partitions: 2}\n  fresh: true\n"
	               "  initdb_options: [--data-checksums]\n  port: 5444\n");
	assert_int_equal(fx_pg_check(s, &t->d), 0);
	reset(t);
	assert_int_equal(fx_pg_check(NULL, &t->d), 0); /* `postgres:` alone: defaults */
}

/* Wanted value vs pg_settings (vartype, unit, setting), as for external servers. */
static void test_setting_matches(void **state)
{
	(void)state;
	assert_int_equal(fxpg_setting_matches("128MB", "integer", "8kB", "16384"), 1);
	assert_int_equal(fxpg_setting_matches("131072kB", "integer", "8kB", "16384"), 1);
	assert_int_equal(fxpg_setting_matches("16384", "integer", "8kB", "16384"), 1);
	assert_int_equal(fxpg_setting_matches("256MB", "integer", "8kB", "16384"), 0);
	assert_int_equal(fxpg_setting_matches("100kB", "integer", "8kB", "13"),
	                 1); /* rounded by the server */
	assert_int_equal(fxpg_setting_matches("4MB", "integer", "kB", "4096"), 1);
	assert_int_equal(fxpg_setting_matches("15min", "integer", "s", "900"), 1);
	assert_int_equal(fxpg_setting_matches("900", "integer", "s", "900"), 1);
	assert_int_equal(fxpg_setting_matches("5min", "integer", "s", "900"), 0);
	assert_int_equal(fxpg_setting_matches("200ms", "integer", "ms", "200"), 1);
	assert_int_equal(fxpg_setting_matches("1s", "integer", "ms", "1000"), 1);
	assert_int_equal(fxpg_setting_matches("1GB", "integer", "s", "900"), -1); /* wrong kind of unit */
	assert_int_equal(fxpg_setting_matches("1.1", "real", "", "1.1"), 1);
	assert_int_equal(fxpg_setting_matches("4", "real", "", "1.1"), 0);
	assert_int_equal(fxpg_setting_matches("100", "integer", "", "100"), 1);
	assert_int_equal(fxpg_setting_matches("off", "bool", "", "off"), 1);
	assert_int_equal(fxpg_setting_matches("false", "bool", "", "off"), 1);
	assert_int_equal(fxpg_setting_matches("on", "bool", "", "off"), 0);
	assert_int_equal(fxpg_setting_matches("maybe", "bool", "", "off"), -1);
	assert_int_equal(fxpg_setting_matches("Local", "enum", "", "local"), 1);
	assert_int_equal(fxpg_setting_matches("remote_apply", "enum", "", "on"), 0);
	assert_int_equal(fxpg_setting_matches(" 'public' ", "string", "", "public"), 1);
}

/* ---- real servers ------------------------------------------------------ */

static void test_start_show_reuse(void **state)
{
	struct t *t = *state;
	const char *base = "postgres:\n  settings:\n    shared_buffers: 16MB\n    random_page_cost: %s\n"
	                   "    application_name: \"it's a \\\\ test\"\n    work_mem: %s\n";
	char y[512];
	snprintf(y, sizeof(y), base, "1.5", "4MB");
	assert_int_equal(prepare(t, 0, y), 0);
	assert_string_equal(info(t, "pg.reuse"), "initdb");
	assert_string_equal(info(t, "pg.setting.shared_buffers"), "16MB");
	assert_string_equal(info(t, "pg.setting.random_page_cost"), "1.5");
	assert_string_equal(info(t, "pg.setting.application_name"), "it's a \\ test");
	assert_string_equal(info(t, "pg.block_size"), "8192");
	assert_string_equal(info(t, "pg.wal_block_size"), "8192");
	assert_non_null(strstr(info(t, "pg.server_version"), info(t, "pg.version")));
	assert_non_null(result_get(&t->r, "pg_initdb_s"));
	assert_non_null(result_get(&t->r, "pg_start_s"));
	fprintf(stderr, "  initdb %.3f s, start %.3f s\n", result_get(&t->r, "pg_initdb_s")->value,
	        result_get(&t->r, "pg_start_s")->value);
	assert_true(fx_pg_alive(t->pg[0]));
	assert_string_equal(fx_pg_logfile(t->pg[0]), info(t, "pg.log"));
	assert_int_equal(access(fx_pg_logfile(t->pg[0]), R_OK), 0);
	assert_non_null(strstr(fx_pg_logfile(t->pg[0]), t->cell));
	/* only a unix socket */
	char *la = sql1(t, 0, "SHOW listen_addresses");
	assert_string_equal(la, "");
	free(la);
	long pid = postmaster_pid(t);
	assert_true(pid > 0);

	/* reload-only change: same postmaster */
	snprintf(y, sizeof(y), base, "2.5", "8MB");
	assert_int_equal(prepare(t, 0, y), 0);
	assert_string_equal(info(t, "pg.reuse"), "reload");
	assert_null(result_get(&t->r, "pg_initdb_s"));
	assert_true(atol(info(t, "pg.log_from")) > 0); /* this cell's part of the log */
	assert_int_equal(postmaster_pid(t), pid);
	assert_string_equal(info(t, "pg.setting.random_page_cost"), "2.5");
	assert_string_equal(info(t, "pg.setting.work_mem"), "8MB");
	char *wm = sql1(t, 0, "SHOW work_mem"); /* a new session sees it too */
	assert_string_equal(wm, "8MB");
	free(wm);

	/* nothing changed */
	assert_int_equal(prepare(t, 0, y), 0);
	assert_string_equal(info(t, "pg.reuse"), "reused");
	assert_int_equal(postmaster_pid(t), pid);

	/* a postmaster setting: restart, no initdb */
	snprintf(y, sizeof(y),
	         "postgres:\n  settings:\n    shared_buffers: 24MB\n    random_page_cost: 2.5\n"
	         "    application_name: \"it's a \\\\ test\"\n    work_mem: 8MB\n");
	assert_int_equal(prepare(t, 0, y), 0);
	assert_string_equal(info(t, "pg.reuse"), "restart");
	assert_null(result_get(&t->r, "pg_initdb_s"));
	assert_true(postmaster_pid(t) != pid);
	assert_string_equal(info(t, "pg.setting.shared_buffers"), "24MB");

	/* a new port: restart, and the connection string follows */
	int port = 40000 + getpid() % 20000;
	char py[600];
	snprintf(py, sizeof(py), "%s  port: %d\n", y, port);
	assert_int_equal(prepare(t, 0, py), 0);
	assert_string_equal(info(t, "pg.reuse"), "restart");
	char want[32];
	snprintf(want, sizeof(want), "port=%d ", port);
	assert_non_null(strstr(fx_pg_conninfo(t->pg[0]), want));
	char *sp = sql1(t, 0, "SHOW port");
	assert_int_equal(atoi(sp), port);
	free(sp);

	/* a bad value on reload: named, old configuration kept, server up */
	pid = postmaster_pid(t);
	snprintf(y, sizeof(y),
	         "postgres:\n  settings:\n    shared_buffers: 24MB\n    random_page_cost: 2.5\n"
	         "    application_name: \"it's a \\\\ test\"\n    work_mem: banana\n");
	assert_int_not_equal(prepare(t, 0, y), 0);
	assert_int_equal(t->d.v[0].pos.line, 6);
	assert_non_null(strstr(t->d.v[0].msg, "work_mem"));
	assert_true(fx_pg_alive(t->pg[0]));
	assert_int_equal(postmaster_pid(t), pid);
	wm = sql1(t, 0, "SHOW work_mem");
	assert_string_equal(wm, "8MB");
	free(wm);

	fx_pg_stop(t->pg[0]);
	t->pg[0] = NULL;
	assert_int_equal(procs_under(t->dir), 0);
	char p[200];
	snprintf(p, sizeof(p), "%s/pgdata", t->data);
	assert_int_not_equal(access(p, F_OK), 0);
}

static void test_wal_dir_tablespace(void **state)
{
	struct t *t = *state;
	char y[512];
	snprintf(y, sizeof(y),
	         "postgres:\n  wal_dir: %s/w\n  tablespaces: {fast: other}\n"
	         "  settings: {shared_buffers: 16MB}\n",
	         t->dir);
	char w[200];
	snprintf(w, sizeof(w), "%s/w", t->dir);
	mkdir(w, 0755);
	assert_int_equal(prepare(t, 0, y), 0);
	/* pg_wal is a link to the WAL directory, which holds the segments */
	char link[200], target[PATH_MAX];
	snprintf(link, sizeof(link), "%s/pgdata/pg_wal", t->data);
	ssize_t n = readlink(link, target, sizeof(target) - 1);
	assert_true(n > 0);
	target[n] = 0;
	assert_non_null(strstr(target, w));
	char seg[PATH_MAX + 40];
	snprintf(seg, sizeof(seg), "%s/000000010000000000000001", target);
	assert_int_equal(access(seg, F_OK), 0);
	/* a table in the tablespace lives under the other directory */
	PGconn *c = PQconnectdb(fx_pg_conninfo(t->pg[0]));
	assert_int_equal(PQstatus(c), CONNECTION_OK);
	PGresult *r =
	    PQexec(c, "CREATE TABLE t1 (a int) TABLESPACE fast; "
	              "SELECT pg_tablespace_location(oid) FROM pg_tablespace WHERE spcname = 'fast'");
	assert_int_equal(PQresultStatus(r), PGRES_TUPLES_OK);
	char loc[200];
	snprintf(loc, sizeof(loc), "%s/benchgrid-ts-fast", t->other);
	assert_string_equal(PQgetvalue(r, 0, 0), loc);
	PQclear(r);
	r = PQexec(c, "SELECT pg_relation_filepath('t1')");
	char rel[PATH_MAX + 300];
	snprintf(rel, sizeof(rel), "%s/pgdata/%s", t->data, PQgetvalue(r, 0, 0));
	PQclear(r);
	PQfinish(c);
	char real[PATH_MAX];
	assert_non_null(realpath(rel, real));
	assert_int_equal(strncmp(real, loc, strlen(loc)), 0);

	/* moving the WAL is a new cluster */
	snprintf(y, sizeof(y),
	         "postgres:\n  tablespaces: {fast: other}\n  settings: {shared_buffers: 16MB}\n");
	assert_int_equal(prepare(t, 0, y), 0);
	assert_string_equal(info(t, "pg.reuse"), "initdb");
	assert_string_equal(info(t, "pg.initdb_because"), "wal_dir changed");
	snprintf(seg, sizeof(seg), "%s/benchgrid-pg_wal", w);
	assert_int_not_equal(access(seg, F_OK), 0); /* the old WAL dir is gone */

	fx_pg_stop(t->pg[0]);
	t->pg[0] = NULL;
	assert_int_not_equal(access(loc, F_OK), 0);
	assert_int_equal(procs_under(t->dir), 0);

	/* an unknown target name */
	reset(t);
	const struct node *s = section(t, "postgres:\n  wal_dir: nowhere\n");
	assert_int_equal(fx_pg_prepare(&t->pg[0], s, t->data, t->cell, resolve, t, &t->r, &t->d), -EINVAL);
	assert_int_equal(t->d.v[0].pos.line, 2);
	assert_null(t->pg[0]);
}

/* wal_dir and tablespace directories are benchgrid's own: a symbolic link
 * planted where they go is refused (never chowned or chmodded through), and
 * so is a directory that is not a leftover of benchgrid (issue #12). */
static void test_wal_dir_symlink(void **state)
{
	struct t *t = *state;
	char w[200], victim[200], link[300], y[512];
	snprintf(w, sizeof(w), "%s/w", t->dir);
	snprintf(victim, sizeof(victim), "%s/victim", t->dir);
	mkdir(w, 0755);
	mkdir(victim, 0755);
	struct stat before, after;
	assert_int_equal(stat(victim, &before), 0);

	snprintf(link, sizeof(link), "%s/benchgrid-pg_wal", w);
	assert_int_equal(symlink(victim, link), 0);
	snprintf(y, sizeof(y), "postgres:\n  wal_dir: %s\n  settings: {shared_buffers: 16MB}\n", w);
	assert_int_equal(prepare(t, 0, y), -ELOOP);
	assert_null(t->pg[0]);
	assert_int_equal(t->d.v[0].pos.line, 2);
	assert_non_null(strstr(t->d.v[0].msg, "is a symbolic link"));
	assert_non_null(strstr(t->d.v[0].msg, victim));
	assert_int_equal(stat(victim, &after), 0);
	assert_int_equal(after.st_uid, before.st_uid);
	assert_int_equal(after.st_gid, before.st_gid);
	assert_int_equal(after.st_mode, before.st_mode);
	assert_int_equal(lstat(link, &after), 0);
	assert_true(S_ISLNK(after.st_mode)); /* left as it was */
	assert_int_equal(procs_under(t->dir), 0);
	unlink(link);

	snprintf(link, sizeof(link), "%s/benchgrid-ts-fast", t->other);
	assert_int_equal(symlink(victim, link), 0);
	assert_int_equal(prepare(t, 0, "postgres:\n  tablespaces: {fast: other}\n"), -ELOOP);
	assert_null(t->pg[0]);
	assert_int_equal(t->d.v[0].pos.line, 2);
	assert_non_null(strstr(t->d.v[0].msg, "is a symbolic link"));
	assert_int_equal(stat(victim, &after), 0);
	assert_int_equal(after.st_uid, before.st_uid);
	assert_int_equal(after.st_mode, before.st_mode);
	unlink(link);
}

/* A directory already at wal_dir's place: refused unless it is a leftover of
 * a killed run (owned by the server user). Needs root and a postgres user. */
static void test_wal_dir_leftover(void **state)
{
	struct t *t = *state;
	char w[200], link[300], y[512];
	struct stat after;
	struct passwd *pw = getpwnam("postgres");
	if (geteuid() != 0 || !pw) {
		skip();
		return;
	}
	snprintf(w, sizeof(w), "%s/w", t->dir);
	mkdir(w, 0755);
	snprintf(y, sizeof(y), "postgres:\n  wal_dir: %s\n  settings: {shared_buffers: 16MB}\n", w);
	/* a directory someone else made there: refused, its files stay */
	snprintf(link, sizeof(link), "%s/benchgrid-pg_wal", w);
	mkdir(link, 0755);
	char file[400];
	snprintf(file, sizeof(file), "%s/keep", link);
	FILE *f = fopen(file, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(prepare(t, 0, y), -EEXIST);
	assert_non_null(strstr(t->d.v[0].msg, "is not a leftover of benchgrid"));
	assert_int_equal(access(file, F_OK), 0);
	assert_int_equal(stat(link, &after), 0);
	assert_int_equal(after.st_uid, 0);
	/* a leftover of a killed run (the server user's) is cleared and used */
	assert_int_equal(chown(link, pw->pw_uid, pw->pw_gid), 0);
	assert_int_equal(prepare(t, 0, y), 0);
	assert_int_not_equal(access(file, F_OK), 0);
	assert_int_equal(stat(link, &after), 0);
	assert_int_equal(after.st_uid, pw->pw_uid);
	assert_int_equal(after.st_mode & 07777, 0700);
}

static void test_bad_settings(void **state)
{
	struct t *t = *state;
	/* the first start fails: the log tail names the setting, nothing is left */
	assert_int_equal(prepare(t, 0, "postgres:\n  settings:\n    fsync: off\n    shared_buffers: 100TB\n"),
	                 -EIO);
	assert_null(t->pg[0]);
	assert_int_equal(t->d.v[0].pos.line, 4); /* blamed on the setting */
	const char *m = t->d.v[0].msg;
	assert_non_null(strstr(m, "did not start"));
	assert_non_null(strstr(m, "invalid value for parameter \"shared_buffers\"")); /* from the log */
	assert_non_null(strstr(m, "postgres.log"));
	assert_true(t->r.failed);
	assert_int_equal(procs_under(t->dir), 0);
	char p[200];
	snprintf(p, sizeof(p), "%s/pgdata", t->data);
	assert_int_not_equal(access(p, F_OK), 0);

	/* an unknown setting on a running server: refused before reloading */
	assert_int_equal(prepare(t, 0, "postgres:\n  settings: {shared_buffers: 16MB}\n"), 0);
	long pid = postmaster_pid(t);
	assert_int_equal(
	    prepare(t, 0, "postgres:\n  settings:\n    shared_buffers: 16MB\n    no_such_setting: 1\n"),
	    -EINVAL);
	assert_int_equal(t->d.v[0].pos.line, 4);
	assert_non_null(strstr(t->d.v[0].msg, "unrecognized configuration parameter"));
	assert_true(fx_pg_alive(t->pg[0]));
	assert_int_equal(postmaster_pid(t), pid);

	/* a restart into a bad postmaster value: server down, reported, and the
	 * next good cell brings it back */
	assert_int_equal(
	    prepare(t, 0, "postgres:\n  settings: {shared_buffers: 16MB, max_connections: -5}\n"), -EIO);
	assert_non_null(
	    strstr(t->d.v[0].msg, "-5 is outside the valid range for parameter \"max_connections\""));
	assert_int_equal(t->d.v[0].pos.line, 2);
	assert_int_equal(t->d.v[0].pos.col, 53);
	assert_false(fx_pg_alive(t->pg[0]));
	assert_int_equal(procs_under(t->dir), 0);
	assert_int_equal(prepare(t, 0, "postgres:\n  settings: {shared_buffers: 16MB}\n"), 0);
	assert_string_equal(info(t, "pg.reuse"), "restart");
	assert_true(fx_pg_alive(t->pg[0]));

	/* more shared memory than the machine has (where the kernel refuses it) */
	if (memory_refuses(100)) {
		assert_int_equal(prepare(t, 0, "postgres:\n  settings: {shared_buffers: 100GB}\n"), -EIO);
		assert_non_null(strstr(t->d.v[0].msg, "could not map anonymous shared memory"));
		assert_int_equal(t->d.v[0].pos.line, 2);
		assert_int_equal(procs_under(t->dir), 0);
		assert_int_equal(prepare(t, 0, "postgres:\n  settings: {shared_buffers: 16MB}\n"), 0);
	}
	fx_pg_stop(t->pg[0]);
	t->pg[0] = NULL;

	/* a data directory the server user cannot reach: said so */
	if (geteuid() == 0) {
		chmod(t->dir, 0700);
		assert_int_equal(prepare(t, 0, "postgres:\n"), -EACCES);
		chmod(t->dir, 0755);
		assert_non_null(strstr(t->d.v[0].msg, "cannot enter"));
		assert_non_null(strstr(t->d.v[0].msg, t->dir));
		assert_null(t->pg[0]);
	}
}

static void test_killed_postmaster(void **state)
{
	struct t *t = *state;
	char journal[128];
	snprintf(journal, sizeof(journal), "%s/journal", t->dir);
	const char *y = "postgres:\n  settings: {shared_buffers: 16MB}\n";

	/* benchgrid killed: `cleanup` stops the server from the journal */
	assert_int_equal(state_open(journal), 0);
	assert_int_equal(prepare(t, 0, y), 0);
	long pid = postmaster_pid(t);
	state_close();
	reset(t);
	assert_true(state_cleanup(journal, &t->d) >= 1);
	/* pg_ctl returns once the pid file is gone, a moment before the exit */
	for (int i = 0; i < 200 && fx_pg_alive(t->pg[0]); i++)
		usleep(10000);
	assert_false(fx_pg_alive(t->pg[0]));
	assert_int_equal(kill((pid_t)pid, 0), -1);
	assert_int_equal(procs_under(t->dir), 0);
	state_open(NULL);
	/* the data directory is still there: the next cell just starts it */
	assert_int_equal(prepare(t, 0, y), 0);
	assert_string_equal(info(t, "pg.reuse"), "restart");

	/* postmaster killed with a session open: detected, restarted */
	PGconn *c = PQconnectdb(fx_pg_conninfo(t->pg[0]));
	assert_int_equal(PQstatus(c), CONNECTION_OK);
	assert_int_equal(kill((pid_t)postmaster_pid(t), SIGKILL), 0);
	for (int i = 0; i < 200 && fx_pg_alive(t->pg[0]); i++)
		usleep(10000);
	assert_false(fx_pg_alive(t->pg[0]));
	PQfinish(c);
	assert_int_equal(prepare(t, 0, y), 0);
	assert_string_equal(info(t, "pg.reuse"), "restart");
	assert_true(fx_pg_alive(t->pg[0]));

	/* killed again, then stopped: no orphaned backend is left behind */
	c = PQconnectdb(fx_pg_conninfo(t->pg[0]));
	assert_int_equal(PQstatus(c), CONNECTION_OK);
	/* An idle backend notices the postmaster's death and exits at once; a
	 * busy one (a long count, which never checks) outlives it. */
	assert_int_equal(PQsendQuery(c, "SELECT count(*) FROM generate_series(1, 2000000000)"), 1);
	usleep(200000);
	kill((pid_t)postmaster_pid(t), SIGKILL);
	for (int i = 0; i < 200 && fx_pg_alive(t->pg[0]); i++)
		usleep(10000);
	assert_false(fx_pg_alive(t->pg[0]));
	assert_true(procs_under(t->dir) > 0); /* the backends outlive the postmaster */
	fx_pg_stop(t->pg[0]);
	t->pg[0] = NULL;
	PQfinish(c);
	assert_int_equal(procs_under(t->dir), 0);
}

/* External server: pg[0] is a managed one with shared_buffers 16MB, work_mem 2MB. */
static void check_external(struct t *t)
{
	char y[600];
	snprintf(y, sizeof(y),
	         "postgres:\n  external: \"%s\"\n  settings: {shared_buffers: 16384kB, work_mem: '2048', "
	         "fsync: on, enable_seqscan: true}\n",
	         fx_pg_conninfo(t->pg[0]));
	reset(t);
	const struct node *s = section(t, y);
	assert_int_equal(fx_pg_prepare(&t->pg[1], s, NULL, NULL, resolve, t, &t->r, &t->d), 0);
	assert_string_equal(info(t, "pg.reuse"), "external");
	assert_string_equal(info(t, "pg.setting.shared_buffers"), "16MB");
	assert_null(fx_pg_logfile(t->pg[1]));
	assert_true(fx_pg_alive(t->pg[1]));
	/* a mismatch is an error naming the setting; the server is not changed */
	snprintf(y, sizeof(y), "postgres:\n  external: \"%s\"\n  settings:\n    shared_buffers: 32MB\n",
	         fx_pg_conninfo(t->pg[0]));
	reset(t);
	s = section(t, y);
	assert_int_equal(fx_pg_prepare(&t->pg[1], s, NULL, NULL, resolve, t, &t->r, &t->d), -EINVAL);
	assert_int_equal(t->d.v[0].pos.line, 4);
	assert_non_null(strstr(t->d.v[0].msg, "16MB"));
	char *sb = sql1(t, 0, "SHOW shared_buffers");
	assert_string_equal(sb, "16MB");
	free(sb);
	/* stopping an external fixture leaves the server running */
	fx_pg_stop(t->pg[1]);
	t->pg[1] = NULL;
	assert_true(fx_pg_alive(t->pg[0]));
}

static void test_init_data(void **state)
{
	struct t *t = *state;
	const char *y = "postgres:\n  settings: {shared_buffers: 16MB}\n  init: {scale: 1, fillfactor: 90, "
	                "tablespace: pg_default}\n";
	assert_int_equal(prepare(t, 0, y), 0);
	assert_string_equal(info(t, "pg.data"), "loaded");
	assert_non_null(result_get(&t->r, "init_s"));
	char *n = sql1(t, 0, "SELECT count(*) FROM pgbench_accounts");
	assert_string_equal(n, "100000");
	free(n);
	/* nothing written: the next cell reuses the data (default when-written) */
	n = sql1(t, 0, "SELECT count(*) FROM pgbench_accounts WHERE aid < 10");
	free(n);
	assert_int_equal(prepare(t, 0,
	                         "postgres:\n  settings: {shared_buffers: 16MB, work_mem: 2MB}\n"
	                         "  init: {scale: 1, fillfactor: 90, tablespace: pg_default}\n"),
	                 0);
	assert_string_equal(info(t, "pg.data"), "reused");
	assert_string_equal(info(t, "pg.reinit"), "when-written");
	assert_string_equal(info(t, "pg.data_reused_after_write"), "false");
	PGconn *c = PQconnectdb(fx_pg_conninfo(t->pg[0]));
	PQclear(PQexec(c, "INSERT INTO pgbench_history VALUES (1, 1, 1, 1, now(), NULL)"));
	PQfinish(c);
	/* written, reinit: never: the data stays, and the cell says so */
	assert_int_equal(
	    prepare(t, 0,
	            "postgres:\n  settings: {shared_buffers: 16MB, work_mem: 2MB}\n"
	            "  init: {scale: 1, fillfactor: 90, tablespace: pg_default}\n  reinit: never\n"),
	    0);
	assert_string_equal(info(t, "pg.data"), "reused");
	assert_string_equal(info(t, "pg.data_reused_after_write"), "true");
	/* and again: the data of every earlier cell stays, still written */
	assert_int_equal(
	    prepare(t, 0,
	            "postgres:\n  settings: {shared_buffers: 16MB, work_mem: 3MB}\n"
	            "  init: {scale: 1, fillfactor: 90, tablespace: pg_default}\n  reinit: never\n"),
	    0);
	assert_string_equal(info(t, "pg.data"), "reused");
	assert_string_equal(info(t, "pg.data_reused_after_write"), "true");
	n = sql1(t, 0, "SELECT count(*) FROM pgbench_history");
	assert_string_equal(n, "1");
	free(n);
	/* the default (when-written): reloaded, since an earlier cell wrote */
	assert_int_equal(prepare(t, 0,
	                         "postgres:\n  settings: {shared_buffers: 16MB, work_mem: 3MB}\n"
	                         "  init: {scale: 1, fillfactor: 90, tablespace: pg_default}\n"),
	                 0);
	assert_string_equal(info(t, "pg.data"), "loaded");
	assert_non_null(strstr(info(t, "pg.data_load_because"), "written"));
	assert_string_equal(info(t, "pg.data_reused_after_write"), "false");
	n = sql1(t, 0, "SELECT count(*) FROM pgbench_history");
	assert_string_equal(n, "0");
	free(n);
	/* an update through another connection counts too; per-cell reloads anyway */
	c = PQconnectdb(fx_pg_conninfo(t->pg[0]));
	PQclear(PQexec(c, "UPDATE pgbench_branches SET bbalance = 1"));
	PQfinish(c);
	assert_int_equal(
	    prepare(t, 0,
	            "postgres:\n  settings: {shared_buffers: 16MB, work_mem: 3MB}\n"
	            "  init: {scale: 1, fillfactor: 90, tablespace: pg_default}\n  reinit: per-cell\n"),
	    0);
	assert_string_equal(info(t, "pg.data"), "loaded");
	assert_string_equal(info(t, "pg.data_load_because"), "reinit: per-cell");
	n = sql1(t, 0, "SELECT sum(bbalance) FROM pgbench_branches");
	assert_string_equal(n, "0");
	free(n);
	/* fresh: reloaded */
	assert_int_equal(
	    prepare(t, 0,
	            "postgres:\n  settings: {shared_buffers: 16MB, work_mem: 2MB}\n"
	            "  init: {scale: 1, fillfactor: 90, tablespace: pg_default}\n  fresh: true\n"),
	    0);
	assert_string_equal(info(t, "pg.data"), "loaded");
	n = sql1(t, 0, "SELECT count(*) FROM pgbench_history");
	assert_string_equal(n, "0");
	free(n);
	/* another scale: reloaded */
	assert_int_equal(prepare(t, 0,
	                         "postgres:\n  settings: {shared_buffers: 16MB, work_mem: 2MB}\n"
	                         "  init: {scale: 2, fillfactor: 90}\n"),
	                 0);
	assert_string_equal(info(t, "pg.data"), "loaded");
	n = sql1(t, 0, "SELECT count(*) FROM pgbench_branches");
	assert_string_equal(n, "2");
	free(n);
	check_external(t);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_check, setup, teardown),
	    cmocka_unit_test(test_setting_matches),
	    cmocka_unit_test_setup_teardown(test_start_show_reuse, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_wal_dir_tablespace, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_wal_dir_symlink, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_wal_dir_leftover, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_bad_settings, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_killed_postmaster, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_init_data, setup, teardown),
	};
	return bg_run_cases("test_fx_pg", tests, sizeof(tests) / sizeof(tests[0]), NULL, NULL, argc, argv);
}

/* store_db: SQLite and PostgreSQL behind one statement call. */
#include "store_db.h"

#include <errno.h>
#include <libpq-fe.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Another writer holds the lock this long at most before we give up: a
 * run stores in well under a second. */
#define SDB_BUSY_MS 60000

/* Copy msg into s->err as one line (libpq's messages end in newlines and
 * may span several). */
static void set_err(struct store *s, const char *what, const char *msg)
{
	snprintf(s->err, sizeof(s->err), "%s%s%s", what, *what ? ": " : "", msg ? msg : "unknown error");
	size_t n = strlen(s->err);
	while (n && (s->err[n - 1] == '\n' || s->err[n - 1] == ' '))
		s->err[--n] = 0;
	for (char *p = s->err; *p; p++)
		if (*p == '\n' || *p == '\t')
			*p = ' ';
}

/* SQLite's message for a failed call on db, or the way out when a reader
 * met a hot journal: a read-only connection cannot roll it back. */
static void set_err_lite(struct store *s, const char *what, sqlite3 *db)
{
	if (sqlite3_extended_errcode(db) == SQLITE_READONLY_ROLLBACK)
		set_err(
		    s, what,
		    "the store was left mid-write by a killed writer; run any writing command (store/run) to "
		    "recover");
	else
		set_err(s, what, sqlite3_errmsg(db));
}

int sdb_open_sqlite(struct store *s, const char *path, bool readonly)
{
	sqlite3 *db = NULL;
	int flags = readonly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
	/* NOFOLLOW refuses a link in any component: store.c gives a path with
	 * its folders resolved, so it guards the file itself. */
	int rc = sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_NOFOLLOW, NULL);
	if (rc != SQLITE_OK) {
		set_err(s, path, db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
		sqlite3_close(db);
		return rc == SQLITE_CANTOPEN ? -ENOENT : -EIO;
	}
	s->kind = STORE_SQLITE;
	s->lite = db;
	s->readonly = readonly;
	sqlite3_busy_timeout(db, SDB_BUSY_MS);
	/* The rollback journal, not WAL: a read-only open (history, plan)
	 * then creates no file at all (in WAL mode even a reader makes the
	 * -wal and -shm files), yet takes the shared lock like any reader:
	 * it waits for a writer (busy timeout) and never reads half a write.
	 * Writers queue on the lock too. */
	if (!readonly) {
		if (sdb_exec(s, "PRAGMA foreign_keys=ON", 0, NULL, NULL, NULL) < 0) {
			char why[sizeof(s->err)];
			snprintf(why, sizeof(why), "%s", s->err);
			set_err(s, path, why);
			sdb_close(s);
			return -EIO;
		}
	}
	return 0;
}

int sdb_open_pg(struct store *s, const char *url, bool readonly)
{
	/* connect_timeout first: the URL's own setting, if any, wins. */
	const char *keys[] = {"connect_timeout", "application_name", "dbname", NULL};
	const char *vals[] = {"10", "benchgrid", url, NULL};
	PGconn *c = PQconnectdbParams(keys, vals, 1);
	if (!c) {
		set_err(s, "", "out of memory");
		return -ENOMEM;
	}
	if (PQstatus(c) != CONNECTION_OK) {
		set_err(s, "PostgreSQL", PQerrorMessage(c));
		PQfinish(c);
		return -ECONNREFUSED;
	}
	s->kind = STORE_PG;
	s->pg = c;
	s->readonly = readonly;
	/* Quiet the NOTICEs of CREATE ... IF NOT EXISTS. */
	if (sdb_exec(s, "SET client_min_messages = warning", 0, NULL, NULL, NULL) < 0 ||
	    (readonly &&
	     sdb_exec(s, "SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY", 0, NULL, NULL, NULL) < 0)) {
		sdb_close(s);
		return -EIO;
	}
	return 0;
}

void sdb_close(struct store *s)
{
	if (s->lite)
		sqlite3_close(s->lite);
	if (s->pg)
		PQfinish(s->pg);
	s->lite = s->pg = NULL;
}

static long exec_sqlite(struct store *s, const char *sql, int np, const char *const *params, sdb_row_fn fn,
                        void *arg)
{
	sqlite3 *db = s->lite;
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		set_err_lite(s, "SQLite", db);
		return -1;
	}
	for (int i = 0; i < np; i++) {
		char name[16];
		snprintf(name, sizeof(name), "$%d", i + 1);
		int at = sqlite3_bind_parameter_index(st, name);
		if (at > 0 && (params[i] ? sqlite3_bind_text(st, at, params[i], -1, SQLITE_STATIC)
		                         : sqlite3_bind_null(st, at)) != SQLITE_OK) {
			set_err_lite(s, "SQLite", db);
			sqlite3_finalize(st);
			return -1;
		}
	}
	int rc, ncol = sqlite3_column_count(st);
	const char *vals[64];
	if (ncol > 64)
		ncol = 64;
	bool stop = false;
	while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (int i = 0; i < ncol; i++)
			vals[i] = (const char *)sqlite3_column_text(st, i);
		if (fn)
			stop = fn(arg, ncol, vals) != 0;
	}
	if (!stop && rc != SQLITE_DONE) {
		set_err_lite(s, "SQLite", db);
		sqlite3_finalize(st);
		return -1;
	}
	sqlite3_finalize(st);
	return sqlite3_changes(db);
}

static long exec_pg(struct store *s, const char *sql, int np, const char *const *params, sdb_row_fn fn,
                    void *arg)
{
	PGresult *res = PQexecParams(s->pg, sql, np, NULL, params, NULL, NULL, 0);
	ExecStatusType st = PQresultStatus(res);
	if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
		set_err(s, "PostgreSQL", PQresultErrorMessage(res));
		PQclear(res);
		return -1;
	}
	int ncol = PQnfields(res), nrow = PQntuples(res);
	const char *vals[64];
	if (ncol > 64)
		ncol = 64;
	for (int r = 0; fn && r < nrow; r++) {
		for (int i = 0; i < ncol; i++)
			vals[i] = PQgetisnull(res, r, i) ? NULL : PQgetvalue(res, r, i);
		if (fn(arg, ncol, vals))
			break;
	}
	long changed = atol(PQcmdTuples(res));
	PQclear(res);
	return st == PGRES_TUPLES_OK ? 0 : changed;
}

long sdb_exec(struct store *s, const char *sql, int nparams, const char *const *params, sdb_row_fn fn,
              void *arg)
{
	return s->kind == STORE_SQLITE ? exec_sqlite(s, sql, nparams, params, fn, arg)
	                               : exec_pg(s, sql, nparams, params, fn, arg);
}

int sdb_begin(struct store *s)
{
	return sdb_exec(s, s->kind == STORE_SQLITE ? "BEGIN IMMEDIATE" : "BEGIN", 0, NULL, NULL, NULL) < 0
	           ? -1
	           : 0;
}

int sdb_commit(struct store *s)
{
	return sdb_exec(s, "COMMIT", 0, NULL, NULL, NULL) < 0 ? -1 : 0;
}

void sdb_rollback(struct store *s)
{
	char keep[sizeof(s->err)];
	memcpy(keep, s->err, sizeof(keep));
	sdb_exec(s, "ROLLBACK", 0, NULL, NULL, NULL);
	memcpy(s->err, keep, sizeof(keep));
}

static int count_row(void *arg, int ncol, const char *const *vals)
{
	*(long *)arg = ncol > 0 && vals[0] ? atol(vals[0]) : 0;
	return 1;
}

int sdb_has_table(struct store *s, const char *name)
{
	const char *sql = s->kind == STORE_SQLITE
	                      ? "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = $1"
	                      : "SELECT count(*) FROM information_schema.tables WHERE table_name = $1 "
	                        "AND table_schema = current_schema()";
	long n = 0;
	const char *p[] = {name};
	if (sdb_exec(s, sql, 1, p, count_row, &n) < 0)
		return -1;
	return n > 0;
}

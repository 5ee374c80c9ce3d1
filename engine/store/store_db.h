/* store_db: one SQL interface over the two backends of the store, SQLite
 * (libsqlite3) and PostgreSQL (libpq).
 *
 * Statements are written once with PostgreSQL's $1, $2 ... placeholders,
 * which SQLite accepts as named parameters; every parameter is passed as
 * text (NULL for SQL NULL) and the column's type converts it, so the same
 * statement runs on both. Types are the ones both know: TEXT, BIGINT,
 * DOUBLE PRECISION. */
#ifndef BENCHGRID_STORE_DB_H
#define BENCHGRID_STORE_DB_H

#include <stdbool.h>
#include <stddef.h>

enum store_kind { STORE_SQLITE, STORE_PG };

struct store {
	enum store_kind kind;
	void *lite; /* sqlite3 * */
	void *pg;   /* PGconn * */
	bool readonly;
	char err[512]; /* the last error, one line */
};

/* One result row: ncol values as text, NULL for SQL NULL. Return non-zero
 * to stop reading. */
typedef int (*sdb_row_fn)(void *arg, int ncol, const char *const *vals);

/* Open a SQLite file (readonly: never creates it) or connect to a
 * PostgreSQL URL. 0 or a negative errno, why in s->err. */
int sdb_open_sqlite(struct store *s, const char *path, bool readonly);
int sdb_open_pg(struct store *s, const char *url, bool readonly);
void sdb_close(struct store *s);

/* Run one statement with nparams text parameters; rows go to fn (may be
 * NULL). Returns the rows changed (or 0 for a query), -1 on error with
 * why in s->err. */
long sdb_exec(struct store *s, const char *sql, int nparams, const char *const *params, sdb_row_fn fn,
              void *arg);
/* A write transaction: SQLite takes the write lock at once (BEGIN
 * IMMEDIATE, waiting up to the busy timeout for another writer). */
int sdb_begin(struct store *s);
int sdb_commit(struct store *s);
void sdb_rollback(struct store *s);
/* Whether a table exists. -1 on error. */
int sdb_has_table(struct store *s, const char *name);

#endif

/* store_schema: the store's tables and their migrations.
 *
 * migrations[] (store_schema.c) lists, for each schema version, the
 * statements that bring the version before it there; version 1 creates
 * every table. store_schema_migrate() applies, in one transaction under a
 * lock that other benchgrid processes wait for, each version above the one
 * the schema_version table records, and records it. A store newer than
 * this benchgrid is refused rather than written. docs/results.md lists the
 * tables. */
#ifndef BENCHGRID_STORE_SCHEMA_H
#define BENCHGRID_STORE_SCHEMA_H

#include "store_db.h"

/* The version this benchgrid writes. */
int store_schema_latest(void);
/* The version recorded in the store (0: none, -1: error). */
int store_schema_version(struct store *s);
/* Bring the store to version `target` (<= store_schema_latest()). Returns
 * 0, or -1 with why in s->err. */
int store_schema_migrate(struct store *s, int target);

/* The list of migrations: entry i (a NULL-terminated list of statements)
 * brings version i to i + 1. */
typedef const char *const *store_migration;
const store_migration *store_schema_migrations(size_t *n);
/* store_schema_migrate over another list (tests: a version 2 to come). */
int store_schema_migrate_list(struct store *s, const store_migration *list, size_t n, int target);

#endif

/* tpcc_schema: the DDL of TPC-C's nine tables (clause 1.3's columns,
 * PostgreSQL types), their primary keys and the two secondary indexes
 * tpcc-like's transactions need, and which tables each of tpcc_init.c's
 * four loading tasks owns. Data only. */
#ifndef BENCHGRID_TPCC_SCHEMA_H
#define BENCHGRID_TPCC_SCHEMA_H

#include <stddef.h>

#define TPCC_NTABLES 9
#define TPCC_NKEYS   10
#define TPCC_NTASK   4

/* Table names, for drop. */
extern const char *const tpcc_tables[TPCC_NTABLES];
/* "name (columns)", for create table. */
extern const char *const tpcc_ddl[TPCC_NTABLES];
/* "table|definition": a primary key, or an index when it starts with '('. */
extern const char *const tpcc_keys[TPCC_NKEYS];
/* Each task's tables in load order, NULL-ended. */
extern const char *const tpcc_task_tables[TPCC_NTASK][6];

#endif

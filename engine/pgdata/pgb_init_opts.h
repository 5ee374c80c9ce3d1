/* pgb_init_opts: the options of pgbench's data load (pgbench -i), read from
 * a YAML map. The one parser for both places that take them: the pgbench
 * step's `init:` and the managed server's `postgres.init:`.
 *
 * The limits are pgbench 15's own (checked against `pgbench -i`): scale
 * 1..2147483647 (-s), fillfactor 10..100 (-F), partitions 0..2147483647
 * (--partitions), partition_method range|hash only with partitions > 0
 * (--partition-method). */
#ifndef BENCHGRID_PGB_INIT_OPTS_H
#define BENCHGRID_PGB_INIT_OPTS_H

#include <stdbool.h>
#include "diag.h"
#include "node.h"

struct pgb_init_opts {
	int scale;                     /* >= 1 */
	int fillfactor;                /* 10..100; 0 means pgbench's default 100 */
	bool unlogged;                 /* create unlogged tables */
	const char *tablespace;        /* tables and indexes go there; NULL = default */
	int partitions;                /* > 0: pgbench_accounts partitioned in that many parts */
	bool server_side;              /* generate rows in the server (generate_series) */
	bool foreign_keys;             /* add pgbench's foreign keys after the primary keys */
	bool partition_hash;           /* partitions by hash instead of range (pgbench --partition-method) */
	bool tpcc;                     /* kind: tpcc: TPC-C's tables (tpcc_init.h) instead of pgbench's */
	int warehouses;                /* kind: tpcc: >= 1 */
	struct src_pos tablespace_pos; /* where tablespace was given, for later checks */
	/* kind: ycsb loads YCSB's usertable instead (ycsb_init.h) */
	bool ycsb;
	int records;      /* usertable rows, default 1000 */
	int fields;       /* field0..fieldN-1, default 10 */
	int field_length; /* bytes per field, default 100 */
};

/* Fill o from map (keys scale, fillfactor, unlogged, tablespace, partitions,
 * partition_method, server_side, foreign_keys; kind: tpcc with warehouses,
 * fillfactor, unlogged, tablespace; kind: ycsb with records, fields,
 * field_length); NULL or a null node gives the defaults (scale 1, the rest
 * off; kind: tpcc, 1 warehouse; kind: ycsb, 1000 records). Errors name `what`.key
 * ("pgbench.init.scale") at the value's position. o->tablespace points into
 * the node. 0 or -EINVAL. */
int pgb_init_opts_parse(const struct node *map, const char *what, struct pgb_init_opts *o, struct diag *d);

#endif

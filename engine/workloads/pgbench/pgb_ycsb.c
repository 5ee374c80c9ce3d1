/* pgb_ycsb: the builtin ycsb-like's scripts (see pgb_ycsb.h). */
#include "pgb_ycsb.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pgb_ycsb_rand.h"
#include "pgb_ycsb_opts_table.h"

int pgb_ycsb_parse(const struct node *map, struct pgb_ycsb_opts *o, struct diag *d)
{
	const struct node *x;
	int e, rc = 0;

	*o = (struct pgb_ycsb_opts){'a', 0, 1000, 10, 100, 100};
	if (!map || map->kind == NODE_NULL)
		return 0;
	if (opt_check_keys(map, "pgbench.ycsb", &pgb_ycsb_table, d))
		return -EINVAL;
	if ((x = node_get(map, "workload"))) {
		if (node_as_enum(x, "pgbench.ycsb.workload", pgb_ycsb_workload_values, &e, d))
			rc = -EINVAL;
		else
			o->workload = (char)('a' + e);
	}
	if ((x = node_get(map, "distribution"))) {
		if (node_as_enum(x, "pgbench.ycsb.distribution", pgb_ycsb_dist_values, &e, d))
			rc = -EINVAL;
		else
			o->distribution = e + 1;
	}
	if ((x = node_get(map, "records")) &&
	    node_as_int(x, "pgbench.ycsb.records", 1, INT32_MAX, &o->records, d))
		rc = -EINVAL;
	if ((x = node_get(map, "fields")) && node_as_int(x, "pgbench.ycsb.fields", 1, 100, &o->fields, d))
		rc = -EINVAL;
	if ((x = node_get(map, "field_length")) &&
	    node_as_int(x, "pgbench.ycsb.field_length", 1, 65536, &o->field_length, d))
		rc = -EINVAL;
	if ((x = node_get(map, "scan_length")) &&
	    node_as_int(x, "pgbench.ycsb.scan_length", 1, 1000000, &o->scan_length, d))
		rc = -EINVAL;
	return rc;
}

enum { OP_READ, OP_UPDATE, OP_INSERT, OP_SCAN, OP_RMW };
static const char *const op_names[] = {"read", "update", "insert", "scan", "read_modify_write"};

/* YCSB's workloads a..f: weights of read, update, insert, scan, rmw */
static const int mixes[6][5] = {
    {50, 50, 0, 0, 0}, {95, 5, 0, 0, 0}, {100, 0, 0, 0, 0},
    {95, 0, 5, 0, 0},  {0, 0, 5, 95, 0}, {50, 0, 0, 0, 50},
};

/* A field's value: field_length characters the server makes from :v */
static int pgb_ycsb_value(char *b, size_t len, const struct pgb_ycsb_opts *o, int f)
{
	return snprintf(b, len, "substr(repeat(md5((:v + %d)::text), %" PRId64 "), 1, %" PRId64 ")", f,
	                (o->field_length + 31) / 32, o->field_length);
}

/* \set k: the key number, by the distribution; inserts widen the range to
 * the last inserted key (YCSB draws below its insert sequence's last). */
static int pgb_ycsb_key(char *b, size_t len, const struct pgb_ycsb_opts *o, bool inserts)
{
	int dist = o->distribution ? o->distribution : o->workload == 'd' ? 3 : 1;
	char ub[96];
	if (inserts)
		snprintf(ub, sizeof(ub), "ycsb_insert_last(%" PRId64 ")", o->records);
	else
		snprintf(ub, sizeof(ub), "%" PRId64, o->records - 1);
	switch (dist) {
	case 2: /* uniform: YCSB's stays over the loaded records */
		return snprintf(b, len, "\\set k random(0, %" PRId64 ")\n", o->records - 1);
	case 3: return snprintf(b, len, "\\set k random_ycsb_latest(0, %s)\n", ub);
	default: return snprintf(b, len, "\\set k random_ycsb_zipfian(0, %s)\n", ub);
	}
}

/* The update of one field (\if over the field number: SQL cannot take a
 * column name as a parameter). */
static size_t pgb_ycsb_update(char *b, size_t len, const struct pgb_ycsb_opts *o)
{
	size_t n = (size_t)snprintf(b, len, "\\set f random(0, %" PRId64 ")\n\\set v random(0, 1000000000)\n",
	                            o->fields - 1);
	for (int f = 0; f < o->fields && n < len; f++) {
		char val[128];
		pgb_ycsb_value(val, sizeof(val), o, 0);
		n += (size_t)snprintf(
		    b + n, len - n,
		    "%s :f = %d\nUPDATE usertable SET field%d = %s WHERE ycsb_key = 'user' || :h;\n",
		    f ? "\\elif" : "\\if", f, f, val);
	}
	if (n < len)
		n += (size_t)snprintf(b + n, len - n, "\\endif\n");
	return n;
}

static int pgb_ycsb_script(char *b, size_t len, int op, const struct pgb_ycsb_opts *o, bool inserts)
{
	size_t n = 0;
	if (op == OP_INSERT) {
		n += (size_t)snprintf(
		    b, len,
		    "\\set k ycsb_insert_next(%" PRId64 ")\n\\set h ycsb_hash(:k)\n"
		    "\\set v random(0, 1000000000)\nINSERT INTO usertable VALUES ('user' || :h",
		    o->records);
		for (int f = 0; f < o->fields && n < len; f++) {
			n += (size_t)snprintf(b + n, len - n, ", ");
			if (n < len)
				n += (size_t)pgb_ycsb_value(b + n, len - n, o, f);
		}
		if (n < len)
			n += (size_t)snprintf(b + n, len - n, ");\n");
		return n < len ? 0 : -ENOSPC;
	}
	n += (size_t)pgb_ycsb_key(b, len, o, inserts);
	n += (size_t)snprintf(b + n, len - n, "\\set h ycsb_hash(:k)\n");
	if (op == OP_READ || op == OP_RMW)
		n += (size_t)snprintf(b + n, len - n,
		                      "SELECT * FROM usertable WHERE ycsb_key = 'user' || :h;\n");
	if (op == OP_UPDATE || op == OP_RMW)
		n += pgb_ycsb_update(b + n, len - n, o);
	if (op == OP_SCAN)
		n += (size_t)snprintf(
		    b + n, len - n,
		    "\\set n random(1, %" PRId64 ")\n"
		    "SELECT * FROM usertable WHERE ycsb_key >= 'user' || :h ORDER BY ycsb_key "
		    "LIMIT :n;\n",
		    o->scan_length);
	return n < len ? 0 : -ENOSPC;
}

int pgb_ycsb_add(struct pgb_prog *p, const struct pgb_ycsb_opts *o, const struct src_pos *pos, struct diag *d)
{
	char text[64 * 1024];
	const int *mix = mixes[o->workload - 'a'];
	bool inserts = mix[OP_INSERT] > 0;
	for (int op = 0; op < 5; op++) {
		if (!mix[op])
			continue;
		if (pgb_ycsb_script(text, sizeof(text), op, o, inserts)) {
			diag_error(d, pos, "pgbench: ycsb-like: the %s script is too long", op_names[op]);
			return -EINVAL;
		}
		if (pgb_prog_add(p, op_names[op], text, mix[op], pos, false, d))
			return -EINVAL;
	}
	return 0;
}

void pgb_ycsb_seq_start(PGconn *mon, int64_t records)
{
	PGresult *r = PQexec(mon, "select count(*) from usertable");
	int64_t rows = PQresultStatus(r) == PGRES_TUPLES_OK ? atoll(PQgetvalue(r, 0, 0)) : 0;

	PQclear(r);
	pgb_ycsb_seq_reset(rows - records);
}

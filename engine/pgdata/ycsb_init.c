/* ycsb_init: YCSB's usertable (see ycsb_init.h). */
#include "ycsb_init.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "clock.h"
#include "ycsb_key.h"

#define YCSB_COPY_BUF (1 << 20)

static int ycsbi_exec(PGconn *c, const char *sql, struct step_result *res)
{
	PGresult *r = PQexec(c, sql);
	ExecStatusType st = PQresultStatus(r);

	if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
		result_fail(res, "ycsb init: %s: %s", sql, PQerrorMessage(c));
		PQclear(r);
		return -EIO;
	}
	PQclear(r);
	return 0;
}

/* splitmix64: the field bytes need speed, not a particular sequence */
static inline uint64_t ycsbi_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

static int ycsbi_copy(PGconn *c, const struct pgb_init_opts *o, struct step_result *res)
{
	static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	size_t row_max = 32 + (size_t)o->fields * ((size_t)o->field_length + 1);
	size_t cap = row_max > YCSB_COPY_BUF / 2 ? 2 * row_max : YCSB_COPY_BUF;
	char *buf = malloc(cap);
	uint64_t seed = 0x5943534221ULL;
	size_t n = 0;
	int rc = 0;

	if (!buf) {
		result_fail(res, "ycsb init: out of memory");
		return -ENOMEM;
	}
	PGresult *r = PQexec(c, "copy usertable from stdin with (freeze on)");
	if (PQresultStatus(r) != PGRES_COPY_IN) {
		result_fail(res, "ycsb init: copy usertable: %s", PQerrorMessage(c));
		PQclear(r);
		free(buf);
		return -EIO;
	}
	PQclear(r);
	for (int64_t k = 0; k < o->records && !rc; k++) {
		n += (size_t)snprintf(buf + n, cap - n, "user%lld", (long long)ycsb_fnv64(k));
		for (int f = 0; f < o->fields; f++) {
			buf[n++] = '\t';
			for (int i = 0; i < o->field_length; i += 8) {
				uint64_t x = ycsbi_next(&seed);
				for (int j = 0; j < 8 && i + j < o->field_length; j++, x >>= 8)
					buf[n++] = abc[(x & 0xff) % 62];
			}
		}
		buf[n++] = '\n';
		if (cap - n < row_max || k == o->records - 1) {
			if (PQputCopyData(c, buf, (int)n) != 1)
				rc = -EIO;
			n = 0;
		}
	}
	free(buf);
	if (PQputCopyEnd(c, rc ? "load failed" : NULL) != 1)
		rc = -EIO;
	while ((r = PQgetResult(c))) {
		if (PQresultStatus(r) != PGRES_COMMAND_OK && !rc) {
			result_fail(res, "ycsb init: copy usertable: %s", PQerrorMessage(c));
			rc = -EIO;
		}
		PQclear(r);
	}
	if (rc && !res->failed)
		result_fail(res, "ycsb init: copy usertable: %s", PQerrorMessage(c));
	return rc;
}

int ycsb_init_load(PGconn *c, const struct pgb_init_opts *o, const char *tsq, struct step_result *res)
{
	char sql[8192];
	size_t n;
	double t = clock_mono();

	if (ycsbi_exec(c, "drop table if exists usertable", res))
		return -EIO;
	result_metric(res, "init_drop_s", clock_mono() - t, "s");
	t = clock_mono();
	n = (size_t)snprintf(sql, sizeof(sql), "create%s table usertable (ycsb_key varchar(255) not null",
	                     o->unlogged ? " unlogged" : "");
	for (int f = 0; f < o->fields; f++)
		n += (size_t)snprintf(sql + n, sizeof(sql) - n, ", field%d text", f);
	n += (size_t)snprintf(sql + n, sizeof(sql) - n, ")");
	if (o->fillfactor)
		n += (size_t)snprintf(sql + n, sizeof(sql) - n, " with (fillfactor=%d)", o->fillfactor);
	if (tsq)
		snprintf(sql + n, sizeof(sql) - n, " tablespace %s", tsq);
	if (ycsbi_exec(c, sql, res))
		return -EIO;
	result_metric(res, "init_create_s", clock_mono() - t, "s");
	t = clock_mono();
	/* FREEZE needs the table created or truncated in this transaction */
	if (ycsbi_exec(c, "begin", res) || ycsbi_exec(c, "truncate usertable", res) ||
	    ycsbi_copy(c, o, res) || ycsbi_exec(c, "commit", res))
		return -EIO;
	result_metric(res, "init_load_s", clock_mono() - t, "s");
	t = clock_mono();
	if (ycsbi_exec(c, "vacuum analyze usertable", res))
		return -EIO;
	result_metric(res, "init_vacuum_s", clock_mono() - t, "s");
	t = clock_mono();
	snprintf(sql, sizeof(sql), "alter table usertable add primary key (ycsb_key)%s%s",
	         tsq ? " using index tablespace " : "", tsq ? tsq : "");
	if (ycsbi_exec(c, sql, res))
		return -EIO;
	result_metric(res, "init_pkeys_s", clock_mono() - t, "s");
	result_info(res, "ycsb.records", "%d", o->records);
	result_info(res, "ycsb.fields", "%d", o->fields);
	result_info(res, "ycsb.field_length", "%d", o->field_length);
	return 0;
}

/* pgb_init_opts: pgbench -i's options from YAML (see pgb_init_opts.h). */
#include "pgb_init_opts.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pgb_init_opts_table.h"

/* One integer option: what.key within [min, max]. */
static int pgbio_int(const struct node *map, const char *what, const char *key, int64_t min, int64_t max,
                     int *out, struct diag *d)
{
	const struct node *x = node_get(map, key);
	char name[96];
	int64_t v;

	if (!x)
		return 0;
	snprintf(name, sizeof(name), "%s.%s", what, key);
	if (node_as_int(x, name, min, max, &v, d))
		return -EINVAL;
	*out = (int)v;
	return 0;
}

static int pgbio_bool(const struct node *map, const char *what, const char *key, bool *out, struct diag *d)
{
	const struct node *x = node_get(map, key);
	char name[96];

	if (!x)
		return 0;
	snprintf(name, sizeof(name), "%s.%s", what, key);
	return node_as_bool(x, name, out, d) ? -EINVAL : 0;
}

/* partition_method, which pgbench takes only with partitions > 0 (checked
 * when partitions itself parsed: parts_ok) */
static int pgbio_method(const struct node *map, const char *what, struct pgb_init_opts *o, bool parts_ok,
                        struct diag *d)
{
	const struct node *x = node_get(map, "partition_method");
	char name[96];
	int e;

	if (!x)
		return 0;
	snprintf(name, sizeof(name), "%s.partition_method", what);
	if (node_as_enum(x, name, pgb_init_method_values, &e, d))
		return -EINVAL;
	o->partition_hash = e == 1;
	if (o->partitions > 0 || !parts_ok)
		return 0;
	diag_error(d, &x->pos, "%s: needs partitions greater than 0 (as pgbench's --partition-method)", name);
	return -EINVAL;
}

static int pgbio_tablespace(const struct node *map, const char *what, struct pgb_init_opts *o, struct diag *d)
{
	const struct node *x = node_get(map, "tablespace");
	char name[96];

	if (!x)
		return 0;
	snprintf(name, sizeof(name), "%s.tablespace", what);
	o->tablespace_pos = x->pos;
	if (node_as_string(x, name, &o->tablespace, d))
		return -EINVAL;
	if (*o->tablespace)
		return 0;
	diag_error(d, &x->pos, "%s: the name is empty", name);
	return -EINVAL;
}

/* kind: pgbench (the default), tpcc or ycsb: each takes its own options
 * below (all take fillfactor, unlogged and tablespace); another kind's
 * option is an error at its line. Kinds are compared by name. */
static int pgbio_kind(const struct node *map, const char *what, struct pgb_init_opts *o, struct diag *d)
{
	static const char *const pgbench_own[] = {"scale",       "partitions",   "partition_method",
	                                          "server_side", "foreign_keys", NULL};
	static const char *const tpcc_own[] = {"warehouses", NULL};
	static const char *const ycsb_own[] = {"records", "fields", "field_length", NULL};
	static const struct {
		const char *kind;
		const char *const *keys;
	} own[] = {{"pgbench", pgbench_own}, {"tpcc", tpcc_own}, {"ycsb", ycsb_own}};
	const struct node *x = node_get(map, "kind");
	char name[96];
	int e = 0, rc = 0;

	snprintf(name, sizeof(name), "%s.kind", what);
	if (x && node_as_enum(x, name, pgb_init_kind_values, &e, d))
		return -EINVAL;
	const char *kind = pgb_init_kind_values[e];
	o->tpcc = !strcmp(kind, "tpcc");
	o->ycsb = !strcmp(kind, "ycsb");
	for (size_t k = 0; k < sizeof(own) / sizeof(own[0]); k++) {
		if (!strcmp(own[k].kind, kind))
			continue;
		for (size_t i = 0; own[k].keys[i]; i++)
			if ((x = node_get(map, own[k].keys[i]))) {
				diag_error(d, &x->pos, "%s.%s: not with kind: %s (it needs kind: %s)", what,
				           own[k].keys[i], kind, own[k].kind);
				rc = -EINVAL;
			}
	}
	o->warehouses = 1;
	rc |= pgbio_int(map, what, "warehouses", 1, 100000, &o->warehouses, d);
	rc |= pgbio_int(map, what, "records", 1, INT32_MAX, &o->records, d);
	rc |= pgbio_int(map, what, "fields", 1, 100, &o->fields, d);
	rc |= pgbio_int(map, what, "field_length", 1, 65536, &o->field_length, d);
	return rc;
}

int pgb_init_opts_parse(const struct node *map, const char *what, struct pgb_init_opts *o, struct diag *d)
{
	int rc = 0;

	memset(o, 0, sizeof(*o));
	o->scale = 1;
	o->records = 1000;
	o->fields = 10;
	o->field_length = 100;
	if (!map || map->kind == NODE_NULL)
		return 0;
	/* An unknown key is one error among the others, not the only one. */
	rc = opt_check_keys(map, what, &pgb_init_opt_table, d) < 0 ? -EINVAL : 0;
	if (rc && map->kind != NODE_MAP)
		return -EINVAL;
	rc |= pgbio_int(map, what, "scale", 1, INT32_MAX, &o->scale, d);
	rc |= pgbio_int(map, what, "fillfactor", 10, 100, &o->fillfactor, d);
	int parts = pgbio_int(map, what, "partitions", 0, INT32_MAX, &o->partitions, d);
	rc |= parts;
	rc |= pgbio_method(map, what, o, parts == 0, d);
	rc |= pgbio_bool(map, what, "unlogged", &o->unlogged, d);
	rc |= pgbio_bool(map, what, "server_side", &o->server_side, d);
	rc |= pgbio_bool(map, what, "foreign_keys", &o->foreign_keys, d);
	rc |= pgbio_tablespace(map, what, o, d);
	rc |= pgbio_kind(map, what, o, d);
	rc |= opt_check_values(map, what, &pgb_init_opt_table, d);
	return rc ? -EINVAL : 0;
}

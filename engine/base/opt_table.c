/* opt_table: the generic checks of a section's option table (see opt_table.h). */
#include "opt_table.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct opt_desc *opt_find(const struct opt_table *t, const char *key)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->rows[i].name, key))
			return &t->rows[i];
	return NULL;
}

bool opt_known(const struct opt_table *t, const char *key)
{
	const struct opt_desc *o = opt_find(t, key);
	return o && !(o->flags & OPT_PENDING);
}

size_t opt_key_names(const struct opt_table *t, const char **names, size_t cap)
{
	size_t k = 0;
	for (size_t i = 0; i < t->n && k + 1 < cap; i++)
		if (!(t->rows[i].flags & OPT_PENDING))
			names[k++] = t->rows[i].name;
	if (cap)
		names[k] = NULL;
	return k;
}

int opt_check_keys(const struct node *map, const char *section, const struct opt_table *t, struct diag *d)
{
	const char **names = calloc(t->n + 1, sizeof(*names));
	if (!names) {
		diag_error(d, map ? &map->pos : NULL, "%s: out of memory", section);
		return -ENOMEM;
	}
	opt_key_names(t, names, t->n + 1);
	int rc = node_check_keys(map, section, names, d);
	free(names);
	return rc;
}

/* Not known before run time or plan time: a reference or a Lua value. */
static bool not_yet_known(const struct node *v)
{
	return (v->tag && !strcmp(v->tag, "!lua")) ||
	       (v->kind == NODE_SCALAR && strstr(v->text, "${") != NULL);
}

/* Did the section's parser already report a problem with this value? */
static bool reported_at(const struct diag *d, const struct src_pos *p)
{
	return diag_error_at(d, p);
}

static int check_scalar(const struct opt_desc *o, const struct node *v, const char *what, struct diag *d)
{
	const char *s;
	bool b;
	int64_t i;
	double x;
	uint64_t u;
	int e;
	switch (o->type) {
	case OPT_STRING: return node_as_string(v, what, &s, d);
	case OPT_BOOL: return node_as_bool(v, what, &b, d);
	case OPT_INT: return node_as_int(v, what, INT64_MIN, INT64_MAX, &i, d);
	case OPT_NUMBER: return node_as_double(v, what, &x, d);
	case OPT_SIZE: return node_as_size(v, what, true, &u, d);
	case OPT_DURATION: return node_as_duration(v, what, true, &x, d);
	case OPT_ENUM: return o->values ? node_as_enum(v, what, o->values, &e, d) : 0;
	default: return 0;
	}
}

static int check_one(const struct opt_desc *o, const struct node *v, const char *section, struct diag *d)
{
	if (o->type >= OPT_MAP || o->schema || (o->flags & OPT_ELSEWHERE) || not_yet_known(v) ||
	    reported_at(d, &v->pos))
		return 0;
	char what[160];
	snprintf(what, sizeof(what), "%s%s%s", section, *section ? "." : "", o->name);
	if (v->kind != NODE_SEQ || !(o->flags & OPT_OR_LIST))
		return check_scalar(o, v, what, d);
	int bad = 0;
	for (size_t i = 0; i < v->n; i++)
		if (!not_yet_known(v->items[i]) && !reported_at(d, &v->items[i]->pos) &&
		    check_scalar(o, v->items[i], what, d) < 0)
			bad = -EINVAL;
	return bad;
}

int opt_check_values(const struct node *map, const char *section, const struct opt_table *t, struct diag *d)
{
	if (!map || map->kind != NODE_MAP)
		return 0;
	int bad = 0;
	for (size_t i = 0; i < map->n; i++) {
		const struct opt_desc *o = opt_find(t, map->keys[i]);
		if (o && !(o->flags & OPT_PENDING) && check_one(o, map->items[i], section, d) < 0)
			bad = -EINVAL;
	}
	return bad;
}

int opt_check_value(const struct node *map, const char *key, const char *section, const struct opt_table *t,
                    struct diag *d)
{
	const struct node *v = node_get(map, key);
	const struct opt_desc *o = opt_find(t, key);
	if (!v || !o || (o->flags & OPT_PENDING))
		return 0;
	return check_one(o, v, section, d);
}

const char *opt_type_name(enum opt_type type)
{
	static const char *const names[] = {"string",   "boolean", "integer", "number", "size",
	                                    "duration", "enum",    "map",     "list",   "any"};
	return type <= OPT_ANY ? names[type] : "?";
}

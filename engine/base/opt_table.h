/* opt_table: a section's options as one typed table.
 *
 * Each section (the top level, a step kind, a target, postgres:, model:,
 * report:, expect:) describes its keys once, in a table next to its parser:
 * name, type, unit, default, allowed values and a one-line doc. The loader
 * checks keys and value types with the table (opt_check_keys,
 * opt_check_values); `benchgrid schema` turns the tables into the JSON
 * Schema and `benchgrid schema --markdown` into docs/options.md, so the
 * three cannot drift apart. A parser that does more with a value (ranges,
 * `every N`, cross-option rules) keeps doing it after the table's check. */
#ifndef BENCHGRID_OPT_TABLE_H
#define BENCHGRID_OPT_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "node.h"

enum opt_type {
	OPT_STRING,   /* any scalar, read as text */
	OPT_BOOL,     /* true/false (yes/no, on/off, 1/0) */
	OPT_INT,      /* an integer */
	OPT_NUMBER,   /* a real number */
	OPT_SIZE,     /* bytes: 4096, 4k, 1GiB */
	OPT_DURATION, /* seconds: 30, 500ms, 2min */
	OPT_ENUM,     /* one of `values` */
	OPT_MAP,      /* a map: of the keys of table `ref`, or of any names */
	OPT_LIST,     /* a list: of maps of table `ref`, or of strings */
	OPT_ANY,      /* several forms, checked by the section's parser; `schema` says which */
};

enum {
	OPT_REQUIRED = 1u << 0,  /* must be given */
	OPT_PENDING = 1u << 1,   /* in the schema and docs, not yet read by the loader */
	OPT_OR_LIST = 1u << 2,   /* one value or a list of them */
	OPT_MAP_OF = 1u << 3,    /* OPT_MAP: a map of NAME: (a map of table `ref`) */
	OPT_OR_STRING = 1u << 4, /* OPT_MAP: or a string, short for the map's main key */
	OPT_ELSEWHERE = 1u << 5, /* a key of this map whose value another layer's parser checks */
};

struct opt_desc {
	const char *name;
	enum opt_type type;
	const char *unit;          /* "bytes", "s", "IOPS", ...; NULL when none */
	const char *def;           /* the default as written in a scenario; NULL: none */
	const char *const *values; /* OPT_ENUM: NULL-terminated names */
	const char *doc;           /* one line */
	unsigned flags;
	const char *ref;    /* OPT_MAP / OPT_LIST: the table (by name) of the items' keys */
	const char *schema; /* JSON Schema text replacing the one derived from type */
	const char *range;  /* OPT_INT, OPT_NUMBER: "MIN..MAX", "MIN.." or NULL (the parser checks it) */
};

struct opt_table {
	const char *name;  /* "io", "target", "scenario": a reference for `ref` */
	const char *title; /* heading in docs/options.md */
	const char *doc;   /* a sentence or two under the heading */
	const struct opt_desc *rows;
	size_t n;
	bool open; /* keys other than the rows are allowed (names of parameters, settings) */
};

/* The row of `key`, or NULL (pending rows too). */
const struct opt_desc *opt_find(const struct opt_table *t, const char *key);

/* The names of the rows the loader reads (not OPT_PENDING), NULL-terminated,
 * into names[cap]; returns how many. */
size_t opt_key_names(const struct opt_table *t, const char **names, size_t cap);

/* Is `key` one the loader reads? */
bool opt_known(const struct opt_table *t, const char *key);

/* Every key of map not in the table, with a "did you mean" suggestion;
 * the same messages as node_check_keys(). 0 or -EINVAL. */
int opt_check_keys(const struct node *map, const char *section, const struct opt_table *t, struct diag *d);

/* The type (and enum) of each scalar-typed value in map, as the row says,
 * for values the section's parser did not already report (no error at the
 * value's position yet): call it after the parser. Values that are still
 * `${...}` or `!lua` are left alone. `section.key` (or `key` when section
 * is "") names them in messages.
 * 0 or -EINVAL. */
int opt_check_values(const struct node *map, const char *section, const struct opt_table *t, struct diag *d);

/* opt_check_values for the one key `key` of map, when present. A rule
 * that `key` does not apply here calls it first and keeps quiet when it
 * fails: a value of the wrong type gets that one error, not two. */
int opt_check_value(const struct node *map, const char *key, const char *section, const struct opt_table *t,
                    struct diag *d);

/* The name of a type in docs ("size", "duration", ...). */
const char *opt_type_name(enum opt_type type);

#endif

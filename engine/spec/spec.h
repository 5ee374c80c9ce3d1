/* spec: load a scenario file into a node tree and validate its shape.
 *
 * spec_load_* parse YAML (libyaml) into nodes with positions and report
 * every syntax problem (tabs, duplicate keys, non-UTF-8, empty or missing
 * files) into the diag list. spec_open() also merges `vars:` with -D
 * overrides and validates the top-level sections; spec_cell_tree() gives the
 * scenario as one cell sees it: `${...}` interpolated with the cell's
 * parameters and variables. */
#ifndef BENCHGRID_SPEC_H
#define BENCHGRID_SPEC_H

#include "cell.h"
#include "diag.h"
#include "node.h"

struct node *spec_load_file(const char *path, struct diag *d);
struct node *spec_load_string(const char *name, const char *yaml, struct diag *d);

/* -D name=value overrides from the command line. */
struct defines {
	char **names;
	char **values;
	size_t n;
};
int defines_add(struct defines *D, const char *arg); /* "name=value"; -EINVAL if malformed */
void defines_free(struct defines *D);

struct lb;

struct spec {
	char *file;        /* as given */
	char *dir;         /* folder of the scenario file */
	struct node *root; /* the whole file */
	struct node *vars; /* NODE_MAP: vars merged with -D overrides */
	const char *name;  /* `name:` or the file's base name */
	const char *description;
	struct lb *lua; /* the Lua state for hooks, !lua and filter, or NULL */
};

/* Load and validate. Returns NULL with errors in d when the file cannot be
 * loaded; otherwise a spec (d may still hold errors from validation: check
 * d->nerrors). */
struct spec *spec_open(const char *path, const struct defines *D, struct diag *d);
void spec_free(struct spec *s);

/* The sections a cell runs with, interpolated for that cell: a new NODE_MAP
 * with keys target, targets, postgres, sysctl, queue, steps (those present).
 * `runtime` names that are only known when the cell runs (target.path, ...)
 * are left as written when `defer_runtime` is true. */
struct node *spec_cell_tree(const struct spec *s, const struct cell *c, bool defer_runtime, struct diag *d);

/* Validate one cell's interpolated tree: every section and step. */
int spec_check_cell(const struct spec *s, const struct node *tree, struct diag *d);

#endif

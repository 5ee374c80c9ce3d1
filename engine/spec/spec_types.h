/* spec_types: struct spec, a loaded scenario.
 *
 * Apart from spec.h so that the modules spec.c uses (the Lua hooks, the
 * cell checks) can read a scenario without including spec.h back. */
#ifndef BENCHGRID_SPEC_TYPES_H
#define BENCHGRID_SPEC_TYPES_H

struct lb;
struct node;

struct spec {
	char *file;        /* as given */
	char *dir;         /* folder of the scenario file */
	struct node *root; /* the whole file */
	struct node *vars; /* NODE_MAP: vars merged with -D overrides */
	const char *name;  /* `name:` or the file's base name */
	const char *description;
	struct lb *lua; /* the Lua state for hooks, !lua and filter, or NULL */
};

#endif

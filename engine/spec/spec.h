/* spec: open a scenario file and validate its shape.
 *
 * spec_open() loads the YAML (spec_load.h), merges `vars:` with -D
 * overrides and validates the top-level sections; spec_cell_tree() gives the
 * scenario as one cell sees it: `${...}` interpolated with the cell's
 * parameters and variables; spec_check_cell() (spec_check.h) validates it. */
#ifndef BENCHGRID_SPEC_H
#define BENCHGRID_SPEC_H

#include "cell.h"
#include "diag.h"
#include "node.h"
#include "spec_check.h"
#include "spec_load.h"
#include "spec_types.h"

/* -D name=value overrides from the command line. */
struct defines {
	char **names;
	char **values;
	size_t n;
};
int defines_add(struct defines *D, const char *arg); /* "name=value"; -EINVAL if malformed */
void defines_free(struct defines *D);

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
/* The same, with the run-time names known so far in `runtime` (a map:
 * target.path, cell.id, ...; may be NULL). */
struct node *spec_cell_tree_rt(const struct spec *s, const struct cell *c, const struct node *runtime,
                               bool defer_runtime, struct diag *d);

/* `when:` of step i of a cell's tree (spec_cell_tree: ${...} and !lua
 * already evaluated): true when the step is skipped, with why in `why`:
 * "when: " and the predicate as the scenario writes it. A value that is not
 * a boolean counts as true (spec_check_cell reports it). */
bool spec_step_skipped(const struct spec *s, const struct node *tree, size_t i, char *why, size_t len);
/* Does any step have a `when:`? */
bool spec_has_when(const struct spec *s);
/* The name of step i as plan and the runner give it ("stepN" without one). */
void spec_step_name(const struct node *step, size_t i, char *buf, size_t len);

/* The names that `${...}` refers to in the per-cell sections, once each,
 * without those of params (a map, may be NULL); the caller frees them. */
void spec_cell_refs(const struct spec *s, const struct node *params, char ***names, size_t *nn);

#endif

/* matrix: expand `matrix:` into cells.
 *
 * Axes are the matrix keys in the order written (the first is the outermost
 * loop); `zip:` makes lists of equal length one axis whose values vary
 * together. `exclude:` removes every combination an entry matches (a partial
 * match is enough); then `include:` follows GitHub Actions' rules: an entry's
 * pairs are added to every original combination where none of them
 * overwrites an original matrix value (values added by earlier includes may
 * be overwritten); an entry that fits no original combination becomes a new
 * combination. Finally `filter:` (a Lua predicate) drops cells, and the
 * remaining cells are numbered. Each cell's id is a hash of its parameters
 * alone, so it survives unrelated edits of the matrix. */
#ifndef BENCHGRID_MATRIX_H
#define BENCHGRID_MATRIX_H

#include <stdbool.h>
#include <stddef.h>
#include "cell.h"
#include "diag.h"
#include "interp.h"
#include "node.h"

/* A matrix may make at most this many combinations of its axes (counted
 * before exclude, include and filter, from the axes' lengths, so a huge one
 * is refused before any cell is made). */
#define MATRIX_MAX_CELLS 100000

/* Evaluate a filter expression for one cell's params; set *keep. */
typedef int (*matrix_filter_fn)(void *ud, const struct node *expr, const struct node *params, bool *keep,
                                struct diag *d);

struct matrix_opts {
	interp_lookup_fn lookup; /* for ${var} inside matrix values; may be NULL */
	void *lookup_ud;
	matrix_filter_fn filter; /* NULL: a `filter:` is an error */
	void *filter_ud;
	struct spec_budget *budget; /* what ${var} in values may copy; NULL: SPEC_ALIAS_MIN */
};

/* Expand; on success *cells is an array of *ncells cells (free with
 * matrix_free). A NULL or empty matrix gives one cell without parameters. */
int matrix_expand(const struct node *matrix, const struct matrix_opts *o, struct cell **cells, size_t *ncells,
                  struct diag *d);
void matrix_free(struct cell *cells, size_t n);

/* The canonical JSON text of a parameter value, as `plan --format json`
 * prints it: sizes in bytes, durations in seconds, numbers and booleans as
 * such, other text as a JSON string. */
void param_json(const struct node *v, char *buf, size_t len);

/* Do two parameter values mean the same (4k == 4KiB)? */
bool param_equal(const struct node *a, const struct node *b);

/* The cell id: 12 hex chars of a 64-bit FNV-1a hash over sorted key=value. */
void matrix_cell_id(const struct node *params, char out[13]);

#endif

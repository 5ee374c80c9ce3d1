/* rep_group: which cells a pivot, chart or expectation is about: parameter
 * values compared as values, `where:` matching, ordered sets of names and
 * values, cells grouped by the parameters that vary among them. */
#ifndef BENCHGRID_REP_GROUP_H
#define BENCHGRID_REP_GROUP_H

#include <stdbool.h>
#include <stddef.h>

#include "node.h"
#include "results.h"

/* Two parameter values are equal: same text, or same number, size or
 * duration ("4k" = "4096" = "4KiB", "1s" = "1000ms"). */
bool rep_value_equal(const char *a, const char *b);
/* A parameter value as a number: a plain number, a size (bytes) or a
 * duration (seconds), as engine/base/units.h reads them; false if none. */
bool rep_value_number(const char *s, double *out);
/* Cell matches `where` (a map param -> value or list of values); NULL
 * matches every cell. */
bool rep_cell_matches(const struct run_cell *c, const struct node *where);

/* Ordered unique strings. */
struct rep_strs {
	char **v;
	size_t n, cap;
};
void rep_strs_add(struct rep_strs *s, const char *x); /* no-op if present */
long rep_strs_find(const struct rep_strs *s, const char *x);
void rep_strs_free(struct rep_strs *s);
/* Sort by number, size or duration when every entry has one, else keep
 * first-seen order. */
void rep_strs_sort_values(struct rep_strs *s);

/* The parameters whose value is not the same in every cell of r (all of
 * them when none differs): what tells cells apart where the constant ones
 * (profile=small) are only noise. */
void rep_varying_params(const struct run *r, struct rep_strs *out);
/* "wal=separate, fs=ext4": c's values of `names` (from rep_varying_params). */
void rep_cell_label_of(const struct run_cell *c, const struct rep_strs *names, char *buf, size_t len);

/* Parameter names of all cells in first-seen order. */
void rep_param_names(const struct run *r, struct rep_strs *out);

/* Cells matching `where`, split into groups by the values of the parameters
 * that vary among them and are not in `used` (so a pivot or chart is drawn
 * once per combination of the other parameters). */
struct rep_group {
	char *label;   /* "clients=10, sb=2MB", "" when nothing else varies */
	size_t *cells; /* indices into run->cells */
	size_t n;
};
int rep_group_cells(const struct run *r, const struct node *where, const char *const *used, size_t nused,
                    struct rep_group **out, size_t *nout);
void rep_groups_free(struct rep_group *g, size_t n);

/* Statistic of a metric summary by name: mean (default), median, min, max,
 * stddev, cv, n. */
double rep_stat(const struct metric_summary *m, const char *stat);

#endif

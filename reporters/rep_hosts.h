/* rep_hosts: on which hosts cells ran (their fact `host`), so that a pivot
 * table, chart or comparison whose cells ran on different machines says so.
 * Cells without the fact (results of older versions) count as unknown and
 * never make a warning by themselves. */
#ifndef BENCHGRID_REP_HOSTS_H
#define BENCHGRID_REP_HOSTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "rep_group.h"
#include "results.h"

/* The host a cell ran on, NULL when it recorded none. */
const char *rep_cell_host(const struct run_cell *c);

/* The hosts of a set of cells, in first-seen order, with their counts. */
struct rep_hosts {
	struct rep_strs names;
	size_t *count;  /* cells per entry of names */
	size_t unknown; /* cells without a host fact */
};
/* Count the hosts of r's cells `cells` (indices, n of them), or of every
 * cell when cells is NULL. */
int rep_hosts_count(const struct run *r, const size_t *cells, size_t n, struct rep_hosts *out);
void rep_hosts_free(struct rep_hosts *h);
/* "a (4 cells), b (2 cells)", and ", 1 cell without a host fact" when some
 * have none; Markdown-escaped. */
void rep_hosts_list(FILE *f, const struct rep_hosts *h);

/* Is the host an axis of these cells: a parameter that varies among them
 * is named host, hostname or node, or its values are the names of the
 * cells' hosts (`machine: [n1, n2]` on hosts n1 and n2.cluster; cells
 * without a host left out)? A parameter whose values merely correspond one
 * to one with the hosts is not enough: shares keep the cells of one file
 * system together, so `fs` often does, and that is the confounded case. */
bool rep_hosts_is_axis(const struct run *r, const size_t *cells, size_t n);

/* Above a pivot table or chart (`what`: "table", "chart"): when its cells
 * ran on more than one known host and the host is not one of its axes,
 * "**Warning:** cells of this table ran on 2 hosts: a (4 cells), b (2
 * cells); differences between them may be the hardware's." and a blank
 * line. Writes nothing otherwise. */
void rep_hosts_warn(FILE *f, const struct run *r, const size_t *cells, size_t n, const char *what);

#endif

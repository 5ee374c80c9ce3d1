/* store_query: reading the results history back (read-only opens only:
 * nothing here creates a file or writes a row). */
#ifndef BENCHGRID_STORE_QUERY_H
#define BENCHGRID_STORE_QUERY_H

/* Seconds one setup took (fs: mkfs and mount, pg: a cluster's initdb and
 * start, data: a data load) for `plan`'s estimate: per component, the mean
 * of the cells' "setup_seconds" above 0 (a cell that reused a fixture
 * records 0) in the latest stored run of the scenario that recorded any.
 * Opens the store read-only: no file is created and nothing is written.
 * 0 when found, -ENOENT when the store or such a run does not exist,
 * another negative errno on error. A component never recorded is NaN.
 * store_spec: a file path, a postgresql:// URL, or NULL/"" for
 * $BENCHGRID_STORE or the default file (store.h's store_resolve). */
int store_last_setup_seconds(const char *store_spec, const char *scenario_name, double *fs_s, double *pg_s,
                             double *data_s);

#endif

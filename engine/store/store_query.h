/* store_query: reading the results history back. Everything here works on
 * a store opened read-only too (and store_last_setup_seconds opens its own
 * read-only): nothing creates a file or writes a row. */
#ifndef BENCHGRID_STORE_QUERY_H
#define BENCHGRID_STORE_QUERY_H

#include <stddef.h>

#include "store.h"

/* Seconds one setup took (fs: mkfs and mount, pg: a cluster's initdb and
 * start, data: a data load) for `plan`'s estimate: per component, the mean
 * of the cells' "setup_seconds" (a cell that reused a fixture records no
 * value for it, NULL in the store) in the latest stored run of the
 * scenario that recorded any.
 * Opens the store read-only: no file is created and nothing is written.
 * 0 when found, -ENOENT when the store or such a run does not exist,
 * another negative errno on error. A component never recorded is NaN.
 * store_spec: a file path, a postgresql:// URL, or NULL/"" for
 * $BENCHGRID_STORE or the default file (store.h's store_resolve). */
int store_last_setup_seconds(const char *store_spec, const char *scenario_name, double *fs_s, double *pg_s,
                             double *data_s);

/* One value of the history: a metric of one cell in one run. */
struct store_point {
	char run_id[17];
	double started; /* the run's start, unix seconds */
	char *host, *cell_id, *label, *unit, *tool_version;
	double value; /* the mean over the repetitions */
	long n;       /* repetitions */
};

/* A parameter filter: the cell's parameter `name` has the text `value`. */
struct store_where {
	const char *name, *value;
};

/* The metric step.metric of every cell of every stored run of scenario
 * (matching every filter), oldest run first, then by cell. 0 (possibly
 * no point), or -1 with why in err. */
int store_history(struct store *s, const char *scenario, const char *step, const char *metric,
                  const struct store_where *w, size_t nw, struct store_point **out, size_t *n, char *err,
                  size_t errlen);
void store_points_free(struct store_point *p, size_t n);

/* One cell's earlier runs, for compare's spread between runs: per stored
 * run of scenario whose cell cell_id ran on host, finished ok and has the
 * fact fingerprint (the same configuration; NULL or "": any), started
 * before `before` (unix seconds) and is none of skip[0..nskip), the median
 * over the repetitions of step.metric (the metrics row's median, else its
 * value) as the point's value; the latest `max` such runs, newest first;
 * runs without a finite value are left out. 0 (possibly no point), or -1
 * with why in err. */
int store_cell_runs(struct store *s, const char *scenario, const char *cell_id, const char *host,
                    const char *fingerprint, const char *step, const char *metric, double before,
                    const char *const *skip, size_t nskip, size_t max, struct store_point **out, size_t *n,
                    char *err, size_t errlen);

/* The metric to show when none is named: the first step's tps, iops or
 * mb_s (in that order of preference), else its first metric. 0, -ENOENT
 * when the scenario has no stored run, -1 on error (why in err). */
int store_default_metric(struct store *s, const char *scenario, char *step, size_t steplen, char *metric,
                         size_t metriclen, char *err, size_t errlen);

/* For `history --list`: the stored scenarios, each "NAME\tRUNS\tLAST"
 * (its number of runs, the start of the latest in unix seconds), by name;
 * or the step.metric names (each "STEP.METRIC\tUNIT") stored for one
 * scenario, by name. 0, or -1 with why in err. */
int store_list_scenarios(struct store *s, char ***out, size_t *n, char *err, size_t errlen);
int store_list_metrics(struct store *s, const char *scenario, char ***out, size_t *n, char *err,
                       size_t errlen);
void store_names_free(char **v, size_t n);

/* The facts of a run as seen by one of its cells: the environment rows
 * (machine, kernel, benchgrid version: keys as stored) and the cell's own
 * facts (file system, mount options, PostgreSQL version and settings),
 * sorted by key. */
struct store_fact {
	char *key, *value;
};
int store_facts(struct store *s, const char *run_id, const char *cell_id, struct store_fact **out, size_t *n,
                char *err, size_t errlen);
void store_facts_free(struct store_fact *f, size_t n);

#endif

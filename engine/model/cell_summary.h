/* cell_summary: statistics over the repetitions of a cell.
 *
 * Statistics are derived, never stored as truth: run_cell_summarize() groups
 * the reps by step name and every metric by name into samples, and computes
 * mean, stddev, median, min, max, n, cv, the 95% confidence interval of the
 * mean (n >= 2) and the bootstrap interval of the median (n >= 5, seeded:
 * stats_ci.h). The mean is the metric's value in every report. */
#ifndef BENCHGRID_CELL_SUMMARY_H
#define BENCHGRID_CELL_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>

#include "headline.h"
#include "run_cells.h"
#include "stats.h"
#include "stats_ci.h"

struct metric_summary {
	const char *name, *unit; /* point into the run's step results */
	double *v;               /* one sample per rep (NaN when a rep lacks it) */
	size_t n;
	struct stats st;       /* st.mean is the reported value */
	double ci_half;        /* half-width of the 95% CI of the mean; NaN when n < 2 */
	double med_lo, med_hi; /* 95% bootstrap CI of the median; NaN when n < 5 */
	struct stats_check warn;
	bool warned;
};

struct step_summary {
	const char *step, *workload;
	bool failed;       /* failed in any repetition */
	const char *error; /* first error */
	bool skipped;      /* skipped by its when: (in every repetition) */
	const char *skip_reason;
	double elapsed;                  /* mean wall seconds */
	const struct step_result *first; /* first repetition (series, info) */
	struct metric_summary *m;
	size_t nm;
};

struct cell_summary {
	struct step_summary *steps;
	size_t nsteps;
};

struct cell_summary *run_cell_summarize(const struct run_cell *c);
/* The same; with median_ci false med_lo/med_hi stay NaN: the bootstrap
 * (STATS_BOOT_RESAMPLES resamples per metric) is the costly part, and the
 * runner's warnings and results.json rewrites while a run is going do
 * not need it. */
struct cell_summary *run_cell_summarize_opt(const struct run_cell *c, bool median_ci);
void cell_summary_free(struct cell_summary *s);
const struct step_summary *cell_summary_step(const struct cell_summary *s, const char *step);
const struct metric_summary *cell_summary_metric(const struct cell_summary *s, const char *step,
                                                 const char *metric);
/* A step's headline metrics into out (room for HEADLINE_MAX), by the one
 * rule of headline.h: e.g. iops and lat_p99_us for 4 KiB random reads, mb_s
 * and lat_p99_us for a sequential write, tps and lat_p99_ms for pgbench,
 * elapsed_s for an exec step without a parser, or the step's `headline:`.
 * Returns how many. compare, report.html and rep_md_ci show these. */
size_t step_headlines(const struct step_summary *ss, const struct metric_summary **out);
bool step_is_headline(const struct step_summary *ss, const char *metric);
/* Split "step.metric" at the first dot. Returns false when there is none. */
bool results_split_ref(const char *ref, char *step, size_t steplen, const char **metric);
/* Every warning text (outliers, cold first run; what a step warned of in
 * its first repetition, info "warning") of a cell, one per call of
 * fn; returns how many. */
size_t run_cell_warnings(const struct cell_summary *s, void (*fn)(void *arg, const char *msg), void *arg);

#endif

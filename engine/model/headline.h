/* headline: the one rule that names a step's headline metrics (issue 27).
 *
 * A step's headline is what a person reads first of it: report.html's
 * folded step table, report.md's confidence intervals, compare's default
 * metrics and verdict, history's default metric, the convergence of
 * `repeat: {until}`, the run's live figure and its step lines all use it.
 *
 *   the step's `headline:` (info "headline": names, space-separated)
 *   its workload's rule     what the workload puts first of its result
 *                           (workload_metrics.headline; io: iops or mb_s by
 *                           pattern and block size, pgbench: tps, exec: a
 *                           rate its parser gave), registered at start
 *   a workload with none    the generic rule: the first of tps, mb_s,
 *                           iops, ops_s; a p99 (headline_generic)
 *   nothing from the above  elapsed_s, else seconds
 *
 * The workloads register their rules by name (run/validators.c, as their
 * checks and estimates), since model is below them: the rule reads a
 * result, so results.json written before a rule changed get it too, and
 * this file names no workload. Names the step did not produce are left
 * out. Which names a step's `headline:` may give is `check`'s
 * (run/ref_check.c, from each workload's table of metrics). */
#ifndef BENCHGRID_HEADLINE_H
#define BENCHGRID_HEADLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "result.h"

#define HEADLINE_MAX 8

/* A workload's rule: the names of r it puts first, into out (at most
 * max), appended with headline_add; returns how many (0: elapsed_s or
 * seconds). A rule that cannot tell from r (a result written before the
 * workload recorded what its rule reads) returns headline_generic's. */
typedef size_t (*headline_rule_fn)(const struct step_result *r, const char **out, size_t max);
/* The rule of the results whose workload is `workload` (a static string).
 * Registering a name twice keeps the first; -ENOSPC when the table is
 * full, -EINVAL without a name or rule. */
int headline_add_rule(const char *workload, headline_rule_fn fn);

/* Append name to out[*n] when r has it, it is not there yet and there is
 * room (n < max). For the rules. */
void headline_add(const struct step_result *r, const char *name, const char **out, size_t *n, size_t max);
/* Append the first of names (NULL-terminated) that r has. */
void headline_add_first(const struct step_result *r, const char *const *names, const char **out, size_t *n,
                        size_t max);

/* The generic rule: the first of tps, mb_s, iops, ops_s that r has, then
 * the first of lat_p99_ms, lat_p99_us; returns how many. */
size_t headline_generic(const struct step_result *r, const char **out, size_t max);

/* The headline metric names of r, into out (at most max, <= HEADLINE_MAX),
 * throughput first; each is a metric r has. Returns how many. The names
 * point into r or static strings. */
size_t headline_names(const struct step_result *r, const char **out, size_t max);

#endif

/* workload_metrics: the metric names a step kind can produce, so that
 * `check` can refuse a reference (`report:`, `expect:`, `headline:`) to a
 * metric the step never writes, and which of them it puts first (its
 * headline rule). Each workload keeps its table next to its code and names
 * it in its workload_ops (workload.h); run/ref_check.c reads it through
 * run/workload_table.c, and run/validators.c registers the rule with
 * model/headline.c.
 *
 * The metrics every step carries whatever its kind (the system monitor's,
 * the device models', the server activity's) and the ones Lua hooks add are
 * known to the check itself (run/ref_check.c). */
#ifndef BENCHGRID_WORKLOAD_METRICS_H
#define BENCHGRID_WORKLOAD_METRICS_H

#include <stdbool.h>

#include "headline.h"
#include "node.h"

struct workload_metrics {
	/* Names, NULL-terminated; a '*' stands for any text (`stmt*_ms`), as in
	 * fnmatch(3). The names without '*' are the did-you-mean candidates. */
	const char *const *names;
	/* The series it samples over time (a chart with x: time), the same form. */
	const char *const *series;
	/* True when these options let the step write names nobody knows
	 * before it runs (exec's `parse:`); NULL: never. */
	bool (*dynamic)(const struct node *opts);
	/* True when the server's activity is sampled during the step (run's
	 * step_run.c starts fixtures/pg's sampler), so it carries pg_*. */
	bool server_activity;
	/* Its headline rule (headline.h): the names of a result of its kind a
	 * person reads first, for every report, compare, history and the live
	 * line. It reads the result alone (its metrics and infos), so that a
	 * results.json written before still gets it; NULL: headline.h's
	 * generic rule. */
	headline_rule_fn headline;
};

#endif

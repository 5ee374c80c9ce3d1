/* result: what one step of one cell measured.
 *
 * Workloads fill a step_result through these calls; the runner stores it in
 * results.json and hands it to the reporters and Lua hooks. Metric names are
 * the contract with scenarios (`expect:`, `report.pivot`) and are listed in
 * docs/scenario.md. Values are doubles with a unit string ("MB/s", "us",
 * "ms", "tps", "bytes", "s", "%", "" for plain counts). Time series are named
 * sample columns over a shared time axis in seconds since the step started. */
#ifndef BENCHGRID_RESULT_H
#define BENCHGRID_RESULT_H

#include <stdbool.h>
#include <stddef.h>

struct metric {
	char *name;
	char *unit;
	double value;
};

struct series {
	char *name; /* e.g. "mb_s", "tps" */
	char *unit;
	size_t n, cap;
	double *t; /* seconds since the step started (end of the interval) */
	double *v;
};

struct info {
	char *key; /* e.g. "engine", "pg.setting.shared_buffers", "warning" */
	char *value;
};

struct step_result {
	char *step;     /* step name */
	char *workload; /* "io", "pgbench", "exec" */
	bool failed;
	char *error; /* "file:line:col: error: ..." or plain text, NULL if ok */
	/* Not run: its `when:` was false (not a failure; no figures).
	 * skip_reason: why, e.g. "when: fs ~= 'btrfs'". */
	bool skipped;
	char *skip_reason;
	double started; /* unix time, seconds */
	double elapsed; /* wall seconds of the whole step */
	struct metric *m;
	size_t nm, capm;
	struct series *s;
	size_t ns, caps;
	struct info *info;
	size_t ni, capi;
};

void result_init(struct step_result *r, const char *step, const char *workload);
void result_free(struct step_result *r);

/* Set (or replace) a metric. */
void result_metric(struct step_result *r, const char *name, double value, const char *unit);
/* Look up a metric; NULL when absent. */
const struct metric *result_get(const struct step_result *r, const char *name);

/* Append one sample (t seconds, value v) to the series `name`, creating it. */
void result_sample(struct step_result *r, const char *name, const char *unit, double t, double v);
const struct series *result_series(const struct step_result *r, const char *name);

/* Free-form facts: engine used, effective settings, warnings (key "warning"
 * may repeat; other keys are replaced). printf-style value. */
void result_info(struct step_result *r, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
const char *result_info_get(const struct step_result *r, const char *key);

/* Mark the step skipped (not run, not failed) and why. */
void result_skip(struct step_result *r, const char *reason);

/* Mark the step failed with a message (printf-style); keeps the first error. */
void result_fail(struct step_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif

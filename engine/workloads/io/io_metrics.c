/* io_metrics: latency figures of a histogram (see io_metrics.h). */
#include "io_metrics.h"

#include <stdio.h>

void io_lat_metrics(struct step_result *res, const char *prefix, const struct hist *h)
{
	static const struct {
		const char *name;
		double pct; /* < 0: mean, 0: min, 100: max */
	} figs[] = {{"mean", -1}, {"min", 0},     {"p50", 50}, {"p90", 90},
	            {"p99", 99},  {"p999", 99.9}, {"max", 100}};
	for (size_t i = 0; i < sizeof(figs) / sizeof(figs[0]); i++) {
		double ns = figs[i].pct < 0      ? hist_mean(h)
		            : figs[i].pct == 0   ? (double)hist_min(h)
		            : figs[i].pct == 100 ? (double)hist_max(h)
		                                 : (double)hist_percentile(h, figs[i].pct);
		char name[64];
		snprintf(name, sizeof(name), "%s_%s_us", prefix, figs[i].name);
		result_metric(res, name, ns / 1e3, "us");
	}
}

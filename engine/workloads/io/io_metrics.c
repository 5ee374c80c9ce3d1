/* io_metrics: latency figures of a histogram (see io_metrics.h). */
#include "io_metrics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* wl_io.c's totals, io_metrics' latency figures (lat_*: data I/O or
 * metadata operations; sched_lat_*: paced I/O), io_meta.c, io_ss.c,
 * io_precond.c; read.* and write.*: each direction of mixed I/O. */
static const char *const io_names[] = {"bytes",
                                       "seconds",
                                       "mb_s",
                                       "mib_s",
                                       "iops",
                                       "cpu_usr",
                                       "cpu_sys",
                                       "sync_s",
                                       "verify_errors",
                                       "ops",
                                       "ops_s",
                                       "steady_state_reached",
                                       "steady_state_at_s",
                                       "steady_state_criterion",
                                       "precondition_bytes",
                                       "precondition_s",
                                       "lat_mean_us",
                                       "lat_min_us",
                                       "lat_p50_us",
                                       "lat_p90_us",
                                       "lat_p99_us",
                                       "lat_p999_us",
                                       "lat_max_us",
                                       "sched_lat_mean_us",
                                       "sched_lat_min_us",
                                       "sched_lat_p50_us",
                                       "sched_lat_p90_us",
                                       "sched_lat_p99_us",
                                       "sched_lat_p999_us",
                                       "sched_lat_max_us",
                                       "read.bytes",
                                       "read.mb_s",
                                       "read.mib_s",
                                       "read.iops",
                                       "read.lat_mean_us",
                                       "read.lat_min_us",
                                       "read.lat_p50_us",
                                       "read.lat_p90_us",
                                       "read.lat_p99_us",
                                       "read.lat_p999_us",
                                       "read.lat_max_us",
                                       "write.bytes",
                                       "write.mb_s",
                                       "write.mib_s",
                                       "write.iops",
                                       "write.lat_mean_us",
                                       "write.lat_min_us",
                                       "write.lat_p50_us",
                                       "write.lat_p90_us",
                                       "write.lat_p99_us",
                                       "write.lat_p999_us",
                                       "write.lat_max_us",
                                       NULL};

/* wl_io.c, io_lat.c (each direction), io_precond.c, io_meta.c */
static const char *const io_series[] = {
    "mb_s", "iops", "write_lat_*_us", "read_lat_*_us", "precondition.mb_s", "ops_s", NULL};

bool io_headline_by_iops(bool random, unsigned long long bs)
{
	return random && bs > 0 && bs <= IO_HEADLINE_IOPS_MAX_BS;
}

/* IOPS or MB/s by the pattern, then the p99 (see io_metrics.h). */
static size_t io_headline(const struct step_result *r, const char **out, size_t max)
{
	const char *rw = result_info_get(r, "rw"), *bs = result_info_get(r, "bs");
	size_t n = 0;
	if (!rw)
		return headline_generic(r, out, max);
	bool iops = io_headline_by_iops(strncmp(rw, "rand", 4) == 0, bs ? strtoull(bs, NULL, 10) : 0);
	headline_add(r, iops ? "iops" : "mb_s", out, &n, max);
	headline_add(r, "lat_p99_us", out, &n, max);
	return n;
}

const struct workload_metrics io_metric_names = {
    .names = io_names, .series = io_series, .headline = io_headline};

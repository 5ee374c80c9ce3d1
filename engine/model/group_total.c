/* group_total: a parallel group's io steps as one (see group_total.h). */
#include "group_total.h"

#include <fnmatch.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"

/* The figures of the whole, then those of each direction (the last 22). */
#define TOTAL_WHOLE                                                                                          \
	"bytes", "seconds", "mb_s", "mib_s", "iops", "cpu_usr", "cpu_sys", "verify_errors", "lat_mean_us",   \
	    "lat_min_us", "lat_p50_us", "lat_p90_us", "lat_p99_us", "lat_p999_us", "lat_max_us"
#define TOTAL_DIR(d)                                                                                         \
	d ".bytes", d ".mb_s", d ".mib_s", d ".iops", d ".lat_mean_us", d ".lat_min_us", d ".lat_p50_us",    \
	    d ".lat_p90_us", d ".lat_p99_us", d ".lat_p999_us", d ".lat_max_us"
const char *const group_total_names[] = {TOTAL_WHOLE, TOTAL_DIR("read"), TOTAL_DIR("write"), NULL};
const char *const group_total_names_one_way[] = {TOTAL_WHOLE, NULL};

/* What the members moved one way (or both: DIR_ALL). */
enum dir { DIR_READ, DIR_WRITE, DIR_ALL, NDIR };
static const char *const dir_prefix[NDIR] = {"read.", "write.", ""};
static const char *const dir_hist[2] = {"read.lat_hist", "write.lat_hist"};

struct sum {
	bool any;
	double bytes, ios, seconds;
	double lat_weighted, lat_min, lat_max; /* mean x I/Os; extremes (us) */
	bool hist_whole;                       /* every member's distribution read */
	struct hist_series hs;
};

static double metric(const struct step_result *r, const char *prefix, const char *name, double dflt)
{
	char key[64];
	snprintf(key, sizeof(key), "%s%s", prefix, name);
	const struct metric *m = result_get(r, key);
	return m ? m->value : dflt;
}

/* The direction a one-way member moved data: its one distribution, else
 * its rw. */
static enum dir one_way(const struct step_result *r)
{
	bool rd = result_info_get(r, dir_hist[DIR_READ]), wr = result_info_get(r, dir_hist[DIR_WRITE]);
	if (rd != wr)
		return rd ? DIR_READ : DIR_WRITE;
	const char *rw = result_info_get(r, "rw");
	return rw && strstr(rw, "read") ? DIR_READ : DIR_WRITE;
}

/* Add one member's figures of one direction (prefix: where they are). */
static void add(struct sum *s, const struct step_result *r, const char *prefix, const char *hist_key)
{
	double secs = metric(r, "", "seconds", 0), ios = metric(r, prefix, "iops", 0) * secs;
	if (!s->any) {
		s->lat_min = INFINITY;
		s->lat_max = 0;
		s->hist_whole = true;
	}
	s->any = true;
	s->bytes += metric(r, prefix, "bytes", 0);
	s->ios += ios;
	s->seconds = fmax(s->seconds, secs);
	s->lat_weighted += metric(r, prefix, "lat_mean_us", 0) * ios;
	if (ios > 0) {
		s->lat_min = fmin(s->lat_min, metric(r, prefix, "lat_min_us", INFINITY));
		s->lat_max = fmax(s->lat_max, metric(r, prefix, "lat_max_us", 0));
	}
	if (!hist_key) /* the caller reads the distributions */
		return;
	const char *h = result_info_get(r, hist_key);
	if (ios > 0 && (!h || hist_series_parse(&s->hs, h) < 0))
		s->hist_whole = false;
}

/* The figures of one sum under prefix. */
static void put(struct step_result *out, const struct sum *s, const char *prefix, bool seconds)
{
	char key[64];
#define PUT(name, value, unit)                                                                               \
	do {                                                                                                 \
		snprintf(key, sizeof(key), "%s%s", prefix, name);                                            \
		result_metric(out, key, value, unit);                                                        \
	} while (0)
	double secs = s->seconds > 0 ? s->seconds : NAN;
	PUT("bytes", s->bytes, "bytes");
	if (seconds)
		PUT("seconds", s->seconds, "s");
	PUT("mb_s", s->bytes / secs / 1e6, "MB/s");
	PUT("mib_s", s->bytes / secs / 1048576.0, "MiB/s");
	PUT("iops", s->ios / secs, "IOPS");
	if (s->ios <= 0)
		return;
	PUT("lat_mean_us", s->lat_weighted / s->ios, "us");
	PUT("lat_min_us", s->lat_min, "us");
	PUT("lat_max_us", s->lat_max, "us");
	if (!s->hist_whole)
		return;
	/* every interval of every member, as one distribution */
	uint64_t *c = calloc(HIST_COARSE_N, sizeof(*c));
	if (!c)
		return;
	for (size_t i = 0; i < s->hs.nivl; i++)
		for (unsigned b = 0; b < HIST_COARSE_N; b++)
			c[b] += s->hs.c[i * HIST_COARSE_N + b];
	static const struct {
		const char *name;
		double pct;
	} pcts[] = {{"lat_p50_us", 50}, {"lat_p90_us", 90}, {"lat_p99_us", 99}, {"lat_p999_us", 99.9}};
	for (size_t k = 0; k < sizeof(pcts) / sizeof(pcts[0]); k++) {
		/* the bucket's middle, kept within the exact extremes */
		double us = hist_coarse_percentile(c, pcts[k].pct) / 1e3;
		PUT(pcts[k].name, fmin(fmax(us, s->lat_min), s->lat_max), "us");
	}
	free(c);
#undef PUT
}

/* The figures every step carries (the monitor's, the models', the
 * server's): the longest member's. */
static void carry(struct step_result *out, const struct step_result *longest)
{
	static const char *const pats[] = {"sys_*_pct", "disk_*", "disk.*.*", "model.*.*", "pg_*"};
	for (size_t m = 0; m < longest->nm; m++)
		for (size_t p = 0; p < sizeof(pats) / sizeof(pats[0]); p++)
			if (fnmatch(pats[p], longest->m[m].name, 0) == 0) {
				result_metric(out, longest->m[m].name, longest->m[m].value,
				              longest->m[m].unit);
				break;
			}
}

/* rw and bs for the headline rule: random when every member is, the
 * block size when they share one. */
static void shape(struct step_result *out, const struct step_result *const *members, size_t n)
{
	bool random = true, one_bs = true;
	const char *bs0 = result_info_get(members[0], "bs");
	for (size_t i = 0; i < n; i++) {
		const char *rw = result_info_get(members[i], "rw"), *bs = result_info_get(members[i], "bs");
		random = random && rw && !strncmp(rw, "rand", 4);
		one_bs = one_bs && bs && bs0 && !strcmp(bs, bs0);
	}
	result_info(out, "rw", "%s", random ? "randrw" : "rw");
	if (one_bs)
		result_info(out, "bs", "%s", bs0);
}

int group_total(const struct step_result *const *members, size_t n, struct step_result *out)
{
	for (size_t i = 0; i < n; i++)
		if (members[i]->failed || members[i]->skipped) {
			result_fail(out, "no group total: step %s %s", members[i]->step,
			            members[i]->failed ? "failed" : "was skipped");
			return -1;
		}
	struct sum s[NDIR] = {0};
	char names[512] = "";
	const struct step_result *longest = n ? members[0] : NULL;
	double cpu_usr = 0, cpu_sys = 0, verify = 0;
	bool any_verify = false;
	for (size_t i = 0; i < n; i++) {
		const struct step_result *r = members[i];
		bool both = result_get(r, "read.iops") != NULL;
		if (both) {
			add(&s[DIR_READ], r, dir_prefix[DIR_READ], dir_hist[DIR_READ]);
			add(&s[DIR_WRITE], r, dir_prefix[DIR_WRITE], dir_hist[DIR_WRITE]);
		} else {
			enum dir d = one_way(r);
			add(&s[d], r, "", dir_hist[d]);
		}
		/* the whole: every distribution of the member, read and write */
		add(&s[DIR_ALL], r, "", NULL);
		for (int d = 0; d < 2; d++) {
			const char *h = result_info_get(r, dir_hist[d]);
			if (h && hist_series_parse(&s[DIR_ALL].hs, h) < 0)
				s[DIR_ALL].hist_whole = false;
		}
		if (!result_info_get(r, dir_hist[0]) && !result_info_get(r, dir_hist[1]) &&
		    metric(r, "", "iops", 0) > 0)
			s[DIR_ALL].hist_whole = false;
		cpu_usr = fmax(cpu_usr, metric(r, "", "cpu_usr", 0));
		cpu_sys = fmax(cpu_sys, metric(r, "", "cpu_sys", 0));
		any_verify = any_verify || result_get(r, "verify_errors");
		verify += metric(r, "", "verify_errors", 0);
		if (metric(r, "", "seconds", 0) > metric(longest, "", "seconds", 0))
			longest = r;
		size_t u = strlen(names);
		snprintf(names + u, sizeof(names) - u, "%s%s", u ? ", " : "", r->step);
	}
	/* a direction whose distributions are not all there leaves the whole's
	 * incomplete too (its percentiles would miss that direction's I/Os) */
	for (int d = 0; d < 2; d++)
		if (s[d].any && !s[d].hist_whole)
			s[DIR_ALL].hist_whole = false;
	put(out, &s[DIR_ALL], "", true);
	if (s[DIR_READ].any && s[DIR_WRITE].any)
		for (int d = 0; d < 2; d++)
			put(out, &s[d], dir_prefix[d], false);
	result_metric(out, "cpu_usr", cpu_usr, "%");
	result_metric(out, "cpu_sys", cpu_sys, "%");
	if (any_verify)
		result_metric(out, "verify_errors", verify, "");
	if (longest)
		carry(out, longest);
	if (n)
		shape(out, members, n);
	result_info(out, "group_total_of", "%s", names);
	if (!s[DIR_ALL].hist_whole && s[DIR_ALL].ios > 0)
		result_info(out, "warning",
		            "group total: a member kept no latency distribution, so the total has no "
		            "latency percentiles");
	for (int d = 0; d < NDIR; d++)
		hist_series_free(&s[d].hs);
	return 0;
}

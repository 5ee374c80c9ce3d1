/* pgb_script_figs: per-script figures of a pgbench load (see
 * pgb_script_figs.h). */
#include "pgb_script_figs.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Several scripts: each one's rate, latencies and ROLLBACK-ended
 * transactions as script_NAME_* (NAME: the script's name in letters, digits
 * and _; a repeated name gets _2, _3 ...). With tpcc-like, TPC-C's figures:
 * nopm (committed new-orders per minute, as HammerDB's NOPM), tpmc (every
 * completed new-order per minute, the rolled-back ones too, as TPC-C counts
 * them) and new_order_rollback_pct. */
void pgb_script_figs(const struct pgb_prog *prog, const struct pgb_run_out *out, bool tpcc,
                     struct step_result *res)
{
	double el = out->elapsed > 0 ? out->elapsed : 1e-9;

	for (int s = 0; out->script_lat && s < prog->nscripts; s++) {
		const struct hist *h = &out->script_lat[s];
		char base[80], name[128];
		size_t n = 0;
		int same = 1;

		for (const char *p = prog->scripts[s].name; *p && n < 60; p++)
			base[n++] = (isalnum((unsigned char)*p) || *p == '_') ? *p : '_';
		base[n] = '\0';
		for (int k = 0; k < s; k++)
			same += !strcmp(prog->scripts[k].name, prog->scripts[s].name);
		if (same > 1)
			snprintf(base + n, sizeof(base) - n, "_%d", same);
		static const struct {
			const char *suffix;
			double pct; /* < 0: mean, > 100: max */
		} lat[] = {{"lat_mean_ms", -1}, {"lat_p50_ms", 50}, {"lat_p90_ms", 90},
		           {"lat_p95_ms", 95},  {"lat_p99_ms", 99}, {"lat_max_ms", 101}};
		snprintf(name, sizeof(name), "script_%s_transactions", base);
		result_metric(res, name, (double)hist_count(h), "");
		snprintf(name, sizeof(name), "script_%s_tps", base);
		result_metric(res, name, (double)hist_count(h) / el, "tps");
		for (size_t i = 0; i < sizeof(lat) / sizeof(lat[0]) && hist_count(h); i++) {
			double v = lat[i].pct < 0     ? hist_mean(h)
			           : lat[i].pct > 100 ? (double)hist_max(h)
			                              : hist_percentile(h, lat[i].pct);
			snprintf(name, sizeof(name), "script_%s_%s", base, lat[i].suffix);
			result_metric(res, name, v / 1e6, "ms");
		}
		snprintf(name, sizeof(name), "script_%s_rollbacks", base);
		result_metric(res, name, (double)out->script_rb[s], "");
		if (tpcc && !strcmp(prog->scripts[s].name, "new_order")) {
			double all = (double)hist_count(h), rb = (double)out->script_rb[s];

			result_metric(res, "nopm", (all - rb) * 60 / el, "");
			result_metric(res, "tpmc", all * 60 / el, "");
			result_metric(res, "new_order_rollback_pct", all > 0 ? rb * 100 / all : 0, "%");
		}
	}
}

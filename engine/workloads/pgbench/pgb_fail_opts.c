/* pgb_fail_opts: options for failures, retries, the latency limit and the
 * logs, checked as pgbench 15 checks them (see pgb_fail_opts.h). */
#include "pgb_fail_opts.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

/* latency_limit: a duration with its unit. A bare number is refused:
 * pgbench's -L counts milliseconds, benchgrid's durations seconds. */
static void pgb_fail_latency_limit(const struct node *x, struct pgb_fail_cfg *f, struct diag *d)
{
	double s;

	if (x->kind == NODE_SCALAR && x->text[0] && isdigit((unsigned char)x->text[strlen(x->text) - 1])) {
		diag_error(d, &x->pos,
		           "pgbench.latency_limit: give a unit, e.g. 10ms (pgbench -L counts milliseconds, "
		           "a bare number here would be seconds)");
		return;
	}
	if (node_as_duration(x, "pgbench.latency_limit", false, &s, d))
		return;
	f->latency_limit_ns = (int64_t)llround(s * 1e9);
	if (f->latency_limit_ns < 1000)
		diag_error(d, &x->pos,
		           "pgbench.latency_limit: must be at least 1us (pgbench counts microseconds)");
}

/* aggregate_interval: whole seconds, as pgbench's --aggregate-interval. */
static void pgb_fail_agg_interval(const struct node *x, struct pgb_fail_cfg *f, struct diag *d)
{
	double s;

	if (node_as_duration(x, "pgbench.aggregate_interval", false, &s, d))
		return;
	if (s < 1 || s != floor(s) || s > INT32_MAX) {
		diag_error(d, &x->pos,
		           "pgbench.aggregate_interval: must be a whole number of seconds (1s, 10s, 1min), "
		           "as pgbench's --aggregate-interval");
		return;
	}
	f->agg_interval = (int64_t)s;
}

/* The combinations pgbench refuses, in pgbench's order. */
static void pgb_fail_combinations(const struct node *opts, double duration, struct pgb_fail_cfg *f,
                                  struct diag *d)
{
	const struct node *sr = node_get(opts, "sampling_rate"), *ai = node_get(opts, "aggregate_interval"),
	                  *mt = node_get(opts, "max_tries");

	if (sr && f->sampling_rate > 0 && !f->log)
		diag_error(d, &sr->pos,
		           "pgbench.sampling_rate: only with log: true (pgbench: log sampling "
		           "(--sampling-rate) is allowed only when logging transactions (-l))");
	if (sr && f->sampling_rate > 0 && f->agg_interval > 0)
		diag_error(d, &sr->pos,
		           "pgbench.sampling_rate: not with aggregate_interval (pgbench: log sampling "
		           "and aggregation cannot be used at the same time)");
	if (ai && f->agg_interval > 0 && !f->log)
		diag_error(d, &ai->pos,
		           "pgbench.aggregate_interval: only with log: true (pgbench: log aggregation is "
		           "allowed only when actually logging transactions)");
	if (ai && f->agg_interval > 0 && duration > 0 && (double)f->agg_interval > duration)
		diag_error(d, &ai->pos,
		           "pgbench.aggregate_interval: %" PRId64 " s is longer than the duration (%g s)",
		           f->agg_interval, duration);
	else if (ai && f->agg_interval > 0 && duration > 0 && fmod(duration, (double)f->agg_interval) != 0)
		diag_error(
		    d, &ai->pos,
		    "pgbench.aggregate_interval: the duration (%g s) must be a multiple of it (%" PRId64
		    " s)",
		    duration, f->agg_interval);
	if (mt && f->max_tries < 0 && !f->latency_limit_ns && duration <= 0)
		diag_error(d, &mt->pos,
		           "pgbench.max_tries: 0 (unbounded) needs latency_limit or duration to bound the "
		           "retries (as pgbench 15)");
}

int pgb_fail_opts_parse(const struct node *opts, double duration, double rate, struct pgb_fail_cfg *f,
                        struct diag *d)
{
	const struct node *x;
	size_t nerr0 = d->nerrors;

	memset(f, 0, sizeof(*f));
	f->max_tries = 1;
	f->throttled = rate > 0;
	if ((x = node_get(opts, "max_tries")) &&
	    !node_as_int(x, "pgbench.max_tries", 0, INT32_MAX, &f->max_tries, d) && f->max_tries == 0)
		f->max_tries = -1; /* unbounded */
	if ((x = node_get(opts, "latency_limit")))
		pgb_fail_latency_limit(x, f, d);
	if ((x = node_get(opts, "failures_detailed")))
		node_as_bool(x, "pgbench.failures_detailed", &f->failures_detailed, d);
	if ((x = node_get(opts, "verbose_errors")))
		node_as_bool(x, "pgbench.verbose_errors", &f->verbose_errors, d);
	if ((x = node_get(opts, "log")))
		node_as_bool(x, "pgbench.log", &f->log, d);
	if ((x = node_get(opts, "aggregate_interval")))
		pgb_fail_agg_interval(x, f, d);
	if ((x = node_get(opts, "sampling_rate")) &&
	    !node_as_double(x, "pgbench.sampling_rate", &f->sampling_rate, d) &&
	    !(f->sampling_rate > 0 && f->sampling_rate <= 1)) {
		diag_error(d, &x->pos, "pgbench.sampling_rate: must be above 0 and at most 1");
		f->sampling_rate = 0;
	}
	if (d->nerrors == nerr0)
		pgb_fail_combinations(opts, duration, f, d);
	return d->nerrors > nerr0 ? -EINVAL : 0;
}

void pgb_fail_metrics(const struct pgb_fail_cfg *f, const struct pgb_fail_out *o, struct step_result *res)
{
	if (pgb_fail_retries(f)) {
		result_metric(res, "retried", (double)o->retried, "");
		result_metric(res, "retries", (double)o->retries, "");
	}
	if (f->failures_detailed) {
		result_metric(res, "serialization_failures", (double)o->serialization_failures, "");
		result_metric(res, "deadlock_failures", (double)o->deadlock_failures, "");
	}
	if (f->latency_limit_ns) {
		result_metric(res, "late", (double)o->late, "");
		if (f->throttled)
			result_metric(res, "skipped", (double)o->skipped, "");
	}
}

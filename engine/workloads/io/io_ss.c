/* io_ss: steady state (see io_ss.h). */
#include "io_ss.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int io_ss_init(struct io_ss *ss, const struct io_opts *o)
{
	memset(ss, 0, sizeof(*ss));
	ss->o = o;
	if (!o->dev.ss.on)
		return 0;
	ss->n = (unsigned)floor(o->dev.ss.dur / o->interval + 0.5);
	if (ss->n < 2)
		ss->n = 2;
	ss->y = calloc(ss->n, sizeof(double));
	return ss->y ? 0 : -1;
}

/* fio's criteria over the window, in percent of its mean. */
static double ss_criterion(const struct io_ss *ss)
{
	double n = ss->n, sy = 0, sxy = 0, sx = n * (n - 1) / 2, sxx = (n - 1) * n * (2 * n - 1) / 6;
	for (unsigned i = 0; i < ss->n; i++) {
		double y = ss->y[(ss->head + i) % ss->n];
		sy += y;
		sxy += i * y;
	}
	double mean = sy / n;
	if (mean <= 0)
		return INFINITY;
	if (ss->o->dev.ss.slope) {
		double slope = (sxy - sx * sy / n) / (sxx - sx * sx / n); /* per sample */
		return fabs(100.0 * slope / ss->o->interval / mean);
	}
	double dev = 0;
	for (unsigned i = 0; i < ss->n; i++)
		dev = fmax(dev, fabs(ss->y[i] - mean));
	return 100.0 * dev / mean;
}

bool io_ss_add(struct io_ss *ss, double t_meas, double dt, double mb_s, double iops)
{
	if (!ss->y || ss->reached || t_meas - dt < ss->o->dev.ss.ramp - 1e-3 || dt < 0.9 * ss->o->interval)
		return false;
	double y = ss->o->dev.ss.bw ? mb_s : iops;
	if (ss->len < ss->n) {
		ss->y[(ss->head + ss->len++) % ss->n] = y;
	} else {
		ss->y[ss->head] = y;
		ss->head = (ss->head + 1) % ss->n;
	}
	if (ss->len < ss->n)
		return false;
	ss->criterion = ss_criterion(ss);
	if (ss->criterion >= ss->o->dev.ss.limit)
		return false;
	ss->reached = true;
	ss->at = t_meas;
	return true;
}

void io_ss_metrics(struct io_ss *ss, struct step_result *res)
{
	if (!ss->o || !ss->o->dev.ss.on)
		return;
	result_metric(res, "steady_state_reached", ss->reached ? 1 : 0, "");
	if (ss->reached)
		result_metric(res, "steady_state_at_s", ss->at, "s");
	if (ss->len == ss->n)
		result_metric(res, "steady_state_criterion", ss->criterion, "%");
	result_info(res, "steady_state", "%s %s < %g%% over %g s after a ramp of %g s: %s",
	            ss->o->dev.ss.bw ? "bw" : "iops", ss->o->dev.ss.slope ? "slope" : "range",
	            ss->o->dev.ss.limit, ss->o->dev.ss.dur, ss->o->dev.ss.ramp,
	            ss->reached ? "reached" : "not reached");
	free(ss->y);
	ss->y = NULL;
}

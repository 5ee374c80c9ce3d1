/* io_ss: `steady_state:` of the io step, fio's ss= / ss_dur= / ss_ramp=.
 *
 * The monitor's samples (one per interval, after the step's ramp and then
 * the steady state's own ramp) fill a window of `duration`. Once it is
 * full, after each sample:
 *   slope: X%  the least-squares slope of the window, per second, as a
 *              percentage of its mean (fio's iops_slope / bw_slope with %);
 *   range: X%  the largest distance of a sample from the window's mean, as
 *              a percentage of the mean (fio's iops / bw with %);
 * below X, the job is steady and the step ends (its figures cover the time
 * until then). steady_state_reached (0/1), steady_state_at_s (seconds from
 * the measured start) and steady_state_criterion are recorded. */
#ifndef BENCHGRID_IO_SS_H
#define BENCHGRID_IO_SS_H

#include <stdbool.h>

#include "diag.h"
#include "io_opts.h"
#include "node.h"
#include "result.h"

struct io_ss {
	const struct io_opts *o;
	double *y;       /* the window, a ring of n samples */
	unsigned n, len; /* capacity, filled */
	unsigned head;   /* oldest */
	bool reached;
	double at, criterion; /* when (s after the measured start), and its value */
};

int io_ss_init(struct io_ss *ss, const struct io_opts *o);
/* One sample ending t_meas seconds after the measured start, dt long. True
 * when the job is steady now (the first time). */
bool io_ss_add(struct io_ss *ss, double t_meas, double dt, double mb_s, double iops);
void io_ss_metrics(struct io_ss *ss, struct step_result *res);

#endif

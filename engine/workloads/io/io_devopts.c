/* io_devopts: see io_devopts.h. */
#include "io_devopts.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io_opts_table.h"

static void precond_parse(const struct node *n, struct io_dev_opts *o, struct diag *d)
{
	o->precond_pos = n->pos;
	if (opt_check_keys(n, "io.precondition", &io_precondition_table, d) && n->kind != NODE_MAP)
		return;
	int64_t passes = 1;
	const struct node *p = node_get(n, "passes");
	if (p && node_as_int(p, "io.precondition.passes", 0, 100, &passes, d))
		return;
	o->precondition = true;
	o->precond_passes = (unsigned)passes;
}

/* A percentage "0.3%", above 0 and at most 100. */
static int ss_percent(const struct node *n, const char *what, double *out, struct diag *d)
{
	const char *t = n && n->kind == NODE_SCALAR ? n->text : NULL;
	char *end = NULL;
	double v = t ? strtod(t, &end) : 0;
	if (!t || end == t || strcmp(end, "%") || !(v > 0) || v > 100) {
		diag_error(d, &n->pos, "%s: expected a percentage above 0, e.g. 0.3%% or 10%%, found '%s'",
		           what, t ? t : "a non-scalar");
		return -1;
	}
	*out = v;
	return 0;
}

static void ss_window(const struct node *n, struct io_dev_opts *o, const struct io_devopts_in *in,
                      struct diag *d)
{
	const struct node *v;
	if (!(v = node_get(n, "duration")))
		diag_error(d, &n->pos, "io.steady_state: needs duration: (the window, e.g. 60s)");
	else if (!node_as_duration(v, "io.steady_state.duration", false, &o->ss.dur, d) &&
	         o->ss.dur < 2 * in->interval)
		diag_error(d, &v->pos,
		           "io.steady_state.duration: %g s holds fewer than 2 samples of io.interval (%g s)",
		           o->ss.dur, in->interval);
	if ((v = node_get(n, "ramp")))
		node_as_duration(v, "io.steady_state.ramp", true, &o->ss.ramp, d);
	if (in->runtime <= 0)
		diag_error(d, &n->pos, "io.steady_state: needs a runtime (the longest the step may run)");
	else if (o->ss.dur + o->ss.ramp > in->runtime)
		diag_error(d, &n->pos,
		           "io.steady_state: ramp %g s + duration %g s is longer than runtime (%g s): it "
		           "could never be reached",
		           o->ss.ramp, o->ss.dur, in->runtime);
}

static void ss_parse(const struct node *n, struct io_dev_opts *o, const struct io_devopts_in *in,
                     struct diag *d)
{
	o->ss_pos = n->pos;
	if (opt_check_keys(n, "io.steady_state", &io_steady_state_table, d) && n->kind != NODE_MAP)
		return;
	const struct node *v, *slope = node_get(n, "slope"), *range = node_get(n, "range");
	int e;
	if ((v = node_get(n, "metric")) &&
	    !node_as_enum(v, "io.steady_state.metric", io_ss_metric_values, &e, d))
		o->ss.bw = e == 1;
	if (slope && range)
		diag_error(d, node_key_pos(n, "range"), "io.steady_state: give slope: or range:, not both");
	else if (!slope && !range)
		diag_error(d, &n->pos, "io.steady_state: needs slope: X%% or range: X%%");
	else if (slope)
		ss_percent(slope, "io.steady_state.slope", &o->ss.limit, d);
	else
		ss_percent(range, "io.steady_state.range", &o->ss.limit, d);
	o->ss.slope = slope != NULL;
	ss_window(n, o, in, d);
	o->ss.on = true;
}

void io_devopts_parse(const struct node *opts, struct io_dev_opts *o, const struct io_devopts_in *in,
                      struct diag *d)
{
	const struct node *n;
	if (!opts || opts->kind != NODE_MAP)
		return;
	o->device = !strcmp(in->file, "@device");
	if ((n = node_get(opts, "size"))) {
		o->size_given = true;
		o->size_pos = n->pos;
	}
	o->io_size_given = node_get(opts, "io_size") != NULL;
	if ((n = node_get(opts, "fsync_on_close")))
		node_as_bool(n, "io.fsync_on_close", &o->fsync_on_close, d);
	if ((n = node_get(opts, "file")) && n->kind == NODE_SCALAR && n->text[0] == '@' && !o->device)
		diag_error(d, &n->pos,
		           "io.file: '%s' is not a known device name (write \"@device\" for "
		           "the target's raw device)",
		           n->text);
	if (in->trims && in->verify)
		diag_error(d, node_key_pos(opts, "verify"),
		           "io.verify: rw: %s discards blocks; there is nothing to verify", in->rw);
	if (in->trims && in->sync)
		diag_error(d, node_key_pos(opts, "sync"),
		           "io.sync: rw: %s discards blocks; use fsync_on_close instead", in->rw);
	if ((n = node_get(opts, "precondition")))
		precond_parse(n, o, d);
	if ((n = node_get(opts, "steady_state")))
		ss_parse(n, o, in, d);
}

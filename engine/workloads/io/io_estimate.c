/* io_estimate: what an io step will do, for plan's estimate (see
 * io_estimate.h). */
#include "io_estimate.h"

#include <string.h>

static bool io_est_reads(const struct node *o)
{
	const char *rw = est_text(node_get(o, "rw"));
	return !rw || !strcmp(rw, "read") || !strcmp(rw, "randread") || !strcmp(rw, "randrw");
}

/* Bytes of the step's files in its target (0 on a raw device). */
static double io_est_file_bytes(const struct node *o)
{
	if (est_is(node_get(o, "file"), "@device") || node_get(o, "op"))
		return 0;
	return est_bytes(node_get(o, "size"), 1073741824.0) * est_number(node_get(o, "jobs"), 1);
}

/* A runtime, else the bytes it moves (what it reads is written first,
 * prepare: auto); a metadata op or a device without size declares nothing.
 * file: "@device" opens the target's device raw. */
void io_estimate(const struct node *o, struct step_estimate *e)
{
	double ramp = est_seconds(node_get(o, "ramp"), 0);
	e->raw_device = est_is(node_get(o, "file"), "@device");
	e->file_bytes = io_est_file_bytes(o);
	e->files_kept = est_true(node_get(o, "keep"));
	if (node_get(o, "runtime")) {
		e->basis = "runtime";
		e->seconds = est_seconds(node_get(o, "runtime"), 0) + ramp;
		return;
	}
	if (node_get(o, "op") || (est_is(node_get(o, "file"), "@device") && !node_get(o, "size")))
		return;
	double jobs = est_number(node_get(o, "jobs"), 1);
	double moved = node_get(o, "io_size") ? est_bytes(node_get(o, "io_size"), 0) * jobs
	                                      : est_bytes(node_get(o, "size"), 1073741824.0) * jobs;
	if (io_est_reads(o) && !est_is(node_get(o, "prepare"), "none"))
		moved += e->file_bytes;
	e->basis = "size";
	e->bytes = moved;
	e->seconds = ramp;
}

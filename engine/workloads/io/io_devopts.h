/* io_devopts: the io step's options for raw devices, trims, preconditioning
 * and steady state (docs/steps/io.md: "Raw devices and trim",
 * "Preconditioning and steady state"): file: "@device", fsync_on_close,
 * precondition: {passes: N}, steady_state: {...}. Parsed here; used by
 * io_device.c, io_precond.c and io_ss.c. */
#ifndef BENCHGRID_IO_DEVOPTS_H
#define BENCHGRID_IO_DEVOPTS_H

#include <stdbool.h>

#include "diag.h"
#include "node.h"

struct io_ss_opts {
	bool on, bw, slope; /* metric bw (else iops); slope (else range) */
	double limit;       /* percent */
	double dur, ramp;   /* seconds */
};

struct io_dev_opts {
	bool device;         /* file: "@device": the target's raw device */
	bool fsync_on_close; /* fsync each job's file after its last I/O */
	bool size_given, io_size_given;
	bool precondition;
	unsigned precond_passes; /* random overwrite passes after the fill */
	struct io_ss_opts ss;
	struct src_pos size_pos, precond_pos, ss_pos;
};

/* What the rules need of the other options, already parsed. */
struct io_devopts_in {
	const char *file, *rw;
	bool trims, verify, sync;
	double runtime, interval;
};

/* Parse the keys above from the io step's map opts; errors go to d. */
void io_devopts_parse(const struct node *opts, struct io_dev_opts *x, const struct io_devopts_in *in,
                      struct diag *d);

#endif

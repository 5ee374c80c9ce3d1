/* io_device: the io step on a raw block device (file: "@device"), trims
 * (rw: trim | randtrim), fsync_on_close (options parsed by io_devopts.c).
 *
 * A raw device is the target's (kind: device used raw, step_ctx.device):
 * nothing is laid out, truncated, allocated or unlinked on it; size defaults
 * to the device's size and must fit in it; direct I/O must be aligned to its
 * logical block size; writes, trims and preconditioning need the device
 * rules (step_ctx.device_refuse is NULL). Trims: io_trim.c. */
#ifndef BENCHGRID_IO_DEVICE_H
#define BENCHGRID_IO_DEVICE_H

#include "diag.h"
#include "io_opts.h"
#include "node.h"
#include "result.h"
#include "workload.h"

struct io_job;

/* Before the jobs: the device exists, its size and logical block size fit
 * the options (size defaults to the device's); writes are allowed. Facts go
 * to res. 0, or a negative errno with res failed. */
int io_dev_setup(struct io_opts *o, const struct step_ctx *cx, struct step_result *res);

/* Open the job's device (no create, no truncate, no layout). 0, or a
 * negative errno after io_job_fail. */
int io_dev_open(const struct io_opts *o, struct io_job *j);

#endif

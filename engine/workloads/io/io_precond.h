/* io_precond: `precondition: {passes: N}` of the io step, as SNIA's SSD
 * performance test specifies: before the measured part, a sequential fill
 * of every job's file (or the raw device) in 1 MiB writes, then N passes of
 * random overwrite in blocks of bs, each pass writing every block once in a
 * shuffled order. Untimed, with its own series (precondition.mb_s), the
 * progress line, and the figures precondition_bytes, precondition_s. */
#ifndef BENCHGRID_IO_PRECOND_H
#define BENCHGRID_IO_PRECOND_H

#include "diag.h"
#include "io_opts.h"
#include "node.h"
#include "result.h"
#include "workload.h"

struct io_job;

/* Precondition the jobs' files (a device shared by the jobs once). 0, or a
 * negative errno with res failed. */
int io_precondition(const struct io_opts *o, const struct step_ctx *cx, struct step_result *res,
                    struct io_job *jobs);

#endif

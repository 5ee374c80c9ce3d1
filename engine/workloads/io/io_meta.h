/* io_meta: the metadata workloads of the io step (`op: create | stat |
 * unlink | open-close | mkdir` over `dirs` x `files_per_dir` entries per job),
 * like fio's filecreate, filestat and filedelete engines. See
 * docs/steps/io.md, "Many files and metadata operations". */
#ifndef BENCHGRID_IO_META_H
#define BENCHGRID_IO_META_H

#include "io_opts.h"
#include "workload.h"

/* Run the step (o->op != IO_OP_NONE) in cx->target_dir: one thread per job,
 * each in its own subtree FILE.JOB/; metrics ops, ops_s, lat_*_us, cpu_*;
 * series ops_s. 0 or a negative errno with res failed. */
int io_meta_run(const struct io_opts *o, const struct step_ctx *cx, struct step_result *res);

#endif

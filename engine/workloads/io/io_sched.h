/* io_sched: where and at which priority a job's thread runs: `cpus_allowed`
 * (affinity), `nice`, `ioprio` (docs/steps/io.md, "Rate limits and
 * pacing"). Applied by each worker thread to itself before its engine's
 * set-up (so io_uring's kernel workers, created then, inherit the affinity),
 * and read back by the thread for the results. */
#ifndef BENCHGRID_IO_SCHED_H
#define BENCHGRID_IO_SCHED_H

#include <stddef.h>

#include "io_rate_opts.h"

struct step_result;

/* In the calling (job) thread: apply them when set, and read back what the
 * kernel holds into got ("cpus 0-1, nice 5, ioprio be/4"). 0, or a negative
 * errno with the refusal in err. */
int io_sched_apply(const struct io_rate_opts *o, char *got, size_t gotlen, char *err, size_t errlen);

/* The infos: cpus_allowed, nice, ioprio as asked, and `got` as read back. */
void io_sched_results(struct step_result *res, const struct io_rate_opts *o, const char *got);

#endif

/* io_rate_opts: the options of rate limits, thinktime, CPU affinity and
 * priorities of the io step (`rate`, `rate_iops`, `rate_process`,
 * `thinktime`, `thinktime_blocks`, `cpus_allowed`, `nice`, `ioprio`),
 * parsed with positions into struct io_opts (docs/steps/io.md, "Rate limits
 * and pacing"). The run-time parts are io_rate.c and io_sched.c. */
#ifndef BENCHGRID_IO_RATE_OPTS_H
#define BENCHGRID_IO_RATE_OPTS_H

#include <stddef.h>
#include <stdint.h>

#include <stdbool.h>

#include "diag.h"
#include "node.h"

struct io_rate_opts {
	uint64_t rate[2];      /* bytes/s per job: [0] reads, [1] writes; 0 = no limit */
	uint64_t rate_iops[2]; /* I/Os per second per job, likewise */
	bool poisson;          /* rate_process: poisson (else linear) */
	bool paced;            /* a rate or a thinktime is set: the engines pace */
	double thinktime;      /* seconds of pause after every thinktime_blocks I/Os */
	uint64_t thinktime_blocks;
	char cpus_allowed[128]; /* as written; "" = no pinning */
	uint64_t cpus_mask[16]; /* the CPUs of cpus_allowed (1024 at most) */
	bool has_nice, has_ioprio;
	int nice;                       /* -20..19 */
	int ioprio_class, ioprio_level; /* 1 rt, 2 be, 3 idle; level 0-7 */
};

/* All eight options of `opts` (the io map) into rt (zeroed first). `rw` is
 * the step's rw (for messages), which reads and/or writes. */
void io_rate_parse(const struct node *opts, const char *rw, bool reads, bool writes, struct io_rate_opts *rt,
                   struct diag *d);

/* "0-1,3" into mask (1024 bits); 0, or -EINVAL with a message in err. */
int io_sched_parse_cpus(const char *s, uint64_t mask[16], char *err, size_t errlen);
/* The mask as a list "0-1,3". */
void io_sched_format_cpus(const uint64_t mask[16], char *buf, size_t len);

#endif

/* fio_job: one fio job while its options are mapped (types only). */
#ifndef BENCHGRID_FIO_JOB_H
#define BENCHGRID_FIO_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include "diag.h"
#include "fio_kv.h"

/* One job as it is being mapped. */
struct fio_job {
	char *name;
	unsigned kb_base;
	uint64_t numjobs;
	bool stonewall;
	struct fio_kvl io;
	struct fio_strs notes;
	/* the scenario's target, when the job names one */
	char *dir, *device;
	struct src_pos target_pos;
	/* options mapped together when the job is complete */
	int invalidate; /* -1: not given (fio's default is 1) */
	int prioclass, prio;
	char *ss, *ss_dur, *ss_ramp;
};

#endif

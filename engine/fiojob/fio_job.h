/* fio_job: one fio job while its options are mapped (types only). */
#ifndef BENCHGRID_FIO_JOB_H
#define BENCHGRID_FIO_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include "diag.h"
#include "fio_kv.h"

/* The io step's engine for fio's `ioengine=NAME`, or NULL: the caller's
 * (benchgrid's import-fio passes workloads/io's io_engine_for_fio, the
 * engine table, which this layer may not include). */
typedef const char *(*fio_engine_fn)(const char *fio_ioengine);

/* One job as it is being mapped. */
struct fio_job {
	char *name;
	unsigned kb_base;
	uint64_t numjobs;
	bool stonewall;
	bool new_group;       /* starts a new reporting group (stonewall does too) */
	bool group_reporting; /* fio reports the job's group as one */
	struct fio_kvl io;
	struct fio_strs notes;
	/* the scenario's target, when the job names one */
	char *dir, *device;
	struct src_pos target_pos;
	/* options mapped together when the job is complete */
	int invalidate; /* -1: not given (fio's default is 1) */
	int prioclass, prio;
	char *ss, *ss_dur, *ss_ramp;
	fio_engine_fn engine_of; /* ioengine=: NULL maps none */
};

#endif

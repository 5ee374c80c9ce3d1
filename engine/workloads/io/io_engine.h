/* io_engine: the I/O engines of the io step behind one ops table, as fio's
 * engines/ are.
 *
 * An engine is one file defining a `struct io_engine_ops` and one row in
 * io_engines[] (io_engine.c), plus its declaration below. The engine drives
 * one job (thread, file) from set-up to its last I/O: what to issue, when to
 * stop and how to count each I/O are io_job.h's (io_next, io_may_issue,
 * io_done, io_finish), so every engine makes the same decisions and only the
 * way the I/O reaches the kernel differs. Nothing is allocated and no lock
 * is taken per I/O. */
#ifndef BENCHGRID_IO_ENGINE_H
#define BENCHGRID_IO_ENGINE_H

#include <stdbool.h>

#define IO_ENGINE_OPS_VERSION 1

struct io_job;

struct io_engine_ops {
	int version;      /* IO_ENGINE_OPS_VERSION */
	const char *name; /* the value of the step's `engine:` */
	bool queued;      /* keeps iodepth I/Os in flight; false: one at a time */
	/* Can this kernel run the engine? 0 or a negative errno, in which case
	 * the step falls back to psync with a warning. NULL: always. */
	int (*probe)(void);
	/* In the job's own thread, before the start gate: per-thread state in
	 * *ctx. On failure, io_job_fail() and a negative errno. NULL: none. */
	int (*setup)(struct io_job *j, void **ctx);
	/* The timed part: I/O until io_may_issue() says no, then io_finish(). */
	void (*run)(struct io_job *j, void *ctx);
	/* Release what setup made, also after a failed setup. NULL: none. */
	void (*cleanup)(struct io_job *j, void *ctx);
};

extern const struct io_engine_ops io_engine_io_uring; /* io_engine_uring.c */
extern const struct io_engine_ops io_engine_psync;    /* io_engine_psync.c */
extern const struct io_engine_ops io_engine_trim;     /* io_engine_trim.c: rw: trim | randtrim */

/* Every engine, NULL-terminated; the first is the default. */
extern const struct io_engine_ops *const io_engines[];

#endif

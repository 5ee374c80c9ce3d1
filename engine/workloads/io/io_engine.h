/* io_engine: the I/O engines of the io step behind one ops table, as fio's
 * engines/ are.
 *
 * An engine is one file, io_engine_NAME.c, defining a `struct io_engine_ops
 * io_engine_NAME`, and one row X(NAME) in IO_ENGINE_LIST below: the table
 * io_engines[] (io_engine.c), the declarations here and the allowed values
 * of the option table (io_opts_table.c, so `check`, the schema and
 * docs/options.md) are all made from that list. The engine drives one job
 * (thread, file) from set-up to its last I/O: what to issue, when to stop
 * and how to count each I/O are io_job.h's (io_next, io_may_issue, io_done,
 * io_finish), so every engine makes the same decisions and only the way the
 * I/O reaches the kernel differs. Nothing is allocated and no lock is taken
 * per I/O. */
#ifndef BENCHGRID_IO_ENGINE_H
#define BENCHGRID_IO_ENGINE_H

#include <stdbool.h>

#define IO_ENGINE_OPS_VERSION 1

/* Every engine of `engine:`, in the order of the error messages; the first
 * is the default. X(NAME): the value of `engine:`, whose ops object is
 * io_engine_NAME. */
#define IO_ENGINE_LIST(X) X(io_uring) X(psync) X(libaio) X(mmap)

struct diag;
struct io_job;
struct io_opts;
struct node;

struct io_engine_ops {
	int version;      /* IO_ENGINE_OPS_VERSION */
	const char *name; /* the value of the step's `engine:`, and fio's ioengine of that name */
	bool queued;      /* keeps iodepth I/Os in flight; false: one at a time */
	/* fio's other ioengine names that `import-fio` maps to this engine,
	 * space-separated ("sync pvsync"); NULL: only `name`. */
	const char *fio_also;
	/* What this engine cannot do with these options, at check time: errors
	 * at the offending value (opts is the step's map, o parsed from it
	 * without errors). NULL: everything. */
	void (*check)(const struct node *opts, const struct io_opts *o, struct diag *d);
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

#define IO_ENGINE_DECLARE(NAME) extern const struct io_engine_ops io_engine_##NAME;
IO_ENGINE_LIST(IO_ENGINE_DECLARE)
#undef IO_ENGINE_DECLARE
extern const struct io_engine_ops io_engine_trim; /* io_engine_trim.c: rw: trim | randtrim */

/* Every engine, NULL-terminated; the first is the default. */
extern const struct io_engine_ops *const io_engines[];

/* The engine `import-fio` maps fio's `ioengine=NAME` to (its own name or
 * one of its fio_also), or NULL. */
const char *io_engine_for_fio(const char *fio_ioengine);

#endif

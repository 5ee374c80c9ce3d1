/* io_opts: the options of the `io:` step (docs/steps/io.md is the manual),
 * parsed and validated with the position of every value. */
#ifndef BENCHGRID_IO_OPTS_H
#define BENCHGRID_IO_OPTS_H

#include <stdbool.h>
#include <stdint.h>

#include "diag.h"
#include "io_rate_opts.h"
#include "io_dist_types.h"
#include "io_devopts.h"
#include "node.h"

struct io_engine_ops;

enum io_rw {
	IO_RW_READ,
	IO_RW_WRITE,
	IO_RW_RANDREAD,
	IO_RW_RANDWRITE,
	IO_RW_RANDRW,
	IO_RW_TRIM,
	IO_RW_RANDTRIM
};
enum io_sync { IO_SYNC_NONE, IO_SYNC_END, IO_SYNC_EVERY, IO_SYNC_DSYNC, IO_SYNC_SYNC };
enum io_cache { IO_CACHE_KEEP, IO_CACHE_DROP, IO_CACHE_INVALIDATE };
enum io_prepare { IO_PREPARE_AUTO, IO_PREPARE_LAYOUT, IO_PREPARE_NONE };
enum io_data { IO_DATA_RANDOM, IO_DATA_ZERO };
/* many files and metadata (io_files.c, io_meta.c) */
enum io_fservice { IO_FSERVICE_ROUNDROBIN, IO_FSERVICE_RANDOM, IO_FSERVICE_SEQUENTIAL };
enum io_meta_op { IO_OP_NONE, IO_OP_CREATE, IO_OP_STAT, IO_OP_UNLINK, IO_OP_OPEN_CLOSE, IO_OP_MKDIR };

/* Every option of the io step, with defaults filled in. */
struct io_opts {
	enum io_rw rw;
	unsigned mix;     /* % reads for randrw (default 50) */
	uint64_t bs;      /* default 4 KiB */
	uint64_t size;    /* per job file size, default 1 GiB */
	uint64_t io_size; /* bytes per job, default size; multiple of bs */
	double runtime;   /* seconds, 0 = bounded by io_size only */
	bool time_based;  /* loop over the file until runtime is up */
	double ramp;      /* seconds excluded from the figures */
	bool direct;
	enum io_sync sync;
	uint64_t sync_every; /* IO_SYNC_EVERY: fdatasync after this many writes */
	enum io_cache cache;
	const struct io_engine_ops *engine; /* a row of io_engines[]; default the first */
	unsigned iodepth;                   /* default 1 */
	unsigned jobs;                      /* default 1 */
	char file[256];                     /* default "benchgrid-io.dat" */
	bool keep;
	enum io_prepare prepare;
	enum io_data data;
	double interval; /* default 1 s */
	bool verify;
	uint64_t seed;
	/* many files and metadata (io_files.c, io_meta.c) */
	unsigned nrfiles;                    /* files per job, default 1 */
	uint64_t filesize_min, filesize_max; /* each file's size; 0: size / nrfiles */
	enum io_fservice file_service;
	unsigned openfiles; /* files open at once per job, default nrfiles */
	bool many_files;    /* nrfiles > 1 or filesize: files NAME.JOB.FILE */
	enum io_meta_op op; /* IO_OP_NONE: data I/O */
	unsigned dirs, files_per_dir;
	/* latency logs (io_lat.c) */
	bool lat_log;           /* per-I/O latencies in STEP.lat.csv */
	double hist_log;        /* seconds between the histograms of STEP.hist.csv, 0 = none */
	struct io_rate_opts rt; /* rate, thinktime, cpus_allowed, nice, ioprio (io_rate_opts.h) */
	/* random_distribution, bssplit (io_dist_opts.c; a split sets bs to its smallest size) */
	struct io_dist_opts dist;
	struct io_bssplit_opts bssplit;
	/* raw devices, trim, precondition, steady state (io_devopts.c) */
	struct io_dev_opts dev;
	/* where things were written, for run-time errors */
	struct src_pos pos, cache_pos, direct_pos, file_pos, engine_pos;
};

/* Parse and validate `opts` (a map, or NULL/null for all defaults). Every
 * problem is added to d with the position of the offending value; returns 0
 * or -EINVAL. */
int io_opts_parse(const struct node *opts, struct io_opts *o, struct diag *d);

/* many files and metadata: the parser of their keys, called last by
 * io_opts_parse (an ops object, as io_engines are, so that io_files.c
 * depends on this header and not the other way round) */
struct io_opts_ext {
	void (*parse)(const struct node *opts, struct io_opts *o, struct diag *d);
};
extern const struct io_opts_ext io_files_opts; /* io_files.c */

const char *io_rw_name(enum io_rw rw);
/* trims destroy data (writes) on a file that is laid out first (reads) */
static inline bool io_rw_trims(enum io_rw rw)
{
	return rw == IO_RW_TRIM || rw == IO_RW_RANDTRIM;
}
static inline bool io_rw_writes(enum io_rw rw)
{
	return rw == IO_RW_WRITE || rw == IO_RW_RANDWRITE || rw == IO_RW_RANDRW || io_rw_trims(rw);
}
static inline bool io_rw_reads(enum io_rw rw)
{
	return rw == IO_RW_READ || rw == IO_RW_RANDREAD || rw == IO_RW_RANDRW || io_rw_trims(rw);
}
static inline bool io_rw_random(enum io_rw rw)
{
	return rw == IO_RW_RANDREAD || rw == IO_RW_RANDWRITE || rw == IO_RW_RANDRW || rw == IO_RW_RANDTRIM;
}

#endif

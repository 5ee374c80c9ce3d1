/* wl_io: the native storage workload, the `io:` step.
 *
 * One step runs `jobs` threads in the cell's target directory, each on its
 * own file (`file`, or `file.N` when jobs > 1), issuing reads and writes of
 * `bs` bytes sequentially or at random offsets through io_uring (one ring
 * per thread, registered files and buffers, batched submission, completions
 * reaped from the ring) or plain pread/pwrite (psync). Latencies go into one
 * log-linear histogram per thread (hist.h), merged after the join; a monitor
 * thread samples per-thread counters every `interval` for the mb_s and iops
 * time series. Nothing is allocated and no lock is taken per I/O.
 *
 * Options are parsed by io_opts_parse() (io_opts.c) into struct io_opts; the
 * run-time parts live in wl_io.c (files, prepare, threads, metrics) and
 * io_engine.c (the per-thread I/O loops). docs/steps/io.md is the manual. */
#ifndef BENCHGRID_WL_IO_H
#define BENCHGRID_WL_IO_H

#include <stdbool.h>
#include <stdint.h>

#include "diag.h"
#include "node.h"
#include "workload.h"

extern const struct workload_ops wl_io_ops;

enum io_rw { IO_RW_READ, IO_RW_WRITE, IO_RW_RANDREAD, IO_RW_RANDWRITE, IO_RW_RANDRW };
enum io_sync { IO_SYNC_NONE, IO_SYNC_END, IO_SYNC_EVERY, IO_SYNC_DSYNC, IO_SYNC_SYNC };
enum io_cache { IO_CACHE_KEEP, IO_CACHE_DROP, IO_CACHE_INVALIDATE };
enum io_engine { IO_ENGINE_IO_URING, IO_ENGINE_PSYNC };
enum io_prepare { IO_PREPARE_AUTO, IO_PREPARE_LAYOUT, IO_PREPARE_NONE };
enum io_data { IO_DATA_RANDOM, IO_DATA_ZERO };

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
	enum io_engine engine;
	unsigned iodepth; /* default 1 */
	unsigned jobs;    /* default 1 */
	char file[256];   /* default "benchgrid-io.dat" */
	bool keep;
	enum io_prepare prepare;
	enum io_data data;
	double interval; /* default 1 s */
	bool verify;
	uint64_t seed;
	/* where things were written, for run-time errors */
	struct src_pos pos, cache_pos, direct_pos, file_pos, engine_pos;
};

/* Parse and validate `opts` (a map, or NULL/null for all defaults). Every
 * problem is added to d with the position of the offending value; returns 0
 * or -EINVAL. */
int io_opts_parse(const struct node *opts, struct io_opts *o, struct diag *d);

const char *io_rw_name(enum io_rw rw);
static inline bool io_rw_writes(enum io_rw rw)
{
	return rw == IO_RW_WRITE || rw == IO_RW_RANDWRITE || rw == IO_RW_RANDRW;
}
static inline bool io_rw_reads(enum io_rw rw)
{
	return rw == IO_RW_READ || rw == IO_RW_RANDREAD || rw == IO_RW_RANDRW;
}
static inline bool io_rw_random(enum io_rw rw)
{
	return rw == IO_RW_RANDREAD || rw == IO_RW_RANDWRITE || rw == IO_RW_RANDRW;
}

/* The verify pattern. A block at file offset `off` holds a 32-byte header
 * (magic, offset, seed, checksum of the rest) followed by words derived from
 * (seed, offset); so the content of an offset is the same however often it
 * is written. len >= IO_PATTERN_MIN. */
#define IO_PATTERN_MIN 64
void io_pattern_fill(void *buf, uint64_t len, uint64_t off, uint64_t seed);
/* 0 when the block is intact, -EILSEQ otherwise. */
int io_pattern_check(const void *buf, uint64_t len, uint64_t off, uint64_t seed);

#endif

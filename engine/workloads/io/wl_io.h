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
 * Options are parsed by io_opts.c into struct io_opts; wl_io.c does the
 * files, prepare, threads and metrics; io_job.c is what every worker shares
 * (start gate, the per-I/O decisions and accounting); the engines sit
 * behind struct io_engine_ops (io_engine.h), one file each
 * (io_engine_psync.c, io_engine_uring.c). docs/steps/io.md is the manual. */
#ifndef BENCHGRID_WL_IO_H
#define BENCHGRID_WL_IO_H

#include "workload.h"

extern const struct workload_ops wl_io_ops;

#endif

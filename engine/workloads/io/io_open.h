/* io_open: a job's file or device before the timed part, the same way
 * wherever it is opened: the open flags (wl_io.c for files, io_device.c
 * for raw devices), `cache: invalidate` (the file's pages) and `cache:
 * drop` (the whole page cache; also io_meta.c's metadata steps). */
#ifndef BENCHGRID_IO_OPEN_H
#define BENCHGRID_IO_OPEN_H

#include <stdbool.h>

#include "io_opts.h"

struct io_job;
struct step_result;

/* The flags of open(2) for a job's file or device: the access of o->rw (a
 * writer opens read-write, as fio does: mmap's shared writable mapping
 * needs it), sync: dsync/sync, direct, O_CLOEXEC; O_CREAT with `create`,
 * O_TRUNC with `truncate`. */
int io_open_flags(const struct io_opts *o, bool create, bool truncate);

/* cache: invalidate on the job's open file: its dirty pages written, then
 * dropped from the page cache. 0, or a negative errno after io_job_fail. */
int io_cache_invalidate(const struct io_opts *o, struct io_job *j);

/* cache: drop: sync, then drop the whole page cache (root). 0, or a
 * negative errno with res failed at the cache option's position. */
int io_cache_drop(const struct io_opts *o, struct step_result *res);

#endif

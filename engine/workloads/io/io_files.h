/* io_files: many files per job (`nrfiles`, `filesize`, `file_service`,
 * `openfiles`) and the options of the metadata workloads (`op`, `dirs`,
 * `files_per_dir`, run by io_meta.c); see docs/steps/io.md, "Many files and
 * metadata operations".
 *
 * A job with many files has a table of them (struct io_files, j->mf). Each
 * I/O first picks a file as fio's file_service_type does, makes it the job's
 * j->fd (opening it, and evicting the least recently used open file when
 * `openfiles` are open), then picks the offset in that file with its own
 * sequential position and random permutation (io_next_one). An evicted file
 * is closed only at the next io_publish, once the I/O prepared on it has been
 * submitted: io_uring resolves a plain fd when it issues the request. */
#ifndef BENCHGRID_IO_FILES_H
#define BENCHGRID_IO_FILES_H

#include <stdbool.h>
#include <stdint.h>

#include "diag.h"
#include "node.h"

struct io_job;
struct io_opts;

/* The keys of both areas (nrfiles, filesize, file_service, openfiles, op,
 * dirs, files_per_dir) are parsed by io_files_opts (io_opts.h). */

/* The size of file k of every job: filesize (a range: drawn from the seed,
 * a multiple of bs), or size / nrfiles rounded down to bs. */
uint64_t io_files_size(const struct io_opts *o, unsigned k);

/* Opens (and prepares) the job's file at j->path, of j->fsize bytes, into
 * j->fd; sets *created when the file did not exist. 0 or a negative errno
 * after io_job_fail. wl_io.c's own preparation of one file. */
typedef int (*io_files_open_fn)(void *ud, struct io_job *j, bool *created);

/* Before the threads: the job's nrfiles files DIR/FILE.JOB.K prepared one
 * by one through open_one, the first `openfiles` kept open. 0 or a negative
 * errno after io_job_fail (j->errmsg). */
int io_files_prepare(struct io_job *j, const char *dir, io_files_open_fn open_one, void *ud);

/* Close everything, remove the files the step prepared unless keep (a file
 * that existed and was not written, prepare: none, stays), free the table. */
void io_files_free(struct io_job *j, bool keep, bool prepare_none);

#endif

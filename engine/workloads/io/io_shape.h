/* io_shape: a job's random_distribution and bssplit at run time: the
 * generator and the size table, and the io_next of a job that has either
 * (installed as io_job.shaped, so that jobs without them pay one
 * predictable branch). */
#ifndef BENCHGRID_IO_SHAPE_H
#define BENCHGRID_IO_SHAPE_H

#include <stdbool.h>
#include <stdint.h>

struct io_job;

/* Set up j->dist, j->bs_table and j->shaped from the options; 0 or -ENOMEM. */
int io_shape_job_init(struct io_job *j);
void io_shape_job_free(struct io_job *j);
/* The next operation of a shaped job: offset, length; true for a read. */
bool io_shape_next(struct io_job *j, uint64_t *off, uint64_t *len);

#endif

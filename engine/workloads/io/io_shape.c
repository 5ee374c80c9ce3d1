/* io_shape: random_distribution and bssplit of one job at run time (see
 * io_shape.h). */
#include "io_shape.h"

#include <errno.h>
#include <stdlib.h>

#include "io_dist.h"
#include "io_job.h"
#include "io_opts.h"

int io_shape_job_init(struct io_job *j)
{
	const struct io_opts *o = j->sh->o;
	if (o->dist.kind != IO_DIST_UNIFORM && io_rw_random(o->rw)) {
		j->dist = malloc(sizeof(*j->dist));
		if (!j->dist || io_dist_init(j->dist, &o->dist, j->nblocks, o->seed * 1000003u + j->idx))
			return -ENOMEM;
	}
	if (o->bssplit.n) {
		uint64_t *t = malloc(100 * sizeof(*t));
		if (!t)
			return -ENOMEM;
		unsigned k = 0;
		for (unsigned i = 0; i < o->bssplit.n; i++)
			for (unsigned p = 0; p < o->bssplit.pct[i] && k < 100; p++)
				t[k++] = o->bssplit.size[i];
		while (k < 100)
			t[k++] = o->bssplit.size[o->bssplit.n - 1];
		j->bs_table = t;
	}
	j->shaped = j->dist || j->bs_table ? io_shape_next : NULL;
	return 0;
}

void io_shape_job_free(struct io_job *j)
{
	free(j->dist);
	free((void *)j->bs_table);
	j->dist = NULL;
	j->bs_table = NULL;
	j->shaped = NULL;
}

bool io_shape_next(struct io_job *j, uint64_t *off, uint64_t *len)
{
	const struct io_opts *o = j->sh->o;
	uint64_t l = j->bs_table ? j->bs_table[io_xorshift(&j->rng) % 100] : o->bs;
	bool rd;
	if (l > j->fsize) /* a file of a filesize range smaller than the split's size */
		l = j->fsize;
	*len = l;
	switch (o->rw) {
	case IO_RW_READ:
	case IO_RW_WRITE:
	case IO_RW_TRIM:
		if (j->seq_off + l > j->fsize) /* a larger I/O would pass the end: wrap */
			j->seq_off = 0;
		*off = j->seq_off;
		j->seq_off += l;
		return o->rw == IO_RW_READ;
	case IO_RW_RANDREAD: rd = true; break;
	case IO_RW_RANDWRITE:
	case IO_RW_RANDTRIM: rd = false; break;
	default: rd = io_xorshift(&j->rng) % 100 < o->mix; break;
	}
	uint64_t b = j->dist ? io_dist_block(j->dist) : io_perm_next(j);
	*off = b * o->bs;
	if (*off + l > j->fsize) /* a larger I/O of the split ends at the end */
		*off = j->fsize - l;
	return rd;
}

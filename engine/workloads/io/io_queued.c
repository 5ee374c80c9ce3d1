/* io_queued: the state of the queued engines' loop (see io_queued.h): its
 * slots and their free list, made in the engine's set-up. */
#include "io_queued.h"

#include <errno.h>
#include <stdlib.h>

#include "io_engine.h"

int io_queued_init(struct io_queued *q, struct io_job *j)
{
	q->j = j;
	q->depth = j->nslots;
	q->left = 0;
	q->free = calloc(j->nslots, sizeof(*q->free));
	q->slot = calloc(j->nslots, sizeof(*q->slot));
	if (!q->free || !q->slot) {
		io_job_fail(j, -ENOMEM, "%s: out of memory", j->sh->engine->name);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < q->depth; i++)
		q->free[i] = i;
	return 0;
}

void io_queued_free(struct io_queued *q)
{
	free(q->free);
	free(q->slot);
	q->free = NULL;
	q->slot = NULL;
}

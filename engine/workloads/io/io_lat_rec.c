/* io_lat_rec: the latency log's chunks and the options lat_log and
 * hist_log (see io_lat_rec.h). */
#include "io_lat_rec.h"

#include <errno.h>
#include <stdlib.h>

#include "diag.h"
#include "node.h"

void io_lat_parse(const struct node *opts, bool *lat_log, double *hist_log, struct diag *d)
{
	const struct node *n;
	if ((n = node_get(opts, "lat_log")))
		node_as_bool(n, "io.lat_log", lat_log, d);
	if ((n = node_get(opts, "hist_log")) && !node_as_duration(n, "io.hist_log", false, hist_log, d) &&
	    *hist_log < 0.01)
		diag_error(d, &n->pos, "io.hist_log: %g s is too short (at least 10ms)", *hist_log);
}

int io_lat_log_grow(struct io_lat_log *l)
{
	struct io_lat_chunk *c = malloc(sizeof(*c) + IO_LAT_CHUNK_RECS * sizeof(struct io_lat_rec));
	if (!c) {
		l->dropped++;
		return -ENOMEM;
	}
	c->next = NULL;
	c->n = 0;
	if (l->tail) {
		l->tail->n = (size_t)(l->cur - l->tail->rec);
		l->tail->next = c;
	} else {
		l->head = c;
	}
	l->tail = c;
	l->cur = c->rec;
	l->end = c->rec + IO_LAT_CHUNK_RECS;
	return 0;
}

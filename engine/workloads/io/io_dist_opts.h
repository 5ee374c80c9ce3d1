/* io_dist_opts: parsing of `random_distribution` and `bssplit` (fio's
 * syntax; docs/steps/io.md), with the rules against the other options. */
#ifndef BENCHGRID_IO_DIST_OPTS_H
#define BENCHGRID_IO_DIST_OPTS_H

#include <stdbool.h>
#include <stdint.h>

#include "diag.h"
#include "io_dist_types.h"
#include "node.h"

/* What the rules need of the other io options. */
struct io_dist_rules {
	bool random;    /* rw is a random mode */
	const char *rw; /* its name, for messages */
	bool direct, verify;
	bool bs_given; /* `bs` is in the map too */
	uint64_t size;
};

/* Parse both keys of the io options map `opts` (absent keys leave the
 * defaults: uniform, no split). A split that fails leaves bs->n = 0.
 * Problems go to d with the value's position. */
void io_dist_parse(const struct node *opts, const struct io_dist_rules *r, struct io_dist_opts *dist,
                   struct io_bssplit_opts *bs, struct diag *d);

#endif

/* io_dist_types: the options and generator state of random_distribution
 * and bssplit (io_dist.h, io_dist_opts.h), kept apart so that io_opts.h
 * can embed them. */
#ifndef BENCHGRID_IO_DIST_TYPES_H
#define BENCHGRID_IO_DIST_TYPES_H

#include <stdint.h>

#include "diag.h"

enum io_dist_kind { IO_DIST_UNIFORM, IO_DIST_ZIPF, IO_DIST_PARETO, IO_DIST_NORMAL, IO_DIST_ZONED };

#define IO_DIST_MAX_ZONES 256
#define IO_BSSPLIT_MAX    64

struct io_dist_opts {
	enum io_dist_kind kind;
	double param; /* zipf theta, pareto h, normal sigma in % */
	unsigned nzones;
	unsigned char zone_io[IO_DIST_MAX_ZONES];    /* % of the I/O */
	unsigned char zone_range[IO_DIST_MAX_ZONES]; /* % of the file */
};

struct io_bssplit_opts {
	unsigned n; /* 0: no split, every I/O is bs */
	uint64_t size[IO_BSSPLIT_MAX];
	unsigned pct[IO_BSSPLIT_MAX];
	uint64_t min, max;
	struct src_pos pos;
};

/* The generator of one job (or of a test): parameters derived once. */
struct io_dist_state {
	enum io_dist_kind kind;
	uint64_t n; /* ranks (blocks) */
	uint64_t rng;
	/* zipf */
	double theta, zetan, zeta2, alpha, eta;
	/* pareto */
	double pareto_pow;
	/* normal */
	uint64_t sd;
	/* scatter: a bijection of [0, 2^bits) walked into [0, n) */
	uint64_t mask, key;
	unsigned shift;
	/* zoned: zone of each percent 0..99, and the zones' block ranges */
	unsigned char zone_of_pct[100];
	uint64_t zone_start[IO_DIST_MAX_ZONES], zone_len[IO_DIST_MAX_ZONES];
};

#endif

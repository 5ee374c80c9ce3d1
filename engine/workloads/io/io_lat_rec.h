/* io_lat_rec: the hot-path half of the io step's latency over time (see
 * io_lat.h): counting one measured I/O in the job's bucket arrays and its
 * per-I/O log, inline; and the two options that turn the logs on. */
#ifndef BENCHGRID_IO_LAT_REC_H
#define BENCHGRID_IO_LAT_REC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hist.h"

struct node;
struct diag;

/* One I/O of the latency log: completion time (CLOCK_MONOTONIC ns),
 * latency (ns), offset, length, direction. */
struct io_lat_rec {
	uint64_t t, lat, off;
	uint32_t len, rd;
};

#define IO_LAT_CHUNK_RECS ((1u << 20) / sizeof(struct io_lat_rec))

struct io_lat_chunk {
	struct io_lat_chunk *next;
	size_t n; /* records used, set when the next chunk starts or at the end */
	struct io_lat_rec rec[];
};

/* A job's latency log: records in a list of chunks. */
struct io_lat_log {
	struct io_lat_rec *cur, *end; /* free space in the last chunk */
	struct io_lat_chunk *head, *tail;
	uint64_t n;       /* records kept */
	uint64_t dropped; /* records lost to a failed allocation */
};

/* A new chunk for l; 0, or -ENOMEM (the record is dropped and counted). */
int io_lat_log_grow(struct io_lat_log *l);

/* hist_bucket_index, inline for the hot path (test_io_lat checks that they
 * agree). */
static inline unsigned io_lat_index(uint64_t v)
{
	if (v < 2 * HIST_SUB)
		return (unsigned)v;
	unsigned msb = 63u - (unsigned)__builtin_clzll(v);
	if (msb > HIST_MAX_MSB)
		return HIST_NBUCKETS - 1;
	unsigned shift = msb - HIST_SUB_BITS;
	return shift * HIST_SUB + (unsigned)(v >> shift);
}

/* Count one measured I/O: its bucket in buckets (the job's array for its
 * direction), and its record in log (NULL without lat_log). */
static inline void io_lat_count(uint64_t *buckets, struct io_lat_log *log, bool rd, uint64_t lat,
                                uint64_t off, uint64_t len, uint64_t now)
{
	uint64_t *b = &buckets[io_lat_index(lat)];
	__atomic_store_n(b, *b + 1, __ATOMIC_RELAXED);
	if (log) {
		if (log->cur == log->end && io_lat_log_grow(log))
			return;
		*log->cur++ = (struct io_lat_rec){now, lat, off, (uint32_t)len, rd};
	}
}

/* The io options lat_log (bool) and hist_log (a duration of at least 10ms),
 * for io_opts_parse. */
void io_lat_parse(const struct node *opts, bool *lat_log, double *hist_log, struct diag *d);

#endif

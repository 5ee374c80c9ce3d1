/* hist: a log-linear latency histogram (values in nanoseconds).
 *
 * Summary: values below 256 ns are counted exactly; above, every power of
 * two [2^k, 2^(k+1)) is split into 128 equal buckets, so a bucket is never
 * wider than 1/128 of the values it holds. A percentile is reported as the
 * middle of the bucket that holds the wanted rank (clamped to the exact min
 * and max), which is within 0.4% of the true sample value: comfortably under
 * the 1% the reports promise. Values of 2^48 ns (78 hours) and more share the
 * last bucket; min, max, mean and standard deviation stay exact.
 *
 * The structure is a fixed array of counters (no pointers, ~43 KiB), so one
 * hist per thread can be recorded into without locks or allocation and merged
 * after the threads are joined; merging is a bucket-wise sum. */
#ifndef BENCHGRID_HIST_H
#define BENCHGRID_HIST_H

#include <stddef.h>
#include <stdint.h>

#define HIST_SUB_BITS 7
#define HIST_SUB      (1u << HIST_SUB_BITS) /* buckets per power of two */
#define HIST_MAX_MSB  47                    /* highest distinct power of two */
#define HIST_NBUCKETS ((HIST_MAX_MSB - HIST_SUB_BITS) * HIST_SUB + 2 * HIST_SUB)

struct hist {
	uint64_t count;
	uint64_t min, max; /* exact; min = UINT64_MAX while empty */
	uint64_t sum;      /* exact sum of values (ns) */
	double sumsq;      /* sum of squares, for the standard deviation */
	uint64_t bucket[HIST_NBUCKETS];
};

void hist_init(struct hist *h);
/* Count one value. No allocation, no lock: one hist per thread. */
void hist_record(struct hist *h, uint64_t ns);
/* Add every value of src to dst. */
void hist_merge(struct hist *dst, const struct hist *src);

uint64_t hist_count(const struct hist *h);
uint64_t hist_min(const struct hist *h); /* 0 when empty */
uint64_t hist_max(const struct hist *h);
double hist_mean(const struct hist *h);   /* 0 when empty */
double hist_stddev(const struct hist *h); /* population standard deviation */
/* Value at percentile pct in [0,100] (nearest rank; 0 -> min, 100 -> max). */
uint64_t hist_percentile(const struct hist *h, double pct);

/* Bucket geometry, for reporters that dump the distribution. */
unsigned hist_bucket_index(uint64_t ns);
uint64_t hist_bucket_low(unsigned idx);  /* smallest value in bucket idx */
uint64_t hist_bucket_high(unsigned idx); /* largest value in bucket idx */

/* The compact form results.json keeps of a step's latencies, for the
 * latency charts (docs/results.md, "Latency distributions"): the buckets
 * above merged 8 by 8, so 16 per power of two (a bucket is at most 1/16 of
 * its values wide; a percentile read from it is within 3.2%), over
 * intervals of time. Coarse bucket c holds [hist_coarse_low(c),
 * hist_coarse_low(c + 1)) ns: 8c below 32, else (16 + c mod 16) *
 * 2^(c div 16 + 2). As text:
 *   "h16" then, per interval, ";START_S,END_S" and its non-empty buckets as
 *   runs " C:N,N,N" (the counts of buckets C, C+1, C+2).
 * A hist_text grows that text interval by interval; past HIST_TEXT_MAX_IVL
 * intervals it merges them two by two (and the later ones in twos, fours,
 * ...), so a long step keeps a bounded text (about 1 kB an interval). */
#define HIST_COARSE_SHIFT 3
#define HIST_COARSE_N     (HIST_NBUCKETS >> HIST_COARSE_SHIFT)

uint64_t hist_coarse_low(unsigned c);

#define HIST_TEXT_MAX_IVL 128

struct hist_text {
	char *s; /* NUL-terminated, "h16..." once an interval was written; NULL before */
	size_t len, cap;
	uint64_t count; /* values in every interval added */
	int oom;        /* an append failed: the text is incomplete */
	/* the intervals not yet written: `every` are written as one */
	uint64_t *pend; /* HIST_COARSE_N coarse counts, allocated on first use */
	double pend_t0, pend_t1;
	unsigned npend, every, nivl;
};

/* Add the interval [t0, t1) s with the fine bucket counts b (HIST_NBUCKETS). */
void hist_text_add(struct hist_text *t, double t0, double t1, const uint64_t *b);
/* The text with every interval added (NULL when none, or out of memory). */
const char *hist_text_str(struct hist_text *t);
void hist_text_free(struct hist_text *t);

/* The text read back: nivl intervals, their times, and coarse counts
 * (nivl x HIST_COARSE_N, row-major). */
struct hist_series {
	size_t nivl;
	double *t0, *t1;
	uint64_t *c;
	size_t cap;     /* rows allocated (grow.h) */
	uint64_t total; /* every count parsed, at most HIST_SERIES_MAX_TOTAL */
};

/* A text holds at most this many intervals (the writer keeps at most
 * HIST_TEXT_MAX_IVL), and a series at most this many values, so that sums
 * over many series neither wrap nor lose precision as doubles. */
#define HIST_SERIES_MAX_IVL   (4 * HIST_TEXT_MAX_IVL)
#define HIST_SERIES_MAX_TOTAL (UINT64_C(1) << 53)

/* Parse text into hs, adding to what hs holds (intervals with the same
 * times are summed, so read and write of one step make one distribution):
 * 0, -EINVAL (not this form: a sign, a count out of range, t0 > t1, more
 * than HIST_SERIES_MAX_IVL intervals, a total over HIST_SERIES_MAX_TOTAL),
 * -ENOMEM. */
int hist_series_parse(struct hist_series *hs, const char *text);
void hist_series_free(struct hist_series *hs);
/* Value (ns) at percentile pct of counts c[HIST_COARSE_N]: the middle of the
 * bucket of that rank; NaN when empty. */
double hist_coarse_percentile(const uint64_t *c, double pct);

#endif

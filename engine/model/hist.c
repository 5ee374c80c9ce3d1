/* hist: log-linear latency histogram, see hist.h for the error bound.
 *
 * Index of a value v: below 2*HIST_SUB it is v itself. Otherwise, with
 * msb = position of the highest set bit, shift = msb - HIST_SUB_BITS, the
 * top HIST_SUB_BITS+1 bits of v (v >> shift, in [HIST_SUB, 2*HIST_SUB))
 * select the bucket within its power of two: idx = shift*HIST_SUB + (v>>shift).
 * Indices are contiguous and increase with v. */
#include "hist.h"

#include <math.h>
#include <string.h>

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

unsigned hist_bucket_index(uint64_t v)
{
	if (v < 2 * HIST_SUB)
		return (unsigned)v;
	unsigned msb = 63u - (unsigned)__builtin_clzll(v);
	if (msb > HIST_MAX_MSB)
		return HIST_NBUCKETS - 1;
	unsigned shift = msb - HIST_SUB_BITS;
	return shift * HIST_SUB + (unsigned)(v >> shift);
}

uint64_t hist_bucket_low(unsigned idx)
{
	if (idx < 2 * HIST_SUB)
		return idx;
	unsigned shift = idx / HIST_SUB - 1;
	uint64_t sub = idx - shift * HIST_SUB;
	return sub << shift;
}

uint64_t hist_bucket_high(unsigned idx)
{
	if (idx >= HIST_NBUCKETS - 1)
		return UINT64_MAX;
	return hist_bucket_low(idx + 1) - 1;
}

void hist_record(struct hist *h, uint64_t ns)
{
	h->bucket[hist_bucket_index(ns)]++;
	h->count++;
	h->sum += ns;
	h->sumsq += (double)ns * (double)ns;
	if (ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	if (!src->count)
		return;
	for (unsigned i = 0; i < HIST_NBUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
	dst->count += src->count;
	dst->sum += src->sum;
	dst->sumsq += src->sumsq;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

uint64_t hist_count(const struct hist *h)
{
	return h->count;
}

uint64_t hist_min(const struct hist *h)
{
	return h->count ? h->min : 0;
}

uint64_t hist_max(const struct hist *h)
{
	return h->max;
}

double hist_mean(const struct hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0.0;
}

double hist_stddev(const struct hist *h)
{
	if (h->count < 2)
		return 0.0;
	double n = (double)h->count, mean = (double)h->sum / n;
	double var = h->sumsq / n - mean * mean;
	return var > 0 ? sqrt(var) : 0.0;
}

uint64_t hist_percentile(const struct hist *h, double pct)
{
	if (!h->count)
		return 0;
	if (!(pct > 0))
		return h->min;
	if (pct >= 100)
		return h->max;
	/* nearest rank: the smallest value with at least pct% of values <= it */
	uint64_t rank = (uint64_t)ceil(pct / 100.0 * (double)h->count);
	if (rank < 1)
		rank = 1;
	uint64_t seen = 0;
	for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
		seen += h->bucket[i];
		if (seen < rank)
			continue;
		uint64_t lo = hist_bucket_low(i), hi = hist_bucket_high(i);
		uint64_t v = lo + (hi - lo) / 2;
		if (v < h->min)
			v = h->min;
		if (v > h->max)
			v = h->max;
		return v;
	}
	return h->max;
}
